#!/bin/sh
# Characters past U+FFFF, end to end (font_pick.c, inline.c, layout_usage.c
# subsets, sfnt.c's format 12 cmap, pdf_font.c's side table of CIDs and
# their ToUnicode surrogate pairs, pdf.c's show_text and word_rest):
#  - a Japanese CV whose name is 𠮷田 (CJK Extension B) with math letters
#    (𝑥, 𝔸), a symbol (🎓) and 𩸽 in its text, in academic (serif chain)
#    and compact (sans chain): no warning, exit 0 with --strict; so in
#    a family list ('fonts.body=Noto Sans': font.c's fallbacks);
#  - pdftotext and mutool extract the name and the text exactly as
#    written;
#  - each such character comes from the face meant for it (mutool stext):
#    𠮷 from Noto Serif CJK JP (Bold in the name; the footer's too), 𝑥 and 𝔸 from Noto Sans
#    Math, 🎓 from Noto Color Emoji (a Type 3 font of its images: emoji.sh),
#    or from Noto Sans Symbols2 where fonts-noto-color-emoji is not
#    installed;
#  - the subset has their glyphs: ink where mutool puts each of them;
#  - ToUnicode writes them as UTF-16 surrogate pairs (<D842DFB7> for
#    U+20BB7);
#  - a Chinese CV: 𪚲 in the name comes from Noto Serif CJK SC;
#  - the HTML output has the text as written;
#  - 𠮷 before a Latin word gets the quarter em 吉 gets (inline.c
#    is_han_kana);
#  - math letters in italic text are not slanted again (their face is
#    `italic-style: upright` in both chains: 𝑥 is already italic);
#  - a paragraph mostly of Extension B Han gets the CJK leading a BMP Han
#    paragraph gets (layout_vlist.c mostly_cjk).
# (pdf_check.sh then reads every PDF left here with qpdf, mutool and gs.)
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/nonbmp
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
# 🎓's face: the colour one when installed (the chains' Noto Color Emoji)
EMOJI=NotoSansSymbols2-Regular
fc-list : family | grep -qx 'Noto Color Emoji' && EMOJI=NotoColorEmoji
export EMOJI
TEXT='𠮷野家で働く。数学 𝑥² and a 𝔸 symbol, emoji 🎓 and ✓, 𩸽の塩焼き。'
cat > "$OUT/ja.yaml" <<EOF
name: 𠮷田 太郎
lang: ja
sections:
  - title: 概要
    type: text
    text: "$TEXT"
EOF
cat > "$OUT/zh.yaml" <<EOF
name: 𪚲明
lang: zh
sections:
  - title: 简介
    type: text
    text: "𪚲明在上海工作。"
EOF

check_pdf() { # pdf stem, expected name font of 𠮷
	pdf=$1
	pdftotext "$pdf" - > "$pdf.txt" 2>&1 || no "$pdf: pdftotext"
	grep -qF '𠮷田 太郎' "$pdf.txt" || no "$pdf: pdftotext lacks the name 𠮷田 太郎"
	tr -d '\n' < "$pdf.txt" | grep -qF "$TEXT" || no "$pdf: pdftotext lacks the text: $(cat "$pdf.txt")"
	mutool draw -F txt -o - "$pdf" 2>/dev/null > "$pdf.mu"
	grep -qF '𠮷田 太郎' "$pdf.mu" || no "$pdf: mutool lacks the name"
	tr -d '\n' < "$pdf.mu" | grep -qF "$TEXT" || no "$pdf: mutool lacks the text: $(cat "$pdf.mu")"
	qpdf --qdf --object-streams=disable "$pdf" - 2>/dev/null | grep -aq '<D842DFB7>' ||
		no "$pdf: no ToUnicode surrogate pair <D842DFB7> for U+20BB7"
	mutool draw -F stext -o - "$pdf" 2>/dev/null | python3 tests/tools/stext_chars.py > "$pdf.chars"
	pdftoppm -r 144 -gray -f 1 -l 1 "$pdf" "$pdf.page" || no "$pdf: pdftoppm"
	python3 - "$pdf.chars" "$pdf.page-1.pgm" "$2" <<'PY' || fail=1
import os, sys
chars = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
want = {"𝑥": "NotoSansMath-Regular", "𝔸": "NotoSansMath-Regular",
        "🎓": os.environ["EMOJI"], "𩸽": "NotoSerifCJKjp-Regular"}
bad = 0
def no(m):
    global bad
    print("FAIL: " + m); bad = 1
name = [c for c in chars if c[3] == "𠮷"]
if [c[0] for c in name] != [sys.argv[3]] + ["NotoSerifCJKjp-Regular"] * 2:
    no("𠮷 from %s, want the name's %s, the text's and the footer's Regular" %
       ([c[0] for c in name], sys.argv[3]))
for ch, face in want.items():
    got = [c[0] for c in chars if c[3] == ch]
    if got != [face]:
        no("%s from %s, want %s" % (ch, got, face))
# ink under each character past the BMP (the subset has its glyph)
with open(sys.argv[2], "rb") as f:
    data = f.read()
parts = data.split(maxsplit=4)
w, h = int(parts[1]), int(parts[2])
pix = parts[4]
k = 144 / 72
for c in chars:
    if not c[3] or ord(c[3][0]) <= 0xFFFF:
        continue
    x, y = float(c[1]) * k, float(c[2]) * k
    dark = 0
    for yy in range(int(y - 8 * k), int(y + 1)):
        for xx in range(int(x), int(x + 7 * k)):
            if 0 <= xx < w and 0 <= yy < h and pix[yy * w + xx] < 200:
                dark += 1
    if dark < 8:
        no("no ink at U+%04X (%s at %s,%s): %d dark pixels" % (ord(c[3][0]), c[0], c[1], c[2], dark))
sys.exit(bad)
PY
}

