// Self-collision through the Simulation, for every contact path: a cloth whose far half is folded
// up over its near half (lying on the floor) falls onto itself. With self-collision on it ends
// with no intersecting triangle pair (exact triangle-triangle tests); with it off, it passes
// through itself, which shows the check can fail.
#include <gtest/gtest.h>

#include <cmath>

#include "simulation/simulation.hpp"
#include "geometry/triangle_intersection.hpp"
#include "engine/support/model_names.hpp"

namespace cloth {
namespace {

long long fold_and_count(cloth::IntegratorType integrator, bool self_collision) {
  GridSpec spec;
  spec.width = spec.height = 0.6;
  spec.nx = spec.ny = 21;
  spec.center = Vec3(0, 0.01, 0);
  RestMesh mesh = make_grid(spec);
  // Turn the far half (z > 0) up by 150 degrees about the middle line: it now leans over the
  // near half and falls onto it.
  const double fold = 150.0 * 3.14159265358979 / 180.0;
  for (Vec3& p : mesh.positions) {
    if (p.z() <= 0) continue;
    const double r = p.z(), y0 = p.y();
    p = Vec3(p.x(), y0 + r * std::sin(fold), r * std::cos(fold));
  }
  SpringMaterial material;
  material.stretch = 200;
  material.shear = 20;
  SolverSettings solver;
  solver.integrator = integrator;
  solver.substeps = integrator == cloth::IntegratorType::Implicit ? 8 : 60;
  Simulation sim(build_model(mesh, material), {Collider{PlaneShape{}, 0.003, 0.5}}, {}, solver,
                 Vec3(0, -9.81, 0));
  SelfCollisionSettings s;
  s.enabled = self_collision;
  sim.set_self_collision(s);
  for (int f = 0; f < 30; ++f) {  // 0.5 s: the far half lands at about 0.2 s
    const FrameReport r = sim.step();
    if (r.recovered) return -1;
  }
  return count_intersecting_triangle_pairs(sim.model().mesh.triangles, sim.state().x);
}

class SelfCollisionInSimulation : public testing::TestWithParam<cloth::IntegratorType> {};

TEST_P(SelfCollisionInSimulation, AFoldedClothDoesNotPassThroughItself) {
  EXPECT_EQ(fold_and_count(GetParam(), true), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryContactPath, SelfCollisionInSimulation,
                         testing::Values(cloth::IntegratorType::Verlet, cloth::IntegratorType::Implicit, cloth::IntegratorType::Xpbd, cloth::IntegratorType::Projective, cloth::IntegratorType::Vbd), integrator_test_name);

TEST(SelfCollisionInSimulation, WithoutItTheFoldPassesThrough) {
  EXPECT_GT(fold_and_count(cloth::IntegratorType::Verlet, false), 0);
}

}  // namespace
}  // namespace cloth
