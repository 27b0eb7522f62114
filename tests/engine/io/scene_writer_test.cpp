// Saving a running simulation as a scene file (scene_writer.hpp): loading what was saved must
// rebuild the same simulation: the same settings, pins and colliders, and bit-identical steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <variant>

#include "core/error.hpp"
#include "io/scene.hpp"
#include "io/scene_writer.hpp"

namespace cloth {
namespace {

const std::string kSceneDir = std::string(CLOTHSIM_ASSET_DIR) + "/scenes";

std::unique_ptr<Simulation> reload(const nlohmann::json& doc, const std::string& dir) {
  std::vector<std::string> warnings;
  const Scene scene = parse_scene(doc, dir, warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();  // every key written is a real key
  return make_simulation(scene);
}

/// Steps both `frames` times and expects identical positions and velocities, bit for bit.
void expect_same_run(Simulation& a, Simulation& b, int frames, const std::string& what) {
  for (int f = 0; f < frames; ++f) {
    a.step();
    b.step();
  }
  ASSERT_EQ(a.state().x.size(), b.state().x.size()) << what;
  for (size_t i = 0; i < a.state().x.size(); ++i) {
    ASSERT_EQ(a.state().x[i], b.state().x[i]) << what << ", vertex " << i;
    ASSERT_EQ(a.state().v[i], b.state().v[i]) << what << ", vertex " << i;
  }
}

// Every shipped scene, saved untouched and loaded again, runs exactly as the original.
TEST(SceneWriter, EveryShippedSceneSurvivesASaveAndALoad) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSceneDir)) {
    if (entry.path().extension() != ".json") continue;
    const std::string path = entry.path().string();
    const nlohmann::json base = load_scene_document(path, {});
    std::vector<std::string> warnings;
    const Scene scene = parse_scene(base, kSceneDir, warnings);
    auto original = make_simulation(scene);
    const nlohmann::json saved = scene_document(base, kSceneDir, *original, scene.camera);
    EXPECT_FALSE(saved.contains("compare")) << path;
    auto again = reload(saved, kSceneDir);
    expect_same_run(*original, *again, 2, path);
    ++count;
  }
  EXPECT_GE(count, 30);
}

