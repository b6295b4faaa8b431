/* font_prune: a face's GSUB and GPOS cut down to what one text can use.
 *
 * HarfBuzz 6.0 sanitizes a face's whole GSUB and GPOS and gives every
 * lookup its accelerator when the first plan is made, and while it
 * shapes it tries, at every glyph, every subtable of every lookup of the
 * plan whose digest lets the glyph through: Noto Serif Tibetan's 1,164
 * lookups and 2,291 subtables cost 3.4 M instructions of set-up a face
 * and ~28 K a glyph, most of it chain contexts the text never matches.
 *
 * The closure of a set of glyphs (the cmap glyphs of a document's code
 * points): the glyphs every GSUB subtable that can act on them can make,
 * until nothing is added; the lookups followed are those a feature lists
 * (every feature: a superset of any plan's) and those a context rule
 * calls when the rule can match (each of its positions can hold a glyph
 * of the closure: its glyph, class or coverage meets it). A subtable
 * whose first coverage (the one HarfBuzz tests the current glyph against
 * before anything else) misses the closure, or a context subtable none
 * of whose rules can match, never applies to a buffer of those glyphs;
 * nor does a lookup that is never followed. The cut tables are copies of
 * the face's with those lookups emptied (no subtables) and those
 * subtables taken out of their lookup's list, in order; every offset,
 * glyph id, script, feature and byte else is the face's, and the length
 * too (GSUB::is_blocklisted reads it). So a plan on them shapes a buffer
 * whose glyphs are all in the closure as the face's own tables would:
 * font_shape.c checks each glyph HarfBuzz asks the font for and goes back
 * to the face's tables when one is not (font_face.c: face_cut).
 *
 * HarfBuzz's sanitizer decides the same on the copy: what it would
 * neuter in a kept lookup it neuters there too, and what is gone was
 * never applied. A lookup it would refuse whole (an Extension lookup
 * whose subtables' types differ) would no longer be refused with the
 * odd subtable gone: such a face is not cut. Nor is a table with
 * FeatureVariations, a lookup list with a lookup twice, or anything this
 * file cannot read inside the table's bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "font_int.h"

enum { T_GSUB, T_GPOS };

typedef struct cut {
	const unsigned char *p;
	uint32_t n;
	int t;                  /* T_GSUB or T_GPOS */
	int bad;                /* a read fell outside the table, or the
	                         * work went past the budget */
	uint64_t work, budget;  /* reads and glyphs looked at, and how many
	                         * a table of its length may take */
	uint8_t *g;             /* the closure: a bit per glyph */
	unsigned ng;
	int grew;               /* a glyph or a lookup was added this pass */
	uint8_t *follow;        /* a bit per lookup followed */
	unsigned nlookups;
	uint32_t lookups;       /* the lookup list's offset */
	uint8_t *cls[3];        /* classes_in's: a bit per class (backtrack,
	                         * input, lookahead) */
	/* every lookup's subtables, read once: lookup k's are first[k] ..
	 * first[k + 1] - 1 */
	unsigned *first;
	uint32_t *so, *cov;     /* the subtable (through an Extension), its
	                         * first coverage; so 0: a null offset */
	uint16_t *type;
	uint8_t *live;          /* can apply (as of the last pass that saw it) */
	uint8_t *done;          /* a context whose one rule matched: followed */
} cut_t;

#define NCLS 65536

static unsigned rd16(cut_t *c, uint64_t o)
{
	if (o + 2 > c->n || ++c->work > c->budget) {
		c->bad = 1;
		return 0;
	}
	return (unsigned)c->p[o] << 8 | c->p[o + 1];
}

static uint32_t rd32(cut_t *c, uint64_t o)
{
	return (uint32_t)rd16(c, o) << 16 | rd16(c, o + 2);
}

/* A range of glyphs lo..hi about to be looked at: 0 when that is past
 * the budget (a hostile file's overlapping ranges, each 65,536 glyphs,
 * would keep the closure going for hours). */
