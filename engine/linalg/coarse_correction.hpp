#pragma once
// The coarse level of a two-level preconditioner for the modified PCG (B&W section 5.3): IC(0)
// damps what varies from vertex to vertex, but the slow part of the error is smooth across the
// sheet (A ≈ h^2 K is a 2D elasticity operator, its condition grows with the grid), and one-level
// methods need more iterations the finer the grid (about as the grid's side: BM_Preconditioner).
// Here the vertices are grouped into aggregates (vertices within three pattern steps of a seed:
// about 40 vertices, 6 x 6 to 7 x 7, on a springs grid), each may move as a rigid patch,
// and that coarse problem is solved exactly:
//   P = S T   (T: each vertex i of aggregate a takes its patch's motion t_a + w_a x r_i, with
//              r_i = (x_i - centroid_a) / L_a the arm scaled by the patch's rms radius L_a, so
//              that rotations and translations are numbers of one size; S: the constraint filter),
//   A_c = P^T A P = T^T (S A S) T,   correction = P A_c^-1 P^T r,
// added to IC(0)'s answer (additive two-level Schwarz). The six rigid motions of each patch are
// the near-null space of the elastic stiffness (smoothed-aggregation multigrid for elasticity,
// Vaněk, Mandel & Brezina 1996): a cloth patch bends and turns far more easily than it stretches,
// and translations alone cannot represent that (without positions, the rotations are left out).
// P's columns lie in the free subspace, so the correction is filtered like everything the
// preconditioner returns; a coarse direction that every vertex of its aggregate has constrained
// (a null direction of Σ T_i^T S_i T_i: pins, all members sliding on one plane, tilted or not, or
// a rotation of a one-vertex patch) is zero in P, and gets the identity on A_c's diagonal.
// The role of the coarse grid is that of Feynman's grid hierarchy in the static drape (multigrid):
// the long-wavelength part of the answer in a few unknowns.
#include <memory>
#include <vector>

#include "linalg/block_cholesky.hpp"
#include "linalg/block_sparse.hpp"
#include "linalg/constrained_solve.hpp"

namespace cloth {

class CoarseCorrection {
 public:
  /// Pattern steps from a seed that an aggregate takes in.
  static constexpr int kAggregateRadius = 3;
  /// Rigid motions of a patch: three translations, three rotations.
  static constexpr int kModes = 6;
  /// An eigenvalue of Σ T_i^T S_i T_i over an aggregate below this is a direction every member
  /// has constrained (each S_i is a projector and the arms are scaled to rms 1, so a free
  /// direction scores about the member count m for translations; a flat patch's in-plane
  /// rotations share m between them (m/2 each for a round patch), and its normal rotation
  /// scores m).
  static constexpr double kConstrainedDirection = 1e-6;

  /// Builds the aggregates (once per pattern) and factors A_c for the vertices at `positions`
  /// (m; null: translations only). A must be symmetric (its blocks on and above the diagonal
  /// are read, whatever its storage). False when A_c is not positive definite (A indefinite or
  /// not finite): the caller then goes without the coarse level.
  bool factor(const BlockSparseMatrix& A, const VertexConstraints& c,
              const std::vector<Vec3>* positions = nullptr, int threads = 1);
  /// factor() in two parts: A_c for A (assemble), then its Cholesky factorisation
  /// (factor_assembled), whose two domains can run on two threads after another job ran beside
  /// the assembly (factor_two_level: IC(0)'s factorisation).
  void assemble(const BlockSparseMatrix& A, const VertexConstraints& c, const std::vector<Vec3>* positions,
                int threads = 1);
  bool factor_assembled(int threads = 1);
  /// out += S T A_c^-1 T^T S in.
  void add_correction(const std::vector<Vec3>& in, const VertexConstraints& c, std::vector<Vec3>& out,
                      int threads = 1) const;
  /// A_c's factor (benchmarks): its off-diagonal blocks, and the aggregates in the separator of
  /// its two domains (solved on one thread).
  int factor_blocks() const { return cholesky_.factor_blocks(); }
  int separator_aggregates() const { return cholesky_.separator_rows(); }
  int aggregates() const { return static_cast<int>(members_start_.size()) - 1; }
  /// The aggregate of each vertex (tests).
  const std::vector<int>& aggregate_of() const { return aggregate_of_; }

 private:
  void analyze(const BlockSparseMatrix& A);

  std::shared_ptr<const BlockSparseMatrix::Pattern> analysed_;
  std::vector<int> aggregate_of_;   ///< vertex -> aggregate
  std::vector<int> members_start_;  ///< aggregate a's vertices: members_[members_start_[a] ..]
  std::vector<int> members_;
  using Block = Eigen::Matrix<double, kModes, kModes>;
  using Modes = Eigen::Matrix<double, 3, kModes>;
  /// T_i = [I | -[r_i]x]: vertex i's motion for the patch motion (t, w), t + w x r_i.
  Modes modes(int i) const;
  /// Whether aggregate a has no constrained member and its rotations move it (the arms do not
  /// all lie on one line, nor vanish): then no direction of its Σ T_i^T S_i T_i is null.
  bool rotations_free(int a, const VertexConstraints& c) const;

  BlockSparseMatrix coarse_pattern_;  ///< A_c's pattern (its 3 x 3 values are unused)
  std::vector<Block> coarse_;       ///< A_c's blocks, by slot of coarse_pattern_
  std::vector<Block> half_;         ///< H of A_c = H + H^T (assemble()), by the same slots
  std::vector<int> mirror_;         ///< slot of A_c's block (b, a) for the slot of (a, b)
  std::vector<int> coarse_slot_;    ///< the block of A_c each slot of A adds to
  std::vector<Vec3> arm_;           ///< r_i: offset from the aggregate's centroid / its rms radius
  std::vector<int> position_;       ///< aggregate -> its place in the factor's elimination order
  std::vector<int> aggregate_at_;   ///< the inverse: place -> aggregate
  std::vector<int> entry_slot_;     ///< the slot of A_c's block each entry of the factor reads
  SparseBlockCholesky<kModes> cholesky_;  ///< A_c = L L^T in that order
  mutable Eigen::VectorXd rc_;
  bool parallel_ = false;  ///< whether A is large enough for the factorisation's threads
};

}  // namespace cloth
