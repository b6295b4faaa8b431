#!/bin/sh
# Fonts only when needed: with a private fontconfig (FONTCONFIG_FILE) that
# holds only Noto Serif and DejaVu Sans, an English CV renders with the
# default layout (exit 0, only those fonts embedded); a CV that needs a
# CJK face the machine lacks fails with exit 3, located at the text,
# naming the family and the Debian package, once per family; a missing
# first (Latin) face is an error located in the chain file.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/fonts_needed
rm -rf "$OUT"; mkdir -p "$OUT/fonts" "$OUT/cache"
fail=0
no() { echo "FAIL: $*"; fail=1; }
noto=$(fc-list -f '%{file}\n' 'Noto Serif:style=Regular' | grep -m1 'NotoSerif-Regular.ttf')
dejavu=$(fc-list -f '%{file}\n' 'DejaVu Sans:style=Book' | grep -m1 'DejaVuSans.ttf')
[ -n "$noto" ] && [ -n "$dejavu" ] || { echo "FAIL: Noto Serif / DejaVu Sans not installed"; exit 1; }
for s in Regular Bold Italic BoldItalic; do ln -s "$(dirname "$noto")/NotoSerif-$s.ttf" "$OUT/fonts/"; done
ln -s "$dejavu" "$OUT/fonts/"
cat > "$OUT/fonts.conf" <<XML
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$PWD/$OUT/fonts</dir><cachedir>$PWD/$OUT/cache</cachedir></fontconfig>
XML
export FONTCONFIG_FILE="$PWD/$OUT/fonts.conf" VITA_NO_FONT_CACHE=1
[ "$(fc-list | wc -l)" -eq 5 ] || no "the private fontconfig lists $(fc-list | wc -l) fonts, not 5"

"$VITA" render tests/locale/cv.yaml -o "$OUT/en.pdf" 2>"$OUT/en.err" || { no "English CV: exit $?"; cat "$OUT/en.err"; }
[ -s "$OUT/en.err" ] && { no "English CV: messages"; cat "$OUT/en.err"; }
pdffonts "$OUT/en.pdf" | tail -n +3 | grep -v 'NotoSerif\|DejaVuSans' && no "English CV: another font embedded"

# a Chinese CV: exit 3, at the first character, naming the package; said once
"$VITA" render tests/locale/cv.yaml --lang zh -o "$OUT/zh.pdf" 2>"$OUT/zh.err"; rc=$?
[ $rc -eq 3 ] || no "zh CV: exit $rc, expected 3"
grep -q "^tests/locale/cv.yaml:8:12: error: U+8C37 '谷' needs a font that is not installed: chain 'serif' names 'Noto Serif CJK SC' (Debian package fonts-noto-cjk)" "$OUT/zh.err" ||
	{ no "zh CV: message"; cat "$OUT/zh.err"; }
[ "$(wc -l < "$OUT/zh.err")" -eq 1 ] || { no "zh CV: more than one message"; cat "$OUT/zh.err"; }
[ -e "$OUT/zh.pdf" ] && no "zh CV: a PDF was written"
# kana: the Japanese face is the one named
printf 'name: 山田 たろう\nsections:\n  - {title: A, type: text, text: x}\n' > "$OUT/ja.yaml"
"$VITA" render "$OUT/ja.yaml" -o "$OUT/ja.pdf" 2>"$OUT/ja.err"; rc=$?
[ $rc -eq 3 ] && grep -q "Noto Serif CJK JP' (Debian package fonts-noto-cjk)" "$OUT/ja.err" ||
	{ no "ja name: exit $rc"; cat "$OUT/ja.err"; }
# vita fonts shows what is missing and where it comes from
"$VITA" fonts | grep -q 'Noto Serif CJK JP *not installed lang=ja; Debian package fonts-noto-cjk' ||
	no "vita fonts: missing family not shown"
# the first face of a chain is needed by every CV
"$VITA" render tests/locale/cv.yaml -l compact -o "$OUT/c.pdf" 2>"$OUT/c.err"; rc=$?
[ $rc -eq 3 ] && grep -q "fonts/sans.yaml:[0-9]*:[0-9]*: error: font family 'Noto Sans' is not installed (Debian package fonts-noto-core)" "$OUT/c.err" ||
	{ no "compact without Noto Sans: exit $rc"; cat "$OUT/c.err"; }

[ $fail -eq 0 ] && echo "fonts_needed: ok"
exit $fail
