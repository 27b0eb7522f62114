#!/usr/bin/env bash
# The headless CLI contract (docs/architecture.md, "Headless contract"):
#  - every kind of bad input gives exactly one stderr line "clothsim: error: ..." and exit code 2,
#    never a crash or a signal;
#  - an unknown key gives a warning naming it and the run goes on;
#  - a good run writes the OBJ (vertices in order, pinned corners exactly where they started)
#    and the stats JSON with the documented fields.
# Usage: cli_test.sh PATH/TO/clothsim REPO_ROOT
set -uo pipefail
app="$1"
root="$2"
scene="$root/assets/scenes/default.json"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_error() {  # name, expected text in the message, clothsim args...
  local name="$1" expect="$2"
  shift 2
  "$app" --headless --frames 2 "$@" >"$tmp/out" 2>"$tmp/err"
  local code=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [ "$code" -ne 2 ]; then fail "$name: exit code $code, want 2 ($(head -c 300 "$tmp/err"))"; return; fi
  if [ "$lines" -ne 1 ]; then fail "$name: $lines stderr lines, want 1: $(cat "$tmp/err")"; return; fi
  if ! grep -q '^clothsim: error: ' "$tmp/err"; then fail "$name: no 'clothsim: error:' prefix: $(cat "$tmp/err")"; return; fi
  if ! grep -qF -- "$expect" "$tmp/err"; then fail "$name: message lacks '$expect': $(cat "$tmp/err")"; return; fi
  echo "ok: $name -> $(cat "$tmp/err")"
}

printf '{"cloth": {"mesh": ' >"$tmp/truncated.json"
cat >"$tmp/degenerate.json" <<JSON
{"cloth": {"mesh": {"obj": "$root/tests/data/degenerate.obj"}}}
JSON

expect_error "missing scene" "no_such_scene.json" --scene "$tmp/no_such_scene.json"
expect_error "malformed JSON" "not valid JSON" --scene "$tmp/truncated.json"
expect_error "wrong type" "cloth.material.density" --scene "$scene" --set 'cloth.material.density="heavy"'
expect_error "NaN value" "cloth.material.stretch" --scene "$scene" --set cloth.material.stretch=NaN
expect_error "absurd dt" "solver.dt" --scene "$scene" --set solver.dt=100
expect_error "negative resolution" "resolution" --scene "$scene" --set 'cloth.mesh.grid.resolution=[-3,4]'
expect_error "missing mesh file" "nope.obj" --scene "$scene" --set 'cloth.mesh={"obj":"nope.obj"}'
expect_error "degenerate mesh" "degenerate" --scene "$tmp/degenerate.json"
expect_error "solver.integrator must be one of" "warp" --scene "$scene" --integrator warp
expect_error "bad --set" "key=value" --scene "$scene" --set justakey
expect_error "unwritable export" "/nonexistent_dir/x.obj" --scene "$scene" --export-obj /nonexistent_dir/x.obj
touch "$tmp/a_file"
expect_error "sequence dir is a file" "--export-sequence: $tmp/a_file exists and is not a directory" --scene "$scene" --export-sequence "$tmp/a_file"
expect_error "sequence dir under a file" "--export-sequence" --scene "$scene" --export-sequence "$tmp/a_file/frames"
expect_error "unwritable point cache" "/nonexistent_dir/x.pc2" --scene "$scene" --export-pc2 /nonexistent_dir/x.pc2
expect_error "point cache is a directory" "is a directory" --scene "$scene" --export-pc2 "$tmp"
expect_error "unknown drape method" "unknown drape method" --scene "$scene" --drape sideways
expect_error "bad --case" "--case must be 1, 2 or 3" --case 4
expect_error "--case with --scene" "--case and --scene" --case 1 --scene "$scene"
expect_error "open collider mesh" "not closed" --scene "$scene" \
  --set "colliders=[{\"type\": \"mesh\", \"path\": \"$root/tests/data/open_box.obj\"}]"

# A static drape is an equilibrium: the dynamic simulation started from it (at rest) stays put.
# A 9 x 9 Feynman cloth hanging from its top row, found by Newton, then 30 implicit frames.
if ! "$app" --headless --frames 30 --scene "$scene" --drape newton --drape-tolerance 1e-8 \
    --set cloth.model=feynman --set 'cloth.mesh.grid.resolution=[9,9]' --set 'colliders=[]' \
    --set 'cloth.pins=[{"row": 0}]' --set solver.integrator=implicit --set solver.substeps=1 \
    --stats "$tmp/drape.json" >"$tmp/out" 2>"$tmp/err"; then
  fail "drape run failed: $(cat "$tmp/err")"
