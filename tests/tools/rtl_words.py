#!/usr/bin/env python3
"""rtl_words.py MODE YAML TEXT: the right-to-left words (Arabic, Hebrew) of
the profile YAML that the extracted TEXT does not hold, one per line; exit
1 when there is any. Used by tests/scripts/bidi.sh.

Both sides lose what a reader may place differently: Arabic marks (poppler
reads a mark beside its word), bidi controls, Arabic punctuation (the comma
of "القاهرة،" is a neutral that bidi moves). MODE "glyphs" is for readers
of the glyphs in drawing order, which ignore /ActualText (mutool 1.21,
pdf.js): NFKC (a joined form is the letter), no spaces (pdf.js reads no
space between right-to-left words; rtl_seq.py checks that mutool does), no
zero-width non-joiner (not drawn)."""
import re
import sys
import unicodedata

mode, yml, txt = sys.argv[1:4]
src = open(yml, encoding="utf-8").read()
text = open(txt, encoding="utf-8").read()
DROP = "[\u064b-\u065f\u0670\u202a-\u202e\u200e\u200f\u2066-\u2069]"


def norm(s):
    s = re.sub(DROP, "", unicodedata.normalize("NFKC", s))
    if mode == "glyphs":
        s = re.sub(r"[\s\u200c]", "", s)
    return s


text = norm(text)
words = set()
for line in src.splitlines():
    line = line.split(" #")[0] if not line.lstrip().startswith("#") else ""
    for w in re.findall("[\u0590-\u05ff\u0620-\u064a\u0660-\u06ff\u200c\u064b-\u065f]+", line):
        w = norm(w).strip("\u200c")
        if len(w) > 1:
            words.add(w)
miss = sorted(w for w in words if w not in text)
for w in miss:
    print(w)
sys.exit(1 if miss or not words else 0)
