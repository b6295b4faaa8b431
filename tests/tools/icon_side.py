#!/usr/bin/env python3
"""icon_side.py DUMP SIDE: the contact icons of a `vita render --dump=layout`
(artifact runs, actual="", of page 1's contact lines) are on SIDE (left or
right) of the link they belong to: each icon touches a link (within an em)
on that side and none on the other. Exit 1 (and say which) when not. Used
by tests/scripts/bidi.sh: a right-to-left page has an item's icon where the
item starts, on its right."""
import re
import sys

dump, side = sys.argv[1], sys.argv[2]
KV = re.compile(r"(\w+)=(-?\d+)")
links, icons, page = [], [], 0
for ln in open(dump, encoding="utf-8"):
    if ln.startswith("page"):
        page += 1
    if page != 1:
        continue
    head = ln.split('"')[0]
    kv = dict((k, int(v)) for k, v in KV.findall(head))
    if ln.startswith("link "):
        links.append((kv["x"], kv["x"] + kv["w"], kv["y"], kv["y"] + kv["h"]))
    elif ln.startswith("run ") and 'actual=""' in ln:
        icons.append((kv["x"], kv["x"] + kv["w"], kv["y"], kv["size"]))
bad = []
for x0, x1, y, size in icons:
    near = [l for l in links if l[2] <= y <= l[3]]
    right_of_link = any(0 <= x0 - l[1] <= size for l in near)
    left_of_link = any(0 <= l[0] - x1 <= size for l in near)
    if (side == "right" and (not right_of_link or left_of_link)) or \
       (side == "left" and (not left_of_link or right_of_link)):
        bad.append("icon at x=%d..%d, y=%d is not on the %s of its link" % (x0, x1, y, side))
if not icons:
    bad.append("no icons")
for b in bad[:5]:
    print(b)
sys.exit(1 if bad else 0)
