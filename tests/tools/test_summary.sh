#!/bin/sh
# test_summary.sh BUILD...: the closing line of make check and make
# check-tests, "N passed, M failed", over the tests that each
# BUILD/t/expected names (tests/tools/run_test.sh left BUILD/t/NAME.ok or
# NAME.fail). A test with no result did not run (its build failed): a
# failure. The failed tests are named once more just before the line (in
# the parallel run their reports are somewhere above). Exit 1 if any failed.
set -u
pass=0 fail=0 failed=
for b; do
	if [ ! -s "$b/t/expected" ]; then
		fail=$((fail + 1)) failed="$failed
  $b: no test ran"
		continue
	fi
	while read -r t; do
		if [ -f "$b/t/$t.ok" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			why=; [ -f "$b/t/$t.fail" ] || why=": did not run"
			failed="$failed
  $t ($b$why)"
		fi
	done <"$b/t/expected"
done
[ $fail = 0 ] || echo "failed:$failed"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
