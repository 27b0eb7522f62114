#pragma once
// Vertex loops on several threads (OpenMP) whose results do not depend on the number of threads:
// each output element is computed by the same arithmetic whichever thread runs it, a sum is
// taken over fixed chunks whose partial sums are then added in chunk order, and a maximum is
// the same in any order. Two independent jobs may also run side by side (side_by_side). A run
// with 2 threads is therefore bit for bit the run with 1 (tested: ParallelSolve.*), which keeps
// tests, saved scenes and videos reproducible whatever the core count (for one build: compiling
// with or without FMA, CLOTHSIM_X86_64_V3, changes the rounding). Without OpenMP (e.g. clang
// without libomp, the fuzz build) the pragmas are ignored and everything runs on the calling
// thread.
#include <algorithm>
#include <exception>
#include <vector>

namespace cloth {

/// Starting a parallel region costs a few microseconds, about what a 2000-vertex vector update
/// takes: the loops below split only when they move at least this many iterations off the
/// calling thread (worth_splitting); the domain and tile splits elsewhere compare their own sizes.
inline constexpr int kMinParallelLength = 2048;
/// Vertices per partial sum of deterministic_sum (independent of the thread count).
inline constexpr int kSumChunk = 512;
/// The most threads a solve may be given (solver.threads).
inline constexpr int kMaxThreads = 256;

/// The threads this process may use (OpenMP's limit; 1 without OpenMP).
int available_threads();
/// What "all the machine offers" means for a solve: available_threads(), at most kMaxThreads.
inline int machine_threads() { return available_threads() < kMaxThreads ? available_threads() : kMaxThreads; }
/// The calling thread's number in its parallel region's team, and the team's size (0 and 1 outside
/// any region or without OpenMP).
int thread_number();
int team_size();
/// Whether a parallel region started here could run another one with several threads inside it
/// (OpenMP's nesting: OMP_MAX_ACTIVE_LEVELS, counted from the current level; false without OpenMP).
bool nested_parallelism_available();

/// Whether a loop of n iterations gains from `threads` threads: the iterations the other threads
/// take (all but the calling thread's ceil(n / threads)) must pay for the region
/// (kMinParallelLength). A region also costs after it ends: libgomp's idle workers spin for
/// milliseconds (GOMP_SPINCOUNT) on cores that the renderer and the X server need, so a short
/// loop once a step is not worth waking them for (the app's frame, bench/app_frame_bench.sh).
/// On t threads the threshold is about 2048 t / (t - 1): from four threads a 3000-long loop
/// splits again.
inline bool worth_splitting(int n, int threads) {
  return threads > 1 && n - (n + threads - 1) / threads >= kMinParallelLength;
}

/// body(i) for i in [0, n), split in contiguous ranges over `threads` threads.
template <typename Body>
void parallel_for(int n, int threads, Body&& body) {
  if (!worth_splitting(n, threads)) {
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

/// The largest of `at_least` and term(i) over [0, n), on `threads`. A maximum does not depend on
/// the order it is taken in, so every thread count gives the same bits. A NaN term is skipped
/// (the running value is never NaN, and std::max keeps it): map NaN to +infinity where it must
/// count.
template <typename Term>
double parallel_max(int n, int threads, double at_least, Term&& term) {
  double largest = at_least;
  if (!worth_splitting(n, threads)) {
    for (int i = 0; i < n; ++i) largest = std::max(largest, term(i));
    return largest;
  }
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : largest)
  for (int i = 0; i < n; ++i) largest = std::max(largest, term(i));
  return largest;
}

/// first(t1) and second(t2) at the same time, each on its own share of `threads` (t1 + t2 =
/// threads), when there are two threads or more and each share can use its threads (two
/// threads: one each; more: only where OpenMP lets a parallel region nest); otherwise one after
/// the other, each on all `threads`. An exception from either is rethrown after both ended.
/// For two independent jobs that each have a serial part, where one thread would otherwise wait
/// for the other (IC(0)'s factorisation and the coarse level's assembly: factor_two_level,
/// timed by BM_SolvePart/both-factors). The
/// callers' results must not depend on their thread count (this file's rule), so both ways give
/// the same bits.
template <typename First, typename Second>
void side_by_side(int threads, First&& first, Second&& second) {
  if (threads >= 2 && (threads == 2 || nested_parallelism_available())) {
    // Thread 0 takes the first job and thread 1 the second (OpenMP's sections would let one
    // thread take both when the other is slow to start); a team of one (no OpenMP, or already
    // inside a parallel region) does both. An exception must not leave the OpenMP block: that
    // would terminate the program.
    std::exception_ptr failed_first, failed_second;
#pragma omp parallel num_threads(2)
    {
      const int me = thread_number(), team = team_size();
      if (me == 0) {
        try {
          first(threads - threads / 2);
        } catch (...) {
          failed_first = std::current_exception();
        }
      }
      if (me == 1 || team == 1) {
        try {
          second(threads / 2);
        } catch (...) {
          failed_second = std::current_exception();
        }
      }
    }
    if (failed_first) std::rethrow_exception(failed_first);
    if (failed_second) std::rethrow_exception(failed_second);
    return;
  }
  first(threads);
  second(threads);
}

/// Σ term(i) over [0, n): chunks of kSumChunk summed in index order, then the chunks in chunk
/// order, so the result is the same bits for every thread count. `partial` is scratch.
template <typename Term>
double deterministic_sum(int n, int threads, std::vector<double>& partial, Term&& term) {
  const int chunks = (n + kSumChunk - 1) / kSumChunk;
  partial.resize(static_cast<size_t>(chunks));
  parallel_tasks(chunks, threads, worth_splitting(n, threads), [&](int c) {
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
