// Feynman's energy (Feynman 1986, section 5): buckling springs (5.4-5.5) and angular bending (5.3)
// on a square grid, with exact derivatives.
#include <cassert>
#include <cmath>
#include <numbers>
#include <string>

#include "geometry/element_geometry.hpp"
#include "core/error.hpp"
#include "elements/feynman_energy.hpp"
#include "elements/springs.hpp"

namespace cloth {

namespace {

// The Hooke kernel of springs.hpp as a two-vertex element (exact elastic Jacobian, no clamping).
ElementEval<6> hooke_element(const Spring& s, const std::vector<Vec3>& x, const std::vector<Vec3>& v) {
  const SpringState spring = evaluate_spring(s, x[s.i], x[s.j], v[s.i], v[s.j], false);
  ElementEval<6> out;
  out.energy = spring_energy(s, x[s.i], x[s.j]);
  out.force << spring.force_on_i, -spring.force_on_i;
  out.dfdx = two_point_matrix(spring.dfdx());
  out.dfdv = two_point_matrix(spring.dfdv());
  return out;
}

// Angle-energy helpers: theta^2 = g(c) = acos(c)^2 of c = cos(theta), with
//   g'(c) = -2 theta / sin(theta),   g''(c) = 2 (sin(theta) - theta cos(theta)) / sin^3(theta),
// both analytic at theta = 0 (limits -2 and 2/3): below 1e-2 rad their series
// theta / sin = 1 + t/6 + 7 t^2/360 and (sin - theta cos) / sin^3 = 1/3 + 2t/15 + 2 t^2/63 (t = theta^2)
// replace the cancelling quotients (next terms ~1e-14 relative).
struct AngleSquared {
  double g1, g2;
};

AngleSquared angle_squared_derivatives(double theta, double sin_t, double cos_t) {
  if (theta < 1e-2) {
    const double t = theta * theta;
    return {-2 * (1 + t / 6 + 7 * t * t / 360), 2 * (1.0 / 3 + 2 * t / 15 + 2 * t * t / 63)};
  }
  return {-2 * theta / sin_t, 2 * (sin_t - theta * cos_t) / (sin_t * sin_t * sin_t)};
}

// f of E = f k_s (...): r on a diagonal, halved along the sheet's edge.
double spring_scale(const FeynmanSpring& s, double r) { return (s.diagonal ? r : 1.0) * s.share; }

}  // namespace

FeynmanElements build_feynman_elements(const RestMesh& mesh) {
  const int nx = mesh.grid_nx, ny = mesh.grid_ny;
  if (!mesh.is_grid() || ny < 2 || nx < 2 || static_cast<long>(nx) * ny != mesh.vertex_count() ||
      mesh.uv.size() != mesh.positions.size()) {
    throw InputError("Feynman's model needs a generated grid (thesis 2.2: a square grid of points), "
                     "not a general triangle mesh");
  }
  FeynmanElements out;
  out.spacing = (mesh.uv[mesh.grid_index(1, 0)] - mesh.uv[mesh.grid_index(0, 0)]).norm();
  const double h = out.spacing;
  if (!std::isfinite(h) || !(h > 0)) throw InputError("Feynman's model needs a positive grid spacing");

  const auto add_spring = [&](int i0, int j0, int i1, int j1) {
    if (i1 >= nx || j1 < 0 || j1 >= ny) return;
    const bool diagonal = i0 != i1 && j0 != j1;
    const int a = mesh.grid_index(i0, j0), b = mesh.grid_index(i1, j1);
    const double rest = (mesh.uv[a] - mesh.uv[b]).norm();
    const double nominal = diagonal ? std::numbers::sqrt2 * h : h;
    if (!(std::abs(rest - nominal) <= 1e-6 * h)) {  // also rejects NaN
      throw InputError("Feynman's model needs square grid cells of one spacing (thesis 2.2): link (" +
                       std::to_string(i0) + ", " + std::to_string(j0) + ")-(" + std::to_string(i1) +
                       ", " + std::to_string(j1) + ") has rest length " + std::to_string(rest) +
                       " m, expected " + std::to_string(nominal) + " m");
    }
    const bool along_edge = (j0 == j1 && (j0 == 0 || j0 == ny - 1)) || (i0 == i1 && (i0 == 0 || i0 == nx - 1));
    out.springs.push_back({{a, b}, rest, diagonal, along_edge ? 0.5 : 1.0});
  };
  // Each spring once: from every point to its u+, v+, u+v+ and u+v- neighbours (the thesis code's
  // strain-energy).
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      add_spring(i, j, i + 1, j);
      add_spring(i, j, i, j + 1);
      add_spring(i, j, i + 1, j + 1);
      add_spring(i, j, i + 1, j - 1);
    }
  }
  // Four lines through every point that has both neighbours on them (5.3, fig. 11). An interior
  // point stores c1/3 h^2 kappa^2 (1 + 1/2) = 1/2 c1 h^2 kappa^2 for a curvature along a thread; a
  // point on the sheet's edge stands for half a patch but has only the line along the edge (no
  // diagonals), which would store 4/3 of its share: that line gets 3/4 (a strip 2 cells wide is
  // otherwise 7/6 too stiff, Cantilever.FeynmanFollowsTheHeavyElasticaOnSquareCells).
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const auto add_line = [&](int di, int dj, double weight) {
        const int i0 = i - di, j0 = j - dj, i1 = i + di, j1 = j + dj;
        if (i0 < 0 || i1 < 0 || i0 >= nx || i1 >= nx || j0 < 0 || j1 < 0 || j0 >= ny || j1 >= ny) return;
        out.bends.push_back({{mesh.grid_index(i0, j0), mesh.grid_index(i, j), mesh.grid_index(i1, j1)}, weight});
      };
      const bool on_u_edge = j == 0 || j == ny - 1, on_v_edge = i == 0 || i == nx - 1;
      add_line(1, 0, on_u_edge ? 0.75 : 1.0);  // A P E
      add_line(0, 1, on_v_edge ? 0.75 : 1.0);  // C P G
      add_line(1, 1, 0.5);                     // B P F
      add_line(1, -1, 0.5);                    // D P H
    }
  }
  return out;
}

