// Breen-House-Wozny element builders and kernels (Karthikeyan & Ranganathan 1998, "Repelling and
// Stretching", "Bending and Trellising"). Each energy is a scalar function E(C) of one scalar
// condition C(x) (the link length, the cosine of the bend angle, the trellis angle), so every
// kernel is the chain rule
//   f = -E'(C) dC/dx,   df/dx = -E''(C) dC/dx dC/dx^T - E'(C) d2C/dx2
// with exact derivatives of C, and the damping of Baraff & Witkin 1998, eq. 11 along the same C.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "elements/breen_energy.hpp"
#include "geometry/element_geometry.hpp"
#include "core/error.hpp"

namespace cloth {

namespace {

// Energy E(C) of a scalar condition, damping d = -k_d dC/dx C_dot; dfdx keeps the symmetric
// damping term -k_d C_dot d2C/dx2 and drops -k_d dC/dx (dC_dot/dx)^T, as evaluate_condition does
// (Baraff & Witkin 1998, sec. 4.5). With E = k/2 C^2 this is evaluate_condition<N, 1> exactly.
template <int N>
ElementEval<N> evaluate_scalar(const Condition<N, 1>& c, const Curve1D& energy, double k_d,
                               const Eigen::Matrix<double, N, 1>& vel) {
  ElementEval<N> out;
  const double c_dot = c.grad.col(0).dot(vel);
  const double pull = energy.df + k_d * c_dot;
  out.energy = energy.f;
  out.force = -pull * c.grad.col(0);
  out.dfdx = -energy.d2f * c.grad * c.grad.transpose() - pull * c.hess[0];
  out.dfdv = -k_d * c.grad * c.grad.transpose();
  return out;
}

template <int N>
ElementEval<N> infinite_energy() {
  ElementEval<N> out;
  out.energy = std::numeric_limits<double>::infinity();
  return out;
}

// C = |x_a - x_b| over (a, b): dC/dx = (d, -d), d2C/dx2 = [P -P; -P P] / r, P = I - d d^T.
Condition<6, 1> link_length(const Vec3& xa, const Vec3& xb) {
  const Vec3 delta = xa - xb;
  const double r = delta.norm();
  const Vec3 d = delta / r;
  const Eigen::Matrix3d p = (Eigen::Matrix3d::Identity() - d * d.transpose()) / r;
  Condition<6, 1> c;
  c.value[0] = r;
  c.grad << d, -d;
  c.hess[0] << p, -p, -p, p;
  return c;
}

// The angle at p between the segments to a and b:
//
//        a                  u = x_a - x_p, v = x_b - x_p,  C = cos(angle) = u^.v^
//         \   angle         (a smooth function wherever |u|, |v| > 0, also at 0 and pi where the
//          p ------ b       angle itself has a cone singularity), and sin(angle) = |u^ x v^| >= 0
//                           for atan2.
// dC/du = (v^ - C u^) / |u|, and differentiating again:
//   d2C/du2  = -[u^ (v^ - C u^)^T + (v^ - C u^) u^^T + C (I - u^ u^^T)] / |u|^2,
//   d2C/dudv = [I - u^ u^^T - v^ v^^T + C u^ v^^T] / (|u| |v|);
// then x_a moves u, x_b moves v and x_p moves both by minus its displacement.
struct SegmentAngle {
  Condition<9, 1> cos;
  double sin = 0;
  double one_plus_cos = 0;  ///< |u^ + v^|^2 / 2: no cancellation near the straight state
};

SegmentAngle segment_angle(const Vec3& xa, const Vec3& xp, const Vec3& xb) {
  const Vec3 u = xa - xp, v = xb - xp;
  const double lu = u.norm(), lv = v.norm();
  const Vec3 uh = u / lu, vh = v / lv;
  const double c = uh.dot(vh);
  const Vec3 gu = (vh - c * uh) / lu, gv = (uh - c * vh) / lv;
  const Eigen::Matrix3d id = Eigen::Matrix3d::Identity();
  const Eigen::Matrix3d huu =
      -(uh * (vh - c * uh).transpose() + (vh - c * uh) * uh.transpose() + c * (id - uh * uh.transpose())) / (lu * lu);
  const Eigen::Matrix3d hvv =
      -(vh * (uh - c * vh).transpose() + (uh - c * vh) * vh.transpose() + c * (id - vh * vh.transpose())) / (lv * lv);
  const Eigen::Matrix3d huv = (id - uh * uh.transpose() - vh * vh.transpose() + c * uh * vh.transpose()) / (lu * lv);

  SegmentAngle out;
  out.sin = uh.cross(vh).norm();
  out.one_plus_cos = 0.5 * (uh + vh).squaredNorm();
  out.cos.value[0] = c;
  out.cos.grad << gu, -gu - gv, gv;
  const double du[3] = {1, -1, 0}, dv[3] = {0, -1, 1};  // d u / d x_(a, p, b), d v / d x_(a, p, b)
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      out.cos.hess[0].block<3, 3>(3 * i, 3 * j) = du[i] * du[j] * huu + du[i] * dv[j] * huv +
                                                  dv[i] * du[j] * huv.transpose() + dv[i] * dv[j] * hvv;
    }
  }
  return out;
}

