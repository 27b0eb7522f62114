// Baraff-Witkin's modified PCG (section 5.3) against a direct constrained solve, and its
// invariant: the constrained components of dv equal z after any number of iterations, for each
// preconditioner (diagonal, block-Jacobi, block incomplete Cholesky).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include <Eigen/Eigenvalues>

#include "linalg/constrained_solve.hpp"
#include "linalg/coarse_correction.hpp"
#include "linalg/incomplete_cholesky.hpp"
#include "core/parallel.hpp"

namespace cloth {
namespace {

struct RandomSystem {
  BlockSparseMatrix A;
  std::vector<Vec3> b;
  VertexConstraints c;
  std::vector<Vec3> x = {};  // vertex positions where the system comes from a mesh, else empty
};

// A random SPD block matrix on a chain-plus-random-pairs pattern (or the chain alone): A = sum over pairs of
// G^T G-type 6x6 blocks (PSD) + a positive diagonal (mass), like M - h^2 df/dx.
RandomSystem make_system(int n, unsigned seed, bool random_pairs = true) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i + 1 < n; ++i) pairs.emplace_back(i, i + 1);
  for (int k = 0; random_pairs && k < n; ++k) {
    const int i = static_cast<int>(rng() % n), j = static_cast<int>(rng() % n);
    if (i != j) pairs.emplace_back(i, j);
  }
  RandomSystem s{BlockSparseMatrix(n, pairs), std::vector<Vec3>(n), VertexConstraints(n)};
  for (const auto& [i, j] : pairs) {
    Eigen::Matrix<double, 3, 6> g;
    for (int r = 0; r < 3; ++r) for (int k = 0; k < 6; ++k) g(r, k) = u(rng);
    const Eigen::Matrix<double, 6, 6> block = 10.0 * g.transpose() * g;  // PSD
    s.A.add(i, i, block.topLeftCorner<3, 3>());
    s.A.add(i, j, block.topRightCorner<3, 3>());
    s.A.add(j, i, block.bottomLeftCorner<3, 3>());
    s.A.add(j, j, block.bottomRightCorner<3, 3>());
  }
  s.A.add_diagonal(std::vector<double>(n, 0.5));
  for (int i = 0; i < n; ++i) {
    s.b[i] = Vec3(u(rng), u(rng), u(rng));
    // 0, 1, 2 or 3 constrained axes, along random orthonormal directions.
    const int axes = static_cast<int>(rng() % 4);
    const Eigen::Matrix3d frame =
        Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    if (axes == 3) {
      s.c.fix(i, Vec3(u(rng), u(rng), u(rng)));
    } else {
      for (int a = 0; a < axes; ++a) s.c.constrain_direction(i, frame.col(a), u(rng));
    }
  }
  return s;
}

// Constrained component of dv_i: (I - S_i) dv_i must equal z_i.
double worst_constraint_violation(const RandomSystem& s, const std::vector<Vec3>& dv) {
  double worst = 0;
  for (int i = 0; i < s.A.blocks(); ++i) {
    const Vec3 along = (Eigen::Matrix3d::Identity() - s.c.S[i]) * dv[i];
    worst = std::max(worst, (along - s.c.z[i]).norm());
  }
  return worst;
}

// The preconditioners take a block between two vertices with is_free set as A's own block,
// unfiltered: the flag must say exactly whether S_i is still the identity, whatever constrained it.
TEST(VertexConstraints, FreeFlagsSayWhetherTheFilterIsStillTheIdentity) {
  VertexConstraints c(6);
  c.fix(1, Vec3(0, 1, 0));
  c.constrain_direction(2, Vec3::UnitY(), 0.5);                                  // a contact
  c.constrain_direction(3, Vec3::UnitX(), 0);                                    // a plane ...
  c.constrain_direction(3, Vec3(0, 0.6, 0.8), 0);                                // ... and a line
  c.constrain_direction(4, Vec3::UnitZ(), 0);
  c.constrain_direction(4, Vec3::UnitZ(), 0);  // the same normal again: dropped, S unchanged
  c.constrain_direction(5, Vec3(1, 1, 0).normalized(), 0.1);                     // tilted
  c.constrain_direction(0, Vec3(1e-7, 0, 0), 0.3);  // too short a direction: dropped, still free
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(bool(c.is_free[size_t(i)]), c.S[size_t(i)] == Eigen::Matrix3d::Identity()) << "vertex " << i;
  }
  EXPECT_TRUE(c.is_free[0]);
  EXPECT_EQ(c.S[0], Eigen::Matrix3d::Identity());
  EXPECT_FALSE(c.is_free[5]);
  const VertexConstraints copy = c;  // what a Newton correction reuses
  EXPECT_EQ(copy.is_free, c.is_free);
  c.reset(6);
  EXPECT_EQ(std::count(c.is_free.begin(), c.is_free.end(), 1), 6);
}

