#pragma once
// The inverse of a symmetric 3 x 3 block when it is positive definite: IC(0)'s pivots
// (incomplete_cholesky.cpp), ten thousand per factorisation at 100².
#include <cmath>

#include <Eigen/Core>

namespace cloth {

/// inverse = d^-1 and true when the symmetric d is finite and positive definite; else false,
/// `inverse` unspecified. The factor uses d's lower triangle. The Cholesky factor d = L L^T written
/// out (d is positive definite exactly when its three pivots are positive), then
/// d^-1 = L^-T L^-1: as accurate as Eigen's LLT, without its solve against the identity, which
/// went through the dynamic-size triangular solver and took a seventh of IC(0)'s factorisation
/// (BM_SolvePart/ic-factor). (The cofactor formula, faster still, was not taken: its error
/// reached 1e-9 times the condition on random blocks, against 2e-16 times for this one.)
inline bool invert_positive_definite(const Eigen::Matrix3d& d, Eigen::Matrix3d& inverse) {
  if (!d.allFinite()) return false;
  const double p0 = d(0, 0);
  if (!(p0 > 0)) return false;
  const double l00 = std::sqrt(p0);
  const double l10 = d(1, 0) / l00, l20 = d(2, 0) / l00;
  const double p1 = d(1, 1) - l10 * l10;
  if (!(p1 > 0)) return false;
  const double l11 = std::sqrt(p1);
  const double l21 = (d(2, 1) - l20 * l10) / l11;
  const double p2 = d(2, 2) - l20 * l20 - l21 * l21;
  if (!(p2 > 0)) return false;
  const double l22 = std::sqrt(p2);
  // M = L^-1, lower triangular: each row of L M = I solved in turn.
  const double m00 = 1 / l00, m11 = 1 / l11, m22 = 1 / l22;
  const double m10 = -l10 * m00 * m11;
  const double m21 = -l21 * m11 * m22;
  const double m20 = -(l20 * m00 + l21 * m10) * m22;
  // d^-1 = M^T M.
  inverse(0, 0) = m00 * m00 + m10 * m10 + m20 * m20;
  inverse(1, 0) = inverse(0, 1) = m10 * m11 + m20 * m21;
  inverse(2, 0) = inverse(0, 2) = m20 * m22;
  inverse(1, 1) = m11 * m11 + m21 * m21;
  inverse(2, 1) = inverse(1, 2) = m21 * m22;
  inverse(2, 2) = m22 * m22;
  return inverse.allFinite();
}

}  // namespace cloth
