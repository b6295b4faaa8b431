/* font_shape: text -> glyphs with the advances the PDF will draw them at.
 *
 * The text is itemised by face (font_pick.c per code point; a combining
 * mark stays with its base's face when that face has it). Each item is
 * shaped by HarfBuzz in font units (+kern, no ligatures: every glyph must
 * stand for exactly one code point so text extraction stays exact) and
 * reduced to one record per code point: the nominal advance the PDF's
 * widths give (trunc(advance * 1000 / upem), 1/1000 em) and the kerning
 * HarfBuzz adds on top (font units). Features the caller asks for
 * (FONT_FEAT_*: small caps, figure styles) are single substitutions: a
 * code point whose glyph one replaced keeps the new glyph's id and
 * advance, which the page list carries to the PDF (CID = glyph). That size-independent
 * result is cached per (face, item bytes), so repeated words cost one hash
 * lookup. Scaling to the size happens in emit().
 *
 * brk marks where the caller must start a new drawing run: at face or
 * synthetic changes, after a kerned glyph, at missing glyphs, and around a
 * glyph with a HarfBuzz offset. An x offset is carried by moving it from
 * this glyph's advance to the previous one's (the run starting at the
 * offset glyph is then drawn at the offset position; the total width is
 * unchanged). y offsets cannot be expressed and are dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "buf.h"
#include <hb-ot.h>
#include "font_int.h"
#include "unicode.h"
#include "utf8.h"

#define ITEM_CACHE_MAXLEN 256
#define ITEM_CACHE_MAX 65536

void font_shaped_init(font_shaped_t *s)
{
	memset(s, 0, sizeof(*s));
}

void font_shaped_done(font_shaped_t *s)
{
	free(s->g);
	memset(s, 0, sizeof(*s));
}

/* Room for n more glyphs in s. */
static void shaped_reserve(font_shaped_t *s, int n)
{
	if (s->n + n <= s->cap)
		return;
	while (s->n + n > s->cap)
		s->cap = s->cap ? 2 * s->cap : 64;
	s->g = xrealloc(s->g, (size_t)s->cap * sizeof(*s->g));
}

static font_glyph_t *shaped_add(font_shaped_t *s)
{
	shaped_reserve(s, 1);
	font_glyph_t *g = &s->g[s->n++];
	memset(g, 0, sizeof(*g));
	return g;
}

void font_cache_free(font_lib_t *lib)
{
	for (int i = 0; i < lib->nslab; i++)
		free(lib->slab[i]);
	free(lib->slab);
	lib->slab = NULL;
	lib->nslab = 0;
	lib->slab_at = NULL;
	lib->slab_left = 0;
	free(lib->cache);
	lib->cache = NULL;
	lib->capcache = lib->ncache = 0;
	free(lib->stext);
	lib->stext = NULL;
	lib->nstext = lib->capstext = 0;
}

static uint64_t item_hash(int face, unsigned feats, const char *s, uint32_t n)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)(unsigned)face ^ (uint64_t)feats << 40;
	for (uint32_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h ^ (h >> 29);
}

/* The unscaled (font units) nominal advance of glyph gid: from hmtx
 * (f->hb: read by pieces, no array) inline, else face_hadv_slow. */
static int32_t face_hadv_slow(font_face_t *f, hb_codepoint_t gid)
{
	if (gid >= f->nglyphs)
		return hb_font_get_glyph_h_advance(f->hbfont, gid);
	if (!f->hadv)
		f->hadv = xcalloc(f->nglyphs, sizeof(*f->hadv));
	if (f->hadv[gid] <= 0) {
		int32_t a = hb_font_get_glyph_h_advance(f->hbfont, gid);
		if (a < 0)
			return a;
		f->hadv[gid] = a + 1;
	}
	return f->hadv[gid] - 1;
}

static inline int32_t face_hadv(font_face_t *f, hb_codepoint_t gid)
{
	if (gid < f->hbn)
		return (int32_t)sfnt_hb_advance(f->hb, gid);
	return face_hadv_slow(f, gid);
}

/* HarfBuzz looks up each character's glyph several times while it
 * shapes (normalisation): the shaping font answers from face_gid's cache
 * what f->hbfont (whose sub-font it is; all else is delegated to it)
 * would answer. */
static hb_bool_t shape_nominal(hb_font_t *font, void *data, hb_codepoint_t u,
                               hb_codepoint_t *g, void *user)
{
	(void)font;
	(void)user;
	font_face_t *f = data;
	hb_bool_t r;
	if (u < FONT_GID_CACHE && (*g = font_face_gid(f, u)) != 0)
		r = 1;
	else
		r = hb_font_get_nominal_glyph(f->hbfont, u, g);
	if (f->cut > 0 && r && !(*g < f->nglyphs && f->cutg[*g >> 3] >> (*g & 7) & 1))
		f->cutmiss = 1;         /* outside the cut tables' closure */
	return r;
}

/* What the parent font answers (as without this function), checked as
 * shape_nominal's glyphs are. */
static hb_bool_t shape_variation(hb_font_t *font, void *data, hb_codepoint_t u,
                                 hb_codepoint_t vs, hb_codepoint_t *g, void *user)
{
	(void)user;
	font_face_t *f = data;
	hb_bool_t r = hb_font_get_variation_glyph(hb_font_get_parent(font), u, vs, g);
	if (f->cut > 0 && r && !(*g < f->nglyphs && f->cutg[*g >> 3] >> (*g & 7) & 1))
		f->cutmiss = 1;
	return r;
}

static unsigned shape_nominals(hb_font_t *font, void *data, unsigned count,
                               const hb_codepoint_t *u, unsigned ustride, hb_codepoint_t *g,
                               unsigned gstride, void *user)
{
	unsigned i;
	for (i = 0; i < count; i++) {
		if (!shape_nominal(font, data, *u, g, user))
			break;
		u = (const hb_codepoint_t *)(const void *)((const char *)u + ustride);
		g = (hb_codepoint_t *)(void *)((char *)g + gstride);
	}
	return i;
}

static hb_font_t *face_shapefont(font_face_t *f)
{
	static hb_font_funcs_t *funcs;
	hb_font_t **sf = f->cut > 0 ? &f->cutshape : &f->shapefont;
	if (*sf)
		return *sf;
	if (!funcs) {
		funcs = hb_font_funcs_create();
		hb_font_funcs_set_nominal_glyph_func(funcs, shape_nominal, NULL, NULL);
		hb_font_funcs_set_nominal_glyphs_func(funcs, shape_nominals, NULL, NULL);
		hb_font_funcs_set_variation_glyph_func(funcs, shape_variation, NULL, NULL);
		hb_font_funcs_make_immutable(funcs);
	}
	*sf = hb_font_create_sub_font(f->cut > 0 ? f->cuthb : f->hbfont);
	hb_font_set_funcs(*sf, funcs, f, NULL);
	return *sf;
}

/* Back to f's own tables (font_face_uncut), and so to plans on them. */
static void face_uncut(font_face_t *f)
{
	for (int i = 0; i < f->nplans; i++)
		hb_shape_plan_destroy(f->plan[i]);
	f->nplans = 0;
	font_face_uncut(f);
}

/* The shaping plan for the buffer's properties: what hb_shape would find
 * in HarfBuzz's plan cache, kept here to save the search on every call. */
static hb_shape_plan_t *face_plan(font_face_t *f, const hb_segment_properties_t *p,
                                  const hb_feature_t *feats, unsigned nfeats, unsigned mask)
{
	for (int i = 0; i < f->nplans; i++)
		if (f->planfeats[i] == mask && hb_segment_properties_equal(&f->planprops[i], p))
			return f->plan[i];
	int k = FONT_NPLANS - 1;
	if (f->nplans < FONT_NPLANS)
		k = f->nplans++;
	else
		hb_shape_plan_destroy(f->plan[k]);
	f->plan[k] = hb_shape_plan_create_cached2(font_face_shaping(f), p, feats, nfeats, NULL, 0,
	                                          NULL);
	f->planprops[k] = *p;
	f->planfeats[k] = mask;
	return f->plan[k];
}

/* Decode item text into per-code-point records with nominal advances. */
static int item_decode(font_face_t *f, const char *s, uint32_t n, font_sglyph_t *g)
{
	int k = 0;
	for (uint32_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_next(s + i, n - i, &cp);
		hb_codepoint_t gid = font_face_gid(f, cp);
		memset(&g[k], 0, sizeof(g[k]));
		g[k].cp = cp;
		g[k].off = i;
		g[k].milli = font_face_milli(f, gid);
		k++;
		i += (uint32_t)l;
	}
	return k;
}

