#!/bin/sh
# run.sh SECS [TARGET...]: build each libFuzzer target tests/fuzz/fuzz_*.c
# (clang, ASan+UBSan) and run it for SECS seconds, one after the other,
# from the project's top directory. Seeds come from the project's own
# files (profiles, layouts, the error corpus); corpora grow in
# build-fuzz/corpus-NAME, crashes land in build-fuzz/crash-NAME-*. Exits 1
# when a target found a crash. Env: FUZZ_CC, FUZZ_CFLAGS, FUZZ_LIBS (from make).
set -u
secs=${1:-60}
shift
targets=${*:-$(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||')}
B=build-fuzz
CC=${FUZZ_CC:-clang}
CFLAGS="-std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc ${FUZZ_CFLAGS:-}"
mkdir -p "$B/obj"
objs=
for s in src/*.c; do
	[ "$s" = src/main.c ] && continue
	o=$B/obj/$(basename "$s" .c).o
	if [ ! -f "$o" ] || [ -n "$(find "$s" include src -newer "$o" -name '*.[ch]' | head -1)" ]; then
		$CC $CFLAGS -fsanitize=fuzzer-no-link -c "$s" -o "$o" || exit 2
	fi
	objs="$objs $o"
done

seed() {   # seed NAME DIR: fill a fresh corpus the first time
	[ -d "$2" ] && return
	mkdir -p "$2"
	case $1 in
	profile) cp profiles/*.yaml tests/errors/*.yaml tests/import/* tests/golden/*.yaml \
	            tests/golden/layout/*.yaml tests/pathological/*.yaml "$2"/ 2>/dev/null ;;
	style) cp layouts/*.yaml "$2"/
	       printf 'extends: compact\npage: {size: letter}\n%%%%\nsizes.body=9\nentry.bullet_indent=600\n' >"$2/sets" ;;
	markup) python3 tests/tools/profile_strings.py profiles/*.yaml 2>/dev/null | head -300 |
	        split -l 1 - "$2/s" ;
	        printf '**bold *it* [x](https://a.b)** \\* [a](b(c)) *' >"$2/mix" ;;
	inline) printf 'A\1Hyphenation of extraordinarily long words \1https://github.com/x/y\1\346\234\261\345\245\275' >"$2/mix"
	      python3 tests/tools/profile_strings.py profiles/*.yaml 2>/dev/null | head -100 |
	      while read -r l; do printf '\25\20%s' "$l" >"$2/$(printf '%s' "$l" | cksum | cut -d' ' -f1)"; done ;;
	bibtex) for f in tests/import/bib/*.bib tests/import/alfolio/_bibliography/*.bib \
	                 tests/errors/*.bib; do { printf '\0'; cat "$f"; } >"$2/$(basename "$f")"; done ;;
	jsonresume) for f in tests/import/jsonresume/*.json tests/import/*.json \
	                     tests/import/alfolio/assets/json/*.json tests/import/academicpages/_data/*.json; do
	              { printf '\0'; cat "$f"; } >"$2/$(basename "$f")"; done ;;
	rendercv) for f in tests/import/rendercv/*.yaml tests/import/rendercv*.yaml tests/import/alfolio/_data/cv.yml; do
	            { printf '\0'; cat "$f"; } >"$2/$(basename "$f")"; done ;;
	render) for f in tests/errors/*.yaml tests/golden/markup.yaml tests/pathological/*.yaml; do
	          [ "$(wc -c <"$f")" -lt 8000 ] && { printf '\0'; cat "$f"; } >"$2/$(basename "$f")"
	        done ;;
	ydoc) find profiles layouts locales fonts examples tests -name '*.yaml' -size -8k \
	        -exec sh -c 'for f; do cp "$f" "$0/$(echo "$f" | tr / _)"; done' "$2" {} + ;;
	sfnt) printf '\0' >"$2/cff"; printf '\1' >"$2/ttf"; printf '\0\0\4\0' >"$2/cff1" ;;
	hyph) printf '\0' >"$2/en"; printf '\1' >"$2/ru"; printf '\0\0\1\0\377' >"$2/en1" ;;
	thai) printf '\1' >"$2/comp"; printf '\0' >"$2/tri"; printf '\1\0\2\0\377' >"$2/comp1"
	      printf '\0\0\0\40\1\0\0\100\0' >"$2/tri1"; printf '\3\0\0\60\1\1\2\3\4\5' >"$2/head" ;;
	fastot) printf '\0\0' >"$2/serif"; printf '\1\3' >"$2/sans"; printf '\177\11' >"$2/feats" ;;
	zfast) for f in profiles/*.yaml layouts/academic.yaml; do { printf '\0'; cat "$f"; } >"$2/0-$(basename "$f")"; { printf '\3'; cat "$f"; } >"$2/3-$(basename "$f")"; done ;;
	image) if [ -x build/tests/test_image ]; then   # every PNG and JPEG kind (make first)
	         build/tests/test_image --write "$2" && rm -f "$2/huge.png"
	         find "$2" -size +8k -delete
	       fi ;;
	esac
}

found=0
for t in $targets; do
	bin=$B/fuzz_$t
	$CC $CFLAGS -fsanitize=fuzzer -o "$bin" "tests/fuzz/fuzz_$t.c" $objs ${FUZZ_LIBS:-} || exit 2
	seed "$t" "$B/corpus-$t"
	dict=
	[ -f "tests/fuzz/$t.dict" ] && dict=-dict=tests/fuzz/$t.dict
	echo "fuzz_$t: $secs s"
	LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
	       -print_final_stats=1 -artifact_prefix="$B/crash-$t-" $dict "$B/corpus-$t" \
	       >"$B/fuzz_$t.log" 2>&1 || found=1
	grep -E '^(stat::|#[0-9]+[[:space:]]+DONE|==.*ERROR|SUMMARY)' "$B/fuzz_$t.log" | tail -8
done
exit $found
