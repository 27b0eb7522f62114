// The coarse level's block sparse Cholesky (block_cholesky.hpp) against Eigen's dense LLT on
// matrices whose factor fills in, its refusal of matrices that are not positive definite, and
// its two domains: an order rearranged by domain_order and solved on two threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <iterator>
#include <random>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "linalg/block_cholesky.hpp"

namespace cloth {
namespace {

constexpr int N = 6;
using Cholesky = SparseBlockCholesky<N>;
using Block = Cholesky::Block;

// An SPD matrix of N x N blocks on a w x h grid with its 8 neighbours coupled (the coarse
// problem's shape), the grid points numbered in a scrambled order so that the elimination
// fills in (or as `label` numbers them): random off-diagonal blocks, and diagonal blocks that
// dominate them.
struct GridMatrix {
  int n = 0;
  std::map<std::pair<int, int>, Block> blocks;  // (i, k), i <= k
  std::vector<std::vector<int>> upper;

  GridMatrix(int w, int h, unsigned seed, std::vector<int> label = {}) : n(w * h), upper(size_t(w * h)) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    if (label.empty()) {
      label.resize(size_t(n));
      for (int i = 0; i < n; ++i) label[size_t(i)] = i;
      std::shuffle(label.begin(), label.end(), rng);
    }
    std::vector<double> row_weight(size_t(n), 0.0);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        for (int dy = 0; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            if (dy == 0 && dx <= 0) continue;
            const int x2 = x + dx, y2 = y + dy;
            if (x2 < 0 || x2 >= w || y2 >= h) continue;
            int i = label[size_t(y * w + x)], k = label[size_t(y2 * w + x2)];
            if (i > k) std::swap(i, k);
            Block b = Block::NullaryExpr([&] { return uniform(rng); });
            blocks[{i, k}] = b;
            upper[size_t(k)].push_back(i);
            // Gershgorin: the diagonal blocks outweigh the row sums of |entries|.
            const double weight = b.cwiseAbs().rowwise().sum().maxCoeff() + b.cwiseAbs().colwise().sum().maxCoeff();
            row_weight[size_t(i)] += weight;
            row_weight[size_t(k)] += weight;
          }
        }
      }
    }
    for (int i = 0; i < n; ++i) {
      Block r = Block::NullaryExpr([&] { return uniform(rng); });
      blocks[{i, i}] = 0.5 * (r + r.transpose()) + (row_weight[size_t(i)] + double(N)) * Block::Identity();
    }
  }

  Eigen::MatrixXd dense() const {
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(N * n, N * n);
    for (const auto& [ik, b] : blocks) {
      a.block<N, N>(N * ik.first, N * ik.second) = b;
      a.block<N, N>(N * ik.second, N * ik.first) = b.transpose();
    }
    return a;
  }
  /// The blocks as SparseBlockCholesky::factor numbers them: row k's upper[k], then (k, k).
  std::vector<Block> entries() const {
    std::vector<Block> e;
    for (int k = 0; k < n; ++k) {
      for (int i : upper[size_t(k)]) e.push_back(blocks.at({i, k}));
      e.push_back(blocks.at({k, k}));
    }
    return e;
  }
  bool factor(Cholesky& cholesky, int threads = 1) const {
    const std::vector<Block> e = entries();
    EXPECT_EQ(cholesky.entries(), static_cast<int>(e.size()));
    return cholesky.factor([&](int k) -> const Block& { return e[size_t(k)]; }, threads, threads > 1);
  }
};

double solve_error(const Cholesky& cholesky, const Eigen::MatrixXd& a, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(a.rows(), [&] { return uniform(rng); });
  const Eigen::VectorXd expected = a.llt().solve(b);
  Eigen::VectorXd x = b;
  cholesky.solve(x);
  return (x - expected).norm() / expected.norm();
}

