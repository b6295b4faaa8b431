#!/bin/sh
# outs.sh VITA OUTDIR: render a broad fixed set of inputs with VITA (run from a
# vita tree: the inputs are taken from the current directory) into OUTDIR:
# PDFs (tagged and plain), --dump=layout, pdftotext's and mutool's text for
# each, pdf.js's text of the tagged ones (NAME.pjtxt, when tests/tools/pdfjs
# is installed).
# Compare two builds: sh tests/tools/outs.sh OLD-vita DIR-A; sh tests/tools/outs.sh build/vita DIR-B
#   then cmp -s file by file, or tests/tools/cmp_pages.sh DIR-A DIR-B (pixels, text, dumps)
set -u
V=$(readlink -f "$1"); O=$2
rm -rf "$O"; mkdir -p "$O/in"
export SOURCE_DATE_EPOCH=1767225600
python3 tests/tools/gen_long.py 250 > "$O/in/long-250.yaml"
python3 tests/tools/gen_batch.py 24 "$O/in/batch" >/dev/null
# one CV per script (Arabic, Hebrew, Persian, Korean, Devanagari, Thai, ...)
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$O/in/scripts" "$("$V" locales | awk '{print $1}')" >/dev/null
one() { # name args...
	n=$1; shift
	"$V" render "$@" -o "$O/$n.pdf" 2>"$O/$n.err"; echo "rc=$?" >> "$O/$n.err"
	"$V" render "$@" --pdf=plain -o "$O/$n.plain.pdf" 2>/dev/null
	"$V" render "$@" --dump=layout > "$O/$n.layout" 2>/dev/null
	pdftotext -layout "$O/$n.pdf" "$O/$n.txt" 2>/dev/null
	# a second extractor (MuPDF): RTL text and ActualText are read differently
	command -v mutool >/dev/null && mutool draw -q -F txt -o "$O/$n.mtxt" "$O/$n.pdf" 2>/dev/null
}
for p in profiles/zhanda-zhu.yaml profiles/ziming-liu.yaml; do
	b=$(basename $p .yaml)
	for l in academic classic modern compact sidebar; do one "$b-$l" "$p" -l $l; done
	for g in zh zh-Hant ja ko de fr ar fa he hi th; do one "$b-$g" "$p" --lang $g; done
done
for p in tests/cjk/*.yaml tests/bidi/*.yaml tests/shape/*.yaml tests/bench/hyphen.yaml examples/cv.yaml "$O/in/long-250.yaml" "$O/in/batch/"*.yaml \
	"$O/in/scripts/"*.yaml; do
	[ -f "$p" ] || continue
	one "$(basename $(dirname $p))-$(basename $p .yaml)" "$p"
done
for p in tests/import/*.yaml tests/import/*.json tests/import/*/*; do
	[ -f "$p" ] || continue
	case $p in *.md|*.png|*.jpg|*LICENSE*) continue;; esac
	one "imp-$(echo $p | tr / _)" "$p"
done
# the script CVs in the layout that fits (compact: several layouts built)
for p in "$O/in/scripts/"*.yaml; do one "scripts-$(basename $p .yaml)-compact" "$p" -l compact; done
# pdf.js's text of the tagged PDFs (one node process; when installed: npm ci --prefix tests/tools/pdfjs)
if command -v node >/dev/null && [ -d tests/tools/pdfjs/node_modules/pdfjs-dist ]; then
	ls "$O"/*.pdf | grep -v '\.plain\.pdf$' | xargs node tests/tools/pdfjs/text.mjs "$O"
fi
ls "$O"/*.pdf | wc -l