for l in academic compact; do
	"$VITA" render "$OUT/ja.yaml" -l $l --strict -o "$OUT/ja-$l.pdf" 2>"$OUT/ja-$l.err" ||
		no "render -l $l: exit $?"
	[ -s "$OUT/ja-$l.err" ] && { no "render -l $l warns:"; cat "$OUT/ja-$l.err"; }
done
check_pdf "$OUT/ja-academic.pdf" NotoSerifCJKjp-Bold
# a family list: its fallbacks (font.c family_chain) have the same faces
"$VITA" render "$OUT/ja.yaml" --set 'fonts.body=Noto Sans' --set 'fonts.heading=Noto Sans' \
	-o "$OUT/ja-fam.pdf" 2>"$OUT/ja-fam.err" || no "render a family list: exit $?"
[ -s "$OUT/ja-fam.err" ] && { no "render a family list warns:"; cat "$OUT/ja-fam.err"; }
pdftotext "$OUT/ja-fam.pdf" - | tr -d '\n' | grep -qF "$TEXT" || no "family list: pdftotext lacks the text"
# compact: the sans chain (its CJK name face and text face are Noto Sans CJK)
pdftotext "$OUT/ja-compact.pdf" - | tr -d '\n' | grep -qF "$TEXT" || no "compact: pdftotext lacks the text"
mutool draw -F stext -o - "$OUT/ja-compact.pdf" 2>/dev/null | python3 tests/tools/stext_chars.py |
	awk -F'\t' '$4 == "𠮷" || $4 == "𝑥" || $4 == "🎓" { print $1 }' | sort -u > "$OUT/ja-compact.faces"
printf '%s\nNotoSansCJKjp-Bold\nNotoSansCJKjp-Regular\nNotoSansMath-Regular\n' "$EMOJI" | sort |
	cmp -s - "$OUT/ja-compact.faces" || { no "compact faces:"; cat "$OUT/ja-compact.faces"; }

"$VITA" render "$OUT/zh.yaml" -o "$OUT/zh.pdf" 2>"$OUT/zh.err" || no "render zh: exit $?"
[ -s "$OUT/zh.err" ] && { no "render zh warns:"; cat "$OUT/zh.err"; }
pdftotext "$OUT/zh.pdf" - | grep -qF '𪚲明在上海工作。' || no "zh: pdftotext lacks 𪚲明在上海工作。"
mutool draw -F stext -o - "$OUT/zh.pdf" 2>/dev/null | python3 tests/tools/stext_chars.py |
	awk -F'\t' '$4 == "𪚲" { print $1 }' | sort -u > "$OUT/zh.faces"
printf 'NotoSerifCJKsc-Bold\nNotoSerifCJKsc-Regular\n' | cmp -s - "$OUT/zh.faces" ||
	{ no "zh: 𪚲 faces:"; cat "$OUT/zh.faces"; }

"$VITA" render "$OUT/ja.yaml" --format html -o "$OUT/ja.html" 2>/dev/null || no "html: exit $?"
grep -qF "$TEXT" "$OUT/ja.html" || no "html lacks the text"
grep -qF '𠮷田 太郎' "$OUT/ja.html" || no "html lacks the name"
# 𠮷 next to a Latin word gets the quarter em 吉 gets (clreq 3.4)
cat > "$OUT/sp.yaml" <<EOF
name: 山田 太郎
lang: ja
sections:
  - title: 概要
    type: text
    text: "吉Python。"
  - title: 概要
    type: text
    text: "𠮷Python。"
