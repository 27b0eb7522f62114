#!/usr/bin/env bash
# A step slower than a quarter of a second runs while the window goes on drawing and answering:
# the default scene under Xvfb, with the grid and Verlet substeps chosen so that a step takes
# about 1.2 s on this machine and build (measured headless first). From the app's --stats and a
# screenshot: frames are drawn while steps run, showing the scene (not a blank window); R pressed
# during a step waits for its end and then starts the run over; Space pauses, after which no frame
# waits for a step; Escape twice while steps run quits with status 0; the stepping panel's
# integrator switch applies when the step ends, with that integrator's own substeps; side by side,
# the panes keep their place when the stepping panel gives way to the panel.
#
# usage: slow_step_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin slow_step "" "$@"
require_tools Xvfb xdotool python3
scene="$root/assets/scenes/default.json"
# The grid and substeps are found by measuring, headless: a step's cost grows about in
# proportion to the substeps, so each try scales them toward 1.2 s; beyond the cap (10000) the
# grid grows instead (32, 48, then 64 rows: a step costs about as the vertices). A try is measured
# again, not extrapolated, so a busy machine (tests in parallel) cannot make the pick too fast:
# 64 x 64 and about 3000-7000 substeps on this machine kind in the plain build, a smaller grid in
# a sanitizer build, which runs several times slower.
measure() {  # measure GRID SUBSTEPS -> median ms per frame (one step a frame)
  "$bin" --scene "$scene" --set "cloth.mesh.grid.resolution=[$1,$1]" --set solver.substeps="$2" --headless \
    --frames 4 --stats "$tmp/measure.json" >"$tmp/measure.log" 2>&1 ||
    fail "the headless measurement failed: $(tail -n 3 "$tmp/measure.log")"
  python3 -c 'import json, sys; print(max(1, round(json.load(open(sys.argv[1]))["ms_per_frame_median"])))' "$tmp/measure.json"
}
side=32
substeps=200  # above the 32 x 32 grid's stability bound (about 150)
for try in 1 2 3 4 5; do
  step_ms=$(measure "$side" "$substeps")
  echo "slow_step: try $try: a $side x $side grid with $substeps substeps: $step_ms ms a step"
  [ "$step_ms" -ge 1000 ] || [ "$try" = 5 ] && break
  read -r side substeps < <(python3 - "$side" "$substeps" "$step_ms" <<'PY'
import sys
side, n, ms = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
n = n * 1200 / ms
while n > 10000 and side < 64:  # a larger grid instead of more substeps than the cap
    n *= (side / (side + 16)) ** 2
    side += 16
print(side, max(150 * side // 32, min(10000, round(n))))
PY
)
done
grid="cloth.mesh.grid.resolution=[$side,$side]"
[ "$step_ms" -ge 800 ] || fail "a step of $step_ms ms does not outlast the window's 250 ms wait surely"
start_private_xvfb

# Starts the app with steps of about 1.2 s (five times the wait: the measurement's frames are
# not the app's); sets app_pid.
start_slow_app() {
  rm -f "$tmp/stats.json"
  "$bin" --scene "$scene" --set "$grid" --set solver.substeps="$substeps" --window 1024x768 \
    --stats "$tmp/stats.json" "$@" >"$tmp/app.log" 2>&1 &
  app_pid=$!
  wait_for_stats "doc['app']['frame_timing']['drawn_while_stepping'] >= 10" "frames drawn while steps ran"
}

start_slow_app
xdotool mousemove 900 700  # over the picture, away from the panel, for the keys below
# The picture kept while a step runs is the scene, not a blank window.
import -window root "$tmp/stepping.png"
python3 - "$root/tests/app" "$tmp/stepping.png" <<'PY' || fail "the window shows no picture while a step runs"
import sys
sys.path.insert(0, sys.argv[1])
from png_check import decode_png
w, h, ch, rows = decode_png(sys.argv[2])
colours = {tuple(rows[y][x * ch:x * ch + 3]) for y in range(100, 600, 4) for x in range(400, 1000, 4)}
print(f"slow_step: {len(colours)} colours right of the panel while a step runs")
sys.exit(0 if len(colours) > 50 else 1)
PY

# R during a step: counted as waiting for the step, then the run starts over: back below the 9
# steps (0.15 s) it had taken, for the 9 steps (about 10 s) the stats have to show it.
wait_for_stats "doc['sim_time'] > 0.15" "9 slow steps"
waited=$(stat "doc['app']['inputs_after_step']")
for _ in $(seq 5); do
  xdotool key r
  sleep 0.5
  [ "$(stat "doc['app']['inputs_after_step'] > $waited")" = True ] && break
done
wait_for_stats "doc['app']['inputs_after_step'] > $waited" "R waiting for the step's end"
wait_for_stats "doc['sim_time'] < 0.15" "the run starting over after R"

# Space during a step pauses: the step that runs ends, and then the window draws without waiting.
xdotool key space
wait_for_stats "doc['app']['paused']" "pause"
wait_frames 3
drawn=$(stat "doc['app']['frame_timing']['drawn_while_stepping']")
wait_frames 10
[ "$(stat "doc['app']['frame_timing']['drawn_while_stepping']")" = "$drawn" ] ||
  fail "frames were drawn waiting for a step while paused"

# Space again: slow steps again; Escape twice while one runs quits with status 0 once it ends.
xdotool key space
wait_for_stats "doc['app']['frame_timing']['drawn_while_stepping'] > $drawn + 5" "steps running again"
quit_app_with_escape
grep -q "waiting for the step in progress to end" "$tmp/app.log" && echo "slow_step: the quit waited for a step"

# The stepping panel's integrator (its row at y = 69, the panel at 10, 10): implicit, the fifth
# entry (y = 161), applies when the step ends, with implicit's own substeps (1, not the
# thousands given to Verlet), and its steps no longer outlast the wait.
start_slow_app
xdotool mousemove 100 69 click 1
sleep 1
xdotool mousemove 60 161 click 1
wait_for_stats "doc['integrator'] == 'implicit'" "the stepping panel's integrator switch"
[ "$(stat "doc['substeps_per_step']")" = 1 ] || fail "implicit runs $(stat "doc['substeps_per_step']") substeps, not its own 1"
quit_app_with_escape

# Side by side, the panes are laid out right of the panel: the stepping panel takes the panel's
# place at its width, so the panes stay where they were when it gives way to the panel (pause).
start_slow_app --compare solver.integrator=verlet,verlet
stepping_left=$(stat "doc['app']['pane_left']")
xdotool key space
wait_for_stats "doc['app']['paused']" "pause"
wait_frames 3
panel_left=$(stat "doc['app']['pane_left']")
echo "slow_step: side by side, the panes start at x = $stepping_left px under the stepping panel, $panel_left px under the panel"
[ "$stepping_left" = "$panel_left" ] || fail "the panes moved when the stepping panel gave way to the panel"
quit_app_with_escape
echo "slow_step: ok"
