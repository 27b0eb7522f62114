#pragma once
// Statistics of a run, gathered frame by frame and written as the --stats JSON (its fields are
// named in run_stats.cpp, to_json; the headless contract is in docs/architecture.md).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "simulation/simulation.hpp"

namespace cloth {

class RunStats {
 public:
  /// Records one displayed/exported frame and the wall time it took to simulate, ms.
  void add_frame(double simulate_ms) { frame_ms_.push_back(simulate_ms); }
  int frames() const { return static_cast<int>(frame_ms_.size()); }
  double median_ms() const;

  /// The stats document for the simulation's current state.
  nlohmann::json to_json(const Simulation& sim) const;

 private:
  std::vector<double> frame_ms_;
};

/// Writes `doc` to `path`, pretty-printed. Throws InputError if the file cannot be written.
void write_json(const std::string& path, const nlohmann::json& doc);

}  // namespace cloth
