#!/bin/sh
# Typography on real input: for the seed profiles and the focused cases,
# no run outside the margins, no CJK line starting with closing (or ending
# with opening) punctuation, no section title alone at the bottom of a
# page; and the multi-script sample extracts the same through pdftotext,
# mutool and Ghostscript. Rendering the seeds gives no warnings at all
# (no missing characters, no overfull or loose lines).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/typo
rm -rf "$W"; mkdir -p "$W"
export SOURCE_DATE_EPOCH=1767225600
fail=0
no() { echo "FAIL: $*"; fail=1; }
for p in profiles/*.yaml tests/golden/layout/*.yaml; do
	n=$(basename "$p" .yaml)
	"$VITA" render "$p" --dump=layout > "$W/$n.layout" 2> "$W/$n.err" || no "$p: dump failed"
	python3 tests/tools/dump_check.py "$W/$n.layout" 54000 $((595276 - 54000)) || no "$p: typography"
done
for p in profiles/*.yaml; do
	n=$(basename "$p" .yaml)
	[ -s "$W/$n.err" ] && { no "$p: warnings:"; cat "$W/$n.err"; }
done

# the same text through three extractors
"$VITA" render tests/golden/layout/cjk.yaml -o "$W/cjk.pdf" 2>/dev/null || no "cjk render"
# (the two footer lines may come out in either order: leave them out)
flat() { tr -d ' \n\r\t\f' | sed 's/UpdatedJan\.2026//; s/HarukaYamamoto—page1of1//'; }
pdftotext -enc UTF-8 "$W/cjk.pdf" - | flat > "$W/a.txt"
mutool draw -q -F txt -o - "$W/cjk.pdf" 2>/dev/null | flat > "$W/b.txt"
gs -q -dNOPAUSE -dBATCH -sDEVICE=txtwrite -sOutputFile=- "$W/cjk.pdf" 2>/dev/null | flat > "$W/c.txt"
for w in 山本遥 研究概要 「効率」と「精度」 我的研究方向是机器学习系统 김민준 Müller Ñandú Łukasz Dvořák Ελληνικά Русский; do
	for f in a b c; do
		grep -qF "$w" "$W/$f.txt" || no "extractor $f lost '$w'"
	done
done
cmp -s "$W/a.txt" "$W/b.txt" || no "pdftotext and mutool disagree"
cmp -s "$W/a.txt" "$W/c.txt" || no "pdftotext and Ghostscript disagree"
# hyphenated words extract whole where the PDF allows it (/ActualText)
"$VITA" render tests/golden/layout/hyphen.yaml -o "$W/hyphen.pdf" 2>/dev/null || no "hyphen render"
grep -q 'actual=' "$W/hyphen.layout" || no "hyphen.yaml: no hyphenated word (the test needs one)"
pdftotext -enc UTF-8 "$W/hyphen.pdf" - > "$W/hyphen.txt"
for word in characterisation necessitates notwithstanding measurements; do
	grep -q "$word" "$W/hyphen.txt" || no "pdftotext does not read '$word' whole"
done
grep -q -- '-$' "$W/hyphen.txt" && no "pdftotext still reads a drawn hyphen"
exit $fail
