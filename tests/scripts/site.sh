#!/bin/sh
# The site recipes of examples/ and README "Use it in your site" (issue 11
# items 3, 6, 7): the Makefile rebuilds only what changed; a save while
# `hugo server` runs serves the new PDF with status 200; jekyll builds the
# page with the fragment, the data and the PDF. Each tool is skipped (and
# says so) when it is not installed; every run has a time limit.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/site
rm -rf "$W"; mkdir -p "$W"; W=$(cd "$W" && pwd)
fail=0
no() { echo "FAIL: $*"; fail=1; }
V=$(cd "$(dirname "$VITA")" && pwd)/$(basename "$VITA")
cp -r examples "$W/ex"
mkdir -p "$W/bin"; ln -s "$V" "$W/bin/vita"
# the README's recipes, as written there: block N of a kind after a marker
readme() { awk -v m="$1" -v k="$2" 'index($0, m) == 1 {on = 1} on && $0 == "```" k {b = 1; next}
	b && $0 == "```" {exit} b {print}' README.md; }

# the README's Make recipe
mkdir -p "$W/readme-make"; cp examples/cv.yaml "$W/readme-make/"
readme '**Make.**' make > "$W/readme-make/Makefile"
(cd "$W/readme-make" && PATH="$W/bin:$PATH" make -s VITA=vita >/dev/null) || no "README make recipe"
[ -s "$W/readme-make/public/cv.pdf" ] && [ -s "$W/readme-make/public/cv.html" ] || no "README make: outputs"
(cd "$W/readme-make" && PATH="$W/bin:$PATH" make -q VITA=vita) || no "README make: not up to date after make"

# make
make -s -C "$W/ex/make" VITA="$V" >/dev/null || no "examples/make: make"
[ -s "$W/ex/make/public/cv.pdf" ] && [ -s "$W/ex/make/public/cv.html" ] || no "examples/make: outputs"
make -q -C "$W/ex/make" VITA="$V" || no "examples/make: not up to date after make"
touch "$W/ex/cv.yaml"
make -q -C "$W/ex/make" VITA="$V" && no "examples/make: a touched profile is not seen"
make -s -C "$W/ex/make" VITA="$V" >/dev/null || no "examples/make: remake"

# hugo
if command -v hugo >/dev/null; then
	sed 's/^headline: .*/headline: HEADLINE/' examples/cv.yaml > "$W/ex/hugo/cv.yaml"
	# the README's Hugo recipe up to the server, then the server with a save
	mkdir -p "$W/readme-hugo"; cp -r examples/hugo/. "$W/readme-hugo/"; cp examples/cv.yaml "$W/readme-hugo/"
	readme '**Hugo.**' sh | sed '/^hugo server/,$d' > "$W/readme-hugo/steps.sh"
	(cd "$W/readme-hugo" && PATH="$W/bin:$PATH" sh -e steps.sh) || no "README hugo recipe"
	[ -s "$W/readme-hugo/static/cv.pdf" ] && [ -s "$W/readme-hugo/layouts/partials/vita-cv.html" ] \
		|| no "README hugo: outputs"
	timeout 240 python3 tests/tools/hugo_check.py "$V" "$W/ex/hugo" "$W/ex/hugo/cv.yaml" || no "hugo server"
	(cd "$W/ex/hugo" && timeout 120 hugo --quiet -d "$W/hugo-public" >/dev/null 2>&1) || no "hugo build"
	grep -q 'class="vita"' "$W/hugo-public/index.html" 2>/dev/null || no "hugo: the page lacks the fragment"
	ls -A "$W/hugo-public" | grep -q '^\.cv\.pdf' && no "hugo published a temporary file"
else
	echo "skip: hugo not installed"
fi

# jekyll
if command -v jekyll >/dev/null; then
	J="$W/ex/jekyll"
	cp examples/cv.yaml "$J/"
	readme '**Jekyll.**' sh | sed '/^jekyll build/d' > "$J/steps.sh"
	(cd "$J" && PATH="$W/bin:$PATH" sh -e steps.sh) || no "README jekyll recipe"
	(cd "$J" && timeout 180 jekyll build --quiet --safe >"$W/jekyll.log" 2>&1) || { no "jekyll build"; tail -5 "$W/jekyll.log"; }
	grep -q '<title>Ada Example</title>' "$J/_site/index.html" 2>/dev/null || no "jekyll: site.data.cv.name"
	grep -q 'A Paper About Examples' "$J/_site/index.html" 2>/dev/null || no "jekyll: the include"
	[ -s "$J/_site/cv.pdf" ] || no "jekyll: the PDF is not published"
	ls -A "$J/_site" | grep -q '^\.' && no "jekyll published a hidden file"
else
	echo "skip: jekyll not installed"
fi
exit $fail
