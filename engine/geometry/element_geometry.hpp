#pragma once
// Small geometric building blocks shared by the element kernels (Baraff-Witkin, edge-area, Feynman,
// Breen): gathering an element's per-vertex values, the cross-product matrix, and a unit direction
// with its exact first and second derivatives.
#include <array>
#include <vector>

#include <Eigen/Dense>

#include "core/vec.hpp"

namespace cloth {

/// The element's V vertex values (positions or velocities) as one 3V vector, in the order of idx.
template <int V>
Eigen::Matrix<double, 3 * V, 1> gather(const std::array<int, V>& idx, const std::vector<Vec3>& values) {
  Eigen::Matrix<double, 3 * V, 1> out;
  for (int i = 0; i < V; ++i) out.template segment<3>(3 * i) = values[idx[i]];
  return out;
}

/// [a]x with [a]x b = a x b.
inline Eigen::Matrix3d cross_matrix(const Vec3& a) {
  Eigen::Matrix3d m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}

/// The 6 x 6 matrix [[m, -m], [-m, m]]: the two-vertex pattern of anything that depends on
/// x0 - x1 only (Hessians, force Jacobians).
inline Eigen::Matrix<double, 6, 6> two_point_matrix(const Eigen::Matrix3d& m) {
  Eigen::Matrix<double, 6, 6> out;
  out << m, -m, -m, m;
  return out;
}

/// d = a / |a| for a non-zero a, with its derivatives:
///   d(|a|)/da = d,   d2(|a|)/da2 = dd/da = (I - d d^T) / |a|,
///   sum_m w_m d2(d_m)/da2 = -(d w^T + w d^T + (d . w) I - 3 (d . w) d d^T) / |a|^2.
struct UnitDirection {
  Vec3 dir;              ///< a / |a|
  double length;         ///< |a|
  Eigen::Matrix3d jac;   ///< dd/da = (I - d d^T) / |a|, symmetric

  explicit UnitDirection(const Vec3& a)
      : dir(a.normalized()), length(a.norm()),
        jac((Eigen::Matrix3d::Identity() - dir * dir.transpose()) / length) {}

  /// The second derivative of d contracted with w: sum_m w_m d2(d_m)/da2 (symmetric).
  Eigen::Matrix3d hessian_dot(const Vec3& w) const {
    const double dw = dir.dot(w);
    return -(dir * w.transpose() + w * dir.transpose() + dw * Eigen::Matrix3d::Identity() -
             3 * dw * dir * dir.transpose()) /
           (length * length);
  }
};

}  // namespace cloth