static const hb_tag_t feat_tags[] = {
	HB_TAG('s', 'm', 'c', 'p'), HB_TAG('c', '2', 's', 'c'), HB_TAG('o', 'n', 'u', 'm'),
	HB_TAG('l', 'n', 'u', 'm'), HB_TAG('t', 'n', 'u', 'm'), HB_TAG('p', 'n', 'u', 'm'),
};
#define NFEAT_TAGS (sizeof(feat_tags) / sizeof(feat_tags[0]))

/* 1 when VITA_SHAPER=harfbuzz asks for HarfBuzz for everything (the
 * fast path of font_ot.c off: differential tests compare the two). */
static int shaper_mode = -1;   /* 0 fast path, 1 HarfBuzz only, 2 fast + counts */
static long shaper_count[3];   /* items shaped by the fast path, by HarfBuzz;
                                  texts shaped (font_shape_pieces calls) */

static void shaper_report(void)
{
	fprintf(stderr, "vita: shaper: %ld items by the fast path, %ld by HarfBuzz; %ld texts shaped\n",
	        shaper_count[0], shaper_count[1], shaper_count[2]);
}

static int shaper_hb(void)
{
	if (shaper_mode < 0) {
		const char *e = getenv("VITA_SHAPER");
		shaper_mode = e && strcmp(e, "harfbuzz") == 0 ? 1 : e && strcmp(e, "stats") == 0 ? 2 : 0;
		if (shaper_mode == 2)
			atexit(shaper_report);
	}
	return shaper_mode == 1;
}

/* FONT_FEAT_* that f's GSUB has (read once; from font_ot.c's reading of
 * the table when it models the face: HarfBuzz's would load all of GSUB).
 * With hb (the text goes to HarfBuzz, which loads that GSUB anyway) and
 * the face not modelled yet, HarfBuzz answers: modelling a Devanagari
 * face (864 lookups checked) only to learn its features cost 130 K
 * instructions, and its text never takes the fast path. */
static unsigned face_feats(font_face_t *f, int hb)
{
	if (f->feats & FONT_FEATS_READ)
		return f->feats & ~FONT_FEATS_READ;
	int ot = shaper_hb() || (hb && !f->ot) ? -1 : font_ot_feats(f, feat_tags, (int)NFEAT_TAGS);
	unsigned have = ot >= 0 ? (unsigned)ot : 0;
	for (unsigned i = 0; ot < 0 && i < NFEAT_TAGS; i++) {
		unsigned idx;
		if (hb_ot_layout_language_find_feature(font_face_shaping(f), HB_OT_TAG_GSUB, 0,
		                                       HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX,
		                                       feat_tags[i], &idx))
			have |= 1u << i;
	}
	f->feats = have | FONT_FEATS_READ;
	return have;
}