// Stretch + repel (or repel alone) on one link: E = C a phi(r / w).
ElementEval<6> eval_link(const BreenLink& e, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                         double well_scale, double k_damp, bool with_stretch) {
  assert(v.size() == x.size());
  const Vec3& xa = x[e.v[0]];
  const Vec3& xb = x[e.v[1]];
  if (xa == xb) return infinite_energy<6>();  // R ~ 1 / r
  const Condition<6, 1> c = link_length(xa, xb);
  const double s = c.value[0] / e.rest;
  Curve1D phi = repel_well(s);
  if (with_stretch) {
    const Curve1D st = stretch_well(s), linear = linear_stretch(s);
    phi = {phi.f + st.f + linear.f, phi.df + st.df + linear.df, phi.d2f + st.d2f + linear.d2f};
  }
  const double k = well_scale * e.area;  // phi is in s = r / w: d/dr = (1 / w) d/ds
  const Curve1D energy{k * phi.f, k * phi.df / e.rest, k * phi.d2f / (e.rest * e.rest)};
  return evaluate_scalar(c, energy, k_damp * e.area / (e.rest * e.rest), gather<2>(e.v, v));
}

}  // namespace

ElementEval<6> eval_breen_stretch(const BreenLink& e, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                                  double well_scale, double k_damp) {
  return eval_link(e, x, v, well_scale, k_damp, true);
}

ElementEval<6> eval_breen_repel(const BreenLink& e, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                                double well_scale, double k_damp) {
  return eval_link(e, x, v, well_scale, k_damp, false);
}

// Bend: E = a g(K), g = 1/2 M(K) K = 1/2 (b1 K^2 + b3 K^4). Above the join the circle-fit curvature
// is K^2 = (2 cos(theta/2) / w)^2 = 2 (1 + cos theta) / w^2, a polynomial in C = cos theta, so E is
// smooth through the straight state (theta = pi, where theta itself is not differentiable). Below
// the join K = a / theta + b needs theta = atan2(sin, cos) (accurate near 0) with
// dtheta/dC = -1 / sin theta, d2theta/dC2 = -cos theta / sin^3 theta.
ElementEval<9> eval_breen_bend(const BreenBend& e, const std::vector<Vec3>& x, const std::vector<Vec3>& /*v*/,
                               const BendingCurve& curve) {
  const SegmentAngle sa = segment_angle(x[e.v[0]], x[e.v[1]], x[e.v[2]]);
  const double c = sa.cos.value[0], s = sa.sin;
  const double theta = std::atan2(s, c);
  const double w2 = e.spacing * e.spacing;
  Curve1D energy;
  if (theta >= curve.join_angle) {
    const double q = 2 * sa.one_plus_cos / w2, dq = 2 / w2;  // K^2 = (|u^ + v^| / w)^2 and dK^2/dC
    energy = {0.5 * e.area * (curve.b1 * q + curve.b3 * q * q), 0.5 * e.area * (curve.b1 + 2 * curve.b3 * q) * dq,
              e.area * curve.b3 * dq * dq};
  } else {
    if (s == 0) return infinite_energy<9>();  // folded flat onto itself: K = infinity
    const Curve1D k = breen_curvature(theta, e.spacing, curve.join_angle);
    const Curve1D m = bending_moment(curve, k.f);
    const double g_k = 0.5 * (m.df * k.f + m.f), g_kk = 0.5 * (m.d2f * k.f + 2 * m.df);
    const double e_t = e.area * g_k * k.df, e_tt = e.area * (g_kk * k.df * k.df + g_k * k.d2f);
    const double t_c = -1 / s, t_cc = -c / (s * s * s);
    energy = {0.5 * e.area * m.f * k.f, e_t * t_c, e_tt * t_c * t_c + e_t * t_cc};
  }
  return evaluate_scalar(sa.cos, energy, 0.0, Eigen::Matrix<double, 9, 1>(Eigen::Matrix<double, 9, 1>::Zero()));
}

