// Density patterns (the implicit cloth project's case 3: seams, pleats, weaves): the lumped masses
// hold exactly the patterned mass, and heavier seams fall faster through air, as terminal speed
// rho g / q says.
#include <gtest/gtest.h>

#include "model/density_pattern.hpp"
#include "core/error.hpp"
#include "model/model.hpp"
#include "io/scene.hpp"
#include "engine/support/density_checks.hpp"

namespace cloth {
namespace {

RestMesh unit_grid(int n) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.width = spec.height = 1.0;
  return make_grid(spec);
}

TEST(DensityPattern, HeavyPartsFollowTheDefinition) {
  DensityPattern stripes;
  stripes.kind = DensityPattern::Kind::Stripes;
  stripes.axis = DensityPattern::Axis::V;
  stripes.period = 0.2;
  stripes.width = 0.05;
  stripes.factor = 4;
  EXPECT_EQ(density_factor(stripes, Vec2(0.7, 0.41)), 4.0);
  EXPECT_EQ(density_factor(stripes, Vec2(0.7, 0.46)), 1.0);
  EXPECT_EQ(density_factor(stripes, Vec2(0.41, 0.7)), 1.0) << "bands run across v only";
  DensityPattern checker = stripes;
  checker.kind = DensityPattern::Kind::Checker;
  EXPECT_EQ(density_factor(checker, Vec2(0.1, 0.1)), 4.0);
  EXPECT_EQ(density_factor(checker, Vec2(0.3, 0.1)), 1.0);
  EXPECT_EQ(density_factor(checker, Vec2(0.3, 0.3)), 4.0);
  EXPECT_EQ(density_factor(DensityPattern{}, Vec2(0.1, 0.1)), 1.0);
}

TEST(DensityPattern, LumpedMassIsThePatternsIntegral) {
  // 21 x 21 vertices: 0.05 m cells, so every band edge is a grid line and each triangle lies
  // wholly inside or outside the heavy part.
  SpringMaterial m;
  m.density = 0.2;
  m.density_pattern.kind = DensityPattern::Kind::Stripes;
  m.density_pattern.period = 0.2;
  m.density_pattern.width = 0.05;
  m.density_pattern.factor = 3;
  const ClothModel striped = build_model(unit_grid(21), m);
  // A quarter of each period is heavy: density x (3/4 + 1/4 x factor) over 1 m^2.
  EXPECT_NEAR(striped.total_mass(), 0.2 * (0.75 + 0.25 * 3), 1e-12);

  m.density_pattern.kind = DensityPattern::Kind::Checker;
  const ClothModel checked = build_model(unit_grid(21), m);
  // 5 x 5 squares of 0.2 m, 13 of them heavy (i + j even).
  EXPECT_NEAR(checked.total_mass(), 0.2 * (12 + 13 * 3) / 25.0, 1e-12);
}

TEST(DensityPattern, BadPatternsAreOneLineErrors) {
  SpringMaterial m;
  m.density_pattern.kind = DensityPattern::Kind::Stripes;
  m.density_pattern.period = 0.1;
  m.density_pattern.width = 0.2;  // wider than the period
  EXPECT_THROW(build_model(unit_grid(5), m), InputError);
  m.density_pattern.width = 0.02;
  m.density_pattern.factor = 0;
  EXPECT_THROW(build_model(unit_grid(5), m), InputError);
}

// A horizontal sheet falling through still air: each part tends to its own terminal speed
// rho g / (q + rho c) (the implicit cloth project's drag), so the seams (three times as dense)
// sink ahead of the cloth between them, which sags into pleats.
TEST(DensityPattern, HeavySeamsFallAheadThroughAir) {
  std::vector<std::string> warnings;
  const Scene scene = parse_scene(nlohmann::json::parse(R"({
    "cloth": {"mesh": {"grid": {"size": [0.5, 0.5], "resolution": [21, 21], "plane": "xz", "center": [0, 2, 0]}},
              "model": "springs",
              "material": {"preset": "silk", "density_pattern": {"type": "stripes", "axis": "u",
                           "period": 0.125, "width": 0.025, "factor": 3}}},
    "forces": {"gravity": [0, -9.81, 0], "drag": 1.0},
    "solver": {"integrator": "implicit", "dt": 0.0166667, "substeps": 2}})"),
                                  ".", warnings);
  ASSERT_TRUE(warnings.empty()) << warnings.front();
  const auto sim = make_simulation(scene);
  for (int f = 0; f < 30; ++f) sim->step();
  const double lead = seam_lead(*sim, scene.material.density_pattern);
  std::printf("[density] seams %.1f mm below the cloth between them after 0.5 s\n", 1e3 * lead);
  EXPECT_GT(lead, 0.005) << "the seams sink ahead";
  // Without the pattern the same sheet falls flat.
  Scene plain = scene;
  plain.material.density_pattern = DensityPattern{};
  const auto flat = make_simulation(plain);
  for (int f = 0; f < 30; ++f) flat->step();
  double lo = 1e9, hi = -1e9;
  for (const Vec3& x : flat->state().x) {
    lo = std::min(lo, x.y());
    hi = std::max(hi, x.y());
  }
  EXPECT_LT(hi - lo, 0.2 * lead);
}

}  // namespace
}  // namespace cloth
