// Vertex Block Descent (Chen, Liu, Yang & Yuksel 2024) checked against physics and its own
// claims: its fixed point is the backward Euler step that the fully converged Newton solve of the
// implicit integrator finds, for every model; the colouring separates every element's vertices;
// pins and the kinematic grab hold exactly; a hanging cloth comes to rest; the threads do not
// change a bit.
#include <cstdio>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "forces/element_visit.hpp"
#include "forces/forces.hpp"
#include "forces/internal_forces.hpp"
#include "integrators/implicit_euler.hpp"
#include "integrators/vbd_integrator.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"

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
    // No air: VBD takes the drag explicitly (in y) and the Newton step implicitly, so the two
    // steps agree only without it.
    forces.air_density = 0;
  }
  StepReport step(Integrator& integrator, ClothState& state, const ClothModel& model, double dt) {
    StepContext ctx;
    ctx.dt = dt;
    ctx.substeps = 1;
    ctx.solver = &solver;
    ctx.forces = &forces;
    ctx.self_collision = &no_self_collision;
    ctx.kinematics.pinned = &pinned;
    ctx.kinematics.pin_positions = &pin_positions;
    return integrator.step(state, model, ctx);
  }
};

ClothModel cloth_model(int n, ModelType type) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  return build_model(make_grid(spec), SpringMaterial{}, type);
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

class VbdModels : public testing::TestWithParam<ModelType> {};

// Backward Euler's residual max_i |m_i (v1_i - v0_i) / h - f_i(x1, v1)|, N (f: the material,
// gravity and the velocity damping, all at the end of the step).
double backward_euler_residual(const ClothModel& model, const ClothState& start, const ClothState& end,
                               const std::vector<std::uint8_t>& pins, const ExternalForces& forces, double h) {
  std::vector<Vec3> f;
  compute_forces(model, end, forces, 0, f);
  double r = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    if (!pins[i]) r = std::max(r, (model.mass[i] * (end.v[i] - start.v[i]) / h - f[i]).norm());
  }
  return r;
}

// (a) The reference: the implicit integrator with 20 Newton iterations and the direct solve, which
// solves backward Euler M (v1 - v0) = h f(x1, v1) to round-off (damping and the velocity damping
// implicit, gravity constant). VBD minimises G(x), whose stationarity condition is that equation;
// its descent converges to a root of it, for each model's own elements, and to Newton's root but
// for Feynman's model: its buckling springs (weaker in compression) make G non-convex, and from
// this state the two solvers find two different roots 5.6e-5 m apart (both with residual < 1e-12 N).
TEST_P(VbdModels, ConvergesToTheNewtonBackwardEulerStep) {
  const int n = 6;
  const ClothModel model = cloth_model(n, GetParam());
  const std::vector<std::uint8_t> pins = corner_pins(n);
  const double dt = 1.0 / 60;

  const ClothState start = moving_state(model, pins);
  ClothState reference = start;
  Stepper newton(reference, pins);
  newton.solver.newton_iterations = 20;
  newton.solver.direct_solve = true;
  ImplicitEulerIntegrator implicit;
  newton.step(implicit, reference, model, dt);
  ASSERT_LT(backward_euler_residual(model, start, reference, pins, newton.forces, dt), 1e-9);

  ClothState few = start, many = start;
  Stepper vbd(few, pins);
  vbd.solver.chebyshev_rho = 0;
  vbd.solver.vbd_iterations = 2;
  VbdIntegrator integrator;
  vbd.step(integrator, few, model, dt);
  vbd.solver.vbd_iterations = 4000;
  vbd.step(integrator, many, model, dt);

  EXPECT_GT(max_distance(few.x, reference.x), 1e-6) << "two iterations are not yet there";
  EXPECT_GT(backward_euler_residual(model, start, few, pins, vbd.forces, dt), 1e-6);
  EXPECT_LT(backward_euler_residual(model, start, many, pins, vbd.forces, dt), 1e-9) << "N";
  if (GetParam() == ModelType::Feynman) return;
  EXPECT_LT(max_distance(many.x, reference.x), 1e-10) << "m";
  EXPECT_LT(max_distance(many.v, reference.v), 1e-10 / dt) << "m/s";
}