static const hb_feature_t base_feats[5] = {
	{ HB_TAG('k', 'e', 'r', 'n'), 1, 0, (unsigned)-1 },
	{ HB_TAG('l', 'i', 'g', 'a'), 0, 0, (unsigned)-1 },
	{ HB_TAG('c', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
	{ HB_TAG('d', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
	{ HB_TAG('c', 'a', 'l', 't'), 0, 0, (unsigned)-1 },
};

/* The features shaping with mask asks for (+kern, no ligatures); returns
 * their number. */
static unsigned mask_feats(unsigned mask, hb_feature_t *feats)
{
	unsigned nfeats = 5;
	memcpy(feats, base_feats, sizeof(base_feats));
	for (unsigned i = 0; i < NFEAT_TAGS; i++)
		if (mask & 1u << i)
			feats[nfeats++] = (hb_feature_t){ feat_tags[i], 1, 0, (unsigned)-1 };
	return nfeats;
}

/* Scripts HarfBuzz shapes into clusters of glyphs that are not one per
 * code point (its Indic, Thai/Lao, Myanmar, Khmer, Tibetan and Sinhala
 * shapers: conjuncts, reordered vowel signs, stacked marks): their items
 * are given as clusters (FONT_CL_*), with all of the font's features. */
static int script_clusters(hb_script_t sc)
{
	switch (sc) {
	case HB_SCRIPT_DEVANAGARI: case HB_SCRIPT_BENGALI: case HB_SCRIPT_GURMUKHI:
	case HB_SCRIPT_GUJARATI: case HB_SCRIPT_ORIYA: case HB_SCRIPT_TAMIL:
	case HB_SCRIPT_TELUGU: case HB_SCRIPT_KANNADA: case HB_SCRIPT_MALAYALAM:
	case HB_SCRIPT_SINHALA: case HB_SCRIPT_THAI: case HB_SCRIPT_LAO:
	case HB_SCRIPT_TIBETAN: case HB_SCRIPT_MYANMAR: case HB_SCRIPT_KHMER:
		return 1;
	default:
		return 0;
	}
}

/* Shape s[0..n) in f with HarfBuzz into lib->buf, as one item whose
 * script is script (HB_SCRIPT_INVALID: guessed from the text, as
 * hb_shape does). A script shaped into clusters keeps its ligatures
 * (conjuncts are ligatures; the text extracts from the clusters). */
static void buf_shape(font_lib_t *lib, font_face_t *f, const char *s, uint32_t n,
                      unsigned mask, hb_script_t script)
{
	static hb_language_t und;
	hb_feature_t feats[5 + NFEAT_TAGS];
	unsigned nfeats;
	hb_buffer_t *b = lib->buf;
	hb_segment_properties_t props;
	if (!und)
		und = hb_language_from_string("und", 3);
	font_face_shaping(f);   /* the tables plan and font are on, decided */
again:
	hb_buffer_clear_contents(b);
	hb_buffer_add_utf8(b, s, (int)n, 0, (int)n);
	hb_buffer_set_direction(b, HB_DIRECTION_LTR);
	if (script != HB_SCRIPT_INVALID)
		hb_buffer_set_script(b, script);
	hb_buffer_set_language(b, und);
	hb_buffer_guess_segment_properties(b);
	hb_buffer_get_segment_properties(b, &props);
	nfeats = mask_feats(mask, feats);
	if (f->color || script_clusters(props.script)) {
		nfeats -= 4;    /* +kern only: no ligature feature turned off */
		memmove(feats + 1, feats + 5, (nfeats - 1) * sizeof(*feats));
		mask |= 1u << 31;  /* its own plan */
	}
	/* = hb_shape(), without its plan cache search */
	hb_shape_plan_t *plan = face_plan(f, &props, feats, nfeats, mask);
	f->cutmiss = 0;
	hb_shape_plan_execute(plan, face_shapefont(f), b, feats, nfeats);
	if (f->cut > 0 && f->cutmiss) {
		/* a glyph the cut tables were not cut for: the face's own */
		face_uncut(f);
		goto again;
	}
}

/* Record code point g's shaped glyph got (0: its cluster is not one
 * glyph) and position: its kerning and offset, and the glyph when a
 * feature of mask replaced its cmap glyph; anything else keeps nominal
 * values. */
static void record_glyph(font_face_t *f, font_sglyph_t *g, hb_codepoint_t got, int32_t xadv,
                         int32_t xoff, int32_t yoff, unsigned mask)
{
	hb_codepoint_t want = font_face_gid(f, g->cp);
	if (mask && got != want && want && got && got < f->nglyphs && got <= 0xffff) {
		g->gid = got;      /* a feature's glyph: its own advance */
		g->milli = font_face_milli(f, got);
		want = got;
	}
	if (got && got == want) {
		int32_t nom = face_hadv(f, want);
		int sl = font_script_lang(g->cp);
		/* Han, kana and CJK marks are set solid (jlreq 3.1, clreq
		   3.1): the CJK faces' 'kern' narrows some kana (デ, ー to
		   0.93 em); the pairs of marks are inline.c's business */
		if (sl == FONT_LANG_NONE || sl == FONT_LANG_KO)
			g->kern = xadv - nom;
		g->xoff = xoff;
		if (xoff || yoff)
			g->flags |= 1;
	}
}

/* Record, per code point of an item that maps 1:1 to a glyph, what
 * HarfBuzz gave (record_glyph). info[0..m) are the item's glyphs, their
 * clusters counted from base. */
static void item_record(font_face_t *f, const hb_glyph_info_t *info,
                        const hb_glyph_position_t *pos, unsigned m, uint32_t base,
                        font_sglyph_t *g, int ng, unsigned mask)
{
	unsigned gi = 0;
	for (int k = 0; k < ng; k++) {
		uint32_t off = base + g[k].off;
		while (gi < m && info[gi].cluster < off)
			gi++;
		unsigned cnt = 0;
		while (gi + cnt < m && info[gi + cnt].cluster == off)
			cnt++;
		if (cnt == 1)
			record_glyph(f, &g[k], info[gi].codepoint, pos[gi].x_advance, pos[gi].x_offset,
			             pos[gi].y_offset, mask);
		gi += cnt;
	}
}



/* An item as it was last emitted, at one size and synthetic style: its
 * glyphs (offsets from the item, the first one's brk recomputed), what
 * it added to the width, and the emitter's pending flag after it. */
/* One glyph of a cluster, in font units. */
typedef struct font_cglyph {
	uint32_t gid;
	int32_t adv, xoff, yoff;
} font_cglyph_t;

typedef struct item_emit {
	int32_t size;           /* 0: not emitted yet */
	int synth;
	int64_t width, abs;     /* sum of the advances as added; of their magnitudes */
	int pending;
	font_cglyph_t *cg;      /* an item shaped into clusters: their glyphs */
	int ncg;
} item_emit_t;


/* An item's allocation: its item_emit_t, ng glyph records, ng emitted
 * glyphs, then its text (ng: one per byte, at least one). */
static size_t item_ng(uint32_t len)
{
	return len ? len : 1;
}

static font_sglyph_t *item_glyphs(void *mem)
{
	return (font_sglyph_t *)(void *)((item_emit_t *)mem + 1);
}

static font_glyph_t *item_emitted(font_sglyph_t *g, uint32_t len)
{
	return (font_glyph_t *)(void *)(g + item_ng(len));
}

static item_emit_t *item_hdr(font_sglyph_t *g)
{
	return (item_emit_t *)(void *)g - 1;
}

/* n bytes for a cached item, from the cache's blocks (freed all at once
 * by font_cache_free): a CV's few hundred items, no malloc each. */
#define SLAB_BLOCK (64 << 10)
static void *slab_alloc(font_lib_t *lib, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n > lib->slab_left) {
		size_t sz = n > SLAB_BLOCK / 4 ? n : SLAB_BLOCK;
		lib->slab = xrealloc(lib->slab, sizeof(*lib->slab) * (size_t)(lib->nslab + 1));
		char *b = lib->slab[lib->nslab++] = xmalloc(sz);
		if (sz != SLAB_BLOCK)
			return b;   /* a big one of its own; the last block stays open */
		lib->slab_at = b;
		lib->slab_left = sz;
	}
	void *p = lib->slab_at;
	lib->slab_at += n;
	lib->slab_left -= n;
	return p;
}

/* Fill it with s[0..n)'s code points and nominal advances; the caller
 * records the shaped values (item_kern, or a batch). Its memory comes
 * from lib's blocks (a cached item), or from malloc (lib NULL: the
 * caller frees it). */
static void item_fill(font_lib_t *lib, font_face_t *f, const char *s, uint32_t n, unsigned mask,
                      font_sitem_t *it)
{
	size_t ng = item_ng(n);
	size_t sz = sizeof(item_emit_t) + ng * (sizeof(font_sglyph_t) + sizeof(font_glyph_t)) + n + 1;
	it->text = lib ? slab_alloc(lib, sz) : xmalloc(sz);
	memset(it->text, 0, sizeof(item_emit_t));
	it->g = item_glyphs(it->text);
	it->n = item_decode(f, s, n, it->g);
	char *t = (char *)(item_emitted(it->g, n) + ng);
	memcpy(t, s, n);
	t[n] = 0;
	it->len = n;
	it->face = f->id;
	it->feats = mask;
}

/* Record an item of a script shaped into clusters: its m glyphs (in
 * drawing order) into the item's cg, and on the code points of each
 * cluster (HarfBuzz's, of whole graphemes) which glyphs draw it. */
static void item_clusters(font_lib_t *lib, const hb_glyph_info_t *info,
                          const hb_glyph_position_t *pos, unsigned m, uint32_t base,
                          font_sglyph_t *g, int ng)
{
	item_emit_t *h = item_hdr(g);
	h->cg = slab_alloc(lib, sizeof(font_cglyph_t) * (m ? m : 1));
	h->ncg = (int)m;
	for (unsigned i = 0; i < m; i++)
		h->cg[i] = (font_cglyph_t){info[i].codepoint, pos[i].x_advance, pos[i].x_offset,
		                           pos[i].y_offset};
	unsigned gi = 0;
	for (int k = 0; k < ng;) {
		/* the cluster's glyphs: from the first whose cluster is k's
		   offset or past it (a code point HarfBuzz merged into the
		   cluster before joins that one) */
		uint32_t c0 = base + g[k].off;
		unsigned g0 = gi;
		while (gi < m && info[gi].cluster <= c0)
			gi++;
		uint32_t c1 = gi < m ? info[gi].cluster - base : UINT32_MAX;
		g[k].flags |= FONT_SG_START;
		g[k].kern = (int32_t)g0;       /* its glyphs: cg[kern..kern+xoff) */
		g[k].xoff = (int32_t)(gi - g0);
		for (k++; k < ng && g[k].off < c1; k++)
			g[k].flags |= FONT_SG_CONT;
	}
}

/* Shape one item alone and record its glyphs. */
static void item_kern(font_lib_t *lib, font_face_t *f, const char *s, uint32_t n,
                      font_sglyph_t *g, int ng, unsigned mask)
{
	buf_shape(lib, f, s, n, mask, HB_SCRIPT_INVALID);
	unsigned m;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(lib->buf, &m);
	hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(lib->buf, NULL);
	hb_segment_properties_t props;
	hb_buffer_get_segment_properties(lib->buf, &props);
	if (f->color || script_clusters(props.script))
		item_clusters(lib, info, pos, m, 0, g, ng);
	else
		item_record(f, info, pos, m, 0, g, ng, mask);
}

/* 1 when an item of n code points in f needs HarfBuzz at all (the face's
 * kerning set-up only asked for an item of two or more). */
static int item_shaped(font_face_t *f, int n, unsigned mask)
{
	return mask || (n > 1 && font_face_kerns(f));
}

/* The same when whether f kerns is known. */
static int item_shaped_as(int n, unsigned mask, int kerns)
{
	return mask || (n > 1 && kerns);
}

#define FAST_MAX 256

static hb_script_t text_script(const char *s, uint32_t n);

/* Shape an item with font_ot.c's fast path: 1 when its records are set
 * (exactly as HarfBuzz would have set them), 0 when it needs HarfBuzz. */
static int item_fast(font_face_t *f, const char *s, uint32_t len, font_sglyph_t *g, int n,
                     unsigned mask)
{
	if (shaper_hb() || n > FAST_MAX)
		return 0;
	int kerns = font_ot_kerns(f);
	if (kerns < 0)
		return 0;
	if (!item_shaped_as(n, mask, kerns))
		return 1;
	uint32_t cps[FAST_MAX], gids[FAST_MAX];
	int32_t dx[FAST_MAX], xoff[FAST_MAX], yoff[FAST_MAX];
	hb_tag_t user[NFEAT_TAGS];
	int nuser = 0;
	for (unsigned i = 0; i < NFEAT_TAGS; i++)
		if (mask & 1u << i)
			user[nuser++] = feat_tags[i];
	for (int k = 0; k < n; k++) {
		cps[k] = g[k].cp;
		gids[k] = font_face_gid(f, g[k].cp);
	}
	if (!font_ot_shape(f, text_script(s, len), mask, user, nuser, cps, gids, n, dx, xoff, yoff)) {
		if (shaper_mode == 2 && getenv("VITA_SHAPER_SHOW"))
			fprintf(stderr, "harfbuzz: %.*s\n", (int)len, s);
		return 0;
	}
	shaper_count[0]++;
	for (int k = 0; k < n; k++)
		record_glyph(f, &g[k], gids[k], face_hadv(f, gids[k]) + dx[k], xoff[k], yoff[k], mask);
	return 1;
}

static const char *item_text(const font_sitem_t *it)
{
	return (const char *)(item_emitted(it->g, it->len) + item_ng(it->len));
}

static void cache_grow(font_lib_t *lib)
{
	int ocap = lib->capcache;
	font_sitem_t *old = lib->cache;
	lib->capcache = ocap ? 2 * ocap : 1024;
	/* an entry is empty while its text is NULL: only that is cleared
	   (the table is 40 KB to begin with) */
	lib->cache = xmalloc((size_t)lib->capcache * sizeof(*lib->cache));
	for (int i = 0; i < lib->capcache; i++)
		lib->cache[i].text = NULL;
	for (int i = 0; i < ocap; i++) {
		if (!old[i].text)
			continue;
		unsigned h = (unsigned)old[i].hash & (unsigned)(lib->capcache - 1);
		while (lib->cache[h].text)
			h = (h + 1) & (unsigned)(lib->capcache - 1);
		lib->cache[h] = old[i];
	}
	free(old);
}

/* The cached item for s[0..n), or a new entry with nominal values only
 * (*fresh = 1: the caller records the shaped ones). */
static font_sitem_t *item_get(font_lib_t *lib, font_face_t *f, const char *s, uint32_t n,
                              unsigned mask, int *fresh)
{
	if (2 * (lib->ncache + 1) > lib->capcache)
		cache_grow(lib);
	uint64_t hash = item_hash(f->id, mask, s, n);
	unsigned hmask = (unsigned)(lib->capcache - 1), h = (unsigned)hash & hmask;
	for (; lib->cache[h].text; h = (h + 1) & hmask) {
		font_sitem_t *it = &lib->cache[h];
		if (it->hash == hash && it->face == f->id && it->feats == mask && it->len == n &&
		    memcmp(item_text(it), s, n) == 0) {
			*fresh = 0;
			return it;
		}
	}
	font_sitem_t *it = &lib->cache[h];
	item_fill(lib, f, s, n, mask, it);
	it->hash = hash;
	lib->ncache++;
	*fresh = 1;
	return it;
}

typedef struct emit_st {
	font_shaped_t *out;
	font_ushaped_t *u;      /* instead of out: the glyphs at no size */
	int32_t size;
	int pending;            /* next glyph starts a run */
	int n0;                 /* out->n where the current piece started */
	int32_t w0;             /* and out->width, out->missing there */
	int m0;
} emit_t;

static int32_t milli_u(int32_t milli, int32_t size)
{
	int64_t v = (int64_t)milli * size;
	return (int32_t)(v >= 0 ? (v + 500) / 1000 : -((-v + 500) / 1000));
}

static int32_t funits_u(int32_t fu, int32_t size, int upem)
{
	int64_t v = (int64_t)fu * size;
	return (int32_t)(v >= 0 ? (v + upem / 2) / upem : -((-v + upem / 2) / upem));
}

static int starts_run(const emit_t *st, int face, int synth)
{
	if (st->u) {
		const font_ushaped_t *u = st->u;
		if (u->n == st->n0)
			return 0;
		const font_uglyph_t *p = &u->g[u->n - 1];
		return p->face != face || p->synth != synth;
	}
	const font_shaped_t *o = st->out;
	if (o->n == st->n0)
		return 0;
	const font_glyph_t *p = &o->g[o->n - 1];
	return p->face != face || p->synth != synth;
}

/* A new piece: its glyphs are emitted as if shaped by a call of their own. */
static void emit_piece(emit_t *st)
{
	st->pending = 0;
	if (st->u) {
		st->n0 = st->u->n;
		st->m0 = st->u->missing;
		return;
	}
	st->n0 = st->out->n;
	st->w0 = st->out->width;
	st->m0 = st->out->missing;
}

static void ushaped_reserve(font_ushaped_t *u, int n)
{
	if (u->n + n <= u->cap)
		return;
	while (u->n + n > u->cap)
		u->cap = u->cap ? 2 * u->cap : 64;
	u->g = xrealloc(u->g, (size_t)u->cap * sizeof(*u->g));
}

/* The records of an item shaped into clusters (FONT_CL_*: see font.h),
 * at no size. */
static void emit_uclusters(emit_t *st, const font_sglyph_t *sgv, int n, const font_cglyph_t *cg,
                           font_face_t *f, int synth, uint32_t base)
{
	font_ushaped_t *u = st->u;
	for (int k = 0; k < n; k++) {
		const font_sglyph_t *sg = &sgv[k];
		int start = (sg->flags & FONT_SG_START) != 0;
		ushaped_reserve(u, 1 + (start ? (int)(uint32_t)sg->xoff : 0));
		font_uglyph_t *g = &u->g[u->n++];
		memset(g, 0, sizeof(*g));
		g->cp = sg->cp;
		g->off = base + sg->off;
		g->face = (int16_t)f->id;
		g->synth = (uint8_t)synth;
		g->upem = f->upem;
		g->brk = 1;
		g->cl = start ? FONT_CL_START : FONT_CL_CONT;
		for (uint32_t i = 0; start && i < (uint32_t)sg->xoff; i++) {
			const font_cglyph_t *c = &cg[sg->kern + (int)i];
			g = &u->g[u->n++];
			memset(g, 0, sizeof(*g));
			g->off = base + sg->off;
			g->face = (int16_t)f->id;
			g->synth = (uint8_t)synth;
			g->upem = f->upem;
			g->gid = (uint16_t)(c->gid <= 0xffff ? c->gid : 0);
			g->kern = c->adv;
			g->dx = c->xoff;   /* moved into the record before it */
			g->dy = c->yoff;
			g->cl = FONT_CL_GLYPH;
		}
	}
	st->pending = 1;
}

/* The same at st->size; adds to *sum and *abs what the width took. */
static void emit_clusters(emit_t *st, const font_sglyph_t *sgv, int n, const font_cglyph_t *cg,
                          font_face_t *f, int synth, uint32_t base, int64_t *sum, int64_t *abs)
{
	font_shaped_t *o = st->out;
	int64_t width = o->width;
	for (int k = 0; k < n; k++) {
		const font_sglyph_t *sg = &sgv[k];
		int start = (sg->flags & FONT_SG_START) != 0;
		shaped_reserve(o, 1 + (start ? (int)(uint32_t)sg->xoff : 0));
		font_glyph_t *g = &o->g[o->n++];
		memset(g, 0, sizeof(*g));
		g->cp = sg->cp;
		g->off = base + sg->off;
		g->face = (int16_t)f->id;
		g->synth = (uint8_t)synth;
		g->brk = 1;
		g->cl = start ? FONT_CL_START : FONT_CL_CONT;
		for (uint32_t i = 0; start && i < (uint32_t)sg->xoff; i++) {
			const font_cglyph_t *c = &cg[sg->kern + (int)i];
			font_glyph_t *p = g;
			g = &o->g[o->n++];
			memset(g, 0, sizeof(*g));
			g->off = base + sg->off;
			g->face = (int16_t)f->id;
			g->synth = (uint8_t)synth;
			g->gid = (uint16_t)(c->gid <= 0xffff ? c->gid : 0);
			g->adv = funits_u(c->adv, st->size, f->upem);
			g->dy = funits_u(c->yoff, st->size, f->upem);
			g->cl = FONT_CL_GLYPH;
			if (c->xoff) {
				/* drawn that far right of the pen: the record
				   before moves it there */
				int32_t dx = funits_u(c->xoff, st->size, f->upem);
				p->adv += dx;
				g->adv -= dx;
				*sum += dx;
				*abs += dx < 0 ? -(int64_t)dx : dx;
				width += dx;
			}
			*sum += g->adv;
			*abs += g->adv < 0 ? -(int64_t)g->adv : g->adv;
			width += g->adv;
			if (width > INT32_MAX)
				width = INT32_MAX;
		}
	}
	o->width = (int32_t)width;
	st->pending = 1;
}

/* emit_item at no size: what it computes each advance from, with the
 * same run breaks (none of which depends on the size). */
static void emit_uitem(emit_t *st, const font_sglyph_t *sgv, int n, font_face_t *f, int synth,
                       uint32_t base)
{
	font_ushaped_t *u = st->u;
	const item_emit_t *h = item_hdr((font_sglyph_t *)sgv);
	if (h->cg) {
		emit_uclusters(st, sgv, n, h->cg, f, synth, base);
		return;
	}
	ushaped_reserve(u, n);
	for (int k = 0; k < n; k++) {
		const font_sglyph_t *sg = &sgv[k];
		int brk = st->pending || (k == 0 && starts_run(st, f->id, synth));
		font_uglyph_t *g = &u->g[u->n++];
		memset(g, 0, sizeof(*g));
		g->cp = sg->cp;
		g->off = base + sg->off;
		g->face = (int16_t)f->id;
		g->synth = (uint8_t)synth;
		g->gid = (uint16_t)sg->gid;
		g->upem = f->upem;
		g->milli = sg->milli;
		g->kern = sg->kern;
		st->pending = sg->kern != 0;
		if (sg->flags & 1) {
			if (u->n - st->n0 > 1)
				g->dx = sg->xoff;
			brk = 1;
			st->pending = 1;
		}
		g->brk = (uint8_t)brk;
	}
}

void font_uglyphs_at(const font_uglyph_t *u, int n, int32_t size, font_glyph_t *out)
{
	for (int k = 0; k < n; k++) {
		font_glyph_t *g = &out[k];
		g->cp = u[k].cp;
		g->off = u[k].off;
		g->face = u[k].face;
		g->synth = u[k].synth;
		g->brk = u[k].brk;
		g->gid = u[k].gid;
		g->cl = u[k].cl;
		if (g->cl == FONT_CL_GLYPH)
			g->dy = u[k].dy ? funits_u(u[k].dy, size, u[k].upem) : 0;
		g->adv = milli_u(u[k].milli, size);
		if (u[k].kern)
			g->adv += funits_u(u[k].kern, size, u[k].upem);
		if (u[k].dx) {
			int32_t dx = funits_u(u[k].dx, size, u[k].upem);
			out[k - 1].adv += dx;
			g->adv -= dx;
		}
	}
}

/* Emit n glyph records; adds to *sum and *abs what the width took. */
static void emit_item(emit_t *st, const font_sglyph_t *sgv, int n, font_face_t *f, int synth,
                      uint32_t base, int64_t *sum, int64_t *abs)
{
	font_shaped_t *o = st->out;
	int64_t width = o->width;
	const item_emit_t *h = item_hdr((font_sglyph_t *)sgv);
	if (h->cg) {
		emit_clusters(st, sgv, n, h->cg, f, synth, base, sum, abs);
		return;
	}
	shaped_reserve(o, n);
	memset(o->g + o->n, 0, (size_t)n * sizeof(*o->g));
	for (int k = 0; k < n; k++) {
		const font_sglyph_t *sg = &sgv[k];
		int brk = st->pending || (k == 0 && starts_run(st, f->id, synth));
		font_glyph_t *g = &o->g[o->n++];
		g->cp = sg->cp;
		g->off = base + sg->off;
		g->face = (int16_t)f->id;
		g->synth = (uint8_t)synth;
		g->gid = (uint16_t)sg->gid;
		g->adv = milli_u(sg->milli, st->size);
		if (sg->kern)
			g->adv += funits_u(sg->kern, st->size, f->upem);
		st->pending = sg->kern != 0;
		if (sg->flags & 1) {
			int32_t dx = funits_u(sg->xoff, st->size, f->upem);
			if (o->n - st->n0 > 1) {
				/* the glyph before, already counted, takes dx */
				o->g[o->n - 2].adv += dx;
				g->adv -= dx;
				*sum += dx;
				*abs += dx < 0 ? -(int64_t)dx : dx;
				width += dx;
			}
			brk = 1;
			st->pending = 1;
		}
		g->brk = (uint8_t)brk;
		*sum += g->adv;
		*abs += g->adv < 0 ? -(int64_t)g->adv : g->adv;
		/* saturate: one word of a BibTeX field can pass 2^31 u */
		width += g->adv;
		if (width > INT32_MAX)
			width = INT32_MAX;
	}
	o->width = (int32_t)width;
}

/* Emit an item's glyphs: a copy of the last emission when that was at
 * the same size and synthetic style (only its first glyph's run break
 * depends on what came before), else emit_item, kept for next time
 * unless the first glyph's offset moved the glyph before the item. */
static void emit_cached(emit_t *st, font_sglyph_t *sgv, int n, uint32_t len, font_face_t *f,
                        int synth, uint32_t base)
{
	if (st->u) {
		emit_uitem(st, sgv, n, f, synth, base);
		return;
	}
	font_shaped_t *o = st->out;
	item_emit_t *h = item_hdr(sgv);
	font_glyph_t *em = item_emitted(sgv, len);
	if (h->cg) {   /* clusters: a record per glyph too, not one per code point */
		int64_t sum = 0, abs = 0;
		emit_clusters(st, sgv, n, h->cg, f, synth, base, &sum, &abs);
		return;
	}
	if (h->size == st->size && h->synth == synth && (int64_t)o->width + h->abs <= INT32_MAX &&
	    (int64_t)o->width - h->abs >= -INT32_MAX) {
		int brk = st->pending || starts_run(st, f->id, synth);
		shaped_reserve(o, n);
		font_glyph_t *g = o->g + o->n;
		memcpy(g, em, (size_t)n * sizeof(*g));
		for (int k = 0; k < n; k++)
			g[k].off += base;
		g[0].brk = (uint8_t)brk;
		o->n += n;
		o->width = (int32_t)(o->width + h->width);
		st->pending = h->pending;
		return;
	}
	int start = o->n;
	int64_t sum = 0, abs = 0;
	emit_item(st, sgv, n, f, synth, base, &sum, &abs);
	if (n == 0 || (sgv[0].flags & 1) || abs > INT32_MAX)
		return;
	memcpy(em, o->g + start, (size_t)n * sizeof(*em));
	for (int k = 0; k < n; k++)
		em[k].off -= base;
	h->size = st->size;
	h->synth = synth;
	h->width = sum;
	h->abs = abs;
	h->pending = st->pending;
}

static void emit_missing(emit_t *st, uint32_t cp, uint32_t off)
{
	if (st->u) {
		ushaped_reserve(st->u, 1);
		font_uglyph_t *u = &st->u->g[st->u->n++];
		memset(u, 0, sizeof(*u));
		u->cp = cp;
		u->off = off;
		u->face = -1;
		u->brk = 1;
		st->u->missing++;
		st->pending = 1;
		return;
	}
	font_glyph_t *g = shaped_add(st->out);
	g->cp = cp;
	g->off = off;
	g->face = -1;
	g->brk = 1;
	st->out->missing++;
	st->pending = 1;
}

/* A code point that stays in the face of the text before it when that face
 * has it: marks, variation selectors, the joiners, the dandas. */
static int sticks(uint32_t cp)
{
	if (cp < 0x300)
		return 0;
	/* the joiners, and the dandas every Indic script shares (U+0964-5,
	   in the Devanagari block): with the face of the text they are in,
	   not the first one (Devanagari's) that has them */
	if (cp == 0x200d || cp == 0x200c || cp == 0x0964 || cp == 0x0965 ||
	    (cp >= 0xfe00 && cp <= 0xfe0f))
		return 1;
	/* the emoji modifiers (skin tones) and tags (a subdivision flag's
	   letters) belong to the emoji before them */
	if ((cp >= 0x1f3fb && cp <= 0x1f3ff) || (cp >= 0xe0020 && cp <= 0xe007f))
		return 1;
	return uni_is_mark(cp);
}

/* What an emoji sequence is made of besides emoji: stays in the emoji
 * face even where it has no glyph of its own (the font's ligature has
 * them: 1️⃣, ❤️‍🔥; HarfBuzz hides a variation selector it lacks). */
static int emoji_joins(uint32_t cp)
{
	return cp == 0xfe0f || cp == 0x200d || cp == 0x20e3 || (cp >= 0xe0020 && cp <= 0xe007f) ||
	       (cp >= 0x1f3fb && cp <= 0x1f3ff);
}

/* *p (> start) moved back to the start of the code point before it. */
static void utf8_prev_start(const char *s, uint32_t start, uint32_t *p)
{
	do
		--*p;
	while (*p > start && ((unsigned char)s[*p] & 0xC0) == 0x80);
}

/* Quotes and the ellipsis are full-width in Chinese and Japanese text
 * (clreq 3.1, jlreq 3.1): beside a Han or kana character (before or after
 * it), they come from the CJK face of the text's language, or of the
 * neighbour's script when the text has none. An apostrophe inside a Latin
 * word ("NVIDIA's") keeps the Latin face; so does the em dash, whose
 * Latin form joins into the unbroken two-em dash Chinese wants (the CJK
 * faces leave a gap between two). */
static int cjk_context(const char *s, uint32_t n, uint32_t i, int l, int li, uint32_t cp)
{
	if (!(cp == 0x2018 || cp == 0x2019 || cp == 0x201C || cp == 0x201D || cp == 0x2026))
		return FONT_LANG_NONE;
	uint32_t prev = 0, next = 0;
	if (i > 0) {
		uint32_t j = i - 1;
		while (j > 0 && ((unsigned char)s[j] & 0xc0) == 0x80)
			j--;
		utf8_next(s + j, n - j, &prev);
	}
	if (i + (uint32_t)l < n)
		utf8_next(s + i + l, n - i - (uint32_t)l, &next);
	int sp = font_script_lang(prev), sn = font_script_lang(next);
	int sl = sp != FONT_LANG_NONE ? sp : sn;
	if (sl == FONT_LANG_NONE || sl == FONT_LANG_KO)
		return FONT_LANG_NONE;
	return li == FONT_LANG_ZH || li == FONT_LANG_ZH_HANT || li == FONT_LANG_JA ? li :
	       li == FONT_LANG_KO ? FONT_LANG_NONE : sl;
}

/* ---- pieces: items gathered in a window, shaped in batches, emitted in order ---- */

#define WIN_MAX 256             /* items gathered before they are shaped */
#define CAT_STACK 4096          /* bytes of batch text kept on the stack */

enum { W_PIECE, W_MISSING, W_ITEM };

typedef struct witem {
	int kind;               /* W_*: a piece starts; a code point no face has; an item */
	font_face_t *f;
	int synth;
	unsigned mask;
	const char *s;          /* its text */
	uint32_t off, len;      /* bytes into the caller's text */
	font_sglyph_t *g;       /* its records: the cache's, or own (not cached) */
	int n;                  /* code points (W_MISSING: the code point) */
	int todo;               /* fresh: still to be shaped */
	int own;                /* g is this window's (too long to cache): free it */
	hb_script_t script;     /* what hb_shape would take it for */
} witem_t;

typedef struct win {
	font_lib_t *lib;
	emit_t st;
	witem_t v[WIN_MAX];
	int n;
} win_t;

/* The script HarfBuzz guesses for s[0..n) (hb_buffer_guess_segment_properties:
 * its first character not Common, Inherited or Unknown). */
static hb_script_t text_script(const char *s, uint32_t n)
{
	hb_unicode_funcs_t *u = NULL;
	for (uint32_t i = 0; i < n;) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x80) {
			if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')
				return HB_SCRIPT_LATIN;
			i++;
			continue;
		}
		uint32_t cp;
		i += (uint32_t)utf8_next(s + i, n - i, &cp);
		if (!u)
			u = hb_unicode_funcs_get_default();
		hb_script_t sc = hb_unicode_script(u, cp);
		if (sc != HB_SCRIPT_COMMON && sc != HB_SCRIPT_INHERITED && sc != HB_SCRIPT_UNKNOWN)
			return sc;
	}
	return HB_SCRIPT_INVALID;
}

/* Scripts whose items may share a HarfBuzz call: left to right, shaped
 * by HarfBuzz's default shaper (no syllables, no joining), so a boundary
 * HarfBuzz calls safe to break is one where shaping each side alone
 * gives the same glyphs. Those shaped into clusters (script_clusters)
 * share calls too, each item after a space (a syllable, a conjunct or a
 * reordered vowel sign never spans one; HarfBuzz marks the syllables it
 * finds unsafe to break inside): win_batch. Items of other scripts
 * (Arabic, Hebrew: joining, right to left) are shaped one by one. */
static int script_batches(hb_script_t sc)
{
	return sc == HB_SCRIPT_INVALID || sc == HB_SCRIPT_LATIN || sc == HB_SCRIPT_GREEK ||
	       sc == HB_SCRIPT_CYRILLIC;
}

/* Shape the items v[idx[0..m)] (fresh, one face, mask and script) in one
 * HarfBuzz buffer, each after the other (a script shaped into clusters:
 * with a space between), and record each item whose two ends HarfBuzz
 * marks safe to break (a cluster starts there and its glyph is not
 * HB_GLYPH_FLAG_UNSAFE_TO_BREAK): those glyphs are the ones shaping it
 * alone gives. The others (kerning or a context across the boundary, a
 * mark joining the cluster before) keep todo. */
static void win_batch(win_t *w, const int *idx, int m)
{
	char stack[CAT_STACK], *cat = stack;
	uint32_t bases[WIN_MAX + 1], total = 0;
	const witem_t *x0 = &w->v[idx[0]];
	/* items of a script shaped into clusters are kept apart by a space
	   (no syllable, no ligature spans it) */
	int clusters = script_clusters(x0->script), sep = clusters;
	for (int k = 0; k < m; k++)
		total += w->v[idx[k]].len + (uint32_t)sep;
	if (total > sizeof(stack))
		cat = xmalloc(total);
	for (int k = 0; k < m; k++) {
		const witem_t *x = &w->v[idx[k]];
		bases[k] = k ? bases[k - 1] + w->v[idx[k - 1]].len + (uint32_t)sep : 0;
		memcpy(cat + bases[k], x->s, x->len);
		if (sep)
			cat[bases[k] + x->len] = ' ';
	}
	total -= (uint32_t)sep;   /* none after the last */
	bases[m] = total + (uint32_t)sep;
	buf_shape(w->lib, x0->f, cat, total, x0->mask, x0->script);
	unsigned ng;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(w->lib->buf, &ng);
	hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(w->lib->buf, NULL);
	unsigned gi = 0;
	for (int k = 0; k < m; k++) {
		witem_t *x = &w->v[idx[k]];
		uint32_t end = bases[k] + x->len;
		while (gi < ng && info[gi].cluster < bases[k])
			gi++;
		unsigned start = gi;
		/* safe to break at its start and at its end */
		int safe = k == 0 || (gi < ng && info[gi].cluster == bases[k] &&
		                      !(hb_glyph_info_get_glyph_flags(&info[gi]) &
		                        HB_GLYPH_FLAG_UNSAFE_TO_BREAK));
		while (gi < ng && info[gi].cluster < end)
			gi++;
		safe = safe && (k + 1 == m ||
		                (gi < ng && info[gi].cluster == end &&
		                 !(hb_glyph_info_get_glyph_flags(&info[gi]) &
		                   HB_GLYPH_FLAG_UNSAFE_TO_BREAK)));
		if (!safe)
			continue;
		if (clusters)
			item_clusters(w->lib, info + start, pos + start, gi - start, bases[k], x->g, x->n);
		else
			item_record(x->f, info + start, pos + start, gi - start, bases[k], x->g, x->n,
			            x->mask);
		x->todo = 0;
	}
	if (cat != stack)
		free(cat);
}

/* Shape the window's fresh items: those that can share a call in
 * batches, the rest (and the batches' unsafe ends) one by one. */
static void win_shape(win_t *w)
{
	int idx[WIN_MAX];
	for (int i = 0; i < w->n; i++) {
		witem_t *x = &w->v[i];
		if (x->kind != W_ITEM || !x->todo || x->f->color ||
		    !(script_batches(x->script) || script_clusters(x->script)))
			continue;
		int m = 0;
		for (int j = i; j < w->n; j++) {
			const witem_t *y = &w->v[j];
			if (y->kind == W_ITEM && y->todo && y->f == x->f && y->mask == x->mask &&
			    y->script == x->script)
				idx[m++] = j;
		}
		if (m > 1)
			win_batch(w, idx, m);
		if (x->todo) {  /* alone, or its end was unsafe */
			item_kern(w->lib, x->f, x->s, x->len, x->g, x->n, x->mask);
			x->todo = 0;
		}
		/* the batch's other unsafe items are shaped alone when the
		   loop reaches them: they are not batched again, a batch of
		   them alone would be the same batch */
		for (int k = 1; k < m; k++)
			w->v[idx[k]].script = HB_SCRIPT_UNKNOWN;
	}
	for (int i = 0; i < w->n; i++) {
		witem_t *x = &w->v[i];
		if (x->kind == W_ITEM && x->todo) {
			item_kern(w->lib, x->f, x->s, x->len, x->g, x->n, x->mask);
			x->todo = 0;
		}
	}
}

/* Shape what the window gathered and emit it in text order. */
static void win_flush(win_t *w)
{
	win_shape(w);
	for (int i = 0; i < w->n; i++) {
		witem_t *x = &w->v[i];
		if (x->kind == W_PIECE)
			emit_piece(&w->st);
		else if (x->kind == W_MISSING)
			emit_missing(&w->st, (uint32_t)x->n, x->off);
		else
			emit_cached(&w->st, x->g, x->n, x->len, x->f, x->synth, x->off);
		if (x->own)
			free(item_hdr(x->g));
	}
	w->n = 0;
}

static witem_t *win_add(win_t *w, int kind)
{
	if (w->n == WIN_MAX)
		win_flush(w);
	/* no cache reset while the window holds its records */
	if (w->n == 0 && w->lib->ncache + WIN_MAX >= ITEM_CACHE_MAX)
		font_cache_free(w->lib);
	witem_t *x = &w->v[w->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	return x;
}

static void win_item(win_t *w, font_chain_t *c, int k, int style, unsigned feats,
                     const char *s, uint32_t a, uint32_t b)
{
	font_entry_t *en = &c->ent[k];
	font_face_t *f = en->face[style];
	witem_t *x = win_add(w, W_ITEM);
	uint32_t n = b - a;
	x->f = f;
	x->synth = en->synth[style];
	x->s = s + a;
	if (feats) {
		/* the features' first question from a script shaped into
		   clusters (below: always HarfBuzz's) goes to HarfBuzz */
		int hb = !(f->feats & FONT_FEATS_READ) && n > 3 &&
		         (unsigned char)x->s[0] >= 0xE0 && script_clusters(text_script(x->s, n));
		x->mask = feats & face_feats(f, hb);
	} else {
		x->mask = 0;
	}
	x->off = a;
	x->len = n;
	if (n > ITEM_CACHE_MAXLEN) {
		font_sitem_t tmp;
		item_fill(NULL, f, s + a, n, x->mask, &tmp);
		x->g = tmp.g;
		x->n = tmp.n;
		x->own = 1;
		x->todo = 1;
	} else {
		int fresh;
		font_sitem_t *it = item_get(w->lib, f, s + a, n, x->mask, &fresh);
		x->g = it->g;
		x->n = it->n;
		x->todo = fresh;
	}
	/* a script shaped into clusters (its letters are U+0900 and up:
	   three bytes of UTF-8) always goes to HarfBuzz */
	if (x->todo && x->n > 1 && (f->color || ((unsigned char)x->s[0] >= 0xE0 &&
	                                         script_clusters(x->script = text_script(x->s, n))))) {
		shaper_count[1]++;
		return;
	}
	/* nothing to shape (one character, no features), or the fast path
	   shaped it: HarfBuzz is not asked, nor is the face's GPOS loaded */
	if (x->todo && (item_shaped_as(x->n, x->mask, 1) == 0 ||
	                item_fast(f, x->s, n, x->g, x->n, x->mask)))
		x->todo = 0;
	if (x->todo && (x->todo = item_shaped(f, x->n, x->mask)) != 0)
		shaper_count[1]++;
	if (x->todo)
		x->script = text_script(x->s, n);
}

/* Itemise s[a..b) (one piece) by face into the window. */
static void piece_items(win_t *w, font_chain_t *c, int style, int li, unsigned feats,
                        const char *s, uint32_t a, uint32_t b)
{
	const int8_t *ascii = c->ascii[style][li];   /* font_pick.c's */
	win_add(w, W_PIECE);
	uint32_t start = a;
	int cur = -1;
	for (uint32_t i = a; i < b;) {
		uint32_t cp = (unsigned char)s[i];
		int l = 1, k, cl;
		if (cp < 0x80) {
			/* no mark, no quote: the entry that has it, from
			   font_pick.c's table once it has been asked */
			k = ascii[cp] ? ascii[cp] - 2 : font_chain_entry_for(c, style, li, cp);
		} else {
			l = utf8_next(s + i, b - i, &cp);
			uint32_t p = i, pc;
			int ke;
			if (cp == 0xFE0F && cur >= 0 && !c->ent[cur].emoji && i > start &&
			    (utf8_prev_start(s, start, &p), utf8_next(s + p, i - p, &pc) > 0) &&
			    (ke = font_chain_entry_emoji(c, style, pc)) >= 0) {
				/* U+FE0F asks for the emoji style of the character
				   before it (✉️, a keycap's digit): that one goes to
				   the emoji face, and U+FE0F with it */
				if (p > start)
					win_item(w, c, cur, style, feats, s, start, p);
				start = p;
				cur = k = ke;
			} else if (cur >= 0 && sticks(cp) &&
			           (font_entry_has(c, cur, style, cp) ||
			            (c->ent[cur].emoji && emoji_joins(cp))))
				k = cur;
			else if (cp >= 0x2018 &&
			         (cl = cjk_context(s + a, b - a, i - a, l, li, cp)) != FONT_LANG_NONE)
				k = font_chain_entry_cjk(c, style, cl, cp);
			else
				k = font_chain_entry_for(c, style, li, cp);
		}
		if (k != cur && cur >= 0)
			win_item(w, c, cur, style, feats, s, start, i);
		if (k < 0) {
			witem_t *x = win_add(w, W_MISSING);
			x->n = (int)cp;
			x->off = i;
		}
		if (k != cur)
			start = i;
		cur = k;
		i += (uint32_t)l;
	}
	if (cur >= 0)
		win_item(w, c, cur, style, feats, s, start, b);
}

/* ---- texts shaped at a size, kept whole ----
 *
 * A CV sets the same short texts again and again (", " between authors,
 * a name in every author list, a year, a place; a date measured for its
 * column and then set in it): shape_pieces' glyphs for a text at a size
 * are kept, found by everything they depend on (the chain, the style,
 * the CJK language index, the size, the features, the pieces' cuts, the
 * bytes), and copied out again. Only a call into an empty out, with no
 * late error before or after it, is kept or answered (the glyphs of the
 * first piece depend on what out holds; a late error stops the pieces).
 * The texts live in the item cache's blocks and go with it (the glyphs
 * name faces by id, as its items do). */
#define STEXT_MAXLEN 256        /* bytes of text kept */
#define STEXT_MAXCUT 64         /* pieces */
#define STEXT_MAX 4096          /* texts kept until the item cache is emptied */

typedef struct font_stext {
	uint64_t hash;
	font_chain_t *c;
	int32_t size;
	int style, li, ncut, n, missing;
	unsigned feats;
	uint32_t len;
	int32_t width;
	const uint32_t *cut;
	const char *text;
	const font_glyph_t *g;
} font_stext_t;

static uint64_t stext_hash(const font_chain_t *c, int style, int li, int32_t size,
                           unsigned feats, const char *s, const uint32_t *cut, int ncut)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)c;
	h = (h ^ ((uint64_t)(uint32_t)size << 32 | (uint64_t)feats << 8 | (uint64_t)style << 4 |
	          (uint64_t)li)) * 0xFF51AFD7ED558CCDull;
	for (int i = 0; i < ncut; i++)
		h = (h ^ cut[i]) * 0x100000001B3ull;
	return buf_hash(h, s, cut[ncut - 1]);
}

