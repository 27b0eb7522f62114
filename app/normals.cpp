#include "normals.hpp"

#include <cmath>

namespace app {

void compute_vertex_normals(const std::vector<cloth::Vec3>& positions,
                            const std::vector<std::array<int, 3>>& triangles,
                            std::vector<glm::vec3>& out) {
  // Accumulate in double: on a fine cloth the cross products are tiny (h^2).
  std::vector<glm::dvec3> sum(positions.size(), glm::dvec3(0.0));
  for (const auto& t : triangles) {
    const cloth::Vec3 c =
        (positions[t[1]] - positions[t[0]]).cross(positions[t[2]] - positions[t[0]]);
    const glm::dvec3 n(c.x(), c.y(), c.z());
    for (int k = 0; k < 3; ++k) sum[t[k]] += n;
  }
  out.resize(positions.size());
  for (size_t i = 0; i < sum.size(); ++i) {
    const double len = glm::length(sum[i]);
    out[i] = (len > 1e-30 && std::isfinite(len)) ? glm::vec3(sum[i] / len) : glm::vec3(0, 1, 0);
  }
}

}  // namespace app
