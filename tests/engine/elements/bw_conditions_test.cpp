// Baraff-Witkin condition kernels (Baraff & Witkin 1998, section 4): derivatives against central
// finite differences on random, thin and nearly folded elements; rest and rigid-motion invariance;
// the damping terms of section 4.5; PSD projection, the closed-form shear and Gauss-Newton bend
// stiffnesses; and the SI calibration against continuum energies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>

#include "elements/bw_conditions.hpp"
#include "core/error.hpp"
#include "engine/support/finite_difference.hpp"

namespace cloth {
namespace {

// The derivative checks shared by every condition: dC/dx against C, d2C/dx2 against dC/dx,
// Hessians symmetric.
template <int N, int M>
void check_condition(const std::function<Condition<N, M>(const std::vector<Vec3>&)>& cond,
                     const VecN<N>& q, const std::string& what) {
  const Condition<N, M> c = cond(unflatten(q));
  const std::function<Eigen::Matrix<double, M, 1>(const VecN<N>&)> value = [&](const VecN<N>& p) {
    return Eigen::Matrix<double, M, 1>(cond(unflatten(p)).value);
  };
  EXPECT_LT((fd_error<N, M>(value, q, c.grad.transpose())), 1e-6) << what << ": dC/dx";
  for (int m = 0; m < M; ++m) {
    if (c.hess[m].norm() == 0) continue;  // linear component (checked through the gradient)
    const std::function<VecN<N>(const VecN<N>&)> grad = [&](const VecN<N>& p) {
      return VecN<N>(cond(unflatten(p)).grad.col(m));
    };
    EXPECT_LT((fd_error<N, N>(grad, q, c.hess[m])), 1e-5) << what << ": d2C/dx2, component " << m;
    EXPECT_LT((c.hess[m] - c.hess[m].transpose()).norm(), 1e-9 * c.hess[m].norm()) << what;
  }
}

// Element checks: force = -dE/dx and elastic dfdx = d(force)/dx (no velocity), elastic dfdx
// symmetric; dfdv = d(force)/dv exactly; the damping part of dfdx is eq. 12 minus exactly the
// non-symmetric term -k_d dC/dx (dC_dot/dx)^T that the paper drops. k_scale: the element's factor
// on k and k_d (1 / a for stretch and shear, weight * scale for bend).
template <int N, int M>
void check_element(const std::function<ElementEval<N>(const std::vector<Vec3>&, const std::vector<Vec3>&,
                                                      double, double)>& eval,
                   const std::function<Condition<N, M>(const std::vector<Vec3>&)>& cond,
                   double k_scale, const VecN<N>& q, const VecN<N>& vel, const std::string& what) {
  const double k = 3.0, kd = 0.7;
  const std::vector<Vec3> x = unflatten(q), v = unflatten(vel), v0(N / 3, Vec3::Zero());

  const ElementEval<N> el = eval(x, v0, k, 0.0);
  const std::function<Eigen::Matrix<double, 1, 1>(const VecN<N>&)> energy = [&](const VecN<N>& p) {
    return Eigen::Matrix<double, 1, 1>(eval(unflatten(p), v0, k, 0.0).energy);
  };
  EXPECT_LT((fd_error<N, 1>(energy, q, -el.force.transpose())), 1e-6) << what << ": force vs energy";
  const std::function<VecN<N>(const VecN<N>&)> force = [&](const VecN<N>& p) {
    return eval(unflatten(p), v0, k, 0.0).force;
  };
  EXPECT_LT((fd_error<N, N>(force, q, el.dfdx)), 1e-5) << what << ": elastic dfdx vs force";
  EXPECT_LT((el.dfdx - el.dfdx.transpose()).norm(), 1e-9 * el.dfdx.norm()) << what;
  EXPECT_TRUE(el.dfdv.isZero(0)) << what;

  // Damping alone (k = 0): the force is linear in v, so the central difference is exact.
  const ElementEval<N> dm = eval(x, v, 0.0, kd);
  EXPECT_EQ(dm.energy, 0.0);
  const std::function<VecN<N>(const VecN<N>&)> damp_v = [&](const VecN<N>& p) {
    return eval(x, unflatten(p), 0.0, kd).force;
  };
  EXPECT_LT((fd_error<N, N>(damp_v, vel, dm.dfdv)), 1e-7) << what << ": dfdv";
  EXPECT_LT((dm.dfdv - dm.dfdv.transpose()).norm(), 1e-12 * dm.dfdv.norm()) << what;
  const Condition<N, M> c = cond(x);
  MatN<N> dropped = MatN<N>::Zero();
  for (int m = 0; m < M; ++m) dropped -= k_scale * kd * c.grad.col(m) * (c.hess[m] * vel).transpose();
  const std::function<VecN<N>(const VecN<N>&)> damp_x = [&](const VecN<N>& p) {
    return eval(unflatten(p), v, 0.0, kd).force;
  };
  EXPECT_LT((fd_error<N, N>(damp_x, q, MatN<N>(dm.dfdx + dropped))), 1e-5) << what << ": damping dfdx";
  EXPECT_LT((dm.dfdx - dm.dfdx.transpose()).norm(), 1e-9 * dm.dfdx.norm()) << what;
  // Damping never adds energy: v . d = -k_d |C_dot|^2 <= 0.
  EXPECT_LE(vel.dot(dm.force), 1e-12 * vel.norm() * dm.force.norm()) << what;
}

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

// A triangle element over local vertices 0, 1, 2 with random rest (u, v); every third one is
// thin in (u, v) (height / base 1e-1 .. 1e-3).
StretchShearTriangle random_triangle(std::mt19937& rng, int trial) {
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  RestMesh mesh;
  mesh.positions.assign(3, Vec3::Zero());
  mesh.uv = {Vec2(u(rng), u(rng)), Vec2(u(rng), u(rng)), Vec2(u(rng), u(rng))};
  if (trial % 3 == 2) {
    const double thin = std::pow(10.0, -1.0 - 2.0 * std::uniform_real_distribution<double>(0, 1)(rng));
    const Vec2 d = mesh.uv[1] - mesh.uv[0];
    mesh.uv[2] = mesh.uv[0] + 0.4 * d + thin * Vec2(-d.y(), d.x());
  }
  mesh.triangles = {{0, 1, 2}};
  return build_stretch_shear(mesh).at(0);
}

// World positions for a triangle: random, or (every third from trial 1) nearly collinear.
VecN<9> random_triangle_positions(std::mt19937& rng, int trial) {
  std::vector<Vec3> x = {random_vec(rng, 0.1), random_vec(rng, 0.1), random_vec(rng, 0.1)};
  if (trial % 3 == 1) x[2] = 0.3 * x[0] + 0.7 * x[1] + 1e-3 * random_vec(rng, 0.1);
  return flatten<9>(x);
}

TEST(BWStretch, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(1998);
  for (int trial = 0; trial < 60; ++trial) {
    const StretchShearTriangle t = random_triangle(rng, trial);
    const double b_u = 0.8 + 0.4 * std::uniform_real_distribution<double>(0, 1)(rng), b_v = 1.1;
    const VecN<9> q = random_triangle_positions(rng, trial);
    const VecN<9> vel = flatten<9>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
    const std::string what = "stretch trial " + std::to_string(trial);
    const std::function<Condition<9, 2>(const std::vector<Vec3>&)> cond = [&](const std::vector<Vec3>& x) {
      return stretch_condition(t, x, b_u, b_v);
    };
    check_condition<9, 2>(cond, q, what);
    check_element<9, 2>([&](const std::vector<Vec3>& x, const std::vector<Vec3>& v, double k, double kd) {
      return eval_stretch(t, x, v, k, b_u, b_v, kd);
    }, cond, 1 / t.area, q, vel, what);
  }
}

TEST(BWShear, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(1999);
  for (int trial = 0; trial < 60; ++trial) {
    const StretchShearTriangle t = random_triangle(rng, trial);
    const VecN<9> q = random_triangle_positions(rng, trial);
    const VecN<9> vel = flatten<9>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
    const std::string what = "shear trial " + std::to_string(trial);
    const std::function<Condition<9, 1>(const std::vector<Vec3>&)> cond = [&](const std::vector<Vec3>& x) {
      return shear_condition(t, x);
    };
    check_condition<9, 1>(cond, q, what);
    check_element<9, 1>([&](const std::vector<Vec3>& x, const std::vector<Vec3>& v, double k, double kd) {
      return eval_shear(t, x, v, k, kd);
    }, cond, 1 / t.area, q, vel, what);
  }
}

// Hinge over local vertices 0..3: random wings, some thin (opposite vertex 1e-2..1e-3 of the edge
// length from the edge line), some folded to within 1e-3..1e-2 rad of theta = +-pi.
VecN<12> random_hinge(std::mt19937& rng, int trial) {
  std::uniform_real_distribution<double> u01(0, 1);
  const Vec3 x0 = random_vec(rng, 0.1), x1 = x0 + Vec3(0.05 + 0.1 * u01(rng), 0, 0);
  const Vec3 e = x1 - x0;
  const double len = e.norm();
  const auto wing = [&](double angle, double height) -> Vec3 {
    return x0 + (-0.2 + 1.4 * u01(rng)) * e + height * Vec3(0, std::cos(angle), std::sin(angle));
  };
  const double h2 = len * (0.3 + u01(rng)), phi2 = 2 * std::numbers::pi * u01(rng);
  double h3 = len * (0.3 + u01(rng)), phi3 = 2 * std::numbers::pi * u01(rng);
  if (trial % 4 == 1) h3 = len * std::pow(10.0, -2.0 - u01(rng));  // thin wing
  if (trial % 4 == 2) {  // nearly folded shut: x3's wing almost on top of x2's
    phi3 = phi2 + (u01(rng) < 0.5 ? -1 : 1) * std::pow(10.0, -2.0 - u01(rng));
  }
  // Rotate the whole hinge randomly so that the edge is not axis-aligned.
  std::normal_distribution<double> g;
  const Eigen::Matrix3d rot =
      Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
  return flatten<12>({rot * x0, rot * x1, rot * wing(phi2, h2), rot * wing(phi3, h3)});
}

BendEdge local_bend_edge(double rest_angle) {
  BendEdge be;
  be.v = {0, 1, 2, 3};
  be.rest_angle = rest_angle;
  be.weight = 1.3;
  be.scale = 2.0;
  return be;
}

TEST(BWBend, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(2003);
  int near_pi = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const VecN<12> q = random_hinge(rng, trial);
    const BendEdge be = local_bend_edge(trial % 2 ? 0.0 : 0.4);
    const Condition<12, 1> c0 = bend_condition(local_bend_edge(0), unflatten(q));
    const double theta = c0.value[0];
    if (std::numbers::pi - std::abs(theta) < 0.02) ++near_pi;
    const VecN<12> vel = flatten<12>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
    const std::string what = "bend trial " + std::to_string(trial) + " theta " + std::to_string(theta);
    const std::function<Condition<12, 1>(const std::vector<Vec3>&)> cond = [&](const std::vector<Vec3>& x) {
      return bend_condition(be, x);
    };
    check_condition<12, 1>(cond, q, what);
    check_element<12, 1>([&](const std::vector<Vec3>& x, const std::vector<Vec3>& v, double k, double kd) {
      return eval_bend(be, x, v, k, kd);
    }, cond, be.weight * be.scale, q, vel, what);
  }
  EXPECT_GE(near_pi, 10);  // the folded cases really were near +-pi
}

// bend_hessian_block (vertex block descent's curvature blocks) is bend_condition's Hessian block at
// that vertex, bit for bit, on the same random, thin and nearly folded hinges, at every slot. Both
// add the same per-wing blocks; DerivativesMatchFiniteDifferences holds the whole Hessian, hence
// those blocks, against central differences, and this test the block's own slot indexing.
TEST(BWBend, HessianBlockIsTheFullHessiansDiagonalBlock) {
  std::mt19937 rng(2003);
  for (int trial = 0; trial < 80; ++trial) {
    const std::vector<Vec3> x = unflatten(random_hinge(rng, trial));
    const BendEdge be = local_bend_edge(trial % 2 ? 0.0 : 0.4);
    const MatN<12> full = bend_condition(be, x).hess[0];
    for (int slot = 0; slot < 4; ++slot) {
      const Eigen::Matrix3d expected = full.block<3, 3>(3 * slot, 3 * slot);
      ASSERT_GT(expected.norm(), 0) << trial;
      EXPECT_EQ(bend_hessian_block(be, x, slot), expected) << "trial " << trial << " slot " << slot;
    }
  }
}

// theta is signed (sec. 4.3) and exact: a hinge opened to a known angle reads it back.
TEST(BWBend, SignedAngleOfKnownHinge) {
  for (double phi : {-3.1, -2.0, -0.5, 0.0, 0.3, 1.5, 3.1}) {
    // Wing A in the +y half of the xy plane; wing B starts flat in -y and turns by phi about x.
    const std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.4, 0.7, 0),
                                 Vec3(0.6, -0.8 * std::cos(phi), -0.8 * std::sin(phi))};
    // n_B is n_A turned by phi about e_hat = +x: theta = phi, sign included.
    EXPECT_NEAR(bend_condition(local_bend_edge(0), x).value[0], phi, 1e-12);
  }
  // C wraps into [-pi, pi] around a non-zero rest angle: no jump of 2 pi across the fold.
  const auto hinge_at = [](double phi) {
    return std::vector<Vec3>{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.4, 0.7, 0),
                             Vec3(0.6, -0.8 * std::cos(phi), -0.8 * std::sin(phi))};
  };
  const double near_pi = bend_condition(local_bend_edge(0), hinge_at(3.0)).value[0];
  BendEdge wrapped = local_bend_edge(near_pi);
  EXPECT_NEAR(bend_condition(wrapped, hinge_at(-3.0)).value[0],
              std::remainder(-near_pi - near_pi, 2 * std::numbers::pi), 1e-12);
  EXPECT_LT(std::abs(bend_condition(wrapped, hinge_at(-3.0)).value[0]), 0.3);
}

