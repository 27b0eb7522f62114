// Randomized parameter sweep: seeded random materials, forces and solver settings, including
// absurd-but-allowed extremes (stiffness from 0 to the 1e8 N/m limit, steps up to the 1 s limit,
// 200 m/s wind), for every integrator, on a small grid with a sphere, a floor, pins and a mouse
// grab. Whatever the parameters, a step must never leave a NaN or a runaway speed behind
// unreported: a diverged step is rolled back and counted in instabilities() / rejected_steps().
// Values the validation rejects must throw InputError and leave the simulation as it was.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/support/model_names.hpp"
#include "integrators/integrator.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "simulation/simulation.hpp"

namespace cloth {
namespace {

// Sweep size: every integrator x kParameterSets x kSteps. Divergent sets are expensive (the guard
// retries with up to 2048 substeps, an adaptive frame takes up to 128 attempts; an implicit
// Baraff-Witkin set that diverges every step costs 20-40 s in a Release build), so the sizes keep
// the whole sweep near a minute and a half; sanitizer builds (asserts on, about 25 times slower)
// run a quarter of the sets for half the steps: the drag, the rejected change and the release
// still fall inside them.
#ifdef NDEBUG
constexpr int kParameterSets = 8;
constexpr int kSteps = 12;
#else
constexpr int kParameterSets = 2;
constexpr int kSteps = 6;
#endif

std::vector<IntegratorType> integrators() { return all_values<IntegratorType>(); }

class Random {
 public:
  explicit Random(unsigned seed) : rng_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  /// Log-uniform over [lo, hi] (lo > 0): every decade equally likely.
  double decades(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  /// 0 with probability p, otherwise decades(lo, hi): the "off" extreme is tested too.
  double maybe_zero(double p, double lo, double hi) { return chance(p) ? 0.0 : decades(lo, hi); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return uniform(0, 1) < p; }
  Vec3 direction() {
    Vec3 d(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    return d.norm() > 1e-3 ? d.normalized() : Vec3::UnitX();
  }

 private:
  std::mt19937 rng_;
};

struct Case {
  ModelType model;
  SpringMaterial material;
  SolverSettings solver;
  ExternalForces forces;
};

Case random_case(Random& r, cloth::IntegratorType integrator) {
  Case c;
  // projective steps the springs model only (Simulation::check_supported).
  c.model = r.chance(0.5) || integrator == IntegratorType::Projective ? ModelType::Springs : ModelType::BaraffWitkin;
  SpringMaterial& m = c.material;
  m.density = r.decades(1e-4, 100);
  m.stretch = r.maybe_zero(0.05, 1e-2, 1e8);
  m.shear = r.maybe_zero(0.05, 1e-2, 1e8);
  m.bending = r.maybe_zero(0.1, 1e-9, 10);
  m.damping = r.maybe_zero(0.2, 1e-6, 1e4);
  m.velocity_damping = r.maybe_zero(0.2, 1e-3, 1e3);
  m.bending_damping = r.maybe_zero(0.5, 1e-9, 10);
  m.rest_stretch_u = r.uniform(0.1, 10);
  m.rest_stretch_v = r.uniform(0.1, 10);
  m.bend_k_u = r.maybe_zero(0.1, 1e-3, 1e3);
  m.bend_k_v = r.maybe_zero(0.1, 1e-3, 1e3);

  SolverSettings& s = c.solver;
  s.integrator = integrator;
  s.dt = r.decades(1e-5, 1.0);
  s.adaptive = r.chance(0.3);
  // Cost bounds, not validity bounds: an adaptive frame may take up to 128 attempts
  // (Simulation::kMaxAdaptiveAttempts), so adaptive sets get few substeps and a stretch test that
  // does not reject nearly every attempt.
  s.substeps = static_cast<int>(std::round(r.decades(1, s.adaptive ? 4 : 32)));
  s.max_stretch_change = r.decades(s.adaptive ? 0.05 : 1e-3, 10);
  s.strain_limit = r.chance(0.5) ? -1 : r.uniform(0, 1);
  s.newton_iterations = r.integer(1, 3);
  s.xpbd_iterations = r.integer(1, 4);
  s.direct_solve = r.chance(0.3);
  s.tolerance = r.decades(1e-10, 0.5);
  s.max_iterations = r.integer(1, 200);

  ExternalForces& f = c.forces;
  f.gravity = r.decades(1e-3, 1000) * r.direction();
  f.drag = r.maybe_zero(0.3, 1e-3, 1e4);
  f.wind.type = static_cast<WindField::Type>(r.integer(0, 3));
  f.wind.speed = r.uniform(-200, 200);
  f.wind.direction = r.direction();
  f.wind.frequency = r.uniform(-1e3, 1e3);
  f.wind.wavenumber = r.uniform(-1e3, 1e3);
  f.wind.gust = r.uniform(0, 1);
  if (integrator == IntegratorType::Projective) {  // drawn last: the other integrators' sets stay as they were
    s.projective_iterations = r.integer(1, 30);
    s.chebyshev_rho = r.chance(0.3) ? 0.0 : r.uniform(0, 0.9999);
  }
  if (integrator == IntegratorType::Vbd) {
    s.vbd_iterations = r.integer(1, 30);
    s.chebyshev_rho = r.chance(0.3) ? 0.0 : r.uniform(0, 0.9999);
  }
  return c;
}

std::vector<Collider> colliders() {
  Collider sphere, floor;
  sphere.shape = SphereShape{Vec3(0, 0.6, 0.05), 0.2};
  floor.shape = PlaneShape{Vec3::Zero(), Vec3::UnitY()};
  return {sphere, floor};
}

double max_speed(const ClothState& s) {
  double v = 0;
  for (const Vec3& vi : s.v) v = std::max(v, vi.norm());
  return v;
}

// Everything a rejected setter must leave alone.
struct Snapshot {
  std::vector<Vec3> x, v;
  double time;
  double stretch, density;
  double dt;
  int substeps;
  cloth::IntegratorType integrator = cloth::IntegratorType::Verlet;
  Vec3 gravity;
  double drag;

  explicit Snapshot(const Simulation& sim)
      : x(sim.state().x), v(sim.state().v), time(sim.time()),
        stretch(sim.model().material.stretch), density(sim.model().material.density),
        dt(sim.solver().dt), substeps(sim.solver().substeps), integrator(sim.solver().integrator),
        gravity(sim.gravity()), drag(sim.external_forces().drag) {}
  bool operator==(const Snapshot&) const = default;
};

// One invalid change per call, chosen at random; it must throw InputError and change nothing.
void expect_rejected_change_leaves_sim_alone(Simulation& sim, Random& r) {
  const Snapshot before(sim);
  const double bad = std::array<double, 4>{NAN, INFINITY, -1.0, 1e300}[r.integer(0, 3)];
  const int which = r.integer(0, 4);
  SCOPED_TRACE("rejected change " + std::to_string(which) + " with value " + std::to_string(bad));
  SpringMaterial m = sim.model().material;
  SolverSettings s = sim.solver();
  ExternalForces f = sim.external_forces();
  switch (which) {
    case 0: m.stretch = bad; EXPECT_THROW(sim.set_material(m), InputError); break;
    case 1: m.density = bad; EXPECT_THROW(sim.set_material(m), InputError); break;
    case 2: s.dt = bad; EXPECT_THROW(sim.set_solver(s), InputError); break;
    case 3:  // another integrator with a bad substep count: neither may take effect
      s.integrator = s.integrator == IntegratorType::Implicit ? IntegratorType::Verlet : IntegratorType::Implicit;
      s.substeps = -1;  // 0 is auto
      EXPECT_THROW(sim.set_solver(s), InputError);
      break;
    case 4:
      f.gravity.y() = bad == -1.0 ? -2000.0 : bad;  // -1 m/s^2 would be a fine gravity
      f.drag = 1;
      EXPECT_THROW(sim.set_external_forces(f), InputError);
      break;
  }
  EXPECT_TRUE(Snapshot(sim) == before);
}

class ParamSweep : public ::testing::TestWithParam<cloth::IntegratorType> {};

TEST_P(ParamSweep, NoCrashNoUnreportedNaN) {
  const cloth::IntegratorType integrator = GetParam();
  GridSpec grid;
  grid.nx = 5;
  grid.ny = 4;
  grid.width = 0.6;
  grid.height = 0.5;
  const RestMesh mesh = make_grid(grid);
  int diverged_sets = 0;
  for (int set = 0; set < kParameterSets; ++set) {
    Random r(1000u * static_cast<unsigned>(set) + static_cast<unsigned>(std::string(name_of(integrator)).size()));
    const Case c = random_case(r, integrator);
    SCOPED_TRACE(name_of(integrator) + std::string(" parameter set ") + std::to_string(set) + ": stretch " +
                 std::to_string(c.material.stretch) + " N/m, dt " + std::to_string(c.solver.dt) +
                 " s, substeps " + std::to_string(c.solver.substeps) +
                 (c.solver.adaptive ? ", adaptive" : ""));
    Simulation sim(build_model(mesh, c.material, c.model), colliders(),
                   {mesh.grid_index(0, 0), mesh.grid_index(grid.nx - 1, 0)}, c.solver, c.forces.gravity);
    sim.set_external_forces(c.forces);
    for (int k = 0; k < kSteps; ++k) {
      if (k == kSteps / 4) sim.mouse().grab(mesh.grid_index(2, 3), Vec3(r.uniform(-50, 50), 5, 0));  // a far drag
      if (k == kSteps / 2) sim.mouse().release();
      if (k == kSteps / 3) expect_rejected_change_leaves_sim_alone(sim, r);
      const int instabilities = sim.statistics().instabilities;
      const std::int64_t rejected = sim.statistics().rejected_steps;
      sim.step();
      const bool reported = sim.statistics().instabilities > instabilities || sim.statistics().rejected_steps > rejected;
      ASSERT_TRUE(all_finite(sim.state())) << "step " << k << " left a NaN/Inf";
      ASSERT_TRUE(max_speed(sim.state()) < Simulation::kRunawaySpeed || reported)
          << "step " << k << " reached " << max_speed(sim.state()) << " m/s unreported";
    }
    diverged_sets += sim.statistics().instabilities > 0;
  }
  // Shows that the sweep reaches parameters that diverge, not only the easy part of the space.
  std::cout << name_of(integrator) << ": " << diverged_sets << " of " << kParameterSets
            << " parameter sets diverged at least once (reported and recovered)\n";
}

INSTANTIATE_TEST_SUITE_P(EveryIntegrator, ParamSweep, ::testing::ValuesIn(integrators()),
                         integrator_test_name);

}  // namespace
}  // namespace cloth
