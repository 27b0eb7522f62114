#include "run/step_history.hpp"

#include <algorithm>

namespace app {

void StepHistory::add(const cloth::FrameReport& report, const cloth::Energies& energies) {
  const float sample[kSeriesCount] = {
      static_cast<float>(report.integration.timings.assembly_ms),
      static_cast<float>(report.integration.timings.solve_ms),
      static_cast<float>(report.integration.timings.collision_ms),
      static_cast<float>(report.integration.solver_iterations),
      static_cast<float>(energies.kinetic),
      static_cast<float>(energies.total()),
      static_cast<float>(report.smallest_step),
      static_cast<float>(report.rejected_steps),
  };
  for (int s = 0; s < kSeriesCount; ++s) values_[s][next_] = sample[s];
  next_ = (next_ + 1) % kCapacity;
  size_ = std::min(size_ + 1, kCapacity);
}

float StepHistory::latest(Series s) const {
  if (size_ == 0) return 0;
  return values_[s][(next_ + kCapacity - 1) % kCapacity];
}

float StepHistory::max(Series s) const {
  if (size_ == 0) return 0;
  return *std::max_element(values_[s].begin(), values_[s].begin() + size_);
}

float StepHistory::min(Series s) const {
  if (size_ == 0) return 0;
  return *std::min_element(values_[s].begin(), values_[s].begin() + size_);
}

}  // namespace app
