#include "forces/aerodynamics.hpp"

#include <cmath>

#include "geometry/element_geometry.hpp"

namespace cloth {

AeroTriangle aero_triangle(const std::array<Vec3, 3>& x, const std::array<Vec3, 3>& v,
                           const AirDrag& drag, const Vec3& air, const Eigen::Matrix3d& air_jacobian) {
  AeroTriangle out;
  const Vec3 N = (x[1] - x[0]).cross(x[2] - x[0]);
  const double len = N.norm();
  if (len < 1e-14 || !drag.any()) {  // a collapsed triangle has no area to push on
    out.force.setZero();
    for (auto& m : out.dfdx) m.setZero();
    out.dfdv.setZero();
    return out;
  }
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  const double len2 = len * len;
  const Vec3 u = (v[0] + v[1] + v[2]) / 3.0 - air;
  const double a = N.dot(u);
  // The whole triangle's F(N, u) (aerodynamics.hpp) and its partial derivatives.
  const double kq = drag.q / 2.0;
  const double kn = drag.air_density * drag.drag_normal / 4.0;
  const double kt = drag.air_density * drag.drag_tangential / 4.0;
  // Linear and normal terms: F = -(kq / |N| + kn |a| / |N|^2) a N = -s(a, N) a N.
  const double s = kq / len + kn * std::abs(a) / len2;
  Vec3 F = -s * a * N;
  // ∂(s a)/∂a = kq / |N| + 2 kn |a| / |N|^2; ∂(s a)/∂N = -(kq / |N|^3 + 2 kn |a| / |N|^4) a N.
  const double dsa_da = kq / len + 2.0 * kn * std::abs(a) / len2;
  const Vec3 dsa_dN = -(kq / (len2 * len) + 2.0 * kn * std::abs(a) / (len2 * len2)) * a * N;
  Eigen::Matrix3d dF_du = -dsa_da * N * N.transpose();
  Eigen::Matrix3d dF_dN = -(N * (dsa_da * u + dsa_dN).transpose() + s * a * I);
  // Tangential term: F = -kt |N| |u_t| u_t, with ∂u_t/∂u = P = I - N N^T / |N|^2 and
  // ∂u_t/∂N = -(N u^T + a I) / |N|^2 + 2 a N N^T / |N|^4; d(|u_t| u_t) = G du_t with
  // G = |u_t| I + u_t u_t^T / |u_t| (0 at u_t = 0, where the term is flat to second order).
  const Vec3 ut = u - a * N / len2;
  const double ut_len = ut.norm();
  if (kt > 0 && ut_len > 0) {
    const Eigen::Matrix3d G = ut_len * I + ut * ut.transpose() / ut_len;
    const Eigen::Matrix3d P = I - N * N.transpose() / len2;
    const Eigen::Matrix3d dut_dN = -(N * u.transpose() + a * I) / len2 + 2.0 * a * N * N.transpose() / (len2 * len2);
    F -= kt * len * ut_len * ut;
    dF_du -= kt * len * G * P;
    dF_dN -= kt * (ut_len * ut * N.transpose() / len + len * G * dut_dN);
  }
  out.force = F / 3.0;
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
