#!/bin/sh
# End to end: render the bundled profiles and check the PDFs with the tools
# an applicant-tracking system or a reader would use.
#  - exit 0, qpdf --check passes, every font embedded and subset (pdffonts)
#  - pdftotext returns every string of the profile (native name included)
#  - no run outside the margins (from --dump=layout)
#  - the same render twice with SOURCE_DATE_EPOCH gives identical bytes
#  - a failed render leaves an existing PDF untouched
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/e2e
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
# (typographic punctuation, locale_smart, compares as ASCII)
norm() { tr -d ' \n\t\f\r-' | sed "s/–//g; s/—//g; s/\xc2\xad//g; s/’/'/g; s/‘/'/g; s/“/\"/g; s/”/\"/g; s/…/.../g"; }

for p in profiles/*.yaml; do
	n=$(basename "$p" .yaml)
	pdf=$OUT/$n.pdf
	SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$p" -o "$pdf" 2>"$OUT/$n.err" || no "$p: render exit $?"
	[ -s "$pdf" ] || { no "$p: no PDF"; continue; }
	qpdf --check "$pdf" >/dev/null 2>&1 || no "$p: qpdf --check"
	pdffonts "$pdf" | tail -n +3 | awk '$(NF-4) != "yes" || $(NF-3) != "yes" {print}' | grep . && no "$p: a font is not embedded+subset"
	pdftotext -enc UTF-8 "$pdf" - | norm > "$OUT/$n.txt"
	python3 tests/tools/profile_strings.py "$p" | while IFS= read -r s; do
		k=$(printf '%s' "$s" | norm)
		grep -qF -- "$k" "$OUT/$n.txt" || echo "missing: $s"
	done > "$OUT/$n.missing"
	[ -s "$OUT/$n.missing" ] && { no "$p: strings missing from pdftotext:"; cat "$OUT/$n.missing"; }
	# margins: every run inside [left, page width - right]
	"$VITA" render "$p" --dump=layout > "$OUT/$n.layout" || no "$p: dump"
	awk -v L=54000 -v R=$((595276 - 54000)) '
		/^run / { for (i = 2; i <= 4; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		          if (v["x"] < L - 1 || v["x"] + v["w"] > R + 1) { print "outside: " $0; bad = 1 } }
		END { exit bad }' "$OUT/$n.layout" || no "$p: text outside the margins"
	SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$p" -o "$OUT/$n.again.pdf" 2>/dev/null
	cmp -s "$pdf" "$OUT/$n.again.pdf" || no "$p: two renders differ"
done

# the native name is in the text and in the Author field
pdftotext -enc UTF-8 "$OUT/zhanda-zhu.pdf" - | grep -q '朱展达' || no "native name not extracted"
pdfinfo "$OUT/zhanda-zhu.pdf" | grep -q 'Author: *Zhanda Zhu (朱展达)' || no "Author lacks the native name"

# a failed render leaves an existing PDF untouched
cp "$OUT/zhanda-zhu.pdf" "$OUT/keep.pdf"
printf 'name: X\nsections: 3\n' > "$OUT/bad.yaml"
"$VITA" render "$OUT/bad.yaml" -o "$OUT/keep.pdf" 2>/dev/null
[ $? -eq 1 ] || no "bad profile: exit is not 1"
cmp -s "$OUT/zhanda-zhu.pdf" "$OUT/keep.pdf" || no "failed render touched the existing PDF"

# -o - writes the PDF to stdout
"$VITA" render profiles/zhanda-zhu.yaml -o - 2>/dev/null | head -c 5 | grep -q '%PDF-' || no "-o - does not write a PDF to stdout"

# an unwritable output is exit 3
"$VITA" render profiles/zhanda-zhu.yaml -o /nonexistent-dir/x.pdf 2>/dev/null
[ $? -eq 3 ] || no "unwritable output: exit is not 3"
exit $fail
