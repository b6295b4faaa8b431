#!/bin/sh
# Text in the scripts HarfBuzz shapes into clusters: tests/tools/
# gen_scripts.py's CVs in Hindi (Devanagari), Bengali, Tamil, Thai,
# Punjabi (Gurmukhi), Gujarati, Odia, Telugu, Kannada, Malayalam,
# Sinhala, Lao, Khmer, Myanmar and Tibetan (conjuncts, reordered vowel
# signs, marks; pdf.c draws each cluster as one composite glyph whose
# ToUnicode is its text) render with no message about text not drawn, in
# their own Noto face (pdffonts: no other script's face, no .notdef:
# a glyph for every character), and every word of the profile in those
# scripts is read back exactly by pdftotext and by MuPDF (mutool draw -F
# txt), which read the glyphs in drawing order, and by pdf.js (Thai, Lao,
# Khmer, Myanmar, Tibetan: but for the line ends inside their runs of
# text without spaces; pdf.js's text is the glyphs' too: a cluster's marks
# come from an empty glyph). The page list draws clusters as glyph runs
# (glyphs=) that are HarfBuzz's own shaping (tests/tools/hb_runs.py:
# hb-shape from the same font, glyph for glyph), and the content stream
# has no ActualText span for their text (one glyph per cluster reads
# right). Lao, Khmer and Myanmar lines break between syllables as well as
# at spaces, and stretch a little between them (inline.c,
# il_sa_syllables); long clusters read through several glyphs of at most
# 8 UTF-16 units each.
set -u
: "${VITA:=build/vita}" "${BUILD:=build}"
OUT=$BUILD/indic
rm -rf "$OUT"; mkdir -p "$OUT"
export SOURCE_DATE_EPOCH=1767225600
fail=0
no() { echo "FAIL: $*"; fail=1; }
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$OUT/in" "$("$VITA" locales | awk '{print $1}')" >/dev/null ||
	{ echo "FAIL: gen_scripts.py"; exit 1; }
pdfjs=tests/tools/pdfjs/node_modules/pdfjs-dist/package.json
# words.py PROFILE TEXT [flat|dehyphen]: the profile's words in the script
# not in TEXT (dehyphen: a line ending in a letter of the script and the
# hyphen vita added joins the next line, as a reader that ignores the
# hyphen's ActualText, mutool, shows a word hyphenated by the locale's
# patterns: "ಮಾ-" / "ರ್ಗದರ್ಶನದಲ್ಲಿ")
cat >"$OUT/words.py" <<'PY'
import re, sys, unicodedata, yaml
def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
def ours(c):
    o = ord(c)
    return 0x900 <= o <= 0x109F or 0x1780 <= o <= 0x17FF
flat = "flat" in sys.argv[3:]
dehyphen = "dehyphen" in sys.argv[3:]
# pdf.js gives its text NFKC-normalised (Lao ຳ as ໍາ) and without the
# joiners (ZWNJ, ZWJ): its words are compared so
pdfjs = sys.argv[2].endswith(".pjtxt")
form = "NFKC" if pdfjs else "NFC"
def norm(s):
    s = unicodedata.normalize(form, s)
    return s.replace("\u200c", "").replace("\u200d", "") if pdfjs else s
t = norm(open(sys.argv[2], encoding="utf-8").read())
if dehyphen:
    t = re.sub(r"([\u0900-\u109F\u1780-\u17FF])-[ \t]*\n", r"\1", t)
if flat:
    t = "".join(t.split())
else:
    t = " ".join(t.split())
for s in strings(yaml.safe_load(open(sys.argv[1], encoding="utf-8"))):
    for w in norm(s).split():
        w = w.strip(",.:;()'\"")
        if any(ours(c) for c in w) and w not in t:
            print(w)