// Small uniform strain, energy per area W = k_s [(1 + r)(e_xx^2 + e_yy^2) + 2 r e_xx e_yy + 4 r e_xy^2]
// (each point owns two axial and two diagonal springs; docs/models.md). Uniaxial stress then
// gives the thread values, and the same W in axes turned by 45 degrees the bias values.
FeynmanModuli feynman_moduli(double k_s, double r) {
  FeynmanModuli m;
  m.axial_young = 2 * k_s * (1 + 2 * r) / (1 + r);
  m.axial_poisson = r / (1 + r);
  m.bias_young = k_s * (8 * r + 16 * r * r) / (1 + 4 * r);
  m.bias_poisson = 1 / (1 + 4 * r);
  return m;
}

double feynman_spring_energy(const FeynmanSpring& s, const std::vector<Vec3>& x, double k_s, double r, double b) {
  const double f = spring_scale(s, r);
  const double len = (x[s.v[0]] - x[s.v[1]]).norm(), compression = s.rest - len;
  if (compression > b / s.rest) return f * k_s * b / s.rest * compression;  // 5.5 linear branch
  return f * k_s * compression * compression;
}

double feynman_bend_energy(const FeynmanBend& e, const std::vector<Vec3>& x, double bending) {
  const Vec3 a = x[e.v[1]] - x[e.v[0]], b = x[e.v[2]] - x[e.v[1]];
  const double la = a.norm(), lb = b.norm();
  if (la == 0 || lb == 0) return 0;
  const Vec3 ua = a / la, ub = b / lb;
  const double theta = std::atan2(ua.cross(ub).norm(), ua.dot(ub));
  return bending * e.weight / 3 * theta * theta;  // 5.3
}

