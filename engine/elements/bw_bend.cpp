// Baraff-Witkin bend condition (Baraff & Witkin 1998, section 4.3): the signed dihedral angle
// across an interior edge, with its exact gradient and Hessian, and the bend element array.
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <utility>

#include "elements/bw_conditions.hpp"
#include "geometry/element_geometry.hpp"
#include "core/error.hpp"

namespace cloth {

namespace {

// Unnormalised normals N_A = e x a of (x0, x1, x2) and N_B = b x e of (x1, x0, x3), with
// e = x1 - x0, a = x2 - x0, b = x3 - x0 (BendEdge's vertex picture).
struct Hinge {
  Vec3 e, a, b, na, nb;
};

Hinge hinge(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  Hinge h;
  h.e = x1 - x0;
  h.a = x2 - x0;
  h.b = x3 - x0;
  h.na = h.e.cross(h.a);
  h.nb = h.b.cross(h.e);
  return h;
}

// sin(theta) = (n_A x n_B) . e_hat and cos(theta) = n_A . n_B (sec. 4.3), both scaled by
// |N_A| |N_B| > 0, which atan2 ignores: no normalisation, no acos, accurate up to theta = +-pi.
double dihedral(const Hinge& h) {
  return std::atan2(h.na.cross(h.nb).dot(h.e) / h.e.norm(), h.na.dot(h.nb));
}

}  // namespace

std::vector<BendEdge> build_bend_edges(const RestMesh& mesh, double k_u, double k_v) {
  // Undirected edge -> (triangle, position k of the directed edge tri[k] -> tri[k+1]).
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> sides;
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const int p = tri[k], q = tri[(k + 1) % 3];
      sides[{std::min(p, q), std::max(p, q)}].push_back({t, k});
    }
  }
  std::vector<BendEdge> out;
  for (const auto& [edge, tris] : sides) {
    if (tris.size() != 2) continue;  // boundary (1) or non-manifold (> 2): no hinge
    const auto& ta = mesh.triangles[tris[0].first];
    const auto& tb = mesh.triangles[tris[1].first];
    const int k = tris[0].second;
    BendEdge be;
    be.v = {ta[k], ta[(k + 1) % 3], ta[(k + 2) % 3], tb[(tris[1].second + 2) % 3]};
    const Vec2 duv = mesh.uv[be.v[0]] - mesh.uv[be.v[1]];
    const double areas = rest_area(mesh, tris[0].first) + rest_area(mesh, tris[1].first);
    if (!(duv.squaredNorm() > 0) || !(areas > 0)) {
      throw InputError("edge " + std::to_string(edge.first) + "-" + std::to_string(edge.second) +
                       " is degenerate in rest (u, v)");
    }
    // Sec. 4.3: (k_u du^2 + k_v dv^2) / (du^2 + dv^2).
    be.weight = (k_u * duv.x() * duv.x() + k_v * duv.y() * duv.y()) / duv.squaredNorm();
    be.scale = duv.squaredNorm() / areas;
    const auto& p = mesh.positions;
    be.rest_angle = dihedral(hinge(p[be.v[0]], p[be.v[1]], p[be.v[2]], p[be.v[3]]));
    out.push_back(be);
  }
  return out;
}

