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
// the CG tolerance of 1e-6 instead of the default 1e-3 (docs/solver-internals.md).
// "implicit" uses IC(0) alone, "implicit-2threads" the same on two
// threads (the same bits, parallel.hpp), "implicit-2level" one thread with the two-level
// preconditioner (the default, coarse_correction.hpp), "implicit-2level-2threads" both.
// "implicit-bw-2level" and "implicit-bw-2level-2threads" are those on Baraff-Witkin's own model
// (stretch and shear triangles, bend hinges) instead of the springs grid.
// "BM_Accurate/<integrator>/<n>" is the strain-target search: the first setting of a ladder that
// keeps every edge within 2% through the whole run, timed (BM_Accurate below).
// Counters shared with the peer (bench_common.hpp): single-frame median / min, mean edge strain,
// heap. Not a test: numbers go to bench/baselines/*.csv via bench/run.sh, never into an assertion.
#include <benchmark/benchmark.h>

#include <algorithm>
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

// A simulation as the strain-target search (bench_common.hpp) runs it: one frame at a time.
struct Cloth {
  cloth::Simulation sim;
  void frame() { sim.step(); }
};

using Cached = bench::Found<Cloth>;

double max_strain(const Cloth& c) { return cloth::max_edge_strain(c.sim.model(), c.sim.state()); }

