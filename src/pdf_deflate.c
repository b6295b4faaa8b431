/* pdf_deflate: zlib-format deflate of stream data with libdeflate, the
 * only file that includes it. About 2.5x fewer instructions than zlib's
 * deflate at the same level for our streams, and output a little smaller;
 * deterministic (the same bytes in give the same bytes out).
 *
 *   n = pdf_deflate(in, len, PDF_Z_FAST, &z);   z[0..n): the zlib stream
 *                                   (RFC 1950), valid until the next call;
 *                                   0: failed
 *
 * The level is the caller's choice per kind of stream (pdf_int.h says
 * which and why: level 1 costs half the instructions of level 6, and
 * where its output is hardly larger that is what a stream gets).
 * One compressor per level used, kept for the next document (batch; a
 * fresh render keeps level 1's and one other: pdf_one_document), and,
 * from a process's second document on (pdf_deflate_done), a memo of the
 * last MEMO_N inputs of MEMO_MIN to MEMO_MAX bytes with their output: a
 * batch deflates the same sRGB profile for every CV, and often the same
 * small font subsets and ToUnicode maps. An input is compared
 * only with kept ones of its exact length (memcmp, no hash), so a miss
 * costs a copy of the input and output, a hit no deflate at all; deflate
 * is deterministic, so the bytes are the same either way. At most MEMO_N
 * x (MEMO_MAX + its bound) bytes are kept.
 *
 *   n = pdf_deflate_const(in, len, &z);   the same, for an input that is
 *                                         the same in every PDF (the ICC
 *                                         profile)
 *
 * A constant input's output is also kept between processes, in
 * $XDG_CACHE_HOME/vita/deflate-const2.bin (else ~/.cache/vita/): the input
 * and its deflated bytes, used only when the input matches byte for byte
 * and the bytes have the 64-bit hash the file gives them (a damaged or
 * foreign file is ignored and rewritten; inflating them again to check
 * cost 73 K instructions, the hash 2 K). The ICC profile then costs ~8 K
 * instructions instead of ~280 K, and the bytes are the same. (The file
 * of that older check, deflate-const.bin, is left to the binaries that
 * still read it: sharing one would make each rewrite the other's.)
 * VITA_NO_DEFLATE_CACHE=1 turns it off.
 */
#include <fcntl.h>
#include <libdeflate.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena.h"
#include "buf.h"
#include "file.h"
#include "pdf.h"
#include "pdf_int.h"

#define CONST_LEVEL PDF_Z_BEST /* the constant input: deflated once, kept */
#define MEMO_N 32
#define MEMO_MIN 512
#define MEMO_MAX (32 << 10)

static struct libdeflate_compressor *comp[13]; /* by level */
static int one_doc;   /* pdf_one_document: besides level 1's (small, used
                         throughout), one compressor at a time */
static unsigned char *zbuf;
static size_t zcap;

static struct memo {
	unsigned char *in, *z;   /* one block: the input, then its output */
	size_t n, zn;
	int level;
	unsigned long used;      /* for replacing the least recently used */
} memo[MEMO_N];
static unsigned long tick;
static int memo_on;        /* a document was written before (pdf_deflate_done) */

void pdf_deflate_done(void)
{
	memo_on = 1;
}

static const struct memo *memo_find(const void *in, size_t n, int level)
{
	for (int i = 0; i < MEMO_N; i++)
		if (memo[i].in && memo[i].n == n && memo[i].level == level &&
		    !memcmp(memo[i].in, in, n)) {
			memo[i].used = ++tick;
			return &memo[i];
		}
	return NULL;
}

static void memo_add(const void *in, size_t n, int level, const unsigned char *z, size_t zn)
{
	struct memo *m = &memo[0];
	for (int i = 1; i < MEMO_N && m->in; i++)
		if (!memo[i].in || memo[i].used < m->used)
			m = &memo[i];
	m->in = xrealloc(m->in, n + zn);
	memcpy(m->in, in, n);
	memcpy(m->in + n, z, zn);
	m->z = m->in + n;
	m->n = n;
	m->zn = zn;
	m->level = level;
	m->used = ++tick;
}

/* PDF_Z_FAST and PDF_Z_LAZY: pdf_zfast's or pdf_zlazy's raw deflate in a
 * zlib wrapper (the header of libdeflate's level 1 or 5: 78 01, 78 5E;
 * the Adler-32 of the input) */
static size_t zours(const void *in, size_t n, int level)
{
	size_t cap = pdf_zfast_bound(n) + 6;
	if (cap > zcap) {
		zbuf = xrealloc(zbuf, cap);
		zcap = cap;
	}
	zbuf[0] = 0x78;
	zbuf[1] = level == PDF_Z_FAST ? 0x01 : 0x5e;
	size_t zn = (level == PDF_Z_FAST ? pdf_zfast : pdf_zlazy)(in, n, zbuf + 2, zcap - 6);
	if (!zn)
		return 0;
	uint32_t a = libdeflate_adler32(1, in, n);
	unsigned char *o = zbuf + 2 + zn;
	for (int i = 0; i < 4; i++)
		o[i] = (unsigned char)(a >> (24 - 8 * i));
	return zn + 6;
}

void pdf_one_document(void)
{
	one_doc = 1;
}

