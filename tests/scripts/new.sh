#!/bin/sh
# vita new NAME [-o FILE]: whatever NAME holds, the starter profile loads,
# keeps NAME exactly (as name and as the first author) and renders; -o
# refuses to overwrite; a NAME that is not UTF-8 or blank is a usage error.
# Env: VITA (the binary), BUILD (scratch directory). Needs python3-yaml.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/new
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }

# one name per line; \n, \t, \r, \0001 written as escapes, expanded by printf %b
cat > "$W/names" <<'NAMES'
Ada Lovelace
Ada: Lovelace
O'Brien # x
- Ada
Jane Doe, Jr.
"Quoted" Name
'single'
back\\slash\\n
Line\nBreak
Tab\tName
Carriage\rReturn
Ctrl\0001Char
  leading and trailing spaces  
? question
! tag
& anchor
* alias
%directive
@at `tick`
[flow, list]
{flow: map}
|
>
---
...
null
~
true
123
0x1F
2024-01-01
José Núñez-Ñandú
朱展达
山本 遥
Łukasz Żółć
Ærøskøbing
Владимир
عائشة
emoji 🎓
‘curly’ “quotes”
a b (line separator)
nextline
﻿bom
NAMES
i=0
while IFS= read -r raw; do
	i=$((i + 1))
	name=$(printf '%b.' "$raw")    # the dot keeps trailing spaces and newlines
	name=${name%.}
	f="$W/n$i.yaml"
	if ! "$VITA" new -o "$f" -- "$name" 2>"$W/n$i.err"; then
		no "new '$raw': $(cat "$W/n$i.err")"; continue
	fi
	out=$("$VITA" check "$f" 2>&1) || { no "new '$raw' does not load: $out"; continue; }
	python3 - "$f" "$name" <<'PY' || no "new '$raw': the name is not kept exactly"
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
name = sys.argv[2]
assert doc["name"] == name, (doc["name"], name)
pubs = [s for s in doc["sections"] if s["type"] == "publications"][0]
assert pubs["entries"][0]["authors"] == [name, "A. Coauthor"], pubs["entries"][0]["authors"]
assert len(doc["sections"]) == 4
PY
	SOURCE_DATE_EPOCH=0 "$VITA" render "$f" -o "$W/n$i.pdf" 2>"$W/n$i.rerr" ||
		no "new '$raw' does not render: $(cat "$W/n$i.rerr")"
done < "$W/names"
[ "$i" -ge 40 ] || no "only $i names tried"

# the first line is for yaml-language-server; stdout works too
"$VITA" new "Ada" -o - | grep -q '^name: "Ada"$' || no "-o - is stdout"

# never overwrite
echo keep > "$W/exists.yaml"
"$VITA" new "Ada" -o "$W/exists.yaml" 2>"$W/exists.err"; c=$?
[ $c = 3 ] || no "overwrite: exit $c, expected 3"
[ "$(cat "$W/exists.yaml")" = keep ] || no "an existing file was changed"
grep -q 'already exists' "$W/exists.err" || no "overwrite message: $(cat "$W/exists.err")"

# bad names are usage errors
"$VITA" new "$(printf 'bad\377utf8')" >/dev/null 2>&1; c=$?; [ $c = 2 ] || no "invalid UTF-8: exit $c"
"$VITA" new "- Ada" >/dev/null 2>&1; c=$?; [ $c = 2 ] || no "'- Ada' without --: exit $c"
"$VITA" new "   " >/dev/null 2>&1; c=$?; [ $c = 2 ] || no "blank name: exit $c"
"$VITA" new >/dev/null 2>&1; c=$?; [ $c = 2 ] || no "no name: exit $c"
exit $fail
