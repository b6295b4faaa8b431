#!/bin/sh
# What a fresh process costs before main (issue 13): the libraries most
# symbols bind to come first in the binary's DT_NEEDED list (Makefile,
# BIND_FIRST), so the dynamic linker's lookups stop early; and the same
# renders come out of it.
set -u
VITA=${VITA:-build/vita}
fail=0
no() { echo "FAIL: $*"; fail=1; }

if command -v readelf >/dev/null 2>&1; then
	needed=$(readelf -d "$VITA" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v 'lib\(asan\|ubsan\)')
	first=$(echo "$needed" | head -5 | sed 's/\.so.*//' | tr '\n' ' ')
	[ "$first" = "libc libhpdf-2.3.0 libharfbuzz libpng16 libfreetype " ] ||
		no "DT_NEEDED order: first five are '$first'"
	echo "$needed" | grep -q '^libyaml' || no "libyaml not linked: $needed"
fi
exit $fail
