#!/bin/sh
# make install DESTDIR=... PREFIX=/usr puts the binary, the data, the schema,
# the man page and the bash/zsh/fish completions in their places; the
# installed binary renders from another directory; the man page is
# lint-clean; the completions know every command and long option of
# `vita --help`, and the bash one completes commands, layouts and --lang.
# Env: VITA (the binary), BUILD (scratch directory).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/install
rm -rf "$W"; mkdir -p "$W"
W=$(cd "$W" && pwd)
fail=0
no() { echo "FAIL: $*"; fail=1; }

# its own build directory, so the tree's build/ keeps its PREFIX; none of
# the calling make's variables (a package build passes its own dirs)
clean_make() {
	env -u BINDIR -u DATADIR -u MANDIR -u BASHCOMPDIR -u ZSHCOMPDIR -u FISHCOMPDIR \
		MAKEFLAGS= MAKELEVEL= make "$@"
}
clean_make -s install BUILD="$W/build" PREFIX=/usr DESTDIR="$W/root" CFLAGS=-O1 >"$W/make.log" 2>&1 ||
	{ no "make install: $(tail -20 "$W/make.log")"; exit 1; }
R=$W/root
for f in usr/bin/vita usr/share/vita/layouts/academic.yaml usr/share/vita/layouts/compact.yaml \
	usr/share/vita/fonts/serif.yaml usr/share/vita/vita.schema.json usr/share/man/man1/vita.1 \
	usr/share/bash-completion/completions/vita usr/share/zsh/site-functions/_vita \
	usr/share/fish/vendor_completions.d/vita.fish; do
	[ -f "$R/$f" ] || no "not installed: /$f"
done
[ -d locales ] && { [ -f "$R/usr/share/vita/locales/en.yaml" ] || no "locales not installed"; }
[ -x "$R/usr/bin/vita" ] || no "the binary is not executable"
"$R/usr/bin/vita" --version | grep -q '^data: /usr/share/vita$' || no "DATADIR does not follow PREFIX"

# the installed binary, run from elsewhere, with no user data
mkdir -p "$W/elsewhere" "$W/home"
cp profiles/zhanda-zhu.yaml "$W/elsewhere/cv.yaml"
(cd "$W/elsewhere" && HOME="$W/home" SOURCE_DATE_EPOCH=0 "$R/usr/bin/vita" render cv.yaml) ||
	no "the installed binary does not render from another directory"
[ -s "$W/elsewhere/cv.pdf" ] || no "no PDF"
(cd "$W/elsewhere" && HOME="$W/home" "$R/usr/bin/vita" layouts) | grep -q "^ *$R/usr/share/vita/layouts/academic.yaml$" ||
	no "installed layouts not listed with their location"
(cd "$W/elsewhere" && HOME="$W/home" "$R/usr/bin/vita" new Ada) | head -1 |
	grep -q "schema=$R/usr/share/vita/vita.schema.json$" || no "vita new does not point at the installed schema"

# the man page
if command -v mandoc >/dev/null; then
	mandoc -T lint -W warning "$R/usr/share/man/man1/vita.1" || no "mandoc -T lint"
fi
if command -v man >/dev/null; then
	w=$(man --warnings -l "$R/usr/share/man/man1/vita.1" 2>&1 >/dev/null)
	[ -z "$w" ] || no "man -l warns: $w"
fi

# the completions name every command and long option of --help
cmds=$("$VITA" --help | awk '/^commands:/ {on = 1; next} /^$/ {on = 0} on {print $1}')
lopts=$("$VITA" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
for f in completions/vita.bash completions/_vita completions/vita.fish; do
	for c in $cmds; do grep -q "\b$c\b" "$f" || no "$f lacks the command $c"; done
	for o in $lopts; do
		o=${o#--}
		grep -q -- "$o" "$f" || no "$f lacks --$o"
	done
done
# bash: complete with stand-ins for bash-completion's helpers
cat > "$W/complete.bash" <<'SH'
_init_completion() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
_filedir() { :; }
compopt() { :; }
. "$1"
try() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _vita; echo "${COMPREPLY[*]}"; }
echo "cmd: $(try vita re)"
echo "layout: $(try vita render cv.yaml -l ac)"
echo "lang: $(try vita render cv.yaml --lang z)"
echo "opt: $(try vita render cv.yaml --repr)"
SH
PATH="$R/usr/bin:$PATH" HOME="$W/home" bash "$W/complete.bash" completions/vita.bash > "$W/complete.out" 2>&1
grep -q '^cmd: render$' "$W/complete.out" || no "bash: commands: $(cat "$W/complete.out")"
grep -q '^layout: academic$' "$W/complete.out" || no "bash: layouts: $(cat "$W/complete.out")"
grep -q '^lang: zh' "$W/complete.out" || no "bash: --lang: $(cat "$W/complete.out")"
grep -q '^opt: --reproducible$' "$W/complete.out" || no "bash: options: $(cat "$W/complete.out")"
for sh in zsh fish; do
	command -v $sh >/dev/null || continue
	f=completions/vita.fish; [ $sh = zsh ] && f=completions/_vita
	$sh -n "$f" || no "$sh -n $f"
done

# uninstall leaves nothing
clean_make -s uninstall BUILD="$W/build" PREFIX=/usr DESTDIR="$W/root" >/dev/null 2>&1
left=$(find "$R" -type f | head -5)
[ -z "$left" ] || no "uninstall left: $left"
exit $fail
