#!/bin/sh
# typography.sh: OpenType features and tracking by layout key, end to end.
#  - small capitals from the font (smcp) in section titles: drawn as the
#    face's small-capital glyphs (wider than lower case), read back by
#    pdftotext and mutool as the lower-case letters written
#  - tracking (section.tracking, 1/1000 em): between the glyphs of a title,
#    not after its last, and never read as spaces
#  - oldstyle body figures, tabular date figures: the dump marks the runs
#    whose glyphs a feature replaced (alt=N), the text extracts as written
#  - a face without smcp: capitals at 80%, said once; bad values are
#    located errors
#  - light weights by role (modern's name: Noto Sans Light), the regular
#    face where a family has none, said once per key
# Env: VITA (the binary), BUILD (scratch directory).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/typography
rm -rf "$W"
mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
P=profiles/zhanda-zhu.yaml
render() { # NAME ARGS...: PDF, dump and stderr
	n=$1
	shift
	"$VITA" render "$P" -l classic "$@" -o "$W/$n.pdf" 2>"$W/$n.err" || no "$n: render exit $?: $(head -2 "$W/$n.err")"
	"$VITA" render "$P" -l classic "$@" --dump=layout -o "$W/$n.x.pdf" >"$W/$n.dump" 2>/dev/null
	rm -f "$W/$n.x.pdf"
	pdftotext -layout "$W/$n.pdf" "$W/$n.txt"
}
# the x extent (pt) of the word $2 in the first line of PDF $1 holding it
width() {
	pdftotext -bbox "$1" - | /usr/bin/python3 -c '
import re, sys
for l in sys.stdin:
    m = re.search(r"xMin=\"([0-9.]+)\".*xMax=\"([0-9.]+)\".*>(.*)</word>", l)
    if m and m.group(3) == sys.argv[1]:
        print("%.2f" % (float(m.group(2)) - float(m.group(1))))
        break' "$2"
}
# classic itself has small capitals, tracking and oldstyle figures: each
# is set here
none="--set section.tracking=0 --set text.figures=default --set entry.date_figures=default"
# shellcheck disable=SC2086
render plain --set section.small_caps=false $none
# shellcheck disable=SC2086
render sc --set section.small_caps=true $none
render sctrack --set section.small_caps=true --set section.tracking=60 \
	--set text.figures=oldstyle --set entry.date_figures=tabular
for n in plain sc sctrack; do
	[ -s "$W/$n.err" ] && no "$n: warnings: $(head -2 "$W/$n.err")"
done

# small capitals extract as the letters written, in both readers
for n in sc sctrack; do
	for t in "Research Interests" Education Publications Experience Awards; do
		grep -q "^ *$t *$" "$W/$n.txt" || no "$n: pdftotext does not read the title '$t'"
		mutool draw -F txt "$W/$n.pdf" 2>/dev/null | grep -q "^$t$" ||
			no "$n: mutool does not read the title '$t'"
	done
	grep -q "RESEARCH" "$W/$n.txt" && no "$n: small capitals read as capitals"
done
# ... and are the font's small-capital glyphs: wider than lower case
a=$(width "$W/plain.pdf" Education) b=$(width "$W/sc.pdf" Education)
/usr/bin/python3 -c "import sys; sys.exit(not $b > $a + 2)" ||
	no "small caps: 'Education' is $b pt wide, lower case $a pt: not small capitals"
grep -q '^run .*"Research Interes" alt=13 @' "$W/sc.dump" ||
	no "sc: the title run does not carry 13 small-capital glyphs: $(grep -m1 Research "$W/sc.dump")"

# tracking: 60/1000 em at 13.5 pt = 0.81 pt after each of the 8 first
# letters of "Education", none after the last; read without spaces
c=$(width "$W/sctrack.pdf" Education)
/usr/bin/python3 -c "import sys; d = $c - $b - 8 * 0.81; sys.exit(not -0.3 < d < 0.3)" ||
	no "tracking: 'Education' is $c pt wide, $b pt untracked: not 8 x 0.81 pt more"
grep -q 'track=810' "$W/sctrack.dump" || no "tracking: no run with track=810"
grep -c 'track=' "$W/sctrack.dump" | grep -qv '^0$' || no "tracking: no tracked run"
grep -v '"EDUCA\|"Educa\|"Research\|"Publica\|"Experi\|"Awards\|"A"\|"wards' "$W/sctrack.dump" |
	grep 'track=' | grep -v 'size=13500' | head -1 | grep -q . && no "tracking outside the titles"

