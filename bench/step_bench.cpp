// Speed of one frame (1/60 s) for every integrator and grid size on the same scene: a 1 m x 1 m
// cloth of total mass 0.1 kg hanging from two adjacent corners above a sphere of radius 0.3 m.
// Every integrator but XPBD, projective dynamics and VBD (one fixed step of 1/60 s, their default
// iterations and Chebyshev rho, hanging_cloth.cpp) runs with the adaptive step control of Baraff-Witkin section 7 and one
// substep, so each finds the step it needs for this stiffness by itself and the table shows the price:
// steps per frame, rejected steps, CG iterations per step (implicit), the assembly / solve /
// collision split of B&W Table 1, and the max edge strain at the end (a fast but rubbery result
// is visible). "implicit-free" is the implicit integrator on the same cloth without the sphere, the
// peer of Bullet's free variant (bullet_peer.cpp, built where Bullet is found); "xpbd-4x10" is XPBD
// with Bullet's settings there (4 substeps, 10 passes each, no step control), "xpbd-4x10-2threads"
// the same on two threads, "xpbd-4x10-bullet-links" the same on Bullet's links (hanging_cloth.cpp);
// "implicit-stiff" is "implicit" with 5x stiffer stretch and shear springs (5000 and 500 N/m: max
// strain about 2% at 100^2, the strain target), whose peer is Bullet with 100 passes
// ("bullet-100it"), "-2level" / "-2threads" as below, "-tol1e-6" with
// the CG tolerance of 1e-6 instead of the default 1e-3 (docs/physics.md).
// "implicit" uses IC(0) alone, "implicit-2threads" the same on two
// threads (the same bits, parallel.hpp), "implicit-2level" one thread with the two-level
// preconditioner (the default, coarse_correction.hpp), "implicit-2level-2threads" both.
// "implicit-bw-2level" and "implicit-bw-2level-2threads" are those on Baraff-Witkin's own model
// (stretch and shear triangles, bend hinges) instead of the springs grid.
// Counters shared with the peer (bench_common.hpp): single-frame median / min, mean edge strain,
// heap. Not a test: numbers go to bench/baselines/*.csv via bench/run.sh, never into an assertion.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "simulation/simulation.hpp"
#include "bench_common.hpp"
#include "hanging_cloth.hpp"

namespace {

using bench::kWarmupFrames;
using bench::Variant;

struct Cached {
  std::unique_ptr<cloth::Simulation> sim;
  bench::HeapPeak heap;
};

// One simulation per (variant, size), warmed up once and then shared by every run of that
// benchmark (repetitions continue from where the last one stopped, on a settled cloth).
Cached& warmed_up(const std::string& name, const Variant& variant, int n) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Cached>> cache;
  std::unique_ptr<Cached>& c = cache[{name, n}];
  if (!c) {
    c = std::make_unique<Cached>();
    c->sim = std::make_unique<cloth::Simulation>(bench::hanging_cloth(n, variant));
    c->heap.sample();
    for (int f = 0; f < kWarmupFrames; ++f) {
      c->sim->step();
      c->heap.sample();
    }
  }
  return *c;
}

bench::StrainSummary edge_strain(const cloth::Simulation& sim) {
  bench::StrainSummary s;
  const std::vector<cloth::Edge>& edges = sim.model().edges;
  if (edges.empty()) return s;
  double sum = 0;
  for (const cloth::Edge& e : edges) sum += cloth::edge_elongation(e, sim.state().x);
  s.max = cloth::max_edge_strain(sim.model(), sim.state());
  s.mean = sum / static_cast<double>(edges.size());
  return s;
}

void BM_Frame(benchmark::State& state, const std::string& name, const Variant& variant) {
  const int n = static_cast<int>(state.range(0));
  Cached& cached = warmed_up(name, variant, n);
  cloth::Simulation& sim = *cached.sim;
  const auto steps0 = sim.statistics().rejected_steps;
  const cloth::StepTimings t0 = sim.statistics().total_timings;
  long long frames = 0, steps = 0, substeps = 0, cg = 0;
  bench::time_frames(state, [&] {
    const cloth::FrameReport r = sim.step();
    ++frames;
    steps += r.steps_taken;
    substeps += r.integration.substeps;
    cg += r.integration.solver_iterations;
    benchmark::DoNotOptimize(sim.state().x.data());
  });
  cached.heap.sample();
  const cloth::StepTimings& t1 = sim.statistics().total_timings;
  const double per_frame = frames > 0 ? 1.0 / static_cast<double>(frames) : 0.0;
  state.counters["vertices"] = n * n;
  state.counters["steps_per_frame"] = static_cast<double>(steps) * per_frame;
  // Integrator substeps, discarded attempts included: the work actually done per frame.
  state.counters["substeps_per_frame"] = static_cast<double>(substeps) * per_frame;
  state.counters["rejected_per_frame"] = static_cast<double>(sim.statistics().rejected_steps - steps0) * per_frame;
  state.counters["cg_per_step"] = substeps > 0 ? static_cast<double>(cg) / static_cast<double>(substeps) : 0.0;
  state.counters["assembly_ms"] = (t1.assembly_ms - t0.assembly_ms) * per_frame;
  state.counters["solve_ms"] = (t1.solve_ms - t0.solve_ms) * per_frame;
  state.counters["collision_ms"] = (t1.collision_ms - t0.collision_ms) * per_frame;
  state.counters["heap_mib"] = cached.heap.mib();
  bench::set_strain_counters(state, edge_strain(sim));
  state.counters["instabilities"] = sim.statistics().instabilities;
}

// Registered at start-up: one benchmark per variant, one argument per grid size. Explicit
// methods need thousands of steps per frame on the finest grids; they are measured only where a
// frame takes seconds at most, which is itself the lesson of "Large Steps".
const bool kRegistered = [] {
  for (const auto& [name, variant] : bench::variants()) {
    auto* b = benchmark::RegisterBenchmark(("BM_Frame/" + name).c_str(), BM_Frame, name, variant);
    const bool cheap = variant.integrator == cloth::IntegratorType::Implicit || variant.integrator == cloth::IntegratorType::Xpbd ||
                       variant.integrator == cloth::IntegratorType::Projective || variant.integrator == cloth::IntegratorType::Vbd;
    for (int n : bench::kGridSizes) {
      if (cheap || n <= 64) b->Arg(n);
    }
    // A fixed number of frames: no iteration-count probing, so each configuration costs
    // warm-up + frames x repetitions.
    b->Unit(benchmark::kMillisecond)->Iterations(cheap ? 30 : 10);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