TEST(BWProjectPsd, ClampsNegativeEigenvaluesAndKeepsPsdInput) {
  std::mt19937 rng(5);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 30; ++trial) {
    MatN<9> a;
    for (int i = 0; i < 81; ++i) a(i) = g(rng);
    const MatN<9> sym = a + a.transpose();
    const MatN<9> p = project_psd<9>(sym);
    EXPECT_LT((p - p.transpose()).norm(), 1e-12 * p.norm());
    const Eigen::SelfAdjointEigenSolver<MatN<9>> eig(p);
    EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-12 * p.norm());
    // Same eigenvectors; positive eigenvalues kept, negative ones set to zero.
    const Eigen::SelfAdjointEigenSolver<MatN<9>> in(sym);
    const VecN<9> lambda = in.eigenvalues();
    EXPECT_LT(lambda.minCoeff(), 0.0);  // a random symmetric 9x9 is indefinite
    for (int i = 0; i < 9; ++i) {
      const VecN<9> q = in.eigenvectors().col(i);
      EXPECT_LT((p * q - std::max(lambda[i], 0.0) * q).norm(), 1e-12 * sym.norm());
    }
    const MatN<9> psd = a * a.transpose();
    EXPECT_LT((project_psd<9>(psd) - psd).norm(), 1e-12 * psd.norm());
  }
  // A real element: -dfdx of a compressed, bent hinge is indefinite; its projection is PSD.
  const std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.4, 0.7, 0.1), Vec3(0.6, -0.6, 0.5)};
  const std::vector<Vec3> v(4, Vec3::Zero());
  const MatN<12> hess = -eval_bend(local_bend_edge(0), x, v, 1.0, 0.0).dfdx;
  EXPECT_LT(Eigen::SelfAdjointEigenSolver<MatN<12>>(hess).eigenvalues().minCoeff(), -1e-3);
  const MatN<12> p = project_psd<12>(hess);
  EXPECT_GE(Eigen::SelfAdjointEigenSolver<MatN<12>>(p).eigenvalues().minCoeff(), -1e-12 * p.norm());
}

