#pragma once
// Breen-House-Wozny particle energies (Breen et al., Textile Research Journal 64(11), 1994), as
// described in Karthikeyan & Ranganathan's tutorial (1998), sections "Repelling and
// Stretching", "Bending and Trellising" and "Cloth specific tuning of the model". Particles sit at
// the thread crossings of a woven grid; the energies are functions of simple geometric relations
// between grid neighbours:
//
//   stretch + repel  4-connected neighbours        a --- b                       (N = 6)
//   bend             three collinear points        a --- p --- b   angle theta   (N = 9)
//                    along a warp or weft thread                   at p, pi at rest
//   trellis          a warp and a weft segment     w              angle phi at c, pi/2 at rest;
//                    at a point (one per corner    |              four per interior point, one
//                    of each grid cell)            c --- u        per quadrant ("4 angles")
//
// Every kernel returns the elastic energy (J), force = -grad E plus an optional damping along the
// element's condition (N), dfdx (exact, N/m) and dfdv (N s/m), in cloth::ElementEval<N> over the
// element's vertices in the order of its `v` member. Units and the SI scaling of the tutorial's
// formulas are in docs/models.md ("Breen-House-Wozny energies").
#include <array>
#include <string>
#include <vector>

#include "elements/bw_conditions.hpp"
#include "mesh/mesh.hpp"
#include "core/vec.hpp"

