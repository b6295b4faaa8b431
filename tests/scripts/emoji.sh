#!/bin/sh
# Colour emoji, end to end (fonts/*.yaml's Noto Color Emoji entry:
# covers: the Emoji_Presentation characters, presentation: emoji;
# sfnt_cbdt.c's CBLC/CBDT reading and subset, font_shape.c's colour faces
# shaped into clusters, inline.c's U+FE0F kept after an emoji face's
# character, pdf_font.c's Type 3 font of PNG images, pdf.c's text parts of
# one code point):
#  - a CV with 📧 🎓 (twice), a flag 🇬🇧, a ZWJ sequence 👩‍💻, an emoji
#    with U+FE0F (✉️) and text-style symbols (✓ ☎) in academic (serif
#    chain) and compact (sans chain): exit 0 with --strict, no warning;
#  - pdftotext and mutool extract the text exactly as written; pdf.js
#    too, but for U+200D (pdf.js 4 leaves format characters, Cf, out of
#    its text content: the joiner of 👩‍💻 reads as 👩💻 there);
#  - the emoji come from Noto Color Emoji (mutool stext), ✓ and ☎ from
#    their usual face, ✉ before U+FE0F from the emoji face;
#  - colour where each emoji is drawn (pdftoppm), none where ✓ is;
#  - one Type 3 font, each distinct emoji's image once (🎓 drawn three
#    times: name, text, footer), each with an /SMask;
#  - 300 distinct emoji: two Type 3 fonts (256 codes each at most), the
#    text read as written, in less than 12 MB of peak RSS more than the
#    CV's few emoji;
#  - without the font (FONTCONFIG_FILE: a private configuration that
#    rejects it) the render is what it was: exit 0, the same warnings
#    (the flag's regional indicators: no font), no Type 3 font, 🎓 from
#    Noto Sans Symbols2.
# (pdf_check.sh then reads every PDF left here with the six readers.)
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/emoji
rm -rf "$OUT"; mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
if ! fc-list : family | grep -qx 'Noto Color Emoji'; then
	echo "emoji: skipped (fonts-noto-color-emoji is not installed)"
	exit 0
fi
TEXT='Mail 📧 me ✉️ from 🇬🇧, a 🎓 student and 👩‍💻 coder, done ✓ call ☎ now.'
cat > "$OUT/cv.yaml" <<EOF
name: Ada Lovelace 🎓
headline: Researcher 👩‍💻 in Compilers
sections:
  - title: News
    type: text
    text: "$TEXT"
EOF

for l in academic compact; do
	pdf=$OUT/cv-$l.pdf
	"$VITA" render "$OUT/cv.yaml" -l $l --strict -o "$pdf" 2>"$OUT/$l.err" ||
		no "render -l $l: exit $?"
	[ -s "$OUT/$l.err" ] && { no "render -l $l warns:"; cat "$OUT/$l.err"; }
	pdftotext "$pdf" - > "$pdf.txt" 2>&1 || no "$l: pdftotext"
	tr -d '\n' < "$pdf.txt" | grep -qF "$TEXT" || no "$l: pdftotext lacks the text: $(cat "$pdf.txt")"
	grep -qF 'Ada Lovelace 🎓' "$pdf.txt" || no "$l: pdftotext lacks the name"
	grep -qF 'Researcher 👩‍💻 in Compilers' "$pdf.txt" || no "$l: pdftotext lacks the headline"
	mutool draw -F txt -o - "$pdf" 2>/dev/null > "$pdf.mu"
	tr -d '\n' < "$pdf.mu" | grep -qF "$TEXT" || no "$l: mutool lacks the text: $(cat "$pdf.mu")"
	grep -qF 'Researcher 👩‍💻 in Compilers' "$pdf.mu" || no "$l: mutool lacks the headline"
	if [ -f tests/tools/pdfjs/node_modules/pdfjs-dist/package.json ]; then
		node tests/tools/pdfjs/text.mjs "$OUT" "$pdf" 2>&1
		nozwj=$(printf '%s' "$TEXT" | sed 's/\xe2\x80\x8d//g')
		tr -d '\n' < "$OUT/cv-$l.pjtxt" | grep -qF "$nozwj" ||
			no "$l: pdf.js lacks the text: $(cat "$OUT/cv-$l.pjtxt")"
	elif [ "${PDFJS_REQUIRED:-0}" = 1 ]; then
		no "pdf.js is not installed (npm ci --prefix tests/tools/pdfjs)"
	fi
	mutool draw -F stext -o - "$pdf" 2>/dev/null | python3 tests/tools/stext_chars.py > "$pdf.chars"
	pdftoppm -r 144 -f 1 -l 1 "$pdf" "$pdf.page" || no "$l: pdftoppm"
	qpdf --qdf --object-streams=disable "$pdf" "$pdf.qdf" 2>/dev/null || no "$l: qpdf"
	python3 - "$pdf.chars" "$pdf.page-1.ppm" "$pdf.qdf" <<'PY' || fail=1
