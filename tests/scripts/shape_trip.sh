#!/bin/sh
# Fonts built to trip the shaping fast path: tests/tools/trip_fonts.py
# writes edited copies of Noto Serif (pair kerning with a second value,
# ligatures and contexts under ccmp/rlig/rclt/locl on plain letters,
# SinglePos and contexts in kern, lookup flags, Extension lookups, GDEF
# without classes, a 'kern' table without GPOS, FeatureVariations, small
# caps by multiple substitution, ...). With a private fontconfig that holds
# only them (and Noto Serif, DejaVu Sans), for each:
#  - the edit shows: vita's records for a text it changes differ from the
#    unedited copy's (features vita turns off, liga/calt/dlig: the same);
#  - test_shape_diff finds no record of the fast path that differs from
#    VITA_SHAPER=harfbuzz (built strings, random strings from the cmap);
#  - a CV with the font as its body font renders to the same PDF and
#    layout dump both ways.
# Needs python3-fonttools (Makefile DEB_TEST); the fonts exist only in $OUT.
# (trip_fonts.py --lies makes two fonts whose tables HarfBuzz's sanitizer
# drops or neuters, a GPOS LookupCount one too high and a GSUB ligature set
# offset into another set, where the fast path still differs from HarfBuzz
# at 8321683: to be added here once it does not.)
set -u
VITA=$(readlink -f "${VITA:-build/vita}")
B=${BUILD:-build}
T=$B/tests/test_shape_diff
OUT=$B/shape_trip
rm -rf "$OUT"; mkdir -p "$OUT/fonts" "$OUT/cache" "$OUT/out"
fail=0
no() { echo "FAIL: $*"; fail=1; }
[ -x "$T" ] || { echo "FAIL: $T not built"; exit 1; }
noto=$(fc-list -f '%{file}\n' 'Noto Serif:style=Regular' | grep -m1 'NotoSerif-Regular.ttf')
dejavu=$(fc-list -f '%{file}\n' 'DejaVu Sans:style=Book' | grep -m1 'DejaVuSans.ttf')
[ -n "$noto" ] && [ -n "$dejavu" ] || { echo "FAIL: Noto Serif / DejaVu Sans not installed"; exit 1; }
/usr/bin/python3 -c 'import fontTools' 2>/dev/null || { echo "FAIL: python3-fonttools not installed"; exit 1; }
/usr/bin/python3 tests/tools/trip_fonts.py "$noto" "$OUT/fonts" > "$OUT/list" 2>"$OUT/trip_fonts.log" ||
	{ echo "FAIL: trip_fonts.py"; cat "$OUT/trip_fonts.log"; exit 1; }
# 24 copies with random bytes of GSUB/GPOS/GDEF changed (a fixed seed: the
# fast path must give what HarfBuzz gives, whatever HarfBuzz's sanitizer
# makes of them)
/usr/bin/python3 tests/tools/trip_fonts.py "$noto" "$OUT/fonts" --mutants 24 2 > "$OUT/mutants" 2>>"$OUT/trip_fonts.log" ||
	{ echo "FAIL: trip_fonts.py --mutants"; cat "$OUT/trip_fonts.log"; exit 1; }
ln -s "$noto" "$dejavu" "$OUT/fonts/"
cat > "$OUT/fonts.conf" <<XML
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$PWD/$OUT/fonts</dir><cachedir>$PWD/$OUT/cache</cachedir></fontconfig>
XML
export FONTCONFIG_FILE="$PWD/$OUT/fonts.conf" VITA_NO_FONT_CACHE=1 SOURCE_DATE_EPOCH=1767225600
unset VITA_SHAPER
n=$(wc -l < "$OUT/list")
nm=$(wc -l < "$OUT/mutants")
[ "$(fc-list | wc -l)" -eq $((n + nm + 2)) ] || no "the private fontconfig lists $(fc-list | wc -l) fonts, not $((n + nm + 2))"
args=
tab=$(printf '\t')
while IFS="$tab" read -r fam text expect; do
	args="$args -f '$fam'"
	VITA_SHAPER=harfbuzz "$T" -P -f "$fam" -t "$text" > "$OUT/out/$fam.rec" 2>&1
	VITA_SHAPER=harfbuzz "$T" -P -f "Trip Base" -t "$text" > "$OUT/out/$fam.base" 2>&1
	[ -s "$OUT/out/$fam.rec" ] || no "$fam: no records"
	if cmp -s "$OUT/out/$fam.rec" "$OUT/out/$fam.base"; then
		[ "$expect" = differ ] && no "$fam: '$text' shapes as in the unedited font (the edit has no effect)"
	else
		[ "$expect" = same ] && no "$fam: '$text' shapes otherwise than in the unedited font"
	fi
	# a CV set in it (academic: oldstyle figures; classic: small caps):
	# the same PDFs and dumps both ways
	for m in fast hb; do
		if [ $m = hb ]; then s=harfbuzz; else s=; fi
		set -- tests/shape/latin.yaml --set "fonts.body=$fam" --set "fonts.heading=$fam"
		VITA_SHAPER=$s "$VITA" render "$@" -o "$OUT/out/$fam.$m.pdf" 2>"$OUT/out/$fam.$m.err"
		VITA_SHAPER=$s "$VITA" render "$@" --dump=layout > "$OUT/out/$fam.$m.layout" 2>/dev/null
		VITA_SHAPER=$s "$VITA" render "$@" -l classic --dump=layout >> "$OUT/out/$fam.$m.layout" 2>/dev/null
	done
	pdffonts "$OUT/out/$fam.fast.pdf" 2>/dev/null | grep -q "+Trip${fam#Trip }-Regular " ||
		{ no "$fam: the CV does not use it"; cat "$OUT/out/$fam.fast.err"; }
	cmp -s "$OUT/out/$fam.fast.pdf" "$OUT/out/$fam.hb.pdf" || no "$fam: the PDFs differ"
	cmp -s "$OUT/out/$fam.fast.layout" "$OUT/out/$fam.hb.layout" ||
		{ no "$fam: the layout dumps differ"; diff "$OUT/out/$fam.hb.layout" "$OUT/out/$fam.fast.layout" | head -10; }
done < "$OUT/list"
while IFS="$tab" read -r fam text expect; do args="$args -f '$fam'"; done < "$OUT/mutants"
eval "\"$T\" $args" > "$OUT/diff.log" 2>&1 || { no "test_shape_diff on the trip fonts"; head -80 "$OUT/diff.log"; }
tail -1 "$OUT/diff.log"
grep 'calls' "$OUT/diff.log"
echo "$n fonts, $nm mutants"
[ $fail = 0 ] && rm -rf "$OUT/fonts" && find "$OUT" -name '*.pdf' -delete
exit $fail
