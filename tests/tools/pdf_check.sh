#!/bin/sh
# pdf_check.sh FILE...: every PDF the test suite makes goes through here.
# Each file must be read without a single warning by six readers:
#   qpdf --check, mutool draw (rasterised at 36 dpi), Ghostscript (nullpage),
#   pdftotext (poppler), pikepdf (pdf_check_pikepdf.py: structure, every
#   stream decoded, every content stream parsed) and pdf.js (pdfjs/check.mjs:
#   every page's operators and text, fonts and images parsed on the way);
#   and, for a file that is tagged or claims PDF/UA or PDF/A, the PDF/UA-1
#   and PDF/A-2 conditions of pdfua_check.py.
# Prints "FILE: TOOL: MESSAGE" for each complaint; exit 1 if any.
# Batched for speed: one Ghostscript, one python and one node process for
# all the files (Ghostscript is re-run per file only to name a culprit).
# pdf.js lives in tests/tools/pdfjs (npm ci there; `make test` does it).
set -u
here=$(dirname "$0")
[ $# -gt 0 ] || { echo "usage: pdf_check.sh FILE..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { # FILE TOOL < messages (runs in a pipeline's subshell: flag in a file)
	while IFS= read -r line; do
		echo "$1: $2: $line" >&2
		echo x >>"$tmp/bad"
	done
}
ok=""
for f; do
	if [ ! -s "$f" ]; then
		echo "missing or empty" | say "$f" pdf_check
		continue
	fi
	ok="$ok $f"
	qpdf --check "$f" >"$tmp/q" 2>&1
	rc=$?
	if [ $rc != 0 ] || grep -qi warning "$tmp/q"; then
		grep -v -e '^checking ' -e '^PDF Version' -e '^File is not' -e '^No syntax' \
			-e '^errors that qpdf cannot detect' "$tmp/q" | sed "s/^/exit $rc: /" | say "$f" qpdf
	fi
	# this mutool is built without lcms2: that notice is not about the file
	mutool draw -q -r 36 -F pam -o /dev/null "$f" 2>&1 |
		grep -v '^warning: ICC support is not available$' | say "$f" mutool
	pdftotext "$f" /dev/null 2>&1 | say "$f" pdftotext
done
[ -n "$ok" ] || exit 1
# Ghostscript repairs quietly under -q: read its full chatter instead, less
# the banner and the page counter (a font it loads is one not embedded)
gs_run() {
	gs -dNOPAUSE -dBATCH -dSAFER -sDEVICE=nullpage "$@" 2>&1 </dev/null |
		grep -v -e '^GPL Ghostscript' -e '^Copyright (C)' -e '^This software is supplied' \
			-e '^see the file COPYING' -e '^Processing pages' -e '^Page [0-9]*$'
}
# shellcheck disable=SC2086
if [ -n "$(gs_run $ok)" ]; then
	for f in $ok; do
		gs_run "$f" | say "$f" gs
	done
fi
# shellcheck disable=SC2086
/usr/bin/python3 "$here/pdf_check_pikepdf.py" $ok 2>&1 | sed 's/^/pikepdf\t/' >"$tmp/p"
# PDF/UA-1 and PDF/A-2, for every file that claims them or is tagged
# shellcheck disable=SC2086
/usr/bin/python3 "$here/pdfua_check.py" $ok 2>&1 | sed 's/^/pdfua\t/' >>"$tmp/p"
# shellcheck disable=SC2086
if [ -f "$here/pdfjs/node_modules/pdfjs-dist/package.json" ]; then
	node "$here/pdfjs/check.mjs" $ok 2>&1 | sed 's/^/pdfjs\t/' >>"$tmp/p"
elif [ "${PDFJS_REQUIRED:-0}" = 1 ]; then
	echo "pdfjs	$here/pdfjs: pdf.js is not installed (run: npm ci --prefix $here/pdfjs)" >>"$tmp/p"
fi
# (without PDFJS_REQUIRED=1 a missing pdf.js is skipped: `make check` runs
# offline, as in a package build; `make test` fetches pdf.js and requires it)
if [ -s "$tmp/p" ]; then
	cut -f2- "$tmp/p" >&2
	fail=1
fi
[ -s "$tmp/bad" ] && fail=1
exit $fail
