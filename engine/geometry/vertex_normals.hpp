#pragma once
// Smooth per-vertex normals of a deformed triangle mesh (shading, exported OBJ frames).
#include <array>
#include <vector>

#include "core/vec.hpp"

namespace cloth {

/// Area-weighted vertex normals: each triangle adds its unnormalised cross product (|c| = twice
/// its area) to its three vertices, so big triangles count more than slivers; then normalise
/// (the averaged facet normals of Gouraud 1971, weighted by area, one of the weights Max 1999
/// compares). A vertex with no usable triangle gets +y. `out` is resized to positions.size().
void vertex_normals(const std::vector<Vec3>& positions,
                    const std::vector<std::array<int, 3>>& triangles, std::vector<Vec3>& out);

}  // namespace cloth
