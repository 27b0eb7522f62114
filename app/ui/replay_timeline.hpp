#pragma once
// The replay's controls, shown while the timeline shows the past (replay_player.hpp): a window
// along the bottom of the picture with the time slider (drag to scrub), play / pause, the replay
// speed and "Live"; and the badge that the picture, its screenshots and videos carry meanwhile.
#include <string>

#include "run/pane_layout.hpp"
#include "run/replay_player.hpp"

namespace app {

/// The controls over the bottom of `picture` (window px), editing `player` on `timeline`.
void replay_timeline_window(ReplayPlayer& player, const cloth::ReplayBuffer& timeline, const PaneRect& picture);

/// "replay 3.20 s, 0.25x" while the player shows the past, else "".
std::string replay_badge(const ReplayPlayer& player);

}  // namespace app
