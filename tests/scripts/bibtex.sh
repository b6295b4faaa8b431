#!/bin/sh
# BibTeX as real tools write it: what loads, what is reported (located
# warnings; errors with --strict), the limits, and LaTeX -> text.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/bibtex
rm -rf "$OUT"
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }

prof() {   # prof NAME: a profile NAME.yaml reading NAME.bib
	printf 'name: Zhen Zhu\nsections:\n  - title: P\n    type: publications\n    bibtex: %s.bib\n' "$1" > "$OUT/$1.yaml"
}
# dump NAME [ARGS]: the model of NAME.yaml; messages in NAME.err
dump() {
	n=$1; shift
	"$VITA" render "$OUT/$n.yaml" --dump=model "$@" > "$OUT/$n.model" 2> "$OUT/$n.err"
	echo $?
}
has() {   # has FILE STRING...
	f=$1; shift
	for s in "$@"; do grep -qF -- "$s" "$f" || { no "$f: no '$s'"; cat "$f"; }; done
}

# the shapes of real exports: front matter, % comments, @comment(...),
# keys with & . + : /, a broken entry between good ones
cat > "$OUT/real.bib" <<'BIB'
---
layout: none
---
% @inproceedings{commented, title = {Not me}}
@comment(an old entry: @article{gone, title={Gone}})
@preamble{"\newcommand{\noopsort}[1]{}"}
@string{ieee = "IEEE"}
@string{tr = ieee # " Transactions"}
@ARTICLE{2025A&A...699A.372N,
  author = {{Nakamura}, Taro and {Zhu}, Z. and others},
  title = "{Dust at $z\sim2$: H$\alpha$, 10$^{8}$ M$_{\odot}$ \& \textit{more}}",
  journal = {\mnras}, year = 2025, month = jul, volume = 530, number = {2}, pages = {1234-1250},
  archivePrefix = {arXiv}, eprint = {2505.01234}, primaryClass = {astro-ph.GA},
  abstract = {Long.}
}
@article{broken+1:x/y, title = {Broken}, year = 20x5}
@misc{notitle, year = 2020}
@inproceedings{key.with:colon/slash,
  title = {Second -- and---third ``quoted''},
  author = {山田, 太郎 and Zhu, Zhen* and Yuhao Zhu},
  booktitle = tr # " on Things", year = {2024},
  editor = {Ada Lovelace and Alan Turing}, abbr = {TT'24}, selected = {true},
  pdf = {paper.pdf}, code = {https://github.com/x/y}
}
BIB
prof real
rc=$(dump real)
[ "$rc" = 0 ] || { no "real.bib: exit $rc"; cat "$OUT/real.err"; }
has "$OUT/real.model" 'title: "Dust at z∼2: Hα, 10⁸ M⊙ & [i]more[/i]"' \
	'authors: "Taro Nakamura", "Z. Zhu"' 'marks: 2 owner' 'et_al: yes' \
	'venue_full: "Monthly Notices of the Royal Astronomical Society, 530(2):1234–1250"' \
	'link: "arXiv:2505.01234 [astro-ph.GA]" -> "https://arxiv.org/abs/2505.01234"' \
	'title: "Second – and—third “quoted”"' 'authors: "山田太郎", "Zhen Zhu", "Yuhao Zhu"' \
	'marks: 2 owner equal' 'editors: "Ada Lovelace", "Alan Turing"' \
	'venue_full: "IEEE Transactions on Things"' 'venue: "TT'"'"'24"' \
	'link: "Code" -> "https://github.com/x/y"'
grep -q 'Not me\|Gone' "$OUT/real.model" && no "commented-out entries were read"
[ "$(grep -c '^  publication' "$OUT/real.model")" = 2 ] || no "real.bib: expected 2 publications"
# newest first
grep '^    year' "$OUT/real.model" | head -1 | grep -q 2025 || no "real.bib: not newest first"
has "$OUT/real.err" \
	"$OUT/real.bib:16:49: warning: '20x5' is not a number (a value with letters goes in braces); the entry is left out" \
	"$OUT/real.bib:17:1: warning: entry 'notitle' has no title; it is left out" \
	"$OUT/real.bib:14:3: warning: ignored: BibTeX field 'abstract' (vita does not print it; 1 entry)" \
	"$OUT/real.bib:23:3: warning: ignored: field 'pdf' = 'paper.pdf' is not a web address (http:// or https://)"
# --strict: an unusable entry is an error
"$VITA" check --strict "$OUT/real.yaml" 2> "$OUT/strict.err"
[ $? -eq 1 ] || no "--strict: exit is not 1"
has "$OUT/strict.err" "$OUT/real.bib:17:1: error: entry 'notitle' has no title; it is left out"
# --tags selected: only the entries marked selected
dump real --tags selected > /dev/null
[ "$(grep -c '^  publication' "$OUT/real.model")" = 1 ] || no "--tags selected: expected 1 publication"
has "$OUT/real.model" 'Second'

# a URL keeps its ~ and -- (LaTeX is not applied to addresses)
printf '@misc{a, title={T}, url={https://example.org/~user/a--b\\_c.pdf}, doi={10.1000/x\\_y}}\n' > "$OUT/url.bib"
prof url
dump url > /dev/null
has "$OUT/url.model" 'doi: "10.1000/x_y"' 'link: "Paper" -> "https://example.org/~user/a--b_c.pdf"'

# no entries: a warning, not an empty section in silence
printf -- '---\n---\n%% nothing here\n' > "$OUT/empty.bib"
prof empty
dump empty > /dev/null
has "$OUT/empty.err" "$OUT/empty.yaml:5:13: warning: the BibTeX file '$OUT/empty.bib' has no entries"

# limits: @string doubling stops at the string limit, quickly; a value past
# 64 KB is refused; fields past the 256th and macros are reported
python3 - "$OUT" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/double.bib", "w") as f:
    f.write('@string{m0 = "abcdefghijklmnopqrstuvwxyz0123456789"}\n')
    for i in range(1, 40):
        f.write('@string{m%d = m%d # m%d}\n' % (i, i - 1, i - 1))
    f.write('@article{a, title = m39}\n@article{b, title = {Still here}}\n')
with open(d + "/long.bib", "w") as f:
    f.write('@article{a, title = {%s}}\n@article{b, title = {Kept}}\n' % ("x" * 340000))
with open(d + "/macros.bib", "w") as f:
    for i in range(4100):
        f.write('@string{m%d = "v%d"}\n' % (i, i))
    f.write('@article{a, title = m64 # " and " # m4095}\n@article{b, title = m4099}\n')
with open(d + "/fields.bib", "w") as f:
    f.write('@article{a, title = {T}, %s}\n' % ", ".join("f%d = {v}" % i for i in range(300)))
PY
for n in double long fields macros; do prof $n; done
# the 65th macro works (it was dropped); past the 4096th: said, entry left out
dump macros > /dev/null
has "$OUT/macros.model" 'title: "v64 and v4095"'
has "$OUT/macros.err" "$OUT/macros.bib:4097:9: warning: more than 4096 @string macros; 'm4096' is ignored" \
	"warning: unknown @string macro 'm4099'; the entry is left out"
timeout 5 "$VITA" render "$OUT/double.yaml" --dump=model > "$OUT/double.model" 2> "$OUT/double.err" || no "double.bib: exit $?"
has "$OUT/double.err" "warning: a value longer than 65536 bytes (after @string expansion); the entry is left out"
has "$OUT/double.model" "Still here"
dump long > /dev/null
has "$OUT/long.err" "$OUT/long.bib:1:21: warning: a value longer than 65536 bytes (after @string expansion); the entry is left out"
has "$OUT/long.model" "Kept"
dump fields > /dev/null
has "$OUT/fields.err" "$OUT/fields.bib:1:2976: warning: more than 256 fields in one entry: field 'f255' and the ones after it are ignored" \
	"$OUT/fields.bib:1:192: warning: ignored: 239 more BibTeX fields of other names (the first is here)"

# phone numbers become tel: links as RFC 3966 writes them; text without
# digits gets none (issue 15, item 27)
printf 'name: A\ncontact:\n  phone: "+1 (555) 0100 ext. 5"\nsections: []\n' > "$OUT/tel1.yaml"
printf 'name: A\ncontact:\n  phone: "call me"\nsections: []\n' > "$OUT/tel2.yaml"
"$VITA" render "$OUT/tel1.yaml" --dump=model | grep -qF '"tel:+15550100;ext=5"' || no "tel: with an extension"
"$VITA" render "$OUT/tel2.yaml" --dump=model > "$OUT/tel2.model" || no "tel2: exit $?"
grep -q 'tel:' "$OUT/tel2.model" && no "'call me' got a tel: link"
"$VITA" render "$OUT/tel2.yaml" -o "$OUT/tel2.pdf" || no "tel2: render exit $?"
# every locale words the genres and editors (phrases from locales/*.yaml,
# none from C): @phdthesis and @mastersthesis without `type`, biblatex's
# type = {phdthesis}, @techreport (with and without a venue), one editor
# and two; a thesis in its own words keeps them
cat > "$OUT/genre.bib" <<'BIB'
@phdthesis{a, title={Deep Things}, author={Zhu, Zhen}, school={Stanford University}, year={2020}}
@mastersthesis{b, title={Shallow Things}, author={Zhu, Zhen}, school={MIT}, year={2016}}
@thesis{c, title={Biblatex Thesis}, author={Zhu, Zhen}, institution={ETH}, type={phdthesis}, year={2019}}
@techreport{d, title={A Report}, author={Zhu, Zhen}, institution={CMU}, number={42}, year={2015}}
@techreport{e, title={No Venue}, author={Zhu, Zhen}, year={2013}}
@phdthesis{f, title={Own Words}, author={Zhu, Zhen}, school={Oxford}, type={DPhil thesis}, year={2014}}
@incollection{g, title={One Chapter}, author={Zhu, Zhen}, editor={Doe, John}, booktitle={The Book}, year={2012}}
@incollection{h, title={Two Chapter}, author={Zhu, Zhen}, editor={Doe, John and Poe, Ed}, booktitle={The Book}, year={2011}}
BIB
prof genre
[ "$(dump genre)" = 0 ] || no "genre: exit"
has "$OUT/genre.model" 'genre: "phdthesis"' 'genre: "mastersthesis"' 'genre: "techreport"'
grep -rn -e '"PhD thesis' -e "Master's thesis" -e '"Technical report' src/ && no "genre phrases in C"
for f in locales/*.yaml; do
	code=$(basename "$f" .yaml)
	"$VITA" render "$OUT/genre.yaml" --lang "$code" --format json -o "$OUT/genre-$code.json" 2>/dev/null ||
		{ no "genre --lang $code: exit"; continue; }
	SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$OUT/genre.yaml" --lang "$code" -o "$OUT/genre-$code.pdf" 2>/dev/null ||
		{ no "genre --lang $code: render"; continue; }
	pdftotext -enc UTF-8 "$OUT/genre-$code.pdf" - | tr -s '\n ' '  ' > "$OUT/genre-$code.txt"
	python3 - "$f" "$OUT/genre-$code.json" "$OUT/genre-$code.txt" <<'PY' || fail=1
import json, sys, yaml
loc = yaml.safe_load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
txt = open(sys.argv[3]).read()
code = loc["code"]
ven = {p["title"]["text"]: (p["venue_full"] or {}).get("text") for p in d["sections"][0]["publications"]}
def want(t, key, venue):
    v = loc[key].replace("{venue}", venue)
    if not venue:
        v = v.strip(" ,，、،")
    if ven.get(t) != v:
        print(f"FAIL: genre {code}: {t}: {ven.get(t)!r}, expected {v!r} (locale key {key})")
        return 1
    return 0
bad = want("Deep Things", "phdthesis", "Stanford University")
bad |= want("Shallow Things", "mastersthesis", "MIT")
bad |= want("Biblatex Thesis", "phdthesis", "ETH")
bad |= want("A Report", "techreport", "CMU, 42")
bad |= want("No Venue", "techreport", "")
if ven.get("Own Words") != "Oxford, DPhil thesis":
    print(f"FAIL: genre {code}: own words: {ven.get('Own Words')!r}"); bad = 1
if not loc.get("rtl"):   # pdftotext's order is the logical one for LTR text
    for key, names in (("editor", "John Doe"), ("editors", "John Doe, Ed Poe")):
        e = loc[key].replace("{names}", names)
        if e not in txt:
            print(f"FAIL: genre {code}: no {key} phrase {e!r} in the PDF"); bad = 1
sys.exit(bad)
PY
done

exit $fail
