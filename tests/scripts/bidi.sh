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
# drawn: joined forms (initial meem U+FEE3, final yeh U+FEF2: the page
# list's runs; the PDF's ToUnicode reads them as the letters), the first
# letter to the right of the last (the name, in the bold face)
"$VITA" render tests/bidi/names.yaml --dump=layout > "$OUT/n.layout" 2>/dev/null
grep -q '"ﻣ"' "$OUT/n.layout" && grep -q '"ﻲ"' "$OUT/n.layout" || no "no joined Arabic forms drawn"
xm=$(awk -F'\t' '$1 ~ /NaskhArabic-Bold/ && $4 == "م" && (m == "" || $2 > m) {m = $2} END {print m}' "$OUT/n.chars")
xy=$(awk -F'\t' '$1 ~ /NaskhArabic-Bold/ && $4 == "ي" {print $2; exit}' "$OUT/n.chars")
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
# (its dates in the locale's Arabic-Indic digits: ٢٠٢١ for 2021)
dx=$(awk -v h=$half '/^run / && /"٢٠٢١/ { split($2, a, "="); print (a[2] < h) ? "left" : "right"; exit }' "$OUT/ar.layout")
[ "$dx" = left ] || no "ar: the date column is on the $dx, expected the left"
tx=$(awk -v h=$half '/^run / && /"Example Lab"/ { split($2, a, "="); split($4, w, "="); print (a[2] + w[2] > 2 * h - 60000) ? "right" : "left"; exit }' "$OUT/ar.layout")
[ "$tx" = right ] || no "ar: the entry title is not flush right"
"$VITA" render tests/locale/cv.yaml --lang ar -o "$OUT/ar.pdf" 2>/dev/null || no "ar: render exit $?"
text "$OUT/ar.pdf" > "$OUT/ar.txt"
for w in 'حتى الآن' 'سبتمبر' 'شارات المخرجات' 'مساهمة متساوية' 'منشورة' '٢٠٢١'; do
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
# Badges and chips in right-to-left pages: each frame holds its label's
# runs (they were drawn one badge to the right of them: the frames stayed
# where the runs were before the line was put in visual order)
for l in classic sidebar modern; do
	labels="Available Functional Reproduced ןימז"
	[ $l = sidebar ] && labels="$labels Python C++ PyTorch"
	"$VITA" render tests/bidi/badges.yaml -l layouts/$l.yaml --dump=layout >"$OUT/badges-$l.layout" 2>/dev/null ||
		no "badges $l: dump exit $?"
	python3 tests/tools/frames_check.py "$OUT/badges-$l.layout" $labels >"$OUT/badges-$l.miss" ||
		{ no "badges $l: frames beside their badges:"; head -5 "$OUT/badges-$l.miss"; }
done
# What a screen reader says of a link (the annotation's /Contents, the
# Link element's alternate text) is its text as written, in logical order:
# it was the drawn runs, a right-to-left word's joined forms from its last
# letter ("ﺔﻗﺭﻮﻟﺍ" for "الورقة"), and in the modern and sidebar layouts a
# link's runs cut at its first kern ("xample.org")
for y in tests/bidi/en-ar-name.yaml tests/bidi/ar-cv.yaml; do
	for l in classic sidebar; do
		n=links-$(basename "$y" .yaml)-$l
		"$VITA" render "$y" -l layouts/$l.yaml -o "$OUT/$n.pdf" 2>/dev/null || no "$n: exit $?"
		python3 tests/tools/link_text.py "$OUT/$n.pdf" "$y" >"$OUT/$n.txt" 2>"$OUT/$n.miss" ||
			{ no "$n: link /Contents not the profile's text:"; paste -d' ' "$OUT/$n.txt" "$OUT/$n.miss" | head -5; }
	done
done
for w in 'المدونة العربية' 'תל אביב' 'محلل صرفي' 'مدونتي'; do
	grep -qF -- "$w" "$OUT/links-en-ar-name-classic.txt" || no "en-ar-name: no link reads '$w'"
