/* sfnt_cff: the CFF table of an OpenType/CFF font, read and written back
 * as the CID-keyed CFF a PDF embeds (FontFile3 /Subtype /CIDFontType0C
 * under a CIDFontType0). See src/sfnt_int.h.
 *
 * The program written keeps the font's Name, Top DICT operators, strings,
 * global and local subroutines and font dicts as they are, and makes new
 * what depends on the glyph set: the charset is the identity (CID = glyph
 * id, so a PDF string's CIDs are the glyph ids, as for TrueType with
 * /CIDToGIDMap /Identity), the FDSelect and the CharStrings carry the
 * copies appended after the last glyph (a copy is how two code points that
 * share a glyph keep their own CIDs), and every offset is written as a
 * 5-byte integer so sizes are known before the offsets are. A name-keyed
 * font becomes CID-keyed: ROS Adobe-Identity-0 and one font dict holding
 * its Private DICT. Everything read is bounds-checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "sfnt_int.h"

enum { CFF_MAXOPS = 48, CFF_MAXFD = 256 };

/* Operators: 0-21, or 0x100 | b for the two-byte "12 b". */
enum {
	OP_CHARSET = 15, OP_ENCODING = 16, OP_CHARSTRINGS = 17, OP_PRIVATE = 18, OP_SUBRS = 19,
	OP_CSTYPE = 0x106, OP_SYNTHETIC = 0x114, OP_ROS = 0x11e, OP_CIDCOUNT = 0x122,
	OP_FDARRAY = 0x124, OP_FDSELECT = 0x125,
};

typedef struct cff_index {
	uint32_t at, end;       /* the INDEX's bytes in the table */
	unsigned count, osz;
	uint32_t data;          /* offset of its data, less 1 (offsets count from 1) */
} cff_index_t;

typedef struct cff_fd {
	uint32_t dict, dictlen; /* the Font DICT (CID-keyed fonts) */
	uint32_t priv, privlen; /* its Private DICT */
	uint32_t subrs, subrslen; /* the Private DICT's local Subrs INDEX (len 0: none) */
} cff_fd_t;

struct sfnt_cff {
	const unsigned char *p;
	size_t n;
	unsigned nglyphs;
	cff_index_t name, top, str, gsubr, cs, fda;
	uint32_t topd, toplen;  /* the Top DICT */
	int cid;                /* CID-keyed (has ROS) */
	unsigned nfd;
	cff_fd_t fd[CFF_MAXFD];
	uint8_t *fdsel;         /* font dict per glyph */
	unsigned sid_adobe, sid_identity; /* 0: not among the strings */
};

/* One DICT operator with its operands (integers; a real reads as 0). */
typedef struct cff_op {
	unsigned op;
	long v[CFF_MAXOPS];
	int nv;
	uint32_t start, end;    /* its bytes, operands included */
} cff_op_t;

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static uint32_t be_n(const unsigned char *p, unsigned n)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* The INDEX at offset at; with check, every offset is validated (else only
 * its extent, from the last offset). */
static int cff_index(const sfnt_cff_t *c, uint32_t at, cff_index_t *x, int check)
{
	memset(x, 0, sizeof(*x));
	x->at = at;
	if (at > c->n || c->n - at < 2)
		return -1;
	x->count = be16(c->p + at);
	if (x->count == 0) {
		x->end = at + 2;
		return 0;
	}
	if (c->n - at < 3)
		return -1;
	x->osz = c->p[at + 2];
	uint64_t offs = (uint64_t)at + 3, arr = ((uint64_t)x->count + 1) * x->osz;
	if (x->osz < 1 || x->osz > 4 || offs + arr > c->n)
		return -1;
	x->data = (uint32_t)(offs + arr - 1);
	uint32_t prev = 1;
	for (unsigned i = check ? 0 : x->count; i <= x->count; i++) {
		uint32_t o = be_n(c->p + offs + (size_t)i * x->osz, x->osz);
		if (o < prev || (i == 0 && o != 1) || (uint64_t)x->data + o > c->n)
			return -1;
		prev = o;
	}
	x->end = x->data + prev;
	return 0;
}

/* Item i of a checked INDEX. */
static const unsigned char *cff_item(const sfnt_cff_t *c, const cff_index_t *x, unsigned i,
                                     uint32_t *len)
{
	const unsigned char *o = c->p + x->at + 3 + (size_t)i * x->osz;
	uint32_t a = be_n(o, x->osz), b = be_n(o + x->osz, x->osz);
	*len = b - a;
	return c->p + x->data + a;
}

