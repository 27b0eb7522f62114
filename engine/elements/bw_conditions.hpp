#pragma once
// Baraff-Witkin condition kernels (Baraff & Witkin 1998, section 4): stretch, shear and bend
// conditions C(x)
// with exact first and second derivatives, turned into energy, force, force Jacobian (eqs. 7-8)
// and the condition-based damping of section 4.5 (eqs. 11-12). Element arrays hold the
// precomputed rest data; the kernels are stateless.
//
// SI conventions. The paper writes E = k/2 C^T C. Its stretch and shear conditions carry the
// rest area a, so with C = a (...) a constant k would be in N/m^3 and make the material depend on
// the mesh resolution. Here each element uses k_elem = k / a, so that
//   stretch: E = Y/2 a [(|w_u| - b_u)^2 + (|w_v| - b_v)^2]   (Y = k_stretch, N/m)
//   shear:   E = G/2 a (w_u . w_v)^2                           (G = k_shear, N/m)
// i.e. per unit rest area the continuum membrane energy 1/2 Y eps^2 (exact for a uniform
// stretch, eps = |w_u| - 1) and 1/2 G gamma^2 (w_u . w_v = gamma, the engineering shear strain,
// for small strain). The damping constant is scaled the same way (k_d,elem = k_damp / a), so
// k_damp is a 2D viscosity in N*s/m: a uniform strain rate dissipates k_damp eps_dot^2 per m^2.
//
// Bend: C = theta - theta_0 (sec. 4.3, footnote 5: not scaled by area) with
//   E = B/2 * weight * |e|^2 / (A1 + A2) * (theta - theta_0)^2         (B = k_bend, N*m)
// where |e| is the shared edge's rest length and A1, A2 the two rest triangle areas (in (u, v)).
// Why this scale: the dihedral angle theta is the curvature integrated across the hinge, and the
// two triangles span a strip of width (A1 + A2) / |e| across the edge; spreading theta over it
// gives kappa = theta |e| / (A1 + A2), and 1/2 B kappa^2 (A1 + A2) is the formula above. A sheet
// bent onto a cylinder (curvature kappa) then has 1/2 B kappa^2 per unit area (tested, up to the
// missing hinges of the outermost cells): on the engine's grids (make_grid) with the axis along
// u or v (all the curvature sits on one edge family and each triangle is in exactly one hinge
// strip), and on equilateral meshes in every direction. The "discrete shells" factor
// 3 |e|^2 / (A1 + A2) (Grinspun et al. 2003, one third of the strip per edge) would triple it.
// Still mesh-dependent: on a grid with the cylinder axis oblique to u and v the piecewise-linear
// surface zig-zags across the cells' diagonals. Measured on an 80 x 80 grid: 1.00x the continuum
// value with the axis parallel to the diagonal edges, 0.75-0.86x with it 11-29 degrees off u, and
// 2.97x with it perpendicular to the diagonal edges. k_damp for bend is scaled like B, in N*m*s.
//
// Damping (sec. 4.5): d = -k_d dC/dx C_dot with C_dot = dC/dx^T v (eq. 11). Of eq. 12 the kernels
// keep the symmetric term -k_d d2C/dx2 C_dot in dfdx and drop -k_d dC/dx (dC_dot/dx)^T, as the paper
// advises (it breaks symmetry; dropping all of eq. 12 is what causes trouble). dfdv is exact.
#include <array>
#include <type_traits>
#include <vector>

#include <Eigen/Dense>

#include "mesh/mesh.hpp"
#include "core/vec.hpp"

