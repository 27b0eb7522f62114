// Kinematic constraints of B&W section 5.1 for every integrator: the shower curtain's rings stay
// exactly on their rod while sliding along it, a plane vertex stays in its plane, and a pin on a
// scripted path (the implicit cloth project's waving handkerchief) is exactly where its path says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "engine/support/model_names.hpp"
#include "io/scene.hpp"
#include "simulation/simulation.hpp"

namespace cloth {
namespace {

class Kinematic : public testing::TestWithParam<cloth::IntegratorType> {
 protected:
  SolverSettings solver() const {
    SolverSettings s;
    s.integrator = GetParam();
    // The explicit steps need ~100 substeps for this cloth; VBD, an implicit step, is stable at a
    // few. Pins and slides are exact at any count.
    switch (GetParam()) {
      case cloth::IntegratorType::Implicit: s.substeps = 1; break;
      case cloth::IntegratorType::Vbd: s.substeps = 4; break;
      default: s.substeps = 100;
    }
    return s;
  }
};

double distance_to_line(const Vec3& x, const Vec3& point, const Vec3& dir) {
  const Vec3 rel = x - point;
  return (rel - rel.dot(dir) * dir).norm();
}

TEST_P(Kinematic, ShowerCurtainRingsStayOnTheRodAndSlideAlongIt) {
  // A vertical curtain whose top row hangs on a rod along x; wind along +x pushes it, so the
  // rings slide along the rod (and only along it).
  GridSpec spec;
  spec.plane = GridPlane::XY;
  spec.nx = spec.ny = 10;
  spec.center = Vec3(0, 1, 0);
  const RestMesh mesh = make_grid(spec);
  const Vec3 rod_point(0, 1.5, 0), rod_dir(1, 0, 0);
  std::vector<SlideConstraint> rings;
  for (int i = 0; i < spec.nx; ++i) {
    rings.push_back({mesh.grid_index(i, 0), SlideConstraint::Kind::Line, rod_point, rod_dir});  // top row
  }
  Simulation sim(build_model(mesh, SpringMaterial{}), {}, {}, solver(), Vec3(0, -9.81, 0));
  sim.set_kinematic_constraints({}, rings);
  ExternalForces forces = sim.external_forces();
  forces.gravity = Vec3(3.0, -9.81, 0);  // a steady sideways push on every vertex
  sim.set_external_forces(forces);
  const double start_x = sim.state().x[size_t(rings[0].vertex)].x();
  for (int s = 0; s < 30; ++s) {
    ASSERT_FALSE(sim.step().recovered);
    for (const SlideConstraint& r : rings) {
      ASSERT_LT(distance_to_line(sim.state().x[size_t(r.vertex)], rod_point, rod_dir), 1e-12)
          << "ring " << r.vertex << " left the rod at step " << s;
    }
  }
  EXPECT_GT(sim.state().x[size_t(rings[0].vertex)].x() - start_x, 0.1)
      << "the rings should have slid along the rod with the push";
}

TEST_P(Kinematic, PlaneVertexStaysInItsPlane) {
  GridSpec spec;
  spec.nx = spec.ny = 8;
  spec.center = Vec3(0, 1, 0);
  const RestMesh mesh = make_grid(spec);
  const Vec3 normal = Vec3(1, 0, 1).normalized();
  const int v = mesh.grid_index(7, 7);
  Simulation sim(build_model(mesh, SpringMaterial{}), {}, {mesh.grid_index(0, 0)}, solver(),
                 Vec3(0, -9.81, 0));
  sim.set_kinematic_constraints({}, {{v, SlideConstraint::Kind::Plane, mesh.positions[size_t(v)], normal}});
  for (int s = 0; s < 30; ++s) {
    sim.step();
    ASSERT_LT(std::abs((sim.state().x[size_t(v)] - mesh.positions[size_t(v)]).dot(normal)), 1e-12);
  }
  EXPECT_GT((sim.state().x[size_t(v)] - mesh.positions[size_t(v)]).norm(), 0.05) << "it must still fall in the plane";
}

TEST_P(Kinematic, MovingPinFollowsItsPathExactly) {
  GridSpec spec;
  spec.nx = spec.ny = 8;
  spec.center = Vec3(0, 1, 0);
  const RestMesh mesh = make_grid(spec);
  MovingPin pin;
  pin.vertex = mesh.grid_index(7, 7);
  pin.anchor = mesh.positions[size_t(pin.vertex)];
  pin.path.kind = MotionPath::Kind::FigureEight;
  pin.path.amplitude = 0.2;
  pin.path.period = 1.0;
  Simulation sim(build_model(mesh, SpringMaterial{}), {}, {mesh.grid_index(0, 0)}, solver(), Vec3(0, -9.81, 0));
  sim.set_kinematic_constraints({pin}, {});
  EXPECT_TRUE(sim.pins().is_pinned(pin.vertex));
  const int free_neighbour = mesh.grid_index(6, 7);
  double neighbour_travel = 0;
  Vec3 last = sim.state().x[size_t(free_neighbour)];
  for (int s = 0; s < 60; ++s) {
    sim.step();
    ASSERT_LT((sim.state().x[size_t(pin.vertex)] - pin.position(sim.time())).norm(), 1e-12) << "step " << s;
    neighbour_travel += (sim.state().x[size_t(free_neighbour)] - last).norm();
    last = sim.state().x[size_t(free_neighbour)];
  }
  EXPECT_GT(neighbour_travel, 0.3) << "the waving corner drags its neighbour along";
  sim.reset();
  EXPECT_EQ(sim.pins().moving_pins().size(), 1u) << "reset keeps the path";
  sim.set_pinned(pin.vertex, false);
  EXPECT_TRUE(sim.pins().moving_pins().empty()) << "unpinning stops the path";
}

INSTANTIATE_TEST_SUITE_P(EveryIntegrator, Kinematic,
                         testing::Values(cloth::IntegratorType::SymplecticEuler, cloth::IntegratorType::Verlet, cloth::IntegratorType::Rk4, cloth::IntegratorType::Implicit, cloth::IntegratorType::Xpbd, cloth::IntegratorType::Projective, cloth::IntegratorType::Vbd),
                         integrator_test_name);

TEST(MotionPaths, VelocityIsTheDerivativeOfTheOffset) {
  using K = MotionPath::Kind;
  for (K kind : {K::Linear, K::Oscillate, K::Circle, K::FigureEight, K::Wander}) {
    MotionPath p;
    p.kind = kind;
    p.velocity = Vec3(0.3, -0.1, 0.2);
    p.amplitude = 0.25;
    p.period = 1.7;
    p.seed = 42;
    EXPECT_EQ(p.offset(0), Vec3::Zero()) << name_of(kind);
    for (double t : {0.0, 0.3, 1.1, 2.9, 7.45}) {
      const double eps = 1e-6;
      const Vec3 fd = (p.offset(t + eps) - p.offset(t - eps)) / (2 * eps);
      EXPECT_LT((fd - p.velocity_at(t)).norm(), 1e-6) << name_of(kind) << " t=" << t;
    }
  }
}

TEST(MotionPaths, WanderIsSeededAndStaysWithinItsAmplitude) {
  MotionPath a, b;
  a.kind = b.kind = MotionPath::Kind::Wander;
  a.amplitude = b.amplitude = 0.1;
  b.seed = 2;
  double max_offset = 0, max_difference = 0;
  for (double t = 0; t < 50; t += 0.05) {
    max_offset = std::max(max_offset, a.offset(t).cwiseAbs().maxCoeff());
    max_difference = std::max(max_difference, (a.offset(t) - b.offset(t)).norm());
  }
  // Catmull-Rom through knots in [-1, 1]^3 overshoots by at most 25%; minus the start offset.
  EXPECT_LE(max_offset, 0.1 * 2.5);
  EXPECT_GT(max_offset, 0.05) << "it should actually wander";
  EXPECT_GT(max_difference, 0.05) << "another seed is another path";
}

TEST(KinematicScene, ParsesMovingPinsSlidesAndRejectsConflicts) {
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "cloth": {"mesh": {"grid": {"size": [1, 1], "resolution": [6, 6], "plane": "xy"}},
              "pins": [{"corner": "min-min", "motion": {"type": "circle", "amplitude": 0.1, "period": 2}},
                       {"corner": "max-min", "collider": 0}],
              "slides": [{"row": 5, "line": {"point": [0, 0.5, 0], "direction": [1, 0, 0]}}]},
    "colliders": [{"type": "sphere", "center": [0, 0, 0.5], "radius": 0.2,
                   "motion": {"type": "oscillate", "amplitude": 0.2, "period": 3, "axis_u": [0, 1, 0]}}]})");
  std::vector<std::string> warnings;
  const Scene scene = parse_scene(doc, ".", warnings);
  EXPECT_TRUE(warnings.empty());
  const auto sim = make_simulation(scene);
  ASSERT_EQ(sim->pins().moving_pins().size(), 2u);
  EXPECT_EQ(sim->pins().moving_pins()[1].path.kind, MotionPath::Kind::Oscillate) << "attached to the collider";
  EXPECT_EQ(sim->pins().slides().size(), 6u);

