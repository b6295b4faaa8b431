/* font_ot: the OpenType shaping of ordinary words without HarfBuzz.
 *
 * font_shape.c shapes with +kern and no ligatures, language "und", and
 * keeps of HarfBuzz's output one record per code point. For a word of
 * spacing characters that all have glyphs, in a font with GDEF, GSUB and
 * GPOS but no AAT tables, what HarfBuzz 6.0 does reduces to: choose the
 * script and language system (hb-ot-map.cc, hb-ot-layout.cc), collect the
 * lookups of the features its plan enables (hb-ot-shape.cc: rvrn in a
 * stage of its own, then ltra ltrm rand trak Harf HARF Buzz BUZZ abvm
 * blwm ccmp locl mark mkmk rlig curs dist kern rclt and the caller's; in
 * each stage in lookup order, each once), apply each GSUB lookup at each
 * position its flags do not skip, then position with the GPOS lookups.
 * Single substitutions, single and pair positioning, and GSUB context
 * and chain context rules whose lookups are all single substitutions
 * (Noto Naskh Arabic's rlig) are computed here as HarfBuzz computes
 * them; for every other kind of lookup this file only decides whether it
 * could apply anywhere in the word (a ligature whose components follow,
 * any other context whose backtrack, input and lookahead match, a mark
 * glyph a mark lookup covers): if it could, the word goes to HarfBuzz. So does every word or face this file does not model
 * (marks, default ignorables, fractions, AAT tables, a legacy 'kern' table
 * HarfBuzz would apply, FeatureVariations, anything out of bounds).
 * Scripts: those of HarfBuzz's default shaper, and Hangul, Hebrew and
 * Arabic words, where its shapers do what script_ok says.
 *
 * Every read is bounds-checked: a table that lies is a face for HarfBuzz.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <hb-ot.h>
#include "arena.h"
#include "font_int.h"

#define NOT_COVERED 0xffffffffu
#define MAX_PLANS 16
#define MAX_LOOKUPS 256         /* per table in a plan; more: HarfBuzz */
#define MAX_WORD 256
#define PC_PAGE 256            /* glyphs per page of GDEF props */
#define IGNORE_FLAGS 0x0e       /* IgnoreBaseGlyphs | IgnoreLigatures | IgnoreMarks */
#define P_BASE 2                /* HarfBuzz's glyph props (= the lookup flags) */
#define P_LIG 4

enum { GSUB, GPOS };

typedef struct tab {
	const unsigned char *p;
	uint32_t n;
} tab_t;

typedef struct lookup {
	int state;              /* 0 unread, 1 ok, -1 not modelled */
	unsigned type, flag;    /* type: the extension's for an extension lookup */
	unsigned nsub;
	uint32_t *sub;          /* subtable offsets in the table */
	uint32_t *cov;          /* their first coverages (first_coverage), in sub's block */
	int covbad;             /* finding them read past the table */
	struct cspan *span;     /* the glyph spans of the coverages (lookup_spans),
	                         * made on first use; NULL: not yet */
	unsigned nspan, spanw;  /* their number, their widest max - min */
} lookup_t;

/* The span of glyphs coverage cov[s] of a lookup lists (cov_span). */
typedef struct cspan {
	uint16_t min, max;
	uint32_t s;
} cspan_t;

/* Per glyph and plan: bit k of sub (pos) set when the glyph is in the
 * first coverage of a subtable of the plan's k-th GSUB (GPOS) lookup,
 * the only lookups that can act at its position. */
typedef struct gbits {
	uint16_t sub, pos;
} gbits_t;
#define GB_DONE 0x8000u         /* in pos: computed (gbp's entries) */
#define GB_DECLINE 0x4000u      /* in pos: a lookup not modelled covers it */
#define GB_MAXSUB 16            /* more lookups in a plan: no cache */
#define GB_MAXPOS 14

typedef struct plan {
	hb_script_t script;
	unsigned mask;
	int ok;
	int nlk[2];
	gbits_t *gb;            /* per glyph, allocated on first use; NULL: all bits */
	int nocache;
	struct plan *alias;     /* the plan of the same lookups, used instead */
	gbits_t **gbp;          /* gb of a face of many glyphs, by pages */
	uint16_t lk[2][MAX_LOOKUPS * 2];  /* GSUB: stage 0 then stage 1; last: not
	                         * zeroed (2 KB, and zeroing costs as many
	                         * instructions as bytes), read up to nlk */
} plan_t;
#define GB_PAGE 64

/* What a pair lookup (GPOS lookup L) did to glyphs g1, g2 (the next one
 * its flags do not skip): HarfBuzz's result, kept per face for the next
 * word with the pair. One subtable applies: its values fit 16 bits. */
typedef struct pairc {
	uint64_t key;           /* L << 40 | g1 << 20 | g2, + 1; 0: empty */
	int16_t v[6];           /* dx, xoff, yoff of the first glyph, of the second */
	uint8_t applied, skip2; /* skip2: the next pair starts after the second */
} pairc_t;
#define PAIRC_BITS 11

/* What coverage() or classdef() answered for a glyph in one GPOS
 * subtable: a word's pairs ask again for the same first glyph (e, o, a
 * before many letters) and the same class definitions. */
typedef struct otmemo {
	uint64_t key;           /* kind << 48 | offset << 16 | glyph */
	uint32_t v;
} otmemo_t;
#define OTMEMO_BITS 11

struct font_ot {
	int ok;
	hb_blob_t *blob[3];
	tab_t t[2], gdef;
	uint32_t classdef;      /* GDEF glyph class definition, 0: none */
	unsigned nglyphs;
	int kerns;              /* GPOS or a legacy kern table */
	int kern_table;
	unsigned nlookups[2];
	lookup_t *lk[2];
	plan_t *plan;           /* MAX_PLANS of them, allocated on first use (not
	                         * in the struct: each face's would be zeroed) */
	int nplans;
	int feats;              /* FONT_FEAT_* of script 0's default LangSys; -1 unknown */
	uint8_t **pcache;       /* per glyph, by pages of PC_PAGE: GDEF props + 1,
	                         * 0xff a mark; 0 unknown */
	pairc_t *pc;            /* pair results, allocated on first use (not zeroed:
	                         * 48 KB, an instruction a byte) */
	uint64_t pcset[((size_t)1 << PAIRC_BITS) / 64]; /* the entries of pc set */
	otmemo_t *om;           /* pair subtables' coverage and class answers
	                         * (gpos_memo), allocated on first use, not zeroed */
	uint64_t omset[((size_t)1 << OTMEMO_BITS) / 64]; /* the entries of om set */
};

/* ---- bounds-checked reading ---- */

typedef struct rd {
	const unsigned char *p;
	uint32_t n;
	int bad;
} rd_t;

static unsigned u16(rd_t *r, uint64_t o)
{
	if (o + 2 > r->n) {
		r->bad = 1;
		return 0;
	}
	return (unsigned)r->p[o] << 8 | r->p[o + 1];
}

static int s16(rd_t *r, uint64_t o)
{
	unsigned v = u16(r, o);
	return v >= 0x8000 ? (int)v - 0x10000 : (int)v;
}

static uint32_t u32(rd_t *r, uint64_t o)
{
	if (o + 4 > r->n) {
		r->bad = 1;
		return 0;
	}
	return (uint32_t)r->p[o] << 24 | (uint32_t)r->p[o + 1] << 16 | (uint32_t)r->p[o + 2] << 8 |
	       r->p[o + 3];
}

/* 1 when [o, o + len) lies in the table (else marks it bad). */
static int span(rd_t *r, uint64_t o, uint64_t len)
{
	if (o + len > r->n) {
		r->bad = 1;
		return 0;
	}
	return 1;
}

/* HarfBuzz's one binary search (hb_bsearch_impl) over count records of
 * stride bytes at o whose 16-bit key is first: the index, or -1. */
static long bsearch16(rd_t *r, uint32_t o, unsigned count, unsigned stride, unsigned key)
{
	if (!span(r, o, (uint64_t)count * stride))
		return -1;
	const unsigned char *p = r->p + o;     /* in bounds: read directly */
	int min = 0, max = (int)count - 1;
	while (min <= max) {
		int mid = (int)(((unsigned)min + (unsigned)max) / 2);
		const unsigned char *e = p + (size_t)mid * stride;
		unsigned v = (unsigned)e[0] << 8 | e[1];
		if (key < v)
			max = mid - 1;
		else if (key > v)
			min = mid + 1;
		else
			return mid;
	}
	return -1;
}

/* The same over 6-byte records with a 32-bit tag (ScriptList, LangSys
 * records: RecordListOf's find_index). */
static long bsearch_tag(rd_t *r, uint32_t o, unsigned count, uint32_t tag)
{
	if (!span(r, o, (uint64_t)count * 6))
		return -1;
	int min = 0, max = (int)count - 1;
	while (min <= max) {
		int mid = (int)(((unsigned)min + (unsigned)max) / 2);
		uint32_t v = u32(r, o + (uint64_t)mid * 6);
		if (tag < v)
			max = mid - 1;
		else if (tag > v)
			min = mid + 1;
		else
			return mid;
	}
	return -1;
}

/* The record (first, last, value: 6 bytes) of the sorted range records
 * at recs[0..count) whose range holds g, as HarfBuzz's binary search
 * finds it (coverage and class definition format 2); 0: none. */
static uint64_t range_find(rd_t *r, uint64_t recs, unsigned count, unsigned g)
{
	if (!span(r, recs, (uint64_t)count * 6))
		return 0;
	const unsigned char *p = r->p + recs; /* in bounds: read directly */
	int min = 0, max = (int)count - 1;
	while (min <= max) {
		int mid = (int)(((unsigned)min + (unsigned)max) / 2);
		uint64_t rec = (uint64_t)recs + (uint64_t)mid * 6;
		const unsigned char *e = p + (size_t)mid * 6;
		unsigned first = (unsigned)e[0] << 8 | e[1], last = (unsigned)e[2] << 8 | e[3];
		if (g < first)
			max = mid - 1;
		else if (g > last)
			min = mid + 1;
		else
			return rec;
	}
	return 0;
}

/* Coverage index of glyph g in the coverage table at o (0: none). */
static uint32_t coverage(rd_t *r, uint32_t o, unsigned g)
{
	if (!o)
		return NOT_COVERED;
	unsigned fmt = u16(r, o), count = u16(r, (uint64_t)o + 2);
	if (fmt == 1) {
		long i = bsearch16(r, o + 4, count, 2, g);
		return i < 0 ? NOT_COVERED : (uint32_t)i;
	}
	if (fmt == 2) {
		uint64_t rec = range_find(r, (uint64_t)o + 4, count, g);
		return rec ? u16(r, rec + 4) + (g - u16(r, rec)) : NOT_COVERED;
	}
	return NOT_COVERED;
}

/* Class of glyph g in the class definition at o (0: none). */
static unsigned classdef(rd_t *r, uint32_t o, unsigned g)
{
	if (!o)
		return 0;
	unsigned fmt = u16(r, o);
	if (fmt == 1) {
		unsigned start = u16(r, (uint64_t)o + 2), count = u16(r, (uint64_t)o + 4);
		unsigned i = (g - start) & 0xffffffffu;
		if (g < start || i >= count)
			return 0;
		return u16(r, (uint64_t)o + 6 + 2 * (uint64_t)i);
	}
	if (fmt == 2) {
		uint64_t rec = range_find(r, (uint64_t)o + 4, u16(r, (uint64_t)o + 2), g);
		return rec ? u16(r, rec + 4) : 0;
	}
	return 0;
}

static rd_t tab_rd(const tab_t *t)
{
	rd_t r = { t->p, t->n, 0 };
	return r;
}

