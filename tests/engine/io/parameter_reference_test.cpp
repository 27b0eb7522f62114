// docs/scene-format.md's parameter reference is the one the declarations generate, and a scene
// file round-trips every declared material, collider and drape parameter through the parser and
// the writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "io/parameter_json.hpp"
#include "io/parameter_reference.hpp"
#include "io/scene.hpp"
#include "io/scene_writer.hpp"
#include "model/material_parameters.hpp"

namespace {

using namespace cloth;

TEST(ParameterReference, DocsMatchTheDeclarations) {
  const std::string path = std::string(CLOTHSIM_DOCS_DIR) + "/scene-format.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const size_t begin = doc.find(kParameterReferenceBegin);
  const size_t end = doc.find(kParameterReferenceEnd);
  ASSERT_NE(begin, std::string::npos) << path << " lacks " << kParameterReferenceBegin;
  ASSERT_NE(end, std::string::npos) << path << " lacks " << kParameterReferenceEnd;
  const std::string in_docs = doc.substr(begin, end + std::string(kParameterReferenceEnd).size() + 1 - begin);
  EXPECT_EQ(in_docs, parameter_reference_markdown())
      << "docs/scene-format.md is stale: replace its block with `clothsim --parameter-reference`";
}

// Each declared parameter, set away from its default in a scene file, is read into the field it
// names, and written back under the same key.
TEST(ParameterReference, EveryMaterialParameterIsReadAndWrittenUnderItsKey) {
  SpringMaterial changed;
  // Values inside each range, different from the defaults: the top of the slider range.
  visit_material(
      [](auto&& field, const ParamInfo& p) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<T, double>) {
          field = p.slider_hi();
        } else if constexpr (std::is_same_v<T, Pair<double>>) {
          field.a = p.slider_hi();
          field.b = p.slider_lo();
        }
      },
      changed);
  nlohmann::json material = nlohmann::json::object();
  visit_material(WriteParameters{material}, std::as_const(changed));
  const nlohmann::json doc = {{"cloth", {{"mesh", {{"grid", {{"resolution", {4, 4}}}}}}, {"material", material}}}};
  std::vector<std::string> warnings;
  const Scene scene = parse_scene(doc, ".", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  nlohmann::json back = nlohmann::json::object();
  visit_material(WriteParameters{back}, std::as_const(scene.material));
  EXPECT_EQ(back, material);
  EXPECT_NE(back, [] {
    nlohmann::json defaults = nlohmann::json::object();
    const SpringMaterial default_material;
    visit_material(WriteParameters{defaults}, default_material);
    return defaults;
  }()) << "the test must move every value away from its default";
}

TEST(ParameterReference, OutOfRangeValuesNameTheKeyRangeAndUnit) {
  const nlohmann::json doc = {
      {"cloth", {{"mesh", {{"grid", {{"resolution", {4, 4}}}}}}, {"material", {{"stretch", -5}}}}}};
  std::vector<std::string> warnings;
  try {
    parse_scene(doc, ".", warnings);
    FAIL() << "a negative stretch was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "cloth.material.stretch must be in [0, 1e+08] N/m, got -5");
  }
  SpringMaterial m;
  m.bending = 1e3;
  EXPECT_THROW(visit_material(RangeCheck("cloth.material"), std::as_const(m)), InputError);
}

// Moves a visited value away from its default, inside its range: a number to the top of its
// slider (to the bottom when it is there already), a vector by a step inside the slider's range
// (the two ends of a cylinder stay apart), a direction turned (x, y, z) -> (z, x, y) (two
// perpendicular axes stay perpendicular, to the last bit), a flag flipped, an enum or a choice to
// its next name, an unset optional set.
struct MoveAway {
  template <class T>
  void operator()(T& x, const ParamInfo& p) const {
    if constexpr (std::is_same_v<T, double>) {
      x = x != p.slider_hi() ? p.slider_hi() : p.slider_lo();
    } else if constexpr (std::is_same_v<T, bool>) {
      x = !x;
    } else if constexpr (IntegerField<T>) {
      x = T(x != T(p.slider_hi()) ? p.slider_hi() : p.slider_lo());
    } else if constexpr (std::is_same_v<T, Vec3>) {
      x += Vec3(0.25, 0.5, 0.75) * p.slider_hi();
    } else {
      static_assert(std::is_enum_v<T>);
      const std::vector<T> values = all_values<T>();
      const size_t at = size_t(std::find(values.begin(), values.end(), x) - values.begin());
      x = values[(at + 1) % values.size()];
    }
  }
  void operator()(Direction<Vec3> d, const ParamInfo&) const {
    d.value = Vec3(d.value.z(), d.value.x(), d.value.y());
  }
  void operator()(Optional<std::optional<double>> o, const ParamInfo& p) const { o.value = p.slider_hi(); }
  void operator()(Choice<std::string> c, const ParamInfo&) const {
    const auto at = std::find(c.names.begin(), c.names.end(), c.value) - c.names.begin();
    c.value = c.names[size_t(at + 1) % c.names.size()];
  }
};