static int spend(cut_t *c, unsigned lo, unsigned hi)
{
	c->work += hi >= lo ? hi - lo + 1 : 0;
	if (c->work > c->budget)
		c->bad = 1;
	return !c->bad;
}

static int has(const cut_t *c, unsigned g)
{
	return g < c->ng && c->g[g >> 3] >> (g & 7) & 1;
}

static void add(cut_t *c, unsigned g)
{
	if (g < c->ng && !has(c, g)) {
		c->g[g >> 3] |= (uint8_t)(1u << (g & 7));
		c->grew = 1;
	}
}

static void follow(cut_t *c, unsigned k)
{
	if (k < c->nlookups && !(c->follow[k >> 3] >> (k & 7) & 1)) {
		c->follow[k >> 3] |= (uint8_t)(1u << (k & 7));
		c->grew = 1;
	}
}

/* Range i of coverage cov in format fmt: glyphs lo..hi, the first's
 * coverage index at; 0 (and c->bad) for a format that is neither 1 nor 2. */
static int cov_range(cut_t *c, uint32_t cov, unsigned fmt, unsigned i, unsigned *lo,
                     unsigned *hi, unsigned *at)
{
	if (fmt == 1) {
		*lo = *hi = rd16(c, cov + 4 + 2 * (uint64_t)i);
		*at = i;
		return 1;
	}
	if (fmt == 2) {
		uint64_t r = cov + 4 + 6 * (uint64_t)i;
		*lo = rd16(c, r);
		*hi = rd16(c, r + 2);
		*at = rd16(c, r + 4);
		return 1;
	}
	c->bad = 1;
	return 0;
}

/* Whether coverage cov (0: none, HarfBuzz's Null coverage) holds a glyph
 * of the closure. */
static int cov_meets(cut_t *c, uint32_t cov)
{
	if (!cov)
		return 0;
	unsigned fmt = rd16(c, cov), n = rd16(c, cov + 2);
	for (unsigned i = 0; i < n && !c->bad; i++) {
		if (fmt == 1) {
			if (has(c, rd16(c, cov + 4 + 2 * (uint64_t)i)))
				return 1;
		} else if (fmt == 2) {
			uint64_t r = cov + 4 + 6 * (uint64_t)i;
			unsigned lo = rd16(c, r), hi = rd16(c, r + 2);
			if (!spend(c, lo, hi))
				break;
			for (unsigned g = lo; g <= hi && g < c->ng; g++)
				if (has(c, g))
					return 1;
		} else {
			c->bad = 1;
		}
	}
	return 0;
}

/* Call fn for each glyph of coverage cov in the closure, with its
 * coverage index. */
typedef void cov_fn(cut_t *c, uint32_t so, unsigned idx);

static void cov_each(cut_t *c, uint32_t cov, uint32_t so, cov_fn *fn)
{
	if (!cov)
		return;
	unsigned fmt = rd16(c, cov), n = rd16(c, cov + 2);
	for (unsigned i = 0; i < n && !c->bad; i++) {
		if (fmt == 1) {
			if (has(c, rd16(c, cov + 4 + 2 * (uint64_t)i)))
				fn(c, so, i);
		} else if (fmt == 2) {
			uint64_t r = cov + 4 + 6 * (uint64_t)i;
			unsigned lo = rd16(c, r), hi = rd16(c, r + 2), at = rd16(c, r + 4);
			if (!spend(c, lo, hi))
				break;
			for (unsigned g = lo; g <= hi && g < c->ng; g++)
				if (has(c, g))
					fn(c, so, at + (g - lo));
		} else {
			c->bad = 1;
		}
	}
}

/* The classes classdef cd (0: none, every glyph in class 0) gives the
 * glyphs of the closure, as bits in cls. */
