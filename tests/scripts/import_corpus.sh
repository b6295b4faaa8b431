#!/bin/sh
# The import corpus (tests/import/, see its README): every file renders
# and nothing a user wrote is lost. tests/tools/import_strings.py walks each
# input and counts the human-visible strings found in the PDF's text or in
# a located "ignored" warning; the figures are printed per file and in
# total. Fails when a file does not render (al-folio's _data/cv.yml is not
# read yet and is only counted) or the total falls below IMPORT_FLOOR.
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
		echo "FAIL: $f: render exit $rc"; head -5 "$OUT/$n.err"
		case $f in */_data/cv.yml) ;; *) fail=1 ;; esac
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
done
echo "corpus: $got/$tot strings"
[ "$got" -ge "${IMPORT_FLOOR:-1110}" ] || { echo "FAIL: below the floor of ${IMPORT_FLOOR:-1110} strings"; fail=1; }
exit $fail
