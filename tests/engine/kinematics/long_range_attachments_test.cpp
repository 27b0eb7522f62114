// Long-range attachments (Kim, Chentanez & Müller 2012): the tethers go to the nearest pin along
// the mesh with the geodesic rest distance, the projection is one-sided and exact, and
// on a hanging cloth stepped by each iterative integrator with few iterations no vertex ends
// farther from its pin than its tether while the cloth without them stretches further.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <cstdint>
#include <vector>

#include "kinematics/long_range_attachments.hpp"
#include "mesh/mesh.hpp"
#include "core/enum_names.hpp"
#include "model/model.hpp"
#include "simulation/simulation.hpp"

namespace cloth {
namespace {

ClothModel grid_model(int n) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  return build_model(make_grid(spec), SpringMaterial{}, ModelType::Springs);
}

TEST(LongRangeAttachments, TetherToTheNearestPinAlongTheMesh) {
  const int n = 9;
  const ClothModel model = grid_model(n);
  const RestMesh& mesh = model.mesh;
  std::vector<std::uint8_t> pinned(size_t(n * n), 0);
  const int left = mesh.grid_index(0, 0), right = mesh.grid_index(n - 1, 0);
  pinned[size_t(left)] = pinned[size_t(right)] = 1;
  LongRangeAttachments tethers;
  tethers.update(model, pinned);
  const double cell = (mesh.positions[size_t(mesh.grid_index(1, 0))] - mesh.positions[size_t(left)]).norm();
  EXPECT_EQ(tethers.anchors()[size_t(left)], -1);  // a pin is not tethered
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const size_t v = size_t(mesh.grid_index(i, j));
      if (pinned[v]) continue;
      if (i < n / 2) {
        EXPECT_EQ(tethers.anchors()[v], left) << i << "," << j;
      } else if (i > n / 2) {
        EXPECT_EQ(tethers.anchors()[v], right) << i << "," << j;
      }
      const int pin = tethers.anchors()[v];
      ASSERT_GE(pin, 0);
      const double straight = (mesh.positions[v] - mesh.positions[size_t(pin)]).norm();
      // A path of edges: never shorter than the straight line, at most sqrt 2 longer on a grid
      // (where every diagonal runs across the way).
      EXPECT_GE(tethers.lengths()[v], straight * (1 - 1e-12));
      EXPECT_LE(tethers.lengths()[v], straight * std::sqrt(2.0) + 1e-12);
    }
  }
  EXPECT_NEAR(tethers.lengths()[size_t(mesh.grid_index(3, 0))], 3 * cell, 1e-12);  // along the edge row

  // One-sided and exact: a vertex pulled 50% past its tether comes back onto it (slack 0.02), one
  // inside it stays, the pins never move.
  std::vector<Vec3> x = mesh.positions;
  const size_t far = size_t(mesh.grid_index(2, 6)), near = size_t(mesh.grid_index(6, 6));
  const Vec3 pin_far = x[size_t(tethers.anchors()[far])];
  x[far] = pin_far + (x[far] - pin_far).normalized() * 1.5 * tethers.lengths()[far];
  x[near] += Vec3(0, 0.01, 0);
  const std::vector<Vec3> before = x;
  EXPECT_EQ(tethers.apply(x, 0.02), 1);
  EXPECT_NEAR((x[far] - pin_far).norm(), 1.02 * tethers.lengths()[far], 1e-12);
  EXPECT_EQ(x[near], before[near]);
  EXPECT_EQ(x[size_t(left)], before[size_t(left)]);
  EXPECT_EQ(x[size_t(right)], before[size_t(right)]);

  // A new pin rebuilds them; switched off (negative slack) nothing moves.
  pinned[size_t(mesh.grid_index(0, n - 1))] = 1;
  tethers.update(model, pinned);
  EXPECT_EQ(tethers.anchors()[size_t(mesh.grid_index(0, n - 2))], mesh.grid_index(0, n - 1));
  x[far] = pin_far + (x[far] - pin_far) * 3.0;
  EXPECT_EQ(tethers.enforce(model, pinned, -1, x), 0);
}

// A 24 x 24 cloth hung from two corners, one iteration per substep: every vertex stays within its
// tether (slack 0) after every step; where the cloth without them ends beyond its tethers, it
// stretches less with them, and never more.
class LongRangeHanging : public ::testing::TestWithParam<IntegratorType> {};

TEST_P(LongRangeHanging, NoVertexEndsFartherFromItsPinThanItsTether) {
  const auto run = [&](double slack, LongRangeAttachments* check) {
    const int n = 24;
    ClothModel model = grid_model(n);
    SolverSettings solver;
    solver.integrator = GetParam();
    solver.substeps = 2;
    solver.xpbd_iterations = solver.vbd_iterations = solver.projective_iterations = 1;
    solver.long_range_slack = slack;
    const std::vector<int> pins = {model.mesh.grid_index(0, n - 1), model.mesh.grid_index(n - 1, n - 1)};
    std::vector<std::uint8_t> pinned(size_t(n * n), 0);
    for (int p : pins) pinned[size_t(p)] = 1;
    Simulation sim(std::move(model), {}, pins, solver, Vec3(0, -9.81, 0));
    double worst = 0;  // largest distance / tether over the run
    if (check) check->update(sim.model(), pinned);
    for (int frame = 0; frame < 40; ++frame) {
      sim.step();
      if (!check) continue;
      for (size_t v = 0; v < check->anchors().size(); ++v) {
        if (check->anchors()[v] < 0) continue;
        const double d = (sim.state().x[v] - sim.state().x[size_t(check->anchors()[v])]).norm();
        worst = std::max(worst, d / check->lengths()[v]);
      }
    }
    double strain = 0;
    for (const Edge& e : sim.model().edges) strain = std::max(strain, edge_elongation(e, sim.state().x));
    return std::pair{worst, strain};
  };
  LongRangeAttachments check;
  const auto [worst, tethered_strain] = run(0.0, &check);
  const auto [worst_free, free_strain] = run(-1.0, &check);
  std::printf("[long-range] %s: largest distance / tether %.4f with, %.4f without; max edge strain %.3f "
              "with, %.3f without\n",
              name_of(GetParam()), worst, worst_free, tethered_strain, free_strain);
  EXPECT_LE(worst, 1 + 1e-9);
  EXPECT_LE(tethered_strain, free_strain + 1e-9);
  if (worst_free > 1.01) {
    EXPECT_LT(tethered_strain, 0.5 * free_strain);
  }
}

INSTANTIATE_TEST_SUITE_P(Iterative, LongRangeHanging,
                         ::testing::Values(IntegratorType::Xpbd, IntegratorType::Vbd),
                         [](const auto& param_info) { return std::string(name_of(param_info.param)); });

}  // namespace
}  // namespace cloth