done
# A location set beside the entry (the modern layout's right column) fits
# the column it was measured for: the measure counted an x offset twice
# that the set counts once (Noto Serif Hebrew's kerning), and "ירושלים,
# ישראל" wrapped after its comma
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$OUT/gen" >/dev/null || no "gen_scripts.py"
for l in modern academic; do
	"$VITA" render "$OUT/gen/he.yaml" -l layouts/$l.yaml -o "$OUT/he-loc-$l.pdf" 2>/dev/null || no "he $l: exit $?"
	n=$(text "$OUT/he-loc-$l.pdf" | python3 -c "import sys
print(sum(1 for l in sys.stdin.read().splitlines() if l.strip().strip(',') in ('ירושלים', 'ישראל', 'חיפה')))")
	[ "$n" = 0 ] || no "he $l: $n locations wrap in their column"
done
# Contact icons (the modern layout's): where an item starts, on the right
# of its text in a right-to-left page (they were on its left), on the left
# in a left-to-right one
for y in tests/bidi/ar-cv.yaml tests/bidi/he-cv.yaml tests/bidi/en-ar-name.yaml; do
	n=icons-$(basename "$y" .yaml); side=right
	[ "$y" = tests/bidi/en-ar-name.yaml ] && side=left
	"$VITA" render "$y" -l layouts/modern.yaml --dump=layout >"$OUT/$n.layout" 2>/dev/null || no "$n: exit $?"
	python3 tests/tools/icon_side.py "$OUT/$n.layout" $side >"$OUT/$n.miss" ||
		{ no "$n: contact icons not on the $side:"; head -3 "$OUT/$n.miss"; }
done
# Latin names on a right-to-left page, split into runs where their
# kerning changes ("La" + "yla Hassan"): drawn left to right within their
# stretch (layout_vlist.c ltr_stretches), so that mutool and pdf.js, which
# read glyphs in drawing order, read them as written (they read "yla
# Hassan La", "yloraolfgang TW", "ARTAVA")
"$VITA" render tests/bidi/ltr-in-rtl.yaml -o "$OUT/ltr.pdf" 2>/dev/null || no "ltr-in-rtl: exit $?"
mutool draw -q -F txt -o "$OUT/ltr.mt" "$OUT/ltr.pdf" 2>/dev/null
for w in 'Layla Hassan' 'Wolfgang Taylor' 'Stanford' 'AVATAR'; do
	grep -qF "$w" "$OUT/ltr.mt" || no "ltr-in-rtl: mutool does not read '$w': $(tr '\n' ' ' < "$OUT/ltr.mt")"
done
if [ -f tests/tools/pdfjs/node_modules/pdfjs-dist/package.json ]; then
	node tests/tools/pdfjs/text.mjs "$OUT" "$OUT/ltr.pdf" 2>&1
	for w in 'Layla Hassan' 'Wolfgang Taylor' 'Stanford' 'AVATAR'; do
		grep -qF "$w" "$OUT/ltr.pjtxt" || no "ltr-in-rtl: pdf.js does not read '$w': $(tr '\n' ' ' < "$OUT/ltr.pjtxt")"
	done
fi
pdftotext -enc UTF-8 "$OUT/ltr.pdf" - | grep -qF 'Layla Hassan' || no "ltr-in-rtl: pdftotext does not read 'Layla Hassan'"
# Right-to-left phrases in a left-to-right (German) CV: each stretch of
# runs at bidi level 1 and more is drawn from its first letter
# (layout_vlist.c rtl_stretches; digits and Latin inside it, level 2, left
# to right), and the space that ends it is a glyph drawn after it
# (inline.c ls_glue), so that mutool reads it as written, with its spaces
# and on one line -- it read 'يلِعَلادمَّحَمُ', 'فیرشیتعنصهاگشناد',
# '2024תנשבםילדומ3 לערמאמ' -- and pdf.js in logical order, without the
# spaces (as in a right-to-left page: it takes a space only from a pen
# move to the right); it read 'يلِعَد المَّحَمُ' and '2024 מודלים בשנת 3
# מאמר על' (it turns a line round by its own bidi, which puts marks before
# their letters and numbers first). pdftotext orders by position, as it
# did: every phrase as written, except where poppler's bidi takes digits
# and the Arabic comma for left-to-right text and gives the sections in
# visual order ('2024 מודלים בשנת 3 מאמר על', 'ایران،تهران'): their parts
# (and a space before a stretch it reads inside it: 'Korpus  پیکره ...معاصرfür').
# The pages are drawn as they were (the same glyphs at the same places).
p=$OUT/rtl-in-ltr.pdf
"$VITA" render tests/bidi/rtl-in-ltr.yaml -o "$p" 2>"$OUT/rtl-in-ltr.err" || { no "rtl-in-ltr: exit $?"; cat "$OUT/rtl-in-ltr.err"; }
set -- 'مُحَمَّد العَلِي' 'دانشگاه صنعتی شریف' 'تهران، ایران' 'پیکره متنی فارسی معاصر' \
	'Korpus پیکره متنی فارسی معاصر für' 'מאמר על 3 מודלים בשנת 2024' \
	'Er schrieb: اللغة العربية من أقدم اللغات السامية وأكثرها انتشارا في العالم ويتحدثها أكثر من أربعمائة مليون نسمة في المنطقة العربية وخارجها، und fügte hinzu.'
mutool draw -q -F txt -o "$OUT/rtl-in-ltr.mt" "$p" 2>/dev/null
python3 tests/tools/reads.py "$OUT/rtl-in-ltr.mt" "$@" >"$OUT/rtl-in-ltr.miss" ||
	{ no "rtl-in-ltr: mutool does not read:"; cat "$OUT/rtl-in-ltr.miss"; }
# one line each: no line of mutool's text starts or ends inside a phrase
grep -qx 'Muhammad Al-Ali مُحَمَّد العَلِي' "$OUT/rtl-in-ltr.mt" || no "rtl-in-ltr: mutool breaks the name's line"
grep -qx '• Aufbau des Korpus پیکره متنی فارسی معاصر für die Gruppe.' "$OUT/rtl-in-ltr.mt" ||
	no "rtl-in-ltr: mutool breaks the list item's line"
if [ -f tests/tools/pdfjs/node_modules/pdfjs-dist/package.json ]; then
	node tests/tools/pdfjs/text.mjs "$OUT" "$p" 2>&1
	python3 tests/tools/reads.py --nospace "$OUT/rtl-in-ltr.pjtxt" "$@" >"$OUT/rtl-in-ltr.miss" ||
		{ no "rtl-in-ltr: pdf.js does not read:"; cat "$OUT/rtl-in-ltr.miss"; }
fi
pdftotext -enc UTF-8 "$p" "$OUT/rtl-in-ltr.txt"
python3 tests/tools/reads.py "$OUT/rtl-in-ltr.txt" 'مُحَمَّد العَلِي' 'دانشگاه صنعتی شریف' 'تهران' 'ایران' \
	'پیکره متنی فارسی معاصر' 'מאמר על' 'מודלים בשנת' \
	'Er schrieb: اللغة العربية من أقدم اللغات السامية وأكثرها انتشارا في العالم ويتحدثها أكثر من أربعمائة مليون نسمة في المنطقة العربية وخارجها' \
	>"$OUT/rtl-in-ltr.miss" || { no "rtl-in-ltr: pdftotext does not read:"; cat "$OUT/rtl-in-ltr.miss"; }
# the sentence is broken across two lines (else it tests no break):
# its last word on another line than its first (poppler, by position)
grep -q 'وخارجها' "$OUT/rtl-in-ltr.txt" && ! grep 'Er schrieb' "$OUT/rtl-in-ltr.txt" | grep -q 'وخارجها' ||
	no "rtl-in-ltr: the Arabic sentence is not broken across two lines"
# Whole right-to-left CVs (the two here, and zhanda-zhu's CV written in
# Arabic, Persian and Hebrew by gen_scripts.py): every RTL word of the
# profile is read by pdftotext (source letters, logical order), and by the
# readers of glyphs in drawing order, mutool and pdf.js (the joined forms'
# ToUnicode is their letters) -- and the text is not written one marked
# span and one move per cluster (issue 13: that made the content streams
# 4x and the render 25% dearer): per page, fewer /ActualText spans than a
# tenth of its RTL letters, fewer Td/Tm than a third.
pdfjs=tests/tools/pdfjs/node_modules/pdfjs-dist/package.json
for y in tests/bidi/ar-cv.yaml tests/bidi/he-cv.yaml "$OUT/gen/ar.yaml" "$OUT/gen/fa.yaml" "$OUT/gen/he.yaml"; do
	n=$(basename "$y" .yaml); [ "${y#"$OUT"}" != "$y" ] && n=gen-$n
	p=$OUT/$n.pdf
	"$VITA" render "$y" -o "$p" 2>"$OUT/$n.err" || { no "$n: exit $?"; cat "$OUT/$n.err"; continue; }
	pdftotext -enc UTF-8 "$p" "$OUT/$n.txt"
	python3 tests/tools/rtl_words.py text "$y" "$OUT/$n.txt" >"$OUT/$n.miss" ||
		{ no "$n: RTL words pdftotext does not read:"; head -5 "$OUT/$n.miss"; }
	mutool draw -q -F txt -o "$OUT/$n.mt" "$p" 2>/dev/null
	python3 tests/tools/rtl_words.py glyphs "$y" "$OUT/$n.mt" >"$OUT/$n.miss" ||
		{ no "$n: RTL words mutool does not read:"; head -5 "$OUT/$n.miss"; }
	# ... and with the space between them (it read none: a space between
	# RTL words was a gap, and MuPDF guesses no space in RTL text)
	python3 tests/tools/rtl_seq.py pairs "$y" "$OUT/$n.mt" >"$OUT/$n.miss" ||
		{ no "$n: RTL word pairs mutool does not read with their space:"; head -5 "$OUT/$n.miss"; }
	if [ -f "$pdfjs" ]; then
		node tests/tools/pdfjs/text.mjs "$OUT" "$p" 2>&1
		python3 tests/tools/rtl_words.py glyphs "$y" "$OUT/$n.pjtxt" >"$OUT/$n.miss" ||
			{ no "$n: RTL words pdf.js does not read:"; head -5 "$OUT/$n.miss"; }
	elif [ "${PDFJS_REQUIRED:-0}" = 1 ]; then
		no "pdf.js is not installed (npm ci --prefix tests/tools/pdfjs)"
	fi
	qpdf --qdf --object-streams=disable "$p" "$OUT/$n.qdf" || no "$n: qpdf"
	pages=$(pdfinfo "$p" | awk '/^Pages:/ {print $2}')
	for pg in $(seq 1 "${pages:-0}"); do
		letters=$(pdftotext -f "$pg" -l "$pg" -enc UTF-8 "$p" - |
			python3 -c "import sys; print(sum(0x590 <= ord(c) <= 0x6ff for c in sys.stdin.read()))")
		set -- $(awk -v pg="$pg" '/^%% Contents for page/ {on = $NF == pg; next} /^endstream/ {on = 0}
			on && /ActualText/ {a++} on && / T[dm]$/ {m++} END {print a + 0, m + 0}' "$OUT/$n.qdf")
		[ "$letters" -gt 100 ] || no "$n page $pg: only $letters RTL letters read"
		[ $(($1 * 10)) -lt "$letters" ] || no "$n page $pg: $1 /ActualText spans for $letters RTL letters"
		[ $(($2 * 3)) -lt "$letters" ] || no "$n page $pg: $2 Td/Tm for $letters RTL letters"
	done
done
# Sentences in a right-to-left page (Arabic, Persian, Arabic with harakat,
# Hebrew, Hebrew with niqqud), each on one line, as every reader reads
# them: pdftotext and mutool as written, with their spaces; pdf.js each
# letter before its marks (it read "ُمَحَّمد" for "مُحَمَّد": it reverses
# the text it gathers between glyphs that move the pen leftwards, and a
# mark does not move it: the marks are a marked-content sequence of their
# own) but without the spaces -- it takes a space only from a pen move to
# the right (or a space glyph followed by one), which text drawn right to
# left in logical order (as MuPDF, which reorders nothing, needs it) never
# makes.
p=$OUT/sequences.pdf
"$VITA" render tests/bidi/sequences.yaml -o "$p" 2>"$OUT/sequences.err" || { no "sequences: exit $?"; cat "$OUT/sequences.err"; }
pdftotext -enc UTF-8 "$p" "$OUT/sequences.txt"
python3 tests/tools/rtl_seq.py text tests/bidi/sequences.yaml "$OUT/sequences.txt" >"$OUT/sequences.miss" ||
	{ no "sequences: pdftotext does not read:"; cat "$OUT/sequences.miss"; }
mutool draw -q -F txt -o "$OUT/sequences.mt" "$p" 2>/dev/null
python3 tests/tools/rtl_seq.py text tests/bidi/sequences.yaml "$OUT/sequences.mt" >"$OUT/sequences.miss" ||
	{ no "sequences: mutool does not read:"; cat "$OUT/sequences.miss"; }
if [ -f "$pdfjs" ]; then
	node tests/tools/pdfjs/text.mjs "$OUT" "$p" 2>&1
	python3 tests/tools/rtl_seq.py nospace tests/bidi/sequences.yaml "$OUT/sequences.pjtxt" >"$OUT/sequences.miss" ||
		{ no "sequences: pdf.js does not read:"; cat "$OUT/sequences.miss"; }
fi
[ $fail -eq 0 ] && echo "bidi: ok"
exit $fail
