#pragma once
// The solids of a scene as the user edits them while it runs (the app's Collisions panel and its
// Shift + drag): each change is validated, and a version number tells the renderer when to
// rebuild its meshes.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "collision/collider.hpp"

namespace cloth {

class ColliderSet {
 public:
  ColliderSet() = default;
  /// The scene's solids, as its reader checked them.
  explicit ColliderSet(std::vector<Collider> colliders) : colliders_(std::move(colliders)) {}

  const std::vector<Collider>& all() const { return colliders_; }
  size_t size() const { return colliders_.size(); }
  bool empty() const { return colliders_.empty(); }
  const Collider& operator[](size_t k) const { return colliders_[k]; }
  auto begin() const { return colliders_.begin(); }
  auto end() const { return colliders_.end(); }

  /// Adds a solid; it takes part from the next step. Returns its index. Throws InputError for a
  /// value outside its declared range (visit_collider, visit_shape, visit_motion; NaN included)
  /// or a shape whose distance is not finite.
  int add(const Collider& collider);
  /// Puts `collider` in place of solid k, checked as by add(). Throws InputError if there is no
  /// solid k.
  void replace(int k, const Collider& collider);
  /// Removes solid k; the later ones move down one index. Throws InputError if there is none.
  void remove(int k);
  /// Coulomb coefficients of solid k, static and kinetic (dimensionless). Throws InputError for a
  /// missing solid or a coefficient outside its declared range (NaN included).
  void set_friction(int k, double static_mu, double kinetic_mu);
  /// Moves solid k by hand (the mouse) to `offset` from where the scene put it, on top of its
  /// motion, m. Ignored for an index out of range or a non-finite offset.
  void set_offset(int k, const Vec3& offset);
  /// Every solid back where the scene put it (reset).
  void clear_offsets();
  /// Changes whenever a solid is added or removed, or replaced by one of another shape, size or
  /// place (what the renderer draws; not for friction, thickness or path).
  std::uint64_t version() const { return version_; }

 private:
  std::vector<Collider> colliders_;
  std::uint64_t version_ = 0;
};

}  // namespace cloth
