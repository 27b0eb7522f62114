// Block IC(0) of the reduced matrix S A S + (I - S), the preconditioner of B&W's modified PCG
// (section 5.3). Up-looking (row by row), in the L D L^T form Ã ≈ U^T D^-1 U with U block upper
// triangular (in elimination order) and U_kk = D_k; only U's blocks in A's pattern (less those
// left out) are kept. The elimination order and why it allows two threads: incomplete_cholesky.hpp.
#include "linalg/incomplete_cholesky.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

#include "core/parallel.hpp"
#include "linalg/positive_definite_inverse.hpp"

namespace cloth {

namespace {

// v holding `size` elements (values unspecified: the caller overwrites them all) in exactly
// that much memory. Growing by resize() allocates up to twice the old size, and holds the old
// and the new array at once; the factor's arrays change size with IC(0)'s pattern (leave_out).
template <typename T>
void resize_exactly(std::vector<T>& v, size_t size) {
  v.clear();
  v.shrink_to_fit();
  v.resize(size);
}

// Ã's block (i, j) of the constrained problem (see the header) for a pair with a constrained
// vertex (between free vertices it is A's block itself).
Eigen::Matrix3d reduced_block(const Eigen::Matrix3d& a, const Eigen::Matrix3d& Si,
                              const Eigen::Matrix3d& Sj, bool diagonal) {
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

void BlockIncompleteCholesky::leave_out(std::shared_ptr<const BlockSparseMatrix::Pattern> pattern,
                                        std::vector<char> left_out) {
  assert(pattern && left_out.size() == pattern->cols.size());
  left_out_pattern_ = std::move(pattern);
  left_out_ = std::move(left_out);
  analysed_ = nullptr;  // the next factor() analyses the pattern again
}

void BlockIncompleteCholesky::analyze(const BlockSparseMatrix& A) {
  analysed_ = A.pattern();
  const int n = A.blocks();
  const bool leaving_out = A.pattern() == left_out_pattern_;
  const auto kept = [&](int slot) { return !leaving_out || !left_out_[size_t(slot)]; };
  // Domains by index range; a vertex coupled to an earlier range joins the separator, so no
  // block couples two domains.
  const auto domain_of = [n](int v) { return static_cast<int>(static_cast<long long>(v) * kDomains / n); };
  std::vector<char> in_separator(size_t(n), 0);
  for (int v = 0; v < n; ++v) {
    for (int s = A.row_begin(v); s < A.row_end(v); ++s) {
      if (kept(s) && domain_of(A.col(s)) < domain_of(v)) in_separator[size_t(v)] = 1;
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
  upper_offset_.resize(size_t(n));
  std::vector<std::pair<int, int>> row;  // (position, slot of A)
  for (int k = 0; k < n; ++k) {
    const int v = order_[size_t(k)];
    row.clear();
    for (int s = A.row_begin(v); s < A.row_end(v); ++s) {
      if (kept(s)) row.emplace_back(position[size_t(A.col(s))], s);
    }
    std::sort(row.begin(), row.end());
    for (const auto& [col, slot] : row) {
      if (col == k) {
        diag_[size_t(k)] = static_cast<int>(cols_.size());
        upper_offset_[size_t(k)] = diag_[size_t(k)] - static_cast<int>(a_slot_.size());
      }
      cols_.push_back(col);
      if (col >= k) a_slot_.push_back(slot);
    }
    row_start_.push_back(static_cast<int>(cols_.size()));
  }
  // The pattern changes size when weak bend springs come and go (leave_out: short steps at contact
  // make them strong). Refilled by push_back, these vectors would keep the capacity of the largest
  // pattern seen, up to twice its size (tested:
  // IncompleteCholesky.APatternThatShrinksAgainGivesItsMemoryBack).
  order_.shrink_to_fit();
  row_start_.shrink_to_fit();
  cols_.shrink_to_fit();
  a_slot_.shrink_to_fit();
  if (mirror_.size() != a_slot_.size()) resize_exactly(mirror_, a_slot_.size());
  size_t longest_upper = 0;
  for (int i = 0; i < n; ++i) {
    for (int s = diag_[size_t(i)]; s < row_start_[size_t(i) + 1]; ++s) {
      mirror_[size_t(s - upper_offset_[size_t(i)])] = find_in_rows(row_start_, cols_, cols_[size_t(s)], i);
    }
    longest_upper = std::max(longest_upper, size_t(row_start_[size_t(i) + 1] - diag_[size_t(i)]));
  }
  for (auto& row_buffer : row_) {
    if (row_buffer.size() != longest_upper) resize_exactly(row_buffer, longest_upper);
  }
}

bool BlockIncompleteCholesky::eliminate(int k, std::vector<Eigen::Matrix3d>& row) {
  // Row k of U (in elimination order), up-looking: U_kj = Ã_kj - Σ_i L_ki U_ij over the earlier
  // rows i coupled to k (L_ki = U_ik^T D_i^-1, kept in row k's lower slot (k, i)), for the j >= k
  // in row k's pattern (IC(0): what falls outside it is dropped). Row i's upper columns and row
  // k's are both sorted, and one merge finds the j they share.
  const int dk = diag_[size_t(k)], end_k = row_start_[size_t(k) + 1];
  for (int s = row_start_[size_t(k)]; s < dk; ++s) {
    const int i = cols_[size_t(s)];
    const Eigen::Matrix3d l_ki = factor_[size_t(s)].cast<double>();
    int kj = dk;
    for (int ij = diag_[size_t(i)] + 1, end_i = row_start_[size_t(i) + 1]; ij < end_i && kj < end_k;) {
      if (cols_[size_t(ij)] < cols_[size_t(kj)]) {
        ++ij;
      } else if (cols_[size_t(kj)] < cols_[size_t(ij)]) {
        ++kj;
      } else {
        row[size_t(kj - dk)].noalias() -= l_ki * factor_[size_t(ij)].cast<double>();
        ++ij, ++kj;
      }
    }
  }
  // U_kk is the pivot D_k. It must be SPD, and finite.
  const Eigen::Matrix3d d = 0.5 * (row[0] + row[0].transpose());
  Eigen::Matrix3d d_inv;
  if (!invert_positive_definite(d, d_inv)) return false;
  factor_[size_t(dk)] = d_inv.cast<float>();
  for (int s = dk + 1; s < end_k; ++s) {
    factor_[size_t(s)] = row[size_t(s - dk)].cast<float>();                                   // U_kj
    factor_[size_t(mirror_[size_t(s - upper_offset_[size_t(k)])])] = (d_inv * row[size_t(s - dk)]).transpose().cast<float>();  // L_jk
  }
  return true;
}

bool BlockIncompleteCholesky::factor_shifted(const BlockSparseMatrix& A, const VertexConstraints& c,
                                             double alpha, int threads) {
  const int n = A.blocks();
  if (factor_.size() != cols_.size()) resize_exactly(factor_, cols_.size());
  // Row k of Ã (diagonal and upper blocks) into `row`, then its elimination.
  const auto factor_row = [&](int k, std::vector<Eigen::Matrix3d>& row) {
    const int v = order_[size_t(k)];
    const int dk = diag_[size_t(k)];
    const int* a_slot = a_slot_.data() + (dk - upper_offset_[size_t(k)]);  // row k's, from its diagonal
    const bool free_k = free_[size_t(k)];
    row[0] = (1.0 + alpha) * (free_k ? A.block(a_slot[0]) : reduced_block(A.block(a_slot[0]), c.S[v], c.S[v], true));
    for (int s = dk + 1; s < row_start_[size_t(k) + 1]; ++s) {
      const int j = cols_[size_t(s)];
      const Eigen::Matrix3d a = A.block(a_slot[s - dk]);  // any slot: the elimination order is not A's
      row[size_t(s - dk)] = free_k && free_[size_t(j)] ? a : reduced_block(a, c.S[v], c.S[order_[size_t(j)]], false);
    }
    return eliminate(k, row);
  };
  // Each domain's rows read only earlier rows of the same domain: one thread each. The separator
  // reads both, after them.
  std::array<bool, kDomains> ok{};
  parallel_tasks(kDomains, threads, n >= kMinParallelLength, [&](int d) {
    bool fine = true;  // written to ok once: neighbouring flags share a cache line
    for (int k = range_[size_t(d)]; k < range_[size_t(d) + 1] && fine; ++k) fine = factor_row(k, row_[size_t(d)]);
    ok[size_t(d)] = fine;
  });
  if (!std::all_of(ok.begin(), ok.end(), [](bool b) { return b; })) return false;
  for (int k = range_[kDomains]; k < n; ++k) {
    if (!factor_row(k, row_[0])) return false;
  }
  return true;
}

bool BlockIncompleteCholesky::factor(const BlockSparseMatrix& A, const VertexConstraints& c, int threads) {
  if (A.pattern() != analysed_) analyze(A);
  free_.resize(order_.size());
  parallel_for(static_cast<int>(order_.size()), threads,
               [&](int k) { free_[size_t(k)] = c.is_free[size_t(order_[size_t(k)])]; });
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
  // L y = in, row by row (L_kj = U_jk^T D_j^-1, kept in the lower slots).
  for (int k = begin; k < end; ++k) {
    Vec3 y = work_[size_t(k)];
    for (int s = row_start_[size_t(k)]; s < diag_[size_t(k)]; ++s) {
      y.noalias() -= factor_[size_t(s)].cast<double>() * work_[size_t(cols_[size_t(s)])];
    }
    work_[size_t(k)] = y;
  }
}

void BlockIncompleteCholesky::backward_rows(int begin, int end) const {
  // D L^T x = y, row by row from the last: x_k = D_k^-1 (y_k - Σ_j U_kj x_j), since D L^T = U
  // off the diagonal. The columns are summed from the farthest: the nearest ones were solved just
  // before this row, and taken last their latency overlaps the other products instead of holding
  // up the whole sum (as in the forward sweep, whose nearest columns come last in ascending order).
  for (int k = end - 1; k >= begin; --k) {
    Vec3 y = work_[size_t(k)];
    for (int s = row_start_[size_t(k) + 1] - 1; s > diag_[size_t(k)]; --s) {
      y.noalias() -= factor_[size_t(s)].cast<double>() * work_[size_t(cols_[size_t(s)])];
    }
    work_[size_t(k)] = factor_[size_t(diag_[size_t(k)])].cast<double>() * y;  // D_k^-1
  }
}

void BlockIncompleteCholesky::apply(const std::vector<Vec3>& in, const VertexConstraints& c,
                                    std::vector<Vec3>& out, int threads) const {
  const int n = static_cast<int>(order_.size());
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
    out[size_t(v)] = c.filtered(v, work_[size_t(k)]);
  });
}

size_t BlockIncompleteCholesky::bytes_held() const {
  const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  size_t total = bytes(left_out_) + bytes(order_) + bytes(range_) + bytes(row_start_) + bytes(cols_) +
                 bytes(diag_) + bytes(upper_offset_) + bytes(a_slot_) + bytes(mirror_) + bytes(free_) +
                 bytes(factor_) + bytes(work_);
  for (const auto& row_buffer : row_) total += bytes(row_buffer);
  return total;
}

}  // namespace cloth