static void classes_in(cut_t *c, uint32_t cd, uint8_t *cls)
{
	unsigned fmt = cd ? rd16(c, cd) : 0;
	memset(cls, 0, NCLS / 8);
	for (unsigned w = 0; w < (c->ng + 7) / 8 && !c->bad; w++) {
		for (unsigned b = 0; c->g[w] && b < 8; b++) {
			unsigned g = 8 * w + b, k = 0;
			if (!(c->g[w] >> b & 1))
				continue;
			if (fmt == 1) {
				unsigned start = rd16(c, cd + 2), n = rd16(c, cd + 4);
				if (g >= start && g - start < n)
					k = rd16(c, cd + 6 + 2 * (uint64_t)(g - start));
			} else if (fmt == 2) {
				/* ranges in order: the last whose start <= g */
				unsigned lo = 0, hi = rd16(c, cd + 2);
				while (lo < hi) {
					unsigned mid = (lo + hi) / 2;
					if (rd16(c, cd + 4 + 6 * (uint64_t)mid) <= g)
						lo = mid + 1;
					else
						hi = mid;
				}
				uint64_t r = cd + 4 + 6 * (uint64_t)(lo ? lo - 1 : 0);
				if (lo && g <= rd16(c, r + 2))
					k = rd16(c, r + 4);
			} else if (fmt) {
				c->bad = 1;
			}
			cls[k >> 3] |= (uint8_t)(1u << (k & 7));
		}
	}
}

static int cls_has(const uint8_t *cls, unsigned k)
{
	return cls[k >> 3] >> (k & 7) & 1;
}

/* Offset (from the table) of a subtable's offset o from base, 0 if null. */
static uint32_t off16(cut_t *c, uint32_t base, uint64_t at)
{
	unsigned o = rd16(c, at);
	return o ? base + o : 0;
}

static int ctx_type(const cut_t *c, unsigned type)
{
	return type == (c->t == T_GSUB ? 5u : 7u);
}

static int chain_type(const cut_t *c, unsigned type)
{
	return type == (c->t == T_GSUB ? 6u : 8u);
}

/* Follow the lookups of the SequenceLookupRecords at rec (n of them). */
static void follow_records(cut_t *c, uint64_t rec, unsigned n)
{
	for (unsigned i = 0; i < n && !c->bad; i++)
		follow(c, rd16(c, rec + 4 * (uint64_t)i + 2));
}

/* 1 when a rule of context subtable so (of type) can match; with go, the
 * lookups of every such rule are followed. */
