#!/usr/bin/env bash
# Runs the benchmarks and writes a CSV baseline named after this machine:
#   bench/run.sh [OUT.csv]     (default bench/baselines/<hostname-kind>.csv)
# Each row is one benchmark; real_time is ms per simulated frame (1/60 s).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCLOTHSIM_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$(nproc)" --target clothsim_bench
out="${1:-bench/baselines/cpp-2core.csv}"
mkdir -p "$(dirname "$out")"
build/bench/clothsim_bench --benchmark_format=csv --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true > "$out"
{
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
  echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
} >> "$out"
echo "bench: wrote $out"
