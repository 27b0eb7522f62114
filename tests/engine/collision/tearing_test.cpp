// Tearing: cutting a mesh along broken edges splits exactly the vertices whose triangles
// fall apart, and a cloth pulled apart by two corners past the threshold rips into pieces under
// Verlet, XPBD and the implicit integrator, with no NaN; reset mends it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "simulation/simulation.hpp"
#include "collision/tearing.hpp"
#include "engine/support/model_names.hpp"
#include "engine/support/test_scenes.hpp"

namespace cloth {
namespace {

RestMesh grid(int n) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.width = spec.height = 0.5;
  spec.plane = GridPlane::XY;
  spec.center = Vec3(0, 1.5, 0);
  return make_grid(spec);
}

TEST(CutMesh, CuttingTheDiagonalOfASquareGivesTwoTriangles) {
  const RestMesh square = grid(2);
  ASSERT_EQ(square.triangles.size(), 2u);
  // The diagonal is the one edge both triangles share.
  EdgeKey diagonal{-1, -1};
  for (int a : square.triangles[0])
    for (int b : square.triangles[0])
      if (a < b && std::count(square.triangles[1].begin(), square.triangles[1].end(), a) &&
          std::count(square.triangles[1].begin(), square.triangles[1].end(), b))
        diagonal = {a, b};
  const CutMesh cut = cut_mesh(square, {diagonal});
  EXPECT_EQ(cut.mesh.vertex_count(), 6);
  EXPECT_EQ(connected_pieces(cut.mesh), 2);
  EXPECT_TRUE(cut.pending.empty());
  ASSERT_EQ(cut.parent.size(), 6u);
  for (int v = 4; v < 6; ++v) {
    const int from = cut.parent[size_t(v)];
    EXPECT_TRUE(from == diagonal.first || from == diagonal.second);
    EXPECT_EQ(cut.mesh.positions[size_t(v)], square.positions[size_t(from)]);
    EXPECT_EQ(cut.mesh.uv[size_t(v)], square.uv[size_t(from)]);
  }
  EXPECT_EQ(cut.mesh.grid_nx, 0) << "no longer a generated grid";
  EXPECT_NO_THROW(validate_mesh(cut.mesh, "cut square"));
}

TEST(CutMesh, BoundaryEdgesSeparateNothing) {
  const RestMesh square = grid(2);
  const CutMesh cut = cut_mesh(square, {edge_key(0, 1)});  // the bottom row's edge: one triangle
  EXPECT_EQ(cut.mesh.vertex_count(), 4);
  EXPECT_TRUE(cut.taken.empty());
  EXPECT_EQ(cut.mesh.grid_nx, 2) << "untouched";
}

TEST(CutMesh, AnInteriorCutWaitsUntilItReachesTheBoundaryOrAnotherCut) {
  const RestMesh mesh = grid(5);
  const int centre = mesh.grid_index(2, 2), right = mesh.grid_index(3, 2), left = mesh.grid_index(1, 2);
  const CutMesh one = cut_mesh(mesh, {edge_key(centre, right)});
  EXPECT_EQ(one.mesh.vertex_count(), 25) << "both ends interior: the fans only open";
  ASSERT_EQ(one.pending.size(), 1u);
  EXPECT_EQ(one.pending[0], edge_key(centre, right));

  const CutMesh two = cut_mesh(mesh, {edge_key(centre, right), edge_key(left, centre)});
  EXPECT_EQ(two.mesh.vertex_count(), 26) << "the centre splits into an upper and a lower side";
  EXPECT_TRUE(two.pending.empty()) << "the split centre separates both cut edges' sides";
  EXPECT_EQ(connected_pieces(two.mesh), 1) << "a slit, not a separation";
}

TEST(CutMesh, CuttingAWholeGridLineSeparatesTwoPiecesAndKeepsTheMass) {
  const RestMesh mesh = grid(6);
  std::vector<EdgeKey> line;  // every edge along row j = 3 (interior: triangles on both sides)
  for (int i = 0; i + 1 < 6; ++i) line.push_back(edge_key(mesh.grid_index(i, 3), mesh.grid_index(i + 1, 3)));
  const CutMesh cut = cut_mesh(mesh, line);
  EXPECT_EQ(connected_pieces(cut.mesh), 2);
  EXPECT_EQ(cut.mesh.vertex_count(), 36 + 6) << "each vertex of the line is copied once";
  EXPECT_TRUE(cut.pending.empty());
  const SpringMaterial material;
  for (ModelType type : {ModelType::Springs, ModelType::BaraffWitkin, ModelType::EdgeArea}) {
    const ClothModel whole = build_model(mesh, material, type), parts = build_model(cut.mesh, material, type);
    EXPECT_NEAR(parts.total_mass(), whole.total_mass(), 1e-12) << name_of(type);
  }
}

TEST(EdgesToBreak, MostStretchedFirstAtMostOnePerVertexNeverABoundaryEdge) {
  const ClothModel model = build_model(grid(4), SpringMaterial{}, ModelType::BaraffWitkin);
  ClothState state{model.mesh.positions, std::vector<Vec3>(16, Vec3::Zero())};
  for (int j = 0; j < 4; ++j)  // stretch the cloth 2x along x (every x-edge +100%)
    for (int i = 0; i < 4; ++i) state.x[size_t(model.mesh.grid_index(i, j))].x() *= 2.0;
  state.x[size_t(model.mesh.grid_index(2, 1))].x() += 0.05;  // and edge (1,1)-(2,1) a bit more
  const std::vector<int> breakable = breakable_edges(model);
  const std::vector<EdgeKey> chosen = edges_to_break(model, breakable, state, 0.5, 1000);
  ASSERT_FALSE(chosen.empty());
  EXPECT_EQ(chosen[0], edge_key(model.mesh.grid_index(1, 1), model.mesh.grid_index(2, 1)));
  std::vector<int> uses(16, 0);
  const CutMesh all = cut_mesh(model.mesh, chosen);
  EXPECT_EQ(all.taken.size(), chosen.size()) << "every chosen edge is interior";
  for (const EdgeKey& e : chosen) {
    EXPECT_EQ(++uses[size_t(e.first)], 1);
    EXPECT_EQ(++uses[size_t(e.second)], 1);
  }
  EXPECT_TRUE(edges_to_break(model, breakable, state, 1.5, 1000).empty()) << "nothing is 150% longer";
  EXPECT_EQ(edges_to_break(model, breakable, state, 0.5, 2).size(), 2u) << "the limit";
}

TEST(Tearing, BadSettingsAndGridOnlyModelsAreOneLineErrors) {
  const RestMesh mesh = grid(5);
  Simulation sim(build_model(mesh, SpringMaterial{}, ModelType::BaraffWitkin), {}, {}, SolverSettings{},
                 Vec3(0, -9.81, 0));
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), 0.0, -0.1, 11.0}) {
    EXPECT_THROW(sim.set_tearing({true, bad}), InputError) << bad;
  }
  EXPECT_THROW(sim.set_tearing({true, 0.5, 0}), InputError);
  EXPECT_FALSE(sim.tearing().settings().enabled) << "a refused setting changes nothing";
  Simulation grid_only(build_model(mesh, SpringMaterial{}, ModelType::Feynman), {}, {}, SolverSettings{},
                       Vec3(0, -9.81, 0));
  EXPECT_THROW(grid_only.set_tearing({true, 0.5}), InputError);
  sim.set_tearing({true, 0.5});
  EXPECT_THROW(sim.set_model_type(ModelType::Breen), InputError);
}