namespace cloth {

// ---- Energy curves (Karthikeyan & Ranganathan 1998) ---------------------------------------------

/// A scalar function with its first two derivatives at one point.
struct Curve1D {
  double f = 0, df = 0, d2f = 0;
};

/// The tutorial's stretching function S(r) = C ((r - w) / w)^5 for r > w, 0 otherwise, divided by C
/// and written in s = r / w: (s - 1)^5 for s > 1. Dimensionless.
Curve1D stretch_well(double s);
/// The tutorial's repelling function R(r) = C (w - r)^5 / r for r <= w, 0 otherwise, divided by
/// C w^4 so that it is dimensionless as S: (1 - s)^5 / s for s <= 1 (compact support: 0 beyond w).
/// Both wells vanish at s = 1 with their first four derivatives: the sum is C^4 at the join.
Curve1D repel_well(double s);
/// The small-strain term added to the tutorial's wells: 1/2 (s - 1)^2 for s >= 1, 0 in compression
/// (threads buckle; the repel well resists there). S alone has zero stiffness at rest and would
/// leave C no modulus; with this term C is the membrane's Young's modulus (a strip pulled by F
/// lengthens by F / (C w) at small strain, `MembraneTension.StrainIsForceOverStretchTimesWidth`)
/// and S stiffens the thread at large strain (5 C eps^4 against C eps: 4% more tension at
/// eps = 0.2).
Curve1D linear_stretch(double s);

/// Kawabata bending curve M(K) = b1 K + b3 K^3 (moment per unit width, N, against curvature K,
/// 1/m). Odd in K because the tutorial ignores the hysteresis and assumes "the same path is
/// followed while increasing and decreasing and in both directions"; b1 is the KES bending
/// rigidity B.
struct BendingCurve {
  double b1 = 0;  ///< N m   (KES B; 1 gf cm^2/cm = 9.80665e-5 N m)
  double b3 = 0;  ///< N m^3 (non-linear stiffening, 0 in the presets)
  /// Below this angle the circle-fit curvature is replaced by a / theta + b (tutorial: 45 degrees).
  double join_angle = 0.7853981633974483;  ///< rad
};

/// Kawabata shear curve F(A) = g1 A + g3 A^3 (shear force per unit width, N/m, against the shear
/// angle A, rad) up to the end of the measured range, then a / (lock - |A|) + b fitted to its value
/// and slope there (tutorial: "fit the curve a/(60 - A) + b to the slope and position of the
/// endpoint of our Kawabata curve at around 10 degrees"). Odd in A, like the bending curve.
struct ShearCurve {
  double g1 = 0;                             ///< N/m per rad (KES G; 1 gf/cm/deg = 56.19 N/m/rad)
  double g3 = 0;                             ///< N/m per rad^3 (0 in the presets)
  double fit_end = 0.17453292519943295;      ///< end of the Kawabata range, rad (tutorial: ~10 deg)
  double lock_angle = 1.0471975511965976;    ///< shear angle where F -> inf, rad (tutorial: 60 deg)
};

/// A fabric: the stretch/repel scale C and the per-thread bending and the shear curves.
struct BreenCurves {
  std::string name;
  double well_scale = 0;  ///< C of S, R and the linear term: the membrane's Young's modulus, N/m
  BendingCurve warp;      ///< bending of threads along u (grid index i); the tutorial's warp
  BendingCurve weft;      ///< bending of threads along v (grid index j)
  ShearCurve shear;       ///< trellising (isotropic: one curve for both senses)
};

/// Thread curvature from the bend angle theta at p of segments of rest length w (tutorial: fit a
/// circle through p and its two neighbours): K = (2 / w) cos(theta / 2) for theta >= join_angle,
/// and a / theta + b below it, with a and b matching K and dK/dtheta at the join (C^1 there;
/// d2K/dtheta2 jumps). Derivatives are with respect to theta. K -> infinity as theta -> 0.
Curve1D breen_curvature(double theta, double w, double join_angle);

/// Moment M(K) of the bending curve with dM/dK and d2M/dK2.
Curve1D bending_moment(const BendingCurve& c, double K);

/// Shear force F(A) of the shear curve with dF/dA and d2F/dA2 (C^1 at +-fit_end). Requires
/// |A| < lock_angle.
Curve1D shear_force(const ShearCurve& c, double A);

/// Trellising energy per unit area I(A) = integral_0^|A| F(a) cos(a) da (tutorial: dW = F dS with
/// dS = l dA and the component F cos A along the arc), J/m^2, with I' = F cos A and I''. The
/// rational branch integrates in closed form through the sine and cosine integrals (series).
/// Requires |A| < lock_angle.
Curve1D trellis_energy_density(const ShearCurve& c, double A);

/// Presets "cotton", "wool", "polyester-cotton" (docs/models.md gives the values and their
/// sources). Throws InputError naming the valid names for any other name.
BreenCurves breen_preset(const std::string& name);
/// The preset names, in a fixed order.
const std::vector<std::string>& breen_preset_names();

// ---- Elements on grid meshes --------------------------------------------------------------------

/// A pair of particles: 4-connected neighbours for stretch + repel, or any pair closer than the
/// cut-off for repel alone (find_repel_pairs).
struct BreenLink {
  std::array<int, 2> v{};
  double rest = 0;  ///< nominal distance w (rest (u, v) length of the link), m
  double area = 0;  ///< rest area the energy is spread over: w_u w_v, half along the sheet's edge, m^2
};

/// Three consecutive particles v[0] - v[1] - v[2] along one thread.
struct BreenBend {
  std::array<int, 3> v{};
  int thread = 0;      ///< 0: along u (warp curve), 1: along v (weft curve)
  double spacing = 0;  ///< w along the thread, m
  double area = 0;     ///< w_u w_v, half on a thread along the sheet's edge, m^2
};

/// One corner of a grid cell: v[1] is the corner, v[0] its neighbour along u (warp), v[2] along v
/// (weft); the angle at v[1] is pi/2 at rest.
struct BreenTrellis {
  std::array<int, 3> v{};
  double area = 0;  ///< w_u w_v / 4: each cell's four corners share its area, m^2
};

/// All elements of a grid mesh (RestMesh::grid_nx, grid_ny; vertex (i, j) at j * nx + i), from the
/// rest (u, v). Throws InputError (one line) for a non-grid mesh or degenerate spacing.
struct BreenElements {
  std::vector<BreenLink> links;       ///< (nx - 1) ny + nx (ny - 1)
  std::vector<BreenBend> bends;       ///< (nx - 2) ny + nx (ny - 2)
  std::vector<BreenTrellis> trellis;  ///< 4 (nx - 1)(ny - 1)
  double spacing_u = 0, spacing_v = 0;  ///< mean rest spacings w_u, w_v, m
};
BreenElements build_breen_elements(const RestMesh& mesh);

/// Repel-only pairs (tutorial: U_repel sums R over all points, and R vanishes beyond w): every pair
/// of positions x closer than `cutoff` that is not one of `links` (those already carry R), found
/// with a uniform hash grid of cell size cutoff. Rebuild it whenever x moves. Each pair gets
/// rest = cutoff and the given area.
std::vector<BreenLink> find_repel_pairs(const std::vector<Vec3>& x, const std::vector<BreenLink>& links,
                                        double cutoff, double area);

// ---- Kernels ------------------------------------------------------------------------------------

/// E = C a [S + R + linear_stretch](|x_a - x_b| / w) (the tutorial's energy well with the
/// small-strain term). Damping -k_d (a / w^2) (r_dot)
/// along the link, k_damp in N s/m (a 2D viscosity: a strain rate eps_dot dissipates
/// k_damp eps_dot^2 per m^2).
ElementEval<6> eval_breen_stretch(const BreenLink& e, const std::vector<Vec3>& x,
                                  const std::vector<Vec3>& v, double well_scale, double k_damp);
/// E = C a R(|x_a - x_b| / w) only (pairs from find_repel_pairs), damping as eval_breen_stretch.
ElementEval<6> eval_breen_repel(const BreenLink& e, const std::vector<Vec3>& x,
                                const std::vector<Vec3>& v, double well_scale, double k_damp);

/// E = 1/2 M(K) K a (tutorial: "B = M K w^2 / 2"), K = breen_curvature(theta, spacing). v is taken
/// for the common kernel signature but not used: there is no bend damping, because the unsigned
/// angle theta has no gradient at the straight rest state and damping the rate of cos(theta)
/// vanishes there (docs/models.md). At theta = 0 exactly (segments on top of each other) E = +inf
/// and the force is left at zero.
ElementEval<9> eval_breen_bend(const BreenBend& e, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                               const BendingCurve& curve);

/// E = a I(A) with A = pi/2 - phi the trellis angle (trellis_energy_density). Damping
/// -k_d a (A_dot) along the angle, k_damp in N s/m (J s/m^2). At |A| >= lock_angle E = +inf and
/// the force is left at zero (the curve's force is infinite there).
ElementEval<9> eval_breen_trellis(const BreenTrellis& e, const std::vector<Vec3>& x,
                                  const std::vector<Vec3>& v, const ShearCurve& curve, double k_damp);

}  // namespace cloth
