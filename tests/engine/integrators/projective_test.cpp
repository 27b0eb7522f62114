// Projective dynamics (Liu et al. 2013; Bouaziz et al. 2014; Chebyshev: Wang 2015) checked
// against physics and its own claims: its fixed point is the backward Euler step that the fully
// converged Newton solve of the implicit integrator finds; each plain iteration lowers the
// objective; pins, the grab and solids hold; the matrix is factored once per change; a free fall
// is backward Euler's exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "integrators/implicit_euler.hpp"
#include "integrators/projective_integrator.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/test_scenes.hpp"

namespace cloth {
namespace {

constexpr double kG = 9.81;

// What a direct call of an integrator's step needs, pins where the state starts.
struct Stepper {
  SolverSettings solver;
  ExternalForces forces;
  SelfCollisionSettings no_self_collision;
  std::vector<std::uint8_t> pinned;
  std::vector<Vec3> pin_positions;

  Stepper(const ClothState& state, std::vector<std::uint8_t> pins) : pinned(std::move(pins)), pin_positions(state.x) {
    forces.gravity = Vec3(0, -kG, 0);
    forces.air_density = 0;  // no air: the exact answers below (free fall, Newton's) assume none
  }
  StepReport step(Integrator& integrator, ClothState& state, const ClothModel& model, double dt, double t = 0) {
    StepContext ctx;
    ctx.dt = dt;
    ctx.substeps = 1;
    ctx.time = t;
    ctx.solver = &solver;
    ctx.forces = &forces;
    ctx.self_collision = &no_self_collision;
    ctx.kinematics.pinned = &pinned;
    ctx.kinematics.pin_positions = &pin_positions;
    return integrator.step(state, model, ctx);
  }
};

// An undamped n x n springs cloth, 1 m^2, pinned at two corners of one row; bending by the
// classic bend springs, the energy the projective integrator minimises (and the Newton reference).
ClothModel undamped_cloth(int n, BendElement bend = BendElement::BendSprings) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  SpringMaterial m;
  m.damping = 0;
  m.velocity_damping = 0;
  m.bend_element = bend;
  return build_model(make_grid(spec), m, ModelType::Springs);
}

std::vector<std::uint8_t> corner_pins(int n) {
  std::vector<std::uint8_t> pinned(size_t(n * n), 0);
  pinned[0] = pinned[size_t(n - 1)] = 1;
  return pinned;
}

// A state with the cloth moving: rest positions and a swinging, shearing velocity field.
ClothState moving_state(const ClothModel& model, const std::vector<std::uint8_t>& pinned) {
  ClothState state;
  state.x = model.mesh.positions;
  state.v.assign(state.x.size(), Vec3::Zero());
  for (size_t i = 0; i < state.x.size(); ++i) {
    if (!pinned[i]) state.v[i] = Vec3(0.3 * state.x[i].z(), -0.5 * state.x[i].x(), 1.0 * state.x[i].x() * state.x[i].z());
  }
  return state;
}

double max_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

// (a) The reference: the implicit integrator with 20 Newton iterations and the direct solve,
// which solves backward Euler M (v1 - v0) = h f(x0 + h v1) to round-off (5 iterations are 3e-9 m
// from 20, 40 are 1e-16 m; the objective's minimality is checked below). Projective dynamics minimises
// 1/(2h^2)|x - y|_M^2 + E(x), whose stationarity condition is that same equation; its
// local-global iterations converge to it linearly.
TEST(Projective, LocalGlobalConvergesToTheNewtonBackwardEulerStep) {
  const int n = 6;
  const ClothModel model = undamped_cloth(n);
  const std::vector<std::uint8_t> pins = corner_pins(n);
  const double dt = 1.0 / 60;

  ClothState reference = moving_state(model, pins);
  Stepper newton(reference, pins);
  newton.solver.newton_iterations = 20;
  newton.solver.direct_solve = true;
  ImplicitEulerIntegrator implicit;
  newton.step(implicit, reference, model, dt);

  ClothState few = moving_state(model, pins), many = few;
  Stepper pd(few, pins);
  pd.solver.chebyshev_rho = 0;
  pd.solver.projective_iterations = 3;
  ProjectiveIntegrator projective;
  pd.step(projective, few, model, dt);
  pd.solver.projective_iterations = 10000;
  pd.step(projective, many, model, dt);

  EXPECT_GT(max_distance(few.x, reference.x), 1e-5) << "three iterations are not yet there";
  // Linear convergence, slow at k h^2 / m ~ 100: 2.9e-5 m after 1000 iterations, 4.2e-7 m
  // after 3000, 9e-13 m after 10000.
  EXPECT_LT(max_distance(many.x, reference.x), 1e-10) << "m";
  EXPECT_LT(max_distance(many.v, reference.v), 1e-10 / dt) << "m/s";
  // The reference is the minimiser: the objective there is not above the projective result's.
  EXPECT_LE(projective.objective(reference.x), projective.objective(many.x) + 1e-12);
}

// The shape-operator bend has no projection: under this integrator the springs model bends by
// its classic bend springs whichever element the material names, so both step alike.
TEST(Projective, BendsByTheClassicBendSprings) {
  const int n = 6;
  const std::vector<std::uint8_t> pins = corner_pins(n);
  const ClothModel springs = undamped_cloth(n, BendElement::BendSprings);
  const ClothModel shape_operator = undamped_cloth(n, BendElement::ShapeOperator);
  ASSERT_FALSE(shape_operator.bend_triangles.empty());
  ClothState a = moving_state(springs, pins), b = a;
  Stepper pa(a, pins), pb(b, pins);
  ProjectiveIntegrator ia, ib;
  pa.step(ia, a, springs, 1.0 / 60);
  pb.step(ib, b, shape_operator, 1.0 / 60);
  EXPECT_LT(max_distance(a.x, b.x), 1e-12);  // the same springs, summed in another order
  // Without the bend springs the step differs: they are in the system.
  SpringMaterial no_bending = springs.material;
  no_bending.bending = 0;
  ClothModel flexible = springs;
  set_material(flexible, no_bending);
  ClothState c = moving_state(springs, pins);
  Stepper pc(c, pins);
  ProjectiveIntegrator ic;
  pc.step(ic, c, flexible, 1.0 / 60);
  EXPECT_GT(max_distance(a.x, c.x), 1e-9);
}

// (b) Both steps minimise the objective over their own variables (Bouaziz et al. 2014, sec. 3.3),
// so without Chebyshev it never increases; with it (Wang 2015) the same number of iterations ends
// lower.
TEST(Projective, ObjectiveNeverIncreasesWithoutChebyshevAndChebyshevEndsLower) {
  const int n = 8;
  const ClothModel model = undamped_cloth(n);
  const std::vector<std::uint8_t> pins = corner_pins(n);
  double plain_end = 0;
  for (double rho : {0.0, 0.9}) {
    ClothState state = moving_state(model, pins);
    Stepper pd(state, pins);
    pd.solver.chebyshev_rho = rho;
    pd.solver.projective_iterations = 40;
    ProjectiveIntegrator projective;
    projective.record_objective(true);
    pd.step(projective, state, model, 1.0 / 60);
    const std::vector<double>& phi = projective.objective_history();
    ASSERT_EQ(phi.size(), 41u);
    if (rho == 0) {
      for (size_t k = 1; k < phi.size(); ++k) {
        EXPECT_LE(phi[k], phi[k - 1] * (1 + 1e-13)) << "iteration " << k;
      }
      EXPECT_LT(phi.back(), 0.5 * phi.front());
      plain_end = phi.back();
    } else {
      EXPECT_LT(phi.back(), plain_end) << "Chebyshev accelerates";
    }
  }
}

Simulation projective_cloth(int n, std::vector<Collider> colliders, std::vector<int> pins, Vec3 center = Vec3::Zero()) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = center;
  SolverSettings solver;
  solver.integrator = IntegratorType::Projective;
  solver.substeps = 2;
  return Simulation(build_model(make_grid(spec), SpringMaterial{}, ModelType::Springs), std::move(colliders),
                    std::move(pins), solver, Vec3(0, -kG, 0));
}

