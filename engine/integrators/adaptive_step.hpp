#pragma once
// Adaptive step-size control of Baraff-Witkin (Baraff & Witkin 1998, section 7).
//
// "After each implicit step, we treat the resulting dx as a proposed change in the cloth's state,
// and examine the stretch terms (section 4.2) for each triangle ... If any triangle undergoes a
// drastic change in its stretch (in either the u or v direction) we discard the proposed state,
// reduce the step size, and try again." After two successes at a reduced size the step grows
// again; a failed growth doubles the wait before the next attempt, up to one attempt every 40
// steps. A grown step counts as failed if it is rejected before it has survived as many steps as
// were waited for it (an unstable explicit step may pass the stretch test a few times before its
// oscillation grows large); once it has, the wait drops back to two. The step never exceeds the user's maximum (the frame step dt), and sizes are dt / 2^level
// so that whole frames are covered exactly.
#include <array>
#include <vector>

#include "elements/bw_conditions.hpp"
#include "core/vec.hpp"

namespace cloth {

class StepSizeController {
 public:
  static constexpr int kMaxLevel = 12;     ///< smallest step dt / 4096
  static constexpr int kFirstWait = 2;     ///< "after two successes ... tries to increase"
  static constexpr int kMaxWait = 40;      ///< "at its limit ... every 40 steps"

  /// Current step as a fraction of the maximum step: 2^-level.
  double fraction() const;
  int level() const { return level_; }
  /// Successes needed at this size before the next growth attempt.
  int wait() const { return wait_; }

  /// The proposed step was kept.
  void accept();
  /// The proposed step was discarded: halve the step. Returns false (and changes nothing) when
  /// the step is already the smallest allowed.
  bool reject();
  /// Back to the maximum step (new scene, reset, or a new maximum step set by the user).
  void restart() { *this = StepSizeController{}; }

 private:
  int level_ = 0;
  int successes_ = 0;
  int wait_ = kFirstWait;
  int probation_ = 0;  ///< accepted steps still needed before the last growth counts as held
};

/// Largest change of the stretch |w_u| or |w_v| (eq. 9, dimensionless) over `triangles` between
/// positions `before` and `after`: the section 7 test of a proposed step. On up to `threads`
/// threads (the same result for any count); infinite when a position is not finite.
double max_stretch_change(const std::vector<StretchShearTriangle>& triangles,
                          const std::vector<Vec3>& before, const std::vector<Vec3>& after, int threads = 1);

}  // namespace cloth
