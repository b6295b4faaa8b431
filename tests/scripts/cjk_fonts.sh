#!/bin/sh
# One CJK face per language, with a real bold, embedded as CFF:
#  - tests/locale/cv.yaml with --lang zh, zh-Hant, ja and ko (serif) and
#    zh with the sans layout: every CJK character is drawn (mutool stext)
#    by the Noto Serif/Sans CJK face of that language's region (SC, TC,
#    JP, KR), regular or bold, never by another;
#  - the bold CJK characters come from the Bold face, a font object of its
#    own (real bold: pdffonts lists both, and nothing is stroked for them);
#  - each CJK font is a CIDFontType0 over a CID-keyed CFF
#    (FontFile3 /CIDFontType0C) and the text extracts (pdftotext);
#  - zhanda-zhu --lang zh: the native name 朱展达 in NotoSerifCJKsc-Bold;
#  - every PDF passes tests/tools/pdf_check.sh.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/cjk_fonts
rm -rf "$OUT"; mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
P=tests/locale/cv.yaml
pdfs=""
check() { # NAME WANT-FACE-PREFIX PDF
	mutool draw -F stext -o - "$3" 2>/dev/null | python3 tests/tools/stext_chars.py > "$OUT/$1.chars"
	python3 - "$OUT/$1.chars" "$2" <<'PY' || fail=1
import sys
want = sys.argv[2]
def cjk(c):
    o = ord(c)
    return (0x1100 <= o <= 0x11ff or 0x2e80 <= o <= 0x9fff or 0xac00 <= o <= 0xd7af
            or 0xf900 <= o <= 0xfaff or 0xff00 <= o <= 0xffef)
faces = {}
for l in open(sys.argv[1], encoding="utf-8"):
    f, x, y, c = l.rstrip("\n").split("\t")
    if c and cjk(c):
        faces.setdefault(f, []).append(c)
bad = {f: "".join(v[:8]) for f, v in faces.items() if f not in (want + "-Regular", want + "-Bold")}
if not faces:
    print("FAIL: %s: no CJK character drawn" % sys.argv[1]); sys.exit(1)
if bad:
    print("FAIL: %s: CJK drawn by %s (want %s-Regular/-Bold only)" % (sys.argv[1], bad, want)); sys.exit(1)
if want + "-Bold" not in faces:
    print("FAIL: %s: no CJK character in %s-Bold" % (sys.argv[1], want)); sys.exit(1)
PY
	pdffonts "$3" > "$OUT/$1.fonts"
	for s in Regular Bold; do
		# Custom: a subset of at most 256 glyphs has one-byte codes (pdf_font.c)
		grep -Eq "\+$2-$s +CID Type 0C +(Identity-H|Custom) +yes yes yes" "$OUT/$1.fonts" ||
			no "$1: $2-$s is not an embedded CID Type 0C font: $(cat "$OUT/$1.fonts")"
	done
	[ "$(grep -c "+$2-" "$OUT/$1.fonts")" -eq 2 ] || no "$1: not two $2 font objects"
}
for x in "zh NotoSerifCJKsc" "zh-Hant NotoSerifCJKtc" "ja NotoSerifCJKjp" "ko NotoSerifCJKkr"; do
	set -- $x
	"$VITA" render "$P" --lang "$1" -o "$OUT/$1.pdf" 2>"$OUT/$1.err" || { no "$1: exit $?"; cat "$OUT/$1.err"; continue; }
	check "$1" "$2" "$OUT/$1.pdf"
	pdfs="$pdfs $OUT/$1.pdf"
done
"$VITA" render "$P" --lang zh -l compact -o "$OUT/sans.pdf" 2>"$OUT/sans.err" || { no "sans: exit $?"; cat "$OUT/sans.err"; }
check sans NotoSansCJKsc "$OUT/sans.pdf"
pdfs="$pdfs $OUT/sans.pdf"
# the text extracts: the locale's words in each language
pdftotext "$OUT/zh.pdf" - | grep -q "已发表" || no "zh: 已发表 does not extract"
pdftotext "$OUT/zh-Hant.pdf" - | grep -q "已發表" || no "zh-Hant: 已發表 does not extract"
pdftotext "$OUT/ko.pdf" - | grep -q "학술검색" || no "ko: 학술검색 does not extract"
# no synthetic bold (fill+stroke, 2 Tr) anywhere: every bold is a real face
for f in $pdfs; do
	qpdf --qdf --object-streams=disable "$f" - 2>/dev/null | grep -aqE '(^| )2 Tr' && no "$f: synthetic bold (2 Tr)"
done
# the native name in the name's weight: the real bold
"$VITA" render profiles/zhanda-zhu.yaml --lang zh -o "$OUT/zhanda.pdf" 2>"$OUT/zhanda.err" ||
	{ no "zhanda: exit $?"; cat "$OUT/zhanda.err"; }
mutool draw -F stext -o - "$OUT/zhanda.pdf" 2>/dev/null | python3 tests/tools/stext_chars.py |
	awk -F'\t' '$4 == "朱" || $4 == "展" || $4 == "达" { print $1 }' | sort -u > "$OUT/zhanda.name"
[ "$(cat "$OUT/zhanda.name")" = "NotoSerifCJKsc-Bold" ] || no "zhanda: 朱展达 drawn by $(cat "$OUT/zhanda.name")"
pdfs="$pdfs $OUT/zhanda.pdf"
# shellcheck disable=SC2086
sh tests/tools/pdf_check.sh $pdfs || no "pdf_check"
[ $fail -eq 0 ] && echo "cjk_fonts: ok"
exit $fail
