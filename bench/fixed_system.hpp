// One fixed linear system of the implicit step, the same matrix for every version of the code:
// the "implicit-2level" scene's cloth (hanging_cloth.hpp) at n x n vertices, flat and at rest,
// lowered by 0.4 m onto the sphere, the vertices that would be inside it pushed out radially onto
// its offset surface (a cap of about a sixth of the cloth, its springs stretched around it).
// A = M - h ∂f/∂v - h² ∂f/∂x at h = 1/60 s as the step assembles it (B&W eq. 16), the pins fixed
// and the vertices on the sphere constrained along its normal (like the step's contacts, without
// its stick / slide states), b = h f; IC(0) leaves out the weak bend springs' blocks, as the
// step's does (implicit_euler.cpp). It is built without running any solver: a frame's time moves
// with its CG count, which is chaotic in the simulated scene (a change of rounding moves the
// trajectory), while on this system a change to one part of the solver shows as
// that part's time alone, and the CG count changes only with the solver. Shared by
// solver_parts_bench.cpp and preconditioner_bench.cpp.
#pragma once

#include <vector>

#include "linalg/block_sparse.hpp"
#include "linalg/constrained_solve.hpp"
#include "core/vec.hpp"

namespace bench {

struct FixedSystem {
  cloth::BlockSparseMatrix A;
  std::vector<cloth::Vec3> b, x;
  cloth::VertexConstraints c;
  cloth::PcgSettings settings;
  std::vector<char> left_out;  ///< A's blocks left out of IC(0), as the implicit step leaves them
  int cg = 0;  ///< CG iterations of its solve (one thread; every thread count gives the same)
};

/// The system at n x n vertices, built on first use and kept for the process.
const FixedSystem& fixed_system(int n);

}  // namespace bench
