// The grid, pins and slides of a scene file are declared parameters: each key is read into the
// field it names with the declared range error, and Save writes it back so that the saved file
// loads the same layout.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/scene.hpp"
#include "io/scene_writer.hpp"

namespace {

using namespace cloth;
using nlohmann::json;

// A 7 x 5 vertical grid with pins and slides by corner, column and vertex, moving, following a
// solid, on a plane and on a line, each value away from its default.
json layout_scene() {
  return json::parse(R"({
    "cloth": {
      "mesh": {"grid": {"size": [0.8, 0.5], "resolution": [7, 5], "plane": "xy", "center": [0.1, 1.5, -0.2]}},
      "pins": [
        {"corner": "max-min"},
        {"column": 3, "motion": {"type": "circle", "amplitude": 0.1, "period": 2, "axis_u": [1, 0, 0], "axis_v": [0, 0, 1]}},
        {"vertex": 12},
        {"corner": "min-max", "collider": 0}
      ],
      "slides": [
        {"vertex": 15, "plane": {"point": [0, 1, -0.2], "normal": [0, 0, 2]}},
        {"corner": "min-min", "line": {"direction": [0, -1, 0]}}
      ]
    },
    "colliders": [{"type": "sphere", "center": [0, 0.3, 0], "radius": 0.1}]
  })");
}

TEST(ClothLayoutParameters, GridPinsAndSlidesAreReadIntoTheirFields) {
  std::vector<std::string> warnings;
  const Scene s = parse_scene(layout_scene(), ".", warnings);
  EXPECT_TRUE(warnings.empty());
  ASSERT_TRUE(s.grid.has_value());
  EXPECT_EQ(s.grid->width, 0.8);
  EXPECT_EQ(s.grid->height, 0.5);
  EXPECT_EQ(s.grid->nx, 7);
  EXPECT_EQ(s.grid->ny, 5);
  EXPECT_EQ(s.grid->plane, GridPlane::XY);
  EXPECT_EQ(s.grid->center, Vec3(0.1, 1.5, -0.2));
  ASSERT_EQ(s.pins.size(), 4u);
  EXPECT_EQ(s.pins[0].kind, VertexSelector::Kind::Corner);
  EXPECT_EQ(s.pins[0].corner, GridCorner::MaxMin);
  EXPECT_EQ(s.pins[1].kind, VertexSelector::Kind::Column);
  EXPECT_EQ(s.pins[1].column, 3);
  EXPECT_EQ(s.pins[1].motion.kind, MotionPath::Kind::Circle);
  EXPECT_EQ(s.pins[2].vertex, 12);
  EXPECT_EQ(s.pins[3].corner, GridCorner::MinMax);
  EXPECT_EQ(s.pins[3].collider, 0);
  ASSERT_EQ(s.slides.size(), 2u);
  EXPECT_EQ(s.slides[0].kind, SlideConstraint::Kind::Plane);
  EXPECT_EQ(s.slides[0].point, Vec3(0, 1, -0.2));
  EXPECT_EQ(s.slides[0].direction, Vec3(0, 0, 1));  // made a unit vector
  EXPECT_EQ(s.slides[1].kind, SlideConstraint::Kind::Line);
  EXPECT_FALSE(s.slides[1].point.has_value());
  // The corner pins name the grid's corners: max-min is (nx - 1, 0), min-max (0, ny - 1).
  EXPECT_EQ(select_vertices(s.mesh, s.pins[0]), std::vector<int>{6});
  EXPECT_EQ(select_vertices(s.mesh, s.pins[3]), std::vector<int>{28});
  EXPECT_EQ(select_vertices(s.mesh, s.pins[1]).size(), 5u);
}

