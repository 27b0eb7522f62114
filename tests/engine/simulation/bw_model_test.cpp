// The Baraff-Witkin model's physics: a hanging cloth under the implicit integrator and a
// cantilever strip sagging like a beam (the assembly checks of every model are in
// model_assembly_test.cpp).
#include <gtest/gtest.h>

#include "forces/force_jacobians.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "drape/static_drape.hpp"

namespace cloth {
namespace {

TEST(BWModel, HangingClothUnderImplicitIsStableAndSettles) {
  GridSpec spec;
  spec.nx = spec.ny = 16;
  SolverSettings solver;
  solver.integrator = cloth::IntegratorType::Implicit;
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
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_LT(sim.energies().kinetic, 1e-3 * peak);
  EXPECT_NEAR(sim.state().x[15 * 16 + 7].y(), 1.0 - 1.0, 0.1) << "hangs about one metre down";
  EXPECT_LT(max_edge_strain(sim.model(), sim.state()), 0.05);
}

// A strip clamped at one end (two columns pinned: position and slope), nx - 2 cells along beyond
// the clamp and `rows` across, of bending stiffness B and areal density rho, sagging under its own
// weight w = rho g per unit area (beam theory: delta = w L^4 / (8 B)).
constexpr double kStripLength = 0.2, kStripDensity = 0.15, kStripBending = 0.03, kGravity = 9.81;

struct ClampedStrip {
  RestMesh mesh;
  ClothModel model;
  std::vector<int> clamp;
};

ClampedStrip clamped_strip(int nx, int rows) {
  GridSpec spec;
  spec.nx = nx;
  spec.ny = rows + 1;
  spec.width = kStripLength * (nx - 1) / (nx - 2);  // the clamp is at column 1: L beyond it
  spec.height = 0.04;
  spec.center = Vec3(0, 1, 0);
  SpringMaterial m;
  m.density = kStripDensity;
  m.stretch = 1e5;  // stiff in-plane: only bending matters
  m.shear = 1e4;
  m.bending = kStripBending;
  ClampedStrip strip{make_grid(spec), {}, {}};
  strip.model = build_model(strip.mesh, m, ModelType::BaraffWitkin);
  for (int j = 0; j < spec.ny; ++j) {
    strip.clamp.push_back(strip.mesh.grid_index(0, j));
    strip.clamp.push_back(strip.mesh.grid_index(1, j));
  }
  return strip;
}

// The static shape found directly by Newton on the model's energy (static_drape.hpp).
std::vector<Vec3> newton_rest(const ClampedStrip& strip) {
  DrapeOptions newton;
  newton.method = DrapeMethod::Newton;
  newton.force_tolerance = 1e-10;  // N
  newton.max_iterations = 100;
  const DrapeResult rest =
      solve_drape(make_drape_problem(strip.model, Vec3(0, -kGravity, 0), strip.clamp), newton);
  EXPECT_TRUE(rest.converged) << rest.message;
  return rest.x;
}

// Mean drop of the free end below the clamp, m.
double tip_drop(const ClampedStrip& strip, const std::vector<Vec3>& x) {
  const int nx = strip.mesh.grid_nx, ny = strip.mesh.grid_ny;
  double tip = 0;
  for (int j = 0; j < ny; ++j) tip += (1.0 - x[strip.mesh.grid_index(nx - 1, j)].y()) / ny;
  return tip;
}

// The implicit step assembles the bend stiffness Gauss-Newton (bw_bend.cpp: the indefinite
// d2theta/dx2 term dropped), Newton's drape the projected exact Hessian. Only the matrix A of
// eq. 16 differs, not the force, so a bending-dominated strip (stiff membrane, B 3000x cotton's)
// must settle stably on the same equilibrium.
TEST(BWModel, ImplicitStepSettlesOnTheNewtonEquilibriumOfABendingStrip) {
  const ClampedStrip strip = clamped_strip(22, 4);
  const double newton_tip = tip_drop(strip, newton_rest(strip));
  SolverSettings solver;
  solver.integrator = cloth::IntegratorType::Implicit;
  solver.substeps = 1;
  Simulation sim(strip.model, {}, strip.clamp, solver, Vec3(0, -kGravity, 0));
  for (int s = 0; s < 600; ++s) sim.step();
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_LT(sim.energies().kinetic, 1e-12);
  EXPECT_NEAR(tip_drop(strip, sim.state().x), newton_tip, 1e-4 * newton_tip);
}

}  // namespace
}  // namespace cloth