static int ctx_rules(cut_t *c, unsigned type, uint32_t so, int go)
{
	unsigned fmt = rd16(c, so);
	int chain = chain_type(c, type), any = 0;
	if (fmt == 3) {
		uint64_t o = so + 2;
		int ok = 1;
		unsigned nb = 0, ni, nl = 0;
		if (chain) {
			nb = rd16(c, o);
			for (unsigned i = 0; i < nb; i++)
				ok &= cov_meets(c, off16(c, so, o + 2 + 2 * (uint64_t)i));
			o += 2 + 2 * (uint64_t)nb;
		}
		ni = rd16(c, o);
		uint64_t covs = o + (chain ? 2 : 4);
		if (ni == 0)
			return 0;
		for (unsigned i = 0; i < ni; i++)
			ok &= cov_meets(c, off16(c, so, covs + 2 * (uint64_t)i));
		o = covs + 2 * (uint64_t)ni;
		if (chain) {
			nl = rd16(c, o);
			for (unsigned i = 0; i < nl; i++)
				ok &= cov_meets(c, off16(c, so, o + 2 + 2 * (uint64_t)i));
			o += 2 + 2 * (uint64_t)nl;
		}
		unsigned nrec = chain ? rd16(c, o) : rd16(c, so + 4);
		uint64_t rec = chain ? o + 2 : o;
		if (ok && go)
			follow_records(c, rec, nrec);
		return ok && !c->bad;
	}
	if (fmt == 1) {
		uint32_t cov = off16(c, so, so + 2);
		unsigned nset = rd16(c, so + 4);
		if (!cov)
			return 0;
		unsigned cfmt = rd16(c, cov), cn = rd16(c, cov + 2);
		/* the rule sets of the covered glyphs in the closure */
		for (unsigned i = 0; i < cn && !c->bad; i++) {
			unsigned lo, hi, at;
			if (!cov_range(c, cov, cfmt, i, &lo, &hi, &at) || !spend(c, lo, hi))
				break;
			for (unsigned g = lo; g <= hi && g < c->ng; g++) {
				unsigned idx = at + (g - lo);
				if (!has(c, g) || idx >= nset)
					continue;
				uint32_t rs = off16(c, so, so + 6 + 2 * (uint64_t)idx);
				unsigned nr = rs ? rd16(c, rs) : 0;
				for (unsigned r = 0; r < nr && !c->bad; r++) {
					uint32_t ru = off16(c, rs, rs + 2 + 2 * (uint64_t)r);
					if (!ru)
						continue;
					uint64_t o = ru;
					int ok = 1;
					unsigned nb = 0, ni, nl = 0;
					if (chain) {
						nb = rd16(c, o);
						for (unsigned k = 0; k < nb; k++)
							ok &= has(c, rd16(c, o + 2 + 2 * (uint64_t)k));
						o += 2 + 2 * (uint64_t)nb;
					}
					ni = rd16(c, o);
					uint64_t in = o + (chain ? 2 : 4);
					for (unsigned k = 1; k < ni; k++)
						ok &= has(c, rd16(c, in + 2 * (uint64_t)(k - 1)));
					o = in + 2 * (uint64_t)(ni ? ni - 1 : 0);
					if (chain) {
						nl = rd16(c, o);
						for (unsigned k = 0; k < nl; k++)
							ok &= has(c, rd16(c, o + 2 + 2 * (uint64_t)k));
						o += 2 + 2 * (uint64_t)nl;
					}
					unsigned nrec = chain ? rd16(c, o) : rd16(c, ru + 2);
					uint64_t rec = chain ? o + 2 : o;
					if (ok && ni > 0 && !c->bad) {
						any = 1;
						if (go)
							follow_records(c, rec, nrec);
						else
							return 1;
					}
				}
			}
		}
		return any && !c->bad;
	}
	if (fmt == 2) {
		/* the classes the closure's glyphs have under each class def */
		uint32_t cov = off16(c, so, so + 2);
		uint32_t cdb = chain ? off16(c, so, so + 4) : 0;
		uint32_t cdi = off16(c, so, so + (chain ? 6 : 4));
		uint32_t cdl = chain ? off16(c, so, so + 8) : 0;
		unsigned nset = rd16(c, so + (chain ? 10 : 6));
		uint64_t sets = so + (chain ? 12 : 8);
		if (!cov || !cov_meets(c, cov))
			return 0;
		if (chain) {
			classes_in(c, cdb, c->cls[0]);
			classes_in(c, cdl, c->cls[2]);
		}
		classes_in(c, cdi, c->cls[1]);
		for (unsigned s = 0; s < nset && !c->bad; s++) {
			if (!cls_has(c->cls[1], s))
				continue;
			uint32_t rs = off16(c, so, sets + 2 * (uint64_t)s);
			unsigned nr = rs ? rd16(c, rs) : 0;
			for (unsigned r = 0; r < nr && !c->bad; r++) {
				uint32_t ru = off16(c, rs, rs + 2 + 2 * (uint64_t)r);
				if (!ru)
					continue;
				uint64_t o = ru;
				int ok = 1;
				unsigned nb = 0, ni, nl = 0;
				if (chain) {
					nb = rd16(c, o);
					for (unsigned k = 0; k < nb; k++)
						ok &= cls_has(c->cls[0], rd16(c, o + 2 + 2 * (uint64_t)k));
					o += 2 + 2 * (uint64_t)nb;
				}
				ni = rd16(c, o);
				uint64_t in = o + (chain ? 2 : 4);
				for (unsigned k = 1; k < ni; k++)
					ok &= cls_has(c->cls[1], rd16(c, in + 2 * (uint64_t)(k - 1)));
				o = in + 2 * (uint64_t)(ni ? ni - 1 : 0);
				if (chain) {
					nl = rd16(c, o);
					for (unsigned k = 0; k < nl; k++)
						ok &= cls_has(c->cls[2], rd16(c, o + 2 + 2 * (uint64_t)k));
					o += 2 + 2 * (uint64_t)nl;
				}
				unsigned nrec = chain ? rd16(c, o) : rd16(c, ru + 2);
				uint64_t rec = chain ? o + 2 : o;
				if (ok && ni > 0 && !c->bad) {
					any = 1;
					if (go)
						follow_records(c, rec, nrec);
				}
			}
		}
		return any && !c->bad;
	}
	c->bad = 1;
	return 0;
}

