#include "primitives.hpp"

#include <cmath>
#include <glm/gtc/constants.hpp>

namespace app {

SimpleMesh make_uv_sphere(int slices, int stacks) {
  SimpleMesh m;
  for (int j = 0; j <= stacks; ++j) {
    const float theta = glm::pi<float>() * float(j) / float(stacks);  // from +y down to -y
    for (int i = 0; i <= slices; ++i) {
      const float phi = 2.0f * glm::pi<float>() * float(i) / float(slices);
      const glm::vec3 p(std::sin(theta) * std::cos(phi), std::cos(theta),
                        std::sin(theta) * std::sin(phi));
      m.positions.push_back(p);
      m.normals.push_back(p);  // unit sphere: the normal is the position
    }
  }
  const auto idx = [slices](int i, int j) { return std::uint32_t(j * (slices + 1) + i); };
  for (int j = 0; j < stacks; ++j) {
    for (int i = 0; i < slices; ++i) {
      // Quad (i,j)-(i+1,j)-(i+1,j+1)-(i,j+1), wound counter-clockwise seen from outside.
      m.indices.insert(m.indices.end(), {idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)});
      m.indices.insert(m.indices.end(), {idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)});
    }
  }
  return m;
}

}  // namespace app