// (c) Pinned vertices are eliminated from the system: they never move, bit for bit; the kinematic
// grab too, moving at max_speed towards a far cursor.
TEST(Projective, PinsAndTheKinematicGrabAreExact) {
  Simulation sim = projective_cloth(12, {}, {0, 11});
  const Vec3 a = sim.state().x[0], b = sim.state().x[11];
  for (int s = 0; s < 120; ++s) {
    sim.step();
    ASSERT_EQ(sim.state().x[0], a) << "step " << s;
    ASSERT_EQ(sim.state().x[11], b) << "step " << s;
  }
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_LT(sim.state().x[143].y(), -0.3) << "the free corner has fallen";
  const Vec3 start = sim.state().x[143], target = start + Vec3(0, 10, 0);
  sim.mouse().grab(143, target);
  sim.step();
  const Vec3 moved = sim.state().x[143] - start;
  EXPECT_NEAR(moved.norm(), Grab{}.max_speed * sim.solver().dt, 1e-9);
  EXPECT_NEAR(moved.normalized().dot(Vec3::UnitY()), 1.0, 1e-12);
  EXPECT_EQ(sim.state().x[0], a);
}

// (c) Solids through the collision stage after the solve: a cloth dropped on a sphere above a
// floor never ends a step inside either beyond their thickness, and comes to lie on the sphere.
TEST(Projective, ClothOnSphereAndFloorStaysOutside) {
  const double thickness = 0.005;
  const std::vector<Collider> colliders = {Collider{SphereShape{Vec3(0, 0.3, 0), 0.2}, thickness, 0.3},
                                           Collider{PlaneShape{Vec3(0, 0, 0), Vec3(0, 1, 0)}, thickness, 0.3}};
  Simulation sim = projective_cloth(16, colliders, {}, Vec3(0, 0.6, 0));
  int touching_steps = 0;
  for (int s = 0; s < 120; ++s) {
    touching_steps += sim.step().integration.contacts > 0;
    for (const Vec3& x : sim.state().x) {
      for (const Collider& c : colliders) {
        Vec3 normal;
        ASSERT_GE(signed_distance(c, x, &normal), thickness - 1e-9) << "step " << s;
      }
    }
  }
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_GT(touching_steps, 30);
  EXPECT_NEAR(sim.state().x[8 * 16 + 8].y(), 0.5 + thickness, 0.02) << "resting on top";
}

