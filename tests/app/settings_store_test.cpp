// What the app keeps between runs (settings_store.hpp): the view and per-scene cameras survive
// a save and a load; a missing, broken or hand-mangled file never stops the app.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <unistd.h>

#include "run/paths.hpp"
#include "settings_store.hpp"
#include "ui/ui_scale.hpp"

namespace {

namespace fs = std::filesystem;

fs::path scratch_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("clothsim-settings-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

TEST(SettingsStore, ViewAndCamerasSurviveASaveAndALoad) {
  const fs::path dir = scratch_dir("roundtrip");
  const std::string path = (dir / "nested" / "settings.json").string();  // folder created
  app::SavedSettings s;
  s.view.wireframe = true;
  s.view.show_ground = false;
  s.view.force_arrows = true;
  s.view.heat_map_top = 0.25f;
  s.view.texture = app::ClothTexture::Fabric;
  s.show_plots = true;
  s.ui_scale = 1.75f;
  s.cameras["/scenes/a.json"] = app::CameraPose{glm::vec3(0.5f, 1.0f, -2.0f), 3.5f, -40.0f, 12.5f};
  s.cameras["/scenes/b.json"] = app::CameraPose{glm::vec3(0.0f), 1.0f, 0.0f, -80.0f};
  app::save_settings(path, s);

  std::string warning;
  const app::SavedSettings r = app::load_settings(path, warning);
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(r.view, s.view);
  EXPECT_TRUE(r.show_plots);
  EXPECT_EQ(r.ui_scale, 1.75f);
  ASSERT_EQ(r.cameras.size(), 2u);
  const app::CameraPose& a = r.cameras.at("/scenes/a.json");
  EXPECT_EQ(a.target, glm::vec3(0.5f, 1.0f, -2.0f));
  EXPECT_FLOAT_EQ(a.distance, 3.5f);
  EXPECT_FLOAT_EQ(a.yaw_deg, -40.0f);
  EXPECT_FLOAT_EQ(a.pitch_deg, 12.5f);
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  fs::remove_all(dir);
}

TEST(SettingsStore, CameraPoseRoundTripsThroughTheOrbitCamera) {
  app::OrbitCamera camera;
  const app::CameraPose pose{glm::vec3(1, 2, 3), 4.0f, 50.0f, -20.0f};
  pose.apply_to(camera);
  const app::CameraPose back = app::CameraPose::of(camera);
  EXPECT_EQ(back.target, pose.target);
  EXPECT_FLOAT_EQ(back.distance, pose.distance);
  EXPECT_FLOAT_EQ(back.yaw_deg, pose.yaw_deg);
  EXPECT_FLOAT_EQ(back.pitch_deg, pose.pitch_deg);
}

TEST(SettingsStore, MissingFileGivesDefaultsSilentlyBrokenOnesWithOneLine) {
  const fs::path dir = scratch_dir("broken");
  fs::create_directories(dir);
  std::string warning;
  app::SavedSettings r = app::load_settings((dir / "none.json").string(), warning);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(r.view, app::ViewOptions{});

  const std::string bad = (dir / "bad.json").string();
  std::ofstream(bad) << "{\"view\": {\"wireframe\": tru";
  r = app::load_settings(bad, warning);
  EXPECT_NE(warning.find(bad), std::string::npos) << warning;
  EXPECT_EQ(warning.find('\n'), std::string::npos);
  EXPECT_EQ(r.view, app::ViewOptions{});

  // Valid JSON with wrong types and an incomplete camera: the good parts are kept.
  std::ofstream(bad) << R"({"view": {"wireframe": "yes", "show_pins": false, "heat_map_top": 1e9},
                           "cameras": {"x": {"target": [0, 1], "distance": 1, "yaw_deg": 0, "pitch_deg": 0},
                                       "y": {"target": [0, 1, 2], "distance": 2, "yaw_deg": 3, "pitch_deg": 4},
                                       "z": {"target": [1e300, 1, 2], "distance": 2, "yaw_deg": 3, "pitch_deg": 4}},
                           "show_plots": 7})";
  warning.clear();
  r = app::load_settings(bad, warning);
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_FALSE(r.view.wireframe);
  EXPECT_FALSE(r.view.show_pins);
  EXPECT_LE(r.view.heat_map_top, 10.0f);
  EXPECT_FALSE(r.show_plots);
  EXPECT_EQ(r.cameras.count("x"), 0u);
  EXPECT_EQ(r.cameras.count("z"), 0u);  // infinite as a float
  ASSERT_EQ(r.cameras.count("y"), 1u);
  EXPECT_FLOAT_EQ(r.cameras.at("y").distance, 2.0f);
  fs::remove_all(dir);
}

