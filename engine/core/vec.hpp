#pragma once
// Basic vector types of the engine. Double precision throughout: the implicit integrator
// needs it, and at cloth sizes the memory cost is negligible.
#include <vector>

#include <Eigen/Dense>

namespace cloth {

using Vec2 = Eigen::Vector2d;  ///< rest-space (u, v) coordinates, m
using Vec3 = Eigen::Vector3d;  ///< world-space position / velocity / force

/// Views a Vec3 array as a flat 3n vector (Vec3 has no padding: 3 contiguous doubles).
inline Eigen::Map<Eigen::VectorXd> as_flat(std::vector<Vec3>& a) {
  return Eigen::Map<Eigen::VectorXd>(a.empty() ? nullptr : a[0].data(),
                                     3 * static_cast<Eigen::Index>(a.size()));
}
inline Eigen::Map<const Eigen::VectorXd> as_flat(const std::vector<Vec3>& a) {
  return Eigen::Map<const Eigen::VectorXd>(a.empty() ? nullptr : a[0].data(),
                                           3 * static_cast<Eigen::Index>(a.size()));
}

}  // namespace cloth
