// Baraff-Witkin section 5.3, "modified-pcg", line numbers of the paper's listing in comments.
#include <algorithm>
#include <cassert>
#include <cmath>

#include <Eigen/Dense>

#include "linalg/constrained_solve.hpp"
#include "linalg/incomplete_cholesky.hpp"
#include "core/parallel.hpp"
#include "linalg/pcg_workspace.hpp"

namespace cloth {

void VertexConstraints::constrain_direction(int i, const Vec3& p, double dv_along) {
  // dv = z + u with u in the still free subspace (S u = u). The new condition dv . p = dv_along
  // only restricts u along q = S p; a p (nearly) inside the already constrained subspace adds
  // nothing (two contacts with the same normal) and is dropped, which keeps S a projector even
  // for non-orthogonal directions.
  const Vec3 q = S[i] * p;
  const double len = q.norm();
  if (len < 1e-6) return;
  const Vec3 q_hat = q / len;
  S[i] -= q_hat * q_hat.transpose();
  z[i] += ((dv_along - z[i].dot(p)) / len) * q_hat;
  is_free[size_t(i)] = 0;
}

namespace {

// a . b, summed in fixed chunks (parallel.hpp) so every thread count gives the same bits.
double dot(const std::vector<Vec3>& a, const std::vector<Vec3>& b, int threads, std::vector<double>& partial) {
  return deterministic_sum(static_cast<int>(a.size()), threads, partial, [&](int i) { return a[i].dot(b[i]); });
}

// filter(a): a_i <- S_i a_i (eq. 13 without the 1/m_i scaling). A free vertex's a_i stays as it
// is (for a finite a_i, what S_i = I gives, up to the sign of a zero): neither read nor written.
void filter(const VertexConstraints& c, std::vector<Vec3>& a, int threads) {
  parallel_for(static_cast<int>(a.size()), threads, [&](int i) {
    if (!c.is_free[size_t(i)]) a[i] = c.S[i] * a[i];
  });
}

// The preconditioner P^-1 as one 3x3 block per vertex (diagonal or block-Jacobi).
// Diagonal (B&W): the paper writes P_ii = 1/A_ii and then s = P^-1 r; read literally that
// multiplies by A_ii. What is meant (and what converges) is s = r / A_ii with
// delta_0 = b^T diag(A)^-1 b, the standard PCG with preconditioner diag(A).
// Block-Jacobi: P_i^-1 = S_i (S_i A_ii S_i + I - S_i)^-1 S_i, the inverse of the vertex's block
// on its free subspace (zero along constrained directions, exactly 0 for a fixed vertex), so
// P^-1 maps filtered vectors to filtered vectors and is SPD on the free subspace: this is plain
// block-Jacobi PCG on the reduced system S A S. A stretched cloth's vertex block is strongly
// anisotropic (Y h^2 along the threads, about the mass across the sheet) and not aligned with
// x, y, z once the cloth drapes, which the diagonal cannot capture.
void inverse_blocks(const BlockSparseMatrix& A, const VertexConstraints& c, bool diagonal_only,
                    std::vector<Eigen::Matrix3d>& inv_block) {
  const int n = A.blocks();
  inv_block.resize(size_t(n));
  for (int i = 0; i < n; ++i) {
    const Eigen::Matrix3d& Aii = A.diagonal(i);
    if (diagonal_only) {
      inv_block[i] = Aii.diagonal().cwiseInverse().asDiagonal();
    } else {
      const Eigen::Matrix3d& S = c.S[i];
      if (c.is_free[size_t(i)]) {
        inv_block[i] = Aii.inverse();
      } else if (S.isZero(0)) {
        inv_block[i].setZero();
      } else {
        const Eigen::Matrix3d reduced = S * Aii * S + (Eigen::Matrix3d::Identity() - S);
        inv_block[i] = S * reduced.inverse() * S;
      }
      inv_block[i] = 0.5 * (inv_block[i] + inv_block[i].transpose()).eval();
    }
  }
}

}  // namespace

TwoLevelFactors factor_two_level(const BlockSparseMatrix& A, const VertexConstraints& c,
                                 const std::vector<Vec3>* positions, int threads, PcgWorkspace& work) {
  // On one thread at 100², IC(0)'s factorisation and the coarse level's assembly take about
  // 1.9 ms each, and the coarse Cholesky factorisation under 1 ms, which splits in two domains
  // (block_cholesky.hpp).
  TwoLevelFactors factored;
  side_by_side(
      threads, [&](int t) { factored.ic = work.ic.factor(A, c, t); },
      [&](int t) { work.coarse.assemble(A, c, positions, t); });
  factored.coarse = work.coarse.factor_assembled(threads);
  return factored;
}

SolveReport modified_pcg(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                         const VertexConstraints& c, const PcgSettings& settings,
                         std::vector<Vec3>& dv, PcgWorkspace& work,
                         const std::vector<Vec3>* positions) {
  const int n = A.blocks();
  SolveReport report;
  // Incomplete Cholesky when asked for and it factors (with a shift if need be); else blocks, and
  // block-Jacobi when the incomplete factorisation broke down at every shift.
  const int threads = std::max(1, settings.threads);
  BlockIncompleteCholesky& ic = work.ic;
  const bool two_level = settings.preconditioner == Preconditioner::two_level;
  const bool want_ic = settings.preconditioner == Preconditioner::incomplete_cholesky || two_level;
  assert(c.is_free.size() == c.S.size() && "constraints built without reset(): no free flags");
  // The coarse level adds to IC(0) (additive two-level); without a usable IC(0) it is left out
  // too (factored all the same, then unused).
  bool use_ic = false, coarse_factored = false;
  if (two_level) {
    const TwoLevelFactors factored = factor_two_level(A, c, positions, threads, work);
    use_ic = factored.ic;
    coarse_factored = factored.coarse;
  } else if (want_ic) {
    use_ic = ic.factor(A, c, threads);
  }
  const bool use_coarse = use_ic && coarse_factored;
  if (want_ic) {
    report.preconditioner_shifts = ic.shifts();
    report.preconditioner_fallback = !use_ic;
  }
  report.coarse_fallback = two_level && use_ic && !use_coarse;
  if (!use_ic) inverse_blocks(A, c, settings.preconditioner == Preconditioner::diagonal, work.inv_block);
  const std::vector<Eigen::Matrix3d>& inv_block = work.inv_block;
  auto precondition = [&](const std::vector<Vec3>& in, std::vector<Vec3>& out) {
    if (use_ic) {
      ic.apply(in, c, out, threads);
      if (use_coarse) work.coarse.add_correction(in, c, out, threads);
      return;
    }
    out.resize(n);
    parallel_for(n, threads, [&](int i) { out[i] = inv_block[i] * in[i]; });
  };
  std::vector<double>& partial = work.partial_sums;

  // line 2 establishes the invariant: dv = z, or z + S dv_guess (its constrained part is z too).
  if (settings.warm_start && dv.size() == static_cast<size_t>(n)) {
    parallel_for(n, threads, [&](int i) { dv[i] = c.z[i] + c.filtered(i, dv[i]); });
  } else {
    dv = c.z;
  }
  std::vector<Vec3>& fb = work.fb;
  std::vector<Vec3>& tmp = work.tmp;
  std::vector<Vec3>& r = work.r;
  std::vector<Vec3>& s = work.s;
  std::vector<Vec3>& q = work.q;
  std::vector<Vec3>& cdir = work.cdir;
  fb = b;
  r.resize(size_t(n));
  filter(c, fb, threads);
  precondition(fb, tmp);
  const double delta0 = dot(fb, tmp, threads, partial);  // line 3
  A.multiply(dv, tmp, threads);
  parallel_for(n, threads, [&](int i) { r[i] = b[i] - tmp[i]; });
  filter(c, r, threads);                     // line 4
  precondition(r, cdir);
  filter(c, cdir, threads);                  // line 5
  double delta_new = dot(r, cdir, threads, partial);  // line 6
  const double eps2 = settings.tolerance * settings.tolerance;
  while (delta_new > eps2 * delta0 && report.iterations < settings.max_iterations) {  // line 7
    A.multiply(cdir, q, threads);
    filter(c, q, threads);                   // line 8
    const double alpha = delta_new / dot(cdir, q, threads, partial);  // line 9
    parallel_for(n, threads, [&](int i) {
      dv[i] += alpha * cdir[i];              // line 10
      r[i] -= alpha * q[i];                  // line 11
    });
    precondition(r, s);                      // line 12
    const double delta_old = delta_new;      // line 13
    delta_new = dot(r, s, threads, partial); // line 14
    const double beta = delta_new / delta_old;
    // line 15: the new direction, filtered
    parallel_for(n, threads, [&](int i) { cdir[i] = c.filtered(i, s[i] + beta * cdir[i]); });
    ++report.iterations;
  }
  report.converged = delta_new <= eps2 * delta0;
  report.relative_residual = delta0 > 0 ? std::sqrt(std::max(delta_new, 0.0) / delta0) : 0.0;
  return report;
}

SolveReport modified_pcg(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                         const VertexConstraints& c, const PcgSettings& settings,
                         std::vector<Vec3>& dv, const std::vector<Vec3>* positions) {
  PcgWorkspace work;
  return modified_pcg(A, b, c, settings, dv, work, positions);
}

SolveReport constrained_direct_solve(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                                     const VertexConstraints& c, std::vector<Vec3>& dv) {
  const int n = A.blocks();
  std::vector<Eigen::Triplet<double>> st, ct;
  for (int i = 0; i < n; ++i) {
    const Eigen::Matrix3d complement = Eigen::Matrix3d::Identity() - c.S[i];
    for (int r = 0; r < 3; ++r) {
      for (int k = 0; k < 3; ++k) {
        if (c.S[i](r, k) != 0) st.emplace_back(3 * i + r, 3 * i + k, c.S[i](r, k));
        if (complement(r, k) != 0) ct.emplace_back(3 * i + r, 3 * i + k, complement(r, k));
      }
    }
  }
  Eigen::SparseMatrix<double> S(3 * n, 3 * n), C(3 * n, 3 * n);
  S.setFromTriplets(st.begin(), st.end());
  C.setFromTriplets(ct.begin(), ct.end());
  const Eigen::SparseMatrix<double> a = A.to_eigen();
  const Eigen::SparseMatrix<double> system = Eigen::SparseMatrix<double>(S * a * S) + C;
  const Eigen::VectorXd z = as_flat(c.z);
  const Eigen::VectorXd rhs = S * (as_flat(b) - a * z);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(system);
  SolveReport report;
  if (ldlt.info() != Eigen::Success) return report;
  const Eigen::VectorXd u = ldlt.solve(rhs);
  dv.resize(n);
  as_flat(dv) = z + S * u;
  report.converged = ldlt.info() == Eigen::Success;
  return report;
}

}  // namespace cloth
