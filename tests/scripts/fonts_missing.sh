#!/bin/sh
# fonts_missing: a font family that is not installed is remembered across
# runs (the miss cache, misses-v2-KEY beside the family cache): the same
# warnings, errors, "did you mean" suggestions, exit codes and PDFs on a
# cold cache, a warm one and with VITA_NO_FONT_CACHE=1; a near miss ('Noto
# Sanz') still gets its suggestion and a far one ('New Computer Modern')
# none; a warm run does not load fontconfig at all; a font installed later
# (in a font directory, a new subdirectory of one, a configured directory
# made later) and a changed fontconfig configuration are seen at once.
# Fontconfig's metric-compatible aliases (binding="same": Helvetica ->
# Nimbus Sans) give a missing family its stand-in, said in one warning,
# and the PDF embeds it; its generic fallbacks (sans-serif -> DejaVu Sans)
# do not: a typo keeps its "did you mean" (part 3, a private configuration;
# the machine's own aliases in part 1 when Nimbus Sans or Liberation Sans
# is installed).
set -u
: "${VITA:=build/vita}" "${BUILD:=build}"
T="$BUILD/fonts_missing"
rm -rf "$T"; mkdir -p "$T/p/fonts"
T=$(cd "$T" && pwd)
export SOURCE_DATE_EPOCH=1767225600
fail=0 n=0
no() { echo "FAIL: $*"; fail=1; }

# fc_loaded NAME ARGS...: vita ARGS loads libfontconfig (ld.so says so)
fc_loaded() {
	name=$1; shift
	rm -f "$T/ld.$name".*
	LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld.$name" "$VITA" "$@" >/dev/null 2>&1
	cat "$T/ld.$name".* 2>/dev/null | grep -q 'file=libfontconfig'
}

# same NAME EXPECT ARGS...: a cold run, a warm one and one without the
# cache say the same (stderr, exit code, PDF), and the first says EXPECT
# (a grep -F string; a leading ! means: must not say it)
same() {
	name=$1 want=$2; shift 2
	for k in cold warm off; do
		if [ $k = off ]; then
			VITA_NO_FONT_CACHE=1 "$VITA" render "$@" -o "$T/$name.$k.pdf" 2>"$T/$name.$k.err"
		else
			"$VITA" render "$@" -o "$T/$name.$k.pdf" 2>"$T/$name.$k.err"
		fi
		echo "exit $?" >>"$T/$name.$k.err"
	done
	for k in warm off; do
		cmp -s "$T/$name.cold.err" "$T/$name.$k.err" ||
			{ no "$name: $k run says otherwise:"; diff "$T/$name.cold.err" "$T/$name.$k.err"; }
		[ -e "$T/$name.cold.pdf" ] && { cmp -s "$T/$name.cold.pdf" "$T/$name.$k.pdf" ||
			no "$name: the $k run's PDF differs"; }
	done
	case $want in
	!*) grep -qF -- "${want#!}" "$T/$name.cold.err" && { no "$name: says '${want#!}'"; cat "$T/$name.cold.err"; } ;;
	*) grep -qF -- "$want" "$T/$name.cold.err" || { no "$name: does not say '$want'"; cat "$T/$name.cold.err"; } ;;
	esac
	n=$((n + 1))
}

# 1. the machine's fontconfig, a private cache
export XDG_CACHE_HOME="$T/cache"
P=examples/cv.yaml
same near "--set: warning: font family 'Noto Sanz' (did you mean 'Noto Sans'?) is not installed; the layout's own face is used for the text (fc-list : family lists the installed ones)" \
	"$P" --set 'fonts.body=Noto Sanz + serif'
same far "--set: warning: font family 'New Computer Modern' is not installed; the layout's own face is used for the text (fc-list : family lists the installed ones)" \
	"$P" --set 'fonts.body=New Computer Modern + serif'
