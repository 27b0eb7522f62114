// Every material model assembled over a whole cloth: the global force is minus the gradient of the
// global energy, the assembled Jacobians equal finite differences of the assembled force (so the
// assembly is the sum of the element blocks), the definite variant is negative semidefinite, and
// the rest state carries no force or energy.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "forces/force_jacobians.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "engine/support/model_names.hpp"

namespace cloth {
namespace {

SpringMaterial test_material() {
  SpringMaterial m;
  m.stretch = 500;
  m.shear = 50;
  m.bending = 1e-3;
  m.damping = 0.3;
  m.bending_damping = 1e-4;
  m.rest_stretch_u = 0.95;  // anisotropic rest stretch exercises B&W eq. 10's b_u, b_v
  m.rest_stretch_v = 1.05;
  m.bend_k_v = 2.0;         // and anisotropic bending (B&W sec. 4.3, Breen's weft curve)
  m.velocity_damping = 0.2;
  return m;
}

ClothState perturbed(const ClothModel& model, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  ClothState s{model.mesh.positions, std::vector<Vec3>(model.vertex_count())};
  for (int i = 0; i < model.vertex_count(); ++i) {
    s.x[i] += 0.02 * Vec3(u(rng), u(rng), u(rng));
    s.v[i] = Vec3(u(rng), u(rng), u(rng));
  }
  return s;
}

class ModelAssembly : public ::testing::TestWithParam<ModelType> {
 protected:
  ClothModel model(const SpringMaterial& m) const {
    GridSpec spec;
    spec.nx = 5;
    spec.ny = 4;
    spec.height = 0.75;  // square cells (Feynman's lattice needs them)
    return build_model(make_grid(spec), m, GetParam());
  }
};

TEST_P(ModelAssembly, ForceIsMinusEnergyGradient) {
  SpringMaterial m = test_material();
  m.damping = m.bending_damping = m.velocity_damping = 0;  // energy gradient only
  const ClothModel cloth = model(m);
  ClothState s = perturbed(cloth, 1);
  ExternalForces none;
  none.gravity.setZero();
  none.air_density = 0;
  std::vector<Vec3> f;
  compute_forces(cloth, s, none, 0, f);
  const double eps = 1e-6;
  double worst = 0, scale = 0;
  for (int i = 0; i < cloth.vertex_count(); ++i) {
    for (int k = 0; k < 3; ++k) {
      ClothState p = s, q = s;
      p.x[i][k] += eps;
      q.x[i][k] -= eps;
      const double grad = (compute_energies(cloth, p, none.gravity).elastic -
                           compute_energies(cloth, q, none.gravity).elastic) / (2 * eps);
      worst = std::max(worst, std::abs(f[i][k] + grad));
      scale = std::max(scale, std::abs(f[i][k]));
    }
  }
  ASSERT_GT(scale, 1e-3);
  EXPECT_LT(worst, 1e-6 * scale);
}

// Central differences of the assembled force, by position or by velocity.
Eigen::MatrixXd fd_jacobian(const ClothModel& cloth, const ClothState& s, const ExternalForces& ext,
                            bool by_velocity) {
  const int n = cloth.vertex_count();
  Eigen::MatrixXd fd(3 * n, 3 * n);
  const double eps = 1e-6;
  std::vector<Vec3> fp, fm;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      ClothState p = s, q = s;
      (by_velocity ? p.v : p.x)[i][k] += eps;
      (by_velocity ? q.v : q.x)[i][k] -= eps;
      compute_forces(cloth, p, ext, 0, fp);
      compute_forces(cloth, q, ext, 0, fm);
      fd.col(3 * i + k) = (as_flat(fp) - as_flat(fm)) / (2 * eps);
    }
  }
  return fd;
}

TEST_P(ModelAssembly, JacobiansMatchFiniteDifferencesOfTheAssembledForce) {
  const ClothModel cloth = model(test_material());
  const ClothState s = perturbed(cloth, 2);
  ExternalForces ext;  // gravity only: constant, so it must not change the Jacobians
  const int n = cloth.vertex_count();
  BlockSparseMatrix dfdx(n, coupled_pairs(cloth)), dfdv = dfdx;
  std::vector<Vec3> f;
  compute_force_jacobians(cloth, s, ext, 0, /*definite=*/false, f, dfdx, dfdv);
  const Eigen::MatrixXd jx = Eigen::MatrixXd(dfdx.to_eigen()), jv = Eigen::MatrixXd(dfdv.to_eigen());
  EXPECT_LT((fd_jacobian(cloth, s, ext, true) - jv).norm(), 1e-6 * jv.norm()) << "df/dv is exact";
  // df/dx omits the damping's non-symmetric dependence on x (B&W sec. 4.5) by design: with zero
  // velocities the two must agree exactly.
  ClothState still = s;
  for (Vec3& v : still.v) v.setZero();
  compute_force_jacobians(cloth, still, ext, 0, false, f, dfdx, dfdv);
  const Eigen::MatrixXd jx0 = Eigen::MatrixXd(dfdx.to_eigen());
  EXPECT_LT((fd_jacobian(cloth, still, ext, false) - jx0).norm(), 1e-6 * jx0.norm())
      << "df/dx at rest velocity is exact";
  EXPECT_LT((jx - jx.transpose()).norm(), 1e-9 * jx.norm()) << "df/dx is symmetric";
  // The definite variant is negative semidefinite, as the implicit solve needs.
  compute_force_jacobians(cloth, s, ext, 0, true, f, dfdx, dfdv);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Eigen::MatrixXd(dfdx.to_eigen()));
  EXPECT_LE(eig.eigenvalues().maxCoeff(), 1e-9 * jx.norm());
}