// project_psd<3> takes Eigen's closed-form eigensolver (vertex block descent's 3 x 3 blocks): the
// same projection as the iterative one of the larger sizes to its documented accuracy (~1e-8 of
// the largest eigenvalue; held at 1e-7), on random indefinite matrices, on matrices with two
// nearly equal eigenvalues (where the closed form's eigenvectors are least accurate) of either
// sign, on a rank-one negative matrix (its two zero eigenvalues come out ~1e-8 of its norm, of
// either sign), a semidefinite one (unchanged) and a non-finite one (returned as it is, for the
// blow-up guard to meet).
TEST(BWProjectPsd, ThreeByThreeClosedFormIsTheIterativeProjection) {
  using Mat3 = Eigen::Matrix3d;
  const auto iterative = [](const Mat3& m) {
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(m);
    return Mat3(eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).asDiagonal() * eig.eigenvectors().transpose());
  };
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  const auto rotation = [&] {
    Mat3 a;
    for (int i = 0; i < 9; ++i) a(i) = g(rng);
    return Mat3(Eigen::HouseholderQR<Mat3>(a).householderQ());
  };
  double worst = 0;
  const auto check = [&](const Mat3& m, const std::string& what) {
    const double error = (project_psd<3>(m) - iterative(m)).norm() / m.norm();
    EXPECT_LT(error, 1e-7) << what;
    worst = std::max(worst, error);
  };
  for (int trial = 0; trial < 200; ++trial) {
    Mat3 a;
    for (int i = 0; i < 9; ++i) a(i) = g(rng);
    check(a + a.transpose(), "random " + std::to_string(trial));
    const Mat3 q = rotation();
    const double split = std::pow(10.0, -2 - trial % 10);  // 1e-2 ... 1e-11 apart
    for (const double sign : {1.0, -1.0}) {
      const Eigen::Vector3d lambda(sign, sign * (1 + split), -0.5 * sign);
      check(q * lambda.asDiagonal() * q.transpose(), "near-repeated " + std::to_string(trial));
    }
    const Eigen::Vector3d n = Eigen::Vector3d(g(rng), g(rng), g(rng)).normalized();
    const Mat3 rank_one = -(1 + trial) * n * n.transpose();
    check(rank_one, "rank one " + std::to_string(trial));
    EXPECT_LT(project_psd<3>(rank_one).norm(), 1e-7 * rank_one.norm()) << "rank one " << trial;
    const Mat3 psd = a * a.transpose();
    check(psd, "semidefinite " + std::to_string(trial));
    EXPECT_LT((project_psd<3>(psd) - psd).norm(), 1e-7 * psd.norm()) << "semidefinite " << trial;
  }
  std::printf("closed form against iterative projection: largest relative difference %.2g\n", worst);
  Mat3 broken = Mat3::Identity();
  broken(1, 2) = broken(2, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(project_psd<3>(broken).hasNaN()) << "a NaN is passed on, not hidden";
}