TEST(ModifiedPcg, MatchesDirectConstrainedSolve) {
  for (Preconditioner p : {Preconditioner::diagonal, Preconditioner::block_jacobi,
                          Preconditioner::incomplete_cholesky})
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const RandomSystem s = make_system(40, seed);
    std::vector<Vec3> direct, iterative;
    ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
    PcgSettings settings;
    settings.tolerance = 1e-12;
    settings.preconditioner = p;
    const SolveReport r = modified_pcg(s.A, s.b, s.c, settings, iterative);
    EXPECT_TRUE(r.converged) << "seed " << seed;
    const double err = (as_flat(iterative) - as_flat(direct)).norm() / as_flat(direct).norm();
    EXPECT_LT(err, 1e-8) << "seed " << seed << " after " << r.iterations << " iterations";
    // Unconstrained residual components vanish: S (A dv - b) = 0.
    std::vector<Vec3> Adv;
    s.A.multiply(direct, Adv);
    for (int i = 0; i < 40; ++i) EXPECT_LT((s.c.S[i] * (Adv[i] - s.b[i])).norm(), 1e-9);
  }
}

TEST(ModifiedPcg, ConstrainedComponentsEqualZAfterAnyNumberOfIterations) {
  const RandomSystem s = make_system(60, 99);
  for (Preconditioner p : {Preconditioner::diagonal, Preconditioner::block_jacobi,
                          Preconditioner::incomplete_cholesky})
  for (bool warm : {false, true})
  for (int iterations : {0, 1, 2, 5, 50}) {
    PcgSettings settings;
    settings.tolerance = 1e-30;  // (almost) never converges early: run `iterations`
    settings.max_iterations = iterations;
    settings.preconditioner = p;
    settings.warm_start = warm;
    // A warm-start guess that violates every constraint: the solver must still return z there.
    std::vector<Vec3> dv(warm ? 60 : 0, Vec3(0.3, -0.7, 1.1));
    const SolveReport r = modified_pcg(s.A, s.b, s.c, settings, dv);
    // IC converges below 1e-30 on this 60-vertex system in fewer than 50 iterations.
    EXPECT_TRUE(r.iterations == iterations || (r.converged && r.iterations < iterations));
    EXPECT_LT(worst_constraint_violation(s, dv), 1e-14) << iterations << " iterations";
    for (int i = 0; i < 60; ++i) {
      if (s.c.S[i].isZero(0)) {
        EXPECT_EQ(dv[i], s.c.z[i]) << "fully constrained: bit for bit";
      }
    }
  }
}

TEST(ModifiedPcg, WithoutConstraintsItIsPlainPcg) {
  RandomSystem s = make_system(30, 5);
  s.c = VertexConstraints(30);
  std::vector<Vec3> dv;
  PcgSettings settings;
  settings.tolerance = 1e-12;
  settings.preconditioner = Preconditioner::incomplete_cholesky;
  EXPECT_TRUE(modified_pcg(s.A, s.b, s.c, settings, dv).converged);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(s.A.to_eigen());
  const Eigen::VectorXd x = ldlt.solve(as_flat(s.b));
  EXPECT_LT((as_flat(dv) - x).norm() / x.norm(), 1e-8);
}

// A stiff cloth-like system: a w x w grid of vertices in a plane tilted out of the axes, joined by
// axial springs only (stiffness k d d^T: stiff along the edge, nothing across, like B&W stretch),
// A = M + h^2 K with h^2 k / m = 2e3 (cotton at 51 x 51 and dt = 1/60 s is ~5e4), the first row
// fixed and one vertex sliding on a plane. Each vertex's 3 x 3 block is then strongly anisotropic
// and not diagonal, which B&W's diagonal preconditioner cannot see.
RandomSystem stiff_tilted_grid(int w) {
  const int n = w * w;
  const Eigen::Matrix3d frame =
      Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())).toRotationMatrix();
  std::vector<Vec3> x(n);
  for (int j = 0; j < w; ++j) for (int i = 0; i < w; ++i) x[j * w + i] = frame * Vec3(i, j, 0);
  std::vector<std::pair<int, int>> pairs;
  for (int j = 0; j < w; ++j) {
    for (int i = 0; i < w; ++i) {
      if (i + 1 < w) pairs.emplace_back(j * w + i, j * w + i + 1);
      if (j + 1 < w) pairs.emplace_back(j * w + i, (j + 1) * w + i);
      if (i + 1 < w && j + 1 < w) pairs.emplace_back(j * w + i, (j + 1) * w + i + 1);
    }
  }
  RandomSystem s{BlockSparseMatrix(n, pairs), std::vector<Vec3>(n), VertexConstraints(n)};
  const double m = 1.0, h2k = 2e3;
  for (const auto& [i, j] : pairs) {
    const Vec3 d = (x[j] - x[i]).normalized();
    const Eigen::Matrix3d k = h2k * d * d.transpose();
    s.A.add(i, i, k);
    s.A.add(j, j, k);
    s.A.add(i, j, -k);
    s.A.add(j, i, -k);
  }
  s.A.add_diagonal(std::vector<double>(n, m));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < n; ++i) s.b[i] = Vec3(u(rng), u(rng), u(rng));
  for (int i = 0; i < w; ++i) s.c.fix(i, Vec3::Zero());
  s.c.constrain_direction(n - 1, frame.col(2), 0.01);
  s.x = x;
  return s;
}

