// The implicit solve and XPBD's passes on two threads (parallel.hpp, incomplete_cholesky.hpp,
// coarse_correction.hpp, SpringTiles): the same bits as on one, because the work is split by the
// mesh (fixed chunks, fixed elimination order, fixed tiles), never by the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "collision/collider.hpp"
#include "core/error.hpp"
#include "forces/force_jacobians.hpp"
#include "linalg/incomplete_cholesky.hpp"
#include "mesh/mesh.hpp"
#include "core/parallel.hpp"
#include "io/scene.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/vacuum.hpp"

namespace cloth {
namespace {

// A square cloth of n x n vertices hanging from two corners above a sphere it falls onto (the
// benchmark's scene), on `threads` threads: implicit with adaptive steps (and `preconditioner`),
// or XPBD with the benchmark's 4 substeps x 10 passes.
Simulation hanging_cloth(int n, int threads, cloth::IntegratorType integrator = cloth::IntegratorType::Implicit,
                         Preconditioner preconditioner = Preconditioner::two_level,
                         ModelType model = ModelType::Springs) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = Vec3(0, 1, 0);
  SpringMaterial material;
  material.density = 0.1;
  SolverSettings solver;
  solver.integrator = integrator;
  solver.substeps = integrator == cloth::IntegratorType::Xpbd ? 4 : 1;
  solver.xpbd_iterations = 10;
  solver.adaptive = integrator != cloth::IntegratorType::Xpbd;
  solver.threads = threads;
  solver.preconditioner = preconditioner;
  Simulation sim(build_model(make_grid(spec), material, model), {Collider{SphereShape{Vec3(0, 0.4, 0.1), 0.3}}},
                 {0, n - 1}, solver, Vec3(0, -9.81, 0));
  in_vacuum(sim);  // no air: the cloth reaches the sphere within the frames run
  return sim;
}

TEST(ParallelFor, RunsOnTheThreadsItIsGiven) {
#ifndef _OPENMP
  // The tests are built with OpenMP (GCC's libgomp, engine/CMakeLists.txt); without it the solve
  // would silently run on one thread, which is exactly what this test is here to catch.
  FAIL() << "built without OpenMP: every loop runs on one thread";
#else
  std::vector<int> thread_of(4 * kMinParallelLength);
  parallel_for(static_cast<int>(thread_of.size()), 2, [&](int i) { thread_of[size_t(i)] = omp_get_thread_num(); });
  EXPECT_EQ(std::set<int>(thread_of.begin(), thread_of.end()).size(), 2u);
  // Below the length worth a parallel region, the calling thread does it all.
  std::vector<int> short_loop(kMinParallelLength - 1, -1);
  parallel_for(static_cast<int>(short_loop.size()), 2, [&](int i) { short_loop[size_t(i)] = omp_get_thread_num(); });
  EXPECT_EQ(std::set<int>(short_loop.begin(), short_loop.end()), std::set<int>{0});
#endif
}

// A loop splits only where the other threads take at least kMinParallelLength iterations: on two
// threads from 2 x kMinParallelLength (the step's edge-strain check on the default 32 x 32 cloth,
// about 3000 edges, stays on the calling thread on two or three threads and wakes no spinning
// worker).
TEST(ParallelFor, SplitsOnlyWhereTheOtherThreadsTakeARegionsWorth) {
#ifndef _OPENMP
  FAIL() << "built without OpenMP: every loop runs on one thread";
#else
  EXPECT_FALSE(worth_splitting(2 * kMinParallelLength - 1, 2));
  EXPECT_TRUE(worth_splitting(2 * kMinParallelLength, 2));
  EXPECT_TRUE(worth_splitting(kMinParallelLength + kMinParallelLength / 2, 3)) << "two thirds go to the others";
  EXPECT_FALSE(worth_splitting(1 << 20, 1));
  for (int n : {2 * kMinParallelLength - 1, 2 * kMinParallelLength}) {
    std::vector<int> thread_of(size_t(n), -1);
    const double largest = parallel_max(n, 2, 0.0, [&](int i) {
      thread_of[size_t(i)] = omp_get_thread_num();
      return double(i);
    });
    EXPECT_EQ(largest, double(n - 1));
    EXPECT_EQ(std::set<int>(thread_of.begin(), thread_of.end()).size(), worth_splitting(n, 2) ? 2u : 1u) << n;
  }
#endif
}

TEST(ParallelMax, RunsOnTheThreadsItIsGivenAndSkipsNaN) {
#ifndef _OPENMP
  FAIL() << "built without OpenMP: every loop runs on one thread";
#else
  const int n = 4 * kMinParallelLength;
  std::vector<int> thread_of(size_t(n), -1);
  const auto term = [&](int i) {
    thread_of[size_t(i)] = omp_get_thread_num();
    return i == n - 3 ? std::nan("") : double(i);  // the largest, n - 1, in the second thread's half
  };
  EXPECT_EQ(parallel_max(n, 2, -1.0, term), double(n - 1));
  EXPECT_EQ(std::set<int>(thread_of.begin(), thread_of.end()).size(), 2u);
  EXPECT_EQ(parallel_max(n, 1, double(n), term), double(n)) << "the lower bound is returned when larger";
#endif
}

// Two jobs (IC(0)'s factorisation and the coarse assembly) run side by side on two threads, one
// each; with more threads and no nesting (OpenMP's default) one after the other on all of them;
// an exception from either job comes out of side_by_side, not out of the OpenMP region (which
// would terminate the program).
TEST(SideBySide, TwoJobsOnTwoThreadsOneEachAndExceptionsPassThrough) {
#ifndef _OPENMP
  FAIL() << "built without OpenMP: every loop runs on one thread";
#else
  int thread_first = -1, thread_second = -1, threads_first = 0, threads_second = 0;
  side_by_side(
      2, [&](int t) { thread_first = omp_get_thread_num(), threads_first = t; },
      [&](int t) { thread_second = omp_get_thread_num(), threads_second = t; });
  EXPECT_NE(thread_first, thread_second);
  EXPECT_EQ(threads_first, 1);
  EXPECT_EQ(threads_second, 1);
  if (!nested_parallelism_available()) {
    side_by_side(
        4, [&](int t) { threads_first = t; }, [&](int t) { threads_second = t; });
    EXPECT_EQ(threads_first, 4);
    EXPECT_EQ(threads_second, 4);
  }
  bool first_ran = false;
  EXPECT_THROW(side_by_side(
                   2, [&](int) { first_ran = true; }, [](int) { throw InputError("second job failed"); }),
               InputError);
  EXPECT_TRUE(first_ran);
#endif
}

TEST(DeterministicSum, SameBitsForEveryThreadCountAndCloseToTheExactSum) {
  const int n = 100003;  // not a multiple of the chunk
  const auto term = [](int i) { return std::sin(0.37 * i) / (1.0 + 1e-3 * i); };
  std::vector<double> partial;
  const double one = deterministic_sum(n, 1, partial, term);
  long double exact = 0;
  for (int i = 0; i < n; ++i) exact += static_cast<long double>(term(i));
  for (int threads : {2, 3, 8}) {
    EXPECT_EQ(deterministic_sum(n, threads, partial, term), one) << threads << " threads";
  }
  EXPECT_NEAR(one, static_cast<double>(exact), 1e-12 * static_cast<double>(std::fabs(exact)) + 1e-12);
}

// One level of nested dissection on A's whole pattern (springs reach two rows: bend springs): the
// separator of a row-major grid split in two is the two rows after the middle; without the weak
// bend springs' blocks (as the implicit integrator factors it), the row after the middle (and one
// vertex more where the middle falls inside a row: the cell diagonals reach one column on).
TEST(IncompleteCholesky, SeparatorOfARowMajorGridIsTwoRowsOrOneWithoutTheBendSprings) {
  for (int n : {16, 51, 100}) {
    GridSpec spec;
    spec.nx = spec.ny = n;
    SpringMaterial bend_springs;
    bend_springs.bend_element = BendElement::BendSprings;
    const ClothModel model = build_model(make_grid(spec), bend_springs);
    BlockSparseMatrix A(model.vertex_count(), coupled_pairs(model));
    // Diagonally dominant with the pattern's couplings: SPD.
    for (int i = 0; i < A.blocks(); ++i) {
      for (int s = A.row_begin(i); s < A.row_end(i); ++s) {
        A.value(s) = A.col(s) == i ? Eigen::Matrix3d(20.0 * Eigen::Matrix3d::Identity())
                                   : Eigen::Matrix3d(-0.5 * Eigen::Matrix3d::Identity());
      }
    }
    BlockIncompleteCholesky ic;
    ASSERT_TRUE(ic.factor(A, VertexConstraints(A.blocks())));
    EXPECT_EQ(ic.separator_size(), 2 * n) << n << " x " << n;
    std::vector<char> weak;
    std::vector<double> scratch;
    weak_bend_springs(model, 1.0 / 60, weak, scratch);
    ic.leave_out(A.pattern(), weak_bend_slots(model, A, weak));
    ASSERT_TRUE(ic.factor(A, VertexConstraints(A.blocks())));
    EXPECT_GE(ic.separator_size(), n) << n << " x " << n << ", weak bend springs left out";
    EXPECT_LE(ic.separator_size(), n + 1) << n << " x " << n << ", weak bend springs left out";
  }
}

// Asserts that two runs of the same cloth on different thread counts take the same steps to the
// same bits for `frames` frames, and that the cloth reaches the sphere.
void expect_same_bits(Simulation& one, Simulation& two, int frames) {
  int contacts = 0;
  for (int frame = 0; frame < frames; ++frame) {
    const FrameReport a = one.step();
    const FrameReport b = two.step();
    ASSERT_EQ(a.integration.solver_iterations, b.integration.solver_iterations) << "frame " << frame;
    ASSERT_EQ(a.steps_taken, b.steps_taken) << "frame " << frame;
    contacts += a.integration.contacts;
    for (int i = 0; i < one.model().vertex_count(); ++i) {
      ASSERT_EQ(one.state().x[size_t(i)], two.state().x[size_t(i)]) << "frame " << frame << ", vertex " << i;
      ASSERT_EQ(one.state().v[size_t(i)], two.state().v[size_t(i)]) << "frame " << frame << ", vertex " << i;
    }
  }
  EXPECT_GT(contacts, 0) << "the cloth should reach the sphere, so that contact constraints are solved too";
  EXPECT_EQ(one.statistics().instabilities, 0);
}

// The whole implicit step (assembly, PCG with IC(0) alone and with the two-level preconditioner,
// contacts and pins, collisions) on two threads gives the same bits as on one, frame after frame,
// on a cloth large enough for every parallel loop to split (64 x 64 = 4096 vertices: worth_splitting
// on two and three threads).
TEST(ParallelSolve, TwoAndThreeThreadsStepTheClothToTheSameBitsAsOne) {
  for (Preconditioner p : {Preconditioner::incomplete_cholesky, Preconditioner::two_level}) {
    SCOPED_TRACE(name_of(p));
    Simulation one = hanging_cloth(64, 1, cloth::IntegratorType::Implicit, p);
    Simulation two = hanging_cloth(64, 2, cloth::IntegratorType::Implicit, p);
    expect_same_bits(one, two, 40);
  }
  // Three threads: IC(0)'s factorisation and the coarse assembly one after the other (no
  // nesting), each on three.
  Simulation one = hanging_cloth(64, 1);
  Simulation three = hanging_cloth(64, 3);
  expect_same_bits(one, three, 20);
}

// The Baraff-Witkin model's elements are evaluated on the threads a chunk at a time and added in
// element order (force_jacobians.cpp, evaluate_then_add): 48 x 48 vertices give 4418 triangles
// and 6533 hinges, nine and thirteen chunks of 512, the last ones short.
TEST(ParallelSolve, TheBaraffWitkinModelStepsToTheSameBitsOnTwoThreadsAsOnOne) {
  Simulation one = hanging_cloth(48, 1, cloth::IntegratorType::Implicit, Preconditioner::two_level, ModelType::BaraffWitkin);
  Simulation two = hanging_cloth(48, 2, cloth::IntegratorType::Implicit, Preconditioner::two_level, ModelType::BaraffWitkin);
  ASSERT_GT(one.model().bw_triangles.size(), 8u * 512u);
  expect_same_bits(one, two, 20);
}

TEST(ParallelXpbd, TwoThreadsStepTheClothToTheSameBitsAsOne) {
  // 80^2 = 6400 vertices: four tiles of 2048, two per phase, each phase long enough to be split.
  Simulation one = hanging_cloth(80, 1, cloth::IntegratorType::Xpbd);
  Simulation two = hanging_cloth(80, 2, cloth::IntegratorType::Xpbd);
  expect_same_bits(one, two, 30);
}

// Every spring once, no vertex shared by two tiles of one phase (what lets them run at once),
// and each tile split into groups that share no vertex (what lets XPBD update a group's springs
// together).
void expect_valid_tiles(const std::vector<Spring>& springs, int vertex_count, const SpringTiles& tiles) {
  std::vector<int> seen(springs.size(), 0);
  for (int k : tiles.order) ++seen[size_t(k)];
  for (size_t k = 0; k < springs.size(); ++k) ASSERT_EQ(seen[k], 1) << "spring " << k;
  ASSERT_EQ(tiles.tile_start.back(), static_cast<int>(springs.size()));
  ASSERT_EQ(tiles.tile_group_start.size(), tiles.tile_start.size());
  ASSERT_EQ(tiles.tile_group_start.front(), 0);
  ASSERT_EQ(tiles.tile_group_start.back() + 1, static_cast<int>(tiles.group_start.size()));
  for (int t = 0; t < tiles.tile_count(); ++t) {
    const int first = tiles.tile_group_start[size_t(t)];
    const int last = tiles.tile_group_start[size_t(t) + 1];
    ASSERT_EQ(tiles.group_start[size_t(first)], tiles.tile_start[size_t(t)]) << "tile " << t;
    ASSERT_EQ(tiles.group_start[size_t(last)], tiles.tile_start[size_t(t) + 1]) << "tile " << t;
    for (int g = first; g < last; ++g) {
      ASSERT_LT(tiles.group_start[size_t(g)], tiles.group_start[size_t(g) + 1])
          << "empty group " << g;
      std::vector<char> used(size_t(vertex_count), 0);
      for (int m = tiles.group_start[size_t(g)]; m < tiles.group_start[size_t(g) + 1]; ++m) {
        const Spring& s = springs[size_t(tiles.order[size_t(m)])];
        for (int v : {s.i, s.j}) {
          ASSERT_FALSE(used[size_t(v)]) << "vertex " << v << " twice in group " << g;
          used[size_t(v)] = 1;
        }
      }
    }
  }
  for (int phase = 0; phase < 2; ++phase) {
    std::vector<int> owner(size_t(vertex_count), -1);  // the tile of this phase touching a vertex
    const int first = phase == 0 ? 0 : tiles.odd_tiles_start;
    const int last = phase == 0 ? tiles.odd_tiles_start : tiles.tile_count();
    for (int t = first; t < last; ++t) {
      for (int m = tiles.tile_start[size_t(t)]; m < tiles.tile_start[size_t(t) + 1]; ++m) {
        const Spring& s = springs[size_t(tiles.order[size_t(m)])];
        for (int v : {s.i, s.j}) {
          ASSERT_TRUE(owner[size_t(v)] == -1 || owner[size_t(v)] == t)
              << "vertex " << v << " in tiles " << owner[size_t(v)] << " and " << t << " of phase " << phase;
          owner[size_t(v)] = t;
        }
      }
    }
  }
}

TEST(SpringTiles, EverySpringOnceAndTilesOfAPhaseShareNoVertex) {
  GridSpec spec;
  spec.nx = spec.ny = 40;
  const std::vector<Spring> grid = build_springs(make_grid(spec));
  for (int min_tile : {1, 50, 81, 300, 2048}) {
    const SpringTiles tiles(grid, 1600, min_tile);
    expect_valid_tiles(grid, 1600, tiles);
    // Bend springs span two rows (80 vertices): no tile is smaller than that.
    EXPECT_EQ(tiles.tile_count(), (1600 + std::max(min_tile, 80) - 1) / std::max(min_tile, 80)) << min_tile;
  }
  // Springs between far-apart vertices make the tiles as large as the farthest reach.
  std::vector<Spring> far = grid;
  far.push_back(Spring{0, 1599, 1.0});
  const SpringTiles one_tile(far, 1600, 50);
  expect_valid_tiles(far, 1600, one_tile);
  EXPECT_EQ(one_tile.tile_count(), 2);
}

}  // namespace
}  // namespace cloth
