#include <gtest/gtest.h>

#include "mesh/mesh.hpp"
#include "collision/picking.hpp"
#include "simulation/simulation.hpp"

namespace cloth {
namespace {

TEST(Picking, RayFromAboveHitsTheNearestVertexOfTheGrid) {
  GridSpec spec;
  spec.nx = spec.ny = 11;  // spacing 0.1 m, grid from -0.5 to 0.5 at y = 1
  const RestMesh mesh = make_grid(spec);
  ClothState state{mesh.positions, std::vector<Vec3>(mesh.positions.size(), Vec3::Zero())};
  // Aim just off vertex (7, 3) at x = 0.2, z = -0.2.
  const auto hit = pick(mesh, state, Vec3(0.21, 3, -0.19), Vec3(0, -1, 0));
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->vertex, mesh.grid_index(7, 3));
  EXPECT_NEAR(hit->distance, 2.0, 1e-12);
  EXPECT_TRUE(hit->point.isApprox(Vec3(0.21, 1, -0.19)));
  EXPECT_FALSE(pick(mesh, state, Vec3(0.9, 3, 0), Vec3(0, -1, 0)).has_value()) << "misses beside";
  EXPECT_FALSE(pick(mesh, state, Vec3(0, 3, 0), Vec3(0, 1, 0)).has_value()) << "ray points away";
}

TEST(Picking, NearestOfTwoLayersWins) {
  GridSpec spec;
  spec.nx = spec.ny = 3;
  RestMesh a = make_grid(spec);
  spec.center = Vec3(0, 2, 0);
  const RestMesh b = make_grid(spec);
  const int offset = a.vertex_count();
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  a.uv.insert(a.uv.end(), b.uv.begin(), b.uv.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  ClothState state{a.positions, std::vector<Vec3>(a.positions.size(), Vec3::Zero())};
  const auto hit = pick(a, state, Vec3(0.01, 5, 0.01), Vec3(0, -1, 0));
  ASSERT_TRUE(hit.has_value());
  EXPECT_GE(hit->vertex, offset) << "the upper layer (y = 2) is nearer";
}

TEST(PickCollider, SphereTracingFindsTheNearestSolidAndSkipsPlanes) {
  std::vector<Collider> colliders = {Collider{PlaneShape{}}, Collider{SphereShape{Vec3(0, 0, -2), 0.5}},
                                     Collider{BoxShape{Vec3(0, 0, -5), Vec3(1, 1, 1), Eigen::Matrix3d::Identity()}}};
  const auto hit = pick_collider(colliders, 0.0, Vec3(0, 0, 0), Vec3(0, 0, -1));
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->collider, 1) << "the sphere is in front of the box";
  EXPECT_NEAR(hit->distance, 1.5, 1e-4);
  // Moved by hand past the box, the sphere is behind it; the plane y = 0 contains the ray and is
  // never picked.
  colliders[1].offset = Vec3(0, 0, -10);
  const auto moved = pick_collider(colliders, 0.0, Vec3(0, 0, 0), Vec3(0, 0, -1));
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(moved->collider, 2);
  EXPECT_NEAR(moved->distance, 4.0, 1e-4);
  EXPECT_FALSE(pick_collider(colliders, 0.0, Vec3(0, 0, 0), Vec3(0, 1, 0)).has_value());
}

TEST(PickCollider, ASolidMovedByHandPushesTheClothAndResetPutsItBack) {
  GridSpec spec;
  spec.nx = spec.ny = 8;
  spec.center = Vec3(0, 0.5, 0);
  Simulation sim(build_model(make_grid(spec), SpringMaterial{}), {Collider{SphereShape{Vec3(0, 0, 0), 0.2}}},
                 {0, 7, 56, 63}, SolverSettings{}, Vec3(0, -9.81, 0));
  sim.colliders().set_offset(0, Vec3(0, 0.45, 0));  // the ball's top now 0.15 m above the cloth
  sim.step();
  Vec3 n;
  for (const Vec3& x : sim.state().x) EXPECT_GE(signed_distance(sim.colliders()[0], x, &n, sim.time()), 0.005 - 1e-9);
  EXPECT_GT(sim.state().x[3 * 8 + 3].y(), 0.6) << "the middle rides on the ball";
  sim.reset();
  EXPECT_EQ(sim.colliders()[0].offset, Vec3::Zero());
}

}  // namespace
}  // namespace cloth
