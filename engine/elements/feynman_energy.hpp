#pragma once
// Feynman's cloth energy (C. Feynman, "Modeling the Appearance of Cloth", MIT 1986, section 5) on a
// square grid of spacing h (thesis 2.2), as two element families:
//
//  Strain (5.4, 5.5): "buckling springs" from each point to its 8 neighbours (N = 6)
//
//      D   C   B      P's springs: PA, PC, PE, PG axial (rest l_i = h), PB, PD, PF, PH diagonal
//        \ | /        (l_i = sqrt(2) h, "weaker by the factor r"), each spring once per grid:
//      E - P - A        E(l) = f k_s min((l - l_i)^2, (b / l_i)(l_i - l))   for l < l_i
//        / | \          E(l) = f k_s (l - l_i)^2                            for l >= l_i
//      F   G   H      f = 1 axial, r diagonal. 5.5 prints the linear term as "(b/l_i)(1 - l)"; its
//                     code (buckling-energy) computes b (1 - l / l_i) = (b / l_i)(l_i - l), which is
//                     what is implemented, and applies the min only in compression (as printed,
//                     the linear term would be negative, so the min would win, in tension).
//
//  Bending (5.3): angular springs on the four lines through P (N = 9, v = {i-1, i, i+1} along a
//  line, v[1] = P):
//      E_b(P) = c_1/3 [ (180 - APE)^2 + 1/2 (180 - BPF)^2 + (180 - CPG)^2 + 1/2 (180 - DPH)^2 ]
//  with each angle in radians: one element per line and centre point, E = c_1/3 w theta^2 with
//  theta = pi - angle the line's turning angle at P, w = 1 (axial lines), 1/2 (diagonal lines).
//
// Why these stencils: they are the thesis's own (figs. 11, 14), and they make the energy a
// function of distances and angles between grid neighbours only (thesis 2.4).
//
// SI units and scaling (derivations in docs/models.md, "Feynman's energy"):
//  - k_s in N/m: a spring strained by eps stores k_s (eps h)^2 and a point stands for h^2 of cloth,
//    so the energy per area is h-independent. Section 5.4's mapping, for a uniform small strain,
//    done exactly (feynman_moduli): along the threads Y = 2 k_s (1 + 2r) / (1 + r), nu = r / (1 + r);
//    along the bias Y = k_s (8r + 16 r^2) / (1 + 4r), nu = 1 / (1 + 4r) -- the thesis's bias
//    formulas (its "1 - 4r" read as 1 + 4r). Its printed axial formulas, E = k_s (1 + 6r + 5r^2) /
//    (1 + 3r), sigma = 2r / (1 - 3r), do not follow from its own spring energy (they agree only at
//    r = 1; docs/models.md tabulates both against the measured lattice).
//    r = 1/2 is exactly isotropic (Y = 8 k_s / 3, nu = 1/3), unlike the thesis's claim for 0.375.
//  - b in m^2 (as printed: b / l_i (l_i - l) must be an energy / k_s): the linear branch stores
//    f k_s b eps_c at compressive strain eps_c = 1 - l / l_i and takes over at eps_c = b / l_i^2,
//    so its weight relative to stretching depends on h -- by design (5.5, fig. 17: "for large h the
//    material has virtually no compressive strength; for small h it is incapable of buckling").
//    Not C^2 there: E is continuous but dE/dl jumps from 2 f k_s b / l_i to f k_s b / l_i (the
//    force halves); each side returns its own exact Hessian, the quadratic one at the tie.
//  - c_1 = B, the bending rigidity in N*m (energy 1/2 B kappa^2 per area, as in B&W and springs):
//    on a cylinder of curvature kappa a line at angle phi to the curved direction turns by
//    L kappa cos^2 phi over its half-length L (h axial, sqrt(2) h diagonal), so P stores
//    B/3 h^2 kappa^2 (cos^4 phi + sin^4 phi + 2 * 1/2 (cos^4 + sin^4)(phi + 45 deg)) = 1/2 B kappa^2 h^2
//    for every phi, i.e. 1/2 B kappa^2 per area (tested). The thesis's own check of 5.3 puts the
//    diagonal neighbours at h instead of sqrt(2) h.
//  - Damping (the thesis is static; this is for the engine's dynamics): springs damp along their
//    axis with f k_damp (N*s/m: a uniform strain rate eps_dot along a thread dissipates
//    k_damp eps_dot^2 per m^2 through the axial springs); bending lines use B&W 4.5 on the vector
//    condition C = b_hat - a_hat (|C| = 2 sin(theta/2)), smooth through the straight state where
//    theta itself has no gradient, with k_d = 2/3 w k_damp_bend (N*m*s: a uniform curvature rate
//    dissipates k_damp_bend kappa_dot^2 per m^2, as E_b gives 1/2 B kappa^2). The price of a vector
//    C: it turns with the element, so a bent line spinning rigidly at omega dissipates
//    ~k_d omega^2 |C|^2 (nothing for straight lines); theta is the only rotation-invariant bending
//    rate of three points and has no gradient at the straight state.
#include <array>
#include <vector>

