#!/bin/sh
# batch for a lab (issue 11 item 5): per-person folders with an -o
# template, collisions refused before rendering naming both, unknown
# placeholders (exit 2), file-name safe names, --changed, errors above the
# progress bar, the summary table, exit 1 / 3, --deps, --book.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/batch
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
V=$(cd "$(dirname "$VITA")" && pwd)/$(basename "$VITA")
cd "$W"
mkdir -p people/ada people/bob people/cy people/dot
cp "$OLDPWD/profiles/zhanda-zhu.yaml" people/ada/cv.yaml
cp "$OLDPWD/profiles/ziming-liu.yaml" people/bob/cv.yaml
printf 'name: Cy Broken\nsections: [\n' > people/cy/cv.yaml
printf 'name: ".hidden / Person"\nsections:\n  - {title: T, type: text, text: hi}\n' > people/dot/cv.yaml

# {dir}: one PDF per folder; the broken CV is reported, the rest render
"$V" batch people/*/cv.yaml -d out -o '{dir}.pdf' -j 2 2> b1.err; c=$?
[ $c = 1 ] || no "batch with a broken CV: exit $c, want 1"
for n in ada bob dot; do [ -s out/$n.pdf ] || no "{dir}: no out/$n.pdf"; done
[ -e out/cy.pdf ] && no "a PDF for the broken CV"
grep -q '^people/cy/cv.yaml:[0-9]*:[0-9]*: error:' b1.err || no "the broken CV's located error"
grep -q '^  rendered  people/ada/cv.yaml  *-> out/ada.pdf' b1.err || no "summary: rendered row"
grep -q '^  failed    people/cy/cv.yaml  *people/cy/cv.yaml:[0-9]*:[0-9]*: error:' b1.err || no "summary: failed row with its first error"
grep -q '3 of 4 CVs rendered into out, 1 failed' b1.err || no "summary line: $(tail -1 b1.err)"

# {name}, made file-name safe; {stem}
"$V" batch people/ada/cv.yaml people/dot/cv.yaml -d names -o '{name}-{stem}.pdf' 2>/dev/null || no "{name}"
[ -s names/Zhanda-Zhu-cv.pdf ] || no "{name}: $(ls names)"
[ -s "names/_hidden-_-Person-cv.pdf" ] || no "{name} not file-name safe: $(ls -A names)"

# two people, one file: refused before rendering, naming both
"$V" batch people/ada/cv.yaml people/bob/cv.yaml -d same 2> same.err; c=$?
[ $c = 1 ] || no "collision: exit $c, want 1"
grep -q 'people/bob/cv.yaml: error: its output same/cv.pdf is already the output of people/ada/cv.yaml' same.err \
	|| no "collision message does not name both: $(head -2 same.err)"
[ "$(ls same)" = cv.pdf ] || no "collision: files in same/: $(ls same)"
# three with one output (a fixed -o): both later ones name the first
"$V" batch people/ada/cv.yaml people/bob/cv.yaml people/dot/cv.yaml -d same3 -o one.pdf 2> same3.err
grep -q 'people/bob/cv.yaml: error: its output same3/one.pdf is already the output of people/ada/cv.yaml' same3.err &&
	grep -q 'people/dot/cv.yaml: error: its output same3/one.pdf is already the output of people/ada/cv.yaml' same3.err ||
	no "three-way collision: $(head -3 same3.err)"
[ "$(ls same3)" = one.pdf ] || no "three-way collision: files in same3/: $(ls same3)"
# unknown placeholder: usage error, nothing written
"$V" batch people/*/cv.yaml -d bad -o '{nmae}.pdf' 2> bad.err; c=$?
[ $c = 2 ] || no "unknown placeholder: exit $c, want 2"
grep -q "unknown placeholder '{nmae}'" bad.err || no "unknown placeholder message"
[ -z "$(ls bad 2>/dev/null)" ] || no "unknown placeholder: files written"

