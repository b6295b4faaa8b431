#!/bin/sh
# Foreign formats: a JSON Resume document and a RenderCV file render end to
# end (the text a reader extracts holds the names, titles and entries), and
# bad input gets located errors: a wrong type is an error, an unknown key
# close to a known one is a warning, a RenderCV top-level typo an error.
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/import
mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
norm() { tr -d ' \n\t\f\r' ; }

render() {   # render FILE NAME: the PDF's text, whitespace removed
	SOURCE_DATE_EPOCH=1767225600 "$VITA" render "$1" -o "$OUT/$2.pdf" 2>"$OUT/$2.err" ||
		{ no "$1: render exit $?"; cat "$OUT/$2.err"; }
	# what a good file does not use is said ("ignored: ..."); nothing else
	grep -v ': warning: ignored: ' "$OUT/$2.err" | grep -q . &&
		{ no "$1: messages on a good file"; cat "$OUT/$2.err"; }
	qpdf --check "$OUT/$2.pdf" >/dev/null 2>&1 || no "$1: qpdf --check"
	pdftotext -enc UTF-8 "$OUT/$2.pdf" - | norm > "$OUT/$2.txt"
}
has() {   # has NAME STRING...
	n=$1
	shift
	for s in "$@"; do
		k=$(printf '%s' "$s" | norm)
		grep -qF -- "$k" "$OUT/$n.txt" || no "$n: '$s' not in the PDF text"
	done
}

render tests/import/jsonresume.json jr
has jr "Richard Hendriks" "Programmer" "San Francisco, California, US" \
	"richard.hendriks@mail.com" "github.com/rhendriks" "SoundCloud" \
	"Experience" "Pied Piper" "CEO/President" "Successfully won Techcrunch Disrupt" \
	"Volunteering" "CoderDojo" "Education" "Bachelor in Information Technology" \
	"University of Oklahoma" "Courses: DB1101" "Awards" "Digital Compression Pioneer Award" \
	"Certificates" "Certified Kubernetes Administrator" "Publications" \
	"Video compression for 3d media" "Skills" "Web Development (Master)" \
	"Languages" "中文 (Conversational)" "Interests" "Ferrets" "References" \
	"Erlich Bachman" "Projects" "Miss Direction" "Smoogle" "present"

render tests/import/rendercv.yaml rcv
has rcv "John Doe" "Mechanical Engineer" "Geneva, Switzerland" "john.doe@example.com" \
	"Welcome to Rendercv" "TextEntry" "A second paragraph" "Education" \
	"BS in Mechanical Engineering" "Boğaziçi University" "GPA: 3.10/4.00" \
	"Work Experience" "Software Engineer" "Apple" "Swift" "Microsoft" "Publications" \
	"3D Finite Element Analysis of No-Insulation Coils" "Samwise Gamgee" \
	"IEEE Transactions on Applied Superconductivity" "Projects" \
	"Multi-Agent Robotics Simulator" "Technologies" "Languages: C++, C, Python" \
	"Extracurricular Activities and Hobbies" "Chess club captain" "Mastodon"

# NumberedEntry and ReversedNumberedEntry: the list sets the numbers (once,
# in the margin: no "• 1." prefix), ReversedNumberedEntry counts down
render tests/import/rendercv/classic-v2.8.yaml rcv28
has rcv28 "1. Adaptive Quantization for Neural Network" "3. Hardware-Aware Neural" \
	"4. Scaling Laws for Efficient Inference" "1. Efficient Deep Learning"
grep -qF '•1.' "$OUT/rcv28.txt" && no "rcv28: a numbered item has a bullet too"

# RenderCV 2.x: design onto the layout, locale.language, settings,
# custom connections, every network's URL, `code`, nested highlights,
# bold keywords, RenderCV's title rule ("a" stays lower case)
"$VITA" render tests/import/rendercv-features.yaml --dump=model > "$OUT/feat.model" 2> "$OUT/feat.err" ||
	no "rendercv-features: exit $?"
