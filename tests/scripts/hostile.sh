#!/bin/sh
# hostile.sh: hostile input end to end. Every case must end with an exit
# status of 0 (accepted), 1, 2 or 3 as the case says, a located message
# where it fails, no sanitizer report, no hang (timeout 60), and never a
# half-written or replaced output.
#  - layout overrides out of range: margins wider than the page, font
#    sizes 0 and 500, leading 0.01, a 999999 pt page, invalid UTF-8
#  - layouts: /dev/null, a directory, one that extends itself, a missing
#    parent
#  - photos: truncated PNG, bad CRC, huge dimensions in the header, a
#    directory, a JPEG claiming 65535x65535
#  - text: every field set to markup edge cases (**, [, ](, \), zero-width
#    and combining characters, RTL, U+FFFF/U+FFFE, control characters,
#    characters outside the BMP, a 20,000-letter word, 20,000 CJK
#    characters (metadata and link targets longer than libharu takes)
#  - many sections and entries; /dev/zero as a profile
#  - output: a directory, a missing directory, a FIFO (written through,
#    never replaced); batch -j 64 with duplicate paths and names
# Env: VITA (the binary), BUILD (scratch directory). Needs python3-yaml.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/hostile
rm -rf "$W"
mkdir -p "$W"
CASE_SECS=60
. "$(dirname "$0")/../tools/cases.sh"

B=$W/base.yaml
printf 'name: Test Person\nsections:\n  - {title: T, type: text, text: hello world}\n' >"$B"
Z=profiles/zhanda-zhu.yaml

# layout overrides
run margin 1 'error: the margins leave too little room' -- render "$B" -o "$W/x.pdf" --set page.margin.left=1000
run size0 1 "^--set: error: 'sizes.body' expects a font size" -- render "$B" -o "$W/x.pdf" --set sizes.body=0
run size500 1 "^--set: error: 'sizes.body' expects a font size" -- render "$B" -o "$W/x.pdf" --set sizes.body=500
run leading 1 "^--set: error: 'leading' expects a number from 0.5 to 5" -- render "$B" -o "$W/x.pdf" --set leading=0.01
run pagewide 1 "^--set: error: 'page.width'" -- render "$B" -o "$W/x.pdf" --set page.width=999999
run badutf8 1 "^--set: error: 'entry.bullet': invalid UTF-8" -- render "$B" -o "$W/x.pdf" --set "entry.bullet=$(printf '\377')"

# layout files
printf 'extends: self.yaml\nname: self\n' >"$W/self.yaml"   # relative to the layout itself
printf 'extends: no-such-layout\n' >"$W/orphan.yaml"
run l-null 1 '^/dev/null: error: cannot read layout: not a regular file (a device)' -- render "$B" -o "$W/x.pdf" -l /dev/null
run l-dir 1 "^$W: error: cannot read layout: not a regular file (a directory)" -- render "$B" -o "$W/x.pdf" -l "$W"
run l-self 1 "^$W/self.yaml:1:10: error: layouts extend each other in a loop" -- render "$B" -o "$W/x.pdf" -l "$W/self.yaml"
run l-orphan 1 "^$W/orphan.yaml:1:10: error: no layout named 'no-such-layout'" -- render "$B" -o "$W/x.pdf" -l "$W/orphan.yaml"

