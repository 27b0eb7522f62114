#include "linalg/block_sparse.hpp"

#include <algorithm>
#include <cassert>

#include "core/parallel.hpp"

namespace cloth {

int find_in_rows(const std::vector<int>& row_start, const std::vector<int>& cols, int i, int j) {
  const auto begin = cols.begin() + row_start[size_t(i)], end = cols.begin() + row_start[size_t(i) + 1];
  const auto it = std::lower_bound(begin, end, j);
  return (it != end && *it == j) ? static_cast<int>(it - cols.begin()) : -1;
}

BlockSparseMatrix::BlockSparseMatrix(int blocks, const std::vector<std::pair<int, int>>& pairs, Storage storage) {
  std::vector<std::vector<int>> rows(blocks);
  for (int i = 0; i < blocks; ++i) rows[i].push_back(i);
  for (const auto& [i, j] : pairs) {
    assert(i >= 0 && i < blocks && j >= 0 && j < blocks && "pair outside the matrix");
    rows[i].push_back(j);
    rows[j].push_back(i);
  }
  Pattern p;
  p.n = blocks;
  p.row_start.assign(1, 0);
  p.diag_slot.resize(blocks);
  for (int i = 0; i < blocks; ++i) {
    std::sort(rows[i].begin(), rows[i].end());
    rows[i].erase(std::unique(rows[i].begin(), rows[i].end()), rows[i].end());
    for (int j : rows[i]) {
      if (j == i) p.diag_slot[i] = static_cast<int>(p.cols.size());
      p.cols.push_back(j);
    }
    p.row_start.push_back(static_cast<int>(p.cols.size()));
  }
  // Grown by push_back, they may hold up to twice their size; a pattern lives as long as its
  // topology, so it gives the excess back (peak memory: BM_Frame's heap_mib).
  p.row_start.shrink_to_fit();
  p.cols.shrink_to_fit();
  if (storage == Storage::symmetric && !p.cols.empty()) {
    // The stored blocks in row order; then each block below the diagonal points at its mirror
    // (j, i), which the pattern has too.
    packed_.assign(p.cols.size(), 0);
    int stored = 0;
    for (int i = 0; i < blocks; ++i) {
      for (int s = p.diag_slot[i]; s < p.row_start[i + 1]; ++s) packed_[size_t(s)] = stored++;
    }
    for (int i = 0; i < blocks; ++i) {
      for (int s = p.row_start[i]; s < p.diag_slot[i]; ++s) {
        packed_[size_t(s)] = ~packed_[size_t(find_in_rows(p.row_start, p.cols, p.cols[size_t(s)], i))];
      }
    }
    values_.assign(size_t(stored), Eigen::Matrix3d::Zero());
  } else {
    values_.assign(p.cols.size(), Eigen::Matrix3d::Zero());
  }
  p_ = std::make_shared<const Pattern>(std::move(p));
}

void BlockSparseMatrix::set_zero(int threads) {
  parallel_for(static_cast<int>(values_.size()), threads, [&](int s) { values_[size_t(s)].setZero(); });
}

int BlockSparseMatrix::slot(int i, int j) const { return find_in_rows(p_->row_start, p_->cols, i, j); }

void BlockSparseMatrix::add(int i, int j, const Eigen::Matrix3d& b) {
  const int s = slot(i, j);
  assert(s >= 0 && "block not in the sparsity pattern");
  value(s) += b;
}

void BlockSparseMatrix::add_diagonal(const std::vector<double>& d, double scale) {
  for (int i = 0; i < p_->n; ++i) value(p_->diag_slot[i]).diagonal().array() += scale * d[i];
}

void BlockSparseMatrix::multiply(const std::vector<Vec3>& x, std::vector<Vec3>& y, int threads) const {
  const Pattern& p = *p_;
  y.resize(p.n);
  if (symmetric()) {
    parallel_for(p.n, threads, [&](int i) {
      Vec3 sum = Vec3::Zero();
      // Below the diagonal, B^T x_j as three column dot products (B column-major).
      for (int s = p.row_start[i]; s < p.diag_slot[i]; ++s) {
        const Eigen::Matrix3d& b = values_[size_t(~packed_[size_t(s)])];
        const Vec3& xj = x[size_t(p.cols[size_t(s)])];
        sum += Vec3(b.col(0).dot(xj), b.col(1).dot(xj), b.col(2).dot(xj));
      }
      // On and above it the row's blocks are contiguous in values_.
      const int offset = packed_[size_t(p.diag_slot[i])] - p.diag_slot[i];
      for (int s = p.diag_slot[i]; s < p.row_start[i + 1]; ++s) {
        sum.noalias() += values_[size_t(offset + s)] * x[size_t(p.cols[size_t(s)])];
      }
      y[size_t(i)] = sum;
    });
    return;
  }
  parallel_for(p.n, threads, [&](int i) {
    Vec3 sum = Vec3::Zero();
    for (int s = p.row_start[i]; s < p.row_start[i + 1]; ++s) sum += values_[s] * x[p.cols[s]];
    y[i] = sum;
  });
}

Eigen::SparseMatrix<double> BlockSparseMatrix::to_eigen() const {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(p_->cols.size() * 9);
  const Pattern& p = *p_;
  for (int i = 0; i < p.n; ++i) {
    for (int s = p.row_start[i]; s < p.row_start[i + 1]; ++s) {
      const Eigen::Matrix3d b = block(s);
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) triplets.emplace_back(3 * i + r, 3 * p.cols[s] + c, b(r, c));
      }
    }
  }
  Eigen::SparseMatrix<double> m(3 * p.n, 3 * p.n);
  m.setFromTriplets(triplets.begin(), triplets.end());
  return m;
}

}  // namespace cloth
