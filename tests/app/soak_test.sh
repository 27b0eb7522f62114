#!/usr/bin/env bash
# Soak test of the real app under a private Xvfb: seeded random xdotool input for SOAK_SECONDS
# (mouse drags on and off the cloth, fast drags far off screen, ctrl+clicks that pin, scroll,
# right/middle drags, and the keys Space N R W P F1 V, V starting and stopping recordings) while
# the app's resident memory (VmRSS, /proc/PID/status) is sampled. Fails if the app dies, or if
# VmRSS grows by more than SOAK_RSS_GROWTH_MB over its value at the end of the warm-up (the first
# quarter of the run, at least 5 s: shader compiles, font atlas, first recording buffers).
# Ends the app with SIGTERM, which must finish cleanly, and checks every recording it made.
#
# usage: soak_test.sh PATH/TO/clothsim REPO_ROOT
# env:   SOAK_SECONDS (default 20), SOAK_SEED (default 1), SOAK_RSS_GROWTH_MB (default 48)
# needs: Xvfb, xdotool, ffprobe, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin soak "" "$@"
seconds=${SOAK_SECONDS:-20}
seed=${SOAK_SEED:-1}
bound_mb=${SOAK_RSS_GROWTH_MB:-48}
require_tools Xvfb xdotool ffprobe python3
before_cleanup() { xdotool mouseup 1 mouseup 2 mouseup 3 keyup ctrl 2>/dev/null; }


start_private_xvfb

# Under AddressSanitizer freed memory sits in a quarantine (256 MiB by default) that would read
# as growth; keep it small. Ignored by builds without ASan.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"

# In $tmp: the app writes recordings and screenshots under ./out.
(cd "$tmp" && exec "$bin" --scene "$root/tests/app/drag_scene.json" --window 1024x768 \
  --stats "$tmp/stats.json") >"$tmp/app.log" 2>&1 &
app_pid=$!

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$app_pid/status" 2>/dev/null || echo 0; }
alive() { kill -0 "$app_pid" 2>/dev/null; }

# Prints "x y" of the four grid corners on screen ("x y" per line), from the stats file.
corners() {
  python3 - "$tmp/stats.json" <<'PY' 2>/dev/null || true
import json, sys
for c in json.load(open(sys.argv[1]))["app"]["corner_screen_px"].values():
    print(round(c[0]), round(c[1]))
PY
}
for _ in $(seq 150); do
  alive || fail "clothsim exited at start"
  [ -n "$(corners)" ] && break
  sleep 0.2
done
[ -n "$(corners)" ] || fail "the stats file never showed the cloth's corners"

