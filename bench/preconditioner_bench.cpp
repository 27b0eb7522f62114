// The iteration counts of each preconditioner: the fixed system of
// fixed_system.hpp solved from dv = z (factorisation included, as a step does) with each
// preconditioner the modified PCG offers, on one thread, at the step's tolerance. The cap is
// raised far above the step's (max_iterations) so that the one-level preconditioners' counts are
// their own, not the cap's; `converged` says whether the solve reached the tolerance within it.
// Its own executable because its counters differ from solver_parts_bench's (a CSV needs the same
// counters in every row). Argument: n.
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "linalg/constrained_solve.hpp"
#include "linalg/pcg_workspace.hpp"
#include "fixed_system.hpp"

namespace {

constexpr int kLadderCap = 20000;

void BM_Preconditioner(benchmark::State& state, cloth::Preconditioner preconditioner) {
  const bench::FixedSystem& s = bench::fixed_system(static_cast<int>(state.range(0)));
  cloth::PcgSettings settings = s.settings;
  settings.preconditioner = preconditioner;
  settings.max_iterations = kLadderCap;
  // One workspace, as the step keeps its own: the symbolic phases run in the untimed first solve,
  // each timed solve refactors (as every step does) and iterates.
  cloth::PcgWorkspace work;
  work.ic.leave_out(s.A.pattern(), s.left_out);
  std::vector<cloth::Vec3> dv;
  cloth::SolveReport report = cloth::modified_pcg(s.A, s.b, s.c, settings, dv, work, &s.x);
  for (auto _ : state) {
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
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