// The settings a user changes in the app (material, solver, forces, pins, a dragged and
// re-frictioned collider, self-collision, tearing, camera) are what the saved file loads with.
TEST(SceneWriter, LiveEditsAreWhatTheSavedFileLoads) {
  const std::string path = kSceneDir + "/default.json";
  const nlohmann::json base = load_scene_document(path, {"cloth.mesh.grid.resolution=[12,12]"});
  std::vector<std::string> warnings;
  const Scene scene = parse_scene(base, kSceneDir, warnings);
  ASSERT_FALSE(scene.colliders.empty());
  auto sim = make_simulation(scene);

  SpringMaterial m = sim->model().material;
  m.stretch *= 3;
  m.velocity_damping = 0.25;
  sim->set_material(m);
  SolverSettings s = sim->solver();
  s.integrator = cloth::IntegratorType::Implicit;
  s.substeps = 2;
  s.tolerance = 1e-8;
  s.preconditioner = Preconditioner::block_jacobi;
  sim->set_solver(s);
  ExternalForces f = sim->external_forces();
  f.drag = 0.5;
  f.wind.type = WindField::Type::Gusty;
  f.wind.speed = 3;
  f.wind.direction = Vec3(0, 0, 1);
  sim->set_external_forces(f);
  std::vector<int> pinned_before;
  for (int v = 0; v < sim->model().vertex_count(); ++v)
    if (sim->pins().is_pinned(v)) pinned_before.push_back(v);
  ASSERT_GE(pinned_before.size(), 2u);
  sim->set_pinned(pinned_before.front(), false);  // unpin one of the scene's pins
  sim->set_pinned(70, true);                       // pin one more by ctrl+click
  sim->colliders().set_friction(0, 0.6, 0.4);
  sim->colliders().set_offset(0, Vec3(0.1, -0.05, 0.2));
  SelfCollisionSettings sc = sim->self_collision();
  sc.enabled = true;
  sc.thickness = 0.006;
  sim->set_self_collision(sc);
  TearSettings t = sim->tearing().settings();
  t.enabled = true;
  t.threshold = 0.7;
  sim->set_tearing(t);
  CameraSpec camera;
  camera.distance = 4.5;
  camera.yaw_deg = -70;

  const nlohmann::json saved = scene_document(base, kSceneDir, *sim, camera);
  std::vector<std::string> w2;
  const Scene loaded = parse_scene(saved, kSceneDir, w2);
  EXPECT_TRUE(w2.empty());
  auto again = make_simulation(loaded);

  EXPECT_EQ(again->model().material.stretch, m.stretch);
  EXPECT_EQ(again->model().material.velocity_damping, 0.25);
  EXPECT_EQ(again->solver().integrator, cloth::IntegratorType::Implicit);
  EXPECT_EQ(again->solver().substeps, 2);
  EXPECT_EQ(again->solver().tolerance, 1e-8);
  EXPECT_EQ(again->solver().preconditioner, Preconditioner::block_jacobi);
  EXPECT_EQ(again->external_forces().drag, 0.5);
  EXPECT_EQ(again->external_forces().wind.type, WindField::Type::Gusty);
  EXPECT_EQ(again->external_forces().wind.direction, Vec3(0, 0, 1));
  for (int v = 0; v < sim->model().vertex_count(); ++v) EXPECT_EQ(again->pins().is_pinned(v), sim->pins().is_pinned(v)) << v;
  EXPECT_FALSE(again->pins().is_pinned(pinned_before.front()));
  EXPECT_TRUE(again->pins().is_pinned(70));
  EXPECT_EQ(again->colliders()[0].friction, 0.6);
  EXPECT_EQ(again->colliders()[0].mu_kinetic(), 0.4);
  // The dragged collider is saved where it is: same place, no leftover offset.
  // An explicit Vec3 return: `auto` would return an Eigen expression of dead temporaries.
  const auto sphere_centre = [](const Simulation& x) -> Vec3 {
    return std::get<SphereShape>(x.colliders()[0].shape).center + x.colliders()[0].displacement(0);
  };
  EXPECT_EQ(sphere_centre(*again), sphere_centre(*sim));
  EXPECT_EQ(again->colliders()[0].offset, Vec3::Zero());
  EXPECT_TRUE(again->self_collision().enabled);
  EXPECT_EQ(again->self_collision().thickness, 0.006);
  EXPECT_TRUE(again->tearing().settings().enabled);
  EXPECT_EQ(again->tearing().settings().threshold, 0.7);
  EXPECT_EQ(loaded.camera.distance, 4.5);
  EXPECT_EQ(loaded.camera.yaw_deg, -70);
  expect_same_run(*sim, *again, 3, "edited default scene");
}

