#!/bin/sh
# pdf_check_builds.sh BUILD...: `make pdf-check`. Every PDF the tests left
# in the BUILD directories goes through pdf_check.sh in one run (a file
# with the same bytes in two builds is read once; PDF_CHECK_JOBS shares
# side by side). One test per build: BUILD/t/pdf_check.ok or .fail, and
# "ok   tests/tools/pdf_check.sh (N PDFs, BUILD)" or FAIL and the first
# complaints; BUILD/pdf_check.log holds the complaints about its files and
# any that name no file (those fail every build).
set -u
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for b; do
	mkdir -p "$b/t"
	rm -f "$b/t/pdf_check.ok" "$b/t/pdf_check.fail" "$b/t/pdf_check.time"
	find "$b" -name '*.pdf' -type f | sort >"$tmp/$(echo "$b" | tr / _)"
done
all=$(cat "$tmp"/*)
rc=0
if [ -n "$all" ]; then
	# shellcheck disable=SC2086
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S %e' -o "$tmp/rusage" sh "$here/pdf_check.sh" $all >"$tmp/out" 2>&1 || rc=1
		tail -1 "$tmp/rusage" | awk '{printf "%.2f %.2f\n", $1 + $2, $3}' >"$1/t/pdf_check.time"
	else
		sh "$here/pdf_check.sh" $all >"$tmp/out" 2>&1 || rc=1
	fi
fi
# the lines that begin with none of the builds' files
for b; do printf '%s/\n' "$b"; done >"$tmp/prefixes"
awk 'FILENAME == ARGV[1] {p[++n] = $0; next}
	{for (i = 1; i <= n; i++) if (index($0, p[i]) == 1) next; print}' "$tmp/prefixes" "$tmp/out" >"$tmp/general"
st=0
for b; do
	list=$tmp/$(echo "$b" | tr / _)
	n=$(grep -c . "$list")
	{ grep -F "$b/" "$tmp/out" | awk -v p="$b/" 'index($0, p) == 1'; cat "$tmp/general"; } >"$b/pdf_check.log"
	if [ "$n" -gt 0 ] && { [ $rc = 0 ] || ! [ -s "$b/pdf_check.log" ]; }; then
		echo "ok   tests/tools/pdf_check.sh ($n PDFs, $b)"
		: >"$b/t/pdf_check.ok"
	else
		[ "$n" -gt 0 ] || echo "no PDF in $b" >>"$b/pdf_check.log"
		echo "FAIL tests/tools/pdf_check.sh ($b; log: $b/pdf_check.log)"
		head -40 "$b/pdf_check.log"
		: >"$b/t/pdf_check.fail"
		st=1
	fi
done
exit $st
