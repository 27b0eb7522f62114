#pragma once
// Ray picking on the deformed cloth (used by the app's mouse grab; no GL here).
#include <optional>

#include <vector>

#include "collision/collider.hpp"
#include "mesh/mesh.hpp"
#include "model/state.hpp"

namespace cloth {

struct PickHit {
  int triangle = -1;
  int vertex = -1;        ///< the hit triangle's vertex nearest the hit point
  double distance = 0;    ///< along the ray, in units of |direction|
  Vec3 point = Vec3::Zero();
};

/// Nearest triangle hit by origin + t * direction, t > 0 (Moller-Trumbore), if any.
std::optional<PickHit> pick(const RestMesh& mesh, const ClothState& state, const Vec3& origin,
                            const Vec3& direction);

struct ColliderHit {
  int collider = -1;
  double distance = 0;  ///< along the ray, m (direction normalised)
  Vec3 point = Vec3::Zero();
};

/// The nearest solid (planes left out: they are the ground) hit by the ray from `origin` along
/// `direction` at time t, found by sphere tracing each shape's signed distance; none beyond
/// `max_distance` m.
std::optional<ColliderHit> pick_collider(const std::vector<Collider>& colliders, double t,
                                         const Vec3& origin, const Vec3& direction,
                                         double max_distance = 100.0);

}  // namespace cloth
