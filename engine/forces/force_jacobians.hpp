#pragma once
// The force f(x, v) of the whole cloth together with its Jacobians ∂f/∂x and ∂f/∂v, assembled
// element by element into block-sparse matrices (Baraff-Witkin section 2.3 / eq. 15 needs all three),
// or straight into the implicit step's A (jacobian_target.hpp).
#include <array>
#include <utility>
#include <vector>

#include "linalg/block_sparse.hpp"
#include "elements/bw_conditions.hpp"
#include "forces/forces.hpp"
#include "forces/internal_forces.hpp"
#include "forces/jacobian_target.hpp"
#include "model/model.hpp"
#include "model/state.hpp"
#include "kinematics/grab.hpp"

namespace cloth {

/// visit(i, j) for every pair of vertices coupled by an element of the model (the sparsity
/// pattern): the material's elements, then the triangle edges, which couple through drag/wind and
/// Baraff-Witkin stretch/shear. A pair is visited once per element that couples it, always in
/// the same order for the same model: the implicit integrator compares the sequence every step,
/// without storing it again, to notice a new topology.
template <typename Visit>
void for_each_coupled_pair(const ClothModel& model, Visit&& visit) {
  for_each_internal_pair(model, visit);
  for (const auto& t : model.mesh.triangles) {
    visit(t[0], t[1]);
    visit(t[1], t[2]);
    visit(t[2], t[0]);
  }
}
/// The pairs of for_each_coupled_pair in a list.
std::vector<std::pair<int, int>> coupled_pairs(const ClothModel& model);
/// A bend spring counts as weak at a step h when its coefficient in the implicit step's A,
/// h² k + h k_d, is below this fraction of that of every structural and shear spring at its two
/// vertices (weak_bend_springs).
inline constexpr double kWeakBendSpring = 0.1;
/// weak[s] = 1 for each spring s of the model that is a weak bend spring at step h (s); 0 for
/// the others, and for a bend spring at a vertex without structural or shear springs.
/// `softest` is scratch (per vertex), so that a caller can run this every step without allocating.
void weak_bend_springs(const ClothModel& model, double h, std::vector<char>& weak,
                       std::vector<double>& softest);
/// Per slot of A (a matrix of coupled_pairs(model)'s pattern): 1 where the pair is coupled by
/// weak bend springs alone (`weak`, per spring, from weak_bend_springs), in both of its slots.
/// The implicit integrator leaves these blocks out of the incomplete Cholesky preconditioner
/// (implicit_euler.cpp).
std::vector<char> weak_bend_slots(const ClothModel& model, const BlockSparseMatrix& A,
                                  const std::vector<char>& weak);

/// Where each element's 3x3 blocks live in a matrix of the pattern of coupled_pairs, looked up
/// once per topology so that the per-step assembly adds into the value slots directly instead of
/// searching each block's row. Block (a, b) of an element with V vertices is entry V a + b.
/// Covers the Hooke springs, the elements of the Baraff-Witkin model and the drag/wind triangles
/// (the implicit integrator's hot path); other models' elements are added through
/// BlockSparseMatrix::add.
struct ElementSlots {
  SpringSlots springs;                           ///< per model.springs, and their tiles
  std::vector<std::array<int, 9>> bw_triangles;  ///< per model.bw_triangles (stretch and shear)
  std::vector<std::array<int, 36>> bend_triangles;  ///< per model.bend_triangles
  std::vector<std::array<int, 9>> triangles;     ///< per model.mesh.triangles (drag / wind)