# oldstyle and tabular figures: glyphs replaced, text unchanged. Noto
# Serif's own figures are lining and tabular: the body's become oldstyle,
# the date column's (tabular) stay the font's
# (the date column ends at 46 + 100 pt: classic's margin and date_width)
grep -q '^run .*"2022\. " alt=4 ' "$W/sctrack.dump" || no "figures: the body's 2022 is not 4 oldstyle glyphs"
grep '^run x=124088 .*"2022" ' "$W/sctrack.dump" | grep -q . || no "figures: no 2022 in the date column"
grep '^run x=124088 .*"2022" ' "$W/sctrack.dump" | grep -q ' alt=' && no "figures: the date column's figures are oldstyle"
grep -q 'in 2022' "$W/sctrack.txt" || no "figures: the body's 2022 does not extract"
grep -q '(2025, preprint)' "$W/sctrack.txt" || no "figures: '(2025, preprint)' does not extract"
grep -c ' alt=' "$W/plain.dump" | grep -q '^0$' || no "plain: feature glyphs without a feature"

# a face without small capitals: capitals at 80%, said once
"$VITA" render "$P" --set 'fonts.heading=DejaVu Serif' --set section.small_caps=true \
	-o "$W/dejavu.pdf" 2>"$W/dejavu.err" || no "dejavu: render exit $?"
[ "$(grep -c 'section.small_caps: the face .DejaVu Serif Bold. has no OpenType smcp; small capitals are drawn as capitals at 80%' "$W/dejavu.err")" = 1 ] ||
	no "dejavu: not said exactly once: $(cat "$W/dejavu.err")"
pdftotext "$W/dejavu.pdf" - | grep -q '^EDUCATION$' || no "dejavu: no synthetic small capitals"

# bad values: located errors, nothing written
printf 'extends: classic\nsection:\n  tracking: 200\n' >"$W/wide.yaml"
"$VITA" render "$P" -l "$W/wide.yaml" -o "$W/wide.pdf" 2>"$W/wide.err"; c=$?
[ $c = 1 ] || no "tracking 200: exit $c, want 1"
grep -q "wide.yaml:3:13: error: 'section.tracking' expects a whole number of 1/1000 em from -50 to 90" "$W/wide.err" ||
	no "tracking 200: $(cat "$W/wide.err")"
[ -e "$W/wide.pdf" ] && no "tracking 200: a PDF was written"
"$VITA" render "$P" --set section.features=smcp,bold -o "$W/bad.pdf" 2>"$W/bad.err"; c=$?
[ $c = 1 ] || no "features bold: exit $c, want 1"
grep -q "unknown OpenType feature 'bold'" "$W/bad.err" || no "features bold: $(cat "$W/bad.err")"

# light weights by role: Noto Sans Light where the layout asks (modern's
# name), the regular face, said once, where the family has none
"$VITA" fonts -l modern 2>/dev/null | grep -q '^  Noto Sans  *light  */.*NotoSans-Light.ttf$' ||
	no "light: vita fonts does not list Noto Sans Light"
"$VITA" render "$P" -l modern -o "$W/light.pdf" 2>"$W/light.err" || no "light: render exit $?"
[ -s "$W/light.err" ] && no "light: warnings: $(head -2 "$W/light.err")"
pdffonts "$W/light.pdf" | grep -q '+NotoSans-Light ' || no "light: Noto Sans Light is not embedded"
pdftotext "$W/light.pdf" - | head -1 | grep -q '^Zhanda Zhu' || no "light: the name does not extract"
"$VITA" render "$P" -l modern --set header.name_style=light-italic -o "$W/lighti.pdf" 2>/dev/null
pdffonts "$W/lighti.pdf" | grep -q '+NotoSans-LightItalic ' || no "light-italic: Noto Sans Light Italic is not embedded"
printf 'extends: academic
fonts: {heading: "DejaVu Serif"}
header: {name_style: light}
section: {style: light}
' >"$W/nolight.yaml"
"$VITA" render "$P" -l "$W/nolight.yaml" -o "$W/nolight.pdf" 2>"$W/nolight.err" || no "nolight: render exit $?"
grep -q "nolight.yaml:3:22: warning: header.name_style: 'DejaVu Serif' has no light face installed; the regular weight is used" "$W/nolight.err" ||
	no "nolight: $(cat "$W/nolight.err")"
[ "$(grep -c 'section.style: .DejaVu Serif. has no light face' "$W/nolight.err")" = 1 ] ||
	no "nolight: section.style not said once: $(cat "$W/nolight.err")"
pdffonts "$W/nolight.pdf" | grep -q '+DejaVuSerif ' || no "nolight: the regular DejaVu Serif is not used"

sh tests/tools/pdf_check.sh "$W"/light.pdf "$W"/lighti.pdf "$W"/nolight.pdf "$W"/plain.pdf "$W"/sc.pdf "$W"/sctrack.pdf "$W"/dejavu.pdf ||
	no "pdf_check.sh found problems"
echo "typography.sh: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