elif ! grep -q "drape (newton): converged" "$tmp/out"; then
  fail "drape did not report convergence: $(cat "$tmp/out")"
else
  python3 - "$tmp/drape.json" <<'PY' || failures=$((failures + 1))
import json, sys
s = json.load(open(sys.argv[1]))
# Released from rest in its equilibrium, the cloth barely moves: kinetic energy stays tiny
# compared with its potential energy (a flat start would swing with ~0.1 J).
assert s["final_kinetic_energy"] < 1e-6, s["final_kinetic_energy"]
assert s["instabilities"] == 0, s
print(f"ok: drape then 30 implicit frames: kinetic energy {s['final_kinetic_energy']:.2e} J")
PY
fi

# --case N loads the implicit cloth project's test case N: 1 the patch on the high-resolution OBJ
# (1201 vertices, vertex 0 pinned where the file puts it), 2 the flag, 3 the waving handkerchief.
for n in 1 2 3; do
  if ! "$app" --headless --frames 2 --case "$n" --export-obj "$tmp/case$n.obj" >"$tmp/out" 2>"$tmp/err"; then
    fail "--case $n failed: $(cat "$tmp/err")"
  fi
done
python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import sys
tmp = sys.argv[1]
def verts(n):
    return [list(map(float, l.split()[1:4])) for l in open(f"{tmp}/case{n}.obj") if l.startswith("v ")]
v1, v2, v3 = verts(1), verts(2), verts(3)
assert len(v1) == 25 * 25 + 24 * 24, f"case 1: {len(v1)} vertices"
assert v1[0] == [-0.5, 1.0, -0.5], v1[0]  # a pinned corner of the horizontal patch
assert all(abs(p[1] - 1.0) < 0.01 for p in v1), "case 1 starts horizontal at y = 1 m"
zs = [p[2] for p in v2]
assert max(zs) - min(zs) < 0.05 and max(p[1] for p in v2) - min(p[1] for p in v2) > 0.5, "case 2 is vertical"
assert len(v3) == 20 * 20, f"case 3: {len(v3)} vertices"
print("ok: --case 1, 2, 3 load the implicit cloth project's test cases")
PY

# Unknown key: a warning naming it, and the run still succeeds.
"$app" --headless --frames 2 --scene "$scene" --set cloth.material.stiffnes=3 >"$tmp/out" 2>"$tmp/err"
code=$?
if [ "$code" -ne 0 ] || ! grep -q "warning: .*cloth.material.stiffnes" "$tmp/err"; then
  fail "unknown key: exit $code, stderr: $(cat "$tmp/err")"
else
  echo "ok: unknown key -> $(cat "$tmp/err")"
fi

# A good run: 60 frames of the default scene.
if ! "$app" --headless --frames 60 --scene "$scene" --export-obj "$tmp/final.obj" \
    --stats "$tmp/stats.json" >"$tmp/out" 2>"$tmp/err"; then
  fail "good run failed: $(cat "$tmp/err")"
else
  python3 - "$tmp/final.obj" "$tmp/stats.json" <<'PY' || failures=$((failures + 1))
import json, math, sys
obj, stats = sys.argv[1], sys.argv[2]
v = [list(map(float, l.split()[1:4])) for l in open(obj) if l.startswith("v ")]
f = [l for l in open(obj) if l.startswith("f ")]
assert len(v) == 32 * 32, f"{len(v)} vertices"
assert len(f) == 2 * 31 * 31, f"{len(f)} faces"
# Pinned corners min-min (index 0) and max-min (index 31) never move: exactly their grid spots.
assert v[0] == [-0.5, 1.0, -0.5], v[0]
assert v[31] == [0.5, 1.0, -0.5], v[31]
# The free corner max-max (index 1023) has fallen under gravity.
assert v[1023][1] < 0.9, v[1023]
s = json.load(open(stats))
for key in ["frames", "ms_per_frame_median", "steps", "cg_iterations_mean", "instabilities",
            "max_edge_strain", "final_kinetic_energy", "nan"]:
    assert key in s, f"stats lacks {key}"
assert s["frames"] == 60 and s["steps"] == 60, s
assert s["nan"] is False and s["instabilities"] == 0, s
assert s["final_kinetic_energy"] > 0 and math.isfinite(s["max_edge_strain"]), s
assert abs(s["total_mass"] - 0.15) < 1e-9, s["total_mass"]
print("ok: good run: export and stats as documented")
PY
fi

# Animation exports: 5 frames give frame_00001..00005.obj (v, vn, vt, f a/a/a; the directory is
# created) and a PC2 point cache of 5 samples whose last one is the final state (--export-obj).
if ! "$app" --headless --frames 5 --scene "$scene" --export-sequence "$tmp/seq/run" --export-pc2 "$tmp/run.pc2" \
    --export-obj "$tmp/last.obj" >"$tmp/out" 2>"$tmp/err"; then
  fail "export run failed: $(cat "$tmp/err")"
