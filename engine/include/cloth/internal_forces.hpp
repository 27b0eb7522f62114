#pragma once
// The cloth's own (material) forces, whichever model it uses: Hooke springs or the Baraff-Witkin
// conditions. One place that walks the model's element arrays for forces, energy and Jacobians.
#include <array>
#include <vector>

#include "cloth/block_sparse.hpp"
#include "cloth/model.hpp"
#include "cloth/state.hpp"

namespace cloth {

/// f += material forces (elastic + material damping), N.
void add_internal_forces(const ClothModel& model, const ClothState& state, std::vector<Vec3>& f);

/// Elastic energy of the material, J.
double internal_energy(const ClothModel& model, const ClothState& state);

/// dfdx, dfdv += the material's Jacobian blocks. With `definite`, each element's stiffness is made
/// negative semidefinite (springs: compression clamp; Baraff-Witkin: project_psd of the element
/// Hessian), so the implicit system matrix stays positive definite. `spring_slots`, when given,
/// holds each spring's slots of (i, i), (i, j), (j, i), (j, j) in the matrices (ElementSlots), so
/// its blocks are added without searching the rows (the implicit integrator's hot path).
void add_internal_jacobians(const ClothModel& model, const ClothState& state, bool definite,
                            BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv,
                            const std::vector<std::array<int, 4>>* spring_slots = nullptr);

/// Vertex pairs coupled by the material's elements (part of the sparsity pattern).
void append_internal_pairs(const ClothModel& model, std::vector<std::pair<int, int>>& pairs);

}  // namespace cloth
