// The spring mode of the mouse grab (B&W sec. 2 lists "mouse forces" among the external forces):
// the force and its Jacobians against finite differences, a cloth hanging from the spring alone
// under every kind of integrator (force balance k * extension = M g at rest), release, and the
// settings' validation.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "forces/force_jacobians.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/vacuum.hpp"
#include "engine/support/finite_difference.hpp"
#include "engine/support/model_names.hpp"

namespace cloth {
namespace {

constexpr int kSide = 7;                  // vertices per side
constexpr int kGrabbed = (kSide - 1) / 2;  // top row, middle: the cloth hangs symmetrically

RestMesh small_grid() {
  GridSpec spec;
  spec.nx = spec.ny = kSide;
  spec.width = spec.height = 0.3;
  spec.plane = GridPlane::XY;  // vertical, row 0 on top
  spec.center = Vec3(0, 1, 0);
  return make_grid(spec);
}

Grab spring_grab(int vertex, const Vec3& target, double k, double c) {
  return Grab{.vertex = vertex, .target = target, .settings = {GrabMode::Spring, k, c}};
}

TEST(MouseSpring, ForceAndJacobiansEqualFiniteDifferences) {
  const ClothModel model = build_model(small_grid(), SpringMaterial{}, ModelType::Springs);
  const int n = model.vertex_count();
  const Grab grab = spring_grab(10, Vec3(0.3, -0.2, 0.7), 37.0, 0.4);
  ClothState state;
  state.x = model.mesh.positions;
  state.v.assign(size_t(n), Vec3(0.5, -1.5, 2.0));

  // The force on the grabbed vertex as a function of its position, or of its velocity.
  const auto force_at = [&](const Vec3& x, const Vec3& v) {
    ClothState s = state;
    s.x[size_t(grab.vertex)] = x;
    s.v[size_t(grab.vertex)] = v;
    std::vector<Vec3> f(size_t(n), Vec3::Zero());
    add_grab_spring_force(&grab, s, f);
    for (int i = 0; i < n; ++i) {
      if (i != grab.vertex) {
        EXPECT_EQ(f[size_t(i)], Vec3::Zero()) << "only the grabbed vertex feels it";
      }
    }
    return Vec3(f[size_t(grab.vertex)]);
  };
  const Vec3 xg = state.x[size_t(grab.vertex)], vg = state.v[size_t(grab.vertex)];
  EXPECT_LT((force_at(xg, vg) - (37.0 * (grab.target - xg) - 0.4 * vg)).norm(), 1e-12);

  BlockSparseMatrix dfdx(n, coupled_pairs(model)), dfdv = dfdx;
  dfdx.set_zero();
  dfdv.set_zero();
  JacobianTarget jac(dfdx, dfdv);
  add_grab_spring_jacobians(&grab, jac);
  const std::function<VecN<3>(const VecN<3>&)> of_x = [&](const VecN<3>& x) { return force_at(x, vg); };
  const std::function<VecN<3>(const VecN<3>&)> of_v = [&](const VecN<3>& v) { return force_at(xg, v); };
  EXPECT_LT((fd_error<3, 3>(of_x, xg, dfdx.diagonal(grab.vertex))), 1e-8);
  EXPECT_LT((fd_error<3, 3>(of_v, vg, dfdv.diagonal(grab.vertex))), 1e-8);
  // Nothing else: every other block of both matrices stays zero.
  double others = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int slot = dfdx.slot(i, j);
      if (slot < 0 || (i == grab.vertex && j == grab.vertex)) continue;
      others += dfdx.value(slot).norm() + dfdv.value(slot).norm();
    }
  }
  EXPECT_EQ(others, 0.0);

  // A kinematic grab is no force: the step context hands out no spring for it.
  StepContext ctx;
  ctx.kinematics.grab = Grab{.vertex = 10, .target = grab.target, .settings = GrabSettings{}};
  EXPECT_EQ(ctx.kinematics.spring_grab(), nullptr);
  EXPECT_NE(ctx.kinematics.kinematic_grab(), nullptr);
  ctx.kinematics.grab = grab;
  EXPECT_EQ(ctx.kinematics.kinematic_grab(), nullptr);
}

// A cloth hanging from the mouse spring alone, the cursor fixed where the grabbed vertex starts,
// after `seconds` of damped motion.
constexpr double kStiffness = 2.0;  // N/m: the 18 g cloth stretches it ~9 cm
Simulation hanging_from_spring(cloth::IntegratorType integrator, double seconds) {
  SpringMaterial m;
  m.density = 0.2;  // kg/m^2: M = 18 g
  m.stretch = 200;
  m.shear = 20;
  m.bending = 1e-5;
  m.velocity_damping = 5;  // 1/s: the bounce on the spring (10 rad/s) decays as e^-2.5t
  SolverSettings solver;
  solver.integrator = integrator;
  solver.substeps = integrator == cloth::IntegratorType::Implicit ? 1 : 40;
  solver.tolerance = 1e-10;
  Simulation sim(build_model(small_grid(), m, ModelType::Springs), {}, {}, solver, Vec3(0, -9.81, 0));
  in_vacuum(sim);  // the velocity damping's decay alone: the rest state is measured to 1e-12 J
  sim.mouse().set_settings({GrabMode::Spring, kStiffness, 0.01});
  sim.mouse().grab(kGrabbed, sim.state().x[kGrabbed]);
  const int steps = static_cast<int>(std::lround(seconds / solver.dt));
  for (int s = 0; s < steps; ++s) sim.step();
  return sim;
}