/* The slot of the text, or of the empty slot where it would go. */
static font_stext_t **stext_slot(font_lib_t *lib, uint64_t h, const font_chain_t *c, int style,
                                 int li, int32_t size, unsigned feats, const char *s,
                                 const uint32_t *cut, int ncut)
{
	unsigned m = (unsigned)lib->capstext - 1, i = (unsigned)h & m;
	uint32_t len = cut[ncut - 1];
	for (font_stext_t *t; (t = lib->stext[i]) != NULL; i = (i + 1) & m)
		if (t->hash == h && t->c == c && t->size == size && t->style == style && t->li == li &&
		    t->feats == feats && t->ncut == ncut && t->len == len &&
		    !memcmp(t->cut, cut, sizeof(*cut) * (size_t)ncut) && !memcmp(t->text, s, len))
			return &lib->stext[i];
	return &lib->stext[i];
}

static void stext_grow(font_lib_t *lib)
{
	int ocap = lib->capstext;
	font_stext_t **old = lib->stext;
	lib->capstext = ocap ? 2 * ocap : 256;
	lib->stext = xcalloc((size_t)lib->capstext, sizeof(*lib->stext));
	for (int i = 0; i < ocap; i++) {
		if (!old[i])
			continue;
		unsigned m = (unsigned)lib->capstext - 1, k = (unsigned)old[i]->hash & m;
		while (lib->stext[k])
			k = (k + 1) & m;
		lib->stext[k] = old[i];
	}
	free(old);
}

