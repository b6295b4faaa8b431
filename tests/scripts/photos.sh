#!/bin/sh
# photos.sh: issue 15's photo cases, end to end. build/tests/test_image
# --write makes every kind of PNG and JPEG (and the broken ones); each is
# rendered as a profile's photo and checked:
#  - cases 2, 8: every PNG kind (palette, gray 1-16 bits, gray+alpha,
#    RGB(A) 8/16, tRNS, Adam7 interlaced, the 1x1 interlaced RGBA that
#    made libharu free twice) and JPEG kind (baseline, progressive, gray,
#    RGB, CMYK and YCCK Adobe-inverted) renders, exit 0, `check` agrees,
#    one image (and an SMask when there is alpha) at 300 dpi of the printed
#    size (a JPEG as a JPEG re-encoded from its pixels, a PNG as Flate),
#    every PDF clean by tests/tools/pdf_check.sh
#  - cases 8, 9: 2-component, truncated, scanless, lossless (SOF3),
#    12-bit and corrupt JPEGs are located errors (exit 1) in render and
#    check, with no output written; in batch the good CVs still render
#  - case 16: no EXIF, GPS, comment or PNG text reaches the PDF
#  - case 6: a 16384 x 16384 photo renders in bounded memory (max RSS
#    under 200 MB), embedded at 325 px, not 16384
# Env: VITA (the binary), BUILD (scratch directory; holds tests/test_image).
set -u
VITA=${VITA:-build/vita}
B=${BUILD:-build}
W=$B/photos
rm -rf "$W"
mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
sanitizer() { grep -q -e 'Sanitizer' -e 'runtime error:' "$1"; }
"$B/tests/test_image" --write "$W" || { echo "FAIL: test_image --write"; exit 1; }

prof() { # NAME PHOTO
	printf 'name: Photo Person\nphoto: %s\nsections:\n  - {title: T, type: text, text: "x"}\n' "$2" >"$W/$1.yaml"
}

good="palette.png palette-trns.png gray1.png gray4.png gray8.png gray16.png gray-trns.png
gray-alpha.png gray-alpha16.png rgb8.png rgb16.png rgb-trns.png rgba8.png rgba16.png
interlaced-rgb8.png interlaced-rgba8.png interlaced-rgba16.png interlaced-palette-trns.png
interlaced-1x1-rgba.png wide.png large.png baseline.jpg progressive.jpg gray.jpg rgb.jpg
cmyk.jpg ycck.jpg camera.jpg"
pdfs=""
for ph in $good; do
	n=ok-${ph%.*}
	prof "$n" "$ph"
	"$VITA" render "$W/$n.yaml" -o "$W/$n.pdf" 2>"$W/$n.err"; c=$?
	sanitizer "$W/$n.err" && no "$ph: sanitizer report"
	[ $c = 0 ] || { no "$ph: render exit $c: $(head -2 "$W/$n.err")"; continue; }
	"$VITA" check "$W/$n.yaml" 2>>"$W/$n.err" || no "$ph: check refuses what render accepts"
	pdfs="$pdfs $W/$n.pdf"
	pdfimages -list "$W/$n.pdf" | tail -n +3 >"$W/$n.img"
	[ "$(awk '$3 == "image"' "$W/$n.img" | wc -l)" = 1 ] || no "$ph: not one image: $(cat "$W/$n.img")"
	case $ph in
	*alpha*|*rgba*|*trns*) [ "$(grep -c ' smask ' "$W/$n.img")" = 1 ] || no "$ph: no SMask" ;;
	*) grep -q ' smask ' "$W/$n.img" && no "$ph: an SMask on an opaque photo" ;;
	esac
	case $ph in
	gray*) grep -q ' image .* gray ' "$W/$n.img" || no "$ph: not gray: $(cat "$W/$n.img")" ;;
	esac
	# a JPEG photo goes in as a JPEG we encode from its pixels, a PNG as Flate
	enc=$(awk '$3 == "image" {print $9}' "$W/$n.img")
	case $ph in
	*.jpg) [ "$enc" = jpeg ] || no "$ph: embedded as $enc, not jpeg" ;;
	*) [ "$enc" = image ] || no "$ph: embedded as $enc, not Flate" ;;
	esac
