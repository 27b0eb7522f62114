#pragma once
// What a simulation reports: one frame's account (FrameReport), and the running totals a stats
// panel, a benchmark or a test reads (RunStatistics).
#include <cstdint>
#include <string>

#include "integrators/integrator.hpp"
#include "integrators/step_timings.hpp"

namespace cloth {

struct FrameReport {
  /// The integrator's work over the frame, discarded attempts included (StepReport::accumulate).
  StepReport integration;
  bool recovered = false;     ///< the step blew up and was rolled back
  bool started_over = false;  ///< the step blew up and the run started over (on_blowup = reset)
  int steps_taken = 0;        ///< accepted integrator steps covering the frame (1 unless adaptive)
  int rejected_steps = 0;     ///< proposed steps discarded (blow-up, or adaptive stretch test)
  double smallest_step = 0;   ///< shortest accepted step in this frame, s
  int torn_edges = 0;         ///< edges broken at the end of this frame (tearing)
  int instabilities = 0;      ///< blow-ups and stopped motions in this frame
  std::string instability;    ///< the last of them, in words; empty when there was none
};

struct RunStatistics {
  std::int64_t steps = 0;           ///< frames stepped since the start or the last reset
  int instabilities = 0;            ///< blow-ups and stopped motions since the start
  std::int64_t rejected_steps = 0;  ///< proposed steps discarded since the start
  std::int64_t solver_iterations = 0;  ///< CG iterations summed over all iterative solves
  std::int64_t solves = 0;             ///< iterative linear solves counted in solver_iterations
  StepTimings total_timings;        ///< wall time of every step so far, split as in B&W Table 1
  FrameReport last_report;
  std::string last_instability;     ///< the latest blow-up or stop, in words

  /// Mean CG iterations per linear solve since the start, or -1 if no solve was made.
  double mean_solver_iterations() const {
    return solves > 0 ? static_cast<double>(solver_iterations) / double(solves) : -1.0;
  }
  /// Adds a frame; its iterations count toward the mean only when it solved iteratively.
  void record(const FrameReport& report, bool iterative_solve) {
    ++steps;
    instabilities += report.instabilities;
    if (!report.instability.empty()) last_instability = report.instability;
    rejected_steps += report.rejected_steps;
    total_timings += report.integration.timings;
    if (iterative_solve) {
      solver_iterations += report.integration.solver_iterations;
      solves += report.integration.substeps;
    }
    last_report = report;
  }
};

}  // namespace cloth