grep -q 'did you mean' "$T/far.cold.err" && no "far: a suggestion for 'New Computer Modern'"
# the machine's metric-compatible aliases, when their fonts are installed
standin() { # FAMILY STAND-IN PDF-NAME
	if [ "$(fc-match -f '%{family[0]}' "$1")" = "$2" ] &&
	   fc-list -f '%{file}\n' "$2" | grep -q '\.[ot]tf$'; then
		same "alias-$3" "--set: warning: font family '$1' is not installed; using its metric-compatible stand-in '$2'" \
			"$P" --set "fonts.body=$1 + serif"
		pdffonts "$T/alias-$3.cold.pdf" | grep -Eq "\+$3(-Regular)? " ||
			{ no "$1: $2 not embedded"; pdffonts "$T/alias-$3.cold.pdf"; }
		grep -q 'layout.s own face' "$T/alias-$3.cold.err" && no "$1: still the layout's own face"
		# the stand-in asked for by its name: itself (URW's Type 1 files
		# beside its OpenType ones are not taken)
		"$VITA" render "$P" --set "fonts.body=$2 + serif" -o "$T/self-$3.pdf" 2>"$T/self-$3.err" ||
			{ no "$2: exit $?"; cat "$T/self-$3.err"; }
		grep -q 'not installed\|error' "$T/self-$3.err" && { no "$2: a message"; cat "$T/self-$3.err"; }
		pdffonts "$T/self-$3.pdf" | grep -Eq "\+$3(-Regular)? " || no "$2 asked for: not embedded"
	else
		echo "fonts_missing.sh: skip: $2 is not installed or not fontconfig's match for $1"
	fi
}
standin Helvetica 'Nimbus Sans' NimbusSans
standin Arial 'Liberation Sans' LiberationSans
standin 'Times New Roman' 'Liberation Serif' LiberationSerif
same chain-near "vita: error: unknown font chain 'Noto Sanz' (no Noto Sanz.yaml in the font directories, and not an installed font family); did you mean 'Noto Sans'?" \
	"$P" --set 'fonts.body=Noto Sanz'
grep -q '^exit 1$' "$T/chain-near.cold.err" || no "chain-near: not exit 1"
same chain-far "vita: error: unknown font chain 'New Computer Modern' (no New Computer Modern.yaml in the font directories, and not a list of installed font families)" \
	"$P" --set 'fonts.body=New Computer Modern'
# a typo in a chain file's second face (a fallback, looked up when a
# character needs it): an error there, with the suggestion, once a
# character falls through to it (the snowman: not in Noto Serif); a CV
# that needs no fallback renders
sed 's/^name: .*/name: "Ada \xe2\x98\x83 Lovelace"/' "$P" >"$T/p/cv.yaml"
cp "$P" "$T/p/latin.yaml"
printf 'name: typo\nfaces:\n  - family: Noto Serif\n  - family: DejaVu Sanz\n' >"$T/p/fonts/typo.yaml"
same file-near "$T/p/fonts/typo.yaml:4:13: error: font family 'DejaVu Sanz' is not installed; did you mean 'DejaVu Sans'?" \
	"$T/p/cv.yaml" --set 'fonts.body=typo'
grep -q '^exit 3$' "$T/file-near.cold.err" || no "file-near: not exit 3"
same file-near-latin "!DejaVu Sanz" "$T/p/latin.yaml" --set 'fonts.body=typo'
grep -q '^exit 0$' "$T/file-near-latin.cold.err" || no "file-near-latin: not exit 0"
# RenderCV's families, located where the import sets them
R=tests/import/rendercv/sb2nov-v2.3.yaml
same rendercv "$R:134:18: warning: font family 'New Computer Modern' is not installed; the layout's own face is used for the text" "$R"
grep -qF "$R:159:18: warning: font family 'New Computer Modern' is not installed; the layout's own face is used for the name and section titles" \
	"$T/rendercv.cold.err" || no "rendercv: no heading warning"
ls "$T"/cache/vita/misses-v2-* >/dev/null 2>&1 || no "no miss cache written"
# a family's faces and the "did you mean" are found in an index of
# fontconfig's faces, not by FcFontList: what FcFontList gives
# (VITA_FC_LIST=1) for installed families spelt otherwise, typos and a
# non-ASCII name: the same messages and PDFs
for fam in 'noto sans' 'DEJAVUSERIF' 'Noto Serif Hebrew' 'Nimbus Sans' 'Noto Sanz' 'Nimbus Romen' \
           'DejaVu Sans Mon' 'Noto Serif CJK J' 'Liberation Serf' 'Source Sans 3' '나눔고딕'; do
	for k in 0 1; do
		VITA_FC_LIST=$k VITA_NO_FONT_CACHE=1 "$VITA" render "$P" --set "fonts.body=$fam + serif" \
			-o "$T/fx.pdf" 2>"$T/fx.$k.err"
		echo "exit $?" >>"$T/fx.$k.err"
		mv -f "$T/fx.pdf" "$T/fx.$k.pdf" 2>/dev/null
	done
	cmp -s "$T/fx.0.err" "$T/fx.1.err" ||
		{ no "$fam: the index says otherwise than FcFontList:"; diff "$T/fx.1.err" "$T/fx.0.err"; }
	cmp -s "$T/fx.0.pdf" "$T/fx.1.pdf" || no "$fam: the index's PDF is not FcFontList's"
