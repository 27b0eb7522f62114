#pragma once
// Block-sparse symmetric-pattern matrix of 3x3 blocks (Baraff-Witkin section 2.3: "the sparse
// data structures"): one row per vertex, one block per pair of vertices that share an element.
// The pattern is built once per topology and shared by the copies of a matrix (dfdx, dfdv and A of
// the implicit step); values are overwritten in place each step.
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Sparse>

#include "cloth/vec.hpp"

namespace cloth {

class BlockSparseMatrix {
 public:
  /// The sparsity pattern: CSR row pointers and sorted block columns.
  struct Pattern {
    int n = 0;
    std::vector<int> row_start;  ///< CSR row pointers over blocks (size n + 1)
    std::vector<int> cols;       ///< block column of each slot, sorted within a row
    std::vector<int> diag_slot;  ///< slot of (i, i)
  };

  BlockSparseMatrix() = default;
  /// Pattern with every diagonal block and blocks (i, j), (j, i) for each pair given.
  BlockSparseMatrix(int blocks, const std::vector<std::pair<int, int>>& pairs);

  int blocks() const { return p_->n; }
  void set_zero(int threads = 1);
  /// Position of block (i, j) in the value array, or -1 when it is not in the pattern.
  int slot(int i, int j) const;
  Eigen::Matrix3d& value(int slot) { return values_[slot]; }
  const Eigen::Matrix3d& value(int slot) const { return values_[slot]; }
  const Eigen::Matrix3d& diagonal(int i) const { return values_[p_->diag_slot[i]]; }
  /// Row i's slots are [row_begin(i), row_end(i)), sorted by column; col(slot) is the column.
  int row_begin(int i) const { return p_->row_start[i]; }
  int row_end(int i) const { return p_->row_start[i + 1]; }
  int col(int slot) const { return p_->cols[slot]; }
  int diagonal_slot(int i) const { return p_->diag_slot[i]; }
  int slots() const { return static_cast<int>(p_->cols.size()); }
  /// Adds b to block (i, j), which must be in the pattern.
  void add(int i, int j, const Eigen::Matrix3d& b);
  /// this += diag(scale d_i I).
  void add_diagonal(const std::vector<double>& d, double scale = 1.0);

  /// y = this * x, rows split over up to `threads` threads (each row's sum is the same either way).
  void multiply(const std::vector<Vec3>& x, std::vector<Vec3>& y, int threads = 1) const;
  /// The same matrix in Eigen's scalar format (direct solves, tests).
  Eigen::SparseMatrix<double> to_eigen() const;
  /// The shared pattern: equal pointers mean the same pattern without comparing it (the incomplete
  /// Cholesky keeps its symbolic phase while A's pattern object stays the same).
  const std::shared_ptr<const Pattern>& pattern() const { return p_; }
  bool same_pattern(const BlockSparseMatrix& o) const {
    return p_ == o.p_ || (p_->cols == o.p_->cols && p_->row_start == o.p_->row_start);
  }

 private:
  std::shared_ptr<const Pattern> p_ = std::make_shared<const Pattern>(Pattern{0, {0}, {}, {}});
  std::vector<Eigen::Matrix3d> values_;
};

}  // namespace cloth
