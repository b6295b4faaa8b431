#!/bin/sh
# text_crashes.sh: issue 15, the text engine's crash and wrong-output
# cases, each rendered end to end (release and ASan+UBSan builds):
#  - case 1: flag emoji (regional indicators) made libunibreak 1.1 abort;
#    render, check and batch (the other CVs of the worker survive)
#  - case 4: one word wider than 2^31 u (340 KB BibTeX fields) overflowed
#    int widths in inline.c (UBSan)
#  - case 10: a variation selector (U+FE0F after a letter, as in "x️", and
#    in "❤️") pulled DejaVu in for one empty glyph (pdf.js: no glyf table);
#    it is not drawn, no font is added for it (but after a character of
#    the emoji face, ❤️: emoji.sh)
#  - case 29: a face whose only text is empty glyphs (DejaVu Sans for the
#    braille blank U+2800 and the spaces beside it) was cut into a subset
#    of an empty glyf table, which the PDF writer refused ("cannot embed
#    the font: a required table ... is missing"); it is embedded, read
#  - case 28: zhanda-zhu's "Memory-Parallelism" breaks after its own
#    hyphen; pdftotext (default mode), mutool and Ghostscript must each read
#    the hyphen (poppler dropped it: "MemoryParallelism")
# Every PDF made here goes through tests/tools/pdf_check.sh.
# Env: VITA (the binary), BUILD (scratch directory).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/text_crashes
rm -rf "$W"
mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
sanitizer() { grep -q -e 'Sanitizer' -e 'runtime error:' "$1"; }

# case 1: flags anywhere (text, name, a lone indicator, three in a row)
printf 'name: "Flag \360\237\207\250\360\237\207\246 Person"\nheadline: "\360\237\207\257\360\237\207\265\360\237\207\272\360\237\207\270\360\237\207\246"\nsections:\n  - {title: "T \360\237\207\251\360\237\207\252", type: text, text: "Born in \360\237\207\250\360\237\207\246 Canada, lone \360\237\207\246 x\360\237\207\277y"}\n' >"$W/flags.yaml"
"$VITA" render "$W/flags.yaml" -o "$W/flags.pdf" 2>"$W/flags.err"; c=$?
[ $c = 0 ] || no "case 1: flags: render exit $c: $(head -3 "$W/flags.err")"
sanitizer "$W/flags.err" && no "case 1: flags: sanitizer report"
# (drawn where Noto Color Emoji is installed: emoji.sh; else reported)
if fc-list : family | grep -qx 'Noto Color Emoji'; then
	grep -q "U+1F1E8" "$W/flags.err" && no "case 1: the flag is reported missing: $(head -3 "$W/flags.err")"
	pdftotext "$W/flags.pdf" - | grep -q "Born in $(printf '\360\237\207\250\360\237\207\246') Canada" ||
		no "case 1: the flag is not read back"
else
	grep -q "flags.yaml:4:.*warning: no font in chain .* has U+1F1E8" "$W/flags.err" ||
		no "case 1: the missing flag is not reported: $(head -3 "$W/flags.err")"
fi
pdftotext "$W/flags.pdf" - | grep -q 'Born in' || no "case 1: the text around the flags is lost"
"$VITA" check "$W/flags.yaml" 2>/dev/null || no "case 1: check refuses the flags"
cp profiles/zhanda-zhu.yaml "$W/a.yaml"
cp profiles/ziming-liu.yaml "$W/z.yaml"
"$VITA" batch "$W/a.yaml" "$W/flags.yaml" "$W/z.yaml" -d "$W/batch" -j 1 2>"$W/batch.err"; c=$?
[ $c = 0 ] || no "case 1: batch with flags: exit $c: $(tail -3 "$W/batch.err")"
for p in a flags z; do
	[ -s "$W/batch/$p.pdf" ] || no "case 1: batch lost $p.pdf"
done

