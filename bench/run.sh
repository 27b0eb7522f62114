#!/usr/bin/env bash
# Runs the benchmarks and writes a CSV baseline named after this machine:
#   bench/run.sh [OUT.csv [BENCHMARK_ARGS...]]   (default out/bench.csv; copy it to bench/baselines/ to make it the cited table)
#   bench/run.sh --strain-target [OUT.csv [BENCHMARK_ARGS...]]   the strain-target search
#     (BM_Accurate, every integrator and Bullet) and Bullet at its own settings (BM_Frame/bullet)
#     at 64^2 and 100^2, one repetition: both tables of bench/summarize.py in one CSV.
# e.g. bench/run.sh out.csv --benchmark_filter='implicit|bullet'
# Build directory: $CLOTHSIM_BENCH_BUILD (default build), jobs: $CLOTHSIM_BENCH_JOBS (default nproc).
# Each row is one benchmark; real_time is ms per simulated frame (1/60 s). The Bullet peer's rows
# appear where Bullet was found at configure time (bench/CMakeLists.txt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${CLOTHSIM_BENCH_BUILD:-build}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLOTHSIM_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"${CLOTHSIM_BENCH_JOBS:-$(nproc)}" --target clothsim_bench
repetitions=(--benchmark_repetitions=3 --benchmark_report_aggregates_only=true)
filter=()
if [[ "${1:-}" == --strain-target ]]; then
  shift
  repetitions=(--benchmark_repetitions=1)
  filter=("--benchmark_filter=BM_Accurate/|BM_Frame/bullet/(64|100)/")
fi
out="${1:-out/bench.csv}"
shift || true
mkdir -p "$(dirname "$out")"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
"$build"/bench/clothsim_bench --benchmark_format=csv "${repetitions[@]}" "${filter[@]}" "$@" > "$out"
{
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB; load average before / after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (+ uncommitted changes)'), $(date -u +%Y-%m-%d)"
} >> "$out"
echo "bench: wrote $out"
