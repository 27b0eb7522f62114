// The implicit step's in-place assembly (ElementSlots: each element's blocks added straight into
// value slots looked up once per topology) gives, entry by entry, the matrices that looking every
// block up in its row gives, on an intact and on a torn mesh; and an integrator handed a new
// topology with the same vertex count rebuilds its pattern (its step equals a fresh one's, bit for
// bit).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "forces/aerodynamics.hpp"
#include "forces/force_jacobians.hpp"
#include "integrators/implicit_euler.hpp"
#include "forces/internal_forces.hpp"
#include "collision/tearing.hpp"

namespace cloth {
namespace {

constexpr int kNx = 6, kNy = 5;

RestMesh grid(int nx = kNx, int ny = kNy) {
  GridSpec spec;
  spec.nx = nx;
  spec.ny = ny;
  return make_grid(spec);
}

ClothModel bw_model(RestMesh mesh, ModelType type = ModelType::BaraffWitkin) {
  SpringMaterial m;
  m.stretch = 500;
  m.shear = 50;
  m.bending = 1e-3;
  m.damping = 0.3;
  m.bending_damping = 1e-4;
  m.velocity_damping = 0.2;
  return build_model(std::move(mesh), m, type);
}

// The grid cut along the vertical edges of column c, bottom to top: two pieces.
ClothModel torn_along_column(int c, ModelType type = ModelType::BaraffWitkin) {
  std::vector<EdgeKey> cuts;
  for (int j = 0; j + 1 < kNy; ++j) cuts.push_back(edge_key(j * kNx + c, (j + 1) * kNx + c));
  CutMesh cut = cut_mesh(grid(), cuts);
  EXPECT_EQ(cut.taken.size(), cuts.size());
  EXPECT_EQ(connected_pieces(cut.mesh), 2);
  return bw_model(std::move(cut.mesh), type);
}

ClothState perturbed(const ClothModel& model) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  ClothState s{model.mesh.positions, std::vector<Vec3>(size_t(model.vertex_count()))};
  for (size_t i = 0; i < s.x.size(); ++i) {
    s.x[i] += 0.02 * Vec3(u(rng), u(rng), u(rng));
    s.v[i] = Vec3(u(rng), u(rng), u(rng));
  }
  return s;
}

ExternalForces with_drag() {
  ExternalForces ext;  // the default quadratic drag in still air ...
  ext.drag = 2.0;      // ... and the linear one
  return ext;
}

// Reference: every block looked up on its own (BlockSparseMatrix::add) in a pattern built here,
// summed in the order of compute_force_jacobians: the material's elements, velocity damping, then
// the drag triangles' symmetric blocks (definite = false: no projection).
void reference_jacobians(const ClothModel& model, const ClothState& s, const ExternalForces& ext,
                         BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv) {
  dfdx = BlockSparseMatrix(model.vertex_count(), coupled_pairs(model));
  dfdv = BlockSparseMatrix(model.vertex_count(), coupled_pairs(model));
  JacobianTarget jac(dfdx, dfdv);
  add_internal_jacobians(model, s, /*definite=*/false, jac);
  dfdv.add_diagonal(model.mass, -model.material.velocity_damping);
  for (const auto& tri : model.mesh.triangles) {
    const std::array<Vec3, 3> x{s.x[tri[0]], s.x[tri[1]], s.x[tri[2]]};
    const std::array<Vec3, 3> v{s.v[tri[0]], s.v[tri[1]], s.v[tri[2]]};
    Eigen::Matrix3d air_jacobian;
    const Vec3 air = ext.wind.velocity((x[0] + x[1] + x[2]) / 3.0, 0, &air_jacobian);
    const AeroTriangle a = aero_triangle(x, v, air_drag(ext, model.material), air, air_jacobian);
    Eigen::Matrix<double, 9, 9> exact;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) exact.block<3, 3>(3 * i, 3 * k) = a.dfdx[k];
    const Eigen::Matrix<double, 9, 9> sym = 0.5 * (exact + exact.transpose());
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        dfdx.add(tri[i], tri[k], sym.block<3, 3>(3 * i, 3 * k));
        dfdv.add(tri[i], tri[k], a.dfdv);
      }
    }
  }
}

