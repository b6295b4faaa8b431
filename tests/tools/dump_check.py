#!/usr/bin/env python3
"""Typographic checks on a `vita render --dump=layout` page list.

  dump_check.py DUMP LEFT RIGHT   (margins in u; RIGHT = page width - right margin)

Fails (exit 1, one line per problem) when
  - a run starts left of LEFT or ends right of RIGHT (overflow),
  - a line starts with closing CJK punctuation or ends with opening one,
  - a section title (mark) is the last line of its page,
  - a page is empty,
  - two boxes overlap: runs (their ink box: from 0.68 of the size above
    the baseline to 0.2 below), rules, frames and images; a frame may hold
    runs wholly inside it, nothing else may touch.
"""
import re
import sys
from collections import defaultdict

CLOSE = set("，。、）」』】〕〉》！？：；．,.)!?:;％")
OPEN = set("（「『【〔〈《")
run_re = re.compile(r'^run x=(-?\d+) y=(-?\d+) w=(\d+) size=(\d+) .*? "(.*?)"(?: track=-?\d+)?(?: alt=\d+)?(?: actual=".*?")?(?: lang=\S+)?(?: @\d+)?$')
rect_re = re.compile(r'^rect x=(-?\d+) y=(-?\d+) w=(\d+) h=(\d+) color=\S+ stroke=(\d+)')
image_re = re.compile(r'^image x=(-?\d+) y=(-?\d+) w=(\d+) h=(\d+)')
boxes = defaultdict(list)          # page -> [(x0, y0, x1, y1, kind, what)]
mark_re = re.compile(r'^mark page=(\d+) y=(-?\d+) "(.*)"$')

path, left, right = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if path == "-":
    path = "/dev/stdin"
lines = defaultdict(list)          # (page, y) -> [(x, w, text)]
marks, page, bad = [], 0, []
pages_with_runs = set()
npages = 0
for raw in open(path, encoding="utf-8"):
    raw = raw.rstrip("\n")
    if raw.startswith("page "):
        page = int(raw.split()[1])
        npages = max(npages, page)
        continue
    m = run_re.match(raw)
    if m:
        x, y, w = int(m[1]), int(m[2]), int(m[3])
        text = m[5].replace('\\"', '"').replace("\\\\", "\\")
        lines[(page, y)].append((x, w, text))
        pages_with_runs.add(page)
        size = int(m[4])
        if text.strip() and w > 0:   # a zero-width run (an anchor) has no ink
            boxes[page].append((x, y - size * 68 // 100, x + w, y + size * 20 // 100, "run", text))
        if x < left - 1 or x + w > right + 1:
            bad.append("page %d y=%d: run outside the margins: %r" % (page, y, text))
        continue
    m = rect_re.match(raw)
    if m:
        x, y, w, h = (int(m[i]) for i in range(1, 5))
        kind = "frame" if int(m[5]) > 0 else "rule"
        boxes[page].append((x, y, x + w, y + h, kind, "%s at x=%d y=%d" % (kind, x, y)))
        continue
    m = image_re.match(raw)
    if m:
        x, y, w, h = (int(m[i]) for i in range(1, 5))
        boxes[page].append((x, y, x + w, y + h, "image", "image"))
        continue
    m = mark_re.match(raw)
    if m:
        marks.append((int(m[1]), int(m[2]), m[3]))

for (pg, y), runs in sorted(lines.items()):
    runs.sort()
    first, last = runs[0][2].lstrip(), runs[-1][2].rstrip()
    if first and first[0] in CLOSE and any("\u3000" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" for c in first[:1]):
        bad.append("page %d y=%d: line starts with closing punctuation: %r" % (pg, y, first))
    if last and last[-1] in OPEN:
        bad.append("page %d y=%d: line ends with opening punctuation: %r" % (pg, y, last))

# the footer sits below the text block: ignore lines below the lowest mark's page bottom
for pg, y, title in marks:
    below = [ly for (p, ly) in lines if p == pg and ly > y]
    body = sorted(set(below))
    # the title's own baseline, then at least one more body line before the footer
    if len(body) < 3:
        bad.append("page %d: section title %r is the last thing on the page" % (pg, title))
for p in range(1, npages + 1):
    if p not in pages_with_runs:
        bad.append("page %d is empty" % p)
# overlaps: sweep each page's boxes by their top edge
TOL = 200   # u: touching is not overlapping (kerned runs meet exactly)
for pg, bl in sorted(boxes.items()):
    bl.sort()
    bl.sort(key=lambda b: b[1])
    for i, a in enumerate(bl):
        for b in bl[i + 1:]:
            if b[1] >= a[3] - TOL:
                break
            if b[0] >= a[2] - TOL or a[0] >= b[2] - TOL:
                continue
            kinds = {a[4], b[4]}
            if kinds == {"frame", "run"}:
                f, r = (a, b) if a[4] == "frame" else (b, a)
                if r[0] >= f[0] - 500 and r[2] <= f[2] + 500 and r[1] >= f[1] - 500 and r[3] <= f[3] + 500:
                    continue
            bad.append("page %d: overlap: %r and %r" % (pg, a[5], b[5]))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
