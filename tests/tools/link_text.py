#!/usr/bin/env python3
"""link_text.py PDF YAML: prints the /Contents of each link annotation of
PDF, one a line, and exits 1 when one is not text of the profile YAML as
written (white space aside) nor a URL: what a screen reader says of a link
must be its text in logical order, never the drawn glyphs (a right-to-left
word is drawn from its last letter, in joined presentation forms). Used by
tests/scripts/bidi.sh. Needs qpdf (its JSON reads the strings)."""
import json
import re
import subprocess
import sys
import unicodedata

pdf, yml = sys.argv[1:3]
src = re.sub(r"\s+", " ", unicodedata.normalize("NFC", open(yml, encoding="utf-8").read()))
out = subprocess.run(["qpdf", "--json=2", "--json-key=qpdf", pdf], capture_output=True,
                     text=True, check=False).stdout
objs = json.loads(out)["qpdf"][1]
bad = 0
n = 0
for key, obj in objs.items():
    v = obj.get("value")
    if not isinstance(v, dict) or v.get("/Subtype") != "/Link":
        continue
    n += 1
    c = v.get("/Contents", "")
    c = c[2:] if c.startswith("u:") else c
    print(c)
    if re.match(r"(https?:|mailto:|tel:|doi:)", c):
        continue
    if any(0xFB50 <= ord(ch) <= 0xFEFF for ch in c) or c not in src:
        print("  ^ not the profile's text (%s)" % key, file=sys.stderr)
        bad = 1
if not n:
    print("no link annotations", file=sys.stderr)
    bad = 1
sys.exit(bad)
