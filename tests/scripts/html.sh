#!/bin/sh
# --format html / html-fragment / json (issue 11 item 6): the page parses
# as HTML5, has no JavaScript and makes no request, carries JSON-LD and the
# owner's name marked, and contains every word the PDF contains, in the
# profile's language and in German (tests/tools/html_check.py); the JSON is
# the model; headless Chromium renders the page to a screenshot.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/html
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import html5lib' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || echo "skip: python3-html5lib not installed (the HTML5 parser check)"

for p in profiles/zhanda-zhu.yaml profiles/ziming-liu.yaml tests/golden/layout/full.yaml tests/golden/layout/groups.yaml; do
	for lang in "" de; do
		n=$(basename "$p" .yaml)${lang:+-$lang}
		set -- ${lang:+--lang "$lang"}
		"$VITA" render "$p" "$@" -o "$W/$n.pdf" --set footer.show=false 2>/dev/null || { no "$n: pdf"; continue; }
		pdftotext -enc UTF-8 "$W/$n.pdf" "$W/$n.txt"
		"$VITA" render "$p" "$@" --format html -o "$W/$n.html" 2>/dev/null || no "$n: --format html"
		"$VITA" render "$p" "$@" --format html-fragment -o "$W/$n.frag.html" 2>/dev/null || no "$n: html-fragment"
		"$VITA" render "$p" "$@" --format json -o "$W/$n.json" 2>/dev/null || no "$n: --format json"
		owner=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["name"])' "$W/$n.json") \
			|| { no "$n: the JSON does not parse"; continue; }
		if [ -n "$PY" ]; then
			"$PY" tests/tools/html_check.py "$W/$n.html" "$W/$n.frag.html" "$W/$n.json" "$W/$n.txt" "$owner" \
				|| no "$n: html_check"
		fi
		grep -q '^<!DOCTYPE html>' "$W/$n.frag.html" && no "$n: the fragment is a whole page"
	done
done
grep -q '<html lang="de"' "$W/full-de.html" || no "--lang de: the page is not lang=de"
grep -q 'heute\|Juni' "$W/zhanda-zhu-de.html" || no "--lang de: no German date words"
grep -q -- '--vita-accent:#' "$W/full.html" || no "no layout colours as custom properties"
grep -q -- '--vita-font-body:"Noto Serif"' "$W/full.html" || no "no layout fonts as custom properties"
"$VITA" render tests/golden/layout/full.yaml --format html --set colors.accent='#ff0000' -o "$W/red.html"
grep -q -- '--vita-accent:#ff0000' "$W/red.html" || no "--set colors.accent does not reach the CSS"

# stdout, default names, bad formats
"$VITA" render profiles/zhanda-zhu.yaml --format json -o - | python3 -m json.tool >/dev/null || no "json to stdout"
cp profiles/zhanda-zhu.yaml "$W/def.yaml"
"$VITA" render "$W/def.yaml" --format html && [ -s "$W/def.html" ] || no "default output name .html"
"$VITA" render "$W/def.yaml" --format xml >/dev/null 2>&1; [ $? = 2 ] || no "--format xml: not a usage error"
"$VITA" batch "$W/def.yaml" -d "$W/b" --format html 2>/dev/null && [ -s "$W/b/def.html" ] || no "batch --format html"

# a browser renders it (no network: nothing to fetch anyway)
B=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$B" ]; then
	U=$(mktemp -d)
	timeout 90 "$B" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$U" \
		--window-size=900,1300 --screenshot="$W/full.png" "file://$(pwd)/$W/full.html" >/dev/null 2>&1
	rm -rf "$U"
	[ -s "$W/full.png" ] && [ "$(wc -c < "$W/full.png")" -gt 20000 ] || no "chromium: no screenshot"
else
	echo "skip: chromium not installed (the browser screenshot)"
fi
exit $fail
