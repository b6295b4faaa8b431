#!/bin/sh
# harden.sh: the input side of the hardening pass (issue 15). Each case is
# named after the item it covers (i03-..., i07-..., ...); every case must end
# with the exit status it names, a located message where it fails, no
# sanitizer report and no hang (timeout 20).
# Env: VITA (the binary), BUILD (scratch directory).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/harden
rm -rf "$W"
mkdir -p "$W"
W=$(cd "$W" && pwd)
fail=0
n=0
no() { echo "FAIL: $*"; fail=1; }

# run NAME WANT_EXIT [GREP_STDERR] -- ARGS...: one case.
run() {
	name=$1 want=$2 pat=$3
	shift 4
	n=$((n + 1))
	timeout 20 "$VITA" "$@" >"$W/$name.out" 2>"$W/$name.err"
	rc=$?
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$W/$name.err"; then
		no "$name: sanitizer report"; head -20 "$W/$name.err"; return
	fi
	[ "$rc" = "$want" ] || { no "$name: exit $rc, want $want"; head -5 "$W/$name.err"; return; }
	if [ -n "$pat" ] && ! grep -q -e "$pat" "$W/$name.err"; then
		no "$name: stderr lacks '$pat'"; head -5 "$W/$name.err"
	fi
}
# lacks NAME TEXT: the case's stderr must not contain TEXT.
lacks() {
	if grep -q -e "$2" "$W/$1.err"; then no "$1: stderr shows '$2'"; head -5 "$W/$1.err"; fi
}

B=$W/base.yaml
printf 'name: Test Person\nsections:\n  - {title: T, type: text, text: hello world}\n' >"$B"

# item 7: only regular files are read (a FIFO would block forever)
mkfifo "$W/fifo"
printf 'name: P\nphoto: fifo\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/fifo-photo.yaml"
printf 'name: P\nsections:\n  - {title: T, type: publications, bibtex: fifo}\n' >"$W/fifo-bib.yaml"
printf 'name: P\nlayout: fifo\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/fifo-layout.yaml"
run i07-fifo-profile 1 "^$W/fifo: error: cannot read the profile: not a regular file (a FIFO)" -- render "$W/fifo" -o "$W/x.pdf"
run i07-fifo-photo 1 "fifo-photo.yaml:2:8: error: photo .*not a regular file (a FIFO)" -- render "$W/fifo-photo.yaml" -o "$W/x.pdf"
run i07-fifo-bibtex 1 "fifo-bib.yaml:3:44: error: .*not a regular file (a FIFO)" -- render "$W/fifo-bib.yaml" -o "$W/x.pdf"
run i07-fifo-layout-l 1 "error: cannot read layout.*not a regular file (a FIFO)" -- render "$B" -o "$W/x.pdf" -l "$W/fifo"
run i07-fifo-chain 1 "" -- render "$B" -o "$W/x.pdf" --set "fonts.body=$W/fifo"
mkdir -p "$W/cache/vita"
mkfifo "$W/cache/vita/families"
XDG_CACHE_HOME=$W/cache run i07-fifo-font-cache 0 "" -- render "$B" -o "$W/x.pdf"

echo "harden.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
