// Scenario tests with physical meaning: free fall, exact pins, a hanging cloth coming to rest,
// bounded energy of the undamped symplectic integrator, and blow-up detection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/vacuum.hpp"

namespace cloth {
namespace {

constexpr double kG = 9.81;

Simulation make_sim(int n, const SpringMaterial& material, std::vector<int> pins, double dt,
                    int substeps, std::vector<Collider> colliders = {}) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = Vec3(0, 1, 0);
  SolverSettings solver;
  solver.dt = dt;
  solver.substeps = substeps;
  return Simulation(build_model(make_grid(spec), material), std::move(colliders), std::move(pins),
                    solver, Vec3(0, -kG, 0));
}

SpringMaterial undamped() {
  SpringMaterial m;
  m.damping = 0;
  m.velocity_damping = 0;
  return m;
}

// Position Verlet from rest under constant g: x_n = x_0 - g h^2 n(n+1)/2 (velocity updated
// first), i.e. the exact g t^2 / 2 plus a first-order start-up error g t h / 2.
double free_fall_error(double h_total_dt, int substeps, int steps) {
  Simulation sim = make_sim(6, undamped(), {}, h_total_dt, substeps);
  in_vacuum(sim);
  const double y0 = sim.state().x[0].y();
  for (int s = 0; s < steps; ++s) sim.step();
  const double t = sim.time();
  const double drop = y0 - sim.state().x[0].y();
  // Every vertex falls the same: the cloth does not deform.
  for (const Vec3& x : sim.state().x) EXPECT_NEAR(y0 - x.y(), drop, 1e-9);
  return std::abs(drop - 0.5 * kG * t * t);
}

TEST(FreeFall, MatchesHalfGTSquaredWithFirstOrderError) {
  const double h = 1.0 / 600;  // substep
  const double err = free_fall_error(1.0 / 60, 10, 60);  // 1 s
  const double t = 1.0;
  EXPECT_LE(err, 0.5 * kG * t * h * 1.0001);  // the bound derived above
  EXPECT_GT(err, 0.5 * kG * t * h * 0.9999);  // ... and it is attained: no hidden correction
  // Halving the substep halves the error (first order convergence to g t^2 / 2).
  const double err_half = free_fall_error(1.0 / 60, 20, 60);
  EXPECT_NEAR(err / err_half, 2.0, 0.01);
  EXPECT_LT(err, 0.01);  // 1 cm after falling 4.9 m
}

TEST(FreeFall, EveryIntegratorFallsHalfGTSquaredUpToItsKnownError) {
  // With no air and no velocity damping, from rest under constant g, after n substeps of h
  // (t = n h) each integrator's drop is exactly known:
  // - RK4 is exact for the quadratic trajectory: g t^2 / 2;
  // - forward Euler (x first, with the old v): g h^2 n(n-1)/2 = g t^2 / 2 - g h t / 2;
  // - symplectic Euler, Verlet (the same recurrence), the implicit step of Baraff & Witkin (its
  //   v_{n+1} = v_n + h g when nothing else acts), XPBD and projective dynamics (x_pred =
  //   x + h v + h^2 g): g h^2 n(n+1)/2 = g t^2 / 2 + g h t / 2.
  // The velocity is -g t exactly for all of them.
  const double h = 1.0 / 600, t = 1.0;
  const std::pair<IntegratorType, double> cases[] = {
      {IntegratorType::Rk4, 0},          {IntegratorType::ExplicitEuler, -1},
      {IntegratorType::SymplecticEuler, 1}, {IntegratorType::Verlet, 1},
      {IntegratorType::Implicit, 1},     {IntegratorType::Xpbd, 1},
      {IntegratorType::Projective, 1}};
  for (const auto& [integrator, sign] : cases) {
    Simulation sim = make_sim(4, undamped(), {}, 1.0 / 60, 10);
    SolverSettings solver = sim.solver();
    solver.integrator = integrator;
    solver.tolerance = 1e-12;
    sim.set_solver(solver);
    solver = sim.solver();  // the switch gave the integrator its own count: the same 10 for all
    solver.substeps = 10;
    sim.set_solver(solver);
    in_vacuum(sim);
    const double y0 = sim.state().x[0].y();
    for (int s = 0; s < 60; ++s) sim.step();
    ASSERT_NEAR(sim.time(), t, 1e-12);
    const double expected = 0.5 * kG * t * t + sign * 0.5 * kG * h * t;
    std::printf("[free fall] %s: drop %.12f m after 1 s, g t^2/2 = %.12f m, known error %+.6f m\n",
                name_of(integrator), y0 - sim.state().x[0].y(), 0.5 * kG * t * t, sign * 0.5 * kG * h * t);
    for (size_t i = 0; i < sim.state().x.size(); ++i) {
      EXPECT_NEAR(y0 - sim.state().x[i].y(), expected, 1e-9) << integrator << " vertex " << i;
      EXPECT_NEAR(sim.state().v[i].y(), -kG * t, 1e-9) << integrator << " vertex " << i;
    }
  }
}

TEST(Pins, PinnedVerticesDoNotMoveAtAll) {
  Simulation sim = make_sim(10, SpringMaterial{}, {0, 9}, 1.0 / 60, 50);
  const Vec3 a = sim.state().x[0], b = sim.state().x[9];
  double lowest_free_corner = 1e9;
  for (int s = 0; s < 120; ++s) {
    sim.step();
    lowest_free_corner = std::min(lowest_free_corner, sim.state().x[99].y());
  }
  EXPECT_EQ(sim.state().x[0], a);  // exactly, not approximately
  EXPECT_EQ(sim.state().x[9], b);
  EXPECT_EQ(sim.state().v[0], Vec3::Zero());
  EXPECT_LT(lowest_free_corner, 0.3) << "free corner should have swung down";
  EXPECT_EQ(sim.statistics().instabilities, 0);
  // Pinning mid-run holds the vertex where it was at that moment.
  sim.set_pinned(55, true);
  const Vec3 c = sim.state().x[55];
  for (int s = 0; s < 30; ++s) sim.step();
  EXPECT_EQ(sim.state().x[55], c);
  sim.set_pinned(55, false);
  for (int s = 0; s < 30; ++s) sim.step();
  EXPECT_NE(sim.state().x[55], c);
}

TEST(Hanging, ClothFromTwoCornersComesToRestAndSagsDown) {
  // 12 x 12, pinned at min-min and max-min (indices 0 and 11): 20 s of simulated time. It swings
  // like a pendulum; velocity damping c = 0.5 1/s removes power 2 c KE, and over a swing about
  // half the energy is kinetic, so the swing energy decays at least like exp(-c t): e^-10 = 4.5e-5.
  // (The air's quadratic drag adds to it, but fades as v^2 for small swings.)
  SpringMaterial m;
  m.velocity_damping = 0.5;
  Simulation sim = make_sim(12, m, {0, 11}, 1.0 / 60, 50);
  double peak = 0;
  for (int s = 0; s < 1200; ++s) {
    sim.step();
    peak = std::max(peak, sim.energies().kinetic);
  }
  const double final_ke = sim.energies().kinetic;
  EXPECT_GT(peak, 1e-3);            // it really swung
  EXPECT_LT(final_ke, 1e-4 * peak); // ... and the damping brought it to rest
  EXPECT_EQ(sim.statistics().instabilities, 0);
  // Sag: everything hangs below the pins (gravity is -y); the middle of the pinned edge sags.
  const double pin_y = sim.state().x[0].y();
  for (int i = 0; i < sim.model().vertex_count(); ++i) {
    if (i == 0 || i == 11) continue;
    EXPECT_LT(sim.state().x[i].y(), pin_y + 1e-9) << "vertex " << i;
  }
  EXPECT_LT(sim.state().x[5].y(), pin_y - 1e-4);
  // The far edge hangs almost straight below: about one cloth length (1 m) down.
  EXPECT_NEAR(sim.state().x[11 * 12 + 5].y(), pin_y - 1.0, 0.15);
}

TEST(Energy, UndampedVerletKeepsTotalEnergyBounded) {
  // Symplectic: no secular drift. Total energy oscillates within a small band over 5 s.
  Simulation sim = make_sim(8, undamped(), {0, 7}, 1.0 / 60, 40);
  in_vacuum(sim);
  const double e0 = sim.energies().total();
  double worst = 0, scale = 0;
  for (int s = 0; s < 300; ++s) {
    sim.step();
    const Energies e = sim.energies();
    worst = std::max(worst, std::abs(e.total() - e0));
    scale = std::max(scale, e.kinetic);
  }
  ASSERT_GT(scale, 0.01);
  EXPECT_LT(worst, 0.05 * scale) << "energy drift relative to peak kinetic energy";
  EXPECT_EQ(sim.statistics().instabilities, 0);
}

TEST(Instability, BlowUpIsDetectedRolledBackAndReported) {
  SpringMaterial stiff;
  stiff.stretch = 1e7;  // far beyond what one substep of 1/60 s can integrate
  Simulation sim = make_sim(8, stiff, {0, 7}, 1.0 / 60, 1);
  for (int s = 0; s < 20; ++s) sim.step();
  EXPECT_GT(sim.statistics().instabilities, 0);
  EXPECT_FALSE(sim.statistics().last_instability.empty());
  EXPECT_TRUE(all_finite(sim.state()));
  // Rolled back to a good state: nothing has flown off.
  for (const Vec3& x : sim.state().x) EXPECT_LT(x.norm(), 10.0);
  // With enough substeps the same cloth is stable.
  SolverSettings fine = sim.solver();
  fine.substeps = 1500;
  sim.set_solver(fine);
  sim.reset();
  const int before = sim.statistics().instabilities;
  for (int s = 0; s < 5; ++s) sim.step();
  EXPECT_EQ(sim.statistics().instabilities, before);
}

TEST(Instability, TheReportNamesWhatRanAway) {
  const Simulation sim = make_sim(4, SpringMaterial{}, {}, 1.0 / 60, 1);
  const ClothModel& model = sim.model();
  const ClothState rest = sim.state();
  EXPECT_EQ(Simulation::runaway(model, rest, rest), "");

  ClothState nan = rest;
  nan.x[5].y() = std::nan("");
  EXPECT_EQ(Simulation::runaway(model, rest, nan), "positions or velocities not finite");

  ClothState fast = rest;
  fast.v[5] = Vec3(600, 0, 0);
  EXPECT_EQ(Simulation::runaway(model, rest, fast), "a vertex reached 600 m/s, limit 500");
  fast.v[5] = Vec3(500, 0, 0);
  EXPECT_EQ(Simulation::runaway(model, rest, fast), "a vertex reached 500 m/s, limit 500");
  fast.v[5] = Vec3(499, 0, 0);
  EXPECT_EQ(Simulation::runaway(model, rest, fast), "");

  // Corner vertex 0 moved away from its neighbour 1 by 12 times their edge: that edge is 13 times
  // its rest length, strain 1200%, the largest (the corner's other edges turn as they stretch).
  ClothState stretched = rest;
  stretched.x[0] -= 12 * (rest.x[1] - rest.x[0]);
  EXPECT_NEAR(max_edge_strain(model, stretched), 12.0, 1e-9);
  EXPECT_EQ(Simulation::runaway(model, rest, stretched), "an edge stretched by 1200%, limit 1000%");
  ClothState below_limit = rest;  // that edge at 10.9 times its rest length, strain 990%
  below_limit.x[0] -= 9.9 * (rest.x[1] - rest.x[0]);
  EXPECT_NEAR(max_edge_strain(model, below_limit), 9.9, 1e-9);
  EXPECT_EQ(Simulation::runaway(model, rest, below_limit), "");
  // A step that did not raise the stretch it started from has not run away.
  EXPECT_EQ(Simulation::runaway(model, stretched, stretched), "");
}

TEST(Instability, RecoveryRaisesSubstepsAndTheClothKeepsMoving) {
  // The default material needs ~40 substeps on a 10 x 10 grid; 3 diverge.
  Simulation sim = make_sim(10, SpringMaterial{}, {0, 9}, 1.0 / 60, 3);
  double lowest = 1e9;
  for (int s = 0; s < 60; ++s) {
    sim.step();
    lowest = std::min(lowest, sim.state().x[99].y());
  }
  EXPECT_GE(sim.statistics().instabilities, 1);
  EXPECT_GT(sim.substeps(), 3) << "recovery kept the larger substep count";
  EXPECT_EQ(sim.solver().substeps, 3) << "the user's count is kept apart";
  EXPECT_NE(sim.statistics().last_instability.find("redone with"), std::string::npos) << sim.statistics().last_instability;
  EXPECT_NE(sim.statistics().last_instability.find(") diverged with"), std::string::npos) << sim.statistics().last_instability;
  EXPECT_LT(lowest, 0.3) << "not frozen: the free corner swung down";
  const int events = sim.statistics().instabilities;
  for (int s = 0; s < 60; ++s) sim.step();
  EXPECT_EQ(sim.statistics().instabilities, events) << "stable from then on";
}

TEST(Instability, ResetAndAnotherIntegratorGiveBackTheUsersSubsteps) {
  // The recovery's substeps are what one integrator needed on one run: Reset and a switch of
  // integrator start again from the user's (the implicit step would crawl at the raised count),
  // and Reset clears the counters.
  Simulation sim = make_sim(10, SpringMaterial{}, {0, 9}, 1.0 / 60, 3);
  const auto run_until_recovered = [&] {
    for (int s = 0; s < 60 && sim.substeps() == 3; ++s) sim.step();
    ASSERT_GT(sim.substeps(), 3) << "the recovery raised the substeps";
  };
  run_until_recovered();
  ASSERT_GE(sim.statistics().instabilities, 1);
  sim.reset();
  EXPECT_EQ(sim.substeps(), 3);
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_EQ(sim.statistics().rejected_steps, 0);
  EXPECT_EQ(sim.statistics().steps, 0);
  EXPECT_TRUE(sim.statistics().last_instability.empty());

  run_until_recovered();
  SolverSettings implicit = sim.solver();  // as the panel passes it
  implicit.integrator = IntegratorType::Implicit;
  sim.set_solver(implicit);
  EXPECT_EQ(sim.substeps(), 1) << "the implicit step's own count";
  SolverSettings verlet = sim.solver();
  verlet.integrator = IntegratorType::Verlet;
  sim.set_solver(verlet);
  EXPECT_EQ(sim.substeps(), 3) << "Verlet's count, not the recovery's";

  // A count the user picks while the recovery's is in force is theirs: Reset keeps it.
  run_until_recovered();
  SolverSettings chosen = sim.solver();
  chosen.substeps = 500;
  sim.set_solver(chosen);
  EXPECT_EQ(sim.substeps(), 500);
  sim.reset();
  EXPECT_EQ(sim.substeps(), 500);
}

TEST(Grab, GrabbedVertexFollowsTargetAndReleaseLetsGo) {
  Simulation sim = make_sim(10, SpringMaterial{}, {0, 9}, 1.0 / 60, 50);
  const Vec3 target = sim.state().x[99] + Vec3(0, 0.3, 0);
  sim.mouse().grab(99, target);
  for (int s = 0; s < 60; ++s) sim.step();
  EXPECT_LT((sim.state().x[99] - target).norm(), 1e-6);
  sim.mouse().release();
  for (int s = 0; s < 30; ++s) sim.step();
  EXPECT_LT(sim.state().x[99].y(), target.y() - 0.05) << "released vertex falls again";
}

TEST(Settings, RejectsNanAndAbsurdSolverValues) {
  Simulation sim = make_sim(4, SpringMaterial{}, {}, 1.0 / 60, 1);
  SolverSettings bad = sim.solver();
  bad.dt = std::nan("");
  EXPECT_THROW(sim.set_solver(bad), InputError);
  bad.dt = 10;
  EXPECT_THROW(sim.set_solver(bad), InputError);
  bad = sim.solver();
  bad.substeps = -1;  // 0 is auto
  EXPECT_THROW(sim.set_solver(bad), InputError);
  EXPECT_EQ(sim.solver().integrator, cloth::IntegratorType::Verlet);  // unchanged after the failed calls
  EXPECT_THROW(sim.set_gravity(Vec3(0, std::nan(""), 0)), InputError);
}

}  // namespace
}  // namespace cloth