/// Solves s with preconditioner p to 1e-8 and checks the result against the direct solve and the
/// constraints; returns the iterations taken. With `rotations`, the two-level coarse space gets
/// the vertices' positions (rigid patch motions), else translations only.
int checked_pcg_iterations(const RandomSystem& s, Preconditioner p, const std::vector<Vec3>& direct,
                           bool rotations = true) {
  PcgSettings settings;
  settings.tolerance = 1e-8;
  settings.max_iterations = 5000;
  settings.preconditioner = p;
  std::vector<Vec3> dv;
  const SolveReport r = modified_pcg(s.A, s.b, s.c, settings, dv, rotations && !s.x.empty() ? &s.x : nullptr);
  EXPECT_TRUE(r.converged);
  EXPECT_FALSE(r.preconditioner_fallback);
  EXPECT_FALSE(r.coarse_fallback);
  EXPECT_LT((as_flat(dv) - as_flat(direct)).norm(), 1e-5 * as_flat(direct).norm());
  EXPECT_LT(worst_constraint_violation(s, dv), 1e-14);
  for (int i = 0; i < int(dv.size()); ++i) {
    if (s.c.S[size_t(i)].isZero(0)) {
      EXPECT_EQ(dv[size_t(i)], s.c.z[size_t(i)]) << "fixed vertex " << i << ": bit for bit";
    }
  }
  return r.iterations;
}

TEST(ModifiedPcg, BlockJacobiEqualsDirectSolveInFewerIterationsOnStiffAnisotropicCloth) {
  const RandomSystem s = stiff_tilted_grid(16);
  std::vector<Vec3> direct;
  ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
  int iterations[2];
  for (Preconditioner p : {Preconditioner::diagonal, Preconditioner::block_jacobi})
    iterations[p == Preconditioner::block_jacobi] = checked_pcg_iterations(s, p, direct);
  // Measured: 296 (diagonal) and 123 (block-Jacobi) iterations.
  EXPECT_LT(iterations[1], 0.6 * iterations[0]) << iterations[0] << " diagonal, " << iterations[1] << " block";
}

// On a block-tridiagonal chain IC(0) drops nothing (the factor of a tree has no fill-in, and the
// elimination order ends both domains at the separator), so the preconditioner is A^-1 itself up
// to the factor's single-precision storage, and stays so with constraints (Ã keeps the chain's
// pattern): PCG needs one iteration to get to single precision and one more to 1e-10.
TEST(IncompleteCholesky, IsExactOnABlockChainUpToSinglePrecision) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const RandomSystem s = make_system(50, seed, false);
    // P^-1 (A x) = x without constraints.
    const VertexConstraints none(50);
    BlockIncompleteCholesky ic;
    ASSERT_TRUE(ic.factor(s.A, none));
    EXPECT_EQ(ic.shifts(), 0);
    std::vector<Vec3> x(50), Ax, back;
    for (int i = 0; i < 50; ++i) x[i] = Vec3(std::sin(i), std::cos(3.0 * i), 1.0 / (i + 1));
    s.A.multiply(x, Ax);
    ic.apply(Ax, none, back);
    EXPECT_LT((as_flat(back) - as_flat(x)).norm(), 1e-5 * as_flat(x).norm()) << "seed " << seed;
    // One PCG iteration solves it, with and without constraints.
    for (const VertexConstraints& c : {none, s.c}) {
      PcgSettings settings;
      settings.tolerance = 1e-10;
      settings.preconditioner = Preconditioner::incomplete_cholesky;
      std::vector<Vec3> dv, direct;
      const SolveReport r = modified_pcg(s.A, s.b, c, settings, dv);
      EXPECT_TRUE(r.converged);
      EXPECT_LE(r.iterations, 2) << "seed " << seed;
      ASSERT_TRUE(constrained_direct_solve(s.A, s.b, c, direct).converged);
      EXPECT_LT((as_flat(dv) - as_flat(direct)).norm(), 1e-9 * as_flat(direct).norm());
    }
  }
}