/* ---- the face ---- */

static tab_t table(font_face_t *f, font_ot_t *o, int slot, hb_tag_t tag)
{
	o->blob[slot] = hb_face_reference_table(f->hbface, tag);
	unsigned len = 0;
	const char *p = hb_blob_get_data(o->blob[slot], &len);
	tab_t t = { (const unsigned char *)p, p ? len : 0 };
	return t;
}

static int has_table(font_face_t *f, hb_tag_t tag)
{
	hb_blob_t *b = hb_face_reference_table(f->hbface, tag);
	unsigned len = hb_blob_get_length(b);
	hb_blob_destroy(b);
	return len > 0;
}

/* The GDEF lengths of the fonts HarfBuzz ignores the GDEF of
 * (GDEF::is_blocklisted: old Windows and Mac fonts whose glyph classes
 * are wrong); such a face is left to HarfBuzz. */
static int gdef_suspect(uint32_t n)
{
	static const uint16_t len[] = { 180, 188, 192, 430, 442, 478, 490, 832, 844, 898, 910,
		                        928, 940, 964, 976, 994, 1006, 1018, 1046, 1058 };
	for (unsigned i = 0; i < sizeof(len) / sizeof(len[0]); i++)
		if (n == len[i])
			return 1;
	return 0;
}

/* GSUB/GPOS header: version 1.0 (1.1 only without FeatureVariations). */
static int layout_ok(const tab_t *t)
{
	if (!t->n)
		return 1;
	rd_t r = tab_rd(t);
	unsigned major = u16(&r, 0), minor = u16(&r, 2);
	if (major != 1 || r.bad || t->n < 10)
		return 0;
	if (minor >= 1 && (t->n < 14 || u32(&r, 10) != 0))
		return 0;
	return 1;
}

static void plans_free(font_ot_t *o);

/* The script, feature and lookup lists of a GSUB or GPOS whole and in
 * bounds, every record's object too: HarfBuzz's sanitizer would cut out
 * (or drop the table for) what is not, and the fast path would not see
 * the table HarfBuzz sees. */
static int langsys_ok(rd_t *r, uint32_t ls)
{
	return span(r, ls, 6 + 2 * (uint64_t)u16(r, (uint64_t)ls + 4));
}

static int lists_ok(rd_t *r, int t)
{
	uint32_t sl = u16(r, 4), fl = u16(r, 6), ll = u16(r, 8);
	if (sl) {
		unsigned ns = u16(r, sl);
		if (!span(r, (uint64_t)sl + 2, 6 * (uint64_t)ns))
			return 0;
		for (unsigned i = 0; i < ns; i++) {
			unsigned so = u16(r, (uint64_t)sl + 2 + 6 * (uint64_t)i + 4);
			if (!so)
				continue;
			uint32_t sc = sl + so;
			unsigned def = u16(r, sc), nl = u16(r, (uint64_t)sc + 2);
			if (!span(r, (uint64_t)sc + 4, 6 * (uint64_t)nl) || (def && !langsys_ok(r, sc + def)))
				return 0;
			for (unsigned k = 0; k < nl; k++) {
				unsigned lo = u16(r, (uint64_t)sc + 4 + 6 * (uint64_t)k + 4);
				if (lo && !langsys_ok(r, sc + lo))
					return 0;
			}
		}
	}
	if (fl) {
		unsigned nf = u16(r, fl);
		if (!span(r, (uint64_t)fl + 2, 6 * (uint64_t)nf))
			return 0;
		for (unsigned i = 0; i < nf; i++) {
			unsigned fo = u16(r, (uint64_t)fl + 2 + 6 * (uint64_t)i + 4);
			if (!fo)
				continue;
			uint32_t fe = fl + fo;
			/* FeatureParams: left to HarfBuzz */
			if (u16(r, fe) || !span(r, (uint64_t)fe + 4, 2 * (uint64_t)u16(r, (uint64_t)fe + 2)))
				return 0;
		}
	}
	if (ll) {
		unsigned nl = u16(r, ll);
		if (!span(r, (uint64_t)ll + 2, 2 * (uint64_t)nl))
			return 0;
		for (unsigned i = 0; i < nl; i++) {
			unsigned lo = u16(r, (uint64_t)ll + 2 + 2 * (uint64_t)i);
			if (!lo)
				continue;
			uint32_t L = ll + lo;
			unsigned type = u16(r, L), flag = u16(r, (uint64_t)L + 2), ns = u16(r, (uint64_t)L + 4);
			if (!span(r, L, 6 + 2 * (uint64_t)ns + (flag & 0x10 ? 2 : 0)))
				return 0;
			for (unsigned k = 0; k < ns; k++) {
				unsigned so = u16(r, (uint64_t)L + 6 + 2 * (uint64_t)k);
				if (!so || !span(r, (uint64_t)L + so, 4))
					return 0;
				if (type == (t == GSUB ? 7u : 9u) &&
				    (!span(r, (uint64_t)L + so, 8) ||
				     !span(r, (uint64_t)L + so + u32(r, (uint64_t)L + so + 4), 4)))
					return 0;
			}
		}
	}
	return !r->bad;
}


static font_ot_t *ot_open(font_face_t *f)
{
	font_ot_t *o = xcalloc(1, sizeof(*o));
	o->feats = -1;
	o->nglyphs = f->nglyphs;
	f->ot = o;
	/* AAT shaping, tracking: not modelled */
	if (has_table(f, HB_TAG('m', 'o', 'r', 'x')) || has_table(f, HB_TAG('m', 'o', 'r', 't')) ||
	    has_table(f, HB_TAG('k', 'e', 'r', 'x')) || has_table(f, HB_TAG('t', 'r', 'a', 'k')))
		return o;
	o->t[GSUB] = table(f, o, 0, HB_TAG('G', 'S', 'U', 'B'));
	o->t[GPOS] = table(f, o, 1, HB_TAG('G', 'P', 'O', 'S'));
	o->gdef = table(f, o, 2, HB_TAG('G', 'D', 'E', 'F'));
	o->kern_table = has_table(f, HB_TAG('k', 'e', 'r', 'n'));
	if (!layout_ok(&o->t[GSUB]) || !layout_ok(&o->t[GPOS]))
		return o;
	if (o->gdef.n) {
		rd_t r = tab_rd(&o->gdef);
		if (u16(&r, 0) != 1 || gdef_suspect(o->gdef.n))
			return o;
		o->classdef = u16(&r, 4);
		if (r.bad)
			return o;
		if (o->classdef) {
			unsigned fmt = u16(&r, o->classdef);
			if (fmt == 1)
				span(&r, (uint64_t)o->classdef + 6, 2 * (uint64_t)u16(&r, (uint64_t)o->classdef + 4));
			else if (fmt == 2)
				span(&r, (uint64_t)o->classdef + 4, 6 * (uint64_t)u16(&r, (uint64_t)o->classdef + 2));
			else
				return o;
			if (r.bad)
				return o;
		}
	}
	for (int t = 0; t < 2; t++) {
		if (!o->t[t].n)
			continue;
		rd_t r = tab_rd(&o->t[t]);
		unsigned ll = u16(&r, 8);
		o->nlookups[t] = ll ? u16(&r, ll) : 0;
		if (r.bad || !lists_ok(&r, t))
			return o;
		o->lk[t] = xcalloc(o->nlookups[t] + 1, sizeof(lookup_t));
	}
	o->kerns = o->t[GPOS].n > 0 || o->kern_table;
	o->ok = 1;
	return o;
}

static font_ot_t *face_ot(font_face_t *f)
{
	return f->ot ? f->ot : ot_open(f);
}

void font_ot_free(font_ot_t *o)
{
	if (!o)
		return;
	plans_free(o);
	free(o->plan);
	if (o->pcache)
		for (unsigned k = 0; k <= o->nglyphs / PC_PAGE; k++)
			free(o->pcache[k]);
	free(o->pcache);
	free(o->pc);
	free(o->om);
	for (int t = 0; t < 2; t++) {
		if (o->lk[t])
			for (unsigned i = 0; i < o->nlookups[t]; i++) {
				free(o->lk[t][i].sub);
				free(o->lk[t][i].span);
			}
		free(o->lk[t]);
	}
	for (int i = 0; i < 3; i++)
		hb_blob_destroy(o->blob[i]);
	free(o);
}

/* ---- the subtables the fast path reads, whole and in bounds ---- */

static int cov_ok(rd_t *r, uint32_t c)
{
	unsigned fmt = u16(r, c), n = u16(r, (uint64_t)c + 2);
	if (fmt == 1)
		return span(r, (uint64_t)c + 4, 2 * (uint64_t)n);
	if (fmt == 2)
		return span(r, (uint64_t)c + 4, 6 * (uint64_t)n);
	return !r->bad;
}

static int cd_ok(rd_t *r, uint32_t c)
{
	unsigned fmt = u16(r, c);
	if (fmt == 1)
		return span(r, (uint64_t)c + 6, 2 * (uint64_t)u16(r, (uint64_t)c + 4));
	if (fmt == 2)
		return span(r, (uint64_t)c + 4, 6 * (uint64_t)u16(r, (uint64_t)c + 2));
	return !r->bad;
}

/* offset o from base, which must be in bounds if not 0 */
static int off_cov(rd_t *r, uint32_t base, uint64_t at)
{
	unsigned o = u16(r, at);
	return !o || cov_ok(r, base + o);
}

static int off_cd(rd_t *r, uint32_t base, uint64_t at)
{
	unsigned o = u16(r, at);
	return !o || cd_ok(r, base + o);
}

/* A context rule set's rules (chain: backtrack, input, lookahead). */
static int rules_ok(rd_t *r, uint32_t rs, int chain)
{
	unsigned nr = u16(r, rs);
	if (!span(r, (uint64_t)rs + 2, 2 * (uint64_t)nr))
		return 0;
	for (unsigned k = 0; k < nr; k++) {
		unsigned ro = u16(r, (uint64_t)rs + 2 + 2 * (uint64_t)k);
		if (!ro)
			continue;
		uint64_t p = (uint64_t)rs + ro;
		if (!chain) {
			unsigned ni = u16(r, p), nl = u16(r, p + 2);
			if (!span(r, p + 4, 2 * (uint64_t)(ni ? ni - 1 : 0) + 4 * (uint64_t)nl))
				return 0;
			continue;
		}
		unsigned nb = u16(r, p);
		p += 2 + 2 * (uint64_t)nb;
		unsigned ni = u16(r, p);
		p += 2 + 2 * (uint64_t)(ni ? ni - 1 : 0);
		unsigned na = u16(r, p);
		p += 2 + 2 * (uint64_t)na;
		unsigned nl = u16(r, p);
		if (!span(r, p + 2, 4 * (uint64_t)nl))
			return 0;
	}
	return !r->bad;
}

