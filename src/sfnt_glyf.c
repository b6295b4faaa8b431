/* sfnt_glyf: the subset of a document's code points, cut from the font
 * file without any library (see include/sfnt.h, sfnt_subset).
 *
 * It makes what hb-subset made before it (with its no-hinting flag), so
 * the PDF draws the same: the glyphs of the code points and glyph ids
 * asked for, renumbered in the order of their ids (.notdef stays 0 and
 * draws nothing); a cmap (3,1) format 4 of the code points kept (and a
 * (3,10) format 12 of them all when some are past the BMP); hmtx
 * with the run of equal advances at its end folded into the last long
 * metric; post format 3 (no glyph names); OS/2 and name copied; the other
 * tables (the layout tables among them) left out. TrueType: the
 * components of composite glyphs added, glyph instructions and the
 * hinting tables (cvt, fpgm, prep) dropped, maxp's hinting fields
 * cleared. CFF: a CID-keyed CFF table with the charstrings flattened and
 * unhinted (sfnt_cff_subset; as they are, with the subroutines, when one
 * uses seac or arithmetic). The PDF writer cuts its program from this
 * subset (sfnt_program), reading the cmap, name, OS/2 and post.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "arena.h"
#include "sfnt.h"
#include "sfnt_int.h"

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

/* The glyphs kept: a set (bits) and a list (ids, in the order found). */
typedef struct gset {
	uint8_t *bits;
	uint16_t *id;
	unsigned n, cap;
} gset_t;

static void gs_add(gset_t *s, unsigned g)
{
	if (s->bits[g >> 3] >> (g & 7) & 1)
		return;
	s->bits[g >> 3] |= (uint8_t)(1u << (g & 7));
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->id = xrealloc(s->id, s->cap * sizeof(*s->id));
	}
	s->id[s->n++] = (uint16_t)g;
}

/* Composite glyph records: flags, glyph id, arguments, transform. */
enum { CG_WORDS = 0x1, CG_SCALE = 0x8, CG_MORE = 0x20, CG_XY_SCALE = 0x40, CG_2X2 = 0x80,
       CG_INSTR = 0x100 };

/* The size of the composite record at d[at..len), 0 when it does not fit. */
static uint32_t cg_size(const unsigned char *d, uint32_t at, uint32_t len)
{
	if (at + 4 > len)
		return 0;
	unsigned fl = be16(d + at);
	uint32_t sz = 4 + (fl & CG_WORDS ? 4 : 2) +
	              (fl & CG_SCALE ? 2 : fl & CG_XY_SCALE ? 4 : fl & CG_2X2 ? 8 : 0);
	return at + sz <= len ? sz : 0;
}

/* Is d[0..len) a composite glyph (negative numberOfContours)? */
static int is_composite(const unsigned char *d, uint32_t len)
{
	return len >= 10 && (d[0] & 0x80);
}

/* Add the components of every glyph in s, and theirs (the list grows
 * while it is walked). */
