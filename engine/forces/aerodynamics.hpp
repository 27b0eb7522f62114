#pragma once
// Air drag and wind on a triangle: Provot's viscous fluid force q [n . (U - v)] n (Karthikeyan &
// Ranganathan 1998, "Provot") applied per triangle with its area, which with still air (U = 0) is
// Baraff-Witkin's air drag "formulated on a per-triangle basis, opposing velocities along the
// triangle's normal direction" (Baraff & Witkin 1998, section 4.4).
//
// With N = (x1 - x0) x (x2 - x0) = 2 A n and w = U(xc) - (v0 + v1 + v2) / 3 (xc the centroid),
// the triangle's force is q A (n . w) n = q (N . w) N / (2 |N|), a third of it on each vertex:
//     f_i = q/6 * (N . w) N / |N|            for i = 0, 1, 2.
#include <array>

#include "core/vec.hpp"

namespace cloth {

struct AeroTriangle {
  Vec3 force;                            ///< on each of the three vertices (the same), N
  std::array<Eigen::Matrix3d, 3> dfdx;   ///< ∂f_i/∂x_k for k = 0, 1, 2 (the same for every i), N/m
  Eigen::Matrix3d dfdv;                  ///< ∂f_i/∂v_k (the same for every i and k), N*s/m; NSD
};

/// `q`: drag coefficient, N*s/m^3 (force per unit area per unit normal relative speed).
/// `air`, `air_jacobian`: U and ∂U/∂x at the centroid.
AeroTriangle aero_triangle(const std::array<Vec3, 3>& x, const std::array<Vec3, 3>& v, double q,
                           const Vec3& air, const Eigen::Matrix3d& air_jacobian);

}  // namespace cloth
