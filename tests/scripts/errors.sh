#!/bin/sh
# errors.sh: the bad-input corpus. Each tests/errors/NAME.yaml must make
# `$VITA check` exit 1 with exactly tests/errors/NAME.expected on stderr.
# Also: the real profiles check clean, generated huge inputs (deep nesting,
# a 5 MB string) are refused cleanly. (tests/pathological/* are rendered
# by pathological.sh.)
# Env: VITA (the binary), BUILD (scratch directory).
VITA=${VITA:-build/vita}
BUILD=${BUILD:-build}
T=$BUILD/errors-test
rm -rf "$T"
mkdir -p "$T"
fail=0
n=0

# expect FILE EXPECTED_STDERR_FILE
expect() {
	n=$((n + 1))
	timeout 10 "$VITA" check "$1" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne 1 ]; then
		echo "FAIL $1: exit $rc, expected 1"; cat "$T/err"; fail=1; return
	fi
	if ! diff -u "$2" "$T/err"; then
		echo "FAIL $1: stderr differs (above)"; fail=1; return
	fi
	if [ -s "$T/out" ]; then
		echo "FAIL $1: unexpected stdout"; fail=1
	fi
}

for y in tests/errors/*.yaml; do
	expect "$y" "${y%.yaml}.expected"
done

# The real profiles load cleanly and silently.
for p in profiles/*.yaml; do
	[ -e "$p" ] || continue
	n=$((n + 1))
	if ! timeout 10 "$VITA" check "$p" >"$T/out" 2>&1 || [ -s "$T/out" ]; then
		echo "FAIL $p: does not check clean"; cat "$T/out"; fail=1
	fi
done

# 20,000 levels of nesting, flow and block style.
awk 'BEGIN { printf "name: x\nsections: "; for (i = 0; i < 20000; i++) printf "["; for (i = 0; i < 20000; i++) printf "]"; printf "\n" }' >"$T/deep-flow.yaml"
echo "$T/deep-flow.yaml:2:74: error: nesting deeper than 64 levels" >"$T/deep-flow.expected"
expect "$T/deep-flow.yaml" "$T/deep-flow.expected"
awk 'BEGIN { printf "name: x\nsections:\n"; for (i = 0; i < 20000; i++) printf "- "; printf "x\n" }' >"$T/deep-block.yaml"
echo "$T/deep-block.yaml:3:127: error: nesting deeper than 64 levels" >"$T/deep-block.expected"
expect "$T/deep-block.yaml" "$T/deep-block.expected"

# A 5 MB string: refused as too long, quickly.
awk 'BEGIN { printf "name: \""; for (i = 0; i < 81920; i++) printf "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"; printf "\"\nsections: []\n" }' >"$T/huge-string.yaml"
echo "$T/huge-string.yaml:1:7: error: 'name' is too long (5242880 bytes; at most 65536)" >"$T/huge-string.expected"
expect "$T/huge-string.yaml" "$T/huge-string.expected"

echo "errors.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
