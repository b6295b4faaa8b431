/* font_face: one font file + face index: validated when a chain names it
 * (font_file_get, sfnt checks), loaded on first use (font_face_use: the
 * file read by pieces, vertical metrics from its tables, HarfBuzz objects,
 * face id), names when asked for, nominal advances, and the errors of
 * lazy loading (lib->late).
 *
 * Memory: a face costs the pages of its file that are read. HarfBuzz gets
 * the tables it reads whole (GSUB, GPOS, ...) read whole from the file
 * (sfnt_file_table), and reads glyphs and advances through sfnt_hb_*,
 * which read the few bytes of cmap and hmtx a lookup needs; what else it
 * reads scattered (outlines, for a glyph's ink box) comes from the mapped
 * file, mapped only then. The subsets are cut from the file read by pieces
 * too. Mapping the whole file instead cost the 64 KB the kernel maps
 * around each page touched: 2 MB of a 26 MB CJK collection for the three
 * characters of a name, 10 MB for a CV in Chinese.
 * The faces of one collection (a CJK .ttc's SC, TC, JP, KR) share one
 * file read by pieces (sfnt_file_ref): their CFF, hmtx and names are read
 * once. A fresh render gives it all back once the layout is done
 * (font_lib_drop_faces, font_face_unload): the subsets read the few parts
 * they need again, and the PDF writer needs only the subsets.
 *
 * No FreeType: what it gave (names, units per em, ascender, descender, the
 * OS/2 table) sfnt_face.c reads by its rules, and the checks a chain's
 * file passed (sfnt_check: the tables vita and libharu read) with
 * HarfBuzz's own sanitizing cover what FreeType's opening checked. An
 * error while loading lazily (the file changed or vanished since the
 * check) is kept in lib->late and handed to the next call that takes an
 * errs_t (font_shape, font_subset); the face then covers nothing. The
 * lowest of the src/font*.c files: it calls none of them but font_ot.c's
 * font_ot_free (a face owns the fast path's tables).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hb-ot.h>
#include "arena.h"
#include "font_int.h"
#include "sfnt.h"

/* Record an exit-3 error about a font file, with where it was asked for. */
static void face_error(errs_t *e, const char *path, const char *why,
                       const char *ctx, int line, int col)
{
	err_sys(e, path, "%s", why);
	if (ctx && *ctx && line > 0)
		err_context(e, "named in %s:%d:%d", ctx, line, col);
	else if (ctx && *ctx)
		err_context(e, "named in %s", ctx);
}

font_face_t *font_file_get(font_lib_t *lib, const char *path, int index,
                           const char *ctx, int line, int col, errs_t *e)
{
	for (int i = 0; i < lib->nall; i++) {
		font_face_t *f = lib->all[i];
		if (f->index == index && strcmp(f->path, path) == 0) {
			if (f->broken) {
				face_error(e, path, "font file unusable (see the first error about it)",
				           ctx, line, col);
				return NULL;
			}
			return f;
		}
	}
	char why[300];
	int bad = sfnt_check_file(path, index, why, sizeof(why));
	font_face_t *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->index = index;
	f->id = -1;
	f->lib = lib;
	f->broken = bad != 0;
	if (lib->nall == lib->capall) {
		lib->capall = lib->capall ? 2 * lib->capall : 16;
		lib->all = xrealloc(lib->all, (size_t)lib->capall * sizeof(*lib->all));
	}
	lib->all[lib->nall++] = f;
	if (bad) {
		face_error(e, path, why, ctx, line, col);
		return NULL;
	}
	return f;
}

static char *dup_or(char *s)
{
	return s ? s : xstrdup("");
}

/* Tables HarfBuzz gets from the mapped file: those it reads scattered
 * (a glyph's outline, metrics, cmap entry), which cost the 64 KB around
 * each page touched there but no more; the others (the layout tables it
 * sanitizes whole, the small ones) it gets read whole from f->file. */