TEST(SparseBlockCholesky, SolvesLikeADenseFactorWhereTheEliminationFillsIn) {
  const GridMatrix m(9, 7, 1);
  Cholesky cholesky;
  cholesky.analyze(m.upper);
  ASSERT_TRUE(m.factor(cholesky));
  const int pattern_blocks = static_cast<int>(m.blocks.size()) - m.n;
  EXPECT_GT(cholesky.factor_blocks(), pattern_blocks) << "a scrambled grid order fills in";
  EXPECT_LT(solve_error(cholesky, m.dense(), 2), 1e-12);
}

TEST(SparseBlockCholesky, RefactorsNewValuesOnTheSamePattern) {
  const GridMatrix first(6, 6, 3);
  GridMatrix changed = first;  // the same scrambled order and pattern, new values
  for (auto& [ik, b] : changed.blocks) b *= ik.first == ik.second ? 2.0 : -0.5;
  Cholesky cholesky;
  cholesky.analyze(first.upper);
  ASSERT_TRUE(first.factor(cholesky));
  ASSERT_TRUE(changed.factor(cholesky));
  EXPECT_LT(solve_error(cholesky, changed.dense(), 4), 1e-12);
}

TEST(SparseBlockCholesky, ABlockDiagonalMatrixAndAnEmptyOne) {
  GridMatrix m(3, 2, 6);
  for (auto it = m.blocks.begin(); it != m.blocks.end();) {
    it = it->first.first == it->first.second ? std::next(it) : m.blocks.erase(it);
  }
  for (auto& rows : m.upper) rows.clear();
  Cholesky cholesky;
  cholesky.analyze(m.upper);
  ASSERT_TRUE(m.factor(cholesky));
  EXPECT_EQ(cholesky.factor_blocks(), 0);
  EXPECT_LT(solve_error(cholesky, m.dense(), 7), 1e-12);

  Cholesky empty;
  empty.analyze({});
  EXPECT_TRUE(empty.factor([](int) -> Block { return Block::Identity(); }));
  Eigen::VectorXd nothing(0);
  empty.solve(nothing);
  EXPECT_EQ(nothing.size(), 0);
}

TEST(SparseBlockCholesky, RefusesAMatrixThatIsNotPositiveDefiniteOrNotFinite) {
  const GridMatrix m(5, 4, 5);
  Cholesky cholesky;
  cholesky.analyze(m.upper);
  ASSERT_TRUE(m.factor(cholesky));
  // Every diagonal block stays positive definite; one coupling c I outweighs its two diagonal
  // blocks, so (e, -e) on that pair has negative energy and only the elimination can tell.
  auto coupling = std::find_if(m.blocks.begin(), m.blocks.end(), [](const auto& e) { return e.first.first != e.first.second; });
  ASSERT_NE(coupling, m.blocks.end());
  const auto [i, k] = coupling->first;
  const double largest = std::max(m.blocks.at({i, i}).eigenvalues().real().maxCoeff(),
                                  m.blocks.at({k, k}).eigenvalues().real().maxCoeff());
  GridMatrix indefinite = m;
  indefinite.blocks.at({i, k}) = 2 * largest * Block::Identity();
  EXPECT_FALSE(indefinite.factor(cholesky));
  // A NaN or an infinity in an off-diagonal block reaches the pivots through the updates.
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    GridMatrix broken = m;
    broken.blocks.at({i, k})(0, 1) = bad;
    EXPECT_FALSE(broken.factor(cholesky)) << bad;
  }
  EXPECT_TRUE(m.factor(cholesky)) << "the same analysis factors a good matrix again";
  EXPECT_LT(solve_error(cholesky, m.dense(), 8), 1e-12);
}

