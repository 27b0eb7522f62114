// SimulationView: what a display reads of a Simulation. The derived quantities against cases with
// a known answer (contacts at a measured distance, the applied acceleration of a free-falling
// cloth, the strain of a uniformly stretched sheet, the wind field's air velocity), and the view
// following the simulation it looks at.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "io/scene.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "simulation/simulation_view.hpp"
#include "engine/support/test_scenes.hpp"
#include "engine/support/vacuum.hpp"

namespace cloth {
namespace {

const Vec3 kGravity(0, -9.81, 0);

/// The current positions scaled by `factor` about the cloth's centre (every distance times it).
std::vector<Vec3> scaled_positions(const Simulation& sim, double factor) {
  const Vec3 centre(0, 1, 0);
  std::vector<Vec3> x = sim.state().x;
  for (Vec3& p : x) p = centre + factor * (p - centre);
  return x;
}

// A vertex half a millimetre beyond a sphere's contact offset touches it (the slack is 1 mm);
// one 2 mm beyond does not, nor does one far away; one inside does. Moving the sphere by hand
// moves its contacts with it.
TEST(SimulationView, TouchingMeansWithinAMillimetreOfTheContactOffset) {
  const SphereShape sphere{Vec3(0, 0.5, 0), 0.25};
  const double thickness = 0.005;
  Simulation sim = falling_cloth(4, SpringMaterial{}, {Collider(sphere, thickness)});
  std::vector<Vec3> x(sim.state().x.size(), Vec3(0, 5, 0));  // all far above the sphere
  x[3] = sphere.center + (sphere.radius + thickness + 0.5e-3) * Vec3::UnitY();
  x[7] = sphere.center + (sphere.radius + thickness + 2e-3) * Vec3::UnitX();
  x[9] = sphere.center + 0.1 * Vec3::UnitZ();  // inside
  sim.set_positions(x);
  const SimulationView view(sim);
  EXPECT_EQ(view.touching_vertices(), (std::vector<int>{3, 9}));

  const Vec3 offset(0, 0, 3);
  sim.colliders().set_offset(0, offset);
  EXPECT_EQ(view.collider_displacement(0), offset);
  EXPECT_TRUE(view.touching_vertices().empty());
}

// A sheet lying on the ground plane (at the plane's contact offset) touches it everywhere; the
// same sheet 5 cm up touches nothing.
TEST(SimulationView, VerticesOnTheGroundTouchItOthersDoNot) {
  for (const double height : {0.004, 0.05}) {
    Scene scene;
    GridSpec g;
    g.nx = g.ny = 6;
    g.center = Vec3(0, height, 0);
    scene.mesh = make_grid(g);
    scene.colliders.push_back(Collider(PlaneShape{}, 0.004));
    auto sim = make_simulation(scene);
    EXPECT_EQ(SimulationView(*sim).touching_vertices().size(), height < 0.01 ? 36u : 0u) << height;
  }
}

// Without drag and velocity damping the only applied force is m g: every vertex's applied
// acceleration is g, while the cloth falls and while it is stretched 10% (the material's pull,
// however large, is not an applied force).
TEST(SimulationView, AppliedAccelerationOfAFreeClothUnderGravityAloneIsG) {
  SpringMaterial m;
  m.velocity_damping = 0;
  Simulation sim = falling_cloth(5, m);
  in_vacuum(sim);  // gravity alone
  for (int s = 0; s < 10; ++s) sim.step();
  ASSERT_GT(sim.state().v[0].norm(), 0.1);
  const SimulationView view(sim);
  for (const Vec3& a : view.applied_accelerations()) EXPECT_NEAR((a - kGravity).norm(), 0.0, 1e-12);
  sim.set_positions(scaled_positions(sim, 1.1));
  const std::vector<Vec3> a = view.applied_accelerations();
  ASSERT_EQ(a.size(), sim.state().x.size());
  for (const Vec3& ai : a) EXPECT_NEAR((ai - kGravity).norm(), 0.0, 1e-12);
}

// Yu's velocity damping is an applied force, -m c v: per mass it is -c v at every vertex.
TEST(SimulationView, AppliedAccelerationIncludesVelocityDamping) {
  SpringMaterial m;
  m.velocity_damping = 0.8;
  Simulation sim = falling_cloth(5, m);
  in_vacuum(sim);  // the damping without the air's drag
  for (int s = 0; s < 20; ++s) sim.step();
  const SimulationView view(sim);
  const std::vector<Vec3> a = view.applied_accelerations();
  ASSERT_EQ(a.size(), view.velocities().size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_GT(view.velocities()[i].norm(), 0.1);
    EXPECT_NEAR((a[i] - (kGravity - 0.8 * view.velocities()[i])).norm(), 0.0, 1e-12) << i;
  }
}

// Every edge of a sheet scaled by 1.05 is 5% longer than at rest: each vertex's strain and the
// largest are 0.05. A sheet shrunk to 90% is compressed, which counts as no strain.
TEST(SimulationView, StrainOfAUniformlyStretchedSheetIsTheStretch) {
  Simulation sim = falling_cloth(6, SpringMaterial{});
  const SimulationView view(sim);
  EXPECT_EQ(view.max_edge_strain(), 0.0);
  sim.set_positions(scaled_positions(sim, 1.05));
  const std::vector<double> strain = view.vertex_strain();
  ASSERT_EQ(strain.size(), 36u);
  for (double s : strain) EXPECT_NEAR(s, 0.05, 1e-12);
  EXPECT_NEAR(view.max_edge_strain(), 0.05, 1e-12);
  sim.set_positions(scaled_positions(sim, 0.9 / 1.05));
  for (double s : view.vertex_strain()) EXPECT_EQ(s, 0.0);
  EXPECT_EQ(view.max_edge_strain(), 0.0);
}

// The air velocity at each vertex is the wind field's at that vertex's position and the
// simulation's time (a gusty wind varies in both, so the wrong place or time would show).
TEST(SimulationView, AirVelocityIsTheWindFieldsAtTheVertexNow) {
  Simulation sim = falling_cloth(5, SpringMaterial{});
  ExternalForces f = sim.external_forces();
  f.wind.type = WindField::Type::Gusty;
  f.wind.speed = 3;
  f.wind.direction = Vec3(1, 0, 1).normalized();
  f.wind.frequency = 4;
  f.wind.wavenumber = 5;
  f.wind.gust = 0.8;
  sim.set_external_forces(f);
  for (int s = 0; s < 30; ++s) sim.step();
  const SimulationView view(sim);
  ASSERT_GT(view.time(), 0.0);
  bool differs_at_time_zero = false;
  for (int i = 0; i < int(view.positions().size()); ++i) {
    const Vec3& x = view.positions()[size_t(i)];
    const Vec3 want = f.wind.velocity(x, sim.time(), nullptr);
    EXPECT_EQ(view.air_velocity(i), want) << i;
    differs_at_time_zero |= (f.wind.velocity(x, 0.0, nullptr) - want).norm() > 1e-3;
  }
  EXPECT_TRUE(differs_at_time_zero);
  EXPECT_GT((view.air_velocity(0) - view.air_velocity(24)).norm(), 1e-3);
}

// A view made once keeps showing the simulation as it is now: pins, the grab, positions and the
// counters that tell the renderer to upload again.
TEST(SimulationView, FollowsTheSimulationItLooksAt) {
  Simulation sim = falling_cloth(4, SpringMaterial{});
  const SimulationView view(sim);
  EXPECT_EQ(&view.model(), &sim.model());
  EXPECT_EQ(view.mesh().vertex_count(), 16);

  EXPECT_FALSE(view.is_pinned(3));
  sim.set_pinned(3, true);
  EXPECT_TRUE(view.is_pinned(3));

  EXPECT_FALSE(view.grab());
  sim.mouse().grab(5, Vec3(0.1, 2, 0));
  ASSERT_TRUE(view.grab());
  EXPECT_EQ(view.grab()->vertex, 5);
  EXPECT_EQ(view.grab()->target, Vec3(0.1, 2, 0));
  sim.mouse().release();
  EXPECT_FALSE(view.grab());

  const std::uint64_t state_version = view.state_version();
  sim.step();
  EXPECT_GT(view.state_version(), state_version);
  EXPECT_EQ(view.positions(), sim.state().x);
  EXPECT_EQ(view.time(), sim.time());

  const std::uint64_t collider_version = view.collider_version();
  EXPECT_TRUE(view.colliders().empty());
  sim.colliders().add(Collider(SphereShape{}, 0.005));
  EXPECT_GT(view.collider_version(), collider_version);
  EXPECT_EQ(view.colliders().size(), 1u);
  EXPECT_EQ(view.collider_displacement(0), Vec3::Zero());
  EXPECT_EQ(view.topology_version(), sim.topology_version());
}

}  // namespace
}  // namespace cloth
