#pragma once
// Block incomplete Cholesky, IC(0) in L D L^T form, as a preconditioner of Baraff-Witkin's
// modified PCG (section 5.3). It factors the reduced matrix of the constrained problem,
//   Ã_ij = S_i A_ij S_j (i != j),   Ã_ii = S_i A_ii S_i + I - S_i,
// keeping only the blocks in A's pattern (no fill-in): Ã ≈ L D L^T with L unit block lower
// triangular and D block diagonal. Ã keeps every constrained direction apart from the free ones
// (its off-diagonal blocks are zero along them and so are the updates), so the factor inverts
// S A S on the free subspace and is the identity on the constrained one; the solve is followed by
// the filter S so that P^-1 maps filtered vectors to filtered vectors, as section 5.3 requires.
//
// Block-Jacobi (the default) only sees each vertex's own 3x3 block; the cloth's A is essentially
// h^2 K, a 2D elasticity operator, and IC(0) also couples neighbours, which cuts the iterations.
#include <memory>
#include <vector>

#include "cloth/block_sparse.hpp"
#include "cloth/constrained_solve.hpp"

namespace cloth {

class BlockIncompleteCholesky {
 public:
  /// Factors Ã of (A, c). A pivot block that is not positive definite (IC(0) of an SPD matrix can
  /// break down when A is not an M-matrix, which stiff anisotropic cloth is not) restarts the
  /// factorisation of Ã + alpha diag(Ã) with a growing alpha (Manteuffel's shift). Returns false
  /// when even the largest shift breaks down (e.g. A is indefinite or not finite); the factor is
  /// then unusable and the caller falls back to block-Jacobi.
  bool factor(const BlockSparseMatrix& A, const VertexConstraints& c);
  /// Shifts taken by the last factor() (0: plain IC(0)).
  int shifts() const { return shifts_; }
  /// out = S (L D L^T)^-1 in.
  void apply(const std::vector<Vec3>& in, const VertexConstraints& c, std::vector<Vec3>& out) const;

 private:
  /// One IC(0) update U_ij -= U_ki^T D_k^-1 U_kj, as slots of A: (k, i), (k, j), (i, j).
  struct Update {
    int ki, kj, ij;
  };
  void analyze(const BlockSparseMatrix& A);
  bool factor_shifted(const BlockSparseMatrix& A, const VertexConstraints& c, double alpha);

  // The symbolic phase (upper slots per row and the update list, from A's pattern only) is kept
  // while A's pattern object stays the same (a factor kept across steps, as the implicit
  // integrator's PcgWorkspace does, skips it: ~0.25 ms a solve at 51 x 51).
  std::shared_ptr<const BlockSparseMatrix::Pattern> analysed_;  ///< pattern of the symbolic phase
  std::vector<int> upper_begin_;     ///< first slot of row k with column > k
  std::vector<int> update_start_;    ///< updates of pivot row k: [update_start_[k], update_start_[k + 1])
  std::vector<Update> updates_;
  std::vector<int> cols_;            ///< column of each slot (a copy of A's)
  std::vector<int> row_end_;         ///< one past row k's last slot
  std::vector<Eigen::Matrix3d> u_;   ///< U (upper slots, diagonal included) during the factorisation
  std::vector<Eigen::Matrix3d> f_;   ///< F_kj = D_k^-1 U_kj for j > k, i.e. L_jk^T
  std::vector<Eigen::Matrix3d> d_inv_;  ///< D_k^-1
  int shifts_ = 0;
};

}  // namespace cloth
