#!/usr/bin/env bash
# A recording in progress must end as a valid mp4 when clothsim is stopped by a signal: start the
# real app under a private Xvfb recording from the first frame (--record), let it run, then
#   1. SIGINT to its whole process group, as Ctrl-C in a terminal does (ffmpeg, its child, must
#      not die mid-file),
#   2. SIGTERM to the app alone, as `kill` or a service manager does,
# and check each time the exit status (128 + signal), the "wrote video" line and the mp4 itself
# with ffprobe (H.264, as many frames as the app says it wrote).
#
# usage: record_signal_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, ffprobe, setsid, python3 (standard library only)
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 PATH/TO/clothsim REPO_ROOT" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
for tool in Xvfb ffprobe setsid python3; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/clothsim-signal.XXXXXX")
xvfb_pid=""
app_pid=""
cleanup() {
  local rc=$?
  [ -n "$app_pid" ] && kill -KILL -- "-$app_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ $rc -eq 0 ] && [ -z "${KEEP_TMP:-}" ]; then rm -rf "$tmp"; else echo "record_signal_test: files kept in $tmp" >&2; fi
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  for log in "$tmp"/*.log; do echo "--- $log:" >&2; cat "$log" >&2; done
  exit 1
}

# Our own X server (tests/app/xvfb.sh).
source "$(dirname "${BASH_SOURCE[0]}")/xvfb.sh"
start_private_xvfb

# Prints the app's displayed_frames from its stats file, or 0 before the first write.
displayed_frames() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["app"]["displayed_frames"])' \
    "$tmp/stats.json" 2>/dev/null || echo 0
}

# run_and_stop NAME SIGNAL WHOM: WHOM is "group" (Ctrl-C) or "app".
run_and_stop() {
  local name=$1 signal=$2 whom=$3
  local video="$tmp/$name.mp4" log="$tmp/$name.log"
  rm -f "$tmp/stats.json"
  # setsid: a process group of its own (its id is the app's pid), to signal it like a terminal.
  setsid "$bin" --scene "$root/tests/app/drag_scene.json" --window 640x480 --record "$video" \
    --stats "$tmp/stats.json" >"$log" 2>&1 &
  app_pid=$!
  # Let it record a while: at least 30 displayed frames (time-outs only guard against a stall).
  for _ in $(seq 300); do
    kill -0 "$app_pid" 2>/dev/null || fail "$name: clothsim exited before the signal"
    [ "$(displayed_frames)" -ge 30 ] && break
    sleep 0.2
  done
  [ "$(displayed_frames)" -ge 30 ] || fail "$name: fewer than 30 frames displayed in 60 s"
  if [ "$whom" = group ]; then kill "-$signal" -- "-$app_pid"; else kill "-$signal" "$app_pid"; fi
  local rc=0
  for _ in $(seq 300); do
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -0 "$app_pid" 2>/dev/null && fail "$name: clothsim still running 60 s after SIG$signal"
  wait "$app_pid" || rc=$?
  app_pid=""
  local want=$((128 + $(kill -l "$signal")))
  [ "$rc" -eq "$want" ] || fail "$name: exit status $rc after SIG$signal, want $want"
  local frames
  frames=$(sed -n 's/.*wrote video .* (\([0-9]*\) frames.*/\1/p' "$log")
  [ -n "$frames" ] || fail "$name: no 'wrote video' line"
  ffprobe -v error -count_frames -show_entries stream=codec_name,nb_read_frames -of json "$video" \
    >"$tmp/$name.probe.json" 2>"$tmp/$name.probe.log" || fail "$name: ffprobe cannot read $video"
  python3 - "$tmp/$name.probe.json" "$frames" "$name" <<'PY' || fail "$name: video check failed"
import json, sys
streams = json.load(open(sys.argv[1]))["streams"]
want, name = int(sys.argv[2]), sys.argv[3]
if len(streams) != 1 or streams[0]["codec_name"] != "h264":
    sys.exit(f"FAIL: expected one h264 stream, got {streams}")
got = int(streams[0]["nb_read_frames"])
if got != want or got < 30:
    sys.exit(f"FAIL: {got} frames decoded, the app wrote {want} (want equal, >= 30)")
print(f"ok: {name}: valid h264 mp4 with {got} frames")
PY
}

run_and_stop ctrl_c INT group
run_and_stop sigterm TERM app
echo "PASS: record_signal_test"
