#!/bin/sh
# Tagged PDF/UA-1 + PDF/A-2 by default (issue 10):
#  - the bundled profiles and golden cases pass tests/tools/pdfua_check.py
#    (Matterhorn / PDF/A-2 machine-checkable conditions), --require: tagged
#  - the checker bites: each broken copy (pdfua_break.py) fails with its
#    message
#  - two independent readers agree on the headings, in reading order:
#    poppler (pdfinfo -struct-text) and pdf.js (getStructTree)
#  - the native name is a Span with /Lang zh; links are Link elements with
#    their text as /Contents; the photo's /Alt is photo_alt or the locale's
#    default, also when photo_alt is blank
#  - --pdf=plain: untagged, no claims; the tags cost at most 15% of the file
#  - /ID and bytes follow the content: identical for one input, different
#    for another
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/pdfua
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
PY=/usr/bin/python3
export SOURCE_DATE_EPOCH=1767225600

pdfs=""
for p in profiles/*.yaml tests/golden/layout/*.yaml; do
	n=$(basename "$p" .yaml)
	"$VITA" render "$p" -o "$W/$n.pdf" 2>/dev/null || no "$p: render exit $?"
	pdfs="$pdfs $W/$n.pdf"
done
# shellcheck disable=SC2086
$PY tests/tools/pdfua_check.py --require $pdfs || no "a default render fails the PDF/UA / PDF/A check"

# the checker bites: CASE and the message it must give
while read -r case msg; do
	$PY tests/tools/pdfua_break.py "$W/full.pdf" "$W/broken-$case.pdf" "$case" ||
		{ no "cannot break $case"; continue; }
	out=$($PY tests/tools/pdfua_check.py --require "$W/broken-$case.pdf")
	[ $? = 1 ] || no "broken $case: the checker passes it"
	printf '%s\n' "$out" | grep -qF -- "$msg" || no "broken $case: no '$msg' in: $out"
	rm -f "$W/broken-$case.pdf" # (make's pdf-check reads every PDF left in build/)
done <<'EOF'
lang catalog: no /Lang
marked /MarkInfo /Marked is not true
uaid pdfuaid:part is not 1
title /DisplayDocTitle is not true
alt a Figure has no /Alt
mcid MCID 0 is not in the ParentTree
untagged painting operators neither tagged nor artifacts
heading heading levels skip: H4 after H1
contents a Link annotation has no /Contents
tabs has annotations but no /Tabs /S
tounicode has no ToUnicode map
intent no GTS_PDFA1 output intent
info differs from XMP dc:title
producer differs from XMP pdf:Producer
role element /Entry is not a standard structure type
structtree no structure tree
EOF

# two readers, the same headings in the same order. pdf.js comes from npm
# (make test installs it); offline (make check, a package build) without it
# only poppler is read, unless PDFJS_REQUIRED=1 as in make test.
pdfjs=1
if [ ! -d tests/tools/pdfjs/node_modules/pdfjs-dist ]; then
	[ "${PDFJS_REQUIRED:-0}" = 1 ] && no "pdf.js is not installed (tests/tools/pdfjs: npm ci)"
	echo "skip: pdf.js not installed; headings read with poppler only"
	pdfjs=0
fi
for n in zhanda-zhu ziming-liu full groups; do
	[ $pdfjs = 0 ] || node tests/tools/pdfjs/structtree.mjs "$W/$n.pdf" | tr -d ' ' > "$W/$n.pdfjs" ||
		no "$n: pdf.js cannot read the structure tree"
	pdfinfo -struct-text "$W/$n.pdf" | $PY -c '
import re, sys
lines = sys.stdin.read().split("\n")
for i, l in enumerate(lines):
    m = re.match(r"^( *)(H[1-6])\b", l)
    if not m:
        continue
    text = []
    for k in lines[i + 1:]:
        if len(k) - len(k.lstrip()) <= len(m.group(1)):
            break
        t = k.strip()
        if t.startswith("\"") and t.endswith("\""):
            text.append(t[1:-1])
    print(m.group(2) + "".join(text).replace(" ", ""))' > "$W/$n.poppler"
	[ -s "$W/$n.poppler" ] || no "$n: poppler shows no headings"
	[ $pdfjs = 0 ] && cp "$W/$n.poppler" "$W/$n.pdfjs"
	cmp -s "$W/$n.poppler" "$W/$n.pdfjs" ||
		no "$n: poppler and pdf.js disagree on the headings: $(diff "$W/$n.poppler" "$W/$n.pdfjs" | head -5)"
done
head -1 "$W/zhanda-zhu.pdfjs" | grep -q '^H1ZhandaZhu朱展达$' || no "the name is not the H1"
# the section titles, in order, are the H2s (the outline has them too)
"$VITA" render profiles/zhanda-zhu.yaml --dump=layout | sed -n 's/^mark page=[0-9]* y=[0-9]* "\(.*\)"$/H2\1/p' |
	tr -d ' ' > "$W/marks"
grep '^H2' "$W/zhanda-zhu.pdfjs" | cmp -s - "$W/marks" || no "the H2s are not the section titles in order"

# beside a sidebar the structure reads each column whole: the main
# column's sections in profile order, then the sidebar's (sidebar.read:
# before turns them round), whatever page they are on; with
# sidebar.pages: first the main sections set again at full width leave no
# empty elements behind (the page list's elements all hold content)
h2s() { # PDF -> its H2 texts in structure order
	pdfinfo -struct-text "$1" | $PY -c '
import re, sys
lines = sys.stdin.read().split("\n")
for i, l in enumerate(lines):
    m = re.match(r"^( *)H2\b", l)
    if not m:
        continue
    text = []
    for k in lines[i + 1:]:
        if len(k) - len(k.lstrip()) <= len(m.group(1)):
            break
        t = k.strip()
        if t.startswith("\"") and t.endswith("\""):
            text.append(t[1:-1])
    print("".join(text))'
}
for pages in all first; do
	for read in after before; do
		n=sidebar-$pages-$read
		"$VITA" render profiles/ziming-liu.yaml -l sidebar --set sidebar.pages=$pages \
			--set sidebar.read=$read -o "$W/$n.pdf" 2>/dev/null || no "$n: render exit $?"
		pdfs="$pdfs $W/$n.pdf"
		main="EDUCATION EXPERIENCE PUBLICATIONS" side="INTERESTS RECENT NEWS AWARDS"
		want="$main $side"
		[ $read = before ] && want="$side $main"
		got=$(h2s "$W/$n.pdf" | tr '\n' ' ' | sed 's/ $//')
		[ "$got" = "$want" ] || no "$n: the structure reads '$got', not '$want'"
		"$VITA" render profiles/ziming-liu.yaml -l sidebar --set sidebar.pages=$pages \
			--set sidebar.read=$read --dump=layout 2>/dev/null | $PY -c '
import re, sys
tags, used = {}, set()
for l in sys.stdin:
    m = re.match(r"\s*tag (\d+) (\S+) in=(\d+)", l)
    if m:
        tags[int(m[1])] = int(m[3])
    m = re.search(r" @(\d+)$", l)
    if m:
        used.add(int(m[1]))
full = set()
for t in used:
    while t in tags and t not in full:
        full.add(t)
        t = tags[t]
empty = sorted(t for t in tags if t not in full)
if empty:
    print("empty elements:", empty)
sys.exit(1 if empty else 0)' || no "$n: the page list has empty structure elements"
	done
done
$PY tests/tools/pdfua_check.py --require "$W"/sidebar-*.pdf || no "a sidebar PDF fails the PDF/UA check"

# structure details, read with pikepdf
$PY - "$W/zhanda-zhu.pdf" "$W/full.pdf" <<'EOF' || no "structure details"
import sys
import pikepdf
def elements(pdf):
    todo = [pdf.Root.StructTreeRoot.K]
    while todo:
        k = todo.pop()
        if isinstance(k, pikepdf.Array):
            todo.extend(reversed(list(k)))
        elif isinstance(k, pikepdf.Dictionary) and "/S" in k:
            yield k
            todo.append(k.get("/K"))
bad = 0
def no(m):
    global bad
    print("FAIL:", m)
    bad = 1
with pikepdf.open(sys.argv[1]) as z:
    if str(z.Root.Lang) != "en":
        no("zhanda-zhu: /Lang is %s" % z.Root.Lang)
    spans = [e for e in elements(z) if e.S == "/Span" and str(e.get("/Lang", "")) == "zh"]
    if len(spans) != 1:
        no("zhanda-zhu: %d Spans with /Lang zh, not one (the native name)" % len(spans))
with pikepdf.open(sys.argv[2]) as f:
    links = [e for e in elements(f) if e.S == "/Link"]
    annots = [a for p in f.pages for a in p.obj.get("/Annots", [])]
    if not links or len(links) != len(annots):
        no("full: %d Link elements for %d link annotations" % (len(links), len(annots)))
    contents = sorted(str(a.Contents) for a in annots)
    for want in ("ada@example.org", "ORCID 0000-0002-1825-0097", "Paper", "doi:10.1000/xyz123"):
        if want not in contents:
            no("full: no link annotation with /Contents %r (have %s)" % (want, contents))
    figs = [str(e.Alt) for e in elements(f) if e.S == "/Figure"]
    if figs != ["Photo of Ada Lovelace"]:
        no("full: Figure /Alt is %s" % figs)
sys.exit(bad)
EOF

# photo_alt: the profile's, and blank means the default
for alt in "Ada at the Analytical Engine" "  "; do
	sed "s|^photo: .*|photo: $(pwd)/tests/golden/photo.png\nphoto_alt: \"$alt\"|" \
		tests/golden/layout/full.yaml > "$W/alt.yaml"
	"$VITA" render "$W/alt.yaml" -o "$W/alt.pdf" 2>/dev/null || no "photo_alt '$alt': render"
	want=$alt
	[ "$alt" = "  " ] && want="Photo of Ada Lovelace"
	got=$($PY -c '
import sys, pikepdf
p = pikepdf.open(sys.argv[1])
todo = [p.Root.StructTreeRoot.K]
while todo:
    k = todo.pop()
    if isinstance(k, pikepdf.Array): todo.extend(k)
    elif isinstance(k, pikepdf.Dictionary) and "/S" in k:
        if k.S == "/Figure": print(k.Alt)
        todo.append(k.get("/K"))' "$W/alt.pdf")
	[ "$got" = "$want" ] || no "photo_alt '$alt': Figure /Alt is '$got', not '$want'"
done

# --pdf=plain: no tags, no claims; the tags' cost
"$VITA" render profiles/zhanda-zhu.yaml --pdf=plain -o "$W/plain.pdf" || no "--pdf=plain: exit $?"
pdfinfo "$W/plain.pdf" | grep -q '^Tagged: *no' || no "--pdf=plain is tagged"
pdfinfo "$W/zhanda-zhu.pdf" | grep -q '^Tagged: *yes' || no "the default PDF is not tagged"
$PY tests/tools/pdfua_check.py --require "$W/plain.pdf" | grep -q 'an untagged PDF' ||
	no "--pdf=plain: the checker does not see an untagged PDF"
$PY tests/tools/pdfua_check.py "$W/plain.pdf" || no "--pdf=plain: the checker fails a PDF that claims nothing"
$PY - "$W/zhanda-zhu.pdf" "$W/plain.pdf" <<'EOF' || no "tag cost"
import os, sys, pikepdf
tagged, plain = (os.path.getsize(f) for f in sys.argv[1:3])
with pikepdf.open(sys.argv[1]) as p:
    meta = len(p.Root.Metadata.read_raw_bytes()) + len(p.Root.OutputIntents[0].DestOutputProfile.read_raw_bytes())
tags = tagged - plain - meta
print("zhanda-zhu: plain %d B, tagged %d B: tags %d B (%.1f%%), XMP + ICC %d B" %
      (plain, tagged, tags, 100.0 * tags / tagged, meta))
sys.exit(tags > 0.15 * tagged)
EOF
# the compact fonts' one-byte CMap (written deflated already, pdf_font.c)
# reads back as the CMap it stands for
$PY - "$W/zhanda-zhu.pdf" <<'EOF' || no "the one-byte CMap"
import sys, pikepdf
want = (b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def\n"
        b"/CMapName /Vita-OneByte-H def\n/CMapType 1 def\n"
        b"1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
        b"1 begincidrange\n<00> <FF> 0\nendcidrange\n"
        b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n")
with pikepdf.open(sys.argv[1]) as p:
    fonts = [page.Resources.Font[k] for page in p.pages for k in page.Resources.Font.keys()]
    got = [f.Encoding.read_bytes() for f in fonts if isinstance(f.get("/Encoding"), pikepdf.Stream)]
if not got or any(g != want for g in got):
    print("FAIL: the one-byte CMap reads", got[:1])
    sys.exit(1)
EOF
# the Producer names vita, its version and the libharu it builds objects
# with, in Info and (the same, pdfua_check) in the XMP; the plain file too
ver=$("$VITA" --version)
want="vita $(printf '%s\n' "$ver" | sed -n '1s/^vita \([^ ]*\).*/\1/p') (libharu $(printf '%s\n' "$ver" |
	sed -n 's/.*libhpdf \([0-9][0-9.]*\).*/\1/p'))"
