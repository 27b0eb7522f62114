#!/usr/bin/env bash
# A recording in progress must end as a valid mp4 when clothsim is stopped by a signal or its
# window is closed: start the real app under a private Xvfb recording from the first frame
# (--record), let it run, then
#   1. SIGINT to its whole process group, as Ctrl-C in a terminal does (ffmpeg, its child, must
#      not die mid-file),
#   2. SIGTERM to the app alone, as `kill` or a service manager does,
#   3. (recording started with the V key instead) the window manager's close button:
#      WM_DELETE_WINDOW (wm_close.py; Xvfb has no window manager of its own),
# and check each time the exit status (128 + signal; 0 for the closed window), the "wrote video"
# line and the mp4 itself with ffprobe (H.264, as many frames as the app says it wrote, a
# positive duration).
#
# usage: record_signal_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, ffprobe, setsid, python3 (standard library only) and libX11
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin signal "" "$@"
require_tools Xvfb xdotool ffprobe setsid python3
app_group=1  # the app runs in its own process group (setsid): the cleanup kills ffmpeg too

fail() {
  echo "FAIL: $*" >&2
  for log in "$tmp"/*.log; do echo "--- $log:" >&2; cat "$log" >&2; done
  exit 1
}

start_private_xvfb

# Prints the app's displayed_frames from its stats file, or 0 before the first write.
displayed_frames() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["app"]["displayed_frames"])' \
    "$tmp/stats.json" 2>/dev/null || echo 0
}

# wait_for_frames NAME N: until the app has displayed N frames (the time-out only guards a stall).
wait_for_frames() {
  local name=$1 want=$2
  for _ in $(seq 300); do
    kill -0 "$app_pid" 2>/dev/null || fail "$name: clothsim exited before it was stopped"
    [ "$(displayed_frames)" -ge "$want" ] && return 0
    sleep 0.2
  done
  fail "$name: fewer than $want frames displayed in 60 s"
}

# run_and_stop NAME HOW: HOW is ctrl_c (SIGINT to the whole process group), sigterm (SIGTERM to
# the app alone) or wm_close (V starts the recording, then the window is closed).
run_and_stop() {
  local name=$1 how=$2
  local log="$tmp/$name.log" record=()
  rm -f "$tmp/stats.json"
  [ "$how" = wm_close ] || record=(--record "$tmp/$name.mp4")
  # setsid: a process group of its own (its id is the app's pid), to signal it like a terminal.
  # In a folder of its own: V records to ./out/recording-*.mp4.
  mkdir -p "$tmp/$name"
  (cd "$tmp/$name" && exec setsid "$bin" --scene "$root/tests/app/drag_scene.json" --window 640x480 \
    "${record[@]}" --stats "$tmp/stats.json") >"$log" 2>&1 &
  app_pid=$!
  local started=0
  if [ "$how" = wm_close ]; then
    wait_for_frames "$name" 1
    local window
    window=$(xdotool search --onlyvisible --pid "$app_pid" | head -n1)
    [ -n "$window" ] || fail "$name: no window of clothsim found"
    xdotool mousemove --window "$window" 320 240 key v  # keys go to the window under the pointer
    for _ in $(seq 100); do
      grep -q "clothsim: recording to " "$log" && break
      sleep 0.2
    done
    grep -q "clothsim: recording to " "$log" || fail "$name: V did not start a recording"
    started=$(displayed_frames)
  fi
  wait_for_frames "$name" $((started + 30))
  local want
  case $how in
    ctrl_c) kill -INT -- "-$app_pid"; want=$((128 + $(kill -l INT))) ;;
    sigterm) kill -TERM "$app_pid"; want=$((128 + $(kill -l TERM))) ;;
    wm_close) python3 "$(dirname "${BASH_SOURCE[0]}")/wm_close.py" "$window"; want=0 ;;
  esac
  local rc=0
  for _ in $(seq 300); do
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -0 "$app_pid" 2>/dev/null && fail "$name: clothsim still running 60 s after $how"
  wait "$app_pid" || rc=$?
  app_pid=""
  [ "$rc" -eq "$want" ] || fail "$name: exit status $rc after $how, want $want"
  local frames video
  frames=$(sed -n 's/.*wrote video .* (\([0-9]*\) frames.*/\1/p' "$log")
  video=$(sed -n 's/.*wrote video \(.*\) ([0-9]* frames.*/\1/p' "$log")
  [ -n "$frames" ] || fail "$name: no 'wrote video' line"
  (cd "$tmp/$name" && ffprobe -v error -count_frames -show_entries stream=codec_name,nb_read_frames:format=duration \
    -of json "$video") >"$tmp/$name.probe.json" 2>"$tmp/$name.probe.log" || fail "$name: ffprobe cannot read $video"
  python3 - "$tmp/$name.probe.json" "$frames" "$name" <<'PY' || fail "$name: video check failed"
import json, sys
probe = json.load(open(sys.argv[1]))
streams, duration = probe["streams"], float(probe["format"]["duration"])
want, name = int(sys.argv[2]), sys.argv[3]
if len(streams) != 1 or streams[0]["codec_name"] != "h264":
    sys.exit(f"FAIL: expected one h264 stream, got {streams}")
got = int(streams[0]["nb_read_frames"])
if got != want or got < 30:
    sys.exit(f"FAIL: {got} frames decoded, the app wrote {want} (want equal, >= 30)")
if not duration > 0:
    sys.exit(f"FAIL: duration {duration} s")
print(f"ok: {name}: valid h264 mp4 with {got} frames, {duration} s")
PY
}

run_and_stop ctrl_c ctrl_c
run_and_stop sigterm sigterm
run_and_stop wm_close wm_close
echo "PASS: record_signal_test"
