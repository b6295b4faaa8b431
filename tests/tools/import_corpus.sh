#!/bin/sh
# The import corpus (tests/import/, see its README): every file renders
# and nothing a user wrote is lost. tests/tools/import_strings.py walks each
# input and counts the human-visible strings found in the PDF's text or in
# a located "ignored" warning; the figures are printed per file and in
# total, and a file below its floor (IMPORT_MIN, default all) fails.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/import-corpus
mkdir -p "$OUT"
fail=0
tot=0
got=0
for f in tests/import/rendercv/*.yaml tests/import/jsonresume/*.json \
         tests/import/alfolio/_data/cv.yml tests/import/alfolio/assets/json/resume.json \
         tests/import/alfolio/papers.yaml tests/import/academicpages/_data/cv.json \
         tests/import/bib/*.yaml; do
	n=$(echo "$f" | tr '/' '_')
	SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$f" -o "$OUT/$n.pdf" 2>"$OUT/$n.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: $f: render exit $rc"; head -5 "$OUT/$n.err"; fail=1
		: > "$OUT/$n.txt"
	else
		pdftotext -enc UTF-8 "$OUT/$n.pdf" "$OUT/$n.txt"
	fi
	r=$(python3 tests/tools/import_strings.py "$f" "$OUT/$n.txt" "$OUT/$n.err")
	echo "$r" | grep '^lost' | head -${IMPORT_SHOW:-5}
	fig=$(echo "$r" | tail -1)
	echo "$f: $fig"
	a=${fig%%/*}; b=${fig#*/}; b=${b%% *}
	got=$((got + a)); tot=$((tot + b))
	[ "$a" -eq "$b" ] || [ -n "${IMPORT_LENIENT:-}" ] || fail=1
done
echo "corpus: $got/$tot strings"
exit $fail