/* Keep out (n glyphs, shaped from an empty out) under the text's key. */
static void stext_keep(font_lib_t *lib, font_stext_t **slot, uint64_t h, font_chain_t *c,
                       int style, int li, int32_t size, unsigned feats, const char *s,
                       const uint32_t *cut, int ncut, const font_shaped_t *out)
{
	uint32_t len = cut[ncut - 1];
	size_t gb = sizeof(font_glyph_t) * (size_t)out->n, cb = sizeof(*cut) * (size_t)ncut;
	char *mem = slab_alloc(lib, sizeof(font_stext_t) + gb + cb + len);
	font_stext_t *t = (font_stext_t *)(void *)mem;
	font_glyph_t *g = (font_glyph_t *)(void *)(t + 1);
	uint32_t *cc = (uint32_t *)(void *)((char *)g + gb);
	char *tx = (char *)(cc + ncut);
	if (gb)
		memcpy(g, out->g, gb);
	memcpy(cc, cut, cb);
	if (len)
		memcpy(tx, s, len);
	*t = (font_stext_t){h, c, size, style, li, ncut, out->n, out->missing, feats, len,
	                    out->width, cc, tx, g};
	*slot = t;
	lib->nstext++;
}

/* The pieces s[cut[p-1]..cut[p]) (cut[-1] = 0) shaped as if one call
 * each, into out; offsets count from s. With stop, ends at the piece that
 * leaves a late error (a face that failed to load), that piece left out
 * as if its call had failed. */
