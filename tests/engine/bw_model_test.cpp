// The Baraff-Witkin model's physics: a hanging cloth under the implicit integrator and a
// cantilever strip sagging like a beam (the assembly checks of every model are in
// model_assembly_test.cpp).
#include <gtest/gtest.h>

#include "cloth/force_jacobians.hpp"
#include "cloth/mesh.hpp"
#include "cloth/simulation.hpp"

namespace cloth {
namespace {

TEST(BWModel, HangingClothUnderImplicitIsStableAndSettles) {
  GridSpec spec;
  spec.nx = spec.ny = 16;
  SolverSettings solver;
  solver.integrator = "implicit";
  solver.substeps = 1;
  SpringMaterial m;
  m.stretch = 2000;
  m.shear = 100;
  m.bending = 1e-5;
  m.damping = 0.5;
  Simulation sim(build_model(make_grid(spec), m, ModelType::BaraffWitkin), {}, {0, 15}, solver,
                 Vec3(0, -9.81, 0));
  double peak = 0;
  for (int s = 0; s < 600; ++s) {
    sim.step();
    peak = std::max(peak, sim.energies().kinetic);
  }
  EXPECT_EQ(sim.instabilities(), 0);
  EXPECT_LT(sim.energies().kinetic, 1e-3 * peak);
  EXPECT_NEAR(sim.state().x[15 * 16 + 7].y(), 1.0 - 1.0, 0.1) << "hangs about one metre down";
  EXPECT_LT(max_edge_strain(sim.model(), sim.state()), 0.05);
}

// Tip deflection of a strip clamped at one end (two columns pinned: position and slope), sagging
// under its own weight w = rho g per unit area, for `rows` cells across its width.
double cantilever_tip(int rows) {
  const double L = 0.2, rho = 0.15, g = 9.81, B = 0.03;
  const int nx = 41, ny = rows + 1;
  GridSpec spec;
  spec.nx = nx;
  spec.ny = ny;
  spec.width = L * (nx - 1) / (nx - 2);  // the clamp is at column 1: L beyond it
  spec.height = 0.04;
  spec.center = Vec3(0, 1, 0);
  SpringMaterial m;
  m.density = rho;
  m.stretch = 1e5;  // stiff in-plane: only bending matters
  m.shear = 1e4;
  m.bending = B;
  m.damping = 1.0;
  m.bending_damping = 1e-3;
  m.velocity_damping = 20;  // overdamped: settles in ~0.1 s; only the static shape matters
  const RestMesh mesh = make_grid(spec);
  std::vector<int> clamp;
  for (int j = 0; j < ny; ++j) {
    clamp.push_back(mesh.grid_index(0, j));
    clamp.push_back(mesh.grid_index(1, j));
  }
  SolverSettings solver;
  solver.integrator = "implicit";
  solver.dt = 0.01;
  solver.substeps = 1;
  solver.tolerance = 1e-8;
  solver.max_iterations = 5000;
  Simulation sim(build_model(mesh, m, ModelType::BaraffWitkin), {}, clamp, solver, Vec3(0, -g, 0));
  for (int s = 0; s < 150; ++s) sim.step();
  EXPECT_LT(sim.energies().kinetic, 1e-12) << "at rest";
  double tip = 0;
  for (int j = 0; j < ny; ++j) tip += (1.0 - sim.state().x[mesh.grid_index(nx - 1, j)].y()) / ny;
  return tip / (rho * g * std::pow(L, 4) / (8 * B));  // over beam theory delta = w L^4 / (8 B)
}

TEST(BWModel, CantileverStripConvergesToEulerBernoulliBeamAcrossItsWidth) {
  // Small-deflection beam theory per unit width: delta = w L^4 / (8 B) (here delta / L ~ 5%).
  // The dihedral-angle bend (sec. 4.3) on right-triangle grids is too soft: cells also fold along
  // their diagonals, in series with the folds across the strip. The error shrinks as the cells get
  // narrow across the width; with square cells (8 rows here) the strip is ~27% too soft. This
  // test pins down that behaviour (docs/physics.md); it fails if the bend model gets worse.
  const double r4 = cantilever_tip(4), r8 = cantilever_tip(8), r16 = cantilever_tip(16);
  EXPECT_GT(r4, r8);
  EXPECT_GT(r8, r16);
  EXPECT_GT(r16, 0.99) << "never stiffer than the beam";
  EXPECT_LT(r16, 1.10) << "within 10% of beam theory with 16 cells across";
  EXPECT_LT(r8, 1.35);
}

}  // namespace
}  // namespace cloth
