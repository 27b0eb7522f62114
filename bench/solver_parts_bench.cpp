// The implicit step's solve, part by part, on one fixed system: the "implicit-2level" scene's cloth
// at n x n vertices, flat and at rest, lowered by 0.4 m onto the sphere, the vertices that would
// be inside it pushed out radially onto its offset surface (a cap of about a sixth of the cloth,
// its springs stretched around it). A = M - h ∂f/∂v - h² ∂f/∂x at h = 1/60 s as the step
// assembles it (B&W eq. 16), the pins fixed and the vertices on the sphere constrained along its
// normal (like the step's contacts, without its stick / slide states), b = h f; IC(0) leaves out
// the weak bend springs' blocks, as the step's does (implicit_euler.cpp). The system is
// built without running any solver, so it is the same matrix for every version of the code: a
// frame's time moves with its CG count, which is chaotic in the simulated scene (a change of
// rounding moves the trajectory, bench/README.md), while here a change to one part shows as that
// part's time alone, and the whole solve's CG count ("solve") changes only with the solver.
// Arguments: n, threads (BM_SolvePart); n, one thread (BM_Preconditioner, the ladder below).
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "cloth/collider.hpp"
#include "cloth/constrained_solve.hpp"
#include "cloth/force_jacobians.hpp"
#include "cloth/jacobian_target.hpp"
#include "cloth/parallel.hpp"
#include "cloth/pcg_workspace.hpp"
#include "hanging_cloth.hpp"

