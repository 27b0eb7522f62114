// Switching scenes from the app's Scene list (options_for_scene): the command line's --set and
// --compare stay with the file they were given for.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.hpp"
#include "options.hpp"
#include "run/pane.hpp"
#include "run/paths.hpp"

namespace {

std::string american_beauty_path() {
  return (std::filesystem::path(app::default_scene_path()).parent_path() / "american_beauty.json").string();
}

app::Options default_scene_with_overrides() {
  app::Options options;
  options.scene_path = app::default_scene_path();
  // The default scene's second solid; american_beauty has none, so applying this there fails.
  options.overrides = {"colliders.1.friction=0.9", "solver.integrator=rk4"};
  options.compare = "solver.dt=0.01,0.02";
  return options;
}

TEST(SceneSwitch, AnotherFileLeavesTheCommandLineOverridesBehind) {
  const app::Options running = default_scene_with_overrides();
  std::vector<std::string> warnings;
  // The same overrides on the other file: the error a user met picking it from the list.
  app::Options carried = running;
  carried.scene_path = american_beauty_path();
  carried.compare.clear();
  EXPECT_THROW(app::scenes_to_run(carried, warnings), cloth::InputError);

  const app::Options next = app::options_for_scene(running, american_beauty_path());
  EXPECT_EQ(next.scene_path, american_beauty_path());
  EXPECT_TRUE(next.overrides.empty());
  EXPECT_TRUE(next.compare.empty());
  const std::vector<app::PaneScene> scenes = app::scenes_to_run(next, warnings);
  ASSERT_EQ(scenes.size(), 1u);
  EXPECT_NE(scenes.front().scene.solver.integrator, cloth::IntegratorType::Rk4);
}

TEST(SceneSwitch, ReloadingTheSameFileKeepsThem) {
  const app::Options running = default_scene_with_overrides();
  const app::Options again = app::options_for_scene(running, running.scene_path);
  EXPECT_EQ(again.overrides, running.overrides);
  EXPECT_EQ(again.compare, running.compare);
  std::vector<std::string> warnings;
  const std::vector<app::PaneScene> scenes = app::scenes_to_run(again, warnings);
  ASSERT_EQ(scenes.size(), 2u);  // the --compare panes
  EXPECT_EQ(scenes.front().scene.solver.integrator, cloth::IntegratorType::Rk4);
}

}  // namespace
