#!/bin/sh
# --deps (issue 11 item 1): the depfile lists exactly the files strace shows
# vita opening (minus system libraries and caches); make with the depfile
# rebuilds after touching each input and not otherwise; ninja reads it too;
# a depfile in a missing directory is an error before anything is written.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/deps
# a font cache of its own: other suites (or other checkouts) running at the
# same time with another fontconfig setup must not make it cold mid-test
export XDG_CACHE_HOME="$PWD/$W/cache"
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
V=$(cd "$(dirname "$VITA")" && pwd)/$(basename "$VITA")
# a font-family cache of its own: what another vita build wrote into the
# shared one must not decide which font files this run opens
XDG_CACHE_HOME=$(cd "$W" && pwd)/cache; export XDG_CACHE_HOME

cp -r tests/deps "$W/site"
cp tests/golden/photo.png "$W/site/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$W/site/fonts/"
cd "$W/site"

# every kind of input is listed, relative ones as opened
"$V" render cv.yaml -o cv.pdf --deps cv.d || no "render --deps"
for f in cv.yaml photo.png refs.bib layouts/mine.yaml layouts/base.yaml fonts/local.yaml \
         fonts/DejaVuSans.ttf academic.yaml serif.yaml hyph_; do
	grep -q "$f" cv.d || no "the depfile does not list $f"
done
if command -v strace >/dev/null; then
	rm -f cv.pdf cv.d
	"$V" render cv.yaml -o warm.pdf   # fontconfig's and vita's caches are warm
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=open,openat -o st.log "$V" render cv.yaml -o cv.pdf --deps cv.d \
		|| no "render under strace"
	python3 "$OLDPWD/tests/tools/deps_check.py" st.log cv.d cv.pdf || no "depfile != files opened"
else
	echo "skip: strace not installed (the depfile-vs-strace check)"
fi

# make: rebuild after touching each local input, and not otherwise
cat > Makefile <<MK
cv.pdf:
	"$V" render cv.yaml -o cv.pdf --deps cv.d
-include cv.d
MK
make -s >/dev/null || no "make"
inputs="cv.yaml photo.png refs.bib layouts/mine.yaml layouts/base.yaml fonts/local.yaml fonts/DejaVuSans.ttf"
now=$(date +%s)
for f in $inputs; do
	touch -d "@$((now - 3600))" $inputs
	touch -d "@$((now - 2))" cv.pdf cv.d
	make -q || no "make rebuilds with nothing touched (before $f)"
	touch -d "@$((now - 1))" "$f"
	make -q && no "make does not see a change of $f"
	make -s >/dev/null || no "make after touching $f"
	[ cv.pdf -nt "$f" ] || no "make did not rebuild after touching $f"
	make -q || no "make wants to rebuild again after $f"
done
# a new input is picked up: a second BibTeX file
printf '@misc{more2025, author = {Dep Test}, title = {Another Paper}, year = {2025}}\n' > more.bib
printf '  - title: More\n    type: publications\n    bibtex: more.bib\n' >> cv.yaml
make -s >/dev/null || no "make with a second .bib"
grep -q 'more.bib' cv.d || no "a new bibtex: file is not in the depfile"

# ninja reads the same file
if command -v ninja >/dev/null; then
	cat > build.ninja <<NJ
rule vita
  command = "$V" render \$in -o \$out --deps \$out.d
  depfile = \$out.d
  deps = gcc
build n.pdf: vita cv.yaml
NJ
	ninja >/dev/null 2>ninja.err || { no "ninja"; cat ninja.err; }
	ninja -n -d explain 2>&1 | grep -q 'no work to do' || no "ninja rebuilds with nothing touched"
	touch layouts/base.yaml
	ninja -n 2>&1 | grep -q 'vita\|render' || no "ninja does not see a change of the extended layout"
else
	echo "skip: ninja not installed"
fi

# bad depfile paths: located, exit 3, nothing written
rm -f x.pdf
"$V" render cv.yaml -o x.pdf --deps nodir/x.d 2>err; c=$?
[ $c = 3 ] || no "--deps in a missing directory: exit $c, want 3"
grep -q 'nodir/x.d' err || no "--deps error does not name the file"
[ -e x.pdf ] && no "a PDF was written although the depfile cannot be"
"$V" render cv.yaml -o - --deps x.d >/dev/null 2>&1; [ $? = 2 ] || no "--deps with -o -: exit 2"
exit $fail
