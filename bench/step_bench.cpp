// Speed of one fixed step (1/60 s) of the mass-spring model with position Verlet, by grid size.
// Not a test: numbers go to bench/baselines/*.csv via bench/run.sh, never into an assertion.
#include <benchmark/benchmark.h>

#include "cloth/mesh.hpp"
#include "cloth/simulation.hpp"

namespace {

cloth::Simulation hanging_cloth(int n, int substeps) {
  cloth::GridSpec spec;
  spec.nx = spec.ny = n;
  cloth::SolverSettings solver;
  solver.substeps = substeps;
  const int last = n - 1;
  return cloth::Simulation(cloth::build_model(cloth::make_grid(spec), cloth::SpringMaterial{}),
                           {cloth::Collider{cloth::SphereShape{cloth::Vec3(0, 0.5, 0), 0.25}}},
                           {0, last}, solver, cloth::Vec3(0, -9.81, 0));
}

// One frame: `substeps` force evaluations + Verlet updates + contact passes.
void BM_VerletFrame(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int substeps = static_cast<int>(state.range(1));
  cloth::Simulation sim = hanging_cloth(n, substeps);
  for (auto _ : state) {
    sim.step();
    benchmark::DoNotOptimize(sim.state().x.data());
  }
  state.counters["vertices"] = n * n;
  state.counters["springs"] = static_cast<double>(sim.model().springs.size());
  state.counters["substeps"] = substeps;
  state.counters["instabilities"] = sim.instabilities();
}
BENCHMARK(BM_VerletFrame)
    ->Args({16, 100})
    ->Args({32, 100})
    ->Args({64, 100})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
