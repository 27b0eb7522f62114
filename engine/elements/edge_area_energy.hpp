#pragma once
// Edge-length + triangle-area energy of the CS176 implicit-cloth project (CS176 2011, Part I):
//
//   E = alpha E_e + beta E_t = alpha sum_e (1 - |e|/|e0|)^2 |e0| + beta sum_t (1 - A_t/A0_t)^2 A0_t
//
// with e0, A0 the rest ("original configuration") edge lengths and triangle areas, and its damping
// (Part II): B&W section 4.5 (eqs. 11-12, non-symmetric term dropped) on C = (|e| - |e0|)/|e0|.
// Two element families, each a scalar condition C fed through evaluate_condition (bw_conditions.hpp):
//
//   edge (N = 6)      v[0] ------- v[1]        C_e = (|x0 - x1| - |e0|) / |e0|   (edge strain)
//
//   triangle (N = 9)      v[2]                 C_t = (A - A0) / A0                (area strain)
//                        /    \                A = 1/2 |(x1 - x0) x (x2 - x0)|, the project's
//                    v[0] ---- v[1]            1/2 |(x_i - x_j) x (x_k - x_j)| with j = v[0]
//
// Rest data come from mesh.positions, the project's "original configuration": so the initial shape
// is stress-free even for a curved OBJ, as with build_springs (a planar-projected (u, v) would not
// be). On the engine's flat grids positions and (u, v) give the same lengths and areas.
//
// SI scaling. The project's edge term alpha (1 - |e|/|e0|)^2 |e0| = alpha |e0| C_e^2 makes alpha a
// force (N) and the energy of a strained sheet scale with its total edge length, i.e. as 1 / h
// with the mesh spacing h: the same alpha would be stiffer on finer meshes. Here each edge instead
// carries the area it represents, a_e = sum of A0/3 over its (one or two) triangles:
//
//   E_e = alpha a_e C_e^2          alpha in N/m (J/m^2); the project's alpha is alpha a_e / |e0|
//   E_t = beta A0 C_t^2            beta in N/m: the project's area term as is (already per area)
//
// Since sum_e a_e = total rest area A exactly on any triangle mesh, a uniform isotropic stretch by
// s (every C_e = s - 1, every C_t = s^2 - 1) stores exactly alpha (s - 1)^2 A + beta (s^2 - 1)^2 A
// whatever the resolution or triangulation (tested). Small strains: 2D area modulus
// K = alpha / 2 + 2 beta (W = K/2 (tr eps)^2 under dilation). Under other strains the edge term is
// anisotropic, as any edge network: per triangle it is alpha/3 (eps_1^2 + eps_2^2 + eps_3^2) over its
// three edge directions; on an equilateral mesh that is isotropic with Lame lambda = alpha/4 + 2 beta,
// mu = alpha/4 (beta = 0: Young's 2D modulus 2 alpha / 3, Poisson 1/3); on make_grid's right
// triangles a uniaxial strain eps along u stores (5/12) alpha eps^2 + beta eps^2 per unit area
// (exact, finite-strain form tested).
//
// Damping d = -k_d dC/dx C_dot with k_d = k_damp a_e (edges), k_damp_area A0 (triangles); k_damp in
// N*s/m is a 2D viscosity: a uniform isotropic strain rate eps_dot dissipates k_damp eps_dot^2 per m^2
// through the edges. The project damps edges only; the area damping is the same construction on
// C_t (pass 0 for the project's model).
#include <array>
#include <vector>

#include "elements/bw_conditions.hpp"
#include "mesh/mesh.hpp"
#include "core/vec.hpp"

namespace cloth {

/// One mesh edge (the implicit cloth project's E_e term).
struct EdgeLengthElement {
  std::array<int, 2> v{};   ///< end vertices
  double rest_length = 0;   ///< |e0| in the rest positions, m
  double area = 0;          ///< a_e: a third of each adjacent triangle's rest area, m^2
};

/// One triangle (the implicit cloth project's E_t term).
struct TriangleAreaElement {
  std::array<int, 3> v{};   ///< the mesh triangle's vertices, in its order
  double rest_area = 0;     ///< A0 in the rest positions, m^2
};

struct EdgeAreaElements {
  std::vector<EdgeLengthElement> edges;          ///< one per undirected mesh edge
  std::vector<TriangleAreaElement> triangles;    ///< one per mesh triangle
};

/// Elements of a triangle mesh from its rest positions. Throws InputError (one line) on a
/// non-finite rest position or a triangle whose rest area is below 1e-10 of its longest edge
/// squared (which includes zero-length edges).
EdgeAreaElements build_edge_area_elements(const RestMesh& mesh);

/// C_e = (|x0 - x1| - |e0|) / |e0| with exact derivatives (zero where the edge has zero length and
/// so no direction: the minimum-norm subgradient).
Condition<6, 1> edge_strain_condition(const EdgeLengthElement& e, const std::vector<Vec3>& x);
/// C_t = (A - A0) / A0 with exact derivatives (zero where the triangle is collinear: A is a cone
/// point there, not differentiable).
Condition<9, 1> area_strain_condition(const TriangleAreaElement& t, const std::vector<Vec3>& x);

/// E = alpha a_e C_e^2 (alpha in N/m) and damping with k_damp a_e (k_damp in N*s/m).
ElementEval<6> eval_edge_length(const EdgeLengthElement& e, const std::vector<Vec3>& x,
                                const std::vector<Vec3>& v, double alpha, double k_damp);
/// E = beta A0 C_t^2 (beta in N/m) and damping with k_damp_area A0 (k_damp_area in N*s/m).
ElementEval<9> eval_triangle_area(const TriangleAreaElement& t, const std::vector<Vec3>& x,
                                  const std::vector<Vec3>& v, double beta, double k_damp_area);

}  // namespace cloth
