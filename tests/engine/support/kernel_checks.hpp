#pragma once
// Derivative checks of an element kernel (ElementEval<N>) against central finite differences,
// shared by edge_area_energy_test.cpp and feynman_energy_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "elements/bw_conditions.hpp"
#include "engine/support/finite_difference.hpp"

namespace cloth {

/// A kernel with its parameters bound: (x, v) -> ElementEval over the element's local vertices.
template <int N>
using Kernel = std::function<ElementEval<N>(const std::vector<Vec3>&, const std::vector<Vec3>&)>;

inline Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

/// Elastic part at zero velocity: force = -dE/dx, dfdx = d(force)/dx and symmetric (the energy is
/// conservative), dfdv = 0 when there is no velocity-dependent force.
template <int N>
void check_elastic(const Kernel<N>& kernel, const VecN<N>& q, const std::string& what,
                   double tol_force = 1e-6, double tol_dfdx = 1e-5) {
  const std::vector<Vec3> v0(N / 3, Vec3::Zero());
  const ElementEval<N> el = kernel(unflatten(q), v0);
  const std::function<Eigen::Matrix<double, 1, 1>(const VecN<N>&)> energy = [&](const VecN<N>& p) {
    return Eigen::Matrix<double, 1, 1>(kernel(unflatten(p), v0).energy);
  };
  // Relative error, or near an equilibrium (the straight line of a bend, where the force is
  // round-off and the O(eps^2) truncation of the difference dominates) an absolute error below
  // tol_force times the force of a 1 um displacement.
  const double rel = fd_error<N, 1>(energy, q, -el.force.transpose());
  const double abs_error = rel * std::max(el.force.norm(), 1e-300);
  EXPECT_TRUE(rel < tol_force || abs_error < tol_force * 1e-6 * el.dfdx.norm())
      << what << ": force vs -dE/dx, relative " << rel << ", absolute " << abs_error;
  const std::function<VecN<N>(const VecN<N>&)> force = [&](const VecN<N>& p) {
    return kernel(unflatten(p), v0).force;
  };
  EXPECT_LT((fd_error<N, N>(force, q, el.dfdx)), tol_dfdx) << what << ": dfdx vs d(force)/dx";
  EXPECT_LE((el.dfdx - el.dfdx.transpose()).norm(), 1e-9 * el.dfdx.norm()) << what << ": dfdx symmetric";
}

/// Damping part alone (stiffness 0): no energy; the force is linear in v, so dfdv equals its
/// central difference to round-off; dfdv symmetric; the force never adds energy (v . d <= 0).
template <int N>
void check_damping(const Kernel<N>& kernel, const VecN<N>& q, const VecN<N>& vel, const std::string& what) {
  const std::vector<Vec3> x = unflatten(q);
  const ElementEval<N> dm = kernel(x, unflatten(vel));
  EXPECT_EQ(dm.energy, 0.0) << what;
  const std::function<VecN<N>(const VecN<N>&)> damp_v = [&](const VecN<N>& p) {
    return kernel(x, unflatten(p)).force;
  };
  EXPECT_LT((fd_error<N, N>(damp_v, vel, dm.dfdv)), 1e-7) << what << ": dfdv vs d(force)/dv";
  EXPECT_GT(dm.dfdv.norm(), 0.0) << what << ": damping present";
  EXPECT_LE((dm.dfdv - dm.dfdv.transpose()).norm(), 1e-12 * dm.dfdv.norm()) << what;
  EXPECT_LE(vel.dot(dm.force), 1e-12 * vel.norm() * dm.force.norm()) << what << ": dissipative";
}

/// B&W 4.5 damping d = -k_d G C_dot (G = dC/dx, C_dot = G^T v): its x-Jacobian is the kept
/// symmetric term (in dfdx) plus the dropped -k_d G dC_dot/dx. The test supplies G (N x M) and
/// dC_dot/dx (M x N) at q.
template <int N, int M>
void check_condition_damping_dfdx(const Kernel<N>& kernel, const Eigen::Matrix<double, N, M>& gradient,
                                  const Eigen::Matrix<double, M, N>& dcdot_dx, double k_d, const VecN<N>& q,
                                  const VecN<N>& vel, const std::string& what) {
  const std::vector<Vec3> v = unflatten(vel);
  const ElementEval<N> dm = kernel(unflatten(q), v);
  const MatN<N> dropped = -k_d * gradient * dcdot_dx;
  const std::function<VecN<N>(const VecN<N>&)> damp_x = [&](const VecN<N>& p) {
    return kernel(unflatten(p), v).force;
  };
  EXPECT_LT((fd_error<N, N>(damp_x, q, MatN<N>(dm.dfdx + dropped))), 1e-5) << what << ": damping dfdx";
  EXPECT_LE((dm.dfdx - dm.dfdx.transpose()).norm(), 1e-9 * dm.dfdx.norm()) << what;
}

/// x -> R x + t for a fixed rotation and translation.
inline std::vector<Vec3> rigid_motion(const std::vector<Vec3>& x) {
  const Eigen::Matrix3d rot = Eigen::AngleAxisd(1.1, Vec3(0.3, -0.5, 0.8).normalized()).toRotationMatrix();
  const Vec3 shift(3.0, -2.0, 0.7);
  std::vector<Vec3> out;
  for (const Vec3& p : x) out.push_back(rot * p + shift);
  return out;
}

}  // namespace cloth
