#!/bin/sh
# Where vita finds its data: XDG user directories, `vita layouts` with
# locations, --help with the search path, a binary far from its data
# (exit 3, the directories searched), --version, did-you-mean for
# commands, options, layouts and font families.
# Env: VITA (the binary), BUILD (scratch directory).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/datadir
rm -rf "$W"; mkdir -p "$W"
W=$(cd "$W" && pwd)    # absolute: XDG directories must be
fail=0
no() { echo "FAIL: $*"; fail=1; }
P=profiles/zhanda-zhu.yaml

# --version: release, commit, libraries
v=$("$VITA" --version)
echo "$v" | head -1 | grep -q '^vita [0-9][0-9.]* (commit [0-9a-f]\{7,\}\|unknown)' || no "--version line 1: $v"
echo "$v" | grep -q 'built with:.*harfbuzz [0-9]' || no "--version libraries: $v"
echo "$v" | grep -q 'libhpdf [0-9]' || no "--version libhpdf: $v"

# --help tells the search path
"$VITA" --help | grep -q "$W/xdg-config/vita" && no "--help before XDG set?"
XDG_CONFIG_HOME="$W/xdg-config" "$VITA" --help | grep -q "$W/xdg-config/vita" ||
	no "--help does not show \$XDG_CONFIG_HOME/vita"

# user layouts in XDG_DATA_HOME and XDG_CONFIG_HOME; config wins
mkdir -p "$W/xdg-data/vita/layouts" "$W/xdg-config/vita/layouts"
printf 'extends: academic\ndescription: from data home\n' > "$W/xdg-data/vita/layouts/mine.yaml"
printf 'extends: academic\ndescription: my compact\n' > "$W/xdg-config/vita/layouts/compact.yaml"
export XDG_DATA_HOME="$W/xdg-data" XDG_CONFIG_HOME="$W/xdg-config"
l=$("$VITA" layouts)
echo "$l" | grep -q '^mine  *from data home' || no "layouts: XDG_DATA_HOME layout missing: $l"
echo "$l" | grep -q "^ *$W/xdg-data/vita/layouts/mine.yaml$" || no "layouts: no location: $l"
echo "$l" | grep -q '^compact  *my compact' || no "layouts: XDG_CONFIG_HOME layout missing"
echo "$l" | grep -q '^compact  *(hidden by' || no "layouts: the bundled compact is not marked hidden"
echo "$l" | grep -q '^academic ' || no "layouts: academic missing"
SOURCE_DATE_EPOCH=0 "$VITA" render "$P" -l mine -o "$W/mine.pdf" || no "render -l mine (XDG_DATA_HOME)"
unset XDG_DATA_HOME XDG_CONFIG_HOME

# a binary with no data: exit 3, says where it looked
mkdir -p "$W/alone/bin"
cp "$VITA" "$W/alone/bin/vita"
HOME="$W/alone" "$W/alone/bin/vita" render "$P" -o "$W/x.pdf" 2>"$W/alone.err"; c=$?
[ $c = 3 ] || no "no data: exit $c, expected 3"
grep -q 'cannot find' "$W/alone.err" && grep -q "$W/alone/share/vita/layouts" "$W/alone.err" ||
	no "no data: message: $(cat "$W/alone.err")"
[ -e "$W/x.pdf" ] && no "no data: a PDF was written"
HOME="$W/alone" "$W/alone/bin/vita" layouts >/dev/null 2>&1; c=$?
[ $c = 3 ] || no "layouts with no data: exit $c"
# ... and the same binary finds data moved beside it (PREFIX/share/vita)
mkdir -p "$W/alone/share/vita"
cp -r layouts fonts "$W/alone/share/vita/"
[ -d locales ] && cp -r locales "$W/alone/share/vita/"
HOME="$W/alone" SOURCE_DATE_EPOCH=0 "$W/alone/bin/vita" render "$P" -o "$W/moved.pdf" ||
	no "a binary beside share/vita does not render"

# did you mean
"$VITA" rendr "$P" 2>&1 | grep -q "did you mean 'render'" || no "command suggestion"
"$VITA" render "$P" --lnag=zh 2>&1 | grep -q "did you mean '--lang'" || no "option suggestion"
"$VITA" render "$P" --reproducable 2>&1 | grep -q "did you mean '--reproducible'" || no "option suggestion 2"
"$VITA" render "$P" -l acadmic -o "$W/x.pdf" 2>&1 | grep -q "did you mean 'academic'" || no "layout suggestion"
"$VITA" render "$P" --set 'fonts.body=Noto Srif' -o "$W/x.pdf" 2>&1 | grep -q "did you mean 'Noto Serif'" ||
	no "font family suggestion"
"$VITA" frobnicate 2>&1 | grep -q "did you mean" && no "a suggestion for a word far from every command"
exit $fail
