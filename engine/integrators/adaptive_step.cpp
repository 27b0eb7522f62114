#include "integrators/adaptive_step.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"

namespace cloth {

double StepSizeController::fraction() const { return std::ldexp(1.0, -level_); }

void StepSizeController::accept() {
  // A grown step holds once it has survived as many steps as were waited for it; then the next
  // growth may come after the shortest wait again.
  if (probation_ > 0 && --probation_ == 0) wait_ = kFirstWait;
  if (level_ == 0) return;
  if (++successes_ >= wait_) {
    --level_;
    successes_ = 0;
    probation_ = wait_;
  }
}

bool StepSizeController::reject() {
  if (level_ >= kMaxLevel) return false;
  // "If the simulator fails at the larger step size, it reduces the size again, and waits for a
  // longer period of time before retrying." A failure while the grown step is on probation counts
  // as that: unstable explicit steps may survive a few steps before the stretch test sees them.
  if (probation_ > 0) wait_ = std::min(2 * wait_, kMaxWait);
  probation_ = 0;
  ++level_;
  successes_ = 0;
  return true;
}

double max_stretch_change(const std::vector<StretchShearTriangle>& triangles,
                          const std::vector<Vec3>& before, const std::vector<Vec3>& after, int threads) {
  return parallel_max(static_cast<int>(triangles.size()), threads, 0.0, [&](int k) {
    const StretchShearTriangle& t = triangles[size_t(k)];
    const std::array<Vec3, 2> w0 = stretch_vectors(t, before);
    const std::array<Vec3, 2> w1 = stretch_vectors(t, after);
    const double change_u = std::abs(w1[0].norm() - w0[0].norm());
    const double change_v = std::abs(w1[1].norm() - w0[1].norm());
    // NaN or Inf positions must read as a drastic change, never as none.
    if (!std::isfinite(change_u) || !std::isfinite(change_v)) return double(INFINITY);
    return std::max(change_u, change_v);
  });
}

}  // namespace cloth