/* The next operator of the DICT bytes [*at, end): 1, or 0 at the end, -1
 * when corrupt. */
static int cff_dict_next(const sfnt_cff_t *c, uint32_t *at, uint32_t end, cff_op_t *op)
{
	const unsigned char *p = c->p;
	uint32_t i = *at;
	op->nv = 0;
	op->start = i;
	if (i >= end)
		return 0;
	while (i < end) {
		unsigned b = p[i];
		long v = 0;
		if (b <= 21) {
			if (b == 12 && i + 1 >= end)
				return -1;
			op->op = b == 12 ? 0x100u | p[i + 1] : b;
			i += b == 12 ? 2 : 1;
			op->end = *at = i;
			return 1;
		} else if (b == 28 && end - i >= 3) {
			v = (int16_t)be16(p + i + 1);
			i += 3;
		} else if (b == 29 && end - i >= 5) {
			v = (int32_t)be_n(p + i + 1, 4);
			i += 5;
		} else if (b == 30) {
			for (i++;; i++) {
				if (i >= end)
					return -1;
				if ((p[i] & 0xf) == 0xf || p[i] >> 4 == 0xf)
					break;
			}
			i++;
		} else if (b >= 32 && b <= 246) {
			v = (long)b - 139;
			i++;
		} else if (b >= 247 && b <= 254 && end - i >= 2) {
			long m = (long)(b & 3) * 256 + p[i + 1] + 108;
			v = b <= 250 ? m : -m;
			i += 2;
		} else {
			return -1;
		}
		if (op->nv == CFF_MAXOPS)
			return -1;
		op->v[op->nv++] = v;
	}
	return -1;
}

static int cff_fail(char *why, size_t whysz, const char *what)
{
	snprintf(why, whysz, "corrupt font: CFF table: %s", what);
	return -1;
}

/* The Top DICT's offsets. */
typedef struct cff_top {
	long charstrings, fdarray, fdselect, privlen, priv;
	int cid;
} cff_top_t;

static int cff_read_top(sfnt_cff_t *c, cff_top_t *t, char *why, size_t whysz)
{
	memset(t, 0, sizeof(*t));
	t->charstrings = t->fdarray = t->fdselect = t->priv = -1;
	cff_op_t op;
	uint32_t at = c->topd;
	int r;
	while ((r = cff_dict_next(c, &at, c->topd + c->toplen, &op)) > 0) {
		long v0 = op.nv > 0 ? op.v[0] : -1;
		if (op.op == OP_CHARSTRINGS)
			t->charstrings = v0;
		else if (op.op == OP_FDARRAY)
			t->fdarray = v0;
		else if (op.op == OP_FDSELECT)
			t->fdselect = v0;
		else if (op.op == OP_ROS)
			t->cid = 1;
		else if (op.op == OP_PRIVATE && op.nv == 2)
			t->privlen = op.v[0], t->priv = op.v[1];
		else if (op.op == OP_CSTYPE && v0 != 2)
			return snprintf(why, whysz, "CFF font with Type 1 charstrings (not supported)"), -1;
		else if (op.op == OP_SYNTHETIC)
			return snprintf(why, whysz, "synthetic CFF font (not supported)"), -1;
	}
	if (r < 0)
		return cff_fail(why, whysz, "bad Top DICT");
	if (t->charstrings < 0 || (uint64_t)t->charstrings >= c->n)
		return cff_fail(why, whysz, "no CharStrings");
	if (t->cid && (t->fdarray < 0 || t->fdselect < 0 || (uint64_t)t->fdselect >= c->n))
		return cff_fail(why, whysz, "CID-keyed font without FDArray or FDSelect");
	if (!t->cid && (t->priv < 0 || t->privlen < 0 || (uint64_t)t->priv + t->privlen > c->n))
		return cff_fail(why, whysz, "no Private DICT");
	return 0;
}

