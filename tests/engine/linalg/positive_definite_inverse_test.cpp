// IC(0)'s closed-form pivot inverse (positive_definite_inverse.hpp) against Eigen: the inverse of
// random SPD blocks, well and badly conditioned, and the refusal of every way of not being
// positive definite.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "linalg/positive_definite_inverse.hpp"

namespace cloth {
namespace {

// Q diag(eigenvalues) Q^T for a random rotation Q.
Eigen::Matrix3d with_eigenvalues(const Eigen::Vector3d& eigenvalues, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const Eigen::Matrix3d q =
      Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
  return q * eigenvalues.asDiagonal() * q.transpose();
}

TEST(PositiveDefiniteInverse, InvertsSymmetricPositiveDefiniteBlocks) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> log_eigenvalue(-6, 3);
  for (int trial = 0; trial < 200; ++trial) {
    // Condition numbers up to 1e9: a stretched cloth's vertex block is stiff along the threads
    // and about the mass across the sheet.
    const Eigen::Vector3d eigenvalues(std::pow(10.0, log_eigenvalue(rng)), std::pow(10.0, log_eigenvalue(rng)),
                                      std::pow(10.0, log_eigenvalue(rng)));
    const Eigen::Matrix3d d = with_eigenvalues(eigenvalues, rng);
    Eigen::Matrix3d inverse;
    ASSERT_TRUE(invert_positive_definite(d, inverse)) << d;
    // As accurate as a backward-stable inverse: both errors within 50 roundings times the
    // condition (the cofactor formula's error reaches 1e-9 times the condition: 1e5 times this).
    const double condition = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
    const Eigen::Matrix3d expected = d.llt().solve(Eigen::Matrix3d::Identity());
    EXPECT_LT((d * inverse - Eigen::Matrix3d::Identity()).norm(), 1e-14 * condition) << d;
    EXPECT_LT((inverse - expected).norm(), 1e-14 * condition * expected.norm()) << d;
    EXPECT_EQ(inverse, inverse.transpose());
  }
}

TEST(PositiveDefiniteInverse, RefusesIndefiniteSingularAndNonFiniteBlocks) {
  std::mt19937 rng(2);
  Eigen::Matrix3d inverse;
  // One, two or three negative eigenvalues (det < 0, or det > 0 with a negative minor).
  for (const Eigen::Vector3d& eigenvalues : {Eigen::Vector3d(1, 2, -3), Eigen::Vector3d(1, -2, -3),
                                             Eigen::Vector3d(-1, -2, -3)}) {
    for (int trial = 0; trial < 50; ++trial) {
      EXPECT_FALSE(invert_positive_definite(with_eigenvalues(eigenvalues, rng), inverse)) << eigenvalues.transpose();
    }
  }
  // Exactly singular: a zero pivot in each place (a rotated singular block is positive definite
  // up to rounding, as for any Cholesky).
  for (int zero = 0; zero < 3; ++zero) {
    Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
    d(zero, zero) = 0;
    EXPECT_FALSE(invert_positive_definite(d, inverse)) << zero;
  }
  // Positive determinant and a positive first entry, yet indefinite: only the 2 x 2 minor tells.
  Eigen::Matrix3d tricky;
  tricky << 1, 2, 0,
            2, 1, 0,
            0, 0, -1;
  ASSERT_GT(tricky.determinant(), 0);
  EXPECT_FALSE(invert_positive_definite(tricky, inverse));
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
    d(1, 2) = d(2, 1) = bad;
    EXPECT_FALSE(invert_positive_definite(d, inverse)) << bad;
    d = Eigen::Matrix3d::Identity();
    d(2, 2) = bad;
    EXPECT_FALSE(invert_positive_definite(d, inverse)) << bad;
  }
}

}  // namespace
}  // namespace cloth
