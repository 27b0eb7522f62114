#pragma once
// Finite-difference checks shared by the kernel tests: flatten / unflatten element coordinates and
// the relative error of an exact Jacobian against central differences over a range of steps.
#include <algorithm>
#include <functional>
#include <vector>

#include <Eigen/Dense>

#include "core/vec.hpp"

namespace cloth {

template <int N>
using VecN = Eigen::Matrix<double, N, 1>;
template <int N>
using MatN = Eigen::Matrix<double, N, N>;

inline std::vector<Vec3> unflatten(const Eigen::VectorXd& q) {
  std::vector<Vec3> x(q.size() / 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = q.segment<3>(3 * i);
  return x;
}

template <int N>
VecN<N> flatten(const std::vector<Vec3>& x) {
  VecN<N> q;
  for (int i = 0; i < N / 3; ++i) q.template segment<3>(3 * i) = x[i];
  return q;
}

// Central-difference Jacobian of f at q, compared with `exact`: the relative Frobenius error,
// best over eps = 1e-4 .. 1e-8 (truncation error falls with eps, round-off grows; a correct
// derivative has a deep minimum, a wrong one stays O(1) at every eps).
template <int N, int R>
double fd_error(const std::function<Eigen::Matrix<double, R, 1>(const VecN<N>&)>& f, const VecN<N>& q,
                const Eigen::Matrix<double, R, N>& exact) {
  double best = 1e300;
  for (double eps = 1e-4; eps >= 1e-8; eps /= 10) {
    const double h = eps * std::max(1.0, q.cwiseAbs().maxCoeff());
    Eigen::Matrix<double, R, N> fd;
    for (int k = 0; k < N; ++k) {
      VecN<N> p = q, m = q;
      p[k] += h;
      m[k] -= h;
      fd.col(k) = (f(p) - f(m)) / (2 * h);
    }
    best = std::min(best, (fd - exact).norm() / std::max(exact.norm(), 1e-300));
  }
  return best;
}

}  // namespace cloth
