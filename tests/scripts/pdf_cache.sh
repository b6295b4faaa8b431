#!/bin/sh
# The deflated ICC profile kept between processes (pdf_deflate.c,
# deflate-const.bin in the cache): a cold cache, a warm one, a damaged or
# foreign one and no cache (VITA_NO_DEFLATE_CACHE=1) give byte-identical
# PDFs; a damaged file is rewritten.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/pdf_cache
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
export SOURCE_DATE_EPOCH=1767225600
XDG_CACHE_HOME=$(cd "$W" && pwd)/cache; export XDG_CACHE_HOME
C=$XDG_CACHE_HOME/vita/deflate-const.bin
P=profiles/zhanda-zhu.yaml
VITA_NO_DEFLATE_CACHE=1 "$VITA" render "$P" -o "$W/none.pdf" 2>/dev/null || no "render without the cache"
[ -f "$C" ] && no "VITA_NO_DEFLATE_CACHE=1 wrote $C"
"$VITA" render "$P" -o "$W/cold.pdf" 2>/dev/null || no "render, cold cache"
[ -s "$C" ] || no "no $C after a render"
"$VITA" render "$P" -o "$W/warm.pdf" 2>/dev/null || no "render, warm cache"
cmp -s "$W/none.pdf" "$W/cold.pdf" || no "cold cache: a different PDF"
cmp -s "$W/none.pdf" "$W/warm.pdf" || no "warm cache: a different PDF"
# the deflated bytes damaged (the last 40), then a file for another input
python3 - "$C" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
for i in range(len(b) - 40, len(b)): b[i] ^= 0x5A
open(p, 'wb').write(bytes(b))
PY
"$VITA" render "$P" -o "$W/damaged.pdf" 2>/dev/null || no "render, damaged cache"
cmp -s "$W/none.pdf" "$W/damaged.pdf" || no "damaged cache: a different PDF"
"$VITA" render "$P" -o "$W/again.pdf" 2>/dev/null || no "render after the damage"
cmp -s "$W/none.pdf" "$W/again.pdf" || no "rewritten cache: a different PDF"
python3 - "$C" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
b[20] ^= 1   # the kept input no longer matches the profile
open(p, 'wb').write(bytes(b))
PY
"$VITA" render "$P" -o "$W/foreign.pdf" 2>/dev/null || no "render, foreign cache"
cmp -s "$W/none.pdf" "$W/foreign.pdf" || no "foreign cache: a different PDF"
printf 'garbage' > "$C"
"$VITA" render "$P" -o "$W/garbage.pdf" 2>/dev/null || no "render, garbage cache"
cmp -s "$W/none.pdf" "$W/garbage.pdf" || no "garbage cache: a different PDF"
[ $fail = 0 ] && echo "pdf_cache: ok"
exit $fail
