#pragma once
// Triangle meshes to draw the solid colliders, in world space at the solids' starting places
// (the renderer moves them along their motion paths). Planes are drawn as the ground instead.
#include <cstdint>
#include <glm/glm.hpp>
#include <optional>
#include <vector>

#include "collision/collider.hpp"

namespace app {

struct SimpleMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<std::uint32_t> indices;  ///< triangles, counter-clockwise seen from outside
};

/// The drawable surface of a collider's shape, or nothing for a plane.
std::optional<SimpleMesh> collider_mesh(const cloth::Shape& shape);

}  // namespace app
