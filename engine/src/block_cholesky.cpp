// Up-looking sparse Cholesky on N x N blocks (block_cholesky.hpp).
#include "cloth/block_cholesky.hpp"

#include <cassert>

#include <Eigen/Cholesky>

namespace cloth {

template <int N>
void SparseBlockCholesky<N>::analyze(const std::vector<std::vector<int>>& upper) {
  upper_ = upper;
  const int n = static_cast<int>(upper.size());
  // The elimination tree (Davis, section 4.1, cs_etree), with path compression through
  // `ancestor`.
  std::vector<int> parent(size_t(n), -1), ancestor(size_t(n), -1);
  for (int k = 0; k < n; ++k) {
    for (int i : upper[size_t(k)]) {
      assert(i < k);
      while (i != -1 && i < k) {
        const int next = ancestor[size_t(i)];
        ancestor[size_t(i)] = k;
        if (next == -1) parent[size_t(i)] = k;
        i = next;
      }
    }
  }
  // Each row's reach (section 4.3, cs_ereach): the tree paths from A(0:k, k)'s rows up to k,
  // each path pushed whole, so that every node comes after its descendants.
  reach_start_.assign(size_t(n) + 1, 0);
  reach_.clear();
  std::vector<int> mark(static_cast<size_t>(n), -1), path, stack(static_cast<size_t>(n));
  std::vector<int> column_count(size_t(n), 0);
  for (int k = 0; k < n; ++k) {
    mark[size_t(k)] = k;
    int top = n;
    for (int i : upper[size_t(k)]) {
      path.clear();
      for (; mark[size_t(i)] != k; i = parent[size_t(i)]) {
        path.push_back(i);
        mark[size_t(i)] = k;
      }
      while (!path.empty()) {
        stack[size_t(--top)] = path.back();
        path.pop_back();
      }
    }
    for (int t = top; t < n; ++t) {
      reach_.push_back(stack[size_t(t)]);
      ++column_count[size_t(stack[size_t(t)])];
    }
    reach_start_[size_t(k) + 1] = static_cast<int>(reach_.size());
  }
  // L's columns, rows ascending: row k enters column i when k's reach contains i.
  col_start_.assign(size_t(n) + 1, 0);
  for (int i = 0; i < n; ++i) col_start_[size_t(i) + 1] = col_start_[size_t(i)] + column_count[size_t(i)];
  rows_.resize(reach_.size());
  std::vector<int> fill(col_start_.begin(), col_start_.end() - 1);
  for (int k = 0; k < n; ++k) {
    for (int r = reach_start_[size_t(k)]; r < reach_start_[size_t(k) + 1]; ++r) {
      rows_[size_t(fill[size_t(reach_[size_t(r)])]++)] = k;
    }
  }
  l_.assign(rows_.size(), Block::Zero());
  diag_inv_.assign(size_t(n), Block::Identity());
  work_.assign(size_t(n), Block::Zero());
}

template <int N>
bool SparseBlockCholesky<N>::factor_row(int k, const Block& diagonal) {
  // work_[i] = A(i, k) - Σ_{j<i} L(i, j) L(k, j)^T, final once every descendant of i is done;
  // then L(k, i)^T = L(i, i)^-1 work_[i].
  Block d = diagonal;
  for (int r = reach_start_[size_t(k)]; r < reach_start_[size_t(k) + 1]; ++r) {
    const int i = reach_[size_t(r)];
    const Block lki_t = diag_inv_[size_t(i)] * work_[size_t(i)];
    const int begin = col_start_[size_t(i)], end = begin + filled_[size_t(i)];
    // Rows of column i above k: each such row is in k's reach too (a fill path), its work block
    // set.
    for (int p = begin; p < end; ++p) work_[size_t(rows_[size_t(p)])].noalias() -= l_[size_t(p)] * lki_t;
    d.noalias() -= lki_t.transpose() * lki_t;
    assert(rows_[size_t(end)] == k);
    l_[size_t(end)] = lki_t.transpose();
    ++filled_[size_t(i)];
  }
  if (!d.allFinite()) return false;
  const Eigen::LLT<Block> llt(d);
  if (llt.info() != Eigen::Success) return false;
  // The inverse held as a full block (zeros above the diagonal): fixed-size products beat
  // triangular ones at this size.
  Block& inverse = diag_inv_[size_t(k)];
  inverse.setIdentity();
  llt.matrixL().solveInPlace(inverse);
  return true;
}

template <int N>
void SparseBlockCholesky<N>::solve(Eigen::VectorXd& x) const {
  const int n = block_rows();
  assert(x.size() == N * n);
  // L z = x, column by column.
  for (int j = 0; j < n; ++j) {
    const Segment z = diag_inv_[size_t(j)] * x.template segment<N>(N * j);
    x.template segment<N>(N * j) = z;
    for (int p = col_start_[size_t(j)]; p < col_start_[size_t(j) + 1]; ++p) {
      x.template segment<N>(N * rows_[size_t(p)]).noalias() -= l_[size_t(p)] * z;
    }
  }
  // L^T y = z, row j of L^T being column j of L.
  for (int j = n - 1; j >= 0; --j) {
    Segment s = x.template segment<N>(N * j);
    for (int p = col_start_[size_t(j)]; p < col_start_[size_t(j) + 1]; ++p) {
      s.noalias() -= l_[size_t(p)].transpose() * x.template segment<N>(N * rows_[size_t(p)]);
    }
    x.template segment<N>(N * j) = diag_inv_[size_t(j)].transpose() * s;
  }
}

template class SparseBlockCholesky<6>;

}  // namespace cloth
