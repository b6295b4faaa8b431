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
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include <hb-ot.h>
#include "font_int.h"
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

static font_glyph_t *shaped_add(font_shaped_t *s)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->g = xrealloc(s->g, (size_t)s->cap * sizeof(*s->g));
	}
	font_glyph_t *g = &s->g[s->n++];
	memset(g, 0, sizeof(*g));
	return g;
}

void font_cache_free(font_lib_t *lib)
{
	for (int i = 0; i < lib->capcache; i++)
		free(lib->cache[i].text);
	free(lib->cache);
	lib->cache = NULL;
	lib->capcache = lib->ncache = 0;
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

/* The cmap glyph of cp (0: none); cached for the code points of Latin,
 * Greek, Cyrillic and general punctuation. */
static hb_codepoint_t face_gid(font_face_t *f, uint32_t cp)
{
	hb_codepoint_t gid = 0;
	if (cp >= FONT_GID_CACHE) {
		hb_font_get_nominal_glyph(f->hbfont, cp, &gid);
		return gid;
	}
	if (!f->gid)
		f->gid = xcalloc(FONT_GID_CACHE, sizeof(*f->gid));
	if (!f->gid[cp]) {
		hb_font_get_nominal_glyph(f->hbfont, cp, &gid);
		f->gid[cp] = (uint16_t)(gid < 0xffff ? gid + 1 : 1);
	}
	return f->gid[cp] - 1u;
}

/* The unscaled (font units) nominal advance of glyph gid. */
static int32_t face_hadv(font_face_t *f, hb_codepoint_t gid)
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
	f->plan[k] = hb_shape_plan_create_cached2(f->hbface, p, feats, nfeats, NULL, 0, NULL);
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
		hb_codepoint_t gid = face_gid(f, cp);
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

/* FONT_FEAT_* that f's GSUB has (read once). */
static unsigned face_feats(font_face_t *f)
{
	if (f->feats & FONT_FEATS_READ)
		return f->feats & ~FONT_FEATS_READ;
	unsigned have = 0;
	for (unsigned i = 0; i < NFEAT_TAGS; i++) {
		unsigned idx;
		if (hb_ot_layout_language_find_feature(f->hbface, HB_OT_TAG_GSUB, 0,
		                                       HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX,
		                                       feat_tags[i], &idx))
			have |= 1u << i;
	}
	f->feats = have | FONT_FEATS_READ;
	return have;
}

/* Shape with HarfBuzz and record, per code point that maps 1:1 to a
 * glyph, the kerning and offset, and the glyph when a feature of mask
 * replaced its cmap glyph. Anything else keeps nominal values. */
static void item_kern(font_lib_t *lib, font_face_t *f, const char *s, uint32_t n,
                      font_sglyph_t *g, int ng, unsigned mask)
{
	hb_feature_t feats[5 + NFEAT_TAGS] = {
		{ HB_TAG('k', 'e', 'r', 'n'), 1, 0, (unsigned)-1 },
		{ HB_TAG('l', 'i', 'g', 'a'), 0, 0, (unsigned)-1 },
		{ HB_TAG('c', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
		{ HB_TAG('d', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
		{ HB_TAG('c', 'a', 'l', 't'), 0, 0, (unsigned)-1 },
	};
	static hb_language_t und;
	unsigned nfeats = 5;
	for (unsigned i = 0; i < NFEAT_TAGS; i++)
		if (mask & 1u << i)
			feats[nfeats++] = (hb_feature_t){ feat_tags[i], 1, 0, (unsigned)-1 };
	hb_buffer_t *b = lib->buf;
	hb_segment_properties_t props;
	if (!und)
		und = hb_language_from_string("und", 3);
	hb_buffer_clear_contents(b);
	hb_buffer_add_utf8(b, s, (int)n, 0, (int)n);
	hb_buffer_set_direction(b, HB_DIRECTION_LTR);
	hb_buffer_set_language(b, und);
	hb_buffer_guess_segment_properties(b);
	hb_buffer_get_segment_properties(b, &props);
	/* = hb_shape(), without its plan cache search */
	hb_shape_plan_execute(face_plan(f, &props, feats, nfeats, mask), f->hbfont, b, feats,
	                      nfeats);
	unsigned m;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(b, &m);
	hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(b, NULL);
	unsigned gi = 0;
	for (int k = 0; k < ng; k++) {
		while (gi < m && info[gi].cluster < g[k].off)
			gi++;
		unsigned cnt = 0;
		while (gi + cnt < m && info[gi + cnt].cluster == g[k].off)
			cnt++;
		hb_codepoint_t want = face_gid(f, g[k].cp), got = cnt == 1 ? info[gi].codepoint : 0;
		if (mask && cnt == 1 && got != want && want && got && got < f->nglyphs &&
		    got <= 0xffff) {
			g[k].gid = got;      /* a feature's glyph: its own advance */
			g[k].milli = font_face_milli(f, got);
			want = got;
		}
		if (cnt == 1 && got == want) {
			int32_t nom = face_hadv(f, want);
			int sl = font_script_lang(g[k].cp);
			/* Han, kana and CJK marks are set solid (jlreq 3.1, clreq
			   3.1): the CJK faces' 'kern' narrows some kana (デ, ー to
			   0.93 em); the pairs of marks are inline.c's business */
			if (sl == FONT_LANG_NONE || sl == FONT_LANG_KO)
				g[k].kern = pos[gi].x_advance - nom;
			g[k].xoff = pos[gi].x_offset;
			if (pos[gi].x_offset || pos[gi].y_offset)
				g[k].flags |= 1;
		}
		gi += cnt;
	}
}

static void item_fill(font_lib_t *lib, font_face_t *f, const char *s, uint32_t n,
                      unsigned mask, font_sitem_t *it)
{
	/* one allocation: glyph records (at most one per byte), then the text */
	size_t ng = n ? n : 1;
	it->text = xmalloc(ng * sizeof(font_sglyph_t) + n + 1);
	it->g = (font_sglyph_t *)(void *)it->text;
	it->n = item_decode(f, s, n, it->g);
	char *t = (char *)(it->g + (n ? n : 1));
	memcpy(t, s, n);
	t[n] = 0;
	it->len = n;
	it->face = f->id;
	it->feats = mask;
	if (mask || (it->n > 1 && font_face_kerns(f)))
		item_kern(lib, f, s, n, it->g, it->n, mask);
}

static const char *item_text(const font_sitem_t *it)
{
	return (const char *)(it->g + (it->len ? it->len : 1));
}

static void cache_grow(font_lib_t *lib)
{
	int ocap = lib->capcache;
	font_sitem_t *old = lib->cache;
	lib->capcache = ocap ? 2 * ocap : 1024;
	lib->cache = xcalloc((size_t)lib->capcache, sizeof(*lib->cache));
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

/* The shaped item, from the cache or shaped now (into *tmp when the item
 * is too long to cache; the caller frees tmp->text). */
static const font_sitem_t *item_get(font_lib_t *lib, font_face_t *f, const char *s,
                                    uint32_t n, unsigned mask, font_sitem_t *tmp)
{
	if (n > ITEM_CACHE_MAXLEN) {
		item_fill(lib, f, s, n, mask, tmp);
		return tmp;
	}
	if (lib->ncache >= ITEM_CACHE_MAX)
		font_cache_free(lib);
	if (2 * (lib->ncache + 1) > lib->capcache)
		cache_grow(lib);
	uint64_t hash = item_hash(f->id, mask, s, n);
	unsigned hmask = (unsigned)(lib->capcache - 1), h = (unsigned)hash & hmask;
	for (; lib->cache[h].text; h = (h + 1) & hmask) {
		font_sitem_t *it = &lib->cache[h];
		if (it->hash == hash && it->face == f->id && it->feats == mask && it->len == n &&
		    memcmp(item_text(it), s, n) == 0)
			return it;
	}
	font_sitem_t *it = &lib->cache[h];
	item_fill(lib, f, s, n, mask, it);
	it->hash = hash;
	lib->ncache++;
	return it;
}

typedef struct emit_st {
	font_shaped_t *out;
	int32_t size;
	int pending;            /* next glyph starts a run */
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

static int starts_run(const font_shaped_t *o, int face, int synth)
{
	if (o->n == 0)
		return 0;
	const font_glyph_t *p = &o->g[o->n - 1];
	return p->face != face || p->synth != synth;
}

static void emit_item(emit_t *st, const font_sitem_t *it, font_face_t *f, int synth,
                      uint32_t base)
{
	font_shaped_t *o = st->out;
	for (int k = 0; k < it->n; k++) {
		const font_sglyph_t *sg = &it->g[k];
		int brk = st->pending || (k == 0 && starts_run(o, f->id, synth));
		font_glyph_t *g = shaped_add(o);
		g->cp = sg->cp;
		g->off = base + sg->off;
		g->face = (int16_t)f->id;
		g->synth = (uint8_t)synth;
		g->gid = (uint16_t)sg->gid;
		g->adv = milli_u(sg->milli, st->size) + funits_u(sg->kern, st->size, f->upem);
		st->pending = sg->kern != 0;
		if (sg->flags & 1) {
			int32_t dx = funits_u(sg->xoff, st->size, f->upem);
			if (o->n > 1) {
				o->g[o->n - 2].adv += dx;
				g->adv -= dx;
			}
			brk = 1;
			st->pending = 1;
		}
		g->brk = (uint8_t)brk;
		/* saturate: one word of a BibTeX field can pass 2^31 u */
		o->width = (int32_t)((int64_t)o->width + g->adv > INT32_MAX ? INT32_MAX :
		                     (int64_t)o->width + g->adv);
	}
}

static void emit_missing(emit_t *st, uint32_t cp, uint32_t off)
{
	font_glyph_t *g = shaped_add(st->out);
	g->cp = cp;
	g->off = off;
	g->face = -1;
	g->brk = 1;
	st->out->missing++;
	st->pending = 1;
}

static int is_mark(uint32_t cp)
{
	if (cp < 0x300)
		return 0;
	if (cp == 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f))
		return 1;
	hb_unicode_general_category_t gc =
		hb_unicode_general_category(hb_unicode_funcs_get_default(), cp);
	return gc == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK ||
	       gc == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK ||
	       gc == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK;
}

static void shape_item(font_chain_t *c, emit_t *st, int k, int style, unsigned feats,
                       const char *s, uint32_t a, uint32_t b)
{
	font_entry_t *en = &c->ent[k];
	font_face_t *f = en->face[style];
	font_sitem_t tmp;
	memset(&tmp, 0, sizeof(tmp));
	unsigned mask = feats ? feats & face_feats(f) : 0;
	const font_sitem_t *it = item_get(c->lib, f, s + a, b - a, mask, &tmp);
	emit_item(st, it, f, en->synth[style], a);
	free(tmp.text);
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

static void shape_text(font_chain_t *c, int style, int32_t size, const char *lang,
                       unsigned feats, const char *s, size_t n, font_shaped_t *out)
{
	style = font_style_ok(style);
	int li = font_lang_index(lang);
	emit_t st = { out, size, 0 };
	uint32_t start = 0;
	int cur = -1;
	for (uint32_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_next(s + i, n - i, &cp);
		int k, cl;
		if (cur >= 0 && is_mark(cp) && font_entry_has(c, cur, style, cp))
			k = cur;
		else if (cp >= 0x2018 && (cl = cjk_context(s, (uint32_t)n, i, l, li, cp)) != FONT_LANG_NONE)
			k = font_chain_entry_cjk(c, style, cl, cp);
		else
			k = font_chain_entry_for(c, style, li, cp);
		if (k != cur && cur >= 0)
			shape_item(c, &st, cur, style, feats, s, start, i);
		if (k < 0)
			emit_missing(&st, cp, i);
		if (k != cur)
			start = i;
		cur = k;
		i += (uint32_t)l;
	}
	if (cur >= 0)
		shape_item(c, &st, cur, style, feats, s, start, (uint32_t)n);
}

int font_shape_feat(font_chain_t *c, int style, int32_t size, const char *lang,
                    unsigned feats, const char *s, size_t n, font_shaped_t *out, errs_t *e)
{
	shape_text(c, style, size, lang, feats, s, n, out);
	return font_pass_late(c->lib, e);
}

int font_shape(font_chain_t *c, int style, int32_t size, const char *lang,
               const char *s, size_t n, font_shaped_t *out, errs_t *e)
{
	return font_shape_feat(c, style, size, lang, 0, s, n, out, e);
}

int32_t font_width_feat(font_chain_t *c, int style, int32_t size, const char *lang,
                        unsigned feats, const char *s, size_t n)
{
	c->scratch.n = 0;
	c->scratch.width = 0;
	c->scratch.missing = 0;
	shape_text(c, style, size, lang, feats, s, n, &c->scratch);
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
			return feats & face_feats(f);
	}
	return 0;
}
