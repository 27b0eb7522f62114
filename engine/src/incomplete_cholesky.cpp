// Block IC(0) of the reduced matrix S A S + (I - S), the preconditioner of B&W's modified PCG
// (section 5.3). Right-looking, in the L D L^T form Ã ≈ U^T D^-1 U with U block upper triangular
// (in elimination order) and U_kk = D_k; only U's blocks in A's pattern are kept. The elimination
// order and why it allows two threads: incomplete_cholesky.hpp.
#include "cloth/incomplete_cholesky.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <Eigen/Cholesky>

#include "cloth/parallel.hpp"

namespace cloth {

namespace {

// Ã's block (i, j) of the constrained problem (see the header).
Eigen::Matrix3d reduced_block(const Eigen::Matrix3d& a, const Eigen::Matrix3d& Si,
                              const Eigen::Matrix3d& Sj, bool diagonal) {
  if (is_unconstrained(Si) && is_unconstrained(Sj)) return a;  // between free vertices, most of them
  Eigen::Matrix3d r = Si * a * Sj;
  if (diagonal) r += Eigen::Matrix3d::Identity() - Si;
  return r;
}

// Manteuffel's shifts: alpha = 1e-3, 4e-3, ... 16. Beyond alpha ~ 1 the shifted factor is a poor
// preconditioner anyway, and a matrix that still breaks down there is not SPD.
constexpr double kFirstShift = 1e-3;
constexpr double kShiftGrowth = 4.0;
constexpr int kMaxShifts = 8;

}  // namespace

void BlockIncompleteCholesky::analyze(const BlockSparseMatrix& A) {
  analysed_ = A.pattern();
  const int n = A.blocks();
  // Domains by index range; a vertex coupled to an earlier range joins the separator, so no
  // block couples two domains.
  const auto domain_of = [n](int v) { return static_cast<int>(static_cast<long long>(v) * kDomains / n); };
  std::vector<char> in_separator(size_t(n), 0);
  for (int v = 0; v < n; ++v) {
    for (int s = A.row_begin(v); s < A.row_end(v); ++s) {
      if (domain_of(A.col(s)) < domain_of(v)) in_separator[size_t(v)] = 1;
    }
  }
  order_.clear();
  range_.assign(kDomains + 1, 0);
  // Odd domains are eliminated from their far end, so that both domains end at the separator
  // between them, as the natural order ends at the last vertex: eliminating a vertex next to the
  // separator while its far neighbours wait would create fill between them that IC(0) drops.
  for (int d = 0; d < kDomains; ++d) {
    range_[size_t(d)] = static_cast<int>(order_.size());
    for (int i = 0; i < n; ++i) {
      const int v = d % 2 == 0 ? i : n - 1 - i;
      if (domain_of(v) == d && !in_separator[size_t(v)]) order_.push_back(v);
    }
  }
  range_[kDomains] = static_cast<int>(order_.size());
  for (int v = 0; v < n; ++v) {
    if (in_separator[size_t(v)]) order_.push_back(v);
  }
  std::vector<int> position(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) position[size_t(order_[size_t(k)])] = k;

  // Ã in elimination order, columns sorted by position.
  row_start_.assign(1, 0);
  cols_.clear();
  a_slot_.clear();
  diag_.resize(size_t(n));
  std::vector<std::pair<int, int>> row;  // (position, slot of A)
  for (int k = 0; k < n; ++k) {
    const int v = order_[size_t(k)];
    row.clear();
    for (int s = A.row_begin(v); s < A.row_end(v); ++s) row.emplace_back(position[size_t(A.col(s))], s);
    std::sort(row.begin(), row.end());
    for (const auto& [col, slot] : row) {
      if (col == k) diag_[size_t(k)] = static_cast<int>(cols_.size());
      cols_.push_back(col);
      a_slot_.push_back(slot);
    }
    row_start_.push_back(static_cast<int>(cols_.size()));
  }
  const auto find = [&](int i, int j) {
    const auto begin = cols_.begin() + row_start_[size_t(i)], end = cols_.begin() + row_start_[size_t(i) + 1];
    const auto it = std::lower_bound(begin, end, j);
    return (it != end && *it == j) ? static_cast<int>(it - cols_.begin()) : -1;
  };
  upper_start_.assign(1, 0);
  for (int k = 0; k < n; ++k) upper_start_.push_back(upper_start_.back() + row_start_[size_t(k) + 1] - diag_[size_t(k)]);
  mirror_.resize(cols_.size());
  for (int i = 0; i < n; ++i) {
    for (int s = row_start_[size_t(i)]; s < row_start_[size_t(i) + 1]; ++s) mirror_[size_t(s)] = find(cols_[size_t(s)], i);
  }

  // For pivot k and each pair i <= j of its later neighbours, the update of (i, j) is kept only
  // when (i, j) is in the pattern (IC(0): fill-in is dropped). slot_of[j] = slot of (i, j).
  std::vector<int> slot_of(size_t(n), -1);
  std::vector<Update> deferred;
  updates_.clear();
  update_start_.assign(1, 0);
  deferred_start_.resize(size_t(n));
  const int separator = range_[kDomains];
  for (int k = 0; k < n; ++k) {
    deferred.clear();
    for (int ki = diag_[size_t(k)] + 1; ki < row_start_[size_t(k) + 1]; ++ki) {
      const int i = cols_[size_t(ki)];
      for (int s = diag_[size_t(i)]; s < row_start_[size_t(i) + 1]; ++s) slot_of[size_t(cols_[size_t(s)])] = s;
      for (int kj = ki; kj < row_start_[size_t(k) + 1]; ++kj) {
        const int ij = slot_of[size_t(cols_[size_t(kj)])];
        if (ij < 0) continue;
        const Update up{upper(k, ki), kj, upper(i, ij)};
        if (k < separator && i >= separator) {
          deferred.push_back(up);
        } else {
          updates_.push_back(up);
        }
      }
      for (int s = diag_[size_t(i)]; s < row_start_[size_t(i) + 1]; ++s) slot_of[size_t(cols_[size_t(s)])] = -1;
    }
    deferred_start_[size_t(k)] = static_cast<int>(updates_.size());
    updates_.insert(updates_.end(), deferred.begin(), deferred.end());
    update_start_.push_back(static_cast<int>(updates_.size()));
  }
}

void BlockIncompleteCholesky::apply_updates(int first, int last) {
  for (int m = first; m < last; ++m) {
    const Update& up = updates_[size_t(m)];
    u_[size_t(up.ij)].noalias() -= u_[size_t(up.ki)].transpose() * factor_[size_t(up.kj)].cast<double>();
  }
}

bool BlockIncompleteCholesky::eliminate(int k, int first_update, int last_update) {
  // All updates from earlier pivots are in: U_kk is the pivot D_k. It must be SPD (LLT succeeds
  // and everything is finite: Eigen's LLT does not flag NaN).
  const Eigen::Matrix3d& ukk = u_[size_t(upper(k, diag_[size_t(k)]))];
  const Eigen::Matrix3d d = 0.5 * (ukk + ukk.transpose());
  const Eigen::LLT<Eigen::Matrix3d> llt(d);
  if (!d.allFinite() || llt.info() != Eigen::Success) return false;
  const Eigen::Matrix3d d_inv = llt.solve(Eigen::Matrix3d::Identity());
  d_inv_[size_t(k)] = d_inv.cast<float>();
  for (int s = diag_[size_t(k)] + 1; s < row_start_[size_t(k) + 1]; ++s) {
    const Eigen::Matrix3d f = d_inv * u_[size_t(upper(k, s))];  // F_kj
    factor_[size_t(s)] = f.cast<float>();
    factor_[size_t(mirror_[size_t(s)])] = f.transpose().cast<float>();
  }
  apply_updates(first_update, last_update);
  return true;
}

bool BlockIncompleteCholesky::factor_shifted(const BlockSparseMatrix& A, const VertexConstraints& c,
                                             double alpha, int threads) {
  const int n = A.blocks();
  u_.resize(size_t(upper_start_.back()));
  factor_.resize(cols_.size());
  d_inv_.resize(size_t(n));
  parallel_for(n, threads, [&](int k) {
    const int v = order_[size_t(k)];
    const int dk = diag_[size_t(k)];
    u_[size_t(upper(k, dk))] = (1.0 + alpha) * reduced_block(A.value(a_slot_[size_t(dk)]), c.S[v], c.S[v], true);
    for (int s = dk + 1; s < row_start_[size_t(k) + 1]; ++s) {
      u_[size_t(upper(k, s))] = reduced_block(A.value(a_slot_[size_t(s)]), c.S[v], c.S[order_[size_t(cols_[size_t(s)])]], false);
    }
  });
  // The domains, each on its own thread; then the updates they owe the separator, in a fixed
  // order; then the separator.
  std::array<bool, kDomains> ok{};
  parallel_tasks(kDomains, threads, n >= kMinParallelLength, [&](int d) {
    ok[size_t(d)] = true;
    for (int k = range_[size_t(d)]; k < range_[size_t(d) + 1] && ok[size_t(d)]; ++k) {
      ok[size_t(d)] = eliminate(k, update_start_[size_t(k)], deferred_start_[size_t(k)]);
    }
  });
  if (!std::all_of(ok.begin(), ok.end(), [](bool b) { return b; })) return false;
  const int separator = range_[kDomains];
  for (int k = 0; k < separator; ++k) apply_updates(deferred_start_[size_t(k)], update_start_[size_t(k) + 1]);
  for (int k = separator; k < n; ++k) {
    if (!eliminate(k, update_start_[size_t(k)], update_start_[size_t(k) + 1])) return false;
  }
  return true;
}

bool BlockIncompleteCholesky::factor(const BlockSparseMatrix& A, const VertexConstraints& c, int threads) {
  if (A.pattern() != analysed_) analyze(A);
  shifts_ = 0;
  if (factor_shifted(A, c, 0.0, threads)) return true;
  double alpha = kFirstShift;
  for (shifts_ = 1; shifts_ <= kMaxShifts; ++shifts_, alpha *= kShiftGrowth) {
    if (factor_shifted(A, c, alpha, threads)) return true;
  }
  shifts_ = kMaxShifts;
  return false;
}

void BlockIncompleteCholesky::forward_rows(int begin, int end) const {
  // L y = in, row by row (L_kj = F_jk^T, kept in the lower slots).
  for (int k = begin; k < end; ++k) {
    Vec3 y = work_[size_t(k)];
    for (int s = row_start_[size_t(k)]; s < diag_[size_t(k)]; ++s) {
      y.noalias() -= factor_[size_t(s)].cast<double>() * work_[size_t(cols_[size_t(s)])];
    }
    work_[size_t(k)] = y;
  }
}

void BlockIncompleteCholesky::backward_rows(int begin, int end) const {
  // D w = y and L^T x = w, row by row from the last (L^T_kj = F_kj). The columns are summed from
  // the farthest: the nearest ones were solved just before this row, and taken last their
  // latency overlaps the other products instead of holding up the whole sum (as in the forward
  // sweep, whose nearest columns come last in ascending order).
  for (int k = end - 1; k >= begin; --k) {
    Vec3 x = d_inv_[size_t(k)].cast<double>() * work_[size_t(k)];
    for (int s = row_start_[size_t(k) + 1] - 1; s > diag_[size_t(k)]; --s) {
      x.noalias() -= factor_[size_t(s)].cast<double>() * work_[size_t(cols_[size_t(s)])];
    }
    work_[size_t(k)] = x;
  }
}

void BlockIncompleteCholesky::apply(const std::vector<Vec3>& in, const VertexConstraints& c,
                                    std::vector<Vec3>& out, int threads) const {
  const int n = static_cast<int>(d_inv_.size());
  const bool parallel = n >= kMinParallelLength;
  const int separator = range_[kDomains];
  work_.resize(size_t(n));
  out.resize(size_t(n));
  parallel_for(n, threads, [&](int k) { work_[size_t(k)] = in[size_t(order_[size_t(k)])]; });
  parallel_tasks(kDomains, threads, parallel, [&](int d) { forward_rows(range_[size_t(d)], range_[size_t(d) + 1]); });
  forward_rows(separator, n);
  backward_rows(separator, n);
  parallel_tasks(kDomains, threads, parallel, [&](int d) { backward_rows(range_[size_t(d)], range_[size_t(d) + 1]); });
  parallel_for(n, threads, [&](int k) {
    const int v = order_[size_t(k)];
    out[size_t(v)] = c.S[size_t(v)] * work_[size_t(k)];
  });
}

}  // namespace cloth
