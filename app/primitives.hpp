#pragma once
// Static meshes the renderer draws besides the cloth.
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace app {

struct SimpleMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<std::uint32_t> indices;  ///< triangles, counter-clockwise seen from outside
};

/// Unit-radius UV sphere centred at the origin (scaled / moved by a model matrix when drawn).
SimpleMesh make_uv_sphere(int slices, int stacks);

}  // namespace app
