// The Baraff-Witkin model assembled over a whole cloth: global force and Jacobians against finite
// differences (so the assembly equals the sum of the element blocks), and physics — a hanging
// cloth under the implicit integrator and a cantilever strip sagging like a beam.
#include <gtest/gtest.h>

#include <random>

#include "cloth/force_jacobians.hpp"
#include "cloth/mesh.hpp"
#include "cloth/simulation.hpp"

namespace cloth {
namespace {

ClothModel bw_model(int nx, int ny, const SpringMaterial& m, GridSpec spec = GridSpec{}) {
  spec.nx = nx;
  spec.ny = ny;
  return build_model(make_grid(spec), m, ModelType::BaraffWitkin);
}

SpringMaterial bw_material() {
  SpringMaterial m;
  m.stretch = 500;
  m.shear = 50;
  m.bending = 1e-3;
  m.damping = 0.3;
  m.bending_damping = 1e-4;
  m.rest_stretch_u = 0.95;  // anisotropic rest stretch exercises eq. 10's b_u, b_v
  m.rest_stretch_v = 1.05;
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

TEST(BWModel, AssembledForceIsMinusEnergyGradient) {
  SpringMaterial m = bw_material();
  m.damping = m.bending_damping = m.velocity_damping = 0;  // energy gradient only
  const ClothModel model = bw_model(5, 4, m);
  ClothState s = perturbed(model, 1);
  ExternalForces none;
  none.gravity.setZero();
  std::vector<Vec3> f;
  compute_forces(model, s, none, 0, f);
  const double eps = 1e-6;
  double worst = 0, scale = 0;
  for (int i = 0; i < model.vertex_count(); ++i) {
    for (int k = 0; k < 3; ++k) {
      ClothState p = s, q = s;
      p.x[i][k] += eps;
      q.x[i][k] -= eps;
      const double grad = (compute_energies(model, p, none.gravity).elastic -
                           compute_energies(model, q, none.gravity).elastic) / (2 * eps);
      worst = std::max(worst, std::abs(f[i][k] + grad));
      scale = std::max(scale, std::abs(f[i][k]));
    }
  }
  ASSERT_GT(scale, 1e-3);
  EXPECT_LT(worst, 1e-6 * scale);
}

TEST(BWModel, AssembledJacobiansMatchFiniteDifferencesOfTheAssembledForce) {
  const ClothModel model = bw_model(5, 4, bw_material());
  const ClothState s = perturbed(model, 2);
  ExternalForces ext;  // gravity only: constant, so it must not change the Jacobians
  const int n = model.vertex_count();
  BlockSparseMatrix dfdx(n, coupled_pairs(model)), dfdv = dfdx;
  std::vector<Vec3> f;
  compute_force_jacobians(model, s, ext, 0, /*definite=*/false, f, dfdx, dfdv);
  const Eigen::MatrixXd jx = Eigen::MatrixXd(dfdx.to_eigen()), jv = Eigen::MatrixXd(dfdv.to_eigen());
  Eigen::MatrixXd fdx(3 * n, 3 * n), fdv(3 * n, 3 * n);
  const double eps = 1e-6;
  std::vector<Vec3> fp, fm;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      ClothState p = s, q = s;
      p.v[i][k] += eps;
      q.v[i][k] -= eps;
      compute_forces(model, p, ext, 0, fp);
      compute_forces(model, q, ext, 0, fm);
      fdv.col(3 * i + k) = (as_flat(fp) - as_flat(fm)) / (2 * eps);
      p = s;
      q = s;
      p.x[i][k] += eps;
      q.x[i][k] -= eps;
      compute_forces(model, p, ext, 0, fp);
      compute_forces(model, q, ext, 0, fm);
      fdx.col(3 * i + k) = (as_flat(fp) - as_flat(fm)) / (2 * eps);
    }
  }
  EXPECT_LT((fdv - jv).norm(), 1e-6 * jv.norm()) << "df/dv is exact";
  // df/dx omits B&W's non-symmetric damping term (sec. 4.5) by design: with zero velocities the
  // two must agree exactly.
  ClothState still = s;
  for (Vec3& v : still.v) v.setZero();
  compute_force_jacobians(model, still, ext, 0, false, f, dfdx, dfdv);
  const Eigen::MatrixXd jx0 = Eigen::MatrixXd(dfdx.to_eigen());
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      ClothState p = still, q = still;
      p.x[i][k] += eps;
      q.x[i][k] -= eps;
      compute_forces(model, p, ext, 0, fp);
      compute_forces(model, q, ext, 0, fm);
      fdx.col(3 * i + k) = (as_flat(fp) - as_flat(fm)) / (2 * eps);
    }
  }
  EXPECT_LT((fdx - jx0).norm(), 1e-6 * jx0.norm()) << "df/dx at rest velocity is exact";
  EXPECT_LT((jx - jx.transpose()).norm(), 1e-9 * jx.norm()) << "df/dx is symmetric";
  // The definite variant is negative semidefinite, as the implicit solve needs.
  compute_force_jacobians(model, s, ext, 0, true, f, dfdx, dfdv);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Eigen::MatrixXd(dfdx.to_eigen()));
  EXPECT_LE(eig.eigenvalues().maxCoeff(), 1e-9 * jx.norm());
}