// Declared parameters as their JSON object.
template <class Settings, class Visit>
nlohmann::json written(const Settings& s, Visit visit) {
  nlohmann::json j = nlohmann::json::object();
  visit(WriteParameters{j}, s);
  return j;
}

// A "colliders" entry of `c`: its type and every declared parameter (a mesh from `mesh_path`).
nlohmann::json collider_entry(const Collider& c, const std::string& mesh_path) {
  nlohmann::json entry = written(c, [](auto&& v, const auto& x) { visit_collider(v, x); });
  entry["type"] = shape_name(c.shape);
  if (std::holds_alternative<MeshShape>(c.shape)) entry["path"] = mesh_path;
  std::visit([&](const auto& s) { visit_shape(WriteParameters{entry}, s); }, c.shape);
  if (c.motion.moves()) entry["motion"] = written(c.motion, [](auto&& v, const auto& m) { visit_motion(v, m); });
  return entry;
}

nlohmann::json small_cloth() { return nlohmann::json::parse(R"({"mesh": {"grid": {"resolution": [4, 4]}}})"); }

// A solid of every type and the drape section, each parameter away from its default, are read
// into the fields they name, and written back by Save (scene_document) under the same keys with
// the same values; loading the saved file gives them again.
TEST(ParameterReference, EveryColliderAndDrapeParameterSurvivesASaveAndALoad) {
  const std::string mesh = std::string(CLOTHSIM_ASSET_DIR) + "/meshes/table.obj";
  nlohmann::json colliders = nlohmann::json::array();
  const std::vector<Shape> shapes = {PlaneShape{}, SphereShape{}, CapsuleShape{}, CylinderShape{},
                                     BoxShape{},   EllipsoidShape{}, MeshShape{}};
  for (const Shape& shape : shapes) {
    Collider c;
    c.shape = shape;
    const nlohmann::json defaults = collider_entry(c, mesh);
    visit_collider(MoveAway{}, c);
    std::visit([](auto& s) { visit_shape(MoveAway{}, s); }, c.shape);
    visit_motion(MoveAway{}, c.motion);
    ASSERT_TRUE(c.motion.moves());
    colliders.push_back(collider_entry(c, mesh));
    for (const auto& [key, value] : defaults.items()) {
      if (key != "type" && key != "path") {
        EXPECT_NE(colliders.back()[key], value) << shape_name(shape) << "." << key;
      }
    }
  }
  DrapeSettings drape;
  visit_drape(MoveAway{}, drape);
  const nlohmann::json drape_json = written(drape, [](auto&& v, const auto& s) { visit_drape(v, s); });
  const nlohmann::json drape_defaults = written(DrapeSettings{}, [](auto&& v, const auto& s) { visit_drape(v, s); });
  for (const auto& [key, value] : drape_defaults.items()) EXPECT_NE(drape_json[key], value) << "drape." << key;

  const nlohmann::json doc = {{"cloth", small_cloth()}, {"colliders", colliders}, {"drape", drape_json}};
  std::vector<std::string> warnings;
  const Scene scene = parse_scene(doc, ".", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(scene.colliders.size(), colliders.size());
  for (size_t k = 0; k < colliders.size(); ++k) EXPECT_EQ(collider_entry(scene.colliders[k], mesh), colliders[k]) << k;
  EXPECT_EQ(written(scene.drape, [](auto&& v, const auto& s) { visit_drape(v, s); }), drape_json);

  const auto sim = make_simulation(scene);
  const nlohmann::json saved = scene_document(doc, ".", *sim, CameraSpec{}, &scene.drape);
  EXPECT_EQ(saved["colliders"], colliders);
  EXPECT_EQ(saved["drape"], drape_json);
  const Scene again = parse_scene(saved, ".", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  for (size_t k = 0; k < colliders.size(); ++k) EXPECT_EQ(collider_entry(again.colliders[k], mesh), colliders[k]) << k;
  EXPECT_EQ(written(again.drape, [](auto&& v, const auto& s) { visit_drape(v, s); }), drape_json);
}

// --set reaches the new sections as any other; a scene without "drape" keeps today's defaults.
TEST(ParameterReference, OverridesSetColliderAndDrapeParameters) {
  nlohmann::json doc = {{"cloth", small_cloth()}, {"colliders", nlohmann::json::parse(R"([{"type": "sphere"}])")}};
  std::vector<std::string> warnings;
  const Scene plain = parse_scene(doc, ".", warnings);
  EXPECT_EQ(plain.drape.method, "multigrid-v");
  EXPECT_EQ(plain.drape.options.force_tolerance, 1e-5);
  apply_override(doc, "drape.k1=5");
  apply_override(doc, "drape.method=relax-jacobi");
  apply_override(doc, "colliders.0.motion.type=circle");
  apply_override(doc, "colliders.0.radius=0.4");
  const Scene s = parse_scene(doc, ".", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(s.drape.options.multigrid.k1, 5);
  EXPECT_EQ(drape_options(s.drape).relax.order, RelaxOrder::Jacobi);
  EXPECT_EQ(s.colliders[0].motion.kind, MotionPath::Kind::Circle);
  EXPECT_EQ(std::get<SphereShape>(s.colliders[0].shape).radius, 0.4);
}

TEST(ParameterReference, OutOfRangeColliderAndDrapeValuesGiveTheDeclaredError) {
  struct Case {
    const char* path;
    nlohmann::json value;
    const char* error;
  };
  const Case cases[] = {
      {"/colliders/0/radius", 5000, "colliders.0.radius must be in [0.0001, 1000] m, got 5000"},
      {"/colliders/0/thickness", -0.5, "colliders.0.thickness must be in [0, 1] m, got -0.5"},
      {"/colliders/0/kinetic_friction", 11, "colliders.0.kinetic_friction must be in [0, 10], got 11"},
      {"/colliders/0/motion/period", 0, "colliders.0.motion.period must be in [0.001, 1e+06] s, got 0"},
      {"/colliders/0/motion/type", "zigzag",
       "colliders.0.motion.type must be one of fixed, linear, oscillate, circle, figure-eight, wander, got \"zigzag\""},
      {"/colliders/1/half_extents", nlohmann::json::array({0.2, 0, 0.2}),
       "colliders.1.half_extents must be in [0.0001, 1000] m, got 0"},
      {"/colliders/1/rotation_deg", nlohmann::json::array({0, 400, 0}),
       "colliders.1.rotation_deg must hold finite numbers of magnitude at most 360 deg"},
      {"/drape/k1", -1, "drape.k1 must be in [0, 100000], got -1"},
      {"/drape/force_tolerance", 0, "drape.force_tolerance must be in [1e-15, 1000] N, got 0"},
      {"/drape/perturbation_deg", 50, "drape.perturbation_deg must be in [0, 45] deg, got 50"},
      {"/drape/method", "fast",
       "drape.method must be one of newton, multigrid-v, multigrid-w, relax-red-black, relax-sequential, "
       "relax-jacobi, geometric, got \"fast\""},
      {"/drape/interpolation", "spline", "drape.interpolation must be one of bilinear, cubic, got \"spline\""},
  };
  for (const Case& c : cases) {
    nlohmann::json doc = {
        {"cloth", small_cloth()},
        {"colliders", nlohmann::json::parse(R"([{"type": "sphere", "motion": {"type": "oscillate"}}, {"type": "box"}])")},
        {"drape", nlohmann::json::object()}};
    doc[nlohmann::json::json_pointer(c.path)] = c.value;
    std::vector<std::string> warnings;
    try {
      parse_scene(doc, ".", warnings);
      ADD_FAILURE() << c.path << " = " << c.value << " was accepted";
    } catch (const InputError& e) {
      EXPECT_STREQ(e.what(), c.error) << c.path;
    }
  }
}

}  // namespace
