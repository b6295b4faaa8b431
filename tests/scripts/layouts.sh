#!/bin/sh
# Layouts: docs/layouts.md is generated from the key table (so it cannot
# drift from the program); every bundled layout sets both seed profiles and
# the focused test CVs with no run outside the margins and no two boxes
# overlapping (dump_check.py), and extracts in reading order (each section
# title followed by its own first entry, in pdftotext's default mode and in
# mutool's text); lengths that would put text off the page are located
# errors; an unmeetable fit target is a located warning.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/layouts
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
export SOURCE_DATE_EPOCH=1767225600

# docs/layouts.md below its marker is exactly `vita layouts --keys`
sed -n '/^<!-- Everything below this line is generated/,$p' docs/layouts.md | tail -n +2 > "$W/doc-keys"
"$VITA" layouts --keys > "$W/keys"
cmp -s "$W/doc-keys" "$W/keys" || { no "docs/layouts.md differs from 'vita layouts --keys' (make layouts-doc)"; diff "$W/doc-keys" "$W/keys" | head; }
awk -F'|' 'NR > 2 && $5 ~ /^ *$/ {print "no meaning: " $2; bad = 1} END {exit bad}' "$W/keys" || no "a key without a meaning"
"$VITA" layouts | grep -q '^sidebar ' || no "vita layouts does not list sidebar"

# every layout x every CV: margins, overlaps, reading order
for lay in layouts/*.yaml; do
	l=$(basename "$lay" .yaml)
	for p in profiles/*.yaml tests/golden/layout/*.yaml; do
		# a focused case whose own layout map narrows the page is not for every design
		grep -q '^layout:' "$p" && continue
		n=$(basename "$p" .yaml)
		"$VITA" render "$p" -l "$l" --dump=layout > "$W/$n.$l.layout" 2> "$W/$n.$l.err" ||
			{ no "$p -l $l: exit $?"; cat "$W/$n.$l.err"; continue; }
		python3 tests/tools/dump_check.py "$W/$n.$l.layout" $(python3 tests/tools/layout_margins.py "$l" "$p") > "$W/$n.$l.check" ||
			{ no "$p -l $l:"; head -5 "$W/$n.$l.check"; }
	done
	for p in profiles/*.yaml tests/golden/layout/*.yaml; do
		grep -q '^layout:' "$p" && continue
		n=$(basename "$p" .yaml)
		"$VITA" render "$p" -l "$l" -o "$W/$n.$l.pdf" 2>/dev/null || { no "$p -l $l: no PDF"; continue; }
		pdftotext -enc UTF-8 "$W/$n.$l.pdf" "$W/$n.$l.pdftotext.txt"
		mutool draw -q -F txt -o "$W/$n.$l.mutool.txt" "$W/$n.$l.pdf" 2>/dev/null
		python3 tests/tools/reading_order.py "$p" "$W/$n.$l.pdftotext.txt" "$W/$n.$l.mutool.txt" > "$W/$n.$l.order" ||
			{ no "$p -l $l: reading order"; head -5 "$W/$n.$l.order"; }
	done
done

# contact icons are drawn but never read: the text is the contact alone
"$VITA" render tests/golden/layout/full.yaml -l modern -o "$W/icons.pdf" 2>/dev/null
pdftotext -enc UTF-8 "$W/icons.pdf" - | grep -q 'ada@example.org' || no "modern: the e-mail does not extract"
pdftotext -enc UTF-8 "$W/icons.pdf" - | grep -q "$(printf '\357\203\240')" && no "modern: an icon glyph extracts as text"
"$VITA" render tests/golden/layout/full.yaml -l modern --dump=layout | grep -q 'actual=""' || no "modern: icons are not artifacts"

# bad lengths: located errors, never text off the page
bad() { # KEY=VALUE... -- the message expected
	want=$1; shift
	out=$("$VITA" render profiles/zhanda-zhu.yaml -o "$W/bad.pdf" "$@" 2>&1); c=$?
	[ $c = 1 ] || no "$*: exit $c, want 1"
	printf '%s\n' "$out" | grep -q -- "$want" || no "$*: no '$want' in: $out"
}
bad "'entry.bullet_indent' is 600.0 pt" --set entry.bullet_indent=600
bad "'sidebar.width' is 600.0 pt; it can be at most the text width" --set sidebar.side=right --set sidebar.width=600
bad 'sidebar.width (340 pt) and sidebar.gap (18 pt) leave 121 pt' --set sidebar.side=left --set sidebar.width=340
bad "'entry.date_width' is 500.0 pt" --set entry.dates=left --set entry.date_width=500
bad 'entry.date_width (200 pt) and entry.date_gap (140 pt) leave' --set entry.dates=left --set entry.date_width=200 --set entry.date_gap=140
bad "'publications.label_width' is 480.0 pt" --set publications.label_width=480
bad 'entry.bullet_offset (20 pt) puts the bullet past' --set entry.bullet_offset=20
printf 'extends: sidebar\nname: wide\nsidebar: {width: 420}\n' > "$W/wide.yaml"
out=$("$VITA" render profiles/zhanda-zhu.yaml -l "$W/wide.yaml" -o "$W/bad.pdf" 2>&1)
printf '%s\n' "$out" | grep -q "wide.yaml:3:[0-9]*: error: sidebar.width (420 pt)" || no "a too-wide sidebar is not located in its layout: $out"

# fit: a target that cannot be met is a located warning, and the PDF is made
printf 'extends: academic\nname: tight\nfit:\n  pages: 1\n' > "$W/tight.yaml"
out=$("$VITA" render profiles/ziming-liu.yaml -l "$W/tight.yaml" -o "$W/tight.pdf" 2>&1) || no "fit: exit $?"
printf '%s\n' "$out" | grep -q 'tight.yaml:4:[0-9]*: warning: fit: [0-9]* pages at the tightest' || no "fit: no located warning: $out"
# compact pulls a short last page back, and says so
out=$("$VITA" render profiles/zhanda-zhu.yaml -l compact --dump=layout 2>&1 >"$W/compact.layout")
printf '%s\n' "$out" | grep -q 'warning: fit: tightened to 1 page' || no "compact: fit said nothing: $out"
[ "$(grep -c '^page ' "$W/compact.layout")" = 1 ] || no "compact: zhanda-zhu is not one page"
# the fit's attempts (5 here, 11 for fit-pages) shape no text again: their
# paragraphs' glyphs are kept at no size and placed at each attempt's
# sizes, so the whole fit shapes no more texts than one layout does
# (test_inline's memo_same: what is placed is what shaping again gives)
shaped() { VITA_SHAPER=stats "$VITA" render "$@" -o "$W/stats.pdf" 2>&1 | sed -n 's/.*; \([0-9]*\) texts shaped.*/\1/p'; }
for c in "profiles/zhanda-zhu.yaml -l compact" tests/golden/layout/fit-pages.yaml; do
	fit=$(shaped $c) one=$(shaped $c --set fit.no_short_last=false --set fit.pages=0)
	[ -n "$fit" ] && [ -n "$one" ] && [ "$fit" -le "$one" ] ||
		no "fit: $c: the attempts shape text again ($fit texts shaped; one layout: $one)"
done
exit $fail