/* Header, Name, Top DICT, String and Global Subr INDEXes, and the Top DICT. */
static int cff_read_head(sfnt_cff_t *c, cff_top_t *t, int check, char *why, size_t whysz)
{
	if (c->n < 4 || c->p[0] != 1 || c->p[2] < 4 || c->p[2] > c->n)
		return cff_fail(why, whysz, "bad header");
	if (cff_index(c, c->p[2], &c->name, 1) || cff_index(c, c->name.end, &c->top, 1) ||
	    cff_index(c, c->top.end, &c->str, check) || cff_index(c, c->str.end, &c->gsubr, check))
		return cff_fail(why, whysz, "bad INDEX");
	if (c->name.count != 1 || c->top.count != 1)
		return cff_fail(why, whysz, "not a single font");
	const unsigned char *d = cff_item(c, &c->top, 0, &c->toplen);
	c->topd = (uint32_t)(d - c->p);
	if (cff_read_top(c, t, why, whysz))
		return -1;
	c->cid = t->cid;
	return 0;
}

int sfnt_cff_check(const unsigned char *p, size_t n, unsigned nglyphs, char *why, size_t whysz)
{
	sfnt_cff_t c;
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.n = n;
	cff_top_t t;
	if (cff_read_head(&c, &t, 0, why, whysz))
		return -1;
	if (be16(p + t.charstrings) != nglyphs)
		return cff_fail(why, whysz, "CharStrings count differs from maxp.numGlyphs");
	return 0;
}

/* The Private DICT at off (len bytes) and its local Subrs. */
static int cff_read_private(sfnt_cff_t *c, cff_fd_t *fd, long len, long off)
{
	if (len < 0 || off < 0 || (uint64_t)off + (uint64_t)len > c->n)
		return -1;
	fd->priv = (uint32_t)off;
	fd->privlen = (uint32_t)len;
	cff_op_t op;
	uint32_t at = fd->priv;
	int r;
	while ((r = cff_dict_next(c, &at, fd->priv + fd->privlen, &op)) > 0) {
		if (op.op != OP_SUBRS || op.nv != 1)
			continue;
		cff_index_t x;
		if (op.v[0] < 0 || (uint64_t)fd->priv + (uint64_t)op.v[0] > c->n ||
		    cff_index(c, fd->priv + (uint32_t)op.v[0], &x, 1))
			return -1;
		fd->subrs = x.at;
		fd->subrslen = x.end - x.at;
	}
	return r;
}

static int cff_read_fds(sfnt_cff_t *c, const cff_top_t *t)
{
	if (!c->cid) {
		c->nfd = 1;
		return cff_read_private(c, &c->fd[0], t->privlen, t->priv);
	}
	if ((uint64_t)t->fdarray >= c->n || cff_index(c, (uint32_t)t->fdarray, &c->fda, 1))
		return -1;
	c->nfd = c->fda.count;
	if (c->nfd < 1 || c->nfd > CFF_MAXFD)
		return -1;
	for (unsigned i = 0; i < c->nfd; i++) {
		cff_fd_t *fd = &c->fd[i];
		const unsigned char *d = cff_item(c, &c->fda, i, &fd->dictlen);
		fd->dict = (uint32_t)(d - c->p);
		cff_op_t op;
		uint32_t at = fd->dict;
		int r, have = 0;
		while ((r = cff_dict_next(c, &at, fd->dict + fd->dictlen, &op)) > 0)
			if (op.op == OP_PRIVATE && op.nv == 2) {
				if (cff_read_private(c, fd, op.v[0], op.v[1]))
					return -1;
				have = 1;
			}
		if (r < 0 || !have)
			return -1;
	}
	return 0;
}

/* FDSelect, format 0 or 3, into c->fdsel. */
static int cff_read_fdselect(sfnt_cff_t *c, uint32_t at)
{
	c->fdsel = xcalloc(c->nglyphs ? c->nglyphs : 1, 1);
	if (!c->cid)
		return 0;
	const unsigned char *p = c->p;
	if (at >= c->n)
		return -1;
	if (p[at] == 0) {
		if (c->n - at - 1 < c->nglyphs)
			return -1;
		for (unsigned g = 0; g < c->nglyphs; g++)
			if ((c->fdsel[g] = p[at + 1 + g]) >= c->nfd)
				return -1;
		return 0;
	}
	if (p[at] != 3 || c->n - at < 3)
		return -1;
	unsigned nr = be16(p + at + 1);
	if (nr == 0 || (uint64_t)at + 3 + 3 * (uint64_t)nr + 2 > c->n)
		return -1;
	const unsigned char *r = p + at + 3;
	if (be16(r) != 0 || be16(r + 3 * nr) != c->nglyphs)
		return -1;
	for (unsigned i = 0; i < nr; i++) {
		unsigned first = be16(r + 3 * i), next = be16(r + 3 * i + 3), fd = r[3 * i + 2];
		if (next < first || next > c->nglyphs || fd >= c->nfd)
			return -1;
		memset(c->fdsel + first, (int)fd, next - first);
	}
	return 0;
}

