#pragma once
// A static drape (Feynman's energy minimisation, engine/drape/static_drape.hpp, or Weil's
// geometric model, engine/drape/weil_drape.hpp) solved in a background thread, so the window stays
// responsive and shows the energy and residual force per sweep while it runs (not for the
// geometric model). The
// problem is a copy of the simulation's cloth at the start; the result is applied by the caller
// (Simulation::set_positions) once it is taken.
#include <atomic>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "simulation/simulation.hpp"
#include "drape/drape_settings.hpp"
#include "drape/static_drape.hpp"
#include "drape/weil_drape.hpp"

namespace app {

class DrapeJob {
 public:
  DrapeJob() = default;
  DrapeJob(const DrapeJob&) = delete;
  DrapeJob& operator=(const DrapeJob&) = delete;
  ~DrapeJob();  ///< cancels a running solve and waits for it (at most one sweep)

  /// Starts a solve of `sim`'s drape problem with `settings` (its method by name; "geometric"
  /// uses none of the minimiser's options and stops on its averaging change). Throws InputError
  /// for bad settings or a model / mesh the method cannot take; does nothing while another solve
  /// runs.
  void start(const cloth::Simulation& sim, const cloth::DrapeSettings& settings);
  bool running() const { return future_.valid() && !finished_; }
  /// The finished result, once (nullopt while running or when nothing was started). A cancelled
  /// or failed solve gives a result with converged = false and the reason in `message`.
  std::optional<cloth::DrapeResult> take_result();
  /// Energy and residual force of every sweep / cycle / iteration so far.
  std::vector<cloth::DrapeProgress> progress() const;
  void cancel() { cancel_ = true; }

 private:
  std::future<cloth::DrapeResult> future_;
  std::atomic<bool> finished_{false};
  std::atomic<bool> cancel_{false};
  mutable std::mutex mutex_;
  std::vector<cloth::DrapeProgress> progress_;
};

}  // namespace app