done
# printed 78 pt high: 325 px at 300 dpi, whatever the file's size; the
# 4:3 photo is wider than header.photo.max_width (100 pt), so its sides
# are cropped (it used to shrink to 75 pt high)
grep -q ' image  *417  *325 ' "$W/ok-camera.img" ||
	no "camera.jpg: not 417x325 px (300 dpi at 100 x 78 pt): $(cat "$W/ok-camera.img")"
grep -q ' image  *29  *23 ' "$W/ok-rgb8.img" || no "rgb8.png: a small photo is not kept as is (37 x 23, cropped to the 100 x 78 pt box: 29 x 23)"

# case 8: a 16-bit photo is embedded as the same pixels as its 8-bit twin
# (it was duplicated, half height, wrong colours)
pixels() { # PDF -> the image XObject's decoded bytes
	qpdf --show-object="$(pdfimages -list "$1" | awk '$3 == "image" {print $11; exit}')" \
		--filtered-stream-data "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n'
}
for t in rgb gray rgba interlaced-rgba; do
	a=ok-${t}8 b=ok-${t}16
	[ "$t" = gray ] && a=ok-gray8
	[ -n "$(pixels "$W/$a.pdf")" ] && [ "$(pixels "$W/$a.pdf")" = "$(pixels "$W/$b.pdf")" ] ||
		no "case 8: $b.png is not embedded as the pixels of $a.png"
done

# shapes crop, never squash: a circle of a 4:3 photo is a circle (a
# square box, the photo's centre), not a stadium; rounded and square are
# as high as the layout says, their sides cropped
for shape in circle rounded square; do
	n=shape-$shape
	printf 'name: Photo Person\nphoto: camera.jpg\nlayout: {header.photo.shape: %s}\nsections:\n  - {title: T, type: text, text: "x"}\n' \
		"$shape" >"$W/$n.yaml"
	"$VITA" render "$W/$n.yaml" -o "$W/$n.pdf" --dump=layout >"$W/$n.dump" 2>"$W/$n.err" ||
		{ no "$shape: render failed: $(head -2 "$W/$n.err")"; continue; }
	"$VITA" render "$W/$n.yaml" -o "$W/$n.pdf" 2>>"$W/$n.err"
	pdfs="$pdfs $W/$n.pdf"
	im=$(grep '^ *image ' "$W/$n.dump")
	case $shape in
	circle) want='w=78000 h=78000 jpeg "camera.jpg" radius=39000 crop=128,0,768,768' ;;
	rounded) want='w=100000 h=78000 jpeg "camera.jpg" radius=9750 crop=19,0,985,768' ;;
	square) want='w=100000 h=78000 jpeg "camera.jpg" crop=19,0,985,768' ;;
	esac
	case $im in *"$want"*) ;; *) no "$shape: box $im, want $want" ;; esac
done
pdfimages -list "$W/shape-circle.pdf" | grep -q ' image  *325  *325 ' ||
	no "circle: the embedded pixels are not the square crop"
# the circle on the page: as wide as it is high (a stadium was 1.33 : 1)
pdftoppm -r 100 -f 1 -l 1 -gray "$W/shape-circle.pdf" "$W/shape-circle"
python3 - "$W"/shape-circle*.pgm <<'PY' || no "circle: not round on the page"
import sys
d = open(sys.argv[1], 'rb').read()
parts = d.split(None, 4)
w, h, px = int(parts[1]), int(parts[2]), parts[4]
# the photo: the top right of the page, beside the name
x0, y1 = w * 3 // 4, h // 6
rows = [y for y in range(y1) if any(px[y * w + x] < 250 for x in range(x0, w))]
cols = [x for x in range(x0, w) if any(px[y * w + x] < 250 for y in range(y1))]
wd, ht = max(cols) - min(cols) + 1, max(rows) - min(rows) + 1
print("circle: %d x %d px" % (wd, ht))
sys.exit(0 if abs(wd - ht) <= 3 else 1)
PY

# case 16: metadata never reaches the PDF (streams uncompressed first)
for n in ok-baseline ok-camera ok-rgb8 ok-cmyk; do
	qpdf --qdf --object-streams=disable "$W/$n.pdf" "$W/$n.qdf" 2>/dev/null
	grep -a -q -e 'SECRET' -e 'Exif' "$W/$n.qdf" && no "$n: metadata copied into the PDF"