# case 4: a 340,000-letter title and venue in a BibTeX file
python3 -c "
open('$W/big.bib', 'w').write('@article{k, title={' + 'W' * 340000 + '}, author={A. B}, year={2020}, journal={' + 'm' * 340000 + '}}\\n')"
printf 'name: Big\nsections:\n  - {title: P, type: publications, bibtex: big.bib}\n' >"$W/big.yaml"
"$VITA" render "$W/big.yaml" -o "$W/big.pdf" 2>"$W/big.err"; c=$?
[ $c = 0 ] || no "case 4: huge word: render exit $c: $(grep -v warning "$W/big.err" | head -3)"
sanitizer "$W/big.err" && no "case 4: huge word: sanitizer report: $(grep -m1 'runtime error' "$W/big.err")"
# the BibTeX reader now applies the 64 KB string limit (as YAML does):
# the entry is left out with a located warning, the CV still renders
grep -q "big.bib:1:19: warning: a value longer than 65536 bytes" "$W/big.err" || no "case 4: no string-limit warning"

# case 10: variation selectors
printf 'name: VS\nsections:\n  - {title: T, type: text, text: "x\357\270\217 and I \342\235\244\357\270\217 it \342\230\272\357\270\216"}\n' >"$W/vs.yaml"
printf 'name: VS\nsections:\n  - {title: T, type: text, text: "x\357\270\217 y\363\240\204\200"}\n' >"$W/vs-alone.yaml"
for p in vs vs-alone; do
	"$VITA" render "$W/$p.yaml" -o "$W/$p.pdf" 2>"$W/$p.err"; c=$?
	[ $c = 0 ] || no "case 10: $p: render exit $c"
	grep -q 'U+FE0\|U+E0100' "$W/$p.err" && no "case 10: $p: a variation selector reported missing"
done
pdffonts "$W/vs-alone.pdf" | grep -q DejaVu && no "case 10: a font embedded for variation selectors alone"
# (with Noto Color Emoji: ❤️ in colour, its U+FE0F drawn and read back)
pdftotext "$W/vs.pdf" - | grep -q "and I $(printf '\342\235\244')\($(printf '\357\270\217')\)\{0,1\} it" ||
	no "case 10: the heart is not read back"

# case 29: a face of empty glyphs only
printf 'name: Blank\nsections:\n  - {title: T, type: text, text: "a \342\240\200 \342\240\200\342\240\200 b"}\n' >"$W/blank.yaml"
"$VITA" render "$W/blank.yaml" -o "$W/blank.pdf" 2>"$W/blank.err"; c=$?
[ $c = 0 ] || no "case 29: render exit $c: $(head -3 "$W/blank.err")"
[ -s "$W/blank.err" ] && no "case 29: messages: $(head -3 "$W/blank.err")"
pdffonts "$W/blank.pdf" 2>/dev/null | grep -q '+DejaVuSans  *CID TrueType .* yes yes yes' ||
	no "case 29: DejaVu Sans is not embedded: $(pdffonts "$W/blank.pdf" 2>&1 | tail -n +3)"
pdftotext "$W/blank.pdf" - 2>/dev/null | grep -q "a $(printf '\342\240\200') $(printf '\342\240\200\342\240\200') b" ||
	no "case 29: the blanks are not read back"

# case 28: a word's own hyphen at a line end, read by three extractors
"$VITA" render profiles/zhanda-zhu.yaml -o "$W/zz.pdf" 2>/dev/null || no "case 28: render"
pdftotext "$W/zz.pdf" "$W/zz.poppler.txt"
mutool draw -q -F txt -o "$W/zz.mutool.txt" "$W/zz.pdf" 2>/dev/null
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=txtwrite -sOutputFile=- "$W/zz.pdf" 2>/dev/null | tr -d "\r" | sed "s/^ *//; s/  */ /g" >"$W/zz.gs.txt"
grep -q 'Memory-Parallelism Co-Optimization\|Memory-Parallelism$' "$W/zz.poppler.txt" ||
	no "case 28: pdftotext: $(grep Memory "$W/zz.poppler.txt" | head -1)"
for t in poppler mutool gs; do
	grep -q 'MemoryParallelism' "$W/zz.$t.txt" && no "case 28: $t reads MemoryParallelism"
	grep -q 'Memory-$\|Memory-Parallelism' "$W/zz.$t.txt" || no "case 28: $t lost the hyphen"
	grep -q 'Parallelism Co-Optimization\|^Co-Optimization' "$W/zz.$t.txt" || no "case 28: $t lost the word's end"
done

sh tests/tools/pdf_check.sh "$W/zz.pdf" "$W/flags.pdf" "$W/big.pdf" "$W/vs.pdf" "$W/vs-alone.pdf" "$W/blank.pdf" || no "pdf_check.sh found problems"
echo "text_crashes.sh: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
