#pragma once
// Air drag and wind on a triangle, with u = v_c - U(x_c) the triangle's velocity relative to the
// air (v_c the mean of its vertices' velocities, U the wind at its centroid x_c), n its unit
// normal, A its area, u_n = (n . u) n and u_t = u - u_n:
//
// - quadratic (pressure) drag, the default air: F = -1/2 rho_air A (C_n |u_n| u_n + C_t |u_t| u_t)
//   with the cloth's dimensionless normal and tangential drag coefficients. A flat plate normal to
//   the flow has C_D = 1.17 (square) to 1.98 (infinite strip); flow along it, skin friction of
//   order 0.01 per face, more for a rough surface (Hoerner 1965, "Fluid-Dynamic Drag", ch. 2-3).
//   A flat cloth of areal density rho_A falling face-first reaches its terminal speed
//   sqrt(2 rho_A g / (rho_air C_n)).
// - linear (viscous) drag, optional: Provot's fluid force q [n . (U - v)] n (Karthikeyan &
//   Ranganathan 1998, "Provot") times the area, which in still air is Baraff-Witkin's air drag
//   "formulated on a per-triangle basis, opposing velocities along the triangle's normal
//   direction" (Baraff & Witkin 1998, section 4.4): F = -q A (n . u) n.
//
// The triangle's force is split equally: f_i = F / 3 on each vertex. In terms of the unnormalised
// normal N = (x1 - x0) x (x2 - x0) = 2 A n, with a = N . u and u_t = u - a N / |N|^2,
//     F = -q a N / (2 |N|) - rho C_n a |a| N / (4 |N|^2) - rho C_t |N| |u_t| u_t / 4.
#include <array>
#include <vector>

#include "core/vec.hpp"
#include "forces/wind.hpp"

namespace cloth {

/// The air's and the cloth's drag parameters.
struct AirDrag {
  double q = 0;                ///< linear viscous coefficient, N*s/m^3 (force per area per speed)
  double air_density = 0;      ///< rho_air, kg/m^3
  double drag_normal = 0;      ///< C_n, dimensionless
  double drag_tangential = 0;  ///< C_t, dimensionless
  bool any() const { return q > 0 || (air_density > 0 && (drag_normal > 0 || drag_tangential > 0)); }
};

struct AeroTriangle {
  Vec3 force;                            ///< on each of the three vertices (the same), N
  std::array<Eigen::Matrix3d, 3> dfdx;   ///< ∂f_i/∂x_k for k = 0, 1, 2 (the same for every i), N/m
  Eigen::Matrix3d dfdv;                  ///< ∂f_i/∂v_k (the same for every i and k), N*s/m; NSD
};

/// Per-triangle arrays of add_aero_forces, kept between calls so that a step allocates nothing:
/// the gathered normals N and relative velocities u, and what the force is made of.
struct AeroScratch {
  Eigen::ArrayXd nx, ny, nz, ux, uy, uz;  ///< gathered N = 2 A n and u
  Eigen::ArrayXd len, len2, sa;           ///< |N|, |N|^2, s a
  Eigen::ArrayXd tx, ty, tz, tangential;  ///< u_t and kt |N| |u_t|
};

/// Adds every triangle's air force, aero_triangle's without its derivatives (what an explicit
/// step needs), to its three vertices' f, N; the wind U is taken at each centroid at time t. The
/// triangles go through together, one component array at a time, so that the square roots and
/// divisions run four to a vector instruction: one triangle at a time it was two thirds of an
/// explicit step's time when the default scene evaluated it every substep (it now comes on the
/// air's own interval, explicit_integrators.hpp).
void add_aero_forces(const std::vector<std::array<int, 3>>& triangles, const std::vector<Vec3>& x,
                     const std::vector<Vec3>& v, const AirDrag& drag, const WindField& wind, double t,
                     AeroScratch& scratch, std::vector<Vec3>& f);

/// `air`, `air_jacobian`: U and ∂U/∂x at the centroid.
AeroTriangle aero_triangle(const std::array<Vec3, 3>& x, const std::array<Vec3, 3>& v,
                           const AirDrag& drag, const Vec3& air, const Eigen::Matrix3d& air_jacobian);

}  // namespace cloth
