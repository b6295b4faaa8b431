#!/usr/bin/env python3
"""Reading order of a rendered CV: in the extracted text each section title
is followed by its own first entry, before any other section's title.

  reading_order.py PROFILE.yaml TEXT_FILE [TEXT_FILE...]

Each TEXT_FILE is a PDF's extracted text (pdftotext's default mode,
mutool's txt). Fails (exit 1, one line per problem) when a title is
missing, or when what follows it is not its first entry (the columns of a
sidebar interleaved, a title stranded away from its entries)."""
import re
import sys

import yaml


def text_of(v):
    """A profile value as plain text (translations: the first; markup removed)."""
    if isinstance(v, dict):
        if "value" in v:
            return text_of(v["value"])
        v = next(iter(v.values()), "")
    if isinstance(v, list):
        v = v[0] if v else ""
    s = str(v)
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    return re.sub(r"(?<!\\)\*\*|(?<!\\)\*", "", s).replace("\\", "")


def norm(s):
    s = s.replace("\u00ad", "").replace("\u2060", "").replace("\u00a0", " ")
    return re.sub(r"[\s\-‐–—]", "", s).casefold()


MONTHS = "Jan.,Feb.,Mar.,Apr.,May,Jun.,Jul.,Aug.,Sep.,Oct.,Nov.,Dec.".split(",")


def fmt_date(v):
    s = str(v)
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", s)
    if m:
        return "%s %d, %s" % (MONTHS[int(m[2]) - 1], int(m[3]), m[1])
    m = re.fullmatch(r"(\d{4})-(\d{2})", s)
    if m:
        return "%s %s" % (MONTHS[int(m[2]) - 1], m[1])
    return s


def first_keys(sec):
    """What the section's first entry may start with (any of them): its
    title, organisation or text, or its date (a date column is part of
    the entry; pdftotext reads a column of one-line entries' dates as a
    table, dates first)."""
    keys = []
    for field in ("entries", "publications", "news", "items"):
        items = sec.get(field)
        if not items:
            continue
        it = items[0]
        if isinstance(it, dict):
            for k in ("title", "org", "text"):
                if k in it:
                    keys.append(text_of(it[k]))
            for k in ("date", "start"):
                if k in it:
                    keys.append(fmt_date(text_of(it[k])))
        else:
            keys.append(text_of(it))
        break
    if not keys and "text" in sec:
        keys.append(text_of(sec["text"]))
    return [norm(k)[:14] for k in keys if norm(k)]


def main():
    prof = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
    secs = [s for s in prof.get("sections", []) if isinstance(s, dict) and "title" in s]
    titles = {norm(text_of(s["title"])) for s in secs}
    bad = []
    for path in sys.argv[2:]:
        lines = [norm(l) for l in open(path, encoding="utf-8", errors="replace")]
        lines = [l for l in lines if l]
        for sec in secs:
            t = norm(text_of(sec["title"]))
            keys = first_keys(sec)
            if not keys:
                continue
            at = [i for i, l in enumerate(lines) if l == t]
            if not at:
                bad.append("%s: section title %r not found on a line of its own" % (path, text_of(sec["title"])))
                continue
            ok = False
            for i in at:
                after = ""
                for l in lines[i + 1:i + 12]:
                    if l in titles and l != t:
                        break
                    after += l
                if any(k in after[:400] for k in keys):
                    ok = True
                    break
            if not ok:
                nxt = " / ".join(lines[at[0] + 1:at[0] + 3])
                bad.append("%s: %r is not followed by its first entry (read next: %s)" %
                           (path, text_of(sec["title"]), nxt[:80]))
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
