// Hooke spring kernel: the elastic force is minus the gradient of the energy (checked by central
// finite differences), forces are equal and opposite, damping only removes energy.
#include <gtest/gtest.h>

#include <random>

#include <Eigen/Eigenvalues>

#include "elements/springs.hpp"

namespace cloth {
namespace {

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

TEST(Spring, ForceIsMinusEnergyGradientByFiniteDifferences) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 50; ++trial) {
    Spring s;
    s.rest = 0.01 + 0.1 * std::uniform_real_distribution<double>(0, 1)(rng);
    s.k = 10 + 1000 * std::uniform_real_distribution<double>(0, 1)(rng);
    s.kd = 0;
    const Vec3 xi = random_vec(rng, 0.1), xj = random_vec(rng, 0.1);
    const Vec3 f = spring_force_on_i(s, xi, xj, Vec3::Zero(), Vec3::Zero());
    double best_rel = 1e9;
    // Relative error of the central difference, best over eps 1e-4 .. 1e-8 (truncation error
    // shrinks with eps, round-off grows: the minimum must be tiny if the force is right).
    for (double eps = 1e-4; eps >= 1e-8; eps /= 10) {
      Vec3 grad;
      for (int k = 0; k < 3; ++k) {
        Vec3 plus = xi, minus = xi;
        plus[k] += eps;
        minus[k] -= eps;
        grad[k] = (spring_energy(s, plus, xj) - spring_energy(s, minus, xj)) / (2 * eps);
      }
      best_rel = std::min(best_rel, (f + grad).norm() / std::max(f.norm(), 1e-12));
    }
    EXPECT_LT(best_rel, 1e-6) << "trial " << trial;
  }
}

TEST(Spring, JacobiansMatchFiniteDifferencesOfTheForce) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    Spring s;
    s.rest = 0.05 + 0.1 * std::uniform_real_distribution<double>(0, 1)(rng);
    s.k = 100 + 1000 * std::uniform_real_distribution<double>(0, 1)(rng);
    s.kd = 0.5;
    // Half the trials compressed, half stretched; a few nearly coincident.
    const Vec3 xj = random_vec(rng, 0.1);
    const double len = s.rest * (trial % 2 ? 1.5 : 0.6) * (trial % 10 == 0 ? 0.01 : 1.0);
    const Vec3 xi = xj + len * random_vec(rng, 1).normalized();
    const Vec3 vi = random_vec(rng, 1), vj = random_vec(rng, 1);
    const SpringJacobian jac = spring_jacobian(s, xi, xj, /*clamp_compression=*/false);
    EXPECT_TRUE(jac.dfdx.isApprox(jac.dfdx.transpose(), 1e-12));
    double best_x = 1e9, best_v = 1e9;
    for (double eps = 1e-4 * len; eps >= 1e-8 * len; eps /= 10) {
      Eigen::Matrix3d fd_x, fd_v;
      for (int k = 0; k < 3; ++k) {
        Vec3 p = xi, m = xi;
        p[k] += eps;
        m[k] -= eps;
        // Elastic part only (kd = 0): the damping force's x-dependence is dropped by design.
        Spring elastic = s;
        elastic.kd = 0;
        fd_x.col(k) = (spring_force_on_i(elastic, p, xj, vi, vj) - spring_force_on_i(elastic, m, xj, vi, vj)) / (2 * eps);
        Vec3 vp = vi, vm = vi;
        vp[k] += eps;
        vm[k] -= eps;
        fd_v.col(k) = (spring_force_on_i(s, xi, xj, vp, vj) - spring_force_on_i(s, xi, xj, vm, vj)) / (2 * eps);
      }
      best_x = std::min(best_x, (fd_x - jac.dfdx).norm() / jac.dfdx.norm());
      best_v = std::min(best_v, (fd_v - jac.dfdv).norm() / jac.dfdv.norm());
    }
    EXPECT_LT(best_x, 1e-6) << "trial " << trial;
    EXPECT_LT(best_v, 1e-6) << "trial " << trial;
  }
}

TEST(Spring, ClampedJacobianIsNegativeSemidefiniteWhenCompressed) {
  Spring s;
  s.rest = 1.0;
  s.k = 50;
  const SpringJacobian exact = spring_jacobian(s, Vec3(0.5, 0, 0), Vec3::Zero(), false);
  const SpringJacobian clamped = spring_jacobian(s, Vec3(0.5, 0, 0), Vec3::Zero(), true);
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> e1(exact.dfdx), e2(clamped.dfdx);
  EXPECT_GT(e1.eigenvalues().maxCoeff(), 1.0) << "compressed exact stiffness is indefinite";
  EXPECT_LE(e2.eigenvalues().maxCoeff(), 1e-12);
  // Stretched: clamping changes nothing.
  const SpringJacobian a = spring_jacobian(s, Vec3(1.5, 0.2, 0), Vec3::Zero(), false);
  const SpringJacobian b = spring_jacobian(s, Vec3(1.5, 0.2, 0), Vec3::Zero(), true);
  EXPECT_TRUE(a.dfdx.isApprox(b.dfdx));
}

TEST(Spring, RestLengthGivesZeroForceAndStretchPullsTogether) {
  Spring s;
  s.rest = 0.5;
  s.k = 100;
  EXPECT_LT(spring_force_on_i(s, Vec3(0.5, 0, 0), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()).norm(), 1e-12);
  // Stretched by 0.1 m: F = -k e = 10 N towards j (Hooke's law, Yu, section 4).
  const Vec3 f = spring_force_on_i(s, Vec3(0.6, 0, 0), Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
  EXPECT_NEAR(f.x(), -10.0, 1e-9);
  EXPECT_NEAR(f.y(), 0.0, 1e-12);
}

TEST(Spring, DampingOpposesRelativeAxialVelocityAndNeverAddsEnergy) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    Spring s;
    s.rest = 0.1;
    s.k = 0;  // damping only
    s.kd = 0.5;
    const Vec3 xi = random_vec(rng, 1), xj = random_vec(rng, 1);
    const Vec3 vi = random_vec(rng, 2), vj = random_vec(rng, 2);
    const Vec3 fi = spring_force_on_i(s, xi, xj, vi, vj);
    // Power delivered to the pair: fi . vi + (-fi) . vj <= 0.
    EXPECT_LE(fi.dot(vi - vj), 1e-12);
    // Only along the axis.
    EXPECT_LT(fi.cross(xi - xj).norm(), 1e-9 * (1 + fi.norm()));
  }
}

}  // namespace
}  // namespace cloth
