#!/usr/bin/env python3
"""Writes cantilever_strip_irregular.obj: the cantilever test's strip (81 cells of a = 1.25 mm
along x, 2 cells across z, horizontal at y = 1 m) as an irregular triangulation. The outer rows
keep the grid's spacing a; the middle row has vertices every 0.8 a beyond the clamp, jittered by up
to 15% along and across, and the rows are zipped together by the shorter diagonal, so the vertices
have 4 to 8 neighbours instead of a grid's 6. The clamp (x <= a), the root line (x = a) and the
tip (x = 81 a) have a vertex on every row. Run it from this folder to rebuild the file."""
import random

A = 0.1 / 80          # cell size, m
CELLS_ALONG = 81      # 80 beyond the clamp's one
WIDTH = A * CELLS_ALONG


def rows():
    bottom = [(i * A, 0.0) for i in range(CELLS_ALONG + 1)]
    top = [(i * A, 2 * A) for i in range(CELLS_ALONG + 1)]
    rng = random.Random(2008)
    n = round((WIDTH - A) / (0.8 * A))
    step = (WIDTH - A) / n
    middle = [(0.0, A)]
    for k in range(n + 1):
        x, z = A + k * step, A
        if 0 < k < n:
            x += rng.uniform(-0.15, 0.15) * step
            z += rng.uniform(-0.15, 0.15) * A
        middle.append((x, z))
    return bottom, middle, top


def zip_rows(lower, upper, lo, up):
    """Triangles between two rows of vertex indices (offsets lo, up), by the shorter diagonal."""
    tris = []
    i = j = 0
    while i < len(lower) - 1 or j < len(upper) - 1:
        def d2(p, q):
            return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
        advance_lower = j == len(upper) - 1 or (
            i < len(lower) - 1 and d2(lower[i + 1], upper[j]) <= d2(lower[i], upper[j + 1]))
        if advance_lower:
            tris.append((lo + i, lo + i + 1, up + j))
            i += 1
        else:
            tris.append((lo + i, up + j + 1, up + j))
            j += 1
    return tris


def main():
    bottom, middle, top = rows()
    points = bottom + middle + top
    tris = zip_rows(bottom, middle, 0, len(bottom)) + zip_rows(middle, top, len(bottom), len(bottom) + len(middle))
    # Facing +y: (p1 - p0) x (p2 - p0) has y = dz1 dx2 - dx1 dz2 > 0.
    oriented = []
    for a, b, c in tris:
        (x0, z0), (x1, z1), (x2, z2) = points[a], points[b], points[c]
        oriented.append((a, b, c) if (z1 - z0) * (x2 - x0) - (x1 - x0) * (z2 - z0) > 0 else (a, c, b))
    with open("cantilever_strip_irregular.obj", "w") as out:
        out.write("# The cantilever test's strip as an irregular triangulation (make_irregular_strip.py):\n")
        out.write(f"# {len(points)} vertices, {len(oriented)} triangles; x along the strip, y = 1 m, "
                  "texture coordinates the rest (x, z) in metres.\n")
        for x, z in points:
            out.write(f"v {x:.9f} 1 {z:.9f}\n")
        for x, z in points:
            out.write(f"vt {x:.9f} {z:.9f}\n")
        for a, b, c in oriented:
            out.write(f"f {a + 1}/{a + 1} {b + 1}/{b + 1} {c + 1}/{c + 1}\n")


if __name__ == "__main__":
    main()
