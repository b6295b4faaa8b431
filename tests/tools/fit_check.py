#!/usr/bin/env python3
"""Check one fit against its contract (docs/layouts.md, "Fit").

  fit_check.py DUMP TRACE PAGES NO_SHORT TOP BOTTOM

DUMP is `vita render --dump=layout`, TRACE the standard error of the same
render with VITA_FIT=scan, PAGES the layout's fit.pages (0: none),
NO_SHORT 1 with fit.no_short_last, TOP and BOTTOM the page margins (u).
Fails (exit 1, one line per problem) when
  - no step was kept, or the kept step is not one the trace tried;
  - the kept step does not fit by its own trace line, unless it is the
    fallback that the warning says (more pages than fit.pages, or a last
    page that stays short);
  - the step below the kept one was not tried, or fits (step 0 excepted:
    it is the layout as written, tried first);
  - the scan's smallest fitting step is not the kept one (the search's
    monotone assumption failed on this input, or the search is wrong);
  - the page count or the last page's fill on the page list is not what
    the kept step's trace line says (within a line), or the page list
    takes more pages than fit.pages without the warning, or, with
    fit.no_short_last and no warning, the last page of several is under
    a fifth full though step 0 had no more pages.
"""
import re
import sys

dump, trace, want_pages, no_short, top, bottom = sys.argv[1:7]
want_pages, no_short, top, bottom = int(want_pages), int(no_short), int(top), int(bottom)
bad = []
d = open(dump, encoding="utf-8").read().splitlines()
t = open(trace, encoding="utf-8", errors="replace").read()

m = re.match(r"doc (\d+)x(\d+) pages=(\d+)", d[0])
page_h, pages = int(m.group(2)), int(m.group(3))
avail = page_h - top - bottom

tried = {}
for k, how, over, n, fill, ok in re.findall(
        r"vita: fit: step (\d+) (measured|built): (over )?(\d+) pages, last page (-?\d+) pt: (ok|not ok)", t):
    tried[int(k)] = (int(n), int(fill), ok == "ok", bool(over))
kept = re.findall(r"vita: fit: kept step (-?\d+)", t)
scan = re.findall(r"vita: fit: scan: smallest ok step (-?\d+)", t)
over_warn = "pages at the tightest this layout allows" in t
short_warn = "the last page stays short" in t
fallback = over_warn or short_warn

if len(kept) != 1:
    bad.append("kept steps in the trace: %r" % kept)
    k = None
else:
    k = int(kept[0])
if k is not None:
    if k not in tried:
        bad.append("kept step %d was not tried" % k)
    else:
        n, fill, ok, over = tried[k]
        if not ok and not fallback:
            bad.append("kept step %d does not fit and no warning says so" % k)
        if ok and fallback:
            bad.append("kept step %d fits, yet a fallback warning" % k)
        if not over and n != pages:
            bad.append("step %d: trace %d pages, page list %d" % (k, n, pages))
        if ok and k > 0:
            if k - 1 not in tried:
                bad.append("the step below the kept %d was not tried" % k)
            elif tried[k - 1][2]:
                bad.append("the step below the kept %d fits too" % k)
        # the last page's fill on the page list: its lowest body run
        # (footers sit under the bottom margin)
        if not over:
            last, low, size = 0, None, 0
            for line in d:
                if line.startswith("page "):
                    last += 1
                    continue
                r = re.match(r"run x=-?\d+ y=(-?\d+) w=\d+ size=(\d+)", line)
                if r and last == pages and int(r.group(1)) <= page_h - bottom:
                    y = int(r.group(1))
                    if low is None or y > low:
                        low, size = y, int(r.group(2))
            if low is not None:
                seen = low + size // 4 - top
                if abs(seen - fill * 1000) > 2 * size + 4000:
                    bad.append("step %d: last page %d pt by the trace, %d pt on the page list"
                               % (k, fill, seen // 1000))
    if scan:
        s = int(scan[0])
        if fallback and s != -1:
            bad.append("step %d fits (scan) but the fallback was kept" % s)
        if not fallback and s != k:
            bad.append("the smallest fitting step is %d (scan), %d was kept" % (s, k))
if want_pages and pages > want_pages and not over_warn:
    bad.append("%d pages, fit.pages %d, no warning" % (pages, want_pages))
if no_short and pages > 1 and not short_warn and 0 in tried and pages >= tried[0][0] and k is not None \
        and k in tried and tried[k][1] * 1000 * 5 < avail:
    bad.append("last page of %d short (%d pt of %d) without the warning" % (pages, tried[k][1], avail // 1000))
for b in bad:
    print("%s: %s" % (dump, b))
sys.exit(1 if bad else 0)