done
n=$((n + 1))

# 2. a private fontconfig whose directories are old (a miss is written
# only when no directory changed in the second before fontconfig read it);
# only fonts of the packages `make deps` installs (DEB_FONTS)
F=$T/fc
mkdir -p "$F/fonts" "$F/cache"
noto=$(fc-list -f '%{file}\n' 'Noto Serif:style=Regular' | grep -m1 'NotoSerif-Regular.ttf')
dejavu=$(fc-list -f '%{file}\n' 'DejaVu Sans:style=Book' | grep -m1 'DejaVuSans.ttf')
N=$(dirname "$noto")
for f in NotoSans-Regular NotoSans-Bold NotoSans-Italic NotoSans-BoldItalic NotoSansDisplay-Regular \
         NotoSerifDisplay-Regular; do
	[ -f "$N/$f.ttf" ] || noto=
done
[ -f "$(dirname "$dejavu")/DejaVuSerif.ttf" ] || dejavu=
if [ -z "$noto" ] || [ -z "$dejavu" ]; then
	no "Noto Serif, Noto Sans (fonts-noto-core) or DejaVu Sans, DejaVu Serif (fonts-dejavu-core) is not installed"
	exit 1
fi
for s in Regular Bold Italic BoldItalic; do ln -s "$N/NotoSerif-$s.ttf" "$F/fonts/"; done
ln -s "$dejavu" "$F/fonts/"
conf() {
	printf '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>%s</dir>%s<cachedir>%s</cachedir></fontconfig>\n' \
		"$F/fonts" "$1" "$F/cache" >"$F/fonts.conf"
}
conf ""
export FONTCONFIG_FILE="$F/fonts.conf" XDG_CACHE_HOME="$T/pcache"
# old: the font directory, then fontconfig's cache of it (which the cache
# directory's time covers)
old=$(( $(date +%s) - 100 ))
aged() { touch -d "@$old" "$F/fonts"; fc-list >/dev/null; touch -d "@$old" "$F/cache"; }
aged
L=tests/locale/cv.yaml
same sans "--set: warning: font family 'Noto Sans' is not installed" "$L" --set 'fonts.body=Noto Sans + serif'
same sanz "!did you mean" "$L" --set 'fonts.body=Noto Sanz + serif'
fc_loaded warm-sans render "$L" --set 'fonts.body=Noto Sans + serif' -o "$T/x.pdf" &&
	no "a known miss loaded fontconfig again"
fc_loaded warm-sanz render "$L" --set 'fonts.body=Noto Sanz + serif' -o "$T/x.pdf" &&
	no "a known suggestion (none) loaded fontconfig again"
grep -qx 'A Noto Sans' "$XDG_CACHE_HOME"/vita/misses-v2-* || no "no miss recorded for Noto Sans"
n=$((n + 1))
# Noto Sans installed: found, and suggested for the typo
for s in Regular Bold Italic BoldItalic; do ln -s "$N/NotoSans-$s.ttf" "$F/fonts/"; done
"$VITA" render "$L" --set 'fonts.body=Noto Sans + serif' -o "$T/sans-new.pdf" 2>"$T/sans-new.err" ||
	no "Noto Sans installed: exit $?"
[ -s "$T/sans-new.err" ] && { no "Noto Sans installed: still a message"; cat "$T/sans-new.err"; }
pdffonts "$T/sans-new.pdf" | grep -q 'NotoSans-Regular' || no "Noto Sans installed: not used"
"$VITA" render "$L" --set 'fonts.body=Noto Sanz + serif' -o "$T/x.pdf" 2>"$T/sanz-new.err"
grep -qF "font family 'Noto Sanz' (did you mean 'Noto Sans'?) is not installed" "$T/sanz-new.err" ||
	{ no "Noto Sans installed: no suggestion for Noto Sanz"; cat "$T/sanz-new.err"; }
