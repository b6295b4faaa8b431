#!/bin/sh
# model_golden.sh: `$VITA render X --dump=model` must equal the stored dump,
# for profiles/*.yaml (tests/golden/NAME.model) and tests/golden/*.yaml.
# tests/golden/NAME.args may list variants, one a line: "VARIANT ARGS...",
# compared with tests/golden/NAME.VARIANT.model.
# UPDATE=1 rewrites the expected files instead (review the diff!).
VITA=${VITA:-build/vita}
BUILD=${BUILD:-build}
T=$BUILD/model-golden
mkdir -p "$T"
fail=0
n=0

# check INPUT EXPECTED ARGS...
check() {
	in=$1
	exp=$2
	shift 2
	n=$((n + 1))
	if ! timeout 10 "$VITA" render "$in" --dump=model "$@" >"$T/out" 2>"$T/err"; then
		echo "FAIL $in $*: exit status $?"; cat "$T/err"; fail=1; return
	fi
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$T/out" "$exp"; echo "updated $exp"; return
	fi
	if [ ! -f "$exp" ]; then
		echo "FAIL $in: no $exp (run with UPDATE=1)"; fail=1; return
	fi
	if ! diff -u "$exp" "$T/out"; then
		echo "FAIL $in $*: model dump differs from $exp (above)"; fail=1
	fi
}

for p in profiles/*.yaml tests/golden/*.yaml; do
	[ -e "$p" ] || continue
	name=$(basename "$p" .yaml)
	check "$p" "tests/golden/$name.model"
	args=tests/golden/$name.args
	[ -f "$args" ] || continue
	while read -r variant rest; do
		[ -n "$variant" ] || continue
		# shellcheck disable=SC2086
		check "$p" "tests/golden/$name.$variant.model" $rest
	done <"$args"
done
echo "model_golden.sh: $n dumps, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