// IC(0)'s defining property: L D L^T equals A on every block of A's pattern, and differs from it
// off the pattern, where the fill-in was dropped. Random pairs give a pattern with fill; the
// preconditioner's matrix L D L^T is read back as the inverse of P^-1 applied to unit vectors.
TEST(IncompleteCholesky, MatchesTheMatrixOnItsPatternAndDropsTheFillOutsideIt) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const RandomSystem s = make_system(40, seed);
    const VertexConstraints none(40);
    BlockIncompleteCholesky ic;
    ASSERT_TRUE(ic.factor(s.A, none));
    ASSERT_EQ(ic.shifts(), 0) << "seed " << seed;
    Eigen::MatrixXd p_inv(120, 120);
    std::vector<Vec3> e(40, Vec3::Zero()), column;
    for (int k = 0; k < 120; ++k) {
      e[size_t(k / 3)][k % 3] = 1.0;
      ic.apply(e, none, column);
      e[size_t(k / 3)][k % 3] = 0.0;
      for (int i = 0; i < 40; ++i) p_inv.block<3, 1>(3 * i, k) = column[size_t(i)];
    }
    const Eigen::MatrixXd ldlt = p_inv.inverse();
    const Eigen::MatrixXd a = Eigen::MatrixXd(s.A.to_eigen());
    const double scale = a.cwiseAbs().maxCoeff();
    double on_pattern = 0, off_pattern = 0;
    for (int i = 0; i < 40; ++i) {
      for (int j = 0; j < 40; ++j) {
        const double diff = (ldlt.block<3, 3>(3 * i, 3 * j) - a.block<3, 3>(3 * i, 3 * j)).cwiseAbs().maxCoeff();
        double& worst = s.A.slot(i, j) >= 0 ? on_pattern : off_pattern;
        worst = std::max(worst, diff);
      }
    }
    // Single-precision factor: equal to ~1e-7 of the largest entry on the pattern.
    EXPECT_LT(on_pattern, 1e-5 * scale) << "seed " << seed << ": " << on_pattern / scale;
    EXPECT_GT(off_pattern, 1e-2 * scale) << "seed " << seed << ": " << off_pattern / scale;
  }
}

// leave_out: the factor of A with some blocks left out is, bit for bit, IC(0) of the matrix whose
// pattern lacks those blocks, with and without constraints; and A's own factor differs from it.
// The chain's blocks are kept and the random pairs' left out.
TEST(IncompleteCholesky, LeavingBlocksOutIsTheFactorOfTheMatrixWithoutThem) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const RandomSystem s = make_system(40, seed);
    std::vector<std::pair<int, int>> chain;
    for (int i = 0; i + 1 < 40; ++i) chain.emplace_back(i, i + 1);
    BlockSparseMatrix without(40, chain);
    std::vector<char> left_out(size_t(s.A.slots()), 0);
    for (int i = 0; i < 40; ++i) {
      for (int k = s.A.row_begin(i); k < s.A.row_end(i); ++k) {
        const int j = s.A.col(k);
        if (std::abs(i - j) <= 1) {
          without.add(i, j, s.A.block(k));
        } else {
          left_out[size_t(k)] = 1;
        }
      }
    }
    ASSERT_GT(std::count(left_out.begin(), left_out.end(), 1), 0) << "seed " << seed;
    std::vector<Vec3> x(40);
    for (int i = 0; i < 40; ++i) x[size_t(i)] = Vec3(std::sin(i), std::cos(3.0 * i), 1.0 / (i + 1));
    for (const VertexConstraints& c : {VertexConstraints(40), s.c}) {
      BlockIncompleteCholesky reduced, whole, reference;
      reduced.leave_out(s.A.pattern(), left_out);
      ASSERT_TRUE(reduced.factor(s.A, c));
      ASSERT_TRUE(whole.factor(s.A, c));
      ASSERT_TRUE(reference.factor(without, c));
      ASSERT_EQ(reduced.shifts(), reference.shifts());
      std::vector<Vec3> from_reduced, from_whole, from_reference;
      reduced.apply(x, c, from_reduced);
      whole.apply(x, c, from_whole);
      reference.apply(x, c, from_reference);
      EXPECT_EQ(from_reduced, from_reference) << "seed " << seed;
      EXPECT_NE(from_reduced, from_whole) << "seed " << seed;
    }
  }
}

