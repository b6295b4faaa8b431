#!/usr/bin/env python3
"""frames_check.py DUMP [LABEL...]: the frames (badges, chips: outlined
rects of a `vita render --dump=layout`) each hold what they frame. Every
run of the frame's line that reaches into a frame lies inside it, a frame
holds text, and that text (its runs from the left, no-break spaces and
spaces dropped), when it is ASCII (not right-to-left glyphs in visual
order), is one of the LABELs when any are given; every LABEL is framed. Exit 1 (and say why) when not. Used by tests/scripts/bidi.sh: in a
right-to-left CV the frames were once placed where the badges' runs were
before the line was put in visual order, one badge to the right of them."""
import re
import sys

dump, labels = sys.argv[1], set(sys.argv[2:])
KV = re.compile(r"(\w+)=(-?\d+)")
bad = []
page = 0
lines = {}   # (page, y) -> [(x, w, text)]
frames = []  # (page, x, y, w, h)
for ln in open(dump, encoding="utf-8"):
    if ln.startswith("page"):
        page += 1
    elif ln.startswith("run "):
        kv = dict((k, int(v)) for k, v in KV.findall(ln.split('"')[0]))
        text = re.search(r'"((?:[^"\\]|\\.)*)"', ln).group(1)
        lines.setdefault((page, kv["y"]), []).append((kv["x"], kv["w"], text))
    elif ln.startswith("rect ") and "stroke=" in ln and " stroke=0 " not in ln:
        kv = dict((k, int(v)) for k, v in KV.findall(ln))
        frames.append((page, kv["x"], kv["y"], kv["w"], kv["h"]))
seen = set()
for pg, x, y, w, h in frames:
    inside = []
    for (p, by), runs in lines.items():
        if p != pg or not y <= by <= y + h:
            continue
        for rx, rw, t in runs:
            if rx + rw <= x or rx >= x + w:
                continue
            if rx < x - 1 or rx + rw > x + w + 1:
                bad.append("page %d: run \"%s\" [%d, %d] reaches out of the frame [%d, %d]"
                           % (pg, t, rx, rx + rw, x, x + w))
            inside.append((rx, t))
    text = re.sub(r"[\s\u00a0]", "", "".join(t for _, t in sorted(inside)))
    if not text:
        bad.append("page %d: an empty frame at x=%d y=%d" % (pg, x, y))
    elif labels and text.isascii() and text not in {re.sub(r"\s", "", l) for l in labels}:
        bad.append("page %d: a frame holds \"%s\", no badge's label" % (pg, text))
    seen.add(text)
for l in sorted(labels):
    if re.sub(r"\s", "", l) not in seen:
        bad.append("\"%s\" is in no frame" % l)
if not frames:
    bad.append("no frames")
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