n=$((n + 1))
# another configuration (a directory more): found at once
aged
same serif "--set: warning: font family 'DejaVu Serif' is not installed" "$L" --set 'fonts.body=DejaVu Serif + serif'
conf "<dir>$(dirname "$dejavu")</dir>"
"$VITA" render "$L" --set 'fonts.body=DejaVu Serif + serif' -o "$T/serif-new.pdf" 2>"$T/serif-new.err" ||
	no "a directory more: exit $?"
grep -q 'not installed' "$T/serif-new.err" && { no "a directory more: still missing"; cat "$T/serif-new.err"; }
pdffonts "$T/serif-new.pdf" | grep -q 'DejaVuSerif' || no "a directory more: DejaVu Serif not used"
n=$((n + 1))
# a new subdirectory of a font directory, and a configured directory that
# did not exist yet, each made with a font in it: found at once
conf "<dir>$(dirname "$dejavu")</dir><dir>$F/later</dir>"
aged
same display "--set: warning: font family 'Noto Sans Display' is not installed" "$L" --set 'fonts.body=Noto Sans Display + serif'
same later "--set: warning: font family 'Noto Serif Display' is not installed" "$L" --set 'fonts.body=Noto Serif Display + serif'
mkdir "$F/fonts/display" "$F/later"
ln -s "$N/NotoSansDisplay-Regular.ttf" "$F/fonts/display/"
ln -s "$N/NotoSerifDisplay-Regular.ttf" "$F/later/"
for fam in 'Noto Sans Display' 'Noto Serif Display'; do
	f=$(echo "$fam" | tr -d ' ')
	"$VITA" render "$L" --set "fonts.body=$fam + serif" -o "$T/$f-new.pdf" 2>"$T/$f-new.err" ||
		no "$fam made: exit $?"
	grep -q 'not installed' "$T/$f-new.err" && { no "$fam made: still missing"; cat "$T/$f-new.err"; }
	pdffonts "$T/$f-new.pdf" | grep -q "$f-Regular" || no "$fam made: not used"
	n=$((n + 1))
done

# 3. metric-compatible aliases in a private configuration: binding="same"
# gives a stand-in (the first of its families installed), a plain alias
# (a generic fallback) none
F=$T/fa
mkdir -p "$F/fonts" "$F/cache"
for s in Regular Bold Italic BoldItalic; do ln -s "$N/NotoSerif-$s.ttf" "$F/fonts/"; done
ln -s "$dejavu" "$F/fonts/"
fam() { printf '<family>%s</family>' "$@"; }
same_alias() { printf '<alias binding="same"><family>%s</family><accept>%s</accept></alias>' "$1" "$2"; }
rules="$(same_alias 'Vita Test Sans' "$(fam 'Not Installed Sans' 'DejaVu Sans')")$(same_alias 'Vita Test Later' "$(fam 'Noto Sans')")$(same_alias 'Noto Sans Display' "$(fam 'DejaVu Sans')")<alias><family>Vita Test Generic</family><prefer><family>DejaVu Sans</family></prefer></alias>"
conf "$rules"
export FONTCONFIG_FILE="$F/fonts.conf" XDG_CACHE_HOME="$T/acache"
aged
same standin "--set: warning: font family 'Vita Test Sans' is not installed; using its metric-compatible stand-in 'DejaVu Sans'" \
	"$L" --set 'fonts.body=Vita Test Sans + serif'
grep -q "layout's own face" "$T/standin.cold.err" && no "standin: also the layout's own face"
pdffonts "$T/standin.cold.pdf" | grep -q '+DejaVuSans ' || { no "standin: DejaVu Sans not embedded"; pdffonts "$T/standin.cold.pdf"; }
grep -q "^M Vita Test Sans	DejaVu Sans\$" "$XDG_CACHE_HOME"/vita/misses-v2-* || no "standin: not in the miss cache"
fc_loaded warm-standin render "$L" --set 'fonts.body=Vita Test Sans + serif' -o "$T/x.pdf" &&
	no "a known stand-in loaded fontconfig again"
same standin-only "--set: warning: font family 'Vita Test Sans' is not installed; using its metric-compatible stand-in 'DejaVu Sans'" \
	"$L" --set 'fonts.body=Vita Test Sans'
