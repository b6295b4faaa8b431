#!/usr/bin/env python3
"""Typographic checks on a `vita render --dump=layout` page list.

  dump_check.py DUMP LEFT RIGHT   (margins in u; RIGHT = page width - right margin)

Fails (exit 1, one line per problem) when
  - a run starts left of LEFT or ends right of RIGHT (overflow),
  - a line starts with closing CJK punctuation or ends with opening one,
  - a section title (mark) is the last line of its page,
  - a page is empty.
"""
import re
import sys
from collections import defaultdict

CLOSE = set("，。、）」』】〕〉》！？：；．,.)!?:;％")
OPEN = set("（「『【〔〈《")
run_re = re.compile(r'^run x=(-?\d+) y=(-?\d+) w=(\d+) size=(\d+) .*? "(.*)"(?: lang=\S+)?(?: @\d+)?$')
mark_re = re.compile(r'^mark page=(\d+) y=(-?\d+) "(.*)"$')

path, left, right = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
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
        if x < left - 1 or x + w > right + 1:
            bad.append("page %d y=%d: run outside the margins: %r" % (page, y, text))
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
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
