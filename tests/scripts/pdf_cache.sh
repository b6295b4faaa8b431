#!/bin/sh
# The deflated ICC profile kept between processes (pdf_deflate.c,
# deflate-const2.bin in the cache): a cold cache, a warm one, a damaged or
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
C=$XDG_CACHE_HOME/vita/deflate-const2.bin
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
b[28] ^= 1   # the kept input (after the 28-byte head) no longer matches the profile
open(p, 'wb').write(bytes(b))
PY
"$VITA" render "$P" -o "$W/foreign.pdf" 2>/dev/null || no "render, foreign cache"
cmp -s "$W/none.pdf" "$W/foreign.pdf" || no "foreign cache: a different PDF"
# the deflated bytes damaged in a way that still inflates (a stored
# block's byte), the hash kept: only the hash tells
python3 - "$C" <<'PY'
import struct, sys, zlib
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
n, zn = struct.unpack('<II', b[12:20])
data = bytes(b[28:28 + n])
z = zlib.compress(data, 0)   # stored blocks: any byte of the data can change
z = z[:-4] + struct.pack('>I', zlib.adler32(data))
b[16:20] = struct.pack('<I', len(z)); b[28 + n:] = z
b[28 + n + 10] ^= 1          # inflates, to other bytes (and a wrong Adler-32)
open(p, 'wb').write(bytes(b))
PY
"$VITA" render "$P" -o "$W/rehashed.pdf" 2>/dev/null || no "render, damaged output, old hash"
cmp -s "$W/none.pdf" "$W/rehashed.pdf" || no "damaged output with the old hash: a different PDF"
head -c 8 "$C" | grep -q VITAZC02 || no "the cache was not rewritten after a damaged output"
printf 'garbage' > "$C"
"$VITA" render "$P" -o "$W/garbage.pdf" 2>/dev/null || no "render, garbage cache"
cmp -s "$W/none.pdf" "$W/garbage.pdf" || no "garbage cache: a different PDF"
[ $fail = 0 ] && echo "pdf_cache: ok"
exit $fail