/* The subtable's own offset and type, through an Extension subtable. */
static uint32_t sub_real(cut_t *c, unsigned ltype, uint32_t so, unsigned *type)
{
	unsigned ext = c->t == T_GSUB ? 7 : 9;
	*type = ltype;
	if (ltype != ext)
		return so;
	if (rd16(c, so) != 1)
		c->bad = 1;
	*type = rd16(c, so + 2);
	uint32_t o = rd32(c, so + 4);
	if (*type == ext || o == 0 || (uint64_t)so + o >= c->n)
		c->bad = 1;
	return so + o;
}

/* The coverage HarfBuzz tests the current glyph against first. */
static uint32_t first_cov(cut_t *c, unsigned type, uint32_t so)
{
	if ((ctx_type(c, type) || chain_type(c, type)) && rd16(c, so) == 3) {
		if (ctx_type(c, type))
			return rd16(c, so + 2) ? off16(c, so, so + 6) : 0;
		uint64_t o = so + 4 + 2 * (uint64_t)rd16(c, so + 2);   /* inputCount */
		return rd16(c, o) ? off16(c, so, o + 2) : 0;
	}
	return off16(c, so, so + 2);
}

static void out_single2(cut_t *c, uint32_t so, unsigned i)
{
	if (i < rd16(c, so + 4))
		add(c, rd16(c, so + 6 + 2 * (uint64_t)i));
}

/* A Sequence or AlternateSet: all its glyphs. */
static void out_seq(cut_t *c, uint32_t so, unsigned i)
{
	if (i >= rd16(c, so + 4))
		return;
	uint32_t s = off16(c, so, so + 6 + 2 * (uint64_t)i);
	unsigned n = s ? rd16(c, s) : 0;
	for (unsigned k = 0; k < n; k++)
		add(c, rd16(c, s + 2 + 2 * (uint64_t)k));
}

static void out_lig(cut_t *c, uint32_t so, unsigned i)
{
	if (i >= rd16(c, so + 4))
		return;
	uint32_t s = off16(c, so, so + 6 + 2 * (uint64_t)i);
	unsigned n = s ? rd16(c, s) : 0;
	for (unsigned k = 0; k < n && !c->bad; k++) {
		uint32_t l = off16(c, s, s + 2 + 2 * (uint64_t)k);
		if (!l)
			continue;
		unsigned nc = rd16(c, l + 2), ok = 1;
		for (unsigned j = 1; j < nc; j++)
			ok &= has(c, rd16(c, l + 4 + 2 * (uint64_t)(j - 1)));
		if (ok)
			add(c, rd16(c, l));
	}
}