double total_mass(const Simulation& sim) {
  double mass = 0;
  for (double m : sim.model().mass) mass += m;
  return mass;
}

Vec3 momentum(const Simulation& sim) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < sim.model().vertex_count(); ++i) p += sim.model().mass[size_t(i)] * sim.state().v[size_t(i)];
  return p;
}

class MouseSpringIntegrator : public ::testing::TestWithParam<cloth::IntegratorType> {};

TEST_P(MouseSpringIntegrator, HangingClothStretchesTheSpringByItsWeightOverK) {
  const Simulation sim = hanging_from_spring(GetParam(), 5.0);
  ASSERT_EQ(sim.statistics().instabilities, 0);
  ASSERT_TRUE(sim.mouse().current());
  EXPECT_LT(sim.energies().kinetic, 1e-12) << "at rest";
  // At rest the material forces cancel in the sum, so the spring alone carries the weight:
  // k (x_g - target) = M g, whatever the integrator (XPBD: its fixed point, see xpbd_integrator).
  const Grab& grab = *sim.mouse().current();
  const Vec3 extension = sim.state().x[size_t(grab.vertex)] - grab.target;
  const Vec3 expected = total_mass(sim) * sim.gravity() / kStiffness;
  EXPECT_GT(expected.norm(), 0.05) << "a visible stretch, m";
  EXPECT_LT((extension - expected).norm(), 1e-5 * expected.norm())
      << "extension " << extension.transpose() << " m, weight / k " << expected.transpose() << " m";
}

TEST_P(MouseSpringIntegrator, ReleasingTheGrabRemovesTheForce) {
  Simulation sim = hanging_from_spring(GetParam(), 3.0);
  // Without velocity damping (and air: in_vacuum above) the material forces are all internal: the
  // momentum changes by the external impulse alone, M g dt in free fall.
  SpringMaterial m = sim.model().material;
  m.velocity_damping = 0;
  sim.set_material(m);
  const Vec3 fall = total_mass(sim) * sim.gravity() * sim.solver().dt;
  Vec3 before = momentum(sim);
  sim.step();
  EXPECT_LT((momentum(sim) - before).norm(), 0.05 * fall.norm()) << "held: the spring carries the weight";
  sim.mouse().release();
  before = momentum(sim);
  sim.step();
  // VBD stops its descent after a few iterations, where the internal forces of the iterate need not
  // sum to zero: M (v1 - v0) - h M g is h times that sum (3e-3 of the impulse here, 10 iterations),
  // zero only at convergence (Vbd/VbdModels.ConvergesToTheNewtonBackwardEulerStep).
  const double tolerance = GetParam() == IntegratorType::Vbd ? 1e-2 : 1e-6;
  EXPECT_LT((momentum(sim) - before - fall).norm(), tolerance * fall.norm()) << "released: free fall";
}

INSTANTIATE_TEST_SUITE_P(Integrators, MouseSpringIntegrator,
                         ::testing::Values(cloth::IntegratorType::Implicit, cloth::IntegratorType::Verlet, cloth::IntegratorType::SymplecticEuler, cloth::IntegratorType::Rk4, cloth::IntegratorType::Xpbd, cloth::IntegratorType::Projective, cloth::IntegratorType::Vbd),
                         integrator_test_name);

TEST(MouseSpring, KinematicIsTheDefaultAndSettingsAreValidated) {
  Simulation sim(build_model(small_grid(), SpringMaterial{}, ModelType::Springs), {}, {}, SolverSettings{},
                 Vec3(0, -9.81, 0));
  EXPECT_EQ(sim.mouse().settings().mode, GrabMode::Kinematic);
  sim.mouse().grab(kGrabbed, Vec3(0, 2, 0));
  EXPECT_TRUE(sim.mouse().current()->kinematic());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const GrabSettings& bad : {GrabSettings{GrabMode::Spring, nan, 0.1}, GrabSettings{GrabMode::Spring, -1, 0.1},
                                  GrabSettings{GrabMode::Spring, 0, 0.1}, GrabSettings{GrabMode::Spring, 1e7, 0.1},
                                  GrabSettings{GrabMode::Spring, 10, nan}, GrabSettings{GrabMode::Spring, 10, -0.1}}) {
    EXPECT_THROW(sim.mouse().set_settings(bad), InputError) << bad.stiffness << " N/m, " << bad.damping << " N*s/m";
  }
  EXPECT_TRUE(sim.mouse().current()->kinematic()) << "a rejected setting changes nothing";
  // A valid change applies to the grab in progress too.
  sim.mouse().set_settings({GrabMode::Spring, 50, 0.2});
  EXPECT_FALSE(sim.mouse().current()->kinematic());
  EXPECT_EQ(sim.mouse().current()->settings.stiffness, 50);
  sim.reset();
  EXPECT_EQ(sim.mouse().settings().stiffness, 50) << "kept by reset";
}

}  // namespace
}  // namespace cloth
