#pragma once
// Sparse Cholesky factor A = L L^T of a symmetric positive definite matrix of N x N blocks, for
// the two-level preconditioner's coarse problem (coarse_correction.hpp: one 6 x 6 block per
// aggregate, its rigid motions). Eigen's SimplicialLLT works one scalar at a time through index
// arrays; here every operation is a fixed-size N x N product, which is what made the coarse
// level's factorisation and its solve (forward and backward, every CG iteration) cheaper
// (bench/README.md).
//
// Up-looking (row by row) Cholesky, as in Davis, "Direct Methods for Sparse Linear Systems"
// (2006), section 4.7 (cs_chol), on blocks: row k of L solves the triangular system
// L(0:k, 0:k) L(k, 0:k)^T = A(0:k, k), whose nonzero pattern is the reach of A(0:k, k)'s pattern
// in the elimination tree (cs_ereach). The block pattern is given in its elimination order (the
// caller chooses a fill-reducing one); the symbolic phase runs once per pattern.
#include <vector>

#include <Eigen/Core>

namespace cloth {

template <int N>
class SparseBlockCholesky {
 public:
  using Block = Eigen::Matrix<double, N, N>;
  using Segment = Eigen::Matrix<double, N, 1>;

  /// Symbolic phase. upper[k] lists the block rows i < k with A(i, k) in the pattern (in any
  /// order), not k itself: every diagonal block A(k, k) is taken to be in the pattern.
  void analyze(const std::vector<std::vector<int>>& upper);
  /// Numeric phase: block(i, k) returns A(i, k) for i <= k in the pattern given to analyze (only
  /// those are asked for). False when A is not positive definite or not finite; the factor is then
  /// unusable until a factor() succeeds.
  template <typename BlockOf>
  bool factor(BlockOf block);
  /// x = A^-1 x, x holding block row k at [N k, N k + N).
  void solve(Eigen::VectorXd& x) const;
  int block_rows() const { return static_cast<int>(diag_inv_.size()); }
  /// Off-diagonal blocks of L (the fill included).
  int factor_blocks() const { return static_cast<int>(rows_.size()); }

 private:
  bool factor_row(int k, const Block& diagonal);

  std::vector<std::vector<int>> upper_;
  /// Row k's reach (the columns i < k where L(k, i) is nonzero), in topological order:
  /// reach_[reach_start_[k] ..].
  std::vector<int> reach_start_, reach_;
  /// Column i of L below the diagonal: rows_[col_start_[i] ..] (ascending), values in l_.
  std::vector<int> col_start_, rows_;
  std::vector<Block> l_;
  std::vector<Block> diag_inv_;        ///< L(k, k)^-1 (lower triangular)
  std::vector<int> filled_;            ///< numeric phase: entries of each column written so far
  std::vector<Block> work_;            ///< numeric phase: the column being solved, by block row
};

template <int N>
template <typename BlockOf>
bool SparseBlockCholesky<N>::factor(BlockOf block) {
  const int n = block_rows();
  filled_.assign(size_t(n), 0);
  for (int k = 0; k < n; ++k) {
    for (int r = reach_start_[size_t(k)]; r < reach_start_[size_t(k) + 1]; ++r) work_[size_t(reach_[size_t(r)])].setZero();
    for (int i : upper_[size_t(k)]) work_[size_t(i)] = block(i, k);
    if (!factor_row(k, block(k, k))) return false;
  }
  return true;
}

extern template class SparseBlockCholesky<6>;

}  // namespace cloth
