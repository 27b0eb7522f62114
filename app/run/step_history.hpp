#pragma once
// The numbers of the last few hundred steps, kept for the live plots of the Stats panel: where the
// time of a step goes (assembly / solve / collision, as B&W Table 1 splits it), CG iterations,
// energy, the adaptive step size and rejected steps. A ring buffer per series, in the layout
// ImGui::PlotLines reads (float values, an offset to the oldest).
#include <array>

#include "forces/forces.hpp"
#include "simulation/simulation.hpp"

namespace app {

class StepHistory {
 public:
  static constexpr int kCapacity = 300;  ///< steps kept: 5 s at the default 60 steps/s

  enum Series {
    AssemblyMs,     ///< force / Jacobian assembly per step, ms
    SolveMs,        ///< solve or update per step, ms
    CollisionMs,    ///< collision handling per step, ms
    CgIterations,   ///< modified-PCG iterations per step (0 for explicit integrators)
    KineticEnergy,  ///< J
    TotalEnergy,    ///< kinetic + gravitational + elastic, J
    StepSize,       ///< shortest accepted step of the frame, s
    RejectedSteps,  ///< proposed steps discarded in the frame
    kSeriesCount
  };

  void add(const cloth::FrameReport& report, const cloth::Energies& energies);
  void clear() { size_ = next_ = 0; }

  int size() const { return size_; }
  /// Index of the oldest sample in data() (ImGui::PlotLines' values_offset).
  int offset() const { return size_ < kCapacity ? 0 : next_; }
  const float* data(Series s) const { return values_[s].data(); }
  /// The most recent sample, or 0 when empty.
  float latest(Series s) const;
  /// Largest sample held, or 0 when empty.
  float max(Series s) const;
  /// Smallest sample held, or 0 when empty.
  float min(Series s) const;

 private:
  std::array<std::array<float, kCapacity>, kSeriesCount> values_{};
  int size_ = 0;
  int next_ = 0;  ///< where the next sample goes
};

}  // namespace app
