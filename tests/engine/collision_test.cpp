// Contacts: a cloth dropped on a sphere and a floor never ends inside them by more than the
// thickness, and friction behaves like Coulomb's law.
#include <gtest/gtest.h>

#include "cloth/collider.hpp"
#include "cloth/mesh.hpp"
#include "cloth/simulation.hpp"

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
    touching_steps += r.contacts > 0;
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
  // A vertex hitting the floor with normal speed 1 m/s and tangential speed 0.2 m/s.
  Collider floor{PlaneShape{Vec3::Zero(), Vec3::UnitY()}, 0.0, 0.5};
  ClothState s;
  s.x = {Vec3(0, -0.001, 0)};
  s.v = {Vec3(0.2, -1.0, 0)};
  resolve_contacts(s, {floor}, {});
  EXPECT_NEAR(s.x[0].y(), 0.0, 1e-12);
  EXPECT_EQ(s.v[0], Vec3::Zero()) << "mu * |vn| = 0.5 > 0.2: sticks";
  s.x = {Vec3(0, -0.001, 0)};
  s.v = {Vec3(2.0, -1.0, 0)};
  resolve_contacts(s, {floor}, {});
  EXPECT_NEAR(s.v[0].x(), 1.5, 1e-12) << "slides, losing mu * |vn| = 0.5 m/s";
  EXPECT_NEAR(s.v[0].y(), 0.0, 1e-12);
}

}  // namespace
}  // namespace cloth
