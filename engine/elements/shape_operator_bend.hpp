#pragma once
// Bending by a per-triangle discrete shape operator built from the dihedral angles of the
// triangle's three edges, for a plate with Poisson ratio 0 (bending rigidity B, N*m):
//
//   S_t = sum_i theta_i |e_i| / (2 A_t) n_i n_i^T,      E = 1/2 B sum_t A_t |S_t|_F^2,
//
// theta_i the dihedral angle at edge i of triangle t minus its rest angle (bend_condition of
// Baraff & Witkin 1998, sec. 4.3), |e_i| the edge's rest length, n_i its in-plane unit normal and
// A_t the triangle's rest area, all in rest (u, v); a boundary edge contributes nothing. The sum
// over the edges is the distributional Hessian of the piecewise-linear surface (each edge's fold
// theta |e| n n^T, half to each of its triangles). With the rest quantities held constant (as
// Baraff & Witkin hold |e| constant, sec. 4.3) E is a quadratic form in the hinge angles,
// E_t = 1/2 B theta^T K theta with K_ij = A_t c_i c_j (n_i . n_j)^2, c_i = |e_i| / (2 A_t): the
// Gram matrix of the c_i n_i n_i^T, so K is positive semidefinite and dimensionless.
//
// Why not the per-hinge weight of bw_conditions.hpp: a hinge alone cannot tell a fold across a
// cell's diagonal from a bend, and on right-triangle grids the per-hinge energy lets a strip bend
// through diagonal folds in series with the folds across it, ~25% too soft with square cells
// (docs/models.md, "Bending"). Coupling the hinges of one triangle gives the twist and oblique
// curvatures their plate energy.
//
// Anisotropy (sec. 4.3): each hinge carries B&W's weight w_i = (k_u du^2 + k_v dv^2) / (du^2 +
// dv^2), and K_ij is scaled by sqrt(w_i w_j) (K stays semidefinite: D K D with D = diag sqrt(w)),
// so a cylinder whose folds run along u stores k_u 1/2 B kappa^2 per area.
//
// Damping: the Rayleigh function 1/2 k_d sum_t A_t |dS_t/dt|^2 (k_d in N*m*s, the bend damping of
// the Baraff-Witkin model scaled the same way), force -J^T K k_d theta_dot with J = dtheta/dx; as
// in eq. 12 its d2theta/dx2 term is kept in dfdx and the J^T (dtheta_dot/dx) term dropped.
#include <array>
#include <vector>

#include <Eigen/Dense>

#include "elements/bw_conditions.hpp"
#include "mesh/mesh.hpp"

namespace cloth {

/// One triangle's shape-operator bend element. Vertices: v[0..2] the triangle in its mesh winding,
/// v[3 + i] the vertex across edge i = (v[i], v[i+1]) (for a boundary edge, v[(i + 2) % 3] again,
/// with zero force and stiffness: a stencil of six whatever the edge). hinges[i] has
/// v = (v[i], v[i+1], v[i+2], v[3+i]), so the triangle is side A of every hinge and the three
/// angles share one sign convention.
struct ShapeOperatorTriangle {
  std::array<int, 6> v{};
  std::array<BendEdge, 3> hinges{};   ///< rest_angle used; weight and scale unused (folded into K)
  /// Edge i's hinge in build_bend_edges(mesh) (the model's bw_bends), -1 for a boundary or
  /// non-manifold edge (theta_i = 0), and the sign that turns that hinge's angle into theta_i: +1
  /// (either triangle may be its side A), -1 only across triangles wound against each other.
  std::array<int, 3> shared{-1, -1, -1};
  std::array<double, 3> shared_sign{0, 0, 0};
  Eigen::Matrix3d stiffness = Eigen::Matrix3d::Zero();  ///< K / B, dimensionless

