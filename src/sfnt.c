/* sfnt: TrueType font programs in memory, read and written without any
 * library (see include/sfnt.h).
 *
 * Two readers share the byte helpers: the sanity check (sfnt_check), run
 * on every font a chain names and on every subset, which looks at the
 * table directory and the few fields libharu 2.3.0 would divide by or size
 * buffers with; and sfnt_open, which keeps offsets into the caller's bytes
 * for the PDF font objects. The font program written back (sfnt_program)
 * keeps the table set a PDF viewer reads, cuts glyf/loca to the glyphs
 * drawn (composite components followed recursively), appends the copies
 * made with sfnt_copy (glyf, loca, maxp, hmtx; post then keeps no glyph
 * names) and recomputes the checksums. Everything is bounds-checked
 * against the bytes given.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "arena.h"
#include "file.h"
#include "sfnt.h"
#include "sfnt_int.h"

#define TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* ---- the sanity check ---- */

typedef struct sfnt_tab {
	uint32_t off, len;
	int have;
} sfnt_tab_t;

enum { C_HEAD, C_HHEA, C_MAXP, C_HMTX, C_GLYF, C_LOCA, C_CMAP, C_NAME, C_CFF, C_CFF2, C_CBLC,
       C_CBDT, C_N };

static const uint32_t check_tags[C_N] = {
	TAG('h', 'e', 'a', 'd'), TAG('h', 'h', 'e', 'a'), TAG('m', 'a', 'x', 'p'),
	TAG('h', 'm', 't', 'x'), TAG('g', 'l', 'y', 'f'), TAG('l', 'o', 'c', 'a'),
	TAG('c', 'm', 'a', 'p'), TAG('n', 'a', 'm', 'e'), TAG('C', 'F', 'F', ' '),
	TAG('C', 'F', 'F', '2'), TAG('C', 'B', 'L', 'C'), TAG('C', 'B', 'D', 'T'),
};

/* Offset of the table directory of face index (following a ttcf header). */
static int check_face_offset(const unsigned char *p, size_t size, int index, uint32_t *off,
                             char *why, size_t whysz)
{
	if (size < 12) {
		snprintf(why, whysz, "corrupt font: file too short (%llu bytes)",
		         (unsigned long long)size);
		return -1;
	}
	if (be32(p) != TAG('t', 't', 'c', 'f')) {
		if (index != 0) {
			snprintf(why, whysz, "face index %d given, but the file is not a collection", index);
			return -1;
		}
		*off = 0;
		return 0;
	}
	uint32_t nfonts = be32(p + 8);
	if (index < 0 || (uint32_t)index >= nfonts) {
		snprintf(why, whysz, "face index %d out of range (the collection has %u faces)",
		         index, nfonts);
		return -1;
	}
	if ((uint64_t)12 + 4 * (uint64_t)index + 4 > size) {
		snprintf(why, whysz, "corrupt font: collection header truncated");
		return -1;
	}
	*off = be32(p + 12 + 4 * (size_t)index);
	return 0;
}

static int check_directory(const unsigned char *p, size_t size, uint32_t off, sfnt_tab_t *t,
                           char *why, size_t whysz)
{
	if ((uint64_t)off + 12 > size) {
		snprintf(why, whysz, "corrupt font: table directory truncated");
		return -1;
	}
	const unsigned char *h = p + off;
	uint32_t ver = be32(h);
	if (ver != TAG('O', 'T', 'T', 'O') && ver != 0x00010000 && ver != TAG('t', 'r', 'u', 'e')) {
		snprintf(why, whysz, "not a TrueType font (unknown sfnt version 0x%08x)", ver);
		return -1;
	}
	unsigned ntab = be16(h + 4);
	if (ntab == 0 || (uint64_t)off + 12 + 16 * (uint64_t)ntab > size) {
		snprintf(why, whysz, "corrupt font: table directory truncated");
		return -1;
	}
	for (unsigned i = 0; i < ntab; i++) {
		const unsigned char *r = h + 12 + 16 * (size_t)i;
		uint32_t tag = be32(r), to = be32(r + 8), tl = be32(r + 12);
		for (int k = 0; k < C_N; k++) {
			if (tag != check_tags[k])
				continue;
			if ((uint64_t)to + tl > size) {
				snprintf(why, whysz, "corrupt font: table '%c%c%c%c' extends past the end of the file",
				         r[0], r[1], r[2], r[3]);
				return -1;
			}
			t[k].off = to;
			t[k].len = tl;
			t[k].have = 1;
		}
	}
	return 0;
}

static int check_need(const sfnt_tab_t *t, int k, uint32_t minlen, char *why, size_t whysz)
{
	uint32_t tag = check_tags[k];
	if (!t[k].have) {
		snprintf(why, whysz, "corrupt font: no '%c%c%c%c' table",
		         tag >> 24, (tag >> 16) & 0xff, (tag >> 8) & 0xff, tag & 0xff);
		return -1;
	}
	if (t[k].len < minlen) {
		snprintf(why, whysz, "corrupt font: '%c%c%c%c' table too short (%u bytes)",
		         tag >> 24, (tag >> 16) & 0xff, (tag >> 8) & 0xff, tag & 0xff, t[k].len);
		return -1;
	}
	return 0;
}

/* The fields we divide by or size buffers with (cff, bitmaps: no loca). */
static int check_fields(const unsigned char *p, const sfnt_tab_t *t, int cff, int bitmaps,
                        sfnt_file_t *src, char *why, size_t whysz)
{
	const unsigned char *head = p + t[C_HEAD].off, *hhea = p + t[C_HHEA].off;
	const unsigned char *maxp = p + t[C_MAXP].off;
	unsigned upem = be16(head + 18), locfmt = be16(head + 50);
	unsigned nglyphs = be16(maxp + 4), nhm = be16(hhea + 34);
	if (upem < 16 || upem > 16384)
		return snprintf(why, whysz, "corrupt font: head.unitsPerEm = %u (expected 16..16384)", upem), -1;
	if (locfmt > 1)
		return snprintf(why, whysz, "corrupt font: head.indexToLocFormat = %u", locfmt), -1;
	if (nglyphs == 0)
		return snprintf(why, whysz, "corrupt font: maxp.numGlyphs = 0"), -1;
	if (nhm < 1 || nhm > nglyphs)
		return snprintf(why, whysz, "corrupt font: hhea.numberOfHMetrics = %u "
		                "(expected 1..maxp.numGlyphs = %u)", nhm, nglyphs), -1;
	if ((uint64_t)t[C_HMTX].len < 4 * (uint64_t)nhm + 2 * (uint64_t)(nglyphs - nhm))
		return snprintf(why, whysz, "corrupt font: 'hmtx' too short for %u glyphs", nglyphs), -1;
	if (cff)
		return sfnt_cff_check(p + t[C_CFF].off, t[C_CFF].len, nglyphs, src, why, whysz);
	if (bitmaps) {
		/* the header and the first strike sfnt_cbdt.c reads */
		const unsigned char *c = p + t[C_CBLC].off;
		if (t[C_CBLC].len < 56)
			return snprintf(why, whysz, "corrupt font: 'CBLC' too short"), -1;
		if (src)
			sfnt_need(src, c, 8);
		if (be32(c + 4) == 0 || (uint64_t)8 + 48 * (uint64_t)be32(c + 4) > t[C_CBLC].len)
			return snprintf(why, whysz, "corrupt font: 'CBLC' has %u strikes", be32(c + 4)), -1;
		return 0;
	}
	if ((uint64_t)t[C_LOCA].len < (nglyphs + 1ull) * (locfmt ? 4 : 2))
		return snprintf(why, whysz, "corrupt font: 'loca' too short for %u glyphs", nglyphs), -1;
	return 0;
}

