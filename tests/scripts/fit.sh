#!/bin/sh
# The fit contract (docs/layouts.md, "Fit"; layout.c fit_search): on CVs
# whose fit tries several steps (generated lengths, gen_batch.py CVs with
# fit.no_short_last or fit.pages, the Japanese and Arabic CVs in compact,
# the golden fit cases), tests/tools/fit_check.py checks with VITA_FIT=scan
# that the step kept fits (at most fit.pages pages; no short last page
# with fit.no_short_last, unless a page came off) or is the fallback its
# warning names, that the step below it was tried and does not fit, that
# every step tried in order finds the same smallest step, and that the
# page list has the pages and the last-page fill the trace says; two runs
# give the same page list and the same trace, and the trace changes
# nothing in the output; a fit lays out at most 8 attempts (step 0, at
# most 6 steps of the search, the kept one built again), where trying the
# steps in order took up to 12.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/fit
rm -rf "$W"; mkdir -p "$W/in"
fail=0
no() { echo "FAIL: $*"; fail=1; }
export SOURCE_DATE_EPOCH=1767225600

for n in 2 16 30 45; do python3 tests/tools/gen_long.py $n > "$W/in/long-$n.yaml"; done
python3 tests/tools/gen_batch.py 100 "$W/batch" >/dev/null || no "gen_batch.py"
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$W/scripts" "ja ar" >/dev/null || no "gen_scripts.py"

# name | profile | layout | fit.pages | fit.no_short_last | more --set
cases="long-2|$W/in/long-2.yaml|compact|0|1|
long-16|$W/in/long-16.yaml|compact|0|1|
long-30|$W/in/long-30.yaml|compact|0|1|
long-45|$W/in/long-45.yaml|compact|0|1|
long-2-pages2|$W/in/long-2.yaml|academic|2|0|
cv-023|$W/batch/cv-023.yaml|compact|0|1|
cv-039|$W/batch/cv-039.yaml|modern|0|1|
cv-058|$W/batch/cv-058.yaml|modern|0|1|
cv-065|$W/batch/cv-065.yaml|compact|0|1|
cv-071-pages1|$W/batch/cv-071.yaml|compact|1|0|
cv-083-pages1|$W/batch/cv-083.yaml|academic|1|0|
cv-086|$W/batch/cv-086.yaml|compact|0|1|
cv-097|$W/batch/cv-097.yaml|compact|0|1|
cv-020-pages1|$W/batch/cv-020.yaml|academic|1|0|
ja|$W/scripts/ja.yaml|compact|0|1|
ar|$W/scripts/ar.yaml|compact|0|1|
zhanda-zhu|profiles/zhanda-zhu.yaml|compact|0|1|
fit-late|tests/golden/layout/fit-late.yaml|academic|0|1|
fit-none|tests/golden/layout/fit-none.yaml|academic|0|1|
fit-pages|tests/golden/layout/fit-pages.yaml|academic|1|0|"
searched=0
printf '%s\n' "$cases" > "$W/cases"
while IFS='|' read -r name p lay pages short more; do
	set -- "$p" -l "$lay" --dump=layout
	[ "$pages" = 0 ] || set -- "$@" --set fit.pages="$pages"
	[ "$short" = 0 ] || set -- "$@" --set fit.no_short_last=true
	VITA_FIT=scan "$VITA" render "$@" > "$W/$name.layout" 2> "$W/$name.trace" ||
		{ no "$name: exit $?"; cat "$W/$name.trace"; continue; }
	VITA_FIT=scan "$VITA" render "$@" > "$W/$name.2.layout" 2> "$W/$name.2.trace"
	cmp -s "$W/$name.layout" "$W/$name.2.layout" || no "$name: two runs, two page lists"
	cmp -s "$W/$name.trace" "$W/$name.2.trace" || no "$name: two runs, two searches"
	"$VITA" render "$@" > "$W/$name.3.layout" 2>/dev/null
	cmp -s "$W/$name.layout" "$W/$name.3.layout" || no "$name: VITA_FIT=scan changes the page list"
	python3 tests/tools/fit_check.py "$W/$name.layout" "$W/$name.trace" "$pages" "$short" \
		$(python3 tests/tools/layout_margins.py --vertical "$lay" "$p") || no "$name: the fit contract (above)"
	tried=$(grep -c '^vita: fit: step [0-9]* \(measured\|built\):' "$W/$name.trace")
	again=$(grep -c 'built again in full' "$W/$name.trace")
	[ "$tried" -le 7 ] && [ "$again" -le 1 ] || no "$name: $tried steps tried and $again built again"
	[ "$tried" -gt 1 ] && searched=$((searched + 1))
done < "$W/cases"
# the corpus does exercise the search (not only step 0)
[ "$searched" -ge 15 ] || no "only $searched of the cases searched past step 0"

# a trace that breaks the contract is caught (the checker can fail)
sed 's/^\(vita: fit: step 9 measured: [0-9]* pages, last page [0-9]* pt:\) not ok/\1 ok/' "$W/ja.trace" > "$W/bad.trace"
cmp -s "$W/ja.trace" "$W/bad.trace" && no "ja: the search no longer tries step 9 (the test needs a new mutation)"
python3 tests/tools/fit_check.py "$W/ja.layout" "$W/bad.trace" 0 1 $(python3 tests/tools/layout_margins.py --vertical compact) >/dev/null &&
	no "fit_check.py accepts a kept step whose step below fits"
exit $fail