// A grid in a nested-dissection order (the rows below the middle one, scrambled, then those above
// it, scrambled, then the middle row), rearranged by domain_order: the rearranged order has the
// same factor, splits the grid into two groups of rows with a separator of about the middle row,
// and its factor and solve on two threads, one domain each, give the same bits as on one and
// solve like the dense factor.
TEST(SparseBlockCholesky, ADomainOrderKeepsTheFactorAndRunsOnTwoThreadsToTheSameBits) {
  constexpr int kW = 8, kH = 9, kMiddle = 4;
  std::vector<int> below, above, middle;
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) (y < kMiddle ? below : y > kMiddle ? above : middle).push_back(y * kW + x);
  }
  std::mt19937 rng(11);
  std::shuffle(below.begin(), below.end(), rng);
  std::shuffle(above.begin(), above.end(), rng);
  std::vector<int> label(size_t(kW * kH));
  int next = 0;
  for (const std::vector<int>* part : {&below, &above, &middle}) {
    for (int point : *part) label[size_t(point)] = next++;
  }
  const GridMatrix given(kW, kH, 12, label);
  Cholesky reference;
  reference.analyze(given.upper);

  const Cholesky::DomainOrder order = Cholesky::domain_order(given.upper);
  ASSERT_EQ(order.row_at.size(), size_t(given.n));
  std::vector<int> place(size_t(given.n), -1);
  for (int p = 0; p < given.n; ++p) place[size_t(order.row_at[size_t(p)])] = p;
  ASSERT_EQ(std::count(place.begin(), place.end(), -1), 0) << "a permutation";
  EXPECT_GT(order.second_domain, 0);
  EXPECT_GT(order.separator, order.second_domain);
  EXPECT_LE(given.n - order.separator, 2 * kW) << "about the middle row";
  std::vector<int> relabel(label.size());
  for (size_t point = 0; point < label.size(); ++point) relabel[point] = place[size_t(label[point])];
  // The same grid's pattern with its points in the new order (its random values drawn anew).
  const GridMatrix m(kW, kH, 12, relabel);
  for (int k = order.second_domain; k < order.separator; ++k) {
    for (int i : m.upper[size_t(k)]) ASSERT_GE(i, order.second_domain) << "a block between the domains";
  }

  Cholesky one, two;
  one.analyze(m.upper, order.second_domain, order.separator);
  two.analyze(m.upper, order.second_domain, order.separator);
  EXPECT_EQ(one.factor_blocks(), reference.factor_blocks()) << "the same fill";
  EXPECT_EQ(two.separator_rows(), given.n - order.separator);
  ASSERT_TRUE(m.factor(one, 1));
  ASSERT_TRUE(m.factor(two, 2));
  const Eigen::MatrixXd dense = m.dense();
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(N * m.n, -1.0, 2.0);
  const Eigen::VectorXd expected = dense.llt().solve(b);
  Eigen::VectorXd x1 = b, x2 = b;
  one.solve(x1, 1, false);
  two.solve(x2, 2, true);
  EXPECT_LT((x2 - expected).norm() / expected.norm(), 1e-12);
  EXPECT_EQ(x1, x2);
}

// domain_order at the edges: nothing; a chain, whose tree has no two subtrees (one domain, the
// order kept: a row after the one below it); rows coupled to nothing, dealt half and half with no
// separator.
TEST(SparseBlockCholesky, ADomainOrderOfNothingOfAChainAndOfUncoupledRows) {
  const Cholesky::DomainOrder none = Cholesky::domain_order({});
  EXPECT_TRUE(none.row_at.empty());
  EXPECT_EQ(none.separator, 0);

  constexpr int kRows = 10;
  std::vector<std::vector<int>> chain(kRows);
  for (int k = 1; k < kRows; ++k) chain[size_t(k)] = {k - 1};
  const Cholesky::DomainOrder along = Cholesky::domain_order(chain);
  std::vector<int> identity(kRows);
  for (int k = 0; k < kRows; ++k) identity[size_t(k)] = k;
  EXPECT_EQ(along.row_at, identity);
  EXPECT_TRUE(along.second_domain == kRows || along.separator == along.second_domain)
      << "one domain: " << along.second_domain << ", " << along.separator;

  const Cholesky::DomainOrder apart = Cholesky::domain_order(std::vector<std::vector<int>>(kRows));
  EXPECT_EQ(apart.second_domain, kRows / 2);
  EXPECT_EQ(apart.separator, kRows);
  std::vector<int> sorted = apart.row_at;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, identity);
}

}  // namespace
}  // namespace cloth
