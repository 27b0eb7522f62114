// Long-range attachments (Kim, Chentanez & Müller 2012): tethers to the nearest pin along the
// mesh, built by one multi-source Dijkstra, applied as one-sided distance projections.
#include "kinematics/long_range_attachments.hpp"

#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace cloth {

namespace {

bool same_edges(const std::vector<Edge>& a, const std::vector<Edge>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].i != b[k].i || a[k].j != b[k].j || a[k].rest != b[k].rest) return false;
  }
  return true;
}

}  // namespace

void LongRangeAttachments::update(const ClothModel& model, const std::vector<std::uint8_t>& pinned) {
  if (pinned == pinned_ && same_edges(model.edges, edges_) && anchor_.size() == pinned.size()) return;
  pinned_ = pinned;
  edges_ = model.edges;
  const size_t n = pinned.size();
  std::vector<std::vector<std::pair<int, double>>> neighbours(n);
  for (const Edge& e : model.edges) {
    neighbours[size_t(e.i)].push_back({e.j, e.rest});
    neighbours[size_t(e.j)].push_back({e.i, e.rest});
  }
  // Every pin a source at distance 0; each vertex takes the pin its shortest path started from.
  constexpr double kFar = std::numeric_limits<double>::infinity();
  length_.assign(n, kFar);
  std::vector<int> source(n, -1);
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  for (size_t i = 0; i < n; ++i) {
    if (!pinned[i]) continue;
    length_[i] = 0;
    source[i] = int(i);
    queue.push({0.0, int(i)});
  }
  while (!queue.empty()) {
    const auto [d, i] = queue.top();
    queue.pop();
    if (d > length_[size_t(i)]) continue;
    for (const auto& [j, rest] : neighbours[size_t(i)]) {
      if (d + rest < length_[size_t(j)]) {
        length_[size_t(j)] = d + rest;
        source[size_t(j)] = source[size_t(i)];
        queue.push({d + rest, j});
      }
    }
  }
  anchor_.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    if (!pinned[i]) anchor_[i] = source[i];
  }
}

int LongRangeAttachments::apply(std::vector<Vec3>& x, double slack) const {
  int moved = 0;
  for (size_t i = 0; i < anchor_.size(); ++i) {
    if (anchor_[i] < 0) continue;
    const Vec3 d = x[i] - x[size_t(anchor_[i])];
    const double limit = (1 + slack) * length_[i], dist = d.norm();
    if (dist <= limit) continue;
    x[i] = x[size_t(anchor_[i])] + d * (limit / dist);
    ++moved;
  }
  return moved;
}

int LongRangeAttachments::enforce(const ClothModel& model, const std::vector<std::uint8_t>& pinned,
                                  double slack, std::vector<Vec3>& x) {
  if (slack < 0) return 0;
  update(model, pinned);
  return apply(x, slack);
}

}  // namespace cloth
