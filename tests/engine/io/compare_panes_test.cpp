// Side-by-side panes: the scene's "compare" list and the --compare sweep become per-pane
// overrides, each pane's scene carries them, and every malformed form is a one-line InputError.
#include <gtest/gtest.h>

#include <fstream>

#include "io/compare_panes.hpp"
#include "core/error.hpp"
#include "io/scene.hpp"

namespace cloth {
namespace {

using nlohmann::json;

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ComparePanes, SceneListBecomesLabelledOverrides) {
  const auto panes = parse_compare(json::parse(R"([
    {"label": "explicit", "set": {"solver.integrator": "symplectic-euler", "solver.substeps": 8}},
    {"set": {"cloth.material.stretch": 5000}}])"));
  ASSERT_EQ(panes.size(), 2u);
  EXPECT_EQ(panes[0].label, "explicit");
  ASSERT_EQ(panes[0].overrides.size(), 2u);
  // JSON values keep their type through the --set syntax: strings quoted, numbers bare.
  EXPECT_EQ(panes[0].overrides[0], "solver.integrator=\"symplectic-euler\"");
  EXPECT_EQ(panes[0].overrides[1], "solver.substeps=8");
  EXPECT_EQ(panes[1].label, "cloth.material.stretch=5000") << "no label: named by its overrides";
}

TEST(ComparePanes, SweepSplitsValuesOutsideBrackets) {
  const auto panes = compare_sweep("forces.gravity=[0,-9.81,0],[0,-1.62,0],[0,0,0]");
  ASSERT_EQ(panes.size(), 3u);
  EXPECT_EQ(panes[1].overrides, std::vector<std::string>{"forces.gravity=[0,-1.62,0]"});
  EXPECT_EQ(panes[2].label, "forces.gravity=[0,0,0]");
}

TEST(ComparePanes, MalformedFormsAreOneLineErrors) {
  const std::vector<std::string> bad_lists = {
      R"({"label": "x"})",                           // not an array
      R"([{"label": "only one"}])",                  // fewer than two panes
      R"([{}, {}, {}, {}, {}])",                     // more than four
      R"([1, 2])",                                   // panes must be objects
      R"([{"lable": "typo"}, {}])",                  // unknown pane key
      R"([{"set": [1]}, {}])",                       // set must be an object
      R"([{"label": 3}, {}])"};                      // label must be a string
  for (const std::string& text : bad_lists) {
    const std::string why = error_of([&] { parse_compare(json::parse(text)); });
    EXPECT_NE(why, "") << text;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
  for (const std::string spec : {"solver.integrator", "=a,b", "solver.dt=", "solver.dt=0.01",
                                 "solver.dt=1,2,3,4,5", "solver.dt=0.01,,0.02"}) {
    EXPECT_NE(error_of([&] { compare_sweep(spec); }), "") << spec;
  }
}

std::string write_scene(const std::string& text) {
  const std::string path = ::testing::TempDir() + "/compare_scene.json";
  std::ofstream(path) << text;
  return path;
}

TEST(ComparePanes, EachPaneSceneCarriesItsOverridesAfterTheCommonOnes) {
  const std::string path = write_scene(R"({
    "name": "sweep",
    "cloth": {"mesh": {"grid": {"size": [1, 1], "resolution": [4, 4]}}},
    "solver": {"dt": 0.01},
    "compare": [{"label": "soft", "set": {"cloth.material.stretch": 100}},
                {"label": "stiff", "set": {"cloth.material.stretch": 10000}}]})");
  std::vector<std::string> warnings;
  const Scene scene = load_scene(path, {"solver.dt=0.02"}, warnings);
  ASSERT_EQ(scene.compare.size(), 2u);
  const std::vector<Scene> panes = load_pane_scenes(path, {"solver.dt=0.02"}, scene.compare, warnings);
  ASSERT_EQ(panes.size(), 2u);
  EXPECT_DOUBLE_EQ(panes[0].material.stretch, 100);
  EXPECT_DOUBLE_EQ(panes[1].material.stretch, 10000);
  for (const Scene& p : panes) EXPECT_DOUBLE_EQ(p.solver.dt, 0.02) << "the common --set applies to all";
  EXPECT_EQ(panes[1].name, "sweep [stiff]");
  EXPECT_TRUE(warnings.empty());
}

TEST(ComparePanes, APaneThatSwitchesIntegratorRunsItsOwnSubsteps) {
  // The file's 100 substeps are Verlet's: the implicit pane would crawl at them.
  const std::string path = write_scene(R"({"cloth": {"mesh": {"grid": {"size": [1, 1], "resolution": [4, 4]}}},
    "solver": {"integrator": "verlet", "substeps": 100}})");
  std::vector<std::string> warnings;
  const std::vector<Scene> own =
      load_pane_scenes(path, {}, compare_sweep("solver.integrator=verlet,implicit,xpbd"), warnings);
  ASSERT_EQ(own.size(), 3u);
  EXPECT_EQ(own[0].solver.substeps, 100) << "the file's integrator keeps the file's substeps";
  EXPECT_EQ(own[1].solver.substeps, 1);
  EXPECT_EQ(own[2].solver.substeps, 20);
  // Substeps named anywhere are the user's for every pane.
  const std::vector<Scene> named =
      load_pane_scenes(path, {"solver.substeps=2"}, compare_sweep("solver.integrator=verlet,implicit"), warnings);
  for (const Scene& p : named) EXPECT_EQ(p.solver.substeps, 2);
  const std::vector<Scene> other = load_pane_scenes(path, {}, compare_sweep("solver.dt=0.01,0.02"), warnings);
  for (const Scene& p : other) EXPECT_EQ(p.solver.substeps, 100) << "no switch: the file's";
  const std::vector<Scene> explicit_pane =
      load_pane_scenes(path, {}, compare_sweep("solver.integrator=symplectic-euler,implicit"), warnings);
  EXPECT_EQ(explicit_pane[0].solver.substeps, 0) << "another explicit integrator: auto";
}

