#pragma once
// Smooth per-vertex normals of the deformed cloth, for shading.
#include <array>
#include <glm/glm.hpp>
#include <vector>

#include "core/vec.hpp"

namespace app {

/// Area-weighted vertex normals: each triangle adds its unnormalised cross product (|c| = twice
/// its area) to its three vertices, so big triangles count more than slivers; then normalise.
/// A vertex with no usable triangle gets +y. `out` is resized to positions.size().
void compute_vertex_normals(const std::vector<cloth::Vec3>& positions,
                            const std::vector<std::array<int, 3>>& triangles,
                            std::vector<glm::vec3>& out);

}  // namespace app