  nlohmann::json bad = doc;
  bad["cloth"]["slides"][0]["corner"] = "min-min";  // two selectors
  EXPECT_THROW(parse_scene(bad, ".", warnings), InputError);
  bad = doc;
  bad["cloth"]["slides"][0]["line"]["point"] = {0, 0.7, 0};  // 0.2 m above the bottom row
  EXPECT_THROW(make_simulation(parse_scene(bad, ".", warnings)), InputError);
  bad = doc;
  bad["cloth"]["slides"][0] = {{"corner", "min-min"}, {"plane", {{"normal", {0, 0, 1}}}}};  // on a moving pin
  EXPECT_THROW(make_simulation(parse_scene(bad, ".", warnings)), InputError);
  bad = doc;
  bad["cloth"]["pins"][1]["collider"] = 3;
  EXPECT_THROW(parse_scene(bad, ".", warnings), InputError);
  bad = doc;
  bad["cloth"]["pins"][0]["motion"]["axis_v"] = {2, 0, 0};  // parallel to axis_u
  EXPECT_THROW(parse_scene(bad, ".", warnings), InputError);
  bad = doc;
  bad["cloth"]["pins"][0]["motion"]["type"] = "zigzag";
  EXPECT_THROW(parse_scene(bad, ".", warnings), InputError);
  bad = doc;
  bad["cloth"]["slides"][0]["line"]["direction"] = {0, 0, 0};
  EXPECT_THROW(parse_scene(bad, ".", warnings), InputError);
}

}  // namespace
}  // namespace cloth