TEST(ComparePanes, AnOverriddenIntegratorRunsItsOwnSubsteps) {
  // One scene, as --set gives it: the file's 100 substeps are Verlet's.
  const std::string path = write_scene(R"({"cloth": {"mesh": {"grid": {"size": [1, 1], "resolution": [4, 4]}}},
    "solver": {"integrator": "verlet", "substeps": 100}})");
  std::vector<std::string> warnings;
  const auto loaded = [&](const std::vector<std::string>& overrides) {
    Scene scene = load_scene(path, overrides, warnings);
    give_switched_integrator_its_substeps(scene, path, overrides);
    return scene.solver.substeps;
  };
  EXPECT_EQ(loaded({"solver.integrator=implicit"}), 1);
  EXPECT_EQ(loaded({"solver.integrator=xpbd"}), 20);
  EXPECT_EQ(loaded({"solver.integrator=verlet"}), 100) << "the file's own integrator";
  EXPECT_EQ(loaded({"solver.integrator=implicit", "solver.substeps=3"}), 3) << "named: the user's";
  EXPECT_EQ(loaded({"solver.dt=0.01"}), 100);
  EXPECT_EQ(loaded({R"(solver={"integrator": "implicit", "substeps": 4})"}), 4) << "named in the object";
  // A file without a solver: switched from the default integrator to implicit, implicit's own.
  const std::string bare = write_scene(R"({"cloth": {"mesh": {"grid": {"size": [1, 1], "resolution": [4, 4]}}}})");
  Scene scene = load_scene(bare, {"solver.integrator=implicit"}, warnings);
  give_switched_integrator_its_substeps(scene, bare, {"solver.integrator=implicit"});
  EXPECT_EQ(scene.solver.substeps, 1);
  // A file whose integrator is no integrator's name, overridden with one: that one's own.
  const std::string bogus = write_scene(R"({"cloth": {"mesh": {"grid": {"size": [1, 1], "resolution": [4, 4]}}},
    "solver": {"integrator": "warp-drive", "substeps": 100}})");
  Scene fixed = load_scene(bogus, {"solver.integrator=implicit"}, warnings);
  give_switched_integrator_its_substeps(fixed, bogus, {"solver.integrator=implicit"});
  EXPECT_EQ(fixed.solver.substeps, 1);
}

TEST(ComparePanes, ABadPaneOverrideNamesThePane) {
  const std::string path = write_scene(R"({"cloth": {"mesh": {"grid": {"size": [1, 1], "resolution": [4, 4]}}}})");
  std::vector<std::string> warnings;
  const std::string why = error_of([&] {
    load_pane_scenes(path, {}, compare_sweep("solver.integrator=implicit,warp-drive"), warnings);
  });
  EXPECT_NE(why.find("compare pane 'solver.integrator=warp-drive'"), std::string::npos) << why;
}

}  // namespace
}  // namespace cloth
