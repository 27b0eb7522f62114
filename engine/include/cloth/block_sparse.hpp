#pragma once
// Block-sparse symmetric-pattern matrix of 3x3 blocks (Baraff-Witkin section 2.3: "the sparse
// data structures"): one row per vertex, one block per pair of vertices that share an element.
// The pattern is built once per topology; values are overwritten each step.
#include <utility>
#include <vector>

#include <Eigen/Sparse>

#include "cloth/vec.hpp"

namespace cloth {

class BlockSparseMatrix {
 public:
  BlockSparseMatrix() = default;
  /// Pattern with every diagonal block and blocks (i, j), (j, i) for each pair given.
  BlockSparseMatrix(int blocks, const std::vector<std::pair<int, int>>& pairs);

  int blocks() const { return n_; }
  void set_zero();
  /// Position of block (i, j) in the value array, or -1 when it is not in the pattern.
  int slot(int i, int j) const;
  Eigen::Matrix3d& value(int slot) { return values_[slot]; }
  const Eigen::Matrix3d& value(int slot) const { return values_[slot]; }
  const Eigen::Matrix3d& diagonal(int i) const { return values_[diag_slot_[i]]; }
  /// Row i's slots are [row_begin(i), row_end(i)), sorted by column; col(slot) is the column.
  int row_begin(int i) const { return row_start_[i]; }
  int row_end(int i) const { return row_start_[i + 1]; }
  int col(int slot) const { return cols_[slot]; }
  int diagonal_slot(int i) const { return diag_slot_[i]; }
  int slots() const { return static_cast<int>(cols_.size()); }
  /// Adds b to block (i, j), which must be in the pattern.
  void add(int i, int j, const Eigen::Matrix3d& b);
  /// this = alpha * a + beta * b, entry by entry, for matrices of the same pattern.
  void set_linear_combination(double alpha, const BlockSparseMatrix& a, double beta,
                              const BlockSparseMatrix& b);
  /// this += diag(d_i I).
  void add_diagonal(const std::vector<double>& d);

  /// y = this * x.
  void multiply(const std::vector<Vec3>& x, std::vector<Vec3>& y) const;
  /// The same matrix in Eigen's scalar format (direct solves, tests).
  Eigen::SparseMatrix<double> to_eigen() const;
  bool same_pattern(const BlockSparseMatrix& o) const { return cols_ == o.cols_ && row_start_ == o.row_start_; }

 private:
  int n_ = 0;
  std::vector<int> row_start_;  ///< CSR row pointers over blocks (size n + 1)
  std::vector<int> cols_;       ///< block column of each slot, sorted within a row
  std::vector<int> diag_slot_;  ///< slot of (i, i)
  std::vector<Eigen::Matrix3d> values_;
};

}  // namespace cloth