# photos
python3 - "$W" <<'PY'
import struct, sys, zlib
d = sys.argv[1]
def chunk(t, b): return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xffffffff)
def png(w, h, data): return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(data)) + chunk(b"IEND", b"")
good = png(64, 64, b"".join(b"\0" + bytes((x * y) & 255 for x in range(64 * 3)) for y in range(64)))
open(d + "/good.png", "wb").write(good)
open(d + "/truncated.png", "wb").write(good[: len(good) // 2])
bad = bytearray(good); bad[40] ^= 0xff
open(d + "/crc.png", "wb").write(bytes(bad))
open(d + "/huge.png", "wb").write(png(60000, 60000, b"\0" * 100))
sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 65535, 65535, 1) + b"\x01\x11\x00"
open(d + "/huge.jpg", "wb").write(b"\xff\xd8" + sof + b"\xff\xd9")
PY
mkdir -p "$W/dir.png"
for ph in good.png truncated.png crc.png huge.png huge.jpg dir.png; do
	printf 'name: P\nphoto: %s\nsections:\n  - {title: T, type: text, text: x}\n' "$ph" >"$W/photo-$ph.yaml"
	if [ $ph = good.png ]; then
		run "photo-$ph" 0 '' -- render "$W/photo-$ph.yaml" -o "$W/x.pdf"
	else
		run "photo-$ph" 1 "photo-$ph.yaml:2:8: error: photo '.*' is not a readable PNG or JPEG" -- render "$W/photo-$ph.yaml" -o "$W/x.pdf"
	fi
done

# text edge cases in every field
python3 - "$W" <<'PY'
import sys, yaml
d = sys.argv[1]
def prof(v):
    link = {"label": v, "url": v}
    return {"name": "X", "name_native": v, "headline": v, "affiliation": v, "location": v,
        "contact": {k: v for k in ["email", "phone", "website", "orcid", "github", "scholar", "linkedin", "twitter"]},
        "links": [link, v], "summary": v,
        "sections": [
            {"title": v, "type": "experience", "entries": [{"title": v, "org": v, "location": v, "start": "2020-01", "end": "present", "details": [v, v], "note": v, "links": [link]}]},
            {"title": v, "type": "publications", "highlight": [v], "entries": [{"title": v, "authors": [v, "X"], "equal": [v], "venue": v, "venue_full": v, "year": 2020, "status": v, "doi": v, "links": [link], "badges": [v], "note": v}]},
            {"title": v, "type": "news", "entries": [{"date": "9999-12-31", "text": v}]},
            {"title": v, "type": "list", "items": [v, v]},
            {"title": v, "type": "list", "style": "bullets", "items": [v]},
            {"title": v, "type": "text", "text": v},
            {"title": v, "type": "awards", "entries": [{"title": v, "date": v}]}]}
cases = {"stars": "**", "bracket": "[", "open-link": "](", "backslash": "x\\", "nested": "[[a](b)](c) **[*\\](**",
    "zero-width": "a\u200b\u200d\u200c\u2060b", "combining": "a" + "\u0301" * 40, "rtl": "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u202e x \u202c",
    "nonchar": "a\uffff b\ufffe", "control": "a\u0085b\u2028c\tX", "bom": "\ufeff", "astral": "\U0001F600\U0001D54F", "soft-hyphens": "\u00ad" * 50,
    "long-word": "x" * 20000, "long-cjk": "\u6731" * 20000}
for k, v in cases.items():
    yaml.safe_dump(prof(v), open("%s/text-%s.yaml" % (d, k), "w"), allow_unicode=True)
yaml.safe_dump({"name": "M", "sections": [{"title": "S%d" % i, "type": "text", "text": "x"} for i in range(3000)]}, open(d + "/many-sections.yaml", "w"))
yaml.safe_dump({"name": "M", "sections": [{"title": "X", "type": "experience", "entries": [{"title": "E%d" % i, "start": "2020-01", "details": ["d"]} for i in range(2000)]}]}, open(d + "/many-entries.yaml", "w"))
PY
for y in "$W"/text-*.yaml "$W"/many-*.yaml; do
	run "$(basename "$y" .yaml)" 0 '' -- render "$y" -o "$W/x.pdf"
done
run dev-zero 1 '^/dev/zero: error: cannot read the profile' -- check /dev/zero

# output
run o-dir 3 "^$W: error: cannot write the PDF" -- render "$B" -o "$W"
run o-nodir 3 'error: cannot write the PDF' -- render "$B" -o "$W/no/such/dir/x.pdf"
cp "$W/x.pdf" "$W/keep.pdf"
run o-kept 1 '' -- render "$B" -o "$W/keep.pdf" --set sizes.body=0
cmp -s "$W/x.pdf" "$W/keep.pdf" || no "a failed render changed an existing PDF"
mkfifo "$W/fifo"
timeout 20 cat "$W/fifo" >"$W/fifo.out" & # no hang if the FIFO is replaced
run o-fifo 0 '' -- render "$B" -o "$W/fifo"
wait
[ -p "$W/fifo" ] || no "-o FIFO: the FIFO was replaced"
head -c 5 "$W/fifo.out" | grep -q '%PDF-' || no "-o FIFO: no PDF came through"

# batch: duplicate paths and names are refused, the rest render
mkdir -p "$W/a" "$W/b"
cp "$B" "$W/a/cv.yaml"
cp "$B" "$W/b/cv.yaml"
run batch 1 'already the output of' -- batch "$Z" "$Z" "$W/a/cv.yaml" "$W/b/cv.yaml" "$Z" -d "$W/out" -j 64
[ -s "$W/out/zhanda-zhu.pdf" ] && [ -s "$W/out/cv.pdf" ] || no "batch: the first of each name did not render"
grep -q '2 of 5 CVs rendered' "$W/batch.err" || no "batch summary: $(tail -1 "$W/batch.err")"
[ "$(ls "$W/out" | wc -l)" = 2 ] || no "batch left other files: $(ls "$W/out")"

echo "hostile.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
