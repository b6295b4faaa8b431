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
 *
 * The subset of a font file (sfnt_cff_subset, for sfnt_subset) is also
 * CID-keyed with the identity charset, of the glyphs used only: each
 * charstring flattened (its subroutine calls replaced by the subroutines'
 * bytes, the calls' numbers taken back out) and its hints dropped (stem
 * operators and their operands but a width they carry, hint and counter
 * masks), the font dicts used with their Private DICTs less the hinting
 * and Subrs, no strings but the ROS's. Reading a CJK face for it checks
 * only the offsets it follows (lazy): not 65,535 charstring offsets.
 */
#include <stddef.h>
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
	cff_index_t lsub;       /* that INDEX (count 0: none) */
} cff_fd_t;

struct sfnt_cff {
	const unsigned char *p;
	size_t n;
	unsigned nglyphs;
	cff_index_t name, top, str, gsubr, cs, fda;
	uint32_t topd, toplen;  /* the Top DICT */
	int cid;                /* CID-keyed (has ROS) */
	unsigned nfd;
	uint8_t *fdsel;         /* font dict per glyph (lazy: NULL, see fd3) */
	const unsigned char *fd3; /* lazy: the ranges of a format 3 FDSelect */
	unsigned nfd3;          /* their number */
	unsigned sid_adobe, sid_identity; /* 0: not among the strings */
	int lazy;               /* CharStrings and Subrs offsets checked when read */
	sfnt_file_t *src;       /* p is a font file read by pieces: read what is used */
	cff_fd_t fd[CFF_MAXFD]; /* last: 11 KB that only cff_read_fds fills (fd[0..nfd),
	                         * zeroed there; zeroing all costs an instruction
	                         * a byte) */
};
#define CFF_HEAD offsetof(sfnt_cff_t, fd)

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
	switch (n) { /* an INDEX's offset size: a subroutine's, per call */
	case 1: return p[0];
	case 2: return (uint32_t)p[0] << 8 | p[1];
	case 3: return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
	case 4: return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	}
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
	sfnt_need(c->src, c->p + at, 3);
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
	if (check)
		sfnt_need(c->src, c->p + offs, arr);
	else
		sfnt_need(c->src, c->p + offs + (size_t)x->count * x->osz, x->osz);
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
	sfnt_need(c->src, o, 2 * x->osz);
	uint32_t a = be_n(o, x->osz), b = be_n(o + x->osz, x->osz);
	*len = b - a;
	sfnt_need(c->src, c->p + x->data + a, *len);
	return c->p + x->data + a;
}

/* Where item i of an INDEX whose offsets were not all checked (c->lazy)
 * lies, not read (c->src); NULL when its offsets are out of order or out
 * of the table. */
static const unsigned char *cff_item_at(const sfnt_cff_t *c, const cff_index_t *x, unsigned i,
                                        uint32_t *len)
{
	if (i >= x->count)
		return NULL;
	const unsigned char *o = c->p + x->at + 3 + (size_t)i * x->osz;
	unsigned char two[8];
	if (c->src && x == &c->cs) { /* a CJK face's are 256 KB: copy the two */
		sfnt_file_copy(c->src, o, 2 * x->osz, two);
		o = two;
	} else {
		sfnt_need(c->src, o, 2 * x->osz);
	}
	uint32_t a = be_n(o, x->osz), b = be_n(o + x->osz, x->osz);
	if (a < 1 || b < a || (uint64_t)x->data + b > c->n)
		return NULL;
	*len = b - a;
	return c->p + x->data + a;
}

/* The same, read. */
static const unsigned char *cff_item_safe(const sfnt_cff_t *c, const cff_index_t *x, unsigned i,
                                          uint32_t *len)
{
	const unsigned char *p = cff_item_at(c, x, i, len);
	if (p)
		sfnt_need(c->src, p, *len);
	return p;
}

/* Glyph g's charstring (as cff_item_safe). From a file read by pieces, a
 * copy in buf: a CJK face's charstrings lie one per 4 KiB block, which the
 * copy does not keep (the subroutines they call lie together: read in
 * blocks). */
