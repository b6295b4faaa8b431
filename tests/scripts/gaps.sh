#!/bin/sh
# White space that is no space (inline.c ls_line: page_run.gap; pdf.c
# show_gaps, show_glyphs): the quarter em layout puts between Han or kana
# and Latin letters or digits, and the stretch of a justified line between
# Thai words and Lao, Khmer or Myanmar syllables, is part of a glyph's
# advance in the PDF, so that no reader reads a space the profile does not
# have. Each CV (tests/cjk/zh-cv.yaml, ja-cv.yaml; th, lo, my, km made by
# tests/tools/gen_scripts.py, all justified) is read by pdftotext, MuPDF
# (mutool draw -F txt) and pdf.js (tests/tools/pdfjs):
#  - no space where its source has none (tests/tools/spaces.py: the words
#    either side of a space, joined, are the source's; before: zh 3, ja 2,
#    th 17, lo 4, my 47 in pdftotext, zh 3 and ja 2 in MuPDF and pdf.js);
#  - phrases of mixed scripts and justified lines read as written, real
#    spaces with them ("GPA 3.9/4.3", "ကျွန်မသည် ရန်ကုန်");
set -u
VITA=${VITA:-build/vita}
OUT=${BUILD:-build}/gaps
rm -rf "$OUT"; mkdir -p "$OUT"
fail=0
no() { echo "FAIL: $*"; fail=1; }
pdfjs=tests/tools/pdfjs/node_modules/pdfjs-dist/package.json
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$OUT" "th lo my km" >/dev/null ||
	no "gen_scripts.py"
cp tests/cjk/zh-cv.yaml tests/cjk/ja-cv.yaml "$OUT/"
for l in zh-cv ja-cv th lo my km; do
	"$VITA" render "$OUT/$l.yaml" -o "$OUT/$l.pdf" 2>"$OUT/$l.err" || no "$l: render exit $?"
	pdftotext -enc UTF-8 "$OUT/$l.pdf" "$OUT/$l.pt"
	mutool draw -F txt -o "$OUT/$l.mt" "$OUT/$l.pdf" 2>/dev/null
done
if [ -f "$pdfjs" ]; then
	node tests/tools/pdfjs/text.mjs "$OUT" "$OUT"/*.pdf 2>&1
else
	# as bidi.sh: make test installs it (make test-tools); a bare make
	# check reads with the other two
	echo "note: pdf.js is not installed (npm ci --prefix tests/tools/pdfjs): read by pdftotext and mutool only"
fi
# phrase... for CV l: each reader's text holds them
reads() {
	l=$1; shift
	for e in pt mt pjtxt; do
		[ -f "$OUT/$l.$e" ] || continue
		python3 tests/tools/reads.py "$OUT/$l.$e" "$@" > "$OUT/$l.$e.miss" ||
			{ no "$l ($e) does not read as written:"; cat "$OUT/$l.$e.miss"; }
	done
}
for l in zh-cv ja-cv th lo my km; do
	python3 tests/tools/spaces.py -v "$OUT/$l.yaml" "$OUT/$l.pt" "$OUT/$l.mt" \
		$( [ -f "$OUT/$l.pjtxt" ] && echo "$OUT/$l.pjtxt") > "$OUT/$l.spaces" ||
		{ no "$l: spaces the source does not have"; cat "$OUT/$l.spaces"; }
done
reads zh-cv '专业前5%' 'GPA 3.9/4.3' '吞吐量提高1.3倍' '英伟达（NVIDIA）'
reads ja-cv 'スループットを1.8倍に向上'
reads th 'ดิฉันเป็นนักศึกษาปริญญาเอกชั้นปีที่สองที่จุฬาลงกรณ์มหาวิทยาลัย' 'สมชาย วงศ์ไทย'
reads lo 'ຂ້ອຍເປັນນັກສຶກສາປະລິນຍາເອກປີທີສອງຢູ່ມະຫາວິທະຍາໄລແຫ່ງຊາດລາວ ພາຍໃຕ້'
reads my 'ကျွန်မသည် ရန်ကုန်တက္ကသိုလ်တွင်'
reads km 'ខ្ញុំជានិស្សិតថ្នាក់បណ្ឌិតឆ្នាំទីពីរ'
exit $fail
