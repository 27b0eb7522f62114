// Grid generator and mass lumping: counts against the formulas of Yu's report, section 3.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"

namespace cloth {
namespace {

int count_type(const std::vector<Spring>& springs, SpringType type) {
  int n = 0;
  for (const Spring& s : springs) n += s.type == type;
  return n;
}

class GridCounts : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(GridCounts, VerticesTrianglesAndSpringsMatchTheReportsFormulas) {
  const auto [w, h] = GetParam();
  GridSpec spec;
  spec.nx = w;
  spec.ny = h;
  const RestMesh mesh = make_grid(spec);
  EXPECT_EQ(mesh.vertex_count(), w * h);
  EXPECT_EQ(static_cast<int>(mesh.triangles.size()), 2 * (w - 1) * (h - 1));
  const std::vector<Spring> springs = build_springs(mesh);
  EXPECT_EQ(count_type(springs, SpringType::Structural), 2 * h * w - h - w);   // n_chi
  EXPECT_EQ(count_type(springs, SpringType::Shear), 2 * (w - 1) * (h - 1));     // n_sigma
  EXPECT_EQ(count_type(springs, SpringType::Bend), 2 * (h * w - h - w));        // n_beta
}

INSTANTIATE_TEST_SUITE_P(Sizes, GridCounts,
                         ::testing::Values(std::pair{2, 2}, std::pair{3, 5}, std::pair{7, 4},
                                           std::pair{32, 32}));

TEST(Grid, RestLengthsAreSpacingDiagonalAndDoubleSpacing) {
  GridSpec spec;
  spec.width = 2.0;
  spec.height = 1.0;
  spec.nx = 5;  // spacing 0.5 along x
  spec.ny = 3;  // spacing 0.5 along z
  const std::vector<Spring> springs = build_springs(make_grid(spec));
  for (const Spring& s : springs) {
    const double expected = s.type == SpringType::Structural ? 0.5
                            : s.type == SpringType::Shear    ? 0.5 * std::sqrt(2.0)
                                                             : 1.0;
    EXPECT_NEAR(s.rest, expected, 1e-12);
  }
}

TEST(Grid, LayoutIndexCenterAndOrientation) {
  GridSpec spec;
  spec.width = 1.0;
  spec.height = 0.5;
  spec.nx = 3;
  spec.ny = 2;
  spec.center = Vec3(1, 2, 3);
  const RestMesh flat = make_grid(spec);
  // Vertex (i, j) at j * nx + i; min-min corner at center - half extents, along +x then +z.
  EXPECT_TRUE(flat.positions[flat.grid_index(0, 0)].isApprox(Vec3(0.5, 2, 2.75)));
  EXPECT_TRUE(flat.positions[flat.grid_index(2, 1)].isApprox(Vec3(1.5, 2, 3.25)));
  for (const auto& t : flat.triangles) {
    const Vec3 n = (flat.positions[t[1]] - flat.positions[t[0]]).cross(flat.positions[t[2]] - flat.positions[t[0]]);
    EXPECT_GT(n.y(), 0) << "horizontal grid triangles face +y";
  }
  spec.plane = GridPlane::XY;
  const RestMesh wall = make_grid(spec);
  // Vertical grid: row 0 is the top edge.
  EXPECT_NEAR(wall.positions[wall.grid_index(0, 0)].y(), 2.25, 1e-12);
  EXPECT_NEAR(wall.positions[wall.grid_index(0, 1)].y(), 1.75, 1e-12);
  for (const auto& t : wall.triangles) {
    const Vec3 n = (wall.positions[t[1]] - wall.positions[t[0]]).cross(wall.positions[t[2]] - wall.positions[t[0]]);
    EXPECT_GT(n.z(), 0) << "vertical grid triangles face +z";
  }
}

TEST(Grid, RejectsBadSpecs) {
  GridSpec spec;
  spec.nx = 1;
  EXPECT_THROW(make_grid(spec), InputError);
  spec.nx = 4;
  spec.width = -1;
  EXPECT_THROW(make_grid(spec), InputError);
  spec.width = std::nan("");
  EXPECT_THROW(make_grid(spec), InputError);
}

TEST(MassLumping, TotalMassIsDensityTimesArea) {
  GridSpec spec;
  spec.width = 1.5;
  spec.height = 0.8;
  spec.nx = 13;
  spec.ny = 9;
  SpringMaterial material;
  material.density = 0.23;
  const ClothModel model = build_model(make_grid(spec), material);
  EXPECT_NEAR(model.total_mass(), 0.23 * 1.5 * 0.8, 1e-12);
  // Interior vertices touch 6 triangles, corners 1 or 2: every mass is positive.
  for (double m : model.mass) EXPECT_GT(m, 0);
  // Changing density live rescales masses.
  material.density = 0.46;
  ClothModel heavier = model;
  set_material(heavier, material);
  EXPECT_NEAR(heavier.total_mass(), 2 * model.total_mass(), 1e-12);
}

TEST(Material, RejectsNanNegativeAndAbsurdValues) {
  SpringMaterial m;
  m.density = std::nan("");
  EXPECT_THROW(validate_material(m), InputError);
  m = SpringMaterial{};
  m.stretch = -5;
  EXPECT_THROW(validate_material(m), InputError);
  m = SpringMaterial{};
  m.damping = 1e30;
  EXPECT_THROW(validate_material(m), InputError);
  EXPECT_NO_THROW(validate_material(SpringMaterial{}));
}

}  // namespace
}  // namespace cloth
