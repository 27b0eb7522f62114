#pragma once
// ClothState: the moving half of a cloth. One array per field (SoA); each std::vector<Vec3> is
// contiguous doubles and maps straight onto an Eigen 3n vector (see as_flat).
#include <vector>

#include "core/vec.hpp"

namespace cloth {

struct ClothState {
  std::vector<Vec3> x;  ///< positions, m
  std::vector<Vec3> v;  ///< velocities, m/s

  int vertex_count() const { return static_cast<int>(x.size()); }
};

/// Views a Vec3 array as a flat 3n vector (Vec3 has no padding: 3 contiguous doubles).
inline Eigen::Map<Eigen::VectorXd> as_flat(std::vector<Vec3>& a) {
  return Eigen::Map<Eigen::VectorXd>(a.empty() ? nullptr : a[0].data(),
                                     3 * static_cast<Eigen::Index>(a.size()));
}
inline Eigen::Map<const Eigen::VectorXd> as_flat(const std::vector<Vec3>& a) {
  return Eigen::Map<const Eigen::VectorXd>(a.empty() ? nullptr : a[0].data(),
                                           3 * static_cast<Eigen::Index>(a.size()));
}

bool all_finite(const ClothState& s);

}  // namespace cloth