static void gs_closure(const sfnt_t *f, gset_t *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		uint32_t len, at = 10, sz;
		const unsigned char *d = sfnt_glyph_data(f, s->id[i], &len);
		if (!d || !is_composite(d, len))
			continue;
		while ((sz = cg_size(d, at, len)) != 0) {
			unsigned fl = be16(d + at), c = be16(d + at + 2);
			if (c < f->nglyphs)
				gs_add(s, c);
			at += sz;
			if (!(fl & CG_MORE))
				break;
		}
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The new id of original glyph g (kept: s->id sorted), or -1. */
static int new_id(const gset_t *s, unsigned g)
{
	unsigned lo = 0, hi = s->n;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (s->id[mid] < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->id[lo] == g ? (int)lo : -1;
}

/* The bytes of a point's x and y by its flags (& 0x36): x short (2), y
 * short (4), x same or positive (16), y same or positive (32). */
#define CB(f) (((f) & 2 ? 1 : (f) & 16 ? 0 : 2) + ((f) & 4 ? 1 : (f) & 32 ? 0 : 2))
#define CB4(f) CB(f), CB((f) + 1), CB((f) + 2), CB((f) + 3)
#define CB16(f) CB4(f), CB4((f) + 4), CB4((f) + 8), CB4((f) + 12)
static const uint8_t coord_bytes[64] = {CB16(0), CB16(16), CB16(32), CB16(48)};

/* The length of simple glyph d[0..len) without the padding after its
 * coordinates; 0 when its flags do not add up to its points. */
static uint32_t simple_len(const unsigned char *d, uint32_t len)
{
	uint32_t nc = be16(d), at = 10 + 2 * nc;
	if (at + 2 >= len)
		return 0;
	uint32_t npts = be16(d + at - 2) + 1u, seen = 0, coords = 0;
	at += 2 + be16(d + at);
	while (at < len && seen < npts) {
		unsigned fl = d[at++], rep = 1;
		if (fl & 8) {
			if (at >= len)
				return 0;
			rep = d[at++] + 1u;
		}
		coords += coord_bytes[fl & 0x36] * rep;
		seen += rep;
	}
	if (seen != npts)
		return 0;
	return at + coords <= len ? at + coords : len;
}

/* Glyph g (original id) without its instructions, its components' ids
 * made new, into b. */
static void put_glyph(const sfnt_t *f, const gset_t *s, unsigned g, bbuf_t *b)
{
	uint32_t len;
	const unsigned char *d = sfnt_glyph_data(f, g, &len);
	if (!d || len < 10 || (d[0] == 0 && d[1] == 0))
		return; /* empty */
	if (!is_composite(d, len)) {
		uint32_t n = simple_len(d, len);
		if (!n)
			return;
		uint32_t ilen_at = 10 + 2 * (uint32_t)be16(d), flags = ilen_at + 2 + be16(d + ilen_at);
		unsigned char *o = sfnt_bb_grow(b, ilen_at + 2 + (n - flags));
		memcpy(o, d, ilen_at);
		put16(o + ilen_at, 0);
		memcpy(o + ilen_at + 2, d + flags, n - flags);
		return;
	}
	/* the bytes after the last record are its instructions when it says
	   so (dropped), else padding (kept) */
	uint32_t at = 10, sz, last = 0, end = len;
	while ((sz = cg_size(d, at, len)) != 0) {
		last = at;
		at += sz;
		if (!(be16(d + last) & CG_MORE))
			break;
	}
	if (at > 10 && be16(d + last) & CG_INSTR)
		end = at;
	unsigned char *o = sfnt_bb_grow(b, end);
	memcpy(o, d, end);
	at = 10;
	while ((sz = cg_size(o, at, end)) != 0) {
		unsigned fl = be16(o + at);
		int c = new_id(s, be16(o + at + 2));
		put16(o + at, fl & ~(unsigned)CG_INSTR);
		if (c >= 0)
			put16(o + at + 2, (unsigned)c);
		at += sz;
		if (!(fl & CG_MORE))
			break;
	}
}

/* glyf, and the offsets of its glyphs (n + 1, each glyph padded to 2
 * bytes) into loca; 1 when they need the long loca format. When every
 * glyph is empty, .notdef is sfnt_empty_glyph (glyf is never empty). */
static int put_glyf(const sfnt_t *f, const gset_t *s, bbuf_t *b, uint32_t *loca)
{
	size_t at = b->n;
	for (unsigned i = 0; i < s->n; i++) {
		loca[i] = (uint32_t)(b->n - at);
		if (i > 0) /* .notdef draws nothing */
			put_glyph(f, s, s->id[i], b);
		if ((b->n - at) & 1)
			*sfnt_bb_grow(b, 1) = 0;
	}
	if (b->n == at) { /* every glyph empty: .notdef is a record */
		memcpy(sfnt_bb_grow(b, SFNT_EMPTY_GLYPH_LEN), sfnt_empty_glyph, SFNT_EMPTY_GLYPH_LEN);
		for (unsigned i = 1; i < s->n; i++)
			loca[i] = SFNT_EMPTY_GLYPH_LEN;
	}
	loca[s->n] = (uint32_t)(b->n - at);
	return loca[s->n] > 0x1FFFE;
}

static void put_loca(const uint32_t *loca, unsigned n, int lng, bbuf_t *b)
{
	unsigned char *o = sfnt_bb_grow(b, (n + 1) * (lng ? 4u : 2u));
	for (unsigned i = 0; i <= n; i++)
		if (lng)
			put32(o + 4 * i, loca[i]);
		else
			put16(o + 2 * i, loca[i] / 2);
}

/* Advance and left side bearing of original glyph g. */
static void metric(const sfnt_t *f, unsigned g, unsigned *adv, unsigned *lsb)
{
	const unsigned char *h = f->p + f->off[T_HMTX];
	unsigned m = g < f->nmetrics ? g : f->nmetrics - 1;
	sfnt_need(f->src, h + 4 * m, 2);
	sfnt_need(f->src, g < f->nmetrics ? h + 4 * g + 2 : h + 4 * f->nmetrics + 2 * (g - f->nmetrics), 2);
	*adv = be16(h + 4 * m);
	/* sfnt_check saw hmtx hold every glyph's bearing */
	*lsb = g < f->nmetrics ? be16(h + 4 * g + 2) : be16(h + 4 * f->nmetrics + 2 * (g - f->nmetrics));
}

/* hmtx; its number of long metrics (the last ones of equal advance are
 * folded into one) into *nlong. */
static void put_hmtx(const sfnt_t *f, const gset_t *s, bbuf_t *b, unsigned *nlong)
{
	unsigned n = s->n, adv, lsb, last;
	metric(f, s->id[n - 1], &last, &lsb);
	unsigned nl = n;
	while (nl > 1 && (metric(f, s->id[nl - 2], &adv, &lsb), adv == last))
		nl--;
	unsigned char *o = sfnt_bb_grow(b, 4 * (size_t)nl + 2 * (size_t)(n - nl));
	for (unsigned i = 0; i < n; i++) {
		metric(f, s->id[i], &adv, &lsb);
		if (i < nl) {
			put16(o, adv);
			put16(o + 2, lsb);
			o += 4;
		} else {
			put16(o, lsb);
			o += 2;
		}
	}
	*nlong = nl;
}

/* The cmap: the code points asked for that have a glyph (u[0..k),
 * ascending, their glyphs ug[]). */
static void put_cmap(const gset_t *s, const uint32_t *u, const unsigned *ug, int k, bbuf_t *b)
{
	uint32_t *cp = xmalloc(sizeof(*cp) * (size_t)(k ? k : 1));
	unsigned *g = xmalloc(sizeof(*g) * (size_t)(k ? k : 1));
	int m = 0;
	for (int i = 0; i < k; i++)
		if (ug[i]) {
			cp[m] = u[i];
			g[m++] = (unsigned)new_id(s, ug[i]);
		}
	sfnt_cmap_table(cp, g, m, b);
	free(cp);
	free(g);
}

static void put_copy(const sfnt_t *f, int k, uint32_t max, bbuf_t *b)
{
	uint32_t n = f->len[k] < max ? f->len[k] : max;
	sfnt_need(f->src, f->p + f->off[k], n);
	memcpy(sfnt_bb_grow(b, n), f->p + f->off[k], n);
}

/* The tables of the subset, in tag order. */
enum { S_CBDT, S_CBLC, S_CFF, S_OS2, S_CMAP, S_GLYF, S_HEAD, S_HHEA, S_HMTX, S_LOCA, S_MAXP,
       S_NAME, S_POST, S_N };
static const char s_tags[S_N][5] = {"CBDT", "CBLC", "CFF ", "OS/2", "cmap", "glyf", "head",
                                    "hhea", "hmtx", "loca", "maxp", "name", "post"};
static const int s_from[S_N] = {T_CBDT, T_CBLC, T_CFF, T_OS2, T_CMAP, T_GLYF, T_HEAD, T_HHEA,
                                T_HMTX, T_LOCA, T_MAXP, T_NAME, T_POST};

typedef struct subset {
	const sfnt_t *f;
	const gset_t *s;
	const uint32_t *u;      /* the code points, ascending, BMP, once each */
	const unsigned *ug;     /* their glyphs (0: none) */
	int nu;
	const bbuf_t *cff;      /* the CFF table (CFF outlines), or NULL */
	const bbuf_t *cblc, *cbdt;  /* colour bitmaps (no outlines), or NULL */
	uint32_t *loca;
	int lng;                /* long loca */
	unsigned nlong;         /* hhea.numberOfHMetrics */
	size_t head;            /* where head is in the output */
} subset_t;

/* Table k of the subset at the end of b. */
static void put_table(subset_t *u, int k, bbuf_t *b)
{
	const sfnt_t *f = u->f;
	size_t at = b->n;
	switch (k) {
	case S_CFF:
		memcpy(sfnt_bb_grow(b, u->cff->n), u->cff->p, u->cff->n);
		break;
	case S_CBLC:
	case S_CBDT: {
		const bbuf_t *t = k == S_CBLC ? u->cblc : u->cbdt;
		memcpy(sfnt_bb_grow(b, t->n), t->p, t->n);
		break;
	}
	case S_OS2:
	case S_NAME:
		put_copy(f, s_from[k], f->len[s_from[k]], b);
		break;
	case S_CMAP:
		put_cmap(u->s, u->u, u->ug, u->nu, b);
		break;
	case S_GLYF:
		u->lng = put_glyf(f, u->s, b, u->loca);
		break;
	case S_HEAD:
		u->head = at;
		put_copy(f, T_HEAD, 54, b);
		put32(b->p + at + 8, 0);         /* checkSumAdjustment, set last */
		put16(b->p + at + 50, (unsigned)u->lng); /* indexToLocFormat */
		break;
	case S_HHEA:
		put_copy(f, T_HHEA, 36, b);
		put16(b->p + at + 34, u->nlong);
		break;
	case S_HMTX:
		put_hmtx(f, u->s, b, &u->nlong);
		break;
	case S_LOCA:
		put_loca(u->loca, u->s->n, u->lng, b);
		break;
	case S_MAXP:
		/* version 1.0: the hinting limits (zones, twilight points,
		   storage, function and instruction definitions, stack,
		   instructions) say no hinting */
		put_copy(f, T_MAXP, f->len[T_MAXP] >= 32 && be16(f->p + f->off[T_MAXP]) == 1 ? 32 : 6, b);
		put16(b->p + at + 4, u->s->n);
		if (b->n - at == 32) {
			memset(b->p + at + 14, 0, 14);
			put16(b->p + at + 14, 1);
		}
		break;
	case S_POST:
		put_copy(f, T_POST, 32, b);
		put32(b->p + at, 0x00030000);
		break;
	}
}

/* The directory and tables: hmtx (for numberOfHMetrics) and glyf (for
 * indexToLocFormat and loca) are written first, into their own buffers
 * whose bytes are copied in place. */
static void put_font(subset_t *u, bbuf_t *b)
{
	const sfnt_t *f = u->f;
	int have[S_N], nt = 0;
	for (int k = 0; k < S_N; k++) {
		int from = s_from[k];
		if (k == S_CBDT || k == S_CBLC)
			have[k] = u->cblc != NULL;
		else if (u->cblc && (k == S_CFF || k == S_GLYF || k == S_LOCA))
			have[k] = 0;
		else if (k == S_CFF || k == S_GLYF || k == S_LOCA)
			have[k] = (k == S_CFF) == (u->cff != NULL);
		else
			have[k] = k == S_CMAP || (from == T_POST ? f->len[from] >= 32 : f->len[from] > 0);
		nt += have[k];
	}
	bbuf_t glyf = {0}, hmtx = {0};
	if (!u->cff && !u->cblc)
		put_table(u, S_GLYF, &glyf);
	put_table(u, S_HMTX, &hmtx);
	unsigned es = 0;
	while ((2u << es) <= (unsigned)nt)
		es++;
	unsigned char *h = sfnt_bb_grow(b, 12 + 16 * (size_t)nt);
	if (u->cff)
		memcpy(h, "OTTO", 4);
	else
		put32(h, 0x00010000);
	put16(h + 4, (unsigned)nt);
	put16(h + 6, 16u << es);
	put16(h + 8, es);
	put16(h + 10, 16u * (unsigned)nt - (16u << es));
	size_t dir = 12;
	uint32_t sum = 0; /* of the whole font: its tables' and the directory's */
	for (int k = 0; k < S_N; k++) {
		if (!have[k])
			continue;
		size_t at = b->n;
		if (k == S_GLYF || k == S_HMTX) {
			const bbuf_t *t = k == S_GLYF ? &glyf : &hmtx;
			if (t->n) /* (memcpy from NULL is undefined) */
				memcpy(sfnt_bb_grow(b, t->n), t->p, t->n);
		} else {
			put_table(u, k, b);
		}
		sum += sfnt_table_end(b, dir, s_tags[k], at);
		dir += 16;
	}
	sum += sfnt_sum(b->p, dir);
	put32(b->p + u->head + 8, 0xB1B0AFBAu - sum);
	free(glyf.p);
	free(hmtx.p);
}

/* The code points cps[0..ncps), ascending, once each, into u; their
 * number. */
static int sorted_cps(const uint32_t *cps, int ncps, uint32_t *u)
{
	int k = 0, sorted = 1;
	for (int i = 0; i < ncps; i++)
		if (cps[i] <= 0x10ffff) {
			sorted &= !k || cps[i] > u[k - 1];
			u[k++] = cps[i];
		}
	if (sorted)
		return k; /* as layout_subset gives them */
	qsort(u, (size_t)k, sizeof(*u), cmp_u32);
	int m = 0;
	for (int i = 0; i < k; i++)
		if (!m || u[i] != u[m - 1])
			u[m++] = u[i];
	return m;
}

/* s->id made the ids of s->bits, ascending (the set is small: 64 ids
 * at a time). */
static void gs_sort(gset_t *s, unsigned nglyphs)
{
	unsigned k = 0;
	for (unsigned w = 0; w < (nglyphs + 63) / 64; w++) {
		uint64_t v;
		memcpy(&v, s->bits + 8 * w, 8);
		for (unsigned j = 0; v && j < 8; j++)
			for (unsigned c = s->bits[8 * w + j]; c; c &= c - 1)
				s->id[k++] = (uint16_t)(64 * w + 8 * j + (unsigned)__builtin_ctz(c));
	}
}

static int subset(const unsigned char *p, size_t n, sfnt_file_t *src, int index,
                  const uint32_t *cps, int ncps, const uint16_t *gids, int ngids,
                  uint16_t *newids, unsigned char **out, size_t *outlen, char *why, size_t whysz)
{
	sfnt_t *f = sfnt_open_face(p, n, src, index, why, whysz);
	if (!f)
		return -1;
	int bitmaps = !f->len[T_GLYF] && !f->len[T_CFF] && f->len[T_CBLC] && f->len[T_CBDT];
	if (!f->len[T_GLYF] && !bitmaps) {
		f->cff = sfnt_cff_open(p + f->off[T_CFF], f->len[T_CFF], f->nglyphs, 1, src, why,
		                       whysz);
		if (!f->cff) {
			sfnt_free(f);
			return -1;
		}
	}
	gset_t s = {0};
	s.bits = xcalloc((f->nglyphs + 63) / 64, 8);
	gs_add(&s, 0);
	uint32_t *u = xmalloc(sizeof(*u) * (size_t)(ncps ? ncps : 1));
	unsigned *ug = xmalloc(sizeof(*ug) * (size_t)(ncps ? ncps : 1));
	int nu = sorted_cps(cps, ncps, u);
	for (int i = 0; i < nu; i++)
		if ((ug[i] = sfnt_gid(f, u[i])) != 0)
			gs_add(&s, ug[i]);
	for (int i = 0; i < ngids; i++)
		if (gids[i] < f->nglyphs)
			gs_add(&s, gids[i]);
	if (!f->cff && !bitmaps)
		gs_closure(f, &s);
	gs_sort(&s, f->nglyphs);
	for (int i = 0; i < ngids; i++) {
		int g = gids[i] < f->nglyphs ? new_id(&s, gids[i]) : -1;
		newids[i] = g < 0 ? 0 : (uint16_t)g;
	}
	bbuf_t cff = {0}, b = {0}, cblc = {0}, cbdt = {0};
	if (bitmaps)
		sfnt_cbdt_subset(f, s.id, s.n, &cblc, &cbdt);
	int rc = f->cff && sfnt_cff_subset(f->cff, s.id, s.n, &cff) ? -1 : 0;
	if (rc)
		snprintf(why, whysz, "corrupt font: CFF table: a charstring lies outside the table");
	subset_t st = {f, &s, u, ug, nu, f->cff ? &cff : NULL, bitmaps ? &cblc : NULL,
	               bitmaps ? &cbdt : NULL, xmalloc(sizeof(uint32_t) * (s.n + 1)), 0, 0, 0};
	if (rc == 0)
		put_font(&st, &b);
	*out = b.p;
	*outlen = b.n;
	free(cff.p);
	free(cblc.p);
	free(cbdt.p);
	free(st.loca);
	free(u);
	free(ug);
	free(s.bits);
	free(s.id);
	sfnt_free(f);
	return rc;
}

int sfnt_subset(const unsigned char *p, size_t n, int index, const uint32_t *cps, int ncps,
                const uint16_t *gids, int ngids, uint16_t *newids, unsigned char **out,
                size_t *outlen, char *why, size_t whysz)
{
	return subset(p, n, NULL, index, cps, ncps, gids, ngids, newids, out, outlen, why, whysz);
}

int sfnt_subset_file(sfnt_file_t *src, int index, const uint32_t *cps, int ncps,
                     const uint16_t *gids, int ngids, uint16_t *newids, unsigned char **out,
                     size_t *outlen, char *why, size_t whysz)
{
	size_t n;
	const unsigned char *p = sfnt_file_bytes(src, &n);
	return subset(p, n, src, index, cps, ncps, gids, ngids, newids, out, outlen, why, whysz);
}