# --changed: nothing to do; one touched profile; a shared layout
sleep 0.01
"$V" batch people/ada/cv.yaml people/bob/cv.yaml -d out -o '{dir}.pdf' --changed 2> c1.err || no "--changed exit $?"
grep -q '0 of 2 CVs rendered into out, 2 up to date' c1.err || no "--changed: $(tail -1 c1.err)"
touch people/bob/cv.yaml
"$V" batch people/ada/cv.yaml people/bob/cv.yaml -d out -o '{dir}.pdf' --changed 2> c2.err
grep -q '^  skipped   people/ada/cv.yaml  *-> out/ada.pdf (up to date)' c2.err || no "--changed: ada not skipped"
grep -q '^  rendered  people/bob/cv.yaml' c2.err || no "--changed: the touched bob not rendered"
cp people/ada/cv.yaml people/ada/old.yaml
mkdir -p people/ada/layouts
printf 'name: mine\nextends: academic\n' > people/ada/layouts/mine.yaml
printf 'layout: mine\n' >> people/ada/cv.yaml
# file times tick every few ms here and an input as new as the output
# counts as changed: let the render that follows write in a later tick
sleep 0.02
"$V" batch people/ada/cv.yaml -d out -o "{dir}.pdf" --trusted 2>/dev/null || no "render with a local layout"
"$V" batch people/ada/cv.yaml -d out -o "{dir}.pdf" --changed --trusted 2> c3.err
grep -q 'up to date' c3.err || no "--changed: not up to date after a render"
touch people/ada/layouts/mine.yaml
"$V" batch people/ada/cv.yaml -d out -o "{dir}.pdf" --changed --trusted 2> c4.err
grep -q '^  rendered  people/ada/cv.yaml' c4.err || no "--changed: a touched layout is not seen"
mv people/ada/old.yaml people/ada/cv.yaml

# --changed sees the hyphenation patterns: a CV whose every other input
# (its own layout, locale, font chain and font, all beside it) is older
# than its PDF is rendered again when the .dic is newer than the PDF
dic=/usr/share/hyphen/hyph_en_US.dic
if [ -f "$dic" ] && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
	mkdir -p hy/cv/layouts hy/cv/fonts hy/cv/locales
	# batch shares one font library: the chain is named by its path
	ch="$PWD/hy/cv/fonts/plain.yaml"
	sed "s|^  body: serif|  body: $ch|; s|^  heading: serif|  heading: $ch|" "$OLDPWD/layouts/academic.yaml" > hy/cv/layouts/own.yaml
	cp "$OLDPWD/locales/en.yaml" hy/cv/locales/en.yaml
	cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf hy/cv/fonts/
	printf 'name: plain\nfaces:\n  - file: DejaVuSans.ttf\n' > hy/cv/fonts/plain.yaml
	printf 'name: Ada Lovelace\nlayout: own\nsections:\n  - title: Notes\n    type: text\n    text: On the analytical engine.\n' > hy/cv/cv.yaml
	"$V" batch hy/cv/cv.yaml -d hy/out -o '{dir}.pdf' --trusted 2> hy1.err || no "hyph: render: $(cat hy1.err)"
	find hy/cv -exec touch -d '2000-01-01 00:00' {} +
	dic_day=$(date -u -r "$dic" +%Y-%m-%d)
	touch -d "$dic_day 00:00 UTC - 1 day" hy/out/cv.pdf
	"$V" batch hy/cv/cv.yaml -d hy/out -o '{dir}.pdf' --changed --trusted 2> hy2.err
	grep -q '^  rendered  hy/cv/cv.yaml' hy2.err || no "--changed: a newer $dic is not seen: $(cat hy2.err)"
	touch hy/out/cv.pdf
	"$V" batch hy/cv/cv.yaml -d hy/out -o '{dir}.pdf' --changed --trusted 2> hy3.err
	grep -q 'up to date' hy3.err || no "--changed: hyph: not up to date after a render: $(cat hy3.err)"
fi

# an output that is an input is refused in batch too, also when that
# input is a layout the worker kept from an earlier CV (its identity is
# remembered, not looked up again): a's output is new, b's is the layout
# both use, read and kept for a
mkdir -p oi/p/layouts
printf 'name: b\nextends: academic\n' > oi/p/layouts/b.yaml
cp oi/p/layouts/b.yaml oi/b.orig
for n in a b; do printf 'name: Person %s\nlayout: b\nsections:\n  - {title: T, type: text, text: hi}\n' $n > oi/p/$n.yaml; done
: > oi/p/layouts/a.yaml   # a's output exists: its inputs are looked at (and b.yaml remembered)
"$V" batch oi/p/a.yaml oi/p/b.yaml -o 'oi/p/layouts/{stem}.yaml' -j 1 --trusted 2> oi.err; c=$?
[ $c = 1 ] || no "batch: an output that is a kept input: exit $c, want 1"
grep -q '^oi/p/layouts/b.yaml: error: the output is .*layouts/b.yaml, an input of this CV' oi.err ||
	no "batch: a kept input as the output is not refused: $(cat oi.err)"
