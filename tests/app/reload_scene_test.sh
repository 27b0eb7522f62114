#!/usr/bin/env bash
# End-to-end test of loading scenes in the running app under Xvfb: the scene file is broken on
# disk and reloaded with L (the app must show the error, keep running the previous scene, and
# stay responsive), then replaced by a valid scene of another size and integrator and reloaded
# (the app must run the new one). Read back through the app's --stats JSON.
#
# usage: reload_scene_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin reload "" "$@"
require_tools Xvfb xdotool python3

fail() {
  echo "FAIL: $*" >&2
  if [ -s "$tmp/app.log" ]; then echo "--- app output:" >&2; cat "$tmp/app.log" >&2; fi
  exit 1
}
stat() { json_field "$tmp/stats.json" "$1"; }
# Waits up to 60 s for a python condition on the stats to hold.
wait_for() {
  for _ in $(seq 120); do
    kill -0 "$app_pid" 2>/dev/null || fail "clothsim exited while waiting for: $2"
    [ "$(stat "$1")" = "True" ] && return 0
    sleep 0.5
  done
  fail "timed out waiting for: $2 (stats: $(stat '[doc["vertices"], doc["integrator"], doc["app"]["scene_error"]]'))"
}

start_private_xvfb
cp "$root/tests/app/drag_scene.json" "$tmp/scene.json"
"$bin" --scene "$tmp/scene.json" --window 800x600 --stats "$tmp/stats.json" >"$tmp/app.log" 2>&1 &
app_pid=$!
wait_for 'doc["app"]["displayed_frames"] > 5 and doc["vertices"] == 256' "the 16 x 16 scene running"

printf '{"cloth": {"mesh": ' >"$tmp/scene.json"
xdotool key l
wait_for 'doc["app"]["scene_error"] != ""' "the load error shown"
frames=$(stat 'doc["app"]["displayed_frames"]')
echo "reload_scene_test: broken file -> $(stat 'doc["app"]["scene_error"]')"
[ "$(stat 'doc["vertices"] == 256 and doc["integrator"] == "verlet"')" = True ] || fail "the previous scene was not kept"
wait_for "doc['app']['displayed_frames'] > $frames + 10" "the app still drawing after the failed load"

python3 - "$root/tests/app/drag_scene.json" "$tmp/scene.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cloth"]["mesh"]["grid"]["resolution"] = [10, 10]
doc["solver"]["integrator"] = "implicit"
doc["solver"]["substeps"] = 1
json.dump(doc, open(sys.argv[2], "w"))
PY
xdotool key l
wait_for 'doc["vertices"] == 100 and doc["integrator"] == "implicit" and doc["app"]["scene_error"] == ""' "the edited scene running"
echo "reload_scene_test: fixed file -> $(stat 'doc["app"]["message"]')"

quit_app_with_escape
echo "PASS: reload_scene_test"
