#pragma once
// Sparse Cholesky factor A = L L^T of a symmetric positive definite matrix of N x N blocks, for
// the two-level preconditioner's coarse problem (coarse_correction.hpp: one 6 x 6 block per
// aggregate, its rigid motions). Eigen's SimplicialLLT works one scalar at a time through index
// arrays; here every operation is a fixed-size N x N product, which is what made the coarse
// level's factorisation and its solve (forward and backward, every CG iteration) cheaper
// (BM_SolvePart/coarse-factor, coarse-apply).
//
// Up-looking (row by row) Cholesky, as in Davis, "Direct Methods for Sparse Linear Systems"
// (2006), section 4.7 (cs_chol), on blocks: row k of L solves the triangular system
// L(0:k, 0:k) L(k, 0:k)^T = A(0:k, k), whose nonzero pattern is the reach of A(0:k, k)'s pattern
// in the elimination tree (cs_ereach). The block pattern is given in its elimination order (the
// caller chooses a fill-reducing one); the symbolic phase runs once per pattern.
#include <array>
#include <vector>

#include <Eigen/Core>

#include "core/parallel.hpp"

namespace cloth {

template <int N>
class SparseBlockCholesky {
 public:
  using Block = Eigen::Matrix<double, N, N>;
  using Segment = Eigen::Matrix<double, N, 1>;

  /// Rows [0, second_domain) and [second_domain, separator) of an order: two domains, then the
  /// separator's rows.
  struct DomainOrder {
    std::vector<int> row_at;  ///< the given order's row at each place of the new one
    int second_domain = 0, separator = 0;
  };
  /// The rows of `upper` (as analyze takes it, in a fill-reducing order) in another order with
  /// the same factor, since it is a topological order of the same elimination tree (a row after
  /// its descendants): two groups of whole subtrees, about equal in L's blocks, then the rows
  /// above them. The top of the tree is taken apart until its subtrees balance; of the splits
  /// seen, the one that leaves the least serial work (the larger group plus the rows above).
  static DomainOrder domain_order(const std::vector<std::vector<int>>& upper);

  /// Symbolic phase. upper[k] lists the block rows i < k with A(i, k) in the pattern (in any
  /// order), not k itself: every diagonal block A(k, k) is taken to be in the pattern. The rows
  /// may come as two domains and a separator (domain_order): rows [0, second_domain) and
  /// [second_domain, separator) with no block between the two, then the separator's rows
  /// [separator, n). Neither domain's rows then reach the other's in the elimination tree, so
  /// each domain's rows are factored and solved on a thread of their own, and a separator row's
  /// sums over each domain's columns in the forward solve too; the rest is serial.
  /// separator = second_domain = n (or the defaults): one domain, all serial.
  void analyze(const std::vector<std::vector<int>>& upper, int second_domain = -1, int separator = -1);
  /// Numeric phase on up to `threads` threads (when `parallel`). entry(e) returns A's block e,
  /// the blocks numbered row by row as analyze was given them: row k's A(i, k) in upper[k]'s
  /// order, then A(k, k) (entries() in all); it is called from several threads at once and
  /// must not throw (it runs inside an OpenMP region). False when A is not positive definite or
  /// not finite; the factor is then unusable until a factor() succeeds. Every thread count
  /// computes the same bits.
  template <typename EntryOf>
  bool factor(EntryOf entry, int threads = 1, bool parallel = false);
  /// x = A^-1 x, x holding block row k at [N k, N k + N); the same bits on any thread count.
  void solve(Eigen::VectorXd& x, int threads = 1, bool parallel = false) const;
  int block_rows() const { return static_cast<int>(diag_inv_.size()); }
  /// The blocks entry() numbers: A's pattern, diagonal included.
  int entries() const { return static_cast<int>(upper_rows_.size()); }
  /// Off-diagonal blocks of L (the fill included).
  int factor_blocks() const { return static_cast<int>(rows_.size()); }
  /// The separator's rows.
  int separator_rows() const { return block_rows() - range_[2]; }

 private:
  /// Whether both domains have rows (else a thread would only be started to wait).
  bool two_domains() const { return range_[1] > range_[0] && range_[2] > range_[1]; }
  /// The elimination tree (parent, -1 at a root) and each row's reach, in topological order.
  static void eliminate_symbolically(const std::vector<std::vector<int>>& upper, std::vector<int>& parent,
                                     std::vector<int>& reach_start, std::vector<int>& reach);
  bool factor_row(int k, const Block& diagonal);
  template <typename EntryOf>
  bool factor_rows(int begin, int end, EntryOf& entry);
  /// The forward solve's columns [begin, end); their updates of the separator's rows go to
  /// `separator_sums` (by separator row) when given, else to x.
  void forward_columns(int begin, int end, Eigen::VectorXd& x, std::vector<Segment>* separator_sums) const;
  void backward_rows(int begin, int end, Eigen::VectorXd& x) const;

  /// Row k's entries in A: upper_rows_[upper_start_[k] ..] (the rows i < k, then k itself).
  std::vector<int> upper_start_, upper_rows_;
  /// The first domain's rows [range_[0], range_[1]), the second's [range_[1], range_[2]), the
  /// separator's [range_[2], n).
  std::array<int, 3> range_{};
  /// Row k's reach (the columns i < k where L(k, i) is nonzero), in topological order:
  /// reach_[reach_start_[k] ..]; L(k, reach_[r]) is l_[reach_entry_[r]].
  std::vector<int> reach_start_, reach_, reach_entry_;
  /// Per column, its first entry in a separator row (its entries after it are all in such rows).
  std::vector<int> separator_entry_;
  /// solve(): each domain's updates of the separator's rows, by separator row.
  mutable std::array<std::vector<Segment>, 2> domain_sums_;
  /// Column i of L below the diagonal: rows_[col_start_[i] ..] (ascending), values in l_.
  std::vector<int> col_start_, rows_;
  std::vector<Block> l_;
  std::vector<Block> diag_inv_;        ///< L(k, k)^-1 (lower triangular)
  std::vector<Block> work_;            ///< numeric phase: the column being solved, by block row
};

template <int N>
template <typename EntryOf>
bool SparseBlockCholesky<N>::factor_rows(int begin, int end, EntryOf& entry) {
  for (int k = begin; k < end; ++k) {
    for (int r = reach_start_[size_t(k)]; r < reach_start_[size_t(k) + 1]; ++r) work_[size_t(reach_[size_t(r)])].setZero();
    const int diagonal = upper_start_[size_t(k) + 1] - 1;
    for (int e = upper_start_[size_t(k)]; e < diagonal; ++e) work_[size_t(upper_rows_[size_t(e)])] = entry(e);
    if (!factor_row(k, entry(diagonal))) return false;
  }
  return true;
}

template <int N>
template <typename EntryOf>
bool SparseBlockCholesky<N>::factor(EntryOf entry, int threads, bool parallel) {
  // A domain's rows write only their own work_ and columns of L, so the two domains run at once.
  std::array<bool, 2> ok{};
  parallel_tasks(2, threads, parallel && two_domains(), [&](int d) { ok[size_t(d)] = factor_rows(range_[size_t(d)], range_[size_t(d) + 1], entry); });
  return ok[0] && ok[1] && factor_rows(range_[2], block_rows(), entry);
}

extern template class SparseBlockCholesky<6>;

}  // namespace cloth
