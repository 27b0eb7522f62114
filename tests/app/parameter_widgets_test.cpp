// The panel draws exactly the declared parameters that apply (model, integrator, visible), for
// every model and integrator (ImGui's core in a context without a window).
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "collision/collider.hpp"
#include "collision/self_collision.hpp"
#include "collision/tearing.hpp"
#include "drape/drape_settings.hpp"
#include "forces/forces.hpp"
#include "io/scene.hpp"
#include "mesh/mesh.hpp"
#include "model/material_parameters.hpp"
#include "ui/parameter_widgets.hpp"
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
const auto kCollider = [](auto&& v, auto& s) { cloth::visit_collider(v, s); };
const auto kShape = [](auto&& v, auto& s) { cloth::visit_shape(v, s); };
const auto kMotion = [](auto&& v, auto& s) { cloth::visit_motion(v, s); };
const auto kDrape = [](auto&& v, auto& s) { cloth::visit_drape(v, s); };
const auto kGrid = [](auto&& v, auto& s) { cloth::visit_grid(v, s); };
const auto kSelector = [](auto&& v, auto& s) { cloth::visit_selector(v, s); };
const auto kPin = [](auto&& v, auto& s) { cloth::visit_pin(v, s); };
const auto kSlide = [](auto&& v, auto& s) { cloth::visit_slide(v, s); };

// One default shape of every type.
std::vector<cloth::Shape> every_shape() {
  return {cloth::PlaneShape{}, cloth::SphereShape{}, cloth::CapsuleShape{}, cloth::CylinderShape{},
          cloth::BoxShape{},   cloth::EllipsoidShape{}, cloth::MeshShape{}};
}

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

// Each solid of the Collisions section: its thickness and friction, its shape's sizes and
// position, and its path's parameters for the kind of path it has.
TEST_F(PanelContext, SolidWidgetsAreTheDeclaredOnesOfItsShapeAndPath) {
  cloth::Collider solid;
  const auto common = drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, solid, kCollider);
  EXPECT_EQ(common, declared_keys(ModelType::Springs, cloth::IntegratorType::Verlet, solid, kCollider));
  EXPECT_EQ(common, (std::vector<std::string>{"thickness", "friction", "kinetic_friction"}));
  for (const cloth::Shape& shape : every_shape()) {
    std::visit(
        [&](const auto& s) {
          const auto drawn = drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, s, kShape);
          EXPECT_EQ(drawn, declared_keys(ModelType::Springs, cloth::IntegratorType::Verlet, s, kShape)) << cloth::shape_name(shape);
          EXPECT_FALSE(drawn.empty()) << cloth::shape_name(shape);
        },
        shape);
  }
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, cloth::BoxShape{}, kShape),
            (std::vector<std::string>{"center", "half_extents", "rotation_deg"}));
  for (cloth::MotionPath::Kind kind : cloth::all_values<cloth::MotionPath::Kind>()) {
    cloth::MotionPath path;
    path.kind = kind;
    EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, path, kMotion),
              declared_keys(ModelType::Springs, cloth::IntegratorType::Verlet, path, kMotion))
        << cloth::name_of(kind);
  }
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, cloth::MotionPath{}, kMotion), std::vector<std::string>{"type"});
  cloth::MotionPath wander;
  wander.kind = cloth::MotionPath::Kind::Wander;
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, wander, kMotion),
            (std::vector<std::string>{"type", "amplitude", "period", "seed"}));
  cloth::MotionPath circle;
  circle.kind = cloth::MotionPath::Kind::Circle;
  EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, circle, kMotion),
            (std::vector<std::string>{"type", "amplitude", "period", "axis_u", "axis_v"}));
}

// The Static drape section shows the multigrid settings for the multigrid methods, the
// relaxation settings for relaxation and multigrid, and no stop rule for the geometric model.
TEST_F(PanelContext, DrapeWidgetsAreTheDeclaredOnesOfTheMethod) {
  for (const char* method : cloth::kDrapeMethodNames) {
    cloth::DrapeSettings settings;
    settings.method = method;
    EXPECT_EQ(drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, settings, kDrape),
              declared_keys(ModelType::Springs, cloth::IntegratorType::Verlet, settings, kDrape))
        << method;
  }
  const auto shown = [](const char* method) {
    cloth::DrapeSettings settings;
    settings.method = method;
    return drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, settings, kDrape);
  };
  EXPECT_EQ(shown("geometric"), std::vector<std::string>{"method"});
  EXPECT_EQ(shown("newton"), (std::vector<std::string>{"method", "force_tolerance", "max_iterations"}));
  EXPECT_EQ(shown("relax-jacobi"),
            (std::vector<std::string>{"method", "force_tolerance", "max_iterations", "perturbation_deg", "seed"}));
  const auto v_cycle = shown("multigrid-v"), w_cycle = shown("multigrid-w");
  EXPECT_EQ(std::count(v_cycle.begin(), v_cycle.end(), "k1"), 1);
  EXPECT_EQ(std::count(v_cycle.begin(), v_cycle.end(), "perturbation_deg"), 1) << "its smoother's";
  EXPECT_EQ(std::count(v_cycle.begin(), v_cycle.end(), "k3"), 0) << "W cycles only";
  EXPECT_EQ(std::count(w_cycle.begin(), w_cycle.end(), "k3"), 1);
}

