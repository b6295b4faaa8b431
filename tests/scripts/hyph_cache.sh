#!/bin/sh
# The compiled hyphenation patterns (hyph.c, hyph_de.dic.hyc in the
# cache) for a German CV that hyphenates (tests/bench/hyphen.yaml with
# lang: de): without the cache, with a cold one and a warm one the PDFs
# are byte-identical (and not that of text.hyphenate=false), and the warm
# render reads the file by blocks, some but not all of them, and never
# maps it (VITA_HYPH_REPORT: a mapped file that vita wrote itself costs
# its large page-cache folios whole in resident memory).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/hyph_cache
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
export SOURCE_DATE_EPOCH=1767225600
XDG_CACHE_HOME=$(cd "$W" && pwd)/cache; export XDG_CACHE_HOME
C=$XDG_CACHE_HOME/vita/hyph_de.dic.hyc
P=$W/de.yaml
{ echo "lang: de"; cat tests/bench/hyphen.yaml; } > "$P"
VITA_NO_HYPH_CACHE=1 "$VITA" render "$P" -o "$W/none.pdf" 2>/dev/null || no "render without the cache"
[ -f "$C" ] && no "VITA_NO_HYPH_CACHE=1 wrote $C"
"$VITA" render "$P" -o "$W/cold.pdf" 2>/dev/null || no "render, cold cache"
[ -s "$C" ] || no "no $C after a render"
VITA_HYPH_REPORT=$W/report "$VITA" render "$P" -o "$W/warm.pdf" 2>/dev/null || no "render, warm cache"
cmp -s "$W/none.pdf" "$W/cold.pdf" || no "cold cache: a different PDF"
cmp -s "$W/none.pdf" "$W/warm.pdf" || no "warm cache: a different PDF"
# "hyph_de.dic.hyc blocks N of M maps 0"
r=$(cat "$W/report" 2>/dev/null)
set -- $r
if [ $# -ne 7 ] || [ "$1" != hyph_de.dic.hyc ]; then
	no "warm render: report '$r', want one line for hyph_de.dic.hyc"
else
	[ "$3" -gt 8 ] && [ "$3" -lt "$5" ] || no "warm render read $3 of $5 blocks of $C"
	[ "$7" = 0 ] || no "warm render: $7 mappings of a .hyc file (want none: read by blocks)"
fi
# the German words were hyphenated: without hyphenation the PDF differs
"$VITA" render "$P" --set text.hyphenate=false -o "$W/off.pdf" 2>/dev/null ||
	no "render, text.hyphenate=false"
cmp -s "$W/off.pdf" "$W/warm.pdf" && no "lang: de gave the PDF of no hyphenation"
[ $fail = 0 ] && echo "hyph_cache: ok"
exit $fail
