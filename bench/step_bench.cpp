// Speed of one frame (1/60 s) for every integrator and grid size on the same scene: a 1 m x 1 m
// cloth of total mass 0.1 kg hanging from two adjacent corners above a sphere of radius 0.3 m.
// Every integrator but XPBD runs with the adaptive step control of Baraff-Witkin section 7 and one
// substep, so each finds the step it needs for this stiffness by itself and the table shows the price:
// steps per frame, rejected steps, CG iterations per step (implicit), the assembly / solve /
// collision split of B&W Table 1, and the max edge strain at the end (a fast but rubbery result
// is visible). "implicit-free" is the implicit integrator on the same cloth without the sphere, the
// peer of Bullet's free variant (bullet_peer.cpp, built where Bullet is found); "xpbd-4x10" is XPBD
// with Bullet's settings there (4 substeps, 10 passes each, no step control), "xpbd-4x10-2threads"
// the same on two threads; "implicit-stiff" is "implicit" with 5x stiffer stretch and shear
// springs (5000 and 500 N/m: max strain about 2% at 100^2, the target), whose peer is
// Bullet with 100 passes ("bullet-100it"), "-2level" / "-2threads" as below, "-tol1e-6" with
// the CG tolerance of 1e-6 (the default until session 20; now 1e-3, docs/physics.md).
// "implicit" uses IC(0) alone (the default until session 18), "implicit-2threads" the same on two
// threads (the same bits, parallel.hpp), "implicit-2level" one thread with the two-level
// preconditioner (the default now, coarse_correction.hpp), "implicit-2level-2threads" both.
// Counters shared with the peer (bench_common.hpp): single-frame median / min, mean edge strain,
// heap. Not a test: numbers go to bench/baselines/*.csv via bench/run.sh, never into an assertion.
#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cloth/forces.hpp"
#include "cloth/mesh.hpp"
#include "cloth/simulation.hpp"
#include "bench_common.hpp"