/* sfnt_check of bytes that may be a file read by pieces (src): its
 * directory and small tables read (sfnt_file_face), the CFF header read
 * when checked. */
static int check_src(const unsigned char *p, size_t n, sfnt_file_t *src, int index, char *why,
                     size_t whysz)
{
	sfnt_tab_t t[C_N];
	memset(t, 0, sizeof(t));
	uint32_t off = 0;
	if (check_face_offset(p, n, index, &off, why, whysz) || check_directory(p, n, off, t, why, whysz))
		return -1;
	int cff = !t[C_GLYF].have && t[C_CFF].have;
	if (!cff && t[C_CFF2].have && !t[C_GLYF].have) {
		snprintf(why, whysz, "a variable CFF2 font (only TrueType and CFF outlines can be embedded)");
		return -1;
	}
	/* colour bitmaps (Noto Color Emoji): drawn as images, not outlines */
	int bitmaps = !cff && !t[C_GLYF].have && t[C_CBLC].have && t[C_CBDT].have;
	if (!cff && !bitmaps && (!t[C_GLYF].have || !t[C_LOCA].have)) {
		snprintf(why, whysz, "not an outline font (no glyf/loca or CFF tables)");
		return -1;
	}
	if (check_need(t, C_HEAD, 54, why, whysz) || check_need(t, C_HHEA, 36, why, whysz) ||
	    check_need(t, C_MAXP, 6, why, whysz) || check_need(t, C_HMTX, 4, why, whysz) ||
	    check_need(t, C_CMAP, 4, why, whysz) || check_need(t, C_NAME, 6, why, whysz))
		return -1;
	return check_fields(p, t, cff, bitmaps, src, why, whysz);
}

int sfnt_check(const unsigned char *p, size_t n, int index, char *why, size_t whysz)
{
	return check_src(p, n, NULL, index, why, whysz);
}

int sfnt_check_file(const char *path, int index, char *why, size_t whysz)
{
	size_t size = 0;
	const char *whyf;
	int fd = file_open(path, FILE_MAX_BINARY, &size, &whyf);
	if (fd < 0) {
		snprintf(why, whysz, "cannot open font file: %s", whyf);
		return -1;
	}
	int r = -1;
	if (size == 0) {
		r = sfnt_check((const unsigned char *)"", 0, index, why, whysz);
	} else {
		void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			snprintf(why, whysz, "cannot read font file: %s", strerror(errno));
		} else {
			r = sfnt_check(p, size, index, why, whysz);
			munmap(p, size);
		}
	}
	close(fd);
	return r;
}

/* ---- reading a font for embedding ---- */

/* sorted, as an sfnt table directory must be (a TrueType program never
 * has CFF: tt_program writes only the tables present) */
static const char tt_tags[T_N][5] = {"CBDT", "CBLC", "CFF ", "OS/2", "cmap", "cvt ", "fpgm", "glyf", "head",
                                     "hhea", "hmtx", "loca", "maxp", "name", "post", "prep"};

static int16_t s16(const unsigned char *p)
{
	return (int16_t)be16(p);
}

/* The PostScript name (name ID 6), reduced to what a PDF name may hold. */
static int tt_psname(sfnt_t *f)
{
	const unsigned char *t = f->p + f->off[T_NAME];
	uint32_t len = f->len[T_NAME];
	if (len < 6)
		return -1;
	unsigned count = be16(t + 2), soff = be16(t + 4);
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < count && 6 + 12 * (i + 1) <= len; i++) {
			const unsigned char *r = t + 6 + 12 * i;
			unsigned plat = be16(r), id = be16(r + 6), n = be16(r + 8), o = be16(r + 10);
			int wide = plat == 3 || plat == 0;
			if (id != 6 || (pass == 0 ? plat != 1 : !wide) || (uint32_t)soff + o + n > len)
				continue;
			const unsigned char *s = t + soff + o;
			size_t k = 0;
			for (unsigned j = wide; j < n && k < sizeof(f->ps) - 1; j += 1u + wide) {
				unsigned char c = s[j];
				if (c > 32 && c < 127 && !strchr("[](){}<>/%#", c) && (!wide || !s[j - 1]))
					f->ps[k++] = (char)c;
			}
			f->ps[k] = '\0';
			if (k > 0)
				return 0;
		}
	return -1;
}

/* Pick the best Unicode cmap subtable: (3,10) format 12, then format 4. */
static int tt_cmap(sfnt_t *f)
{
	const unsigned char *t = f->p + f->off[T_CMAP];
	uint32_t len = f->len[T_CMAP];
	int best = 0;
	sfnt_need(f->src, t, 4);
	unsigned n = len >= 4 ? be16(t + 2) : 0;
	sfnt_need(f->src, t + 4, 8 * (size_t)n);
	for (unsigned i = 0; i < n && 4 + 8 * (i + 1) <= len; i++) {
		const unsigned char *r = t + 4 + 8 * i;
		unsigned plat = be16(r), enc = be16(r + 2);
		uint32_t o = be32(r + 4);
		if (!(plat == 0 || (plat == 3 && (enc == 1 || enc == 10))) || o > len - 8)
			continue;
		sfnt_need(f->src, t + o, 8);
		unsigned fmt = be16(t + o);
		uint32_t sl = fmt == 12 ? be32(t + o + 4) : be16(t + o + 2);
		int score = fmt == 12 ? 3 : fmt == 4 ? 1 + (plat == 3) : 0;
		if (score <= best || sl > len - o || sl < (fmt == 12 ? 16u : 14u))
			continue;
		best = score;
		f->cmap = t + o;
		f->cmaplen = sl;
		f->cmapfmt = (int)fmt;
	}
	if (best)
		sfnt_need(f->src, f->cmap, 16);
	return best ? 0 : -1;
}

/* Binary searches, as every cmap reader does: a subtable's segments and
 * groups are sorted (a CJK face's format 12 has 15,000 groups). */
static unsigned gid12(sfnt_file_t *src, const unsigned char *c, uint32_t cmaplen, uint32_t cp)
{
	uint32_t ng = be32(c + 12);
	if (ng > (cmaplen - 16) / 12)
		ng = (cmaplen - 16) / 12;
	uint32_t lo = 0, hi = ng;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const unsigned char *r = c + 16 + 12 * (size_t)mid;
		sfnt_need(src, r, 12);
		if (cp < be32(r))
			hi = mid;
		else if (cp > be32(r + 4))
			lo = mid + 1;
		else
			return (unsigned)(be32(r + 8) + (cp - be32(r)));
	}
	return 0;
}

/* (hint: the segment the last look-up ended in; code points come in
   runs of one script, and the subsets look them up in order) */
