#include "collision/collider_set.hpp"

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "core/parameter.hpp"

namespace cloth {
namespace {

/// Throws InputError naming "colliders.K.<key>" for a value outside its declared range
/// (visit_collider, visit_shape, visit_motion), or a shape whose distance is not finite.
void check_collider(const Collider& collider, int k) {
  const std::string key = "colliders." + std::to_string(k);
  visit_collider(RangeCheck(key), collider);
  std::visit([&](const auto& shape) { visit_shape(RangeCheck(key), shape); }, collider.shape);
  visit_motion(RangeCheck(key + ".motion"), collider.motion);
  Vec3 normal;
  if (!std::isfinite(shape_signed_distance(collider.shape, Vec3::Zero(), &normal)))
    throw InputError(key + ": the shape has a non-finite size or position");
}

/// Every number of a shape's declared sizes and position (visit_shape), in declaration order.
struct ShapeNumbers {
  std::vector<double>& out;
  void operator()(double x, const ParamInfo&) const { out.push_back(x); }
  void operator()(const Vec3& x, const ParamInfo&) const { out.insert(out.end(), x.data(), x.data() + 3); }
  void operator()(Direction<const Vec3> d, const ParamInfo& p) const { (*this)(d.value, p); }
};

/// Whether two shapes draw the same: the same type (a mesh the same file) and the same declared
/// numbers. Friction, thickness and the path do not change what is drawn.
bool same_shape(const Shape& a, const Shape& b) {
  if (a.index() != b.index()) return false;
  const auto* mesh_a = std::get_if<MeshShape>(&a);
  if (mesh_a && mesh_a->mesh != std::get<MeshShape>(b).mesh) return false;
  std::vector<double> na, nb;
  std::visit([&](const auto& s) { visit_shape(ShapeNumbers{na}, s); }, a);
  std::visit([&](const auto& s) { visit_shape(ShapeNumbers{nb}, s); }, b);
  return na == nb;
}

}  // namespace

int ColliderSet::add(const Collider& collider) {
  check_collider(collider, int(colliders_.size()));
  colliders_.push_back(collider);
  ++version_;
  return int(colliders_.size()) - 1;
}

void ColliderSet::replace(int k, const Collider& collider) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  check_collider(collider, k);
  // A friction, thickness or path edit (a panel slider dragged, every frame) redraws nothing.
  if (!same_shape(colliders_[size_t(k)].shape, collider.shape)) ++version_;
  colliders_[size_t(k)] = collider;
}

void ColliderSet::remove(int k) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  colliders_.erase(colliders_.begin() + k);
  ++version_;
}

void ColliderSet::set_friction(int k, double static_mu, double kinetic_mu) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  Collider changed = colliders_[size_t(k)];
  changed.friction = static_mu;
  changed.kinetic_friction = kinetic_mu;
  check_collider(changed, k);
  colliders_[size_t(k)] = std::move(changed);
}

void ColliderSet::set_offset(int k, const Vec3& offset) {
  if (k < 0 || k >= int(colliders_.size()) || !offset.allFinite()) return;
  colliders_[size_t(k)].offset = offset;
}

void ColliderSet::clear_offsets() {
  for (Collider& c : colliders_) c.offset.setZero();
}

}  // namespace cloth
