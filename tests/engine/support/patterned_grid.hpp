#pragma once
// Grids with a chosen diagonal pattern (make_grid alternates its cells' diagonals) and jittered
// grids: the meshes on which the bending tests check that B means the same on every mesh.
#include <random>
#include <string>

#include "mesh/mesh.hpp"

namespace cloth {

/// Which diagonal splits each cell (a = (i, j), b = (i+1, j), c = (i, j+1), d = (i+1, j+1)).
enum class Diagonals { Alternating, AllBC, AllAD };

inline std::string diagonals_name(Diagonals d) {
  return d == Diagonals::Alternating ? "alternating" : d == Diagonals::AllBC ? "all b-c" : "all a-d";
}

/// make_grid(spec) with its cells split by `diagonals` (the same winding as make_grid).
inline RestMesh patterned_grid(const GridSpec& spec, Diagonals diagonals) {
  RestMesh mesh = make_grid(spec);
  if (diagonals == Diagonals::Alternating) return mesh;
  mesh.triangles.clear();
  for (int j = 0; j + 1 < spec.ny; ++j) {
    for (int i = 0; i + 1 < spec.nx; ++i) {
      const int a = mesh.grid_index(i, j), b = mesh.grid_index(i + 1, j);
      const int c = mesh.grid_index(i, j + 1), d = mesh.grid_index(i + 1, j + 1);
      if (diagonals == Diagonals::AllBC) {
        mesh.triangles.push_back({a, c, b});
        mesh.triangles.push_back({b, c, d});
      } else {
        mesh.triangles.push_back({a, c, d});
        mesh.triangles.push_back({a, d, b});
      }
    }
  }
  return mesh;
}

/// The cell shapes on which a material parameter must mean the same: square cells, cells twice as
/// long as wide along the grid's first axis and twice as wide, and square cells with each uniform
/// diagonal pattern (the cantilever and membrane-moduli tests).
struct CellShape {
  const char* name;
  double across;  // cell size along the grid's second axis / along its first
  Diagonals diagonals;
};

inline constexpr CellShape kCells[] = {
    {"square", 1.0, Diagonals::Alternating},
    {"2:1 (long)", 0.5, Diagonals::Alternating},
    {"1:2 (wide)", 2.0, Diagonals::Alternating},
    {"square b-c", 1.0, Diagonals::AllBC},
    {"square a-d", 1.0, Diagonals::AllAD},
};

/// A horizontal (XZ) grid whose interior vertices are moved by up to `jitter` cell sizes in
/// (u, v), the rest positions following: an irregular, still valid triangulation.
inline RestMesh jittered_grid(GridSpec spec, double jitter, unsigned seed) {
  spec.plane = GridPlane::XZ;
  RestMesh mesh = make_grid(spec);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-jitter, jitter);
  const double hu = spec.width / (spec.nx - 1), hv = spec.height / (spec.ny - 1);
  for (int j = 1; j + 1 < spec.ny; ++j) {
    for (int i = 1; i + 1 < spec.nx; ++i) {
      const int k = mesh.grid_index(i, j);
      const Vec2 d(u(rng) * hu, u(rng) * hv);
      mesh.uv[size_t(k)] += d;
      mesh.positions[size_t(k)] += Vec3(d.x(), 0, d.y());
    }
  }
  return mesh;
}

}  // namespace cloth