PY
n=0
N=/usr/share/fonts/truetype/noto
for cs in hi:SerifDevanagari:0900-097F bn:SerifBengali:0980-09FF ta:SerifTamil:0B80-0BFF \
          th:SerifThai:0E00-0E7F pa:SerifGurmukhi:0A00-0A7F gu:SerifGujarati:0A80-0AFF \
          or:SansOriya:0B00-0B7F te:SerifTelugu:0C00-0C7F kn:SerifKannada:0C80-0CFF \
          ml:SerifMalayalam:0D00-0D7F si:SerifSinhala:0D80-0DFF lo:SerifLao:0E80-0EFF \
          km:SerifKhmer:1780-17FF my:SerifMyanmar:1000-109F bo:SerifTibetan:0F00-0FFF; do
	code=${cs%%:*} face=${cs#*:} range=${cs##*:}
	face=${face%%:*}
	p=$OUT/in/$code.yaml o=$OUT/$code
	"$VITA" render "$p" -o "$o.pdf" --dump=layout 2>"$o.err" >"$o.dump" || { no "$code: exit $?"; cat "$o.err"; continue; }
	"$VITA" render "$p" -o "$o.pdf" 2>/dev/null || no "$code: exit $?"
	n=$((n + 1))
	grep -E "not drawn|cannot shape|no font" "$o.err" && no "$code: text not drawn"
	grep -E "overflows" "$o.err" && no "$code: a line overflows"
	# Lao, Khmer, Myanmar: a line breaks between syllables rather than
	# stretch its few spaces (without il_sa_syllables: 328-1214% past)
	case $code in lo|km|my)
		grep -E "stretched [0-9]{3,}% past" "$o.err" && no "$code: a line stretched past 100%" ;;
	esac
	grep -q ' glyphs=' "$o.dump" || no "$code: no glyph runs in the page list"
	# Myanmar, Tibetan: the summary's lines 1.8 sizes apart (leading_tall:
	# their stacks touch at the Latin leading, 1.27)
	case $code in my|bo)
		python3 - "$o.dump" "$p" >"$o.lead" <<'PY' || { no "$code: lines closer than leading_tall"; cat "$o.lead"; }
import re, sys, yaml
summary = "".join(yaml.safe_load(open(sys.argv[2], encoding="utf-8"))["summary"].split())
ys, size, on = set(), 0, 0
for l in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r'\s*run x=\d+ y=(\d+) .*? size=(\d+) .*?"(.*?)"', l)
    if not m:
        continue
    w = "".join(m.group(3).split())
    if not on and w and summary.startswith(w):
        on = 1
    if on and (not w or w not in summary or (size and int(m.group(2)) != size)):
        break
    if on:
        ys.add(int(m.group(1)))
        size = int(m.group(2))