/* The glyphs a GSUB subtable can make of the closure's. */
static void sub_outputs(cut_t *c, unsigned type, uint32_t so)
{
	unsigned fmt = rd16(c, so);
	uint32_t cov = off16(c, so, so + 2);
	if (type == 1 && fmt == 1) {
		unsigned delta = rd16(c, so + 4);
		/* each covered glyph g of the closure becomes g + delta */
		unsigned cf = cov ? rd16(c, cov) : 0, n = cov ? rd16(c, cov + 2) : 0;
		for (unsigned i = 0; i < n && !c->bad; i++) {
			if (cf == 1) {
				unsigned g = rd16(c, cov + 4 + 2 * (uint64_t)i);
				if (has(c, g))
					add(c, (g + delta) & 0xffff);
			} else if (cf == 2) {
				uint64_t r = cov + 4 + 6 * (uint64_t)i;
				unsigned lo = rd16(c, r), hi = rd16(c, r + 2);
				if (!spend(c, lo, hi))
					break;
				for (unsigned g = lo; g <= hi && g < c->ng; g++)
					if (has(c, g))
						add(c, (g + delta) & 0xffff);
			} else {
				c->bad = 1;
			}
		}
	} else if (type == 1 && fmt == 2) {
		cov_each(c, cov, so, out_single2);
	} else if ((type == 2 || type == 3) && fmt == 1) {
		cov_each(c, cov, so, out_seq);
	} else if (type == 4 && fmt == 1) {
		cov_each(c, cov, so, out_lig);
	} else if (type == 8 && fmt == 1) {
		/* ReverseChainSingleSubst: substitutes after the lookahead */
		unsigned nb = rd16(c, so + 4);
		uint64_t o = so + 6 + 2 * (uint64_t)nb;
		unsigned nl = rd16(c, o);
		o += 2 + 2 * (uint64_t)nl;
		unsigned ns = rd16(c, o);
		unsigned cf = cov ? rd16(c, cov) : 0, n = cov ? rd16(c, cov + 2) : 0;
		for (unsigned i = 0; i < n && !c->bad; i++) {
			unsigned lo, hi, at;
			if (!cov_range(c, cov, cf, i, &lo, &hi, &at) || !spend(c, lo, hi))
				break;
			for (unsigned g = lo; g <= hi && g < c->ng; g++)
				if (has(c, g) && at + (g - lo) < ns)
					add(c, rd16(c, o + 2 + 2 * (uint64_t)(at + (g - lo))));
		}
	} else {
		c->bad = 1;     /* a type or format HarfBuzz 6.0 knows not of */
	}
}

/* The lookup table offset of lookup k, its type and subtable count. */
static uint32_t lookup_at(cut_t *c, unsigned k, unsigned *type, unsigned *nsub)
{
	uint32_t l = off16(c, c->lookups, c->lookups + 2 + 2 * (uint64_t)k);
	*type = l ? rd16(c, l) : 0;
	*nsub = l ? rd16(c, l + 4) : 0;
	return l;
}

/* One pass over the lookups followed: the closure and the lookups grow. */
static void pass(cut_t *c)
{
	for (unsigned k = 0; k < c->nlookups && !c->bad; k++) {
		if (!(c->follow[k >> 3] >> (k & 7) & 1))
			continue;
		for (unsigned i = c->first[k]; i < c->first[k + 1] && !c->bad; i++) {
			unsigned type = c->type[i];
			uint32_t so = c->so[i];
			if (!so || c->done[i])
				continue;
			c->live[i] = 0;
			if (!cov_meets(c, c->cov[i]))
				continue;
			if (ctx_type(c, type) || chain_type(c, type)) {
				c->live[i] = (uint8_t)ctx_rules(c, type, so, 1);
				c->done[i] = c->live[i] && rd16(c, so) == 3;
			} else {
				c->live[i] = 1;
				if (c->t == T_GSUB)
					sub_outputs(c, type, so);
				else if (type < 1 || type > 6)
					c->bad = 1;
			}
		}
	}
}

/* The header's lists: the lookup list and the features' lookups
 * followed. -1: not a table to cut. */