  bool interior(int i) const { return shared[size_t(i)] >= 0; }
};

/// One element per triangle. k_u, k_v as build_bend_edges (sec. 4.3 weights); rest angles from
/// mesh.positions, rest lengths, normals and areas from mesh.uv. Throws InputError as
/// build_bend_edges on degenerate (u, v) geometry.
std::vector<ShapeOperatorTriangle> build_shape_operator_bend(const RestMesh& mesh, double k_u = 1.0,
                                                             double k_v = 1.0);

/// Per-hinge arrays of add_shape_operator_bend_forces, kept between calls so that a step
/// allocates nothing; vertex block descent keeps angle and effective as its hinge cache.
struct ShapeOperatorScratch {
  std::vector<HingeAngle> angle;      ///< each shared hinge's angle and gradient
  std::vector<double> effective, sum; ///< B theta + k_d theta_dot; sum over its triangles of (K eff)_i
};

/// Hinge h's angle, gradient and effective angle B theta + k_d theta_dot at positions x and
/// velocities v, into scratch.angle[h] and scratch.effective[h] (sized for `hinges`).
void update_hinge(const std::vector<BendEdge>& hinges, size_t h, const std::vector<Vec3>& x,
                  const std::vector<Vec3>& v, double bending, double damping, ShapeOperatorScratch& scratch);

/// update_hinge for every hinge, after sizing the arrays.
void update_hinges(const std::vector<BendEdge>& hinges, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                   double bending, double damping, ShapeOperatorScratch& scratch);

/// Adds every element's force (elastic + damping) to f and returns their energy: the sum of
/// shape_operator_bend_force over `triangles`, to round-off. Each interior edge's angle and
/// gradient are computed once, for its two triangles (`hinges` = build_bend_edges of the same mesh
/// and weights, which ShapeOperatorTriangle::shared indexes), and no 3 x 18 Jacobian is formed:
/// the explicit integrators evaluate this many times a frame, where the element-by-element sum
/// cost about twice as much (ShapeOperatorBend.SharedHingeForcesEqualTheElementSum).
double add_shape_operator_bend_forces(const std::vector<ShapeOperatorTriangle>& triangles,
                                      const std::vector<BendEdge>& hinges, const std::vector<Vec3>& x,
                                      const std::vector<Vec3>& v, double bending, double damping,
                                      ShapeOperatorScratch& scratch, std::vector<Vec3>& f);

/// An upper bound R on the largest eigenvalue of M^-1 H at the rest shape, H the bend's stiffness
/// for B = 1 N*m and M the lumped masses (kg): the stiffest bend mode has omega^2 <= B R and the
/// bend damping's fastest rate is at most k_d R (1/s). Element by element: with y = M^(1/2) x,
/// x^T H x = sum_t x_t^T H_t x_t <= sum_t lambda_t |y_t|^2, so R = max over vertices of the sum of
/// lambda_t = lambda_max(M_t^-1/2 H_t M_t^-1/2) over the elements that hold it. The explicit steps'
/// multiple time stepping sizes the bend's impulse interval from it
/// (ShapeOperatorBend.RateBoundsTheStiffestBendMode). Units 1 / (kg m^2).
double shape_operator_bend_rate(const std::vector<ShapeOperatorTriangle>& triangles,
                                const std::vector<Vec3>& rest_positions, const std::vector<double>& mass);

/// Energy and force (elastic + damping) alone, as eval_shape_operator_bend gives them: what the
/// explicit integrators need, without its two 18 x 18 matrices.
ElementForce<18> shape_operator_bend_force(const ShapeOperatorTriangle& t, const std::vector<Vec3>& x,
                                           const std::vector<Vec3>& v, double bending, double damping);

/// One vertex's share of one element, for solvers that move a vertex at a time (vertex block
/// descent): the force on it and the 3 x 3 diagonal blocks of the Jacobians there, in the sign
/// convention of a Hessian.
struct ShapeOperatorVertexShare {
  Vec3 force = Vec3::Zero();                            ///< elastic + damping, N
  Eigen::Matrix3d stiffness = Eigen::Matrix3d::Zero();  ///< -df/dx at the vertex, positive semidefinite, N/m
  Eigen::Matrix3d damping = Eigen::Matrix3d::Zero();    ///< -df/dv at the vertex, N*s/m
};

/// The rows of eval_shape_operator_bend_definite at `vertex` (one of t.v) without the 18 x 18
/// matrices: the same force and damping block; the stiffness is Gauss-Newton B J_v^T K J_v plus,
/// for each hinge beyond kBendGaussNewtonAngle, its curvature block at the vertex projected on its
/// own 3 x 3 rather than the 12 x 12 of the hinge (the descent needs each vertex's block
/// definite, not the element's; its fixed point does not depend on the block). A vertex touches
/// about twelve elements, and building each one's two 18 x 18 matrices to read one 3 x 3 block
/// would dominate the descent (ShapeOperatorBend.VertexShareIsTheElementsRowsAtTheVertex).
/// The angles come from `cache` (update_hinge of the shared hinges `hinges`, current for x and the
/// velocities): the two elements on a hinge's edge are read from each of their six vertices, about
/// twelve reads of its angle a sweep, while its four vertices move four times. x is read for the
/// large hinges' curvature blocks only.
ShapeOperatorVertexShare shape_operator_bend_vertex(const ShapeOperatorTriangle& t, int vertex,
                                                    const std::vector<BendEdge>& hinges,
                                                    const ShapeOperatorScratch& cache, const std::vector<Vec3>& x,
                                                    double bending, double damping);

/// Energy, force (elastic + damping) and Jacobians of one element: bending = B (N*m), damping =
/// k_d (N*m*s). dfdx is exact (with eq. 12's symmetric damping term).
ElementEval<18> eval_shape_operator_bend(const ShapeOperatorTriangle& t, const std::vector<Vec3>& x,
                                         const std::vector<Vec3>& v, double bending, double damping);

/// The same with the implicit step's definite stiffness (energy, force and dfdv unchanged):
/// Gauss-Newton dfdx = -B J^T K J, plus, for each hinge whose effective angle
/// |theta_i + (k_d / B) theta_dot_i| exceeds kBendGaussNewtonAngle, its curvature term
/// -g_i d2theta_i/dx2 made negative semidefinite by definite_stiffness<12>, as eval_bend_definite
/// does per hinge.
ElementEval<18> eval_shape_operator_bend_definite(const ShapeOperatorTriangle& t,
                                                  const std::vector<Vec3>& x,
                                                  const std::vector<Vec3>& v, double bending,
                                                  double damping);

}  // namespace cloth
