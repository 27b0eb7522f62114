#pragma once
// Where the interactive app's frame time goes: the simulation's steps against drawing (scene,
// panel and buffer swap), per displayed frame after a warm-up. Read by the app frame-time
// benchmark (bench/app_frame_bench.sh) through --stats. GL-free.
#include <nlohmann/json.hpp>
#include <vector>

namespace app {

class FrameTiming {
 public:
  /// Displayed frames left out at the start: shader compilation, first uploads, settling.
  static constexpr int kWarmupFrames = 30;

  /// Frame number `frame` (1-based) took `sim_ms` in the simulation, `draw_ms` drawing and
  /// `frame_ms` from the previous frame's start (the frame cap's sleep included), ms.
  void add(int frame, double sim_ms, double draw_ms, double frame_ms);

  /// {"frames": n, "median_sim_ms", "median_draw_ms", "median_frame_ms", "mean_sim_ms",
  ///  "mean_draw_ms"} over the frames after the warm-up; {"frames": 0} before.
  nlohmann::json to_json() const;

 private:
  std::vector<double> sim_ms_, draw_ms_, frame_ms_;
};

}  // namespace app
