#!/usr/bin/env python3
"""Checks a PNG screenshot with the standard library only (no PIL): its size, and that it is a
real rendering rather than a blank or uniform frame.

usage: png_check.py FILE WIDTH HEIGHT [COLUMNS]
With COLUMNS (side-by-side panes), each of that many equal vertical bands must show cloth;
COLUMNS 0 drops the cloth-colour check (a textured cloth has the texture's colours).
Prints a one-line summary; exits 1 with a reason on failure.
"""
import struct
import sys
import zlib


def decode_png(path):
    """Returns (width, height, channels, rows) for 8-bit greyscale/RGB/RGBA PNGs."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace != 0 or color not in (0, 2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
            channels = {0: 1, 2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    columns = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    try:
        w, h, ch, rows = decode_png(path)
    except (OSError, ValueError, zlib.error, struct.error) as e:
        sys.exit(f"FAIL: {path}: {e}")
    if (w, h) != (want_w, want_h):
        sys.exit(f"FAIL: {path} is {w}x{h}, expected the window size {want_w}x{want_h}")
    # Sample every 4th pixel of every 4th row: plenty for statistics, fast in pure Python.
    n = s = s2 = 0
    colours = set()
    bands = max(columns, 1)
    cloth = [0] * bands
    for y in range(0, h, 4):
        row = rows[y]
        for x in range(0, w, 4):
            r, g, b = (row[x * ch], row[x * ch + 1], row[x * ch + 2]) if ch >= 3 else (row[x],) * 3
            lum = 0.299 * r + 0.587 * g + 0.114 * b
            n += 1
            s += lum
            s2 += lum * lum
            colours.add((r >> 3, g >> 3, b >> 3))
            # Cloth front (warm red-orange) or back (blue): saturated, unlike the grey ground,
            # the blue-grey sky and the dark panel.
            if (r > 90 and r > g + 40 and r > b + 50) or (b > 90 and b > r + 60):
                cloth[x * bands // w] += 1
    std = (s2 / n - (s / n) ** 2) ** 0.5
    shares = " / ".join(f"{100.0 * c * bands / n:.1f}%" for c in cloth)
    summary = f"{path}: {w}x{h}, luminance std {std:.1f}, {len(colours)} colours, cloth pixels {shares}"
    if std < 5.0 or len(colours) < 20:
        sys.exit(f"FAIL: image looks uniform ({summary})")
    for k, c in enumerate(cloth if columns > 0 else []):
        if c < 0.005 * n / columns:
            where = f" in column {k + 1} of {columns}" if columns > 1 else ""
            sys.exit(f"FAIL: almost no cloth-coloured pixels{where} ({summary})")
    print("ok: " + summary)


if __name__ == "__main__":
    main()