// The step reports how far its descent is from converged: the last iteration's largest move over
// the first's. Stopped after 2 iterations the descent still moves nearly as far as at first; run
// to convergence (the 4000 iterations of the test above) its last moves are round-off.
TEST(Vbd, LastMoveShrinksWithIterations) {
  const int n = 6;
  const ClothModel model = cloth_model(n, ModelType::Springs);
  const std::vector<std::uint8_t> pins = corner_pins(n);
  const ClothState start = moving_state(model, pins);
  double ratio[3] = {};
  const int iterations[3] = {2, 40, 4000};
  for (int k = 0; k < 3; ++k) {
    ClothState state = start;
    Stepper vbd(state, pins);
    vbd.solver.chebyshev_rho = 0;
    vbd.solver.vbd_iterations = iterations[k];
    VbdIntegrator integrator;
    ratio[k] = vbd.step(integrator, state, model, 1.0 / 60).last_move_ratio;
  }
  std::printf("last move / first move: %.3g at 2 iterations, %.3g at 40, %.3g at 4000\n", ratio[0], ratio[1], ratio[2]);
  EXPECT_GT(ratio[0], 0.1);
  EXPECT_LT(ratio[1], ratio[0]);
  EXPECT_LT(ratio[2], 1e-6);
}

// The colouring lets a colour's vertices move at once only if no element joins two of them.
TEST_P(VbdModels, NoElementHasTwoVerticesOfOneColour) {
  const ClothModel model = cloth_model(9, GetParam());
  const VertexElements elements(model);
  std::vector<int> colour(size_t(model.vertex_count()), -1);
  for (size_t c = 0; c < elements.colours().size(); ++c) {
    for (int i : elements.colours()[c]) {
      ASSERT_EQ(colour[size_t(i)], -1) << "vertex " << i << " coloured twice";
      colour[size_t(i)] = int(c);
    }
  }
  EXPECT_EQ(std::count(colour.begin(), colour.end(), -1), 0);
  // Every spring's and every element's vertices, read from the model's arrays.
  int checked = 0;
  const auto distinct = [&](const auto& v) {
    ++checked;
    for (size_t x = 0; x < v.size(); ++x) {
      for (size_t y = 0; y < x; ++y) {
        if (v[x] != v[y]) {
          EXPECT_NE(colour[size_t(v[x])], colour[size_t(v[y])]) << v[x] << " and " << v[y];
        }
      }
    }
  };
  for (const Spring& spring : model.springs) distinct(std::array<int, 2>{spring.i, spring.j});
  for (ElementKind kind : kElementKinds) {
    for (int k = 0; k < element_count(model, kind); ++k) visit_element_vertices(model, kind, k, distinct);
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(elements.same_topology(model));
  EXPECT_FALSE(elements.same_topology(cloth_model(9, GetParam() == ModelType::Springs ? ModelType::BaraffWitkin
                                                                                        : ModelType::Springs)));
}

INSTANTIATE_TEST_SUITE_P(Vbd, VbdModels,
                         testing::Values(ModelType::Springs, ModelType::BaraffWitkin, ModelType::EdgeArea,
                                         ModelType::Feynman, ModelType::Breen),
                         [](const testing::TestParamInfo<ModelType>& param) {
                           std::string name = name_of(param.param);
                           std::erase(name, '-');
                           return name;
                         });

// A horizontal n x n springs cloth, 1 m^2, centred at the origin.
Simulation vbd_cloth(int n, std::vector<int> pins, int threads = 1) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = Vec3::Zero();
  SolverSettings solver;
  solver.integrator = IntegratorType::Vbd;
  solver.substeps = 4;
  solver.threads = threads;
  return Simulation(build_model(make_grid(spec), SpringMaterial{}, ModelType::Springs), {}, std::move(pins), solver,
                    Vec3(0, -kG, 0));
}