static int context_ok(rd_t *r, uint32_t so, int chain)
{
	unsigned fmt = u16(r, so);
	if (fmt == 3) {
		if (!chain) {
			unsigned ng = u16(r, (uint64_t)so + 2), nl = u16(r, (uint64_t)so + 4);
			if (!span(r, (uint64_t)so + 6, 2 * (uint64_t)ng + 4 * (uint64_t)nl))
				return 0;
			for (unsigned i = 0; i < ng; i++)
				if (!off_cov(r, so, (uint64_t)so + 6 + 2 * (uint64_t)i))
					return 0;
			return 1;
		}
		uint64_t p = (uint64_t)so + 2;
		for (int part = 0; part < 3; part++) {
			unsigned cnt = u16(r, p);
			if (!span(r, p + 2, 2 * (uint64_t)cnt))
				return 0;
			for (unsigned i = 0; i < cnt; i++)
				if (!off_cov(r, so, p + 2 + 2 * (uint64_t)i))
					return 0;
			p += 2 + 2 * (uint64_t)cnt;
		}
		return span(r, p + 2, 4 * (uint64_t)u16(r, p));
	}
	if (fmt != 1 && fmt != 2)
		return !r->bad;
	if (!off_cov(r, so, (uint64_t)so + 2))
		return 0;
	uint64_t sets = (uint64_t)so + 4;
	if (fmt == 2) {
		for (int i = 0; i < (chain ? 3 : 1); i++)
			if (!off_cd(r, so, (uint64_t)so + 4 + 2 * (uint64_t)i))
				return 0;
		sets = (uint64_t)so + (chain ? 10 : 6);
	}
	unsigned ns = u16(r, sets);
	if (!span(r, sets + 2, 2 * (uint64_t)ns))
		return 0;
	for (unsigned i = 0; i < ns; i++) {
		unsigned o = u16(r, sets + 2 + 2 * (uint64_t)i);
		if (o && !rules_ok(r, so + o, chain))
			return 0;
	}
	return 1;
}

static unsigned popcount16(unsigned v);

/* Subtable so of a lookup of type type in table t. */
static int subtable_ok(rd_t *r, int t, unsigned type, uint32_t so)
{
	unsigned fmt = u16(r, so);
	if (t == GSUB ? type == 5 || type == 6 : type == 7 || type == 8)
		return context_ok(r, so, t == GSUB ? type == 6 : type == 8);
	if (!off_cov(r, so, (uint64_t)so + 2))
		return 0;
	if (t == GSUB && type == 1)
		return fmt == 1 ? span(r, so, 6) :
		       fmt == 2 ? span(r, (uint64_t)so + 6, 2 * (uint64_t)u16(r, (uint64_t)so + 4)) : 1;
	if (t == GSUB && type == 4) {
		unsigned ns = u16(r, (uint64_t)so + 4);
		if (!span(r, (uint64_t)so + 6, 2 * (uint64_t)ns))
			return 0;
		for (unsigned i = 0; i < ns; i++) {
			unsigned o = u16(r, (uint64_t)so + 6 + 2 * (uint64_t)i);
			if (!o)
				continue;
			uint32_t set = so + o;
			unsigned nl = u16(r, set);
			if (!span(r, (uint64_t)set + 2, 2 * (uint64_t)nl))
				return 0;
			for (unsigned k = 0; k < nl; k++) {
				unsigned lo = u16(r, (uint64_t)set + 2 + 2 * (uint64_t)k);
				unsigned c = lo ? u16(r, (uint64_t)set + lo + 2) : 0;
				if (lo && !span(r, (uint64_t)set + lo + 4, 2 * (uint64_t)(c ? c - 1 : 0)))
					return 0;
			}
		}
		return 1;
	}
	if (t == GPOS && type == 1) {
		unsigned len = popcount16(u16(r, (uint64_t)so + 4));
		return fmt == 1 ? span(r, (uint64_t)so + 6, 2 * (uint64_t)len) :
		       fmt == 2 ? span(r, (uint64_t)so + 8, 2 * (uint64_t)len * u16(r, (uint64_t)so + 6)) :
		                  1;
	}
	if (t == GPOS && type == 2) {
		unsigned len = popcount16(u16(r, (uint64_t)so + 4)) + popcount16(u16(r, (uint64_t)so + 6));
		if (fmt == 1) {
			unsigned ns = u16(r, (uint64_t)so + 8);
			if (!span(r, (uint64_t)so + 10, 2 * (uint64_t)ns))
				return 0;
			for (unsigned i = 0; i < ns; i++) {
				unsigned o = u16(r, (uint64_t)so + 10 + 2 * (uint64_t)i);
				if (o && !span(r, (uint64_t)so + o + 2,
				               (uint64_t)u16(r, (uint64_t)so + o) * 2 * (1 + len)))
					return 0;
			}
			return 1;
		}
		if (fmt == 2)
			return off_cd(r, so, (uint64_t)so + 8) && off_cd(r, so, (uint64_t)so + 10) &&
			       span(r, (uint64_t)so + 16, 2 * (uint64_t)len * u16(r, (uint64_t)so + 12) *
			                                      u16(r, (uint64_t)so + 14));
		return 1;
	}
	return !r->bad;         /* the others: their first coverage is all that is read */
}

static uint32_t first_coverage(rd_t *r, int t, unsigned type, uint32_t so);

/* Lookup i of table t, its subtables found (extensions unwrapped). */
static const lookup_t *lookup_get(font_ot_t *o, int t, unsigned i)
{
	lookup_t *L = &o->lk[t][i];
	if (L->state)
		return L;
	L->state = -1;
	rd_t r = tab_rd(&o->t[t]);
	uint32_t ll = u16(&r, 8);
	uint32_t lo = ll + u16(&r, (uint64_t)ll + 2 + 2 * (uint64_t)i);
	unsigned type = u16(&r, lo), flag = u16(&r, (uint64_t)lo + 2), nsub = u16(&r, (uint64_t)lo + 4);
	unsigned ext = t == GSUB ? 7 : 9;
	if (r.bad || !span(&r, (uint64_t)lo + 6, 2 * (uint64_t)nsub))
		return L;
	L->sub = xmalloc(2 * (nsub + 1) * sizeof(uint32_t));
	L->cov = L->sub + nsub + 1;
	unsigned etype = 0;
	for (unsigned k = 0; k < nsub; k++) {
		uint32_t so = lo + u16(&r, (uint64_t)lo + 6 + 2 * (uint64_t)k);
		if (type == ext) {
			unsigned fmt = u16(&r, so), et = u16(&r, (uint64_t)so + 2);
			uint32_t off = u32(&r, (uint64_t)so + 4);
			if (fmt != 1 || et == ext || (k && et != etype) || (uint64_t)so + off >= r.n)
				return L;
			etype = et;
			so += off;
		}
		if (r.bad || so >= r.n)
			return L;
		L->sub[k] = so;
	}
	L->type = type == ext ? etype : type;
	L->flag = flag;
	L->nsub = nsub;
	for (unsigned k = 0; k < nsub; k++)
		if (!subtable_ok(&r, t, L->type, L->sub[k]))
			return L;
	if (L->type == 0 || (t == GSUB && L->type > 8) || (t == GPOS && L->type > 9))
		return L;
	if (nsub == 0 && type == ext)
		return L;
	/* glyph_bits asks for them per new glyph and subtable: a CJK face's
	   hundreds of glyphs times its kern lookup's subtables */
	rd_t rc = tab_rd(&o->t[t]);
	for (unsigned k = 0; k < nsub; k++)
		L->cov[k] = first_coverage(&rc, t, L->type, L->sub[k]);
	L->covbad = rc.bad;
	L->state = 1;
	return L;
}

/* ---- the plan: script, language system, features, lookups ---- */

/* The LangSys HarfBuzz's map builder chooses in table t for script tags
 * st[0..nst) and language tags lt[0..nlt). */
static uint32_t select_langsys(rd_t *r, const hb_tag_t *st, unsigned nst, const hb_tag_t *lt,
                               unsigned nlt)
{
	uint32_t sl = u16(r, 4);
	if (!sl)
		return 0;
	unsigned ns = u16(r, sl);
	long si = -1;
	for (unsigned i = 0; i < nst && si < 0; i++)
		si = bsearch_tag(r, sl + 2, ns, st[i]);
	if (si < 0)
		si = bsearch_tag(r, sl + 2, ns, HB_TAG('D', 'F', 'L', 'T'));
	if (si < 0)
		si = bsearch_tag(r, sl + 2, ns, HB_TAG('d', 'f', 'l', 't'));
	if (si < 0)
		si = bsearch_tag(r, sl + 2, ns, HB_TAG('l', 'a', 't', 'n'));
	if (si < 0 || r->bad)
		return 0;
	uint32_t so = sl + u16(r, (uint64_t)sl + 2 + 6 * (uint64_t)si + 4);
	if (so == sl)
		return 0;
	unsigned nl = u16(r, (uint64_t)so + 2);
	long li = -1;
	for (unsigned i = 0; i < nlt && li < 0; i++)
		li = bsearch_tag(r, so + 4, nl, lt[i]);
	if (li < 0)
		li = bsearch_tag(r, so + 4, nl, HB_TAG('d', 'f', 'l', 't'));
	if (li >= 0) {
		unsigned off = u16(r, (uint64_t)so + 4 + 6 * (uint64_t)li + 4);
		return off ? so + off : 0;
	}
	unsigned def = u16(r, so);
	return def ? so + def : 0;
}

/* Feature index of tag in LangSys ls (first listed), or -1. */
static long find_feature(rd_t *r, uint32_t ls, hb_tag_t tag)
{
	if (!ls)
		return -1;
	uint32_t fl = u16(r, 6);
	unsigned nf = fl ? u16(r, fl) : 0, n = u16(r, (uint64_t)ls + 4);
	if (!span(r, (uint64_t)ls + 6, 2 * (uint64_t)n))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		unsigned fi = u16(r, (uint64_t)ls + 6 + 2 * (uint64_t)i);
		uint32_t ftag = fi < nf ? u32(r, (uint64_t)fl + 2 + 6 * (uint64_t)fi) : 0;
		if (ftag == tag)
			return fi;
	}
	return -1;
}

/* The features of LangSys ls, for find_in: their tags and indexes, in
 * its order (a CJK face's lists some forty: found once per table, not
 * read again for each of the plan's tags). */
#define LS_MAX 256
typedef struct lsfeat {
	unsigned n;             /* > LS_MAX: not kept, find_feature instead */
	uint32_t tag[LS_MAX];
	uint16_t fi[LS_MAX];
} lsfeat_t;

static void ls_features(rd_t *r, uint32_t ls, lsfeat_t *f)
{
	f->n = 0;
	if (!ls)
		return;
	uint32_t fl = u16(r, 6);
	unsigned nf = fl ? u16(r, fl) : 0, n = u16(r, (uint64_t)ls + 4);
	if (!span(r, (uint64_t)ls + 6, 2 * (uint64_t)n))
		return;
	if (n > LS_MAX) {
		f->n = n;
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned fi = u16(r, (uint64_t)ls + 6 + 2 * (uint64_t)i);
		f->fi[i] = (uint16_t)fi;
		f->tag[i] = fi < nf ? u32(r, (uint64_t)fl + 2 + 6 * (uint64_t)fi) : 0;
	}
	f->n = n;
}

/* find_feature(r, ls, tag) from f = ls_features(r, ls). */
static long find_in(rd_t *r, uint32_t ls, const lsfeat_t *f, hb_tag_t tag)
{
	if (f->n > LS_MAX)
		return find_feature(r, ls, tag);
	for (unsigned i = 0; i < f->n; i++)
		if (f->tag[i] == tag)
			return f->fi[i];
	return -1;
}

static int add_feature_lookups(font_ot_t *o, rd_t *r, int t, long fi, plan_t *p, int *n,
                               int cap)
{
	if (fi < 0)
		return 0;
	uint32_t fl = u16(r, 6);
	unsigned nf = fl ? u16(r, fl) : 0;
	if ((unsigned long)fi >= nf)
		return 0;
	uint32_t fo = fl + u16(r, (uint64_t)fl + 2 + 6 * (uint64_t)fi + 4);
	unsigned cnt = u16(r, (uint64_t)fo + 2);
	if (!span(r, (uint64_t)fo + 4, 2 * (uint64_t)cnt))
		return -1;
	for (unsigned i = 0; i < cnt; i++) {
		unsigned li = u16(r, (uint64_t)fo + 4 + 2 * (uint64_t)i);
		if (li >= o->nlookups[t])
			continue;
		if (*n >= cap)
			return -1;
		p->lk[t][(*n)++] = (uint16_t)li;
	}
	return 0;
}

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Sort v[from..*n) and drop repeats. */
static void sort_uniq(uint16_t *v, int from, int *n)
{
	qsort(v + from, (size_t)(*n - from), sizeof(*v), cmp_u16);
	int j = from;
	for (int i = from; i < *n; i++)
		if (i == from || v[i] != v[j - 1])
			v[j++] = v[i];
	*n = j;
}

