// Hooke spring kernel: the elastic force is minus the gradient of the energy (checked by central
// finite differences), forces are equal and opposite, damping only removes energy.
#include <gtest/gtest.h>

#include <random>

#include "cloth/springs.hpp"

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

TEST(Spring, RestLengthGivesZeroForceAndStretchPullsTogether) {
  Spring s;
  s.rest = 0.5;
  s.k = 100;
  EXPECT_LT(spring_force_on_i(s, Vec3(0.5, 0, 0), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()).norm(), 1e-12);
  // Stretched by 0.1 m: F = -k e = 10 N towards j (Hooke's law, seed 002 section 4).
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
