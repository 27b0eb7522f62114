// The replay timeline's moves (replay_player.hpp).
#include "run/replay_player.hpp"

#include <algorithm>

namespace app {

void ReplayPlayer::show(const cloth::ReplayBuffer& buffer, double t) {
  if (buffer.empty()) return;
  active_ = true;
  playing_ = false;
  time_ = std::clamp(t, buffer.oldest_time(), buffer.newest_time());
}

void ReplayPlayer::play_from_start(const cloth::ReplayBuffer& buffer) {
  show(buffer, buffer.oldest_time());
  playing_ = active_;
}

void ReplayPlayer::toggle_play(const cloth::ReplayBuffer& buffer) {
  if (playing()) {
    playing_ = false;
    return;
  }
  if (!active_ || time_ >= buffer.newest_time()) {
    play_from_start(buffer);
    return;
  }
  playing_ = true;
}

void ReplayPlayer::step_frames(const cloth::ReplayBuffer& buffer, int frames) {
  if (buffer.empty()) return;
  const int from = active_ ? buffer.index_at(time_) : buffer.size() - 1;
  // Between two frames (a blended moment), a step back lands on the earlier one.
  const bool between = active_ && buffer.time_of(from) < time_;
  const int to = std::clamp(from + frames + (between && frames < 0 ? 1 : 0), 0, buffer.size() - 1);
  show(buffer, buffer.time_of(to));
}

double ReplayPlayer::advance(const cloth::ReplayBuffer& buffer, double seconds) {
  if (!playing() || buffer.empty()) return 0;
  const double before = time_;
  time_ = std::min(time_ + seconds * speed, buffer.newest_time());
  if (time_ >= buffer.newest_time()) playing_ = false;
  return time_ - before;
}

}  // namespace app
