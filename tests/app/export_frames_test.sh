#!/usr/bin/env bash
# End-to-end test of the animation exports in the window app, under Xvfb with xdotool:
#  1. --export-sequence and --export-pc2 from the start: one OBJ file and one point cache sample
#     per simulated step, as many as the --stats file's steps;
#  2. the Scene section's buttons start and stop both (written under out/ of the working folder):
#     the files hold as many frames as the app reports.
#
# usage: export_frames_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin export_frames "" "$@"
require_tools Xvfb xdotool python3

# The PC2 header's (points, samples) and the file's size check.
pc2_counts() {
  python3 - "$1" <<'PY'
import os, struct, sys
data = open(sys.argv[1], "rb").read()
sig, version, points, start, rate, samples = struct.unpack("<12siiffi", data[:32])
assert sig == b"POINTCACHE2\0" and version == 1 and start == 1.0 and rate == 1.0, (sig, version, start, rate)
assert len(data) == 32 + 12 * points * samples, (len(data), points, samples)
print(points, samples)
PY
}

start_private_xvfb

# 1. From the command line.
"$bin" --scene "$root/tests/app/drag_scene.json" --window 640x480 --quit-after-frames 30 \
  --export-sequence "$tmp/seq" --export-pc2 "$tmp/run.pc2" --stats "$tmp/run.json" >"$tmp/app.log" 2>&1 ||
  fail "the export run exited with status $?"
steps=$(json_field "$tmp/run.json" 'doc["steps"]')
files=$(find "$tmp/seq" -name 'frame_*.obj' | wc -l)
read -r points samples < <(pc2_counts "$tmp/run.pc2") || fail "the point cache is not a valid PC2"
[ "$steps" -gt 0 ] || fail "no steps taken"
[ "$files" -eq "$steps" ] || fail "$files OBJ files for $steps steps"
[ "$samples" -eq "$steps" ] || fail "$samples point cache samples for $steps steps"
[ "$points" -eq 256 ] || fail "$points points in the cache, the cloth has 256"
[ -f "$tmp/seq/frame_00001.obj" ] && [ -f "$tmp/seq/$(printf 'frame_%05d.obj' "$steps")" ] ||
  fail "frames not numbered 1..$steps"
echo "export_frames_test: command line: $steps steps -> $files OBJ files, $samples PC2 samples"

# 2. The Scene section (closed by default, its header at y = 63 in the default layout; opened,
# "Export OBJ frames" and "Export PC2" are at y = 195).
mkdir -p "$tmp/work"
mv "$tmp/app.log" "$tmp/cli.log"
(cd "$tmp/work" && exec "$bin" --scene "$root/tests/app/drag_scene.json" --window 1024x768 --stats "$tmp/stats.json") \
  >"$tmp/app.log" 2>&1 &
app_pid=$!
wait_for_stats 'doc["app"]["displayed_frames"] > 5' "the app drawing"
wid=$(xdotool search --sync --name "clothsim" | head -n1)
xdotool windowmove --sync "$wid" 0 0
sleep 0.5
xdotool mousemove 60 63 click 1
wait_frames
xdotool mousemove 80 195 click 1
wait_frames
xdotool mousemove 190 195 click 1
for _ in $(seq 60); do
  grep -q "writing point cache" "$tmp/app.log" && break
  sleep 0.5
done
grep -q "writing OBJ frames to out/sequence-" "$tmp/app.log" || fail "Export OBJ frames did not start"
grep -q "writing point cache out/cache-" "$tmp/app.log" || fail "Export PC2 did not start"
steps=$(stat 'doc["steps"]')
wait_for_stats "doc['steps'] > $steps + 30" "30 steps exported"
xdotool mousemove 80 195 click 1
wait_frames
xdotool mousemove 190 195 click 1
for _ in $(seq 60); do
  grep -q "wrote point cache" "$tmp/app.log" && break
  sleep 0.5
done
xdotool mousemove 700 600
sleep 0.5
quit_app_with_escape
line=$(grep "wrote [0-9]* OBJ frames to" "$tmp/app.log") || fail "the OBJ sequence did not stop"
reported=$(echo "$line" | sed -E 's/.*wrote ([0-9]+) OBJ frames.*/\1/')
files=$(find "$tmp/work/out" -name 'frame_*.obj' | wc -l)
[ "$files" -eq "$reported" ] && [ "$files" -ge 30 ] || fail "$files OBJ files, the app reported $reported (>= 30 expected)"
cache=$(ls "$tmp"/work/out/cache-*.pc2) || fail "no point cache in out/"
read -r points samples < <(pc2_counts "$cache") || fail "the panel's point cache is not a valid PC2"
grep -q "wrote point cache .*($samples frames, 256 vertices)" "$tmp/app.log" ||
  fail "the point cache holds $samples samples, not what the app reported"
[ "$samples" -ge 30 ] || fail "only $samples point cache samples"
echo "export_frames_test: Scene panel: $files OBJ files, $samples PC2 samples"
echo "PASS: export_frames_test"