cmp -s oi/p/layouts/b.yaml oi/b.orig || no "batch replaced a layout it read"
[ -s oi/p/layouts/a.yaml ] || no "batch: the CV whose output is not an input did not render"
if command -v strace >/dev/null; then   # b.yaml looked up once: for a, then remembered
	: > oi/p/layouts/a.yaml
	strace -f -e trace=newfstatat,stat -o oi.st "$V" batch oi/p/a.yaml oi/p/b.yaml -o 'oi/p/layouts/{stem}.yaml' -j 1 --trusted 2>/dev/null
	n=$(grep -c '"oi/p/layouts/b.yaml"' oi.st)
	[ "$n" -le 2 ] || no "batch: the kept layout b.yaml is looked up $n times"
fi

# a system failure (the output is a directory) is exit 3; the others render
mkdir -p sys/ada.pdf
"$V" batch people/ada/cv.yaml people/bob/cv.yaml -d sys -o '{dir}.pdf' 2> sys.err; c=$?
[ $c = 3 ] || no "a system failure: exit $c, want 3"
[ -s sys/bob.pdf ] || no "a system failure stopped the other CVs"

# errors print above the progress bar, never inside it (on a terminal)
if script -qc true /dev/null >/dev/null 2>&1; then
	script -qc "$V batch people/*/cv.yaml -d tty -o '{dir}.pdf' -j 1" /dev/null > tty.out 2>&1
	python3 - tty.out <<'PY' || no "an error line is mixed with the progress bar"
import sys
raw = open(sys.argv[1], encoding="utf-8", errors="replace").read()
bad = 0
for line in raw.split("\n"):
    if ": error:" not in line:
        continue
    shown = line.split("\x1b[K")[-1].replace("\r", "")
    if shown.startswith("  failed"):
        continue  # the summary table
    if not shown.startswith("people/") or "] " in shown.split(": error:")[1][-8:]:
        print("mixed:", repr(line)); bad = 1
if "] 4/4" not in raw:
    print("no progress bar"); bad = 1
sys.exit(bad)
PY
else
	echo "skip: no script(1) for the progress bar test"
fi

# a worker reads the output directory for stale temporaries once, not per
# CV: its targets' temporaries left by a killed writer (unlocked, older
# than 2 s) go; a brand-new one and another file's stay
for j in 1 2; do
	rm -rf stale; mkdir -p stale
	: > stale/.ada.pdf.Ab3dE9; : > stale/.bob.pdf.Ab3dE9; : > stale/.notes.txt.Ab3dE9
	touch -d '2000-01-01' stale/.ada.pdf.Ab3dE9 stale/.bob.pdf.Ab3dE9 stale/.notes.txt.Ab3dE9
	: > stale/.bob.pdf.zzzzzz
	"$V" batch people/ada/cv.yaml people/bob/cv.yaml -d stale -o '{dir}.pdf' -j $j 2>/dev/null ||
		no "stale: batch -j $j: exit $?"
	[ -s stale/ada.pdf ] && [ -s stale/bob.pdf ] || no "stale: batch -j $j: no PDFs"
	for f in .ada.pdf.Ab3dE9 .bob.pdf.Ab3dE9; do
		[ -e stale/$f ] && no "stale: batch -j $j left the stale temporary $f"
	done
	for f in .bob.pdf.zzzzzz .notes.txt.Ab3dE9; do
		[ -e stale/$f ] || no "stale: batch -j $j removed $f"
	done
done

# --deps: one rule per output; --book: every CV, an outline per person
"$V" batch people/ada/cv.yaml people/bob/cv.yaml -d book -o '{dir}.pdf' --deps book/all.d --book book/lab.pdf 2> book.err \
	|| no "batch --book: exit $?"
grep -q '^book/ada.pdf:' book/all.d && grep -q '^book/bob.pdf:' book/all.d || no "batch --deps rules"
grep -q 'people/bob/cv.yaml' book/all.d || no "batch --deps misses a profile"
qpdf --check book/lab.pdf >/dev/null 2>&1 || no "the book fails qpdf --check"
pa=$(pdfinfo book/ada.pdf | awk '/^Pages/ {print $2}')
pb=$(pdfinfo book/bob.pdf | awk '/^Pages/ {print $2}')
pl=$(pdfinfo book/lab.pdf | awk '/^Pages/ {print $2}')
[ "$pl" = $((pa + pb)) ] || no "the book has $pl pages, want $pa + $pb"
if command -v mutool >/dev/null; then
	mutool show book/lab.pdf outline > outline.txt 2>&1
	grep -q '^-	"Zhanda Zhu"	#page=1' outline.txt || no "book outline: no top entry for Zhanda Zhu"
	grep -q "^-	\"Ziming Liu\"	#page=$((pa + 1))" outline.txt || no "book outline: no top entry for Ziming Liu"
	grep -q '^|		"Education"' outline.txt || no "book outline: sections are not under the person"