static unsigned gid4(sfnt_file_t *src, const unsigned char *c, uint32_t cmaplen, uint32_t cp,
                     unsigned *hint)
{
	unsigned nseg = be16(c + 6) / 2;
	if (16 + 8 * (uint32_t)nseg > cmaplen)
		return 0;
	unsigned lo = 0, hi = nseg; /* the first segment whose end >= cp */
	unsigned h = *hint;
	if (h < nseg) { /* the hint's when its end and the one before it say so */
		sfnt_need(src, c + 14 + 2 * h, 2);
		if (h > 0)
			sfnt_need(src, c + 12 + 2 * h, 2);
		if (be16(c + 14 + 2 * h) >= cp && (h == 0 || be16(c + 12 + 2 * h) < cp))
			lo = hi = h;
	}
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		sfnt_need(src, c + 14 + 2 * mid, 2);
		if (be16(c + 14 + 2 * mid) < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == nseg)
		return 0;
	*hint = lo;
	unsigned i = 2 * lo, segx2 = 2 * nseg;
	sfnt_need(src, c + 16 + segx2 + i, 2);
	sfnt_need(src, c + 16 + 2 * segx2 + i, 2);
	sfnt_need(src, c + 16 + 3 * segx2 + i, 2);
	unsigned start = be16(c + 16 + segx2 + i), delta = be16(c + 16 + 2 * segx2 + i);
	uint32_t ro_at = 16 + 3 * (uint32_t)segx2 + i, ro = be16(c + ro_at);
	if (cp < start)
		return 0;
	if (ro == 0)
		return (cp + delta) & 0xFFFF;
	uint32_t at = ro_at + ro + 2 * (cp - start);
	if (at + 2 <= cmaplen)
		sfnt_need(src, c + at, 2);
	unsigned v = at + 2 <= cmaplen ? be16(c + at) : 0;
	return v ? (v + delta) & 0xFFFF : 0;
}

static unsigned tt_gid(sfnt_t *f, uint32_t cp)
{
	unsigned g = f->cmapfmt == 12 ? gid12(f->src, f->cmap, f->cmaplen, cp)
	             : cp <= 0xffff ? gid4(f->src, f->cmap, f->cmaplen, cp, &f->seg4) : 0;
	return g < f->nglyphs ? g : 0;
}

/* Width in 1/1000 em, truncated as libharu did (layout measures so). */
static int tt_width(const sfnt_t *f, unsigned g)
{
	unsigned m = g < f->nmetrics ? g : f->nmetrics - 1;
	sfnt_need(f->src, f->p + f->off[T_HMTX] + 4 * m, 2);
	return (int)(be16(f->p + f->off[T_HMTX] + 4 * m) * 1000u / f->upem);
}

const unsigned char sfnt_empty_glyph[SFNT_EMPTY_GLYPH_LEN] = {0};

/* Glyph g's bytes in glyf; 0 and *len 0 when empty or out of bounds. */
const unsigned char *sfnt_glyph_data(const sfnt_t *f, unsigned g, uint32_t *len)
{
	const unsigned char *l = f->p + f->off[T_LOCA];
	uint32_t a, b;
	sfnt_need(f->src, f->locfmt ? l + 4 * g : l + 2 * g, f->locfmt ? 8 : 4);
	if (f->locfmt) {
		a = be32(l + 4 * g);
		b = be32(l + 4 * g + 4);
	} else {
		a = 2 * be16(l + 2 * g);
		b = 2 * be16(l + 2 * g + 2);
	}
	*len = 0;
	if (a >= b || b > f->len[T_GLYF])
		return NULL;
	*len = b - a;
	sfnt_need(f->src, f->p + f->off[T_GLYF] + a, *len);
	return f->p + f->off[T_GLYF] + a;
}

/* The face whose table directory is at dir; embed: it is to be embedded
 * as it is (a PostScript name and a licence that allows it). */
static const char *tt_parse(sfnt_t *f, uint32_t dir, int embed)
{
	const unsigned char *p = f->p;
	if (f->n < 12 || f->n - 12 < dir)
		return "too short for a TrueType font";
	unsigned nt = be16(p + dir + 4);
	if (dir + 12 + 16 * (size_t)nt > f->n)
		return "corrupt TrueType table directory";
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *d = p + dir + 12 + 16 * i;
		for (int k = 0; k < T_N; k++) {
			if (memcmp(d, tt_tags[k], 4))
				continue;
			uint32_t o = be32(d + 8), l = be32(d + 12);
			if (o > f->n || l > f->n - o)
				return "a TrueType table lies outside the file";
			f->off[k] = o;
			f->len[k] = l;
		}
	}
	if (f->len[T_HEAD] < 54 || f->len[T_HHEA] < 36 || f->len[T_MAXP] < 6 ||
	    (!f->len[T_GLYF] && !f->len[T_CFF] && !(f->len[T_CBLC] && f->len[T_CBDT])))
		return "a required table (head, hhea, maxp, glyf, CFF or CBDT) is missing";
	if (!f->len[T_CMAP] || tt_cmap(f))
		return "the font has no usable Unicode cmap";
	if (embed && (!f->len[T_NAME] || tt_psname(f)))
		return "the font has no PostScript name (name ID 6)";
	f->upem = be16(p + f->off[T_HEAD] + 18);
	f->locfmt = be16(p + f->off[T_HEAD] + 50) != 0;
	f->nglyphs = be16(p + f->off[T_MAXP] + 4);
	f->nmetrics = be16(p + f->off[T_HHEA] + 34);
	if (f->upem < 16 || f->upem > 16384)
		return "invalid unitsPerEm in the head table";
	if (!f->nglyphs || !f->nmetrics || f->nmetrics > f->nglyphs ||
	    f->len[T_HMTX] < 4 * f->nmetrics)
		return "hhea.numberOfHMetrics does not fit maxp.numGlyphs or hmtx";
	if (f->len[T_GLYF] && f->len[T_LOCA] < (f->nglyphs + 1) * (f->locfmt ? 4u : 2u))
		return "the loca table is too short";
	if (embed && f->len[T_OS2] >= 10 && be16(p + f->off[T_OS2] + 8) & (0x0002 | 0x0100 | 0x0200))
		return "the font's licence forbids embedding or subsetting";
	return NULL;
}


static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

