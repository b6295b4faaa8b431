#!/bin/sh
# Locales (locales/*.yaml): for every installed locale, tests/locale/cv.yaml
# rendered with --lang CODE shows that locale's dates, range, "present",
# footer, updated line, badge prefix, equal-contribution note, Published
# heading and Scholar label (tests/locale/expect.py computes them from the
# file), the PDF title follows the locale's pattern, and no English fixed
# word is left on a non-English page. Then: aliases, an unknown --lang
# (usage error, did-you-mean), a profile's lang key, layout overrides, a
# broken locale file (located errors), the native name printed once, and
# the warning for a field without the chosen translation.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/locales
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
flat() { tr -d ' \n\t\f\r' | sed 's/\xc2\xa0//g'; }   # pdftotext spacing varies; compare without it
CV=tests/locale/cv.yaml
n=0
for f in locales/*.yaml; do
	code=$(basename "$f" .yaml)
	n=$((n + 1))
	pdf=$OUT/$code.pdf
	SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$CV" --lang "$code" -o "$pdf" 2>"$OUT/$code.err" \
		|| { no "$code: render exit $?"; cat "$OUT/$code.err"; continue; }
	[ -s "$OUT/$code.err" ] && { no "$code: unexpected messages"; cat "$OUT/$code.err"; }
	pdftotext -enc UTF-8 "$pdf" - | flat > "$OUT/$code.txt"
	python3 tests/locale/expect.py "$f" > "$OUT/$code.want" || no "$code: expect.py"
	# right-to-left text is checked in its own order by tests/scripts/bidi.sh
	grep -q '^rtl: true' "$f" ||
	while IFS= read -r s; do
		k=$(printf '%s' "$s" | flat)
		grep -qF -- "$k" "$OUT/$code.txt" || no "$code: '$s' not on the page"
	done < "$OUT/$code.want"
	title=$(python3 -c "import yaml,sys; print(yaml.safe_load(open(sys.argv[1]))['title'].replace('{name}','Mei Lin'))" "$f")
	got=$(pdfinfo -enc UTF-8 "$pdf" | sed -n 's/^Title: *//p')
	[ "$got" = "$title" ] || no "$code: PDF title '$got', expected '$title'"
	if [ "$code" != en ]; then
		for w in present Updated page Published Artifact Equal Curriculum; do
			grep -qi -- "$w" "$f" && continue   # French "page", Italian "Curriculum"
			grep -qi -- "$w" "$OUT/$code.txt" && no "$code: English word '$w' on the page"
			printf '%s' "$got" | grep -qi -- "$w" && no "$code: English word '$w' in the title"
		done
	fi
done
[ "$n" -ge 15 ] || no "only $n locales installed (at least 15 expected)"

# the issue's examples, written out
t() { SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$CV" "$@" -o "$OUT/t.pdf" 2>"$OUT/t.err" &&
	pdftotext -enc UTF-8 "$OUT/t.pdf" - | flat; }
t --lang zh | grep -qF '2021年9月–至今' || no "zh: '2021年9月 – 至今'"
t --lang zh | grep -qF '第1页，共1页' || no "zh: footer"
t --lang de | grep -qF 'Sept.2021–heute' || no "de: 'Sept. 2021 – heute'"
t --lang fr | grep -qF 'sept.2021–aujourd’hui' || no "fr: 'sept. 2021 – aujourd’hui'"
t --lang ja | grep -qF '2024年5月2日' || no "ja: day date"
# aliases and regions: zh-TW -> zh-Hant, pt-BR -> pt, en-GB -> en
t --lang zh-TW | grep -qF '頁' || no "zh-TW: not the zh-Hant locale"
t --lang pt-BR | grep -qF 'atual' || no "pt-BR: not the pt locale"
t --lang en-GB | grep -qF 'present' || no "en-GB: not the en locale"

# an unknown --lang: usage error with a did-you-mean, before anything is read
"$VITA" render "$CV" --lang dee -o "$OUT/u.pdf" 2>"$OUT/u.err"; rc=$?
[ $rc -eq 2 ] || no "--lang dee: exit $rc, expected 2"
grep -q "unknown --lang 'dee'; did you mean 'de'" "$OUT/u.err" || { no "--lang dee: message"; cat "$OUT/u.err"; }
"$VITA" check "$CV" --lang xx 2>"$OUT/u.err"; rc=$?
[ $rc -eq 2 ] || no "check --lang xx: exit $rc, expected 2"
"$VITA" render "$CV" --lang ../../etc/passwd -o "$OUT/u.pdf" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || no "--lang with a path: exit $rc, expected 2"
"$VITA" locales | grep -q '^zh-Hans *简体中文$' || no "vita locales: zh-Hans"

