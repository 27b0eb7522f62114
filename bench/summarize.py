#!/usr/bin/env python3
"""Prints a bench CSV (bench/run.sh) as a table: the median over repetitions of each
configuration, per variant the fitted exponent p of ms/frame ~ vertices^p, and where the Bullet
peer is in the file, the ratio clothsim / Bullet per size; where the strain-target search is in
the file (BM_Accurate, `bench/run.sh --strain-target`), its two tables and the targets' status.
usage: bench/summarize.py FILE.csv [MORE.csv ...]  (several files: their rows together)

ms/frame is real_time, the mean wall-clock time over the timed frames of a repetition, "cpu ms"
the process's CPU time per frame (below ms/frame where the machine was shared); "median" and
"min" are those of the single frames' wall-clock times; "inst" counts clothsim's instability
rollbacks. Columns missing in older baselines print as nan."""
import csv
import math
import sys
from collections import defaultdict

# clothsim variant -> the Bullet variant on the same scene (bench/hanging_cloth.cpp, bullet_peer.cpp)
# (pairs: one clothsim variant may have two peers, e.g. Bullet's 10 passes and its 100).
PEERS = [("implicit", "bullet"), ("implicit-free", "bullet-free"), ("xpbd-4x10", "bullet"),
         ("xpbd-4x10-bullet-links", "bullet"), ("xpbd", "bullet"),
         ("implicit-2level", "bullet"), ("implicit-stiff-2level", "bullet"),
         ("implicit-stiff-2level", "bullet-100it")]


def load(path):
    """(variant, size) -> the row of the _median aggregate, or of the single run where the file
    has one repetition; the search's rows (BM_Accurate) as variant "accurate/<integrator>"."""
    lines = [l for l in open(path) if not l.startswith("#")]
    table = {}
    rows = list(csv.DictReader(lines))
    aggregated = any(r["name"].endswith("_median") for r in rows)
    for r in rows:
        if aggregated != r["name"].endswith("_median"):
            continue
        family, variant, size = r["name"].split("/iterations")[0].split("/")
        table[("accurate/" + variant if family == "BM_Accurate" else variant, int(size))] = r
    return table


def num(r, k):
    v = r.get(k)
    return float(v) if v not in (None, "", "-nan", "nan") else float("nan")


def frame_median(r):
    m = num(r, "frame_median_ms")
    return m if not math.isnan(m) else num(r, "real_time")


