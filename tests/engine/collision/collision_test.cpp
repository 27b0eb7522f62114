// Contacts: a cloth dropped on a sphere and a floor never ends inside them by more than the
// thickness, and friction behaves like Coulomb's law.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "collision/collider.hpp"
#include "collision/contact.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/model_names.hpp"
#include "engine/support/vacuum.hpp"

namespace cloth {
namespace {

TEST(SignedDistance, PlaneAndSphere) {
  Vec3 n;
  Collider plane{PlaneShape{Vec3(0, 1, 0), Vec3(0, 1, 0)}};
  EXPECT_NEAR(signed_distance(plane, Vec3(3, 1.5, -2), &n), 0.5, 1e-12);
  EXPECT_TRUE(n.isApprox(Vec3(0, 1, 0)));
  Collider sphere{SphereShape{Vec3(1, 0, 0), 0.5}};
  EXPECT_NEAR(signed_distance(sphere, Vec3(1, 0, 2), &n), 1.5, 1e-12);
  EXPECT_TRUE(n.isApprox(Vec3(0, 0, 1)));
  EXPECT_NEAR(signed_distance(sphere, Vec3(1.1, 0, 0), &n), -0.4, 1e-12);
}

TEST(Contacts, ClothDroppedOnSphereNeverPenetratesBeyondThickness) {
  GridSpec spec;
  spec.nx = spec.ny = 16;
  spec.center = Vec3(0, 0.6, 0);
  const double thickness = 0.005;
  std::vector<Collider> colliders = {
      Collider{SphereShape{Vec3(0, 0.3, 0), 0.2}, thickness, 0.3},
      Collider{PlaneShape{Vec3::Zero(), Vec3::UnitY()}, thickness, 0.5}};
  SolverSettings solver;
  solver.substeps = 40;
  Simulation sim(build_model(make_grid(spec), SpringMaterial{}), colliders, {}, solver,
                 Vec3(0, -9.81, 0));
  int touching_steps = 0;
  for (int s = 0; s < 120; ++s) {
    const FrameReport r = sim.step();
    touching_steps += r.integration.contacts > 0;
    for (const Collider& c : colliders) {
      for (const Vec3& x : sim.state().x) {
        Vec3 n;
        ASSERT_GE(signed_distance(c, x, &n), thickness - 1e-9) << "step " << s;
      }
    }
  }
  EXPECT_GT(touching_steps, 30) << "the cloth should have landed on the sphere";
  // The centre of the cloth rests on top of the sphere, the rim has fallen below it.
  const Vec3 centre = sim.state().x[8 * 16 + 8];
  EXPECT_NEAR(centre.y(), 0.3 + 0.2 + thickness, 0.02);
  EXPECT_LT(sim.state().x[0].y(), 0.3);
}

TEST(Contacts, CoulombFrictionSticksBelowAndSlidesAboveTheLimit) {
  // A vertex hitting the floor with normal speed 1 m/s: mu_s = 0.5, mu_k = 0.3.
  Collider floor{PlaneShape{Vec3::Zero(), Vec3::UnitY()}, 0.0, 0.5, 0.3};
  const double h = 0.01;
  ClothState s;
  s.x = {Vec3(0, -0.001, 0)};
  s.v = {Vec3(0.2, -1.0, 0)};
  resolve_contacts(s, {floor}, {}, 0, h);
  EXPECT_NEAR(s.x[0].y(), 0.0, 1e-12);
  EXPECT_EQ(s.v[0], Vec3::Zero()) << "mu_s * |vn| = 0.5 > 0.2: sticks";
  EXPECT_NEAR(s.x[0].x(), -h * 0.2, 1e-12) << "and the substep's slide h * 0.2 is taken back";
  s.x = {Vec3(0, -0.001, 0)};
  s.v = {Vec3(2.0, -1.0, 0)};
  resolve_contacts(s, {floor}, {}, 0, h);
  EXPECT_NEAR(s.v[0].x(), 1.7, 1e-12) << "slides, losing mu_k * |vn| = 0.3 m/s";
  EXPECT_NEAR(s.v[0].y(), 0.0, 1e-12);
}

TEST(Contacts, FrictionIsRelativeToAMovingSolid) {
  // A conveyor: the floor moves at 1 m/s along x; a resting vertex that lands on it is carried.
  Collider belt{PlaneShape{Vec3::Zero(), Vec3::UnitY()}, 0.0, 0.8};
  belt.motion.kind = MotionPath::Kind::Linear;
  belt.motion.velocity = Vec3(1, 0, 0);
  ClothState s;
  s.x = {Vec3(0, -0.001, 0)};
  s.v = {Vec3(0.6, -1.0, 0)};  // slip 0.4 m/s < mu_s * 1 m/s
  resolve_contacts(s, {belt}, {}, 0, 0.01);
  EXPECT_NEAR(s.v[0].x(), 1.0, 1e-12);
  EXPECT_NEAR(s.v[0].y(), 0.0, 1e-12);
}

// A small flat cloth lying on a plane tilted by angle a about z: it must stay put when
// tan a < mu_s, and slide with the rigid-block acceleration g (sin a - mu_k cos a) when above.
struct InclineResult {
  double displacement;  ///< of the centre of mass along the slope after `seconds`, m
  double seconds;
  int instabilities;  ///< blow-ups the guard caught: a sliding sheet must have none
};

InclineResult slide_on_incline(cloth::IntegratorType integrator, double angle, double mu_s, double mu_k,
                               int newton_iterations = 1) {
  GridSpec spec;
  spec.width = spec.height = 0.2;
  spec.nx = spec.ny = 5;
  spec.center = Vec3::Zero();
  RestMesh mesh = make_grid(spec);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, Vec3::UnitZ()).toRotationMatrix();
  const double thickness = 0.002;
  const Vec3 normal = R * Vec3::UnitY();
  for (Vec3& p : mesh.positions) p = R * p + thickness * normal;
  Collider slope{PlaneShape{Vec3::Zero(), normal}, thickness, mu_s, mu_k};
  SolverSettings solver;
  solver.integrator = integrator;
  // Verlet and symplectic Euler are stable only for h < 2 / omega_max. The sheet's stiffest mode,
  // omega^2 ~ 8 k / m (k = 1000 N/m, 0.375 g per vertex on 5 cm cells), needs h < ~1/2400 s: 60
  // substeps of 1/60 s. At 20 the step diverges in the first frame and only the guard saves it.
  const bool conditionally_stable = integrator == cloth::IntegratorType::Verlet ||
                                    integrator == cloth::IntegratorType::SymplecticEuler;
  solver.substeps = integrator == cloth::IntegratorType::Implicit ? 2 : conditionally_stable ? 60 : 20;
  solver.newton_iterations = newton_iterations;
  SpringMaterial material;
  material.velocity_damping = 0;  // a sliding block feels friction only: no air either
  Simulation sim(build_model(mesh, material), {slope}, {}, solver, Vec3(0, -9.81, 0));
  in_vacuum(sim);
  auto centre = [&] {
    Vec3 c = Vec3::Zero();
    for (const Vec3& x : sim.state().x) c += x;
    return Vec3(c / double(sim.state().x.size()));
  };
  const Vec3 start = centre();
  const int frames = 30;
  for (int f = 0; f < frames; ++f) sim.step();
  const Vec3 down_slope = R * Vec3(-1, 0, 0);  // the slope descends towards -x' for angle > 0
  return {(centre() - start).dot(down_slope), frames * solver.dt, sim.statistics().instabilities};
}

class Incline : public testing::TestWithParam<cloth::IntegratorType> {};

TEST_P(Incline, StaysBelowTheFrictionAngleAndSlidesAboveItAtTheCoulombRate) {
  const double mu_s = 0.5, mu_k = 0.3, g = 9.81;
  const double stay = std::atan(0.4), slide = std::atan(0.7);
  const InclineResult still = slide_on_incline(GetParam(), stay, mu_s, mu_k);
  EXPECT_LT(std::abs(still.displacement), 1e-4) << "tan a = 0.4 < mu_s = 0.5 must not move";
  const InclineResult moving = slide_on_incline(GetParam(), slide, mu_s, mu_k);
  EXPECT_EQ(still.instabilities + moving.instabilities, 0) << "the sheet's step is stable";
  const double expected = 0.5 * g * (std::sin(slide) - mu_k * std::cos(slide)) * moving.seconds * moving.seconds;
  EXPECT_NEAR(moving.displacement, expected, 0.05 * expected)
      << "a block sliding with mu_k = 0.3 moves 1/2 g (sin a - mu_k cos a) t^2";
}

TEST(Incline, FullyImplicitNewtonStepsKeepTheKineticFriction) {
  const double slide = std::atan(0.7), g = 9.81;
  const InclineResult r = slide_on_incline(cloth::IntegratorType::Implicit, slide, 0.5, 0.3, /*newton_iterations=*/3);
  const double expected = 0.5 * g * (std::sin(slide) - 0.3 * std::cos(slide)) * r.seconds * r.seconds;
  EXPECT_NEAR(r.displacement, expected, 0.05 * expected);
}

// A pinned corner on a moving floor stays on its pin: the pin, not the friction, places it.
TEST(Contacts, PinnedVertexOnAMovingSolidStaysPinned) {
  for (cloth::IntegratorType integrator : {cloth::IntegratorType::Implicit, cloth::IntegratorType::Verlet, cloth::IntegratorType::Xpbd, cloth::IntegratorType::Projective, cloth::IntegratorType::Vbd}) {
    GridSpec spec;
    spec.width = spec.height = 0.3;
    spec.nx = spec.ny = 6;
    spec.center = Vec3(0, 0.002, 0);
    Collider belt{PlaneShape{}, 0.003, 0.8};
    belt.motion.kind = MotionPath::Kind::Linear;
    belt.motion.velocity = Vec3(1, 0, 0);
    SolverSettings solver;
    solver.integrator = integrator;
    solver.substeps = integrator == cloth::IntegratorType::Implicit ? 1 : 20;
    const RestMesh mesh = make_grid(spec);
    Simulation sim(build_model(mesh, SpringMaterial{}), {belt}, {0}, solver, Vec3(0, -9.81, 0));
    for (int f = 0; f < 30; ++f) sim.step();
    EXPECT_EQ(sim.state().x[0], mesh.positions[0]) << integrator;
    EXPECT_GT(sim.state().x[35].x() - mesh.positions[35].x(), 0.01) << integrator << ": the belt drags the free corner";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryContactPath, Incline,
                         testing::Values(cloth::IntegratorType::SymplecticEuler, cloth::IntegratorType::Verlet, cloth::IntegratorType::Implicit, cloth::IntegratorType::Xpbd, cloth::IntegratorType::Projective, cloth::IntegratorType::Vbd),
                         integrator_test_name);

// A cloth dropped on each solid shape never ends inside it by more than the contact thickness.
TEST(Contacts, ClothDroppedOnEveryShapeStaysOutside) {
  const double thickness = 0.005;
  const std::vector<Shape> shapes = {
      BoxShape{Vec3(0, 0.3, 0), Vec3(0.2, 0.1, 0.2), Eigen::Matrix3d::Identity()},
      CylinderShape{Vec3(-0.4, 0.3, 0), Vec3(0.4, 0.3, 0), 0.12},
      CapsuleShape{Vec3(0, 0.3, -0.3), Vec3(0, 0.3, 0.3), 0.1},
      EllipsoidShape{Vec3(0, 0.3, 0), Vec3(0.25, 0.12, 0.18),
                     Eigen::AngleAxisd(0.3, Vec3::UnitY()).toRotationMatrix()}};
  for (const Shape& shape : shapes) {
    GridSpec spec;
    spec.nx = spec.ny = 16;
    spec.center = Vec3(0, 0.6, 0);
    const std::vector<Collider> colliders = {Collider{shape, thickness, 0.4}};
    SolverSettings solver;
    solver.substeps = 30;
    Simulation sim(build_model(make_grid(spec), SpringMaterial{}), colliders, {}, solver, Vec3(0, -9.81, 0));
    int touching = 0;
    for (int s = 0; s < 60; ++s) {
      touching += sim.step().integration.contacts > 0;
      for (const Vec3& x : sim.state().x) {
        Vec3 n;
        ASSERT_GE(signed_distance(colliders[0], x, &n), thickness - 1e-9)
            << shape_name(shape) << " step " << s;
      }
    }
    EXPECT_GT(touching, 20) << shape_name(shape) << ": the cloth should have landed on it";
  }
}

// A sphere rising through a horizontal cloth pinned at its corners lifts the middle with it.
TEST(Contacts, MovingSpherePushesTheCloth) {
  GridSpec spec;
  spec.nx = spec.ny = 12;
  spec.center = Vec3(0, 0.5, 0);
  Collider ball{SphereShape{Vec3(0, 0.2, 0), 0.15}, 0.005, 0.3};
  ball.motion.kind = MotionPath::Kind::Linear;
  ball.motion.velocity = Vec3(0, 0.5, 0);  // its top passes the cloth at t = 0.3 s
  SolverSettings solver;
  solver.integrator = cloth::IntegratorType::Implicit;
  solver.substeps = 2;
  const RestMesh mesh = make_grid(spec);
  const std::vector<int> corners = {0, 11, 132, 143};
  Simulation sim(build_model(mesh, SpringMaterial{}), {ball}, corners, solver, Vec3(0, -9.81, 0));
  for (int s = 0; s < 48; ++s) sim.step();  // 0.8 s: the top is at 0.2 + 0.15 + 0.4 = 0.75 m
  Vec3 n;
  for (const Vec3& x : sim.state().x) ASSERT_GE(signed_distance(ball, x, &n, sim.time()), 0.005 - 1e-6);
  const double middle = sim.state().x[6 * 12 + 6].y();
  EXPECT_GT(middle, 0.7) << "the middle of the cloth rides on the rising sphere";
}

}  // namespace
}  // namespace cloth
