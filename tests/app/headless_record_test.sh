#!/usr/bin/env bash
# Headless runs of the real binary: a 60-frame H.264 recording under xvfb-run (checked with
# ffprobe), the stats JSON, a recording with no X server (surfaceless EGL), and the error boundary (bad input ends in exit code 2 with exactly
# one `clothsim: error:` line, never a crash).
#
# usage: headless_record_test.sh PATH/TO/clothsim REPO_ROOT
# needs: xvfb-run, ffmpeg/ffprobe, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin headless "" "$@"
require_tools xvfb-run ffmpeg ffprobe python3

# 1. Recording: 60 frames -> a 60-frame H.264 video, plus stats.
# The default scene (no --scene), as a user would run it.
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --headless --frames 60 --record "$tmp/a.mp4" --stats "$tmp/s.json" >"$tmp/record.log" 2>&1 ||
  { cat "$tmp/record.log" >&2; fail "clothsim --headless --record exited with status $?"; }
grep -q "clothsim: wrote video $tmp/a.mp4 (60 frames" "$tmp/record.log" ||
  { cat "$tmp/record.log" >&2; fail "no 'wrote video' line"; }
ffprobe -v error -show_entries stream=codec_name,width,height,nb_frames -of json "$tmp/a.mp4" >"$tmp/probe.json" ||
  fail "ffprobe cannot read the video"
python3 - "$tmp/probe.json" "$tmp/s.json" <<'PY' || fail "video / stats check failed"
import json, sys
streams = json.load(open(sys.argv[1]))["streams"]
video = [s for s in streams if s.get("codec_name")]
if len(video) != 1:
    sys.exit(f"FAIL: expected one video stream, got {streams}")
s = video[0]
if s["codec_name"] != "h264":
    sys.exit(f"FAIL: codec {s['codec_name']}, expected h264")
if int(s["nb_frames"]) != 60:
    sys.exit(f"FAIL: {s['nb_frames']} frames, expected 60")
if (s["width"], s["height"]) != (1280, 720):
    sys.exit(f"FAIL: video is {s['width']}x{s['height']}, expected the default 1280x720")
stats = json.load(open(sys.argv[2]))
if stats.get("frames") != 60:
    sys.exit(f"FAIL: stats frames = {stats.get('frames')}, expected 60")
print(f"ok: h264 {s['width']}x{s['height']}, {s['nb_frames']} frames; stats frames {stats['frames']}")
PY

# 2. Bad input: exit code 2 (not a signal, not a crash) and exactly one error line on stderr.
# Side by side: a 2 x 2 sweep records one video of the four panes, a screenshot with a cloth in
# each half, and the statistics of every pane.
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --headless --frames 30 --scene "$root/assets/scenes/classroom_stiffness_sweep.json" \
  --record "$tmp/c.mp4" --screenshot "$tmp/c.png" --stats "$tmp/c.json" >"$tmp/compare.log" 2>&1 ||
  { cat "$tmp/compare.log" >&2; fail "side-by-side headless run exited with status $?"; }
[ "$(ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$tmp/c.mp4")" = 30 ] ||
  fail "the side-by-side video does not hold 30 frames"
python3 "$root/tests/app/png_check.py" "$tmp/c.png" 1280 720 2 || fail "side-by-side screenshot check failed"
python3 - "$tmp/c.json" <<'PY' || fail "side-by-side stats check failed"
import json, sys
panes = json.load(open(sys.argv[1]))["panes"]
strains = [p["max_edge_strain"] for p in panes]
print(f"ok: {len(panes)} panes, max strain {[round(s, 4) for s in strains]}")
if len(panes) != 4 or any(p["frames"] != 30 for p in panes):
    sys.exit("FAIL: expected 4 panes of 30 frames")
if strains != sorted(strains, reverse=True):
    sys.exit("FAIL: the stiffer panes should stretch less")
PY
# The classroom's lesson in the picture: the explicit pane stops where it diverged (solver.on_blowup
# = stop) with DIVERGED drawn across it in the banner's red, while the implicit pane hangs on.
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --headless --frames 30 \
  --scene "$root/assets/scenes/classroom_explicit_vs_implicit.json" \
  --screenshot "$tmp/d.png" --stats "$tmp/d.json" >"$tmp/diverged.log" 2>&1 ||
  { cat "$tmp/diverged.log" >&2; fail "classroom headless run exited with status $?"; }
