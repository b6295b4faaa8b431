#!/usr/bin/env python3
"""sweep_cmp.py BASE.tsv [MAIN.tsv ...]: two tests/tools/sweep.sh runs
side by side, for issue 13's table. Prints, as markdown, every case of
<= 2 pages over SWEEP_MI M instructions (default 18) or SWEEP_MB MB
(default 9.5) on the base or on main, grouped by area: fit (the compact
layout, or more than one layout built), rtl (Arabic, Persian, Hebrew),
indic (Devanagari, Bengali, Tamil, Thai), cjk, other; worst first, with
the base and main figures and the commit main was measured at.

Several MAIN files may be given (re-runs of some cases with SWEEP_ONLY as
main moves): a case's figures are the last file's that has it. A file
named ...-COMMIT-N.tsv (or ...-COMMIT.tsv) names the commit it measured;
else its name is shown. Not a test: a tool to run by hand."""
import os
import re
import sys


def load(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            c = line.rstrip("\n").split("\t")
            if len(c) >= len(head):
                rows[c[0]] = dict(zip(head, c))
    return rows


def num(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError, TypeError):
        return None


def area(name, r):
    if "@compact" in name or (num(r, "layouts") or 1) > 1:
        return "fit"
    if re.search(r"script-(ar|fa|he)\b|lang=(ar|fa|he)\b|bidi/", name):
        return "rtl"
    if re.search(r"script-(hi|bn|ta|th)\b|lang=(hi|th|bn|ta)\b", name):
        return "indic"
    if re.search(r"script-(ja|ko|zh)|lang=(ja|ko|zh)|cjk/", name):
        return "cjk"
    return "other"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    mi = float(os.environ.get("SWEEP_MI", 18))
    mb = float(os.environ.get("SWEEP_MB", 9.5))
    base = load(sys.argv[1])
    main_ = {}
    for p in sys.argv[2:]:
        m = re.search(r"-([0-9a-f]{7,40})(-\d+)?\.tsv$", os.path.basename(p))
        at = m.group(1) if m else os.path.basename(p)
        for k, r in load(p).items():
            r["at"] = at
            main_[k] = r

    def over(r):
        if r is None or num(r, "Minstr") is None:
            return False
        return num(r, "Minstr") > mi or (num(r, "MB") or 0) > mb

    names = [n for n in base if over(base[n]) or over(main_.get(n))]
    names += [n for n in main_ if n not in base and over(main_[n])]
    now = {n: main_.get(n) or base[n] for n in names}
    groups = {}
    for n in names:
        groups.setdefault(area(n, now[n]), []).append(n)
    over20 = sum(1 for n in names if (num(now[n], "Minstr") or 0) > 20)
    print("%d cases over 20 M, %d over %g M or %g MB (main's figures where measured, else the base's)\n"
          % (over20, sum(1 for n in names if over(now[n])), mi, mb))
    for g in ["fit", "rtl", "indic", "cjk", "other"]:
        ns = sorted(groups.get(g, []), key=lambda n: -(num(now[n], "Minstr") or 0))
        if not ns:
            continue
        print("### %s: %d cases, %d over 20 M\n" % (g, len(ns),
              sum(1 for n in ns if (num(now[n], "Minstr") or 0) > 20)))
        print("| input | pages | layouts | M base -> main | MB base -> main | at | top inclusive (M) |")
        print("|---|---|---|---|---|---|---|")
        for n in ns:
            b, m = base.get(n), main_.get(n)
            r = m or b
            bm = b["Minstr"] if b else "-"
            mm = m["Minstr"] if m else "(not measured)"
            if m and (num(m, "Minstr") or 0) > 20:
                mm = "**%s**" % mm
            bmb = b["MB"] if b else "-"
            mmb = m["MB"] if m else "-"
            print("| %s | %s | %s | %s -> %s | %s -> %s | %s | %s |" % (
                n, r["pages"], r["layouts"], bm, mm, bmb, mmb, m["at"] if m else "base",
                r["top_inclusive"]))
        print()


main()