// (d) The global matrix depends on h, masses, springs and fixed vertices only: factored once over
// many steps, again after each change of the step, the stiffness or the pins.
TEST(Projective, FactoredOncePerChangeOfStepStiffnessOrPins) {
  const int n = 6;
  ClothModel model = undamped_cloth(n);
  const std::vector<std::uint8_t> pins = corner_pins(n);
  ClothState state = moving_state(model, pins);
  Stepper pd(state, pins);
  ProjectiveIntegrator projective;
  for (int s = 0; s < 30; ++s) pd.step(projective, state, model, 1.0 / 60, s / 60.0);
  EXPECT_EQ(projective.factorizations(), 1);
  for (int s = 0; s < 5; ++s) pd.step(projective, state, model, 1.0 / 120);
  EXPECT_EQ(projective.factorizations(), 2) << "a new step";
  SpringMaterial stiffer = model.material;
  stiffer.stretch *= 2;
  set_material(model, stiffer);
  for (int s = 0; s < 5; ++s) pd.step(projective, state, model, 1.0 / 120);
  EXPECT_EQ(projective.factorizations(), 3) << "a new stiffness";
  pd.pinned[size_t(n - 1)] = 0;
  for (int s = 0; s < 5; ++s) pd.step(projective, state, model, 1.0 / 120);
  EXPECT_EQ(projective.factorizations(), 4) << "a released pin";
  for (const Vec3& x : state.x) ASSERT_TRUE(x.allFinite());
}