done

# cases 8, 9: refused, located, nothing written; check says the same
for ph in two-components.jpg truncated.jpg noscan.jpg lossless.jpg 12bit.jpg corrupt.jpg; do
	n=bad-${ph%.*}
	prof "$n" "$ph"
	"$VITA" render "$W/$n.yaml" -o "$W/$n.pdf" 2>"$W/$n.err"; c=$?
	sanitizer "$W/$n.err" && no "$ph: sanitizer report"
	[ $c = 1 ] || no "$ph: render exit $c, want 1"
	grep -q "^$W/$n.yaml:2:8: error: photo '.*$ph' is not a readable PNG or JPEG file (.*)" "$W/$n.err" ||
		no "$ph: not a located error: $(head -2 "$W/$n.err")"
	[ -e "$W/$n.pdf" ] && no "$ph: a PDF was written"
	"$VITA" check "$W/$n.yaml" 2>/dev/null; c=$?
	[ $c = 1 ] || no "$ph: check exit $c, want 1"
done
grep -q 'a JPEG with 2 colour components is not supported' "$W/bad-two-components.err" || no "2-component: reason"
grep -q 'the file ends too early' "$W/bad-truncated.err" || no "truncated: reason"
grep -q 'SOF type 0xc3' "$W/bad-lossless.err" || no "lossless: reason"
grep -q 'precision 12' "$W/bad-12bit.err" || no "12-bit: reason"

# case 2 in batch: the bad photos are reported, every good CV renders
cp profiles/zhanda-zhu.yaml "$W/zz.yaml"
"$VITA" batch "$W/zz.yaml" "$W/ok-interlaced-1x1-rgba.yaml" "$W/bad-truncated.yaml" \
	"$W/ok-rgba16.yaml" "$W/bad-lossless.yaml" "$W/ok-cmyk.yaml" -d "$W/batch" -j 2 2>"$W/batch.err"; c=$?
[ $c = 1 ] || no "batch: exit $c, want 1"
for n in zz ok-interlaced-1x1-rgba ok-rgba16 ok-cmyk; do
	[ -s "$W/batch/$n.pdf" ] || no "batch lost $n.pdf"
done
[ -e "$W/batch/bad-truncated.pdf" ] && no "batch wrote a PDF for a bad photo"
grep -q '4 of 6 CVs rendered' "$W/batch.err" || no "batch summary: $(tail -1 "$W/batch.err")"

# case 6: 16384 x 16384, bounded memory (the file's pixels are 805 MB)
prof huge huge.png
/usr/bin/time -f '%M' -o "$W/huge.rss" "$VITA" render "$W/huge.yaml" -o "$W/huge.pdf" 2>"$W/huge.err" ||
	no "huge.png: render failed: $(head -2 "$W/huge.err")"
rss=$(tail -1 "$W/huge.rss")
[ "$rss" -lt 204800 ] || no "huge.png: max RSS $rss KB"
pdfimages -list "$W/huge.pdf" | grep -q ' image  *325  *325 ' || no "huge.png: not embedded at 325 px"
pdfs="$pdfs $W/huge.pdf"
rm -f "$W/huge.png"

# fuzz_image: a 195-byte PNG whose tEXt chunk claims 1.6 GB made libpng
# allocate it all (1.6 GB RSS) before finding the end of the file
cp tests/photos/png-huge-text-chunk.png "$W/"
prof textchunk png-huge-text-chunk.png
/usr/bin/time -f '%M' -o "$W/textchunk.rss" "$VITA" check "$W/textchunk.yaml" 2>"$W/textchunk.err"
[ $? = 1 ] || no "png-huge-text-chunk.png: want exit 1"
grep -q 'textchunk.yaml:2:8: error: photo .*the file ends too early' "$W/textchunk.err" ||
	no "png-huge-text-chunk.png: $(head -1 "$W/textchunk.err")"
rss=$(tail -1 "$W/textchunk.rss")
[ "$rss" -lt 204800 ] || no "png-huge-text-chunk.png: max RSS $rss KB"

# shellcheck disable=SC2086
sh tests/tools/pdf_check.sh $pdfs || no "pdf_check.sh found problems"
echo "photos.sh: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