/* The SIDs of "Adobe" and "Identity" when the font has those strings. */
static void cff_find_strings(sfnt_cff_t *c)
{
	for (unsigned i = 0; i < c->str.count; i++) {
		uint32_t len;
		const unsigned char *s = cff_item(c, &c->str, i, &len);
		if (len == 5 && !memcmp(s, "Adobe", 5) && !c->sid_adobe)
			c->sid_adobe = 391 + i;
		if (len == 8 && !memcmp(s, "Identity", 8) && !c->sid_identity)
			c->sid_identity = 391 + i;
	}
}

sfnt_cff_t *sfnt_cff_open(const unsigned char *p, size_t n, unsigned nglyphs, char *why,
                          size_t whysz)
{
	sfnt_cff_t *c = xcalloc(1, sizeof(*c));
	c->p = p;
	c->n = n;
	c->nglyphs = nglyphs;
	cff_top_t t;
	if (cff_read_head(c, &t, 1, why, whysz)) {
		free(c);
		return NULL;
	}
	const char *bad = NULL;
	if (cff_index(c, (uint32_t)t.charstrings, &c->cs, 1))
		bad = "bad CharStrings INDEX";
	else if (c->cs.count != nglyphs)
		bad = "CharStrings count differs from maxp.numGlyphs";
	else if (cff_read_fds(c, &t))
		bad = "bad font dicts or Private DICT";
	else if (cff_read_fdselect(c, (uint32_t)t.fdselect))
		bad = "bad FDSelect";
	if (bad) {
		cff_fail(why, whysz, bad);
		sfnt_cff_free(c);
		return NULL;
	}
	cff_find_strings(c);
	return c;
}

void sfnt_cff_free(sfnt_cff_t *c)
{
	if (!c)
		return;
	free(c->fdsel);
	free(c);
}

/* ---- writing ---- */

static void put(bbuf_t *b, const void *p, size_t n)
{
	memcpy(sfnt_bb_grow(b, n), p, n);
}

static void put_op(bbuf_t *b, unsigned op)
{
	unsigned char o[2] = {12, (unsigned char)op};
	if (op >= 0x100)
		put(b, o, 2);
	else
		put(b, o + 1, 1);
}

/* An integer operand as 5 bytes (29 + 32 bits); its position in b. */
static size_t put_int5(bbuf_t *b, uint32_t v)
{
	size_t at = b->n;
	unsigned char *o = sfnt_bb_grow(b, 5);
	o[0] = 29;
	o[1] = (unsigned char)(v >> 24);
	o[2] = (unsigned char)(v >> 16);
	o[3] = (unsigned char)(v >> 8);
	o[4] = (unsigned char)v;
	return at;
}

static void patch_int5(bbuf_t *b, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b->p[at + 1 + i] = (unsigned char)(v >> (24 - 8 * i));
}

