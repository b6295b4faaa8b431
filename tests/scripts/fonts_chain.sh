#!/bin/sh
# fonts_chain: `vita fonts` shows the chain and its files; chains are data
# (a fonts/ dir beside the profile overrides the project's); a chain with a
# family that is not installed or a corrupt font fails with exit 3 and a
# message naming the family or the file; a CFF font renders.
set -u
: "${VITA:=build/vita}" "${BUILD:=build}"
T="$BUILD/fonts_chain.tmp"
rm -rf "$T"; mkdir -p "$T/p/fonts"
export XDG_CACHE_HOME="$(cd "$T" && pwd)/cache"
fail=0
die() { echo "FAIL: $*"; fail=1; }

printf 'name: Ada Lovelace\nsections:\n  - title: Notes\n    type: text\n    text: "Zhanda Zhu 朱展达 Müller ★ ꡀ"\n' >"$T/p/ada.yaml"

# 1. the default chain, described
out=$("$VITA" fonts 2>&1); rc=$?
[ $rc -eq 0 ] || die "vita fonts exit $rc: $out"
for s in NotoSerif-Regular.ttf NotoSerif-BoldItalic.ttf "NotoSerifCJK-Bold.ttc index=2 lang=zh" \
         "NotoSerifCJK-Regular.ttc index=3 lang=zh-Hant" "Noto Serif CJK JP *bold *.*NotoSerifCJK-Bold.ttc lang=ja" \
         "Noto Serif CJK KR" "DejaVuSans.ttf"; do
	echo "$out" | grep -q -- "$s" || die "vita fonts output lacks '$s'"
done
# every CJK face has a real bold: no synthetic bold in the default chain
echo "$out" | grep CJK | grep -q synthetic-bold && die "vita fonts: a synthetic CJK bold"
# the second run reads the family cache and says the same
out2=$("$VITA" fonts 2>&1)
[ "$out" = "$out2" ] || die "vita fonts differs with the family cache"
ls "$T"/cache/vita/families-* >/dev/null 2>&1 || die "no family cache written"

# 2. a chain beside the profile, with a family that is not installed
printf 'name: serif\nfaces:\n  - family: Noto Serif\n  - family: Missing Family 7\n' >"$T/p/fonts/serif.yaml"
out=$("$VITA" fonts "$T/p/ada.yaml" 2>&1); rc=$?
# (only an error because the profile has characters Noto Serif lacks:
# tests/scripts/fonts_needed.sh covers a CV that needs no missing family)
[ $rc -eq 3 ] || die "missing family: exit $rc, expected 3: $out"
echo "$out" | grep -q "ada.yaml:5:11: error: U+6731 '朱' in a text section needs a font that is not installed: the layout names 'Missing Family 7'" ||
	die "missing family: message: $out"
echo "$out" | grep -q "Missing Family 7 *not installed" || die "missing family: vita fonts: $out"

# 3. a name-keyed CFF font by file (URW's C059): embedded as a CID-keyed
# CFF (FontFile3 /CIDFontType0C), which every reader takes
cff=$(ls /usr/share/fonts/opentype/urw-base35/C059-Roman.otf 2>/dev/null | head -1)
if [ -n "$cff" ]; then
	printf 'name: serif\nfaces:\n  - file: %s\n' "$cff" >"$T/p/fonts/serif.yaml"
	printf 'name: Ada Lovelace\nsections:\n  - {title: Notes, type: text, text: "Fiancée naïve — “quoted” 1234"}\n' >"$T/p/cff.yaml"
	out=$("$VITA" render "$T/p/cff.yaml" -o "$T/cff.pdf" 2>&1) || die "CFF: exit $?: $out"
	# Custom: the subset's codes are one byte (pdf_font.c's Vita-OneByte-H)
	pdffonts "$T/cff.pdf" | grep -q 'C059-Roman *CID Type 0C *Custom *yes yes yes' ||
		die "CFF: not embedded as CID Type 0C: $(pdffonts "$T/cff.pdf")"
	[ "$(pdftotext "$T/cff.pdf" - | head -3 | tr -s '\n' ' ')" = "Ada Lovelace Notes Fiancée naïve — “quoted” 1234 " ] ||
		die "CFF: text: $(pdftotext "$T/cff.pdf" - | head -3)"
	sh tests/tools/pdf_check.sh "$T/cff.pdf" || die "CFF: pdf_check"
fi

# 4. a corrupt font beside the chain (numberOfHMetrics > numGlyphs: crashes libharu)
noto=/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf
cp "$noto" "$T/p/fonts/bad.ttf"
off=$(od -A n -t x1 -j 12 -N 400 "$T/p/fonts/bad.ttf" | tr -d ' \n' |
	python3 -c 'import sys;h=sys.stdin.read();
for i in range(0,len(h),32):
    if bytes.fromhex(h[i:i+8])==b"hhea": print(int(h[i+16:i+24],16)); break')
printf '\377\377' | dd of="$T/p/fonts/bad.ttf" bs=1 seek=$((off + 34)) conv=notrunc 2>/dev/null
printf 'name: serif\nfaces:\n  - file: bad.ttf\n' >"$T/p/fonts/serif.yaml"
out=$("$VITA" fonts "$T/p/ada.yaml" 2>&1); rc=$?
[ $rc -eq 3 ] || die "corrupt: exit $rc, expected 3: $out"
echo "$out" | grep -q "bad.ttf: error: corrupt font: hhea.numberOfHMetrics = 65535" ||
	die "corrupt: message: $out"

# 5. an unknown key is an input error (exit 1), located
printf 'name: serif\nfaces:\n  - family: Noto Serif\n    weight: 700\n' >"$T/p/fonts/serif.yaml"
out=$("$VITA" fonts "$T/p/ada.yaml" 2>&1); rc=$?
[ $rc -eq 1 ] || die "unknown key: exit $rc, expected 1: $out"
echo "$out" | grep -q "serif.yaml:4:5: error: unknown key 'weight'" || die "unknown key: message: $out"

# 6. families in front of a chain ("Lato + ..." puts them before the
# layout's): one that is installed is the Latin face, the chain's CJK faces
# stay; one that is not is left out with a warning located at the key
out=$("$VITA" fonts profiles/zhanda-zhu.yaml --set 'fonts.body=No Such Face 7, DejaVu Serif + ...' 2>&1); rc=$?
[ $rc -eq 0 ] || die "front families: exit $rc: $out"
echo "$out" | grep -q "chain No Such Face 7, DejaVu Serif + serif (body)" || die "front: chain name: $out"
echo "$out" | grep -q "'No Such Face 7' not installed: left out" || die "front: absent: $out"
echo "$out" | grep -q "^  DejaVu Serif *regular" || die "front: DejaVu Serif: $out"
echo "$out" | grep -q "^  Noto Serif CJK SC *regular.*lang=zh" || die "front: the chain's zh face: $out"
printf 'name: Ada\nlayout:\n  fonts:\n    body: "No Such Face 7 + serif"\nsections:\n  - title: T\n    type: text\n    text: Hello\n' >"$T/front.yaml"
out=$("$VITA" render "$T/front.yaml" -o "$T/front.pdf" 2>&1); rc=$?
[ $rc -eq 0 ] || die "front: render exit $rc: $out"
echo "$out" | grep -q "front.yaml:4:11: warning: font family 'No Such Face 7' is not installed; the layout's own face is used for the text" ||
	die "front: warning: $out"

rm -rf "$T"
exit $fail
