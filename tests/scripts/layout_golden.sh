#!/bin/sh
# Golden page lists: `vita render X --dump=layout` for the bundled profiles
# and the focused cases in tests/golden/layout/*.yaml must equal the
# committed .layout files; and the first seed profile in every other
# bundled layout (zhanda-zhu.LAYOUT.layout). UPDATE=1 rewrites them (make golden-update);
# review the diff before committing. A vita that fails is a failure, also
# under UPDATE=1 (a golden file is never written from a failed run).
set -u
VITA=${VITA:-build/vita}
export SOURCE_DATE_EPOCH=1767225600
fail=0
# compare NAME EXPECTED ARGS...: the layout dump of vita render ARGS
# against EXPECTED (rewritten instead with UPDATE=1)
compare() {
	what=$1 exp=$2
	shift 2
	got=$(timeout 30 "$VITA" render "$@" --dump=layout 2>"${TMPDIR:-/tmp}/layout_golden.$$")
	rc=$?
	if [ $rc != 0 ]; then
		echo "FAIL: $what: vita exited with status $rc:"; head -5 "${TMPDIR:-/tmp}/layout_golden.$$"
		fail=1
		return
	fi
	if [ "${UPDATE:-0}" = 1 ]; then
		printf '%s\n' "$got" > "$exp"
		return
	fi
	if ! printf '%s\n' "$got" | diff -u "$exp" - > /dev/null 2>&1; then
		echo "FAIL: $what differs from $exp:"
		printf '%s\n' "$got" | diff -u "$exp" - | head -30
		fail=1
	fi
}
for p in profiles/*.yaml tests/golden/layout/*.yaml; do
	[ -f "$p" ] || continue
	compare "$p" "tests/golden/layout/$(basename "$p" .yaml).layout" "$p"
done
for lay in layouts/*.yaml; do
	l=$(basename "$lay" .yaml)
	[ "$l" = academic ] && continue
	compare "zhanda-zhu -l $l" "tests/golden/layout/zhanda-zhu.$l.layout" profiles/zhanda-zhu.yaml -l "$l"
done
rm -f "${TMPDIR:-/tmp}/layout_golden.$$"
exit $fail
