#!/usr/bin/env bash
# Command 1 of the README: install what the app needs, build the app alone (Release; the tests and
# benchmarks are scripts/test.sh's work), start it on the default scene. With no DISPLAY it renders the default scene headless (under a private Xvfb) to a video
# instead and prints where the video is. Extra arguments go to clothsim.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/install-deps.sh --app
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCLOTHSIM_BUILD_TESTS=OFF -DCLOTHSIM_BUILD_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc)" --target clothsim

app="$root/build/app/clothsim"
if [ -n "${DISPLAY:-}" ]; then
  exec "$app" "$@"
fi

mkdir -p out
echo "run.sh: no DISPLAY, rendering the default scene headless to out/default.mp4"
xvfb-run -a -s "-screen 0 1280x800x24" \
  "$app" --headless --frames 300 --record out/default.mp4 --stats out/default-stats.json "$@"
echo "run.sh: video at $root/out/default.mp4, run statistics at $root/out/default-stats.json"
