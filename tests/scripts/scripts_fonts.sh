#!/bin/sh
# scripts_fonts: the faces the bundled chains have for other scripts.
# 1. A CV in Amharic (Ethiopic), Armenian and Georgian draws every
#    character in the academic layout (fonts/serif.yaml) and the compact one
#    (sans.yaml): no message, pdffonts lists Noto's serif (sans) face of
#    each script, pdftotext gives the words back.
# 2. A chain's later faces are looked up only when a character needs them:
#    an English CV with a Chinese name (zhanda-zhu) reads no other script's
#    font file (--deps), nor DejaVu Sans.
# 3. The Hindi, Bengali, Tamil and Thai CVs of tests/tools/gen_scripts.py
#    render with Noto's serif face of their script and no message about
#    characters not drawn (their text: tests/scripts/indic.sh).
set -u
: "${VITA:=build/vita}" "${BUILD:=build}"
T="$BUILD/scripts_fonts"
rm -rf "$T"; mkdir -p "$T"
export SOURCE_DATE_EPOCH=1767225600
fail=0 n=0
no() { echo "FAIL: $*"; fail=1; }
flat() { tr -d ' \n\t\f\r' | sed 's/\xc2\xa0//g'; }

cat >"$T/cv.yaml" <<'CV'
name: "ሰላማዊት ተስፋዬ"
headline: "በኮምፒውተር ሳይንስ የዶክትሬት ተማሪ"
location: "Երևան · თბილისი"
summary: "በአዲስ አበባ ዩኒቨርሲቲ የሁለተኛ ዓመት የዶክትሬት ተማሪ ነኝ።"
sections:
  - title: "Կրթություն"
    type: text
    text: "Համակարգչային գիտություններ, Երևանի պետական համալսարան"
  - title: "განათლება"
    type: text
    text: "კომპიუტერული მეცნიერება, თბილისის სახელმწიფო უნივერსიტეტი"
CV
for l in academic compact; do
	n=$((n + 1))
	o="$T/cv-$l"
	"$VITA" render "$T/cv.yaml" -l $l -o "$o.pdf" 2>"$o.err" || { no "$l: exit $?"; cat "$o.err"; continue; }
	[ -s "$o.err" ] && { no "$l: messages"; head -3 "$o.err"; }
	k=Serif; [ $l = compact ] && k=Sans
	for s in Ethiopic Armenian Georgian; do
		pdffonts "$o.pdf" | grep -q "+Noto${k}$s-Regular " || { no "$l: no Noto$k$s"; pdffonts "$o.pdf"; }
	done
	pdftotext -enc UTF-8 "$o.pdf" - | flat >"$o.txt"
	# (compact sets titles in capitals: Armenian has them, Georgian
	# Mkhedruli stays as written outside a Georgian CV)
	t=Կրթություն; [ $l = compact ] && t=ԿՐԹՈՒԹՅՈՒՆ
	for w in "ሰላማዊት ተስፋዬ" "የዶክትሬት ተማሪ ነኝ።" "Երևանի պետական համալսարան" "თბილისის სახელმწიფო უნივერსიტეტი" \
		"$t" "განათლება"; do
		grep -qF -- "$(printf '%s' "$w" | flat)" "$o.txt" || no "$l: '$w' not given back"
	done
done

n=$((n + 1))
"$VITA" render profiles/zhanda-zhu.yaml --deps "$T/latin.d" -o "$T/latin.pdf" 2>"$T/latin.err" || no "latin: exit $?"
grep -qiE 'Ethiopic|Armenian|Georgian|Hebrew|Arabic|DejaVu|CJKjp|CJKkr' "$T/latin.d" &&
	{ no "latin: reads a face it does not need"; tr ' ' '\n' <"$T/latin.d" | grep -iE 'Hebrew|DejaVu|Arabic|CJK'; }
grep -q 'NotoSerif-Regular' "$T/latin.d" || no "latin: --deps lacks Noto Serif"

python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$T/gen" "$("$VITA" locales | awk '{print $1}')" || no "gen_scripts.py"
for c in hi:Devanagari bn:Bengali ta:Tamil th:Thai; do
	n=$((n + 1))
	code=${c%%:*} script=${c#*:}
	"$VITA" render "$T/gen/$code.yaml" -o "$T/$code.pdf" 2>"$T/$code.err" || { no "$code: exit $?"; continue; }
	grep -q "cannot shape\|no font in chain\|not drawn" "$T/$code.err" && { no "$code: says it cannot draw"; grep -m2 "cannot\|no font\|not drawn" "$T/$code.err"; }
	pdffonts "$T/$code.pdf" | grep -q "+NotoSerif$script-Regular " || { no "$code: no NotoSerif$script"; pdffonts "$T/$code.pdf"; }
done
# 3b. Nor do they look up the Arabic, Hebrew, Armenian or Georgian faces
#    on the way (their covers:), whose covers: hold all those faces draw
#    that Noto Serif (Sans) lacks, so no character changes face
#    (tests/tools/covers_check.py, with fontTools).
for code in hi bn ta th; do
	n=$((n + 1))
	"$VITA" render "$T/gen/$code.yaml" --deps "$T/$code.d" -o "$T/$code-deps.pdf" 2>/dev/null || no "$code: --deps exit $?"
	grep -qiE 'Arabic|Hebrew|Armenian|Georgian' "$T/$code.d" &&
		{ no "$code: looks up another script's face"; tr ' ' '\n' <"$T/$code.d" | grep -iE 'Arabic|Hebrew|Armenian|Georgian'; }
done
if /usr/bin/python3 -c 'import fontTools, yaml' 2>/dev/null; then
	n=$((n + 1))
	/usr/bin/python3 tests/tools/covers_check.py fonts/serif.yaml fonts/sans.yaml >"$T/covers.txt" ||
		{ no "covers: leave out what a face draws"; cat "$T/covers.txt"; }
fi
# 4. A script shaped the same way whose face the chain does not list (a
#    user's serif chain beside the profile, without Noto Serif Gujarati)
#    says so once per text, and which chain lacks it; with the bundled
#    chain the same text is drawn in Noto Serif Gujarati.
n=$((n + 1))
mkdir -p "$T/gu/fonts"
awk '/family: Noto Serif Gujarati/ {skip=3} skip > 0 {skip--; next} {print}' fonts/serif.yaml >"$T/gu/fonts/serif.yaml"
grep -q "family: Noto Serif Gujarati" "$T/gu/fonts/serif.yaml" && no "gu: the chain without Gujarati still has it"
printf 'name: "Asha Patel"\nsections:\n  - title: "Education"\n    type: text\n    text: "ગુજરાત યુનિવર્સિટી, Ahmedabad"\n' >"$T/gu/gu.yaml"
"$VITA" render "$T/gu/gu.yaml" -o "$T/gu.pdf" 2>"$T/gu.err" || no "gu: exit $?"
[ "$(grep -c "is not drawn: chain 'serif' has no face for Gujarati text" "$T/gu.err")" = 1 ] ||
	{ no "gu: not one Gujarati message"; cat "$T/gu.err"; }
cp "$T/gu/gu.yaml" "$T/gu2.yaml"
"$VITA" render "$T/gu2.yaml" -o "$T/gu2.pdf" 2>"$T/gu2.err" || no "gu2: exit $?"
[ -s "$T/gu2.err" ] && { no "gu2: messages"; cat "$T/gu2.err"; }
pdffonts "$T/gu2.pdf" | grep -q '+NotoSerifGujarati-Regular ' || no "gu2: not drawn in Noto Serif Gujarati"
echo "scripts_fonts.sh: $n cases, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
