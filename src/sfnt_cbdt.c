/* sfnt_cbdt: colour bitmap glyphs (the CBLC index and CBDT data of
 * OpenType, as Noto Color Emoji has them): a glyph's PNG image and its
 * metrics, and those tables cut to a subset's glyphs.
 *
 * CBLC lists strikes (one size of bitmaps each); a strike has index
 * subtables for ranges of glyphs, which give each glyph's offset into
 * CBDT (formats 1, 3: an offset per glyph; 4: sparse pairs); an image is
 * format 17 (small metrics, PNG) or 18 (big metrics, PNG). Other
 * formats (monochrome and grey bitmaps, shared metrics) read as no
 * image. The strike used is the one of the most pixels per em.
 */
#include <stdlib.h>
#include <string.h>
#include "sfnt_int.h"

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* f's bytes [off, off + len) of table k, read; NULL when outside it. */
static const unsigned char *tab(const sfnt_t *f, int k, uint64_t off, uint64_t len)
{
	if (off + len > f->len[k])
		return NULL;
	const unsigned char *p = f->p + f->off[k] + off;
	sfnt_need(f->src, p, (size_t)len);
	return p;
}

/* The strike of the most pixels per em: its BitmapSize record's offset. */
static int best_strike(const sfnt_t *f, uint32_t *at)
{
	const unsigned char *h = tab(f, T_CBLC, 0, 8);
	if (!h)
		return -1;
	uint32_t ns = be32(h + 4);
	int best = -1;
	for (uint32_t i = 0; i < ns && i < 256; i++) {
		const unsigned char *s = tab(f, T_CBLC, 8 + 48 * (uint64_t)i, 48);
		if (!s)
			return -1;
		if (best < 0 || s[45] > best) {
			best = s[45];
			*at = 8 + 48 * i;
		}
	}
	return best < 0 ? -1 : 0;
}

int sfnt_cbdt_glyph(const sfnt_t *f, unsigned g, sfnt_bitmap_t *b)
{
	memset(b, 0, sizeof(*b));
	uint32_t at;
	if (best_strike(f, &at))
		return -1;
	const unsigned char *s = tab(f, T_CBLC, at, 48);
	uint32_t arr = be32(s), nsub = be32(s + 8);
	b->ppem = s[45];
	if (b->ppem == 0)
		return -1;
	if (g < be16(s + 40) || g > be16(s + 42))
		return 0;
	for (uint32_t i = 0; i < nsub && i < 65536; i++) {
		const unsigned char *e = tab(f, T_CBLC, (uint64_t)arr + 8 * i, 8);
		if (!e)
			return -1;
		unsigned first = be16(e), last = be16(e + 2);
		if (g < first || g > last)
			continue;
		uint64_t sub = (uint64_t)arr + be32(e + 4);
		const unsigned char *h = tab(f, T_CBLC, sub, 8);
		if (!h)
			return -1;
		unsigned ifmt = be16(h), imfmt = be16(h + 2);
		uint64_t data = be32(h + 4), o0, o1;
		const unsigned char *q;
		if (ifmt == 1 || ifmt == 3) {
			unsigned sz = ifmt == 1 ? 4 : 2;
			if (!(q = tab(f, T_CBLC, sub + 8 + (uint64_t)sz * (g - first), 2 * sz)))
				return -1;
			o0 = sz == 4 ? be32(q) : be16(q);
			o1 = sz == 4 ? be32(q + 4) : be16(q + 2);
		} else if (ifmt == 4) {
			if (!(q = tab(f, T_CBLC, sub + 8, 4)))
				return -1;
			uint32_t ng = be32(q), k;
			for (k = 0; k < ng; k++) {
				if (!(q = tab(f, T_CBLC, sub + 12 + 4 * (uint64_t)k, 8)))
					return -1;
				if (be16(q) == g)
					break;
			}
			if (k == ng)
				return 0;
			o0 = be16(q + 2);
			o1 = be16(q + 6);
		} else {
			return 0;   /* shared metrics: not a colour emoji font's */
		}
		if (o1 <= o0)
			return 0;   /* no image */
		uint64_t len = o1 - o0, off = data + o0;
		unsigned mlen = imfmt == 17 ? 5 : imfmt == 18 ? 8 : 0;
		if (!mlen || len < mlen + 4)
			return 0;
		const unsigned char *d = tab(f, T_CBDT, off, mlen + 4);
		if (!d)
			return -1;
		uint32_t n = be32(d + mlen);
		if (n > len - mlen - 4 || !tab(f, T_CBDT, off + mlen + 4, n))
			return -1;
		b->h = d[0];
		b->w = d[1];
		b->bx = (signed char)d[2];
		b->by = (signed char)d[3];
		b->png = d + mlen + 4;
		b->len = n;
		return 0;
	}
	return 0;
}

void sfnt_cbdt_subset(const sfnt_t *f, const uint16_t *ids, unsigned n, bbuf_t *cblc,
                      bbuf_t *cbdt)
{
	uint32_t at = 0;
	int ok = best_strike(f, &at) == 0;
	const unsigned char *s = ok ? tab(f, T_CBLC, at, 48) : NULL;
	unsigned char *h = sfnt_bb_grow(cbdt, 4);
	put32(h, 0x00030000);
	size_t hdr = cblc->n;
	unsigned last = n > 1 ? n - 1 : 1;
	/* header, one BitmapSize, one IndexSubTableArray entry, one format 1
	   subtable of glyphs 1..last */
	size_t sz = 8 + 48 + 8 + 8 + 4 * (size_t)(last + 1);
	unsigned char *c = sfnt_bb_grow(cblc, sz);
	memset(c, 0, sz);
	put32(c, 0x00030000);
	put32(c + 4, 1);
	unsigned char *bs = c + 8;
	if (s)
		memcpy(bs, s, 48);
	put32(bs, 56);                  /* indexSubTableArrayOffset */
	put32(bs + 4, 8 + 8 + 4 * (last + 1));
	put32(bs + 8, 1);
	put32(bs + 12, 0);
	put16(bs + 40, 1);
	put16(bs + 42, last);
	if (!s) {
		bs[44] = bs[45] = 1;
		bs[46] = 32;
	}
	unsigned char *a = c + 56;
	put16(a, 1);
	put16(a + 2, last);
	put32(a + 4, 8);
	unsigned char *st = a + 8;
	put16(st, 1);
	put16(st + 2, 17);
	put32(st + 4, 4);               /* the images start after CBDT's header */
	uint32_t off = 0;
	for (unsigned i = 1; i <= last; i++) {
		sfnt_bitmap_t b;
		put32(cblc->p + hdr + 72 + 4 * (i - 1), off);
		if (i >= n || sfnt_cbdt_glyph(f, ids[i], &b) || !b.len || b.w > 255 || b.h > 255 ||
		    b.bx < -128 || b.bx > 127 || b.by < -128 || b.by > 127)
			continue;
		unsigned char *o = sfnt_bb_grow(cbdt, 9 + (size_t)b.len);
		o[0] = (unsigned char)b.h;
		o[1] = (unsigned char)b.w;
		o[2] = (unsigned char)(signed char)b.bx;
		o[3] = (unsigned char)(signed char)b.by;
		o[4] = (unsigned char)b.w;
		put32(o + 5, b.len);
		memcpy(o + 9, b.png, b.len);
		off += 9 + b.len;
	}
	put32(cblc->p + hdr + 72 + 4 * last, off);
}
