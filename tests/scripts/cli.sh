#!/bin/sh
# The command line contract (cli.md): help, version, usage errors (exit 2),
# check, layouts, new, fonts, batch, --strict, --set, photos.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/cli
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
code() { "$@" >/dev/null 2>&1; echo $?; }

[ "$(code "$VITA" --help)" = 0 ] || no "--help"
"$VITA" --help | grep -q 'render PROFILE' || no "--help text"
"$VITA" --version | grep -q '^vita [0-9]' || no "--version"
"$VITA" render --help | grep -q 'usage: vita render' || no "render --help"
[ "$(code "$VITA")" = 2 ] || no "no command: exit 2"
[ "$(code "$VITA" frobnicate)" = 2 ] || no "unknown command: exit 2"
[ "$(code "$VITA" render)" = 2 ] || no "render without profile: exit 2"
[ "$(code "$VITA" render profiles/zhanda-zhu.yaml --bogus)" = 2 ] || no "unknown option: exit 2"
[ "$(code "$VITA" render profiles/zhanda-zhu.yaml -o)" = 2 ] || no "missing value: exit 2"
[ "$(code "$VITA" batch profiles/zhanda-zhu.yaml)" = 2 ] || no "batch without -d: exit 2"

# check: valid profiles are silent; a missing file is a located error
out=$("$VITA" check profiles/*.yaml 2>&1); [ $? = 0 ] && [ -z "$out" ] || no "check profiles: $out"
"$VITA" check "$W/nope.yaml" 2>&1 | grep -q "nope.yaml" || no "check missing file names it"

# layouts and new
"$VITA" layouts | grep -q '^academic' || no "layouts lists academic"
"$VITA" new "Ada Lovelace" > "$W/new.yaml" || no "new"
"$VITA" check "$W/new.yaml" || no "the starter profile is not valid"
"$VITA" render "$W/new.yaml" -o "$W/new.pdf" || no "the starter profile does not render"

# fonts: the chain with files; a profile's characters with no font
"$VITA" fonts | grep -q 'NotoSerif' || no "fonts lists Noto Serif"
cat > "$W/tofu.yaml" <<'Y'
name: Tofu Test
headline: "Rocket 🚀 and Phags-pa ꡀ"
sections:
  - title: Text
    type: text
    text: hello
Y
"$VITA" fonts "$W/tofu.yaml" > "$W/fonts.out" 2> "$W/fonts.err" || true
grep -q 'U+A840' "$W/fonts.err" || no "fonts PROFILE does not report U+A840"
"$VITA" render "$W/tofu.yaml" -o "$W/tofu.pdf" 2> "$W/tofu.err"; c=$?
[ $c = 0 ] || no "render with a missing character: exit $c (want 0 and a warning)"
grep -q 'warning:.*U+A840' "$W/tofu.err" || no "render does not warn about U+A840"
[ "$(code "$VITA" render "$W/tofu.yaml" -o "$W/tofu2.pdf" --strict)" = 1 ] || no "--strict: exit 1"
[ -e "$W/tofu2.pdf" ] && no "--strict left a PDF"

# --set and layout errors are located
[ "$(code "$VITA" render profiles/zhanda-zhu.yaml --set page.size=letter -o "$W/letter.pdf")" = 0 ] || no "--set page.size=letter"
pdfinfo "$W/letter.pdf" | grep -q 'Page size: *612 x 792' || no "letter page size"
"$VITA" render profiles/zhanda-zhu.yaml --set page.sise=a4 -o "$W/x.pdf" 2>&1 | grep -q "did you mean 'page.size'" || no "--set typo has no suggestion"

# a layout may name font families instead of a chain file; CJK fallbacks follow
"$VITA" render profiles/zhanda-zhu.yaml --set 'fonts.body=Noto Sans' -o "$W/sans.pdf" || no "fonts.body=Noto Sans"
pdffonts "$W/sans.pdf" | grep -q 'NotoSans-Regular' || no "Noto Sans not used"
pdftotext "$W/sans.pdf" - | grep -q '朱展达' || no "the CJK fallback is not appended to a family list"
[ "$(code "$VITA" render profiles/zhanda-zhu.yaml --set 'fonts.body=No Such Font' -o "$W/nf.pdf")" = 1 ] || no "unknown chain or family: exit 1"

# a missing photo is a located error
printf 'name: P\nphoto: nope.png\nsections:\n  - title: T\n    type: text\n    text: x\n' > "$W/photo.yaml"
"$VITA" render "$W/photo.yaml" -o "$W/photo.pdf" 2> "$W/photo.err"; c=$?
[ $c = 1 ] || no "missing photo: exit $c"
grep -q 'photo.yaml:2:' "$W/photo.err" || no "missing photo: not located: $(cat "$W/photo.err")"

# a photo is embedded as an image; links are clickable with no border
"$VITA" render tests/golden/layout/full.yaml -o "$W/full.pdf" || no "full.yaml"
[ "$(pdfimages -list "$W/full.pdf" | tail -n +3 | wc -l)" = 1 ] || no "the photo is not in the PDF"
qpdf --qdf --object-streams=disable "$W/full.pdf" "$W/full.qdf" 2>/dev/null
grep -q 'mailto:ada@example.org' "$W/full.qdf" || no "no mailto: link"
grep -q 'https://doi.org/10.1000/xyz123' "$W/full.qdf" || no "no DOI link"
[ "$(tr -d ' \n' < "$W/full.qdf" | grep -ao '/Border\[000\]' | wc -l)" -ge 8 ] || no "links have a border"

# batch: one bad profile is reported, the others render, exit 1
printf 'name: Bad\nsections: 3\n' > "$W/bad.yaml"
"$VITA" batch profiles/zhanda-zhu.yaml "$W/bad.yaml" profiles/ziming-liu.yaml -d "$W/batch" -j 2 2> "$W/batch.err"; c=$?
[ $c = 1 ] || no "batch with a bad profile: exit $c"
[ -s "$W/batch/zhanda-zhu.pdf" ] && [ -s "$W/batch/ziming-liu.pdf" ] || no "batch did not render the good profiles"
grep -q 'bad.yaml:2' "$W/batch.err" || no "batch does not report the bad profile"
exit $fail
