# Sourced by the app test scripts (tests/app/*.sh) right after `set -euo pipefail`. A script may
# define before_cleanup, and redefine fail when it has more to show than the app's output.
#
#   app_test_begin NAME MODES "$@"  checks the arguments PATH/TO/clothsim REPO_ROOT [MODE], MODE
#                                   one of the space-separated MODES ("" = none allowed); sets
#                                   bin, root, mode (empty when not given) and tmp, a scratch
#                                   folder removed on success, kept and named on failure (or
#                                   always with KEEP_TMP=1)
#   require_tools TOOL...           fails naming the first tool that is not installed
#   start_private_xvfb              an X server of the test's own (below)
#   quit_app_with_escape            presses Escape twice as a user would (the first asks) and fails unless the app (app_pid)
#                                   exits with status 0 within 60 s
#   fail MESSAGE...                 prints FAIL: MESSAGE and the end of $tmp/app.log, exits 1
#   json_field FILE EXPR            prints a python expression on `doc`, the JSON in FILE, or
#                                   nothing while the file is missing or half-written
#   stat EXPR                       json_field of $tmp/stats.json (the app's --stats)
#   wait_for_stats EXPR WHAT        waits up to 60 s for EXPR on $tmp/stats.json (the app's
#                                   --stats) to be True; fails naming WHAT, or if the app exits
#
# On exit: before_cleanup (if defined), then the app (app_pid; its whole process group when
# app_group=1) and Xvfb (xvfb_pid) are killed, then the scratch folder is handled.

app_test_begin() {
  test_name=$1
  local modes=$2
  shift 2
  local usage="usage: $0 PATH/TO/clothsim REPO_ROOT${modes:+ [$modes]}"
  if [ $# -lt 2 ] || [ $# -gt 3 ] || { [ $# -eq 3 ] && [[ " $modes " != *" $3 "* || -z "$modes" ]]; }; then
    echo "$usage" >&2
    exit 2
  fi
  bin=$(realpath "$1")
  root=$(realpath "$2")
  mode=${3:-}
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/clothsim-$test_name.XXXXXX")
  # The app's saved settings and panel layout live here, not in the user's ~/.config: every
  # test starts from the defaults and leaves nothing behind.
  export XDG_CONFIG_HOME="$tmp/config"
  xvfb_pid=""
  app_pid=""
  app_group=0
  trap app_test_cleanup EXIT
}

app_test_cleanup() {
  local rc=$?
  if declare -F before_cleanup >/dev/null; then before_cleanup || true; fi
  if [ -n "$app_pid" ]; then
    if [ "$app_group" = 1 ]; then kill -KILL -- "-$app_pid" 2>/dev/null || true; else kill -KILL "$app_pid" 2>/dev/null || true; fi
  fi
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ $rc -eq 0 ] && [ -z "${KEEP_TMP:-}" ]; then rm -rf "$tmp"; else echo "$test_name: files kept in $tmp" >&2; fi
}

require_tools() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed" >&2; exit 1; }
  done
}

# start_private_xvfb starts an X server of the test's own in the background and exports DISPLAY.
# -displayfd lets Xvfb pick a free display number itself (no race with other tests that also look
# for one) and tell us which. Sets xvfb_pid for the cleanup.
start_private_xvfb() {
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 100); do
    [ -s "$tmp/display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
    sleep 0.1
  done
  [ -s "$tmp/display" ] || fail "Xvfb did not report a display"
  export DISPLAY=":$(head -n1 "$tmp/display")"
}

# The failure message, then the end of the app's output when there is one. A script with more
# logs to show (record_signal_test.sh) redefines it after sourcing this file.
fail() {
  echo "FAIL: $*" >&2
  if [ -s "${tmp:-}/app.log" ]; then echo "--- app output (last 60 lines):" >&2; tail -n 60 "$tmp/app.log" >&2; fi
  exit 1
}

json_field() {
  python3 - "$1" "$2" <<'PY' 2>/dev/null || true
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
    print(eval(sys.argv[2], {"doc": doc, "round": round}))
except Exception:
    pass
PY
}

# A field of the app's --stats file, $tmp/stats.json (a Python expression over doc).
stat() { json_field "$tmp/stats.json" "$1"; }

wait_for_stats() {
  for _ in $(seq 120); do
    kill -0 "$app_pid" 2>/dev/null || fail "clothsim exited while waiting for: $2"
    [ "$(json_field "$tmp/stats.json" "$1")" = "True" ] && return 0
    sleep 0.5
  done
  fail "timed out waiting for: $2"
}

# Waits until the app has drawn N more frames (default 3): the panel then shows what the last
# click opened, however slowly a loaded machine draws. A fixed sleep is not enough there.
wait_frames() {
  local frames
  frames=$(stat 'doc["app"]["displayed_frames"]')
  wait_for_stats "doc['app']['displayed_frames'] >= $frames + ${1:-3}" "${1:-3} more frames drawn"
}

quit_app_with_escape() {
  xdotool key Escape  # asks ("Esc again to quit")
  sleep 0.3
  xdotool key Escape
  for _ in $(seq 120); do
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$app_pid" 2>/dev/null; then fail "clothsim did not quit within 60 s of Escape"; fi
  set +e
  wait "$app_pid"
  app_rc=$?
  set -e
  app_pid=""
  [ "$app_rc" -eq 0 ] || fail "clothsim exited with status $app_rc"
}