// One simulation per (variant, size), warmed up once and then shared by every run of that
// benchmark (repetitions continue from where the last one stopped, on a settled cloth).
Cached& warmed_up(const std::string& name, const Variant& variant, int n) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Cached>> cache;
  std::unique_ptr<Cached>& c = cache[{name, n}];
  if (!c) {
    // A ladder of one rung, run through its warm-up whatever its strain.
    c = std::make_unique<Cached>(bench::search_ladder<Cloth>(
        1, [&](int) { return std::make_unique<Cloth>(Cloth{bench::hanging_cloth(n, variant)}); }, [](const Cloth&) { return 0.0; }));
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

// The iterations per substep of the integrator's own solver (0 for the implicit step's CG,
// whose count its tolerance sets, and for the explicit integrators).
int iterations(const cloth::SolverSettings& s) {
  switch (s.integrator) {
    case cloth::IntegratorType::Xpbd: return s.xpbd_iterations;
    case cloth::IntegratorType::Projective: return s.projective_iterations;
    case cloth::IntegratorType::Vbd: return s.vbd_iterations;
    default: return 0;
  }
}

// Times the benchmark's frames on a warmed-up simulation and sets every counter. track_strain:
// the largest edge strain is taken after every frame (outside the single frame's clock) for
// run_max_strain; else only at the end.
void time_frames(benchmark::State& state, int n, Cached& cached, double stiffness, bool track_strain) {
  cloth::Simulation& sim = cached.cloth->sim;
  const auto steps0 = sim.statistics().rejected_steps;
  const cloth::StepTimings t0 = sim.statistics().total_timings;
  long long frames = 0, steps = 0, substeps = 0, cg = 0;
  bench::time_frames(
      state,
      [&] {
        const cloth::FrameReport r = sim.step();
        ++frames;
        steps += r.steps_taken;
        substeps += r.integration.substeps;
        cg += r.integration.solver_iterations;
        benchmark::DoNotOptimize(sim.state().x.data());
      },
      [&] {
        if (track_strain) cached.run_max_strain = std::max(cached.run_max_strain, max_strain(*cached.cloth));
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
  const bench::StrainSummary end = edge_strain(sim);
  bench::set_strain_counters(state, end);
  if (!track_strain) cached.run_max_strain = std::max(cached.run_max_strain, end.max);
  bench::set_setting_counters(state, {stiffness, iterations(sim.solver()), cached.rung, cached.run_max_strain});
  state.counters["instabilities"] = sim.statistics().instabilities;
}

void BM_Frame(benchmark::State& state, const std::string& name, const Variant& variant) {
  const int n = static_cast<int>(state.range(0));
  // run_max_strain here: the largest of the ends of the warm-up and of each repetition.
  time_frames(state, n, warmed_up(name, variant, n), variant.stiffness, false);
}

// The strain-target search's ladder for each integrator, from cheap to dear: substeps, then
// iterations per substep, then the material (a factor on the default springs, free in time). A
// material alone does not hold 2%: B&W's linearised step at 1/60 s stretches the edges that
// rotate as the cloth first falls (3-4% at 32^2 on 5x to 40x springs), and truncated iterations
// leave a stiff material soft, so the substeps climb first. The implicit step converges each
// solve (CG tolerance 1e-3, two-level preconditioner, B&W's adaptive steps): no iterations to
// climb; XPBD takes the substeps that make k h^2 / m = 1/4 (hanging_cloth.cpp) at each material;
// Verlet adds Provot's (1995) strain limit.
std::vector<Variant> ladder(cloth::IntegratorType integrator) {
  std::vector<Variant> rungs;
  auto add = [&](int substeps, int iterations) {
    for (double m : {5.0, 10.0, 20.0}) {
      Variant v{.integrator = integrator, .two_level = true, .stiffness = m};
      v.substeps = substeps;
      v.iterations = iterations;
      rungs.push_back(v);
    }
  };
  switch (integrator) {
    case cloth::IntegratorType::Projective:
    case cloth::IntegratorType::Vbd:
      for (int substeps : {1, 2, 4, 8, 16}) {
        add(substeps, 10);
        add(substeps, 20);
      }
      break;
    case cloth::IntegratorType::Implicit:
      for (int substeps : {1, 2, 4, 8, 16}) add(substeps, 0);
      break;
    case cloth::IntegratorType::Verlet:
      rungs = {Variant{.integrator = integrator, .stiffness = 1, .strain_limit = 0.02},
               Variant{.integrator = integrator, .stiffness = 1, .strain_limit = 0.01},
               Variant{.integrator = integrator, .stiffness = 5, .strain_limit = 0.01}};
      break;
    default:
      add(0, 0);
  }
  return rungs;
}

// BM_Accurate/<integrator>/<n>: the first rung of the integrator's ladder that keeps the largest
// edge strain within 2% at every frame (bench::search_ladder: from rest through the warm-up, and
// then through the timed frames, tracked here), timed as BM_Frame times its variants.
void BM_Accurate(benchmark::State& state, cloth::IntegratorType integrator) {
  const int n = static_cast<int>(state.range(0));
  static std::map<std::pair<cloth::IntegratorType, int>, std::unique_ptr<Cached>> cache;
  const std::vector<Variant> rungs = ladder(integrator);
  std::unique_ptr<Cached>& c = cache[{integrator, n}];
  if (!c) {
    c = std::make_unique<Cached>(bench::search_ladder<Cloth>(
        static_cast<int>(rungs.size()),
        [&](int r) { return std::make_unique<Cloth>(Cloth{bench::hanging_cloth(n, rungs[static_cast<std::size_t>(r)])}); },
        max_strain));
  }
  time_frames(state, n, *c, rungs[static_cast<std::size_t>(c->rung)].stiffness, true);
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
  // The search: 32^2, 64^2, 100^2 and 128^2 (Verlet to 64^2), kAccurateFrames timed frames after
  // the search's warm-up.
  const std::pair<const char*, cloth::IntegratorType> searched[] = {
      {"implicit", cloth::IntegratorType::Implicit}, {"projective", cloth::IntegratorType::Projective},
      {"vbd", cloth::IntegratorType::Vbd}, {"xpbd", cloth::IntegratorType::Xpbd}, {"verlet", cloth::IntegratorType::Verlet}};
  for (const auto& [name, integrator] : searched) {
    auto* b = benchmark::RegisterBenchmark((std::string("BM_Accurate/") + name).c_str(), BM_Accurate, integrator);
    for (int n : bench::kGridSizes) {
      if (n != 51 && n >= 32 && n <= (integrator == cloth::IntegratorType::Verlet ? 64 : 128)) b->Arg(n);
    }
    b->Unit(benchmark::kMillisecond)->Iterations(bench::kAccurateFrames);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
