#pragma once
// The replay timeline: live, or showing a past moment of the run from the panes' replay buffers
// (engine/simulation/replay_buffer.hpp), still or playing at a chosen speed. While it shows the
// past, the simulations wait; going back to live resumes them where they were. Left and Right
// step a frame, Home plays from the oldest frame, End goes back to live, and the panel's Replay
// section scrubs.
#include "simulation/replay_buffer.hpp"

namespace app {

class ReplayPlayer {
 public:
  static constexpr float kDefaultSpeed = 0.25f;  ///< replayed seconds per real second: slow motion

  bool active() const { return active_; }  ///< showing the past
  bool playing() const { return active_ && playing_; }
  double time() const { return time_; }  ///< the moment shown, s of simulated time

  float speed = kDefaultSpeed;  ///< replayed seconds per real second (the panel edits it)

  /// Shows the moment `t` of `buffer` (clamped to what it holds), still. No effect on an empty buffer.
  void show(const cloth::ReplayBuffer& buffer, double t);
  /// Plays from the oldest frame.
  void play_from_start(const cloth::ReplayBuffer& buffer);
  /// Plays or pauses; playing at the newest frame starts again from the oldest.
  void toggle_play(const cloth::ReplayBuffer& buffer);
  /// Shows the frame `frames` away from the one shown (from the newest when live), still.
  void step_frames(const cloth::ReplayBuffer& buffer, int frames);
  /// Back to the live simulation.
  void leave() { active_ = playing_ = false; }

  /// Moves a playing replay on by `seconds` of real time (times speed), stopping at the newest
  /// frame. Returns the simulated seconds it moved.
  double advance(const cloth::ReplayBuffer& buffer, double seconds);

 private:
  bool active_ = false;
  bool playing_ = false;
  double time_ = 0;
};

}  // namespace app
