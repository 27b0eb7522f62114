#pragma once
// Block-sparse symmetric-pattern matrix of 3x3 blocks (Baraff-Witkin section 2.3: "the sparse
// data structures"): one row per vertex, one block per pair of vertices that share an element.
// The pattern is built once per topology and shared by the copies of a matrix (dfdx and dfdv);
// values are overwritten in place each step. A matrix known to be symmetric (the implicit step's
// A, eq. 16) may keep only its blocks on and above the diagonal, each block below being its
// mirror's transpose: 7 of a grid cloth's 13 blocks per row, about half the memory and half the
// assembly's writes, for a product that gathers the blocks below from earlier rows (measured
// 4-8% slower at 128², ~20% at 256²: BM_SolvePart/product, BM_Frame).
#include <cassert>
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Sparse>

#include "core/vec.hpp"

namespace cloth {

/// The index of column j in row i of CSR rows (cols sorted within each row), or -1 when row i
/// does not have it.
int find_in_rows(const std::vector<int>& row_start, const std::vector<int>& cols, int i, int j);

class BlockSparseMatrix {
 public:
  /// The sparsity pattern: CSR row pointers and sorted block columns.
  struct Pattern {
    int n = 0;
    std::vector<int> row_start;  ///< CSR row pointers over blocks (size n + 1)
    std::vector<int> cols;       ///< block column of each slot, sorted within a row
    std::vector<int> diag_slot;  ///< slot of (i, i)
  };

  /// Which blocks have values of their own: all, or (symmetric) those with col >= row.
  enum class Storage { full, symmetric };

  BlockSparseMatrix() = default;
  /// Pattern with every diagonal block and blocks (i, j), (j, i) for each pair given.
  BlockSparseMatrix(int blocks, const std::vector<std::pair<int, int>>& pairs, Storage storage = Storage::full);

  int blocks() const { return p_->n; }
  void set_zero(int threads = 1);
  /// Position of block (i, j) in the value array, or -1 when it is not in the pattern.
  int slot(int i, int j) const;
  bool symmetric() const { return !packed_.empty(); }
  /// Whether `slot` has a value of its own (every slot unless symmetric, then col >= row).
  bool stores(int slot) const { return packed_.empty() || packed_[size_t(slot)] >= 0; }
  /// The value of a slot that stores() (writable: the assembly adds into it in place).
  Eigen::Matrix3d& value(int slot) {
    assert(stores(slot) && "a symmetric matrix's block below the diagonal is its mirror's");
    return values_[packed_.empty() ? size_t(slot) : size_t(packed_[size_t(slot)])];
  }
  const Eigen::Matrix3d& value(int slot) const {
    assert(stores(slot) && "a symmetric matrix's block below the diagonal is its mirror's");
    return values_[packed_.empty() ? size_t(slot) : size_t(packed_[size_t(slot)])];
  }
  /// The block at any slot: below the diagonal of a symmetric matrix, its mirror transposed.
  Eigen::Matrix3d block(int slot) const {
    const int p = packed_.empty() ? slot : packed_[size_t(slot)];
    return p >= 0 ? values_[size_t(p)] : Eigen::Matrix3d(values_[size_t(~p)].transpose());
  }
  const Eigen::Matrix3d& diagonal(int i) const { return value(p_->diag_slot[i]); }
  /// Row i's slots are [row_begin(i), row_end(i)), sorted by column; col(slot) is the column.
  int row_begin(int i) const { return p_->row_start[i]; }
  int row_end(int i) const { return p_->row_start[i + 1]; }
  int col(int slot) const { return p_->cols[slot]; }
  int diagonal_slot(int i) const { return p_->diag_slot[i]; }
  int slots() const { return static_cast<int>(p_->cols.size()); }
  /// Adds b to block (i, j), which must be in the pattern (and stored: see stores()).
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
  /// Symmetric storage only (else empty): per slot, its index in values_, or for a slot below the
  /// diagonal ~(its mirror's index).
  std::vector<int> packed_;
};

}  // namespace cloth
