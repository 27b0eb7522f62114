#pragma once
// The coarse level of a two-level preconditioner for the modified PCG (B&W section 5.3): IC(0)
// damps what varies from vertex to vertex, but the slow part of the error is smooth across the
// sheet (A ≈ h^2 K is a 2D elasticity operator, its condition grows with the grid), and one-level
// methods need more iterations the finer the grid (bench/README.md: 20 at 16², 202 at 128²).
// Here the vertices are grouped into aggregates (vertices within two pattern steps of a seed: 9 x 9
// on a springs grid), each aggregate may translate as a whole, and that coarse problem is solved
// exactly:
//   P = S T   (T: each vertex takes its aggregate's translation; S: the constraint filter),
//   A_c = P^T A P = T^T (S A S) T,   correction = P A_c^-1 P^T r,
// added to IC(0)'s answer (additive two-level Schwarz). P's columns lie in the free subspace, so
// the correction is filtered like everything the preconditioner returns; a coarse direction that
// every vertex of its aggregate has constrained (a null direction of Σ S_i: pins, or all members
// sliding on one plane, tilted or not) is zero in P, and gets the identity on A_c's diagonal.
// The role of the coarse grid is that of Feynman's grid hierarchy in the static drape (issue 5):
// the long-wavelength part of the answer in a few unknowns.
#include <memory>
#include <vector>

#include <Eigen/SparseCholesky>

#include "cloth/block_sparse.hpp"
#include "cloth/constrained_solve.hpp"

namespace cloth {

class CoarseCorrection {
 public:
  /// Pattern steps from a seed that an aggregate takes in.
  static constexpr int kAggregateRadius = 2;
  /// An eigenvalue of Σ S_i over an aggregate below this is a direction every member has
  /// constrained (each S_i is a projector, so a free direction scores at least ~1).
  static constexpr double kConstrainedDirection = 1e-6;

  /// Builds the aggregates (once per pattern) and factors A_c. False when A_c is not positive
  /// definite (A indefinite or not finite): the caller then goes without the coarse level.
  bool factor(const BlockSparseMatrix& A, const VertexConstraints& c, int threads = 1);
  /// out += S T A_c^-1 T^T S in.
  void add_correction(const std::vector<Vec3>& in, const VertexConstraints& c, std::vector<Vec3>& out,
                      int threads = 1) const;
  int aggregates() const { return static_cast<int>(members_start_.size()) - 1; }
  /// The aggregate of each vertex (tests).
  const std::vector<int>& aggregate_of() const { return aggregate_of_; }

 private:
  void analyze(const BlockSparseMatrix& A);

  std::shared_ptr<const BlockSparseMatrix::Pattern> analysed_;
  std::vector<int> aggregate_of_;   ///< vertex -> aggregate
  std::vector<int> members_start_;  ///< aggregate a's vertices: members_[members_start_[a] ..]
  std::vector<int> members_;
  BlockSparseMatrix coarse_;        ///< A_c in 3 x 3 blocks, aggregate by aggregate
  std::vector<int> coarse_slot_;    ///< the block of A_c each slot of A adds to
  std::vector<int> position_;       ///< aggregate -> its place in the factor's (AMD) order
  /// A_c's upper triangle as scalars in that order, pattern fixed; values refreshed each factor().
  Eigen::SparseMatrix<double> scalar_;
  std::vector<int> scalar_source_;  ///< per value of scalar_: 9 * coarse slot + entry
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Upper, Eigen::NaturalOrdering<int>> llt_;
  mutable Eigen::VectorXd rc_, ec_;
};

}  // namespace cloth