/* The features HarfBuzz 6.0's plan enables for a horizontal LTR run of a
 * script of the default shaper (hb_ot_shape_collect_features, with
 * font_shape.c's -liga -clig -dlig -calt; frac, numr and dnom only
 * apply around U+2044, which no word here has), sorted by tag as the map
 * builder merges them; stage 0 is rvrn's. */
static const hb_tag_t plan_tags[] = {
	HB_TAG('B', 'U', 'Z', 'Z'), HB_TAG('B', 'u', 'z', 'z'), HB_TAG('H', 'A', 'R', 'F'),
	HB_TAG('H', 'a', 'r', 'f'), HB_TAG('a', 'b', 'v', 'm'), HB_TAG('b', 'l', 'w', 'm'),
	HB_TAG('c', 'c', 'm', 'p'), HB_TAG('c', 'u', 'r', 's'), HB_TAG('d', 'i', 's', 't'),
	HB_TAG('k', 'e', 'r', 'n'), HB_TAG('l', 'o', 'c', 'l'), HB_TAG('l', 't', 'r', 'a'),
	HB_TAG('l', 't', 'r', 'm'), HB_TAG('m', 'a', 'r', 'k'), HB_TAG('m', 'k', 'm', 'k'),
	HB_TAG('r', 'a', 'n', 'd'), HB_TAG('r', 'c', 'l', 't'), HB_TAG('r', 'l', 'i', 'g'),
	HB_TAG('r', 'v', 'r', 'n'), HB_TAG('t', 'r', 'a', 'k'),
};
#define NPLAN_TAGS (sizeof(plan_tags) / sizeof(plan_tags[0]))
#define RVRN HB_TAG('r', 'v', 'r', 'n')

/* The GSUB stage of feature tag in a plan of script sc (each stage's
 * lookups are applied in lookup order, each once; stages one after the
 * other). The default shaper: rvrn's, then all. The Arabic shaper
 * (collect_features_arabic) pauses after stch (with ltra ltrm rand trak
 * Harf HARF, added before it), after ccmp and locl, after each of isol
 * fina fin2 fin3 medi med2 init (never applied to a word here: their
 * masks are on letters that join, and word_ok takes none), after rlig,
 * after rclt and calt; mset and what is added later (Buzz BUZZ abvm blwm,
 * the caller's) come last. A feature added twice keeps its first stage. */
static int gsub_stage(hb_script_t sc, hb_tag_t tag)
{
	if (tag == RVRN)
		return 0;
	if (sc != HB_SCRIPT_ARABIC)
		return 1;
	switch (tag) {
	case HB_TAG('s', 't', 'c', 'h'):
	case HB_TAG('l', 't', 'r', 'a'):
	case HB_TAG('l', 't', 'r', 'm'):
	case HB_TAG('r', 'a', 'n', 'd'):
	case HB_TAG('t', 'r', 'a', 'k'):
	case HB_TAG('H', 'a', 'r', 'f'):
	case HB_TAG('H', 'A', 'R', 'F'): return 1;
	case HB_TAG('c', 'c', 'm', 'p'):
	case HB_TAG('l', 'o', 'c', 'l'): return 2;
	case HB_TAG('r', 'l', 'i', 'g'): return 3;
	case HB_TAG('r', 'c', 'l', 't'): return 4;
	default: return 5;
	}
}
#define MAX_STAGES 6

/* The Arabic shaper's joining features; none of them in the font (GSUB or
 * GPOS): HarfBuzz shapes by its fallback (arabic_fallback_shape). */
static const hb_tag_t arabic_joining[4] = {
    HB_TAG('i', 's', 'o', 'l'),
    HB_TAG('f', 'i', 'n', 'a'),
    HB_TAG('m', 'e', 'd', 'i'),
    HB_TAG('i', 'n', 'i', 't'),
};

static int cmp_tag(const void *a, const void *b)
{
	hb_tag_t x = *(const hb_tag_t *)a, y = *(const hb_tag_t *)b;
	return x < y ? -1 : x > y;
}

/* Tags a run's LangSys is chosen by (hb_ot_tags_from_script_and_language). */
static void run_tags(hb_script_t sc, hb_tag_t *st, unsigned *nst, hb_tag_t *lt, unsigned *nlt)
{
	static hb_language_t und;
	if (!und)
		und = hb_language_from_string("und", 3);
	*nst = HB_OT_MAX_TAGS_PER_SCRIPT;
	*nlt = HB_OT_MAX_TAGS_PER_LANGUAGE;
	hb_ot_tags_from_script_and_language(sc, und, nst, st, nlt, lt);
}

/* 1 when HarfBuzz applies no GPOS to a run of script sc: its shaper
 * names the GPOS script it must have (gpos_tag: Hebrew's 'hebr') and
 * GPOS has no such script (hb-ot-shape.cc, disable_gpos); -1: unreadable. */
static int gpos_disabled(font_ot_t *o, hb_script_t sc)
{
	if (sc != HB_SCRIPT_HEBREW || !o->t[GPOS].n)
		return 0;
	rd_t r = tab_rd(&o->t[GPOS]);
	uint32_t sl = u16(&r, 4);
	int off = !sl || bsearch_tag(&r, sl + 2, u16(&r, sl), HB_TAG('h', 'e', 'b', 'r')) < 0;
	return r.bad ? -1 : off;
}

static void plan_make(font_ot_t *o, plan_t *p, const hb_tag_t *user, int nuser)
{
	hb_tag_t st[HB_OT_MAX_TAGS_PER_SCRIPT], lt[HB_OT_MAX_TAGS_PER_LANGUAGE];
	unsigned nst, nlt;
	run_tags(p->script, st, &nst, lt, &nlt);
	hb_tag_t tags[NPLAN_TAGS + 10];
	int ntags = 0, arabic = p->script == HB_SCRIPT_ARABIC, joins = 0;
	for (unsigned i = 0; i < NPLAN_TAGS; i++)
		tags[ntags++] = plan_tags[i];
	if (arabic) {
		tags[ntags++] = HB_TAG('m', 's', 'e', 't');
		tags[ntags++] = HB_TAG('s', 't', 'c', 'h');
	}
	for (int i = 0; i < nuser && i < 8; i++)
		tags[ntags++] = user[i];
	qsort(tags, (size_t)ntags, sizeof(*tags), cmp_tag);
	int has_gpos_kern = 0, nogpos = gpos_disabled(o, p->script);
	p->ok = 0;
	if (nogpos < 0)
		return;
	for (int t = 0; t < 2; t++) {
		int n = 0;
		p->nlk[t] = 0;
		if (arabic && o->t[t].n) {
			rd_t r = tab_rd(&o->t[t]);
			uint32_t ls = select_langsys(&r, st, nst, lt, nlt);
			for (int i = 0; i < 4; i++)
				joins |= find_feature(&r, ls, arabic_joining[i]) >= 0;
			if (r.bad)
				return;
		}
		if (!o->t[t].n || (t == GPOS && nogpos))
			continue;
		rd_t r = tab_rd(&o->t[t]);
		uint32_t ls = select_langsys(&r, st, nst, lt, nlt);
		unsigned req = ls ? u16(&r, (uint64_t)ls + 2) : 0xffff;
		/* the Arabic shaper's stages: a required feature's is not
		   modelled */
		if (arabic && t == GSUB && req != 0xffff)
			return;
		uint32_t fl = u16(&r, 6);
		unsigned nf = fl ? u16(&r, fl) : 0;
		hb_tag_t reqtag = req != 0xffff && req < nf ? u32(&r, (uint64_t)fl + 2 + 6 * (uint64_t)req) : 0;
		/* the required feature: in the stage of an enabled feature of
		   its tag (frac, numr, dnom are enabled, if never applied) */
		int reqstage = 0;
		for (int i = 0; i < ntags; i++)
			if (reqtag && tags[i] == reqtag)
				reqstage = t == GSUB ? gsub_stage(p->script, tags[i]) : 0;
		if (t == GSUB && (reqtag == HB_TAG('f', 'r', 'a', 'c') || reqtag == HB_TAG('n', 'u', 'm', 'r') ||
		                  reqtag == HB_TAG('d', 'n', 'o', 'm')))
			reqstage = 1;
		lsfeat_t lf;
		ls_features(&r, ls, &lf);
		for (int stage = 0; stage < (t == GSUB ? (arabic ? MAX_STAGES : 2) : 1); stage++) {
			int from = n;
			if (req != 0xffff && reqstage == stage &&
			    add_feature_lookups(o, &r, t, req, p, &n, MAX_LOOKUPS * 2) < 0)
				return;
			for (int i = 0; i < ntags; i++) {
				if (i && tags[i] == tags[i - 1])
					continue;
				int fstage = t == GSUB ? gsub_stage(p->script, tags[i]) : 0;
				if (fstage != stage)
					continue;
				long fi = find_in(&r, ls, &lf, tags[i]);
				if (t == GPOS && tags[i] == HB_TAG('k', 'e', 'r', 'n') && fi >= 0)
					has_gpos_kern = 1;
				if (add_feature_lookups(o, &r, t, fi, p, &n, MAX_LOOKUPS * 2) < 0)
					return;
			}
			sort_uniq(p->lk[t], from, &n);
		}
		if (r.bad)
			return;
		p->nlk[t] = n;
		for (int i = 0; i < n; i++)
			if (lookup_get(o, t, p->lk[t][i])->state < 0)
				return;
	}
	/* HarfBuzz applies a legacy kern table when GPOS has no kern feature */
	if (o->kern_table && !(has_gpos_kern && o->t[GPOS].n))
		return;
	if (arabic && !joins)
		return;
	p->nocache = p->nlk[GSUB] > GB_MAXSUB || p->nlk[GPOS] > GB_MAXPOS;
	p->ok = 1;
}

static void plans_free(font_ot_t *o)
{
	for (int i = 0; i < o->nplans; i++) {
		if (o->plan[i].alias)
			continue;
		free(o->plan[i].gb);
		if (o->plan[i].gbp)
			for (unsigned k = 0; k <= o->nglyphs / GB_PAGE; k++)
				free(o->plan[i].gbp[k]);
		free(o->plan[i].gbp);
	}
	o->nplans = 0;
}

/* The plan of script sc and features mask; one whose lookups are another
 * plan's is that plan (the same glyph bits and pair results). */
static plan_t *plan_get(font_ot_t *o, hb_script_t sc, unsigned mask, const hb_tag_t *user,
                        int nuser)
{
	for (int i = 0; i < o->nplans; i++)
		if (o->plan[i].script == sc && o->plan[i].mask == mask)
			return o->plan[i].alias ? o->plan[i].alias : &o->plan[i];
	if (o->nplans == MAX_PLANS)
		plans_free(o);
	if (!o->plan)
		o->plan = xmalloc(MAX_PLANS * sizeof(*o->plan));
	plan_t *p = &o->plan[o->nplans++];
	memset(p, 0, offsetof(plan_t, lk));
	p->script = sc;
	p->mask = mask;
	plan_make(o, p, user, nuser);
	for (int i = 0; i < o->nplans - 1; i++) {
		plan_t *q = &o->plan[i];
		if (!q->alias && q->ok == p->ok && q->nlk[0] == p->nlk[0] && q->nlk[1] == p->nlk[1] &&
		    !memcmp(q->lk[0], p->lk[0], (size_t)p->nlk[0] * sizeof(uint16_t)) &&
		    !memcmp(q->lk[1], p->lk[1], (size_t)p->nlk[1] * sizeof(uint16_t))) {
			p->alias = q;
			return q;
		}
	}
	return p;
}

