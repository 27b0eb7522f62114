#pragma once
// Solving the implicit step's system A dv = b (Baraff-Witkin eq. 15/16/18) with per-vertex
// constraints on dv (section 5.1): S_i filters out the constrained directions (eq. 13), and z_i
// is the prescribed change of velocity along them.
#include <vector>

#include "cloth/block_sparse.hpp"
#include "cloth/state.hpp"

namespace cloth {

struct VertexConstraints {
  std::vector<Eigen::Matrix3d> S;  ///< eq. 13: I (free), I - pp^T, I - pp^T - qq^T, or 0 (fixed)
  std::vector<Vec3> z;             ///< prescribed dv along the constrained directions, m/s

  explicit VertexConstraints(int n = 0) : S(n, Eigen::Matrix3d::Identity()), z(n, Vec3::Zero()) {}
  void fix(int i, const Vec3& dv) { S[i].setZero(); z[i] = dv; }
  /// Constrains dv_i . p = dv_along (p a unit vector): the vertex may still move in p's plane.
  void constrain_direction(int i, const Vec3& p, double dv_along);
};

struct PcgSettings {
  double tolerance = 1e-6;   ///< epsilon of section 5.3: stop when the filtered residual is below eps |b|
  int max_iterations = 500;
};

struct SolveReport {
  int iterations = 0;
  double relative_residual = 0;  ///< sqrt(delta_new / delta_0) at exit (preconditioned norm)
  bool converged = false;
};

/// Baraff-Witkin's modified preconditioned CG (section 5.3). Whatever the number of iterations,
/// the component of dv_i along the constrained directions of vertex i equals z_i exactly.
SolveReport modified_pcg(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                         const VertexConstraints& c, const PcgSettings& settings,
                         std::vector<Vec3>& dv);

/// Reference: the same constrained problem solved directly (Eigen simplicial LDLT) on
/// dv = z + S u, (S A S + (I - S)) u = S (b - A z).
SolveReport constrained_direct_solve(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                                     const VertexConstraints& c, std::vector<Vec3>& dv);

}  // namespace cloth