// The implicit step's stretch stiffness (bw_stretch_shear.cpp) split into a 2 x 2 and a 4 x 4
// eigenproblem: the projection of the exact one, on random and thin triangles in tension, in
// compression along one or both directions, with damping alone (no stretch stiffness), with w_u or
// w_v of length zero, and with the two parallel or nearly so.
TEST(BWStretch, StructuredDefiniteStiffnessIsTheProjection) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-1, 1);
  double worst = 0;
  // Whether the exact stiffness was indefinite (what the projection had to repair).
  const auto check = [&](const StretchShearTriangle& t, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                         double k_stretch, double b_u, double b_v, double kd, const std::string& what) {
    const ElementEval<9> plain = eval_stretch(t, x, v, k_stretch, b_u, b_v, kd);
    const ElementEval<9> definite = eval_stretch_definite(t, x, v, k_stretch, b_u, b_v, kd);
    EXPECT_EQ(definite.energy, plain.energy) << what;
    EXPECT_EQ(definite.force, plain.force) << what;
    EXPECT_EQ(definite.dfdv, plain.dfdv) << what;
    const MatN<9> expected = -project_psd<9>(-plain.dfdx);
    const double scale = std::max(plain.dfdx.cwiseAbs().maxCoeff(), 1e-300);
    const double error = (definite.dfdx - expected).cwiseAbs().maxCoeff() / scale;
    EXPECT_LT(error, 1e-10) << what;
    worst = std::max(worst, error);
    return Eigen::SelfAdjointEigenSolver<MatN<9>>(-plain.dfdx).eigenvalues().minCoeff() < -1e-9 * scale;
  };
  std::array<int, 3> compressed{};  // triangles by how many of |w_u| < b_u, |w_v| < b_v hold
  for (int trial = 0; trial < 300; ++trial) {
    const StretchShearTriangle t = random_triangle(rng, trial);
    const std::vector<Vec3> x = unflatten(random_triangle_positions(rng, trial));
    std::vector<Vec3> v(3);
    for (Vec3& vi : v) vi = trial % 4 == 0 ? Vec3::Zero() : Vec3(u(rng), u(rng), u(rng));
    const double kd = trial % 3 == 0 ? 0.0 : 0.5;
    // Rest stretch around the current one: each direction stretched or compressed.
    const std::array<Vec3, 2> w = stretch_vectors(t, x);
    const double b_u = w[0].norm() * (1 + 0.5 * u(rng)), b_v = w[1].norm() * (1 + 0.5 * u(rng));
    const bool indefinite = check(t, x, v, 100.0, b_u, b_v, kd, "trial " + std::to_string(trial));
    const int n_neg = int(w[0].norm() < b_u) + int(w[1].norm() < b_v);
    ++compressed[size_t(n_neg)];
    if (kd == 0) {
      EXPECT_EQ(indefinite, n_neg > 0) << "trial " << trial;  // without damping, sigma's sign is C's
    }
  }
  EXPECT_GE(compressed[0], 40);
  EXPECT_GE(compressed[1], 100);
  EXPECT_GE(compressed[2], 40);
  // Damping alone: sigma_m = k_d C_dot_m a / |w_m|, negative where the triangle is being compressed.
  int damped_indefinite = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const StretchShearTriangle t = random_triangle(rng, trial);
    const std::vector<Vec3> x = unflatten(random_triangle_positions(rng, trial));
    const std::vector<Vec3> v = {random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)};
    damped_indefinite += check(t, x, v, 0.0, 1.0, 1.0, 0.5, "damping only, trial " + std::to_string(trial));
  }
  EXPECT_GE(damped_indefinite, 20);
  // Special shapes on a rest right triangle (0,0), (0.1,0), (0,0.1) with b = 1: positions that
  // depend on v only (w_u = 0, |w_v| = 0.8), the whole triangle on one point (w_u = w_v = 0), w_u
  // parallel to w_v (|w| = 0.5, 0.7), and 1.4e-8 rad apart.
  RestMesh mesh;
  mesh.positions.assign(3, Vec3::Zero());
  mesh.uv = {Vec2(0, 0), Vec2(0.1, 0), Vec2(0, 0.1)};
  mesh.triangles = {{0, 1, 2}};
  const StretchShearTriangle right = build_stretch_shear(mesh).at(0);
  const std::vector<Vec3> still(3, Vec3::Zero());
  const std::vector<Vec3> moving = {Vec3(0.3, -0.2, 0.1), Vec3(-0.1, 0.4, 0.2), Vec3(0.2, 0.1, -0.5)};
  for (const std::vector<Vec3>& v : {still, moving}) {
    for (const double k_stretch : {100.0, 0.0}) {
      const std::string what = std::string(v == still ? "still" : "moving") + ", k " + std::to_string(k_stretch);
      const bool compressed_still = v == still && k_stretch > 0;  // sigma = k C < 0 in a compressed direction
      EXPECT_EQ(check(right, {Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 0, 0.08)}, v, k_stretch, 1, 1, 0.5, "w_u = 0, " + what),
                compressed_still || v == moving);
      check(right, {Vec3(0.1, 0.2, 0.3), Vec3(0.1, 0.2, 0.3), Vec3(0.1, 0.2, 0.3)}, v, k_stretch, 1, 1, 0.5,
            "w = 0 (K = 0, no NaN), " + what);
      EXPECT_EQ(check(right, {Vec3(0, 0, 0), Vec3(0.05, 0, 0), Vec3(0.07, 0, 0)}, v, k_stretch, 1, 1, 0.5,
                      "w_u parallel to w_v, " + what),
                compressed_still || v == moving);
      EXPECT_EQ(check(right, {Vec3(0, 0, 0), Vec3(0.05, 0, 0), Vec3(0.07, 0, 1e-9)}, v, k_stretch, 1, 1, 0.5,
                      "w_u nearly parallel to w_v, " + what),
                compressed_still || v == moving);
    }
  }
  EXPECT_LT(worst, 1e-10);
}

