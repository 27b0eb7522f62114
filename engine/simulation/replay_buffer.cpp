// The ring of recorded frames behind the app's timeline (replay_buffer.hpp).
#include "simulation/replay_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace cloth {
namespace {

// What a frame costs besides its states: pins, solids, bookkeeping. A guess that keeps the
// budget honest for tiny cloths; the states dominate from a few hundred vertices on.
constexpr std::size_t kFrameOverheadBytes = 256;

void check_positive(double value, const char* what) {
  if (!std::isfinite(value) || value <= 0)
    throw InputError(std::string("replay ") + what + " must be a positive number, got " + std::to_string(value));
}

}  // namespace

ReplayBuffer::ReplayBuffer(double seconds, double interval, std::size_t budget_bytes)
    : seconds_(seconds), interval_(interval), budget_bytes_(budget_bytes) {
  check_positive(seconds, "length");
  check_positive(interval, "interval");
  check_positive(double(budget_bytes), "memory budget");
}

std::size_t ReplayBuffer::capacity(int vertices) const {
  const auto by_time = std::size_t(std::floor(seconds_ / interval_ + 1e-6)) + 1;
  const std::size_t frame_bytes = std::size_t(std::max(vertices, 0)) * 6 * sizeof(float) + kFrameOverheadBytes;
  return std::max<std::size_t>(2, std::min(by_time, budget_bytes_ / frame_bytes));
}

void ReplayBuffer::clear() {
  frames_.clear();
  model_.reset();
  collider_version_.reset();
}

void ReplayBuffer::record(const Simulation& sim) {
  const double t = sim.time();
  if (collider_version_ && *collider_version_ != sim.colliders().version()) clear();
  if (!frames_.empty() && t < frames_.back().time) clear();
  // The relative slack absorbs round-off in a time summed from steps (60 steps of 1/60 s).
  if (!frames_.empty() && t - frames_.back().time < interval_ * (1 - 1e-6)) return;
  collider_version_ = sim.colliders().version();
  if (!model_ || model_topology_ != sim.topology_version()) {
    model_ = std::make_shared<const ClothModel>(sim.model());
    model_topology_ = sim.topology_version();
  }

  Stored frame;
  frame.time = t;
  frame.model = model_;
  frame.topology_version = model_topology_;
  const ClothState& s = sim.state();
  frame.xv.resize(6 * s.x.size());
  for (size_t i = 0; i < s.x.size(); ++i)
    for (int c = 0; c < 3; ++c) {
      frame.xv[6 * i + size_t(c)] = float(s.x[i][c]);
      frame.xv[6 * i + 3 + size_t(c)] = float(s.v[i][c]);
    }
  for (int i = 0; i < s.vertex_count(); ++i)
    if (sim.pins().is_pinned(i)) frame.pinned.push_back(i);
  frame.grab = sim.mouse().current();
  for (size_t k = 0; k < sim.colliders().size(); ++k)
    frame.collider_displacements.push_back(sim.colliders()[k].displacement(t));
  frames_.push_back(std::move(frame));

  const std::size_t keep = capacity(s.vertex_count());
  while (frames_.size() > keep) frames_.pop_front();
}

double ReplayBuffer::oldest_time() const { return frames_.empty() ? 0.0 : frames_.front().time; }
double ReplayBuffer::newest_time() const { return frames_.empty() ? 0.0 : frames_.back().time; }
double ReplayBuffer::time_of(int i) const { return frames_[size_t(i)].time; }

int ReplayBuffer::index_at(double t) const {
  const auto after = std::upper_bound(frames_.begin(), frames_.end(), t,
                                      [](double time, const Stored& f) { return time < f.time; });
  return std::max(0, int(after - frames_.begin()) - 1);
}

void ReplayBuffer::load(double t, ReplayFrame& out) const {
  t = std::clamp(t, oldest_time(), newest_time());
  const int i = index_at(t);
  const Stored& a = frames_[size_t(i)];
  const Stored* b = i + 1 < size() ? &frames_[size_t(i) + 1] : nullptr;
  // Only frames of one mesh blend: a tear between them changes what vertex i is.
  const bool blend = b && b->model == a.model && b->time > a.time && t > a.time;
  const double w = blend ? (t - a.time) / (b->time - a.time) : 0.0;

  const size_t n = a.xv.size() / 6;
  out.state.x.resize(n);
  out.state.v.resize(n);
  for (size_t j = 0; j < n; ++j)
    for (int c = 0; c < 3; ++c) {
      const size_t p = 6 * j + size_t(c);
      const double xa = a.xv[p], va = a.xv[p + 3];
      out.state.x[j][c] = blend ? xa + w * (double(b->xv[p]) - xa) : xa;
      out.state.v[j][c] = blend ? va + w * (double(b->xv[p + 3]) - va) : va;
    }
  out.collider_displacements = a.collider_displacements;
  if (blend)
    for (size_t k = 0; k < out.collider_displacements.size(); ++k)
      out.collider_displacements[k] += w * (b->collider_displacements[k] - a.collider_displacements[k]);
  out.time = blend ? t : a.time;
  out.model = a.model;
  out.topology_version = a.topology_version;
  out.pinned = a.pinned;
  out.grab = a.grab;
  out.version = ++loads_;
}

}  // namespace cloth