// The implicit integrator's factor loses blocks again when the weak bend springs, strong during
// short steps at contact, turn weak again: it must then hold no more memory than a factor that
// only ever had the smaller pattern, rather than keep the larger one's high-water mark (vectors
// refilled by push_back or grown by resize keep their capacity).
TEST(IncompleteCholesky, APatternThatShrinksAgainGivesItsMemoryBack) {
  const RandomSystem s = make_system(40, 1);
  std::vector<char> none_left_out(size_t(s.A.slots()), 0), left_out = none_left_out;
  for (int i = 0; i < 40; ++i) {
    for (int k = s.A.row_begin(i); k < s.A.row_end(i); ++k) left_out[size_t(k)] = std::abs(i - s.A.col(k)) > 1;
  }
  const VertexConstraints none(40);
  BlockIncompleteCholesky shrunk, reduced_only;
  reduced_only.leave_out(s.A.pattern(), left_out);
  ASSERT_TRUE(reduced_only.factor(s.A, none));
  shrunk.leave_out(s.A.pattern(), none_left_out);
  ASSERT_TRUE(shrunk.factor(s.A, none));
  const size_t whole = shrunk.bytes_held();
  shrunk.leave_out(s.A.pattern(), left_out);
  ASSERT_TRUE(shrunk.factor(s.A, none));
  EXPECT_GT(whole, reduced_only.bytes_held()) << "the whole pattern should take more memory";
  EXPECT_EQ(shrunk.bytes_held(), reduced_only.bytes_held());
}

TEST(IncompleteCholesky, EqualsDirectSolveInFewerIterationsThanBlockJacobiOnStiffCloth) {
  const RandomSystem s = stiff_tilted_grid(16);
  std::vector<Vec3> direct;
  ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
  int iterations[2];
  for (Preconditioner p : {Preconditioner::block_jacobi, Preconditioner::incomplete_cholesky})
    iterations[p == Preconditioner::incomplete_cholesky] = checked_pcg_iterations(s, p, direct);
  EXPECT_LT(iterations[1], iterations[0]) << iterations[0] << " block-Jacobi, " << iterations[1] << " IC";
}

// The two-level preconditioner (coarse_correction.hpp): the same answer, in fewer iterations than
// IC(0) alone on the stiff grid, and the gap grows with the grid (the point of a coarse level);
// the patches' rotations take fewer iterations than their translations alone.
// Measured (IC / translations / rigid motions): 28 / 27 / 23 at 16 x 16, 63 / 41 / 30 at 40 x 40.
TEST(TwoLevel, EqualsDirectSolveInFewerIterationsThanIncompleteCholeskyOnStiffCloth) {
  double previous_ratio = 1.0;
  for (int w : {16, 40}) {
    const RandomSystem s = stiff_tilted_grid(w);
    std::vector<Vec3> direct;
    ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
    const int ic = checked_pcg_iterations(s, Preconditioner::incomplete_cholesky, direct);
    const int translations = checked_pcg_iterations(s, Preconditioner::two_level, direct, false);
    const int rigid = checked_pcg_iterations(s, Preconditioner::two_level, direct);
    const double ratio = double(rigid) / ic;
    EXPECT_LT(ratio, previous_ratio) << w << " x " << w << ": " << ic << " IC, " << rigid << " two-level";
    EXPECT_LT(rigid, translations) << w << " x " << w;
    previous_ratio = ratio;
  }
}

// Random pins and slides, with translations only and with rotations about random positions.
TEST(TwoLevel, MatchesDirectSolveOnRandomConstrainedSystems) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    RandomSystem s = make_system(300, seed);
    std::vector<Vec3> direct;
    ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
    checked_pcg_iterations(s, Preconditioner::two_level, direct);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < 300; ++i) s.x.emplace_back(u(rng), u(rng), u(rng));
    checked_pcg_iterations(s, Preconditioner::two_level, direct);
  }
}

