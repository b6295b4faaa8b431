#!/bin/sh
# make lint (tests/tools/deps_graph.py) passes on the tree and fails, naming
# the file and the rule, on a copy of the tree with one deliberate fault:
# an include of a later stage's header or of another module's private
# header, a library header outside its wrapper, a cycle between .c files,
# a call into a later stage, an exported name without its prefix. The copy
# (src, include, the Makefile, the script and $BUILD's objects, so only the
# changed file recompiles) is made under $TMPDIR. Env: BUILD (the build to
# copy objects from).
set -u
BUILD=${BUILD:-build}
B=$(basename "$BUILD")
T=$(mktemp -d "${TMPDIR:-/tmp}/vita-lint.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

mkdir -p "$T/tests/tools" "$T/$B"
cp -pr src include Makefile "$T/" &&
cp -p tests/tools/deps_graph.py "$T/tests/tools/" &&
cp -p "$BUILD"/*.o "$BUILD"/*.d "$BUILD"/config "$T/$B/" || exit 1

# lint: make lint in the copy; its output in $T/out, its status returned
lint() { make -C "$T" --no-print-directory BUILD="$B" lint >"$T/out" 2>&1; }

if ! lint; then no "make lint fails on the tree itself:"; cat "$T/out"; fi
grep -q ' -> ' "$T/$B/deps_graph.txt" || no "no call graph in $B/deps_graph.txt"

# expect WHAT FILE PATTERN...: lint fails and its output names each PATTERN
expect() {
	what=$1; f=$2; shift 2
	if lint; then no "$what: make lint passed"; cat "$T/out"; fi
	for p in "$@"; do
		grep -q -- "$p" "$T/out" || { no "$what: no '$p' in:"; cat "$T/out"; }
	done
	# undo the fault: the file and the objects as they were before it (so
	# that the next lint recompiles only its own fault's files)
	cp -p "$T/$f.orig" "$T/$f"
	rm -rf "$T/$B" && mv "$T/$B.orig" "$T/$B"
}
fault() { cp -p "$T/$1" "$T/$1.orig" && rm -rf "$T/$B.orig" && cp -pr "$T/$B" "$T/$B.orig"; }

fault src/profile.c
sed -i '0,/^#include "buf.h"/s//#include "buf.h"\n#include "pdf.h"/' "$T/src/profile.c"
expect "profile.c includes pdf.h" src/profile.c \
	'src/profile.c:[0-9]*: stage: includes "pdf.h" of the later stage' "'output'"

fault include/model.h
printf '#include "page.h"\n' >> "$T/include/model.h"
expect "model.h includes page.h" include/model.h 'include/model.h:[0-9]*: stage: includes "page.h"'

fault src/inline.c
printf '#include <hyphen.h>\n' >> "$T/src/inline.c"
expect "inline.c includes hyphen.h" src/inline.c \
	'src/inline.c:[0-9]*: library: includes <hyphen.h> of libhyphen, which only src/hyph.c'

fault src/layout_text.c
printf '#include <linebreak.h>\n' >> "$T/src/layout_text.c"
expect "layout_text.c includes linebreak.h" src/layout_text.c \
	'src/layout_text.c:[0-9]*: library: includes <linebreak.h> of libunibreak'

fault src/layout.c
printf '#include "font_int.h"\n' >> "$T/src/layout.c"
expect "layout.c includes font_int.h" src/layout.c \
	'src/layout.c:[0-9]*: private: includes "font_int.h", which only src/font\*.c'

# font_face.c is the bottom of the font files: a call up into font.c closes a cycle
fault src/font_face.c
cat >> "$T/src/font_face.c" <<'EOF'
int font_face_lint_cycle(font_lib_t *lib, errs_t *e);
int font_face_lint_cycle(font_lib_t *lib, errs_t *e)
{
	return font_chain_get(lib, "serif", e) != NULL;
}
EOF
expect "font_face.c calls font_chain_get" src/font_face.c \
	': cycle: the .c files .*font_face' 'font_face -> font (font_chain_get)'

# a base file calling up into a later stage
fault src/buf.c
cat >> "$T/src/buf.c" <<'EOF'
#include "style.h"
int buf_lint_up(void);
int buf_lint_up(void)
{
	return style_check(NULL, NULL);
}
EOF
grep -q "int style_check(" include/style.h || no "style_check is gone from style.h: pick another style function"
expect "buf.c calls style" src/buf.c 'src/buf.c:[0-9]*: stage: includes "style.h"' \
	'src/buf.c: stage: calls style_check in src/style.c'

# an exported name without its module's prefix
fault src/utf8.c
cat >> "$T/src/utf8.c" <<'EOF'
int next_char(void);
int next_char(void)
{
	return 0;
}
EOF
expect "utf8.c exports next_char" src/utf8.c 'src/utf8.c: prefix: exports next_char'

# and the restored copy passes again
if ! lint; then no "make lint fails after the faults were undone:"; cat "$T/out"; fi
[ $fail = 0 ] && echo "lint: ok"
exit $fail
