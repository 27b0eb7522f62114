// Uniform spatial hash: build by counting sort of (cell, box) entries into hash buckets.
#include "geometry/spatial_hash.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace cloth {

namespace {
constexpr double kCellClamp = 1 << 30;  // cell coordinates are clamped to +-2^30 (monotone)
}

SpatialHash::Cell SpatialHash::cell_of(const Vec3& p) const {
  auto c = [this](double v) {
    const double f = std::floor(v / cell_);
    return static_cast<std::int32_t>(std::clamp(f, -kCellClamp, kCellClamp));
  };
  return Cell{c(p.x()), c(p.y()), c(p.z())};
}

std::uint32_t SpatialHash::bucket_of(const Cell& c) const {
  // Teschner et al.'s primes, on unsigned arithmetic (wraps, no UB).
  const std::uint32_t h = (static_cast<std::uint32_t>(c.x) * 73856093u) ^
                          (static_cast<std::uint32_t>(c.y) * 19349663u) ^
                          (static_cast<std::uint32_t>(c.z) * 83492791u);
  return h & mask_;
}

long long SpatialHash::cell_span(const Aabb& b, Cell& lo, Cell& hi) const {
  lo = cell_of(b.lo);
  hi = cell_of(b.hi);
  const long long n = (static_cast<long long>(hi.x) - lo.x + 1) *
                      (static_cast<long long>(hi.y) - lo.y + 1);
  if (n > kMaxCellsPerBox) return -1;
  const long long m = n * (static_cast<long long>(hi.z) - lo.z + 1);
  return m > kMaxCellsPerBox ? -1 : m;
}

void SpatialHash::build(const std::vector<Aabb>& boxes, double cell_size) {
  assert(cell_size > 0 && std::isfinite(cell_size));
  cell_ = cell_size;
  boxes_ = boxes;
  const int n = static_cast<int>(boxes_.size());
  stored_.assign(n, 0);
  lo_cell_.assign(n, Cell{0, 0, 0});
  oversize_.clear();
  entries_.clear();

  long long total = 0;
  for (int i = 0; i < n; ++i) {
    if (!boxes_[i].valid()) continue;
    Cell lo, hi;
    const long long span = cell_span(boxes_[i], lo, hi);
    lo_cell_[i] = lo;
    if (span < 0) {
      stored_[i] = 2;
      oversize_.push_back(i);
    } else {
      stored_[i] = 1;
      total += span;
    }
  }
  std::uint32_t buckets = 16;
  while (buckets < 2 * total && buckets < (1u << 30)) buckets <<= 1;
  mask_ = buckets - 1;

  // Counting sort of the entries by bucket.
  std::vector<Entry> raw;
  raw.reserve(static_cast<size_t>(total));
  bucket_start_.assign(buckets + 1, 0);
  for (int i = 0; i < n; ++i) {
    if (stored_[i] != 1) continue;
    Cell lo, hi;
    cell_span(boxes_[i], lo, hi);
    for (std::int32_t z = lo.z; z <= hi.z; ++z) {
      for (std::int32_t y = lo.y; y <= hi.y; ++y) {
        for (std::int32_t x = lo.x; x <= hi.x; ++x) {
          const Cell c{x, y, z};
          raw.push_back(Entry{c, i});
          ++bucket_start_[bucket_of(c) + 1];
        }
      }
    }
  }
  for (std::uint32_t k = 0; k < buckets; ++k) bucket_start_[k + 1] += bucket_start_[k];
  entries_.resize(raw.size());
  std::vector<int> fill(bucket_start_.begin(), bucket_start_.end() - 1);
  for (const Entry& e : raw) entries_[fill[bucket_of(e.cell)]++] = e;
}

}  // namespace cloth
