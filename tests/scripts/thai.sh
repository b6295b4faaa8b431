#!/bin/sh
# Thai line breaking (src/thai.c, inline.c il_thai_words): the lines of
# tests/golden/layout/thai.yaml break between Thai words. Every line end
# with Thai text on both sides is checked against libthai itself (the
# reference: its th_brk_wc_find_breaks on the same run of Thai text,
# called here through ctypes, not through vita), and there must be such
# breaks (libunibreak alone finds none inside a Thai run: the test fails
# without il_thai_words); thai.c's own breaking is compared with libthai's
# over a whole corpus by tests/unit/test_thai_lib.c. The log shows each
# line, for a reader.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/thai
rm -rf "$W"; mkdir -p "$W"
export SOURCE_DATE_EPOCH=1767225600
fail=0
no() { echo "FAIL: $*"; fail=1; }

"$VITA" render tests/golden/layout/thai.yaml --dump=layout > "$W/thai.layout" 2> "$W/thai.err" ||
	no "render failed: $(head -3 "$W/thai.err")"
python3 - "$W/thai.layout" <<'PY' || fail=1
import ctypes, re, sys
try:
    th = ctypes.CDLL("libthai.so.0")
except OSError:
    print("libthai.so.0 is not installed: the line ends are not checked")
    sys.exit(0)
th.th_brk_new.restype = ctypes.c_void_p
th.th_brk_new.argtypes = [ctypes.c_char_p]
th.th_brk_wc_find_breaks.restype = ctypes.c_int
th.th_brk_wc_find_breaks.argtypes = [ctypes.c_void_p, ctypes.c_wchar_p,
                                     ctypes.POINTER(ctypes.c_int), ctypes.c_size_t]
brk = th.th_brk_new(None)
assert brk, "libthai: no dictionary"

def words(s):
    pos = (ctypes.c_int * (len(s) + 1))()
    n = th.th_brk_wc_find_breaks(brk, s, pos, len(s) + 1)
    return set(pos[i] for i in range(n))

thai = lambda c: 0xE01 <= ord(c) <= 0xE5B
# lines: runs of one paragraph (@N) at one y, in order
paras, order = {}, []
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r'run x=(-?\d+) y=(-?\d+) .*?"(.*)"(?: alt=\d+)?(?: glyphs=\d+ \[[^]]*\])? @(\d+)$', line.rstrip("\n"))
    if not m:
        continue
    x, y, text, p = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    if p not in paras:
        paras[p] = {}
        order.append(p)
    paras[p].setdefault(y, []).append((x, text))
checked = bad = 0
for p in order:
    lines = ["".join(t for _, t in sorted(paras[p][y])).rstrip(" ") for y in sorted(paras[p])]
    text, ends = "", []
    for l in lines:
        text += l
        ends.append(len(text))
    print("@%s: %s" % (p, " | ".join(lines)))
    for e in ends[:-1]:
        if not (0 < e < len(text) and thai(text[e - 1]) and thai(text[e])):
            continue
        a = e
        while a > 0 and thai(text[a - 1]):
            a -= 1
        b = e
        while b < len(text) and thai(text[b]):
            b += 1
        checked += 1
        if e - a not in words(text[a:b]):
            bad += 1
            print("FAIL: @%s: a line ends inside a Thai word: %s|%s" % (p, text[a:e], text[e:b]))
print("%d line ends inside Thai text, %d not between words" % (checked, bad))
if checked < 3:
    print("FAIL: only %d line ends inside Thai text (the test needs some)" % checked)
