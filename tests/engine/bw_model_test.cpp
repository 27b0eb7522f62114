// The Baraff-Witkin model's physics: a hanging cloth under the implicit integrator and a
// cantilever strip sagging like a beam (the assembly checks of every model are in
// model_assembly_test.cpp).
#include <gtest/gtest.h>

#include "cloth/force_jacobians.hpp"
#include "cloth/mesh.hpp"
#include "cloth/simulation.hpp"
#include "cloth/static_drape.hpp"

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
// under its own weight w = rho g per unit area, over beam theory delta = w L^4 / (8 B), for `rows`
// cells across its width and 59 along it. Only the static shape matters, so it is found directly
// by Newton on the model's energy (static_drape.hpp; the implicit integrator settles to the same
// shape, 1.0792 both at 16 rows and 40 cells along).
double cantilever_tip(int rows) {
  const double L = 0.2, rho = 0.15, g = 9.81, B = 0.03;
  const int nx = 61, ny = rows + 1;
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
  const RestMesh mesh = make_grid(spec);
  std::vector<int> clamp;
  for (int j = 0; j < ny; ++j) {
    clamp.push_back(mesh.grid_index(0, j));
    clamp.push_back(mesh.grid_index(1, j));
  }
  DrapeOptions newton;
  newton.method = DrapeMethod::Newton;
  newton.force_tolerance = 1e-10;  // N
  newton.max_iterations = 100;
  const DrapeResult rest =
      solve_drape(make_drape_problem(build_model(mesh, m, ModelType::BaraffWitkin), Vec3(0, -g, 0), clamp), newton);
  EXPECT_TRUE(rest.converged) << rest.message;
  double tip = 0;
  for (int j = 0; j < ny; ++j) tip += (1.0 - rest.x[mesh.grid_index(nx - 1, j)].y()) / ny;
  return tip / (rho * g * std::pow(L, 4) / (8 * B));
}

TEST(BWModel, CantileverStripConvergesToEulerBernoulliBeamAcrossItsWidth) {
  // Small-deflection beam theory per unit width (here delta / L ~ 5%). Two errors, measured by a
  // linearised analysis that reproduces these runs (docs/physics.md, "Known gap"):
  // - the clamp: the hinge at the clamped column owns a strip half inside the rigid clamp, an
  //   error 2a/L of first order in the cell length a along the strip (3.4% with 59 cells);
  // - the dihedral bend (sec. 4.3) on right-triangle grids lets cells fold along their diagonals,
  //   in series with the folds across the strip: too soft unless the cells are narrow across the
  //   width, and with square cells ~24% too soft at every resolution.
  // With 32 rows the cells are 2.7 times longer than wide and the strip is within 5%.
  const double r4 = cantilever_tip(4), r8 = cantilever_tip(8), r16 = cantilever_tip(16),
               r32 = cantilever_tip(32);
  EXPECT_GT(r4, r8);
  EXPECT_GT(r8, r16);
  EXPECT_GT(r16, r32);
  EXPECT_GT(r32, 0.99) << "never stiffer than the beam";
  EXPECT_LT(r32, 1.05) << "within 5% of beam theory with 32 cells across";
  EXPECT_LT(r16, 1.20);
}

}  // namespace
}  // namespace cloth