// Trellis: the tutorial's trellis angle is the deviation of the warp/weft angle phi from its rest
// pi/2, A = pi/2 - phi = asin(cos phi) = atan2(cos phi, sin phi), smooth for |A| < pi/2 with
// dA/dC = 1 / cos A and d2A/dC2 = sin A / cos^3 A (C = cos phi, sin phi = cos A >= 1/2 below the
// 60-degree lock). E = a I(A).
ElementEval<9> eval_breen_trellis(const BreenTrellis& e, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                                  const ShearCurve& curve, double k_damp) {
  assert(v.size() == x.size());
  const SegmentAngle sa = segment_angle(x[e.v[0]], x[e.v[1]], x[e.v[2]]);
  const double c = sa.cos.value[0], s = sa.sin;
  const double angle = std::atan2(c, s);
  if (std::abs(angle) >= curve.lock_angle) return infinite_energy<9>();
  Condition<9, 1> cond;
  cond.value[0] = angle;
  cond.grad = sa.cos.grad / s;
  cond.hess[0] = sa.cos.hess[0] / s + (c / (s * s * s)) * sa.cos.grad * sa.cos.grad.transpose();
  const Curve1D density = trellis_energy_density(curve, angle);
  const Curve1D energy{e.area * density.f, e.area * density.df, e.area * density.d2f};
  return evaluate_scalar(cond, energy, k_damp * e.area, gather<3>(e.v, v));
}

// ---- Builders -----------------------------------------------------------------------------------

