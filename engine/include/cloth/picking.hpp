#pragma once
// Ray picking on the deformed cloth (used by the app's mouse grab; no GL here).
#include <optional>

#include "cloth/mesh.hpp"
#include "cloth/state.hpp"

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

}  // namespace cloth