ElementEval<6> eval_feynman_spring(const FeynmanSpring& s, const std::vector<Vec3>& x,
                                   const std::vector<Vec3>& v, double k_s, double r, double b,
                                   double k_damp) {
  assert(v.size() == x.size() && b >= 0);
  const double f = spring_scale(s, r);
  // E = f k_s (l - l_i)^2 is Hooke's 1/2 k (l - l_i)^2 with k = 2 f k_s.
  Spring hooke{s.v[0], s.v[1], s.rest, 2 * f * k_s, f * k_damp, SpringType::Structural};
  const Vec3 d = x[s.v[0]] - x[s.v[1]];
  const double len = d.norm(), compression = s.rest - len;
  // Linear branch where (b / l_i)(l_i - l) < (l - l_i)^2 in compression, i.e. l_i - l > b / l_i.
  if (!(compression > b / s.rest)) return hooke_element(hooke, x, v);

  // E = c (l_i - l), c = f k_s b / l_i: a constant push f_0 = c d_hat along the axis, whose
  // Jacobian c (I - d_hat d_hat^T) / l is the rotation of that push. Damping: the Hooke kernel
  // with k = 0.
  hooke.k = 0;
  ElementEval<6> out = hooke_element(hooke, x, v);
  const double c = f * k_s * b / s.rest;
  out.energy = c * compression;
  if (len == 0) return out;  // coincident ends: no axis to push along
  const UnitDirection u(d);
  out.force.head<3>() += c * u.dir;
  out.force.tail<3>() -= c * u.dir;
  out.dfdx += two_point_matrix(c * u.jac);
  return out;
}

// a = x1 - x0, b = x2 - x1 (v[1] = P), c = a_hat . b_hat = cos(theta), E = K theta^2 = K g(c),
// K = B w / 3. In (a, b):
//   dc/da = J_a b_hat,  dc/db = J_b a_hat              (J = (I - d d^T) / |.|, UnitDirection::jac)
//   d2c/da2 = sum_m b_hat_m d2(a_hat_m)/da2,  d2c/da db = J_a J_b,  d2c/db2 likewise,
//   dE = K g'(c) dc,  d2E = K (g''(c) dc dc^T + g'(c) d2c),
// mapped to (x0, x1, x2) by (a, b) = S x. Damping: B&W 4.5 on C = b_hat - a_hat, whose gradient
// and Hessian are -J_a, J_b and -/+ d2(a_hat_m), d2(b_hat_m) in the same (a, b) blocks.
ElementEval<9> eval_feynman_bend(const FeynmanBend& e, const std::vector<Vec3>& x,
                                 const std::vector<Vec3>& v, double bending, double k_damp_bend) {
  assert(v.size() == x.size());
  const Vec3 a = x[e.v[1]] - x[e.v[0]], b = x[e.v[2]] - x[e.v[1]];
  if (a.squaredNorm() == 0 || b.squaredNorm() == 0) return {};
  const UnitDirection ua(a), ub(b);
  const Eigen::Matrix3d id = Eigen::Matrix3d::Identity(), zero = Eigen::Matrix3d::Zero();
  Eigen::Matrix<double, 6, 9> sel;
  sel << -id, id, zero, zero, -id, id;

  Condition<9, 3> damp;
  damp.value = ub.dir - ua.dir;
  Eigen::Matrix<double, 6, 3> grad;
  grad << -ua.jac, ub.jac;
  damp.grad = sel.transpose() * grad;
  for (int m = 0; m < 3; ++m) {
    Eigen::Matrix<double, 6, 6> hm = Eigen::Matrix<double, 6, 6>::Zero();
    hm.topLeftCorner<3, 3>() = -ua.hessian_dot(id.col(m));
    hm.bottomRightCorner<3, 3>() = ub.hessian_dot(id.col(m));
    damp.hess[m] = sel.transpose() * hm * sel;
  }
  ElementEval<9> out = evaluate_condition(damp, 0.0, 2.0 / 3.0 * e.weight * k_damp_bend, gather<3>(e.v, v));

  const double cos_t = ua.dir.dot(ub.dir), sin_t = ua.dir.cross(ub.dir).norm();
  const double theta = std::atan2(sin_t, cos_t);
  const double k = bending * e.weight / 3;
  out.energy = k * theta * theta;
  if (sin_t == 0 && cos_t < 0) return out;  // folded back: no gradient
  const AngleSquared g = angle_squared_derivatives(theta, sin_t, cos_t);
  Eigen::Matrix<double, 6, 1> dc;
  dc << ua.jac * ub.dir, ub.jac * ua.dir;
  Eigen::Matrix<double, 6, 6> d2c;
  d2c << ua.hessian_dot(ub.dir), ua.jac * ub.jac, ub.jac * ua.jac, ub.hessian_dot(ua.dir);
  out.force -= sel.transpose() * (k * g.g1 * dc);
  out.dfdx -= sel.transpose() * (k * (g.g2 * dc * dc.transpose() + g.g1 * d2c)) * sel;
  return out;
}

}  // namespace cloth
