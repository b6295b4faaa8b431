#!/bin/sh
# Every script vita draws, in a whole CV: tests/tools/gen_scripts.py's CVs
# (zhanda-zhu's CV written in Arabic, Persian, Hebrew, Korean, Japanese,
# Simplified and Traditional Chinese, Greek, Cyrillic and Vietnamese) each
# render with exit 0 and no "no font in chain" warning, embed a face of
# their script (pdffonts: Noto ... Arabic or Naskh, Hebrew, CJK), and
# their section titles come back from pdftotext (but for case and spaces).
# Both in academic and in compact, whose fit places the glyphs of its
# first attempt again at other sizes (its memo, font chains' fallback
# faces looked up when a character first needs them); the Devanagari,
# Bengali, Tamil, Thai, Gurmukhi, Gujarati, Oriya, Telugu, Kannada,
# Malayalam, Sinhala, Lao, Khmer, Myanmar and Tibetan ones too (shaped
# into clusters), each in its own face. Where Noto's
# face for a script is not installed, that CV is skipped (said).
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/scripts_draw
rm -rf "$OUT"; mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$OUT/in" "$("$VITA" locales | awk '{print $1}')" ||
	{ echo "FAIL: gen_scripts.py"; exit 1; }
# code: the face pdffonts must list (an extended regex), the family fc-list must have
want() {
	case $1 in
	ar|fa) echo 'Arabic|Naskh|Noto Naskh Arabic' ;;
	he) echo 'Hebrew|Noto Serif Hebrew' ;;
	hi) echo 'Devanagari|Noto Serif Devanagari' ;;
	bn) echo 'Bengali|Noto Serif Bengali' ;;
	ta) echo 'Tamil|Noto Serif Tamil' ;;
	th) echo 'Thai|Noto Serif Thai' ;;
	pa) echo 'Gurmukhi|Noto Serif Gurmukhi' ;;
	gu) echo 'Gujarati|Noto Serif Gujarati' ;;
	or) echo 'Oriya|Noto Sans Oriya' ;;
	te) echo 'Telugu|Noto Serif Telugu' ;;
	kn) echo 'Kannada|Noto Serif Kannada' ;;
	ml) echo 'Malayalam|Noto Serif Malayalam' ;;
	si) echo 'Sinhala|Noto Serif Sinhala' ;;
	lo) echo 'Lao|Noto Serif Lao' ;;
	km) echo 'Khmer|Noto Serif Khmer' ;;
	my) echo 'Myanmar|Noto Serif Myanmar' ;;
	bo) echo 'Tibetan|Noto Serif Tibetan' ;;
	ja|ko|zh-Hans|zh-Hant) echo 'CJK|Noto Serif CJK SC' ;;
	*) echo '.|Noto Serif' ;;
	esac
}
n=0
for p in "$OUT"/in/*.yaml; do
	code=$(basename "$p" .yaml)
	case $code in flag) continue ;; esac   # no emoji font
	w=$(want "$code"); face=${w%%|*}; fam=${w##*|}
	if ! fc-list : family | grep -q "$fam"; then
		echo "skip $code: '$fam' is not installed"; continue
	fi
	for l in academic compact; do
		o=$OUT/$code-$l
		SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$p" -l $l -o "$o.pdf" 2>"$o.err" ||
			{ no "$code@$l: exit $?"; cat "$o.err"; continue; }
		n=$((n + 1))
		grep -Eq 'no font in chain|is not drawn' "$o.err" && { no "$code@$l: characters without a face:"; grep -Em3 'no font in chain|is not drawn' "$o.err"; }
		pdffonts "$o.pdf" 2>/dev/null | awk 'NR > 2 {print $1}' > "$o.fonts"
		grep -Eq "$face" "$o.fonts" || no "$code@$l: no $face face embedded ($(tr '\n' ' ' < "$o.fonts"))"
		pdftotext -enc UTF-8 "$o.pdf" "$o.txt" 2>/dev/null
		# the section titles, as written but for case and accents (a layout
		# may set them in capitals, and Greek capitals have no accents) and
		# spaces (pdftotext's vary)
		miss=$(python3 -c '
import sys, unicodedata, yaml
def norm(s):
    s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))
    return "".join(unicodedata.normalize("NFC", s).casefold().split())
t = norm(open(sys.argv[2], encoding="utf-8").read())
for s in yaml.safe_load(open(sys.argv[1], encoding="utf-8"))["sections"]:
    if norm(s["title"]) not in t:
        print(s["title"])' "$p" "$o.txt")
		[ -z "$miss" ] || no "$code@$l: titles not in pdftotext's text: $(echo $miss)"
	done
done
[ $n -gt 0 ] || no "no CV rendered"
[ $fail = 0 ] && echo "ok: $n renders, every script drawn"
exit $fail
