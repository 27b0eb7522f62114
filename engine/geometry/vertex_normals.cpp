#include "geometry/vertex_normals.hpp"

#include <cmath>

namespace cloth {

void vertex_normals(const std::vector<Vec3>& positions,
                    const std::vector<std::array<int, 3>>& triangles, std::vector<Vec3>& out) {
  out.assign(positions.size(), Vec3::Zero());
  for (const auto& t : triangles) {
    const Vec3 c = (positions[t[1]] - positions[t[0]]).cross(positions[t[2]] - positions[t[0]]);
    for (int k = 0; k < 3; ++k) out[t[k]] += c;
  }
  for (Vec3& n : out) {
    // On a fine cloth the cross products are tiny (h^2), hence the absolute floor far below them.
    const double len = n.norm();
    n = (len > 1e-30 && std::isfinite(len)) ? Vec3(n / len) : Vec3::UnitY();
  }
}

}  // namespace cloth