/* ---- applying ---- */

typedef struct word {
	rd_t r;                 /* the table being applied */
	unsigned n;
	uint32_t *g;
	uint8_t *props;
	unsigned flag;          /* the lookup's */
	int32_t *dx, *xoff, *yoff;
	int decline;
	int nocache;            /* the plan has no glyph bits: all lookups may act */
	gbits_t any;            /* the lookups that may act somewhere */
	gbits_t bits[MAX_WORD];
} word_t;

/* Whether the t lookup number k of the plan may act at position i. */
static int may_act(const word_t *w, unsigned i, int t, int k)
{
	return w->nocache || ((t == GSUB ? w->bits[i].sub : w->bits[i].pos) >> k & 1);
}

static int skipped(const word_t *w, unsigned i)
{
	return (w->props[i] & w->flag & IGNORE_FLAGS) != 0;
}

enum { M_GLYPH, M_CLASS, M_COVER };

typedef struct matcher {
	int kind;
	uint32_t base;          /* classdef offset, or the subtable (coverage offsets) */
	uint32_t vals;          /* offset of the 16-bit values */
} matcher_t;

static int match_one(word_t *w, const matcher_t *m, unsigned k, unsigned glyph)
{
	unsigned v = u16(&w->r, (uint64_t)m->vals + 2 * (uint64_t)k);
	if (m->kind == M_GLYPH)
		return glyph == v;
	if (m->kind == M_CLASS)
		return classdef(&w->r, m->base, glyph) == v;
	return coverage(&w->r, m->base + v, glyph) != NOT_COVERED;
}

/* skippy_iter.next()/prev() over the word: HarfBuzz's matching of count
 * items after (dir 1) or before (dir -1) position idx, each the next glyph
 * the lookup's flags do not skip. *last: where the last one matched. */
static int match_seq(word_t *w, unsigned idx, int dir, unsigned count, const matcher_t *m,
                     unsigned *last, unsigned *pos)
{
	unsigned num = count;
	for (unsigned k = 0; k < count; k++) {
		int found = 0;
		if (dir > 0) {
			while ((long)idx < (long)w->n - (long)num) {
				idx++;
				if (skipped(w, idx))
					continue;
				if (!match_one(w, m, k, w->g[idx]))
					return 0;
				if (pos)
					pos[k] = idx;
				found = 1;
				break;
			}
		} else {
			while (idx > num - 1) {
				idx--;
				if (skipped(w, idx))
					continue;
				if (!match_one(w, m, k, w->g[idx]))
					return 0;
				found = 1;
				break;
			}
		}
		if (!found)
			return 0;
		num--;
	}
	*last = idx;
	return 1;
}

/* What a context rule that matched at position i applies (HarfBuzz's
 * apply_lookup): its nrec lookup records at rec (sequence index, lookup
 * index), on the input glyphs at pos[0..npos); the lookup goes on at
 * end, after the last input glyph. bad: a rule the fast path does not
 * apply (a Null rule, no input). */
typedef struct cmatch {
	uint32_t rec;
	unsigned nrec, npos, end;
	int bad;
	unsigned pos[64];
} cmatch_t;

/* Whether a chain rule (backtrack, input after the first glyph,
 * lookahead) matches at i: the rule would apply. */
static int chain_match(word_t *w, unsigned i, unsigned nb, const matcher_t *b, unsigned ni,
                       const matcher_t *in, unsigned na, const matcher_t *a, cmatch_t *cm)
{
	unsigned end = i, tmp;
	if (ni > 64)
		return 0;
	if (ni > 1 && !match_seq(w, i, 1, ni - 1, in, &end, cm->pos + 1))
		return 0;
	if (na && !match_seq(w, end, 1, na, a, &tmp, NULL))
		return 0;
	if (nb && !match_seq(w, i, -1, nb, b, &tmp, NULL))
		return 0;
	cm->pos[0] = i;
	cm->npos = ni;
	cm->end = end + 1;
	cm->bad = ni == 0;
	return 1;
}

/* Context (5/7) and chain context (6/8) subtable at so: 1 when it
 * applies at position i (the rule that does in *cm). Unknown formats
 * apply never (as HarfBuzz). */
static int context_fires(word_t *w, uint32_t so, int chain, unsigned i, cmatch_t *cm)
{
	rd_t *r = &w->r;
	unsigned fmt = u16(r, so), g = w->g[i];
	if (fmt == 3) {
		if (!chain) {
			unsigned ng = u16(r, (uint64_t)so + 2);
			if (!ng)
				return 0;
			if (coverage(r, so + u16(r, (uint64_t)so + 6), g) == NOT_COVERED)
				return 0;
			matcher_t in = { M_COVER, so, so + 8 };
			cm->nrec = u16(r, (uint64_t)so + 4);
			cm->rec = so + 6 + 2 * ng;
			return chain_match(w, i, 0, NULL, ng, &in, 0, NULL, cm);
		}
		uint32_t p = so + 2;
		unsigned nb = u16(r, p);
		matcher_t b = { M_COVER, so, p + 2 };
		p += 2 + 2 * nb;
		unsigned ni = u16(r, p);
		if (!ni)
			return 0;
		if (coverage(r, so + u16(r, (uint64_t)p + 2), g) == NOT_COVERED)
			return 0;
		matcher_t in = { M_COVER, so, p + 4 };
		p += 2 + 2 * ni;
		unsigned na = u16(r, p);
		matcher_t a = { M_COVER, so, p + 2 };
		p += 2 + 2 * na;
		cm->nrec = u16(r, p);
		cm->rec = p + 2;
		return chain_match(w, i, nb, &b, ni, &in, na, &a, cm);
	}
	if (fmt != 1 && fmt != 2)
		return 0;
	uint32_t cov = so + u16(r, (uint64_t)so + 2);
	uint32_t idx = coverage(r, cov, g);
	if (idx == NOT_COVERED)
		return 0;
	uint32_t cdb = 0, cdi = 0, cda = 0, sets;
	if (fmt == 2) {
		if (chain) {
			unsigned ob = u16(r, (uint64_t)so + 4), oi = u16(r, (uint64_t)so + 6),
			         oa = u16(r, (uint64_t)so + 8);
			cdb = ob ? so + ob : 0;
			cdi = oi ? so + oi : 0;
			cda = oa ? so + oa : 0;
			sets = so + 10;
		} else {
			unsigned oi = u16(r, (uint64_t)so + 4);
			cdi = oi ? so + oi : 0;
			sets = so + 6;
		}
		idx = classdef(r, cdi, g);
	} else {
		sets = so + 4;
	}
	unsigned nsets = u16(r, sets);
	if (idx >= nsets)
		return 0;
	unsigned rso = u16(r, (uint64_t)sets + 2 + 2 * (uint64_t)idx);
	if (!rso)
		return 0;
	uint32_t rs = so + rso;
	unsigned nrules = u16(r, rs);
	for (unsigned k = 0; k < nrules && !r->bad; k++) {
		unsigned ro = u16(r, (uint64_t)rs + 2 + 2 * (uint64_t)k);
		if (!ro) {
			cm->bad = 1;    /* a Null rule: input count 0 matches */
			return 1;
		}
		uint32_t p = rs + ro;
		int kind = fmt == 1 ? M_GLYPH : M_CLASS;
		if (!chain) {
			unsigned ni = u16(r, p);
			matcher_t in = { kind, cdi, p + 4 };
			cm->nrec = u16(r, (uint64_t)p + 2);
			cm->rec = p + 4 + 2 * (ni ? ni - 1 : 0);
			if (chain_match(w, i, 0, NULL, ni, &in, 0, NULL, cm))
				return 1;
			continue;
		}
		unsigned nb = u16(r, p);
		matcher_t b = { kind, cdb, p + 2 };
		p += 2 + 2 * nb;
		unsigned ni = u16(r, p);
		matcher_t in = { kind, cdi, p + 2 };
		p += 2 + 2 * (ni ? ni - 1 : 0);
		unsigned na = u16(r, p);
		matcher_t a = { kind, cda, p + 2 };
		p += 2 + 2 * na;
		cm->nrec = u16(r, p);
		cm->rec = p + 2;
		if (chain_match(w, i, nb, &b, ni, &in, na, &a, cm))
			return 1;
	}
	return 0;
}

/* Ligature subtable: 1 when a ligature of the glyph at i would form. */
static int ligature_fires(word_t *w, uint32_t so, unsigned i)
{
	rd_t *r = &w->r;
	if (u16(r, so) != 1)
		return 0;
	uint32_t idx = coverage(r, so + u16(r, (uint64_t)so + 2), w->g[i]);
	if (idx == NOT_COVERED || idx >= u16(r, (uint64_t)so + 4))
		return 0;
	unsigned sso = u16(r, (uint64_t)so + 6 + 2 * (uint64_t)idx);
	if (!sso)
		return 0;
	uint32_t set = so + sso;
	unsigned nl = u16(r, set);
	for (unsigned k = 0; k < nl && !r->bad; k++) {
		unsigned lo = u16(r, (uint64_t)set + 2 + 2 * (uint64_t)k);
		if (!lo)
			continue;
		uint32_t lig = set + lo;
		unsigned count = u16(r, (uint64_t)lig + 2);
		if (count == 0)
			continue;
		if (count == 1 || count > 64)
			return count == 1;
		matcher_t in = { M_GLYPH, 0, lig + 4 };
		unsigned end;
		if (match_seq(w, i, 1, count - 1, &in, &end, NULL))
			return 1;
	}
	return 0;
}

/* Glyph props as HarfBuzz sets them from GDEF (0: a mark, which the fast
 * path leaves to HarfBuzz; 1 when GDEF has no classes: base, as synthesised). */
static int glyph_props_slow(font_ot_t *o, unsigned g, uint8_t *props)
{
	if (!o->classdef) {
		*props = P_BASE;
		return 1;
	}
	if (g >= o->nglyphs)
		return 0;
	if (!o->pcache)
		o->pcache = xcalloc(o->nglyphs / PC_PAGE + 1, sizeof(*o->pcache));
	uint8_t **pg = &o->pcache[g / PC_PAGE];
	if (!*pg)
		*pg = xcalloc(PC_PAGE, 1);
	uint8_t *pc = &(*pg)[g % PC_PAGE];
	if (!*pc) {
		rd_t r = tab_rd(&o->gdef);
		unsigned c = classdef(&r, o->classdef, g);
		*pc = r.bad || c == 3 ? 0xff : (uint8_t)(1 + (c == 1 ? P_BASE : c == 2 ? P_LIG : 0));
	}
	if (*pc == 0xff)
		return 0;
	*props = (uint8_t)(*pc - 1);
	return 1;
}

/* glyph_props, its cached answer inline (asked per glyph of every word). */
static inline int glyph_props(font_ot_t *o, unsigned g, uint8_t *props)
{
	const uint8_t *pg;
	if (o->classdef && g < o->nglyphs && o->pcache && (pg = o->pcache[g / PC_PAGE]) &&
	    pg[g % PC_PAGE] && pg[g % PC_PAGE] != 0xff) {
		*props = (uint8_t)(pg[g % PC_PAGE] - 1);
		return 1;
	}
	return glyph_props_slow(o, g, props);
}