sys.exit(1 if bad or checked < 3 else 0)
PY
# The dictionary (src/thai.c): compiled once into $XDG_CACHE_HOME/vita,
# mapped by later renders; a CV without Thai opens neither it nor
# libthai's file; no render loads libthai. A stale, truncated or foreign
# cache file, and a dictionary directory with a bad thbrk.tri, give the
# same lines (the cache is rebuilt; libthai's own fallback to its
# default directory), never a crash. (LeakSanitizer cannot run under
# ptrace: no leak check there.)
C="$(cd "$W" && pwd)/cache"   # absolute, as $XDG_CACHE_HOME must be
THC="$C/vita/thbrk.tri.thc"
render() { # NAME: render thai.yaml with the private cache, layout dump in $W/NAME.layout
	XDG_CACHE_HOME="$C" ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat,open -o "$W/$1.strace" \
		"$VITA" render tests/golden/layout/thai.yaml --dump=layout > "$W/$1.layout" 2> "$W/$1.err" ||
		no "$1: render failed: $(head -3 "$W/$1.err")"
	cmp -s "$W/thai.layout" "$W/$1.layout" || no "$1: other lines than the first render"
}
if command -v strace >/dev/null; then
	mkdir -p "$C"
	XDG_CACHE_HOME="$C" ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat,open -o "$W/plain.strace" \
		"$VITA" render profiles/zhanda-zhu.yaml -o "$W/plain.pdf" 2>/dev/null || no "zhanda-zhu render failed"
	grep -q 'libthai\|thbrk' "$W/plain.strace" && no "a CV without Thai opened libthai or its dictionary"
	render first
	grep -q 'libthai\.so' "$W/first.strace" && no "the Thai CV loaded libthai"
	grep -q 'thbrk\.tri"' "$W/first.strace" || no "the first Thai render did not read thbrk.tri"
	[ -s "$THC" ] || no "the first Thai render wrote no $THC"
	render second
	grep -q 'thbrk\.tri"' "$W/second.strace" && no "the second render read thbrk.tri (the cache was not used)"
	grep -q 'thbrk\.tri\.thc"' "$W/second.strace" || no "the second render did not open the cache"
	# damaged cache files: rebuilt, same lines
	for how in truncate header zero foreign; do
		case $how in
		truncate) head -c 1000 "$THC" > "$THC.x" ;;
		header) { printf 'vitath0'; tail -c +8 "$THC"; } > "$THC.x" ;;
		zero) : > "$THC.x" ;;
		foreign) head -c 300000 /usr/share/libthai/thbrk.tri > "$THC.x" ;;
		esac
		mv "$THC.x" "$THC"
		render "$how"
		grep -q 'thbrk\.tri"' "$W/$how.strace" || no "$how: a damaged cache was used, not rebuilt"
		render "$how-again"
		grep -q 'thbrk\.tri"' "$W/$how-again.strace" && no "$how: the rebuilt cache was not used"
	done
	# another word list (LIBTHAI_DICTDIR): its own cache file, the
	# default one's untouched; stale when the file changes: rebuilt
	mkdir -p "$W/dict"
	cp /usr/share/libthai/thbrk.tri "$W/dict/"
	sum=$(cksum < "$THC")
	LIBTHAI_DICTDIR="$W/dict" render other
	grep -q "$W/dict/thbrk\.tri\"" "$W/other.strace" || no "other: the cache of another file was used"
	ls "$C"/vita/thbrk.tri.*.thc >/dev/null 2>&1 || no "other: no cache file of its own"
	[ "$(cksum < "$THC")" = "$sum" ] || no "other: the default word list's cache was rewritten"
	LIBTHAI_DICTDIR="$W/dict" render other-again
	grep -q "$W/dict/thbrk\.tri\"" "$W/other-again.strace" && no "other: its cache was not used"
	touch -d '2001-01-01 00:00:00' "$W/dict/thbrk.tri"
	LIBTHAI_DICTDIR="$W/dict" render stale
	grep -q "$W/dict/thbrk\.tri\"" "$W/stale.strace" || no "stale: a cache of an older file was used"
	# a bad dictionary in LIBTHAI_DICTDIR: libthai's fallback, the default one
	head -c 5000 /usr/share/libthai/thbrk.tri > "$W/dict/thbrk.tri"
	LIBTHAI_DICTDIR="$W/dict" render baddict
	printf 'garbage' > "$W/dict/thbrk.tri"
	LIBTHAI_DICTDIR="$W/dict" render garbage
	# no cache directory at all (HOME unset, no XDG_CACHE_HOME): in memory
	env -u HOME -u XDG_CACHE_HOME ASAN_OPTIONS=detect_leaks=0 "$VITA" render tests/golden/layout/thai.yaml \
		--dump=layout > "$W/nocache.layout" 2> "$W/nocache.err" || no "no cache dir: render failed"
	cmp -s "$W/thai.layout" "$W/nocache.layout" || no "no cache dir: other lines"
fi
[ $fail = 0 ] && echo "thai.sh: ok"
exit $fail
