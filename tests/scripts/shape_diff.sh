#!/bin/sh
# The shaping fast path end to end: every input below rendered with and
# without VITA_SHAPER=harfbuzz (which sends every word through HarfBuzz)
# gives byte-identical tagged and plain PDFs and layout dumps, and
# `vita batch` of 24 generated CVs identical PDFs. Inputs: both seeds in
# each layout and each locale, tests/shape/scripts.yaml (Vietnamese stacked
# marks, Turkish dotless i, German, Greek, Cyrillic, Arabic, Hebrew, CJK,
# kerning pairs, figures) in each layout and several locales, the locale
# CV in each locale, the CJK, bidi, hyphenation, import and example CVs,
# long-250. tests/unit/test_shape_diff.c compares the shaped records
# themselves, call by call.
set -u
VITA=$(readlink -f "${VITA:-build/vita}")
OUT=${BUILD:-build}/shape_diff
rm -rf "$OUT"; mkdir -p "$OUT/in" "$OUT/fast" "$OUT/hb"
export SOURCE_DATE_EPOCH=1767225600
unset VITA_SHAPER
fail=0
no() { echo "FAIL: $*"; fail=1; }
python3 tests/tools/gen_long.py 250 > "$OUT/in/long-250.yaml"
python3 tests/tools/gen_batch.py 24 "$OUT/in/batch" >/dev/null
langs="zh $("$VITA" locales | awk '{print $1}' | grep -v '^zh-Hans$')"
[ -n "$langs" ] || no "vita locales lists nothing"
n=0
one() { # name args...
	nm=$1; shift
	n=$((n + 1))
	for m in fast hb; do
		if [ $m = hb ]; then s=harfbuzz; else s=; fi
		VITA_SHAPER=$s "$VITA" render "$@" -o "$OUT/$m/$nm.pdf" 2>"$OUT/$m/$nm.err"
		echo "rc=$?" >> "$OUT/$m/$nm.err"
		VITA_SHAPER=$s "$VITA" render "$@" --pdf=plain -o "$OUT/$m/$nm.plain.pdf" 2>/dev/null
		VITA_SHAPER=$s "$VITA" render "$@" --dump=layout > "$OUT/$m/$nm.layout" 2>/dev/null
	done
}
for p in profiles/*.yaml tests/shape/scripts.yaml; do
	b=$(basename $p .yaml)
	for l in $(ls layouts | sed 's/\.yaml$//'); do one "$b-$l" "$p" -l $l; done
	for g in $langs; do one "$b-$g" "$p" --lang $g; done
done
for g in $langs; do one "locale-$g" tests/locale/cv.yaml --lang $g; done
one scripts-classic-tr tests/shape/scripts.yaml -l classic --lang tr
one scripts-modern-ru tests/shape/scripts.yaml -l modern --lang ru
for p in tests/cjk/*.yaml tests/bidi/*.yaml tests/bench/hyphen.yaml examples/cv.yaml \
         tests/locale/smart.yaml "$OUT/in/long-250.yaml"; do
	[ -f "$p" ] || continue
	one "$(basename $(dirname $p))-$(basename $p .yaml)" "$p"
done
for p in tests/import/*.yaml tests/import/*.json tests/import/*/*; do
	[ -f "$p" ] || continue
	case $p in *.md|*.png|*.jpg|*.bib|*LICENSE*) continue;; esac
	one "imp-$(echo $p | tr / _)" "$p"
done
"$VITA" batch "$OUT"/in/batch/*.yaml -d "$OUT/fast/batch" -j 2 2>"$OUT/batch-fast.err" || no "batch: exit $?"
VITA_SHAPER=harfbuzz "$VITA" batch "$OUT"/in/batch/*.yaml -d "$OUT/hb/batch" -j 2 2>"$OUT/batch-hb.err" ||
	no "batch (harfbuzz): exit $?"
# every output the same; the renders that failed (an import the machine
# cannot draw) fail the same way
files=$(cd "$OUT/fast" && find . -type f | sort)
[ "$(echo "$files" | wc -l)" -ge $((3 * n)) ] || no "only $(echo "$files" | wc -l) outputs for $n inputs"
[ "$(cd "$OUT/hb" && find . -type f | sort)" = "$files" ] || no "the two runs wrote different files"
ndiff=0
for f in $files; do
	cmp -s "$OUT/fast/$f" "$OUT/hb/$f" && continue
	ndiff=$((ndiff + 1))
	no "$f differs (fast path vs VITA_SHAPER=harfbuzz)"
	case $f in *.layout|*.err) diff "$OUT/hb/$f" "$OUT/fast/$f" | head -20;; esac
done
ok=$(grep -l '^rc=0$' "$OUT"/fast/*.err | wc -l)
[ "$ok" -eq $n ] || no "only $ok of $n renders succeeded"
echo "$n inputs, $(echo "$files" | wc -l) outputs compared, $ndiff differ"
# the PDFs are not kept for pdf-check (the other suites check the writer)
[ $fail = 0 ] && find "$OUT" -name '*.pdf' -delete
exit $fail