// Every vertex fixed: each coarse translation is a zero column of P, A_c would be zero; it is kept
// definite and the answer is z, bit for bit, with no iteration.
TEST(TwoLevel, AFullyConstrainedSystemGivesZ) {
  RandomSystem s = make_system(100, 3);
  for (int i = 0; i < 100; ++i) s.c.fix(i, Vec3(i, -i, 0.5 * i));
  PcgSettings settings;
  settings.tolerance = 1e-6;
  settings.preconditioner = Preconditioner::two_level;
  std::vector<Vec3> dv;
  const SolveReport r = modified_pcg(s.A, s.b, s.c, settings, dv);
  EXPECT_TRUE(r.converged);
  EXPECT_FALSE(r.preconditioner_fallback);
  EXPECT_FALSE(r.coarse_fallback);
  EXPECT_EQ(r.iterations, 0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(dv[size_t(i)], s.c.z[size_t(i)]);
}

// A free, straight chain (a rope): every aggregate's members lie on one line, so the rotation
// about that line moves none of them and is a null direction of the coarse level even though no
// vertex is constrained (CoarseCorrection::rotations_free must see it, or A_c is singular).
TEST(TwoLevel, AStraightFreeChainStillFactorsAndMatchesTheDirectSolve) {
  const int n = 200;
  RandomSystem s = make_system(n, 11, /*random_pairs=*/false);
  s.c.reset(n);
  const Vec3 along = Vec3(1, 2, 3).normalized();
  for (int i = 0; i < n; ++i) s.x.push_back(0.01 * i * along);
  std::vector<Vec3> direct;
  ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
  checked_pcg_iterations(s, Preconditioner::two_level, direct);
}

// Every vertex sliding on the same tilted plane (a cloth on a slope): each aggregate's translation
// along the normal is constrained for all its members, but S_i n is rounding, not zero, so A_c is
// singular only up to rounding. On the cloth's own plane, so are the patches' rotations about
// in-plane axes (they move the members only along the normal). The coarse level must still factor
// and the answer match, with rotations and without.
TEST(TwoLevel, ClothSlidingOnOneTiltedPlaneStillFactorsAndMatchesTheDirectSolve) {
  RandomSystem s = stiff_tilted_grid(20);
  const Vec3 own_plane = (s.x[1] - s.x[0]).cross(s.x[20] - s.x[0]).normalized();
  for (const Vec3& normal : {Vec3(Vec3(0.3, 1.0, -0.2).normalized()), own_plane}) {
    s.c = VertexConstraints(s.A.blocks());
    for (int i = 0; i < s.A.blocks(); ++i) s.c.constrain_direction(i, normal, 0.01);
    std::vector<Vec3> direct;
    ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
    const std::vector<Vec3>* none = nullptr;
    for (const std::vector<Vec3>* positions : {none, static_cast<const std::vector<Vec3>*>(&s.x)}) {
      PcgSettings settings;
      settings.tolerance = 1e-8;
      settings.max_iterations = 5000;
      settings.preconditioner = Preconditioner::two_level;
      std::vector<Vec3> dv;
      const SolveReport r = modified_pcg(s.A, s.b, s.c, settings, dv, positions);
      EXPECT_TRUE(r.converged);
      EXPECT_FALSE(r.coarse_fallback) << "normal " << normal.transpose() << (positions ? ", rotations" : "");
      EXPECT_LT((as_flat(dv) - as_flat(direct)).norm(), 1e-5 * as_flat(direct).norm());
      EXPECT_LT(worst_constraint_violation(s, dv), 1e-14);
    }
  }
}

TEST(CoarseCorrection, AggregatesPartitionTheVertices) {
  const RandomSystem s = stiff_tilted_grid(30);
  CoarseCorrection coarse;
  ASSERT_TRUE(coarse.factor(s.A, s.c));
  const std::vector<int>& of = coarse.aggregate_of();
  ASSERT_EQ(of.size(), 900u);
  std::vector<int> size(size_t(coarse.aggregates()), 0);
  for (int a : of) {
    ASSERT_GE(a, 0);
    ASSERT_LT(a, coarse.aggregates());
    ++size[size_t(a)];
  }
  // Patches of about (2 radius + 1)^2 grid cells: far fewer than the vertices, none empty.
  EXPECT_LT(coarse.aggregates(), 900 / 8);
  EXPECT_GT(*std::min_element(size.begin(), size.end()), 0);
}

// The coarse level is exact on its own space: for u = P y, P A_c^-1 P^T (A u) = u when
// A_c = P^T A P. A whole-cloth rigid motion, filtered, is such a u (every patch moves with the
// same translation and rotation; each patch's arm is its members' offset from its centroid, over
// a scale): the Galerkin product (pins and slides included) and the rotations' signs are checked,
// with A stored in full and by its upper half (A_c is built from the upper half, as H + H^T).
TEST(CoarseCorrection, ReproducesAFilteredRigidMotionFromItsProduct) {
  RandomSystem s = stiff_tilted_grid(30);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < s.A.blocks(); i += 7) {  // pins and slides along random directions
    if (i % 3 == 0) {
      s.c.fix(i, Vec3::Zero());
    } else {
      s.c.constrain_direction(i, Vec3(u(rng), u(rng), u(rng)).normalized(), 0.0);
    }
  }
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < s.A.blocks(); ++i) {
    for (int k = s.A.row_begin(i); k < s.A.row_end(i); ++k) {
      if (s.A.col(k) > i) pairs.emplace_back(i, s.A.col(k));
    }
  }
  BlockSparseMatrix upper(s.A.blocks(), pairs, BlockSparseMatrix::Storage::symmetric);
  for (int i = 0; i < s.A.blocks(); ++i) {
    for (int k = s.A.diagonal_slot(i); k < s.A.row_end(i); ++k) upper.add(i, s.A.col(k), s.A.value(k));
  }
  for (const BlockSparseMatrix* A : {&s.A, &upper}) {
    for (const bool rotations : {false, true}) {
      CoarseCorrection coarse;
      ASSERT_TRUE(coarse.factor(*A, s.c, rotations ? &s.x : nullptr));
      const Vec3 t(0.3, -0.2, 0.5), w = rotations ? Vec3(0.4, 0.1, -0.7) : Vec3::Zero();
      std::vector<Vec3> motion(s.x.size()), product, out(s.x.size(), Vec3::Zero());
      for (size_t i = 0; i < s.x.size(); ++i) motion[i] = s.c.S[i] * (t + w.cross(s.x[i]));
      A->multiply(motion, product);
      coarse.add_correction(product, s.c, out);
      EXPECT_LT((as_flat(out) - as_flat(motion)).norm(), 1e-9 * as_flat(motion).norm())
          << (rotations ? "translation and rotation" : "translation") << (A->symmetric() ? ", upper half" : ", full");
    }
  }
}

