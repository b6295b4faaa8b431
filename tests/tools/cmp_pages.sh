#!/bin/sh
# cmp_pages.sh A B: whether the PDFs of two tests/tools/outs.sh output
# directories (NAME.pdf, NAME.plain.pdf, NAME.layout, NAME.txt) look and
# read the same where their bytes may differ (a new font subsetter, new
# deflate settings): every page rendered at 100 dpi by pdftoppm (poppler),
# mutool (MuPDF) and gs (Ghostscript; skipped with NO_GS=1) to raw pixels
# and compared byte for byte, pdftotext of both PDFs, the layout dumps.
# Prints each difference, then the totals and the summed PDF sizes; exits
# 1 when anything differs. Slow (a minute or more for 300 PDFs): a tool to
# run by hand, not a test.
set -u
A=$1; B=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/cmp_pages-XXXXXX")
trap 'rm -rf "$T"' EXIT
pdfs=0; same=0; differ=0; sa=0; sb=0
render() { # render TOOL PDF DIR
	mkdir -p "$3"
	case $1 in
	poppler) pdftoppm -r 100 "$2" "$3/p" ;;
	mupdf) mutool draw -q -r 100 -o "$3/p%03d.pnm" "$2" ;;
	gs) gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=ppmraw -r100 -sOutputFile="$3/p%03d.ppm" "$2" ;;
	esac >/dev/null 2>&1
}
for fa in "$A"/*.pdf; do
	n=$(basename "$fa"); fb=$B/$n
	pdfs=$((pdfs + 1))
	if [ ! -f "$fb" ]; then echo "missing: $n"; differ=$((differ + 1)); continue; fi
	sa=$((sa + $(wc -c < "$fa"))); sb=$((sb + $(wc -c < "$fb")))
	bad=
	if cmp -s "$fa" "$fb"; then same=$((same + 1)); continue; fi
	pdftotext -layout "$fa" "$T/a.txt" 2>/dev/null; pdftotext -layout "$fb" "$T/b.txt" 2>/dev/null
	cmp -s "$T/a.txt" "$T/b.txt" || bad="$bad text"
	tools="poppler mupdf"
	[ "${NO_GS:-}" = 1 ] || tools="$tools gs"
	for t in $tools; do
		rm -rf "$T/a" "$T/b"
		render $t "$fa" "$T/a"; render $t "$fb" "$T/b"
		[ -n "$(ls "$T/a")" ] || bad="$bad $t-no-pages"
		diff -rq "$T/a" "$T/b" >/dev/null || bad="$bad $t-pixels"
	done
	if [ -n "$bad" ]; then echo "differs: $n:$bad"; differ=$((differ + 1)); else same=$((same + 1)); fi
done
for f in "$A"/*.layout "$A"/*.txt; do
	[ -f "$f" ] || continue
	cmp -s "$f" "$B/$(basename "$f")" || { echo "differs: $(basename "$f")"; differ=$((differ + 1)); }
done
echo "PDFs: $pdfs, same look and text: $same, differ: $differ; bytes: $sa -> $sb"
[ $differ = 0 ]