TEST(BWModel, RestStateHasNoForceOrEnergy) {
  const ClothModel model = bw_model(6, 6, SpringMaterial{});
  ClothState rest{model.mesh.positions, std::vector<Vec3>(model.vertex_count(), Vec3::Zero())};
  ExternalForces none;
  none.gravity.setZero();
  std::vector<Vec3> f;
  compute_forces(model, rest, none, 0, f);
  EXPECT_LT(as_flat(f).norm(), 1e-10);
  EXPECT_LT(compute_energies(model, rest, none.gravity).elastic, 1e-16);
}

TEST(BWModel, HangingClothUnderImplicitIsStableAndSettles) {
  GridSpec spec;
  spec.nx = spec.ny = 16;
  SolverSettings solver;
  solver.integrator = "implicit";
  solver.substeps = 1;
  SpringMaterial m;
  m.stretch = 2000;
  m.shear = 100;
  m.bending = 1e-5;
  m.damping = 0.5;
  Simulation sim(build_model(make_grid(spec), m, ModelType::BaraffWitkin), {}, {0, 15}, solver,
                 Vec3(0, -9.81, 0));
  double peak = 0;
  for (int s = 0; s < 600; ++s) {
    sim.step();
    peak = std::max(peak, sim.energies().kinetic);
  }
  EXPECT_EQ(sim.instabilities(), 0);
  EXPECT_LT(sim.energies().kinetic, 1e-3 * peak);
  EXPECT_NEAR(sim.state().x[15 * 16 + 7].y(), 1.0 - 1.0, 0.1) << "hangs about one metre down";
  EXPECT_LT(max_edge_strain(sim.model(), sim.state()), 0.05);
}

// Tip deflection of a strip clamped at one end (two columns pinned: position and slope), sagging
// under its own weight w = rho g per unit area, for `rows` cells across its width.
double cantilever_tip(int rows) {
  const double L = 0.2, rho = 0.15, g = 9.81, B = 0.03;
  const int nx = 41, ny = rows + 1;
  GridSpec spec;
  spec.nx = nx;
  spec.ny = ny;
  spec.width = L * (nx - 1) / (nx - 2);  // the clamp is at column 1: L beyond it
  spec.height = 0.04;
  spec.center = Vec3(0, 1, 0);
  SpringMaterial m;
  m.density = rho;
  m.stretch = 1e5;  // stiff in-plane: only bending matters
  m.shear = 1e4;
  m.bending = B;
  m.damping = 1.0;
  m.bending_damping = 1e-3;
  m.velocity_damping = 20;  // overdamped: settles in ~0.1 s; only the static shape matters
  const RestMesh mesh = make_grid(spec);
  std::vector<int> clamp;
  for (int j = 0; j < ny; ++j) {
    clamp.push_back(mesh.grid_index(0, j));
    clamp.push_back(mesh.grid_index(1, j));
  }
  SolverSettings solver;
  solver.integrator = "implicit";
  solver.dt = 0.01;
  solver.substeps = 1;
  solver.tolerance = 1e-8;
  solver.max_iterations = 5000;
  Simulation sim(build_model(mesh, m, ModelType::BaraffWitkin), {}, clamp, solver, Vec3(0, -g, 0));
  for (int s = 0; s < 150; ++s) sim.step();
  EXPECT_LT(sim.energies().kinetic, 1e-12) << "at rest";
  double tip = 0;
  for (int j = 0; j < ny; ++j) tip += (1.0 - sim.state().x[mesh.grid_index(nx - 1, j)].y()) / ny;
  return tip / (rho * g * std::pow(L, 4) / (8 * B));  // over beam theory delta = w L^4 / (8 B)
}

TEST(BWModel, CantileverStripConvergesToEulerBernoulliBeamAcrossItsWidth) {
  // Small-deflection beam theory per unit width: delta = w L^4 / (8 B) (here delta / L ~ 5%).
  // The dihedral-angle bend (sec. 4.3) on right-triangle grids is too soft: cells also fold along
  // their diagonals, in series with the folds across the strip. The error shrinks as the cells get
  // narrow across the width; with square cells (8 rows here) the strip is ~27% too soft. This
  // test pins down that behaviour (docs/physics.md); it fails if the bend model gets worse.
  const double r4 = cantilever_tip(4), r8 = cantilever_tip(8), r16 = cantilever_tip(16);
  EXPECT_GT(r4, r8);
  EXPECT_GT(r8, r16);
  EXPECT_GT(r16, 0.99) << "never stiffer than the beam";
  EXPECT_LT(r16, 1.10) << "within 10% of beam theory with 16 cells across";
  EXPECT_LT(r8, 1.35);
}

}  // namespace
}  // namespace cloth