TEST(BWShear, ClosedFormDefiniteStiffnessIsTheProjection) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  double worst = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const StretchShearTriangle t = random_triangle(rng, trial);
    const std::vector<Vec3> x = unflatten(random_triangle_positions(rng, trial));
    std::vector<Vec3> v(3);
    for (Vec3& vi : v) vi = trial % 4 == 0 ? Vec3::Zero() : Vec3(u(rng), u(rng), u(rng));
    const double kd = trial % 3 == 0 ? 0.0 : 0.5;
    const ElementEval<9> plain = eval_shear(t, x, v, 100.0, kd);
    const ElementEval<9> definite = eval_shear_definite(t, x, v, 100.0, kd);
    EXPECT_EQ(definite.force, plain.force);
    EXPECT_EQ(definite.dfdv, plain.dfdv);
    const MatN<9> expected = -project_psd<9>(-plain.dfdx);
    worst = std::max(worst, (definite.dfdx - expected).cwiseAbs().maxCoeff() / plain.dfdx.cwiseAbs().maxCoeff());
  }
  EXPECT_LT(worst, 1e-12);
  // At rest (C = 0, no velocity) K = k g g^T is already PSD: the projection keeps it.
  const StretchShearTriangle t = random_triangle(rng, 0);
  const std::vector<Vec3> rest = {Vec3(0, 0, 0), Vec3(t.du1, 0, t.dv1), Vec3(t.du2, 0, t.dv2)};
  const std::vector<Vec3> still(3, Vec3::Zero());
  const MatN<9> k_rest = eval_shear(t, rest, still, 100.0, 0.5).dfdx;
  EXPECT_LT((eval_shear_definite(t, rest, still, 100.0, 0.5).dfdx - k_rest).norm(), 1e-12 * k_rest.norm());
}

