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
# Files with the same bytes are read once (when one is complained about,
# each of the others is named: "the same bytes as FILE"), and with
# PDF_CHECK_JOBS=N the distinct files are split into N shares of about the
# same size, checked side by side.
# pdf.js lives in tests/tools/pdfjs (npm ci there; `make test` does it).
set -u
here=$(dirname "$0")
[ $# -gt 0 ] || { echo "usage: pdf_check.sh FILE..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${PDF_CHECK_PART:-}" ]; then
	# FILE per line; the distinct ones (the first of each content) in
	# $tmp/uniq, "FILE FIRST" for the others in $tmp/dups
	for f; do echo "$f"; done >"$tmp/all"
	# shellcheck disable=SC2046
	{ sha256sum $(for f; do [ -s "$f" ] && echo "$f"; done) 2>/dev/null; } |
		awk '{h = $1; f = substr($0, 67); if (h in first) print f, first[h]; else first[h] = f}' >"$tmp/dups"
	awk 'FILENAME == ARGV[1] {dup[$1] = 1; next} !($0 in dup)' "$tmp/dups" "$tmp/all" >"$tmp/uniq"
	jobs=${PDF_CHECK_JOBS:-1}
	# the biggest first, each to the share with the fewest bytes so far
	while read -r f; do echo "$(stat -c %s "$f" 2>/dev/null || echo 0) $f"; done <"$tmp/uniq" |
		sort -rn | awk -v n="$jobs" -v dir="$tmp" '{b = 1; for (i = 2; i <= n; i++) if (sz[i] < sz[b]) b = i;
			sz[b] += $1; print $2 > (dir "/part" b)}'
	st=0 pids=
	for p in "$tmp"/part*; do
		# shellcheck disable=SC2046
		PDF_CHECK_PART=1 sh "$0" $(cat "$p") 2>"$p.err" &
		pids="$pids $!"
	done
	for p in $pids; do wait "$p" || st=1; done
	cat "$tmp"/part*.err >"$tmp/err"
	cat "$tmp/err" >&2
	# a file with the same bytes as one complained about is named too
	awk 'FILENAME == ARGV[1] {bad[substr($0, 1, index($0, ": ") - 1)] = 1; next}
		$2 in bad {print $1 ": pdf_check: the same bytes as " $2 " (above)"}' "$tmp/err" "$tmp/dups" >&2
	exit $st
fi
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