uint32_t sfnt_table_end(bbuf_t *b, size_t dir, const char *tag, size_t at)
{
	size_t len = b->n - at, pad = (4 - len % 4) % 4;
	memset(sfnt_bb_grow(b, pad), 0, pad);
	unsigned char *e = b->p + dir;
	uint32_t ts = sfnt_sum(b->p + at, len + pad);
	memcpy(e, tag, 4);
	put32(e + 4, ts);
	put32(e + 8, (uint32_t)at);
	put32(e + 12, (uint32_t)len);
	return ts;
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

uint32_t sfnt_sum(const unsigned char *p, size_t n)
{
	uint32_t s = 0;
	size_t i = 0;
#ifdef __SSE2__
	/* the sum of the big-endian words is the sum of the bytes at each
	   place in a word, shifted (byte 4k + j by 24 - 8j bits; mod 2^32
	   either way): 16 bytes at a time into 16-bit sums of the even and
	   the odd bytes, 255 blocks at most before they are added up */
	const __m128i lo = _mm_set1_epi16(0x00FF);
	uint32_t at[4] = {0, 0, 0, 0};
	while (n - i >= 16) {
		size_t m = (n - i) / 16 > 255 ? 255 : (n - i) / 16;
		__m128i ev = _mm_setzero_si128(), od = _mm_setzero_si128();
		for (size_t k = 0; k < m; k++, i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			ev = _mm_add_epi16(ev, _mm_and_si128(v, lo));
			od = _mm_add_epi16(od, _mm_srli_epi16(v, 8));
		}
		uint16_t e[8], o[8];
		_mm_storeu_si128((__m128i *)(void *)e, ev);
		_mm_storeu_si128((__m128i *)(void *)o, od);
		for (int k = 0; k < 8; k += 2) {
			at[0] += e[k];       /* bytes 0 mod 4 */
			at[1] += o[k];       /* 1 */
			at[2] += e[k + 1];   /* 2 */
			at[3] += o[k + 1];   /* 3 */
		}
	}
	s = (at[0] << 24) + (at[1] << 16) + (at[2] << 8) + at[3];
#endif
	for (; i < n; i += 4)
		s += be32(p + i); /* tables are zero-padded to 4 bytes */
	return s;
}

/* The next component of the composite glyph record d[0..len), from *at
 * (10 for the first): its glyph in *c, and *at moved past it (0 after the
 * last, MORE_COMPONENTS clear). 0 when there is none: the end, or a
 * record cut short. */
static int tt_component(const unsigned char *d, uint32_t len, uint32_t *at, unsigned *c)
{
	if (!*at || *at + 4 > len)
		return 0;
	unsigned flags = be16(d + *at);
	*c = be16(d + *at + 2);
	*at = flags & 0x20 ? *at + 4 + (flags & 1 ? 4 : 2) +
	                         (flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0)
	                   : 0;
	return 1;
}

/* Mark the glyphs composite glyph g uses, recursively (a work list). */
static void tt_closure(const sfnt_t *f, uint8_t *keep, uint16_t *stack)
{
	int sp = 0;
	for (unsigned g = 0; g < f->nglyphs; g++)
		if (keep[g])
			stack[sp++] = (uint16_t)g;
	while (sp > 0) {
		uint32_t len;
		const unsigned char *d = sfnt_glyph_data(f, stack[--sp], &len);
		if (len < 10 || s16(d) >= 0)
			continue;
		unsigned c;
		for (uint32_t at = 10; tt_component(d, len, &at, &c);)
			if (c < f->nglyphs && !keep[c]) {
				keep[c] = 1;
				stack[sp++] = (uint16_t)c;
			}
	}
}

typedef struct sfnt_comp {
	unsigned char *d;           /* its glyf record (NULL: a copy) */
	uint32_t len;
	unsigned adv;               /* font units */
	int lsb;
} sfnt_comp_t;

static const sfnt_comp_t *tt_comp(const sfnt_t *f, unsigned g)
{
	return g >= f->nglyphs && f->comp && f->comp[g - f->nglyphs].d ? &f->comp[g - f->nglyphs]
	                                                                : NULL;
}

/* Glyph g of the program: glyph g of the font when kept, or the glyph an
 * appended copy (g >= nglyphs) copies, or an appended composite; NULL and
 * *len 0 when empty. */
static const unsigned char *tt_out_glyph(const sfnt_t *f, const uint8_t *keep, unsigned g,
                                         uint32_t *len)
{
	*len = 0;
	const sfnt_comp_t *c = tt_comp(f, g);
	if (c) {
		*len = c->len;
		return c->d;
	}
	if (g >= f->nglyphs)
		return sfnt_glyph_data(f, f->dup[g - f->nglyphs], len);
	return keep[g] ? sfnt_glyph_data(f, g, len) : NULL;
}

/* hmtx with a full metric for every glyph, the copies' taken from the
 * glyphs they copy (text extractors measure gaps with the font's own
 * advances, so a copy must keep its glyph's). */
static void tt_hmtx(const sfnt_t *f, bbuf_t *b)
{
	const unsigned char *h = f->p + f->off[T_HMTX];
	uint32_t len = f->len[T_HMTX];
	unsigned total = f->nglyphs + f->ndup;
	for (unsigned i = 0; i < total; i++) {
		unsigned g = i < f->nglyphs ? i : f->dup[i - f->nglyphs];
		unsigned m = g < f->nmetrics ? g : f->nmetrics - 1;
		uint32_t at = g < f->nmetrics ? 4 * g + 2 : 4 * f->nmetrics + 2 * (g - f->nmetrics);
		unsigned char *o = sfnt_bb_grow(b, 4);
		const sfnt_comp_t *c = tt_comp(f, i);
		if (c) {
			put16(o, c->adv);
			put16(o + 2, (unsigned)c->lsb & 0xFFFF);
			continue;
		}
		memcpy(o, h + 4 * m, 2); /* tt_parse checked 4 * nmetrics <= len */
		o[2] = at + 2 <= len ? h[at] : 0;
		o[3] = at + 2 <= len ? h[at + 1] : 0;
	}
}

/* A glyph's length padded: to 2 bytes for the short loca (which counts
 * words), to 4 for the long one (the alignment the spec recommends). */
static uint32_t tt_padded(uint32_t len, int lng)
{
	return lng ? (len + 3) & ~3u : (len + 1) & ~1u;
}

/* A glyph of the program: tt_out_glyph's, looked up once for glyf, loca
 * and the size of both. */
typedef struct sfnt_out {
	const unsigned char *d;
	uint32_t len;
} sfnt_out_t;

/* Table k of the program into b (lng: a long loca; og: its glyphs). */
static void tt_table(const sfnt_t *f, int k, const sfnt_out_t *og, int lng, bbuf_t *b)
{
	unsigned total = f->nglyphs + f->ndup;
	size_t at = b->n;
	if (k == T_GLYF) {
		for (unsigned g = 0; g < total; g++) {
			const unsigned char *d = og[g].d;
			uint32_t len = og[g].len;
			if (d) {
				uint32_t pad = tt_padded(len, lng) - len;
				memcpy(sfnt_bb_grow(b, len), d, len);
				memset(sfnt_bb_grow(b, pad), 0, pad);
			}
		}
	} else if (k == T_LOCA) {
		/* glyf comes first in tag order, so its layout is known */
		uint32_t o = 0;
		unsigned char *l = sfnt_bb_grow(b, (lng ? 4 : 2) * ((size_t)total + 1));
		for (unsigned g = 0; g <= total; g++) {
			if (lng)
				put32(l + 4 * g, o);
			else
				put16(l + 2 * g, o / 2);
			if (g < total && og[g].d)
				o += tt_padded(og[g].len, lng);
		}
	} else if (k == T_HMTX && f->ndup) {
		tt_hmtx(f, b);
	} else if (k == T_POST && f->ndup && f->len[k] >= 32) {
		/* glyph names count the glyphs: keep none (format 3) */
		memcpy(sfnt_bb_grow(b, 32), f->p + f->off[k], 32);
		put32(b->p + at, 0x00030000);
	} else {
		memcpy(sfnt_bb_grow(b, f->len[k]), f->p + f->off[k], f->len[k]);
		if (k == T_HEAD) {
			put32(b->p + at + 8, 0);     /* checkSumAdjustment */
			put16(b->p + at + 50, (unsigned)lng); /* indexToLocFormat */
		} else if (k == T_MAXP) {
			put16(b->p + at + 4, total); /* numGlyphs */
			if (f->ncompmax && f->len[k] >= 32) {
				/* composites of composites: one level deeper */
				if (be16(b->p + at + 28) < f->ncompmax)
					put16(b->p + at + 28, f->ncompmax);
				put16(b->p + at + 30, be16(b->p + at + 30) + 1);
				/* maxCompositePoints, maxCompositeContours: a
				   cluster's composite draws all its glyphs' */
				if (be16(b->p + at + 10) < f->comppts)
					put16(b->p + at + 10, f->comppts);
				if (be16(b->p + at + 12) < f->compcts)
					put16(b->p + at + 12, f->compcts);
			}
		} else if (k == T_HHEA && f->ndup) {
			put16(b->p + at + 34, total); /* numberOfHMetrics */
		}
	}
}

/* Whether table k goes into the embedded program: what a CIDFontType2
 * program needs (ISO 32000-1 9.9: head, hhea, loca, maxp, glyf, hmtx and
 * the hinting tables). The CIDs are glyph ids (/CIDToGIDMap /Identity)
 * and text extracts through ToUnicode, so cmap, name, OS/2 and post are
 * never read: leaving them out saves about 2 KB per CV. */
static int tt_embedded(const sfnt_t *f, int k)
{
	if (k == T_OS2 || k == T_CMAP || k == T_NAME || k == T_POST || k == T_CBDT || k == T_CBLC)
		return 0;
	return f->len[k] > 0 || k == T_LOCA;
}

/* The font program: glyf/loca cut to the kept glyphs plus the copies
 * (the short loca when glyf is under 128 KiB: half its bytes, and glyphs
 * padded to 2 bytes, not 4), checksums and head.checkSumAdjustment
 * recomputed. */
static void tt_program(sfnt_t *f, const uint8_t *keep, bbuf_t *b)
{
	int nt = 0;
	for (int k = 0; k < T_N; k++)
		nt += tt_embedded(f, k);
	unsigned es = 0;
	while ((2u << es) <= (unsigned)nt)
		es++;
	b->n = 0;
	unsigned char *h = sfnt_bb_grow(b, 12 + 16 * (size_t)nt);
	put32(h, 0x00010000);
	put16(h + 4, (unsigned)nt);
	put16(h + 6, 16u << es);
	put16(h + 8, es);
	put16(h + 10, 16u * (unsigned)nt - (16u << es));
	size_t dir = 12, head_at = 0;
	uint64_t glyf = 0;
	uint32_t sum = 0;
	sfnt_out_t *og = f->out = xrealloc(f->out, sizeof(*og) * ((size_t)f->nglyphs + f->ndup + 1));
	for (unsigned g = 0; g < f->nglyphs + f->ndup; g++)
		if ((og[g].d = tt_out_glyph(f, keep, g, &og[g].len)))
			glyf += tt_padded(og[g].len, 0);
	if (!glyf) { /* every glyph kept empty: glyf is never empty */
		og[0].d = sfnt_empty_glyph;
		glyf = og[0].len = SFNT_EMPTY_GLYPH_LEN;
	}
	int lng = glyf > 0x1FFFE;
	for (int k = 0; k < T_N; k++) {
		if (!tt_embedded(f, k))
			continue;
		size_t at = b->n;
		if (k == T_HEAD)
			head_at = at;
		tt_table(f, k, og, lng, b);
		sum += sfnt_table_end(b, dir, tt_tags[k], at);
		dir += 16;
	}
	sum += sfnt_sum(b->p, dir); /* the whole file's: its tables' and the directory's */
	put32(b->p + head_at + 8, 0xB1B0AFBAu - sum);
}


/* ---- the interface ---- */

sfnt_t *sfnt_open(const unsigned char *p, size_t n, char *why, size_t whysz)
{
	if (n >= 4 && !memcmp(p, "ttcf", 4)) {
		snprintf(why, whysz, "a font collection (.ttc): give a single TrueType font");
		return NULL;
	}
	if (sfnt_check(p, n, 0, why, whysz))
		return NULL;
	sfnt_t *f = xcalloc(1, sizeof(*f));
	f->p = p;
	f->n = n;
	const char *bad = tt_parse(f, 0, 1);
	if (bad) {
		snprintf(why, whysz, "%s", bad);
		free(f);
		return NULL;
	}
	if (!f->len[T_GLYF] && f->len[T_CFF]) {
		f->cff = sfnt_cff_open(p + f->off[T_CFF], f->len[T_CFF], f->nglyphs, 0, NULL, why, whysz);
		if (!f->cff) {
			free(f);
			return NULL;
		}
	}
	return f;
}

sfnt_t *sfnt_open_face(const unsigned char *p, size_t n, sfnt_file_t *src, int index, char *why,
                       size_t whysz)
{
	uint32_t dir = 0;
	if (src)
		sfnt_file_face(src, index);
	if (check_src(p, n, src, index, why, whysz) || check_face_offset(p, n, index, &dir, why, whysz))
		return NULL;
	sfnt_t *f = xcalloc(1, sizeof(*f));
	f->p = p;
	f->n = n;
	f->src = src;
	const char *bad = tt_parse(f, dir, 0);
	if (bad) {
		snprintf(why, whysz, "%s", bad);
		free(f);
		return NULL;
	}
	return f;
}

void sfnt_free(sfnt_t *f)
{
	if (!f)
		return;
	sfnt_cff_free(f->cff);
	for (unsigned k = 0; f->comp && k < f->ndup; k++)
		free(f->comp[k].d);
	free(f->comp);
	free(f->dup);
	free(f->prog.p);
	free(f->keep);
	free(f->stack);
	free(f->out);
	free(f);
}

int sfnt_is_cff(const sfnt_t *f)
{
	return f->cff != NULL;
}

int sfnt_is_bitmap(const sfnt_t *f)
{
	return !f->len[T_GLYF] && !f->cff && f->len[T_CBLC] && f->len[T_CBDT];
}

int sfnt_bitmap(const sfnt_t *f, unsigned g, sfnt_bitmap_t *b)
{
	memset(b, 0, sizeof(*b));
	if (!sfnt_is_bitmap(f) || g >= f->nglyphs)
		return -1;
	return sfnt_cbdt_glyph(f, g, b);
}

unsigned sfnt_nglyphs(const sfnt_t *f)
{
	return f->nglyphs + f->ndup;
}

const char *sfnt_psname(const sfnt_t *f)
{
	return f->ps;
}

unsigned sfnt_gid(sfnt_t *f, uint32_t cp)
{
	return tt_gid(f, cp);
}

unsigned sfnt_source(const sfnt_t *f, unsigned g)
{
	return g < f->nglyphs ? g : f->dup[g - f->nglyphs];
}

int sfnt_width(const sfnt_t *f, unsigned g)
{
	const sfnt_comp_t *c = tt_comp(f, g);
	if (c)
		return (int)(c->adv * 1000u / f->upem);
	return tt_width(f, sfnt_source(f, g));
}

unsigned sfnt_upem(const sfnt_t *f)
{
	return f->upem;
}

unsigned sfnt_copy(sfnt_t *f, unsigned g)
{
	if (f->nglyphs + f->ndup >= 65535)
		return g;
	if (f->ndup % 64 == 0) {
		f->dup = xrealloc(f->dup, (f->ndup + 64) * sizeof(uint16_t));
		if (f->comp) {
			f->comp = xrealloc(f->comp, (f->ndup + 64) * sizeof(*f->comp));
			memset(f->comp + f->ndup, 0, 64 * sizeof(*f->comp));
		}
	}
	f->dup[f->ndup] = (uint16_t)g;
	return f->nglyphs + f->ndup++;
}

/* The points and contours glyph g draws, its components' included
 * (maxp's maxCompositePoints and maxCompositeContours count them so);
 * depth bounds a malformed font's cycle and *budget the glyphs visited
 * (a font whose composites fan out must not make this exponential). */
static void tt_outline_size(const sfnt_t *f, unsigned g, int depth, int *budget,
                            unsigned long *pts, unsigned long *cts)
{
	uint32_t len;
	if (depth > 8 || --*budget < 0)
		return;
	const unsigned char *d = sfnt_glyph_data(f, g, &len);
	if (!d || len < 10)
		return;
	int nc = s16(d);
	if (nc >= 0) {
		if (nc > 0 && 10 + 2 * (uint32_t)nc <= len) {
			*pts += be16(d + 10 + 2 * (nc - 1)) + 1u;
			*cts += (unsigned)nc;
		}
		return;
	}
	unsigned c;
	for (uint32_t at = 10; tt_component(d, len, &at, &c);)
		if (c < f->nglyphs)
			tt_outline_size(f, c, depth + 1, budget, pts, cts);
}

unsigned sfnt_compose(sfnt_t *f, int n, const unsigned *gids, const int32_t *dx,
                      const int32_t *dy, int32_t adv)
{
	if (f->cff || n < 0 || n > 64 || adv < 0 || adv > 0xFFFF || f->nglyphs + f->ndup >= 65535)
		return 0;
	int have = 0;
	int bb[4] = {0, 0, 0, 0};
	for (int i = 0; i < n; i++) {
		if (gids[i] >= f->nglyphs || dx[i] < -32768 || dx[i] > 32767 || dy[i] < -32768 ||
		    dy[i] > 32767)
			return 0;
		uint32_t len;
		const unsigned char *d = sfnt_glyph_data(f, gids[i], &len);
		if (!d || len < 10)
			continue;   /* no outline */
		int e[4] = {s16(d + 2) + dx[i], s16(d + 4) + dy[i], s16(d + 6) + dx[i],
		            s16(d + 8) + dy[i]};
		for (int j = 0; j < 4; j++)
			if (!have || (j < 2 ? e[j] < bb[j] : e[j] > bb[j]))
				bb[j] = e[j];
		have = 1;
	}
	for (int j = 0; j < 4; j++)
		if (bb[j] < -32768 || bb[j] > 32767)
			return 0;
	if (!f->comp) {
		f->comp = xcalloc((f->ndup + 64) / 64 * 64 + 64, sizeof(*f->comp));
	}
	unsigned g = sfnt_copy(f, 0);
	if (g == 0)
		return 0;
	sfnt_comp_t *c = &f->comp[g - f->nglyphs];
	c->len = n ? 10 + 8 * (uint32_t)n : 0;   /* none: an empty glyph */
	c->d = xmalloc(c->len + 1);
	if (n)
		put16(c->d, 0xFFFF);    /* numberOfContours -1: composite */
	for (int j = 0; n && j < 4; j++)
		put16(c->d + 2 + 2 * j, (unsigned)bb[j] & 0xFFFF);
	for (int i = 0; i < n; i++) {
		unsigned char *o = c->d + 10 + 8 * i;
		/* ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES, MORE_COMPONENTS */
		put16(o, 0x0003 | (i + 1 < n ? 0x0020 : 0));
		put16(o + 2, gids[i]);
		put16(o + 4, (unsigned)dx[i] & 0xFFFF);
		put16(o + 6, (unsigned)dy[i] & 0xFFFF);
	}
	c->adv = (unsigned)adv;
	c->lsb = bb[0];
	if ((unsigned)n > f->ncompmax)
		f->ncompmax = (unsigned)n;
	unsigned long pts = 0, cts = 0;
	int budget = 4096;
	for (int i = 0; i < n; i++)
		tt_outline_size(f, gids[i], 0, &budget, &pts, &cts);
	if (budget < 0)
		pts = cts = 0xFFFF;   /* not counted: the most maxp can say */
	if (pts > f->comppts)
		f->comppts = pts > 0xFFFF ? 0xFFFF : (unsigned)pts;
	if (cts > f->compcts)
		f->compcts = cts > 0xFFFF ? 0xFFFF : (unsigned)cts;
	return g;
}

static int em(const sfnt_t *f, int v)
{
	return (int)((long)v * 1000 / (long)f->upem);
}

void sfnt_get_metrics(const sfnt_t *f, sfnt_metrics_t *m)
{
	const unsigned char *head = f->p + f->off[T_HEAD], *hhea = f->p + f->off[T_HHEA];
	const unsigned char *os2 = f->len[T_OS2] >= 78 ? f->p + f->off[T_OS2] : NULL;
	const unsigned char *post = f->len[T_POST] >= 16 ? f->p + f->off[T_POST] : NULL;
	m->ascent = em(f, s16(hhea + 4));
	m->descent = em(f, s16(hhea + 6));
	m->cap = os2 && f->len[T_OS2] >= 90 && be16(os2) >= 2 ? em(f, s16(os2 + 88)) : m->ascent;
	m->italic = post ? (double)(int32_t)be32(post + 4) / 65536.0 : 0;
	m->weight = os2 ? be16(os2 + 4) : 400;
	m->fixed = post && be32(post + 12);
	m->slanted = m->italic != 0 || (be16(head + 44) & 2);
	for (int i = 0; i < 4; i++)
		m->bbox[i] = em(f, s16(head + 36 + 2 * i));
}

void sfnt_program(sfnt_t *f, const uint8_t *keep, const unsigned char **out, size_t *n)
{
	uint8_t *k = f->keep = xrealloc(f->keep, f->nglyphs);
	memset(k, 0, f->nglyphs);
	k[0] = 1;
	for (unsigned g = 0; g < f->nglyphs + f->ndup; g++) {
		const sfnt_comp_t *c = keep[g] ? tt_comp(f, g) : NULL;
		for (uint32_t at = 10; c && at + 8 <= c->len; at += 8)
			k[be16(c->d + at + 2)] = 1;   /* its components */
		if (keep[g])
			k[sfnt_source(f, g)] = 1;
	}
	if (f->cff) {
		sfnt_cff_write(f->cff, f->nglyphs + f->ndup, f->nglyphs, f->dup, k, &f->prog);
	} else {
		f->stack = xrealloc(f->stack, sizeof(uint16_t) * f->nglyphs);
		tt_closure(f, k, f->stack);
		tt_program(f, k, &f->prog);
	}
	*out = f->prog.p;
	*n = f->prog.n;
}

/* ---- a font with a cmap added ---- */

/* A cmap with a (3,1) format 4 subtable: code point cps[i] -> gids[i]
 * (ascending), a segment per run of consecutive code points and glyph
 * ids; when some are past the BMP, a (3,10) format 12 subtable of them
 * all too (a group per such run). */
void sfnt_cmap_table(const uint32_t *cps, const unsigned *gids, int nall, bbuf_t *b)
{
	int k = 0, nseg = 1, ngrp = 0;
	while (k < nall && cps[k] <= 0xffff)
		k++;
	for (int i = 0; i < nall && k < nall; i++)
		ngrp += i == 0 || cps[i] != cps[i - 1] + 1 || gids[i] != gids[i - 1] + 1;
	for (int i = 0; i < k; i++)
		nseg += i == 0 || cps[i] != cps[i - 1] + 1 || gids[i] != gids[i - 1] + 1;
	unsigned es = 0;
	while ((2u << es) <= (unsigned)nseg)
		es++;
	size_t sublen = 16 + 8 * (size_t)nseg, hl = ngrp ? 20 : 12;
	size_t len12 = ngrp ? 16 + 12 * (size_t)ngrp : 0;
	unsigned char *h = sfnt_bb_grow(b, hl + sublen + len12);
	memset(h, 0, hl + sublen + len12);
	put16(h + 2, ngrp ? 2 : 1); /* encoding records: (3,1) at hl, (3,10) */
	put16(h + 4, 3);
	put16(h + 6, 1);
	put32(h + 8, (uint32_t)hl);
	if (ngrp) {
		put16(h + 12, 3);
		put16(h + 14, 10);
		put32(h + 16, (uint32_t)(hl + sublen));
		unsigned char *t = h + hl + sublen, *gr = t + 16 - 12;
		put16(t, 12);
		put32(t + 4, (uint32_t)len12);
		put32(t + 12, (uint32_t)ngrp);
		for (int i = 0; i < nall; i++) {
			if (i == 0 || cps[i] != cps[i - 1] + 1 || gids[i] != gids[i - 1] + 1) {
				gr += 12;
				put32(gr, cps[i]);
				put32(gr + 8, gids[i]);
			}
			put32(gr + 4, cps[i]);
		}
	}
	unsigned char *s = h + hl;
	put16(s, 4);
	put16(s + 2, (unsigned)sublen);
	put16(s + 6, 2u * (unsigned)nseg);
	put16(s + 8, 2u << es);
	put16(s + 10, es);
	put16(s + 12, 2u * (unsigned)nseg - (2u << es));
	unsigned char *end = s + 14, *start = end + 2 * nseg + 2, *delta = start + 2 * nseg;
	int g = 0;
	for (int i = 0; i < k; i++) {
		if (i > 0 && cps[i] == cps[i - 1] + 1 && gids[i] == gids[i - 1] + 1) {
			put16(end + 2 * (g - 1), cps[i]);
			continue;
		}
		put16(start + 2 * g, cps[i]);
		put16(end + 2 * g, cps[i]);
		put16(delta + 2 * g, (gids[i] - cps[i]) & 0xffff);
		g++;
	}
	put16(start + 2 * g, 0xffff); /* the final segment maps 0xFFFF to 0 */
	put16(end + 2 * g, 0xffff);
	put16(delta + 2 * g, 1);
}

int sfnt_with_cmap(const unsigned char *p, size_t n, const uint32_t *cps, const unsigned *gids,
                   int k, unsigned char **out, size_t *outlen)
{
	if (n < 12 || be32(p) == TAG('t', 't', 'c', 'f'))
		return -1;
	unsigned nt = be16(p + 4);
	if (12 + 16 * (size_t)nt > n)
		return -1;
	for (int i = 0; i < k; i++)
		if (cps[i] > 0xffff || gids[i] > 0xffff || (i && cps[i] <= cps[i - 1]))
			return -1;
	unsigned tot = nt + 1;
	unsigned es = 0;
	while ((2u << es) <= tot)
		es++;
	bbuf_t b = {0};
	unsigned char *h = sfnt_bb_grow(&b, 12 + 16 * (size_t)tot);
	memcpy(h, p, 4);
	put16(h + 4, tot);
	put16(h + 6, 16u << es);
	put16(h + 8, es);
	put16(h + 10, 16u * tot - (16u << es));
	size_t dir = 12, head_at = 0;
	int added = 0;
	for (unsigned i = 0; i <= nt; i++) {
		const unsigned char *r = i < nt ? p + 12 + 16 * i : NULL;
		uint32_t tag = r ? be32(r) : 0xffffffffu;
		if (tag == TAG('c', 'm', 'a', 'p')) {
			free(b.p);
			return -1; /* it has one */
		}
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 0 && (added || tag < TAG('c', 'm', 'a', 'p')))
				continue; /* the cmap goes before the first tag after it */
			if (pass == 1 && !r)
				continue;
			size_t at = b.n;
			if (pass == 0) {
				sfnt_cmap_table(cps, gids, k, &b);
				added = 1;
			} else {
				uint32_t to = be32(r + 8), tl = be32(r + 12);
				if (to > n || tl > n - to) {
					free(b.p);
					return -1;
				}
				memcpy(sfnt_bb_grow(&b, tl), p + to, tl);
				if (tag == TAG('h', 'e', 'a', 'd') && tl >= 12) {
					head_at = at;
					put32(b.p + at + 8, 0);
				}
			}
			size_t len = b.n - at;
			memset(sfnt_bb_grow(&b, (4 - len % 4) % 4), 0, (4 - len % 4) % 4);
			unsigned char *e = b.p + dir;
			put32(e, pass == 0 ? TAG('c', 'm', 'a', 'p') : tag);
			put32(e + 4, sfnt_sum(b.p + at, (len + 3) & ~(size_t)3));
			put32(e + 8, (uint32_t)at);
			put32(e + 12, (uint32_t)len);
			dir += 16;
		}
	}
	if (head_at)
		put32(b.p + head_at + 8, 0xB1B0AFBAu - sfnt_sum(b.p, b.n));
	*out = b.p;
	*outlen = b.n;
	return 0;
}

