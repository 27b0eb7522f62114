#include "run/frame_timing.hpp"

#include <algorithm>
#include <numeric>

namespace app {
namespace {

constexpr size_t kMaxFrames = 100000;  // about half an hour at 60 Hz; enough for any bench run

double median(std::vector<double> v) {
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
  return v[mid];
}

double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }

}  // namespace

void FrameTiming::add(int frame, double sim_ms, double draw_ms, double frame_ms) {
  if (frame <= kWarmupFrames || sim_ms_.size() >= kMaxFrames) return;
  sim_ms_.push_back(sim_ms);
  draw_ms_.push_back(draw_ms);
  frame_ms_.push_back(frame_ms);
}

nlohmann::json FrameTiming::to_json() const {
  nlohmann::json j = {{"frames", sim_ms_.size()}};
  if (sim_ms_.empty()) return j;
  j["median_sim_ms"] = median(sim_ms_);
  j["median_draw_ms"] = median(draw_ms_);
  j["median_frame_ms"] = median(frame_ms_);
  j["mean_sim_ms"] = mean(sim_ms_);
  j["mean_draw_ms"] = mean(draw_ms_);
  return j;
}

}  // namespace app