for s in 'lang: "de"' '"https://wa.me/905555555555"' '"https://reddit.com/user/jdoe"' \
	'link: "Book a call" -> "https://cal.example.com/j"' 'updated: day 2025-03-01' \
	'layout: "compact"' 'set: "page.width=148mm"' 'set: "page.margin.top=2cm"' \
	'set: "colors.text=#0a141e"' 'title: "a Note on Me"' 'text: "Uses vita and [b]Python[/b]"' \
	'detail: "Top\n◦ sub one\n◦ sub two"'; do
	grep -qF -- "$s" "$OUT/feat.model" || { no "rendercv-features: no '$s'"; }
done
SOURCE_DATE_EPOCH=1767225600 "$VITA" render tests/import/rendercv-features.yaml -o "$OUT/feat.pdf" 2>/dev/null ||
	no "rendercv-features: render"
pdfinfo "$OUT/feat.pdf" | grep -q 'Page size: *419.5[0-9]* x 595.2[0-9]*' || no "rendercv-features: not A5"

# RenderCV design and locale onto vita's layout and locale: a font family
# that is installed (Lato) in front of the layout's chain, one that is not
# (a located warning; the layout's face stays), line spacing, sizes, title
# type, date/range/footer templates, the locale's words and degree phrase
"$VITA" render tests/import/rendercv-design.yaml --dump=model > "$OUT/des.model" 2>/dev/null ||
	no "rendercv-design: dump exit $?"
for s in 'set: "fonts.body=Lato + ..."' 'set: "leading=1.5"' 'set: "sizes.body=11pt"' 	'set: "sizes.section=13.2pt"' 'set: "header.name_style=regular"' 	'set: "section.rule_style=none"' 'set: "locale.date.month={month} {year}"' 	'set: "locale.range={start} to {end}"' 'set: "locale.footer={name} – {page}/{pages}"' 	'set: "locale.present=ongoing"' 'title: "MSc of Physics"'; do
	grep -qF -- "$s" "$OUT/des.model" || no "rendercv-design: no '$s'"
done
SOURCE_DATE_EPOCH=1767225600 "$VITA" render tests/import/rendercv-design.yaml -o "$OUT/des.pdf" 2>"$OUT/des.err" ||
	no "rendercv-design: render"
for w in "rendercv-design.yaml:24:13: warning: font family 'No Such Family 9' is not installed; the layout's own face is used for the name and section titles" \
	"rendercv-design.yaml:38:3: warning: ignored: design.templates: time_span" \
	"rendercv-design.yaml:36:3: warning: ignored: design.entries: side_space"; do
	grep -qF -- "$w" "$OUT/des.err" || no "rendercv-design: no warning '$w'"
done
if fc-list : family | grep -qx Lato; then
	pdffonts "$OUT/des.pdf" | grep -q 'Lato-Regular' || no "rendercv-design: Lato not embedded"
	pdffonts "$OUT/des.pdf" | grep -q 'NotoSerifCJKsc' || no "rendercv-design: the CJK face of the chain is lost"
fi
pdftotext "$OUT/des.pdf" - | tr '\n' ' ' > "$OUT/des.txt"
for s in "September 2019 to June" "July 2021 to ongoing" "Jane Roe – 1/1"; do
	grep -qF -- "$s" "$OUT/des.txt" || no "rendercv-design: no '$s' in the PDF"
done

# al-folio's _data/cv.yml: map, time_table (nested descriptions), list,
# nested_list; HTML links; the name from "Full Name"
render tests/import/alfolio/_data/cv.yml alf
has alf "Albert Einstein" "General Information" "Date of Birth: 14th March 1879" \
	"PhD" "University of Zurich, Zurich, Switzerland" "1905" "◦ Sub-description 1." \
	"al-folio" "2015-now" "Nobel Prize in Physics" "Matteucci Medal" "Topic 1." \
	"Hobbies: Hobby 1, Hobby 2, etc."

# the same input twice gives the same bytes
SOURCE_DATE_EPOCH=1767225600 "$VITA" render tests/import/rendercv.yaml -o "$OUT/rcv2.pdf" 2>/dev/null
cmp -s "$OUT/rcv.pdf" "$OUT/rcv2.pdf" || no "rendercv: two renders differ"

