#include "render/normals.hpp"

#include "geometry/vertex_normals.hpp"

namespace app {

void compute_vertex_normals(const std::vector<cloth::Vec3>& positions,
                            const std::vector<std::array<int, 3>>& triangles,
                            std::vector<glm::vec3>& out) {
  std::vector<cloth::Vec3> normals;
  cloth::vertex_normals(positions, triangles, normals);
  out.resize(normals.size());
  for (size_t i = 0; i < normals.size(); ++i)
    out[i] = glm::vec3(normals[i].x(), normals[i].y(), normals[i].z());
}

}  // namespace app
