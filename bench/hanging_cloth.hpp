// The benchmark's scene and its variants (listed in step_bench.cpp): a 1 m x 1 m cloth of total
// mass 0.1 kg hanging from two adjacent corners above a sphere of radius 0.3 m (bench_common.hpp),
// run by each integrator with the settings the variant names. Shared by the frame benchmark
// (step_bench.cpp) and the solve's parts on a fixed system (solver_parts_bench.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "simulation/simulation.hpp"

namespace bench {

// A benchmarked configuration: an integrator and how it is run.
struct Variant {
  cloth::IntegratorType integrator = cloth::IntegratorType::Verlet;
  bool free = false;         // no sphere
  bool bullet_like = false;  // XPBD with the peer's 4 substeps x 10 passes
  int threads = 1;
  bool two_level = false;    // the two-level preconditioner
  double stiffness = 1;      // factor on the default material's stretch and shear springs
  double tolerance = 0;      // the CG's epsilon; 0: SolverSettings' default (1e-3)
  // Only the springs on the mesh's edges (structural and the cell diagonal of its triangles):
  // the link set of Bullet's patch, no second diagonal and no bend springs.
  bool bullet_links = false;
  // The cloth model: the springs grid, or Baraff-Witkin's triangles and hinges (the same
  // material's constants: stretch and shear in N/m, bending in N*m).
  cloth::ModelType model = cloth::ModelType::Springs;
  // Overrides of the integrator's own settings (0 / negative: as above), for the strain-target
  // search (step_bench.cpp, BM_Accurate): substeps per step, iterations per substep (XPBD's passes,
  // projective's or VBD's iterations) and Verlet's strain limit (Provot 1995).
  int substeps = 0;
  int iterations = 0;
  double strain_limit = -1;
};

/// The named variants, in the table's order (step_bench.cpp's header says what each is).
const std::vector<std::pair<std::string, Variant>>& variants();

/// The scene at n x n vertices, at rest in its plane, for `variant`.
cloth::Simulation hanging_cloth(int n, const Variant& variant);

}  // namespace bench