// The implicit step's bend stiffness (bw_bend.cpp): exact energy, force and dfdv; dfdx the exact
// one without its -(k C + k_d C_dot) d2C/dx2 term (Gauss-Newton, rank one) at small effective
// angles, the projected exact one beyond; negative semidefinite either way, on random, thin and
// folded hinges where the exact dfdx is indefinite.
TEST(BWBend, DefiniteStiffnessIsGaussNewtonAtSmallAnglesElseTheProjection) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  int gauss_newton = 0, projected = 0, indefinite = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const std::vector<Vec3> x = unflatten(random_hinge(rng, trial));
    const bool small = trial % 2 == 0;  // rest angle within 0.05 rad of theta, slow
    const std::vector<Vec3> v = {random_vec(rng, small ? 0.01 : 1), random_vec(rng, small ? 0.01 : 1),
                                 random_vec(rng, small ? 0.01 : 1), random_vec(rng, small ? 0.01 : 1)};
    const double theta = bend_condition(local_bend_edge(0), x).value[0];
    const BendEdge be = local_bend_edge(small ? theta + 0.05 * u(rng) : 0.4 * (trial % 3));
    const double k = 0.7, kd = trial % 3 == 0 ? 0.0 : 0.05;
    const ElementEval<12> exact = eval_bend(be, x, v, k, kd);
    const ElementEval<12> definite = eval_bend_definite(be, x, v, k, kd);
    EXPECT_EQ(definite.energy, exact.energy);
    EXPECT_EQ(definite.force, exact.force);
    EXPECT_EQ(definite.dfdv, exact.dfdv);
    const Condition<12, 1> c = bend_condition(be, x);
    const double c_dot = c.grad.col(0).dot(flatten<12>(v));
    const double s = be.weight * be.scale;
    if (std::abs(c.value[0] + kd / k * c_dot) <= kBendGaussNewtonAngle) {
      ++gauss_newton;
      const MatN<12> hessian_term = -s * (k * c.value[0] + kd * c_dot) * c.hess[0];
      EXPECT_LT((exact.dfdx - hessian_term - definite.dfdx).norm(), 1e-12 * exact.dfdx.norm());
      const VecN<12> lambda = Eigen::SelfAdjointEigenSolver<MatN<12>>(definite.dfdx).eigenvalues();
      EXPECT_LT(std::abs(lambda[1]), 1e-12 * definite.dfdx.norm()) << "rank one";
    } else {
      ++projected;
      EXPECT_LT((definite.dfdx + project_psd<12>(-exact.dfdx)).norm(), 1e-10 * exact.dfdx.norm());
    }
    EXPECT_LE(Eigen::SelfAdjointEigenSolver<MatN<12>>(definite.dfdx).eigenvalues().maxCoeff(),
              1e-12 * definite.dfdx.norm());
    if (Eigen::SelfAdjointEigenSolver<MatN<12>>(exact.dfdx).eigenvalues().maxCoeff() > 1e-6 * exact.dfdx.norm()) {
      ++indefinite;
    }
  }
  EXPECT_GE(gauss_newton, 50);
  EXPECT_GE(projected, 50);
  EXPECT_GE(indefinite, 100);  // what either has to repair
}

RestMesh bw_grid(int nx, int ny, double width, double height) {
  GridSpec spec;
  spec.nx = nx;
  spec.ny = ny;
  spec.width = width;
  spec.height = height;
  spec.plane = GridPlane::XZ;
  return make_grid(spec);
}

struct Totals {
  double energy = 0;
  double max_force = 0;
};

Totals sum_all(const RestMesh& mesh, const std::vector<Vec3>& x) {
  const std::vector<Vec3> v(x.size(), Vec3::Zero());
  Totals tot;
  std::vector<Vec3> f(x.size(), Vec3::Zero());
  for (const auto& t : build_stretch_shear(mesh)) {
    const ElementEval<9> s = eval_stretch(t, x, v, 1000.0, 1.0, 1.0, 0.1);
    const ElementEval<9> h = eval_shear(t, x, v, 100.0, 0.1);
    tot.energy += s.energy + h.energy;
    for (int i = 0; i < 3; ++i) f[t.v[i]] += (s.force + h.force).segment<3>(3 * i);
  }
  for (const auto& e : build_bend_edges(mesh)) {
    const ElementEval<12> b = eval_bend(e, x, v, 1e-3, 1e-4);
    tot.energy += b.energy;
    for (int i = 0; i < 4; ++i) f[e.v[i]] += b.force.segment<3>(3 * i);
  }
  for (const Vec3& fi : f) tot.max_force = std::max(tot.max_force, fi.norm());
  return tot;
}