namespace {

struct FixedSystem {
  cloth::BlockSparseMatrix A;
  std::vector<cloth::Vec3> b, x;
  cloth::VertexConstraints c;
  cloth::PcgSettings settings;
  std::vector<char> left_out;  ///< A's blocks left out of IC(0), as the implicit step leaves them
  int cg = 0;  ///< CG iterations of its solve (one thread; every thread count gives the same)
};

const FixedSystem& fixed_system(int n) {
  static std::map<int, std::unique_ptr<FixedSystem>> cache;
  std::unique_ptr<FixedSystem>& s = cache[n];
  if (s) return *s;
  s = std::make_unique<FixedSystem>();
  bench::Variant variant;
  variant.integrator = "implicit";
  variant.two_level = true;
  const cloth::Simulation sim = bench::hanging_cloth(n, variant);
  const cloth::ClothModel& model = sim.model();
  cloth::ClothState state = sim.state();
  const cloth::Vec3 drop(0, -0.4, 0);  // m
  for (cloth::Vec3& p : state.x) {
    p += drop;
    for (const cloth::Collider& collider : sim.colliders()) {
      cloth::Vec3 normal;
      const double distance = cloth::signed_distance(collider, p, &normal);
      if (distance < collider.thickness) p += (collider.thickness - distance) * normal;
    }
  }
  const int vertices = state.vertex_count();
  const double h = sim.solver().dt;
  s->A = cloth::BlockSparseMatrix(vertices, cloth::coupled_pairs(model),
                                  cloth::BlockSparseMatrix::Storage::symmetric);
  cloth::JacobianTarget jac(s->A, -h * h, -h);
  std::vector<cloth::Vec3> f;
  cloth::compute_force_jacobians(model, state, sim.external_forces(), 0.0, /*definite=*/true,
                                 cloth::ElementSlots(model, s->A), f, jac);
  s->A.add_diagonal(model.mass);
  s->b.resize(size_t(vertices));
  for (int i = 0; i < vertices; ++i) s->b[size_t(i)] = h * f[size_t(i)];
  s->x = state.x;
  s->c.reset(vertices);
  for (int i = 0; i < vertices; ++i) {
    if (sim.is_pinned(i)) {
      s->c.fix(i, cloth::Vec3::Zero());
      continue;
    }
    for (const cloth::Collider& collider : sim.colliders()) {
      cloth::Vec3 normal;
      if (cloth::signed_distance(collider, state.x[size_t(i)], &normal) <= collider.thickness + 1e-6) {
        s->c.constrain_direction(i, normal, 0.0);
      }
    }
  }
  s->settings.tolerance = sim.solver().tolerance;
  s->settings.max_iterations = sim.solver().max_iterations;
  s->settings.preconditioner = cloth::Preconditioner::two_level;
  std::vector<char> weak;
  std::vector<double> scratch;
  cloth::weak_bend_springs(model, h, weak, scratch);
  s->left_out = cloth::weak_bend_slots(model, s->A, weak);
  std::vector<cloth::Vec3> dv;
  cloth::PcgWorkspace work;
  work.ic.leave_out(s->A.pattern(), s->left_out);
  s->cg = cloth::modified_pcg(s->A, s->b, s->c, s->settings, dv, work, &s->x).iterations;
  return *s;
}

enum class Part { ic_factor, coarse_factor, both_factors, product, ic_apply, coarse_apply, solve };

void BM_SolvePart(benchmark::State& state, Part part) {
  const FixedSystem& s = fixed_system(static_cast<int>(state.range(0)));
  const int threads = static_cast<int>(state.range(1));
  cloth::PcgWorkspace work;
  work.ic.leave_out(s.A.pattern(), s.left_out);
  // coarse-apply adds into `out` as the PCG adds into IC(0)'s answer: zeroed once, not per call.
  std::vector<cloth::Vec3> out(s.b.size(), cloth::Vec3::Zero()), dv;
  // The preconditioner factored once, for the parts that apply it (and to run the symbolic
  // phases before timing the numeric ones).
  if (!work.ic.factor(s.A, s.c, threads) || !work.coarse.factor(s.A, s.c, &s.x, threads)) {
    state.SkipWithError("the fixed system's preconditioner did not factor");
    return;
  }
  cloth::PcgSettings settings = s.settings;
  settings.threads = threads;
  for (auto _ : state) {
    switch (part) {
      case Part::ic_factor: benchmark::DoNotOptimize(work.ic.factor(s.A, s.c, threads)); break;
      case Part::coarse_factor: benchmark::DoNotOptimize(work.coarse.factor(s.A, s.c, &s.x, threads)); break;
      case Part::both_factors:
        benchmark::DoNotOptimize(cloth::factor_two_level(s.A, s.c, &s.x, threads, work).coarse);
        break;
      case Part::product: s.A.multiply(s.b, out, threads); break;
      case Part::ic_apply: work.ic.apply(s.b, s.c, out, threads); break;
      case Part::coarse_apply: work.coarse.add_correction(s.b, s.c, out, threads); break;
      case Part::solve:
        dv.clear();
        benchmark::DoNotOptimize(cloth::modified_pcg(s.A, s.b, s.c, settings, dv, work, &s.x).iterations);
        break;
    }
    benchmark::ClobberMemory();
  }
  state.counters["vertices"] = static_cast<double>(s.A.blocks());
  state.counters["ic_shifts"] = work.ic.shifts();
  state.counters["system_cg"] = s.cg;
  state.counters["coarse_aggregates"] = work.coarse.aggregates();
  state.counters["coarse_separator"] = work.coarse.separator_aggregates();
  state.counters["coarse_factor_blocks"] = work.coarse.factor_blocks();
}

// The "show the iteration counts of each" preconditioner: the same fixed system solved
// from scratch (factorisation included, as a step does) with each preconditioner the modified
// PCG offers, on one thread, at the step's tolerance. The cap is raised far above the step's
// (max_iterations) so that the one-level preconditioners' counts are their own, not the cap's;
// `converged` says whether the solve reached the tolerance within it.
constexpr int kLadderCap = 20000;

void BM_Preconditioner(benchmark::State& state, cloth::Preconditioner preconditioner) {
  const FixedSystem& s = fixed_system(static_cast<int>(state.range(0)));
  cloth::PcgSettings settings = s.settings;
  settings.preconditioner = preconditioner;
  settings.max_iterations = kLadderCap;
  std::vector<cloth::Vec3> dv;
  cloth::SolveReport report;
  for (auto _ : state) {
    cloth::PcgWorkspace work;
    work.ic.leave_out(s.A.pattern(), s.left_out);
    dv.clear();
    report = cloth::modified_pcg(s.A, s.b, s.c, settings, dv, work, &s.x);
    benchmark::DoNotOptimize(dv.data());
  }
  state.counters["vertices"] = static_cast<double>(s.A.blocks());
  state.counters["cg"] = report.iterations;
  state.counters["converged"] = report.converged ? 1 : 0;
  state.counters["relative_residual"] = report.relative_residual;
}

const bool kRegistered = [] {
  const std::pair<const char*, cloth::Preconditioner> ladder[] = {
      {"diagonal", cloth::Preconditioner::diagonal},
      {"block-jacobi", cloth::Preconditioner::block_jacobi},
      {"incomplete-cholesky", cloth::Preconditioner::incomplete_cholesky},
      {"two-level", cloth::Preconditioner::two_level}};
  for (const auto& [name, preconditioner] : ladder) {
    auto* b = benchmark::RegisterBenchmark((std::string("BM_Preconditioner/") + name).c_str(),
                                           BM_Preconditioner, preconditioner);
    for (int n : {32, 51, 64, 100, 128, 256}) b->Arg(n);
    b->Unit(benchmark::kMillisecond);
  }

  const std::pair<const char*, Part> parts[] = {
      {"ic-factor", Part::ic_factor}, {"coarse-factor", Part::coarse_factor},
      {"both-factors", Part::both_factors},
      {"product", Part::product},     {"ic-apply", Part::ic_apply},
      {"coarse-apply", Part::coarse_apply}, {"solve", Part::solve}};
  for (const auto& [name, part] : parts) {
    auto* b = benchmark::RegisterBenchmark((std::string("BM_SolvePart/") + name).c_str(), BM_SolvePart, part);
    for (int n : {64, 100, 128}) {
      for (int threads : {1, 2}) b->Args({n, threads});
    }
    b->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
