#!/usr/bin/env bash
# Fuzzes the scene and OBJ loaders (tests/fuzz) with libFuzzer: installs what is missing, builds
# the targets with clang, ASan and UBSan in build-fuzz/ (clang cannot share gcc's build/), and runs
# each target for SECONDS (default 60) from the seed corpus in tests/fuzz/corpus/.
#   scripts/fuzz.sh [SECONDS]
# Prints the executions per target. Fails if a target finds a crash, a contract violation
# (fuzz_contract.hpp), a leak, undefined behaviour, a hang (> 10 s on one input) or an allocation
# over 1 GiB; the input that did it is kept in build-fuzz/findings/TARGET/ (replay it with
# build-fuzz/tests/fuzz/TARGET_fuzz FILE). New inputs the fuzzer finds go to build-fuzz/corpus/,
# not into the repository.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
case "$seconds" in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac

scripts/install-deps.sh --clang
build=build-fuzz
# -O1 keeps the runs fast while asserts (ours and Eigen's) stay on: Debug without NDEBUG.
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DCLOTHSIM_FUZZ=ON -DCLOTHSIM_BUILD_APP=OFF -DCLOTHSIM_BUILD_TESTS=OFF -DCLOTHSIM_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target scene_fuzz obj_fuzz

# Seeds: the hand-made edge cases of tests/fuzz/corpus/, plus the repository's own scenes and
# test meshes (read in place, not copied).
declare -A seeds=([scene]=assets/scenes [obj]=tests/data)
failed=()
for target in scene obj; do
  corpus="$build/corpus/$target"
  findings="$build/findings/$target"
  log="$build/fuzz-$target.log"
  mkdir -p "$corpus" "$findings"
  set +e
  "$build/tests/fuzz/${target}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -max_len=4096 -dict="tests/fuzz/$target.dict" -artifact_prefix="$findings/" \
    -print_final_stats=1 "$corpus" "tests/fuzz/corpus/$target" "${seeds[$target]}" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  echo "fuzz: $target: ${execs:-?} executions in $seconds s (exit $rc, log $log)"
  if [ "$rc" -ne 0 ]; then
    grep -E "ERROR|contract violated|runtime error|Test unit written" "$log" | head -n 20 >&2 || tail -n 30 "$log" >&2
    failed+=("$target")
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}; reproducers in $build/findings/" >&2
  exit 1
fi
echo "fuzz: no findings"
