// Block IC(0) of the reduced matrix S A S + (I - S), the preconditioner of B&W's modified PCG
// (section 5.3). Right-looking, in the L D L^T form Ã ≈ U^T D^-1 U with U block upper triangular
// and U_kk = D_k; only U's blocks in A's pattern are kept.
#include "cloth/incomplete_cholesky.hpp"

#include <Eigen/Cholesky>

namespace cloth {

namespace {

// Ã's block (i, j) of the constrained problem (see the header).
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

void BlockIncompleteCholesky::analyze(const BlockSparseMatrix& A) {
  analysed_ = A.pattern();
  const int n = A.blocks();
  cols_.resize(A.slots());
  for (int s = 0; s < A.slots(); ++s) cols_[s] = A.col(s);
  upper_begin_.resize(n);
  row_end_.resize(n);
  for (int k = 0; k < n; ++k) {
    upper_begin_[k] = A.diagonal_slot(k) + 1;  // columns are sorted within a row
    row_end_[k] = A.row_end(k);
  }
  // For pivot k and each pair i <= j of its upper neighbours, the update of (i, j) is kept only
  // when (i, j) is in the pattern (IC(0): fill-in is dropped). slot_of[j] = slot of (i, j).
  std::vector<int> slot_of(n, -1);
  updates_.clear();
  update_start_.assign(1, 0);
  for (int k = 0; k < n; ++k) {
    for (int ki = upper_begin_[k]; ki < row_end_[k]; ++ki) {
      const int i = cols_[ki];
      for (int s = A.diagonal_slot(i); s < row_end_[i]; ++s) slot_of[cols_[s]] = s;
      for (int kj = ki; kj < row_end_[k]; ++kj) {
        const int ij = slot_of[cols_[kj]];
        if (ij >= 0) updates_.push_back({ki, kj, ij});
      }
      for (int s = A.diagonal_slot(i); s < row_end_[i]; ++s) slot_of[cols_[s]] = -1;
    }
    update_start_.push_back(static_cast<int>(updates_.size()));
  }
}

bool BlockIncompleteCholesky::factor_shifted(const BlockSparseMatrix& A, const VertexConstraints& c,
                                             double alpha) {
  const int n = A.blocks();
  u_.resize(A.slots());
  f_.resize(A.slots());
  d_inv_.resize(n);
  for (int k = 0; k < n; ++k) {
    const int dk = A.diagonal_slot(k);
    u_[dk] = (1.0 + alpha) * reduced_block(A.value(dk), c.S[k], c.S[k], true);
    for (int s = upper_begin_[k]; s < row_end_[k]; ++s) {
      u_[s] = reduced_block(A.value(s), c.S[k], c.S[cols_[s]], false);
    }
  }
  for (int k = 0; k < n; ++k) {
    // All updates from pivots before k are in: U_kk is the pivot D_k. It must be SPD (LLT succeeds
    // and everything is finite: Eigen's LLT does not flag NaN).
    const Eigen::Matrix3d d = 0.5 * (u_[A.diagonal_slot(k)] + u_[A.diagonal_slot(k)].transpose());
    const Eigen::LLT<Eigen::Matrix3d> llt(d);
    if (!d.allFinite() || llt.info() != Eigen::Success) return false;
    d_inv_[k] = llt.solve(Eigen::Matrix3d::Identity());
    for (int s = upper_begin_[k]; s < row_end_[k]; ++s) f_[s] = d_inv_[k] * u_[s];
    for (int m = update_start_[k]; m < update_start_[k + 1]; ++m) {
      const Update& up = updates_[m];
      u_[up.ij].noalias() -= u_[up.ki].transpose() * f_[up.kj];
    }
  }
  return true;
}

bool BlockIncompleteCholesky::factor(const BlockSparseMatrix& A, const VertexConstraints& c) {
  if (A.pattern() != analysed_) analyze(A);
  shifts_ = 0;
  if (factor_shifted(A, c, 0.0)) return true;
  double alpha = kFirstShift;
  for (shifts_ = 1; shifts_ <= kMaxShifts; ++shifts_, alpha *= kShiftGrowth) {
    if (factor_shifted(A, c, alpha)) return true;
  }
  shifts_ = kMaxShifts;
  return false;
}

void BlockIncompleteCholesky::apply(const std::vector<Vec3>& in, const VertexConstraints& c,
                                    std::vector<Vec3>& out) const {
  const int n = static_cast<int>(d_inv_.size());
  out = in;
  // L y = in, column by column (L_jk = F_kj^T); then D w = y.
  for (int k = 0; k < n; ++k) {
    for (int s = upper_begin_[k]; s < row_end_[k]; ++s) out[cols_[s]] -= f_[s].transpose() * out[k];
    out[k] = d_inv_[k] * out[k];
  }
  // L^T x = w, row by row from the last (L^T_kj = F_kj).
  for (int k = n - 1; k >= 0; --k) {
    Vec3 x = out[k];
    for (int s = upper_begin_[k]; s < row_end_[k]; ++s) x -= f_[s] * out[cols_[s]];
    out[k] = c.S[k] * x;
  }
}

}  // namespace cloth
