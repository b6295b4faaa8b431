#!/bin/sh
# fonts_missing: a font family that is not installed is remembered across
# runs (the miss cache, misses-v1-KEY beside the family cache): the same
# warnings, errors, "did you mean" suggestions, exit codes and PDFs on a
# cold cache, a warm one and with VITA_NO_FONT_CACHE=1; a near miss ('Noto
# Sanz') still gets its suggestion and a far one ('New Computer Modern')
# none; fontconfig aliases are not applied ('Helvetica' stays missing, as
# before the cache); a warm run does not load fontconfig at all; a font
# installed later (in a font directory, a new subdirectory of one, a
# configured directory made later) and a changed fontconfig configuration
# are seen at once.
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
same alias "--set: warning: font family 'Helvetica' is not installed; the layout's own face is used for the text" \
	"$P" --set 'fonts.body=Helvetica + serif'
same chain-near "vita: error: unknown font chain 'Noto Sanz' (no Noto Sanz.yaml in the font directories, and not an installed font family); did you mean 'Noto Sans'?" \
	"$P" --set 'fonts.body=Noto Sanz'
grep -q '^exit 1$' "$T/chain-near.cold.err" || no "chain-near: not exit 1"
same chain-far "vita: error: unknown font chain 'New Computer Modern' (no New Computer Modern.yaml in the font directories, and not a list of installed font families)" \
	"$P" --set 'fonts.body=New Computer Modern'
# a typo in a chain file's second face: an error there, with the suggestion
cp "$P" "$T/p/cv.yaml"
printf 'name: typo\nfaces:\n  - family: Noto Serif\n  - family: DejaVu Sanz\n' >"$T/p/fonts/typo.yaml"
same file-near "$T/p/fonts/typo.yaml:4:13: error: font family 'DejaVu Sanz' is not installed; did you mean 'DejaVu Sans'?" \
	"$T/p/cv.yaml" --set 'fonts.body=typo'
grep -q '^exit 3$' "$T/file-near.cold.err" || no "file-near: not exit 3"
# RenderCV's families, located where the import sets them
R=tests/import/rendercv/sb2nov-v2.3.yaml
same rendercv "$R:134:18: warning: font family 'New Computer Modern' is not installed; the layout's own face is used for the text" "$R"
grep -qF "$R:159:18: warning: font family 'New Computer Modern' is not installed; the layout's own face is used for the name and section titles" \
	"$T/rendercv.cold.err" || no "rendercv: no heading warning"
ls "$T"/cache/vita/misses-v1-* >/dev/null 2>&1 || no "no miss cache written"

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
grep -qx 'A Noto Sans' "$XDG_CACHE_HOME"/vita/misses-v1-* || no "no miss recorded for Noto Sans"
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

echo "fonts_missing.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