RANDOM=$seed
events=0
recordings_toggled=0
mapfile -t cloth < <(corners)
# A point on (or next to) the cloth: a random corner, or between two of them.
cloth_point() {
  local a=${cloth[RANDOM % ${#cloth[@]}]} b=${cloth[RANDOM % ${#cloth[@]}]}
  read -r ax ay <<<"$a"
  read -r bx by <<<"$b"
  local t=$((RANDOM % 101))
  echo $((ax + (bx - ax) * t / 100)) $((ay + (by - ay) * t / 100))
}
random_point() { echo $((RANDOM % 1024)) $((RANDOM % 768)); }
x() { xdotool "$@" 2>/dev/null || true; events=$((events + 1)); }
drag() {  # button, from "x y", to "x y", moves
  local button=$1 from=$2 to=$3 moves=$4
  read -r fx fy <<<"$from"
  read -r tx ty <<<"$to"
  x mousemove "$fx" "$fy"
  x mousedown "$button"
  for k in $(seq "$moves"); do
    x mousemove $((fx + (tx - fx) * k / moves)) $((fy + (ty - fy) * k / moves))
    sleep 0.02
  done
  x mouseup "$button"
}
keys=(space n r w p F1)

start=$(date +%s)
warmup=$((seconds / 4 > 5 ? seconds / 4 : 5))
rss_warm=""
rss_max=0
rss_first=$(rss_kb)
last_sample=$start
while :; do
  now=$(date +%s)
  elapsed=$((now - start))
  [ "$elapsed" -ge "$seconds" ] && break
  alive || fail "clothsim died after ${elapsed} s and $events events"
  if [ "$now" -ne "$last_sample" ]; then  # sample about once a second
    last_sample=$now
    rss=$(rss_kb)
    if [ -z "$rss_warm" ] && [ "$elapsed" -ge "$warmup" ]; then rss_warm=$rss; fi
    if [ -n "$rss_warm" ] && [ "$rss" -gt "$rss_max" ]; then rss_max=$rss; fi
    if [ $((RANDOM % 4)) -eq 0 ]; then mapfile -t fresh < <(corners); [ ${#fresh[@]} -eq 4 ] && cloth=("${fresh[@]}"); fi
  fi
  case $((RANDOM % 12)) in
    0|1|2) drag 1 "$(cloth_point)" "$(random_point)" $((2 + RANDOM % 8)) ;;   # grab and drag
    3) drag 1 "$(random_point)" "$(random_point)" 4 ;;                        # orbit (empty space)
    4) drag 1 "$(cloth_point)" "$((RANDOM % 2 * 1279)) $((RANDOM % 2 * 799))" 2 ;;  # fast, far away
    5) read -r px py <<<"$(cloth_point)"; x mousemove "$px" "$py"; x keydown ctrl; x click 1; x keyup ctrl ;;
    6) x click --repeat $((1 + RANDOM % 5)) $((4 + RANDOM % 2)) ;;           # scroll in / out
    7) drag $((2 + RANDOM % 2)) "$(random_point)" "$(random_point)" 3 ;;      # pan / orbit
    8|9|10) x key "${keys[RANDOM % ${#keys[@]}]}" ;;
    11) if [ $((RANDOM % 3)) -eq 0 ]; then x key v; recordings_toggled=$((recordings_toggled + 1)); fi ;;
  esac
  sleep 0.0$((RANDOM % 10))
done
alive || fail "clothsim died at the end of the run"
rss_end=$(rss_kb)
[ "$rss_end" -gt "$rss_max" ] && rss_max=$rss_end
[ -n "$rss_warm" ] || rss_warm=$rss_first
growth_kb=$((rss_max - rss_warm))
echo "soak_test: ${seconds} s (seed $seed), $events xdotool events, recording toggled $recordings_toggled times"
echo "soak_test: VmRSS at start $((rss_first / 1024)) MiB, after ${warmup} s warm-up $((rss_warm / 1024)) MiB," \
  "peak after warm-up $((rss_max / 1024)) MiB, end $((rss_end / 1024)) MiB: growth $((growth_kb / 1024)) MiB" \
  "(bound ${bound_mb} MiB)"

# SIGTERM ends the app cleanly (an open recording is finished).
xdotool mouseup 1 mouseup 2 mouseup 3 keyup ctrl 2>/dev/null || true
kill -TERM "$app_pid"
rc=0
for _ in $(seq 300); do alive || break; sleep 0.2; done
alive && fail "clothsim still running 60 s after SIGTERM"
wait "$app_pid" || rc=$?
app_pid=""
[ "$rc" -eq 143 ] || fail "exit status $rc after SIGTERM, want 143"
for video in "$tmp"/out/*.mp4; do
  [ -e "$video" ] || continue
  ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$video" 2>"$tmp/probe.log" | grep -qx h264 ||
    fail "recording $video is not a valid h264 mp4: $(cat "$tmp/probe.log")"
  echo "soak_test: recording $(basename "$video") is a valid h264 mp4"
done
[ "$growth_kb" -le $((bound_mb * 1024)) ] || fail "VmRSS grew by $((growth_kb / 1024)) MiB after warm-up (bound ${bound_mb} MiB)"
echo "PASS: soak_test"