class TearingSim : public testing::TestWithParam<cloth::IntegratorType> {
 protected:
  SolverSettings solver() const {
    SolverSettings s;
    s.integrator = GetParam();
    s.substeps = GetParam() == cloth::IntegratorType::Implicit ? 2 : 40;
    return s;
  }
  /// A 0.5 m hanging square whose top corners move apart at 0.5 m/s each.
  Simulation pulled_apart(bool tearing) const {
    const RestMesh mesh = grid(12);
    SpringMaterial material;
    material.stretch = 200;  // N/m: stiff enough that the pull, not gravity, stretches it
    Simulation sim(build_model(mesh, material, ModelType::BaraffWitkin), {}, {}, solver(), Vec3(0, -9.81, 0));
    pull_top_corners_apart(sim, mesh);
    sim.set_tearing({tearing, 0.3});
    return sim;
  }
};

TEST_P(TearingSim, PullingTwoCornersApartRipsTheClothInTwo) {
  Simulation sim = pulled_apart(true);
  const int intact = sim.model().vertex_count();
  const auto topology = sim.topology_version();
  int torn_in_frames = 0;
  for (int frame = 0; frame < 150; ++frame) {  // 2.5 s: the corners end 3 m apart
    torn_in_frames += sim.step().torn_edges;
    ASSERT_TRUE(all_finite(sim.state())) << "frame " << frame;
  }
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_EQ(torn_in_frames, sim.tearing().torn_edges());
  EXPECT_GT(sim.tearing().torn_edges(), 0);
  EXPECT_GT(sim.model().vertex_count(), intact);
  EXPECT_GT(sim.topology_version(), topology);
  EXPECT_GE(connected_pieces(sim.model().mesh), 2) << "the cloth came apart";
  EXPECT_NEAR(sim.model().total_mass(), build_model(grid(12), sim.model().material, ModelType::BaraffWitkin).total_mass(), 1e-12);
  for (const Edge& e : sim.model().edges) {  // no piece keeps an edge past the threshold for long
    const double strain = edge_elongation(e, sim.state().x);
    EXPECT_LT(strain, 1.0) << "edge " << e.i << "-" << e.j;
  }

  sim.reset();
  EXPECT_EQ(sim.model().vertex_count(), intact) << "reset mends the cloth";
  EXPECT_EQ(sim.tearing().torn_edges(), 0);
  EXPECT_EQ(connected_pieces(sim.model().mesh), 1);
  sim.step();
  EXPECT_TRUE(all_finite(sim.state()));
}

