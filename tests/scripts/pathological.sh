#!/bin/sh
# pathological.sh: render every tests/pathological/NAME.yaml (not only
# check it) under a time limit; the exit status and messages must be those
# NAME.expect gives, there must be no sanitizer report, and a PDF that was
# written must pass qpdf --check. See tests/pathological/README.md.
# Env: VITA (the binary), BUILD (scratch directory).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/pathological
rm -rf "$W"
mkdir -p "$W"
fail=0
n=0
no() { echo "FAIL: $*"; fail=1; }

for p in tests/pathological/*.yaml; do
	[ -e "$p" ] || continue
	name=$(basename "$p" .yaml)
	exp=tests/pathological/$name.expect
	n=$((n + 1))
	[ -f "$exp" ] || { no "$p: no $exp"; continue; }
	want=$(sed -n 's/^exit //p' "$exp")
	SOURCE_DATE_EPOCH=1767225600 timeout 20 "$VITA" render "$p" -o "$W/$name.pdf" >/dev/null 2>"$W/$name.err"
	rc=$?
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$W/$name.err"; then
		no "$p: sanitizer report"; head -20 "$W/$name.err"; continue
	fi
	[ "$rc" = "$want" ] || { no "$p: exit $rc, want $want"; head -5 "$W/$name.err"; continue; }
	sed -n 's/^stderr //p' "$exp" | while IFS= read -r pat; do
		grep -q -e "$pat" "$W/$name.err" || echo "$pat"
	done >"$W/$name.missing"
	[ -s "$W/$name.missing" ] && no "$p: stderr lacks: $(cat "$W/$name.missing")"
	if [ "$rc" = 0 ]; then
		[ -s "$W/$name.pdf" ] || { no "$p: no PDF"; continue; }
		if command -v qpdf >/dev/null; then
			qpdf --check "$W/$name.pdf" >"$W/$name.qpdf" 2>&1 || { no "$p: qpdf --check"; tail -3 "$W/$name.qpdf"; }
		fi
	else
		[ -e "$W/$name.pdf" ] && no "$p: a PDF was written although it failed"
	fi
done
echo "pathological.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