/* The first coverage of subtable so of a lookup of type type in table
 * t: the one the glyph at the current position must be in (0: none). */
static uint32_t first_coverage(rd_t *r, int t, unsigned type, uint32_t so)
{
	unsigned fmt = u16(r, so);
	int ctx = t == GSUB ? type == 5 || type == 6 : type == 7 || type == 8;
	int chain = t == GSUB ? type == 6 : type == 8;
	if (ctx && fmt == 3) {
		if (!chain)
			return u16(r, (uint64_t)so + 2) ? so + u16(r, (uint64_t)so + 6) : 0;
		uint32_t p = so + 4 + 2 * u16(r, (uint64_t)so + 2);
		return u16(r, p) ? so + u16(r, (uint64_t)p + 2) : 0;
	}
	if (ctx && fmt != 1 && fmt != 2)
		return 0;
	unsigned off = u16(r, (uint64_t)so + 2);
	return off ? so + off : 0;
}

static int declines(int t, unsigned type)
{
	return t == GSUB ? type == 2 || type == 3 || type == 8 : type >= 3 && type <= 6;
}

/* Set bit in *field of every glyph coverage c lists (a superset of what
 * coverage() finds when the table is not sorted: the bits only tell
 * where to look). */
static void coverage_mark(rd_t *r, uint32_t c, gbits_t *gb, unsigned nglyphs, int t, uint32_t bit)
{
	unsigned fmt = u16(r, c), count = u16(r, (uint64_t)c + 2);
	uint16_t b16 = (uint16_t)bit;
	const unsigned char *p = r->p + c + 4; /* read directly once in bounds */
	if (fmt == 1 && span(r, (uint64_t)c + 4, 2 * (uint64_t)count)) {
		for (unsigned i = 0; i < count; i++, p += 2) {
			unsigned g = (unsigned)p[0] << 8 | p[1];
			if (g < nglyphs)
				*(t == GSUB ? &gb[g].sub : &gb[g].pos) |= b16;
		}
	} else if (fmt == 2 && span(r, (uint64_t)c + 4, 6 * (uint64_t)count)) {
		for (unsigned i = 0; i < count; i++, p += 6) {
			unsigned a = (unsigned)p[0] << 8 | p[1], b = (unsigned)p[2] << 8 | p[3];
			unsigned e = b < nglyphs ? b + 1 : nglyphs;
			if (t == GSUB)
				for (unsigned g = a; g < e; g++)
					gb[g].sub |= b16;
			else
				for (unsigned g = a; g < e; g++)
					gb[g].pos |= b16;
		}
	}
}

/* All glyphs' bits at once, for a face of few glyphs: one pass over each
 * coverage rather than a search per glyph and subtable. */
static void plan_bits(font_ot_t *o, plan_t *p)
{
	/* zeroed: no bits yet (GB_DONE only marks the pages' entries) */
	p->gb = xcalloc(o->nglyphs, sizeof(*p->gb));
	for (int t = 0; t < 2; t++) {
		rd_t r = tab_rd(&o->t[t]);
		for (int k = 0; k < p->nlk[t]; k++) {
			const lookup_t *L = &o->lk[t][p->lk[t][k]];
			r.bad |= L->covbad;
			for (unsigned s = 0; s < L->nsub; s++) {
				uint32_t c = L->cov[s];
				if (!c)
					continue;
				coverage_mark(&r, c, p->gb, o->nglyphs, t, 1u << k);
				if (declines(t, L->type))
					coverage_mark(&r, c, p->gb, o->nglyphs, GPOS, GB_DECLINE);
			}
		}
		if (r.bad)
			p->nocache = 1;
	}
}

/* min << 16 | max of the glyphs coverage c lists, read in full: outside
 * [min, max] coverage() can find nothing, sorted or not, and reads
 * nothing past the table (when c does not lie wholly in the table: 0 <<
 * 16 | 0xffff, no glyph is ruled out, coverage() marks the read bad). */
static uint32_t cov_span(rd_t *r, uint32_t c)
{
	rd_t q = *r;
	unsigned fmt = u16(&q, c), count = u16(&q, (uint64_t)c + 2);
	unsigned min = 0xffff, max = 0, stride = fmt == 1 ? 2 : 6;
	if (q.bad || ((fmt == 1 || fmt == 2) && !span(&q, (uint64_t)c + 4, (uint64_t)count * stride)))
		return 0xffff;
	if (fmt != 1 && fmt != 2)
		return 0xffffu << 16;
	for (unsigned i = 0; i < count; i++) {
		uint64_t e = (uint64_t)c + 4 + (uint64_t)i * stride;
		unsigned a = u16(&q, e), b = fmt == 1 ? a : u16(&q, e + 2);
		if (a < min)
			min = a;
		if (b > max)
			max = b;
	}
	return min > max ? 0xffffu << 16 : (uint32_t)min << 16 | max;
}

static int cmp_cspan(const void *a, const void *b)
{
	const cspan_t *x = a, *y = b;
	return x->min != y->min ? (int)x->min - (int)y->min : x->s < y->s ? -1 : x->s > y->s;
}

/* L's coverages' spans, sorted by their first glyph (the coverages of
 * offset 0, never searched, left out). */
static void lookup_spans(rd_t *r, lookup_t *L)
{
	L->span = xmalloc((L->nsub + 1) * sizeof(*L->span));
	L->nspan = L->spanw = 0;
	for (unsigned s = 0; s < L->nsub; s++) {
		if (!L->cov[s])
			continue;
		uint32_t sp = cov_span(r, L->cov[s]);
		cspan_t *e = &L->span[L->nspan++];
		e->min = (uint16_t)(sp >> 16);
		e->max = (uint16_t)sp;
		e->s = s;
		if (e->max >= e->min && (unsigned)(e->max - e->min) > L->spanw)
			L->spanw = (unsigned)(e->max - e->min);
	}
	for (unsigned k = 1; k < L->nspan; k++)
		if (L->span[k].min < L->span[k - 1].min) { /* else sorted already */
			qsort(L->span, L->nspan, sizeof(*L->span), cmp_cspan);
			break;
		}
}

/* Glyph g's bits in plan p. */
static gbits_t glyph_bits_slow(font_ot_t *o, plan_t *p, unsigned g)
{
	gbits_t all = { 0xffffu, 0xffffu & ~GB_DECLINE };
	if (p->nocache || g >= o->nglyphs)
		return all;
	if (!p->gb && o->nglyphs <= 16384)
		plan_bits(o, p);
	if (p->nocache)
		return all;
	if (p->gb)
		return p->gb[g];
	/* a face of many glyphs (CJK): pages of GB_PAGE glyphs, made when
	   a glyph of theirs is first asked (a CV's few hundred glyphs lie
	   all over the font: a whole array would be touched all over) */
	if (!p->gbp)
		p->gbp = xcalloc(o->nglyphs / GB_PAGE + 1, sizeof(*p->gbp));
	gbits_t **pg = &p->gbp[g / GB_PAGE];
	if (!*pg)
		*pg = xcalloc(GB_PAGE, sizeof(**pg));
	gbits_t *b = &(*pg)[g % GB_PAGE];
	if (b->pos & GB_DONE)
		return *b;
	gbits_t v = { 0, GB_DONE };
	for (int t = 0; t < 2; t++) {
		rd_t r = tab_rd(&o->t[t]);
		for (int k = 0; k < p->nlk[t]; k++) {
			lookup_t *L = &o->lk[t][p->lk[t][k]];
			r.bad |= L->covbad;
			/* a CJK face's lookups of hundreds of subtables, each of a
			   glyph or two: a search in each per new glyph cost more
			   than the rest of the shaping. Only the coverages whose
			   span holds g are searched: those whose first glyph is in
			   [g - spanw, g] (the order they are searched in does not
			   matter: the bits are an or, a bad read anywhere is all) */
			if (!L->span)
				lookup_spans(&r, L);
			unsigned lo = g > L->spanw ? g - L->spanw : 0, j = 0, hi = L->nspan;
			while (j < hi) {
				unsigned m = (j + hi) / 2;
				if (L->span[m].min < lo)
					j = m + 1;
				else
					hi = m;
			}
			for (; j < L->nspan && L->span[j].min <= g; j++) {
				if (g > L->span[j].max)
					continue;
				if (coverage(&r, L->cov[L->span[j].s], g) == NOT_COVERED)
					continue;
				if (t == GSUB)
					v.sub |= (uint16_t)(1u << k);
				else
					v.pos |= (uint16_t)(1u << k);
				if (declines(t, L->type))
					v.pos |= GB_DECLINE;
			}
		}
		if (r.bad)
			return all;
	}
	*b = v;
	return v;
}

/* glyph_bits, a small face's answer inline (asked per glyph of every word). */
static inline gbits_t glyph_bits(font_ot_t *o, plan_t *p, unsigned g)
{
	if (p->gb && !p->nocache && g < o->nglyphs)
		return p->gb[g];
	return glyph_bits_slow(o, p, g);
}

/* Single substitution lookup L at position i (HarfBuzz's
 * SingleSubstFormat1/2::apply, the first subtable that covers the
 * glyph): 1 when it replaced the glyph, 0 when it did not apply or
 * (w->decline) the new glyph is one the fast path does not model. */
static int single_apply(font_ot_t *o, plan_t *p, word_t *w, const lookup_t *L, unsigned i)
{
	rd_t *r = &w->r;
	for (unsigned s = 0; s < L->nsub; s++) {
		uint32_t so = L->sub[s];
		unsigned fmt = u16(r, so), g = w->g[i];
		uint32_t idx = coverage(r, so + u16(r, (uint64_t)so + 2), g);
		if (idx == NOT_COVERED || (fmt != 1 && fmt != 2))
			continue;
		unsigned ng;
		if (fmt == 1) {
			ng = (g + u16(r, (uint64_t)so + 4)) & 0xffffu;
		} else {
			if (idx >= u16(r, (uint64_t)so + 4))
				continue;
			ng = u16(r, (uint64_t)so + 6 + 2 * (uint64_t)idx);
		}
		uint8_t pr;
		if (ng >= o->nglyphs || !glyph_props(o, ng, &pr)) {
			w->decline = 1;
			return 0;
		}
		if (o->classdef)
			w->props[i] = pr;
		w->g[i] = ng;
		w->bits[i] = glyph_bits(o, p, ng);
		w->any.sub |= w->bits[i].sub;
		w->any.pos |= w->bits[i].pos;
		if (w->bits[i].pos & GB_DECLINE)
			w->decline = 1;
		return 1;
	}
	return 0;
}

/* A context rule's lookups (HarfBuzz's apply_lookup, recursing into
 * SubstLookup::apply_recurse_func): each record in order, whose sequence
 * index is an input glyph, applies its lookup at that glyph, with no
 * check of the nested lookup's flags against it (HarfBuzz makes none).
 * Modelled when every such lookup is a single substitution (the word
 * keeps its length, so the positions stay); 0 (decline) otherwise. */
static int context_apply(font_ot_t *o, plan_t *p, word_t *w, const cmatch_t *cm)
{
	if (cm->bad)
		return 0;
	for (unsigned k = 0; k < cm->nrec; k++) {
		unsigned seq = u16(&w->r, (uint64_t)cm->rec + 4 * (uint64_t)k);
		unsigned li = u16(&w->r, (uint64_t)cm->rec + 4 * (uint64_t)k + 2);
		if (w->r.bad)
			return 0;
		if (seq >= cm->npos)
			continue;       /* HarfBuzz: ignored */
		if (li >= o->nlookups[GSUB])
			return 0;
		const lookup_t *N = lookup_get(o, GSUB, li);
		if (N->state != 1 || N->type != 1)
			return 0;
		single_apply(o, p, w, N, cm->pos[seq]);
		if (w->decline)
			return 0;
	}
	return 1;
}