TEST(BWRest, ZeroAtRestAndUnderRigidMotion) {
  const RestMesh flat = bw_grid(6, 5, 0.5, 0.4);
  const Totals rest = sum_all(flat, flat.positions);
  EXPECT_LT(rest.energy, 1e-25);  // round-off of the grid coordinates only
  EXPECT_LT(rest.max_force, 1e-12);

  const Eigen::Matrix3d rot = Eigen::AngleAxisd(1.1, Vec3(0.3, -0.5, 0.8).normalized()).toRotationMatrix();
  const Vec3 shift(3.0, -2.0, 0.7);
  const auto rigid = [&](const std::vector<Vec3>& x) {
    std::vector<Vec3> out;
    for (const Vec3& p : x) out.push_back(rot * p + shift);
    return out;
  };
  std::vector<Vec3> moved = rigid(flat.positions);
  const Totals after = sum_all(flat, moved);
  EXPECT_LT(after.energy, 1e-20);
  EXPECT_LT(after.max_force, 1e-9);
  // The same sums do see a deformation.
  moved[7] += Vec3(1e-3, 2e-3, -1e-3);
  EXPECT_GT(sum_all(flat, moved).max_force, 1e-3);

  // A curved rest shape gives non-zero rest angles; moved rigidly, no hinge feels anything.
  RestMesh curved = flat;
  std::mt19937 rng(11);
  for (Vec3& p : curved.positions) p.y() += 0.02 * std::uniform_real_distribution<double>(-1, 1)(rng);
  const std::vector<BendEdge> edges = build_bend_edges(curved);
  double max_rest = 0;
  for (const auto& e : edges) max_rest = std::max(max_rest, std::abs(e.rest_angle));
  EXPECT_GT(max_rest, 0.05);
  const std::vector<Vec3> curved_moved = rigid(curved.positions);
  const std::vector<Vec3> v(curved_moved.size(), Vec3::Zero());
  for (const auto& e : edges) {
    const ElementEval<12> b = eval_bend(e, curved_moved, v, 1e-3, 1e-4);
    EXPECT_LT(b.energy, 1e-30);
    EXPECT_LT(b.force.norm(), 1e-13);
  }
}

TEST(BWContinuum, UniformStretchAndShearGiveMembraneEnergy) {
  // One grid cell (two triangles) in the XZ plane: u along x, v along z.
  const RestMesh mesh = bw_grid(2, 2, 0.3, 0.2);
  const double area = 0.3 * 0.2, young = 2500.0, shear_mod = 80.0;
  const auto tris = build_stretch_shear(mesh);
  const std::vector<Vec3> v(mesh.positions.size(), Vec3::Zero());
  for (double s : {0.9, 1.0, 1.05, 1.5}) {
    std::vector<Vec3> x = mesh.positions;
    for (Vec3& p : x) p.x() *= s;
    double stretch = 0, shear = 0;
    for (const auto& t : tris) {
      stretch += eval_stretch(t, x, v, young, 1.0, 1.0, 0.0).energy;
      shear += eval_shear(t, x, v, shear_mod, 0.0).energy;
    }
    EXPECT_NEAR(stretch, 0.5 * young * (s - 1) * (s - 1) * area, 1e-12 * young * area) << s;
    EXPECT_NEAR(shear, 0.0, 1e-15);
    // b_u = s is the new rest length along u (eq. 10): no stretch energy left.
    double seek = 0;
    for (const auto& t : tris) seek += eval_stretch(t, x, v, young, s, 1.0, 0.0).energy;
    EXPECT_NEAR(seek, 0.0, 1e-12 * young * area);
  }
  // Simple shear x += gamma z: w_u = (1, 0, 0), w_v = (gamma, 0, 1), so w_u . w_v = gamma.
  for (double gamma : {-0.2, 0.05, 0.3}) {
    std::vector<Vec3> x = mesh.positions;
    for (Vec3& p : x) p.x() += gamma * p.z();
    double shear = 0;
    for (const auto& t : tris) shear += eval_shear(t, x, v, shear_mod, 0.0).energy;
    EXPECT_NEAR(shear, 0.5 * shear_mod * gamma * gamma * area, 1e-12 * shear_mod * area) << gamma;
  }
}

// Wraps a flat mesh onto a cylinder of radius R whose axis makes angle `axis` with the u axis
// (pi/2: axis along v, the u lines curve), and returns the total bend energy.
double cylinder_bend_energy(const RestMesh& mesh, double radius, double axis, double k_u, double k_v,
                            double bending) {
  const Vec2 along(std::cos(axis), std::sin(axis)), across(std::sin(axis), -std::cos(axis));
  std::vector<Vec3> x;
  for (const Vec2& uv : mesh.uv) {
    const double phi = uv.dot(across) / radius;
    x.push_back(radius * std::sin(phi) * Vec3(across.x(), 0, across.y()) +
                radius * (1 - std::cos(phi)) * Vec3::UnitY() + uv.dot(along) * Vec3(along.x(), 0, along.y()));
  }
  const std::vector<Vec3> v(x.size(), Vec3::Zero());
  double energy = 0;
  for (const auto& e : build_bend_edges(mesh, k_u, k_v)) energy += eval_bend(e, x, v, bending, 0.0).energy;
  return energy;
}

