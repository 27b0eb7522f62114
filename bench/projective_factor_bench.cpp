// The projective integrator's global matrix (projective_integrator.hpp) on the frame benchmark's
// scene (hanging_cloth, 1/60 s): its factorisation and one solve for x, y and z, by Eigen's
// SimplicialLDLT (what the integrator uses) and by CHOLMOD's supernodal Cholesky. Built where
// CHOLMOD is found (Debian libsuitesparse-dev; bench/CMakeLists.txt). Argument: n.
#include <benchmark/benchmark.h>

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCholesky>

#include "hanging_cloth.hpp"
#include "integrators/projective_integrator.hpp"

namespace {

// The matrix the integrator factors for an n x n cloth: one step of it on the scene.
Eigen::SparseMatrix<double> projective_matrix(int n) {
  bench::Variant variant{cloth::IntegratorType::Projective};
  cloth::Simulation sim = bench::hanging_cloth(n, variant);
  cloth::ProjectiveIntegrator integrator;
  cloth::ClothState state = sim.state();
  const std::vector<cloth::Vec3> pin_positions = state.x;
  std::vector<std::uint8_t> pinned(state.x.size(), 0);
  pinned[0] = pinned[size_t(n - 1)] = 1;
  const cloth::SelfCollisionSettings no_self_collision;
  cloth::StepContext ctx;
  ctx.dt = sim.solver().dt;
  ctx.solver = &sim.solver();
  ctx.forces = &sim.external_forces();
  ctx.self_collision = &no_self_collision;
  ctx.kinematics.pinned = &pinned;
  ctx.kinematics.pin_positions = &pin_positions;
  integrator.step(state, sim.model(), ctx);
  return integrator.matrix();
}

template <class Solver>
void BM_ProjectiveFactor(benchmark::State& state) {
  const Eigen::SparseMatrix<double> a = projective_matrix(static_cast<int>(state.range(0)));
  Solver solver;
  for (auto _ : state) {
    solver.compute(a);
    benchmark::DoNotOptimize(solver.info());
  }
  state.counters["rows"] = static_cast<double>(a.rows());
}

template <class Solver>
void BM_ProjectiveSolve(benchmark::State& state) {
  const Eigen::SparseMatrix<double> a = projective_matrix(static_cast<int>(state.range(0)));
  Solver solver;
  solver.compute(a);
  const Eigen::MatrixX3d rhs = Eigen::MatrixX3d::Ones(a.rows(), 3);
  Eigen::MatrixX3d x;
  for (auto _ : state) {
    x = solver.solve(rhs);
    benchmark::DoNotOptimize(x.data());
  }
}

using Ldlt = Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>;
using Supernodal = Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>>;

BENCHMARK(BM_ProjectiveFactor<Ldlt>)->Name("BM_ProjectiveFactor/simplicial-ldlt")->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProjectiveFactor<Supernodal>)->Name("BM_ProjectiveFactor/cholmod-supernodal")->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProjectiveSolve<Ldlt>)->Name("BM_ProjectiveSolve/simplicial-ldlt")->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProjectiveSolve<Supernodal>)->Name("BM_ProjectiveSolve/cholmod-supernodal")->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
