// The panel draws exactly the declared parameters that apply (model, integrator, visible), for
// every model and integrator (ImGui's core in a context without a window).
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "collision/self_collision.hpp"
#include "collision/tearing.hpp"
#include "forces/forces.hpp"
#include "model/material_parameters.hpp"
#include "parameter_widgets.hpp"
#include "integrators/solver_settings.hpp"

namespace {

using cloth::ModelType;

// Keys the declarations give to the panel of `model` and `integrator`, read without the panel.
template <class Settings, class Visit>
std::vector<std::string> declared_keys(ModelType model, cloth::IntegratorType integrator, Settings s, Visit visit) {
  std::vector<std::string> keys;
  visit(
      [&](auto&&, const cloth::ParamInfo& p) {
        if (p.visible && (p.models & cloth::used_by(model)) &&
            (p.integrators & cloth::used_by(integrator))) {
          keys.push_back(p.key);
        }
      },
      s);
  return keys;
}

// Draws the panel of `model` and `integrator` for one frame and returns the keys it drew.
template <class Settings, class Visit>
std::vector<std::string> drawn_keys(ModelType model, cloth::IntegratorType integrator, Settings s, Visit visit) {
  std::vector<std::string> drawn;
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(800, 600);
  io.DeltaTime = 1.0f / 60;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  ImGui::NewFrame();
  ImGui::Begin("panel");
  ParameterWidgets widgets(model, integrator, &drawn);
  visit(widgets, s);
  ImGui::End();
  ImGui::EndFrame();
  return drawn;
}

class PanelContext : public ::testing::Test {
 protected:
  void SetUp() override { ImGui::CreateContext(); }
  void TearDown() override { ImGui::DestroyContext(); }
};

const auto kMaterial = [](auto&& v, auto& s) { cloth::visit_material(v, s); };
const auto kSolver = [](auto&& v, auto& s) { cloth::visit_solver(v, s); };
const auto kWind = [](auto&& v, auto& s) { cloth::visit_wind(v, s); };
const auto kPattern = [](auto&& v, auto& s) { cloth::visit_density_pattern(v, s); };

TEST_F(PanelContext, MaterialPanelShowsTheDeclaredParametersOfEachModel) {
  for (ModelType model : cloth::all_values<ModelType>()) {
    const std::vector<std::string> drawn = drawn_keys(model, cloth::IntegratorType::Verlet, cloth::SpringMaterial{}, kMaterial);
    EXPECT_EQ(drawn, declared_keys(model, cloth::IntegratorType::Verlet, cloth::SpringMaterial{}, kMaterial)) << cloth::name_of(model);
    EXPECT_FALSE(drawn.empty());
  }
  // Models differ in what they use: the Feynman panel has no shear, the edge-area one its area term.
  const auto feynman = declared_keys(ModelType::Feynman, cloth::IntegratorType::Verlet, cloth::SpringMaterial{}, kMaterial);
  const auto edge_area = declared_keys(ModelType::EdgeArea, cloth::IntegratorType::Verlet, cloth::SpringMaterial{}, kMaterial);
  EXPECT_EQ(std::count(feynman.begin(), feynman.end(), "shear"), 0);
  EXPECT_EQ(std::count(edge_area.begin(), edge_area.end(), "area_stiffness"), 1);
}

TEST_F(PanelContext, SolverPanelShowsWhatTheRunningIntegratorUses) {
  for (cloth::IntegratorType integrator : cloth::all_values<cloth::IntegratorType>()) {
    cloth::SolverSettings solver;
    solver.integrator = integrator;
    EXPECT_EQ(drawn_keys(ModelType::Springs, integrator, solver, kSolver),
              declared_keys(ModelType::Springs, integrator, solver, kSolver))
        << integrator;
  }
  cloth::SolverSettings implicit;
  implicit.integrator = cloth::IntegratorType::Implicit;
  const auto shown = drawn_keys(ModelType::Springs, cloth::IntegratorType::Implicit, implicit, kSolver);
  EXPECT_EQ(std::count(shown.begin(), shown.end(), "preconditioner"), 1);
  EXPECT_EQ(std::count(shown.begin(), shown.end(), "strain_limit"), 0) << "Verlet's alone";
}

TEST_F(PanelContext, WindWidgetsAppearOnlyForAWindThatUsesThem) {
  cloth::WindField still;
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, still, kWind), std::vector<std::string>{"type"});
  cloth::WindField gusty;
  gusty.type = cloth::WindField::Type::Gusty;
  const auto shown = drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, gusty, kWind);
  EXPECT_EQ(shown, declared_keys(ModelType::Springs, cloth::IntegratorType::Verlet, gusty, kWind));
  EXPECT_EQ(std::count(shown.begin(), shown.end(), "gust"), 1);
}

TEST_F(PanelContext, DensityPatternWidgetsFollowItsType) {
  cloth::DensityPattern none;
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, none, kPattern), std::vector<std::string>{"type"});
  cloth::DensityPattern stripes;
  stripes.kind = cloth::DensityPattern::Kind::Stripes;
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, stripes, kPattern),
            (std::vector<std::string>{"type", "axis", "period", "width", "factor"}));
  cloth::DensityPattern checker;
  checker.kind = cloth::DensityPattern::Kind::Checker;
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, checker, kPattern),
            (std::vector<std::string>{"type", "period", "factor"}));
}

// Every declared parameter of every section: a range that holds its default and the panel's
// slider, and a tooltip.
TEST(ParameterDeclarations, DefaultsLieInTheirRangesAndSlidersHaveTips) {
  const auto check = [](const auto&, const cloth::ParamInfo& p) {
    EXPECT_LE(p.lo, p.hi) << p.key;
    EXPECT_LE(p.lo, p.slider_lo()) << p.key;
    EXPECT_GE(p.hi, p.slider_hi()) << p.key;
    EXPECT_NE(std::string(p.tip), "") << p.key;
  };
  const cloth::SpringMaterial material;
  const cloth::SolverSettings solver;
  const cloth::ExternalForces forces;
  const cloth::SelfCollisionSettings self_collision;
  const cloth::TearSettings tearing;
  cloth::visit_material(check, material);
  cloth::visit_density_pattern(check, material.density_pattern);
  cloth::visit_solver(check, solver);
  cloth::visit_forces(check, forces);
  cloth::visit_wind(check, forces.wind);
  cloth::visit_self_collision(check, self_collision);
  cloth::visit_tearing(check, tearing);
  EXPECT_NO_THROW(cloth::visit_material(cloth::RangeCheck("cloth.material"), material));
  EXPECT_NO_THROW(cloth::validate_solver(solver));
  EXPECT_NO_THROW(cloth::validate_external_forces(forces));
}

}  // namespace
