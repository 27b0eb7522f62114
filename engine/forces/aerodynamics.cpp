#include "forces/aerodynamics.hpp"

#include "geometry/element_geometry.hpp"

namespace cloth {

AeroTriangle aero_triangle(const std::array<Vec3, 3>& x, const std::array<Vec3, 3>& v, double q,
                           const Vec3& air, const Eigen::Matrix3d& air_jacobian) {
  AeroTriangle out;
  const Vec3 N = (x[1] - x[0]).cross(x[2] - x[0]);
  const double len = N.norm();
  if (len < 1e-14 || q == 0) {  // a collapsed triangle has no area to push on
    out.force.setZero();
    for (auto& m : out.dfdx) m.setZero();
    out.dfdv.setZero();
    return out;
  }
  const Vec3 w = air - (v[0] + v[1] + v[2]) / 3.0;
  const double Nw = N.dot(w);
  const double c = q / 6.0;
  out.force = c * Nw * N / len;
  // g(N, w) = (N.w) N / |N|:  ∂g/∂w = N N^T / |N|,
  // ∂g/∂N = (N w^T + (N.w) I) / |N| - (N.w) N N^T / |N|^3.
  const Eigen::Matrix3d dg_dw = N * N.transpose() / len;
  const Eigen::Matrix3d dg_dN = (N * w.transpose() + Nw * Eigen::Matrix3d::Identity()) / len -
                                Nw * N * N.transpose() / (len * len * len);
  // ∂N/∂x0 = [x2 - x1]x, ∂N/∂x1 = [x0 - x2]x, ∂N/∂x2 = [x1 - x0]x; w depends on each x_k through
  // U(centroid): ∂w/∂x_k = ∂U/∂x / 3.
  const Vec3 opposite[3] = {x[2] - x[1], x[0] - x[2], x[1] - x[0]};
  for (int k = 0; k < 3; ++k) {
    out.dfdx[k] = c * (dg_dN * cross_matrix(opposite[k]) + dg_dw * air_jacobian / 3.0);
  }
  out.dfdv = -c * dg_dw / 3.0;
  return out;
}

}  // namespace cloth
