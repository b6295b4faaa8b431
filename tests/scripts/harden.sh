#!/bin/sh
# harden.sh: the input side of the hardening pass (issue 15). Each case is
# named after the item it covers (i03-..., i07-..., ...); every case must end
# with the exit status it names, a located message where it fails, no
# sanitizer report and no hang (timeout 20).
# Env: VITA (the binary), BUILD (scratch directory).
set -u
VITA=${VITA:-build/vita}
case $VITA in /*) ;; *) VITA=$PWD/$VITA ;; esac
W=${BUILD:-build}/harden
rm -rf "$W"
mkdir -p "$W"
W=$(cd "$W" && pwd)
CASE_SECS=20
. "$(dirname "$0")/../tools/cases.sh"
# lacks NAME TEXT: the case's stderr must not contain TEXT.
lacks() {
	if grep -q -e "$2" "$W/$1.err"; then no "$1: stderr shows '$2'"; head -5 "$W/$1.err"; fi
}

B=$W/base.yaml
printf 'name: Test Person\nsections:\n  - {title: T, type: text, text: hello world}\n' >"$B"

# item 7: only regular files are read (a FIFO would block forever)
mkfifo "$W/fifo"
printf 'name: P\nphoto: fifo\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/fifo-photo.yaml"
printf 'name: P\nsections:\n  - {title: T, type: publications, bibtex: fifo}\n' >"$W/fifo-bib.yaml"
printf 'name: P\nlayout: fifo\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/fifo-layout.yaml"
run i07-fifo-profile 1 "^$W/fifo: error: cannot read the profile: not a regular file (a FIFO)" -- render "$W/fifo" -o "$W/x.pdf"
run i07-fifo-photo 1 "fifo-photo.yaml:2:8: error: photo .*not a regular file (a FIFO)" -- render "$W/fifo-photo.yaml" -o "$W/x.pdf"
run i07-fifo-bibtex 1 "fifo-bib.yaml:3:44: error: .*not a regular file (a FIFO)" -- render "$W/fifo-bib.yaml" -o "$W/x.pdf"
run i07-fifo-layout-l 1 "error: cannot read layout.*not a regular file (a FIFO)" -- render "$B" -o "$W/x.pdf" -l "$W/fifo"
run i07-fifo-chain 1 "" -- render "$B" -o "$W/x.pdf" --set "fonts.body=$W/fifo"
mkdir -p "$W/cache/vita"
mkfifo "$W/cache/vita/families"
XDG_CACHE_HOME=$W/cache run i07-fifo-font-cache 0 "" -- render "$B" -o "$W/x.pdf"

# item 3: SOURCE_DATE_EPOCH out of range is a usage error, never a crash
for v in 99999999999999999999 9223372036854775807 67768036191676799 253402300800 -1 12abc; do
	SOURCE_DATE_EPOCH=$v run "i03-epoch-$v" 2 "SOURCE_DATE_EPOCH must be a number of seconds from 0 to 253402300799" -- render "$B" -o "$W/x.pdf"
done
SOURCE_DATE_EPOCH=253402300799 run i03-epoch-max 0 "" -- render "$B" -o "$W/x.pdf"
pdfinfo "$W/x.pdf" 2>/dev/null | grep -q 'CreationDate:.*9999' || no "i03-epoch-max: the PDF is not dated 9999"

# item 24: an escaped NUL in a key or value, blank required fields
printf '"name\\u0000x": A\nname: B\nsections: []\n' >"$W/nul-key.yaml"
run i24-nul-key 1 "nul-key.yaml:1:1: error: a NUL character" -- check "$W/nul-key.yaml"
printf 'name: "   "\nsections:\n  - {title: "\\t", type: text, text: "\\u3000"}\n' >"$W/blank.yaml"
run i24-blank 1 "blank.yaml:1:7: error: 'name' is blank" -- check "$W/blank.yaml"
grep -q "blank.yaml:3:13: error: 'title' is blank" "$W/i24-blank.err" || no "i24-blank: blank title accepted"
grep -q "blank.yaml:3:37: error: 'text' is blank" "$W/i24-blank.err" || no "i24-blank: blank text accepted"
printf 'page:\n  "size\\0x": a4\n' >"$W/nul-layout.yaml"
run i24-nul-layout 1 "nul-layout.yaml:2:3: error: a NUL character" -- render "$B" -o "$W/x.pdf" -l "$W/nul-layout.yaml"

# item 26: a long chain of extends is not a loop; a loop is named as one
for i in 1 2 3 4 5 6 7 8 9; do printf 'extends: %s\n' "$([ $i = 1 ] && echo academic || echo ext$((i - 1)).yaml)" >"$W/ext$i.yaml"; done
run i26-nine-deep 0 "" -- render "$B" -o "$W/x.pdf" -l "$W/ext9.yaml"
for i in $(seq 10 17); do printf 'extends: ext%d.yaml\n' $((i - 1)) >"$W/ext$i.yaml"; done
run i26-too-deep 1 "error: layouts extend each other more than 16 deep" -- render "$B" -o "$W/x.pdf" -l "$W/ext17.yaml"
printf 'extends: loop-b.yaml\n' >"$W/loop-a.yaml"
printf 'extends: loop-a.yaml\n' >"$W/loop-b.yaml"
run i26-loop 1 "loop-b.yaml:1:10: error: layouts extend each other in a loop: '.*loop-a.yaml' extends itself through 1 other layout" -- render "$B" -o "$W/x.pdf" -l "$W/loop-a.yaml"

# item 23: lengths that would put text off the page are located errors
printf 'extends: academic\nentry:\n  bullet_indent: 600\nsection:\n  rule: 5000\n' >"$W/offpage.yaml"
run i23-indent 1 "offpage.yaml:3:18: error: 'entry.bullet_indent' is 600.0 pt; it can be at most half the text width" -- render "$B" -o "$W/x.pdf" -l "$W/offpage.yaml"
grep -q "offpage.yaml:5:9: error: 'section.rule' is 5000.0 pt; it can be at most 20 pt" "$W/i23-indent.err" || no "i23: a 5000 pt rule accepted"
run i23-set 1 "^--set: error: 'section.before' is 900.0 pt; it can be at most half the text height" -- render "$B" -o "$W/x.pdf" --set section.before=900
run i23-huge 1 "^--set: error: 'entry.gap' expects a length from 0 to 14400" -- render "$B" -o "$W/x.pdf" --set entry.gap=99999
run i23-bigger-page 0 "" -- render "$B" -o "$W/x.pdf" --set entry.bullet_indent=400 --set page.width=1400

# item 22: a profile's layout path is relative to the profile, not to the working directory
mkdir -p "$W/p22" "$W/cwd22"
printf 'extends: academic\ncolors: {text: "#ff0000"}\n' >"$W/p22/red.yaml"
printf 'this is not the layout\n' >"$W/cwd22/red.yaml"
printf 'name: P\nlayout: ./red.yaml\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/p22/cv.yaml"
(cd "$W/cwd22" && run i22-layout-beside-profile 0 "" -- render ../p22/cv.yaml -o ../x.pdf)
grep -q "cwd22" "$W/i22-layout-beside-profile.err" && no "i22: the working directory's red.yaml was read"
printf 'extends: academic\nsizes: {body: 12}\n' >"$W/p22/base.yaml"
mkdir -p "$W/p22/sub"
printf 'extends: ../base.yaml\n' >"$W/p22/sub/child.yaml"
run i22-extends-beside-layout 0 "" -- render "$B" -o "$W/x.pdf" -l "$W/p22/sub/child.yaml"

# item 14: a file that is not a profile or layout is never quoted
printf 'root:*:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\n' >"$W/shadow"
printf 'SECRET_TOKEN: abc\nDB_PASSWORD: hunter2\nname: x\n' >"$W/app.env"
run i14-shadow-layout 1 "shadow:1:1: error: this is not a vita layout" -- render "$B" -o "$W/x.pdf" -l "$W/shadow"
lacks i14-shadow-layout "root\|daemon\|19000"
run i14-shadow-profile 1 "shadow:1:1: error: this is not a vita profile" -- check "$W/shadow"
lacks i14-shadow-profile "root\|daemon\|19000"
run i14-env-layout 1 "app.env:1:1: error: this is not a vita layout" -- render "$B" -o "$W/x.pdf" -l "$W/app.env"
lacks i14-env-layout "SECRET\|PASSWORD\|hunter2"
run i14-env-profile 1 "app.env:1:1: error: this is not a vita profile" -- check "$W/app.env"
lacks i14-env-profile "SECRET\|PASSWORD\|hunter2"
printf 'name: P\nlayout: ../app.env\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/p22/env.yaml"
run i14-env-named-by-profile 1 "app.env:1:1: error: this is not a vita layout" -- render "$W/p22/env.yaml" -o "$W/x.pdf"
lacks i14-env-named-by-profile "SECRET\|PASSWORD\|hunter2"
printf 'name: P\nnmae: Q\nsections: []\n' >"$W/typo.yaml"
run i14-typo-still-named 1 "typo.yaml:2:1: error: unknown key 'nmae' in the profile; did you mean 'name'?" -- check "$W/typo.yaml"

# item 15: --untrusted (and batch) keeps a profile inside its folder
mkdir -p "$W/u/in" "$W/u/layouts"
cp "$W/shadow" "$W/u/secret.txt"
printf 'extends: academic\n' >"$W/u/in/mine.yaml"
ln -sf ../secret.txt "$W/u/in/link.bib"
printf 'name: P\nsections:\n  - {title: T, type: publications, bibtex: ../secret.txt}\n' >"$W/u/in/dotdot.yaml"
printf 'name: P\nsections:\n  - {title: T, type: publications, bibtex: %s/u/secret.txt}\n' "$W" >"$W/u/in/abs.yaml"
printf 'name: P\nsections:\n  - {title: T, type: publications, bibtex: link.bib}\n' >"$W/u/in/symlink.yaml"
printf 'name: P\nphoto: ../secret.txt\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/u/in/photo.yaml"
printf 'name: P\nlayout: mine.yaml\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/u/in/layoutpath.yaml"
printf 'name: P\nlayout: {name: academic, fonts: {body: ../x.yaml}}\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/u/in/fontpath.yaml"
for c in dotdot abs symlink photo; do
	run "i15-untrusted-$c" 1 "is outside the profile's folder" -- render --untrusted "$W/u/in/$c.yaml" -o "$W/x.pdf"
done
run i15-untrusted-layout-path 1 "layoutpath.yaml:2:9: error: 'mine.yaml' is a path: with --untrusted" -- render --untrusted "$W/u/in/layoutpath.yaml" -o "$W/x.pdf"
run i15-trusted-layout-path 0 "" -- render "$W/u/in/layoutpath.yaml" -o "$W/x.pdf"
run i15-untrusted-font-path 1 "fontpath.yaml:2:40: error: 'fonts.body' names a file" -- render --untrusted "$W/u/in/fontpath.yaml" -o "$W/x.pdf"
run i15-batch-confined 1 "is outside the profile's folder" -- batch "$W/u/in/dotdot.yaml" -d "$W/u/out"
run i15-batch-trusted 0 "" -- batch --trusted "$W/u/in/layoutpath.yaml" -d "$W/u/out"
run i15-untrusted-ok 0 "" -- render --untrusted "$B" -o "$W/x.pdf"

# item 12: check refuses what render refuses (a layout naming a missing font family)
printf 'name: P\nlayout: {name: academic, fonts: {body: No Such Family Anywhere}}\nsections:\n  - {title: T, type: text, text: x}\n' >"$W/nofont.yaml"
run i12-render-nofont 1 "" -- render "$W/nofont.yaml" -o "$W/x.pdf"
run i12-check-nofont 1 "" -- check "$W/nofont.yaml"
cmp -s "$W/i12-render-nofont.err" "$W/i12-check-nofont.err" || no "i12: check and render report differently"
run i12-check-ok 0 "" -- check "$B"
[ -e "$W/base.pdf" ] && no "i12: check wrote a PDF"

# item 17: only http, https, mailto, tel and doi become link actions
run i17-links 0 "links.yaml:6:5: warning: link target 'javascript:...' is not written as a link" -- render tests/harden/links.yaml -o "$W/links.pdf"
for at in 3:12 7:5 8:5 9:5 10:5 11:5 12:5 16:5 17:10 19:34; do
	grep -q "links.yaml:$at: warning: link target" "$W/i17-links.err" || no "i17-links: no warning at $at"
done
# (the annotations sit in a compressed object stream: qpdf expands it)
uris=$(qpdf --qdf --object-streams=disable "$W/links.pdf" - | grep -ao '/URI *([^)]*)' | sed 's/\\057/\//g' | sort | tr '\n' ' ')
want='/URI (https://doi.org/10.1145/1234) /URI (https://example.org) /URI (https://example.org/x) /URI (https://ok.org) /URI (mailto:a@b.c) /URI (tel:+15550100) '
[ "$uris" = "$want" ] || no "i17-links: URI actions are: $uris"
pdftotext "$W/links.pdf" - | grep -q "see here and there" || no "i17-links: a refused link's text is missing"

# item 6: limits on every path into the model (YAML nodes, items, text)
python3 - "$W" <<'PY'
import sys
d = sys.argv[1]
open(d + "/bullets.yaml", "w").write("name: B\nsections:\n  - title: X\n    type: experience\n    entries:\n      - title: E\n        details: [" + ",".join(["a"] * 1000000) + "]\n")
open(d + "/items.yaml", "w").write("name: B\nsections:\n  - title: X\n    type: experience\n    entries:\n      - title: E\n        details: [" + ",".join(["a"] * 10001) + "]\n")
with open(d + "/sections.yaml", "w") as f:
    f.write("name: B\nsections:\n")
    for i in range(100000):
        f.write("  - {title: S%d, type: text, text: x}\n" % i)
with open(d + "/many.bib", "w") as f:
    for i in range(10001):
        f.write("@article{k%d, title={T%d}, author={A}, year={2020}}\n" % (i, i))
open(d + "/bib.yaml", "w").write("name: B\nsections:\n  - {title: P, type: publications, bibtex: many.bib}\n")
t = ("word " * 12000)[:60000]
open(d + "/text.yaml", "w").write("name: B\nsections:\n" + "".join("  - {title: T, type: text, text: \"%s\"}\n" % t for i in range(75)))
PY
run i06-million-bullets 1 "bullets.yaml:7:.*: error: more than 200000 values in one file" -- render "$W/bullets.yaml" -o "$W/x.pdf"
run i06-items 1 "items.yaml:7:.*: error: more than 10000 items" -- render "$W/items.yaml" -o "$W/x.pdf"
run i06-sections 1 "sections.yaml:.*: error: more than 200000 values in one file" -- render "$W/sections.yaml" -o "$W/x.pdf"
run i06-bibtex-items 1 "error: more than 10000 items" -- render "$W/bib.yaml" -o "$W/x.pdf"
run i06-text 1 "text.yaml:.*: error: more than 4 MB of text in the CV" -- render "$W/text.yaml" -o "$W/x.pdf"

# item 11: font cache records are checked against the font files
C=$W/fcache
export_cache() { XDG_CACHE_HOME=$C "$VITA" fonts >"$W/$1.fonts" 2>&1; }
export_cache cache-fresh
F=$(ls "$C"/vita/families-* | head -1)
grep -q '^C .*NotoSerif-Regular.ttf$' "$F" || no "i11: no Noto Serif record in the cache"
python3 - "$F" "$W/cache" <<'PY'
import os, sys
p = sys.argv[1]
lines = open(p).read().split("\n")
dv = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
st, dst = os.stat(dv), os.stat(os.path.dirname(dv))
out, fam = [], None
for l in lines:
    if l.startswith("F "):
        fam = l.split(" ", 2)[2]
    if l.startswith("C ") and fam == "Noto Serif" and l.endswith("NotoSerif-Regular.ttf"):
        f = l.split(" ")
        # a record that points at another font, with that font's times: only its names tell
        l = " ".join(f[:6] + [str(int(st.st_mtime)), str(st.st_size), str(int(dst.st_mtime)), dv])
    out.append(l)
open(sys.argv[2] + ".swapped", "w").write("\n".join(out))
out = [l.replace("C 0 80 0 100 1", "C -1 80 0 100 1") if l.endswith("NotoSerif-Regular.ttf") else l for l in lines]
open(sys.argv[2] + ".index", "w").write("\n".join(out))
PY
cp "$W/cache.swapped" "$F"
export_cache cache-swapped
grep -q 'Noto Serif *regular *.*NotoSerif-Regular.ttf' "$W/cache-swapped.fonts" || no "i11: a cache record replaced Noto Serif: $(grep regular "$W/cache-swapped.fonts" | head -1)"
grep -q '^C .*NotoSerif-Regular.ttf$' "$F" || no "i11: the swapped record was not re-resolved"
cp "$W/cache.index" "$F"
export_cache cache-index
cmp -s "$W/cache-fresh.fonts" "$W/cache-index.fonts" || no "i11: index -1 in the cache changed the fonts"
cp "$F" "$W/cache.kept"
printf '<?xml version="1.0"?>\n<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include></fontconfig>\n' >"$W/fonts.conf"
FONTCONFIG_FILE=$W/fonts.conf XDG_CACHE_HOME=$C "$VITA" fonts >/dev/null 2>&1
[ "$(ls "$C"/vita/families-* | wc -l)" = 2 ] || no "i11: the cache is not keyed on FONTCONFIG_FILE"
cmp -s "$W/cache.kept" "$F" || no "i11: another configuration overwrote the cache"
n=$((n + 4))

echo "harden.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
