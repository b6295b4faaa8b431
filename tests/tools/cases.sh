# cases.sh: the case runner harden.sh and hostile.sh share (sourced, not a
# suite). The caller sets VITA (the binary), W (the scratch directory) and
# CASE_SECS (the time a case may take), and reads fail and n at the end.
fail=0
n=0
no() { echo "FAIL: $*"; fail=1; }

# run NAME WANT_EXIT [GREP_STDERR] -- ARGS...: one case: the exit status
# it names, no sanitizer report, no hang, and stderr matching GREP_STDERR.
run() {
	name=$1 want=$2 pat=$3
	shift 4
	n=$((n + 1))
	timeout "$CASE_SECS" "$VITA" "$@" >"$W/$name.out" 2>"$W/$name.err"
	rc=$?
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$W/$name.err"; then
		no "$name: sanitizer report"; head -20 "$W/$name.err"; return
	fi
	[ "$rc" = "$want" ] || { no "$name: exit $rc, want $want"; head -5 "$W/$name.err"; return; }
	if [ -n "$pat" ] && ! grep -q -e "$pat" "$W/$name.err"; then
		no "$name: stderr lacks '$pat'"; head -5 "$W/$name.err"
	fi
}