// Save writes each key from its declaration; the saved file loads the same grid, pins and slides
// (and writes the same JSON again).
TEST(ClothLayoutParameters, GridPinsAndSlidesSurviveASaveAndALoad) {
  std::vector<std::string> warnings;
  const json doc = layout_scene();
  const Scene s = parse_scene(doc, ".", warnings);
  const auto sim = make_simulation(s);
  const json saved = scene_document(doc, ".", *sim, CameraSpec{});
  EXPECT_EQ(saved["cloth"]["mesh"], json::parse(R"({"grid": {"size": [0.8, 0.5], "resolution": [7, 5],
                                                     "plane": "xy", "center": [0.1, 1.5, -0.2]}})"));
  ASSERT_EQ(saved["cloth"]["pins"].size(), 4u);
  EXPECT_EQ(saved["cloth"]["pins"][0], json::parse(R"({"corner": "max-min"})"));
  EXPECT_EQ(saved["cloth"]["pins"][2], json::parse(R"({"vertex": 12})"));
  EXPECT_EQ(saved["cloth"]["pins"][3], json::parse(R"({"corner": "min-max", "collider": 0})"));
  EXPECT_EQ(saved["cloth"]["pins"][1]["motion"]["type"], "circle");
  EXPECT_EQ(saved["cloth"]["slides"][0], json::parse(R"({"vertex": 15, "plane": {"point": [0, 1, -0.2], "normal": [0, 0, 1]}})"));
  EXPECT_EQ(saved["cloth"]["slides"][1], json::parse(R"({"corner": "min-min", "line": {"direction": [0, -1, 0]}})"));

  const Scene again = parse_scene(saved, ".", warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(grid_json(*again.grid), grid_json(*s.grid));
  ASSERT_EQ(again.pins.size(), s.pins.size());
  for (size_t k = 0; k < s.pins.size(); ++k) EXPECT_EQ(pin_json(again.pins[k]), pin_json(s.pins[k])) << k;
  ASSERT_EQ(again.slides.size(), s.slides.size());
  for (size_t k = 0; k < s.slides.size(); ++k) EXPECT_EQ(slide_json(again.slides[k]), slide_json(s.slides[k])) << k;
  EXPECT_EQ(again.mesh.positions, s.mesh.positions);
  EXPECT_EQ(scene_document(saved, ".", *make_simulation(again), CameraSpec{}), saved);
}

TEST(ClothLayoutParameters, OverridesReachTheGridPinsAndSlides) {
  json doc = layout_scene();
  apply_override(doc, "cloth.mesh.grid.plane=xz");
  apply_override(doc, "cloth.mesh.grid.resolution=[9,4]");
  apply_override(doc, "cloth.pins.0.corner=max-max");
  apply_override(doc, "cloth.slides.0.plane.normal=[0,3,0]");
  std::vector<std::string> warnings;
  const Scene s = parse_scene(doc, ".", warnings);
  EXPECT_EQ(s.grid->plane, GridPlane::XZ);
  EXPECT_EQ(s.mesh.grid_nx, 9);
  EXPECT_EQ(s.mesh.grid_ny, 4);
  EXPECT_EQ(s.pins[0].corner, GridCorner::MaxMax);
  EXPECT_EQ(s.slides[0].direction, Vec3::UnitY());
}

TEST(ClothLayoutParameters, BadValuesGiveTheDeclaredError) {
  struct Case {
    const char* path;
    json value;
    const char* error;
  };
  const Case cases[] = {
      {"/cloth/mesh/grid/resolution", json::array({1, 5}), "cloth.mesh.grid.resolution must be in [2, 1024], got 1"},
      {"/cloth/mesh/grid/resolution", json::array({4294967298LL, 5}),
       "cloth.mesh.grid.resolution must be in [2, 1024], got 4.29497e+09"},
      {"/cloth/mesh/grid/resolution", json::array({2.5, 3}), "cloth.mesh.grid.resolution must be an array of two integers"},
      {"/cloth/mesh/grid/size", json::array({0, 1}), "cloth.mesh.grid.size must be in [0.001, 100] m, got 0"},
      {"/cloth/mesh/grid/plane", "yz", "cloth.mesh.grid.plane must be one of xz, xy, got \"yz\""},
      {"/cloth/mesh/grid/center", json::array({0, 2e4, 0}),
       "cloth.mesh.grid.center must hold finite numbers of magnitude at most 10000 m"},
      {"/cloth/pins/0", json::parse(R"({"corner": "top-left"})"),
       "cloth.pins.0.corner must be one of min-min, max-min, min-max, max-max, got \"top-left\""},
      {"/cloth/pins/0", json::parse(R"({"column": -1})"), "cloth.pins.0.column must be in [0, 1048576], got -1"},
      {"/cloth/pins/0", json::parse(R"({"row": 1, "column": 1})"),
       "cloth.pins.0 needs exactly one of corner, edge, column, row, vertex"},
      {"/cloth/pins/3/collider", -2, "cloth.pins.3.collider must be in [-1, 1048576], got -2"},
      {"/cloth/slides/1/line/direction", json::array({0, 0, 0}), "cloth.slides.1.line.direction must be a non-zero direction"},
      {"/cloth/slides/0/plane/normal", json::array({0, 1}), "cloth.slides.0.plane.normal must be an array of 3 numbers"},
      {"/cloth/slides/0/plane/point", json::array({0, 2e4, 0}),
       "cloth.slides.0.plane.point must hold finite numbers of magnitude at most 10000 m"},
  };
  for (const Case& c : cases) {
    json doc = layout_scene();
    doc[json::json_pointer(c.path)] = c.value;
    std::vector<std::string> warnings;
    try {
      parse_scene(doc, ".", warnings);
      ADD_FAILURE() << c.path << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(c.error, 0), 0u) << c.path << ": " << e.what();
    }
  }
}

}  // namespace
