#!/usr/bin/env bash
# The interactive window on a software renderer (Xvfb's Mesa llvmpipe) draws its panes at half
# the window's width and height and copies them up, each picture pixel a 2 x 2 square of one
# colour, while the panel stays at full resolution; --render-scale 1 draws the panes at full
# resolution. Read back from --stats (app.render_scale) and the app's --screenshot.
#
# usage: render_scale_test.sh PATH/TO/clothsim REPO_ROOT
# needs: xvfb-run, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin render_scale "" "$@"
require_tools xvfb-run python3

for run in default full; do
  args=()
  [ "$run" = full ] && args=(--render-scale 1)
  # A coarse cloth: its steps stay well inside the window's wait for them (app.hpp, kStepWait)
  # even in a sanitized build beside other tests, so the full panel is drawn, not the stepping one.
  xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --scene "$root/assets/scenes/default.json" --window 1280x720 \
    --set 'cloth.mesh.grid.resolution=[8,8]' --quit-after-frames 20 --screenshot "$tmp/$run.png" --stats "$tmp/$run.json" "${args[@]}" >"$tmp/$run.log" 2>&1 ||
    { cat "$tmp/$run.log" >&2; fail "the $run run exited with status $?"; }
done
[ "$(json_field "$tmp/default.json" 'doc["app"]["render_scale"]')" = 0.5 ] || fail "software GL did not default to 0.5"
[ "$(json_field "$tmp/full.json" 'doc["app"]["render_scale"]')" = 1.0 ] || fail "--render-scale 1 was not kept"

python3 - "$root/tests/app" "$tmp" <<'PY' || fail "the pictures are not drawn at the resolutions asked for"
import sys
sys.path.insert(0, sys.argv[1])
from png_check import decode_png

def uniform_squares(path, x0, x1, y1=720):
    """Share of the aligned 2 x 2 squares of columns x0..x1, rows 0..y1, that are one colour."""
    w, h, ch, rows = decode_png(path)
    assert (w, h) == (1280, 720), (w, h)
    same = total = 0
    for y in range(0, y1, 2):
        for x in range(x0, x1, 2):
            px = {tuple(r[(x + dx) * ch:(x + dx) * ch + 3]) for r in (rows[y], rows[y + 1]) for dx in (0, 1)}
            total += 1
            same += len(px) == 1
    return same / total

tmp = sys.argv[2]
# Right of the panel (which ends near x = 490): ground, sky, sphere and cloth. Above y = 600:
# the status line ("0.4x real time: ...", shown when a slow build falls behind) is text, drawn
# at full resolution near the bottom.
half = uniform_squares(f"{tmp}/default.png", 640, 1280, 600)
full = uniform_squares(f"{tmp}/full.png", 640, 1280, 600)
# The panel's text: drawn at full resolution in both.
panel = uniform_squares(f"{tmp}/default.png", 16, 464)
print(f"uniform 2x2 squares: panes at 0.5 {half:.3f}, at 1 {full:.3f}; panel at 0.5 {panel:.3f}")
ok = half >= 0.99 and full <= 0.8 and panel <= 0.95
sys.exit(0 if ok else 1)
PY
echo "render_scale: ok"