ys = sorted(ys)
print("summary lines", ys)
bad = len(ys) < 2 or any(b - a < size * 18 // 10 for a, b in zip(ys, ys[1:]))
sys.exit(1 if bad else 0)
PY
		;;
	esac
	# its own face, and no Noto face of another of these scripts (a danda
	# of Gurmukhi text in Devanagari's: font_shape.c's sticks)
	pdffonts "$o.pdf" >"$o.fonts"
	grep -q "+Noto$face-Regular " "$o.fonts" || { no "$code: no Noto$face-Regular"; cat "$o.fonts"; }
	grep -E '\+Noto(Serif|Sans)[A-Z][a-z]+-' "$o.fonts" | grep -v "+Noto$face-" &&
		no "$code: another script's face"
	if command -v hb-shape >/dev/null; then
		python3 tests/tools/hb_runs.py "$o.dump" "$range" "$N/Noto$face-Regular.ttf" \
			"$N/Noto$face-Bold.ttf" >"$o.hb" || { no "$code: not HarfBuzz's shaping"; tail -3 "$o.hb"; }
	elif [ "${HB_REQUIRED:-0}" = 1 ]; then
		no "hb-shape is not installed (libharfbuzz-bin)"
	fi
	pdftotext -enc UTF-8 "$o.pdf" "$o.txt"
	flat=
	case $code in th|lo|km|my|bo) flat=flat ;; esac   # lines break inside their runs
	python3 "$OUT/words.py" "$p" "$o.txt" $flat >"$o.miss"
	[ -s "$o.miss" ] && { no "$code: words pdftotext does not read:"; head -5 "$o.miss"; }
	mutool draw -q -F txt -o "$o.mt" "$o.pdf" 2>/dev/null
	python3 "$OUT/words.py" "$p" "$o.mt" ${flat:-dehyphen} >"$o.miss"
	[ -s "$o.miss" ] && { no "$code: words mutool does not read:"; head -5 "$o.miss"; }
	if [ -f "$pdfjs" ]; then
		node tests/tools/pdfjs/text.mjs "$OUT" "$o.pdf" 2>&1
		# flat: pdf.js ends a line between two runs of another face at
		# times (ਐਮ. | ਟੈੱਕ, where the period is Noto Serif's)
		# (pdf.js, as mutool, ignores a hyphenated word's ActualText)
		python3 "$OUT/words.py" "$p" "$o.pjtxt" flat dehyphen >"$o.miss"
		[ -s "$o.miss" ] && { no "$code: words pdf.js does not read:"; head -5 "$o.miss"; }
	elif [ "${PDFJS_REQUIRED:-0}" = 1 ]; then
		no "pdf.js is not installed (npm ci --prefix tests/tools/pdfjs)"
	fi
	qpdf --qdf --object-streams=disable "$o.pdf" "$o.qdf" || no "$code: qpdf"
	# (but a hyphenated word's: the run of its hyphen reads as the rest of
	# the word, an ActualText the layout dump shows as actual="...")
	npdf=$(grep -aEo 'ActualText<feff(0[9a-fA-F]|10[0-9]|17[89a-fA-F])' "$o.qdf" | wc -l)
	nhyph=$(python3 -c '
import re, sys
n = 0
for m in re.finditer(r"\"-\" actual=\"(.)", open(sys.argv[1], encoding="utf-8").read()):
    c = ord(m.group(1))
    n += 0x900 <= c <= 0x109F or 0x1780 <= c <= 0x17FF
print(n)' "$o.dump")
	[ "$npdf" -gt "$nhyph" ] && no "$code: ActualText spans for its script ($npdf, $nhyph of hyphenated words)"
done
[ $n = 15 ] || no "only $n of 15 CVs rendered"
# clusters of up to 11 code points: their composites' size is in maxp,
# and all three readers read them whole: a glyph reads at most 8 UTF-16
# units (MuPDF 1.21 drops a longer ToUnicode entry, "ignoring one to many
# mapping"), the rest of a long cluster's text comes from empty glyphs.
"$VITA" render tests/indic/conjuncts.yaml -o "$OUT/conjuncts.pdf" 2>"$OUT/conjuncts.err" ||
	no "conjuncts: exit $?"
/usr/bin/python3 tests/tools/maxp_check.py "$OUT/conjuncts.pdf" >"$OUT/maxp.txt" ||
	{ no "conjuncts: maxp does not count the composite glyphs"; grep BAD "$OUT/maxp.txt"; }
pdftotext -enc UTF-8 "$OUT/conjuncts.pdf" "$OUT/conjuncts.txt"
mutool draw -q -F txt -o "$OUT/conjuncts.mt" "$OUT/conjuncts.pdf" 2>/dev/null
[ -f "$pdfjs" ] && node tests/tools/pdfjs/text.mjs "$OUT" "$OUT/conjuncts.pdf" 2>&1
for x in txt mt pjtxt; do
	[ -f "$OUT/conjuncts.$x" ] || continue
	python3 "$OUT/words.py" tests/indic/conjuncts.yaml "$OUT/conjuncts.$x" >"$OUT/conjuncts.miss"
	[ -s "$OUT/conjuncts.miss" ] && { no "conjuncts: .$x lacks"; head -3 "$OUT/conjuncts.miss"; }
done
qpdf --qdf --object-streams=disable "$OUT/conjuncts.pdf" "$OUT/conjuncts.qdf"
grep -aq 'ActualText' "$OUT/conjuncts.qdf" && no "conjuncts: an ActualText span"
# a base with 300 marks (one cluster of 301 glyphs): poppler and pdf.js
# read every mark (an ActualText span past 4 parts, for poppler, which
# drops a glyph reading as the one before at its place, as fake bold).
# MuPDF 1.21 reads ActualText spans not at all and merges those too: not
# asserted. Outside $BUILD (pdf_check.sh's mutool pass would fail it).
mk=$(mktemp -d)
python3 -c 'import sys; print("name: Marks\nsections:\n  - title: X\n    type: text\n    text: \"अब क%s तब\"" % ("\u0901" * 300))' >"$mk/marks.yaml"
"$VITA" render "$mk/marks.yaml" -o "$mk/marks.pdf" 2>"$OUT/marks.err" || no "marks: exit $?"
[ "$(pdftotext -enc UTF-8 "$mk/marks.pdf" - 2>/dev/null | grep -o "$(printf '\340\244\201')" | wc -l)" = 300 ] ||
	no "marks: pdftotext does not read the 300 marks"
if [ -f "$pdfjs" ]; then
	node tests/tools/pdfjs/text.mjs "$mk" "$mk/marks.pdf" 2>&1
	[ "$(grep -o "$(printf '\340\244\201')" "$mk/marks.pjtxt" | wc -l)" = 300 ] ||
		no "marks: pdf.js does not read the 300 marks"
fi
rm -rf "$mk"
# Justified lines: Tibetan stretches between its syllables (after a
# tsheg), not only at its few spaces; Tamil is hyphenated (hyphen-ta).
# The layouts whose measure left such lines loose (a space after a shad
# stretched 1172% past its limit in classic, Tamil 842%).
for cl in bo:classic bo:modern bo:sidebar ta:modern; do
	code=${cl%%:*} l=${cl#*:}
	[ -f "$OUT/in/$code.yaml" ] || continue
	case $code in ta) [ -f /usr/share/hyphen/hyph_ta_IN.dic ] || { echo "skip ta: hyphen-ta is not installed"; continue; } ;; esac
	"$VITA" render "$OUT/in/$code.yaml" -l "$l" -o "$OUT/loose-$code-$l.pdf" 2>"$OUT/loose-$code-$l.err" ||
		no "$code@$l: exit $?"
	grep -q 'loose line' "$OUT/loose-$code-$l.err" && no "$code@$l: $(grep -m1 'loose line' "$OUT/loose-$code-$l.err")"
done
# Myanmar and Tibetan header lines (tagline, location) are as far apart
# as their body lines (leading_tall): at the Latin leading the compact
# header's tagline reached into the location line below it.
for code in bo my; do
	[ -f "$OUT/in/$code.yaml" ] || continue
	"$VITA" render "$OUT/in/$code.yaml" -l compact -o "$OUT/tall-$code.pdf" --dump=layout \
		>"$OUT/tall-$code.dump" 2>/dev/null || { no "$code@compact: exit $?"; continue; }
	python3 -c '
import re, sys
ys = []
for m in re.finditer(r"^run x=\d+ y=(\d+) w=\d+ size=(\d+)", open(sys.argv[1], encoding="utf-8").read(), re.M):
    y, size = int(m.group(1)), int(m.group(2))
    if not ys or ys[-1][0] != y:
        ys.append((y, size))
# the name, the tagline, the location line
(_, _), (y1, _), (y2, s2) = ys[:3]
sys.exit(0 if y2 - y1 >= s2 * 17 // 10 else 1)' "$OUT/tall-$code.dump" ||
		no "$code@compact: the header's tagline and location lines are closer than 1.7 sizes"
done
[ $fail = 0 ] && echo "indic: ok ($n CVs)"
exit $fail
