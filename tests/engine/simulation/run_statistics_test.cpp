// RunStatistics: the running totals are the sums of the frames' reports.
#include <gtest/gtest.h>

#include "simulation/run_statistics.hpp"

namespace cloth {
namespace {

FrameReport frame(int iterations, int substeps, int rejected, std::string instability) {
  FrameReport r;
  r.integration.solver_iterations = iterations;
  r.integration.substeps = substeps;
  r.integration.timings.solve_ms = 2.0;
  r.rejected_steps = rejected;
  r.instabilities = instability.empty() ? 0 : 1;
  r.instability = std::move(instability);
  return r;
}

TEST(RunStatistics, SumsFramesAndKeepsTheLatestInstability) {
  RunStatistics stats;
  EXPECT_EQ(stats.mean_solver_iterations(), -1.0);
  stats.record(frame(30, 2, 0, ""), true);
  stats.record(frame(10, 2, 3, "a vertex reached 600 m/s"), true);
  stats.record(frame(99, 5, 0, ""), false);  // a direct solve: no iterations to average
  EXPECT_EQ(stats.steps, 3);
  EXPECT_EQ(stats.rejected_steps, 3);
  EXPECT_EQ(stats.instabilities, 1);
  EXPECT_EQ(stats.last_instability, "a vertex reached 600 m/s");
  EXPECT_DOUBLE_EQ(stats.mean_solver_iterations(), 10.0);  // (30 + 10) / (2 + 2)
  EXPECT_DOUBLE_EQ(stats.total_timings.solve_ms, 6.0);
  EXPECT_EQ(stats.last_report.integration.solver_iterations, 99);
}

}  // namespace
}  // namespace cloth
