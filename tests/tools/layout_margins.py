#!/usr/bin/env python3
"""Print "LEFT RIGHT" (u) for dump_check.py: the left margin and the page
width less the right margin of a layout (following extends:), with the
page.margin overrides of a profile's layout map.

  layout_margins.py LAYOUT [PROFILE]
  layout_margins.py --vertical LAYOUT [PROFILE]   "TOP BOTTOM" (u)"""
import os
import sys

import yaml

A4, LETTER = 595276, 612000


def pt(v):
    s = str(v).strip()
    for unit, k in (("mm", 72 / 25.4), ("cm", 720 / 25.4), ("in", 72.0), ("pt", 1.0)):
        if s.endswith(unit):
            return float(s[:-len(unit)]) * k
    return float(s)


def load(name, seen=0):
    path = name if name.endswith(".yaml") else os.path.join("layouts", name + ".yaml")
    d = yaml.safe_load(open(path, encoding="utf-8")) or {}
    base = load(d["extends"], seen + 1) if "extends" in d and seen < 8 else {}
    return merge(base, d)


def merge(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


vertical = len(sys.argv) > 1 and sys.argv[1] == "--vertical"
if vertical:
    del sys.argv[1]
lay = load(sys.argv[1])
if len(sys.argv) > 2:
    prof = yaml.safe_load(open(sys.argv[2], encoding="utf-8")) or {}
    if isinstance(prof.get("layout"), dict):
        lay = merge(lay, {k: v for k, v in prof["layout"].items() if k != "name"})
page = lay.get("page", {})
w = LETTER if page.get("size") == "letter" else A4
if "width" in page:
    w = int(pt(page["width"]) * 1000)
m = page.get("margin", {})
left, right = pt(m.get("left", 56.693)), pt(m.get("right", 56.693))
if vertical:
    print(int(round(pt(m.get("top", 56.693)) * 1000)), int(round(pt(m.get("bottom", 56.693)) * 1000)))
    sys.exit(0)
print(int(round(left * 1000)), int(w - round(right * 1000)))