static int cut_open(cut_t *c)
{
	uint32_t ver = rd32(c, 0);
	if (c->bad || (ver != 0x00010000 && ver != 0x00010001))
		return -1;
	if (ver == 0x00010001 && rd32(c, 10) != 0)
		return -1;      /* FeatureVariations: their lookups too */
	uint32_t fl = rd16(c, 6);
	c->lookups = rd16(c, 8);
	if (!fl || !c->lookups)
		return -1;
	c->nlookups = rd16(c, c->lookups);
	c->follow = xcalloc(c->nlookups / 8 + 1, 1);
	unsigned ns = 0;
	for (unsigned k = 0; k < c->nlookups && !c->bad; k++) {
		uint32_t l = off16(c, c->lookups, c->lookups + 2 + 2 * (uint64_t)k);
		if (!l || l >= c->n)
			c->bad = 1;
		else
			ns += rd16(c, l + 4);
	}
	/* each subtable offset takes 2 bytes of the table: more subtables
	   than that is a Lookup listed over and over (a hostile file), not
	   worth the memory */
	if (c->bad || ns > c->n / 2)
		return -1;
	c->first = xmalloc((c->nlookups + 1) * sizeof(*c->first));
	c->so = xmalloc((ns + 1) * sizeof(*c->so));
	c->cov = xmalloc((ns + 1) * sizeof(*c->cov));
	c->type = xmalloc((ns + 1) * sizeof(*c->type));
	c->live = xcalloc(ns + 1, 1);
	c->done = xcalloc(ns + 1, 1);
	unsigned at = 0;
	for (unsigned k = 0; k < c->nlookups && !c->bad; k++) {
		unsigned ltype, nsub;
		uint32_t l = lookup_at(c, k, &ltype, &nsub);
		c->first[k] = at;
		for (unsigned s = 0; s < nsub && !c->bad; s++, at++) {
			unsigned i = at;
			unsigned type = ltype;
			uint32_t so = off16(c, l, l + 6 + 2 * (uint64_t)s);
			if (so)
				so = sub_real(c, ltype, so, &type);
			c->so[i] = so;
			c->type[i] = (uint16_t)type;
			c->cov[i] = so && !c->bad ? first_cov(c, type, so) : 0;
		}
	}
	c->first[c->nlookups] = at;
	unsigned nf = rd16(c, fl);
	for (unsigned i = 0; i < nf && !c->bad; i++) {
		uint32_t f = off16(c, fl, fl + 2 + 6 * (uint64_t)i + 4);
		unsigned n = f ? rd16(c, f + 2) : 0;
		for (unsigned j = 0; j < n; j++)
			follow(c, rd16(c, f + 4 + 2 * (uint64_t)j));
	}
	return c->bad ? -1 : 0;
}

/* Lookup k's table in q with only its subtables that can apply (none
 * when it is not followed). */
static void cut_lookup(cut_t *c, unsigned char *q, unsigned k, int on, unsigned *kept)
{
	unsigned ext = c->t == T_GSUB ? 7 : 9;
	unsigned ltype, nsub;
	uint32_t l = lookup_at(c, k, &ltype, &nsub);
	unsigned flag = rd16(c, l + 2);
	unsigned mfs = flag & 0x10 ? rd16(c, l + 6 + 2 * (uint64_t)nsub) : 0;
	unsigned m = 0, exttype = 0;
	if (c->bad)
		return;         /* its markFilteringSet past the table: not written */
	for (unsigned s = 0; on && s < nsub && !c->bad; s++) {
		unsigned o = rd16(c, l + 6 + 2 * (uint64_t)s);
		if (ltype == ext && o) {
			/* HarfBuzz refuses an Extension lookup whose subtables
			   differ in type: that stays so, or the face is not cut */
			unsigned t = rd16(c, l + o + 2);
			if (s && t != exttype)
				c->bad = 1;
			exttype = t;
		}
		if (o && c->live[c->first[k] + s]) {
			q[l + 6 + 2 * m] = (unsigned char)(o >> 8);
			q[l + 6 + 2 * m + 1] = (unsigned char)o;
			m++;
		}
	}
	q[l + 4] = (unsigned char)(m >> 8);
	q[l + 5] = (unsigned char)m;
	if (flag & 0x10) {
		q[l + 6 + 2 * m] = (unsigned char)(mfs >> 8);
		q[l + 6 + 2 * m + 1] = (unsigned char)mfs;
	}
	*kept += m;
}

