#pragma once
// How far a striped cloth's seams (the heavy bands of its density pattern) lead the cloth between
// them downwards; shared by the density-pattern test and the shipped scene's check.
#include "model/density_pattern.hpp"
#include "simulation/simulation.hpp"

namespace cloth {

/// Mean height of the grid columns between the seams minus that of the seam columns, m
/// (positive: the seams hang lower). A seam column touches a heavy band; a column between seams
/// has light triangles on both sides.
inline double seam_lead(const Simulation& sim, const DensityPattern& pattern) {
  const RestMesh& mesh = sim.model().mesh;
  double seam = 0, between = 0;
  int n_seam = 0, n_between = 0;
  for (int i = 0; i < mesh.grid_nx; ++i) {
    const double u = mesh.uv[size_t(mesh.grid_index(i, 0))].x();
    const bool heavy_right = density_factor(pattern, Vec2(u + 1e-9, 0)) > 1;
    const bool heavy_left = density_factor(pattern, Vec2(u - 1e-9, 0)) > 1;
    for (int j = 0; j < mesh.grid_ny; ++j) {
      const double y = sim.state().x[size_t(mesh.grid_index(i, j))].y();
      if (heavy_left || heavy_right) {
        seam += y;
        ++n_seam;
      } else {
        between += y;
        ++n_between;
      }
    }
  }
  return n_seam > 0 && n_between > 0 ? between / n_between - seam / n_seam : 0.0;
}

}  // namespace cloth
