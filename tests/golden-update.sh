#!/bin/sh
# Rewrite every golden file from the current build; review `git diff`.
VITA=${1:-build/vita}
fail=0
for s in tests/scripts/*golden*.sh; do UPDATE=1 VITA=$VITA sh "$s" || fail=1; done
git status --short tests/golden
[ $fail = 0 ] || echo "golden-update: vita failed on some input (above); fix it first" >&2
exit $fail
