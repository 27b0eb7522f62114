// Extra Newton iterations of the implicit step: Baraff-Witkin's eq. 18 is one linearised step of
// backward Euler; more iterations must drive the residual of the nonlinear equation
//   g(dv) = M dv - h f(x0 + h (v0 + dv), v0 + dv)
// towards zero, so the step becomes fully implicit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "forces/forces.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/vacuum.hpp"

namespace cloth {
namespace {

Simulation hanging_cloth(std::vector<int> pins) {
  GridSpec spec;
  spec.nx = spec.ny = 8;
  SolverSettings solver;
  solver.integrator = cloth::IntegratorType::Implicit;
  solver.dt = 1.0 / 60;
  solver.substeps = 1;
  solver.tolerance = 1e-12;  // the linear solves are not what is measured here
  return Simulation(build_model(make_grid(spec), SpringMaterial{}), {}, std::move(pins), solver,
                    Vec3(0, -9.81, 0));
}

// |g(dv)| over the free vertices, relative to |M dv|, for the step just taken from `before`.
double backward_euler_residual(const Simulation& sim, const ClothState& before) {
  std::vector<Vec3> f;
  compute_forces(sim.model(), sim.state(), sim.external_forces(), sim.time(), f);
  double g2 = 0, m2 = 0;
  for (int i = 0; i < sim.model().vertex_count(); ++i) {
    if (sim.pins().is_pinned(i)) continue;
    const Vec3 m_dv = sim.model().mass[i] * (sim.state().v[i] - before.v[i]);
    g2 += (m_dv - sim.solver().dt * f[i]).squaredNorm();
    m2 += m_dv.squaredNorm();
  }
  return std::sqrt(g2 / m2);
}

// Residual of one step with `newton_iterations`, taken after `warmup` ordinary steps, in the
// default air or (`vacuum`) with none.
double residual_of_step(std::vector<int> pins, int warmup, int newton_iterations, bool vacuum = false) {
  Simulation sim = hanging_cloth(std::move(pins));
  if (vacuum) in_vacuum(sim);
  for (int s = 0; s < warmup; ++s) sim.step();
  SolverSettings solver = sim.solver();
  solver.newton_iterations = newton_iterations;
  sim.set_solver(solver);
  const ClothState before = sim.state();
  sim.step();
  return backward_euler_residual(sim, before);
}

TEST(Newton, FreeFallIsLinearSoTheLinearisedStepIsAlreadyExact) {
  // Gravity and velocity damping are linear and an unstrained cloth falling rigidly feels no
  // spring force: eq. 18 solves backward Euler exactly. (Also checks the residual itself.) The
  // quadratic air drag is not linear: no air here.
  EXPECT_LT(residual_of_step({}, 5, 1, /*vacuum=*/true), 1e-8);
}

TEST(Newton, MoreIterationsSolveBackwardEulerFully) {
  // Mid-swing: large rotations of stiff springs, where the linearisation is poor.
  const std::vector<int> pins = {0, 7};
  const double r1 = residual_of_step(pins, 6, 1);
  const double r2 = residual_of_step(pins, 6, 2);
  const double r3 = residual_of_step(pins, 6, 3);
  const double r5 = residual_of_step(pins, 6, 5);
  std::printf("backward Euler residual |g|/|M dv| after 1, 2, 3, 5 Newton iterations: %.3g %.3g %.3g %.3g\n",
              r1, r2, r3, r5);
  EXPECT_GT(r1, 0.1) << "the linearised step leaves a visible residual mid-swing";
  // A quasi-Newton method (PSD-projected Jacobian, damping's dependence on x dropped): it
  // converges, linearly rather than quadratically.
  EXPECT_LT(r2, 0.1 * r1);
  EXPECT_LT(r3, r2);
  EXPECT_LT(r5, 1e-3 * r1);
}

TEST(Newton, PinsStayBitExactUnderNewtonCorrections) {
  Simulation sim = hanging_cloth({0, 7});
  SolverSettings solver = sim.solver();
  solver.newton_iterations = 3;
  sim.set_solver(solver);
  const Vec3 a = sim.state().x[0], b = sim.state().x[7];
  for (int s = 0; s < 60; ++s) {
    sim.step();
    ASSERT_EQ(sim.state().x[0], a);
    ASSERT_EQ(sim.state().x[7], b);
  }
  EXPECT_TRUE(all_finite(sim.state()));
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_LT(sim.state().x[63].y(), 0.5) << "the free corner swung down";
}

}  // namespace
}  // namespace cloth
