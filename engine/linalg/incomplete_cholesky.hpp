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
// A caller may leave some of A's blocks out of the factor's pattern (leave_out): the implicit
// integrator leaves out the weak bend springs' couplings (implicit_euler.cpp says why).
//
// Block-Jacobi only sees each vertex's own 3x3 block; the cloth's A is essentially h^2 K, a 2D
// elasticity operator, and IC(0) also couples neighbours, which cuts the iterations.
//
// Elimination order (one level of nested dissection): the vertices are split by index into
// kDomains ranges; a vertex coupled to a vertex of an earlier range goes to the separator, which
// is eliminated last (the second range from its far end, so that both end at the separator). No
// block couples two domains, so each domain's factorisation and triangular sweeps are independent
// and run on their own thread; only the separator (one or two grid rows of a row-major grid, as
// the pattern reaches one or two rows: 1-2% of a 100 x 100 cloth) is serial. The order is fixed
// by the mesh, not by the thread count, so every thread count computes the same factor and the
// same solve, bit for bit. Grids number their vertices row by row, so the index ranges are bands;
// a mesh numbered at random would get a large separator (still correct, less parallel).
//
// The factor is kept in single precision (a preconditioner need not be exact; this halves the
// memory the two sweeps stream through every CG iteration, which is what they are bound by), in
// elimination order, with L's rows stored as well as L^T's so that both sweeps gather along
// contiguous rows instead of scattering. It is computed row by row (up-looking): each row of U is
// summed in double from Ã's row and the earlier rows' single-precision blocks, so nothing but the
// factor is stored per block, and which earlier rows update which blocks is found by merging
// sorted rows as it goes rather than kept in a list (less memory per vertex).
#include <array>
#include <memory>
#include <vector>

#include "linalg/block_sparse.hpp"
#include "linalg/constrained_solve.hpp"

namespace cloth {

class BlockIncompleteCholesky {
 public:
  /// Index ranges the vertices are split into (one thread each); see the file comment.
  static constexpr int kDomains = 2;

  /// Factors Ã of (A, c) on up to `threads` threads. A pivot block that is not positive definite
  /// (IC(0) of an SPD matrix can break down when A is not an M-matrix, which stiff anisotropic
  /// cloth is not) restarts the factorisation of Ã + alpha diag(Ã) with a growing alpha
  /// (Manteuffel's shift). Returns false when even the largest shift breaks down (e.g. A is
  /// indefinite or not finite); the factor is then unusable and the caller falls back to
  /// block-Jacobi.
  bool factor(const BlockSparseMatrix& A, const VertexConstraints& c, int threads = 1);
  /// From now on, factors every A of `pattern` without the blocks of the slots flagged in
  /// `left_out` (one flag per slot of `pattern`; a pair's two slots flagged alike, no diagonal):
  /// IC(0) of A with those blocks removed from its pattern. An A of another pattern is factored
  /// whole.
  void leave_out(std::shared_ptr<const BlockSparseMatrix::Pattern> pattern,
                 std::vector<char> left_out);
  /// Shifts taken by the last factor() (0: plain IC(0)).
  int shifts() const { return shifts_; }
  /// out = S (L D L^T)^-1 in, on up to `threads` threads.
  void apply(const std::vector<Vec3>& in, const VertexConstraints& c, std::vector<Vec3>& out,
             int threads = 1) const;
  /// Bytes its arrays hold (their capacities): a factor whose pattern shrank holds no more than
  /// one that only ever had the smaller pattern.
  size_t bytes_held() const;
  /// Vertices in the separator, eliminated after the domains on one thread.
  int separator_size() const { return range_.empty() ? 0 : static_cast<int>(order_.size()) - range_[kDomains]; }

 private:
  void analyze(const BlockSparseMatrix& A);
  bool factor_shifted(const BlockSparseMatrix& A, const VertexConstraints& c, double alpha, int threads);
  /// Row k of the factor from Ã's row k in `row` (its diagonal and upper blocks, in double) and
  /// the earlier rows. False on a breakdown.
  bool eliminate(int k, std::vector<Eigen::Matrix3d>& row);
  void forward_rows(int begin, int end) const;
  void backward_rows(int begin, int end) const;

  // The symbolic phase (elimination order and rows, from A's pattern only) is kept while A's
  // pattern object stays the same (the implicit integrator's PcgWorkspace keeps one factor).
  std::shared_ptr<const BlockSparseMatrix::Pattern> analysed_;
  std::shared_ptr<const BlockSparseMatrix::Pattern> left_out_pattern_;  ///< see leave_out()
  std::vector<char> left_out_;
  std::vector<int> order_;        ///< elimination position -> vertex
  /// Domain d is positions [range_[d], range_[d + 1]); the separator, [range_[kDomains], n).
  std::vector<int> range_;
  // Ã in elimination order: CSR rows with columns sorted by position, so row k's slots before
  // diag_[k] are L's and those after it U's.
  std::vector<int> row_start_, cols_, diag_;
  // Per block on or above the diagonal only (what the factorisation reads): row k's slot s at
  // s - upper_offset_[k].
  std::vector<int> upper_offset_;
  std::vector<int> a_slot_;       ///< the slot of A holding the block
  std::vector<int> mirror_;       ///< the slot of the transposed block: (j, i) for (i, j)
  /// Per position, whether its vertex is free (VertexConstraints::is_free, copied into
  /// elimination order by factor() so that a row's columns read it contiguously): Ã's block
  /// between two free vertices is A's.
  std::vector<char> free_;
  /// One row of U in double while it is computed, per domain (the separator uses the first):
  /// the factor itself is only held in single precision.
  std::array<std::vector<Eigen::Matrix3d>, kDomains> row_;
  /// U_kj in (k, j), L_jk = U_kj^T D_k^-1 in (j, k) and D_k^-1 in (k, k); single precision.
  std::vector<Eigen::Matrix3f> factor_;
  mutable std::vector<Vec3> work_;       ///< the solve's vector, in elimination order
  int shifts_ = 0;
};

}  // namespace cloth