// The implicit step assembles A = M - h ∂f/∂v - h² ∂f/∂x straight from the elements, with
// ∂f/∂x d for its right side, never storing either Jacobian (jacobian_target.hpp): the same
// matrix and product as the two stored Jacobians give, for every model (springs on two threads,
// Baraff-Witkin elements, the generic element path), with drag and a mouse spring.
TEST_P(ModelAssembly, CombinedTargetIsTheImplicitMatrixAndTheRightSidesProduct) {
  const ClothModel cloth = model(test_material());
  const ClothState s = perturbed(cloth, 3);
  ExternalForces ext;
  ext.drag = 2.0;
  ext.wind.type = WindField::Type::Gusty;  // a wind with a spatial gradient (air_jacobian)
  ext.wind.speed = 2.0;
  Grab grab;
  grab.vertex = 7;
  grab.target = s.x[7] + Vec3(0.1, 0.2, 0);
  grab.settings.mode = GrabMode::Spring;
  const int n = cloth.vertex_count();
  BlockSparseMatrix dfdx(n, coupled_pairs(cloth)), dfdv = dfdx;
  // A as the implicit step keeps it: only its blocks on and above the diagonal.
  BlockSparseMatrix A(n, coupled_pairs(cloth), BlockSparseMatrix::Storage::symmetric);
  const ElementSlots slots(cloth, dfdx);
  std::vector<Vec3> f_separate, f_combined, dfdx_d;
  std::vector<Vec3> d(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) d[size_t(i)] = s.v[size_t(i)] * 0.01 + Vec3(0.001 * i, -0.002, 0.0005 * (i % 3));

  JacobianTarget separate(dfdx, dfdv);
  compute_force_jacobians(cloth, s, ext, 0, /*definite=*/true, slots, f_separate, separate, nullptr, 2);
  add_grab_spring_jacobians(&grab, separate);
  const double h = 0.01;
  JacobianTarget combined(A, -h * h, -h, &d, &dfdx_d);
  compute_force_jacobians(cloth, s, ext, 0, /*definite=*/true, slots, f_combined, combined, nullptr, 2);
  add_grab_spring_jacobians(&grab, combined);

  EXPECT_EQ(f_combined, f_separate);
  const Eigen::MatrixXd X = Eigen::MatrixXd(dfdx.to_eigen()), V = Eigen::MatrixXd(dfdv.to_eigen());
  const Eigen::MatrixXd expected = -h * h * X - h * V;
  ASSERT_GT(V.norm(), 0.0);
  EXPECT_LT((Eigen::MatrixXd(A.to_eigen()) - expected).norm(), 1e-13 * expected.norm());
  Eigen::VectorXd flat_d(3 * n);
  for (int i = 0; i < n; ++i) flat_d.segment<3>(3 * i) = d[size_t(i)];
  const Eigen::VectorXd product = X * flat_d;
  ASSERT_EQ(dfdx_d.size(), size_t(n));
  EXPECT_LT((as_flat(dfdx_d) - product).norm(), 1e-12 * product.norm());
}

// The implicit step takes f from the pass that assembles the Jacobians (the springs tile by tile,
// on the solve's threads for a large cloth: ParallelSolve checks those bits): compute_forces' f,
// summed in another order.
TEST_P(ModelAssembly, ForcesOfTheJacobianPassAreComputeForces) {
  const ClothModel cloth = model(test_material());
  const ClothState s = perturbed(cloth, 4);
  ExternalForces ext;
  ext.drag = 2.0;
  ext.wind.type = WindField::Type::Gusty;
  ext.wind.speed = 2.0;
  const int n = cloth.vertex_count();
  BlockSparseMatrix A(n, coupled_pairs(cloth), BlockSparseMatrix::Storage::symmetric);
  const ElementSlots slots(cloth, A);
  JacobianTarget target(A, -1e-4, -1e-2);
  std::vector<Vec3> f, reference;
  compute_force_jacobians(cloth, s, ext, 0, /*definite=*/true, slots, f, target, nullptr, 2);
  compute_forces(cloth, s, ext, 0, reference);
  ASSERT_EQ(f.size(), reference.size());
  ext.gravity.setZero();
  std::vector<Vec3> material;  // what the elements add, without gravity's much larger share
  compute_forces(cloth, s, ext, 0, material);
  ASSERT_GT(as_flat(material).norm(), 1e-3);
  EXPECT_LT((as_flat(f) - as_flat(reference)).norm(), 1e-12 * as_flat(material).norm());
}

TEST_P(ModelAssembly, RestStateHasNoForceOrEnergy) {
  GridSpec spec;
  spec.nx = spec.ny = 6;
  const ClothModel cloth = build_model(make_grid(spec), SpringMaterial{}, GetParam());
  ClothState rest{cloth.mesh.positions, std::vector<Vec3>(cloth.vertex_count(), Vec3::Zero())};
  ExternalForces none;
  none.gravity.setZero();
  none.air_density = 0;
  std::vector<Vec3> f;
  compute_forces(cloth, rest, none, 0, f);
  EXPECT_LT(as_flat(f).norm(), 1e-10);
  EXPECT_LT(compute_energies(cloth, rest, none.gravity).elastic, 1e-16);
}

INSTANTIATE_TEST_SUITE_P(AllModels, ModelAssembly, ::testing::ValuesIn(all_values<ModelType>()),
                         model_test_name);

}  // namespace
}  // namespace cloth
