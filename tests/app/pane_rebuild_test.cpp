// Changing the running scene from the panel (pane.hpp): rebuilding the cloth at another
// resolution (the new grid, every live setting kept, pins by name kept and pins by vertex index
// dropped), and adding or removing solids (simulation and saved document stay in step).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "io/scene_writer.hpp"
#include "options.hpp"
#include "run/pane.hpp"
#include "run/paths.hpp"

namespace {

// The pane's grid with `nx` x `ny` vertices.
app::ClothEdit resolution(const app::Pane& pane, int nx, int ny) {
  app::ClothEdit edit;
  edit.grid = pane.layout.grid.value_or(cloth::GridSpec{});
  edit.grid->nx = nx;
  edit.grid->ny = ny;
  return edit;
}

std::vector<app::Pane> default_panes(const std::vector<std::string>& overrides) {
  app::Options options;
  options.scene_path = app::default_scene_path();
  options.overrides = overrides;
  std::vector<std::string> warnings;
  return app::make_panes(app::scenes_to_run(options, warnings));
}

TEST(PaneRebuild, NewResolutionKeepsTheLiveSettingsAndThePinsInPlace) {
  std::vector<app::Pane> panes = default_panes({"cloth.mesh.grid.resolution=[12,6]"});
  cloth::Simulation& sim = *panes.front().sim;
  cloth::SpringMaterial m = sim.model().material;
  m.stretch = 4321;
  sim.set_material(m);
  sim.set_pinned(40, true);  // a ctrl+click pin
  std::vector<std::string> warnings;
  const std::vector<app::PaneScene> scenes = app::scenes_rebuilt(panes, resolution(panes.front(), 24, 12), cloth::CameraSpec{}, warnings);
  ASSERT_EQ(scenes.size(), 1u);
  auto rebuilt = cloth::make_simulation(scenes.front().scene);
  EXPECT_EQ(rebuilt->tearing().intact_mesh().grid_nx, 24);
  EXPECT_EQ(rebuilt->tearing().intact_mesh().grid_ny, 12);  // the 2:1 aspect kept
  EXPECT_EQ(rebuilt->model().material.stretch, 4321);
  // The scene's two corner pins are on the new grid's corners; the ctrl+click pin at grid
  // (4, 3) of 12 x 6 is at the same place of 24 x 12: (4 * 23 / 11, 3 * 11 / 5) = (8, 7).
  int pinned = 0;
  for (int v = 0; v < rebuilt->model().vertex_count(); ++v) pinned += rebuilt->pins().is_pinned(v);
  EXPECT_EQ(pinned, 3);
  const cloth::RestMesh& grid = rebuilt->tearing().intact_mesh();
  EXPECT_TRUE(rebuilt->pins().is_pinned(grid.grid_index(0, 0)));
  EXPECT_TRUE(rebuilt->pins().is_pinned(grid.grid_index(23, 0)));
  EXPECT_TRUE(rebuilt->pins().is_pinned(grid.grid_index(8, 7)));
  EXPECT_EQ(scenes.front().document["cloth"]["mesh"]["grid"]["resolution"], nlohmann::json::array({24, 12}));
}

TEST(PaneRebuild, RowAndColumnPinsMoveToTheSamePlace) {
  std::vector<app::Pane> panes =
      default_panes({"cloth.mesh.grid.resolution=[10,10]", R"(cloth.pins=[{"row": 9}, {"column": 0}])"});
  std::vector<std::string> warnings;
  for (int n : {4, 17}) {
    auto rebuilt = cloth::make_simulation(app::scenes_rebuilt(panes, resolution(panes.front(), n, n), cloth::CameraSpec{}, warnings).front().scene);
    const cloth::RestMesh& grid = rebuilt->tearing().intact_mesh();
    int pinned = 0;
    for (int v = 0; v < rebuilt->model().vertex_count(); ++v) pinned += rebuilt->pins().is_pinned(v);
    EXPECT_EQ(pinned, 2 * n - 1) << n;  // the last row and the first column, sharing a corner
    for (int k = 0; k < n; ++k) {
      EXPECT_TRUE(rebuilt->pins().is_pinned(grid.grid_index(k, n - 1))) << n;
      EXPECT_TRUE(rebuilt->pins().is_pinned(grid.grid_index(0, k))) << n;
    }
  }
}

// The Cloth section's other edits go through the same rebuild: a grid turned upright, resized
// and moved; the pins replaced; a slide added. The rebuilt pane's layout is the edited one.
TEST(PaneRebuild, GridPinAndSlideEditsRebuildTheCloth) {
  std::vector<app::Pane> panes = default_panes({"cloth.mesh.grid.resolution=[8,8]"});
  app::ClothEdit upright;
  upright.grid = *panes.front().layout.grid;
  upright.grid->plane = cloth::GridPlane::XY;
  upright.grid->width = 0.6;
  upright.grid->center = cloth::Vec3(0.2, 1.4, 0.3);
  std::vector<std::string> warnings;
  std::vector<app::Pane> rebuilt = app::make_panes(app::scenes_rebuilt(panes, upright, cloth::CameraSpec{}, warnings));
  const cloth::RestMesh& mesh = rebuilt.front().sim->tearing().intact_mesh();
  double lo_x = 1e9, hi_x = -1e9;
  for (const cloth::Vec3& x : mesh.positions) {
    EXPECT_DOUBLE_EQ(x.z(), 0.3);  // upright: every vertex in the plane z = 0.3 m
    lo_x = std::min(lo_x, x.x());
    hi_x = std::max(hi_x, x.x());
  }
  EXPECT_NEAR(hi_x - lo_x, 0.6, 1e-12);
  EXPECT_NEAR(hi_x + lo_x, 0.4, 1e-12);
  EXPECT_EQ(rebuilt.front().layout.grid->plane, cloth::GridPlane::XY);
  EXPECT_TRUE(rebuilt.front().sim->pins().is_pinned(mesh.grid_index(7, 0)));  // the pins kept

  std::vector<cloth::PinSpec> pins(1);
  pins[0].kind = cloth::VertexSelector::Kind::Row;
  pins[0].row = 7;
  std::vector<cloth::SlideSpec> slides(1);
  static_cast<cloth::VertexSelector&>(slides[0]).kind = cloth::VertexSelector::Kind::Corner;
  slides[0].corner = cloth::GridCorner::MaxMax;
  app::ClothEdit new_pins;
  new_pins.pins = pins;
  new_pins.slides = slides;
  std::vector<app::Pane> edited = app::make_panes(app::scenes_rebuilt(rebuilt, new_pins, cloth::CameraSpec{}, warnings));
  const cloth::Simulation& sim = *edited.front().sim;
  EXPECT_EQ(sim.pins().pinned_count(), 8);  // row 7, and the corner pins gone
  EXPECT_TRUE(sim.pins().is_pinned(mesh.grid_index(3, 7)));
  EXPECT_FALSE(sim.pins().is_pinned(mesh.grid_index(0, 0)));
  ASSERT_EQ(edited.front().layout.slides.size(), 1u);
  EXPECT_EQ(edited.front().layout.slides[0].corner, cloth::GridCorner::MaxMax);
  EXPECT_EQ(edited.front().document["cloth"]["slides"][0]["corner"], "max-max");
  // A pin that does not fit the grid is a one-line error when the cloth is built.
  new_pins.pins->at(0).row = 8;
  EXPECT_THROW(app::make_panes(app::scenes_rebuilt(edited, new_pins, cloth::CameraSpec{}, warnings)), cloth::InputError);
}

TEST(PaneRebuild, AMeshFileHasNoResolutionToChange) {
  std::vector<app::Pane> panes =
      default_panes({R"(cloth.mesh={"obj": "../meshes/cloth_patch_low.obj"})", "cloth.pins=[]"});
  std::vector<std::string> warnings;
  EXPECT_THROW(app::scenes_rebuilt(panes, resolution(panes.front(), 20, 20), cloth::CameraSpec{}, warnings), cloth::InputError);
}

// A sphere added under a falling sheet catches it and the saved scene has it; removing it takes
// it out of both the simulation and the document; bad requests are one-line errors.
TEST(PaneSolids, AnAddedSphereCatchesTheClothAndIsSavedARemovedOneIsGone) {
  std::vector<app::Pane> panes = default_panes({"cloth.mesh.grid.resolution=[10,10]", "colliders=[]",
                                                "cloth.pins=[]", "solver.integrator=implicit",
                                                "solver.substeps=1"});
  app::Pane& pane = panes.front();
  const nlohmann::json entry = app::new_solid_entry(*pane.sim, "sphere");
  const cloth::Vec3 c(entry["center"][0].get<double>(), entry["center"][1].get<double>(),
                      entry["center"][2].get<double>());
  const double r = entry["radius"].get<double>();
  EXPECT_LT(c.y() + r, 1.0);  // below the sheet at y = 1 m
  EXPECT_EQ(app::add_pane_collider(pane, entry), 0);
  for (int f = 0; f < 90; ++f) pane.sim->step();
  // 1.5 s: free fall would have taken the sheet 11 m down; it lies on the sphere instead.
  for (const cloth::Vec3& x : pane.sim->state().x) EXPECT_GT((x - c).norm(), r - 1e-3);
  const cloth::Vec3 centre = pane.sim->state().x[size_t(pane.sim->model().mesh.grid_index(5, 5))];
  EXPECT_GT(centre.y(), c.y() + 0.5 * r) << "the cloth fell through the added sphere";

  std::vector<std::string> warnings;
  const nlohmann::json saved = cloth::scene_document(pane.document, pane.source_dir, *pane.sim, cloth::CameraSpec{});
  ASSERT_EQ(saved["colliders"].size(), 1u);
  EXPECT_EQ(cloth::make_simulation(cloth::parse_scene(saved, pane.source_dir, warnings))->colliders().size(), 1u);

  app::remove_pane_collider(pane, 0);
  EXPECT_TRUE(pane.sim->colliders().empty());
  EXPECT_TRUE(pane.document["colliders"].empty());
  EXPECT_THROW(app::remove_pane_collider(pane, 0), cloth::InputError);
  EXPECT_THROW(app::new_solid_entry(*pane.sim, "teapot"), cloth::InputError);
  cloth::Collider bad(cloth::SphereShape{}, std::nan(""));
  EXPECT_THROW(pane.sim->colliders().add(bad), cloth::InputError);
}

TEST(PaneSolids, ASolidAPinFollowsIsNotRemoved) {
  std::vector<app::Pane> panes = default_panes(
      {"cloth.mesh.grid.resolution=[6,6]",
       R"(cloth.pins=[{"corner": "min-min", "collider": 1}])",
       R"(colliders=[{"type": "plane"}, {"type": "sphere", "center": [0, 0.5, 0], "radius": 0.1, "motion": {"type": "linear", "velocity": [0, 0.1, 0]}}])"});
  app::Pane& pane = panes.front();
  EXPECT_EQ(app::solids_pins_follow(pane), std::vector<int>{1});  // the panel fixes its path
  EXPECT_THROW(app::remove_pane_collider(pane, 1), cloth::InputError);
  app::remove_pane_collider(pane, 0);  // the plane: the pin now follows solid 0
  EXPECT_EQ(pane.document["cloth"]["pins"][0]["collider"], 0);
  EXPECT_EQ(app::solids_pins_follow(pane), std::vector<int>{0});
  std::vector<std::string> warnings;
  EXPECT_NO_THROW(cloth::parse_scene(pane.document, pane.source_dir, warnings));
}

}  // namespace