namespace cloth {

/// Rest data of one triangle for the stretch (sec. 4.2) and shear (sec. 4.3) conditions.
struct StretchShearTriangle {
  std::array<int, 3> v{};  ///< vertex indices i, j, k of sec. 4.2
  double du1 = 0, du2 = 0;  ///< rest u_j - u_i, u_k - u_i, m
  double dv1 = 0, dv2 = 0;  ///< rest v_j - v_i, v_k - v_i, m
  double inv_det = 0;       ///< 1 / (du1 dv2 - du2 dv1), 1/m^2 (signed)
  double area = 0;          ///< rest area a in (u, v), m^2
};

/// Rest data of one interior edge for the bend condition (sec. 4.3).
///
///            v[2]
///           /    \         triangle A = (v[0], v[1], v[2]), triangle B = (v[1], v[0], v[3]):
///       v[0] ---- v[1]     the shared edge runs v[0] -> v[1]; theta = 0 when the two triangles
///           \    /         are coplanar and unfolded, whatever the orientation of the mesh's
///            v[3]          own triangles.
struct BendEdge {
  std::array<int, 4> v{};  ///< v[0], v[1] = shared edge, v[2], v[3] = opposite vertices
  double rest_angle = 0;   ///< dihedral angle theta_0 of the rest positions, rad
  double weight = 1;       ///< anisotropic weighting of sec. 4.3 (1 when isotropic), dimensionless
  double scale = 0;        ///< |e|^2 / (A1 + A2) of the rest (u, v) geometry, dimensionless
};

/// One element per triangle. Throws InputError on a degenerate (u, v) triangle (area below 1e-10
/// of its longest (u, v) edge squared) or a non-finite rest coordinate.
std::vector<StretchShearTriangle> build_stretch_shear(const RestMesh& mesh);

/// One element per interior edge (shared by exactly two triangles; boundary and non-manifold
/// edges get none). weight = (k_u du^2 + k_v dv^2) / (du^2 + dv^2) with (du, dv) the edge in
/// (u, v), the formula of sec. 4.3: k_u weights creases running along u (which curve the v
/// material lines), k_v creases along v; both are dimensionless factors on k_bend. rest_angle comes
/// from mesh.positions. Throws InputError on a zero-length edge or zero-area pair in (u, v).
std::vector<BendEdge> build_bend_edges(const RestMesh& mesh, double k_u = 1.0, double k_v = 1.0);

/// A vector condition C (M components) over N = 3 * vertices coordinates, with exact derivatives.
template <int N, int M>
struct Condition {
  Eigen::Matrix<double, M, 1> value;                ///< C(x)
  Eigen::Matrix<double, N, M> grad;                 ///< column m: dC_m/dx
  std::array<Eigen::Matrix<double, N, N>, M> hess;  ///< d2C_m/dx2
};

/// An element's energy and force alone, over its N = 3 * vertices coordinates.
template <int N>
struct ElementForce {
  double energy = 0;                  ///< elastic energy, J
  Eigen::Matrix<double, N, 1> force;  ///< -dE/dx + damping d, N
};

/// An element's energy, force and Jacobians (dfdx, dfdv).
template <int N>
struct ElementEval {
  double energy = 0;                                                ///< elastic energy, J
  Eigen::Matrix<double, N, 1> force = Eigen::Matrix<double, N, 1>::Zero();  ///< -dE/dx + damping d, N
  Eigen::Matrix<double, N, N> dfdx = Eigen::Matrix<double, N, N>::Zero();   ///< eq. 8 K + symmetric eq. 12 term, N/m
  Eigen::Matrix<double, N, N> dfdv = Eigen::Matrix<double, N, N>::Zero();   ///< damping, eq. 12 dd/dv, N*s/m
};

/// The deformation map's derivatives (w_u, w_v) of eq. 9 for the positions x; |w_u| and |w_v| are
/// the stretch along u and v (1 at rest with b = 1).
std::array<Vec3, 2> stretch_vectors(const StretchShearTriangle& t, const std::vector<Vec3>& x);

/// C = a (|w_u| - b_u, |w_v| - b_v) of eq. 10, w from eq. 9. Coordinates ordered v[0], v[1], v[2].
Condition<9, 2> stretch_condition(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                                  double b_u, double b_v);
/// C = a w_u . w_v (sec. 4.3).
Condition<9, 1> shear_condition(const StretchShearTriangle& t, const std::vector<Vec3>& x);
/// C = theta - rest_angle, wrapped into (-pi, pi]; theta = atan2((n_A x n_B) . e_hat, n_A . n_B)
/// (sec. 4.3), differentiated exactly (the paper's constant-normal-length shortcut is not used).
/// With `hessian` false only C and dC/dx are computed (hess stays zero). The sign of theta does
/// not depend on which triangle is A: swapping them reverses e and exchanges n_A, n_B.
Condition<12, 1> bend_condition(const BendEdge& e, const std::vector<Vec3>& x, bool hessian = true);

/// bend_condition's C and dC/dx (the same numbers) without a Hessian's storage: the shape-operator
/// bend's force path evaluates every hinge once per explicit step.
struct HingeAngle {
  double value = 0;                  ///< C = theta - rest_angle, rad
  Eigen::Matrix<double, 12, 1> grad; ///< dC/dx, 1/m
};
HingeAngle bend_angle(const BendEdge& e, const std::vector<Vec3>& x);

/// The diagonal 3 x 3 block of bend_condition's Hessian at the hinge's vertex e.v[slot] alone
/// (d2C/dx_slot^2): what a vertex-at-a-time solver reads, without the other fifteen blocks.
Eigen::Matrix3d bend_hessian_block(const BendEdge& e, const std::vector<Vec3>& x, int slot);

/// Energy, force and Jacobians of E = 1/2 C^T k C (eqs. 7-8) plus damping d = -dC/dx k_d C_dot
/// (eq. 11) for element velocities vel (N values, same order as the condition's coordinates).
/// k and k_d are scalars (Baraff & Witkin's conditions, each with its own stiffness) or
/// symmetric M x M matrices, for elements whose conditions are coupled (the edge-area membrane's
/// three edge strains). Either way dfdx and dfdv are symmetric bit for bit: A stores one block of
/// each pair (jacobian_target.hpp).
template <int N, int M, typename Weight>
ElementEval<N> evaluate_condition(const Condition<N, M>& c, const Weight& k, const Weight& k_d,
                                  const Eigen::Matrix<double, N, 1>& vel) {
  constexpr bool scalar = std::is_arithmetic_v<Weight>;
  ElementEval<N> out;
  const Eigen::Matrix<double, M, 1> c_dot = c.grad.transpose() * vel;
  const Eigen::Matrix<double, M, 1> k_c = k * c.value;
  const Eigen::Matrix<double, M, 1> weights = k_c + k_d * c_dot;
  out.force = -c.grad * weights;
  // lazyProduct: see definite_stiffness below (stretch's 9 x 2 by 2 x 9 product went through
  // Eigen's general matrix-matrix kernel). A scale outside the product keeps entry (i, j) bit for
  // bit entry (j, i); a matrix in the middle needs the symmetric part taken.
  if constexpr (scalar) {
    out.energy = 0.5 * k * c.value.squaredNorm();
    out.dfdx = -k * c.grad.lazyProduct(c.grad.transpose());
    out.dfdv = -k_d * c.grad.lazyProduct(c.grad.transpose());
  } else {
    out.energy = 0.5 * c.value.dot(k_c);
    const Eigen::Matrix<double, N, N> stiffness = (c.grad * k).lazyProduct(c.grad.transpose());
    out.dfdx = -0.5 * (stiffness + stiffness.transpose());
    const Eigen::Matrix<double, N, N> viscosity = (c.grad * k_d).lazyProduct(c.grad.transpose());
    out.dfdv = -0.5 * (viscosity + viscosity.transpose());
  }
  for (int m = 0; m < M; ++m) out.dfdx -= weights[m] * c.hess[m];
  return out;
}

/// Stretch element (sec. 4.2): k_stretch = Y in N/m, b_u, b_v rest stretch of eq. 10, k_damp in
/// N*s/m (see the SI conventions above). x and v are the whole mesh's positions and velocities.
ElementEval<9> eval_stretch(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                            const std::vector<Vec3>& v, double k_stretch, double b_u, double b_v,
                            double k_damp);
/// eval_stretch with dfdx = -project_psd(-dfdx) (the implicit step's definite stiffness), the
/// projection split by the element's structure into a 2 x 2 and a 4 x 4 eigenproblem (why in
/// bw_stretch_shear.cpp): the same matrix as definite_stiffness<9> up to round-off.
ElementEval<9> eval_stretch_definite(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                                     const std::vector<Vec3>& v, double k_stretch, double b_u, double b_v,
                                     double k_damp);
/// Shear element (sec. 4.3): k_shear = G in N/m, k_damp in N*s/m.
ElementEval<9> eval_shear(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                          const std::vector<Vec3>& v, double k_shear, double k_damp);
/// eval_shear with dfdx = -project_psd(-dfdx) (the implicit step's definite stiffness), the
/// projection in closed form: the same matrix up to round-off without an eigensolver.
ElementEval<9> eval_shear_definite(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                                   const std::vector<Vec3>& v, double k_shear, double k_damp);
/// Bend element (sec. 4.3): k_bend = B in N*m, k_damp in N*m*s.
ElementEval<12> eval_bend(const BendEdge& e, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                          double k_bend, double k_damp);
/// eval_bend with the implicit step's definite stiffness (same energy, force and dfdv). Where the
/// hinge's effective angle |C + (k_d / k) C_dot| <= kBendGaussNewtonAngle, dfdx is Gauss-Newton,
/// -k dC/dx dC/dx^T (the d2C/dx2 term dropped, no eigensolve); beyond it, definite_stiffness of the
/// exact dfdx. Why in bw_bend.cpp.
inline constexpr double kBendGaussNewtonAngle = 0.2;  // rad
ElementEval<12> eval_bend_definite(const BendEdge& e, const std::vector<Vec3>& x,
                                   const std::vector<Vec3>& v, double k_bend, double k_damp);

/// Nearest positive semi-definite matrix to a symmetric Hessian (= -dfdx): eigenvalues below zero
/// are clamped to zero, so a Newton solve gets a descent direction even where the elastic energy
/// is locally concave (compressed stretch, bent hinges). The projection reads the lower triangle.
/// A non-finite matrix is returned as it is, for the caller's checks to meet (the step's blow-up
/// guard; vertex block descent's determinant test, which leaves that vertex in place): Eigen's QR
/// iterations do not converge on a NaN and would run to their iteration limit.
template <int N>
Eigen::Matrix<double, N, N> project_psd(const Eigen::Matrix<double, N, N>& hessian) {
  if (!hessian.allFinite()) return hessian;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, N, N>> eig;
  // 3 x 3 (vertex block descent's per-vertex blocks, many per vertex and iteration): Eigen's closed
  // form, whose documented worst-case relative error on the eigenvalues is 1e-8 in double (its
  // eigenvectors are less accurate where two eigenvalues nearly coincide, where the clamp changes
  // the matrix little): ample for a clamped stiffness.
  if constexpr (N == 3) {
    eig.computeDirect(hessian);
  } else {
    eig.compute(hessian);
  }
  const Eigen::Matrix<double, N, 1> clamped = eig.eigenvalues().cwiseMax(0.0);
  return eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
}

/// Orthonormal basis (N x (N - 3)) of the complement of rigid translations of V = N / 3 vertices.
template <int N>
const Eigen::Matrix<double, N, N - 3>& translation_complement() {
  static const Eigen::Matrix<double, N, N - 3> basis = [] {
    constexpr int V = N / 3;
    Eigen::Matrix<double, N, N> complement = Eigen::Matrix<double, N, N>::Identity();
    for (int a = 0; a < V; ++a) {
      for (int b = 0; b < V; ++b) complement.template block<3, 3>(3 * a, 3 * b) -= Eigen::Matrix3d::Identity() / V;
    }
    // Eigenvalues are 0 (x3, the translations) and 1 (x N - 3), in increasing order.
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, N, N>> eig(complement);
    return Eigen::Matrix<double, N, N - 3>(eig.eigenvectors().template rightCols<N - 3>());
  }();
  return basis;
}

/// -project_psd(-dfdx) in fewer operations (the implicit step's definite element stiffness). Every
/// material element is invariant under translation, so its stiffness K = -dfdx has the
/// translations as an exact null space and K = Q (Q^T K Q) Q^T with Q the basis above: the
/// projection onto the PSD cone is done on the (N - 3) x (N - 3) reduced matrix (9 x 9 for a hinge
/// instead of 12 x 12: about 2.4x fewer operations in the eigensolver), and skipped when the reduced
/// matrix is already positive definite (a Cholesky factorisation succeeds), where the projection is
/// the identity. Same matrix up to round-off. (The stretch triangle's projection has a structure of
/// its own: eval_stretch_definite.)
template <int N>
Eigen::Matrix<double, N, N> definite_stiffness(const Eigen::Matrix<double, N, N>& dfdx) {
  using Reduced = Eigen::Matrix<double, N - 3, N - 3>;
  if (!dfdx.allFinite()) return dfdx;  // as project_psd
  const Eigen::Matrix<double, N, N - 3>& q = translation_complement<N>();
  // lazyProduct: coefficient-wise products; Eigen's default sends fixed 9..12 sized products
  // through its general matrix-matrix kernel, which costs more than the arithmetic here.
  const Eigen::Matrix<double, N - 3, N> qt_k = q.transpose().lazyProduct(dfdx);
  const Reduced k = -qt_k.lazyProduct(q);
  if (Eigen::LLT<Reduced>(k).info() == Eigen::Success) return dfdx;
  const Eigen::SelfAdjointEigenSolver<Reduced> eig(k);
  const Eigen::Matrix<double, N, N - 3> qv = q.lazyProduct(eig.eigenvectors());
  const Eigen::Matrix<double, N, N - 3> scaled = qv * eig.eigenvalues().cwiseMax(0.0).asDiagonal();
  return -scaled.lazyProduct(qv.transpose());
}

}  // namespace cloth