static void shape_pieces_now(font_chain_t *c, int style, int32_t size, const char *lang,
                             unsigned feats, const char *s, const uint32_t *cut, int ncut,
                             int stop, font_shaped_t *out, font_ushaped_t *uout);

static void shape_pieces(font_chain_t *c, int style, int32_t size, const char *lang,
                         unsigned feats, const char *s, const uint32_t *cut, int ncut,
                         int stop, font_shaped_t *out, font_ushaped_t *uout)
{
	font_lib_t *lib = c->lib;
	if (uout || !out || out->n || out->width || out->missing || lib->late.n || ncut <= 0 ||
	    ncut > STEXT_MAXCUT || cut[ncut - 1] > STEXT_MAXLEN) {
		shape_pieces_now(c, style, size, lang, feats, s, cut, ncut, stop, out, uout);
		return;
	}
	int st = font_style_ok(style), li = font_lang_index(lang);
	uint64_t h = stext_hash(c, st, li, size, feats, s, cut, ncut);
	if (2 * (lib->nstext + 1) > lib->capstext)
		stext_grow(lib);
	font_stext_t **slot = stext_slot(lib, h, c, st, li, size, feats, s, cut, ncut);
	if (*slot) {
		const font_stext_t *t = *slot;
		shaped_reserve(out, t->n);
		if (t->n)
			memcpy(out->g, t->g, sizeof(*out->g) * (size_t)t->n);
		out->n = t->n;
		out->width = t->width;
		out->missing = t->missing;
		return;
	}
	font_stext_t **tab = lib->stext;
	shape_pieces_now(c, style, size, lang, feats, s, cut, ncut, stop, out, uout);
	if (lib->late.n || lib->nstext >= STEXT_MAX)
		return;
	/* the item cache was emptied meanwhile (and this table with it) */
	if (lib->stext != tab) {
		if (2 * (lib->nstext + 1) > lib->capstext)
			stext_grow(lib);
		slot = stext_slot(lib, h, c, st, li, size, feats, s, cut, ncut);
	}
	stext_keep(lib, slot, h, c, st, li, size, feats, s, cut, ncut, out);
}

