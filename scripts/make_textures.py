#!/usr/bin/env python3
"""Writes the cloth textures of assets/textures/ (standard library only, deterministic):
  checker.png  an 8 x 8 black-and-white checker (each square 1/8 of a tile), to see stretch,
               shear and the uv layout at a glance;
  fabric.png   a plain weave: warp and weft threads over and under, with a little per-thread
               colour variation, to make cloth look like cloth.
Both are 256 x 256 RGB and tile seamlessly. Run from the repository root:
  python3 scripts/make_textures.py
"""
import random
import struct
import zlib

SIZE = 256


def write_png(path, pixels):
    raw = b"".join(b"\x00" + bytes(v for px in row for v in px) for row in pixels)
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def checker():
    cell = SIZE // 8
    return [[(235, 235, 235) if ((x // cell) + (y // cell)) % 2 == 0 else (40, 40, 48) for x in range(SIZE)]
            for y in range(SIZE)]


def fabric():
    rng = random.Random(7)
    threads = 16  # per tile and direction
    width = SIZE // threads
    warp = [rng.uniform(0.85, 1.0) for _ in range(threads)]
    weft = [rng.uniform(0.85, 1.0) for _ in range(threads)]
    base_warp, base_weft = (214, 196, 160), (190, 170, 132)
    rows = []
    for y in range(SIZE):
        row = []
        for x in range(SIZE):
            i, j = x // width, y // width
            u, v = (x % width) / width, (y % width) / width
            warp_on_top = (i + j) % 2 == 0  # plain weave: over one, under one
            # Threads are rounded: darker towards their edges.
            if warp_on_top:
                shade, base = warp[i] * (0.75 + 0.25 * (1 - abs(2 * u - 1) ** 2)), base_warp
            else:
                shade, base = weft[j] * (0.75 + 0.25 * (1 - abs(2 * v - 1) ** 2)), base_weft
            row.append(tuple(min(255, int(c * shade)) for c in base))
        rows.append(row)
    return rows


if __name__ == "__main__":
    write_png("assets/textures/checker.png", checker())
    write_png("assets/textures/fabric.png", fabric())
    print("wrote assets/textures/checker.png, assets/textures/fabric.png")