size_t pdf_deflate(const void *in, size_t n, int level, const unsigned char **out)
{
	if (level == PDF_Z_OBJSTM)
		level = n <= PDF_Z_LAZY_BLOCK ? PDF_Z_FAST : 5;
	if (level < 1 || (level > 12 && level != PDF_Z_LAZY))
		return 0;
	int keep = memo_on && n >= MEMO_MIN && n <= MEMO_MAX;
	const struct memo *hit = keep ? memo_find(in, n, level) : NULL;
	if (hit) {
		*out = hit->z;
		return hit->zn;
	}
	if (level == PDF_Z_FAST || level == PDF_Z_LAZY) {
		size_t zn = zours(in, n, level);
		*out = zbuf;
		if (zn && keep)
			memo_add(in, n, level, zbuf, zn);
		return zn;
	}
	struct libdeflate_compressor *c = comp[level];
	for (int l = 2; !c && one_doc && level > 1 && l < 13; l++) {
		libdeflate_free_compressor(comp[l]);
		comp[l] = NULL;
	}
	if (!c && !(c = comp[level] = libdeflate_alloc_compressor(level)))
		return 0;
	size_t cap = libdeflate_zlib_compress_bound(c, n);
	if (cap > zcap) {
		zbuf = xrealloc(zbuf, cap);
		zcap = cap;
	}
	*out = zbuf;
	size_t zn = libdeflate_zlib_compress(c, in, n, zbuf, zcap);
	if (zn && keep)
		memo_add(in, n, level, zbuf, zn);
	return zn;
}

long pdf_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	static struct libdeflate_decompressor *d;
	size_t used = 0, got = 0;
	if (!d && !(d = libdeflate_alloc_decompressor()))
		return -1;
	if (libdeflate_zlib_decompress_ex(d, in, n, out, cap, &used, &got) != LIBDEFLATE_SUCCESS ||
	    used != n || got > (size_t)LONG_MAX)
		return -1;
	return (long)got;
}

/* ---- constant inputs, kept between processes ---- */

#define CONST_MAGIC "VITAZC02"
#define CONST_MAX (1 << 20)

static int const_path(char *out, size_t n)
{
	return file_cache_path("VITA_NO_DEFLATE_CACHE", "deflate-const2.bin", out, n);
}

/* The file: magic, level, input length, output length (4 bytes each,
 * little-endian), the output's hash (8 bytes, little-endian), the input,
 * the output. */
#define CONST_HEAD 28
static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

/* p[0..n): multiply-rotate over 8-byte words, then mixed with the length
 * (not cryptographic: it tells a damaged or foreign file). */
static uint64_t const_hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15u ^ n;
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t v = 0;
		for (int i = 0; i < 8; i++)
			v |= (uint64_t)p[i] << 8 * i;
		h = (h ^ v) * 0x87C37B91114253D5u;
		h = h << 31 | h >> 33;
	}
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x4CF5AD432745937Fu;
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDu;
	return h ^ h >> 33;
}

static buf_t const_file;   /* what was read: its output is returned from it */

/* The cached output for in[0..n), or NULL. */
static const unsigned char *const_read(const char *path, const void *in, size_t n, size_t *zn)
{
	const char *why;
	buf_reset(&const_file);
	if (file_read(&const_file, path, CONST_MAX, &why) < 0 || const_file.len < CONST_HEAD)
		return NULL;
	const unsigned char *p = (const unsigned char *)const_file.s;
	size_t ni = get32(p + 12), nz = get32(p + 16);
	if (memcmp(p, CONST_MAGIC, 8) || get32(p + 8) != CONST_LEVEL || ni != n ||
	    const_file.len != CONST_HEAD + ni + nz || memcmp(p + CONST_HEAD, in, n))
		return NULL;
	const unsigned char *z = p + CONST_HEAD + ni;
	uint64_t h = const_hash(z, nz);
	if (get32(p + 20) != (uint32_t)h || get32(p + 24) != (uint32_t)(h >> 32))
		return NULL;
	*zn = nz;
	return z;
}

static void const_write(const char *path, const void *in, size_t n, const unsigned char *z,
                        size_t zn)
{
	unsigned char head[CONST_HEAD];
	uint64_t h = const_hash(z, zn);
	memcpy(head, CONST_MAGIC, 8);
	put32(head + 8, CONST_LEVEL);
	put32(head + 12, (uint32_t)n);
	put32(head + 16, (uint32_t)zn);
	put32(head + 20, (uint32_t)h);
	put32(head + 24, (uint32_t)(h >> 32));
	file_write_atomic(path, (const void *[]){head, in, z}, (size_t[]){sizeof(head), n, zn}, 3);
}

size_t pdf_deflate_const(const void *in, size_t n, const unsigned char **out)
{
	char path[600];
	int keep = n >= MEMO_MIN && n <= MEMO_MAX;
	const struct memo *m = keep ? memo_find(in, n, CONST_LEVEL) : NULL;
	if (m) { /* kept in this process (batch) */
		*out = m->z;
		return m->zn;
	}
	if (n > CONST_MAX / 2 || const_path(path, sizeof(path)) < 0)
		return pdf_deflate(in, n, CONST_LEVEL, out);
	size_t zn = 0;
	const unsigned char *z = const_read(path, in, n, &zn);
	if (z) {
		if (keep)
			memo_add(in, n, CONST_LEVEL, z, zn);
		*out = z;
		return zn;
	}
	zn = pdf_deflate(in, n, CONST_LEVEL, out);
	if (zn)
		const_write(path, in, n, *out, zn);
	return zn;
}