static void shape_pieces_now(font_chain_t *c, int style, int32_t size, const char *lang,
                         unsigned feats, const char *s, const uint32_t *cut, int ncut,
                         int stop, font_shaped_t *out, font_ushaped_t *uout)
{
	win_t w;
	style = font_style_ok(style);
	int li = font_lang_index(lang);
	w.lib = c->lib;
	w.n = 0;
	memset(&w.st, 0, sizeof(w.st));
	w.st.out = out;
	w.st.u = uout;
	w.st.size = size;
	for (int p = 0; p < ncut; p++) {
		piece_items(&w, c, style, li, feats, s, p ? cut[p - 1] : 0, cut[p]);
		if (stop && c->lib->late.n) {
			win_flush(&w);
			if (uout) {
				uout->n = w.st.n0;
				uout->missing = w.st.m0;
				return;
			}
			out->n = w.st.n0;
			out->width = w.st.w0;
			out->missing = w.st.m0;
			return;
		}
	}
	win_flush(&w);
}

int font_shape_pieces(font_chain_t *c, int style, int32_t size, const char *lang,
                      unsigned feats, const char *s, const uint32_t *cut, int ncut,
                      font_shaped_t *out, errs_t *e)
{
	shaper_count[2]++;
	shape_pieces(c, style, size, lang, feats, s, cut, ncut, 1, out, NULL);
	return font_pass_late(c->lib, e);
}

