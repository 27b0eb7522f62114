#!/usr/bin/env bash
# End-to-end test of the replay as a person uses it, under Xvfb with xdotool, on the drag scene
# (a square falling from two pinned corners):
#  1. Home replays the last seconds: the stats say the replay is playing from the oldest frame
#     held, and the simulation waits (its time stands still);
#  2. Left shows one frame, still; F12's screenshot shows the past with the replay badge;
#  3. V records the replay while it plays to the end in slow motion: the video holds one frame per
#     1/60 s of replay at 0.25x (checked with ffprobe), not one per simulated 1/60 s;
#  4. End goes back to live: the simulation goes on from where it waited.
#
# usage: replay_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, xdotool, ffprobe, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin replay "" "$@"
require_tools Xvfb xdotool ffprobe python3

start_private_xvfb
cd "$tmp"  # the app writes its screenshots and recordings under ./out
"$bin" --scene "$root/tests/app/drag_scene.json" --window 640x480 --stats "$tmp/stats.json" >"$tmp/app.log" 2>&1 &
app_pid=$!
wait_for_stats 'doc["sim_time"] > 1.5 and doc["app"]["replay"]["frames"] > 60' "1.5 s of the run in the replay buffer"
wid=$(xdotool search --sync --name "clothsim" | head -n1)
xdotool windowmove --sync "$wid" 0 0

# 1. Home: playing from the oldest frame; the simulation's time stands still meanwhile.
xdotool key Home
wait_for_stats 'doc["app"]["replay"]["active"] and doc["app"]["replay"]["playing"]' "Home starting the replay"
held_sim_time=$(stat 'doc["sim_time"]')
wait_frames 20
[ "$(stat "doc['sim_time'] == $held_sim_time")" = True ] || fail "the simulation ran on during the replay"
[ "$(stat 'doc["app"]["replay"]["time"] > doc["app"]["replay"]["oldest"]')" = True ] ||
  fail "the replay did not move on from its oldest frame"

# 2. Left: one frame earlier, still; a screenshot of it.
xdotool key Left
wait_for_stats 'doc["app"]["replay"]["active"] and not doc["app"]["replay"]["playing"]' "Left holding the replay still"
shown=$(stat 'doc["app"]["replay"]["time"]')
wait_frames 5
[ "$(stat "doc['app']['replay']['time'] == $shown")" = True ] || fail "a still replay moved"
xdotool key F12
wait_for_stats '"wrote screenshot" in doc["app"]["message"]' "the screenshot of the replay"
shot=$(ls "$tmp"/out/screenshot-*.png | head -n1)
echo "replay_test: replay held at t = $shown s while the run waits at $held_sim_time s; screenshot $shot"

# 3. From the start, paused: record, play to the end, stop the recording.
xdotool key Home
wait_for_stats 'doc["app"]["replay"]["playing"]' "Home playing the replay again"
xdotool key space
wait_for_stats 'not doc["app"]["replay"]["playing"]' "Space pausing the replay"
read -r start newest speed < <(stat '"%r %r %r" % (doc["app"]["replay"]["time"], doc["app"]["replay"]["newest"], doc["app"]["replay"]["speed"])')
xdotool key v
wait_for_stats '"recording to" in doc["app"]["message"]' "V starting a recording"
xdotool key space
wait_for_stats 'not doc["app"]["replay"]["playing"] and doc["app"]["replay"]["time"] == doc["app"]["replay"]["newest"]' \
  "the replay playing to its newest frame"
xdotool key v
wait_for_stats '"wrote video" in doc["app"]["message"]' "V ending the recording"
video=$(ls "$tmp"/out/recording-*.mp4 | head -n1)
ffprobe -v error -count_frames -show_entries stream=nb_read_frames,codec_name -of json "$video" >"$tmp/probe.json" ||
  fail "ffprobe cannot read $video"
python3 - "$tmp/probe.json" "$start" "$newest" "$speed" <<'PY' || fail "the replay's video does not hold the replay at its speed"
import json, math, sys
stream = json.load(open(sys.argv[1]))["streams"][0]
start, newest, speed = map(float, sys.argv[2:5])
frames = int(stream["nb_read_frames"])
expected = math.ceil((newest - start) * 60 / speed) + 1  # the still first frame, then one per pass
print(f"replay_test: {newest - start:.3f} s replayed at {speed:.2f}x -> {stream['codec_name']} video of {frames} "
      f"frames (expected {expected})")
if stream["codec_name"] != "h264" or abs(frames - expected) > 2:
    sys.exit(f"FAIL: {frames} frames, expected {expected}")
PY

# 4. End: live again, on from where the simulation waited.
xdotool key End
wait_for_stats "not doc['app']['replay']['active'] and doc['sim_time'] > $held_sim_time + 0.5" \
  "the simulation going on after End"
quit_app_with_escape
echo "PASS: replay_test"