import re, sys
bad = 0
def no(m):
    global bad
    print("FAIL: %s: %s" % (sys.argv[1], m)); bad = 1
chars = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
face = {}
for c in chars:
    face.setdefault(c[3], set()).add(c[0])
for ch in "📧🎓👩💻🇬🇧✉":
    if face.get(ch) != {"NotoColorEmoji"}:
        no("%s from %s, want NotoColorEmoji" % (ch, face.get(ch)))
for ch in "✓☎":
    if "NotoColorEmoji" in face.get(ch, {"NotoColorEmoji"}):
        no("%s from %s, want its text face" % (ch, face.get(ch)))
if len([c for c in chars if c[3] == "🎓"]) != 3:
    no("🎓 drawn %d times, want 3 (name, text, footer)" % len([c for c in chars if c[3] == "🎓"]))
# colour under each emoji (10 pt from its pen, 10 above its baseline),
# none under ✓ (black text)
data = open(sys.argv[2], "rb").read()
parts = data.split(maxsplit=4)
w, h = int(parts[1]), int(parts[2])
pix = parts[4]
k = 144 / 72
def colour(x, y):
    n = 0
    for yy in range(int((y - 10) * k), int((y + 2) * k)):
        for xx in range(int(x * k), int((x + 10) * k)):
            if 0 <= xx < w and 0 <= yy < h:
                r, g, b = pix[3 * (yy * w + xx):3 * (yy * w + xx) + 3]
                n += max(r, g, b) - min(r, g, b) > 60
    return n
for c in chars:
    x, y = float(c[1]), float(c[2])
    if c[3] in ("📧", "🎓", "👩", "🇬", "✉") and colour(x, y) < 10:
        no("no colour at %s (%s, %s): %d pixels" % (c[3], x, y, colour(x, y)))
    if c[3] == "✓" and colour(x, y) > 0:
        no("colour at ✓ (%s, %s): %d pixels" % (x, y, colour(x, y)))
# one Type 3 font; an image (and its mask) per distinct emoji drawn:
# 📧 🎓 👩‍💻 🇬🇧 ✉️
q = open(sys.argv[3], "rb").read()
if len(re.findall(rb"/Subtype /Type3", q)) != 1:
    no("%d Type 3 fonts, want 1" % len(re.findall(rb"/Subtype /Type3", q)))
imgs = len(re.findall(rb"/Subtype /Image", q))
masks = len(re.findall(rb"/SMask \d+ 0 R", q))
if imgs != 10 or masks != 5:
    no("%d images, %d with a mask; want 5 emoji and their 5 masks" % (imgs, masks))
sys.exit(bad)
PY
done