static const unsigned char *cff_charstring(const sfnt_cff_t *c, unsigned g, uint32_t *len,
                                           bbuf_t *buf)
{
	const unsigned char *p = cff_item_at(c, &c->cs, g, len);
	if (!p || !c->src)
		return p;
	buf->n = 0;
	unsigned char *d = sfnt_bb_grow(buf, *len ? *len : 1);
	sfnt_file_copy(c->src, p, *len, d);
	return d;
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
	sfnt_need(c->src, p + i, end - i);
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
			long m = (long)((b - 247) & 3) * 256 + p[i + 1] + 108;
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
	sfnt_need(c->src, c->p, 4);
	if (c->n < 4 || c->p[0] != 1 || c->p[2] < 4 || c->p[2] > c->n)
		return cff_fail(why, whysz, "bad header");
	if (cff_index(c, c->p[2], &c->name, 1) || cff_index(c, c->name.end, &c->top, 1) ||
	    cff_index(c, c->top.end, &c->str, check || c->lazy) || cff_index(c, c->str.end, &c->gsubr, check))
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

int sfnt_cff_check(const unsigned char *p, size_t n, unsigned nglyphs, sfnt_file_t *src,
                   char *why, size_t whysz)
{
	sfnt_cff_t c;
	memset(&c, 0, CFF_HEAD);
	c.p = p;
	c.n = n;
	c.src = src;
	cff_top_t t;
	if (cff_read_head(&c, &t, 0, why, whysz))
		return -1;
	sfnt_need(src, p + t.charstrings, 2);
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
		    cff_index(c, fd->priv + (uint32_t)op.v[0], &x, !c->lazy))
			return -1;
		fd->subrs = x.at;
		fd->subrslen = x.end - x.at;
		fd->lsub = x;
	}
	return r;
}