/* The cut copy of c's table (same length), or NULL. A Lookup table may
 * be listed more than once (fonts share one lookup): cut once, from an
 * index that was followed if one was (the last pass saw its subtables). */
static unsigned char *cut_write(cut_t *c, unsigned *kept, unsigned *nsubs)
{
	unsigned char *q = xmalloc(c->n ? c->n : 1);
	memcpy(q, c->p, c->n);
	uint8_t *done = xcalloc(c->n / 8 + 1, 1);
	for (int on = 1; on >= 0; on--)
		for (unsigned k = 0; k < c->nlookups && !c->bad; k++) {
			unsigned ltype, nsub;
			uint32_t l = lookup_at(c, k, &ltype, &nsub);
			if ((done[l >> 3] >> (l & 7) & 1) ||
			    (on && !(c->follow[k >> 3] >> (k & 7) & 1)))
				continue;
			done[l >> 3] |= (uint8_t)(1u << (l & 7));
			cut_lookup(c, q, k, on, kept);
			*nsubs += nsub;
		}
	free(done);
	if (c->bad) {
		free(q);
		return NULL;
	}
	return q;
}

int font_prune(const unsigned char *gsub, size_t ngsub, const unsigned char *gpos, size_t ngpos,
               uint8_t *g, unsigned nglyphs, unsigned char **gsub_out,
               unsigned char **gpos_out, unsigned *stats)
{
	cut_t c[2];
	const unsigned char *p[2] = {gsub, gpos};
	size_t n[2] = {ngsub, ngpos};
	int ok = 1;
	uint8_t *cls = xmalloc(3 * NCLS / 8);
	*gsub_out = *gpos_out = NULL;
	for (int t = 0; t < 2; t++) {
		memset(&c[t], 0, sizeof(c[t]));
		c[t].p = p[t];
		c[t].n = p[t] && n[t] < UINT32_MAX ? (uint32_t)n[t] : 0;
		c[t].t = t;
		c[t].g = g;
		c[t].ng = nglyphs;
		c[t].budget = 64 * (uint64_t)c[t].n + (1u << 22);
		for (int k = 0; k < 3; k++)
			c[t].cls[k] = cls + k * NCLS / 8;
		if (c[t].n && cut_open(&c[t]) != 0)
			ok = 0;
	}
	/* the closure first (GSUB), then GPOS's lookups followed over it */
	for (int t = 0; ok && t < 2; t++) {
		if (!c[t].n)
			continue;
		do {
			c[t].grew = 0;
			pass(&c[t]);
		} while (c[t].grew && !c[t].bad);
		ok &= !c[t].bad;
	}
	unsigned char *out[2] = {NULL, NULL};
	for (int t = 0; ok && t < 2; t++) {
		unsigned kept = 0, all = 0, nl = 0;
		if (!c[t].n)
			continue;
		out[t] = cut_write(&c[t], &kept, &all);
		ok &= out[t] != NULL;
		for (unsigned k = 0; k < c[t].nlookups; k++)
			nl += c[t].follow[k >> 3] >> (k & 7) & 1;
		if (stats) {
			stats[4 * t] = nl;
			stats[4 * t + 1] = c[t].nlookups;
			stats[4 * t + 2] = kept;
			stats[4 * t + 3] = all;
		}
	}
	for (int t = 0; t < 2; t++) {
		free(c[t].follow);
		free(c[t].first);
		free(c[t].so);
		free(c[t].cov);
		free(c[t].type);
		free(c[t].live);
		free(c[t].done);
	}
	free(cls);
	if (!ok) {
		free(out[0]);
		free(out[1]);
		return -1;
	}
	*gsub_out = out[0];
	*gpos_out = out[1];
	return 0;
}
