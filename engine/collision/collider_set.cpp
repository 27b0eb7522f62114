#include "collision/collider_set.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace cloth {
namespace {

void check_friction(double mu) {
  if (!std::isfinite(mu) || mu < 0 || mu > 10) {
    throw InputError("collider friction must be in [0, 10], got " + std::to_string(mu));
  }
}

void check_collider(const Collider& collider) {
  if (!std::isfinite(collider.thickness) || collider.thickness < 0 || collider.thickness > 1)
    throw InputError("collider thickness must be in [0, 1] m");
  check_friction(collider.friction);
  check_friction(collider.mu_kinetic());
  Vec3 normal;
  if (!std::isfinite(shape_signed_distance(collider.shape, Vec3::Zero(), &normal)))
    throw InputError("collider shape has a non-finite size or position");
}

}  // namespace

ColliderSet::ColliderSet(const std::vector<Collider>& colliders) {
  for (const Collider& c : colliders) add(c);
}

int ColliderSet::add(const Collider& collider) {
  check_collider(collider);
  colliders_.push_back(collider);
  ++version_;
  return int(colliders_.size()) - 1;
}

void ColliderSet::replace(int k, const Collider& collider) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  check_collider(collider);
  colliders_[size_t(k)] = collider;
  ++version_;
}

void ColliderSet::remove(int k) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  colliders_.erase(colliders_.begin() + k);
  ++version_;
}

void ColliderSet::set_friction(int k, double static_mu, double kinetic_mu) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  check_friction(static_mu);
  check_friction(kinetic_mu);
  colliders_[size_t(k)].friction = static_mu;
  colliders_[size_t(k)].kinetic_friction = kinetic_mu;
}

void ColliderSet::set_offset(int k, const Vec3& offset) {
  if (k < 0 || k >= int(colliders_.size()) || !offset.allFinite()) return;
  colliders_[size_t(k)].offset = offset;
}

void ColliderSet::clear_offsets() {
  for (Collider& c : colliders_) c.offset.setZero();
}

}  // namespace cloth
