#pragma once
// Smooth per-vertex normals of the deformed cloth, for shading: the engine's vertex_normals in
// the renderer's single precision.
#include <array>
#include <glm/glm.hpp>
#include <vector>

#include "core/vec.hpp"

namespace app {

/// cloth::vertex_normals (area-weighted, +y where no triangle counts) as floats. `out` is resized
/// to positions.size().
void compute_vertex_normals(const std::vector<cloth::Vec3>& positions,
                            const std::vector<std::array<int, 3>>& triangles,
                            std::vector<glm::vec3>& out);

}  // namespace app