/* One GSUB lookup over the word. */
static void gsub_lookup(font_ot_t *o, plan_t *p, word_t *w, int k)
{
	const lookup_t *L = &o->lk[GSUB][p->lk[GSUB][k]];
	rd_t *r = &w->r;
	w->flag = L->flag;
	for (unsigned i = 0; i < w->n && !w->decline; i++) {
		if (!may_act(w, i, GSUB, k) || skipped(w, i))
			continue;
		if (L->type == 1) {
			single_apply(o, p, w, L, i);
			continue;
		}
		for (unsigned s = 0; s < L->nsub; s++) {
			uint32_t so = L->sub[s];
			unsigned g = w->g[i];
			if (L->type == 4) {
				if (ligature_fires(w, so, i)) {
					w->decline = 1;
					return;
				}
			} else if (L->type == 5 || L->type == 6) {
				cmatch_t cm;
				if (context_fires(w, so, L->type == 6, i, &cm)) {
					/* the lookup goes on after the input (HarfBuzz:
					   move_to(end)); its other subtables are not tried */
					if (!context_apply(o, p, w, &cm))
						w->decline = 1;
					i = cm.end - 1;
					break;
				}
			} else {
				/* multiple, alternate, reverse chain: any covered glyph */
				if (coverage(r, so + u16(r, (uint64_t)so + 2), g) != NOT_COVERED) {
					w->decline = 1;
					return;
				}
			}
		}
	}
}

static unsigned popcount16(unsigned v)
{
	unsigned c = 0;
	for (; v; v &= v - 1)
		c++;
	return c;
}

/* ValueRecord of format fmt at o added to glyph i (devices: none apply at
 * ppem 0 without variations). */
static void value_apply(word_t *w, unsigned fmt, uint32_t o, unsigned i)
{
	rd_t *r = &w->r;
	if (fmt & 1)
		w->xoff[i] += s16(r, o), o += 2;
	if (fmt & 2)
		w->yoff[i] += s16(r, o), o += 2;
	if (fmt & 4)
		w->dx[i] += s16(r, o);
}

/* The next glyph after i the lookup does not skip, or n. */
static unsigned next_unskipped(const word_t *w, unsigned i)
{
	for (unsigned j = i + 1; j < w->n; j++)
		if (!skipped(w, j))
			return j;
	return w->n;
}

/* coverage(r, off, g) (kind 0) or classdef(r, off, g) (kind 1) of the
 * GPOS table r, from o->om when it was read before; an answer is kept
 * only when it read nothing out of bounds (r->bad stays 0), so a kept
 * one is what reading again would give. */
static uint32_t gpos_memo(font_ot_t *o, rd_t *r, int kind, uint32_t off, unsigned g)
{
	if (r->bad || !off)
		return kind ? classdef(r, off, g) : coverage(r, off, g);
	uint64_t key = (uint64_t)kind << 48 | (uint64_t)off << 16 | (g & 0xffffu);
	size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - OTMEMO_BITS));
	if (!o->om)
		o->om = xmalloc(((size_t)1 << OTMEMO_BITS) * sizeof(*o->om));
	otmemo_t *m = &o->om[h];
	if (g <= 0xffffu && (o->omset[h / 64] >> (h % 64) & 1) && m->key == key)
		return m->v;
	uint32_t v = kind ? classdef(r, off, g) : coverage(r, off, g);
	if (!r->bad && g <= 0xffffu) {
		m->key = key;
		m->v = v;
		o->omset[h / 64] |= (uint64_t)1 << (h % 64);
	}
	return v;
}

/* PairPos subtable at so for the glyph at *i: 1 when it applied (*i: the
 * position after, as HarfBuzz sets buffer->idx). */
static int pair_apply(font_ot_t *o, word_t *w, uint32_t so, unsigned *i)
{
	rd_t *r = &w->r;
	unsigned fmt = u16(r, so);
	if (fmt != 1 && fmt != 2)
		return 0;
	uint32_t idx = gpos_memo(o, r, 0, so + u16(r, (uint64_t)so + 2), w->g[*i]);
	if (idx == NOT_COVERED)
		return 0;
	unsigned j = next_unskipped(w, *i);
	if (j >= w->n)
		return 0;
	unsigned f1 = u16(r, (uint64_t)so + 4), f2 = u16(r, (uint64_t)so + 6);
	unsigned len1 = popcount16(f1), len2 = popcount16(f2);
	if (fmt == 1) {
		if (idx >= u16(r, (uint64_t)so + 8))
			return 0;
		unsigned pso = u16(r, (uint64_t)so + 10 + 2 * (uint64_t)idx);
		if (!pso)
			return 0;
		uint32_t ps = so + pso;
		unsigned cnt = u16(r, ps);
		unsigned stride = 2 * (1 + len1 + len2);
		long k = bsearch16(r, ps + 2, cnt, stride, w->g[j]);
		if (k < 0)
			return 0;
		uint32_t rec = ps + 2 + (uint32_t)k * stride + 2;
		value_apply(w, f1, rec, *i);
		value_apply(w, f2, rec + 2 * len1, j);
	} else {
		unsigned cd1 = u16(r, (uint64_t)so + 8), cd2 = u16(r, (uint64_t)so + 10);
		unsigned n1 = u16(r, (uint64_t)so + 12), n2 = u16(r, (uint64_t)so + 14);
		unsigned k1 = gpos_memo(o, r, 1, cd1 ? so + cd1 : 0, w->g[*i]);
		unsigned k2 = gpos_memo(o, r, 1, cd2 ? so + cd2 : 0, w->g[j]);
		/* HarfBuzz's sanitizer drops a subtable whose matrix overruns */
		if (!span(r, (uint64_t)so + 16, 2 * (uint64_t)(len1 + len2) * n1 * n2) || k1 >= n1 ||
		    k2 >= n2)
			return 0;
		uint64_t rec = (uint64_t)so + 16 + 2 * ((uint64_t)(len1 + len2) * (k1 * (uint64_t)n2 + k2));
		if (!span(r, rec, 2 * (uint64_t)(len1 + len2)))
			return 0;
		value_apply(w, f1, (uint32_t)rec, *i);
		value_apply(w, f2, (uint32_t)rec + 2 * len1, j);
	}
	*i = len2 ? j + 1 : j;
	return 1;
}

/* A pair lookup (the plan's k-th GPOS lookup L) at position *i: 1 when
 * one of its subtables applied (*i moved as HarfBuzz moves buffer->idx). */
static int pair_lookup(font_ot_t *o, unsigned lk, word_t *w, const lookup_t *L, unsigned *i)
{
	unsigned a = *i, j = next_unskipped(w, a);
	if (j >= w->n)
		return 0;
	uint64_t key = ((uint64_t)lk << 40 | (uint64_t)w->g[a] << 20 | w->g[j]) + 1;
	if (!o->pc)
		o->pc = xmalloc(((size_t)1 << PAIRC_BITS) * sizeof(*o->pc));
	size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - PAIRC_BITS));
	pairc_t *c = &o->pc[h];
	if (!(o->pcset[h / 64] >> (h % 64) & 1) || c->key != key) {
		int32_t old[6] = { w->dx[a], w->xoff[a], w->yoff[a], w->dx[j], w->xoff[j], w->yoff[j] };
		unsigned at = a;
		int applied = 0;
		for (unsigned s = 0; s < L->nsub && !applied; s++)
			applied = pair_apply(o, w, L->sub[s], &at);
		if (w->r.bad)
			return 0;
		o->pcset[h / 64] |= (uint64_t)1 << (h % 64);
		c->key = key;
		c->applied = (uint8_t)applied;
		c->skip2 = applied && at == j + 1;
		int32_t now[6] = { w->dx[a], w->xoff[a], w->yoff[a], w->dx[j], w->xoff[j], w->yoff[j] };
		for (int m = 0; m < 6; m++)
			c->v[m] = (int16_t)(now[m] - old[m]);
		if (applied)
			*i = at;
		return applied;
	}
	if (!c->applied)
		return 0;
	w->dx[a] += c->v[0], w->xoff[a] += c->v[1], w->yoff[a] += c->v[2];
	w->dx[j] += c->v[3], w->xoff[j] += c->v[4], w->yoff[j] += c->v[5];
	*i = c->skip2 ? j + 1 : j;
	return 1;
}

static void gpos_lookup(font_ot_t *o, plan_t *p, word_t *w, int k)
{
	const lookup_t *L = &o->lk[GPOS][p->lk[GPOS][k]];
	rd_t *r = &w->r;
	w->flag = L->flag;
	unsigned i = 0;
	while (i < w->n && !w->decline) {
		int applied = 0;
		if (L->type == 2) {
			if (may_act(w, i, GPOS, k) && !skipped(w, i))
				applied = pair_lookup(o, p->lk[GPOS][k], w, L, &i);
		} else if (may_act(w, i, GPOS, k) && !skipped(w, i)) {
			for (unsigned s = 0; s < L->nsub && !applied; s++) {
				uint32_t so = L->sub[s];
				unsigned fmt = u16(r, so), g = w->g[i];
				switch (L->type) {
				case 1: {
					uint32_t idx = coverage(r, so + u16(r, (uint64_t)so + 2), g);
					if (idx == NOT_COVERED || (fmt != 1 && fmt != 2))
						break;
					unsigned vf = u16(r, (uint64_t)so + 4);
					if (fmt == 1) {
						value_apply(w, vf, so + 6, i);
					} else {
						if (idx >= u16(r, (uint64_t)so + 6))
							break;
						value_apply(w, vf, so + 8 + 2 * popcount16(vf) * idx, i);
					}
					i++;
					applied = 1;
					break;
				}
				case 2:
					applied = pair_apply(o, w, so, &i);
					break;
				case 7:
				case 8: {
					cmatch_t cm;
					if (context_fires(w, so, L->type == 8, i, &cm))
						w->decline = 1;
					break;
				}
				default: /* cursive, mark to base/ligature/mark: covered glyphs */
					if (coverage(r, so + u16(r, (uint64_t)so + 2), g) != NOT_COVERED)
						w->decline = 1;
					break;
				}
				if (w->decline)
					return;
			}
		}
		if (!applied)
			i++;
	}
}

/* Characters a word of the fast path may hold: spacing, not default
 * ignorable, not U+2044 (fractions), not controls, none HarfBuzz joins to
 * the character before (marks, FF9E..FF9F), in the blocks of the scripts
 * of the default shaper it is used for. */
static int cp_ok(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0xad)
		return 0;
	if (cp < 0x300)
		return 1;
	if (!(cp < 0x2e00 || (cp >= 0x2e80 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7a3) ||
	      (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfb00 && cp <= 0xfb06) ||
	      (cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
	      (cp >= 0xfe70 && cp <= 0xfefc) ||
	      (cp >= 0xff00 && cp <= 0xffef && cp != 0xff9e && cp != 0xff9f && cp != 0xffa0) ||
	      (cp >= 0x20000 && cp <= 0x3ffff)))
		return 0;
	if (cp == 0x34f || cp == 0x61c || (cp >= 0x115f && cp <= 0x1160) ||
	    (cp >= 0x17b4 && cp <= 0x17b5) || (cp >= 0x180b && cp <= 0x180f) ||
	    (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x206f) || cp == 0x2044 || cp == 0x3164)
		return 0;
	hb_unicode_general_category_t gc =
		hb_unicode_general_category(hb_unicode_funcs_get_default(), cp);
	return gc != HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK &&
	       gc != HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK &&
	       gc != HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK &&
	       gc != HB_UNICODE_GENERAL_CATEGORY_FORMAT &&
	       gc != HB_UNICODE_GENERAL_CATEGORY_CONTROL &&
	       gc != HB_UNICODE_GENERAL_CATEGORY_UNASSIGNED &&
	       gc != HB_UNICODE_GENERAL_CATEGORY_SURROGATE &&
	       gc != HB_UNICODE_GENERAL_CATEGORY_PRIVATE_USE;
}