TEST(BWContinuum, CylinderBendEnergyIsHalfBKappaSquaredPerArea) {
  // Fine, non-square cells; the sheet is wrapped round half of a cylinder.
  const double width = 1.0, height = 0.7, radius = 0.35, bending = 2e-3;
  const RestMesh mesh = bw_grid(121, 91, width, height);
  const double expected = 0.5 * bending / (radius * radius) * width * height;
  const double pi = std::numbers::pi;
  for (double axis : {pi / 2, 0.0}) {
    const double e = cylinder_bend_energy(mesh, radius, axis, 1.0, 1.0, bending);
    // The outermost column of cells has no hinge across it (1 of 120 or 90): within 1.5%.
    EXPECT_NEAR(e / expected, 1.0, 0.015) << "axis at " << axis;
    // Exactly, each hinge turns by h / R and carries 1/2 B (h / R)^2 h_u h_v / h^2 over its cells.
    const int cells = axis == 0.0 ? 90 : 120;
    EXPECT_NEAR(e / (expected * (cells - 1) / cells), 1.0, 1e-9) << "axis at " << axis;
  }
  // Anisotropy of sec. 4.3: k_u weights creases along u, i.e. the cylinder whose axis is along u.
  const double ku = 3.0, kv = 0.5;
  EXPECT_NEAR(cylinder_bend_energy(mesh, radius, 0.0, ku, kv, bending) /
                  cylinder_bend_energy(mesh, radius, 0.0, 1, 1, bending), ku, 1e-9);
  EXPECT_NEAR(cylinder_bend_energy(mesh, radius, pi / 2, ku, kv, bending) /
                  cylinder_bend_energy(mesh, radius, pi / 2, 1, 1, bending), kv, 1e-9);
}

// The same calibration holds on an equilateral mesh (not the grid it was derived on), in any
// direction: the per-edge scale is not tuned to one mesh.
TEST(BWContinuum, CylinderBendEnergyOnEquilateralMesh) {
  const int n = 60;
  const double side = 1.0 / n, row = side * std::sqrt(3.0) / 2, radius = 0.4, bending = 1e-3;
  RestMesh mesh;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) {
      const Vec2 uv(i * side + (j % 2) * side / 2, j * row);
      mesh.uv.push_back(uv);
      mesh.positions.push_back(Vec3(uv.x(), 0, uv.y()));
    }
  }
  const auto id = [](int i, int j) { return j * (n + 1) + i; };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      if (j % 2 == 0) {
        mesh.triangles.push_back({id(i, j), id(i + 1, j), id(i, j + 1)});
        mesh.triangles.push_back({id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
      } else {
        mesh.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
        mesh.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      }
    }
  }
  double area = 0;
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) area += rest_area(mesh, t);
  const double expected = 0.5 * bending / (radius * radius) * area;
  for (double axis : {0.0, 0.3, std::numbers::pi / 4, std::numbers::pi / 2, 2.0}) {
    const double e = cylinder_bend_energy(mesh, radius, axis, 1.0, 1.0, bending);
    EXPECT_NEAR(e / expected, 1.0, 0.025) << "axis at " << axis;
  }
}

TEST(BWBuild, ElementsAndRejection) {
  const RestMesh mesh = bw_grid(4, 3, 0.3, 0.2);
  const auto tris = build_stretch_shear(mesh);
  ASSERT_EQ(tris.size(), mesh.triangles.size());
  for (const auto& t : tris) EXPECT_NEAR(t.area, 0.5 * 0.1 * 0.1, 1e-15);
  // Interior edges of a w x h grid with one diagonal per cell: 3(w-1)(h-1) - (w-1) - (h-1).
  EXPECT_EQ(build_bend_edges(mesh).size(), 3u * 3 * 2 - 3 - 2);
  for (const auto& e : build_bend_edges(mesh, 2.0, 4.0)) {
    const Vec2 d = mesh.uv[e.v[0]] - mesh.uv[e.v[1]];
    if (std::abs(d.y()) < 1e-12) {
      EXPECT_DOUBLE_EQ(e.weight, 2.0);  // edge along u
    } else if (std::abs(d.x()) < 1e-12) {
      EXPECT_DOUBLE_EQ(e.weight, 4.0);  // edge along v
    } else {
      EXPECT_DOUBLE_EQ(e.weight, 3.0);  // diagonal of a square cell
    }
    EXPECT_EQ(e.rest_angle, 0.0);
    EXPECT_GT(e.scale, 0.0);
  }
  RestMesh bad = mesh;
  bad.uv[mesh.triangles[0][2]] = 0.5 * (bad.uv[mesh.triangles[0][0]] + bad.uv[mesh.triangles[0][1]]);
  EXPECT_THROW(build_stretch_shear(bad), InputError);
}

}  // namespace
}  // namespace cloth