grep -q '^exit 0$' "$T/standin-only.cold.err" || no "standin-only: not exit 0"
same generic "--set: warning: font family 'Vita Test Generic' is not installed; the layout's own face is used for the text" \
	"$L" --set 'fonts.body=Vita Test Generic + serif'
grep -q 'stand-in' "$T/generic.cold.err" && no "generic: a generic alias taken for a stand-in"
same typo "--set: warning: font family 'DejaVu Sanz' (did you mean 'DejaVu Sans'?) is not installed; the layout's own face is used for the text" \
	"$L" --set 'fonts.body=DejaVu Sanz + serif'
grep -q 'stand-in' "$T/typo.cold.err" && no "typo: given a stand-in"
# a chain file whose first face has a stand-in: no error, the stand-in drawn
printf 'name: alias\nfaces:\n  - family: Vita Test Sans\n  - family: Noto Serif\n' >"$T/p/fonts/alias.yaml"
cp "$L" "$T/p/cv.yaml"
same file-standin "--set: warning: font family 'Vita Test Sans' is not installed; using its metric-compatible stand-in 'DejaVu Sans'" \
	"$T/p/cv.yaml" --set 'fonts.body=alias'
grep -q '^exit 0$' "$T/file-standin.cold.err" || no "file-standin: not exit 0"
# the stand-in installed later: used from then on
same later "--set: warning: font family 'Vita Test Later' is not installed; the layout's own face is used for the text" \
	"$L" --set 'fonts.body=Vita Test Later + serif'
same display-standin "--set: warning: font family 'Noto Sans Display' is not installed; using its metric-compatible stand-in 'DejaVu Sans'" \
	"$L" --set 'fonts.body=Noto Sans Display + serif'
for s in Regular Bold Italic BoldItalic; do ln -s "$N/NotoSans-$s.ttf" "$F/fonts/"; done
"$VITA" render "$L" --set 'fonts.body=Vita Test Later + serif' -o "$T/later-new.pdf" 2>"$T/later-new.err"
grep -qF "font family 'Vita Test Later' is not installed; using its metric-compatible stand-in 'Noto Sans'" "$T/later-new.err" ||
	{ no "stand-in installed later: not used"; cat "$T/later-new.err"; }
pdffonts "$T/later-new.pdf" | grep -q '+NotoSans-Regular ' || no "stand-in installed later: not embedded"
n=$((n + 1))
# a RenderCV import naming it (its sans chain needs Noto Sans): the warning
# where the import sets it
sed 's/New Computer Modern/Vita Test Sans/' "$R" >"$T/p/rendercv.yaml"
same rendercv-standin "$T/p/rendercv.yaml:134:18: warning: font family 'Vita Test Sans' is not installed; using its metric-compatible stand-in 'DejaVu Sans'" \
	"$T/p/rendercv.yaml"
grep -qF "$T/p/rendercv.yaml:159:18: warning: font family 'Vita Test Sans' is not installed; using its metric-compatible stand-in 'DejaVu Sans'" \
	"$T/rendercv-standin.cold.err" || no "rendercv-standin: no heading warning"
# the family itself installed later: itself, no stand-in, no message
ln -s "$N/NotoSansDisplay-Regular.ttf" "$F/fonts/"
"$VITA" render "$L" --set 'fonts.body=Noto Sans Display + serif' -o "$T/display-new.pdf" 2>"$T/display-new.err"
[ -s "$T/display-new.err" ] && { no "Noto Sans Display installed: still a message"; cat "$T/display-new.err"; }
pdffonts "$T/display-new.pdf" | grep -q '+NotoSansDisplay-Regular ' || no "Noto Sans Display installed: not used"
n=$((n + 1))
# the alias taken out of the configuration: missing again
aged
conf "$(same_alias 'Vita Test Later' "$(fam 'Noto Sans')")"
"$VITA" render "$L" --set 'fonts.body=Vita Test Sans + serif' -o "$T/x.pdf" 2>"$T/noalias.err"
grep -qF "font family 'Vita Test Sans' is not installed; the layout's own face is used for the text" "$T/noalias.err" ||
	{ no "alias removed: still a stand-in"; cat "$T/noalias.err"; }
n=$((n + 1))

echo "fonts_missing.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
