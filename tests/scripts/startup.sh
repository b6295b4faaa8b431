#!/bin/sh
# What a fresh process costs before main (issue 13): the libraries most
# symbols bind to come first in the binary's DT_NEEDED list (Makefile,
# BIND_FIRST), so the dynamic linker's lookups stop early; the libraries
# most renders never call are not linked (include/dl.h: loaded when first
# called); and the same renders come out of it.
set -u
VITA=${VITA:-build/vita}
fail=0
no() { echo "FAIL: $*"; fail=1; }

if command -v readelf >/dev/null 2>&1; then
	needed=$(readelf -d "$VITA" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v 'lib\(asan\|ubsan\)' |
		sed 's/\.so.*//')
	# the BIND_FIRST libraries the binary needs (--as-needed drops the
	# others) come first, in that order, before every other library
	first="libc libhpdf-2.3.0 libharfbuzz libpng16 libfreetype"
	want=$(for l in $first; do echo "$needed" | grep -qx "$l" && echo $l; done | tr '\n' ' ')
	n=$(echo $want | wc -w)
	got=$(echo "$needed" | head -$n | tr '\n' ' ')
	[ "$got" = "$want" ] || no "DT_NEEDED order: first $n are '$got', want '$want'"
	echo "$needed" | head -1 | grep -qx libc || no "libc is not first: $needed"
	echo "$needed" | grep -q '^libharfbuzz' || no "HarfBuzz not linked: $needed"
	for l in libyaml-0 libfribidi libjpeg libfontconfig libhyphen; do
		echo "$needed" | grep -qx "$l" && no "$l is linked (dl.h loads it when first called)"
	done
fi
exit $fail
