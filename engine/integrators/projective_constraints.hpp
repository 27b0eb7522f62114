#pragma once
// The constraints of the projective integrator and their projections (Liu, Bargteil, O'Brien &
// Kavan 2013, "Fast Simulation of Mass-Spring Systems", sec. 4; Bouaziz, Martin, Liu, Kavan &
// Pauly 2014, "Projective Dynamics: Fusing Constraint Projections for Fast Simulation", sec. 3).
//
// A spring of rest length L and stiffness k has the energy k/2 (|x_i - x_j| - L)^2, which is
//   k/2 min_{|p| = L} |(x_i - x_j) - p|^2:
// the distance from the endpoints' difference A x = x_i - x_j to the sphere of radius L. Its
// minimiser, the projection p = L (x_i - x_j) / |x_i - x_j|, is the local step; the global step
// sees only the constant quadratic k |A x - p|^2.
#include <vector>

#include "core/vec.hpp"

namespace cloth {

/// One distance constraint of the global matrix: vertices i, j, rest length, m, stiffness k, N/m,
/// and the stiffness of its linear damping term kd / h, N/m (projective_integrator.hpp).
struct DistanceConstraint {
  int i = 0, j = 0;
  double rest = 0;   ///< L, m
  double k = 0;      ///< N/m
  double kd = 0;     ///< N*s/m
};

/// The local step of one spring: the point of the sphere |p| = rest nearest d = x_i - x_j. For
/// coincident ends (|d| below 1e-12 m) every point of the sphere is as near: (rest, 0, 0).
inline Vec3 project_distance(const Vec3& d, double rest) {
  const double length = d.norm();
  if (!(length >= 1e-12)) return Vec3(rest, 0, 0);
  return (rest / length) * d;
}

}  // namespace cloth
