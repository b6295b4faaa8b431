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
 * fresh render keeps level 1's and one other: pdf_one_document), and a
 * memo of the last MEMO_N inputs of MEMO_MIN to MEMO_MAX bytes with their
 * output: a batch deflates the same sRGB profile for every CV, and often
 * the same small font subsets and ToUnicode maps. An input is compared
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
 * $XDG_CACHE_HOME/vita/deflate-const.bin (else ~/.cache/vita/): the input
 * and its deflated bytes, used only when the input matches byte for byte
 * and the bytes inflate back to it (a damaged or foreign file is ignored
 * and rewritten). The ICC profile then costs ~20 K instructions instead
 * of ~280 K, and the bytes are the same. VITA_NO_DEFLATE_CACHE=1 turns it
 * off.
 */
#include <fcntl.h>
#include <libdeflate.h>
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

void pdf_one_document(void)
{
	one_doc = 1;
}

size_t pdf_deflate(const void *in, size_t n, int level, const unsigned char **out)
{
	if (level < 1 || level > 12)
		return 0;
	int keep = n >= MEMO_MIN && n <= MEMO_MAX;
	const struct memo *hit = keep ? memo_find(in, n, level) : NULL;
	if (hit) {
		*out = hit->z;
		return hit->zn;
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

/* ---- constant inputs, kept between processes ---- */

#define CONST_MAGIC "VITAZC01"
#define CONST_MAX (1 << 20)

static int const_path(char *out, size_t n)
{
	const char *off = getenv("VITA_NO_DEFLATE_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int r;
	if (off && *off && strcmp(off, "0") != 0)
		return -1;
	if (xdg && xdg[0] == '/')
		r = snprintf(out, n, "%s/vita/deflate-const.bin", xdg);
	else if (home && home[0] == '/')
		r = snprintf(out, n, "%s/.cache/vita/deflate-const.bin", home);
	else
		return -1;
	return r > 0 && (size_t)r < n ? 0 : -1;
}

/* The file: magic, level, input length, output length (4 bytes each,
 * little-endian), the input, the output. */
static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

static buf_t const_file;   /* what was read: its output is returned from it */

/* The cached output for in[0..n), or NULL. */
static const unsigned char *const_read(const char *path, const void *in, size_t n, size_t *zn)
{
	const char *why;
	buf_reset(&const_file);
	if (file_read(&const_file, path, CONST_MAX, &why) < 0 || const_file.len < 20)
		return NULL;
	const unsigned char *p = (const unsigned char *)const_file.s;
	size_t ni = get32(p + 12), nz = get32(p + 16);
	if (memcmp(p, CONST_MAGIC, 8) || get32(p + 8) != CONST_LEVEL || ni != n ||
	    const_file.len != 20 + ni + nz || memcmp(p + 20, in, n))
		return NULL;
	/* the output must give the input back */
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	unsigned char *back = xmalloc(n + 1);
	size_t got = 0;
	int ok = d && libdeflate_zlib_decompress(d, p + 20 + ni, nz, back, n, &got) ==
	                  LIBDEFLATE_SUCCESS && got == n && !memcmp(back, in, n);
	free(back);
	if (d)
		libdeflate_free_decompressor(d);
	if (!ok)
		return NULL;
	*zn = nz;
	return p + 20 + ni;
}

static void const_write(const char *path, const void *in, size_t n, const unsigned char *z,
                        size_t zn)
{
	char tmp[700];
	unsigned char head[20];
	memcpy(head, CONST_MAGIC, 8);
	put32(head + 8, CONST_LEVEL);
	put32(head + 12, (uint32_t)n);
	put32(head + 16, (uint32_t)zn);
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	for (char *c = tmp + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(tmp, 0755);
			*c = '/';
		}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	int bad = buf_write_fd(fd, head, sizeof(head)) != 0;
	bad |= buf_write_fd(fd, in, n) != 0;
	bad |= buf_write_fd(fd, z, zn) != 0;
	bad |= close(fd) != 0;
	if (bad || rename(tmp, path) != 0)
		unlink(tmp);
}

size_t pdf_deflate_const(const void *in, size_t n, const unsigned char **out)
{
	char path[600];
	int keep = n >= MEMO_MIN && n <= MEMO_MAX;
	if (keep && memo_find(in, n, CONST_LEVEL)) /* kept in this process (batch) */
		return pdf_deflate(in, n, CONST_LEVEL, out);
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
