#pragma once
// Which passes of the app's loop draw. The simulation keeps real time by skipping draws, not by
// slowing down: a pass whose fixed steps left the simulation still owing a step (drawing now
// would put it further behind the wall clock) goes straight on to the next steps, but the window
// is drawn at least every kMaxDrawGap seconds so the picture and the panel keep answering.
// GL-free, so the tests can drive it.
#include <limits>

namespace app {

class DrawPacer {
 public:
  /// Longest wall time between two draws, s: 4 draws a second when the machine cannot keep up.
  static constexpr double kMaxDrawGap = 0.25;

  /// Decides the pass at wall time `now` (s): draw unless `behind` (the simulation owes at least
  /// one fixed step after this pass's steps) and the last draw was less than kMaxDrawGap ago.
  /// A draw restarts the gap; a skip is counted.
  bool draw_now(double now, bool behind);

  /// Passes that skipped their draw so far.
  long long skipped() const { return skipped_; }

 private:
  double last_draw_ = -std::numeric_limits<double>::infinity();
  long long skipped_ = 0;
};

}  // namespace app
