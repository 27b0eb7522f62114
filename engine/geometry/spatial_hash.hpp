#pragma once
// A uniform spatial hash over axis-aligned boxes (Teschner et al. 2003 "Optimized spatial hashing
// for collision detection of deformable objects"), rebuilt from scratch on every call: each box is
// entered in every grid cell it overlaps, cells are hashed into a table of 2x the entry count
// (counting sort, no allocation per cell). Queries report each overlapping pair exactly once: a
// pair is reported only from the cell holding the lower corner of the two boxes' intersection.
// Boxes that would cover more than kMaxCellsPerBox cells are kept in an "oversize" list and tested
// against everything directly, so the result is always complete. Boxes with a non-finite corner
// are ignored (never reported).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/vec.hpp"

namespace cloth {

struct Aabb {
  Vec3 lo = Vec3::Constant(1.0);   ///< minimum corner, m (default: an empty box)
  Vec3 hi = Vec3::Constant(-1.0);  ///< maximum corner, m

  static Aabb of(const Vec3& a) { return Aabb{a, a}; }
  static Aabb of(const Vec3& a, const Vec3& b) { return Aabb{a.cwiseMin(b), a.cwiseMax(b)}; }
  static Aabb of(const Vec3& a, const Vec3& b, const Vec3& c) {
    return Aabb{a.cwiseMin(b).cwiseMin(c), a.cwiseMax(b).cwiseMax(c)};
  }
  void expand(const Aabb& o) {
    lo = lo.cwiseMin(o.lo);
    hi = hi.cwiseMax(o.hi);
  }
  Aabb inflated(double r) const {
    return Aabb{(lo.array() - r).matrix(), (hi.array() + r).matrix()};
  }
  /// Finite and non-empty.
  bool valid() const { return lo.allFinite() && hi.allFinite() && (lo.array() <= hi.array()).all(); }
  bool overlaps(const Aabb& o) const {
    return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
  }
};

class SpatialHash {
 public:
  static constexpr long long kMaxCellsPerBox = 512;

  /// Rebuilds the hash over `boxes` with cubic cells of side cell_size (> 0, m). A cell size near
  /// the typical box extent keeps each box in at most 8 cells.
  void build(const std::vector<Aabb>& boxes, double cell_size);

  /// Calls f(i, j), i < j, once for every pair of stored boxes that overlap.
  template <class F>
  void for_each_self_pair(F&& f) const;

  /// Calls f(j) once for every stored box j that overlaps `box`.
  template <class F>
  void query(const Aabb& box, F&& f) const;

  int box_count() const { return static_cast<int>(boxes_.size()); }
  int oversize_count() const { return static_cast<int>(oversize_.size()); }
  double cell_size() const { return cell_; }

 private:
  struct Cell {
    std::int32_t x, y, z;
    bool operator==(const Cell& o) const { return x == o.x && y == o.y && z == o.z; }
    /// Componentwise max: cell_of is monotone, so the cell of max(lo_a, lo_b) is max of the cells.
    static Cell max(const Cell& a, const Cell& b) {
      return Cell{std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)};
    }
  };
  struct Entry {
    Cell cell;
    int id;
  };

  Cell cell_of(const Vec3& p) const;
  std::uint32_t bucket_of(const Cell& c) const;
  /// Cells spanned by a valid box, or -1 when more than kMaxCellsPerBox.
  long long cell_span(const Aabb& b, Cell& lo, Cell& hi) const;

  template <class F>
  void for_each_in_cell(const Cell& c, F&& f) const {
    if (bucket_start_.empty()) return;  // never built
    const std::uint32_t k = bucket_of(c);
    for (int e = bucket_start_[k]; e < bucket_start_[k + 1]; ++e) {
      if (entries_[e].cell == c) f(entries_[e].id);
    }
  }

  double cell_ = 1.0;
  std::vector<Aabb> boxes_;
  std::vector<Cell> lo_cell_;         ///< cell of each stored box's lower corner
  std::vector<std::uint8_t> stored_;  ///< 1: in the cells, 2: oversize, 0: ignored (non-finite)
  std::vector<Entry> entries_;        ///< grouped by bucket
  std::vector<int> bucket_start_;     ///< bucket k holds entries_[start[k], start[k+1])
  std::uint32_t mask_ = 0;
  std::vector<int> oversize_;
};

template <class F>
void SpatialHash::query(const Aabb& box, F&& f) const {
  if (!box.valid()) return;
  for (int j : oversize_) {
    if (boxes_[j].overlaps(box)) f(j);
  }
  Cell lo, hi;
  if (cell_span(box, lo, hi) < 0) {  // a huge query box: test every stored box once
    for (int j = 0; j < box_count(); ++j) {
      if (stored_[j] == 1 && boxes_[j].overlaps(box)) f(j);
    }
    return;
  }
  for (std::int32_t z = lo.z; z <= hi.z; ++z) {
    for (std::int32_t y = lo.y; y <= hi.y; ++y) {
      for (std::int32_t x = lo.x; x <= hi.x; ++x) {
        const Cell c{x, y, z};
        for_each_in_cell(c, [&](int j) {
          if (!(Cell::max(lo, lo_cell_[j]) == c)) return;  // reported from another cell
          if (!boxes_[j].overlaps(box)) return;
          f(j);
        });
      }
    }
  }
}

template <class F>
void SpatialHash::for_each_self_pair(F&& f) const {
  const int n = box_count();
  for (int i = 0; i < n; ++i) {
    if (stored_[i] == 2) {  // oversize: against every other stored box (oversize ones once)
      for (int j = 0; j < n; ++j) {
        if (j == i || stored_[j] == 0 || (stored_[j] == 2 && j < i)) continue;
        if (boxes_[i].overlaps(boxes_[j])) f(std::min(i, j), std::max(i, j));
      }
      continue;
    }
    if (stored_[i] != 1) continue;
    const Aabb& bi = boxes_[i];
    Cell lo, hi;
    cell_span(bi, lo, hi);
    for (std::int32_t z = lo.z; z <= hi.z; ++z) {
      for (std::int32_t y = lo.y; y <= hi.y; ++y) {
        for (std::int32_t x = lo.x; x <= hi.x; ++x) {
          const Cell c{x, y, z};
          for_each_in_cell(c, [&](int j) {
            if (j <= i) return;
            if (!(Cell::max(lo, lo_cell_[j]) == c)) return;  // reported from another cell
            if (!bi.overlaps(boxes_[j])) return;
            f(i, j);
          });
        }
      }
    }
  }
}

}  // namespace cloth