// A solid changed live (ColliderSet::replace: the Collisions panel) is saved as it runs: its
// thickness, friction, size and path; a refused change leaves it as it was.
TEST(SceneWriter, ASolidChangedLiveIsSavedAsItRuns) {
  const nlohmann::json base = load_scene_document(kSceneDir + "/default.json", {"cloth.mesh.grid.resolution=[12,12]"});
  std::vector<std::string> warnings;
  auto sim = make_simulation(parse_scene(base, kSceneDir, warnings));
  ASSERT_TRUE(std::holds_alternative<SphereShape>(sim->colliders()[0].shape));
  Collider c = sim->colliders()[0];
  c.thickness = 0.012;
  c.kinetic_friction = 0.2;
  std::get<SphereShape>(c.shape).radius = 0.3;
  c.motion.kind = MotionPath::Kind::Oscillate;
  c.motion.amplitude = 0.05;
  c.motion.axis_u = Vec3(0, 1, 0);
  c.motion.axis_v = Vec3(0, 0, 1);
  const std::uint64_t version = sim->colliders().version();
  sim->colliders().replace(0, c);
  EXPECT_NE(sim->colliders().version(), version) << "the renderer rebuilds the solid's mesh";
  Collider bad = c;
  bad.thickness = -1;
  EXPECT_THROW(sim->colliders().replace(0, bad), InputError);
  bad = c;
  bad.friction = std::nan("");
  EXPECT_THROW(sim->colliders().replace(0, bad), InputError);
  EXPECT_THROW(sim->colliders().replace(int(sim->colliders().size()), c), InputError);
  EXPECT_EQ(sim->colliders()[0].thickness, 0.012) << "a refused change keeps the solid";

  const nlohmann::json saved = scene_document(base, kSceneDir, *sim, CameraSpec{});
  const auto again = reload(saved, kSceneDir);
  const Collider& back = again->colliders()[0];
  EXPECT_EQ(back.thickness, 0.012);
  EXPECT_EQ(back.mu_kinetic(), 0.2);
  EXPECT_EQ(std::get<SphereShape>(back.shape).radius, 0.3);
  EXPECT_EQ(back.motion.kind, MotionPath::Kind::Oscillate);
  EXPECT_EQ(back.motion.amplitude, 0.05);
  EXPECT_EQ(back.motion.axis_u, Vec3(0, 1, 0));
  expect_same_run(*sim, *again, 3, "default scene with its sphere changed");
}

// Mesh files are named by absolute path in the saved document, so it loads from any folder.
TEST(SceneWriter, RelativeMeshPathsBecomeAbsolute) {
  nlohmann::json base = load_scene_document(kSceneDir + "/default.json", {});
  base["cloth"]["mesh"] = {{"obj", "../meshes/cloth_patch_low.obj"}};
  base["cloth"]["model"] = "edge-area";  // springs on a mesh file would warn (kSpringsOnAMeshFile)
  base["cloth"]["pins"] = nlohmann::json::array();
  std::vector<std::string> warnings;
  auto sim = make_simulation(parse_scene(base, kSceneDir, warnings));
  const nlohmann::json saved = scene_document(base, kSceneDir, *sim, CameraSpec{});
  const std::string obj = saved["cloth"]["mesh"]["obj"];
  EXPECT_TRUE(std::filesystem::path(obj).is_absolute()) << obj;
  EXPECT_EQ(reload(saved, "/")->model().vertex_count(), sim->model().vertex_count());
}

// A ctrl+click on a vertex of a moving pin takes it off its path (Simulation::set_pinned): the
// saved scene must not bring the path back.
TEST(SceneWriter, AMovingPinTakenOffItsPathStaysOff) {
  const nlohmann::json base = load_scene_document(kSceneDir + "/waving_handkerchief.json", {});
  std::vector<std::string> warnings;
  auto sim = make_simulation(parse_scene(base, kSceneDir, warnings));
  ASSERT_FALSE(sim->pins().moving_pins().empty());
  const int v = sim->pins().moving_pins().front().vertex;
  sim->set_pinned(v, false);
  const nlohmann::json saved = scene_document(base, kSceneDir, *sim, CameraSpec{});
  auto again = reload(saved, kSceneDir);
  for (const MovingPin& p : again->pins().moving_pins()) EXPECT_NE(p.vertex, v);
  EXPECT_EQ(again->pins().moving_pins().size(), sim->pins().moving_pins().size());
  for (int u = 0; u < sim->model().vertex_count(); ++u) EXPECT_EQ(again->pins().is_pinned(u), sim->pins().is_pinned(u)) << u;
  expect_same_run(*sim, *again, 3, "handkerchief with one corner let go");
}

TEST(SceneWriter, UnwritablePathIsAOneLineError) {
  try {
    write_scene_file("/nonexistent-dir/x.json", nlohmann::json::object());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace cloth
