#include "forces/aerodynamics.hpp"

#include <cmath>
#include <optional>

#include "geometry/element_geometry.hpp"

namespace cloth {
namespace {

// The quantities F(N, u) is made of (aerodynamics.hpp), shared by the force and its derivatives.
struct Flow {
  Vec3 N;           ///< unnormalised normal, 2 A n
  double len = 0;   ///< |N|
  double len2 = 0;  ///< |N|^2
  Vec3 u;           ///< velocity relative to the air, m/s
  double a = 0;     ///< N . u
  double kq = 0, kn = 0, kt = 0;
  double s = 0;     ///< the linear and normal terms' F = -s a N
  Vec3 ut;          ///< tangential relative velocity u_t
  double ut_len = 0;
};

/// Null when the triangle has collapsed (no area to push on) or there is no drag.
std::optional<Flow> flow(const std::array<Vec3, 3>& x, const std::array<Vec3, 3>& v, const AirDrag& drag,
                         const Vec3& air) {
  Flow f;
  f.N = (x[1] - x[0]).cross(x[2] - x[0]);
  f.len = f.N.norm();
  if (f.len < 1e-14 || !drag.any()) return std::nullopt;
  f.len2 = f.len * f.len;
  f.u = (v[0] + v[1] + v[2]) / 3.0 - air;
  f.a = f.N.dot(f.u);
  f.kq = drag.q / 2.0;
  f.kn = drag.air_density * drag.drag_normal / 4.0;
  f.kt = drag.air_density * drag.drag_tangential / 4.0;
  f.s = f.kq / f.len + f.kn * std::abs(f.a) / f.len2;
  f.ut = f.u - f.a * f.N / f.len2;
  f.ut_len = f.ut.norm();
  return f;
}

/// The whole triangle's F: -s a N - kt |N| |u_t| u_t.
Vec3 triangle_force(const Flow& f) {
  Vec3 F = -f.s * f.a * f.N;
  if (f.kt > 0 && f.ut_len > 0) F -= f.kt * f.len * f.ut_len * f.ut;
  return F;
}

}  // namespace

void add_aero_forces(const std::vector<std::array<int, 3>>& triangles, const std::vector<Vec3>& x,
                     const std::vector<Vec3>& v, const AirDrag& drag, const WindField& wind, double t,
                     AeroScratch& scratch, std::vector<Vec3>& f) {
  if (!drag.any()) return;
  const Eigen::Index count = Eigen::Index(triangles.size());
  auto& [nx, ny, nz, ux, uy, uz, len, len2, sa, tx, ty, tz, tangential] = scratch;
  for (Eigen::ArrayXd* a : {&nx, &ny, &nz, &ux, &uy, &uz}) a->resize(count);
  for (Eigen::Index k = 0; k < count; ++k) {
    const auto& tri = triangles[size_t(k)];
    const Vec3 &x0 = x[size_t(tri[0])], &x1 = x[size_t(tri[1])], &x2 = x[size_t(tri[2])];
    const Vec3 normal = (x1 - x0).cross(x2 - x0);
    const Vec3 u = (v[size_t(tri[0])] + v[size_t(tri[1])] + v[size_t(tri[2])]) / 3.0 -
                   wind.velocity((x0 + x1 + x2) / 3.0, t, nullptr);
    nx[k] = normal.x(), ny[k] = normal.y(), nz[k] = normal.z();
    ux[k] = u.x(), uy[k] = u.y(), uz[k] = u.z();
  }
  // flow() and triangle_force() on whole arrays, the same operations in the same order.
  const double kq = drag.q / 2.0, kn = drag.air_density * drag.drag_normal / 4.0,
               kt = drag.air_density * drag.drag_tangential / 4.0;
  // Assigning to an array of the same size reuses its storage; `a` (N . u) is kept in `sa` until
  // s a replaces it.
  len = (nx * nx + ny * ny + nz * nz).sqrt();
  len2 = len * len;
  Eigen::ArrayXd& a = sa;
  a = nx * ux + ny * uy + nz * uz;
  tx = ux - a * nx / len2, ty = uy - a * ny / len2, tz = uz - a * nz / len2;
  sa = (kq / len + kn * a.abs() / len2) * a;
  tangential = kt * len * (tx * tx + ty * ty + tz * tz).sqrt();
  for (Eigen::Index k = 0; k < count; ++k) {
    if (len[k] < 1e-14) continue;  // collapsed: no area to push on
    Vec3 force = -sa[k] * Vec3(nx[k], ny[k], nz[k]);
    if (kt > 0 && tangential[k] > 0) force -= tangential[k] * Vec3(tx[k], ty[k], tz[k]);
    force /= 3.0;
    for (int i : triangles[size_t(k)]) f[size_t(i)] += force;
  }
}

AeroTriangle aero_triangle(const std::array<Vec3, 3>& x, const std::array<Vec3, 3>& v,
                           const AirDrag& drag, const Vec3& air, const Eigen::Matrix3d& air_jacobian) {
  AeroTriangle out;
  const std::optional<Flow> flow_here = flow(x, v, drag, air);
  if (!flow_here) {
    out.force.setZero();
    for (auto& m : out.dfdx) m.setZero();
    out.dfdv.setZero();
    return out;
  }
  const Flow& f = *flow_here;
  const Vec3& N = f.N;
  const double len = f.len, len2 = f.len2, a = f.a;
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  // Linear and normal terms, F = -s(a, N) a N: ∂(s a)/∂a = kq / |N| + 2 kn |a| / |N|^2;
  // ∂(s a)/∂N = -(kq / |N|^3 + 2 kn |a| / |N|^4) a N.
  const double dsa_da = f.kq / len + 2.0 * f.kn * std::abs(a) / len2;
  const Vec3 dsa_dN = -(f.kq / (len2 * len) + 2.0 * f.kn * std::abs(a) / (len2 * len2)) * a * N;
  Eigen::Matrix3d dF_du = -dsa_da * N * N.transpose();
  Eigen::Matrix3d dF_dN = -(N * (dsa_da * f.u + dsa_dN).transpose() + f.s * a * I);
  // Tangential term: F = -kt |N| |u_t| u_t, with ∂u_t/∂u = P = I - N N^T / |N|^2 and
  // ∂u_t/∂N = -(N u^T + a I) / |N|^2 + 2 a N N^T / |N|^4; d(|u_t| u_t) = G du_t with
  // G = |u_t| I + u_t u_t^T / |u_t| (0 at u_t = 0, where the term is flat to second order).
  if (f.kt > 0 && f.ut_len > 0) {
    const Eigen::Matrix3d G = f.ut_len * I + f.ut * f.ut.transpose() / f.ut_len;
    const Eigen::Matrix3d P = I - N * N.transpose() / len2;
    const Eigen::Matrix3d dut_dN = -(N * f.u.transpose() + a * I) / len2 + 2.0 * a * N * N.transpose() / (len2 * len2);
    dF_du -= f.kt * len * G * P;
    dF_dN -= f.kt * (f.ut_len * f.ut * N.transpose() / len + len * G * dut_dN);
  }
  out.force = triangle_force(f) / 3.0;
  // ∂N/∂x0 = [x2 - x1]x, ∂N/∂x1 = [x0 - x2]x, ∂N/∂x2 = [x1 - x0]x; u depends on each x_k through
  // U(centroid): ∂u/∂x_k = -∂U/∂x / 3; ∂u/∂v_k = I / 3.
  const Vec3 opposite[3] = {x[2] - x[1], x[0] - x[2], x[1] - x[0]};
  for (int k = 0; k < 3; ++k) {
    out.dfdx[k] = (dF_dN * cross_matrix(opposite[k]) - dF_du * air_jacobian / 3.0) / 3.0;
  }
  out.dfdv = dF_du / 9.0;
  return out;
}

}  // namespace cloth
