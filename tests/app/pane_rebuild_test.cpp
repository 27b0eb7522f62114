// Rebuilding the running cloth at another resolution (pane.hpp: scenes_at_resolution): the new
// grid, every live setting kept, pins by name kept and pins by vertex index dropped.
#include <gtest/gtest.h>

#include "cloth/error.hpp"
#include "pane.hpp"
#include "paths.hpp"

namespace {

std::vector<app::Pane> default_panes(const std::vector<std::string>& overrides) {
  app::Options options;
  options.scene_path = app::default_scene_path();
  options.overrides = overrides;
  std::vector<std::string> warnings;
  return app::make_panes(app::scenes_to_run(options, warnings));
}

TEST(PaneRebuild, NewResolutionKeepsTheLiveSettingsAndTheNamedPins) {
  std::vector<app::Pane> panes = default_panes({"cloth.mesh.grid.resolution=[12,6]"});
  cloth::Simulation& sim = *panes.front().sim;
  cloth::SpringMaterial m = sim.model().material;
  m.stretch = 4321;
  sim.set_material(m);
  sim.set_pinned(40, true);  // a ctrl+click pin
  std::vector<std::string> warnings;
  const std::vector<app::PaneScene> scenes = app::scenes_at_resolution(panes, 24, cloth::CameraSpec{}, warnings);
  ASSERT_EQ(scenes.size(), 1u);
  auto rebuilt = cloth::make_simulation(scenes.front().scene);
  EXPECT_EQ(rebuilt->intact_mesh().grid_nx, 24);
  EXPECT_EQ(rebuilt->intact_mesh().grid_ny, 12);  // the 2:1 aspect kept
  EXPECT_EQ(rebuilt->model().material.stretch, 4321);
  // The scene's two corner pins are on the new grid's corners; the ctrl+click pin is gone.
  int pinned = 0;
  for (int v = 0; v < rebuilt->model().vertex_count(); ++v) pinned += rebuilt->is_pinned(v);
  EXPECT_EQ(pinned, 2);
  EXPECT_TRUE(rebuilt->is_pinned(rebuilt->intact_mesh().grid_index(0, 0)));
  EXPECT_TRUE(rebuilt->is_pinned(rebuilt->intact_mesh().grid_index(23, 0)));
  EXPECT_EQ(scenes.front().document["cloth"]["mesh"]["grid"]["resolution"], nlohmann::json::array({24, 12}));
}

TEST(PaneRebuild, AMeshFileHasNoResolutionToChange) {
  std::vector<app::Pane> panes =
      default_panes({R"(cloth.mesh={"obj": "../meshes/cloth_patch_low.obj"})", "cloth.pins=[]"});
  std::vector<std::string> warnings;
  EXPECT_THROW(app::scenes_at_resolution(panes, 20, cloth::CameraSpec{}, warnings), cloth::InputError);
}

}  // namespace
