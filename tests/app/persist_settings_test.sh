#!/usr/bin/env bash
# End-to-end test that the app remembers, between runs, what a user set up: the camera
# of the scene (zoomed with the wheel), the view (wireframe with W) and the panel's place
# (dragged by its title bar), under Xvfb with xdotool, read back through --stats, settings.json
# and imgui.ini in $XDG_CONFIG_HOME/clothsim (a scratch folder, common.sh).
#
# usage: persist_settings_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin persist "" "$@"
require_tools Xvfb xdotool python3

start_app() {
  rm -f "$tmp/stats.json"
  "$bin" --scene "$tmp/scene.json" --window 800x600 --stats "$tmp/stats.json" >>"$tmp/app.log" 2>&1 &
  app_pid=$!
  wait_for_stats 'doc["app"]["displayed_frames"] > 5' "the app drawing"
  local wid
  wid=$(xdotool search --sync --name "clothsim" | head -n1)
  xdotool windowmove --sync "$wid" 0 0
  sleep 0.5
}

start_private_xvfb
cp "$root/tests/app/drag_scene.json" "$tmp/scene.json"
start_app
first_distance=$(stat 'doc["app"]["camera"]["distance"]')
[ "$(stat 'doc["app"]["view"]["wireframe"]')" = False ] || fail "a fresh start is not in the default view"

# Zoom out over the cloth (right of the panel), turn the wireframe on, drag the panel down-right.
xdotool mousemove 600 300
for _ in 1 2 3; do xdotool click 5; sleep 0.2; done
xdotool key w
wait_for_stats "doc['app']['camera']['distance'] > 1.2 * $first_distance and doc['app']['view']['wireframe']" \
  "the zoom and the wireframe"
xdotool mousemove 60 18 && sleep 0.3 && xdotool mousedown 1 && sleep 0.3
xdotool mousemove 160 90 && sleep 0.3 && xdotool mousemove 260 160 && sleep 0.3 && xdotool mouseup 1
wait_for_stats 'doc["app"]["panel"][0] > 150 and doc["app"]["panel"][1] > 100' "the panel moved"
distance=$(stat 'doc["app"]["camera"]["distance"]')
panel=$(stat 'doc["app"]["panel"][:2]')
echo "persist_settings_test: camera distance $first_distance -> $distance m, panel at $panel"
# Presentation (after the panel drag, which it would move): Ctrl + twice makes the panel 1.5 times larger (its width follows), F11 fills the
# screen and F11 again gives the window back.
panel_width=$(stat 'doc["app"]["panel"][2]')
xdotool key ctrl+equal && sleep 0.3 && xdotool key ctrl+plus
wait_for_stats "doc['app']['ui_scale'] == 1.5 and doc['app']['panel'][2] > 1.4 * $panel_width" "Ctrl + scaling the panel"
xdotool key F11
wait_for_stats 'doc["app"]["fullscreen"] and doc["app"]["window"] == [1280, 800]' "F11 filling the 1280 x 800 screen"
import -window root "$tmp/presentation.png" 2>/dev/null || true
xdotool key F11
wait_for_stats 'not doc["app"]["fullscreen"] and doc["app"]["window"] == [800, 600]' "F11 giving the window back"
echo "persist_settings_test: Ctrl + twice: scale 1.5, panel $panel_width -> $(stat 'doc["app"]["panel"][2]') px; F11 in and out"
quit_app_with_escape

config="$XDG_CONFIG_HOME/clothsim"
[ -s "$config/settings.json" ] || fail "no $config/settings.json after quitting"
grep -q '^\[Window\]\[clothsim\]' "$config/imgui.ini" 2>/dev/null || fail "no panel layout in $config/imgui.ini"

# The second run starts where the first one ended.
start_app
[ "$(stat "abs(doc['app']['camera']['distance'] - $distance) < 1e-4 * $distance")" = True ] ||
  fail "camera distance $(stat 'doc["app"]["camera"]["distance"]') m after a restart, expected $distance"
[ "$(stat 'doc["app"]["view"]["wireframe"]')" = True ] || fail "the wireframe view was not kept"
[ "$(stat 'doc["app"]["ui_scale"]')" = 1.5 ] || fail "the panel scale was not kept"
[ "$(stat 'doc["app"]["panel"][:2]')" = "$panel" ] ||
  fail "panel at $(stat 'doc["app"]["panel"][:2]') after a restart, expected $panel"
quit_app_with_escape
echo "PASS: persist_settings_test"
