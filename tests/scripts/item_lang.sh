#!/bin/sh
# A publication or entry in another language than the CV (`lang: en` in
# a German CV; BibTeX langid/language): its words hyphenate with its own
# patterns (inline.c span_hyph, from the layout's hyph_set), the tagged
# PDF marks its text /Lang (en), HTML puts lang="en" on it, the model and
# JSON say lang. Checked:
#  - a long English title in a German CV, sidebar layout (a narrow column
#    that hyphenates): with lang: en its lines are those of the same title
#    in an English CV, and differ from the German-patterned ones without;
#  - a Chinese CV (no patterns of its own): the English title with
#    lang: en is hyphenated, as in the English CV;
#  - qpdf finds /Lang (en) in the German CV's structure tree;
#  - --format html: <li class="vita-pub" lang="en">; --format json:
#    "lang": "en";
#  - .bib: langid = {english} -> lang: en; language = {German} -> de;
#    language = {de-CH} -> de-CH; language = {Klingon} -> none.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/item_lang
rm -rf "$OUT"; mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
TITLE="characterization internationalization responsibilities acknowledgements reconfigurable heterogeneous characterization internationalization responsibilities acknowledgements reconfigurable heterogeneous characterization internationalization responsibilities"
cv() { # file cv-lang pub-lang (or -)
	{
		printf 'name: Anna Schmidt\nlang: %s\nsections:\n  - title: X\n    type: publications\n    entries:\n' "$2"
		printf '      - title: "A title"\n        authors: [Anna Schmidt]\n        year: 2024\n        summary: "%s"\n' "$TITLE"
		[ "$3" = - ] || printf '        lang: %s\n' "$3"
	} > "$1"
}
cv "$OUT/en.yaml" en -
cv "$OUT/de-en.yaml" de en
cv "$OUT/de.yaml" de -
cv "$OUT/zh-en.yaml" zh en
# the summary's lines (its runs joined per line), a hyphenated one ends in -
lines() {
	"$VITA" render "$1" -l sidebar --dump=layout 2>/dev/null | awk -F'"' '
		/^run / && /size=8800/ { y = $0; sub(/.* y=/, "", y); sub(/ .*/, "", y)
			if (y != last && last != "") print line; if (y != last) line = ""
			line = line $2; last = y }
		END { print line }' | grep -F -e Char -e ization -e ability -e memory -e heterog
}
lines "$OUT/en.yaml" > "$OUT/en.lines"
lines "$OUT/de-en.yaml" > "$OUT/de-en.lines"
lines "$OUT/de.yaml" > "$OUT/de.lines"
lines "$OUT/zh-en.yaml" > "$OUT/zh-en.lines"
grep -q -- '-$' "$OUT/en.lines" || no "the English CV's title is not hyphenated (the test needs it):$(cat "$OUT/en.lines")"
cmp -s "$OUT/en.lines" "$OUT/de-en.lines" ||
	{ no "lang: en in a German CV: not the English lines:"; diff "$OUT/en.lines" "$OUT/de-en.lines"; }
cmp -s "$OUT/en.lines" "$OUT/de.lines" &&
	no "the German patterns give the English lines: the test shows nothing"
cmp -s "$OUT/en.lines" "$OUT/zh-en.lines" ||
	{ no "lang: en in a Chinese CV: not the English lines:"; diff "$OUT/en.lines" "$OUT/zh-en.lines"; }
"$VITA" render "$OUT/de-en.yaml" -o "$OUT/de-en.pdf" 2>/dev/null || no "render de-en"
qpdf --qdf --object-streams=disable "$OUT/de-en.pdf" - 2>/dev/null | grep -aq '/Lang (en)' ||
	no "no /Lang (en) in the German CV's PDF"
"$VITA" render "$OUT/de-en.yaml" --format html -o "$OUT/de-en.html" 2>/dev/null || no "html"
grep -q '<li class="vita-pub" lang="en"' "$OUT/de-en.html" || no "html: no lang=\"en\" on the publication"
"$VITA" render "$OUT/de-en.yaml" --format json -o - 2>/dev/null |
	python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d["sections"][0]["publications"][0]["lang"] != "en")' ||
	no "json: the publication's lang is not en"
"$VITA" render "$OUT/de.yaml" --format html -o - 2>/dev/null | grep -q 'vita-pub" lang=' &&
	no "html: lang on a publication in the CV's language"
cat > "$OUT/p.bib" <<'BIB'
@article{a, title={Alpha}, author={Schmidt, Anna}, journal={J}, year={2024}, langid={english}}
@article{b, title={Beta}, author={Schmidt, Anna}, journal={J}, year={2023}, language={German}}
@article{c, title={Gamma}, author={Schmidt, Anna}, journal={J}, year={2022}, language={de-CH}}
@article{d, title={Delta}, author={Schmidt, Anna}, journal={J}, year={2021}, language={Klingon}}
BIB
printf 'name: Anna Schmidt\nlang: de\nsections:\n  - title: X\n    type: publications\n    bibtex: p.bib\n' > "$OUT/bib.yaml"
"$VITA" render "$OUT/bib.yaml" --dump=model 2>"$OUT/bib.err" | awk '
	/^    title:/ { t = $2 } /^    lang:/ { print t, $2 } /^  - |^  [a-z]/ { t = "" }' > "$OUT/bib.langs"
printf '"Alpha" en\n"Beta" de\n"Gamma" de-CH\n' | cmp -s - "$OUT/bib.langs" ||
	{ no "bib langs:"; cat "$OUT/bib.langs"; }
[ -s "$OUT/bib.err" ] && { no "bib: warnings:"; cat "$OUT/bib.err"; }
[ $fail = 0 ] && echo "item_lang: ok"
exit $fail