# more than 255 distinct emoji (glyphs of the subset): a Type 3 font per
# 256 (pdf_font_bank), the text as written
python3 - "$OUT/many.yaml" <<'PY'
import sys
s = "".join(chr(c) for c in range(0x1F600, 0x1F650)) + "".join(chr(c) for c in range(0x1F400, 0x1F43F)) + \
    "".join(chr(c) for c in range(0x1F337, 0x1F37D)) + "".join(chr(c) for c in range(0x1F680, 0x1F6C6)) + \
    " 🇬🇧🇨🇳🇩🇪 👨‍👩‍👧‍👦 👍🏽 #️⃣ ❤️‍🔥"
open(sys.argv[1], "w", encoding="utf-8").write(
    "name: Ada Lovelace\nsections:\n  - title: Emoji\n    type: text\n    text: \"%s\"\n" % s)
open(sys.argv[1] + ".txt", "w", encoding="utf-8").write(s)
PY
"$VITA" render "$OUT/many.yaml" --strict -o "$OUT/many.pdf" 2>"$OUT/many.err" || no "render many: exit $?"
[ -s "$OUT/many.err" ] && { no "render many warns:"; cat "$OUT/many.err"; }
[ "$(pdffonts "$OUT/many.pdf" | grep -c 'Type 3')" = 2 ] || { no "many: not two Type 3 fonts:"; pdffonts "$OUT/many.pdf"; }
want=$(tr -d ' ' < "$OUT/many.yaml.txt")
pdftotext "$OUT/many.pdf" - | tr -d ' \n' | grep -qF "$want" || no "many: pdftotext lacks the text"
mutool draw -F txt -o - "$OUT/many.pdf" 2>/dev/null | tr -d ' \n' | grep -qF "$want" || no "many: mutool lacks the text"
# peak memory: each image is deflated as it is made (pdf_font.c,
# pf_glyph_image), not held decoded until the PDF is saved: 300 emoji
# took 23.5 MB of peak RSS more than the CV's few (30.4 MB against 6.9),
# now 4.7 (11.6). Not under a sanitizer (its quarantine keeps what is
# freed), nor without /usr/bin/time.
if [ -x /usr/bin/time ] && ! ldd "$VITA" 2>/dev/null | grep -q 'libasan\|libtsan\|libubsan'; then
	/usr/bin/time -f %M -o "$OUT/few.rss" "$VITA" render "$OUT/cv.yaml" -o "$OUT/few.pdf" 2>/dev/null
	/usr/bin/time -f %M -o "$OUT/many.rss" "$VITA" render "$OUT/many.yaml" -o "$OUT/many2.pdf" 2>/dev/null
	few=$(tail -1 "$OUT/few.rss"); many=$(tail -1 "$OUT/many.rss")
	[ $((many - few)) -lt 12000 ] || no "300 emoji: peak RSS $many KB, $few KB for a few (more than 12 MB apart)"
	rm -f "$OUT/few.pdf" "$OUT/many2.pdf"
fi

# without Noto Color Emoji: as before it (the chains name it, optional)
cat > "$OUT/fonts.conf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><glob>*/NotoColorEmoji*</glob></rejectfont></selectfont>
</fontconfig>
EOF
FONTCONFIG_FILE=$PWD/$OUT/fonts.conf "$VITA" render "$OUT/cv.yaml" -o "$OUT/none.pdf" 2>"$OUT/none.err" ||
	no "render without the font: exit $?"
grep -q "U+1F1EC" "$OUT/none.err" || { no "without the font, no warning about the flag:"; cat "$OUT/none.err"; }
grep -qi "color emoji\|not installed" "$OUT/none.err" && { no "without the font, it is asked for:"; cat "$OUT/none.err"; }
pdffonts "$OUT/none.pdf" > "$OUT/none.fonts" 2>&1
grep -q "Type 3" "$OUT/none.fonts" && no "without the font, a Type 3 font"
grep -q "NotoSansSymbols2" "$OUT/none.fonts" || no "without the font, 🎓 is not Noto Sans Symbols2's"
pdftotext "$OUT/none.pdf" - | grep -qF 'Ada Lovelace 🎓' || no "without the font: pdftotext lacks the name"
[ $fail = 0 ] && echo "emoji: ok"
exit $fail
