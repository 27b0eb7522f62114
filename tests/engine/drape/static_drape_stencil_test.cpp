// Point relaxation (Feynman 1986, "Modeling the Appearance of Cloth", 4.1) moves one vertex at a
// time against the elements of its stencil alone: for every model, the stencil's force on a vertex
// is the model's whole internal force there, and moving the vertex changes the stencil's energy by
// what it changes the model's energy.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "drape/static_drape_internal.hpp"
#include "engine/support/model_names.hpp"
#include "forces/internal_forces.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"

namespace cloth {
namespace {

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

class DrapeStencil : public testing::TestWithParam<ModelType> {};

TEST_P(DrapeStencil, IsTheWholeModelSeenFromOneVertex) {
  GridSpec grid;
  grid.nx = grid.ny = 6;
  grid.width = grid.height = 0.25;  // square cells: Feynman's model accepts no others
  const ClothModel model = build_model(make_grid(grid), SpringMaterial{}, GetParam());
  std::mt19937 rng(41);
  ClothState state{model.mesh.positions, std::vector<Vec3>(model.mesh.positions.size())};
  for (Vec3& x : state.x) x += random_vec(rng, 0.01);  // folds and strains of a few percent
  for (Vec3& v : state.v) v = random_vec(rng, 0.1);    // damping forces too
  const int n = model.vertex_count();
  std::vector<Vec3> force(size_t(n), Vec3::Zero());
  add_internal_forces(model, state, force);
  double largest = 0;
  for (const Vec3& f : force) largest = std::max(largest, f.norm());
  ASSERT_GT(largest, 0);

  const drape::VertexStencils stencils = drape::build_stencils(model);
  const double energy = internal_energy(model, state);
  ASSERT_GT(energy, 0);
  for (int i = 0; i < n; ++i) {
    EXPECT_LT((drape::stencil_force(model, stencils, i, state.x, state.v) - force[size_t(i)]).norm(), 1e-10 * largest)
        << "vertex " << i;
    ClothState moved = state;
    moved.x[size_t(i)] += random_vec(rng, 0.01);
    const double change = internal_energy(model, moved) - energy;
    const double stencil_change = drape::stencil_energy(model, stencils, i, moved.x, moved.v) -
                                  drape::stencil_energy(model, stencils, i, state.x, state.v);
    EXPECT_NEAR(stencil_change, change, 1e-10 * energy) << "vertex " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(AllModels, DrapeStencil, testing::ValuesIn(all_values<ModelType>()), model_test_name);

}  // namespace
}  // namespace cloth
