#!/usr/bin/env python3
"""hb_runs.py DUMP LO-HI FONT... : the glyph runs of a layout dump (vita
render --dump=layout) whose text has a code point in LO-HI (hexadecimal)
are shaped again by HarfBuzz's own command line tool, hb-shape
(libharfbuzz-bin), from each FONT file in turn, at the run's size; each
run's glyphs (how many, and each one's x and y in the run, 1/1000 pt)
must be those of one of the fonts (a run does not say whether it is the
regular or the bold face), within 2 units (rounding). So what the page
list carries to pdf.c (the clusters, their reordered glyphs, the marks'
offsets) is what HarfBuzz shapes, not a lost or reordered glyph.

Prints a line per mismatched run and "N runs, M mismatched"; exits 1
when a run mismatches or when no run was checked.
"""
import json
import re
import subprocess
import sys

RUN = re.compile(r'^\s*run .*? size=(\d+) .*?"((?:[^"\\]|\\.)*)" glyphs=(\d+) \[([^\]]*)\]')


def unquote(s):
    return re.sub(r'\\(.)', r'\1', s)


def hb(font, size, text):
    out = subprocess.run(["hb-shape", "--output-format=json", "--font-size=%d" % size,
                          font, "--", text], capture_output=True, text=True, check=True).stdout
    pen, got = 0, []
    for g in json.loads(out):
        got.append((pen + g["dx"], g["dy"]))
        pen += g["ax"]
    return got


def main():
    dump, rng, fonts = sys.argv[1], sys.argv[2], sys.argv[3:]
    lo, hi = (int(x, 16) for x in rng.split("-"))
    n = bad = 0
    for line in open(dump, encoding="utf-8"):
        m = RUN.match(line)
        if not m:
            continue
        size, text, ng = int(m.group(1)), unquote(m.group(2)), int(m.group(3))
        if not any(lo <= ord(c) <= hi for c in text):
            continue
        ours = []
        for g in m.group(4).split():
            xy = g.split(":")[0].split(",")
            ours.append((int(xy[0]), int(xy[1])))
        n += 1
        ok = False
        for f in fonts:
            theirs = hb(f, size, text)
            if len(theirs) == ng and all(abs(a[0] - b[0]) <= 2 and abs(abs(a[1]) - abs(b[1])) <= 2
                                         for a, b in zip(ours, theirs)):
                ok = True
                break
        if not ok:
            bad += 1
            print("MISMATCH %r: vita %s; hb-shape %s" % (text, ours, hb(fonts[0], size, text)))
    print("%d runs, %d mismatched" % (n, bad))
    sys.exit(1 if bad or not n else 0)


if __name__ == "__main__":
    main()
