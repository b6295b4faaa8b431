#!/usr/bin/env python3
"""spaces.py SOURCE TEXT...: the spaces each reader's TEXT (pdftotext,
mutool, pdf.js output of a PDF made from the profile SOURCE) reads where
the source has none: for each space inside a line, the words either side
of it (their last and first four characters) joined are in the source's
text and joined by a space are not. Prints "FILE COUNT" per TEXT and each
such place (-v); exits 1 when any TEXT has one. Used by
tests/scripts/gaps.sh (white space layout puts between Han and Latin, or
between Thai words and Lao, Khmer, Myanmar syllables of a justified line,
must not read as a space)."""
import re
import sys
import unicodedata

args = sys.argv[1:]
verbose = bool(args) and args[0] == "-v"
if verbose:
    args = args[1:]
if len(args) < 2:
    sys.exit("usage: spaces.py [-v] SOURCE TEXT...")
DROP = "[\u202a-\u202e\u200e\u200f\u2066-\u2069\u200b\u200c\u200d\u00ad]"


def norm(s):
    return re.sub(DROP, "", unicodedata.normalize("NFKC", s))


src = norm(open(args[0], encoding="utf-8").read())
src = re.sub(r"[ \t]*\n[ \t]*", "\n", src)
src = re.sub(r"[ \t]+", " ", src)
bad = 0
for t in args[1:]:
    n, where = 0, []
    for line in norm(open(t, encoding="utf-8").read()).split("\n"):
        words = line.split()
        for a, b in zip(words, words[1:]):
            a4, b4 = a[-4:], b[:4]
            if a4 + b4 in src and a4 + " " + b4 not in src:
                n += 1
                where.append(a4 + "|" + b4)
    print(t, n)
    if verbose:
        for w in where:
            print("  " + w)
    bad |= n > 0
sys.exit(1 if bad else 0)