else
  python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import math, os, struct, sys
tmp = sys.argv[1]
seq = f"{tmp}/seq/run"
names = sorted(os.listdir(seq))
assert names == [f"frame_{k:05d}.obj" for k in range(1, 6)], names
frames = []
for name in names:
    lines = open(f"{seq}/{name}").read().splitlines()
    v = [list(map(float, l.split()[1:])) for l in lines if l.startswith("v ")]
    vn = [list(map(float, l.split()[1:])) for l in lines if l.startswith("vn ")]
    vt = [list(map(float, l.split()[1:])) for l in lines if l.startswith("vt ")]
    f = [l.split()[1:] for l in lines if l.startswith("f ")]
    assert (len(v), len(vn), len(vt), len(f)) == (1024, 1024, 1024, 2 * 31 * 31), (name, len(v), len(vn), len(vt), len(f))
    assert all(abs(math.sqrt(sum(c * c for c in n)) - 1) < 1e-6 for n in vn), name
    assert all(0 <= c <= 1 for t in vt for c in t) and [0.0, 0.0] in vt and [1.0, 1.0] in vt, name
    assert all(len(set(c.split("/"))) == 1 and 1 <= int(c.split("/")[0]) <= 1024 for face in f for c in face), name
    frames.append(v)
assert all(frames[k] != frames[k + 1] for k in range(4)), "frames do not differ"
final = [list(map(float, l.split()[1:4])) for l in open(f"{tmp}/last.obj") if l.startswith("v ")]
assert frames[-1] == final, "frame 5 is not the final state"
data = open(f"{tmp}/run.pc2", "rb").read()
sig, version, points, start, rate, samples = struct.unpack("<12siiffi", data[:32])
assert (sig, version, points, start, rate, samples) == (b"POINTCACHE2\0", 1, 1024, 1.0, 1.0, 5), (sig, version, points, start, rate, samples)
assert len(data) == 32 + 5 * 1024 * 12, len(data)
last = struct.unpack(f"<{1024 * 3}f", data[32 + 4 * 1024 * 12:])
# Float precision: one float ulp (the OBJ's %.9g text rounds first, so exact equality is the
# engine test's).
assert all(abs(last[3 * i + k] - final[i][k]) <= 2**-23 * abs(final[i][k]) + 1e-12
           for i in range(1024) for k in range(3)), "last sample != final state"
first = struct.unpack(f"<{1024 * 3}f", data[32:32 + 1024 * 12])
assert first != last and first[:3] == (-0.5, 1.0, -0.5), first[:3]  # pinned corner stays, the rest moved
print("ok: --export-sequence wrote 5 OBJ frames, --export-pc2 5 samples ending at the final state")
PY
fi

# Weil's geometric drape (--drape geometric): the default cloth, held at two corners, hangs in the
# vertical plane through them (the border is catenaries between them, the interior their average).
if ! "$app" --headless --frames 0 --scene "$scene" --drape geometric --set 'colliders=[]' \
    --set 'cloth.mesh.grid.resolution=[9,9]' --export-obj "$tmp/weil.obj" >"$tmp/out" 2>"$tmp/err"; then
  fail "geometric drape run failed: $(cat "$tmp/err")"
elif ! grep -q "drape (geometric): converged" "$tmp/out" || ! grep -q "2 catenaries" "$tmp/out"; then
  fail "geometric drape did not report its catenaries: $(cat "$tmp/out")"
else
  python3 - "$tmp/weil.obj" <<'PY' || failures=$((failures + 1))
import sys
v = [list(map(float, l.split()[1:4])) for l in open(sys.argv[1]) if l.startswith("v ")]
assert len(v) == 81, len(v)
assert v[0] == [-0.5, 1.0, -0.5] and v[8] == [0.5, 1.0, -0.5], (v[0], v[8])
assert all(abs(p[2] + 0.5) < 1e-6 for p in v), "not in the plane of the supports"
# The top edge is exactly as long as the supports are apart: taut, straight between them.
assert all(abs(p[1] - 1.0) < 1e-12 for p in v[:9]), "the taut top edge sags"
assert all(p[1] < 1.0 for p in v[9:]), "a free point not below the supports"
print(f"ok: geometric drape hangs in the supports' plane, lowest point {min(p[1] for p in v):.3f} m")
PY
fi

if [ "$failures" -ne 0 ]; then
  echo "cli_test: $failures failure(s)"
  exit 1
fi
echo "cli_test: all passed"