  ElementSlots() = default;
  ElementSlots(const ClothModel& model, const BlockSparseMatrix& pattern);
};

/// What the assembled ∂f/∂x leaves out of the true one: per triangle, the exact aerodynamic 9 x 9
/// block minus the symmetric (and, when definite, projected) block that was assembled. The
/// matrix A of eq. 16 needs the symmetric, definite version, but the right side of eq. 15,
/// h (f0 + h ∂f/∂x v0), needs the true derivative: a sheet translating through still air gains no
/// force by moving, so ∂f/∂x v0 must vanish there, and with the symmetrised block it does not
/// (a falling sheet then lands on too low a terminal speed, by 17% at 2 substeps a frame).
struct JacobianCorrection {
  std::vector<std::array<int, 3>> triangles;
  std::vector<Eigen::Matrix<double, 9, 9>> blocks;  ///< exact - assembled, N/m

  void clear() {
    triangles.clear();
    blocks.clear();
  }
  /// out += (∂f/∂x exact - assembled) d.
  void add_times(const std::vector<Vec3>& d, std::vector<Vec3>& out) const;
};

/// Scratch of the Baraff-Witkin elements' assembly on several threads (force_jacobians.cpp,
/// evaluate_then_add): two chunks of element results each, for the triangles (stretch and shear)
/// and for the bend triangles, about 8.4 MB in all. The implicit integrator keeps one, so that its steps
/// allocate nothing and the memory goes with it.
struct ElementEvalBuffers {
  struct StretchShear {
    ElementEval<9> stretch, shear;
  };
  std::array<std::vector<StretchShear>, 2> triangles;
  std::array<std::vector<ElementEval<18>>, 2> bends;
};

/// f (as compute_forces; the springs' and other non-Baraff-Witkin elements' forces are summed
/// in the order of their Jacobians, so equal to it up to rounding), ∂f/∂x and ∂f/∂v at time t.
/// The matrices must have the pattern of coupled_pairs. Springs contribute their Jacobian blocks; velocity damping -m c v gives -m c I
/// in ∂f/∂v; gravity has none; drag/wind give their exact ∂f/∂v, and of their ∂f/∂x only the
/// symmetric part (the rest is not symmetric, which CG cannot take: the same choice B&W make
/// for damping in section 4.5). With `definite`, each material element's ∂f/∂x is made negative
/// semidefinite (see internal_forces.hpp; the shape-operator bend mostly by Gauss-Newton,
/// eval_shape_operator_bend_definite) so that the implicit system stays positive definite.
/// `correction`, when given, is filled with what the drag/wind blocks left out (above).
/// The Jacobians go to `jac` (set to zero first): two matrices, or the implicit step's A with
/// ∂f/∂x d (jacobian_target.hpp). `slots` must be ElementSlots(model, jac.pattern()). `threads`:
/// for the springs, the Baraff-Witkin elements and the whole-matrix passes (the same bits for
/// every count, parallel.hpp); `buffers`: the Baraff-Witkin elements' scratch on several threads
/// (null: allocated for this call).
void compute_force_jacobians(const ClothModel& model, const ClothState& state,
                             const ExternalForces& ext, double t, bool definite,
                             const ElementSlots& slots, std::vector<Vec3>& f, JacobianTarget& jac,
                             JacobianCorrection* correction = nullptr, int threads = 1,
                             ElementEvalBuffers* buffers = nullptr);
/// The same into two matrices, looking the slots up for this call (one-off assemblies, tests).
void compute_force_jacobians(const ClothModel& model, const ClothState& state,
                             const ExternalForces& ext, double t, bool definite,
                             std::vector<Vec3>& f, BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv,
                             JacobianCorrection* correction = nullptr);

/// The spring-mode mouse grab, one of B&W's external "mouse forces" (sec. 2): adds
/// F = k (target - x) - c v to the grabbed vertex's f. Nothing when `spring` is null.
void add_grab_spring_force(const Grab* spring, const ClothState& state, std::vector<Vec3>& f);

/// Its Jacobians, dF/dx = -k I and dF/dv = -c I, on the grabbed vertex's diagonal blocks (both
/// negative definite: the spring only adds to A = M - h df/dv - h^2 df/dx of eq. 16).
void add_grab_spring_jacobians(const Grab* spring, JacobianTarget& jac);

}  // namespace cloth