void expect_in_place_equals_reference(const ClothModel& model, int threads = 1) {
  const ClothState s = perturbed(model);
  const ExternalForces ext = with_drag();
  BlockSparseMatrix dfdx(model.vertex_count(), coupled_pairs(model)), dfdv = dfdx;
  const ElementSlots slots(model, dfdx);
  std::vector<Vec3> f;
  // Twice: the second assembly overwrites the first's values in place.
  for (int pass = 0; pass < 2; ++pass) {
    JacobianTarget jac(dfdx, dfdv);
    compute_force_jacobians(model, s, ext, 0, /*definite=*/false, slots, f, jac, nullptr, threads);
  }
  BlockSparseMatrix ref_dfdx, ref_dfdv;
  reference_jacobians(model, s, ext, ref_dfdx, ref_dfdv);
  const Eigen::MatrixXd x = Eigen::MatrixXd(dfdx.to_eigen()), rx = Eigen::MatrixXd(ref_dfdx.to_eigen());
  const Eigen::MatrixXd v = Eigen::MatrixXd(dfdv.to_eigen()), rv = Eigen::MatrixXd(ref_dfdv.to_eigen());
  ASSERT_EQ(x.rows(), 3 * model.vertex_count());
  ASSERT_GT(rx.cwiseAbs().maxCoeff(), 1.0);
  for (int r = 0; r < x.rows(); ++r) {
    for (int c = 0; c < x.cols(); ++c) {
      ASSERT_EQ(x(r, c), rx(r, c)) << "df/dx entry (" << r << ", " << c << ")";
      ASSERT_EQ(v(r, c), rv(r, c)) << "df/dv entry (" << r << ", " << c << ")";
    }
  }
  // The explicit steps' forces sum the bend by shared hinges (add_shape_operator_bend_forces), in
  // another order than the elements: equal to round-off.
  std::vector<Vec3> ref_f;
  compute_forces(model, s, ext, 0, ref_f);
  ASSERT_EQ(f.size(), ref_f.size());
  double scale = 0;
  for (const Vec3& g : ref_f) scale = std::max(scale, g.norm());
  for (size_t i = 0; i < f.size(); ++i) EXPECT_LE((f[i] - ref_f[i]).norm(), 1e-13 * scale) << "vertex " << i;
}

TEST(ElementSlots, InPlaceAssemblyEqualsBlockByBlockLookUpEntryByEntry) {
  expect_in_place_equals_reference(bw_model(grid()));
}

// On two and three threads the Baraff-Witkin elements are evaluated side by side, a chunk of
// 512 at a time, and still added in element order (evaluate_then_add): the same bits as the
// references, which add one by one. 24 x 24 vertices: 1058 triangles and 1541 hinges, three and
// four chunks, the first thread adding one while the others evaluate the next.
TEST(ElementSlots, InPlaceAssemblyOnSeveralThreadsEqualsBlockByBlockLookUpEntryByEntry) {
  const ClothModel model = bw_model(grid(24, 24));
  ASSERT_GT(model.bw_triangles.size(), 2u * 512u);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(threads);
    expect_in_place_equals_reference(model, threads);
  }
}

TEST(ElementSlots, InPlaceAssemblyEqualsBlockByBlockLookUpAfterATear) {
  const ClothModel torn = torn_along_column(2);
  ASSERT_EQ(torn.vertex_count(), kNx * kNy + kNy);  // the column's vertices were copied
  expect_in_place_equals_reference(torn);
}

// Also with springs, whose weak bend springs the integrator leaves out of IC(0) by slot: the
// slots of the old pattern must not be applied to the new one.
TEST(ElementSlots, IntegratorRebuildsItsPatternForANewTopologyOfTheSameSize) {
  for (ModelType type : {ModelType::BaraffWitkin, ModelType::Springs}) {
    SCOPED_TRACE(type == ModelType::Springs ? "springs" : "Baraff-Witkin");
    const ClothModel intact = bw_model(grid(), type), left = torn_along_column(1, type),
                     right = torn_along_column(3, type);
    ASSERT_EQ(left.vertex_count(), right.vertex_count());
    ASSERT_NE(left.mesh.triangles, right.mesh.triangles);
    SolverSettings solver;  // the PCG as this test was written for: IC(0) to 1e-6
    solver.preconditioner = Preconditioner::incomplete_cholesky;
    solver.tolerance = 1e-6;
    const ExternalForces forces = with_drag();
    const SelfCollisionSettings no_self_collision;
    StepContext ctx;
    ctx.solver = &solver;
    ctx.forces = &forces;
    ctx.self_collision = &no_self_collision;
    const std::vector<std::uint8_t> pinned_intact(size_t(intact.vertex_count()), 0);
    const std::vector<std::uint8_t> pinned_torn(size_t(right.vertex_count()), 0);
    ImplicitEulerIntegrator reused, fresh;
    ClothState s = perturbed(intact);
    ctx.kinematics.pinned = &pinned_intact;
    reused.step(s, intact, ctx);
    ctx.kinematics.pinned = &pinned_torn;
    s = perturbed(left);
    reused.step(s, left, ctx);
    ClothState a = perturbed(right), b = a;
    reused.step(a, right, ctx);
    fresh.step(b, right, ctx);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.v, b.v);
  }
}

