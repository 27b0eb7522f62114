#!/usr/bin/env bash
# App frame time: the real interactive clothsim under a private Xvfb (Mesa llvmpipe,
# software GL) on the default scene at 32², 64² and 100² vertices, split into simulation and
# drawing (scene + panel + buffer swap) per displayed frame, read from the app's --stats
# (app.frame_timing: medians over the frames after a 30-frame warm-up).
#   bench/app_frame_bench.sh [OUT.csv]   (default out/app-frame.csv)
# Displayed frames per size: 300, 200, 90 (the default scene's Verlet at 100 substeps takes about a
# second per displayed frame at 100²); APP_FRAME_BENCH_RUNS="32:300 64:200 100:90" sets others
# (more than the 30 warm-up frames each), e.g. on a busy machine. APP_FRAME_BENCH_ARGS adds app
# options, e.g. "--render-scale 1" for the panes at full resolution (app/render/render_scale.hpp).
# Needs Xvfb (scripts/install-deps.sh). Not a test: nothing here asserts a time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${1:-out/app-frame.csv}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target clothsim >/dev/null
tmp=$(mktemp -d)
trap 'kill "$xvfb_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/config"  # the default panel and view, not the user's saved ones
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$tmp/display" >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$tmp/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -n1 "$tmp/display")"

mkdir -p "$(dirname "$out")"
echo "resolution,render_scale,vertices,integrator,frames,median_frame_ms,median_sim_ms,median_draw_ms,mean_sim_ms,mean_draw_ms,draw_share,skipped_draws" >"$out"
for run in ${APP_FRAME_BENCH_RUNS:-32:300 64:200 100:90}; do
  n=${run%%:*} frames=${run##*:}
  build/app/clothsim --scene assets/scenes/default.json --set "cloth.mesh.grid.resolution=[$n,$n]" \
    --window 1280x720 --quit-after-frames "$frames" --stats "$tmp/s$n.json" ${APP_FRAME_BENCH_ARGS:-} >/dev/null
  python3 - "$tmp/s$n.json" "$n" >>"$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["app"]["frame_timing"]
share = t["mean_draw_ms"] / (t["mean_draw_ms"] + t["mean_sim_ms"])
print(f"{sys.argv[2]},{doc['app']['render_scale']:g},{doc['vertices']},{doc['integrator']},{t['frames']},{t['median_frame_ms']:.2f},"
      f"{t['median_sim_ms']:.2f},{t['median_draw_ms']:.2f},{t['mean_sim_ms']:.2f},{t['mean_draw_ms']:.2f},{share:.2f},"
      f"{t.get('skipped_draws', '')}")
PY
done
{
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB; Xvfb + $(glxinfo -B 2>/dev/null | grep -m1 'OpenGL renderer' | cut -d: -f2 | sed 's/^ //' || echo 'Mesa')"
  echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d)"
} >>"$out"
column -s, -t <"$out" | grep -v '^#'
echo "bench: wrote $out"
