#pragma once
// Vertex loops on several threads (OpenMP) whose results do not depend on the number of threads:
// each output element is computed by the same arithmetic whichever thread runs it, and a sum is
// taken over fixed chunks whose partial sums are then added in chunk order. A run with 2 threads
// is therefore bit for bit the run with 1 (tested: ParallelSolve.*), which keeps tests, saved
// scenes and videos reproducible whatever the core count (for one build: compiling with or
// without FMA, CLOTHSIM_X86_64_V3, changes the rounding). Without OpenMP (e.g. clang without libomp, the
// fuzz build) the pragmas are ignored and everything runs on the calling thread.
#include <algorithm>
#include <vector>

namespace cloth {

/// Loops shorter than this many vertices run on the calling thread: starting a parallel region
/// costs a few microseconds, about what a 2000-vertex vector update takes.
inline constexpr int kMinParallelLength = 2048;
/// Vertices per partial sum of deterministic_sum (independent of the thread count).
inline constexpr int kSumChunk = 512;
/// The most threads a solve may be given (solver.threads).
inline constexpr int kMaxThreads = 256;

/// The threads this process may use (OpenMP's limit; 1 without OpenMP).
int available_threads();

/// body(i) for i in [0, n), split in contiguous ranges over `threads` threads.
template <typename Body>
void parallel_for(int n, int threads, Body&& body) {
  if (threads <= 1 || n < kMinParallelLength) {
    for (int i = 0; i < n; ++i) body(i);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int i = 0; i < n; ++i) body(i);
}

/// body(t) for each of `tasks` independent tasks, one thread each (up to `threads`), when
/// `worth_it`; otherwise in order on the calling thread. Each thread takes a contiguous run of
/// tasks: tasks numbered along the cloth (a vector's chunks, the coarse level's aggregates) then
/// touch about the vertices that parallel_for gives the same thread, already in its core's cache.
/// (Uneven tasks balance a little worse: XPBD's odd count of tiles at 100², about 6% on a phase.)
template <typename Body>
void parallel_tasks(int tasks, int threads, bool worth_it, Body&& body) {
  if (threads <= 1 || !worth_it) {
    for (int t = 0; t < tasks; ++t) body(t);
    return;
  }
#pragma omp parallel for num_threads(std::min(threads, tasks)) schedule(static)
  for (int t = 0; t < tasks; ++t) body(t);
}

/// Σ term(i) over [0, n): chunks of kSumChunk summed in index order, then the chunks in chunk
/// order, so the result is the same bits for every thread count. `partial` is scratch.
template <typename Term>
double deterministic_sum(int n, int threads, std::vector<double>& partial, Term&& term) {
  const int chunks = (n + kSumChunk - 1) / kSumChunk;
  partial.resize(static_cast<size_t>(chunks));
  parallel_tasks(chunks, threads, n >= kMinParallelLength, [&](int c) {
    double sum = 0;
    const int end = std::min(n, (c + 1) * kSumChunk);
    for (int i = c * kSumChunk; i < end; ++i) sum += term(i);
    partial[static_cast<size_t>(c)] = sum;
  });
  double total = 0;
  for (double p : partial) total += p;
  return total;
}

}  // namespace cloth
