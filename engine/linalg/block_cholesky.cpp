// Up-looking sparse Cholesky on N x N blocks (block_cholesky.hpp).
#include "linalg/block_cholesky.hpp"

#include <algorithm>
#include <cassert>

#include <Eigen/Cholesky>

namespace cloth {

template <int N>
void SparseBlockCholesky<N>::eliminate_symbolically(const std::vector<std::vector<int>>& upper,
                                                    std::vector<int>& parent, std::vector<int>& reach_start,
                                                    std::vector<int>& reach) {
  const int n = static_cast<int>(upper.size());
  // The elimination tree (Davis, section 4.1, cs_etree), with path compression through
  // `ancestor`.
  parent.assign(size_t(n), -1);
  std::vector<int> ancestor(size_t(n), -1);
  for (int k = 0; k < n; ++k) {
    for (int i : upper[size_t(k)]) {
      assert(0 <= i && i < k);
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
  reach_start.assign(size_t(n) + 1, 0);
  reach.clear();
  std::vector<int> mark(static_cast<size_t>(n), -1), path, stack(static_cast<size_t>(n));
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
    reach.insert(reach.end(), stack.begin() + top, stack.end());
    reach_start[size_t(k) + 1] = static_cast<int>(reach.size());
  }
}

template <int N>
typename SparseBlockCholesky<N>::DomainOrder SparseBlockCholesky<N>::domain_order(
    const std::vector<std::vector<int>>& upper) {
  const int n = static_cast<int>(upper.size());
  std::vector<int> parent, reach_start, reach;
  eliminate_symbolically(upper, parent, reach_start, reach);
  // A row's work in the solves and the factorisation goes with its column of L: weight it by
  // the column's blocks (its diagonal one included), and a subtree by the sum over its rows.
  std::vector<long long> subtree(size_t(n), 1);
  for (int i : reach) ++subtree[size_t(i)];
  std::vector<std::vector<int>> children(static_cast<size_t>(n));
  std::vector<int> roots;
  for (int i = 0; i < n; ++i) {  // a parent comes after its children
    if (parent[size_t(i)] < 0) {
      roots.push_back(i);
    } else {
      subtree[size_t(parent[size_t(i)])] += subtree[size_t(i)];
      children[size_t(parent[size_t(i)])].push_back(i);
    }
  }
  // Take the heaviest subtree apart (its root to the separator, its children to the candidates)
  // until the candidates, dealt heaviest first to the lighter of two groups, balance; keep the
  // split whose serial work (larger group + separator) is least.
  std::vector<int> candidates = roots, best_group(size_t(n), -1);
  long long separator_weight = 0, best_cost = -1;
  std::vector<int> group(static_cast<size_t>(n));
  // The separator only grows (by each root taken apart): once it alone costs the best split's
  // work, no later split can be better.
  while (!candidates.empty() && (best_cost < 0 || separator_weight < best_cost)) {
    std::sort(candidates.begin(), candidates.end(),
              [&](int a, int b) { return subtree[size_t(a)] != subtree[size_t(b)] ? subtree[size_t(a)] > subtree[size_t(b)] : a < b; });
    std::array<long long, 2> weight{};
    for (int c : candidates) {
      const int g = weight[1] < weight[0] ? 1 : 0;
      weight[size_t(g)] += subtree[size_t(c)];
      group[size_t(c)] = g;
    }
    const long long cost = std::max(weight[0], weight[1]) + separator_weight;
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      std::fill(best_group.begin(), best_group.end(), 2);
      for (int c : candidates) best_group[size_t(c)] = group[size_t(c)];
    }
    // Taking a leaf apart would only move its weight from a group to the separator.
    const int heaviest = candidates.front();
    if (children[size_t(heaviest)].empty()) break;
    candidates.erase(candidates.begin());
    separator_weight += subtree[size_t(heaviest)];
    for (int c : children[size_t(heaviest)]) separator_weight -= subtree[size_t(c)];
    candidates.insert(candidates.end(), children[size_t(heaviest)].begin(), children[size_t(heaviest)].end());
  }
  // A row below a chosen subtree's root joins its group (parents first: from the last row down).
  for (int i = n - 1; i >= 0; --i) {
    if (best_group[size_t(i)] == 2 && parent[size_t(i)] >= 0 && best_group[size_t(parent[size_t(i)])] < 2) {
      best_group[size_t(i)] = best_group[size_t(parent[size_t(i)])];
    }
  }
  DomainOrder order;
  for (int g = 0; g < 3; ++g) {
    if (g == 1) order.second_domain = static_cast<int>(order.row_at.size());
    if (g == 2) order.separator = static_cast<int>(order.row_at.size());
    for (int i = 0; i < n; ++i) {
      if (best_group[size_t(i)] == g) order.row_at.push_back(i);
    }
  }
  return order;
}

template <int N>
void SparseBlockCholesky<N>::analyze(const std::vector<std::vector<int>>& upper, int second_domain,
                                     int separator) {
  const int n = static_cast<int>(upper.size());
  if (separator < 0) separator = n;
  if (second_domain < 0) second_domain = separator;
  assert(0 <= second_domain && second_domain <= separator && separator <= n);
  range_ = {0, second_domain, separator};
  upper_start_.assign(1, 0);
  upper_rows_.clear();
  for (int k = 0; k < n; ++k) {
    for (int i : upper[size_t(k)]) {
      assert((k < second_domain || k >= separator || i >= second_domain) && "the domains are coupled");
      upper_rows_.push_back(i);
    }
    upper_rows_.push_back(k);
    upper_start_.push_back(static_cast<int>(upper_rows_.size()));
  }
  std::vector<int> parent;
  eliminate_symbolically(upper, parent, reach_start_, reach_);
  std::vector<int> column_count(size_t(n), 0);
  for (int i : reach_) ++column_count[size_t(i)];
  // L's columns, rows ascending: row k enters column i when k's reach contains i.
  col_start_.assign(size_t(n) + 1, 0);
  for (int i = 0; i < n; ++i) col_start_[size_t(i) + 1] = col_start_[size_t(i)] + column_count[size_t(i)];
  rows_.resize(reach_.size());
  reach_entry_.resize(reach_.size());
  std::vector<int> fill(col_start_.begin(), col_start_.end() - 1);
  for (int k = 0; k < n; ++k) {
    for (int r = reach_start_[size_t(k)]; r < reach_start_[size_t(k) + 1]; ++r) {
      const int p = fill[size_t(reach_[size_t(r)])]++;
      rows_[size_t(p)] = k;
      reach_entry_[size_t(r)] = p;
    }
  }
  // Where each column's separator rows start (rows_ ascending), for the forward solve's sums per
  // domain.
  separator_entry_.resize(size_t(n));
  for (int i = 0; i < n; ++i) {
    const auto begin = rows_.begin() + col_start_[size_t(i)], end = rows_.begin() + col_start_[size_t(i) + 1];
    separator_entry_[size_t(i)] = static_cast<int>(std::lower_bound(begin, end, range_[2]) - rows_.begin());
  }
  for (auto& sums : domain_sums_) sums.assign(size_t(n - range_[2]), Segment::Zero());
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
    // Rows of column i above k (those before L(k, i)): each such row is in k's reach too (a fill
    // path), its work block set.
    const int entry = reach_entry_[size_t(r)];
    for (int p = col_start_[size_t(i)]; p < entry; ++p) work_[size_t(rows_[size_t(p)])].noalias() -= l_[size_t(p)] * lki_t;
    d.noalias() -= lki_t.transpose() * lki_t;
    l_[size_t(entry)] = lki_t.transpose();
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
void SparseBlockCholesky<N>::forward_columns(int begin, int end, Eigen::VectorXd& x,
                                             std::vector<Segment>* separator_sums) const {
  // L z = x column by column: z_j = L(j, j)^-1 x_j once every earlier column has updated x_j,
  // then z_j's updates of the rows below. A domain's columns reach its own rows and the
  // separator's; the latter are summed apart (separator_sums) so that the domains can run at
  // once.
  for (int j = begin; j < end; ++j) {
    const Segment z = diag_inv_[size_t(j)] * x.template segment<N>(N * j);
    x.template segment<N>(N * j) = z;
    const int split = separator_sums ? separator_entry_[size_t(j)] : col_start_[size_t(j) + 1];
    for (int p = col_start_[size_t(j)]; p < split; ++p) {
      x.template segment<N>(N * rows_[size_t(p)]).noalias() -= l_[size_t(p)] * z;
    }
    for (int p = split; p < col_start_[size_t(j) + 1]; ++p) {
      (*separator_sums)[size_t(rows_[size_t(p)] - range_[2])].noalias() += l_[size_t(p)] * z;
    }
  }
}

template <int N>
void SparseBlockCholesky<N>::backward_rows(int begin, int end, Eigen::VectorXd& x) const {
  // L^T y = z from the last row up, row j of L^T being column j of L (later rows only: its own
  // domain's and the separator's).
  for (int j = end - 1; j >= begin; --j) {
    Segment s = x.template segment<N>(N * j);
    for (int p = col_start_[size_t(j)]; p < col_start_[size_t(j) + 1]; ++p) {
      s.noalias() -= l_[size_t(p)].transpose() * x.template segment<N>(N * rows_[size_t(p)]);
    }
    x.template segment<N>(N * j) = diag_inv_[size_t(j)].transpose() * s;
  }
}

template <int N>
void SparseBlockCholesky<N>::solve(Eigen::VectorXd& x, int threads, bool parallel) const {
  assert(x.size() == N * block_rows());
  // Forward: each domain's columns on its thread, their updates of the separator's rows summed
  // per domain; then those sums taken off the separator's rows in a fixed order (the same bits on
  // any thread count), and the separator's columns.
  const int n = block_rows(), separator = range_[2];
  parallel_tasks(2, threads, parallel && two_domains(), [&](int d) {
    std::vector<Segment>& sums = domain_sums_[size_t(d)];
    std::fill(sums.begin(), sums.end(), Segment::Zero());
    forward_columns(range_[size_t(d)], range_[size_t(d) + 1], x, &sums);
  });
  for (int k = separator; k < n; ++k) {
    x.template segment<N>(N * k) -= domain_sums_[0][size_t(k - separator)] + domain_sums_[1][size_t(k - separator)];
  }
  forward_columns(separator, n, x, nullptr);
  // Backward: the separator's rows (its columns reach only later separator rows), then each
  // domain's (its columns reach its own rows and the separator's).
  backward_rows(separator, n, x);
  parallel_tasks(2, threads, parallel && two_domains(), [&](int d) { backward_rows(range_[size_t(d)], range_[size_t(d) + 1], x); });
}

template class SparseBlockCholesky<6>;

}  // namespace cloth
