// The GL-free runner (run/pane_runner.hpp) on the default scene, with a clock the test sets: the
// steps a pass owes for its wall time, the cap per pass and the drop beyond kMaxLag, slow steps
// going one a pass, pause and single steps, the replay's hold, and the same cloth whether the
// steps run on the worker thread or inline (the browser build's way).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "options.hpp"
#include "run/pane_runner.hpp"
#include "run/paths.hpp"

namespace app {
namespace {

std::vector<Pane> default_panes(const std::vector<std::string>& overrides = {"cloth.mesh.grid.resolution=[8,8]"}) {
  Options options;
  options.scene_path = default_scene_path();
  options.overrides = overrides;
  std::vector<std::string> warnings;
  return make_panes(scenes_to_run(options, warnings));
}

/// A clock that stands still unless the test moves it, or moves by `tick` s at every reading
/// (a machine on which every step is slow).
struct TestClock {
  double now = 0;
  double tick = 0;
  double read() { return now += tick; }
};

class PaneRunnerTest : public ::testing::Test {
 protected:
  TestClock clock;
  PaneRunner runner{default_panes(), [this] { return clock.read(); }};
  double dt() const { return runner.panes().front().sim->solver().dt; }
  int steps_taken() const { return int(runner.panes().front().sim->statistics().steps); }
  /// A first pass of one step: the panes' steps are measured (fast, the clock standing still).
  void measure() { runner.advance(dt(), PassControls{}); }
};

TEST_F(PaneRunnerTest, APassTakesTheWholeStepsItsWallTimeHoldsAndOwesTheRest) {
  measure();
  ASSERT_EQ(steps_taken(), 1);
  ASSERT_FALSE(runner.slow_steps());
  const PassResult pass = runner.advance(3.5 * dt(), PassControls{});
  ASSERT_TRUE(pass.booked);
  EXPECT_EQ(pass.steps.front().owed, 3);
  EXPECT_EQ(steps_taken(), 4);
  EXPECT_NEAR(runner.panes().front().accumulator, 0.5 * dt(), 1e-12);
  EXPECT_EQ(pass.steps.front().reports.size(), 3u);
  EXPECT_EQ(pass.steps.front().energies.size(), 3u);  // the active pane's, for the plots
  EXPECT_EQ(runner.panes().front().replay.size(), 4);  // each step recorded for the replay
}

TEST_F(PaneRunnerTest, StepsBeyondThePassCapStayOwedUpToTheLagAndTheRestAreDropped) {
  measure();
  const int lag_steps = int(PaneRunner::kMaxLag / dt());
  // Within the lag: the cap now, the rest owed, nothing dropped.
  runner.advance(10 * dt(), PassControls{});
  EXPECT_EQ(steps_taken(), 1 + PaneRunner::kMaxStepsPerPass);
  EXPECT_NEAR(runner.panes().front().accumulator, (10 - PaneRunner::kMaxStepsPerPass) * dt(), 1e-9);
  EXPECT_EQ(runner.dropped_steps(), 0);
  EXPECT_FALSE(runner.recently_dropped());
  // Far behind: what is beyond the lag is dropped and counted.
  runner.panes().front().accumulator = 0;
  runner.advance(40 * dt(), PassControls{});
  EXPECT_EQ(runner.dropped_steps(), 40 - PaneRunner::kMaxStepsPerPass - lag_steps);
  EXPECT_NEAR(runner.panes().front().accumulator, lag_steps * dt(), 1e-9);
  EXPECT_TRUE(runner.recently_dropped());
  clock.now += PaneRunner::kBehindShown + 0.1;
  EXPECT_FALSE(runner.recently_dropped());
  runner.forget_counters();
  EXPECT_EQ(runner.dropped_steps(), 0);
}

TEST_F(PaneRunnerTest, SlowStepsGoOneAPassAndTheRestStaysOwed) {
  // Every reading of the clock 0.2 s later: one step's wall time is 0.2 s, so a pass's four
  // would outlast the wait.
  clock.tick = 0.2;
  measure();
  EXPECT_TRUE(runner.slow_steps());
  runner.advance(3 * dt(), PassControls{});
  EXPECT_EQ(steps_taken(), 2);
  EXPECT_NEAR(runner.panes().front().accumulator, 2 * dt(), 1e-12);
  EXPECT_NEAR(runner.progress().last_seconds, 0.2, 1e-12);
  // Fast again: a pass takes all it owes.
  clock.tick = 0;
  runner.advance(0, PassControls{});
  EXPECT_FALSE(runner.slow_steps());
  runner.advance(0, PassControls{});
  EXPECT_EQ(steps_taken(), 4);
}

TEST_F(PaneRunnerTest, PausedNothingIsOwedButAStepRequestTakesOne) {
  measure();
  PassControls paused{.paused = true};
  runner.advance(10 * dt(), paused);
  EXPECT_EQ(steps_taken(), 1);
  EXPECT_EQ(runner.panes().front().accumulator, 0);
  EXPECT_FALSE(runner.behind(1.0, paused));
  EXPECT_LT(runner.realtime_factor(), 0);  // no factor while paused
  paused.step_once = true;
  runner.advance(10 * dt(), paused);
  EXPECT_EQ(steps_taken(), 2);
}

TEST_F(PaneRunnerTest, TimeScaleOwesSimulatedTimeNotWallTime) {
  measure();
  runner.advance(4 * dt(), PassControls{.time_scale = 0.5});
  EXPECT_EQ(steps_taken(), 3);
}

TEST_F(PaneRunnerTest, HeldForTheReplayNothingIsOwed) {
  measure();
  runner.panes().front().accumulator = 0.9 * dt();
  runner.hold();
  EXPECT_EQ(runner.panes().front().accumulator, 0);
  EXPECT_FALSE(runner.behind(0.5 * dt(), PassControls{}));
  EXPECT_TRUE(runner.behind(dt(), PassControls{}));
}

TEST_F(PaneRunnerTest, TheRealtimeFactorIsSimulatedOverWallTime) {
  measure();
  for (int i = 0; i < 60; ++i) runner.advance(dt(), PassControls{.time_scale = 0.5});
  // 60 passes of dt at half speed: 30 steps over 60 dt of wall time, measured once 0.5 s passed.
  EXPECT_NEAR(runner.realtime_factor(), 0.5, 0.05);
}

TEST(PaneRunner, InlineStepsGiveTheWorkersCloth) {
  double now = 0;
  PaneRunner threaded(default_panes(), [&] { return now; }, StepWorker::Threading::Worker);
  PaneRunner inline_runner(default_panes(), [&] { return now; }, StepWorker::Threading::Inline);
  for (PaneRunner* r : {&threaded, &inline_runner}) {
    const double dt = r->panes().front().sim->solver().dt;
    for (int pass = 0; pass < 20; ++pass) {
      r->advance(1.7 * dt, PassControls{});
      r->finish();
    }
  }
  const cloth::ClothState& a = threaded.panes().front().sim->state();
  const cloth::ClothState& b = inline_runner.panes().front().sim->state();
  EXPECT_GT(threaded.panes().front().sim->statistics().steps, 20);
  EXPECT_EQ(threaded.panes().front().sim->statistics().steps, inline_runner.panes().front().sim->statistics().steps);
  ASSERT_EQ(a.x.size(), b.x.size());
  for (size_t i = 0; i < a.x.size(); ++i) EXPECT_EQ(a.x[i], b.x[i]) << "vertex " << i;
}

}  // namespace
}  // namespace app
