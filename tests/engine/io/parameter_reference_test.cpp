// docs/scene-format.md's parameter reference is the one the declarations generate, and a scene
// file round-trips every declared material parameter through the parser and the writer.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "io/parameter_json.hpp"
#include "io/parameter_reference.hpp"
#include "io/scene.hpp"
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

}  // namespace