static int table_scattered(hb_tag_t tag)
{
	static const hb_tag_t t[] = {
		HB_TAG('C', 'F', 'F', ' '), HB_TAG('C', 'F', 'F', '2'), HB_TAG('g', 'l', 'y', 'f'),
		HB_TAG('l', 'o', 'c', 'a'), HB_TAG('c', 'm', 'a', 'p'), HB_TAG('h', 'm', 't', 'x'),
		HB_TAG('v', 'm', 't', 'x'), HB_TAG('V', 'O', 'R', 'G'), HB_TAG('p', 'o', 's', 't'),
		HB_TAG('C', 'B', 'D', 'T'), HB_TAG('C', 'B', 'L', 'C'), HB_TAG('s', 'b', 'i', 'x'),
		HB_TAG('S', 'V', 'G', ' '), HB_TAG('C', 'O', 'L', 'R'), HB_TAG('C', 'P', 'A', 'L'),
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i] == tag)
			return 1;
	return 0;
}

static hb_blob_t *face_table(hb_face_t *face, hb_tag_t tag, void *data)
{
	(void)face;
	font_face_t *f = data;
	size_t len;
	if (tag == 0 || table_scattered(tag)) {
		if (!f->mapped)
			f->mapped = hb_blob_create_from_file(f->path);
		unsigned n;
		const char *p = hb_blob_get_data(f->mapped, &n);
		if (tag == 0)
			return hb_blob_reference(f->mapped);
		const unsigned char *t = sfnt_file_find(f->file, f->index, tag, &len);
		size_t size;
		const unsigned char *base = sfnt_file_bytes(f->file, &size);
		if (!t || !p || size != n)
			return hb_blob_get_empty();
		return hb_blob_create_sub_blob(f->mapped, (unsigned)(t - base), (unsigned)len);
	}
	const unsigned char *t = sfnt_file_table(f->file, f->index, tag, &len);
	if (!t)
		return hb_blob_get_empty();
	return hb_blob_create((const char *)t, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
}

static hb_bool_t fast_glyph(hb_font_t *font, void *data, hb_codepoint_t u, hb_codepoint_t *g,
                          void *user)
{
	(void)font, (void)user;
	font_face_t *f = data;
	*g = sfnt_hb_glyph(f->hb, u);
	return *g != 0;
}

static unsigned fast_glyphs(hb_font_t *font, void *data, unsigned n, const hb_codepoint_t *u,
                          unsigned ustride, hb_codepoint_t *g, unsigned gstride, void *user)
{
	(void)font, (void)user;
	font_face_t *f = data;
	unsigned i;
	for (i = 0; i < n; i++) {
		if (!(*g = sfnt_hb_glyph(f->hb, *u)))
			break;
		u = (const hb_codepoint_t *)((const char *)u + ustride);
		g = (hb_codepoint_t *)((char *)g + gstride);
	}
	return i;
}

/* HarfBuzz's value at a scale of upem (f->hbfont's: set once). */
static hb_position_t fast_advance(font_face_t *f, hb_codepoint_t g)
{
	if (g >= f->hb->nglyphs)
		return hb_font_get_glyph_h_advance(f->otfont, g);
	return (hb_position_t)sfnt_hb_advance(f->hb, g);
}

static hb_position_t fast_h_advance(hb_font_t *font, void *data, hb_codepoint_t g, void *user)
{
	(void)font, (void)user;
	return fast_advance(data, g);
}

static void fast_h_advances(hb_font_t *font, void *data, unsigned n, const hb_codepoint_t *g,
                          unsigned gstride, hb_position_t *a, unsigned astride, void *user)
{
	(void)font, (void)user;
	for (unsigned i = 0; i < n; i++) {
		*a = fast_advance(data, *g);
		g = (const hb_codepoint_t *)((const char *)g + gstride);
		a = (hb_position_t *)((char *)a + astride);
	}
}

/* A glyf face's ink box from loca, glyf and hmtx (sfnt_hb_extents), else
 * HarfBuzz's (from the mapped file). */
static hb_bool_t fast_extents(hb_font_t *font, void *data, hb_codepoint_t g,
                              hb_glyph_extents_t *e, void *user)
{
	(void)font, (void)user;
	font_face_t *f = data;
	int32_t v[4];
	int r = sfnt_hb_extents(f->hb, g, v);
	if (r < 0)
		return hb_font_get_glyph_extents(f->otfont, g, e);
	e->x_bearing = v[0];
	e->y_bearing = v[1];
	e->width = v[2];
	e->height = v[3];
	return r;
}

static hb_font_funcs_t *fast_funcs(void)
{
	static hb_font_funcs_t *funcs;
	if (!funcs) {
		funcs = hb_font_funcs_create();
		hb_font_funcs_set_nominal_glyph_func(funcs, fast_glyph, NULL, NULL);
		hb_font_funcs_set_nominal_glyphs_func(funcs, fast_glyphs, NULL, NULL);
		hb_font_funcs_set_glyph_h_advance_func(funcs, fast_h_advance, NULL, NULL);
		hb_font_funcs_set_glyph_h_advances_func(funcs, fast_h_advances, NULL, NULL);
		hb_font_funcs_set_glyph_extents_func(funcs, fast_extents, NULL, NULL);
		hb_font_funcs_make_immutable(funcs);
	}
	return funcs;
}

/* Units per em and vertical metrics from the sfnt tables (the values
 * FreeType gives: src/sfnt_face.c); HarfBuzz's face on the file's tables
 * (face_table) and its font, whose glyphs and advances come from
 * sfnt_hb_* when the face is one those read as HarfBuzz does. */
static int face_load(font_lib_t *lib, font_face_t *f)
{
	char why[300];
	/* another face of the same collection shares its file (a CV in
	   Chinese and Japanese reads one CFF, not two) */
	for (int i = 0; i < lib->nall && !f->file; i++)
		if (lib->all[i] != f && lib->all[i]->file && !strcmp(lib->all[i]->path, f->path))
			f->file = sfnt_file_ref(lib->all[i]->file);
	if (!f->file)
		f->file = sfnt_file_open(f->path, why, sizeof(why));
	if (!f->file) {
		face_error(&lib->late, f->path, "cannot read font file", "", 0, 0);
		return -1;
	}
	sfnt_file_face(f->file, f->index);
	size_t len;
	const unsigned char *p = sfnt_file_bytes(f->file, &len);
	if (sfnt_face_read(p, len, f->index, &f->sf) != 0) {
		face_error(&lib->late, f->path, "corrupt font: no readable head or hhea table", "", 0, 0);
		return -1;
	}
	f->color = f->sf.color;
	if ((!f->sf.outline && !f->color) || f->sf.upem == 0) {
		face_error(&lib->late, f->path, "not a TrueType-outline font", "", 0, 0);
		return -1;
	}
	f->upem = (int)f->sf.upem;
	f->asc = f->sf.asc;
	f->desc = f->sf.desc;
	f->cap = f->sf.cap;
	if (f->asc <= 0 && f->sf.os2) {
		f->asc = f->sf.typo_asc;
		f->desc = f->sf.typo_desc;
	}
	f->hbface = hb_face_create_for_tables(face_table, f, NULL);
	hb_face_set_index(f->hbface, (unsigned)f->index);
	f->otfont = hb_font_create(f->hbface);
	hb_font_set_scale(f->otfont, f->upem, f->upem);
	f->hbfont = hb_font_reference(f->otfont);
	if (!f->hb)
		f->hb = xmalloc(sizeof(*f->hb));
	int fast = sfnt_hb_cmap(f->file, f->index, f->hb) == 0;
	f->hbn = f->hb->src ? f->hb->nglyphs : 0;
	if (fast) {
		hb_font_destroy(f->hbfont);
		f->hbfont = hb_font_create_sub_font(f->otfont);
		hb_font_set_funcs(f->hbfont, fast_funcs(), f, NULL);
	}
	f->nglyphs = hb_face_get_glyph_count(f->hbface);
	if (f->nglyphs == 0) {
		face_error(&lib->late, f->path, "corrupt font: HarfBuzz finds no glyphs", "", 0, 0);
		return -1;
	}
	f->kerns = -1;
	if (f->cap <= 0) {
		hb_codepoint_t g;
		hb_glyph_extents_t ex;
		if (hb_font_get_nominal_glyph(f->hbfont, 'H', &g) &&
		    hb_font_get_glyph_extents(f->hbfont, g, &ex))
			f->cap = ex.y_bearing;
		if (f->cap <= 0)
			f->cap = f->asc * 7 / 10;
	}
	return 0;
}

int font_face_use(font_lib_t *lib, font_face_t *f)
{
	if (f->id >= 0)
		return f->id;
	if (f->broken)
		return -1;
	if (face_load(lib, f) != 0) {
		f->broken = 1;
		return -1;
	}
	if (lib->nused == lib->capused) {
		lib->capused = lib->capused ? 2 * lib->capused : 16;
		lib->used = xrealloc(lib->used, (size_t)lib->capused * sizeof(*lib->used));
	}
	f->id = lib->nused;
	lib->used[lib->nused++] = f;
	f->info.path = f->path;
	f->info.index = f->index;
	f->info.units_per_em = f->upem;
	return f->id;
}

/* Whether shaping can move f's glyphs (a GPOS or kern table), asked the
 * first time an item of two or more characters needs it: loading GPOS is
 * most of a face's set-up (0.8 M instructions for Noto Serif), which a
 * face that only ever draws single characters (a symbol) never needs. */
int font_face_kerns(font_face_t *f)
{
	if (f->kerns < 0) {
		hb_blob_t *kern = hb_face_reference_table(f->hbface, HB_TAG('k', 'e', 'r', 'n'));
		f->kerns = hb_ot_layout_has_positioning(font_face_shaping(f)) ||
		           hb_blob_get_length(kern) > 0;
		hb_blob_destroy(kern);
	}
	return f->kerns;
}

/* A face whose GSUB has fewer lookups is not cut: the closure costs
 * more than it saves. Noto Serif Tibetan's 1,164 (2 faces, bo academic
 * 39.06 -> 33.78 M: set-up 6.8 -> 4.2, shaping 16.9 -> 9.6, the closures
 * 4.6); Noto Serif Devanagari's 864 lost (hi 25.43 -> 29.72: the closures
 * cost 5.1 M, set-up and shaping saved 1.4). */
#define CUT_MIN_LOOKUPS 1000

/* The characters HarfBuzz may look up whatever the text (font_prune.c's
 * closure starts from their glyphs too): the dotted circle, spaces and
 * hyphens its fallbacks use, the joiners, the viramas its Indic shaper
 * asks for (would_substitute), Devanagari to Malayalam. */
static const uint32_t cut_extra[] = {
	0x20, 0xA0, 0x2010, 0x2011, 0x200C, 0x200D, 0x25CC, 0x094D, 0x09CD, 0x0A4D,
	0x0ACD, 0x0B4D, 0x0BCD, 0x0C4D, 0x0CCD, 0x0D4D,
};

static void cut_seed(font_face_t *f, uint8_t *g, hb_codepoint_t cp, int depth)
{
	hb_codepoint_t gid = font_face_gid(f, cp), a, b;
	if (gid < f->nglyphs)
		g[gid >> 3] |= (uint8_t)(1u << (gid & 7));
	/* HarfBuzz's normalizer may look up the parts of a character */
	if (depth < 8 && hb_unicode_decompose(hb_unicode_funcs_get_default(), cp, &a, &b)) {
		cut_seed(f, g, a, depth + 1);
		if (b)
			cut_seed(f, g, b, depth + 1);
	}
}

static hb_blob_t *cut_table(hb_face_t *face, hb_tag_t tag, void *data)
{
	font_face_t *f = data;
	int k = tag == HB_OT_TAG_GSUB ? 0 : tag == HB_OT_TAG_GPOS ? 1 : -1;
	if (k >= 0 && f->cuttab[k])
		return hb_blob_create((const char *)f->cuttab[k], (unsigned)f->ncuttab[k],
		                      HB_MEMORY_MODE_READONLY, NULL, NULL);
	return face_table(face, tag, data);
}

/* f's HarfBuzz face and fonts on GSUB and GPOS cut to the closure of the
 * document's characters (font_lib_expect), which font_shape.c shapes
 * with while every glyph HarfBuzz asks for is in the closure
 * (font_prune.c says why that shapes as f->hbface would). The fonts are
 * made as face_load makes f's, so that all but the two tables answer the
 * same. -1: not cut (no text said, a small or unreadable GSUB). */
static int face_cut(font_face_t *f)
{
	font_lib_t *lib = f->lib;
	size_t n[2];
	const unsigned char *t[2];
	if (!lib || !f->file || f->hbfont == f->otfont)
		return -1;
	t[0] = sfnt_file_table(f->file, f->index, HB_OT_TAG_GSUB, &n[0]);
	if (!t[0] || n[0] < 10)
		return -1;
	unsigned ll = (unsigned)t[0][8] << 8 | t[0][9];
	if (ll + 2 > n[0] || ((unsigned)t[0][ll] << 8 | t[0][ll + 1]) < CUT_MIN_LOOKUPS)
		return -1;
	t[1] = sfnt_file_table(f->file, f->index, HB_OT_TAG_GPOS, &n[1]);
	if (lib->text_fn) {
		font_text_fn *fn = lib->text_fn;
		lib->text_fn = NULL;
		fn(lib, lib->text_ctx);
	}
	if (!lib->expect)
		return -1;
	uint8_t *g = xcalloc(f->nglyphs / 8 + 1, 1);
	g[0] = 1;       /* .notdef */
	for (int i = 0; i < lib->nexp; i++)
		cut_seed(f, g, lib->expcp[i], 0);
	for (size_t i = 0; i < sizeof(cut_extra) / sizeof(cut_extra[0]); i++)
		cut_seed(f, g, cut_extra[i], 0);
	/* a face with the same GSUB and seed as the last one cut (the bold of
	   Noto Serif Tibetan) has the same closure and cut GSUB: only its
	   GPOS is cut (2.3 M instructions less on bo) */
	size_t gb = f->nglyphs / 8 + 1;
	cut_memo_t *m = &lib->cutmemo;
	int same = m->src && m->nsrc == n[0] && m->ng == f->nglyphs && !memcmp(m->seed, g, gb) &&
	           !memcmp(m->src, t[0], n[0]);
	if (same) {
		memcpy(g, m->clos, gb);
		f->cuttab[0] = xmalloc(n[0]);
		memcpy(f->cuttab[0], m->gsub, n[0]);
	}
	uint8_t *seed = same ? NULL : xmalloc(gb);
	if (seed)
		memcpy(seed, g, gb);
	unsigned char *none;
	if (font_prune(same ? NULL : t[0], same ? 0 : n[0], t[1], t[1] ? n[1] : 0, g, f->nglyphs,
	               same ? &none : &f->cuttab[0], &f->cuttab[1], NULL) != 0) {
		free(seed);
		free(g);
		free(f->cuttab[0]);
		f->cuttab[0] = NULL;
		return -1;
	}
	if (seed) {
		font_cut_memo_free(lib);
		m->src = t[0];
		m->nsrc = n[0];
		m->ng = f->nglyphs;
		m->seed = seed;
		m->clos = xmalloc(gb);
		memcpy(m->clos, g, gb);
		m->gsub = xmalloc(n[0]);
		memcpy(m->gsub, f->cuttab[0], n[0]);
	}
	f->ncuttab[0] = n[0];
	f->ncuttab[1] = t[1] ? n[1] : 0;
	f->cutg = g;
	f->cutface = hb_face_create_for_tables(cut_table, f, NULL);
	hb_face_set_index(f->cutface, (unsigned)f->index);
	f->cutot = hb_font_create(f->cutface);
	hb_font_set_scale(f->cutot, f->upem, f->upem);
	f->cuthb = hb_font_create_sub_font(f->cutot);
	hb_font_set_funcs(f->cuthb, fast_funcs(), f, NULL);
	return 0;
}

void font_cut_memo_free(font_lib_t *lib)
{
	cut_memo_t *m = &lib->cutmemo;
	free(m->seed);
	free(m->clos);
	free(m->gsub);
	memset(m, 0, sizeof(*m));
}

hb_face_t *font_face_shaping(font_face_t *f)
{
	if (f->cut == 0)
		f->cut = face_cut(f) == 0 ? 1 : -1;
	return f->cut > 0 ? f->cutface : f->hbface;
}

/* The cut face's objects; its face kept in f->cutleft with keep (as
 * font_face_unload keeps hbface), else destroyed with its tables. */
static void cut_free(font_face_t *f, int keep)
{
	hb_font_destroy(f->cutshape);
	hb_font_destroy(f->cuthb);
	hb_font_destroy(f->cutot);
	f->cutshape = f->cuthb = f->cutot = NULL;
	if (keep && f->cutface && !f->cutleft) {
		f->cutleft = f->cutface;
		f->cutface = NULL;
	}
	hb_face_destroy(f->cutface);
	f->cutface = NULL;
	if (!keep) {
		hb_face_destroy(f->cutleft);
		f->cutleft = NULL;
		for (int k = 0; k < 2; k++) {
			free(f->cuttab[k]);
			f->cuttab[k] = NULL;
		}
	}
	free(f->cutg);
	f->cutg = NULL;
}

void font_face_uncut(font_face_t *f)
{
	cut_free(f, 0);
	f->cut = -1;
}

hb_codepoint_t font_face_gid_slow(font_face_t *f, uint32_t cp)
{
	hb_codepoint_t gid = 0;
	if (cp >= FONT_GID_CACHE) {
		hb_font_get_nominal_glyph(f->hbfont, cp, &gid);
		return gid;
	}
	uint16_t **pg = &f->gid[cp / FONT_GID_PAGE], *e;
	if (!*pg)
		*pg = xcalloc(FONT_GID_PAGE, sizeof(**pg));
	e = &(*pg)[cp % FONT_GID_PAGE];
	if (!*e) {
		hb_font_get_nominal_glyph(f->hbfont, cp, &gid);
		*e = (uint16_t)(gid < 0xffff ? gid + 1 : 1);
	}
	return *e - 1u;
}

/* Nominal advance as libharu computes it: trunc(advance * 1000 / upem);
 * read from hmtx (f->hb: no array of 65,535 glyphs for a CJK face, whose
 * pages a CV touches all over), else cached as value + 1 (0: not yet; a
 * negative one is not cached). */
int32_t font_face_milli_slow(font_face_t *f, unsigned gid)
{
	if (gid >= f->nglyphs)
		return 0;
	if (gid < f->hbn) /* no cache: as cheap */
		return (int32_t)((int64_t)sfnt_hb_advance(f->hb, gid) * 1000 / f->upem);
	/* zeroed lazily: a CJK face's 65,535 glyphs are 256 KB, of which a CV
	   touches a few pages (calloc maps big arrays fresh, not memset) */
	if (!f->milli)
		f->milli = xcalloc(f->nglyphs, sizeof(int32_t));
	if (f->milli[gid] > 0)
		return f->milli[gid] - 1;
	int64_t a = hb_font_get_glyph_h_advance(f->hbfont, gid);
	int32_t m = (int32_t)(a * 1000 / f->upem);
	if (m >= 0 && m < INT32_MAX)
		f->milli[gid] = m + 1;
	return m;
}

int font_pass_late(font_lib_t *lib, errs_t *e)
{
	if (lib->late.n == 0)
		return 0;
	for (int i = 0; i < lib->late.n; i++) {
		const err_t *l = &lib->late.v[i];
		err_at_code(e, ERR_SYSTEM, l->file, l->line, l->col, "%s", l->msg);
		err_context(e, "%s", l->context);
	}
	errs_clear(&lib->late);
	return -1;
}

int font_face_count(const font_lib_t *lib)
{
	return lib->nused;
}

/* The names are read when first asked for (warnings, tests): rendering
 * needs none of them. */
const font_face_info_t *font_face_info(const font_lib_t *lib, int face)
{
	if (face < 0 || face >= lib->nused)
		return NULL;
	font_face_t *f = lib->used[face];
	if (!f->info.family) {
		f->family = dup_or(sfnt_face_name(&f->sf, SFNT_NAME_FAMILY));
		f->style = dup_or(sfnt_face_name(&f->sf, SFNT_NAME_STYLE));
		f->psname = dup_or(sfnt_face_name(&f->sf, SFNT_NAME_PS));
		f->info.family = f->family;
		f->info.style = f->style;
		f->info.psname = f->psname;
	}
	return &f->info;
}

/* What a loaded face holds of its file: HarfBuzz's objects and plans,
 * the fast path's tables, font_shape.c's caches, the file's pages (keep:
 * the file stays open, its pages given back, for font_subset; else it is
 * closed). Its path and id stay; it can no longer shape or measure (nor
 * subset, without keep), and its names are no longer read.
 * With keep, a face that never mapped its file keeps its HarfBuzz face
 * (f->hbleft) until font_face_free, which a fresh render leaves to exit
 * (main.c's last_job): its tables are f->file's, whose pages go back all
 * the same, and what it holds is the lookups' accelerators, whose frees
 * (one per subtable) were 0.19 M instructions per Devanagari face and
 * 0.28 M per Tibetan one; no more memory at the PDF's peak. A mapped
 * file stays mapped while HarfBuzz holds a table of it, and the pages
 * touched there stay too (CJK outlines): that face goes at once. */
void font_face_unload(font_face_t *f, int keep)
{
	for (int i = 0; i < f->nplans; i++)
		hb_shape_plan_destroy(f->plan[i]);
	f->nplans = 0;
	free(f->hadv);
	for (int i = 0; i < FONT_GID_CACHE / FONT_GID_PAGE; i++) {
		free(f->gid[i]);
		f->gid[i] = NULL;
	}
	font_ot_free(f->ot);
	cut_free(f, keep && !f->mapped);
	f->cut = 0;
	hb_font_destroy(f->shapefont);
	hb_font_destroy(f->hbfont);
	hb_font_destroy(f->otfont);
	if (keep && !f->mapped && !f->hbleft) {
		f->hbleft = f->hbface;
		f->hbface = NULL;
	}
	hb_face_destroy(f->hbface);
	if (!keep) {
		hb_face_destroy(f->hbleft);
		f->hbleft = NULL;
	}
	hb_blob_destroy(f->mapped);
	if (keep)
		sfnt_file_drop(f->file);
	else
		sfnt_file_close(f->file);
	free(f->milli);
	f->hadv = NULL;
	f->ot = NULL;
	f->shapefont = f->hbfont = f->otfont = NULL;
	f->hbface = NULL;
	f->mapped = NULL;
	f->file = keep ? f->file : NULL;
	f->milli = NULL;
	free(f->hb);
	f->hb = NULL;
	f->hbn = 0;
	memset(&f->sf, 0, sizeof(f->sf));   /* it pointed into the file */
}

/* Everything a face owns, font_shape.c's caches included. */
void font_face_free(font_face_t *f)
{
	font_face_unload(f, 0);
	free(f->family);
	free(f->style);
	free(f->psname);
	free(f->path);
	free(f);
}
