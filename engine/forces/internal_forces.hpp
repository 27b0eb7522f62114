#pragma once
// The cloth's own (material) forces, whichever model it uses: Hooke springs or the Baraff-Witkin
// conditions. One place that walks the model's element arrays for forces, energy and Jacobians.
#include <array>
#include <vector>

#include "linalg/block_sparse.hpp"
#include "forces/jacobian_target.hpp"
#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

/// Whether add_internal_forces includes the shape-operator bend: the explicit steps' multiple
/// time stepping applies it on its own interval (add_bend_forces).
enum class BendForces { Included, Excluded };

/// f += material forces (elastic + material damping), N.
void add_internal_forces(const ClothModel& model, const ClothState& state, std::vector<Vec3>& f,
                         BendForces bend = BendForces::Included);

/// f += the shape-operator bend's forces (elastic + damping) of model.bend_triangles, N.
void add_bend_forces(const ClothModel& model, const ClothState& state, std::vector<Vec3>& f);

/// Elastic energy of the material, J.
double internal_energy(const ClothModel& model, const ClothState& state);

/// Where each Hooke spring's blocks live in matrices of the implicit pattern, looked up once per
/// topology, and the springs in tiles: the tiles of one phase add to disjoint blocks, so they run
/// on several threads while every block still receives its terms in the same order (parallel.hpp:
/// the same bits for every thread count).
struct SpringSlots {
  std::vector<std::array<int, 4>> slots;  ///< per model.springs: (i,i), (i,j), (j,i), (j,j)
  /// The springs in tiles of nearby vertices (SpringTiles, XPBD's order too): a tile's blocks
  /// of A are near each other while its springs add to them, and the tiles of one phase share no
  /// vertex, for threads. (Whole-cloth vertex-disjoint groups were no faster: no difference in
  /// BM_Frame was measurable through the machine's noise.)
  SpringTiles tiles;
  static constexpr int kTileVertices = 512;

  SpringSlots() = default;
  SpringSlots(const ClothModel& model, const BlockSparseMatrix& pattern);
};

/// The material's Jacobian blocks into `jac` (∂f/∂x and ∂f/∂v, or the implicit step's A). With
/// `definite`, each element's stiffness is made negative semidefinite (springs: compression
/// clamp; shape-operator bend: Gauss-Newton at small angles, else projected; other elements:
/// project_psd of the element Hessian), so the implicit system matrix stays
/// positive definite. `springs`, when given
/// (SpringSlots of this model and the matrices' pattern), adds the springs' blocks without
/// searching the rows, tile by tile on up to `threads` threads (the implicit integrator's hot
/// path); otherwise they are added one by one in index order. With `f`, the forces are added
/// to it in the same pass (one evaluation per element: a spring's force and Jacobians come from
/// one evaluate_spring), as add_internal_forces but summed in this order: equal up to rounding.
/// `step_bend` (with `definite`): the shape-operator bend elements give the implicit step's
/// definite stiffness (eval_shape_operator_bend_definite: Gauss-Newton at small angles, no
/// eigensolve) instead of the projection of their exact one (Newton's static drape wants the
/// latter: quadratic convergence where bending moments stay).
void add_internal_jacobians(const ClothModel& model, const ClothState& state, bool definite,
                            JacobianTarget& jac, const SpringSlots* springs = nullptr, int threads = 1,
                            std::vector<Vec3>* f = nullptr, bool step_bend = false);

/// visit(i, j) for each pair of vertices coupled by one of the material's elements (part of the
/// sparsity pattern), element by element: every element couples all of its vertices. A pair
/// shared by several elements is visited once for each.
template <typename Visit>
void for_each_internal_pair(const ClothModel& model, Visit&& visit) {
  for (const Spring& s : model.springs) visit(s.i, s.j);
  const auto stencil = [&](const auto& v) {
    for (size_t a = 0; a < v.size(); ++a) {
      for (size_t b = a + 1; b < v.size(); ++b) {
        if (v[a] != v[b]) visit(v[a], v[b]);  // a boundary edge's bend slot repeats a vertex
      }
    }
  };
  for (const ShapeOperatorTriangle& t : model.bend_triangles) stencil(t.v);
  for (const FeynmanSpring& s : model.feynman.springs) stencil(s.v);
  for (const FeynmanBend& b : model.feynman.bends) stencil(b.v);
  for (const BreenLink& l : model.breen.links) stencil(l.v);
  for (const BreenBend& b : model.breen.bends) stencil(b.v);
  for (const BreenTrellis& t : model.breen.trellis) stencil(t.v);
}

}  // namespace cloth