int font_shape_pieces_u(font_chain_t *c, int style, const char *lang, unsigned feats,
                        const char *s, const uint32_t *cut, int ncut, font_ushaped_t *out,
                        errs_t *e)
{
	shaper_count[2]++;
	shape_pieces(c, style, 0, lang, feats, s, cut, ncut, 1, NULL, out);
	return font_pass_late(c->lib, e);
}

void font_width_pieces_u(font_chain_t *c, int style, const char *lang, unsigned feats,
                         const char *s, const uint32_t *cut, int ncut, font_ushaped_t *out)
{
	shape_pieces(c, style, 0, lang, feats, s, cut, ncut, 0, NULL, out);
}

int32_t font_uglyph_dy(const font_uglyph_t *u, int32_t size)
{
	return u->dy ? funits_u(u->dy, size, u->upem) : 0;
}

void font_uglyphs_adv(const font_uglyph_t *u, int n, int32_t size, int32_t *adv)
{
	for (int k = 0; k < n; k++) {
		adv[k] = milli_u(u[k].milli, size);
		if (u[k].kern)
			adv[k] += funits_u(u[k].kern, size, u[k].upem);
		if (u[k].dx) {
			int32_t dx = funits_u(u[k].dx, size, u[k].upem);
			adv[k - 1] += dx;
			adv[k] -= dx;
		}
	}
}

int32_t font_uglyphs_width(const font_uglyph_t *u, int n, int32_t size)
{
	/* as emit_item adds them up, saturating: the advances the glyphs are
	   set at (font_uglyphs_adv), whose sum an offset carried from one
	   glyph to the one before it leaves as it is */
	int64_t width = 0;
	for (int k = 0; k < n; k++) {
		int32_t adv = milli_u(u[k].milli, size);
		if (u[k].kern)
			adv += funits_u(u[k].kern, size, u[k].upem);
		width += adv;
		if (width > INT32_MAX)
			width = INT32_MAX;
	}
	return (int32_t)width;
}

void font_ushaped_done(font_ushaped_t *u)
{
	free(u->g);
	memset(u, 0, sizeof(*u));
}

int font_shape_feat(font_chain_t *c, int style, int32_t size, const char *lang,
                    unsigned feats, const char *s, size_t n, font_shaped_t *out, errs_t *e)
{
	uint32_t cut = (uint32_t)n;
	return font_shape_pieces(c, style, size, lang, feats, s, &cut, 1, out, e);
}

int font_shape(font_chain_t *c, int style, int32_t size, const char *lang,
               const char *s, size_t n, font_shaped_t *out, errs_t *e)
{
	return font_shape_feat(c, style, size, lang, 0, s, n, out, e);
}

int32_t font_width_feat(font_chain_t *c, int style, int32_t size, const char *lang,
                        unsigned feats, const char *s, size_t n)
{
	uint32_t cut = (uint32_t)n;
	c->scratch.n = 0;
	c->scratch.width = 0;
	c->scratch.missing = 0;
	shape_pieces(c, style, size, lang, feats, s, &cut, 1, 0, &c->scratch, NULL);
	return c->scratch.width;
}

int32_t font_width_pieces(font_chain_t *c, int style, int32_t size, const char *lang,
                          unsigned feats, const char *s, const uint32_t *cut, int ncut)
{
	c->scratch.n = 0;
	c->scratch.width = 0;
	c->scratch.missing = 0;
	shape_pieces(c, style, size, lang, feats, s, cut, ncut, 0, &c->scratch, NULL);
	return c->scratch.width;
}

int32_t font_width(font_chain_t *c, int style, int32_t size, const char *lang,
                   const char *s, size_t n)
{
	return font_width_feat(c, style, size, lang, 0, s, n);
}

unsigned font_features(font_chain_t *c, int style, unsigned feats)
{
	style = font_style_ok(style);
	for (int k = 0; k < c->nent; k++) {
		font_face_t *f = c->ent[k].face[style];
		if (f && font_face_use(c->lib, f) >= 0)
			return feats & face_feats(f, 0);
	}
	return 0;
}
