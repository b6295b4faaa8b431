#!/bin/sh
# fit_cases.sh VITA OUTDIR: render the CVs whose layout fits itself
# (fit.no_short_last, fit.pages) with VITA (run from a vita tree) into
# OUTDIR: NAME.pdf, and NAME.err (standard error with VITA_FIT=trace: the
# steps tried and kept, the warnings; the exit code). 720 cases, 290 of
# which search past step 0 (main d5e288b): gen_batch.py's 100 CVs in
# compact, academic with fit.no_short_last or fit.pages: 1, sidebar and
# classic with fit.no_short_last, modern with fit.pages: 1; every
# gen_scripts.py CV (every language `vita locales` lists), the profiles,
# tests/cjk and gen_long.py's lengths in compact, sidebar and modern; the
# golden fit cases. For a change to the fit or to what its attempts
# share (layout.c, inline.c's memo): two builds on the same inputs, then
#   sh tests/tools/outs_cmp.sh DIR-A DIR-B
# (the PDFs byte for byte; the traces show any change in the steps tried).
# A tool to run by hand, not a test.
set -u
V=$(readlink -f "$1"); O=$2
rm -rf "$O"; mkdir -p "$O/in"
export SOURCE_DATE_EPOCH=1767225600
python3 tests/tools/gen_batch.py 100 "$O/in/batch" >/dev/null
for n in 2 16 30 45; do python3 tests/tools/gen_long.py $n > "$O/in/long-$n.yaml"; done
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$O/in/scripts" \
	"$("$V" locales | awk '{print $1}')" >/dev/null
one() { # name args...
	n=$1; shift
	VITA_FIT=trace "$V" render "$@" -o "$O/$n.pdf" 2>"$O/$n.err"; echo "rc=$?" >> "$O/$n.err"
}
short=fit.no_short_last=true
for f in "$O"/in/batch/*.yaml; do
	b=$(basename "$f" .yaml)
	one "$b-compact" "$f" -l compact
	one "$b-academic-short" "$f" -l academic --set $short
	one "$b-academic-pages1" "$f" -l academic --set fit.pages=1
	one "$b-sidebar-short" "$f" -l sidebar --set $short
	one "$b-classic-short" "$f" -l classic --set $short
	one "$b-modern-pages1" "$f" -l modern --set fit.pages=1
done
for f in "$O"/in/long-*.yaml "$O"/in/scripts/*.yaml profiles/*.yaml tests/cjk/*.yaml; do
	b=$(basename "$f" .yaml)
	one "$b-compact" "$f" -l compact
	one "$b-sidebar-short" "$f" -l sidebar --set $short
	one "$b-modern-pages1" "$f" -l modern --set fit.pages=1
done
for f in tests/golden/layout/fit-*.yaml; do
	b=$(basename "$f" .yaml)
	one "$b-short" "$f" -l academic --set $short
	one "$b-pages1" "$f" -l academic --set fit.pages=1
done
echo "$(ls "$O"/*.pdf | wc -l) cases, $(grep -l 'fit: from' "$O"/*.err | wc -l) searched past step 0"
