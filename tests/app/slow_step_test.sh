#!/usr/bin/env bash
# A step slower than a quarter of a second runs while the window goes on drawing and answering:
# the default scene under Xvfb, with Verlet substeps raised until a step takes about 0.6 s on this
# machine and build (measured headless first). From the app's --stats: frames are drawn while
# steps run; R pressed during a step waits for its end and then starts the run over; the stepping
# panel's integrator switch applies when the step ends; Space pauses, after which no frame waits
# for a step; Escape twice quits with status 0.
#
# usage: slow_step_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin slow_step "" "$@"
require_tools Xvfb xdotool python3
scene="$root/assets/scenes/default.json"
"$bin" --scene "$scene" --headless --frames 5 --set solver.substeps=100 --stats "$tmp/measure.json" \
  >"$tmp/measure.log" 2>&1 || fail "the headless measurement failed: $(tail -n 3 "$tmp/measure.log")"
ms=$(json_field "$tmp/measure.json" 'doc["ms_per_frame_median"]')
substeps=$(python3 -c "print(max(100, min(10000, round(100 * 600 / max($ms, 1e-3)))))")
echo "slow_step: $ms ms a step at 100 substeps here; running $substeps"

start_private_xvfb
"$bin" --scene "$scene" --set solver.substeps="$substeps" --window 1024x768 \
  --stats "$tmp/stats.json" >"$tmp/app.log" 2>&1 &
app_pid=$!

wait_for_stats "doc['app']['frame_timing']['drawn_while_stepping'] >= 10" "frames drawn while steps ran"
xdotool mousemove 900 700  # over the picture, away from the panel, for the keys below
import -window root "$tmp/stepping.png" 2>/dev/null || true  # kept for a person to look at

# R during a step: counted as waiting for the step, then the run starts over: back below the 18
# steps (0.3 s) it had taken, for the 18 steps (about 10 s) the stats have to show it.
wait_for_stats "doc['sim_time'] > 0.3" "18 slow steps"
waited=$(stat "doc['app']['inputs_after_step']")
for _ in $(seq 5); do
  xdotool key r
  sleep 0.5
  [ "$(stat "doc['app']['inputs_after_step'] > $waited")" = True ] && break
done
wait_for_stats "doc['app']['inputs_after_step'] > $waited" "R waiting for the step's end"
wait_for_stats "doc['sim_time'] < 0.3" "the run starting over after R"

# The stepping panel's integrator (its row at y = 69, the panel at 10, 10): implicit, the fifth
# entry (y = 161), applies when the step ends, with implicit's own substeps (1, not the
# thousands given to Verlet), and its steps no longer outlast the wait.
xdotool mousemove 100 69 click 1
sleep 1
xdotool mousemove 60 161 click 1
wait_for_stats "doc['integrator'] == 'implicit'" "the stepping panel's integrator switch"
[ "$(stat "doc['substeps_per_step']")" = 1 ] || fail "implicit runs $(stat "doc['substeps_per_step']") substeps, not its own 1"

# Space pauses at once; the step that runs ends, and then the window draws without waiting.
xdotool key space
wait_for_stats "doc['app']['paused']" "pause"
wait_frames 3
drawn=$(stat "doc['app']['frame_timing']['drawn_while_stepping']")
wait_frames 10
[ "$(stat "doc['app']['frame_timing']['drawn_while_stepping']")" = "$drawn" ] ||
  fail "frames were drawn waiting for a step while paused"

quit_app_with_escape
echo "slow_step: ok"
