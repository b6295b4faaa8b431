#!/bin/sh
# run_test.sh RESULT LOG LINES LABEL CMD...: one test of `make check-tests`
# (a unit test program or a script suite). Runs CMD with its output in LOG
# and leaves RESULT.ok or RESULT.fail, and RESULT.time (CPU seconds,
# user + system, of CMD and everything it waited for: `make test-times`
# lists them). Prints "ok   LABEL", or "FAIL LABEL" and the LOG's last
# LINES lines (all of it for LINES=all), in one write, so that two tests
# running side by side under make -j2 do not mix their reports.
# Exit 0 or 1 as the test.
set -u
res=$1 log=$2 lines=$3 label=$4
shift 4
rm -f "$res.ok" "$res.fail" "$res.time"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%U %S %e' -o "$res.rusage" "$@" >"$log" 2>&1
	rc=$?
	# (time puts "Command exited with non-zero status N" first on failure)
	tail -1 "$res.rusage" | awk '{printf "%.2f %.2f\n", $1 + $2, $3}' >"$res.time"
	rm -f "$res.rusage"
else
	"$@" >"$log" 2>&1
	rc=$?
fi
if [ $rc = 0 ]; then
	: >"$res.ok"
	echo "ok   $label"
	exit 0
fi
: >"$res.fail"
{
	echo "FAIL $label (exit $rc; log: $log)"
	if [ "$lines" = all ]; then cat "$log"; else tail -n "$lines" "$log"; fi
} >"$res.report"
cat "$res.report"
rm -f "$res.report"
exit 1