// (b) Pinned vertices are skipped by the descent: they never move, bit for bit; the kinematic grab
// moves at max_speed towards a far cursor, exactly.
TEST(Vbd, PinsAndTheKinematicGrabAreExact) {
  Simulation sim = vbd_cloth(12, {0, 11});
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

// (c) A cloth hanging from two corners, released flat from rest: the material's damping and
// backward Euler's numerical dissipation take the energy out second by second (the implicit
// integrator decays alike: peak kinetic energy 0.53 J in the first second, 0.0012 J in the tenth),
// and it comes to rest hanging below the pins.
TEST(Vbd, HangingClothComesToRest) {
  Simulation sim = vbd_cloth(10, {0, 9});
  double total = sim.energies().total();
  std::vector<double> peak_kinetic;
  for (int second = 0; second < 10; ++second) {
    double peak = 0;
    for (int s = 0; s < 60; ++s) {
      sim.step();
      peak = std::max(peak, sim.energies().kinetic);
    }
    peak_kinetic.push_back(peak);
    const double now = sim.energies().total();
    EXPECT_LT(now, total) << "second " << second;
    total = now;
  }
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_GT(peak_kinetic.front(), 0.1) << "J: it swung";
  EXPECT_LT(peak_kinetic.back(), 0.01 * peak_kinetic.front()) << "and comes to rest";
  EXPECT_LT(sim.state().x[99].y(), -0.9) << "hanging below the pins";
}

// (d) The vertices of one colour move independently: 1 and 2 threads give the same bits.
TEST(Vbd, SameBitsOnOneAndTwoThreads) {
  Simulation one = vbd_cloth(32, {0, 31}, 1), two = vbd_cloth(32, {0, 31}, 2);
  const VertexElements elements(one.model());
  ASSERT_GT(elements.colours().front().size(), 64u) << "colours split into several tasks";
  one.step();  // 4 substeps of 10 iterations
  two.step();
  for (int i = 0; i < one.model().vertex_count(); ++i) {
    ASSERT_EQ(one.state().x[size_t(i)], two.state().x[size_t(i)]) << "vertex " << i;
    ASSERT_EQ(one.state().v[size_t(i)], two.state().v[size_t(i)]) << "vertex " << i;
  }
}

// (d') The bend's hinge angles VBD keeps between vertex steps (VbdIntegrator::hinge_cache) are
// current when the step ends: bit for bit the angles, gradients and effective angles computed
// afresh from its positions and velocities, with the over-relaxation off and on (after which every
// hinge is refreshed).
TEST(Vbd, KeptHingeAnglesAreThoseOfTheEndState) {
  for (const double rho : {0.0, 0.9}) {
    const ClothModel model = cloth_model(12, ModelType::Springs);
    ASSERT_FALSE(model.bend_triangles.empty()) << "the springs model bends with the shape operator";
    const size_t n = size_t(model.vertex_count());
    ClothState state{model.mesh.positions, std::vector<Vec3>(n, Vec3::Zero())};
    std::vector<std::uint8_t> pins(n, 0);
    pins[0] = pins[11] = 1;  // two corners of one side: the cloth swings down and folds
    Stepper stepper(state, pins);
    stepper.solver.integrator = IntegratorType::Vbd;
    stepper.solver.chebyshev_rho = rho;
    VbdIntegrator vbd;
    for (int s = 0; s < 5; ++s) stepper.step(vbd, state, model, 1.0 / 60);
    ShapeOperatorScratch fresh;
    update_bend_hinges(model, state, fresh);
    const ShapeOperatorScratch& kept = vbd.hinge_cache();
    ASSERT_EQ(kept.angle.size(), fresh.angle.size());
    ASSERT_EQ(kept.effective.size(), fresh.effective.size());
    double largest = 0;
    for (size_t h = 0; h < fresh.angle.size(); ++h) {
      largest = std::max(largest, std::abs(fresh.angle[h].value));
      ASSERT_EQ(kept.angle[h].value, fresh.angle[h].value) << "rho " << rho << " hinge " << h;
      ASSERT_EQ(kept.angle[h].grad, fresh.angle[h].grad) << "rho " << rho << " hinge " << h;
      ASSERT_EQ(kept.effective[h], fresh.effective[h]) << "rho " << rho << " hinge " << h;
    }
    EXPECT_GT(largest, 1e-3) << "the cloth must have bent";
  }
}

// (e) Every model's elements give their force and Jacobians, so no model is refused; a bad
// iteration count is, in one line that names the key.
TEST(Vbd, EveryModelIsAcceptedAndABadIterationCountRefusedInOneLine) {
  Simulation sim = vbd_cloth(4, {0});
  for (const auto& [type, name] : kModelTypeNames) {
    EXPECT_NO_THROW(sim.set_model_type(type)) << name;
    sim.step();
    EXPECT_TRUE(all_finite(sim.state())) << name;
  }
  SolverSettings bad = sim.solver();
  bad.vbd_iterations = 0;
  try {
    sim.set_solver(bad);
    ADD_FAILURE() << "vbd_iterations = 0 accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("vbd_iterations"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace cloth
