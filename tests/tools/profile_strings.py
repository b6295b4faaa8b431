#!/usr/bin/env python3
"""Print, one per line, every string of a profile that a rendered CV must
contain (names, titles, authors, venues, notes, items, dates as the
academic layout formats them). Used by tests/scripts/render_e2e.sh."""
import re
import sys

import yaml

MONTHS = "Jan.,Feb.,Mar.,Apr.,May,Jun.,Jul.,Aug.,Sep.,Oct.,Nov.,Dec.".split(",")
SKIP = {"url", "type", "tags", "layout", "photo", "vita", "numbering",
        "group_by", "highlight", "style", "doi", "equal", "bibtex"}
DATE_KEYS = {"date", "start", "end", "updated"}


def fmt_date(v):
    s = str(v)
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", s)
    if m:
        return "%s %d, %s" % (MONTHS[int(m[2]) - 1], int(m[3]), m[1])
    m = re.fullmatch(r"(\d{4})-(\d{2})", s)
    if m:
        return "%s %s" % (MONTHS[int(m[2]) - 1], m[1])
    return s


def plain(s):
    """Inline markup removed, as the loader does."""
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"(?<!\\)\*\*|(?<!\\)\*", "", s)
    return s.replace("\\*", "*").replace("\\[", "[").replace("\\\\", "\\")


def walk(node, key, out):
    if key in SKIP:
        return
    if isinstance(node, dict):
        if set(node) - {"value", "tags"} == set() and "value" in node:
            walk(node["value"], key, out)
            return
        if all(len(k) <= 3 for k in node):  # a translated field
            walk(next(iter(node.values())), key, out)
            return
        for k, v in node.items():
            if key == "contact" and k not in ("email", "phone"):
                continue  # shown as derived labels
            walk(v, k, out)
    elif isinstance(node, list):
        for v in node:
            walk(v, key, out)
    elif node is not None:
        if key in DATE_KEYS:
            if key != "updated":
                out.append(fmt_date(node))
        else:
            out.append(plain(str(node)))


doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
out = []
walk(doc, None, out)
for s in out:
    s = " ".join(s.split())
    if s and s != "present":
        print(s)
