#!/usr/bin/env python3
"""reads.py [--nospace] TEXT PHRASE...: the PHRASEs that the extracted
TEXT (a reader's output: pdftotext, mutool, pdf.js) does not hold as
written, one per line; exit 1 when there is any. Used by
tests/scripts/bidi.sh for right-to-left phrases in a left-to-right CV.

As tests/tools/rtl_seq.py compares: both sides NFKC (marks in canonical
order; a lam-alef ligature reads as its two letters), without bidi
controls (pdftotext writes embeddings around RTL sections) or zero-width
non-joiners, white space (a line break too: a phrase may wrap) one
space; --nospace drops white space altogether (pdf.js reads no space
between words drawn right to left: see bidi.sh)."""
import re
import sys
import unicodedata

args = sys.argv[1:]
nospace = bool(args) and args[0] == "--nospace"
if nospace:
    args = args[1:]
if len(args) < 2:
    sys.exit("usage: reads.py [--nospace] TEXT PHRASE...")
DROP = "[\u202a-\u202e\u200e\u200f\u2066-\u2069\u200c]"


def norm(s):
    s = re.sub(DROP, "", unicodedata.normalize("NFKC", s))
    return re.sub(r"\s+", "" if nospace else " ", s)


text = norm(open(args[0], encoding="utf-8").read())
miss = [p for p in args[1:] if norm(p) not in text]
for p in miss:
    print(p)
sys.exit(1 if miss else 0)
