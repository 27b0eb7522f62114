#include "run/drape_job.hpp"

namespace app {
namespace {

struct Cancelled {};

}  // namespace

DrapeJob::~DrapeJob() {
  cancel_ = true;
  if (future_.valid()) future_.wait();
}

void DrapeJob::start(const cloth::Simulation& sim, const cloth::DrapeSettings& settings) {
  if (running()) return;
  // Weil's geometric model has no energy-minimiser options and no per-sweep energy to plot; its
  // averaging sweeps only check for a cancel.
  const bool geometric = settings.method == cloth::kGeometricDrapeName;
  cloth::DrapeOptions options;
  cloth::WeilOptions weil;
  if (!geometric) options = cloth::drape_options(settings);
  cloth::DrapeProblem problem = cloth::drape_problem_from(sim);  // throws before anything starts
  {
    std::lock_guard<std::mutex> lock(mutex_);
    progress_.clear();
  }
  cancel_ = false;
  finished_ = false;
  options.on_progress = [this](const cloth::DrapeProgress& p) {
    if (cancel_) throw Cancelled{};  // unwinds solve_drape between sweeps
    std::lock_guard<std::mutex> lock(mutex_);
    progress_.push_back(p);
  };
  weil.on_sweep = [this](int, double) {
    if (cancel_) throw Cancelled{};
  };
  future_ = std::async(std::launch::async, [this, problem = std::move(problem), options, weil, geometric]() {
    cloth::DrapeResult result;
    try {
      result = geometric ? cloth::geometric_drape(problem, weil) : cloth::solve_drape(problem, options);
    } catch (const Cancelled&) {
      result.message = "cancelled";
    } catch (const std::exception& e) {
      result.message = e.what();
    }
    finished_ = true;
    return result;
  });
}

std::optional<cloth::DrapeResult> DrapeJob::take_result() {
  if (!future_.valid() || !finished_) return std::nullopt;
  return future_.get();
}

std::vector<cloth::DrapeProgress> DrapeJob::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return progress_;
}

}  // namespace app
