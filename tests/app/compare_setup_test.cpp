// The panel's side-by-side setup (compare_setup.hpp): its spec, its refusals, and that every
// offered parameter runs on the default scene with each suggested value in its own pane.
#include "run/compare_setup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "options.hpp"
#include "run/pane.hpp"
#include "run/paths.hpp"

namespace {

/// "cloth.material.stretch" -> "/cloth/material/stretch".
nlohmann::json::json_pointer pointer_of(std::string key) {
  std::replace(key.begin(), key.end(), '.', '/');
  return nlohmann::json::json_pointer("/" + key);
}

/// A value as the scene file holds it: a number, or a name.
nlohmann::json scene_value(const std::string& text) {
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  return parsed.is_discarded() ? nlohmann::json(text) : parsed;
}

TEST(CompareSetup, SpecHasTheKeyAndTheFilledValuesInOrder) {
  app::CompareDraft draft{.key = " solver.substeps ", .values = {"1", "", " 16 ", ""}};
  EXPECT_EQ(app::compare_spec(draft), "solver.substeps=1,16");
  draft.values = {"[0,-9.81,0]", "[0,-1.62,0]", "", ""};
  draft.key = "forces.gravity";
  EXPECT_EQ(app::compare_spec(draft), "forces.gravity=[0,-9.81,0],[0,-1.62,0]");
}

TEST(CompareSetup, FewerThanTwoValuesOrACommaInOneIsRefusedInOneLine) {
  for (const app::CompareDraft& draft :
       {app::CompareDraft{.key = "solver.dt", .values = {"0.01", "", "", ""}},
        app::CompareDraft{.key = "solver.dt", .values = {"0.01,0.02", "0.03", "", ""}},
        app::CompareDraft{.key = "", .values = {"1", "2", "", ""}}}) {
    try {
      app::compare_spec(draft);
      ADD_FAILURE() << "accepted " << draft.key;
    } catch (const cloth::InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_EQ(message.rfind("side by side: ", 0), 0u) << message;
    }
  }
}

TEST(CompareSetup, EveryOfferedParameterRunsOnTheDefaultSceneOnePanePerValue) {
  for (int k = 0; k < int(app::compare_presets().size()); ++k) {
    const app::ComparePreset& preset = app::compare_presets()[size_t(k)];
    SCOPED_TRACE(preset.key);
    ASSERT_GE(preset.values.size(), 2u);
    ASSERT_LE(preset.values.size(), 4u);
    app::Options options;
    options.scene_path = app::default_scene_path();
    options.compare = app::compare_spec(app::compare_draft(k));
    std::vector<std::string> warnings;
    const std::vector<app::PaneScene> panes = app::scenes_to_run(options, warnings);
    ASSERT_EQ(panes.size(), preset.values.size());
    // An unknown key or a value of the wrong kind would only warn and be ignored.
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    for (size_t i = 0; i < panes.size(); ++i) {
      EXPECT_EQ(panes[i].label, preset.key + "=" + preset.values[i]);
      EXPECT_EQ(panes[i].document.at(pointer_of(preset.key)), scene_value(preset.values[i]));
    }
  }
}

TEST(CompareSetup, OneClothRunsAComparisonSceneAloneUnderItsOwnName) {
  app::Options options;
  options.scene_path = (std::filesystem::path(app::default_scene_path()).parent_path() /
                        "classroom_damping_sweep.json")
                           .string();
  std::vector<std::string> warnings;
  const std::vector<app::PaneScene> panes = app::scenes_to_run(options, warnings);
  ASSERT_GE(panes.size(), 2u);  // the scene's own "compare"
  options.one_pane = true;
  const std::vector<app::PaneScene> alone = app::scenes_to_run(options, warnings);
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].label, "");
  // The title and the caption name the scene, not its first pane.
  EXPECT_NE(panes[0].scene.name, alone[0].scene.name);
  EXPECT_EQ(app::shared_scene(panes).name, alone[0].scene.name);
  EXPECT_EQ(app::shared_scene(alone).name, alone[0].scene.name);
  // Another file from the Scene list runs as that file says.
  EXPECT_FALSE(app::options_for_scene(options, app::default_scene_path()).one_pane);
}

}  // namespace
