#pragma once
// Edge-strain + triangle-area membrane of the CS176 implicit-cloth project (CS176 2011, Part I),
// made to mean its SI moduli on any triangulation. The project writes
//
//   E = alpha E_e + beta E_t = alpha sum_e (1 - |e|/|e0|)^2 |e0| + beta sum_t (1 - A_t/A0_t)^2 A0_t
//
// with e0, A0 the rest ("original configuration") edge lengths and triangle areas, and damps it
// (Part II) by B&W section 4.5 (eqs. 11-12, non-symmetric term dropped).
//
// Why not the edge term as written. A weighted sum of squared edge strains gives each triangle a
// quadratic form in the strain tensor with three coefficients, one per edge direction; a membrane
// with given moduli needs the products of different edges' strains too. Its moduli therefore
// depend on the triangles' shapes: measured Young's modulus 0.92-1.25 alpha and shear modulus
// 0.107-0.167 alpha over square, 2:1, 1:2 and flipped-diagonal cells (beta = alpha / 5), and no
// shear parameter.
//
// Here each triangle's edge term is the full quadratic form in its three edge strains
// C_k = |e_k| / |e0_k| - 1 (the project's edge strain), with the cross terms, that equals an
// orthotropic linear membrane in the triangle's material frame (u along the mesh's u direction,
// Baraff & Witkin 1998, sec. 2.1) for small strain:
//
//   E_e,t = 1/2 C^T K C,   K = A0 M^-T diag(a, a, 4 G) M^-1,
//   row k of M = (d_1^2, d_2^2, 2 d_1 d_2),  d = e0_k / |e0_k| in the (u, v) frame of the triangle,
//
// since a small strain eps (components eps_uu, eps_vv, eps_uv) stretches edge k by C_k = d^T eps d:
// M^-1 C recovers eps, and 1/2 eps:D:eps per unit area is a/2 (eps_uu^2 + eps_vv^2) + 2 G eps_uv^2
// (= 1/2 G gamma^2 with the engineering shear gamma = 2 eps_uv). This is the "triangular springs"
// construction of Delingette 2008 (Triangular springs for modeling nonlinear membranes), with the
// project's edge strains in place of squared lengths and an orthotropic law in place of an
// isotropic one; a uniform strain of any mesh stores exactly its continuum energy to first order.
//
// The area term is the project's, as is: C_t = (A - A0) / A0, E_t = beta A0 C_t^2 (beta in N/m).
// For small strain it adds 2 beta (tr eps)^2 / 2 per unit area: an area modulus that couples the
// two axes (a Poisson effect). The edge term's axial modulus a is chosen so that the sheet's
// Young's modulus along u and v, with free sides, is `stretch` Y whatever beta:
//
//   c = a + 2 beta = (Y + sqrt(Y^2 + 16 beta^2)) / 2   (from Y = c - (2 beta)^2 / c),
//
// and its Poisson ratio is nu = 2 beta / c (0 without the area term). The shear modulus is
// `shear` G (a pure shear keeps the area). Tested by MembraneTension and MembraneShear on five
// cell shapes and by EdgeAreaContinuum on grids and jittered meshes.
//
// Damping. d = -dC/dx K_d C_dot with K_d = k_damp A0 M^-T diag(1, 1, 4) M^-1 for the edge strains
// (a uniaxial strain rate dissipates k_damp eps_dot^2 per m^2, a shear rate k_damp gamma_dot^2, as
// Baraff-Witkin's stretch and shear) and k_damp A0 on C_t; k_damp in N*s/m.
//
// Rest data come from mesh.positions, the project's "original configuration", so the initial shape
// is stress-free even for a curved OBJ; the (u, v) map gives only the direction of u in each
// triangle (the first edge where the map is degenerate).
#include <array>
#include <vector>

#include <Eigen/Dense>

#include "elements/bw_conditions.hpp"
#include "mesh/mesh.hpp"
#include "core/vec.hpp"

namespace cloth {

/// One mesh triangle: its three edges' strains and its area strain.
///
///          v[2]
///         /    \        edge k joins v[k] and v[(k + 1) % 3]
///     v[0] ---- v[1]
struct EdgeAreaTriangle {
  std::array<int, 3> v{};               ///< the mesh triangle's vertices, in its order
  std::array<double, 3> rest_length{};  ///< |e0_k|, m
  double rest_area = 0;                 ///< A0 in the rest positions, m^2
  /// A0 M^-T diag(1, 1, 0) M^-1 and A0 M^-T diag(0, 0, 4) M^-1 (header), m^2: K = a axial + G shear.
  Eigen::Matrix3d axial_form = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d shear_form = Eigen::Matrix3d::Zero();
};

/// Elements of a triangle mesh from its rest positions and (u, v). Throws InputError (one line) on
/// a non-finite rest position or a triangle whose rest area is below 1e-10 of its longest edge
/// squared (which includes zero-length edges).
std::vector<EdgeAreaTriangle> build_edge_area_elements(const RestMesh& mesh);

/// The edge term's axial modulus a (N/m) that gives the sheet Young's modulus `young` along u and
/// v together with the area term beta (header): a = c - 2 beta, c = (Y + sqrt(Y^2 + 16 beta^2)) / 2.
double edge_term_axial_modulus(double young, double beta);

/// (C_0, C_1, C_2, C_t): the three edge strains |e_k| / |e0_k| - 1 and the area strain
/// (A - A0) / A0, with exact derivatives (zero for an edge of zero length, which has no direction,
/// and for a collinear triangle, where A is a cone point).
Condition<9, 4> edge_area_conditions(const EdgeAreaTriangle& t, const std::vector<Vec3>& x);

/// E = 1/2 C^T K C + beta A0 C_t^2 with K from `young` Y and `shear` G (N/m), and the damping
/// above with k_damp (N*s/m).
ElementEval<9> eval_edge_area(const EdgeAreaTriangle& t, const std::vector<Vec3>& x,
                              const std::vector<Vec3>& v, double young, double shear, double beta,
                              double k_damp);

}  // namespace cloth