TEST(IncompleteCholesky, FewerIterationsThanBlockJacobiOnRandomConstrainedSystems) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const RandomSystem s = make_system(200, seed);
    int iterations[2];
    for (Preconditioner p : {Preconditioner::block_jacobi, Preconditioner::incomplete_cholesky}) {
      PcgSettings settings;
      settings.tolerance = 1e-10;
      settings.max_iterations = 5000;
      settings.preconditioner = p;
      std::vector<Vec3> dv;
      const SolveReport r = modified_pcg(s.A, s.b, s.c, settings, dv);
      ASSERT_TRUE(r.converged);
      iterations[p == Preconditioner::incomplete_cholesky] = r.iterations;
    }
    EXPECT_LT(iterations[1], iterations[0]) << "seed " << seed << ": " << iterations[0]
                                            << " block-Jacobi, " << iterations[1] << " IC";
  }
}

// Kershaw's 4 x 4 SPD matrix (1978), on which scalar IC(0) breaks down at the last pivot (-5),
// as 3x3 blocks k I on a 4-cycle: the factorisation must shift and still precondition PCG to
// the direct solution.
TEST(IncompleteCholesky, BreakdownIsShiftedAndStillConverges) {
  const double k[4][4] = {{3, -2, 0, 2}, {-2, 3, -2, 0}, {0, -2, 3, -2}, {2, 0, -2, 3}};
  RandomSystem s{BlockSparseMatrix(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}}), std::vector<Vec3>(4),
                 VertexConstraints(4)};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (k[i][j] != 0) s.A.add(i, j, k[i][j] * Eigen::Matrix3d::Identity());
    }
    s.b[i] = Vec3(1.0 + i, -0.5 * i, 2.0);
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig{Eigen::MatrixXd(s.A.to_eigen())};
  ASSERT_GT(eig.eigenvalues().minCoeff(), 0) << "Kershaw's matrix is SPD";
  PcgSettings settings;
  settings.tolerance = 1e-12;
  settings.preconditioner = Preconditioner::incomplete_cholesky;
  std::vector<Vec3> dv, direct;
  const SolveReport r = modified_pcg(s.A, s.b, s.c, settings, dv);
  EXPECT_GT(r.preconditioner_shifts, 0);
  EXPECT_FALSE(r.preconditioner_fallback);
  EXPECT_TRUE(r.converged);
  ASSERT_TRUE(constrained_direct_solve(s.A, s.b, s.c, direct).converged);
  EXPECT_LT((as_flat(dv) - as_flat(direct)).norm(), 1e-9 * as_flat(direct).norm());
}

// A matrix no shift can factor (negative definite: every pivot stays negative) falls back to
// block-Jacobi, counted, and the constraints still hold exactly.
TEST(IncompleteCholesky, FailureAtEveryShiftFallsBackToBlockJacobi) {
  RandomSystem s = make_system(30, 3);
  BlockSparseMatrix negated = s.A;
  for (int slot = 0; slot < negated.slots(); ++slot) negated.value(slot) = -s.A.value(slot);
  PcgSettings settings;
  settings.tolerance = 1e-6;
  settings.preconditioner = Preconditioner::incomplete_cholesky;
  settings.max_iterations = 20;
  std::vector<Vec3> dv;
  const SolveReport r = modified_pcg(negated, s.b, s.c, settings, dv);
  EXPECT_TRUE(r.preconditioner_fallback);
  EXPECT_LT(worst_constraint_violation(s, dv), 1e-14);
}

