// The membrane moduli behind each model's stretch and shear parameters, from static equilibria
// (Newton on the model's energy, solve_drape) on every cell shape of the cantilever tests:
//  - uniaxial tension: a strip of width w clamped at one end and pulled at the other by a dead
//    load F, free to narrow, lengthens by F / (Y w) in its middle (Y the 2D Young's modulus, N/m);
//  - simple shear: a square whose boundary is held on the field x' = x + gamma (z - z0) stores
//    1/2 G gamma^2 per unit area at rest (G the in-plane shear modulus, N/m).
// Each row (model x cells: measured / expected) is printed; docs/models.md quotes the table
// (`build/tests/engine_tests --gtest_filter='*Membrane*'`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "drape/static_drape.hpp"
#include "engine/support/patterned_grid.hpp"
#include "model/model.hpp"

namespace cloth {
namespace {

constexpr double kStretch = 1000;  // N/m
constexpr double kShear = 100;     // N/m
constexpr double kStrain = 1e-3;   // small strain: the linear moduli
constexpr double kCell = 0.005;    // m, cell size along x

SpringMaterial test_material() {
  SpringMaterial m;
  m.stretch = kStretch;
  m.shear = kShear;
  m.bend_element = BendElement::ShapeOperator;  // the bend springs would add 4 B / h^2 to the stretch
  return m;
}

// The model's Young's modulus along x (N/m) as its parameters state it.
double stated_young(const ClothModel& model) { return model.material.stretch; }

// The model's in-plane shear modulus (N/m) as its parameters state it. Feynman's lattice has no
// shear parameter: its G = 2 r k_s follows from the thread modulus and r (docs/models.md, 5.4).
double stated_shear(ModelType type, const ClothModel& model) {
  if (type == ModelType::Feynman) return 2 * model.material.diagonal_ratio * model.feynman_spring_k;
  return model.material.shear;
}

GridSpec grid_of(const CellShape& cell, int cells_along, double height) {
  GridSpec spec;
  spec.nx = cells_along + 1;
  spec.ny = int(std::lround(height / (kCell * cell.across))) + 1;
  spec.width = kCell * cells_along;
  spec.height = height;
  spec.plane = GridPlane::XZ;
  return spec;
}

struct Measured {
  double value = 0;
  bool converged = false;
  double lateral = 0;  ///< tension: the strip's width strain half way along
};

// Strain of a strip 6 w long, w = 0.02 m, between 2w and 4w from the clamp, under the dead load
// F = kStrain * Y * w along x on its free end: the end column's vertices are given masses
// proportional to their share of the width, in gravity 1 m/s^2 along x (kg = N), the others none.
Measured tension_strain(ModelType type, const CellShape& cell, double& expected) {
  constexpr double kWidth = 0.02;
  const GridSpec spec = grid_of(cell, 24, kWidth);
  const RestMesh mesh = patterned_grid(spec, cell.diagonals);
  ClothModel model = build_model(mesh, test_material(), type);
  const double force = kStrain * kStretch * kWidth;  // N
  std::fill(model.mass.begin(), model.mass.end(), 0.0);
  for (int j = 0; j < spec.ny; ++j) {
    const double share = (j == 0 || j == spec.ny - 1 ? 0.5 : 1.0) / (spec.ny - 1);
    model.mass[size_t(mesh.grid_index(spec.nx - 1, j))] = force * share;
  }
  std::vector<int> clamp;
  for (int j = 0; j < spec.ny; ++j) clamp.push_back(mesh.grid_index(0, j));
  DrapeOptions newton;
  newton.method = DrapeMethod::Newton;
  newton.max_iterations = 100;
  newton.force_tolerance = 1e-9 * force;
  expected = force / (stated_young(model) * kWidth);
  const DrapeResult rest = solve_drape(make_drape_problem(std::move(model), Vec3(1, 0, 0), clamp), newton);
  const int i1 = (spec.nx - 1) / 3, i2 = 2 * (spec.nx - 1) / 3;
  double gauge = 0;
  for (int j = 0; j < spec.ny; ++j) {
    gauge += (rest.x[size_t(mesh.grid_index(i2, j))].x() - rest.x[size_t(mesh.grid_index(i1, j))].x()) / spec.ny;
  }
  const double rest_gauge = mesh.positions[size_t(mesh.grid_index(i2, 0))].x() -
                            mesh.positions[size_t(mesh.grid_index(i1, 0))].x();
  const int middle = (spec.nx - 1) / 2;
  const auto width_at = [&](const std::vector<Vec3>& x) {
    return x[size_t(mesh.grid_index(middle, spec.ny - 1))].z() - x[size_t(mesh.grid_index(middle, 0))].z();
  };
  return {gauge / rest_gauge - 1, rest.converged, width_at(rest.x) / width_at(mesh.positions) - 1};
}

// G = 2 E / (gamma^2 A) of a 0.04 m square held on simple shear along its boundary, the interior
// at rest (Newton from the sheared field itself, which is the equilibrium of a uniform lattice).
Measured shear_modulus(ModelType type, const CellShape& cell, double& expected) {
  constexpr double kSide = 0.04;
  const GridSpec spec = grid_of(cell, 8, kSide);
  const RestMesh mesh = patterned_grid(spec, cell.diagonals);
  const ClothModel model = build_model(mesh, test_material(), type);
  expected = stated_shear(type, model);
  const double z0 = spec.center.z();
  std::vector<Vec3> start = mesh.positions;
  for (Vec3& p : start) p.x() += kStrain * (p.z() - z0);
  std::vector<int> boundary;
  for (int j = 0; j < spec.ny; ++j) {
    for (int i = 0; i < spec.nx; ++i) {
      if (i == 0 || j == 0 || i == spec.nx - 1 || j == spec.ny - 1) boundary.push_back(mesh.grid_index(i, j));
    }
  }
  DrapeOptions newton;
  newton.method = DrapeMethod::Newton;
  newton.max_iterations = 100;
  newton.force_tolerance = 1e-9 * kShear * kStrain * kCell;
  const DrapeProblem problem = make_drape_problem(model, Vec3::Zero(), boundary, {}, start);
  const DrapeResult rest = solve_drape(problem, newton);
  const double energy = drape_energy(problem, rest.x);  // no gravity: the elastic energy
  return {2 * energy / (kStrain * kStrain * kSide * kSide), rest.converged};
}

struct Case {
  ModelType type;
  CellShape cell;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name;
  for (char c : std::string(name_of(info.param.type)) + "_" + info.param.cell.name) {
    if (std::isalnum(static_cast<unsigned char>(c))) name += c;
    if (c == ':') name += "x";
  }
  return name;
}

std::vector<Case> cases(std::initializer_list<ModelType> types) {
  std::vector<Case> all;
  for (ModelType t : types) {
    for (const CellShape& cell : kCells) {
      if (t == ModelType::Feynman && cell.across != 1.0) continue;  // square cells only
      all.push_back({t, cell});
    }
  }
  return all;
}

class MembraneTension : public ::testing::TestWithParam<Case> {};
class MembraneShear : public ::testing::TestWithParam<Case> {};

TEST_P(MembraneTension, StrainIsForceOverStretchTimesWidth) {
  const Case& c = GetParam();
  double expected = 0;
  const Measured strain = tension_strain(c.type, c.cell, expected);
  std::printf("[membrane] %-14s %-11s tension strain %.5e, F/(stretch w) %.5e, ratio %.4f%s\n",
              name_of(c.type), c.cell.name, strain.value, expected, strain.value / expected,
              strain.converged ? "" : " (Newton stopped short)");
  EXPECT_TRUE(strain.converged);
  EXPECT_NEAR(strain.value, expected, 0.02 * expected);
}

TEST_P(MembraneShear, EnergyIsHalfShearModulusGammaSquared) {
  const Case& c = GetParam();
  double expected = 0;
  const Measured g = shear_modulus(c.type, c.cell, expected);
  std::printf("[membrane] %-14s %-11s shear modulus %.5e N/m, stated %.5e, ratio %.4f%s\n", name_of(c.type),
              c.cell.name, g.value, expected, g.value / expected, g.converged ? "" : " (Newton stopped short)");
  EXPECT_TRUE(g.converged);
  EXPECT_NEAR(g.value, expected, 0.02 * expected);
}

// Baraff-Witkin's stretch and shear conditions are its moduli on any triangulation; the springs
// lattice is sized to them (springs.cpp); the edge-area membrane's per-triangle forms are the
// orthotropic membrane's on any triangle, its area term included (edge_area_energy.hpp); Feynman's
// k_s is mapped from Y (5.4) with its edge's axial springs at half (feynman_energy.cpp), its G is
// 2 r k_s, and Breen's C of its links' linear term (breen_energy.hpp) and the trellis slope g1
// (its trellis corners store the integral of F cos A).
INSTANTIATE_TEST_SUITE_P(Models, MembraneTension,
                         ::testing::ValuesIn(cases({ModelType::Springs, ModelType::BaraffWitkin, ModelType::EdgeArea,
                                                    ModelType::Feynman, ModelType::Breen})),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Models, MembraneShear,
                         ::testing::ValuesIn(cases({ModelType::Springs, ModelType::BaraffWitkin, ModelType::EdgeArea,
                                                    ModelType::Feynman, ModelType::Breen})),
                         case_name);

// The edge-area model's area term beta couples the axes: the strip narrows by nu = 2 beta / c
// times its strain, c = a + 2 beta (edge_area_energy.hpp), while its Young's modulus stays Y.
TEST(MembraneTension, EdgeAreaNarrowsByItsPoissonRatio) {
  const SpringMaterial m = test_material();
  const double nu = 2 * m.area_stiffness / (edge_term_axial_modulus(m.stretch, m.area_stiffness) + 2 * m.area_stiffness);
  for (const Case& c : cases({ModelType::EdgeArea})) {
    double expected = 0;
    const Measured strain = tension_strain(c.type, c.cell, expected);
    std::printf("[membrane] %-14s %-11s Poisson ratio %.4f, 2 beta / c %.4f\n", name_of(c.type), c.cell.name,
                -strain.lateral / strain.value, nu);
    EXPECT_TRUE(strain.converged) << c.cell.name;
    EXPECT_NEAR(-strain.lateral / strain.value, nu, 0.03 * nu) << c.cell.name;
  }
}

}  // namespace
}  // namespace cloth