# the profile's lang key sets the default; --lang beats it
sed 's/^name: Mei Lin/name: Mei Lin\nlang: de/' "$CV" > "$OUT/de.yaml"
"$VITA" render "$OUT/de.yaml" -o "$OUT/p.pdf" 2>/dev/null || no "profile lang: de: exit $?"
pdftotext "$OUT/p.pdf" - | flat | grep -qF 'heute' || no "profile lang: de is not used"
"$VITA" render "$OUT/de.yaml" --lang fr -o "$OUT/p.pdf" 2>/dev/null
pdftotext "$OUT/p.pdf" - | flat | grep -qF 'aujourd' || no "--lang fr does not beat the profile's lang"
sed 's/^name: Mei Lin/name: Mei Lin\nlang: dee/' "$CV" > "$OUT/dee.yaml"
"$VITA" render "$OUT/dee.yaml" -o "$OUT/p.pdf" 2>"$OUT/p.err"; rc=$?
[ $rc -eq 1 ] || no "profile lang: dee: exit $rc, expected 1"
grep -q "dee.yaml:6:7: error: unknown language 'dee'; did you mean 'de'?" "$OUT/p.err" ||
	{ no "profile lang: dee: not located"; cat "$OUT/p.err"; }

# a layout overrides any string: locale.KEY, and the older keys
t --lang de --set locale.present=jetzt | grep -qF 'Sept.2021–jetzt' || no "--set locale.present"
t --set entry.present=now --set 'entry.date_separator= to ' | grep -qF 'Sep.2021tonow' ||
	no "--set entry.present / entry.date_separator"
t --set 'footer.text={name}, {page}/{pages}' | grep -qF 'MeiLin,1/1' || no "--set footer.text"
"$VITA" render "$CV" --set locale.presnt=x -o "$OUT/u.pdf" 2>"$OUT/u.err"; rc=$?
[ $rc -eq 1 ] && grep -q "unknown locale key 'presnt'; did you mean 'present'" "$OUT/u.err" ||
	{ no "--set locale.presnt: exit $rc"; cat "$OUT/u.err"; }
"$VITA" render "$CV" --set 'locale.range={start}' -o "$OUT/u.pdf" 2>"$OUT/u.err"; rc=$?
[ $rc -eq 1 ] && grep -q "'range' must hold {end}" "$OUT/u.err" || no "--set locale.range without {end}"

# broken locale files (tests/locale/locales/): located errors, no PDF
for c in broken:11:8 partial:2:1 badholder:14:9; do
	code=${c%%:*}
	rm -f "$OUT/b.pdf"
	"$VITA" render "$CV" --lang "$code" -o "$OUT/b.pdf" 2>"$OUT/b.err"; rc=$?
	[ $rc -eq 1 ] || no "locale $code: exit $rc, expected 1"
	grep -q "^tests/locale/locales/$code.yaml:${c#*:}: error: " "$OUT/b.err" ||
		{ no "locale $code: not located at ${c#*:}"; cat "$OUT/b.err"; }
	[ -e "$OUT/b.pdf" ] && no "locale $code: a PDF was written"
done

# name: {en: Zhanda Zhu, zh: 朱展达} with name_native: 朱展达 and --lang zh:
# the header prints the name once
cat > "$OUT/native.yaml" <<'YAML'
name: {en: Zhanda Zhu, zh: 朱展达}
name_native: 朱展达
headline: {en: Ph.D. Student, zh: 博士生}
affiliation: {en: University of Toronto}
sections:
  - title: {en: Education, zh: 教育经历}
    type: text
    text: {en: Toronto., zh: 多伦多。}
YAML
"$VITA" render "$OUT/native.yaml" --lang zh -o "$OUT/n.pdf" 2>"$OUT/n.err" || no "native: exit $?"
c=$(pdftotext "$OUT/n.pdf" - | grep -o '朱展达' | wc -l)
[ "$c" -eq 2 ] || no "native: 朱展达 printed $c times (header once, footer once expected)"
"$VITA" render "$OUT/native.yaml" -o "$OUT/n.pdf" 2>/dev/null
pdftotext "$OUT/n.pdf" - | head -3 | grep -q 'Zhanda Zhu 朱展达' || no "native: en header lost the native name"
# the field without a zh translation: one warning, located, naming the fallback
[ "$(grep -c 'warning:' "$OUT/n.err")" -eq 1 ] || { no "native: expected one warning"; cat "$OUT/n.err"; }
grep -q "native.yaml:4:14: warning: 'affiliation' has no 'zh' translation; using 'en'" "$OUT/n.err" ||
	{ no "native: fallback warning"; cat "$OUT/n.err"; }
# zh matches zh-Hans keys, zh-Hans matches zh keys
sed 's/zh:/zh-Hans:/g' "$OUT/native.yaml" > "$OUT/hans.yaml"
"$VITA" render "$OUT/hans.yaml" --lang zh -o "$OUT/n.pdf" 2>/dev/null
pdftotext "$OUT/n.pdf" - | grep -q '博士生' || no "--lang zh does not pick zh-Hans"
"$VITA" render "$OUT/native.yaml" --lang zh-Hans -o "$OUT/n.pdf" 2>/dev/null
pdftotext "$OUT/n.pdf" - | grep -q '博士生' || no "--lang zh-Hans does not pick zh"

[ $fail -eq 0 ] && echo "locales: ok ($n locales)"
exit $fail
