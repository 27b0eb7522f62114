#pragma once
// Where the time of a step goes, split like Table 1 of Baraff & Witkin 1998 (section 8):
// building forces and Jacobians, solving (or updating) the state, and collision handling.
// Wall-clock times are reported for people (stats, live plots, benchmarks); tests never assert them.
#include <chrono>

namespace cloth {

struct StepTimings {
  double assembly_ms = 0;   ///< forces (and, implicit, Jacobians and the system matrix), ms
  double solve_ms = 0;      ///< linear solve / state update / constraint projection, ms
  double collision_ms = 0;  ///< contact detection and response, ms

  double total_ms() const { return assembly_ms + solve_ms + collision_ms; }
  StepTimings& operator+=(const StepTimings& o) {
    assembly_ms += o.assembly_ms;
    solve_ms += o.solve_ms;
    collision_ms += o.collision_ms;
    return *this;
  }
};

/// Adds the wall time between construction and destruction to `into`, ms.
class ScopedTimer {
 public:
  explicit ScopedTimer(double& into) : into_(into), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    into_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double& into_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cloth
