#!/bin/sh
# Golden page lists: `vita render X --dump=layout` for the bundled profiles
# and the focused cases in tests/golden/layout/*.yaml must equal the
# committed .layout files. UPDATE=1 rewrites them (make golden-update);
# review the diff before committing.
set -u
VITA=${VITA:-build/vita}
export SOURCE_DATE_EPOCH=1767225600
fail=0
for p in profiles/*.yaml tests/golden/layout/*.yaml; do
	[ -f "$p" ] || continue
	n=$(basename "$p" .yaml)
	exp=tests/golden/layout/$n.layout
	got=$("$VITA" render "$p" --dump=layout 2>/dev/null)
	if [ "${UPDATE:-0}" = 1 ]; then
		printf '%s\n' "$got" > "$exp"
		continue
	fi
	if ! printf '%s\n' "$got" | diff -u "$exp" - > /dev/null 2>&1; then
		echo "FAIL: $p differs from $exp:"
		printf '%s\n' "$got" | diff -u "$exp" - | head -30
		fail=1
	fi
done
exit $fail
