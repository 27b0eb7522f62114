#pragma once
// Basic vector types of the engine. Double precision throughout: the implicit integrator
// (issue 4) needs it, and at cloth sizes the memory cost is negligible.
#include <Eigen/Dense>

namespace cloth {

using Vec2 = Eigen::Vector2d;  ///< rest-space (u, v) coordinates, m
using Vec3 = Eigen::Vector3d;  ///< world-space position / velocity / force

}  // namespace cloth