// Ctrl + / Ctrl -: quarter steps, clamped to [0.75, 3]; a hand-edited settings.json with any
// number lands on the grid inside the range.
TEST(UiScale, StepsByQuartersWithinItsRange) {
  EXPECT_EQ(app::stepped_ui_scale(1.0f, 1), 1.25f);
  EXPECT_EQ(app::stepped_ui_scale(1.0f, -1), 0.75f);
  EXPECT_EQ(app::stepped_ui_scale(1.0f, -5), app::kUiScaleMin);
  EXPECT_EQ(app::stepped_ui_scale(2.75f, 3), app::kUiScaleMax);
  EXPECT_EQ(app::stepped_ui_scale(1.6f, 0), 1.5f);
  EXPECT_EQ(app::stepped_ui_scale(1e9f, 0), app::kUiScaleMax);
  EXPECT_EQ(app::stepped_ui_scale(std::numeric_limits<float>::quiet_NaN(), 0), 1.0f);
  const fs::path dir = scratch_dir("scale");
  fs::create_directories(dir);
  const std::string path = (dir / "settings.json").string();
  std::ofstream(path) << R"({"ui_scale": 40})";
  std::string warning;
  EXPECT_EQ(app::load_settings(path, warning).ui_scale, app::kUiScaleMax);
  fs::remove_all(dir);
}

TEST(SettingsStore, ConfigDirFollowsXdgThenHome) {
  const char* old_xdg = std::getenv("XDG_CONFIG_HOME");
  const std::string keep_xdg = old_xdg ? old_xdg : "";
  ::setenv("XDG_CONFIG_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(app::config_dir(), "/tmp/xdg-test/clothsim");
  ::setenv("XDG_CONFIG_HOME", "", 1);
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    EXPECT_EQ(app::config_dir(), std::string(home) + "/.config/clothsim");
  }
  if (old_xdg) {
    ::setenv("XDG_CONFIG_HOME", keep_xdg.c_str(), 1);
  } else {
    ::unsetenv("XDG_CONFIG_HOME");
  }
}

TEST(SettingsStore, SceneKeyIsTheAbsoluteNormalisedPath) {
  EXPECT_EQ(app::scene_key("/a/b/../c/./d.json"), "/a/c/d.json");
  EXPECT_TRUE(fs::path(app::scene_key("rel.json")).is_absolute());
}

TEST(Paths, SaveProposesTheSceneNameInOut) {
  EXPECT_EQ(app::default_save_path("/a/b/tablecloth.json"), "out/tablecloth-saved.json");
  EXPECT_EQ(app::default_save_path(""), "out/scene-saved.json");
}

TEST(Paths, ThePickerListsSceneFilesWithWhatTheyShow) {
  const fs::path dir = scratch_dir("picker");
  fs::create_directories(dir);
  std::ofstream(dir / "b_named.json") << R"({"name": "Feynman figure 20: cloth draped over a sphere"})";
  std::ofstream(dir / "a_broken.json") << R"({"name": )";
  std::ofstream(dir / "c_unnamed.json") << R"({"cloth": {}})";
  std::ofstream(dir / "d_sentence.json")
      << R"json({"name": "a tablecloth dropped on a table loaded from an OBJ mesh (closed boxes, BVH collider)"})json";
  std::ofstream(dir / "notes.txt") << "not a scene";
  const std::vector<app::SceneFile> files = app::scene_files_in(dir.string());
  ASSERT_EQ(files.size(), 4u) << "every .json, nothing else";
  EXPECT_EQ(fs::path(files[0].path).filename(), "a_broken.json") << "sorted";
  EXPECT_EQ(files[0].name, "") << "a broken file is listed; loading it says why";
  EXPECT_EQ(files[1].name, "Feynman figure 20: cloth draped over a sphere");
  EXPECT_EQ(files[1].summary, "Feynman figure 20");
  EXPECT_EQ(files[2].summary, "");
  EXPECT_EQ(files[3].summary, "a tablecloth dropped on a table loaded from an ...") << "cut at a word";
  fs::remove_all(dir);

  // Every shipped scene has a name to show.
  const std::vector<app::SceneFile> shipped = app::builtin_scenes();
  ASSERT_GE(shipped.size(), 30u);
  for (const app::SceneFile& f : shipped) EXPECT_FALSE(f.summary.empty()) << f.path;
}

}  // namespace
