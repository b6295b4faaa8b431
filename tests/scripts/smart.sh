#!/bin/sh
# Smart punctuation (locale_smart): tests/locale/smart.yaml rendered in
# English, German, French and Japanese shows ’ for apostrophes and year
# elisions, the locale's quotes, – for ranges and -- and spaced hyphens,
# — for ---, … for ...; URLs, e-mail addresses, ISBNs, phone numbers and
# `code` keep their straight characters; the HTML shows the same words.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/smart
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
P=tests/locale/smart.yaml
has() { grep -qF -- "$2" "$OUT/$1.txt" || no "$1: '$2' not on the page"; }
for l in en de fr ja; do
	"$VITA" render "$P" --lang $l -o "$OUT/$l.pdf" 2>"$OUT/$l.err" || no "$l: exit $?"
	pdftotext -enc UTF-8 "$OUT/$l.pdf" - | tr '\n' ' ' > "$OUT/$l.txt"
	has $l 'Seán O’Brien'
	has $l 'Master’s student – '
	has $l 'research, 2019–2021 … see https://x.org/a'"'"'b-c and a@b.com'
	has $l 'EuroSys ’26'
	has $l 'pp. 12–15, ISBN 978-3-16-148410-0, tel 555-1234-99, the ’90s'
	has $l 'and `a--b`.'
	has $l '– B — C – D'
done
has en '“systems”'; has en 'The ‘quoted’ title: “A”'
has de '„systems“'; has de 'The ‚quoted‘ title: „A“'
has fr '« systems »'; has fr 'The “quoted” title: « A »'
has ja '「systems」'; has ja 'The 『quoted』 title: 「A」'
# the author list keeps matching the (smartened) name: still bold
"$VITA" render "$P" --dump=layout | grep -q 'face=0 .*"Seán O’Brien"' || no "author O’Brien is not highlighted"
# HTML: the same words
"$VITA" render "$P" --format html -o "$OUT/en.html" 2>/dev/null && grep -qF 'EuroSys ’26' "$OUT/en.html" ||
	no "HTML lacks the typographic punctuation"
[ $fail -eq 0 ] && echo "smart: ok"
exit $fail
