#!/usr/bin/env bash
# End-to-end test of loading and saving scenes in the running app under Xvfb: the scene file is
# broken on disk and reloaded with L (the app must show the error, keep running the previous
# scene, and stay responsive), then replaced by a valid scene of another size and integrator and
# reloaded (the app must run the new one); Ctrl+S saves it as it runs and the saved file loads
# headless; the Scene section's side-by-side setup runs it once per integrator and alone again;
# last, a file of one's own is opened by its path. Read back through the app's --stats JSON.
#
# usage: reload_scene_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin reload "" "$@"
require_tools Xvfb xdotool python3


start_private_xvfb

hold_keys() {
  xdotool keydown "$1"
  sleep 0.2
  xdotool keyup "$1"
}
cp "$root/tests/app/drag_scene.json" "$tmp/scene.json"
# Started in $tmp: Ctrl+S saves to out/ of the folder the app was started in.
(cd "$tmp" && exec "$bin" --scene "$tmp/scene.json" --window 800x600 --stats "$tmp/stats.json") >"$tmp/app.log" 2>&1 &
app_pid=$!
wait_for_stats 'doc["app"]["displayed_frames"] > 5 and doc["vertices"] == 256' "the 16 x 16 scene running"

printf '{"cloth": {"mesh": ' >"$tmp/scene.json"
xdotool key l
wait_for_stats 'doc["app"]["scene_error"] != ""' "the load error shown"
frames=$(stat 'doc["app"]["displayed_frames"]')
echo "reload_scene_test: broken file -> $(stat 'doc["app"]["scene_error"]')"
[ "$(stat 'doc["vertices"] == 256 and doc["integrator"] == "verlet"')" = True ] || fail "the previous scene was not kept"
wait_for_stats "doc['app']['displayed_frames'] > $frames + 10" "the app still drawing after the failed load"

python3 - "$root/tests/app/drag_scene.json" "$tmp/scene.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cloth"]["mesh"]["grid"]["resolution"] = [10, 10]
doc["solver"]["integrator"] = "implicit"
doc["solver"]["substeps"] = 1
json.dump(doc, open(sys.argv[2], "w"))
PY
xdotool key l
wait_for_stats 'doc["vertices"] == 100 and doc["integrator"] == "implicit" and doc["app"]["scene_error"] == ""' "the edited scene running"
echo "reload_scene_test: fixed file -> $(stat 'doc["app"]["message"]')"

# Save the running scene after a live change (zoomed out with the wheel over the cloth), then
# load the saved file headless: same cloth, same integrator, the camera as it was left.
xdotool mousemove 600 300
for _ in 1 2; do xdotool click 5; sleep 0.2; done
sleep 1
distance=$(stat 'doc["app"]["camera"]["distance"]')
xdotool key ctrl+s
wait_for_stats 'doc["app"]["message"].startswith("saved scene")' "the scene saved"
saved="$tmp/out/scene-saved.json"
[ -s "$saved" ] || fail "Ctrl+S wrote no $saved ($(stat 'doc["app"]["message"]'))"
"$bin" --headless --scene "$saved" --frames 2 --stats "$tmp/saved-stats.json" >"$tmp/saved.log" 2>&1 ||
  { cat "$tmp/saved.log" >&2; fail "the saved scene does not load"; }
python3 - "$saved" "$tmp/saved-stats.json" "$distance" <<'PY' || fail "the saved scene is not the running one"
import json, sys
scene, stats, distance = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3])
saved_distance = scene["camera"]["distance"]
print(f"reload_scene_test: saved scene -> {stats['vertices']} vertices, {stats['integrator']}, camera {saved_distance:.4f} m (app {distance:.4f} m)")
if stats["vertices"] != 100 or stats["integrator"] != "implicit":
    sys.exit("FAIL: the saved scene loads another cloth or integrator")
if abs(saved_distance - distance) > 1e-4 * distance or distance < 3.0:
    sys.exit("FAIL: the saved camera is not the zoomed-out one the app showed")
PY

# Side by side from the panel. Scene > compare offers solver.integrator with implicit, projective,
# vbd and xpbd; with the Scene section open (its header at y = 63), "Side by side" is at y = 268
# and runs the scene once per value; "One cloth" beside it runs it alone again. Paused first: in
# a sanitized build beside other tests the steps can outlast the window's wait for them, and the
# stepping panel then stands where these buttons are (tests/app/slow_step_test.sh tests it).
xdotool key space
wait_for_stats 'doc["app"]["paused"]' "pause"
wid=$(xdotool search --sync --name "clothsim" | head -n1)
xdotool windowmove --sync "$wid" 0 0
wait_frames
xdotool mousemove 60 63 click 1
wait_frames
xdotool mousemove 60 268 click 1
wait_for_stats '[p["label"] for p in doc.get("panes", [])] == ["solver.integrator=" + v for v in ("implicit", "projective", "vbd", "xpbd")]' \
  "four panes, one per integrator"
title=$(xdotool getwindowname "$wid")
[[ "$title" != *"["* ]] || fail "side by side, the title names the first pane: $title"
echo "reload_scene_test: side by side -> $(stat '[p["label"] for p in doc["panes"]]'), title '$title'"
wait_frames
xdotool mousemove 150 268 click 1
wait_for_stats '"panes" not in doc and doc["vertices"] == 100' "one cloth again"
echo "reload_scene_test: one cloth -> $(stat 'doc["integrator"]'), $(stat 'doc["vertices"]') vertices"

# Open a file of one's own: its path typed into the Scene section's field (y = 109) and Enter runs
# it (a 12 x 12 cloth); then a path that names no file, and the Open button beside the field
# (x = 251), keep that scene and say so (last: the error line above the sections moves the field
# down). Keys are held a moment: ImGui 1.86 reads a key's state once a frame, and a press and
# release between two frames is lost (typed characters are queued and are not).
python3 - "$root/tests/app/drag_scene.json" "$tmp/mine.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cloth"]["mesh"]["grid"]["resolution"] = [12, 12]
json.dump(doc, open(sys.argv[2], "w"))
PY
wait_frames
xdotool mousemove 60 109 click 1
wait_frames
xdotool type --delay 20 "$tmp/mine.json"
hold_keys Return
wait_for_stats 'doc["vertices"] == 144 and doc["app"]["scene_error"] == ""' "the opened file running"
echo "reload_scene_test: opened $tmp/mine.json -> $(stat 'doc["vertices"]') vertices"
xdotool mousemove 60 109 click 1
wait_frames
hold_keys ctrl+a
hold_keys BackSpace
xdotool type --delay 20 "$tmp/missing.json"
wait_frames
xdotool mousemove 251 109 click 1
wait_for_stats 'doc["app"]["scene_error"] != ""' "the missing file's error"
echo "reload_scene_test: open a missing file -> $(stat 'doc["app"]["scene_error"]')"
[ "$(stat 'doc["vertices"]')" = 144 ] || fail "a missing file replaced the scene"

quit_app_with_escape
echo "PASS: reload_scene_test"