// (e) With no force but gravity a cloth at rest length translates rigidly (every projection is
// the spring itself) and backward Euler's free particle is exact: v_k = k h g, x_k = x_0 +
// h^2 g k (k + 1) / 2 = g t^2 / 2 + g h t / 2 after k steps, t = k h.
TEST(Projective, FreeFallIsBackwardEulersExactly) {
  const int n = 5;
  const ClothModel model = undamped_cloth(n);
  const std::vector<std::uint8_t> none(size_t(n * n), 0);
  ClothState state = moving_state(model, none);
  for (Vec3& v : state.v) v.setZero();
  const std::vector<Vec3> start = state.x;
  Stepper pd(state, none);
  ProjectiveIntegrator projective;
  const double h = 0.01;
  const int steps = 50;
  for (int k = 0; k < steps; ++k) pd.step(projective, state, model, h, k * h);
  const double t = steps * h;
  const double drop = kG * t * t / 2 + kG * h * t / 2;
  for (size_t i = 0; i < start.size(); ++i) {
    EXPECT_NEAR((state.x[i] - start[i] + Vec3(0, drop, 0)).norm(), 0, 1e-10) << i;
    EXPECT_NEAR((state.v[i] + Vec3(0, kG * t, 0)).norm(), 0, 1e-9) << i;
  }
}

// A cut changes the vertices and springs: the matrix is rebuilt for the new topology and the
// pieces step on (Simulation::replace_mesh swaps the model between steps).
TEST(Projective, ATornClothStepsOnWithItsNewTopology) {
  GridSpec spec;
  spec.nx = spec.ny = 12;
  spec.width = spec.height = 0.5;
  spec.plane = GridPlane::XY;
  SpringMaterial material;
  material.stretch = 200;
  SolverSettings solver;
  solver.integrator = IntegratorType::Projective;
  const RestMesh mesh = make_grid(spec);
  Simulation sim(build_model(mesh, material, ModelType::Springs), {}, {}, solver, Vec3(0, -kG, 0));
  pull_top_corners_apart(sim, mesh);  // at 0.5 m/s each
  sim.set_tearing({true, 0.3});
  for (int frame = 0; frame < 150; ++frame) {
    sim.step();
    ASSERT_TRUE(all_finite(sim.state())) << "frame " << frame;
    for (const MovingPin& pin : sim.pins().moving_pins()) {
      ASSERT_LT((sim.state().x[size_t(pin.vertex)] - pin.position(sim.time())).norm(), 1e-12) << "frame " << frame;
    }
  }
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_GT(sim.tearing().torn_edges(), 0);
  EXPECT_GT(sim.model().vertex_count(), 144) << "the cut split vertices";
}

// Every vertex pinned (an empty system), coincident ends and springs without stiffness give
// finite steps, the pins exactly where they were.
TEST(Projective, DegenerateInputGivesNoNaN) {
  ClothModel model = undamped_cloth(3);
  model.springs[0].k = 0;
  model.springs[1].rest = 0;
  ClothState state = moving_state(model, std::vector<std::uint8_t>(9, 0));
  state.x[1] = state.x[0];  // spring 0's ends coincide
  for (const std::uint8_t pin : {0, 1}) {
    ClothState s = state;
    const std::vector<Vec3> start = s.x;
    Stepper pd(s, std::vector<std::uint8_t>(9, pin));
    ProjectiveIntegrator projective;
    for (int k = 0; k < 10; ++k) pd.step(projective, s, model, 1.0 / 60, k / 60.0);
    ASSERT_TRUE(all_finite(s)) << "pinned " << int(pin);
    if (pin) {
      EXPECT_EQ(s.x, start);
    }
  }
}

TEST(Projective, OtherModelsAreRefusedInOneLine) {
  GridSpec spec;
  SolverSettings solver;
  solver.integrator = IntegratorType::Projective;
  for (ModelType type : {ModelType::BaraffWitkin, ModelType::EdgeArea, ModelType::Feynman, ModelType::Breen}) {
    EXPECT_THROW(Simulation(build_model(make_grid(spec), SpringMaterial{}, type), {}, {}, solver, Vec3(0, -kG, 0)),
                 InputError)
        << name_of(type);
  }
  solver.projective_iterations = 0;
  EXPECT_THROW(validate_solver(solver), InputError);
  solver.projective_iterations = 10;
  solver.chebyshev_rho = 1;
  EXPECT_THROW(validate_solver(solver), InputError);
}

}  // namespace
}  // namespace cloth