python3 - "$tmp/d.json" "$tmp/d.png" "$root/tests/app" <<'PY' || fail "classroom divergence check failed"
import json, sys
sys.path.insert(0, sys.argv[3])
from png_check import decode_png
panes = json.load(open(sys.argv[1]))["panes"]
if not panes[0]["divergence"].startswith("diverged at t = ") or panes[1]["divergence"]:
    sys.exit(f"FAIL: expected the explicit pane alone stopped, got {[p['divergence'] for p in panes]}")
width, height, channels, rows = decode_png(sys.argv[2])
def banner_red(x0, x1):  # the banner's (255, 110, 90) text, where it is opaque (the cloth is darker)
    n = 0
    for row in rows:
        for x in range(x0, x1):
            r, g, b = row[channels * x:channels * x + 3]
            n += r >= 250 and 105 <= g <= 115 and 85 <= b <= 95
    return n
left, right = banner_red(0, width // 2), banner_red(width // 2, width)
print(f"ok: explicit pane {panes[0]['divergence']!r}; banner-red pixels left {left}, right {right}")
if left < 150 or right > 10:
    sys.exit("FAIL: DIVERGED should be drawn in the explicit (left) pane only")
PY
expect_error() {
  local what=$1
  shift
  set +e
  "$@" >"$tmp/out.log" 2>"$tmp/err.log"
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || { cat "$tmp/err.log" >&2; fail "$what: exit status $rc, expected 2"; }
  local lines
  lines=$(wc -l <"$tmp/err.log")
  [ "$lines" -eq 1 ] || { cat "$tmp/err.log" >&2; fail "$what: $lines lines on stderr, expected 1"; }
  grep -q '^clothsim: error: ' "$tmp/err.log" || { cat "$tmp/err.log" >&2; fail "$what: no 'clothsim: error:' line"; }
  echo "ok: $what -> $(cat "$tmp/err.log")"
}
expect_error "missing scene file" "$bin" --headless --scene "$tmp/does-not-exist.json"
printf '{"cloth": {"mesh": ' >"$tmp/truncated.json"
expect_error "truncated scene JSON" "$bin" --headless --scene "$tmp/truncated.json"
expect_error "negative dt" "$bin" --headless --scene "$root/tests/app/drag_scene.json" --set solver.dt=-1
expect_error "solver.integrator must be one of" "$bin" --headless --scene "$root/tests/app/drag_scene.json" --integrator nope
expect_error "a bad side-by-side value" "$bin" --headless --scene "$root/tests/app/drag_scene.json" --compare solver.integrator=implicit,nope
# With no EGL vendor either (glvnd finds none), there is no OpenGL at all: one line says so.
expect_error "recording with neither X nor EGL" env -u DISPLAY -u WAYLAND_DISPLAY \
  __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json "$bin" --headless \
  --scene "$root/tests/app/drag_scene.json" --frames 1 --record "$tmp/b.mp4"

# 4. No X server at all: the recording is drawn through Mesa's surfaceless EGL, with the caption.
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --headless --frames 30 --view caption --record "$tmp/egl.mp4" \
  >"$tmp/egl.log" 2>&1 || { cat "$tmp/egl.log" >&2; fail "--record without a display exited with status $?"; }
probe=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height,nb_frames -of csv=p=0 "$tmp/egl.mp4") ||
  fail "ffprobe cannot read the video recorded without a display"
[ "$probe" = "h264,1280,720,30" ] || fail "video recorded without a display: $probe, expected h264,1280,720,30"
echo "ok: recorded without a display (surfaceless EGL): $probe"

# 3. Bad command-line arguments: CLI11's message and a non-zero (non-signal) exit.
set +e
"$bin" --frames notanumber >/dev/null 2>&1
rc=$?
set -e
if [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then fail "bad --frames value: exit status $rc"; fi
echo "ok: bad argument -> exit $rc"

echo "PASS: headless_record_test"
