#pragma once
// The headless runner: steps the scene a fixed number of frames, prints progress, writes the
// requested exports / stats / video. Used by tests, benchmarks and machines without a display.
// Side-by-side panes run in lockstep, one frame each per frame, and share the video.
#include <vector>

#include "options.hpp"
#include "run/pane.hpp"

namespace app {

/// Returns the process exit code. Throws cloth::InputError / std::runtime_error on bad input or
/// failed output (main turns them into one `clothsim: error:` line).
int run_headless(const Options& options, const std::vector<PaneScene>& scenes);

}  // namespace app