// The bend springs' pairs, and nothing else, while the bend springs are weak: their h² k + h k_d
// below a tenth of the shear springs'. None once bending is as stiff as the shear springs, or the
// step is so short that the springs' damping (the same k_d for all) outweighs their stiffness.
TEST(WeakBendSlots, AreTheBendSpringsPairsWhileTheyAreWeak) {
  struct Case {
    double bending, h;  // N m (k_bend = B / r^2 with r = 0.2-0.25 m here), s
    bool weak;
  };
  for (const Case& c : {Case{1e-3, 1.0 / 60, true}, Case{10.0, 1.0 / 60, false},
                        Case{1e-3, 1e-4, false}}) {
    SCOPED_TRACE(testing::Message() << "bending " << c.bending << " N m, h " << c.h << " s");
    SpringMaterial m;
    m.stretch = 500;
    m.shear = 50;
    m.bending = c.bending;
    m.damping = 0.02;  // N s/m, the default: h k_d = 3.3e-4 kg at 1/60 s
    m.bend_element = BendElement::BendSprings;
    const ClothModel model = build_model(grid(), m, ModelType::Springs);
    const BlockSparseMatrix A(model.vertex_count(), coupled_pairs(model),
                              BlockSparseMatrix::Storage::symmetric);
    std::vector<char> weak;
    std::vector<double> scratch;
    weak_bend_springs(model, c.h, weak, scratch);
    const std::vector<char> left_out = weak_bend_slots(model, A, weak);
    ASSERT_EQ(left_out.size(), size_t(A.slots()));
    std::vector<char> bend_pair(size_t(A.slots()), 0);
    int bends = 0;
    for (size_t k = 0; k < model.springs.size(); ++k) {
      const Spring& s = model.springs[k];
      const auto coefficient = [&](double stiffness) { return c.h * c.h * stiffness + c.h * s.kd; };
      if (s.type != SpringType::Bend) {
        EXPECT_FALSE(weak[k]);
        continue;
      }
      ++bends;
      EXPECT_EQ(bool(weak[k]), coefficient(s.k) < 0.1 * coefficient(m.shear)) << "spring " << k;
      bend_pair[size_t(A.slot(s.i, s.j))] = bend_pair[size_t(A.slot(s.j, s.i))] = 1;
    }
    ASSERT_GT(bends, 0);
    if (c.weak) {
      EXPECT_EQ(left_out, bend_pair) << "a grid's bend springs couple pairs nothing else couples";
    } else {
      EXPECT_EQ(std::count(left_out.begin(), left_out.end(), 1), 0) << "none is weak";
    }
  }
}

// The integrator itself leaves the weak bend springs out of IC(0), and puts them back when they
// stop being weak: on a row-major grid the separator of IC(0)'s nested dissection is two rows
// with the bend springs' blocks (they reach two rows on) and one without them
// (IncompleteCholesky.SeparatorOfARowMajorGrid...), so it tells which pattern was factored.
TEST(WeakBendSlots, TheImplicitStepLeavesThemOutOfIncompleteCholeskyWhileTheyAreWeak) {
  constexpr int kN = 16;
  GridSpec spec;
  spec.nx = spec.ny = kN;
  SpringMaterial m;  // the default bending, 1e-4 N m: k_bend far below a tenth of the shear k
  m.bend_element = BendElement::BendSprings;
  const ClothModel weak = build_model(make_grid(spec), m, ModelType::Springs);
  m.bending = 10.0;  // N m: as stiff as the shear springs, or stiffer
  const ClothModel stiff = build_model(make_grid(spec), m, ModelType::Springs);
  const std::vector<std::uint8_t> pinned(size_t(weak.vertex_count()), 0);
  SolverSettings solver;
  solver.preconditioner = Preconditioner::incomplete_cholesky;
  const ExternalForces forces;
  const SelfCollisionSettings no_self_collision;
  StepContext ctx;
  ctx.solver = &solver;
  ctx.forces = &forces;
  ctx.self_collision = &no_self_collision;
  ctx.kinematics.pinned = &pinned;
  ImplicitEulerIntegrator integrator;
  const auto separator_after_a_step = [&](const ClothModel& model) {
    ClothState s = perturbed(model);
    integrator.step(s, model, ctx);
    return integrator.pcg_workspace().ic.separator_size();
  };
  const int weak_separator = separator_after_a_step(weak);
  EXPECT_GE(weak_separator, kN);
  EXPECT_LE(weak_separator, kN + 1);
  EXPECT_EQ(separator_after_a_step(stiff), 2 * kN) << "the same pattern, its bend springs no longer weak";
  EXPECT_EQ(separator_after_a_step(weak), weak_separator) << "weak again";
}

}  // namespace
}  // namespace cloth