def exponent(pts):
    xs = [math.log(v) for v, _ in pts]
    ys = [math.log(t) for _, t in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main(paths):
    table = {}
    for path in paths:
        table.update(load(path))
    print(f"{'variant/size':22s} {'ms/frame':>9s} {'cpu ms':>8s} {'median':>8s} {'min':>8s} {'steps/f':>7s}"
          f" {'subst/f':>7s} {'rej/f':>5s} {'cg/step':>7s} {'assembly':>8s} {'solve':>7s} {'collide':>7s}"
          f" {'max str':>7s} {'mean str':>8s} {'heap MiB':>8s} {'inst':>4s}")
    by_variant = defaultdict(list)
    for (variant, size), r in table.items():
        f = lambda k: num(r, k)
        print(f"{variant + '/' + str(size):22s} {f('real_time'):9.2f} {f('cpu_time'):8.2f} {f('frame_median_ms'):8.2f}"
              f" {f('frame_min_ms'):8.2f} {f('steps_per_frame'):7.1f} {f('substeps_per_frame'):7.1f}"
              f" {f('rejected_per_frame'):5.2f} {f('cg_per_step'):7.0f} {f('assembly_ms'):8.2f}"
              f" {f('solve_ms'):7.2f} {f('collision_ms'):7.2f} {100 * f('max_edge_strain'):6.1f}%"
              f" {100 * f('mean_edge_strain'):7.2f}% {f('heap_mib'):8.1f} {f('instabilities'):4.0f}")
        by_variant[variant].append((f("vertices"), f("real_time")))

    print("\nms/frame ~ vertices^p (least squares in log-log):")
    for variant, pts in by_variant.items():
        if len(pts) >= 2:
            print(f"  {variant:18s} p = {exponent(pts):.2f} over"
                  f" {int(min(v for v, _ in pts))}..{int(max(v for v, _ in pts))} vertices")

    pairs = [(c, b) for c, b in PEERS if c in by_variant and b in by_variant]
    if pairs:
        print("\nclothsim / Bullet, same scene and size (< 1: clothsim faster): ms of the single"
              " frames' median, ratios of their min and of CPU time per frame; max edge strain at the end:")
        for c, b in pairs:
            print(f"  {c} / {b}:")
            for size in sorted(s for v, s in table if v == c):
                if (b, size) not in table:
                    continue
                rc, rb = table[(c, size)], table[(b, size)]
                print(f"    {size:4d}^2  median {frame_median(rc):8.2f} / {frame_median(rb):7.2f} ms"
                      f" = {frame_median(rc) / frame_median(rb):6.2f}"
                      f"   min {num(rc, 'frame_min_ms') / num(rb, 'frame_min_ms'):6.2f}"
                      f"   cpu {num(rc, 'cpu_time') / num(rb, 'cpu_time'):6.2f}"
                      f"   max strain {100 * num(rc, 'max_edge_strain'):6.1f}% vs"
                      f" {100 * num(rb, 'max_edge_strain'):6.1f}%")
    strain_target(table)
    for path in paths:
        for line in open(path):
            if line.startswith("#"):
                print(line.rstrip())


def setting(r):
    """The search's setting: steps per frame x iterations per step, and the material."""
    its = int(num(r, "iterations"))
    stiff = num(r, "stiffness")
    return (f"{num(r, 'substeps_per_frame'):.0f}" + (f"x{its}" if its else "")
            + (f" k{stiff:.0f}" if stiff > 0 else ""))


def strain_target(table):
    """The strain-target search (BM_Accurate) and Bullet at its own settings (BM_Frame/bullet):
    the two tables of the fast-solver benchmark and the status of each target."""
    target = 0.02
    acc = sorted({v for v, _ in table if v.startswith("accurate/") and v != "accurate/bullet"})
    sizes = sorted({s for v, s in table if v.startswith("accurate/")})
    if not sizes:
        return
    ok = lambda r: num(r, "met") == 1
    cell = lambda r: (f"{frame_median(r):.1f} / {num(r, 'cpu_time'):.1f} ({setting(r)}, {100 * num(r, 'run_max_strain'):.1f}%"
                      + ("" if ok(r) else " MISSED") + ")")

    def fastest(size):
        met = [(frame_median(table[(v, size)]), v) for v in acc if (v, size) in table and ok(table[(v, size)])]
        return min(met) if met else None

    def cpu_ratio(v, size, b):
        return num(table[(v, size)], "cpu_time") / num(b, "cpu_time")

    names = [v.split("/")[1] for v in acc]
    print("\nEqual accuracy: ms per frame, wall (median of the timed frames) / CPU (mean), at the first rung of the ladder that"
          f" keeps the largest edge strain <= {100 * target:.0f}% at every frame, one thread; (steps per frame"
          " x iterations, k: spring factor; largest strain of the run):")
    print("| grid | " + " | ".join(names + ["Bullet", "fastest / Bullet"]) + " |")
    print("|---" * (len(names) + 3) + "|")
    for size in sizes:
        cells = [cell(table[(v, size)]) if (v, size) in table else "not run" for v in acc]
        b = table.get(("accurate/bullet", size))
        f = fastest(size)
        ratio = (f"{f[0] / frame_median(b):.3f} / {cpu_ratio(f[1], size, b):.3f} ({f[1].split('/')[1]})" + ("" if ok(b) else ", Bullet missed")
                 if f and b else "n/a")
        print(f"| {size}² | " + " | ".join(cells + [cell(b) if b else "not run", ratio]) + " |")

    print("\nBullet's own settings (4 steps x 10 passes), ms wall / CPU, against clothsim at <= 2% (the rows"
          " above), ratios of wall / CPU time:")
    print("| grid | Bullet 4x10 (largest strain) | " + " | ".join(n + " / Bullet" for n in names) + " |")
    print("|---" * (len(names) + 2) + "|")
    for size in (64, 100):
        b = table.get(("bullet", size))
        if not b:
            continue
        cells = [f"{frame_median(table[(v, size)]) / frame_median(b):.2f} / {cpu_ratio(v, size, b):.2f}"
                 + ("" if ok(table[(v, size)]) else " (missed)")
                 if (v, size) in table else "not run" for v in acc]
        print(f"| {size}² | {frame_median(b):.1f} / {num(b, 'cpu_time'):.1f} ({100 * num(b, 'run_max_strain'):.0f}%) | "
              + " | ".join(cells) + " |")

    print("\nTargets (clothsim: the fastest integrator that held <= 2%):")
    for size in (64, 100):
        b, f = table.get(("bullet", size)), fastest(size)
        if b and f:
            r = f[0] / frame_median(b)
            print(f"  <= 1/3 of Bullet's 4x10 frame at {size}²: {'met' if r <= 1 / 3 else 'NOT met'}"
                  f" ({f[1].split('/')[1]} {f[0]:.2f} ms / {frame_median(b):.2f} ms = {r:.2f}; CPU {cpu_ratio(f[1], size, b):.2f})")
    for size in sizes:
        b, f = table.get(("accurate/bullet", size)), fastest(size)
        if b and f:
            r = f[0] / frame_median(b)
            note = "" if ok(b) else (f"; Bullet missed 2% on its whole ladder, so its frame here is a lower"
                                     f" bound and the ratio an upper bound")
            print(f"  equal accuracy <= 1/20 of Bullet at {size}²: {'met' if r <= 1 / 20 else 'NOT met'}"
                  f" ({r:.3f}; CPU {cpu_ratio(f[1], size, b):.3f}{note})")
    for size in sorted({64, 100, 128} | set(sizes)):
        if size in sizes and not fastest(size):
            print(f"  {size}²: no clothsim integrator held 2% within its ladder: its targets NOT met in this run")
    f = fastest(100)
    if f:
        print(f"  100² at 60 fps (<= 16.7 ms), one thread: {'met' if f[0] <= 1000 / 60 else 'NOT met'}"
              f" ({f[1].split('/')[1]} {f[0]:.2f} ms, CPU {num(table[(f[1], 100)], 'cpu_time'):.2f} ms)")
    f = fastest(128)
    if f:
        kib = num(table[(f[1], 128)], "heap_mib") * 1024 / 128 ** 2
        print(f"  <= 1 KiB per vertex at 128²: {'met' if kib <= 1 else 'NOT met'} ({f[1].split('/')[1]} {kib:.2f} KiB)")
    for v in acc + ["accurate/bullet"]:
        pts = [(num(table[(v, s)], "vertices"), frame_median(table[(v, s)])) for s in sizes
               if (v, s) in table and ok(table[(v, s)])]  # a missed row is a capped ladder, not a price
        if len(pts) < 2:
            print(f"  ms/frame ~ vertices^p <= 1.2, {v.split('/')[1]}: not measured (held 2% at {len(pts)} size(s))")
        else:
            p = exponent(pts)
            print(f"  ms/frame ~ vertices^p <= 1.2, {v.split('/')[1]}: {'met' if p <= 1.2 else 'NOT met'} (p = {p:.2f}"
                  f" over {int(pts[0][0])}..{int(pts[-1][0])} vertices, each size at its own rung)")


if __name__ == "__main__":
    main(sys.argv[1:])
