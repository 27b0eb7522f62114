// The View options (--view) and the teaching arrows (arrows.hpp): which names parse, which
// vertices carry arrows, and that each arrow's shaft is its vector times the documented scale.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "render/arrows.hpp"
#include "render/camera.hpp"
#include "render/element_lines.hpp"
#include "core/error.hpp"
#include "io/scene.hpp"
#include "render/view_options.hpp"

namespace {

TEST(ViewOptions, EachNameTurnsOneOptionAwayFromItsDefault) {
  EXPECT_EQ(app::parse_view_list(""), app::ViewOptions{});
  for (const std::string& name : app::view_option_names()) {
    const app::ViewOptions v = app::parse_view_list(name);
    EXPECT_NE(v, app::ViewOptions{}) << name;
  }
  const app::ViewOptions all = app::parse_view_list("wireframe,heat-map,velocity,force,wind,no-pins,no-ground");
  EXPECT_TRUE(all.wireframe && all.strain_heat_map && all.velocity_arrows && all.force_arrows && all.wind_arrows);
  EXPECT_FALSE(all.show_pins || all.show_ground);
}

TEST(ViewOptions, TextureNamesRoundTrip) {
  for (app::ClothTexture t : {app::ClothTexture::None, app::ClothTexture::Checker, app::ClothTexture::Fabric})
    EXPECT_EQ(app::cloth_texture_from_name(app::cloth_texture_name(t)), t);
  EXPECT_FALSE(app::cloth_texture_from_name("velvet"));
}

TEST(ViewOptions, UnknownNameIsAOneLineError) {
  try {
    app::parse_view_list("wireframe,sparkles");
    FAIL() << "accepted 'sparkles'";
  } catch (const cloth::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'sparkles'"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

cloth::RestMesh grid(int n) {
  cloth::GridSpec g;
  g.nx = g.ny = n;
  return cloth::make_grid(g);
}

TEST(Arrows, SmallMeshesGetAnArrowPerVertexLargeOnesASpreadWithTheCorners) {
  EXPECT_EQ(app::arrow_vertices(grid(5), 144).size(), 25u);
  const cloth::RestMesh big = grid(100);
  const std::vector<int> picked = app::arrow_vertices(big, 144);
  EXPECT_LE(picked.size(), 144u);
  EXPECT_GE(picked.size(), 64u);  // not starved either
  const std::set<int> set(picked.begin(), picked.end());
  EXPECT_EQ(set.size(), picked.size());
  for (int corner : {big.grid_index(0, 0), big.grid_index(99, 0), big.grid_index(0, 99), big.grid_index(99, 99)})
    EXPECT_TRUE(set.count(corner)) << corner;
}

TEST(Arrows, ShaftIsTheVectorAndTheHeadEndsAtTheTip) {
  std::vector<app::ColoredPoint> out;
  const glm::vec3 tail(1, 2, 3), vec(0, 0.2f, 0), eye(0, 2, 10), color(1, 0, 0);
  app::append_arrow(tail, vec, eye, color, out);
  ASSERT_EQ(out.size(), 6u);  // shaft + two head strokes
  EXPECT_EQ(out[0].position, tail);
  EXPECT_EQ(out[1].position, tail + vec);
  for (int k : {2, 4}) EXPECT_EQ(out[size_t(k)].position, tail + vec);
  for (int k : {3, 5}) {
    EXPECT_LT(glm::length(out[size_t(k)].position - (tail + vec)), 0.2f * 0.4f);
    EXPECT_LT(out[size_t(k)].position.y, (tail + vec).y);  // the head points forward
  }
  EXPECT_EQ(out[0].color, color);
  out.clear();
  app::append_arrow(tail, glm::vec3(0, 1e-4f, 0), eye, color, out);  // under 1 mm
  app::append_arrow(tail, glm::vec3(NAN, 0, 0), eye, color, out);
  EXPECT_TRUE(out.empty());
}

// A free 5 x 5 sheet falling one step under gravity in a constant wind: every vertex's velocity
// is g h, its applied force per mass is g (no air drag, no damping), the air velocity is the wind's.
TEST(Arrows, LengthsAreThePhysicalVectorsTimesTheirScales) {
  cloth::Scene scene;
  scene.mesh = grid(5);
  scene.material.velocity_damping = 0;
  scene.forces.gravity = cloth::Vec3(0, -9.81, 0);
  scene.forces.drag = 0;
  scene.forces.air_density = 0;  // no air: the wind is shown but pushes nothing
  scene.forces.wind.type = cloth::WindField::Type::Constant;
  scene.forces.wind.speed = 5;
  scene.forces.wind.direction = cloth::Vec3::UnitX();
  scene.solver.integrator = cloth::IntegratorType::SymplecticEuler;
  auto sim = cloth::make_simulation(scene);
  sim->step();
  const double h = sim->solver().dt;

  const auto shafts = [&](app::ViewOptions view) {
    std::vector<app::ColoredPoint> out;
    app::build_arrows(cloth::SimulationView(*sim), view, glm::vec3(0, 1, 5), out);
    std::vector<glm::vec3> vectors;
    for (size_t k = 0; k < out.size(); k += 6) vectors.push_back(out[k + 1].position - out[k].position);
    return vectors;
  };
  app::ViewOptions v;
  v.velocity_arrows = true;
  const auto velocity = shafts(v);
  ASSERT_EQ(velocity.size(), 25u);
  for (const glm::vec3& d : velocity) {
    EXPECT_NEAR(d.y, -app::ArrowScales::kVelocity * 9.81 * h, 1e-6);
    EXPECT_NEAR(std::hypot(d.x, d.z), 0.0, 1e-6);
  }
  v = app::ViewOptions{};
  v.force_arrows = true;
  for (const glm::vec3& d : shafts(v)) EXPECT_NEAR(d.y, -app::ArrowScales::kAcceleration * 9.81, 1e-6);
  v = app::ViewOptions{};
  v.wind_arrows = true;
  for (const glm::vec3& d : shafts(v)) {
    EXPECT_NEAR(d.x, app::ArrowScales::kWind * 5, 1e-6);
    EXPECT_NEAR(std::hypot(d.y, d.z), 0.0, 1e-6);
  }
  v.velocity_arrows = v.force_arrows = true;
  EXPECT_EQ(shafts(v).size(), 75u);
  EXPECT_TRUE(shafts(app::ViewOptions{}).empty());
}

// Yu's counts (section 3) on a w x h grid: 2hw-h-w structural, 2(w-1)(h-1) shear and
// 2(hw-h-w) bend springs, each drawn once in its colour between its two vertices.
TEST(ElementLines, EverySpringOnceInTheColourOfItsKind) {
  cloth::Scene scene;
  cloth::GridSpec g;
  g.nx = 5;
  g.ny = 4;
  scene.mesh = cloth::make_grid(g);
  scene.material.bend_element = cloth::BendElement::BendSprings;  // the shape operator has none
  auto sim = cloth::make_simulation(scene);
  std::vector<app::ColoredPoint> out;
  app::build_element_lines(cloth::SimulationView(*sim), out);
  const int w = 5, h = 4;
  int structural = 0, shear = 0, bend = 0;
  for (size_t k = 0; k < out.size(); k += 2) {
    ASSERT_EQ(out[k].color, out[k + 1].color);
    structural += out[k].color == app::ElementColors::kStructural;
    shear += out[k].color == app::ElementColors::kShear;
    bend += out[k].color == app::ElementColors::kBend;
  }
  EXPECT_EQ(structural, 2 * h * w - h - w);
  EXPECT_EQ(shear, 2 * (w - 1) * (h - 1));
  EXPECT_EQ(bend, 2 * (h * w - h - w));
  EXPECT_EQ(out.size(), size_t(2 * (structural + shear + bend)));
}

TEST(Camera, PresetsLookAlongTheAxesAtTheSameTarget) {
  app::OrbitCamera camera;
  camera.set(glm::vec3(0.2f, 0.5f, -0.1f), 3.0f, 37.0f, 20.0f);
  const auto expect_forward = [&](app::CameraPreset p, glm::vec3 want) {
    camera.look_from(p);
    EXPECT_LT(glm::length(camera.forward() - glm::normalize(want)), 0.2f);
    EXPECT_EQ(camera.target(), glm::vec3(0.2f, 0.5f, -0.1f));
    EXPECT_FLOAT_EQ(camera.distance(), 3.0f);
  };
  expect_forward(app::CameraPreset::Front, glm::vec3(0, 0, -1));
  expect_forward(app::CameraPreset::Side, glm::vec3(-1, 0, 0));
  expect_forward(app::CameraPreset::Top, glm::vec3(0, -1, 0));
}

}  // namespace
