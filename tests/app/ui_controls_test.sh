#!/usr/bin/env bash
# End-to-end test of the app's controls as a person uses them, under Xvfb with xdotool:
#  1. a slider: clicking near the left end of Material > stretch makes the cloth far softer; the
#     stats show the new stiffness and the hanging cloth stretching further;
#  2. Escape with a dropdown open closes the dropdown and leaves the app running, and a single
#     Escape after it only asks to quit;
#  3. the window survives being resized (the stats report the new size and frames keep coming)
#     and being unmapped and mapped again (Xvfb has no window manager to minimise it: GLFW keeps
#     the framebuffer size, so this does not reach the app's 0 x 0 path);
#  4. recording at the fixed simulation rate: a run recorded from the start on a scene too heavy
#     to draw in real time holds one video frame per simulated step (+ the first), not one per
#     drawn frame, so it plays at the simulation's speed (checked with ffprobe).
#
# usage: ui_controls_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, ffprobe, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin ui_controls "" "$@"
require_tools Xvfb xdotool ffprobe python3


start_private_xvfb
"$bin" --scene "$root/tests/app/drag_scene.json" --window 1024x768 --stats "$tmp/stats.json" >"$tmp/app.log" 2>&1 &
app_pid=$!
wait_for_stats 'doc["app"]["displayed_frames"] > 5 and doc["sim_time"] > 2.0' "the cloth hanging for 2 s"
wid=$(xdotool search --sync --name "clothsim" | head -n1)
xdotool windowmove --sync "$wid" 0 0
sleep 0.5
strain_before=$(stat 'doc["max_edge_strain"]')

# 1. The stretch slider of the default panel layout (Simulation open; panel at 10, 10): a click
# on the Material header (y = 340) opens it; the slider's row is then at y = 431, its track from
# x = 18 to 226 (logarithmic, 1 to 1e5 N/m).
xdotool mousemove 60 340 click 1
sleep 0.5
xdotool mousemove 30 431 click 1
wait_for_stats 'doc["app"]["material"]["stretch"] < 100' "the stretch slider lowering the stiffness"
stretch=$(stat 'doc["app"]["material"]["stretch"]')
frames=$(stat 'doc["app"]["displayed_frames"]')
wait_for_stats "doc['app']['displayed_frames'] > $frames + 60 and doc['max_edge_strain'] > 3 * $strain_before" \
  "the softer cloth stretching further"
echo "ui_controls_test: stretch 1000 -> $stretch N/m, max strain $strain_before -> $(stat 'doc["max_edge_strain"]')"

# 2. The integrator dropdown (its row at y = 155): Escape closes it; then one Escape only asks.
xdotool mousemove 100 155 click 1
wait_for_stats 'doc["app"]["popup_open"]' "the integrator dropdown opening"
xdotool key Escape
wait_for_stats 'not doc["app"]["popup_open"]' "Escape closing the dropdown"
frames=$(stat 'doc["app"]["displayed_frames"]')
wait_for_stats "doc['app']['displayed_frames'] > $frames + 10" "frames after Escape closed the dropdown"
echo "ui_controls_test: Escape closed the integrator dropdown, the app kept running"
# A single Escape only asks: 4 s later (past the 3 s in which a second one quits) it still draws.
xdotool key Escape
sleep 4
frames=$(stat 'doc["app"]["displayed_frames"]')
wait_for_stats "doc['app']['displayed_frames'] > $frames + 10" "frames after a single Escape"
echo "ui_controls_test: a single Escape asked and did not quit"

# 3. Resize, then unmap and map the window again.
xdotool windowsize --sync "$wid" 800 600
wait_for_stats 'doc["app"]["window"] == [800, 600]' "the new window size"
frames=$(stat 'doc["app"]["displayed_frames"]')
xdotool windowunmap --sync "$wid"
sleep 1
xdotool windowmap --sync "$wid"
wait_for_stats "doc['app']['displayed_frames'] > $frames + 10" "frames after the resize and the unmap / map"
quit_app_with_escape
echo "ui_controls_test: resized to 800x600, unmapped and mapped: still drawing, exit status 0"

# 4. A 48 x 48 cloth at 60 Verlet substeps draws far below 60 Hz here; record it from the start.
"$bin" --scene "$root/tests/app/drag_scene.json" --set 'cloth.mesh.grid.resolution=[48,48]' --window 640x480 \
  --record "$tmp/run.mp4" --quit-after-frames 40 --stats "$tmp/rec.json" >>"$tmp/app.log" 2>&1 ||
  fail "the recording run exited with status $?"
ffprobe -v error -count_frames -show_entries stream=nb_read_frames:format=duration -of json "$tmp/run.mp4" \
  >"$tmp/probe.json" || fail "ffprobe cannot read the recording"
python3 - "$tmp/probe.json" "$tmp/rec.json" <<'PY' || fail "the recording is not at the simulation's rate"
import json, sys
probe, stats = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
frames = int(probe["streams"][0]["nb_read_frames"])
duration = float(probe["format"]["duration"])
steps, drawn, sim_time = stats["steps"], stats["app"]["displayed_frames"], stats["sim_time"]
print(f"ui_controls_test: {drawn} frames drawn, {steps} steps ({sim_time:.2f} s simulated) -> video of "
      f"{frames} frames, {duration:.2f} s")
if steps < drawn + 10:
    sys.exit("FAIL: the scene kept up with the display, so this proves nothing (make it heavier)")
if abs(frames - (steps + 1)) > 1:
    sys.exit(f"FAIL: {frames} video frames for {steps} simulated steps (expected steps + 1)")
if abs(duration - frames / 60.0) > 0.05:
    sys.exit(f"FAIL: the video lasts {duration} s, not {frames} frames at 60 fps")
PY
echo "PASS: ui_controls_test"
