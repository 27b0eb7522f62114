#pragma once
// Solving the implicit step's system A dv = b (Baraff-Witkin eq. 15/16/18) with per-vertex
// constraints on dv (section 5.1): S_i filters out the constrained directions (eq. 13), and z_i
// is the prescribed change of velocity along them.
#include <vector>

#include "core/enum_names.hpp"
#include "linalg/block_sparse.hpp"
#include "core/vec.hpp"

namespace cloth {

struct VertexConstraints {
  std::vector<Eigen::Matrix3d> S;  ///< eq. 13: I (free), I - pp^T, I - pp^T - qq^T, or 0 (fixed)
  std::vector<Vec3> z;             ///< prescribed dv along the constrained directions, m/s
  /// Per vertex, whether S_i is still the identity (nothing constrained), kept by reset, fix and
  /// constrain_direction, which are the only writers of S: the preconditioners ask it per block
  /// of A (a block between free vertices is taken as it is) and read one byte, not S's 72.
  std::vector<char> is_free;

  explicit VertexConstraints(int n = 0) { reset(n); }
  /// n free vertices, reusing the arrays' storage (once per substep).
  void reset(int n) {
    S.assign(size_t(n), Eigen::Matrix3d::Identity());
    z.assign(size_t(n), Vec3::Zero());
    is_free.assign(size_t(n), 1);
  }
  /// S_i a: a itself at a free vertex, without reading S_i (the PCG filters several vectors per
  /// iteration, and most vertices are free). For a finite a the same values as S_i a, up to the
  /// sign of a zero.
  Vec3 filtered(int i, const Vec3& a) const { return is_free[size_t(i)] ? a : Vec3(S[size_t(i)] * a); }
  void fix(int i, const Vec3& dv) {
    S[i].setZero();
    z[i] = dv;
    is_free[size_t(i)] = 0;
  }
  /// Constrains dv_i . p = dv_along (p a unit vector): the vertex may still move in p's plane.
  void constrain_direction(int i, const Vec3& p, double dv_along);
};

/// Preconditioner of the modified PCG. `diagonal` is B&W's P = diag(A) (section 5.3);
/// `block_jacobi` inverts each vertex's 3x3 diagonal block restricted to its free directions,
/// P_i^-1 = S_i (S_i A_ii S_i + I - S_i)^-1 S_i: the block-Jacobi preconditioner of the reduced
/// system S A S, so it is exact per vertex for the anisotropic stretch blocks and never mixes a
/// constrained direction into a free one. `incomplete_cholesky` is block IC(0) of the same reduced
/// system, S A S + (I - S) factored on A's pattern (incomplete_cholesky.hpp): it also couples
/// neighbouring vertices. `two_level` adds to IC(0) a coarse correction on aggregates of vertices
/// (coarse_correction.hpp), which removes the growth of the iterations with the grid.
enum class Preconditioner { diagonal, block_jacobi, incomplete_cholesky, two_level };
inline constexpr NamedValue<Preconditioner> kPreconditionerNames[] = {
    {Preconditioner::diagonal, "diagonal"},
    {Preconditioner::block_jacobi, "block-jacobi"},
    {Preconditioner::incomplete_cholesky, "incomplete-cholesky"},
    {Preconditioner::two_level, "two-level"},
};
constexpr std::span<const NamedValue<Preconditioner>> value_names(Preconditioner) {
  return kPreconditionerNames;
}

struct PcgSettings {
  /// epsilon of section 5.3: stop when the filtered residual is below eps |b|. The implicit step's
  /// default (SolverSettings takes its defaults from here): 1e-3 errs far less than halving the
  /// step changes the motion (Implicit.DefaultCgToleranceErrsFarLessThanHalvingTheStepChanges), in
  /// a third to a half of 1e-6's iterations (BM_Frame/implicit-stiff-2level-tol1e-6).
  double tolerance = 1e-3;
  int max_iterations = 500;
  /// Two-level: fewer iterations than IC(0) alone from about 51^2 vertices on, where frames cost
  /// most (BM_Preconditioner, BM_Frame/implicit-2level).
  Preconditioner preconditioner = Preconditioner::two_level;
  /// Start from z + S dv_in (the dv passed in, projected onto the free directions: e.g. the last
  /// step's dv) instead of B&W's dv = z. Ignored when dv's size is not A's. The stopping test
  /// stays relative to the filtered b, so the answer's accuracy does not depend on the guess.
  bool warm_start = false;
  /// Threads for the solve (parallel.hpp): the answer is the same bits for every count.
  int threads = 1;
};

struct SolveReport {
  int iterations = 0;
  double relative_residual = 0;  ///< sqrt(delta_new / delta_0) at exit (preconditioned norm)
  bool converged = false;
  int preconditioner_shifts = 0;        ///< incomplete Cholesky: Manteuffel shifts after a breakdown
  bool preconditioner_fallback = false; ///< incomplete Cholesky broke down at every shift: block-Jacobi used
  bool coarse_fallback = false;         ///< two-level: A_c did not factor, IC(0) alone was used
};

struct PcgWorkspace;  // pcg_workspace.hpp

/// Which of the two-level preconditioner's factorisations succeeded (factor_two_level).
struct TwoLevelFactors {
  bool ic = false, coarse = false;
};
/// The two-level preconditioner's factorisations of A into `work` (IC(0) and the coarse level),
/// on up to `threads` threads. On two, IC(0)'s factorisation and the coarse level's assembly
/// run side by side (each has a serial part that would leave a thread waiting), then the coarse
/// Cholesky factorisation's two domains run on both (BM_SolvePart/both-factors/<n>/2).
TwoLevelFactors factor_two_level(const BlockSparseMatrix& A, const VertexConstraints& c,
                                 const std::vector<Vec3>* positions, int threads, PcgWorkspace& work);

/// Baraff-Witkin's modified preconditioned CG (section 5.3). Whatever the number of iterations,
/// the component of dv_i along the constrained directions of vertex i equals z_i exactly. dv is an
/// input too when settings.warm_start is set. `work` holds the buffers and the preconditioner,
/// reused across calls (pcg_workspace.hpp). `positions` (m, one per vertex) give the two-level
/// preconditioner's coarse space its rotations; without them it has translations only.
SolveReport modified_pcg(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                         const VertexConstraints& c, const PcgSettings& settings,
                         std::vector<Vec3>& dv, PcgWorkspace& work,
                         const std::vector<Vec3>* positions = nullptr);
/// The same with a workspace of its own (one-off solves, tests).
SolveReport modified_pcg(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                         const VertexConstraints& c, const PcgSettings& settings,
                         std::vector<Vec3>& dv, const std::vector<Vec3>* positions = nullptr);

/// Reference: the same constrained problem solved directly (Eigen simplicial LDLT) on
/// dv = z + S u, (S A S + (I - S)) u = S (b - A z).
SolveReport constrained_direct_solve(const BlockSparseMatrix& A, const std::vector<Vec3>& b,
                                     const VertexConstraints& c, std::vector<Vec3>& dv);

}  // namespace cloth