BreenElements build_breen_elements(const RestMesh& mesh) {
  const int nx = mesh.grid_nx, ny = mesh.grid_ny;
  if (!mesh.is_grid() || nx < 2 || ny < 2 || mesh.vertex_count() != nx * ny ||
      static_cast<int>(mesh.uv.size()) != nx * ny) {
    throw InputError("Breen-House-Wozny energies need a generated grid mesh (at least 2 x 2 vertices)");
  }
  // "Each particle represents a w x w piece of cloth": a thread along the sheet's edge carries
  // the half strip on the sheet's side of it, so links and bends along a boundary thread get half
  // the patch. With full patches a strip n cells wide is (n + 1) / n too stiff in bending
  // (Cantilever.BreenFollowsTheHeavyElasticaOnEveryMesh).
  const auto band = [](int k, int n) { return k == 0 || k == n - 1 ? 0.5 : 1.0; };
  BreenElements out;
  double sum[2] = {0, 0};
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      for (int dir = 0; dir < 2; ++dir) {
        if ((dir == 0 && i + 1 >= nx) || (dir == 1 && j + 1 >= ny)) continue;
        BreenLink l;
        l.v = {mesh.grid_index(i, j), dir == 0 ? mesh.grid_index(i + 1, j) : mesh.grid_index(i, j + 1)};
        l.rest = (mesh.uv[l.v[0]] - mesh.uv[l.v[1]]).norm();
        if (!std::isfinite(l.rest) || !(l.rest > 0)) {
          throw InputError("Breen-House-Wozny grid has zero or non-finite rest spacing between vertices " +
                           std::to_string(l.v[0]) + " and " + std::to_string(l.v[1]));
        }
        l.area = dir == 0 ? band(j, ny) : band(i, nx);
        sum[dir] += l.rest;
        out.links.push_back(l);
      }
    }
  }
  out.spacing_u = sum[0] / ((nx - 1) * ny);
  out.spacing_v = sum[1] / (nx * (ny - 1));
  const double area = out.spacing_u * out.spacing_v;
  for (BreenLink& l : out.links) l.area *= area;  // the band share set above

  // Bends: a - p - b along u (thread 0) and along v (thread 1).
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const int p = mesh.grid_index(i, j);
      if (i > 0 && i + 1 < nx) {
        out.bends.push_back(
            {{mesh.grid_index(i - 1, j), p, mesh.grid_index(i + 1, j)}, 0, out.spacing_u, area * band(j, ny)});
      }
      if (j > 0 && j + 1 < ny) {
        out.bends.push_back(
            {{mesh.grid_index(i, j - 1), p, mesh.grid_index(i, j + 1)}, 1, out.spacing_v, area * band(i, nx)});
      }
    }
  }
  // Trellis: the four corners of every cell, {neighbour along u, corner, neighbour along v}.
  //   (i, j+1) --- (i+1, j+1)
  //      |             |
  //   (i, j) ----- (i+1, j)
  for (int j = 0; j + 1 < ny; ++j) {
    for (int i = 0; i + 1 < nx; ++i) {
      const int c00 = mesh.grid_index(i, j), c10 = mesh.grid_index(i + 1, j);
      const int c01 = mesh.grid_index(i, j + 1), c11 = mesh.grid_index(i + 1, j + 1);
      for (const std::array<int, 3>& v : {std::array<int, 3>{c10, c00, c01}, std::array<int, 3>{c00, c10, c11},
                                          std::array<int, 3>{c11, c01, c00}, std::array<int, 3>{c01, c11, c10}}) {
        out.trellis.push_back({v, area / 4});
      }
    }
  }
  return out;
}

std::vector<BreenLink> find_repel_pairs(const std::vector<Vec3>& x, const std::vector<BreenLink>& links,
                                        double cutoff, double area) {
  assert(cutoff > 0);
  const auto pair_key = [&](int a, int b) {
    return static_cast<std::uint64_t>(std::min(a, b)) * x.size() + static_cast<std::uint64_t>(std::max(a, b));
  };
  std::unordered_set<std::uint64_t> linked;
  for (const BreenLink& l : links) linked.insert(pair_key(l.v[0], l.v[1]));

  // Cells of size cutoff, keyed by their integer coordinates packed 21 bits each.
  const auto cell_of = [&](const Vec3& p) {
    return Eigen::Vector3i(static_cast<int>(std::floor(p.x() / cutoff)), static_cast<int>(std::floor(p.y() / cutoff)),
                           static_cast<int>(std::floor(p.z() / cutoff)));
  };
  const auto cell_key = [](const Eigen::Vector3i& c) {
    const auto bits = [](int k) { return static_cast<std::uint64_t>(k) & 0x1FFFFF; };
    return (bits(c.x()) << 42) | (bits(c.y()) << 21) | bits(c.z());
  };
  std::unordered_map<std::uint64_t, std::vector<int>> cells;
  for (int i = 0; i < static_cast<int>(x.size()); ++i) cells[cell_key(cell_of(x[i]))].push_back(i);

  std::vector<BreenLink> out;
  for (int i = 0; i < static_cast<int>(x.size()); ++i) {
    const Eigen::Vector3i ci = cell_of(x[i]);
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const auto it = cells.find(cell_key(ci + Eigen::Vector3i(dx, dy, dz)));
          if (it == cells.end()) continue;
          for (const int j : it->second) {
            if (j <= i || (x[i] - x[j]).norm() >= cutoff || linked.count(pair_key(i, j))) continue;
            out.push_back({{i, j}, cutoff, area});
          }
        }
      }
    }
  }
  return out;
}

}  // namespace cloth