TEST(ModifiedPcg, WarmStartConvergesToTheSameSolution) {
  const RandomSystem s = stiff_tilted_grid(12);
  PcgSettings settings;
  settings.tolerance = 1e-10;
  settings.max_iterations = 5000;
  settings.preconditioner = Preconditioner::incomplete_cholesky;
  std::vector<Vec3> cold;
  const SolveReport r_cold = modified_pcg(s.A, s.b, s.c, settings, cold);
  ASSERT_TRUE(r_cold.converged);
  settings.warm_start = true;
  // From the solution itself: nothing left to do.
  std::vector<Vec3> from_solution = cold;
  EXPECT_LE(modified_pcg(s.A, s.b, s.c, settings, from_solution).iterations, 1);
  // From a perturbed guess: the same answer (the stop rule is relative to the filtered b, not to
  // the first residual).
  std::vector<Vec3> guess = cold;
  for (int i = 0; i < s.A.blocks(); ++i) guess[i] += Vec3(0.01 * i, -0.02, 0.5);
  ASSERT_TRUE(modified_pcg(s.A, s.b, s.c, settings, guess).converged);
  EXPECT_LT((as_flat(guess) - as_flat(cold)).norm(), 1e-7 * as_flat(cold).norm());
  EXPECT_LT(worst_constraint_violation(s, guess), 1e-14);
}

TEST(BlockSparse, MultiplyEqualsEigenAndPatternIsSymmetric) {
  const RandomSystem s = make_system(25, 11);
  std::vector<Vec3> x(25), y;
  for (int i = 0; i < 25; ++i) x[i] = Vec3(i, -0.5 * i, 1.0 / (i + 1));
  s.A.multiply(x, y);
  const Eigen::SparseMatrix<double> e = s.A.to_eigen();
  EXPECT_LT((as_flat(y) - e * as_flat(x)).norm(), 1e-10 * as_flat(y).norm());
  EXPECT_LT((Eigen::MatrixXd(e) - Eigen::MatrixXd(e.transpose())).norm(), 1e-10);
  EXPECT_EQ(s.A.slot(0, 24) >= 0, s.A.slot(24, 0) >= 0);
}

// A symmetric-storage copy of A: the same pattern, A's blocks on and above the diagonal.
BlockSparseMatrix packed_copy(const BlockSparseMatrix& A) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < A.blocks(); ++i) {
    for (int slot = A.row_begin(i); slot < A.row_end(i); ++slot) {
      if (A.col(slot) > i) pairs.emplace_back(i, A.col(slot));
    }
  }
  BlockSparseMatrix packed(A.blocks(), pairs, BlockSparseMatrix::Storage::symmetric);
  for (int slot = 0; slot < A.slots(); ++slot) {
    if (packed.stores(slot)) packed.value(slot) = A.value(slot);
  }
  return packed;
}

// The implicit step's A keeps only the blocks on and above the diagonal (block_sparse.hpp): the
// same pattern, blocks and matrix as full storage of the same symmetric values, with only the
// blocks with col >= row stored.
TEST(BlockSparse, SymmetricStorageIsTheSameMatrixInFewerBlocks) {
  const RandomSystem s = make_system(30, 5);
  const BlockSparseMatrix packed = packed_copy(s.A);
  ASSERT_TRUE(packed.symmetric());
  ASSERT_EQ(packed.slots(), s.A.slots());
  int stored = 0;
  for (int i = 0; i < 30; ++i) {
    for (int slot = packed.row_begin(i); slot < packed.row_end(i); ++slot) {
      ASSERT_EQ(packed.col(slot), s.A.col(slot));
      EXPECT_EQ(packed.stores(slot), packed.col(slot) >= i);
      stored += packed.stores(slot);
      // Equal up to the rounding by which the random A's (j, i) differs from its (i, j)^T.
      EXPECT_LT((packed.block(slot) - s.A.value(slot)).norm(), 1e-13 * s.A.value(slot).norm())
          << "block (" << i << ", " << packed.col(slot) << ")";
    }
  }
  EXPECT_EQ(stored, (s.A.slots() + 30) / 2);
  const Eigen::MatrixXd dense = Eigen::MatrixXd(s.A.to_eigen());
  EXPECT_LT((Eigen::MatrixXd(packed.to_eigen()) - dense).norm(), 1e-13 * dense.norm());
}

// Its product equals full storage's, and gives the same bits on one thread and on two (a matrix
// large enough for parallel_for to split it: parallel.hpp).
TEST(BlockSparse, SymmetricProductEqualsTheFullOneOnOneAndTwoThreads) {
  const int n = 2 * kMinParallelLength;
  const RandomSystem s = make_system(n, 8);
  const BlockSparseMatrix packed = packed_copy(s.A);
  std::vector<Vec3> x(static_cast<size_t>(n)), full, one, two;
  for (int i = 0; i < n; ++i) x[size_t(i)] = Vec3(std::sin(i), 2.0 - 1e-3 * i, 1.0 / (i + 1));
  s.A.multiply(x, full);
  packed.multiply(x, one, 1);
  packed.multiply(x, two, 2);
  EXPECT_LT((as_flat(one) - as_flat(full)).norm(), 1e-13 * as_flat(full).norm());
  EXPECT_EQ(one, two);
}

}  // namespace
}  // namespace cloth