static void put_be(bbuf_t *b, uint32_t v, unsigned n)
{
	unsigned char *o = sfnt_bb_grow(b, n);
	for (unsigned i = 0; i < n; i++)
		o[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

/* Copy a DICT's operators but those in skip (0-terminated). */
static void put_dict_except(const sfnt_cff_t *c, uint32_t at, uint32_t len, const unsigned *skip,
                            bbuf_t *b)
{
	cff_op_t op;
	uint32_t end = at + len;
	while (cff_dict_next(c, &at, end, &op) > 0) {
		int drop = 0;
		for (const unsigned *s = skip; *s; s++)
			drop |= op.op == *s;
		if (!drop)
			put(b, c->p + op.start, op.end - op.start);
	}
}

/* An INDEX of n items given as pointers and lengths. */
static void put_index(bbuf_t *b, unsigned n, const unsigned char *const *item, const uint32_t *len)
{
	put_be(b, n, 2);
	if (n == 0)
		return;
	uint64_t total = 1;
	for (unsigned i = 0; i < n; i++)
		total += len[i];
	unsigned osz = total <= 0xff ? 1 : total <= 0xffff ? 2 : total <= 0xffffff ? 3 : 4;
	put_be(b, osz, 1);
	uint32_t o = 1;
	for (unsigned i = 0; i <= n; i++) {
		put_be(b, o, osz);
		if (i < n)
			o += len[i];
	}
	for (unsigned i = 0; i < n; i++)
		put(b, item[i], len[i]);
}

static void put_one_index(bbuf_t *b, const unsigned char *p, uint32_t len)
{
	put_index(b, 1, &p, &len);
}

/* The Top DICT: ROS first, the font's own operators, then CIDCount and the
 * offsets (positions of the 4 offsets into at[]: charset, CharStrings,
 * FDArray, FDSelect). */
static void put_top(const sfnt_cff_t *c, unsigned total, unsigned nstr, bbuf_t *d, size_t at[4])
{
	static const unsigned skip[] = {OP_ROS, OP_CHARSET, OP_ENCODING, OP_CHARSTRINGS, OP_PRIVATE,
	                                OP_CIDCOUNT, OP_FDARRAY, OP_FDSELECT, 0};
	unsigned extra = 391 + nstr;
	put_int5(d, c->sid_adobe ? c->sid_adobe : extra++);
	put_int5(d, c->sid_identity ? c->sid_identity : extra);
	put_int5(d, 0);
	put_op(d, OP_ROS);
	put_dict_except(c, c->topd, c->toplen, skip, d);
	put_int5(d, total);
	put_op(d, OP_CIDCOUNT);
	static const unsigned ops[4] = {OP_CHARSET, OP_CHARSTRINGS, OP_FDARRAY, OP_FDSELECT};
	for (int i = 0; i < 4; i++) {
		at[i] = put_int5(d, 0);
		put_op(d, ops[i]);
	}
}

/* The String INDEX, with "Adobe" and "Identity" added when missing. */
static void put_strings(const sfnt_cff_t *c, bbuf_t *b)
{
	unsigned n = c->str.count, k = n;
	const unsigned char **item = xmalloc((n + 2) * sizeof(*item));
	uint32_t *len = xmalloc((n + 2) * sizeof(*len));
	for (unsigned i = 0; i < n; i++)
		item[i] = cff_item(c, &c->str, i, &len[i]);
	if (!c->sid_adobe) {
		item[k] = (const unsigned char *)"Adobe";
		len[k++] = 5;
	}
	if (!c->sid_identity) {
		item[k] = (const unsigned char *)"Identity";
		len[k++] = 8;
	}
	put_index(b, k, item, len);
	free(item);
	free(len);
}

static unsigned src_glyph(unsigned g, unsigned nglyphs, const uint16_t *dup)
{
	return g < nglyphs ? g : dup[g - nglyphs];
}

/* charset (format 2: one range, CIDs 1..total-1) and FDSelect (format 3). */
static void put_charset_fdselect(const sfnt_cff_t *c, unsigned total, unsigned nglyphs,
                                 const uint16_t *dup, bbuf_t *b, uint32_t *fdselect)
{
	if (total > 1) {
		put_be(b, 2, 1);
		put_be(b, 1, 2);
		put_be(b, total - 2, 2);
	} else {
		put_be(b, 0, 1);
	}
	*fdselect = (uint32_t)b->n;
	put_be(b, 3, 1);
	size_t nr_at = b->n;
	put_be(b, 0, 2);
	unsigned nr = 0, last = 256;
	for (unsigned g = 0; g < total; g++) {
		unsigned fd = c->fdsel[src_glyph(g, nglyphs, dup)];
		if (fd != last) {
			put_be(b, g, 2);
			put_be(b, fd, 1);
			nr++;
			last = fd;
		}
	}
	put_be(b, total, 2);
	b->p[nr_at] = (unsigned char)(nr >> 8);
	b->p[nr_at + 1] = (unsigned char)nr;
}

static void put_charstrings(const sfnt_cff_t *c, unsigned total, unsigned nglyphs,
                            const uint16_t *dup, const uint8_t *keep, bbuf_t *b)
{
	static const unsigned char endchar[1] = {14};
	const unsigned char **item = xmalloc((total ? total : 1) * sizeof(*item));
	uint32_t *len = xmalloc((total ? total : 1) * sizeof(*len));
	for (unsigned g = 0; g < total; g++) {
		unsigned s = src_glyph(g, nglyphs, dup);
		if (keep[s]) {
			item[g] = cff_item(c, &c->cs, s, &len[g]);
		} else {
			item[g] = endchar;
			len[g] = 1;
		}
	}
	put_index(b, total, item, len);
	free(item);
	free(len);
}

/* The FDArray INDEX; the positions of each dict's Private offset and size
 * into priv_at[], priv_len_at[]. */
static void put_fdarray(const sfnt_cff_t *c, bbuf_t *b, size_t *priv_at, size_t *size_at)
{
	static const unsigned skip[] = {OP_PRIVATE, 0};
	bbuf_t d = {0};
	size_t *start = xmalloc(c->nfd * sizeof(size_t)), rel[2 * CFF_MAXFD];
	for (unsigned i = 0; i < c->nfd; i++) {
		start[i] = d.n;
		if (c->cid)
			put_dict_except(c, c->fd[i].dict, c->fd[i].dictlen, skip, &d);
		rel[2 * i] = put_int5(&d, 0);
		rel[2 * i + 1] = put_int5(&d, 0);
		put_op(&d, OP_PRIVATE);
	}
	const unsigned char **item = xmalloc(c->nfd * sizeof(*item));
	uint32_t *len = xmalloc(c->nfd * sizeof(*len));
	for (unsigned i = 0; i < c->nfd; i++) {
		item[i] = d.p + start[i];
		len[i] = (uint32_t)((i + 1 < c->nfd ? start[i + 1] : d.n) - start[i]);
	}
	put_index(b, c->nfd, item, len);
	size_t data = b->n - d.n; /* where the dicts' bytes begin in b */
	for (unsigned i = 0; i < c->nfd; i++) {
		size_at[i] = data + rel[2 * i];
		priv_at[i] = data + rel[2 * i + 1];
	}
	free(item);
	free(len);
	free(start);
	free(d.p);
}

/* Each font dict's Private DICT (Subrs pointing just past it) and local
 * Subrs; their offsets and sizes patched into the FDArray. */
static void put_privates(const sfnt_cff_t *c, bbuf_t *b, const size_t *priv_at,
                         const size_t *size_at)
{
	static const unsigned skip[] = {OP_SUBRS, 0};
	for (unsigned i = 0; i < c->nfd; i++) {
		const cff_fd_t *fd = &c->fd[i];
		size_t at = b->n;
		put_dict_except(c, fd->priv, fd->privlen, skip, b);
		if (fd->subrslen) {
			size_t len = b->n - at + 6;
			put_int5(b, (uint32_t)len);
			put_op(b, OP_SUBRS);
		}
		patch_int5(b, priv_at[i], (uint32_t)at);
		patch_int5(b, size_at[i], (uint32_t)(b->n - at));
		if (fd->subrslen)
			put(b, c->p + fd->subrs, fd->subrslen);
	}
}

void sfnt_cff_write(const sfnt_cff_t *c, unsigned total, unsigned nglyphs, const uint16_t *dup,
                    const uint8_t *keep, bbuf_t *b)
{
	static const unsigned char header[4] = {1, 0, 4, 4};
	b->n = 0;
	put(b, header, 4);
	put(b, c->p + c->name.at, c->name.end - c->name.at);
	bbuf_t top = {0};
	size_t off_at[4];
	put_top(c, total, c->str.count, &top, off_at);
	put_one_index(b, top.p, (uint32_t)top.n);
	size_t top_at = b->n - top.n;
	free(top.p);
	put_strings(c, b);
	put(b, c->p + c->gsubr.at, c->gsubr.end - c->gsubr.at);
	uint32_t offs[4];
	offs[0] = (uint32_t)b->n;
	put_charset_fdselect(c, total, nglyphs, dup, b, &offs[3]);
	offs[1] = (uint32_t)b->n;
	put_charstrings(c, total, nglyphs, dup, keep, b);
	offs[2] = (uint32_t)b->n;
	size_t priv_at[CFF_MAXFD], size_at[CFF_MAXFD];
	put_fdarray(c, b, priv_at, size_at);
	put_privates(c, b, priv_at, size_at);
	for (int i = 0; i < 4; i++)
		patch_int5(b, top_at + off_at[i], offs[i]);
}
