#pragma once
// PaneRunner: the running panes and the clock that steps them, without a window or GL. Each pass
// of a display loop (the desktop window's, a browser page's) hands it the wall time since the
// last pass; it owes each pane the fixed steps of dt that time holds, takes them on the step
// worker (step_worker.hpp), and books what they took. It keeps the loop answering:
//  - at most kMaxStepsPerPass steps a pass, the rest owed to the next passes up to kMaxLag of
//    simulated time, beyond which steps are dropped and counted (a machine slower than real
//    time must not spiral);
//  - steps that outlast kStepWait go on while the loop draws the last picture; from then on
//    they go one a pass (slow_steps) until a pass's steps are measured faster again.
// The clock is the caller's (glfwGetTime, a test's), in seconds.
#include <functional>
#include <string>
#include <vector>

#include "io/run_stats.hpp"
#include "run/frame_exports.hpp"
#include "run/pane.hpp"
#include "run/step_worker.hpp"

namespace app {

/// What a display says while steps run past the wait (the stepping panel).
struct StepProgress {
  std::string what;         ///< the active pane's cost: "implicit at 100 substeps, 4096 vertices"
  double started_at = 0;    ///< the clock when the steps began, s
  double last_seconds = 0;  ///< wall time of the steps before, s
  /// The active pane's solver settings and model when the steps began: the stepping panel edits
  /// this copy, and the App applies it when the steps end.
  cloth::SolverSettings solver;
  cloth::ModelType model = cloth::ModelType::Springs;
  int pane = 0;  ///< the pane they belong to (the active one)
};

/// One pane's steps of a pass.
struct PaneSteps {
  int owed = 0;
  std::vector<cloth::FrameReport> reports;
  std::vector<cloth::Energies> energies;  ///< after each step of the active pane, for its plots
  std::string export_error;               ///< why the running exports stopped, if they did
  double ms = 0;                          ///< wall time of the pane's steps
};

/// How a pass runs.
struct PassControls {
  bool paused = false;
  double time_scale = 1;    ///< simulated seconds per wall second
  bool step_once = false;   ///< one more step, paused or not
  bool start_steps = true;  ///< false for the loop's last pass: it starts none
};

/// What a pass booked: the steps that ended in it (per pane), if any did.
struct PassResult {
  bool booked = false;         ///< `steps` holds a pass's steps (possibly none owed)
  bool ended_after_wait = false;  ///< steps that ran past the wait ended: the loop draws now
  std::vector<PaneSteps> steps;
};

class PaneRunner {
 public:
  /// Cap on fixed steps per pass of the loop, so that input is polled between them.
  static constexpr int kMaxStepsPerPass = 4;
  /// Most simulated time, s, the simulation may owe the wall clock.
  static constexpr double kMaxLag = 0.25;
  /// How long a pass waits for its steps, s: slower steps go on while the loop draws.
  static constexpr double kStepWait = 0.25;
  /// Wall time over which the real-time factor is measured, s.
  static constexpr double kRealtimeWindow = 0.5;
  /// How long after a drop behind() says so, s.
  static constexpr double kBehindShown = 2.0;

  PaneRunner(std::vector<Pane> panes, std::function<double()> clock,
             StepWorker::Threading threading = StepWorker::Threading::Worker);
  PaneRunner(const PaneRunner&) = delete;
  PaneRunner& operator=(const PaneRunner&) = delete;

  /// The panes. While stepping(), the worker owns their simulations, replay buffers and the
  /// exports: read none of them.
  std::vector<Pane>& panes() { return panes_; }
  const std::vector<Pane>& panes() const { return panes_; }
  int active() const { return active_; }
  /// Makes pane k the one whose energies are kept for the plots.
  void set_active(int k) { active_ = k; }
  /// Puts new panes in place of the running ones (no steps may be running); their steps are
  /// taken slowly until measured.
  void install(std::vector<Pane> panes);
  /// The first pane's frame exports (--export-sequence, --export-pc2, the Scene panel).
  FrameExports& exports() { return exports_; }
  const FrameExports& exports() const { return exports_; }

  /// One pass, `real_dt` s of wall time after the last.
  PassResult advance(double real_dt, const PassControls& controls);
  /// A pass while the display shows the past (the replay): the panes owe nothing, take nothing.
  void hold();
  /// Waits for steps in progress however long and books them (a quit, or input that cannot wait).
  PassResult finish();

  bool stepping() const { return worker_.started(); }  ///< steps run on the worker now
  /// The last steps started went on past kStepWait (the stepping panel shows while they run).
  bool steps_outlast_wait() const { return steps_outlast_wait_; }
  /// Steps go one a pass and the display keeps its picture: they outlast the wait, or the
  /// panes' are not measured yet.
  bool slow_steps() const { return slow_steps_; }
  const StepProgress& progress() const { return progress_; }
  StepProgress& progress() { return progress_; }

  /// Whether a pane owes a fixed step `elapsed` s of wall time after the last pass.
  bool behind(double elapsed, const PassControls& controls) const;
  /// Starts the per-displayed-frame sums (Pane::sim_ms, Pane::steps) again: the loop drew.
  void start_display_frame() { new_display_frame_ = true; }
  /// Wall time of every pane's steps in the last displayed frame, ms.
  double sim_ms_all_panes() const;

  /// Steps dropped since forget_counters(): the machine could not keep up.
  int dropped_steps() const { return dropped_steps_; }
  /// Whether steps were dropped in the last kBehindShown s.
  bool recently_dropped() const { return clock_() - last_drop_time_ < kBehindShown; }
  /// The active pane's simulated seconds per wall second over the last kRealtimeWindow; -1 while
  /// paused or not yet measured.
  double realtime_factor() const { return realtime_factor_; }
  /// Clears the counters above: on R and a scene load the counting starts again with the run.
  void forget_counters();

 private:
  /// The worker's job: each pane's owed steps (steps_), each recorded for the replay and (the
  /// first pane's) given to the running exports.
  void take_steps();
  /// Waits for the worker's job and books it.
  PassResult finish_job();
  /// Books steps_ into the panes' run statistics and per-frame sums and hands them out.
  PassResult book();
  void measure_realtime_factor(double real_dt, bool paused);

  std::vector<Pane> panes_;
  std::function<double()> clock_;
  int active_ = 0;
  FrameExports exports_;
  std::vector<PaneSteps> steps_;  ///< per pane, the steps of the job on the worker
  StepProgress progress_;
  bool slow_steps_ = true;
  bool steps_outlast_wait_ = false;
  bool new_display_frame_ = true;
  int dropped_steps_ = 0;
  double last_drop_time_ = -1e9;   ///< the clock when steps were last dropped, s
  double realtime_factor_ = -1;
  double realtime_wall_ = 0;   ///< wall time since the factor was last measured, s
  double realtime_start_ = 0;  ///< the active pane's simulated time then, s
  StepWorker worker_;  // declared after what its job touches: destroyed (its job ended) first
};

}  // namespace app