static int cff_read_fds(sfnt_cff_t *c, const cff_top_t *t)
{
	if (!c->cid) {
		c->nfd = 1;
		memset(&c->fd[0], 0, sizeof(c->fd[0]));
		return cff_read_private(c, &c->fd[0], t->privlen, t->priv);
	}
	if ((uint64_t)t->fdarray >= c->n || cff_index(c, (uint32_t)t->fdarray, &c->fda, 1))
		return -1;
	c->nfd = c->fda.count;
	if (c->nfd < 1 || c->nfd > CFF_MAXFD)
		return -1;
	memset(c->fd, 0, c->nfd * sizeof(c->fd[0]));
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

/* FDSelect, format 0 or 3, into c->fdsel (lazy, a format 3 one is kept
 * as it is, its ranges checked: 64 KiB less to fill for a CJK face). */
static int cff_read_fdselect(sfnt_cff_t *c, uint32_t at)
{
	const unsigned char *p = c->p;
	if (at < c->n)
		sfnt_need(c->src, p + at, 1);
	int keep3 = c->lazy && c->cid && at < c->n && p[at] == 3;
	if (!keep3)
		c->fdsel = xcalloc(c->nglyphs ? c->nglyphs : 1, 1);
	if (!c->cid)
		return 0;
	if (at >= c->n)
		return -1;
	sfnt_need(c->src, p + at, 3);
	if (p[at] == 0) {
		sfnt_need(c->src, p + at + 1, c->nglyphs);
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
	sfnt_need(c->src, r, 3 * (size_t)nr + 2);
	if (be16(r) != 0 || be16(r + 3 * nr) != c->nglyphs)
		return -1;
	for (unsigned i = 0; i < nr; i++) {
		unsigned first = be16(r + 3 * i), next = be16(r + 3 * i + 3), fd = r[3 * i + 2];
		if (next < first || next > c->nglyphs || fd >= c->nfd)
			return -1;
		if (!keep3)
			memset(c->fdsel + first, (int)fd, next - first);
	}
	c->fd3 = keep3 ? r : NULL;
	c->nfd3 = nr;
	return 0;
}

/* The font dict of glyph g. */
static unsigned cff_fd_of(const sfnt_cff_t *c, unsigned g)
{
	if (c->fdsel)
		return c->fdsel[g];
	unsigned lo = 0, hi = c->nfd3; /* the last range whose first glyph <= g */
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (be16(c->fd3 + 3 * mid) <= g)
			lo = mid;
		else
			hi = mid;
	}
	return c->fd3[3 * lo + 2];
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

sfnt_cff_t *sfnt_cff_open(const unsigned char *p, size_t n, unsigned nglyphs, int lazy,
                          sfnt_file_t *src, char *why, size_t whysz)
{
	sfnt_cff_t *c = xmalloc(sizeof(*c));
	memset(c, 0, CFF_HEAD);
	c->src = src;
	c->p = p;
	c->n = n;
	c->nglyphs = nglyphs;
	c->lazy = lazy;
	cff_top_t t;
	if (cff_read_head(c, &t, !lazy, why, whysz)) {
		free(c);
		return NULL;
	}
	const char *bad = NULL;
	if (cff_index(c, (uint32_t)t.charstrings, &c->cs, !lazy))
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

/* Copy the DICT operators in ops (0-terminated) only (keep), or all but
 * those (!keep). */
static void put_dict_ops(const sfnt_cff_t *c, uint32_t at, uint32_t len, const unsigned *ops,
                         int keep, bbuf_t *b)
{
	cff_op_t op;
	uint32_t end = at + len;
	while (cff_dict_next(c, &at, end, &op) > 0) {
		int in = 0;
		for (const unsigned *s = ops; *s; s++)
			in |= op.op == *s;
		if (in == keep)
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
	put_dict_ops(c, c->topd, c->toplen, skip, 0, d);
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

/* charset (format 2: one range, CIDs 1..total-1) and FDSelect (format 3:
 * glyph g uses font dict fds[g]), where it begins into *fdselect. */
static void put_charset_fdselect(bbuf_t *b, unsigned total, const uint8_t *fds,
                                 uint32_t *fdselect)
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
		if (fds[g] != last) {
			put_be(b, g, 2);
			put_be(b, fds[g], 1);
			nr++;
			last = fds[g];
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

/* The FDArray INDEX of font dicts order[0..nfd), their operators
 * filtered by ops (put_dict_ops; OP_PRIVATE is written anew); the
 * positions of each dict's Private offset and size into priv_at[],
 * size_at[]. */
static void put_fdarray(const sfnt_cff_t *c, const uint8_t *order, unsigned nfd,
                        const unsigned *ops, int keep, bbuf_t *b, size_t *priv_at,
                        size_t *size_at)
{
	bbuf_t d = {0};
	size_t start[CFF_MAXFD + 1], rel[2 * CFF_MAXFD];
	for (unsigned i = 0; i < nfd; i++) {
		const cff_fd_t *fd = &c->fd[order[i]];
		start[i] = d.n;
		if (c->cid)
			put_dict_ops(c, fd->dict, fd->dictlen, ops, keep, &d);
		rel[2 * i] = put_int5(&d, 0);
		rel[2 * i + 1] = put_int5(&d, 0);
		put_op(&d, OP_PRIVATE);
	}
	start[nfd] = d.n;
	const unsigned char *item[CFF_MAXFD] = {0};   /* (GCC -O1 warns when nfd may be 0) */
	uint32_t len[CFF_MAXFD] = {0};
	for (unsigned i = 0; i < nfd; i++) {
		item[i] = d.p + start[i];
		len[i] = (uint32_t)(start[i + 1] - start[i]);
	}
	put_index(b, nfd, item, len);
	size_t data = b->n - d.n; /* where the dicts' bytes begin in b */
	for (unsigned i = 0; i < nfd; i++) {
		size_at[i] = data + rel[2 * i];
		priv_at[i] = data + rel[2 * i + 1];
	}
	free(d.p);
}

/* The Private DICT of each font dict order[0..nfd) but the operators in
 * skip (which has OP_SUBRS); with subrs, its local Subrs, just past it
 * (Subrs written anew); their offsets and sizes patched into the
 * FDArray. */
static void put_privates(const sfnt_cff_t *c, const uint8_t *order, unsigned nfd,
                         const unsigned *skip, int subrs, bbuf_t *b, const size_t *priv_at,
                         const size_t *size_at)
{
	for (unsigned i = 0; i < nfd; i++) {
		const cff_fd_t *fd = &c->fd[order[i]];
		int sub = subrs && fd->subrslen;
		size_t at = b->n;
		put_dict_ops(c, fd->priv, fd->privlen, skip, 0, b);
		if (sub) {
			size_t len = b->n - at + 6;
			put_int5(b, (uint32_t)len);
			put_op(b, OP_SUBRS);
		}
		patch_int5(b, priv_at[i], (uint32_t)at);
		patch_int5(b, size_at[i], (uint32_t)(b->n - at));
		if (sub) {
			sfnt_need(c->src, c->p + fd->subrs, fd->subrslen);
			put(b, c->p + fd->subrs, fd->subrslen);
		}
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
	uint8_t *fds = xmalloc(total ? total : 1), order[CFF_MAXFD];
	for (unsigned g = 0; g < total; g++)
		fds[g] = (uint8_t)cff_fd_of(c, src_glyph(g, nglyphs, dup));
	put_charset_fdselect(b, total, fds, &offs[3]);
	free(fds);
	offs[1] = (uint32_t)b->n;
	put_charstrings(c, total, nglyphs, dup, keep, b);
	offs[2] = (uint32_t)b->n;
	static const unsigned no_private[] = {OP_PRIVATE, 0}, no_subrs[] = {OP_SUBRS, 0};
	size_t priv_at[CFF_MAXFD], size_at[CFF_MAXFD];
	for (unsigned i = 0; i < c->nfd; i++)
		order[i] = (uint8_t)i;
	put_fdarray(c, order, c->nfd, no_private, 0, b, priv_at, size_at);
	put_privates(c, order, c->nfd, no_subrs, 1, b, priv_at, size_at);
	for (int i = 0; i < 4; i++)
		patch_int5(b, top_at + off_at[i], offs[i]);
}

/* ---- a subset: charstrings flattened, no hints ---- */

/* Type 2 charstring operators (12 b: 0x100 | b). */
enum { CS_HSTEM = 1, CS_VSTEM = 3, CS_CALLSUBR = 10, CS_RETURN = 11, CS_ENDCHAR = 14,
       CS_HSTEMHM = 18, CS_HINTMASK = 19, CS_CNTRMASK = 20, CS_VSTEMHM = 23, CS_CALLGSUBR = 29 };
/* the Type 2 limits on the stack and on nesting; and on the bytes run
 * for one glyph (subroutines counted each time they are called: a corrupt
 * font's calls could otherwise multiply at every level) */
enum { CS_MAXARGS = 48, CS_MAXDEPTH = 10, CS_MAXWORK = 1 << 20 };
#define CS_FIXED (-0x7fffffffL)

/* Flattening one glyph: the operands on the stack are kept as the bytes
 * they were written with, so a call's subroutine number can be taken back
 * out and a hint's operands dropped. */
typedef struct cs_run {
	const sfnt_cff_t *c;
	const cff_index_t *lsub;
	unsigned lbias, gbias;
	bbuf_t *out;
	size_t args;             /* where the operands begin in out */
	int nargs;
	unsigned nstems;
	int first;               /* no stack-clearing operator yet (it may carry the width) */
	int width;               /* the bottom operand is a width kept from a dropped hint */
	uint32_t work;           /* bytes run so far */
} cs_run_t;

static unsigned cs_bias(unsigned count)
{
	return count < 1240 ? 107 : count < 33900 ? 1131 : 32768;
}

/* The bytes of the number that begins with byte b (28 or >= 32). */
static uint32_t cs_numlen(unsigned b)
{
	return b == 28 ? 3 : b <= 246 ? 1 : b <= 254 ? 2 : 5;
}

/* A hint operator (stems, or the implicit vertical stems of a hintmask)
 * goes, with its operands, but for a width it carries. */
static void cs_drop_hint(cs_run_t *r)
{
	int keep = (r->first || r->width) && r->nargs % 2;
	r->nstems += (unsigned)r->nargs / 2;
	if (r->nargs > keep)
		r->out->n = keep ? r->args + cs_numlen(r->out->p[r->args]) : r->args;
	r->nargs = keep;
	r->width = keep;
	r->first = 0;
}

/* The value of the integer at p (a 16.16 fixed: CS_FIXED, never a
 * subroutine number). */
static long cs_int(const unsigned char *p)
{
	unsigned b = p[0];
	if (b == 28)
		return (int16_t)be16(p + 1);
	if (b <= 246)
		return (long)b - 139;
	if (b <= 254) {
		long m = (long)((b - 247) & 3) * 256 + p[1] + 108;
		return b <= 250 ? m : -m;
	}
	return CS_FIXED;
}

/* Room for k more bytes in b (its length unchanged). */
static void cs_room(bbuf_t *b, size_t k)
{
	sfnt_bb_grow(b, k);
	b->n -= k;
}

/* Run charstring p[0..len) into r->out: 1 at endchar, 0 at its end or a
 * return, -1 when it is corrupt or uses what is not flattened here (seac,
 * arithmetic and storage operators). What one level writes is never more
 * than its bytes, so room for them is made once (and again after a call).
 * The output's end and the operand count live in locals (o, on, na),
 * written back around what reads them from r: a store through o may
 * alias anything, and kept in r they were reloaded at every byte. */
static int cs_exec(cs_run_t *r, const unsigned char *p, uint32_t len, int depth)
{
	if (depth > CS_MAXDEPTH || len > CS_MAXWORK - r->work)
		return -1;
	r->work += len;
	bbuf_t *out = r->out;
	cs_room(out, len + 1);
	unsigned char *o = out->p;
	size_t on = out->n;
	int na = r->nargs;
#define CS_SYNC() (out->n = on, r->nargs = na)
#define CS_LOAD() (o = out->p, on = out->n, na = r->nargs)
	for (size_t i = 0; i < len;) {
		unsigned b = p[i];
		/* numbers: their count is checked at the next operator (and at the
		   end), where it is used, not at each */
		if (b >= 32 && b <= 246) { /* most numbers: one byte */
			na++;
			o[on++] = (unsigned char)b;
			i++;
			continue;
		}
		if (b >= 247 && b <= 254 && len - i >= 2) { /* two bytes */
			na++;
			memcpy(o + on, p + i, 2);
			on += 2;
			i += 2;
			continue;
		}
		if (b == 28 || b >= 32) {
			uint32_t l = cs_numlen(b);
			if (l > len - i || na >= CS_MAXARGS) {
				CS_SYNC();
				return -1;
			}
			na++;
			for (uint32_t k = 0; k < l; k++)
				o[on + k] = p[i + k];
			on += l;
			i += l;
			continue;
		}
		if (na > CS_MAXARGS) {
			CS_SYNC();
			return -1;
		}
		uint32_t ol = b == 12 ? 2 : 1;
		if (ol > len - i) {
			CS_SYNC();
			return -1;
		}
		unsigned op = b == 12 ? 0x100u | p[i + 1] : b;
		const unsigned char *ob = p + i;
		i += ol;
		switch (op) {
		case CS_CALLSUBR:
		case CS_CALLGSUBR: {
			if (!na) {
				CS_SYNC();
				return -1;
			}
			const cff_index_t *x = op == CS_CALLSUBR ? r->lsub : &r->c->gsubr;
			on = r->args;
			for (int a = 0; a < na - 1; a++)
				on += cs_numlen(o[on]);
			na--;
			long k = cs_int(o + on);
			k = k == CS_FIXED ? -1 : k + (long)(op == CS_CALLSUBR ? r->lbias : r->gbias);
			uint32_t sl;
			const unsigned char *sp = k >= 0 && k < (long)x->count
			                              ? cff_item_safe(r->c, x, (unsigned)k, &sl) : NULL;
			CS_SYNC();
			if (!sp)
				return -1;
			int e = cs_exec(r, sp, sl, depth + 1);
			if (e)
				return e;
			cs_room(out, len - i + 1);
			CS_LOAD();
			break;
		}
		case CS_RETURN:
			CS_SYNC();
			return 0;
		case CS_HSTEM:
		case CS_VSTEM:
		case CS_HSTEMHM:
		case CS_VSTEMHM:
			CS_SYNC();
			cs_drop_hint(r);
			CS_LOAD();
			break;
		case CS_HINTMASK:
		case CS_CNTRMASK:
			CS_SYNC();
			cs_drop_hint(r);
			CS_LOAD();
			if ((r->nstems + 7) / 8 > len - i) {
				CS_SYNC();
				return -1;
			}
			i += (r->nstems + 7) / 8;
			break;
		case CS_ENDCHAR:
			if (na >= 4) {
				CS_SYNC();
				return -1; /* seac: an accented glyph of two others */
			}
			o[on++] = CS_ENDCHAR;
			CS_SYNC();
			return 1;
		case 4: case 5: case 6: case 7: case 8: case 21: case 22: /* moveto, lineto, curveto */
		case 24: case 25: case 26: case 27: case 30: case 31:
		case 0x122: case 0x123: case 0x124: case 0x125:           /* the flex operators */
			o[on++] = ob[0];
			if (ol == 2)
				o[on++] = ob[1];
			na = 0;
			r->args = on;
			r->first = r->width = 0;
			break;
		default:
			CS_SYNC();
			return -1;
		}
	}
	CS_SYNC();
	if (na > CS_MAXARGS)
		return -1;
#undef CS_SYNC
#undef CS_LOAD
	return 0;
}

/* Glyph g's charstring with its subroutines inlined and its hints dropped,
 * at the end of out; -1 when it cannot be. */
static int cs_flatten(const sfnt_cff_t *c, unsigned g, bbuf_t *out, bbuf_t *buf)
{
	uint32_t len;
	const unsigned char *p = cff_charstring(c, g, &len, buf);
	if (!p)
		return -1;
	const cff_fd_t *fd = &c->fd[cff_fd_of(c, g)];
	cs_run_t r;
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.lsub = &fd->lsub;
	r.lbias = cs_bias(fd->lsub.count);
	r.gbias = cs_bias(c->gsubr.count);
	r.out = out;
	r.args = out->n;
	r.first = 1;
	int e = cs_exec(&r, p, len, 0);
	if (e == 0) /* no endchar: end it */
		*sfnt_bb_grow(out, 1) = CS_ENDCHAR;
	return e < 0 ? -1 : 0;
}

/* What a subset's Top DICT and font dicts keep: no strings (their SIDs
 * would need the String INDEX), no offsets (written anew). */
static const unsigned geom_ops[] = {5, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107, 0x108, 0};
/* What its Private DICTs drop: the hinting (blues, stems, ForceBold,
 * LanguageGroup, ExpansionFactor, initialRandomSeed) and Subrs. */
static const unsigned hint_ops[] = {6, 7, 8, 9, 10, 11, 0x109, 0x10a, 0x10b, 0x10c, 0x10d,
                                    0x10e, 0x111, 0x112, 0x113, OP_SUBRS, 0};

/* The font dicts glyphs ids[0..n) use, in the order of the font's
 * (fdmap: old -> new, 0xff unused); their number. */
static unsigned cff_used_fds(const sfnt_cff_t *c, const uint16_t *ids, unsigned n,
                             uint8_t fdmap[CFF_MAXFD], uint8_t *order)
{
	uint8_t used[CFF_MAXFD] = {0};
	for (unsigned i = 0; i < n; i++)
		used[cff_fd_of(c, ids[i])] = 1;
	unsigned k = 0;
	for (unsigned i = 0; i < c->nfd; i++) {
		fdmap[i] = used[i] ? (uint8_t)k : 0xff;
		if (used[i])
			order[k++] = (uint8_t)i;
	}
	return k;
}

/* The subset's Top DICT: ROS Adobe-Identity-0 (SIDs 391, 392: the only
 * strings), the geometry, CIDCount and the four offsets (their positions
 * into at[]: charset, CharStrings, FDArray, FDSelect). */
static void put_subset_top(const sfnt_cff_t *c, unsigned n, bbuf_t *d, size_t at[4])
{
	put_int5(d, 391);
	put_int5(d, 392);
	put_int5(d, 0);
	put_op(d, OP_ROS);
	put_dict_ops(c, c->topd, c->toplen, geom_ops, 1, d);
	put_int5(d, n);
	put_op(d, OP_CIDCOUNT);
	static const unsigned ops[4] = {OP_CHARSET, OP_CHARSTRINGS, OP_FDARRAY, OP_FDSELECT};
	for (int i = 0; i < 4; i++) {
		at[i] = put_int5(d, 0);
		put_op(d, ops[i]);
	}
}

/* The charstrings of glyphs ids[0..n) into cs, as an INDEX's items
 * (item, len): flattened (-1 when one cannot be), or with raw as they are
 * (-1 when one is out of the table). */
static int cff_charstrings(const sfnt_cff_t *c, const uint16_t *ids, unsigned n, int raw,
                           bbuf_t *cs, const unsigned char **item, uint32_t *len)
{
	bbuf_t buf = {0};
	int rc = 0;
	cs->n = 0;
	for (unsigned i = 0; i < n && rc == 0; i++) {
		size_t at = cs->n;
		uint32_t l;
		const unsigned char *p;
		if (i == 0) { /* .notdef draws nothing */
			*sfnt_bb_grow(cs, 1) = CS_ENDCHAR;
		} else if (!raw) {
			rc = cs_flatten(c, ids[i], cs, &buf);
		} else if (!(p = cff_charstring(c, ids[i], &l, &buf))) {
			rc = -1;
		} else if (l) {
			memcpy(sfnt_bb_grow(cs, l), p, l);
		}
		len[i] = (uint32_t)(cs->n - at);
	}
	free(buf.p);
	if (rc)
		return -1;
	for (unsigned i = 0, at = 0; i < n; at += len[i++])
		item[i] = cs->p + at;
	return 0;
}

int sfnt_cff_subset(const sfnt_cff_t *c, const uint16_t *ids, unsigned n, bbuf_t *b)
{
	bbuf_t cs = {0}, top = {0};
	const unsigned char **item = xmalloc(n * sizeof(*item));
	uint32_t *len = xmalloc(n * sizeof(*len));
	uint8_t *fds = xmalloc(n), fdmap[CFF_MAXFD], order[CFF_MAXFD];
	/* a glyph that cannot be flattened (seac, arithmetic) keeps every
	   glyph as it is, with the subroutines and the hints */
	int raw = cff_charstrings(c, ids, n, 0, &cs, item, len) != 0;
	int rc = raw ? cff_charstrings(c, ids, n, 1, &cs, item, len) : 0;
	if (rc == 0) {
		unsigned nfd = cff_used_fds(c, ids, n, fdmap, order);
		static const unsigned char header[4] = {1, 0, 4, 4};
		static const unsigned char *const strs[2] = {(const unsigned char *)"Adobe",
		                                             (const unsigned char *)"Identity"};
		static const uint32_t strlens[2] = {5, 8};
		b->n = 0;
		put(b, header, 4);
		sfnt_need(c->src, c->p + c->name.at, c->name.end - c->name.at);
		put(b, c->p + c->name.at, c->name.end - c->name.at);
		size_t off_at[4];
		put_subset_top(c, n, &top, off_at);
		put_one_index(b, top.p, (uint32_t)top.n);
		size_t top_at = b->n - top.n;
		put_index(b, 2, strs, strlens);
		if (raw) {
			sfnt_need(c->src, c->p + c->gsubr.at, c->gsubr.end - c->gsubr.at);
			put(b, c->p + c->gsubr.at, c->gsubr.end - c->gsubr.at);
		}
		else
			put_be(b, 0, 2); /* no global subroutines */
		uint32_t offs[4];
		offs[0] = (uint32_t)b->n;
		for (unsigned g = 0; g < n; g++)
			fds[g] = fdmap[cff_fd_of(c, ids[g])];
		put_charset_fdselect(b, n, fds, &offs[3]);
		offs[1] = (uint32_t)b->n;
		put_index(b, n, item, len);
		offs[2] = (uint32_t)b->n;
		size_t priv_at[CFF_MAXFD], size_at[CFF_MAXFD];
		put_fdarray(c, order, nfd, geom_ops, 1, b, priv_at, size_at);
		static const unsigned no_subrs[] = {OP_SUBRS, 0};
		put_privates(c, order, nfd, raw ? no_subrs : hint_ops, raw, b, priv_at, size_at);
		for (int i = 0; i < 4; i++)
			patch_int5(b, top_at + off_at[i], offs[i]);
	}
	free(top.p);
	free(cs.p);
	free(item);
	free(len);
	free(fds);
	return rc;
}
