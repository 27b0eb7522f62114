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

bool all_finite(const ClothState& s);

}  // namespace cloth