TEST_P(TearingSim, WithoutTearingTheSameClothStretchesInOnePiece) {
  Simulation sim = pulled_apart(false);
  const int intact = sim.model().vertex_count();
  for (int frame = 0; frame < 60; ++frame) sim.step();
  EXPECT_EQ(sim.model().vertex_count(), intact);
  EXPECT_EQ(sim.tearing().torn_edges(), 0);
  EXPECT_EQ(connected_pieces(sim.model().mesh), 1);
}

INSTANTIATE_TEST_SUITE_P(ThreeIntegrators, TearingSim, testing::Values(cloth::IntegratorType::Verlet, cloth::IntegratorType::Xpbd, cloth::IntegratorType::Implicit),
                         integrator_test_name);

TEST(Tearing, ACalmHangingClothDoesNotTear) {
  const RestMesh mesh = grid(10);
  SolverSettings solver;
  solver.integrator = cloth::IntegratorType::Implicit;
  solver.substeps = 1;
  Simulation sim(build_model(mesh, SpringMaterial{}, ModelType::BaraffWitkin), {},
                 {mesh.grid_index(0, 0), mesh.grid_index(9, 0)}, solver, Vec3(0, -9.81, 0));
  sim.set_tearing({true, 0.5});
  for (int frame = 0; frame < 120; ++frame) sim.step();
  EXPECT_EQ(sim.tearing().torn_edges(), 0) << "gravity alone stretches it far less than 50%";
  EXPECT_EQ(sim.model().vertex_count(), 100);
}

}  // namespace
}  // namespace cloth
