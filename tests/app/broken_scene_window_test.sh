#!/usr/bin/env bash
# A broken --scene in window mode opens the window on the default scene, with the parser's
# reason in red at the top of the panel (wrapped: the panel keeps its width), the reason on
# stderr in one line, and exit status 0 at the end; headless, the same file stays an error
# (tests/cli/cli_test.sh). Read back from --stats.
#
# usage: broken_scene_window_test.sh PATH/TO/clothsim REPO_ROOT
# needs: xvfb-run, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin broken_scene "" "$@"
require_tools xvfb-run python3

printf '{"name": "cut short", "cloth": ' >"$tmp/broken.json"
set +e
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --scene "$tmp/broken.json" --set solver.dt=0.01 --window 1280x720 \
  --quit-after-frames 20 --stats "$tmp/stats.json" >"$tmp/app.log" 2>"$tmp/err.log"
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$tmp/err.log" >&2; fail "clothsim exited with status $rc"; }
grep -q "^clothsim: error: scene $tmp/broken.json is not valid JSON.*(opening the default scene)$" "$tmp/err.log" ||
  { cat "$tmp/err.log" >&2; fail "stderr does not give the reason in one line"; }
[ "$(stat 'doc["app"]["displayed_frames"] >= 20')" = True ] || fail "the window did not run"
[ "$(stat 'doc["app"]["scene_path"].endswith("assets/scenes/default.json")')" = True ] ||
  fail "not the default scene: $(stat 'doc["app"]["scene_path"]')"
[ "$(stat '"not valid JSON" in doc["app"]["scene_error"]')" = True ] || fail "the panel does not carry the error"
# The overrides were for the broken file: the default scene runs its own dt.
[ "$(stat 'abs(doc["dt"] - 1/60) < 1e-6')" = True ] || fail "the broken file's --set reached the default scene"
# The panel's width at scale 1 is about 480 px; the 180-character message must not widen it.
[ "$(stat 'doc["app"]["panel"][2] < 520')" = True ] || fail "the error widened the panel to $(stat 'doc["app"]["panel"][2]') px"
echo "broken_scene: ok"
