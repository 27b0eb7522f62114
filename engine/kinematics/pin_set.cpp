#include "kinematics/pin_set.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"

namespace cloth {

PinSet::PinSet(int vertex_count, const std::vector<int>& pinned_vertices)
    : initial_pinned_(size_t(vertex_count), 0) {
  for (int v : pinned_vertices) {
    if (v < 0 || v >= vertex_count) throw InputError("pin vertex " + std::to_string(v) + " out of range");
    initial_pinned_[size_t(v)] = 1;
  }
}

void PinSet::set_paths(std::vector<MovingPin> moving_pins, std::vector<SlideConstraint> slides,
                       const std::vector<Vec3>& rest) {
  const int n = int(initial_pinned_.size());
  std::vector<std::uint8_t> taken(size_t(n), 0);
  auto claim = [&](int v, const char* what) {
    if (v < 0 || v >= n) throw InputError(std::string(what) + " vertex " + std::to_string(v) + " out of range");
    if (taken[size_t(v)]++) throw InputError(std::string(what) + " vertex " + std::to_string(v) + " has two constraints");
  };
  for (const MovingPin& pin : moving_pins) {
    claim(pin.vertex, "moving pin");
    if (!(pin.path.period > 0) || !pin.anchor.allFinite()) throw InputError("moving pin: bad path");
  }
  for (SlideConstraint& slide : slides) {
    claim(slide.vertex, "line/plane");
    if (!(slide.direction.norm() > 1e-9) || !slide.point.allFinite()) {
      throw InputError("line/plane constraint on vertex " + std::to_string(slide.vertex) + " needs a non-zero direction");
    }
    slide.direction.normalize();
    const Vec3& start = rest[size_t(slide.vertex)];
    const double off = (start - slide.project(start)).norm();
    if (off > 1e-3) {
      throw InputError("line/plane constraint on vertex " + std::to_string(slide.vertex) + ": the vertex starts " +
                       std::to_string(off) + " m off its line / plane (at most 1 mm)");
    }
  }
  for (const MovingPin& pin : moving_pins) initial_pinned_[size_t(pin.vertex)] = 1;
  initial_moving_pins_ = std::move(moving_pins);
  slides_ = std::move(slides);
}

void PinSet::restart(const std::vector<Vec3>& start) {
  pinned_ = initial_pinned_;
  pin_positions_ = start;
  moving_pins_ = initial_moving_pins_;
}

void PinSet::set_pinned(int vertex, bool pinned, const Vec3& at) {
  std::erase_if(moving_pins_, [&](const MovingPin& p) { return p.vertex == vertex; });
  pinned_[size_t(vertex)] = pinned ? 1 : 0;
  pin_positions_[size_t(vertex)] = at;
}

void PinSet::hold_at(const std::vector<Vec3>& x) {
  for (size_t i = 0; i < x.size(); ++i) {
    if (pinned_[i]) pin_positions_[i] = x[i];
  }
}

void PinSet::remap(const std::vector<int>& parent) {
  const size_t n = parent.size();
  std::vector<std::uint8_t> pinned(n, 0);
  std::vector<Vec3> pin_positions(n);
  for (size_t v = 0; v < n; ++v) {
    const size_t from = size_t(parent[v]);
    pin_positions[v] = pin_positions_[from];
    if (from == v) pinned[v] = pinned_[v];
  }
  pinned_ = std::move(pinned);
  pin_positions_ = std::move(pin_positions);
}

int PinSet::pinned_count() const { return int(std::count(pinned_.begin(), pinned_.end(), 1)); }

Kinematics PinSet::for_step(const std::optional<Grab>& grab) const {
  Kinematics k;
  k.pinned = &pinned_;
  k.pin_positions = &pin_positions_;
  k.moving_pins = &moving_pins_;
  k.slides = &slides_;
  k.grab = grab;
  return k;
}

}  // namespace cloth
