// The panes and their clock (pane_runner.hpp).
#include "run/pane_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

namespace app {

PaneRunner::PaneRunner(std::vector<Pane> panes, std::function<double()> clock, StepWorker::Threading threading)
    : panes_(std::move(panes)), clock_(std::move(clock)), worker_(threading) {}

void PaneRunner::install(std::vector<Pane> panes) {
  panes_ = std::move(panes);
  active_ = std::min(active_, int(panes_.size()) - 1);
  slow_steps_ = true;  // until the new panes' steps are measured
}

PassResult PaneRunner::advance(double real_dt, const PassControls& controls) {
  if (worker_.started()) {
    // The real time that passes while a step runs is owed as usual; a later pass drops what is
    // beyond kMaxLag.
    if (!controls.paused)
      for (Pane& p : panes_) p.accumulator += real_dt * controls.time_scale;
    realtime_wall_ += real_dt;
    if (!worker_.wait_for(0)) return {};
    PassResult result = finish_job();
    result.ended_after_wait = true;  // steps that ended are drawn before the next ones start
    return result;
  }
  steps_outlast_wait_ = false;  // until a job started below outlasts the wait
  measure_realtime_factor(real_dt, controls.paused);
  steps_.assign(panes_.size(), PaneSteps{});
  bool any = false;
  for (size_t k = 0; k < panes_.size(); ++k) {
    Pane& p = panes_[k];
    const double dt = p.sim->solver().dt;
    p.accumulator = controls.paused ? 0.0 : p.accumulator + real_dt * controls.time_scale;
    int owed = int(std::floor(p.accumulator / dt));
    p.accumulator -= owed * dt;
    if (owed > kMaxStepsPerPass) {
      // The rest stays owed (the next passes skip their draws to take it) up to kMaxLag of
      // simulated time; beyond that the machine cannot keep up and the steps are dropped.
      const int kept = std::min(owed - kMaxStepsPerPass, int(kMaxLag / dt));
      if (const int dropped = owed - kMaxStepsPerPass - kept; dropped > 0) {
        dropped_steps_ += dropped;
        last_drop_time_ = clock_();
      }
      p.accumulator += kept * dt;
      owed = kMaxStepsPerPass;
    }
    // Slow steps go one at a time, each one drawn: the rest stays owed (and is dropped beyond
    // kMaxLag above).
    if (slow_steps_ && owed > 1) {
      p.accumulator += (owed - 1) * dt;
      owed = 1;
    }
    if (controls.step_once) ++owed;
    steps_[k].owed = owed;
    any = any || owed > 0;
  }
  if (!any || !controls.start_steps) {
    steps_.assign(panes_.size(), PaneSteps{});  // a pass without steps still starts the frame's sums
    return book();
  }
  const cloth::Simulation& sim = *panes_[size_t(active_)].sim;
  char what[160];
  std::snprintf(what, sizeof what, "%s at %d substeps, %d vertices", cloth::name_of(sim.solver().integrator),
                sim.substeps(), sim.model().vertex_count());
  progress_.what = what;
  progress_.solver = sim.solver();
  progress_.pane = active_;
  progress_.model = sim.model().type;
  progress_.started_at = clock_();
  worker_.start([this] { take_steps(); });
  steps_outlast_wait_ = !worker_.wait_for(kStepWait);
  if (steps_outlast_wait_) {
    slow_steps_ = true;
    return {};
  }
  return finish_job();
}

void PaneRunner::hold() {
  for (Pane& p : panes_) {
    p.accumulator = 0;  // no steps owed on the way back
    p.sim_ms = 0;
    p.steps = 0;
  }
  steps_outlast_wait_ = false;
  new_display_frame_ = false;
}

PassResult PaneRunner::finish() { return worker_.started() ? finish_job() : PassResult{}; }

void PaneRunner::take_steps() {
  for (size_t k = 0; k < panes_.size(); ++k) {
    Pane& p = panes_[k];
    PaneSteps& taken = steps_[k];
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < taken.owed; ++i) {
      taken.reports.push_back(p.sim->step());
      p.replay.record(*p.sim);
      if (int(k) == active_) taken.energies.push_back(p.sim->energies());
      if (k == 0 && (exports_.sequence_running() || exports_.point_cache_running())) {
        try {
          exports_.add_frame(p.sim->model().mesh, p.sim->state());
        } catch (const std::exception& e) {
          taken.export_error = std::string("export stopped: ") + e.what();
        }
      }
    }
    taken.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
}

PassResult PaneRunner::finish_job() {
  worker_.finish();
  const double wall = clock_() - progress_.started_at;
  int most_owed = 1;
  for (const PaneSteps& taken : steps_) most_owed = std::max(most_owed, taken.owed);
  // While a pass's full kMaxStepsPerPass would outlast the wait, the steps go one at a time and
  // the display keeps its picture, to show while the next step runs.
  slow_steps_ = wall / most_owed * kMaxStepsPerPass > kStepWait;
  progress_.last_seconds = wall;
  return book();
}

PassResult PaneRunner::book() {
  steps_.resize(panes_.size());
  for (size_t k = 0; k < panes_.size(); ++k) {
    Pane& p = panes_[k];
    const PaneSteps& taken = steps_[k];
    if (taken.owed > 0) p.run_stats.add_frame(taken.ms);
    // Per displayed frame: the passes whose draws were skipped add up.
    p.sim_ms = new_display_frame_ ? taken.ms : p.sim_ms + taken.ms;
    p.steps = new_display_frame_ ? taken.owed : p.steps + taken.owed;
  }
  new_display_frame_ = false;
  PassResult result;
  result.booked = true;
  result.steps = std::exchange(steps_, {});
  return result;
}

bool PaneRunner::behind(double elapsed, const PassControls& controls) const {
  if (controls.paused) return false;
  for (const Pane& p : panes_)
    if (p.accumulator + elapsed * controls.time_scale >= p.sim->solver().dt) return true;
  return false;
}

double PaneRunner::sim_ms_all_panes() const {
  double ms = 0;
  for (const Pane& p : panes_) ms += p.sim_ms;
  return ms;
}

void PaneRunner::measure_realtime_factor(double real_dt, bool paused) {
  const double sim_time = panes_[size_t(active_)].sim->time();
  realtime_wall_ += real_dt;
  if (paused || sim_time < realtime_start_) {  // paused, or a reset went back in time
    realtime_wall_ = 0;
    realtime_start_ = sim_time;
    realtime_factor_ = -1;
    return;
  }
  if (realtime_wall_ < kRealtimeWindow) return;
  realtime_factor_ = (sim_time - realtime_start_) / realtime_wall_;
  realtime_wall_ = 0;
  realtime_start_ = sim_time;
}

void PaneRunner::forget_counters() {
  dropped_steps_ = 0;
  realtime_factor_ = -1;
  last_drop_time_ = -1e9;
  realtime_wall_ = 0;
  realtime_start_ = panes_[size_t(active_)].sim->time();
}

}  // namespace app