// The Cloth section: the grid's four keys; a pin's or slide's one selector key of four (the one
// its file gives), a pin's solid only when it follows one, a slide's point and its line's
// direction or its plane's normal.
TEST_F(PanelContext, ClothLayoutWidgetsAreTheDeclaredOnes) {
  const auto drawn = [](auto settings, auto visit) {
    return drawn_keys(ModelType::Springs, cloth::IntegratorType::Verlet, settings, visit);
  };
  const auto declared = [](auto settings, auto visit) {
    return declared_keys(ModelType::Springs, cloth::IntegratorType::Verlet, settings, visit);
  };
  EXPECT_EQ(drawn(cloth::GridSpec{}, kGrid), declared(cloth::GridSpec{}, kGrid));
  EXPECT_EQ(drawn(cloth::GridSpec{}, kGrid), (std::vector<std::string>{"size", "resolution", "plane", "center"}));
  const std::pair<cloth::VertexSelector::Kind, const char*> kinds[] = {
      {cloth::VertexSelector::Kind::Corner, "corner"},
      {cloth::VertexSelector::Kind::Edge, "edge"},
      {cloth::VertexSelector::Kind::Column, "column"},
      {cloth::VertexSelector::Kind::Row, "row"},
      {cloth::VertexSelector::Kind::Vertex, "vertex"}};
  for (const auto& [kind, key] : kinds) {
    cloth::SlideSpec slide;  // a slide's own kind (line) must not hide its selector's
    static_cast<cloth::VertexSelector&>(slide).kind = kind;
    EXPECT_EQ(drawn(slide, kSelector), declared(slide, kSelector)) << key;
    EXPECT_EQ(drawn(slide, kSelector), std::vector<std::string>{key});
  }
  cloth::PinSpec pin;
  EXPECT_TRUE(drawn(pin, kPin).empty());
  pin.collider = 1;
  EXPECT_EQ(drawn(pin, kPin), std::vector<std::string>{"collider"});
  cloth::SlideSpec line;
  EXPECT_EQ(drawn(line, kSlide), declared(line, kSlide));
  EXPECT_EQ(drawn(line, kSlide), (std::vector<std::string>{"point", "direction"}));
  cloth::SlideSpec plane;
  plane.kind = cloth::SlideConstraint::Kind::Plane;
  plane.point = cloth::Vec3(0, 1, 0);
  EXPECT_EQ(drawn(plane, kSlide), (std::vector<std::string>{"point", "normal"}));
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
  const cloth::Collider solid;
  const cloth::MotionPath path;
  const cloth::DrapeSettings drape;
  cloth::visit_collider(check, solid);
  for (const cloth::Shape& shape : every_shape()) {
    std::visit([&](const auto& s) { cloth::visit_shape(check, s); }, shape);
    std::visit([](const auto& s) { EXPECT_NO_THROW(cloth::visit_shape(cloth::RangeCheck("colliders.0"), s)); }, shape);
  }
  cloth::visit_motion(check, path);
  cloth::visit_drape(check, drape);
  const cloth::GridSpec grid;
  const cloth::PinSpec pin;
  const cloth::SlideSpec slide;
  cloth::visit_grid(check, grid);
  cloth::visit_selector(check, pin);
  cloth::visit_pin(check, pin);
  cloth::visit_slide(check, slide);
  EXPECT_NO_THROW(cloth::visit_grid(cloth::RangeCheck("cloth.mesh.grid"), grid));
  EXPECT_NO_THROW(cloth::visit_selector(cloth::RangeCheck("cloth.pins.0"), pin));
  EXPECT_NO_THROW(cloth::visit_pin(cloth::RangeCheck("cloth.pins.0"), pin));
  EXPECT_NO_THROW(cloth::visit_slide(cloth::RangeCheck("cloth.slides.0.line"), slide));
  EXPECT_NO_THROW(cloth::visit_collider(cloth::RangeCheck("colliders.0"), solid));
  EXPECT_NO_THROW(cloth::visit_motion(cloth::RangeCheck("colliders.0.motion"), path));
  EXPECT_NO_THROW(cloth::visit_drape(cloth::RangeCheck("drape"), drape));
  EXPECT_NO_THROW(cloth::visit_material(cloth::RangeCheck("cloth.material"), material));
  EXPECT_NO_THROW(cloth::validate_solver(solver));
  EXPECT_NO_THROW(cloth::validate_external_forces(forces));
}

}  // namespace