namespace {

// Gradient (standard hinge result, re-derived here). Moving x2 along n_A by delta turns triangle A
// about e by delta / h_A (h_A = |N_A| / |e| its height), which lowers theta, so
// g_A = dtheta/dx2 = -|e| N_A / |N_A|^2, and likewise g_B = dtheta/dx3 = -|e| N_B / |N_B|^2.
// Invariance under translation (sum of gradients = 0) and rotation (sum of x_i x g_i = 0), with no
// component along e for x0 and x1, then gives, with t_A = a.e / |e|^2 and t_B = b.e / |e|^2:
//   dtheta/dx0 = (t_A - 1) g_A + (t_B - 1) g_B,   dtheta/dx1 = -t_A g_A - t_B g_B.
// So grad = c_A (x) g_A + c_B (x) g_B with per-vertex coefficients c_A = (t_A - 1, -t_A, 1, 0),
// c_B = (t_B - 1, -t_B, 0, 1), and the Hessian is its exact derivative by the product rule:
//   H = sum_X [ c_X (x) dg_X/dx + (1, -1, 0, 0) (x) g_X (dt_X/dx)^T ],
// dg_X/dx from dg = -N e_hat^T de / |N|^2 - |e| / |N|^2 (I - 2 n n^T) dN, dN from N's cross products.

// One wing of the hinge (X = A: opposite vertex x2, offset a; X = B: x3, offset b): |N|^2, g_X,
// t_X and the per-vertex coefficients c_X of the gradient above.
struct Wing {
  double n2, t;
  Vec3 g;
  std::array<double, 4> coef;
};

Wing wing(const Hinge& h, double len, const Vec3& n, const Vec3& off, int opp) {
  Wing w;
  w.n2 = n.squaredNorm();
  w.g = -len * n / w.n2;
  w.t = off.dot(h.e) / (len * len);
  w.coef = {w.t - 1, -w.t, opp == 2 ? 1.0 : 0.0, opp == 3 ? 1.0 : 0.0};
  return w;
}

HingeAngle angle_and_gradient(const Hinge& h, double rest_angle) {
  const double len = h.e.norm();
  HingeAngle out;
  out.value = std::remainder(dihedral(h) - rest_angle, 2 * std::numbers::pi);
  out.grad.setZero();
  for (const Wing& w : {wing(h, len, h.na, h.a, 2), wing(h, len, h.nb, h.b, 3)}) {
    for (int i = 0; i < 4; ++i) out.grad.segment<3>(3 * i) += w.coef[size_t(i)] * w.g;
  }
  return out;
}

// One wing's derivatives with respect to the hinge's four vertices (e = x1 - x0, off = x_opp - x0;
// X = A: dN/de = -[a]x, dN/da = [e]x; X = B: dN/de = [b]x, dN/db = -[e]x): dg_X/dx_k and
// dt_X/dx_k, zero for the vertex off the wing.
struct WingDerivatives {
  Wing w;
  std::array<Eigen::Matrix3d, 4> dg;
  std::array<Vec3, 4> dt;
};

WingDerivatives wing_derivatives(const Hinge& h, double len, const Vec3& n, const Vec3& off, int opp, double sign) {
  WingDerivatives d;
  d.w = wing(h, len, n, off, opp);
  const Vec3 e_hat = h.e / len;
  const Vec3 n_hat = n / std::sqrt(d.w.n2);
  const Eigen::Matrix3d m = -(len / d.w.n2) * (Eigen::Matrix3d::Identity() - 2 * n_hat * n_hat.transpose());
  const Eigen::Matrix3d dg_de = -n * e_hat.transpose() / d.w.n2 - sign * m * cross_matrix(off);
  const Eigen::Matrix3d dg_doff = sign * m * cross_matrix(h.e);
  const Vec3 dt_de = (off - 2 * d.w.t * h.e) / (len * len);
  const Vec3 dt_doff = h.e / (len * len);
  d.dg = {-dg_de - dg_doff, dg_de, Eigen::Matrix3d::Zero(), Eigen::Matrix3d::Zero()};
  d.dg[size_t(opp)] = dg_doff;
  d.dt = {-(dt_de + dt_doff), dt_de, Vec3::Zero(), Vec3::Zero()};
  d.dt[size_t(opp)] = dt_doff;
  return d;
}

// Adds block (i, k) of one wing's share of the Hessian, c_X,i dg_X/dx_k + (1, -1, 0, 0)_i g_X
// dt_X/dx_k^T, to `block`, one term after the other (the full Hessian and bend_hessian_block keep
// the same bits).
void add_wing_hessian_block(const WingDerivatives& d, int i, int k, Eigen::Ref<Eigen::Matrix3d> block) {
  constexpr double kEdgeSign[4] = {1, -1, 0, 0};
  block += d.w.coef[size_t(i)] * d.dg[size_t(k)];
  if (i < 2) block += (kEdgeSign[i] * d.w.g) * d.dt[size_t(k)].transpose();
}

// The angle, its gradient and, with `hessian`, the Hessian above. With `hessian` false only C and
// dC/dx are computed (c.hess stays zero): eval_bend_definite and the shape-operator bend's
// Gauss-Newton stiffness.
Condition<12, 1> hinge_condition(const BendEdge& be, const std::vector<Vec3>& x, bool hessian) {
  const Hinge h = hinge(x[be.v[0]], x[be.v[1]], x[be.v[2]], x[be.v[3]]);
  const HingeAngle angle = angle_and_gradient(h, be.rest_angle);
  Condition<12, 1> c;
  c.value[0] = angle.value;
  c.grad.col(0) = angle.grad;
  c.hess[0].setZero();
  if (!hessian) return c;

  const double len = h.e.norm();
  for (const WingDerivatives& d : {wing_derivatives(h, len, h.na, h.a, 2, +1.0), wing_derivatives(h, len, h.nb, h.b, 3, -1.0)}) {
    for (int i = 0; i < 4; ++i) {
      for (int k = 0; k < 4; ++k) add_wing_hessian_block(d, i, k, c.hess[0].block<3, 3>(3 * i, 3 * k));
    }
  }
  return c;
}

}  // namespace