# check FILE EXIT EXPECTED-LINE...: exit status and exact message lines
check() {
	f=$1
	want=$2
	shift 2
	"$VITA" check "$f" 2>"$OUT/check.err"
	rc=$?
	[ "$rc" -eq "$want" ] || no "$f: check exit $rc, expected $want"
	for line in "$@"; do
		grep -qxF -- "$line" "$OUT/check.err" || { no "$f: no line '$line' in:"; cat "$OUT/check.err"; }
	done
}

cat > "$OUT/bad.json" <<'JSON'
{
  "basics": {"name": "A B", "emial": "a@b.org"},
  "work": {"name": "Pied Piper"},
  "education": [{"institution": "X", "startDate": "2020-13"}],
  "awards": [{"title": ["x"]}, "str"],
  "skils": []
}
JSON
check "$OUT/bad.json" 1 \
	"$OUT/bad.json:2:29: warning: key 'emial' in 'basics' is ignored; did you mean 'email'?" \
	"$OUT/bad.json:3:11: error: expected a list of work items for 'work', got a map" \
	"$OUT/bad.json:4:51: error: invalid date '2020-13' for 'startDate': the month must be 01 to 12 (expected YYYY, YYYY-MM, YYYY-MM-DD or present)" \
	"$OUT/bad.json:5:24: error: expected a string for 'title', got a list" \
	"$OUT/bad.json:5:32: error: expected an award (a map of keys), got a string" \
	"$OUT/bad.json:6:3: warning: key 'skils' in a JSON Resume document is ignored; did you mean 'skills'?"

printf '{"basics": {"label": "x"}}\n' > "$OUT/noname.json"
check "$OUT/noname.json" 1 "$OUT/noname.json:1:12: error: missing required key 'name' in 'basics'"

# a warning alone does not fail
printf '{"basics": {"name": "N", "lable": "x"}, "extra": {"any": 1}}\n' > "$OUT/warn.json"
check "$OUT/warn.json" 0 "$OUT/warn.json:1:26: warning: key 'lable' in 'basics' is ignored; did you mean 'label'?"

cat > "$OUT/bad-rcv.yaml" <<'YAML'
cv:
  name: J
  social_networks:
    - network: Githb
      username: j
  sections:
    edu:
      - institution: X
        area: Y
      - company: Y
        position: Z
    pubs:
      - title: T
desing: {}
YAML
check "$OUT/bad-rcv.yaml" 1 \
	"$OUT/bad-rcv.yaml:4:16: error: unknown social network 'Githb'; did you mean 'GitHub'?" \
	"$OUT/bad-rcv.yaml:10:9: error: this is an ExperienceEntry, but section 'edu' began with an EducationEntry; a section holds one kind of entry" \
	"$OUT/bad-rcv.yaml:13:9: error: missing required key 'authors' in a PublicationEntry" \
	"$OUT/bad-rcv.yaml:14:1: error: unknown key 'desing' in a RenderCV file; did you mean 'design'?"

# design, locale and rendercv_settings are accepted and ignored
printf 'cv:\n  name: N\n  sections:\n    about:\n      - Hello.\ndesign:\n  theme: classic\nlocale:\n  language: en\nrendercv_settings: {}\n' > "$OUT/min.yaml"
check "$OUT/min.yaml" 0
# settings.pdf_title becomes the document title; a settings key vita has
# nothing for is a located "ignored", never silence
printf 'cv:\n  name: Jane Doe\n  sections:\n    about:\n      - Hello.\nsettings:\n  pdf_title: "NAME - CV"\n  sort_entries: none\n' > "$OUT/title.yaml"
"$VITA" render "$OUT/title.yaml" -o "$OUT/title.pdf" 2>"$OUT/title.err" || no "pdf_title: render"
pdfinfo "$OUT/title.pdf" | grep -q '^Title: *Jane Doe - CV$' || no "pdf_title: not the PDF title"
grep -qF "title.yaml:8:3: warning: ignored: 'settings.sort_entries'" "$OUT/title.err" || no "settings.sort_entries: no warning"
exit $fail
