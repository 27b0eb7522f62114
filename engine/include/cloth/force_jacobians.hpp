#pragma once
// The force f(x, v) of the whole cloth together with its Jacobians ∂f/∂x and ∂f/∂v, assembled
// element by element into block-sparse matrices (Baraff-Witkin section 2.3 / eq. 15 needs all three).
#include <utility>
#include <vector>

#include "cloth/block_sparse.hpp"
#include "cloth/model.hpp"
#include "cloth/state.hpp"

namespace cloth {

/// Every pair of vertices coupled by an element of the model (the sparsity pattern).
std::vector<std::pair<int, int>> coupled_pairs(const ClothModel& model);

/// f (as compute_forces), ∂f/∂x and ∂f/∂v. The matrices must have the pattern of coupled_pairs.
/// Springs contribute their Jacobian blocks; velocity damping -m c v contributes -m c I to ∂f/∂v;
/// gravity has none. With clamp_compression, compressed springs lose their (indefinite)
/// transverse stiffness so that ∂f/∂x is negative semidefinite (see springs.hpp).
void compute_force_jacobians(const ClothModel& model, const ClothState& state, const Vec3& gravity,
                             bool clamp_compression, std::vector<Vec3>& f, BlockSparseMatrix& dfdx,
                             BlockSparseMatrix& dfdv);

}  // namespace cloth