namespace {

// A benchmarked configuration: an integrator and how it is run.
struct Variant {
  std::string integrator;
  bool free = false;         // no sphere
  bool bullet_like = false;  // XPBD with the peer's 4 substeps x 10 passes
  int threads = 1;
  bool two_level = false;    // the two-level preconditioner
  double stiffness = 1;      // factor on the default material's stretch and shear springs
  double tolerance = 0;      // the CG's epsilon; 0: SolverSettings' default (1e-3)
};

const std::vector<std::pair<std::string, Variant>> kVariants = {
    {"implicit", {"implicit"}},
    {"xpbd", {"xpbd"}},
    {"verlet", {"verlet"}},
    {"symplectic-euler", {"symplectic-euler"}},
    {"rk4", {"rk4"}},
    {"explicit-euler", {"explicit-euler"}},
    {"implicit-free", {"implicit", true}},
    {"xpbd-4x10", {"xpbd", false, true}},
    {"implicit-2threads", {"implicit", false, false, 2}},
    {"implicit-2level", {"implicit", false, false, 1, true}},
    {"implicit-2level-2threads", {"implicit", false, false, 2, true}},
    {"xpbd-4x10-2threads", {"xpbd", false, true, 2}},
    {"implicit-stiff", {"implicit", false, false, 1, false, 5}},
    {"implicit-stiff-2threads", {"implicit", false, false, 2, false, 5}},
    {"implicit-stiff-2level", {"implicit", false, false, 1, true, 5}},
    {"implicit-stiff-2level-2threads", {"implicit", false, false, 2, true, 5}},
    {"implicit-stiff-2level-tol1e-6", {"implicit", false, false, 1, true, 5, 1e-6}},
    {"implicit-stiff-2level-2threads-tol1e-6", {"implicit", false, false, 2, true, 5, 1e-6}},
};
using bench::kWarmupFrames;

cloth::Simulation hanging_cloth(int n, const Variant& variant) {
  const std::string& integrator = variant.integrator;
  cloth::GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = cloth::Vec3(0, 1, 0);
  cloth::SpringMaterial material;
  material.density = bench::kMass;  // kg/m^2 over 1 m^2
  material.stretch *= variant.stiffness;
  material.shear *= variant.stiffness;
  cloth::SolverSettings solver;
  solver.integrator = integrator;
  solver.substeps = 1;
  solver.adaptive = true;
  // Every variant runs on one thread (the "on one core") except the "-2threads" ones, the
  // same computation on two (the same bits, parallel.hpp).
  solver.threads = variant.threads;
  if (variant.tolerance > 0) solver.tolerance = variant.tolerance;
  solver.preconditioner = variant.two_level ? cloth::Preconditioner::two_level : cloth::Preconditioner::incomplete_cholesky;
  if (variant.bullet_like) {
    // Bullet's settings in the peer (bullet_peer.cpp): 4 substeps of 1/240 s, 10 Gauss-Seidel
    // passes over the constraints per substep; softer than Bullet's links (compliance 1/k).
    solver.substeps = 4;
    solver.xpbd_iterations = 10;
    solver.adaptive = false;
  } else if (integrator == "xpbd") {
    // XPBD is stable at any step but one pass per substep is soft unless k h^2 / m is small
    // (docs/physics.md): the stretch test cannot see softness, so XPBD gets the substeps that
    // make k h^2 / m = 1/4 for the lightest vertex instead of adaptive steps.
    const double vertex_mass = material.density / ((n - 1) * (n - 1));
    const double h = std::sqrt(0.25 * vertex_mass / material.stretch);
    solver.substeps = static_cast<int>(std::ceil(solver.dt / h));
    solver.adaptive = false;
  }
  std::vector<cloth::Collider> colliders;
  if (!variant.free) {
    colliders.push_back(cloth::Collider{cloth::SphereShape{
        cloth::Vec3(bench::kSphereX, bench::kSphereY, bench::kSphereZ), bench::kSphereRadius}});
  }
  return cloth::Simulation(cloth::build_model(cloth::make_grid(spec), material), colliders,
                           {0, n - 1}, solver, cloth::Vec3(0, -bench::kGravity, 0));
}

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
    c->sim = std::make_unique<cloth::Simulation>(hanging_cloth(n, variant));
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
  const auto steps0 = sim.rejected_steps();
  const cloth::StepTimings t0 = sim.total_timings();
  long long frames = 0, steps = 0, substeps = 0, cg = 0;
  bench::time_frames(state, [&] {
    const cloth::FrameReport r = sim.step();
    ++frames;
    steps += r.steps_taken;
    substeps += r.substeps;
    cg += r.solver_iterations;
    benchmark::DoNotOptimize(sim.state().x.data());
  });
  cached.heap.sample();
  const cloth::StepTimings& t1 = sim.total_timings();
  const double per_frame = frames > 0 ? 1.0 / static_cast<double>(frames) : 0.0;
  state.counters["vertices"] = n * n;
  state.counters["steps_per_frame"] = static_cast<double>(steps) * per_frame;
  // Integrator substeps, discarded attempts included: the work actually done per frame.
  state.counters["substeps_per_frame"] = static_cast<double>(substeps) * per_frame;
  state.counters["rejected_per_frame"] = static_cast<double>(sim.rejected_steps() - steps0) * per_frame;
  state.counters["cg_per_step"] = substeps > 0 ? static_cast<double>(cg) / static_cast<double>(substeps) : 0.0;
  state.counters["assembly_ms"] = (t1.assembly_ms - t0.assembly_ms) * per_frame;
  state.counters["solve_ms"] = (t1.solve_ms - t0.solve_ms) * per_frame;
  state.counters["collision_ms"] = (t1.collision_ms - t0.collision_ms) * per_frame;
  state.counters["heap_mib"] = cached.heap.mib();
  bench::set_strain_counters(state, edge_strain(sim));
  state.counters["instabilities"] = sim.instabilities();
}

// Registered at start-up: one benchmark per variant, one argument per grid size. Explicit
// methods need thousands of steps per frame on the finest grids; they are measured only where a
// frame takes seconds at most, which is itself the lesson of "Large Steps".
const bool kRegistered = [] {
  for (const auto& [name, variant] : kVariants) {
    auto* b = benchmark::RegisterBenchmark(("BM_Frame/" + name).c_str(), BM_Frame, name, variant);
    const bool cheap = variant.integrator == "implicit" || variant.integrator == "xpbd";
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
