#!/usr/bin/env python3
"""Prints a bench CSV (bench/run.sh) as a table: the median of each configuration, and per
integrator the fitted exponent p of ms/frame ~ vertices^p.  usage: bench/summarize.py FILE.csv"""
import csv
import math
import sys
from collections import defaultdict


def main(path):
    lines = [l for l in open(path) if not l.startswith("#")]
    rows = list(csv.DictReader(lines))
    by_integrator = defaultdict(list)
    print(f"{'integrator/size':24s} {'ms/frame':>9s} {'steps/f':>8s} {'substeps/f':>10s} {'rej/f':>6s}"
          f" {'cg/step':>7s} {'assembly':>8s} {'solve':>8s} {'collide':>8s} {'strain':>7s}")
    for r in rows:
        if not r["name"].endswith("_median"):
            continue
        _, integrator, size = r["name"].split("/iterations")[0].split("/")
        f = lambda k: float(r.get(k) or "nan")
        print(f"{integrator + '/' + size:24s} {f('real_time'):9.2f} {f('steps_per_frame'):8.1f}"
              f" {f('substeps_per_frame'):10.1f} {f('rejected_per_frame'):6.2f} {f('cg_per_step'):7.0f}"
              f" {f('assembly_ms'):8.2f} {f('solve_ms'):8.2f} {f('collision_ms'):8.2f}"
              f" {100 * f('max_edge_strain'):6.1f}%")
        by_integrator[integrator].append((f("vertices"), f("real_time")))
    print("\nms/frame ~ vertices^p (least squares in log-log):")
    for integrator, pts in by_integrator.items():
        if len(pts) < 2:
            continue
        xs = [math.log(v) for v, _ in pts]
        ys = [math.log(t) for _, t in pts]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        p = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        print(f"  {integrator:18s} p = {p:.2f} over {int(min(v for v, _ in pts))}..{int(max(v for v, _ in pts))} vertices")
    for line in open(path):
        if line.startswith("#"):
            print(line.rstrip())


if __name__ == "__main__":
    main(sys.argv[1])
