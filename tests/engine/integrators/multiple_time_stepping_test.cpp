// Multiple time stepping of the slow forces, the shape-operator bend and the air, in symplectic
// Euler and Verlet (explicit_integrators.hpp): the interval chosen from the bend's stiffest mode
// follows the trajectory of a bend applied every substep, and it is what keeps a stiff bend
// stable: a far longer interval diverges; the interval chosen from the drag's rates follows the
// trajectory of air applied every substep, in a wind that makes it short. A step of S substeps
// with the longest interval k runs ceil(S / k) equal intervals, the spacing the comments quote.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "integrators/explicit_integrators.hpp"
#include "mesh/mesh.hpp"
#include "model/material_presets.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/vacuum.hpp"

namespace cloth {
namespace {

constexpr double kDt = 1.0 / 60;  // s
constexpr int kSubsteps = 100;

// A 1 m square of n x n vertices pinned at two corners, falling from flat under gravity.
Simulation hanging(int n, const SpringMaterial& material, IntegratorType integrator, int bend_interval,
                   int substeps = kSubsteps, int air_interval = 0) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  SolverSettings solver;
  solver.integrator = integrator;
  solver.dt = kDt;
  solver.substeps = substeps;
  solver.bend_interval = bend_interval;
  solver.air_interval = air_interval;
  return Simulation(build_model(make_grid(spec), material), {}, {0, n - 1}, solver, Vec3(0, -9.81, 0));
}

// The default scene's cloth: cotton with the membrane softened to what 100 substeps carry.
SpringMaterial default_cotton() {
  SpringMaterial m = material_preset("cotton");
  m.stretch = 1000;  // N/m
  m.shear = 50;      // N/m
  m.bend_element = BendElement::ShapeOperator;
  return m;
}

double max_distance(const ClothState& a, const ClothState& b) {
  double d = 0;
  for (int i = 0; i < a.vertex_count(); ++i) d = std::max(d, (a.x[i] - b.x[i]).norm());
  return d;
}

// The default scene's cotton on a 24 x 24 grid and step: the bend far slower than the stretch, so
// the automatic interval is long (k = 30: four intervals of 25 substeps). One second of the swing
// later (the free corner travels about 1.5 m) the split trajectory is within a thousandth of that
// travel of a bend applied every substep, and it converges to it as the interval shrinks.
TEST(MultipleTimeStepping, FollowsTheEverySubstepBend) {
  // The air every substep in all three: the bend's schedule alone differs.
  Simulation automatic = hanging(24, default_cotton(), IntegratorType::Verlet, 0, kSubsteps, 1);
  Simulation shorter = hanging(24, default_cotton(), IntegratorType::Verlet, 5, kSubsteps, 1);
  Simulation every = hanging(24, default_cotton(), IntegratorType::Verlet, 1, kSubsteps, 1);
  const int interval = bend_interval(automatic.model(), kDt / kSubsteps, kSubsteps);
  ASSERT_GE(interval, 15);
  for (int s = 0; s < 60; ++s) {
    automatic.step();
    shorter.step();
    every.step();
  }
  const double travel = (automatic.state().x.back() - automatic.model().mesh.positions.back()).norm();
  const double apart = max_distance(automatic.state(), every.state());
  const double shorter_apart = max_distance(shorter.state(), every.state());
  std::printf("free corner travelled %.3f m; from the bend every substep: longest interval %d substeps %.2e m, "
              "every 5 substeps %.2e m\n", travel, interval, apart, shorter_apart);
  EXPECT_GT(travel, 1.0);
  EXPECT_LT(apart, 1e-3 * travel);
  EXPECT_LT(shorter_apart, apart / 3);  // intervals of 25 and 5 substeps: first order would give 5
  EXPECT_EQ(automatic.statistics().instabilities + every.statistics().instabilities, 0);
}

// Without damping, air or friction the hanging sheet conserves energy. A bend 100 times cotton's
// on a 32 x 32 grid makes the automatic interval short (k = 7: 15 intervals of 6 or 7 substeps);
// it holds the energy, while k = 8 x 7 (two intervals of 50 substeps) puts the bend's stiffest mode
// past the kick's stability limit and the run diverges (the blow-up guard reports it).
TEST(MultipleTimeStepping, AutomaticIntervalIsStableWhereAFarLongerOneDiverges) {
  SpringMaterial stiff = default_cotton();
  stiff.bending = 1e-3;  // N*m
  stiff.bending_damping = 0;
  stiff.damping = 0;
  const int interval = bend_interval(hanging(32, stiff, IntegratorType::Verlet, 0).model(), kDt / kSubsteps, kSubsteps);
  std::printf("B = 1e-3 N*m, 32 x 32: longest interval %d substeps\n", interval);
  ASSERT_GE(interval, 2);
  ASSERT_LE(8 * interval, kSubsteps);
  for (int k : {0, 8 * interval}) {
    Simulation sim = hanging(32, stiff, IntegratorType::Verlet, k);
    in_vacuum(sim);
    const double start = sim.energies().total();
    double largest_error = 0, largest_kinetic = 0;
    for (int s = 0; s < 60 && sim.statistics().instabilities == 0; ++s) {
      sim.step();
      largest_error = std::max(largest_error, std::abs(sim.energies().total() - start));
      largest_kinetic = std::max(largest_kinetic, sim.energies().kinetic);
    }
    std::printf("bend_interval %d: instabilities %d, energy error %.3g J of kinetic %.3g J\n", k,
                sim.statistics().instabilities, largest_error, largest_kinetic);
    if (k == 0) {
      EXPECT_EQ(sim.statistics().instabilities, 0);
      EXPECT_LT(largest_error, 0.02 * largest_kinetic);
    } else {
      EXPECT_GT(sim.statistics().instabilities, 0);
    }
  }
}

// The same swing in air with the bend as springs, so that only the air is kicked: the swing's
// speeds (up to ~5 m/s) give intervals of 17 to 100 substeps. One second later (1.56 m of
// the corner's travel) the split trajectory is within a thousandth of that travel of the air
// applied every substep, and within twice what the base step's own error moves it: 100 against
// 200 substeps with the air every substep (both printed, with intervals of a fifth).
TEST(MultipleTimeStepping, FollowsTheEverySubstepAir) {
  SpringMaterial material = default_cotton();
  material.bend_element = BendElement::BendSprings;
  Simulation automatic = hanging(24, material, IntegratorType::Verlet, 0);
  Simulation every = hanging(24, material, IntegratorType::Verlet, 0, kSubsteps, 1);
  Simulation finer = hanging(24, material, IntegratorType::Verlet, 0, 2 * kSubsteps, 1);
  int longest = 1, shortest = kSubsteps;
  for (int s = 0; s < 60; ++s) {
    const int k = air_interval(automatic.model(), automatic.state(), automatic.external_forces(), kDt, kSubsteps);
    longest = std::max(longest, k);
    shortest = std::min(shortest, k);
    automatic.step();
    every.step();
    finer.step();
  }
  Simulation fifth = hanging(24, material, IntegratorType::Verlet, 0, kSubsteps, std::max(shortest / 5, 1));
  for (int s = 0; s < 60; ++s) fifth.step();
  const double travel = (automatic.state().x.back() - automatic.model().mesh.positions.back()).norm();
  const double apart = max_distance(automatic.state(), every.state());
  const double base_error = max_distance(finer.state(), every.state());
  std::printf("free corner travelled %.3f m; air intervals %d to %d substeps; from the air every substep: "
              "automatic %.2e m, every %d substeps %.2e m; 200 substeps %.2e m\n", travel, shortest, longest, apart,
              std::max(shortest / 5, 1), max_distance(fifth.state(), every.state()), base_error);
  ASSERT_GE(shortest, 10);
  EXPECT_GT(travel, 1.0);
  EXPECT_LT(apart, 1e-3 * travel);
  EXPECT_LT(apart, 2 * base_error);
  EXPECT_EQ(automatic.statistics().instabilities + every.statistics().instabilities, 0);
}

// The air's impulses come after the substep's pins and contacts: they must leave the pinned
// corners of a sheet in a 10 m/s wind at rest, position and velocity, at every step's end.
TEST(MultipleTimeStepping, PinsTakeNoAirImpulse) {
  Simulation sim = hanging(24, default_cotton(), IntegratorType::Verlet, 0);
  ExternalForces f = sim.external_forces();
  f.wind.type = WindField::Type::Constant;
  f.wind.speed = 10;
  f.wind.direction = Vec3(0, 0, 1);
  sim.set_external_forces(f);
  ASSERT_LT(air_interval(sim.model(), sim.state(), sim.external_forces(), kDt, kSubsteps), kSubsteps);
  const Vec3 corner = sim.state().x[0];
  for (int s = 0; s < 30; ++s) {
    sim.step();
    ASSERT_EQ(sim.state().x[0], corner) << "step " << s;
    ASSERT_EQ(sim.state().v[0], Vec3::Zero()) << "step " << s;
  }
  EXPECT_GT((sim.state().x.back() - sim.model().mesh.positions.back()).norm(), 0.3) << "the free corner moved";
}

// The air's interval follows the flow: still air and a resting cloth leave the whole step to one
// impulse; a stronger wind shortens the interval (the drag's rate grows as u, its stiffness as u);
// without air there is nothing to kick.
TEST(MultipleTimeStepping, AirIntervalShortensWithTheWind) {
  Simulation sim = hanging(24, default_cotton(), IntegratorType::Verlet, 0);
  const auto interval_at = [&](double speed) {
    ExternalForces f = sim.external_forces();
    f.wind.type = WindField::Type::Constant;
    f.wind.speed = speed;
    return air_interval(sim.model(), sim.state(), f, kDt, kSubsteps);
  };
  const int still = interval_at(0), breeze = interval_at(5), gale = interval_at(20);
  std::printf("air interval: still %d, 5 m/s %d, 20 m/s %d substeps\n", still, breeze, gale);
  EXPECT_EQ(still, kSubsteps);
  EXPECT_LT(breeze, kSubsteps);
  EXPECT_LE(3 * gale, breeze);
  in_vacuum(sim);
  EXPECT_EQ(air_interval(sim.model(), sim.state(), sim.external_forces(), kDt, kSubsteps), kSubsteps);
}

}  // namespace
}  // namespace cloth