/* ---- HarfBuzz's cmap and hmtx, read by pieces ---- */

/* HarfBuzz 6's order (hb-ot-cmap-table.hh, find_best_subtable): a (3,0)
 * symbol subtable first (not followed here), then these. */
static const unsigned hb_cmap_order[][2] = {{3, 10}, {0, 6}, {0, 4}, {3, 1}, {0, 3},
                                            {0, 2}, {0, 1}, {0, 0}};

int sfnt_hb_cmap(sfnt_file_t *src, int index, sfnt_hb_t *h)
{
	int ok;
	uint32_t dir = sfnt_file_dir(src, index, &ok);
	const unsigned char *p = src->p;
	memset(h, 0, sizeof(*h));
	h->src = src;
	if (!ok)
		return -1;
	uint32_t co = 0, cl = 0, ho = 0, hl = 0, hhea = 0, maxp = 0, head = 0;
	uint32_t go = 0, gl = 0, lo = 0, ll = 0;
	int other = 0; /* outlines or colour glyphs HarfBuzz's ink boxes read first */
	unsigned nt = be16(p + dir + 4);
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *r = p + dir + 12 + 16 * (size_t)i;
		uint32_t tag = be32(r), o = be32(r + 8), l = be32(r + 12);
		if ((uint64_t)o + l > src->n)
			continue;
		if (tag == TAG('f', 'v', 'a', 'r') || tag == TAG('H', 'V', 'A', 'R'))
			return -1; /* variations: HarfBuzz's own reading */
		if (tag == TAG('c', 'm', 'a', 'p') && !cl)
			co = o, cl = l;
		else if (tag == TAG('h', 'm', 't', 'x') && !hl)
			ho = o, hl = l;
		else if (tag == TAG('h', 'h', 'e', 'a') && l >= 36 && !hhea)
			hhea = o;
		else if (tag == TAG('m', 'a', 'x', 'p') && l >= 6 && !maxp)
			maxp = o;
		else if (tag == TAG('h', 'e', 'a', 'd') && l >= 54 && !head)
			head = o;
		else if (tag == TAG('g', 'l', 'y', 'f') && !gl)
			go = o, gl = l;
		else if (tag == TAG('l', 'o', 'c', 'a') && !ll)
			lo = o, ll = l;
		else if (tag == TAG('C', 'F', 'F', ' ') || tag == TAG('C', 'F', 'F', '2') ||
		         tag == TAG('s', 'b', 'i', 'x') || tag == TAG('C', 'B', 'D', 'T') ||
		         tag == TAG('C', 'B', 'L', 'C') || tag == TAG('C', 'O', 'L', 'R') ||
		         tag == TAG('S', 'V', 'G', ' ') || tag == TAG('g', 'v', 'a', 'r'))
			other = 1;
	}
	if (cl < 4 || !hhea || !maxp)
		return -1;
	sfnt_need(src, p + hhea, 36);
	sfnt_need(src, p + maxp, 6);
	h->nglyphs = be16(p + maxp + 4);
	h->nmetrics = be16(p + hhea + 34);
	/* the values sfnt_check sees to; else HarfBuzz's fallbacks */
	if (!h->nglyphs || !h->nmetrics || h->nmetrics > h->nglyphs ||
	    hl < 4 * h->nmetrics + 2 * (h->nglyphs - h->nmetrics))
		return -1;
	if (head && gl && ll && !other) {
		sfnt_need(src, p + head, 54);
		unsigned locfmt = be16(p + head + 50), datafmt = be16(p + head + 52);
		unsigned k = ll / (locfmt ? 4 : 2);
		if (locfmt <= 1 && datafmt == 0) {
			h->glyf = p + go;
			h->glyflen = gl;
			h->loca = p + lo;
			h->shortloca = locfmt == 0;
			h->ninked = (k > 1 ? k : 1) - 1;
			if (h->ninked > h->nglyphs)
				h->ninked = h->nglyphs;
		}
	}
	h->hmtx = p + ho;
	if (hl <= 65536) { /* a few pages, most touched anyway: read at once */
		sfnt_need(src, h->hmtx, hl);
		h->dense = 1;
	}
	const unsigned char *t = p + co;
	sfnt_need(src, t, 4);
	unsigned n = be16(t + 2);
	if (be16(t) != 0 || 4 + 8 * (uint64_t)n > cl)
		return -1;
	sfnt_need(src, t + 4, 8 * (size_t)n);
	for (unsigned i = 0; i < n; i++)
		if (be16(t + 4 + 8 * i) == 3 && be16(t + 6 + 8 * i) == 0)
			return -1;
	for (size_t k = 0; k < sizeof(hb_cmap_order) / sizeof(hb_cmap_order[0]); k++)
		for (unsigned i = 0; i < n; i++) {
			const unsigned char *r = t + 4 + 8 * i;
			if (be16(r) != hb_cmap_order[k][0] || be16(r + 2) != hb_cmap_order[k][1])
				continue;
			uint32_t o = be32(r + 4);
			if ((uint64_t)o + 16 > cl)
				return -1;
			sfnt_need(src, t + o, 16);
			unsigned fmt = be16(t + o);
			uint64_t sl = fmt == 12 ? be32(t + o + 4) : be16(t + o + 2);
			if ((fmt != 12 && fmt != 4) || o + sl > cl ||
			    (fmt == 12 && 16 + 12 * (uint64_t)be32(t + o + 12) > sl) ||
			    (fmt == 4 && 16 + 4 * (uint64_t)be16(t + o + 6) > sl))
				return -1;
			h->cmap = t + o;
			h->cmaplen = (uint32_t)sl;
			h->cmapfmt = (int)fmt;
			return 0;
		}
	return -1;
}

