#!/usr/bin/env python3
"""tests/report/png_check.py FILE [MIN_COLOURS] [MIN_INK]

Reads a PNG (8-bit greyscale, RGB or RGBA, not interlaced: what Chromium writes) with zlib only,
undoing the scanline filters, and prints its size, the number of distinct colours and the share
of pixels that are not the most common colour (the background). Exits 0 when there are at least
MIN_COLOURS colours (default 16) and at least MIN_INK of the pixels differ from the background
(default 0.01), else 1: a blank or near-blank render fails."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, head = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = head
    if depth != 8 or interlace or ctype not in (0, 2, 6):
        raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    bpp = {0: 1, 2: 3, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif f != 0:
                raise ValueError("bad filter %d on row %d" % (f, y))
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main(argv):
    path = argv[1]
    min_colours = int(argv[2]) if len(argv) > 2 else 16
    min_ink = float(argv[3]) if len(argv) > 3 else 0.01
    w, h, bpp, rows = read_png(path)
    counts = {}
    for line in rows:
        for x in range(0, len(line), bpp):
            px = line[x:x + bpp]
            counts[px] = counts.get(px, 0) + 1
    total = w * h
    background = max(counts.values())
    ink = 1 - background / total
    print("%s: %dx%d, %d distinct colours, %.2f%% of pixels not background" %
          (path, w, h, len(counts), 100 * ink))
    return 0 if len(counts) >= min_colours and ink >= min_ink else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