fi
pdftotext book/lab.pdf - | grep -q '朱展达' || no "the book lacks the first CV's text"

# what a worker keeps across CVs (fonts, hyphenation patterns, parsed
# layouts) never changes a PDF: each CV from batch -j 1 and -j 2, tagged
# and --pdf=plain, is byte for byte its fresh render. The set has a CJK
# name, English, German and French hyphenation, several layouts, and one
# layout with the profile's overrides before the same layout without them.
mkdir -p ident/in
for f in zhanda-zhu ziming-liu; do cp "$OLDPWD/profiles/$f.yaml" ident/in/; done
cp "$OLDPWD/tests/bench/hyphen.yaml" ident/in/
python3 "$OLDPWD/tests/tools/gen_batch.py" 8 ident/gen
for i in 002 003 004 006 007; do cp ident/gen/cv-$i.yaml ident/in/; done
grep -q '^lang: de' ident/in/cv-004.yaml && grep -q '^lang: fr' ident/in/cv-007.yaml &&
	grep -q '^name_native' ident/in/cv-002.yaml || no "gen_batch.py: the CVs are not the expected mix"
# narrow columns: English and German words are hyphenated
narrow='layout: {name: academic, page: {margin: {left: 170, right: 170}}}'
{ cat "$OLDPWD/tests/bench/hyphen.yaml"; echo "$narrow"; } > ident/in/narrow-en.yaml
sed "s/^layout: .*/$narrow/" ident/gen/cv-004.yaml > ident/in/narrow-de.yaml
sed 's/^layout: .*/layout: {name: modern, page: {size: letter}, sizes: {body: 11}, locale: {updated: "Revised {date}"}}/' ident/gen/cv-005.yaml > ident/in/a-over.yaml
sed 's/^layout: .*/layout: modern/' ident/gen/cv-005.yaml > ident/in/b-plain.yaml
export SOURCE_DATE_EPOCH=1767225600
# -j 3: the workers take the CVs from a shared counter, in any order
for plain in "" --pdf=plain; do
	rm -rf ident/r; mkdir -p ident/r
	for p in ident/in/*.yaml; do
		n=$(basename "$p" .yaml)
		"$V" render "$p" -o ident/r/$n.pdf $plain 2>/dev/null || no "render $n $plain: exit $?"
	done
	for j in 1 2 3; do
		rm -rf ident/b
		"$V" batch ident/in/*.yaml -d ident/b -j $j $plain 2> ident/b.err || no "batch -j $j $plain: exit $?"
		k=$(ls ident/in/*.yaml | wc -l)
		[ "$(grep -c '^  rendered  ident/in/' ident/b.err)" = $k ] && grep -q "^vita: $k of $k CVs rendered" ident/b.err ||
			no "batch -j $j $plain: not every CV rendered once: $(tail -1 ident/b.err)"
		for p in ident/in/*.yaml; do
			n=$(basename "$p" .yaml)
			cmp -s ident/r/$n.pdf ident/b/$n.pdf || no "batch -j $j $plain: $n.pdf differs from its fresh render"
		done
	done
done
for n in narrow-en narrow-de; do
	"$V" render ident/in/$n.yaml --dump layout 2>/dev/null | grep -q -- '-" actual=' ||
		no "$n.yaml has no hyphenated word (the test would not see the patterns)"
done
[ "$(pdfinfo ident/r/a-over.pdf | awk '/^Page size/ {print $3}')" = 612 ] || no "the layout override was lost"
[ "$(pdfinfo ident/r/b-plain.pdf | awk '/^Page size/ {print $3}')" = 595.276 ] || no "a layout override leaked into the next CV"
pdftotext ident/r/a-over.pdf - | grep -q 'Revised' || no "the locale override was lost"
pdftotext ident/b/b-plain.pdf - | grep -q 'Revised' && no "a locale override leaked into the next CV"
exit $fail
