#!/bin/sh
# outs_cmp.sh A B [IGNORE]: what differs between two tests/tools/outs.sh
# output directories (two builds on the same inputs), file by file:
#   - NAME.layout, NAME.txt, NAME.mtxt, NAME.pjtxt (pdftotext, mutool,
#     pdf.js): byte for byte
#   - NAME.err (warnings and the exit code): byte for byte once the
#     directories themselves (A, B) and the two binaries' trees (the
#     layouts' paths in warnings) are replaced by one word
#   - NAME.pdf, NAME.plain.pdf: byte for byte, else after qpdf --qdf
#     (objects renumbered in one order, streams uncompressed, object
#     streams expanded), without the lines that follow from any change
#     (xref offsets, /ID, stream lengths); lines matching the extended
#     regex IGNORE (e.g. 'Producer') are left out too
# Prints each file that still differs with its first differing lines and
# the totals; exits 1 if any differs. A tool to run by hand (after a
# landing: did the outputs change only as its commit says?), not a test.
# ROOTS="dir1 dir2" names the two binaries' trees when they are not the
# parents of the directories the warnings name (default: any
# /.../layouts/ prefix is reduced to layouts/).
set -u
A=$1; B=$2; IGN=${3:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/outs_cmp-XXXXXX")
trap 'rm -rf "$T"' EXIT
same=0; norm=0; differ=0
norm_err() { # FILE DIR
	sed "s,$2/,OUT/,g; s,/[^ :]*/\\(layouts\\|fonts\\|locales\\)/,\\1/,g" "$1"
}
norm_pdf() { # PDF OUT
	qpdf --qdf --object-streams=disable --static-id "$1" "$T/q.pdf" 2>/dev/null
	LC_ALL=C grep -a -v -E '^[0-9]{10} [0-9]{5} [fn] ?$|^ */ID \[|^[0-9]+$' "$T/q.pdf" |
		if [ -n "$IGN" ]; then LC_ALL=C grep -a -v -E "$IGN"; else cat; fi > "$2"
}
for fa in "$A"/*; do
	n=$(basename "$fa"); fb=$B/$n
	case $n in *.pdf|*.layout|*.txt|*.mtxt|*.pjtxt|*.err) ;; *) continue ;; esac
	if [ ! -f "$fb" ]; then echo "missing in B: $n"; differ=$((differ + 1)); continue; fi
	if cmp -s "$fa" "$fb"; then same=$((same + 1)); continue; fi
	case $n in
	*.err)
		norm_err "$fa" "$A" > "$T/a"; norm_err "$fb" "$B" > "$T/b" ;;
	*.pdf)
		norm_pdf "$fa" "$T/a"; norm_pdf "$fb" "$T/b" ;;
	*)
		echo "differs: $n"; diff "$fa" "$fb" | head -6; differ=$((differ + 1)); continue ;;
	esac
	if cmp -s "$T/a" "$T/b"; then
		norm=$((norm + 1))
	else
		echo "differs: $n"; diff -a "$T/a" "$T/b" | cut -c1-160 | head -8
		differ=$((differ + 1))
	fi
done
for fb in "$B"/*; do
	n=$(basename "$fb")
	case $n in *.pdf|*.layout|*.txt|*.mtxt|*.pjtxt|*.err) ;; *) continue ;; esac
	[ -f "$A/$n" ] || { echo "new in B: $n"; }
done
echo "files: identical $same, the same once normalised${IGN:+ (ignoring /$IGN/)} $norm, differ $differ"
[ $differ = 0 ]
