#!/usr/bin/env python3
"""hyphen_ladder.py DUMP...: the longest run of consecutive lines that end
in a hyphen, in each `vita render --dump=layout` page list: prints
"DUMP N" and the lines of that run. A line is the runs of one page at one
baseline; it ends hyphenated when its rightmost run ends in "-" or U+2010
(not a spaced dash). Lines of different columns (another left edge) do
not continue each other's run. Used by tests/scripts/page_quality.sh."""
import re
import sys

RUN = re.compile(r'run x=(-?\d+) y=(\d+) w=(\d+) .*? "((?:[^"\\]|\\.)*)"')


def longest(path):
    page, lines = 0, {}
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("page "):
            page += 1
            continue
        m = RUN.match(line)
        if m:
            x, y, w = int(m.group(1)), int(m.group(2)), int(m.group(3))
            lines.setdefault((page, y), []).append((x, x + w, m.group(4)))
    best, run = [], []
    for key in sorted(lines):
        runs = sorted(lines[key])
        last = max(runs, key=lambda r: r[1])[2].rstrip()
        hyph = last.endswith(("-", "\u2010")) and not last.endswith(" -")
        text = "".join(r[2] for r in runs)
        if hyph and run and run[-1][0] == key[0] and run[-1][1] == runs[0][0]:
            run.append((key[0], runs[0][0], text))
        elif hyph:
            run = [(key[0], runs[0][0], text)]
        else:
            run = []
        if len(run) > len(best):
            best = list(run)
    return best


for p in sys.argv[1:]:
    b = longest(p)
    print(p, len(b))
    for _, _, t in b:
        print("   ", t)
