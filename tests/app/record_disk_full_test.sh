#!/usr/bin/env bash
# A recording whose disk fills must end clothsim with one clear error line and a non-zero exit
# status (2, like every error), never a crash, a hang or death by SIGPIPE. Three ways it fails:
#   1. the real ffmpeg writing to /dev/full (every write fails with ENOSPC: a full disk without
#      mount rights), through a symlink named .mp4 so that ffmpeg knows the format;
#   2. an ffmpeg that dies after a few frames (the pipe breaks mid-recording: EPIPE);
#   3. an ffmpeg that reads every frame, then fails writing the end of the file.
# (2 and 3 are stand-in ffmpeg scripts put first on PATH.) Each run is bounded by `timeout`.
#
# usage: record_disk_full_test.sh PATH/TO/clothsim REPO_ROOT
# needs: Xvfb, ffmpeg, timeout, python3 (Xvfb: --record renders offscreen with OpenGL)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin diskfull "" "$@"
require_tools Xvfb ffmpeg timeout
[ -c /dev/full ] || { echo "FAIL: /dev/full is missing" >&2; exit 1; }


start_private_xvfb

# record_fails NAME VIDEO REASON [PATH]: records 120 frames headless to VIDEO (with PATH as the
# search path when given) and checks: exit status 2, stderr exactly one line, saying that ffmpeg
# failed writing VIDEO and ending in ffmpeg's first message, which ends in REASON; and no
# leftover ffmpeg message file.
record_fails() {
  local name=$1 video=$2 reason=$3 search_path=${4:-$PATH}
  local rc=0
  PATH="$search_path" TMPDIR="$tmp/ffmpeg-logs" timeout -s KILL 60 "$bin" --headless \
    --scene "$root/tests/app/drag_scene.json" --frames 120 --window 320x240 --record "$video" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  [ "$rc" -ne 137 ] || fail "$name: clothsim hung (killed after 60 s)"
  [ "$rc" -eq 2 ] || { cat "$tmp/$name.err" >&2; fail "$name: exit status $rc, want 2"; }
  local lines
  lines=$(wc -l <"$tmp/$name.err")
  [ "$lines" -eq 1 ] || { cat "$tmp/$name.err" >&2; fail "$name: $lines lines on stderr, want 1"; }
  grep -q "^clothsim: error: ffmpeg failed (exit 1) writing '$video': .*$reason\$" "$tmp/$name.err" ||
    fail "$name: want 'clothsim: error: ffmpeg failed (exit 1) writing '$video': ...$reason', got: $(cat "$tmp/$name.err")"
  [ -z "$(ls -A "$tmp/ffmpeg-logs")" ] || fail "$name: ffmpeg's message file was left behind"
  echo "ok: $name -> $(cat "$tmp/$name.err")"
}
mkdir -p "$tmp/ffmpeg-logs"

# 1. Real ffmpeg, full "disk".
ln -s /dev/full "$tmp/full.mp4"
record_fails dev_full "$tmp/full.mp4" "No space left on device"

# 2 and 3. Stand-in ffmpegs. Frames are 320x240x3 = 230400 bytes.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/ffmpeg" <<EOF
#!/bin/sh
# Reads 5 frames, then fails like ffmpeg on a full disk (mode: \$FAKE_FFMPEG).
if [ "\$FAKE_FFMPEG" = dies ]; then
  head -c $((5 * 230400)) >/dev/null
else
  cat >/dev/null
fi
echo "[out#0/mp4 @ 0x1] Error writing trailer: No space left on device" >&2
echo "second line that must not be shown" >&2
exit 1
EOF
chmod +x "$tmp/bin/ffmpeg"
export FAKE_FFMPEG=dies
record_fails broken_pipe "$tmp/b.mp4" "Error writing trailer: No space left on device" \
  "$tmp/bin:$PATH"
export FAKE_FFMPEG=at_end
record_fails fails_at_end "$tmp/c.mp4" "Error writing trailer: No space left on device" \
  "$tmp/bin:$PATH"
grep -q "frame 120/120" "$tmp/fails_at_end.out" || fail "fails_at_end: the run did not reach its last frame"

echo "PASS: record_disk_full_test"
