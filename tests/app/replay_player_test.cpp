// ReplayPlayer: the timeline's moves over a real run's replay buffer (one frame per 1/60 s):
// showing a moment clamps to what is held, Left / Right walk frame by frame, playing moves
// speed x real time and stops at the newest frame, Live leaves.
#include <gtest/gtest.h>

#include "mesh/mesh.hpp"
#include "run/replay_player.hpp"
#include "simulation/simulation.hpp"

namespace app {
namespace {

/// One second of a small falling cloth at 600 steps per second: 60 frames, 1/60 s apart.
cloth::ReplayBuffer one_second_of_a_run() {
  cloth::GridSpec spec;
  spec.nx = spec.ny = 4;
  cloth::SolverSettings solver;
  solver.integrator = cloth::IntegratorType::SymplecticEuler;
  solver.dt = 1.0 / 600;
  cloth::Simulation sim(cloth::build_model(cloth::make_grid(spec), cloth::SpringMaterial{}), {}, {}, solver,
                        cloth::Vec3(0, -9.81, 0));
  cloth::ReplayBuffer buffer;
  for (int step = 0; step < 600; ++step) {
    sim.step();
    buffer.record(sim);
  }
  return buffer;
}

TEST(ReplayPlayer, ShowingAMomentClampsToWhatIsHeldAndHoldsStill) {
  const cloth::ReplayBuffer buffer = one_second_of_a_run();
  ASSERT_EQ(buffer.size(), 60);
  ReplayPlayer player;
  EXPECT_FALSE(player.active());
  player.show(cloth::ReplayBuffer(), 0.5);
  EXPECT_FALSE(player.active()) << "nothing to show";

  player.show(buffer, -3);
  EXPECT_TRUE(player.active());
  EXPECT_FALSE(player.playing());
  EXPECT_EQ(player.time(), buffer.oldest_time());
  player.show(buffer, 1e6);
  EXPECT_EQ(player.time(), buffer.newest_time());
  EXPECT_EQ(player.advance(buffer, 1.0), 0.0) << "a still replay does not move";

  player.leave();
  EXPECT_FALSE(player.active());
}

TEST(ReplayPlayer, LeftAndRightWalkFrameByFrame) {
  const cloth::ReplayBuffer buffer = one_second_of_a_run();
  ReplayPlayer player;
  player.step_frames(buffer, -1);  // from live: the frame before the newest
  EXPECT_EQ(player.time(), buffer.time_of(58));
  player.step_frames(buffer, -3);
  EXPECT_EQ(player.time(), buffer.time_of(55));
  player.step_frames(buffer, +100);
  EXPECT_EQ(player.time(), buffer.newest_time());
  player.step_frames(buffer, -100);
  EXPECT_EQ(player.time(), buffer.oldest_time());

  // Between frames 10 and 11, Left lands on 10 and Right on 11.
  const double between = 0.5 * (buffer.time_of(10) + buffer.time_of(11));
  player.show(buffer, between);
  player.step_frames(buffer, -1);
  EXPECT_EQ(player.time(), buffer.time_of(10));
  player.show(buffer, between);
  player.step_frames(buffer, +1);
  EXPECT_EQ(player.time(), buffer.time_of(11));
}

TEST(ReplayPlayer, PlayingMovesSpeedTimesRealTimeAndStopsAtTheNewestFrame) {
  const cloth::ReplayBuffer buffer = one_second_of_a_run();
  ReplayPlayer player;
  player.speed = 0.25f;
  player.play_from_start(buffer);
  EXPECT_TRUE(player.playing());
  EXPECT_NEAR(player.advance(buffer, 0.4), 0.1, 1e-12);
  EXPECT_NEAR(player.time(), buffer.oldest_time() + 0.1, 1e-12);

  player.toggle_play(buffer);  // pause
  EXPECT_FALSE(player.playing());
  EXPECT_EQ(player.advance(buffer, 0.4), 0.0);
  player.toggle_play(buffer);  // go on from where it paused
  EXPECT_NEAR(player.time(), buffer.oldest_time() + 0.1, 1e-12);

  const double left = buffer.newest_time() - player.time();
  EXPECT_NEAR(player.advance(buffer, 100), left, 1e-12);
  EXPECT_EQ(player.time(), buffer.newest_time());
  EXPECT_FALSE(player.playing()) << "stops at the newest frame";
  EXPECT_TRUE(player.active()) << "and keeps showing it";

  player.toggle_play(buffer);  // at the end: from the start again
  EXPECT_TRUE(player.playing());
  EXPECT_EQ(player.time(), buffer.oldest_time());
}

}  // namespace
}  // namespace app
