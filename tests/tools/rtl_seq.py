#!/usr/bin/env python3
"""rtl_seq.py MODE YAML TEXT: what of the right-to-left text of the profile
YAML the extracted TEXT does not hold as written, one per line; exit 1
when there is any. Used by tests/scripts/bidi.sh, beside rtl_words.py
(which checks words one by one, so lost spaces and marks read before their
letters passed).

MODE "text": its quoted `text:` and `name:` values (phrases of one line);
"nospace": the same without spaces, for pdf.js, which reads no space
between words drawn right to left in logical order (it takes spaces only
from rightward pen moves: see tests/scripts/bidi.sh); "pairs": every two
right-to-left words that follow each other (one space between) on a line
of the profile, anywhere in it -- a whole CV, whose lines wrap: the
reader must be one that reads lines in logical order (mutool).

Both sides are NFKC (the marks of a letter in canonical order, whichever
order a reader gives them; a lam-alef ligature, one glyph, reads as its
presentation form, NFKC's two letters) without bidi controls (pdftotext
writes embeddings around RTL lines) or zero-width non-joiners (not
drawn), white space runs one space."""
import re
import sys
import unicodedata

mode, yml, txt = sys.argv[1:4]
DROP = "[\u202a-\u202e\u200e\u200f\u2066-\u2069\u200c]"
RTL = "[\u0590-\u05ff\u0620-\u064a\u0660-\u06ff\u064b-\u065f\u0670\u200c]+"


def norm(s):
    s = re.sub(DROP, "", unicodedata.normalize("NFKC", s))
    s = re.sub(r"\s+", "" if mode == "nospace" else " ", s)
    return s


text = norm(open(txt, encoding="utf-8").read())
want = []
for line in open(yml, encoding="utf-8"):
    if mode == "pairs":
        line = line.split(" #")[0] if not line.lstrip().startswith("#") else ""
        nb = "(?<![\\w\u0590-\u06ff])"
        for m in re.finditer("(?=%s(%s) (%s)(?![\\w\u0590-\u06ff]))" % (nb, RTL, RTL), line):
            want.append(norm(m.group(1) + " " + m.group(2)))
        continue
    m = re.match(r'\s*(?:text|name): "?([^"#]+)"?\s*$', line)
    if m and any(0x590 <= ord(c) <= 0x6ff for c in m.group(1)):
        want.append(norm(m.group(1).strip()))
want = sorted(set(want))
miss = [w for w in want if w not in text]
for w in miss:
    print(w)
sys.exit(1 if miss or not want else 0)
