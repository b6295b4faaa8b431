#!/bin/sh
# CJK typography (inline.c il_span_langs, il_cjk_spacing; layout leading_cjk):
#  - a kanji-only name in a CV with kana is Japanese: every Han and kana
#    character of the header comes from the Japanese face (mutool stext),
#    the native name in the name's weight (bold);
#  - "）、" and "。「": the first mark takes about half an em (W3C jlreq 3.1.2);
#  - Han next to Latin or a digit: a quarter em between them (clreq 3.4);
#  - body text mostly in CJK gets the CJK leading (1.6 in academic);
#  - the justified paragraph extracts with no space between two Han
#    characters and no line break inside a line (pdftotext and mutool).
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/cjk
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
P=tests/cjk/typo.yaml
"$VITA" render "$P" -o "$OUT/t.pdf" 2>"$OUT/t.err" || { no "render: exit $?"; cat "$OUT/t.err"; }
"$VITA" render "$P" --dump=layout > "$OUT/t.layout" || no "dump"
mutool draw -F stext -o - "$OUT/t.pdf" 2>/dev/null | python3 tests/tools/stext_chars.py > "$OUT/t.chars"
python3 - "$OUT/t.chars" "$OUT/t.layout" <<'PY' || fail=1
import re, sys
chars = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
bad = 0
def no(m):
    global bad
    print("FAIL: " + m); bad = 1
# the header (first two lines) is one face for Han and kana
head = [c for c in chars if float(c[2]) < 95 and c[3] and ord(c[3][0]) >= 0x3040]
faces = {c[0] for c in head}
if len(faces) != 1 or not all("IPAMincho" in f for f in faces):
    no("header Han/kana faces: %s (want IPAMincho only)" % sorted(faces))
runs = []
for l in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r'run x=(\d+) y=(\d+) w=(\d+) size=(\d+) face=(\d+) synth=(\d+) .*?"(.*)"', l)
    if m:
        runs.append((int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[6]), m[7]))
name = [r for r in runs if "山田" in r[5]]
if not name or name[0][4] != 1:
    no("the native name is not bold (synth=%s)" % (name[0][4] if name else "?"))
def after(a, b):
    """x of the run starting with b minus x of the run starting with a (same line)"""
    for i, r in enumerate(runs):
        if r[5].startswith(a):
            for s in runs[i + 1:i + 4]:
                if s[5].startswith(b) and s[1] == r[1]:
                    return s[0] - r[0], r[3]
    return None, None
d, em = after("）", "、")
if d is None or not (0.5 * em <= d <= 0.6 * em):
    no("）、 not compressed: %s (em %s)" % (d, em))
d, em = after("了", "3")
if d is None or not (1.2 * em <= d <= 1.3 * em):
    no("了3: no quarter em between Han and a digit: %s (em %s)" % (d, em))
ys = sorted({r[1] for r in runs if r[3] == 9800 and any(0x4E00 <= ord(c) <= 0x9FFF for c in r[5])})
gaps = [b - a for a, b in zip(ys, ys[1:]) if b - a < 20000]
if not gaps or min(gaps) < 9800 * 1.55:
    no("CJK leading: line gaps %s, want 1.6 x 9800" % gaps[:4])
sys.exit(bad)
PY
for tool in pdftotext mutool; do
	if [ $tool = pdftotext ]; then pdftotext -enc UTF-8 "$OUT/t.pdf" "$OUT/t.txt"; else mutool draw -F txt -o "$OUT/t.txt" "$OUT/t.pdf" 2>/dev/null; fi
	python3 - "$OUT/t.txt" $tool <<'PY' || fail=1
import re, sys
t = open(sys.argv[1], encoding="utf-8").read().replace("山田 太郎", "")  # a space of the source
han = "[\u4e00-\u9fff]"
if re.search(han + " +" + han, t):
    print("FAIL: %s: a space between Han characters: %r" % (sys.argv[2], re.search(han + " +" + han, t).group()))
    sys.exit(1)
if "（MSRA）、英伟达" not in t:
    print("FAIL: %s: the compressed punctuation does not extract in place" % sys.argv[2]); sys.exit(1)
PY
done
[ $fail -eq 0 ] && echo "cjk: ok"
exit $fail
