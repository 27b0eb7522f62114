#!/usr/bin/env bash
# Render smoke test: every render mode and overlay of --view, alone and all together,
# drawn headless on a windy flag. Each run must end without an OpenGL error (the renderer's
# callers check glGetError every frame and fail the run), give a real picture (png_check.py),
# and differ visibly from the plain rendering: a mode that draws nothing fails here.
#
# usage: render_modes_test.sh PATH/TO/clothsim REPO_ROOT
# needs: xvfb-run, python3 (standard library only)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
app_test_begin render_modes "" "$@"
require_tools xvfb-run python3

# The flag has wind but touches nothing; contacts are drawn on the default scene's cloth, which
# lands on its sphere within the 20 frames, and compared with that scene's plain picture.
modes=(plain wireframe heat-map checker fabric springs velocity force wind caption no-pins no-ground no-shadow all plain-draped contacts)
all="wireframe,heat-map,springs,velocity,force,wind,caption,contacts"
for mode in "${modes[@]}"; do
  scene="$root/assets/scenes/case2_flag.json"
  case $mode in
    plain) view="" ;;
    all) view=$all ;;
    plain-draped) view="" scene="$root/assets/scenes/default.json" ;;
    contacts) view=$mode scene="$root/assets/scenes/default.json" ;;
    *) view=$mode ;;
  esac
  xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --headless --frames 20 --scene "$scene" --window 480x270 \
    --view "$view" --screenshot "$tmp/$mode.png" >"$tmp/$mode.log" 2>&1 ||
    { cat "$tmp/$mode.log" >&2; fail "--view '$view' exited with status $?"; }
  ! grep -q "OpenGL error" "$tmp/$mode.log" || { cat "$tmp/$mode.log" >&2; fail "--view '$view' raised an OpenGL error"; }
  bands=1
  case $mode in checker | fabric) bands=0 ;; esac  # the texture's colours, not the cloth's
  python3 "$root/tests/app/png_check.py" "$tmp/$mode.png" 480 270 $bands >/dev/null || fail "--view '$view': blank or broken picture"
done

python3 - "$root/tests/app" "$tmp" "${modes[@]}" <<'PY' || fail "a render mode did not change the picture"
import sys
sys.path.insert(0, sys.argv[1])
from png_check import decode_png

tmp, modes = sys.argv[2], sys.argv[3:]
def pixels(mode):
    w, h, ch, rows = decode_png(f"{tmp}/{mode}.png")
    return [tuple(row[x * ch:x * ch + 3]) for row in rows for x in range(w)]

failed = False
for mode in modes:
    if mode.startswith("plain"):
        plain = pixels(mode)  # the reference of the modes after it
        continue
    img = pixels(mode)
    changed = sum(1 for a, b in zip(plain, img) if max(abs(p - q) for p, q in zip(a, b)) > 24)
    share = changed / len(plain)
    # A mode must change at least 50 pixels: the smallest, the pins, are two markers 9 px
    # across (about 120 pixels); the others change thousands.
    verdict = "ok" if changed >= 50 else "FAIL"
    failed |= verdict == "FAIL"
    print(f"{verdict}: --view {mode}: {changed} pixels ({100 * share:.2f}%) differ from the plain picture")
sys.exit(1 if failed else 0)
PY
# The presentation scale widens the arrows (and the markers): at --ui-scale 2 the velocity arrows
# of the same headless run cover about twice the pixels they cover at scale 1 (lines.geom).
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --headless --frames 20 --scene "$root/assets/scenes/case2_flag.json" \
  --window 480x270 --view velocity --ui-scale 2 --screenshot "$tmp/velocity-scaled.png" >"$tmp/scaled.log" 2>&1 ||
  { cat "$tmp/scaled.log" >&2; fail "--ui-scale 2 exited with status $?"; }
python3 - "$root/tests/app" "$tmp" <<'PY' || fail "the arrows do not follow the presentation scale"
import sys
sys.path.insert(0, sys.argv[1])
from png_check import decode_png

def green(path):  # the velocity arrows' colour (0.20, 0.85, 0.30); nothing else in the flag scene
    w, h, ch, rows = decode_png(path)
    return sum(1 for row in rows for x in range(w)
               if row[x * ch + 1] > 150 and row[x * ch] < 110 and row[x * ch + 2] < 130)

one, two = green(f"{sys.argv[2]}/velocity.png"), green(f"{sys.argv[2]}/velocity-scaled.png")
ratio = two / max(one, 1)
print(f"velocity arrows: {one} px at scale 1, {two} px at scale 2 (x{ratio:.2f})")
sys.exit(0 if one >= 200 and 1.6 <= ratio <= 2.6 else 1)
PY
# Arrows are hidden by a solid in front of them: a cloth hanging behind a sphere, seen straight
# on, with its force arrows (gravity's, on every vertex) and without; the sphere's disc (about
# 98 px across, in the middle of the 480 x 270 picture; its central 61 x 61 px are read) is the
# same in both, the rest is not.
for run in plain force; do
  xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --headless --frames 5 --scene "$root/tests/app/arrows_behind_sphere_scene.json" \
    --window 480x270 --view "$([ $run = force ] && echo force)" --screenshot "$tmp/behind-$run.png" >"$tmp/behind.log" 2>&1 ||
    { cat "$tmp/behind.log" >&2; fail "the sphere scene exited with status $?"; }
done
python3 - "$root/tests/app" "$tmp" <<'PY' || fail "arrows behind the sphere are drawn over it"
import sys
sys.path.insert(0, sys.argv[1])
from png_check import decode_png

def pixels(path):
    w, h, ch, rows = decode_png(path)
    return {(x, y): tuple(rows[y][x * ch:x * ch + 3]) for y in range(h) for x in range(w)}

plain, force = (pixels(f"{sys.argv[2]}/behind-{run}.png") for run in ("plain", "force"))
differs = lambda p: max(abs(a - b) for a, b in zip(plain[p], force[p])) > 24
disc = [(x, y) for x in range(210, 271) for y in range(105, 166)]
on_disc = sum(differs(p) for p in disc)
elsewhere = sum(differs(p) for p in plain) - on_disc
print(f"arrows behind a sphere: {on_disc} pixels of the sphere's disc changed, {elsewhere} elsewhere")
sys.exit(0 if on_disc == 0 and elsewhere >= 200 else 1)
PY
echo "PASS: ${#modes[@]} render modes, no OpenGL error, each visibly different; arrows scale and stay behind solids"