#include "elements/bw_conditions.hpp"
#include "mesh/mesh.hpp"
#include "core/vec.hpp"

namespace cloth {

/// A buckling spring between grid neighbours (5.4-5.5).
struct FeynmanSpring {
  std::array<int, 2> v{};
  double rest = 0;        ///< l_i: h (axial) or sqrt(2) h (diagonal), from the rest (u, v), m
  bool diagonal = false;  ///< diagonal springs are scaled by r
  /// 1/2 for an axial spring along the sheet's edge, which borders one cell instead of two (so that
  /// every cell stores the lattice's energy density; the thesis gives every spring the full k_s).
  double share = 1;
};

/// The turning angle at v[1] of the grid line v[0] - v[1] - v[2] (5.3).
struct FeynmanBend {
  std::array<int, 3> v{};
  /// 1 for lines along u or v, 1/2 for diagonal lines (5.3); 3/4 for a line along the sheet's edge,
  /// whose point stands for half a patch (see build_feynman_elements).
  double weight = 1;
};

struct FeynmanElements {
  std::vector<FeynmanSpring> springs;  ///< (nx-1) ny + nx (ny-1) axial, 2 (nx-1)(ny-1) diagonal
  std::vector<FeynmanBend> bends;      ///< (nx-2) ny + nx (ny-2) axial, 2 (nx-2)(ny-2) diagonal
  double spacing = 0;                  ///< h, m
};

/// Elements of a generated grid (RestMesh::grid_nx x grid_ny, vertex (i, j) at j * nx + i) from
/// its rest (u, v): the thesis's flat square grid, straight lines at rest. Throws InputError (one
/// line) for a mesh that is not a grid, or whose (u, v) are not square cells of one positive
/// spacing (to 1e-6 relative).
FeynmanElements build_feynman_elements(const RestMesh& mesh);

/// Young's 2D moduli (N/m) and Poisson ratios of the spring lattice under a small uniform strain,
/// along the threads (u or v) and along the bias (45 degrees); see the header notes. Linear in
/// k_s, so k_s = Y / feynman_moduli(1, r).axial_young gives a wanted thread modulus Y.
struct FeynmanModuli {
  double axial_young = 0, axial_poisson = 0, bias_young = 0, bias_poisson = 0;
};
FeynmanModuli feynman_moduli(double k_s, double r);

/// Buckling spring: k_s in N/m, r dimensionless (diagonal / axial), b in m^2 (>= 0), k_damp in
/// N*s/m. The quadratic branch is the Hooke kernel of springs.hpp (spring constant 2 f k_s, its
/// exact Jacobian); like it, dfdx leaves out the damping force's dependence on x (B&W 4.5).
ElementEval<6> eval_feynman_spring(const FeynmanSpring& s, const std::vector<Vec3>& x,
                                   const std::vector<Vec3>& v, double k_s, double r, double b,
                                   double k_damp);

/// Energy alone of eval_feynman_spring (the static drape's line search needs only energies, at
/// about a tenth of the cost; FeynmanSpring.BucklingEnergyOfTheThesis holds them equal).
double feynman_spring_energy(const FeynmanSpring& s, const std::vector<Vec3>& x, double k_s, double r, double b);

/// Angular bending: E = bending/3 * weight * theta^2 (bending = c_1 = B in N*m), damping
/// k_damp_bend in N*m*s. E is smooth through theta = 0 (theta^2 = acos(a_hat . b_hat)^2 is analytic
/// there); at the fold-back theta = pi, where it has no gradient, the elastic force and Jacobian are
/// left at zero, and a zero-length segment (no direction) gives an all-zero result.
ElementEval<9> eval_feynman_bend(const FeynmanBend& e, const std::vector<Vec3>& x,
                                 const std::vector<Vec3>& v, double bending, double k_damp_bend);

/// Energy alone of eval_feynman_bend (FeynmanBend.EnergyOfTheThesis holds them equal).
double feynman_bend_energy(const FeynmanBend& e, const std::vector<Vec3>& x, double bending);

}  // namespace cloth
