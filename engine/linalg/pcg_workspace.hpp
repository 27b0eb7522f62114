#pragma once
// What one modified-PCG solve needs besides A, b and the constraints: its vectors and its
// preconditioner. A caller that solves again and again (the implicit integrator, every substep)
// keeps one workspace, so a solve allocates nothing once the sizes are reached, and the incomplete
// Cholesky redoes its symbolic phase only when A's pattern changes.
#include <vector>

#include "linalg/coarse_correction.hpp"
#include "linalg/incomplete_cholesky.hpp"

namespace cloth {

struct PcgWorkspace {
  BlockIncompleteCholesky ic;
  CoarseCorrection coarse;                 ///< the two-level preconditioner's coarse level
  std::vector<Eigen::Matrix3d> inv_block;  ///< block-Jacobi / diagonal preconditioner blocks
  std::vector<Vec3> fb, tmp, r, s, q, cdir;
  std::vector<double> partial_sums;  ///< the dot products' chunk sums (parallel.hpp)
};

}  // namespace cloth
