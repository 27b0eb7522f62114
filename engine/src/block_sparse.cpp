#include "cloth/block_sparse.hpp"

#include <algorithm>
#include <cassert>

namespace cloth {

BlockSparseMatrix::BlockSparseMatrix(int blocks, const std::vector<std::pair<int, int>>& pairs)
    : n_(blocks) {
  std::vector<std::vector<int>> rows(blocks);
  for (int i = 0; i < blocks; ++i) rows[i].push_back(i);
  for (const auto& [i, j] : pairs) {
    assert(i >= 0 && i < blocks && j >= 0 && j < blocks && "pair outside the matrix");
    rows[i].push_back(j);
    rows[j].push_back(i);
  }
  row_start_.assign(1, 0);
  diag_slot_.resize(blocks);
  for (int i = 0; i < blocks; ++i) {
    std::sort(rows[i].begin(), rows[i].end());
    rows[i].erase(std::unique(rows[i].begin(), rows[i].end()), rows[i].end());
    for (int j : rows[i]) {
      if (j == i) diag_slot_[i] = static_cast<int>(cols_.size());
      cols_.push_back(j);
    }
    row_start_.push_back(static_cast<int>(cols_.size()));
  }
  values_.assign(cols_.size(), Eigen::Matrix3d::Zero());
}

void BlockSparseMatrix::set_zero() {
  for (Eigen::Matrix3d& b : values_) b.setZero();
}

int BlockSparseMatrix::slot(int i, int j) const {
  const auto begin = cols_.begin() + row_start_[i], end = cols_.begin() + row_start_[i + 1];
  const auto it = std::lower_bound(begin, end, j);
  return (it != end && *it == j) ? static_cast<int>(it - cols_.begin()) : -1;
}

void BlockSparseMatrix::add(int i, int j, const Eigen::Matrix3d& b) {
  const int s = slot(i, j);
  assert(s >= 0 && "block not in the sparsity pattern");
  values_[s] += b;
}

void BlockSparseMatrix::set_linear_combination(double alpha, const BlockSparseMatrix& a,
                                               double beta, const BlockSparseMatrix& b) {
  assert(a.same_pattern(b));
  if (!same_pattern(a)) *this = a;
  for (size_t s = 0; s < values_.size(); ++s) values_[s] = alpha * a.values_[s] + beta * b.values_[s];
}

void BlockSparseMatrix::add_diagonal(const std::vector<double>& d) {
  for (int i = 0; i < n_; ++i) values_[diag_slot_[i]].diagonal().array() += d[i];
}

void BlockSparseMatrix::multiply(const std::vector<Vec3>& x, std::vector<Vec3>& y) const {
  y.resize(n_);
  for (int i = 0; i < n_; ++i) {
    Vec3 sum = Vec3::Zero();
    for (int s = row_start_[i]; s < row_start_[i + 1]; ++s) sum += values_[s] * x[cols_[s]];
    y[i] = sum;
  }
}

Eigen::SparseMatrix<double> BlockSparseMatrix::to_eigen() const {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(values_.size() * 9);
  for (int i = 0; i < n_; ++i) {
    for (int s = row_start_[i]; s < row_start_[i + 1]; ++s) {
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) triplets.emplace_back(3 * i + r, 3 * cols_[s] + c, values_[s](r, c));
      }
    }
  }
  Eigen::SparseMatrix<double> m(3 * n_, 3 * n_);
  m.setFromTriplets(triplets.begin(), triplets.end());
  return m;
}

}  // namespace cloth
