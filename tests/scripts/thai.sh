#!/bin/sh
# Thai line breaking (src/thai.c, inline.c il_thai_words): the lines of
# tests/golden/layout/thai.yaml break between Thai words. Every line end
# with Thai text on both sides is checked against libthai itself (the
# reference: its th_brk_wc_find_breaks on the same run of Thai text,
# called here through ctypes, not through vita), and there must be such
# breaks (libunibreak alone finds none inside a Thai run: the test fails
# without il_thai_words). A text without Thai never loads libthai (its
# process maps no libthai.so). The log shows each line, for a reader.
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
th = ctypes.CDLL("libthai.so.0")
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
# a CV without Thai does not load libthai (LeakSanitizer cannot run under
# ptrace: no leak check there)
if command -v strace >/dev/null; then
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o "$W/strace.txt" "$VITA" render profiles/zhanda-zhu.yaml \
		-o "$W/plain.pdf" 2>/dev/null || no "zhanda-zhu render failed"
	grep -q 'libthai' "$W/strace.txt" && no "a CV without Thai opened libthai"
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o "$W/strace2.txt" "$VITA" render tests/golden/layout/thai.yaml \
		-o "$W/thai.pdf" 2>/dev/null || no "thai render failed"
	grep -q 'libthai.so' "$W/strace2.txt" || no "the Thai CV did not load libthai"
	grep -q 'thbrk.tri' "$W/strace2.txt" || no "the Thai CV did not read libthai's dictionary"
fi
[ $fail = 0 ] && echo "thai.sh: ok"
exit $fail