unsigned sfnt_hb_glyph(sfnt_hb_t *h, uint32_t cp)
{
	uint64_t *c = &h->cache[cp % 256];
	if (*c >> 16 == (uint64_t)cp + 1)
		return (unsigned)(*c & 0xffff);
	unsigned g = h->cmapfmt == 12 ? gid12(h->src, h->cmap, h->cmaplen, cp)
	             : cp <= 0xffff ? gid4(h->src, h->cmap, h->cmaplen, cp, &h->seg4) : 0;
	*c = ((uint64_t)cp + 1) << 16 | (g & 0xffff);
	return g;
}

unsigned sfnt_hb_advance_read(const sfnt_hb_t *h, unsigned g)
{
	const unsigned char *r = h->hmtx + 4 * (size_t)(g < h->nmetrics ? g : h->nmetrics - 1);
	sfnt_need(h->src, r, 2);
	return be16(r);
}

int sfnt_hb_extents(const sfnt_hb_t *h, unsigned g, int32_t e[4])
{
	memset(e, 0, 4 * sizeof(*e));
	if (!h->glyf)
		return -1;
	if (g >= h->ninked)
		return 0;
	const unsigned char *l = h->loca + (h->shortloca ? 2 : 4) * (size_t)g;
	sfnt_need(h->src, l, h->shortloca ? 4 : 8);
	uint32_t a = h->shortloca ? 2 * be16(l) : be32(l);
	uint32_t b = h->shortloca ? 2 * be16(l + 2) : be32(l + 4);
	if (a > b || b > h->glyflen || b - a < 10)
		return 1; /* an empty glyph: no ink */
	const unsigned char *d = h->glyf + a;
	sfnt_need(h->src, d, 10);
	if (be16(d) == 0)
		return 1;
	int x0 = s16(d + 2), y0 = s16(d + 4), x1 = s16(d + 6), y1 = s16(d + 8);
	int xmin = x0 < x1 ? x0 : x1, xmax = x0 < x1 ? x1 : x0;
	int ymin = y0 < y1 ? y0 : y1, ymax = y0 < y1 ? y1 : y0;
	/* HarfBuzz's x bearing is the left side bearing (hmtx) */
	const unsigned char *sb = g < h->nmetrics ? h->hmtx + 4 * (size_t)g + 2
	                          : h->hmtx + 4 * (size_t)h->nmetrics + 2 * (size_t)(g - h->nmetrics);
	sfnt_need(h->src, sb, 2);
	e[0] = s16(sb);
	e[1] = ymax;
	e[2] = xmax - xmin;
	e[3] = ymin - ymax;
	return 1;
}
