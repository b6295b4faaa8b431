#!/bin/sh
# docs/vita.schema.json is what `vita schema` prints (regenerate with
# `vita schema > docs/vita.schema.json`), built from the loader's key
# tables; the bundled and test profiles validate against it, profiles vita
# refuses for a key or a type do not, every loader key is in it and in
# docs/profile.md. Env: VITA, BUILD. Needs python3-jsonschema, python3-yaml.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/schema
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }

"$VITA" schema > "$W/schema.json" || no "vita schema failed"
diff -u docs/vita.schema.json "$W/schema.json" > "$W/diff" ||
	no "docs/vita.schema.json is stale: $(head -20 "$W/diff")"

"$VITA" new "Ada Lovelace" > "$W/new.yaml"
grep -q '^# yaml-language-server: \$schema=.*vita\.schema\.json$' "$W/new.yaml" ||
	no "vita new writes no yaml-language-server line"
# the example at the end of docs/profile.md loads
awk '/^## Example/ {on = 1} on && /^```$/ {exit} on == 2 {print} on && /^```yaml/ {on = 2}' \
	docs/profile.md > "$W/doc-example.yaml"
"$VITA" check "$W/doc-example.yaml" || no "the example in docs/profile.md does not load"
# the valid inputs: every native profile the tests render
valid="profiles/*.yaml tests/golden/*.yaml tests/golden/layout/*.yaml $W/new.yaml $W/doc-example.yaml"
# refused by vita for what a schema can see (keys, types, required keys)
invalid="tests/errors/unknown-key.yaml tests/errors/unknown-type.yaml
  tests/errors/missing-name.yaml tests/errors/missing-sections.yaml
  tests/errors/entry-missing-title.yaml tests/errors/sections-string.yaml
  tests/errors/section-missing-title-type.yaml tests/errors/version.yaml"
for f in $invalid; do "$VITA" check "$f" >/dev/null 2>&1 && no "$f is valid for vita"; done
python3 tests/tools/schema_check.py "$W/schema.json" $valid --invalid $invalid || fail=1
exit $fail
