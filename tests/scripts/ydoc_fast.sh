#!/bin/sh
# ydoc_fast (the YAML reader without libyaml) against libyaml on random
# documents (tests/tools/gen_yaml.py, fixed seeds) and on every YAML file
# of the tree: each one ydoc_fast reads must be the very tree libyaml
# gives, and about half of the random ones must be read (the rest are the
# near misses it leaves to libyaml).
set -u
BUILD=${BUILD:-build}
T=$BUILD/tests/test_ydoc
W=$BUILD/ydoc_fast
fail=0
no() { echo "FAIL: $*"; fail=1; }
[ -x "$T" ] || { echo "FAIL: no $T (make it first)"; exit 1; }
rm -rf "$W"; mkdir -p "$W"
for seed in 11 12; do
	python3 tests/tools/gen_yaml.py $seed "$W/s$seed" 1500 || no "gen_yaml.py $seed"
	out=$("$T" --compare "$W/s$seed"/*.yaml) || no "seed $seed: $out"
	echo "seed $seed: $out"
	fast=$(echo "$out" | sed -n 's/.* \([0-9]*\) read by.*/\1/p')
	[ "${fast:-0}" -ge 500 ] || no "seed $seed: only ${fast:-0} of 1500 read by ydoc_fast"
done
files=$(find profiles layouts locales fonts examples tests -name '*.yaml' -o -name '*.yml' | grep -v node_modules)
out=$("$T" --compare $files) || no "the tree's YAML files: $out"
echo "tree: $out"
rm -rf "$W"
exit $fail