/* Scripts whose runs the fast path takes (INVALID: only Common
 * characters): those HarfBuzz shapes with its default shaper, left to
 * right (hb_ot_shaper_categorize: Latin, Greek, Cyrillic, Armenian,
 * Georgian, Han, kana), and three whose shapers do what the default one does, or what
 * plan_make models, for the words cp_ok and word_ok let through:
 *  - Hangul (hb-ot-shaper-hangul.cc): it differs from the default one
 *    in what a run of precomposed syllables the face has (U+AC00-D7A3,
 *    cp_ok) and Common characters never meets: it composes or decomposes
 *    conjoining jamo (U+1100-11FF, A960-A97F, D7B0-D7FF: word_ok turns
 *    them away, cp_ok the last two) and moves tone marks (U+302E-302F,
 *    spacing marks: cp_ok), decomposes a syllable the face lacks (no
 *    glyph: declined), normalizes nothing (the default shaper's
 *    normalization keeps a character whose glyph the face has, and
 *    composes only marks), leaves marks' widths (no marks here), disables
 *    calt (font_shape.c always does) and adds ljmo, vjmo and tjmo with
 *    masks only jamo get: a syllable's lookups are the default plan's
 *    (plan_tags), merged with nothing that changes their flags.
 *  - Hebrew (hb-ot-shaper-hebrew.cc): its compose and reorder_marks
 *    only act on marks; its gpos_tag applies GPOS only when GPOS has a
 *    'hebr' script (plan_make), and the run, Hebrew in a left-to-right
 *    buffer, is shaped reversed (hb_ensure_native_direction; font_ot_shape).
 *  - Arabic (hb-ot-shaper-arabic.cc): the same reversal; its own GSUB
 *    stages and features (gsub_stage, plan_make); its joining features
 *    act on no character word_ok takes; its fallback shaping (a font
 *    without them) and stretching (stch, a multiple substitution) are
 *    HarfBuzz's; its mark reordering only acts on marks. */
static int script_ok(hb_script_t sc)
{
	return sc == HB_SCRIPT_INVALID || sc == HB_SCRIPT_LATIN || sc == HB_SCRIPT_GREEK ||
	       sc == HB_SCRIPT_CYRILLIC || sc == HB_SCRIPT_HAN || sc == HB_SCRIPT_HIRAGANA ||
	       sc == HB_SCRIPT_KATAKANA || sc == HB_SCRIPT_ARMENIAN || sc == HB_SCRIPT_GEORGIAN ||
	       sc == HB_SCRIPT_HANGUL || sc == HB_SCRIPT_HEBREW || sc == HB_SCRIPT_ARABIC;
}

/* Per script, what cp_ok lets through that the script's shaper would
 * touch: the conjoining jamo of the Hangul shaper (U+1100..11FF; the
 * other jamo blocks and the tone marks cp_ok refuses); every character
 * the Arabic shaper joins (its joining type not U: in the blocks of
 * Arabic, Syriac, NKo, Mandaic, Mongolian all but the Arabic comma,
 * semicolon, question mark, full stop, hamza and the digits and their
 * signs).
 * Arabic text reaches the shaper joined already (bidi.c: the
 * presentation forms, of joining type U). */
static int word_ok(hb_script_t sc, uint32_t cp)
{
	if (sc == HB_SCRIPT_HANGUL)
		return cp < 0x1100 || cp > 0x11ff;
	if (sc == HB_SCRIPT_ARABIC &&
	    ((cp >= 0x600 && cp <= 0x8ff) || (cp >= 0x1800 && cp <= 0x18af)))
		return cp == 0x60c || cp == 0x61b || cp == 0x61f || cp == 0x621 ||
		       (cp >= 0x660 && cp <= 0x66d) || cp == 0x6d4 || (cp >= 0x6f0 && cp <= 0x6f9);
	return 1;
}

/* Whether HarfBuzz shapes a run of script sc, in a left-to-right buffer,
 * reversed: a right-to-left script's, unless it has a decimal digit and no
 * letter (hb_ensure_native_direction; regional indicators cp_ok refuses). */
static int run_reversed(hb_script_t sc, const uint32_t *cps, int n)
{
	if (sc != HB_SCRIPT_HEBREW && sc != HB_SCRIPT_ARABIC)
		return 0;
	hb_unicode_funcs_t *u = hb_unicode_funcs_get_default();
	int number = 0;
	for (int i = 0; i < n; i++) {
		hb_unicode_general_category_t gc = hb_unicode_general_category(u, cps[i]);
		if (gc == HB_UNICODE_GENERAL_CATEGORY_DECIMAL_NUMBER)
			number = 1;
		else if (gc == HB_UNICODE_GENERAL_CATEGORY_UPPERCASE_LETTER ||
		         gc == HB_UNICODE_GENERAL_CATEGORY_LOWERCASE_LETTER ||
		         gc == HB_UNICODE_GENERAL_CATEGORY_TITLECASE_LETTER ||
		         gc == HB_UNICODE_GENERAL_CATEGORY_MODIFIER_LETTER ||
		         gc == HB_UNICODE_GENERAL_CATEGORY_OTHER_LETTER)
			return 1;
	}
	return !number;
}

static void reverse_u32(uint32_t *v, int n)
{
	for (int i = 0, j = n - 1; i < j; i++, j--) {
		uint32_t t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

int font_ot_kerns(font_face_t *f)
{
	font_ot_t *o = face_ot(f);
	return o->ok ? o->kerns : -1;
}

/* The shaping of g[0..n) in buffer order (reversed when HarfBuzz
 * reverses the run: cps are then in text order, g not). */
static int shape_word(font_ot_t *o, hb_script_t sc, unsigned mask, const hb_tag_t *user, int nuser,
                      uint32_t *g, int n, int32_t *dx, int32_t *xoff, int32_t *yoff)
{
	uint8_t props[MAX_WORD];
	for (int i = 0; i < n; i++) {
		if (!glyph_props(o, g[i], &props[i]))
			return 0;
		dx[i] = xoff[i] = yoff[i] = 0;
	}
	plan_t *p = plan_get(o, sc, mask, user, nuser);
	if (!p->ok)
		return 0;
	word_t w;
	w.decline = 0;
	w.nocache = p->nocache;
	w.any.sub = w.any.pos = 0;
	for (int i = 0; i < n; i++) {
		w.bits[i] = glyph_bits(o, p, g[i]);
		if (w.bits[i].pos & GB_DECLINE)
			return 0;
		w.any.sub |= w.bits[i].sub;
		w.any.pos |= w.bits[i].pos;
	}
	w.n = (unsigned)n;
	w.g = g;
	w.props = props;
	w.dx = dx;
	w.xoff = xoff;
	w.yoff = yoff;
	w.r = tab_rd(&o->t[GSUB]);
	for (int k = 0; k < p->nlk[GSUB] && !w.decline; k++)
		if (w.nocache || (w.any.sub >> k & 1))
			gsub_lookup(o, p, &w, k);
	if (w.decline || w.r.bad)
		return 0;
	for (int i = 0; i < n; i++)
		if (g[i] >= o->nglyphs)
			return 0;
	w.r = tab_rd(&o->t[GPOS]);
	for (int k = 0; k < p->nlk[GPOS] && !w.decline; k++)
		if (w.nocache || (w.any.pos >> k & 1))
			gpos_lookup(o, p, &w, k);
	return !w.decline && !w.r.bad;
}

int font_ot_shape(font_face_t *f, hb_script_t sc, unsigned mask, const hb_tag_t *user, int nuser,
                  const uint32_t *cps, uint32_t *g, int n, int32_t *dx, int32_t *xoff,
                  int32_t *yoff)
{
	font_ot_t *o = face_ot(f);
	if (!o->ok || n <= 0 || n > MAX_WORD)
		return 0;
	if (!script_ok(sc))
		return 0;
	for (int i = 0; i < n; i++)
		if (!cp_ok(cps[i]) || !word_ok(sc, cps[i]) || g[i] == 0 || g[i] >= o->nglyphs)
			return 0;
	if (!run_reversed(sc, cps, n))
		return shape_word(o, sc, mask, user, nuser, g, n, dx, xoff, yoff);
	reverse_u32(g, n);
	int ok = shape_word(o, sc, mask, user, nuser, g, n, dx, xoff, yoff);
	reverse_u32(g, n);
	if (ok) {
		reverse_u32((uint32_t *)dx, n);
		reverse_u32((uint32_t *)xoff, n);
		reverse_u32((uint32_t *)yoff, n);
	}
	return ok;
}

/* FONT_FEAT_* (bit i: tags[i]) that script 0's default LangSys of GSUB
 * lists (as hb_ot_layout_language_find_feature(face, GSUB, 0,
 * DEFAULT_LANGUAGE_INDEX) finds them); -1 when not modelled. */
int font_ot_feats(font_face_t *f, const hb_tag_t *tags, int ntags)
{
	font_ot_t *o = face_ot(f);
	if (!o->ok)
		return -1;
	if (o->feats >= 0)
		return o->feats;
	int have = 0;
	if (o->t[GSUB].n) {
		rd_t r = tab_rd(&o->t[GSUB]);
		uint32_t sl = u16(&r, 4);
		uint32_t ls = 0;
		if (sl && u16(&r, sl) > 0) {
			uint32_t so = sl + u16(&r, (uint64_t)sl + 2 + 4);
			unsigned def = so != sl ? u16(&r, so) : 0;
			ls = def ? so + def : 0;
		}
		for (int i = 0; i < ntags; i++)
			if (find_feature(&r, ls, tags[i]) >= 0)
				have |= 1 << i;
		if (r.bad)
			return -1;
	}
	o->feats = have;
	return have;
}

/* HarfBuzz's shaping of cp (glyph gid) alone with its default features
 * and 'halt' (font_halt.c's question): 1 and its x advance and offset
 * when the fast path can answer, 0 when HarfBuzz must. */
int font_ot_halt(font_face_t *f, uint32_t cp, uint32_t gid, int32_t *xadv, int32_t *xoff)
{
	static const hb_tag_t user[4] = { HB_TAG('c', 'a', 'l', 't'), HB_TAG('c', 'l', 'i', 'g'),
		                          HB_TAG('h', 'a', 'l', 't'), HB_TAG('l', 'i', 'g', 'a') };
	hb_script_t sc = hb_unicode_script(hb_unicode_funcs_get_default(), cp);
	if (sc == HB_SCRIPT_COMMON || sc == HB_SCRIPT_INHERITED || sc == HB_SCRIPT_UNKNOWN)
		sc = HB_SCRIPT_INVALID;
	uint32_t g = gid;
	int32_t dx, xo, yo;
	if (!font_ot_shape(f, sc, FONT_OT_HALT, user, 4, &cp, &g, 1, &dx, &xo, &yo))
		return 0;
	if (g != gid) {
		*xadv = *xoff = 0;  /* another glyph: no halt answer */
		return 2;
	}
	*xadv = hb_font_get_glyph_h_advance(f->hbfont, gid) + dx;
	*xoff = xo;
	return 1;
}
