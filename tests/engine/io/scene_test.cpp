// Scene files: the shipped scenes parse; overrides apply; typos warn; bad values fail with one
// line naming the key; pins resolve to the right vertices.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "io/scene.hpp"

namespace cloth {
namespace {

using nlohmann::json;

json minimal() {
  return json::parse(R"({"cloth": {"mesh": {"grid": {"size": [1, 2], "resolution": [5, 9]}}}})");
}

Scene parse(const json& doc, std::vector<std::string>* warnings = nullptr) {
  std::vector<std::string> sink;
  return parse_scene(doc, CLOTHSIM_TEST_DATA_DIR, warnings ? *warnings : sink);
}

std::string error_of(const json& doc) {
  try {
    parse(doc);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Scene, DefaultSceneLoadsWithoutWarnings) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene(std::string(CLOTHSIM_ASSET_DIR) + "/scenes/default.json", {}, warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(scene.mesh.vertex_count(), 32 * 32);
  EXPECT_EQ(scene.colliders.size(), 2u);
  EXPECT_EQ(resolve_pins(scene), (std::vector<int>{0, 31}));
  EXPECT_NEAR(scene.material.density, 0.15, 1e-12);  // cotton preset ...
  EXPECT_EQ(scene.material.stretch, 1000);             // ... with keys beside it overriding it
  auto sim = make_simulation(scene);
  EXPECT_NEAR(sim->model().total_mass(), 0.15, 1e-9);  // 1 m^2 of 0.15 kg/m^2
}

TEST(Scene, GridFieldsAndDefaults) {
  const Scene s = parse(minimal());
  EXPECT_EQ(s.mesh.grid_nx, 5);
  EXPECT_EQ(s.mesh.grid_ny, 9);
  EXPECT_TRUE(s.forces.gravity.isApprox(Vec3(0, -9.81, 0)));
  EXPECT_EQ(s.forces.drag, 0.0);
  EXPECT_EQ(s.forces.wind.type, WindField::Type::None);
  EXPECT_EQ(s.solver.integrator, cloth::IntegratorType::Verlet);
}

TEST(Scene, OverridesSetAnyDottedPath) {
  json doc = minimal();
  apply_override(doc, "cloth.material.stretch=2500");
  apply_override(doc, "solver.substeps=7");
  apply_override(doc, "cloth.mesh.grid.plane=xy");
  apply_override(doc, "forces.gravity=[0,-1.62,0]");
  apply_override(doc, "solver.preconditioner=incomplete-cholesky");
  const Scene s = parse(doc);
  EXPECT_EQ(s.solver.preconditioner, Preconditioner::incomplete_cholesky);
  EXPECT_EQ(s.material.stretch, 2500);
  EXPECT_EQ(s.solver.substeps, 7);
  EXPECT_TRUE(s.forces.gravity.isApprox(Vec3(0, -1.62, 0)));
  EXPECT_NEAR(s.mesh.positions[s.mesh.grid_index(0, 1)].y(), 1.0 + 1.0 - 0.25, 1e-12);  // vertical
  EXPECT_THROW(apply_override(doc, "novalue"), InputError);
  EXPECT_THROW(apply_override(doc, "cloth.mesh.grid.size.x=3"), InputError);  // into an array
}

// Threads belong to the machine: all of them unless the file asks for fewer; nonsense is refused.
TEST(Scene, ThreadsDefaultToTheMachinesAndRejectNonsense) {
  json doc = minimal();
  EXPECT_EQ(parse(doc).solver.threads, available_threads());
  apply_override(doc, "solver.threads=3");
  EXPECT_EQ(parse(doc).solver.threads, 3);
  apply_override(doc, "solver.threads=0");
  EXPECT_EQ(parse(doc).solver.threads, available_threads());
  EXPECT_EQ(parse(doc).solver.preconditioner, Preconditioner::two_level) << "the default";
  apply_override(doc, "solver.preconditioner=block-jacobi");
  EXPECT_EQ(parse(doc).solver.preconditioner, Preconditioner::block_jacobi);
  for (const char* bad : {"solver.threads=-1", "solver.threads=1000", "solver.threads=1.5", "solver.threads=\"two\""}) {
    json broken = minimal();
    apply_override(broken, bad);
    EXPECT_THROW(parse(broken), InputError) << bad;
  }
}

TEST(Scene, UnknownKeysWarnNamingTheKey) {
  json doc = minimal();
  doc["cloth"]["materail"] = json::object();
  doc["solver"] = {{"dt", 0.01}, {"substep", 3}};
  std::vector<std::string> warnings;
  parse(doc, &warnings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("cloth.materail"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("solver.substep"), std::string::npos) << warnings[1];
}

TEST(Scene, BadValuesFailWithOneLineNamingTheKey) {
  struct Case { const char* path; json value; const char* expect; };
  const Case cases[] = {
      {"/cloth/material/density", -1, "cloth.material.density"},
      {"/cloth/material/stretch", "stiff", "cloth.material.stretch"},
      {"/solver/dt", 0, "solver.dt"},
      {"/solver/substeps", 2.5, "solver.substeps"},
      {"/solver/integrator", "warp", "warp"},
      {"/solver/preconditioner", "ilu", "solver.preconditioner"},
      {"/cloth/mesh/grid/resolution", json::array({1, 5}), "resolution"},
      {"/cloth/mesh/grid/plane", "yz", "plane"},
      {"/cloth/pins", json::array({{{"corner", "top-left"}}}), "cloth.pins.0.corner"},
      {"/colliders", json::array({{{"type", "sphere"}, {"radius", -1}}}), "colliders.0.radius"},
      {"/colliders", json::array({{{"type", "torus"}}}), "colliders.0.type"},
      {"/forces/gravity", json::array({0, 1}), "forces.gravity"},
      {"/cloth/model", "terzopoulos", "cloth.model must be one of"},
      {"/cloth/model", "rubber", "cloth.model"},
      {"/cloth/material/rest_stretch", json::array({0, 1}), "rest_stretch"},
  };
  for (const Case& c : cases) {
    json doc = minimal();
    doc[json::json_pointer(c.path)] = c.value;
    const std::string what = error_of(doc);
    EXPECT_NE(what.find(c.expect), std::string::npos) << c.path << " -> '" << what << "'";
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(Scene, MissingAndMalformedFilesAreOneLineErrors) {
  std::vector<std::string> w;
  try {
    load_scene("/nonexistent/scene.json", {}, w);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/scene.json"), std::string::npos);
  }
  const std::string bad = ::testing::TempDir() + "/malformed.json";
  std::ofstream(bad) << "{\"cloth\": {\"mesh\": ";
  try {
    load_scene(bad, {}, w);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  json doc = minimal();
  doc["cloth"]["mesh"] = {{"obj", "no_such_mesh.obj"}};
  EXPECT_NE(error_of(doc).find("no_such_mesh.obj"), std::string::npos);
  doc["cloth"]["mesh"] = {{"obj", "quad_with_uv.obj"}};  // relative to the scene's folder
  EXPECT_EQ(parse(doc).mesh.vertex_count(), 4);
}

// A springs cloth on a mesh file is told, in one line, that its parameters are not its moduli
// there; on a grid, or with a model that holds them on any mesh, nothing is said.
TEST(Scene, SpringsOnAMeshFileWarnsThatStretchIsNotItsModulus) {
  const auto warnings_of = [](const json& doc) {
    std::vector<std::string> w;
    parse(doc, &w);
    return w;
  };
  json doc = minimal();
  EXPECT_TRUE(warnings_of(doc).empty());
  doc["cloth"]["mesh"] = {{"obj", "quad_with_uv.obj"}};
  const std::vector<std::string> springs = warnings_of(doc);
  ASSERT_EQ(springs.size(), 1u);
  EXPECT_EQ(springs[0], kSpringsOnAMeshFile);
  EXPECT_EQ(springs[0].find('\n'), std::string::npos);
  for (const char* model : {"edge-area", "baraff-witkin"}) {
    doc["cloth"]["model"] = model;
    EXPECT_TRUE(warnings_of(doc).empty()) << model;
  }
}

TEST(Scene, PinsResolveToGridVertices) {
  json doc = minimal();  // 5 x 9
  doc["cloth"]["pins"] = json::parse(
      R"([{"corner": "max-max"}, {"corner": "min-max"}, {"column": 2}, {"row": 0}, {"vertex": 17}])");
  const std::vector<int> pins = resolve_pins(parse(doc));
  std::vector<int> expected = {44, 40, 17};
  for (int j = 0; j < 9; ++j) expected.push_back(j * 5 + 2);
  for (int i = 0; i < 5; ++i) expected.push_back(i);
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  EXPECT_EQ(pins, expected);
  doc["cloth"]["pins"] = json::parse(R"([{"column": 5}])");
  EXPECT_THROW(resolve_pins(parse(doc)), InputError);
  doc["cloth"]["pins"] = json::parse(R"([{"vertex": 45}])");
  EXPECT_THROW(resolve_pins(parse(doc)), InputError);
}

// A side of the grid names the same vertices at every resolution, so a scene pinned by its edges
// can be loaded with `--set cloth.mesh.grid.resolution=...`; a row index past the grid says how.
TEST(Scene, EdgePinsFollowTheGridAtAnyResolution) {
  json doc = minimal();  // 5 x 9
  doc["cloth"]["pins"] = json::parse(R"([{"edge": "last-row"}, {"edge": "first-column"}])");
  std::vector<int> expected;
  for (int i = 0; i < 5; ++i) expected.push_back(8 * 5 + i);
  for (int j = 0; j < 8; ++j) expected.push_back(j * 5);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(resolve_pins(parse(doc)), expected);
  doc["cloth"]["pins"] = json::parse(R"([{"edge": "middle"}])");
  EXPECT_THROW(parse(doc), InputError);

  const std::string scene = std::string(CLOTHSIM_ASSET_DIR) + "/scenes/tearing_sphere.json";
  std::vector<std::string> w;
  const Scene coarse = load_scene(scene, {"cloth.mesh.grid.resolution=[20,12]"}, w);
  EXPECT_EQ(resolve_pins(coarse).size(), size_t(2 * 20 + 2 * 12 - 4));  // the whole border
  doc["cloth"]["pins"] = json::parse(R"([{"row": 9}])");
  try {
    resolve_pins(parse(doc));
    ADD_FAILURE() << "row 9 of a 9-row grid resolved";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"edge\": \"last-row\""), std::string::npos) << e.what();
  }
}

// The message of load_scene's InputError for a scene file holding `text`, or "" if it loaded.
std::string file_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  const std::string path = ::testing::TempDir() + "/fuzzed_scene.json";
  std::ofstream(path) << text;
  std::vector<std::string> w;
  try {
    load_scene(path, overrides, w);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Robustness findings (the scene fuzzer of tests/fuzz, and the review that went with it), each of
// which escaped as a crash, a hang, a non-InputError exception or a silently wrong scene; every
// one is also a seed in tests/fuzz/corpus/scene.
TEST(Scene, FuzzFindingsAreOneLineInputErrors) {
  // get<int>() wrapped 4294967298 round to 2: a "valid" 2-vertex-wide grid.
  EXPECT_NE(file_error(R"({"cloth": {"mesh": {"grid": {"resolution": [4294967298, 3]}}}})").find("resolution"),
            std::string::npos);
  // A 1e6 x 1e6 grid is refused by the limit, not attempted.
  EXPECT_NE(file_error(R"({"cloth": {"mesh": {"grid": {"resolution": [1000000, 1000000]}}}})")
                .find("resolution must be in [2, 1024]"),
            std::string::npos);
  // nlohmann reports an overflowing number as out_of_range, not parse_error.
  EXPECT_NE(file_error(R"({"cloth": {"mesh": {"grid": {}}}, "solver": {"dt": 1e400}})").find("not valid JSON"),
            std::string::npos);
  // An override on a scene that is not an object read keys[-1].
  EXPECT_NE(file_error("5", {"solver.dt=0.01"}).find("the scene is not an object"), std::string::npos);
  // std::stoull threw std::out_of_range for an index past 2^64.
  EXPECT_NE(file_error(R"({"colliders": [{"type": "plane"}]})", {"colliders.99999999999999999999999.friction=1"})
                .find("is not an index of the array"),
            std::string::npos);
  // /dev/zero exists and never ends: reading it as a mesh hung.
  EXPECT_NE(file_error(R"({"cloth": {"mesh": {"obj": "/dev/zero"}}})").find("not a regular file"), std::string::npos);
  // A JSON string may hold a newline; the message must stay on one line.
  const std::string what = file_error("{\"cloth\": {\"mesh\": {\"obj\": \"a\\nb.obj\"}}}");
  EXPECT_NE(what.find("a\\x0ab.obj"), std::string::npos) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

TEST(Scene, WarningsStayOnOneLine) {
  json doc = minimal();
  doc["cloth"]["pins\n"] = 1;
  std::vector<std::string> warnings;
  parse(doc, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("cloth.pins\\x0a"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace cloth