Condition<12, 1> bend_condition(const BendEdge& be, const std::vector<Vec3>& x, bool hessian) {
  return hinge_condition(be, x, hessian);
}

HingeAngle bend_angle(const BendEdge& be, const std::vector<Vec3>& x) {
  return angle_and_gradient(hinge(x[be.v[0]], x[be.v[1]], x[be.v[2]], x[be.v[3]]), be.rest_angle);
}

Eigen::Matrix3d bend_hessian_block(const BendEdge& be, const std::vector<Vec3>& x, int slot) {
  const Hinge h = hinge(x[be.v[0]], x[be.v[1]], x[be.v[2]], x[be.v[3]]);
  const double len = h.e.norm();
  Eigen::Matrix3d block = Eigen::Matrix3d::Zero();
  add_wing_hessian_block(wing_derivatives(h, len, h.na, h.a, 2, +1.0), slot, slot, block);
  add_wing_hessian_block(wing_derivatives(h, len, h.nb, h.b, 3, -1.0), slot, slot, block);
  return block;
}

// Per-hinge constants B weight |e|^2 / (A1 + A2) (header, SI notes); damping scaled alike.
ElementEval<12> eval_bend(const BendEdge& e, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                          double k_bend, double k_damp) {
  assert(v.size() == x.size());
  const double s = e.weight * e.scale;
  return evaluate_condition(bend_condition(e, x), s * k_bend, s * k_damp, gather<4>(e.v, v));
}

// The exact stiffness -k (dC/dx dC/dx^T + C d2C/dx2) - k_d C_dot d2C/dx2 (eqs. 8 and 12) is
// indefinite on almost every hinge: d2C/dx2 has inertia (4, 4, 4), so any C != 0 leaves at least
// three negative directions, and projecting them away (definite_stiffness) is a 9 x 9 eigensolve
// per hinge, ~5 us, over ten times the rest of the kernel and most of a cylinder-drape frame. The
// Gauss-Newton part -k dC/dx dC/dx^T alone is negative semidefinite (rank one) by construction,
// and the dropped term is (C + (k_d / k) C_dot) d2C/dx2 against dC/dx dC/dx^T, both ~1 / |e|^2 on
// a well-shaped hinge: small where the effective angle is small. Only A of eq. 16 changes, not f or
// dfdv, so equilibria are the same (tested); B&W drop a term of eq. 12 in the same way "to restore
// symmetry" (sec. 4.5: "clearly not physically justifiable, but we have not observed any ill
// effects"), and they differentiate theta treating |n_1|, |n_2|, |e| as constant (sec. 4.3). Folding
// fast or far, the dropped term is what damps a hinge in the implicit step: with Gauss-Newton
// everywhere the cylinder drape's impact kept ~38% more energy 20 frames in (the mean of an
// ensemble: the folds at impact are chaotic); projecting the hinges beyond kBendGaussNewtonAngle
// (14% of them over that run) restores it. The split is tested by
// BWBend.DefiniteStiffnessIsGaussNewtonAtSmallAnglesElseTheProjection.
ElementEval<12> eval_bend_definite(const BendEdge& e, const std::vector<Vec3>& x,
                                   const std::vector<Vec3>& v, double k_bend, double k_damp) {
  assert(v.size() == x.size());
  const double s = e.weight * e.scale;
  const Eigen::Matrix<double, 12, 1> vel = gather<4>(e.v, v);
  const Condition<12, 1> gauss_newton = hinge_condition(e, x, /*hessian=*/false);
  const double c_dot = gauss_newton.grad.col(0).dot(vel);
  if (std::abs(k_bend * gauss_newton.value[0] + k_damp * c_dot) <= kBendGaussNewtonAngle * k_bend) {
    return evaluate_condition(gauss_newton, s * k_bend, s * k_damp, vel);
  }
  ElementEval<12> out = evaluate_condition(bend_condition(e, x), s * k_bend, s * k_damp, vel);
  out.dfdx = definite_stiffness<12>(out.dfdx);
  return out;
}

}  // namespace cloth