EOF
"$VITA" render "$OUT/sp.yaml" --dump=layout 2>/dev/null | grep '"Python"' | sed 's/ y=.*//' > "$OUT/sp.x"
[ "$(sort -u "$OUT/sp.x" | wc -l)" = 1 ] && [ "$(wc -l < "$OUT/sp.x")" = 2 ] ||
	{ no "'Python' after 𠮷 is not where it is after 吉:"; cat "$OUT/sp.x"; }
# 𝑥 and 𝔸 in an italic span: Noto Sans Math's own letters, no synthetic
# slant (synth=2 would be FONT_SYNTH_ITALIC), in both chains
cat > "$OUT/it.yaml" <<EOF
name: Ada Lovelace
sections:
  - title: Publications
    type: text
    text: "*Bounds on 𝑥 and 𝔸 in italic* and 𝑥 upright."
EOF
for l in academic compact; do
	"$VITA" render "$OUT/it.yaml" -l $l --dump=layout 2>/dev/null | grep -E '^run .*"(𝑥|𝔸) ' > "$OUT/it-$l.runs"
	[ "$(wc -l < "$OUT/it-$l.runs")" = 3 ] || { no "$l: math letter runs:"; cat "$OUT/it-$l.runs"; }
	grep -v ' synth=0 ' "$OUT/it-$l.runs" && no "$l: a math letter is synthesised (above)"
done
# line pitch of a long paragraph of Extension B Han = that of BMP Han
python3 - "$OUT/lead.yaml" <<'PY'
import sys
# Extension B Han that Noto Serif CJK JP has (JIS X 0213)
b = "𠮷𩸽𠀋𡈽𡌛𡑮𡢽𠮟𡚴𡸴𣇄𣗄𣜿𣝣𣳾𤟱𥒎𥔎𥝱𥧄𥶡𦫿𦹀𧃴𧚄𨉷𨏍𪆐𠂉𠂢𠂤𠆢𠈓𠌫𠎁𠍱𠏹𠑊𠔉𠗖𠘨𠝏𠠇𠠺𠢹𠥼𠦝𠫓𠬝𠵅𠷡𠺕𠹭𠹤𠽟𡈁𡉕𡉻𡉴𡋤𡋗𡋽𡌶𡍄𡏄𡑭𡗗𦰩𡙇𡜆𡝂𡧃𡱖𡴭𡵅𡵸𡵢𡶡𡶜𡶒𡶷𡷠𡸳𡼞𡽶𡿺𢅻𢌞𢎭𢛳𢡛𢢫𢦏𢪸𢭏𢭐𢭆𢰝𢮦𢰤𢷡𣇃𣇵𣆶𣍲𣏓𣏒𣏐𣏤𣏕𣏚𣏟𣑊𣑑𣑋𣑥𣓤𣕚𣖔𣘹𣙇𣘸𣘺𣜜𣜌𣝤𣟿𣟧𣠤𣠽𣪘𣱿𣴀𣵀𣷺𣷹𣷓𣽾𤂖𤄃𤇆𤇾𤎼𤘩𤚥𤢖𤩍𤭖𤭯𤰖𤴔𤸎𤸷𤹪𤺋𥁊𥁕𥄢𥆩𥇥𥇍𥈞𥉌𥐮𥓙𥖧𥞩𥞴𥧔𥫤𥫣𥫱𥮲𥱋𥱤𥸮𥹖𥹥𥹢𥻘𥻂𥻨𥼣𥽜𥿠𥿔𦀌𥿻𦀗𦁠𦃭𦉰𦊆𦍌𣴎𦐂𦙾𦚰𦜝𦣝"
h = "".join(chr(0x4E00 + 37 * i) for i in range(200))
open(sys.argv[1], "w", encoding="utf-8").write(
    "name: 山田 太郎\nlang: ja\nsections:\n"
    "  - title: 甲\n    type: text\n    text: \"%s\"\n"
    "  - title: 乙\n    type: text\n    text: \"%s\"\n" % (h, b))
PY
"$VITA" render "$OUT/lead.yaml" --dump=layout 2>/dev/null | awk '
	/^run .* size=9800 / { y = $3; sub(/y=/, "", y); if (!(y in seen)) { seen[y] = 1; ys[n++] = y } }
	END { for (i = 1; i < n; i++) print ys[i] - ys[i - 1] }' | sort | uniq -c > "$OUT/lead.pitch"
# one pitch between the lines of both paragraphs (and one across the title)
[ "$(awk '$1 > 2' "$OUT/lead.pitch" | wc -l)" = 1 ] ||
	{ no "Extension B and BMP Han paragraphs have different line pitches:"; cat "$OUT/lead.pitch"; }
[ $fail = 0 ] && echo "nonbmp: ok"
exit $fail
