// The blow-up guard's choices (solver.on_blowup), the explicit integrators' stability bound behind
// "auto" substeps and the recovery's first retry, each integrator's own substeps, and the
// recovery's substeps coming back down (SubstepRecovery).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "integrators/stability_bound.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "simulation/substep_recovery.hpp"

namespace cloth {
namespace {

/// An n x n springs cloth, 1 m square at y = 1, pinned at two corners, the default (stiff) material.
Simulation hanging(int n, IntegratorType integrator, int substeps, BlowUpResponse on_blowup = BlowUpResponse::Recover) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = Vec3(0, 1, 0);
  SolverSettings solver;
  solver.integrator = integrator;
  solver.dt = 1.0 / 60;
  solver.substeps = substeps;
  solver.on_blowup = on_blowup;
  return Simulation(build_model(make_grid(spec), SpringMaterial{}), {}, {0, n - 1}, solver, Vec3(0, -9.81, 0));
}

int blow_ups_in(Simulation& sim, int frames) {
  const int before = sim.statistics().instabilities;
  for (int f = 0; f < frames; ++f) sim.step();
  return sim.statistics().instabilities - before;
}

TEST(StabilityBound, SymplecticEulersRootOfTheJuryCondition) {
  // h^2 omega^2 + 2 h gamma = 4 at the bound: undamped, h omega = 2.
  StiffestMode mode{.omega_squared = 100, .gamma = 0, .least_gamma = 0};
  EXPECT_NEAR(stable_substep(IntegratorType::SymplecticEuler, mode), 0.2, 1e-15);
  mode.gamma = 30;
  const double h = stable_substep(IntegratorType::Verlet, mode);
  EXPECT_NEAR(h * h * mode.omega_squared + 2 * h * mode.gamma, 4.0, 1e-12);
  // RK4 reaches further along the imaginary axis than symplectic Euler (2.5 against 2).
  EXPECT_NEAR(stable_substep(IntegratorType::Rk4, {.omega_squared = 100}), 0.25, 1e-15);
  // Forward Euler: no undamped stiff mode is stable; damping c allows h <= c / omega^2.
  EXPECT_EQ(stable_substep(IntegratorType::ExplicitEuler, {.omega_squared = 100, .gamma = 1}), 0.0);
  EXPECT_NEAR(stable_substep(IntegratorType::ExplicitEuler, {.omega_squared = 100, .gamma = 1, .least_gamma = 1}),
              0.01, 1e-15);
  EXPECT_EQ(auto_substeps(IntegratorType::ExplicitEuler, {.omega_squared = 100, .gamma = 1}, 1.0 / 60),
            kMaxAutoSubsteps);
  EXPECT_TRUE(std::isinf(stable_substep(IntegratorType::Implicit, mode)));
  EXPECT_STREQ(limiting_rate(IntegratorType::SymplecticEuler, {.omega_squared = 100, .gamma = 1}), "stiffness");
  EXPECT_STREQ(limiting_rate(IntegratorType::SymplecticEuler, {.omega_squared = 100, .gamma = 100}), "damping");
}

TEST(StabilityBound, HoldsOnAClothAndIsNotFarFromItsLimit) {
  // The Gershgorin bound is above the stiffest mode's rate, so the auto count never diverges; and
  // it is within a small factor of it, so a quarter of the auto count does.
  for (IntegratorType method : {IntegratorType::SymplecticEuler, IntegratorType::Verlet, IntegratorType::Rk4}) {
    Simulation automatic = hanging(10, method, 0);
    const int chosen = automatic.substeps();
    EXPECT_GT(chosen, 4) << name_of(method) << ": the default material is stiff";
    EXPECT_EQ(blow_ups_in(automatic, 120), 0) << name_of(method) << " at " << chosen << " substeps (auto)";
    Simulation fewer = hanging(10, method, std::max(1, chosen / 4));
    EXPECT_GT(blow_ups_in(fewer, 120), 0) << name_of(method) << " at " << chosen / 4 << " substeps";
  }
}

TEST(StabilityBound, AutoFollowsTheStiffness) {
  // omega^2 scales with k: a hundredfold stiffer cloth needs about ten times the substeps.
  Simulation sim = hanging(10, IntegratorType::SymplecticEuler, 0);
  const int soft = sim.substeps();
  SpringMaterial stiff = sim.model().material;
  stiff.stretch *= 100;
  stiff.shear *= 100;
  stiff.bending *= 100;
  sim.set_material(stiff);
  EXPECT_NEAR(double(sim.substeps()) / soft, 10.0, 2.0);
}

TEST(IntegratorSubsteps, EachIntegratorKeepsItsOwn) {
  Simulation sim = hanging(8, IntegratorType::Verlet, 3);
  const auto switch_to = [&](IntegratorType i) {
    SolverSettings s = sim.solver();  // as the panel passes it: the substeps left as they are
    s.integrator = i;
    sim.set_solver(s);
  };
  switch_to(IntegratorType::Implicit);
  EXPECT_EQ(sim.solver().substeps, 1) << "the implicit step takes the frame whole";
  switch_to(IntegratorType::Xpbd);
  EXPECT_EQ(sim.solver().substeps, 20) << "Macklin's small steps";
  switch_to(IntegratorType::SymplecticEuler);
  EXPECT_EQ(sim.solver().substeps, 0) << "auto";
  EXPECT_GT(sim.substeps(), 4) << "the stability bound's count";
  switch_to(IntegratorType::Verlet);
  EXPECT_EQ(sim.solver().substeps, 3) << "the scene's, for the scene's integrator";
  // A count set for one integrator comes back with it.
  switch_to(IntegratorType::Implicit);
  SolverSettings two = sim.solver();
  two.substeps = 2;
  sim.set_solver(two);
  switch_to(IntegratorType::Vbd);
  EXPECT_EQ(sim.solver().substeps, 1);
  switch_to(IntegratorType::Implicit);
  EXPECT_EQ(sim.solver().substeps, 2);
  // Substeps given with the switch are the caller's.
  SolverSettings both = sim.solver();
  both.integrator = IntegratorType::Projective;
  both.substeps = 5;
  sim.set_solver(both);
  EXPECT_EQ(sim.solver().substeps, 5);
}

TEST(IntegratorSubsteps, AnotherIntegratorStartsTheCountersAgain) {
  // The panel shows the running integrator's counters, not a blow-up of the one before.
  Simulation sim = hanging(10, IntegratorType::SymplecticEuler, 1);
  for (int f = 0; f < 60 && sim.statistics().instabilities == 0; ++f) sim.step();
  ASSERT_EQ(sim.statistics().instabilities, 1);
  SolverSettings implicit = sim.solver();
  implicit.integrator = IntegratorType::Implicit;
  sim.set_solver(implicit);
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_TRUE(sim.statistics().last_instability.empty());
  EXPECT_EQ(sim.statistics().steps, 0);
  sim.step();
  EXPECT_GT(sim.statistics().solves, 0) << "its own CG solves";
  SolverSettings same = sim.solver();
  same.dt /= 2;
  sim.set_solver(same);
  EXPECT_EQ(sim.statistics().steps, 1) << "other changes keep them";
}

TEST(BlowUpGuard, StopKeepsTheRunWhereItDivergedUntilReset) {
  Simulation sim = hanging(10, IntegratorType::SymplecticEuler, 1, BlowUpResponse::Stop);
  for (int f = 0; f < 60 && sim.divergence().empty(); ++f) sim.step();
  ASSERT_FALSE(sim.divergence().empty()) << "one substep a frame diverges on the default material";
  EXPECT_EQ(sim.divergence().rfind("diverged at t = ", 0), 0u) << sim.divergence();
  EXPECT_EQ(sim.statistics().instabilities, 1);
  EXPECT_EQ(sim.substeps(), 1) << "no recovery";
  const double t = sim.time();
  const std::vector<Vec3> x = sim.state().x;
  for (int f = 0; f < 5; ++f) sim.step();
  EXPECT_EQ(sim.time(), t) << "a stopped run does not advance";
  EXPECT_EQ(sim.state().x, x);
  sim.reset();
  EXPECT_TRUE(sim.divergence().empty());
  sim.step();
  EXPECT_GT(sim.time(), 0.0);
}

TEST(BlowUpGuard, ResetStartsTheRunOverAndCountsIt) {
  Simulation sim = hanging(10, IntegratorType::SymplecticEuler, 1, BlowUpResponse::Reset);
  const std::vector<Vec3> start = sim.state().x;
  for (int f = 0; f < 60 && sim.statistics().instabilities == 0; ++f) sim.step();
  ASSERT_EQ(sim.statistics().instabilities, 1);
  EXPECT_EQ(sim.time(), 0.0);
  EXPECT_EQ(sim.state().x, start);
  EXPECT_NE(sim.statistics().last_instability.find("started over"), std::string::npos)
      << sim.statistics().last_instability;
  EXPECT_TRUE(sim.divergence().empty()) << "it runs on";
}

TEST(BlowUpGuard, AnExplicitRecoveryGoesStraightToTheBoundAndStaysThere) {
  // One substep a frame on the default material: the first retry runs the stability bound's count,
  // which holds, and the count is not lowered below it (each lowering would be another blow-up).
  const int bound = hanging(10, IntegratorType::SymplecticEuler, 0).substeps();
  Simulation sim = hanging(10, IntegratorType::SymplecticEuler, 1);
  for (int f = 0; f < 60 && sim.statistics().instabilities == 0; ++f) sim.step();
  ASSERT_EQ(sim.statistics().instabilities, 1);
  EXPECT_EQ(sim.substeps(), bound);
  const std::string& why = sim.statistics().last_instability;
  EXPECT_NE(why.find("the stiffness allows; raise the substeps to " + std::to_string(bound)), std::string::npos) << why;
  EXPECT_NE(why.find("redone with " + std::to_string(bound) + " substeps"), std::string::npos) << why;
  EXPECT_EQ(blow_ups_in(sim, 8 * SubstepRecovery::kWait), 0);
  EXPECT_EQ(sim.substeps(), bound) << "held at the bound";
  // A change of the settings gives the user's count back: it was what the old ones needed.
  SpringMaterial soft = sim.model().material;
  soft.stretch /= 100;
  sim.set_material(soft);
  EXPECT_FALSE(sim.substeps_raised());
  EXPECT_EQ(sim.substeps(), 1);
}

TEST(SubstepRecovery, HalvesBackAfterStableFramesAndWaitsLongerAfterEachRelapse) {
  SubstepRecovery r;
  EXPECT_EQ(r.raise(8, 0, 2048), 16);
  for (int f = 1; f < SubstepRecovery::kWait; ++f) r.stable_frame(1);
  EXPECT_EQ(r.raised(), 16) << "not before the wait";
  r.stable_frame(1);
  EXPECT_EQ(r.raised(), 8);
  EXPECT_EQ(r.raise(8, 0, 2048), 16) << "the halved count diverged";
  EXPECT_EQ(r.wait(), 2 * SubstepRecovery::kWait);
  for (int f = 0; f < 2 * SubstepRecovery::kWait; ++f) r.stable_frame(1);
  EXPECT_EQ(r.raised(), 8);
  for (int f = 0; f < 3 * 2 * SubstepRecovery::kWait; ++f) r.stable_frame(1);
  EXPECT_FALSE(r.active()) << "8, 4, 2, then the user's 1";
  EXPECT_EQ(r.wait(), SubstepRecovery::kWait) << "a new recovery waits the first wait again";
  for (int k = 0; k < 12; ++k) {  // relapses double the wait up to its cap
    r.raise(8, 0, 2048);
    for (int f = 0; f < r.wait(); ++f) r.stable_frame(1);
  }
  EXPECT_EQ(r.wait(), SubstepRecovery::kMaxWait);
}

TEST(SubstepRecovery, NeverBelowTheBoundNorAboveTheCap) {
  SubstepRecovery r;
  EXPECT_EQ(r.raise(1, 22, 2048), 22);
  for (int f = 0; f < 100 * SubstepRecovery::kWait; ++f) r.stable_frame(1);
  EXPECT_EQ(r.raised(), 22);
  EXPECT_EQ(r.raise(1500, 0, 2048), 2048);
  SubstepRecovery reaching;
  reaching.raise(4, 3, 2048);
  for (int f = 0; f < 2 * SubstepRecovery::kWait; ++f) reaching.stable_frame(3);
  EXPECT_FALSE(reaching.active()) << "8, then the bound's 3, which is the user's";
}

}  // namespace
}  // namespace cloth
