#pragma once
// Newton iterations of the static drape solver (see static_drape_newton.cpp).
#include <utility>
#include <vector>

#include "drape/static_drape_internal.hpp"

#include "linalg/block_sparse.hpp"

namespace cloth::drape {

class NewtonSolver {
 public:
  explicit NewtonSolver(const Level& L);
  /// One damped Newton iteration on x; false when no step lowers the energy (or the residual).
  bool step(Level& L, std::vector<Vec3>& x);

 private:
  std::vector<std::pair<int, int>> pairs_;
  BlockSparseMatrix dfdx_, dfdv_;
};

}  // namespace cloth::drape
