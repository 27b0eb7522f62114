#pragma once
// The blow-up guard's substep count while it recovers (solver.on_blowup = recover;
// docs/integrators.md, "Blow-up guard"): raised when a step diverges, halved back toward the user's
// count after a run of stable frames, never below the count the stability bound asks for, and with
// the wait doubled each time a halved count diverges again (exponential backoff).
#include <algorithm>

namespace cloth {

class SubstepRecovery {
 public:
  /// Stable frames after which a raised count is halved; the wait doubles, up to kMaxWait, each
  /// time a halved count diverges again.
  static constexpr int kWait = 60;
  static constexpr int kMaxWait = 60 * 32;

  /// Whether it runs more substeps than planned.
  bool active() const { return raised_ > 0; }
  /// The count it runs (0 when not active).
  int raised() const { return raised_; }
  int wait() const { return wait_; }

  /// A step diverged while running `running` substeps: the next try runs twice as many, at least
  /// `floor` (the stability bound's count; 0 when it tells nothing), at most `cap`.
  int raise(int running, int floor, int cap) {
    if (lowered_) wait_ = std::min(2 * wait_, kMaxWait);  // a halved count failed: wait longer
    lowered_ = false;
    stable_frames_ = 0;
    floor_ = std::max(floor_, std::min(floor, cap));
    raised_ = std::min(std::max(2 * running, floor_), cap);
    return raised_;
  }
  /// A frame that did not diverge, with `planned` the count without recovery: after wait()
  /// such frames the count is halved (not below the floor); reaching `planned` ends the recovery.
  void stable_frame(int planned) {
    if (raised_ == 0 || ++stable_frames_ < wait_) return;
    stable_frames_ = 0;
    const int lower = std::max(raised_ / 2, floor_);
    if (lower >= raised_) return;  // held at the floor: the user's count is unstable by the bound
    raised_ = lower;
    lowered_ = true;
    if (raised_ <= planned) end();
  }
  /// Back to the planned count, with a fresh wait (a settings change, a reset).
  void end() { *this = SubstepRecovery{}; }

 private:
  int raised_ = 0;         ///< the count while active (0: not)
  int floor_ = 0;          ///< the stability bound's count at the blow-ups so far
  int stable_frames_ = 0;  ///< since the last blow-up or halving
  int wait_ = kWait;
  bool lowered_ = false;   ///< halved since the last blow-up
};

}  // namespace cloth
