#!/bin/sh
# Right to left (bidi.c, inline.c): Arabic and Hebrew set by the Unicode bidi
# algorithm inside a left-to-right page -- words extract in logical order
# (pdftotext), Arabic letters are joined (presentation forms drawn, the
# source letters read), the first letter of a word is its rightmost glyph,
# each script in its own face (mutool stext) -- and a `lang: ar` CV mirrors
# the page: dates on the left, titles on the right.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/bidi
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
text() { pdftotext -enc UTF-8 "$1" - | python3 -c "import re,sys; print(re.sub('[\u202a-\u202e]', '', sys.stdin.read()))"; }
# poppler reads a combining mark on an RTL letter (Persian hamza above,
# U+0654) beside its word: compare words without Arabic marks
nomarks() { python3 -c "import re,sys; print(re.sub('[\u064b-\u065f]', '', sys.stdin.read()), end='')"; }
chars() { mutool draw -F stext -o - "$1" 2>/dev/null | python3 tests/tools/stext_chars.py; }

"$VITA" render tests/bidi/names.yaml -o "$OUT/n.pdf" 2>"$OUT/n.err" || { no "render: exit $?"; cat "$OUT/n.err"; }
[ -s "$OUT/n.err" ] && { no "messages"; cat "$OUT/n.err"; }
text "$OUT/n.pdf" > "$OUT/n.txt"
for w in 'محمد علي' 'جامعة القاهرة' 'שלום עולם' 'مرحبا بالعالم' 'الآن' 'Cairo University) since 2021'; do
	grep -qF -- "$w" "$OUT/n.txt" || no "'$w' does not extract in logical order"
done
chars "$OUT/n.pdf" > "$OUT/n.chars"
# drawn: joined forms (initial meem U+FEE3, final yeh U+FEF2), the
# first letter to the right of the last
xm=$(awk -F'\t' '$4 == "ﻣ" {print $2; exit}' "$OUT/n.chars")
xy=$(awk -F'\t' '$4 == "ﻲ" {print $2; exit}' "$OUT/n.chars")
[ -n "$xm" ] && [ -n "$xy" ] || no "no joined Arabic forms drawn"
[ -n "$xm" ] && [ -n "$xy" ] && awk -v a="$xm" -v b="$xy" 'BEGIN { exit !(a > b) }' ||
	no "محمد علي is not drawn right to left (meem at $xm, yeh at $xy)"
# one face per script
python3 - "$OUT/n.chars" <<'PY' || no "a script drawn in the wrong face"
import sys
want = [((0x0600, 0x06FF), "NotoNaskhArabic"), ((0xFB50, 0xFEFC), "NotoNaskhArabic"),
        ((0x0590, 0x05FF), "NotoSerifHebrew"), ((0x41, 0x7A), "NotoSerif-")]
bad = 0
for line in open(sys.argv[1], encoding="utf-8"):
    font, x, y, c = line.rstrip("\n").split("\t")
    for (lo, hi), face in want:
        if c and lo <= ord(c[0]) <= hi and face not in font:
            print("U+%04X drawn in %s, expected %s" % (ord(c[0]), font, face))
            bad = 1
sys.exit(bad)
PY
# a whole Arabic CV: the page is mirrored
"$VITA" render tests/locale/cv.yaml --lang ar --dump=layout > "$OUT/ar.layout" 2>"$OUT/ar.err" || no "ar: dump exit $?"
half=297638
dx=$(awk -v h=$half '/^run / && /"2021/ { split($2, a, "="); print (a[2] < h) ? "left" : "right"; exit }' "$OUT/ar.layout")
[ "$dx" = left ] || no "ar: the date column is on the $dx, expected the left"
tx=$(awk -v h=$half '/^run / && /"Example Lab"/ { split($2, a, "="); split($4, w, "="); print (a[2] + w[2] > 2 * h - 60000) ? "right" : "left"; exit }' "$OUT/ar.layout")
[ "$tx" = right ] || no "ar: the entry title is not flush right"
"$VITA" render tests/locale/cv.yaml --lang ar -o "$OUT/ar.pdf" 2>/dev/null || no "ar: render exit $?"
text "$OUT/ar.pdf" > "$OUT/ar.txt"
for w in 'حتى الآن' 'سبتمبر' 'شارات المخرجات' 'مساهمة متساوية' 'منشورة'; do
	grep -qF -- "$w" "$OUT/ar.txt" || no "ar: '$w' does not extract"
done
# Hebrew and Persian CVs: their words extract
for l in he fa; do
	"$VITA" render tests/locale/cv.yaml --lang $l -o "$OUT/$l.pdf" 2>/dev/null || no "$l: exit $?"
	text "$OUT/$l.pdf" | nomarks > "$OUT/$l.txt"
	python3 tests/locale/expect.py locales/$l.yaml | tr ' ' '\n' | python3 -c "
import sys
for w in sys.stdin.read().split():
    w = ''.join(c for c in w.strip(':.') if not 0x64b <= ord(c) <= 0x65f)
    if any(0x590 <= ord(c) <= 0x6ff for c in w): print(w)" | sort -u |
	while IFS= read -r w; do grep -qF -- "$w" "$OUT/$l.txt" || echo "$l: '$w' does not extract"; done > "$OUT/$l.miss"
	[ -s "$OUT/$l.miss" ] && { no "$l words"; cat "$OUT/$l.miss"; }
done
[ $fail -eq 0 ] && echo "bidi: ok"
exit $fail
