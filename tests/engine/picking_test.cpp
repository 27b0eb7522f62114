#include <gtest/gtest.h>

#include "cloth/mesh.hpp"
#include "cloth/picking.hpp"

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

}  // namespace
}  // namespace cloth
