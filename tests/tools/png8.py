#!/usr/bin/env python3
"""PPM (P6, from pdftoppm -ppm) -> small 8-bit palette PNG, for the gallery.

  png8.py IN.ppm OUT.png

Colours go to a 6x6x6 cube plus 40 greys (text is mostly grey), which
keeps a page at a third of its 24-bit size."""
import struct
import sys
import zlib


def read_ppm(path):
    data = open(path, "rb").read()
    parts, i = [], 0
    while len(parts) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        parts.append(data[i:j])
        i = j
    assert parts[0] == b"P6" and parts[3] == b"255"
    return int(parts[1]), int(parts[2]), data[i + 1:]


def chunk(kind, body):
    c = struct.pack(">I", len(body)) + kind + body
    return c + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)


def main():
    w, h, px = read_ppm(sys.argv[1])
    cube = [v * 51 for v in range(6)]
    palette = [(r, g, b) for r in cube for g in cube for b in cube]
    greys = [round(255 * k / 41) for k in range(1, 41)]
    palette += [(g, g, g) for g in greys]
    cache = {}

    def index(r, g, b):
        key = (r, g, b)
        if key in cache:
            return cache[key]
        if max(r, g, b) - min(r, g, b) < 12:   # a grey: the nearest grey
            y = (r + g + b) // 3
            best = min(range(len(palette)), key=lambda k: abs(palette[k][0] - y) * 3
                       + abs(palette[k][1] - y) + abs(palette[k][2] - y) +
                       (0 if palette[k][0] == palette[k][1] == palette[k][2] else 999))
        else:
            best = (round(r / 51) * 36 + round(g / 51) * 6 + round(b / 51))
        cache[key] = best
        return best

    rows = bytearray()
    for y in range(h):
        rows.append(0)
        o = y * w * 3
        for x in range(w):
            rows.append(index(px[o + 3 * x], px[o + 3 * x + 1], px[o + 3 * x + 2]))
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
    png += chunk(b"PLTE", bytes(c for p in palette for c in p))
    png += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    png += chunk(b"IEND", b"")
    open(sys.argv[2], "wb").write(png)


main()
