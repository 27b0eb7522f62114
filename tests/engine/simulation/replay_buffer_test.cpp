// ReplayBuffer and the SimulationView of a recorded frame: the frames held (one per interval, the
// last seconds, within the memory budget), each frame the run's state at its time, blends between
// frames, starting over on a reset, and a view of an early frame of a torn cloth showing the cloth
// before the tear.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "core/error.hpp"
#include "forces/forces.hpp"
#include "mesh/mesh.hpp"
#include "simulation/replay_buffer.hpp"
#include "simulation/simulation.hpp"
#include "simulation/simulation_view.hpp"
#include "engine/support/test_scenes.hpp"

namespace cloth {
namespace {

const Vec3 kGravity(0, -9.81, 0);

/// The largest difference of a coordinate of `a` from `b`'s, relative to b's (at least 1).
double max_relative_difference(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(a[i][c] - b[i][c]) / std::max(1.0, std::abs(b[i][c])));
  return d;
}

// Single precision rounds to half a unit in the last place: 6e-8 relative.
constexpr double kSinglePrecision = 6e-8;

TEST(ReplayBuffer, BadLengthIntervalOrBudgetIsAOneLineError) {
  EXPECT_THROW(ReplayBuffer(0.0), InputError);
  EXPECT_THROW(ReplayBuffer(NAN), InputError);
  EXPECT_THROW(ReplayBuffer(30.0, -1.0), InputError);
  EXPECT_THROW(ReplayBuffer(30.0, 1.0 / 60, 0), InputError);
}

// Two seconds of a run at 600 steps per second into a one-second buffer: 61 frames, 1/60 s apart,
// the newest within an interval of the run's last step and the oldest one second before it.
TEST(ReplayBuffer, KeepsOneFramePerIntervalForTheLastSeconds) {
  Simulation sim = falling_cloth(6);
  ReplayBuffer replay(1.0, 1.0 / 60);
  for (int step = 0; step < 1200; ++step) {
    sim.step();
    replay.record(sim);
  }
  EXPECT_EQ(replay.size(), 61);
  EXPECT_LE(replay.newest_time(), sim.time());
  EXPECT_GT(replay.newest_time(), sim.time() - 1.0 / 60);
  EXPECT_NEAR(replay.seconds_held(), 1.0, 1e-9);
  for (int i = 0; i + 1 < replay.size(); ++i)
    EXPECT_NEAR(replay.time_of(i + 1) - replay.time_of(i), 1.0 / 60, 1e-9) << "frame " << i;
  EXPECT_EQ(replay.index_at(replay.time_of(7) + 0.001), 7);
  EXPECT_EQ(replay.index_at(-5), 0);
}

// Each frame holds the state, pins, grab and solid positions the run had at its time, to single
// precision; a load gives a new version each time.
TEST(ReplayBuffer, AFrameIsTheRunAtItsTime) {
  const SphereShape sphere{Vec3(0, -2, 0), 0.25};
  Simulation sim = falling_cloth(6, {}, {Collider(sphere, 0.005)});
  ReplayBuffer replay;
  std::map<double, ClothState> states;  // the run's state at each time a frame was kept
  for (int step = 0; step < 300; ++step) {
    if (step == 100) sim.set_pinned(3, true);
    if (step == 150) sim.mouse().grab(5, Vec3(0.1, 2, 0));
    if (step == 200) sim.colliders().set_offset(0, Vec3(0, 0, 3));
    sim.step();
    const int before = replay.size();
    replay.record(sim);
    if (replay.size() > before) states[sim.time()] = sim.state();
  }
  ASSERT_EQ(replay.size(), int(states.size()));
  ReplayFrame frame;
  std::uint64_t last_version = 0;
  for (int i = 0; i < replay.size(); ++i) {
    const double t = replay.time_of(i);
    replay.load(t, frame);
    EXPECT_EQ(frame.time, t);
    const ClothState& then = states.at(t);
    EXPECT_LE(max_relative_difference(frame.state.x, then.x), kSinglePrecision) << "t = " << t;
    EXPECT_LE(max_relative_difference(frame.state.v, then.v), kSinglePrecision) << "t = " << t;
    EXPECT_EQ(frame.pinned == std::vector<int>{3}, t > 100.5 / 600) << "t = " << t;
    EXPECT_EQ(frame.grab.has_value(), t > 150.5 / 600) << "t = " << t;
    EXPECT_EQ(frame.collider_displacements.at(0), t > 200.5 / 600 ? Vec3(0, 0, 3) : Vec3::Zero());
    EXPECT_GT(frame.version, last_version);
    last_version = frame.version;
  }
}

// Halfway between two frames the state and the solids are the two frames' mean; outside the
// frames held, the first or the last.
TEST(ReplayBuffer, BetweenTwoFramesTheRunIsBlended) {
  const SphereShape sphere{Vec3(0, -2, 0), 0.25};
  Simulation sim = falling_cloth(6, {}, {Collider(sphere, 0.005)});
  ReplayBuffer replay;
  for (int step = 0; step < 60; ++step) {
    if (step == 25) sim.colliders().set_offset(0, Vec3(0, 0, 3));  // between frames 2 and 3
    sim.step();
    replay.record(sim);
  }
  ReplayFrame a, b, mid;
  replay.load(replay.time_of(2), a);
  replay.load(replay.time_of(3), b);
  replay.load(0.5 * (replay.time_of(2) + replay.time_of(3)), mid);
  for (size_t i = 0; i < a.state.x.size(); ++i) {
    EXPECT_LT((mid.state.x[i] - 0.5 * (a.state.x[i] + b.state.x[i])).norm(), 1e-12);
    EXPECT_LT((mid.state.v[i] - 0.5 * (a.state.v[i] + b.state.v[i])).norm(), 1e-12);
  }
  EXPECT_LT((mid.collider_displacements[0] - Vec3(0, 0, 1.5)).norm(), 1e-12);

  ReplayFrame last, beyond;
  replay.load(replay.newest_time(), last);
  replay.load(replay.newest_time() + 1, beyond);
  EXPECT_EQ(beyond.state.x, last.state.x);
  EXPECT_EQ(beyond.time, replay.newest_time());
}

// A budget of 1 MiB for a 32 x 32 cloth (24 bytes of state per vertex and frame) holds about 42
// frames, not 30 s; what it holds fits the budget.
TEST(ReplayBuffer, ABudgetKeepsFewerSecondsOfALargerCloth) {
  const std::size_t budget = std::size_t(1) << 20;
  Simulation sim = falling_cloth(32);
  ReplayBuffer replay(30.0, 1.0 / 60, budget);
  for (int step = 0; step < 450; ++step) {  // 45 frames' worth
    sim.step();
    replay.record(sim);
  }
  const std::size_t state_bytes = 24 * std::size_t(sim.model().vertex_count());
  EXPECT_LE(replay.size() * state_bytes, budget);
  EXPECT_GT((replay.size() + 1) * (state_bytes + 256), budget) << "the budget is used";
  EXPECT_NEAR(replay.seconds_held(), (replay.size() - 1) / 60.0, 1e-9);
  EXPECT_LT(replay.seconds_held(), 1.0);
}

// A reset sends time back: the buffer starts over. So does a solid added to the scene.
TEST(ReplayBuffer, AResetOrANewSolidStartsOver) {
  Simulation sim = falling_cloth(6);
  ReplayBuffer replay;
  for (int step = 0; step < 100; ++step) {
    sim.step();
    replay.record(sim);
  }
  EXPECT_EQ(replay.size(), 10);
  sim.reset();
  sim.step();
  replay.record(sim);
  EXPECT_EQ(replay.size(), 1);
  EXPECT_DOUBLE_EQ(replay.oldest_time(), sim.time());

  for (int step = 0; step < 20; ++step) {
    sim.step();
    replay.record(sim);
  }
  EXPECT_EQ(replay.size(), 3);
  sim.colliders().add(Collider(SphereShape{Vec3(0, -2, 0), 0.25}, 0.005));
  sim.step();
  replay.record(sim);
  EXPECT_EQ(replay.size(), 1);
}

// A square pulled apart at two corners tears; the view of a frame from before the tear shows the
// intact mesh, its positions and its strain, while the simulation has moved on to the torn one.
TEST(SimulationView, OfAReplayFrameShowsTheRunAsItWasThen) {
  GridSpec spec;
  spec.nx = spec.ny = 12;
  spec.width = spec.height = 0.5;
  spec.plane = GridPlane::XY;
  spec.center = Vec3(0, 1.5, 0);
  const RestMesh mesh = make_grid(spec);
  SpringMaterial material;
  material.stretch = 200;
  SolverSettings solver;
  solver.integrator = IntegratorType::Implicit;
  solver.substeps = 2;
  Simulation sim(build_model(mesh, material, ModelType::BaraffWitkin), {}, {}, solver, kGravity);
  pull_top_corners_apart(sim, mesh);
  sim.set_tearing({true, 0.3});

  ReplayBuffer replay;
  replay.record(sim);
  const ClothState start = sim.state();
  for (int frame = 0; frame < 150; ++frame) {
    sim.step();
    replay.record(sim);
  }
  ASSERT_GT(sim.model().vertex_count(), 144) << "the cloth tore";

  ReplayFrame first;
  replay.load(replay.oldest_time(), first);
  const SimulationView then(sim, first), now(sim);
  EXPECT_TRUE(then.replaying());
  EXPECT_FALSE(now.replaying());
  EXPECT_EQ(then.mesh().vertex_count(), 144);
  EXPECT_NE(then.topology_version(), now.topology_version());
  EXPECT_NE(then.state_version(), now.state_version());
  EXPECT_EQ(then.time(), 0.0);
  EXPECT_LE(max_relative_difference(then.positions(), start.x), kSinglePrecision);
  const int pulled_corner = mesh.grid_index(0, 0);
  EXPECT_TRUE(then.is_pinned(pulled_corner));
  EXPECT_FALSE(then.is_pinned(pulled_corner + 1));
  EXPECT_EQ(then.vertex_strain(), vertex_edge_strain(*first.model, first.state));
  // At rest length, give or take single precision: 1e-7 m at 1.5 m over 4.5 cm edges.
  EXPECT_LT(then.max_edge_strain(), 1e-5) << "the cloth starts at rest length";
  EXPECT_GT(now.max_edge_strain(), then.max_edge_strain());

  ReplayFrame last;
  replay.load(replay.newest_time(), last);
  const SimulationView latest(sim, last);
  EXPECT_EQ(latest.mesh().vertex_count(), sim.model().vertex_count());
  EXPECT_NE(latest.state_version(), then.state_version());
}

}  // namespace
}  // namespace cloth