for f in zhanda-zhu plain; do
	got=$(pdfinfo "$W/$f.pdf" | sed -n 's/^Producer: *//p')
	[ "$got" = "$want" ] || no "$f: Producer is '$got', not '$want'"
done
"$VITA" render profiles/zhanda-zhu.yaml --pdf=bogus -o "$W/x.pdf" 2>/dev/null
[ $? = 2 ] || no "--pdf=bogus is not a usage error"

# reproducible, and the /ID follows the content
"$VITA" render profiles/zhanda-zhu.yaml -o "$W/again.pdf"
cmp -s "$W/zhanda-zhu.pdf" "$W/again.pdf" || no "two renders differ"
id() { $PY -c 'import sys, pikepdf; print(bytes(pikepdf.open(sys.argv[1]).trailer.ID[0]).hex())' "$1"; }
[ "$(id "$W/zhanda-zhu.pdf")" != "$(id "$W/ziming-liu.pdf")" ] || no "two CVs have one /ID"
SOURCE_DATE_EPOCH=1767225601 "$VITA" render profiles/zhanda-zhu.yaml -o "$W/later.pdf"
[ "$(id "$W/zhanda-zhu.pdf")" != "$(id "$W/later.pdf")" ] || no "another date, the same /ID"

[ $fail = 0 ] && echo "pdfua: checks ok, 15 broken copies caught, poppler and pdf.js agree"
exit $fail
