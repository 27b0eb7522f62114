// The implicit step's solve, part by part (factorisations, the product, each preconditioner's
// application, the whole solve), on the fixed system of fixed_system.hpp: a change to one part
// shows as that part's time alone. Arguments: n, threads.
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "linalg/constrained_solve.hpp"
#include "linalg/pcg_workspace.hpp"
#include "fixed_system.hpp"

namespace {

enum class Part { ic_factor, coarse_factor, both_factors, product, ic_apply, coarse_apply, solve };

void BM_SolvePart(benchmark::State& state, Part part) {
  const bench::FixedSystem& s = bench::fixed_system(static_cast<int>(state.range(0)));
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

const bool kRegistered = [] {
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
