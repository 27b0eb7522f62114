#!/usr/bin/env python3
"""Prints a bench CSV (bench/run.sh) as a table: the median over repetitions of each
configuration, per variant the fitted exponent p of ms/frame ~ vertices^p, and where the Bullet
peer is in the file, the ratio clothsim / Bullet per size.  usage: bench/summarize.py FILE.csv

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
    lines = [l for l in open(path) if not l.startswith("#")]
    table = {}  # (variant, size) -> row of the _median aggregate
    for r in csv.DictReader(lines):
        if not r["name"].endswith("_median"):
            continue
        _, variant, size = r["name"].split("/iterations")[0].split("/")
        table[(variant, int(size))] = r
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


def main(path):
    table = load(path)
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
    for line in open(path):
        if line.startswith("#"):
            print(line.rstrip())


if __name__ == "__main__":
    main(sys.argv[1])
