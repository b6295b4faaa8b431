/* font_halt: the half-width form of full-width CJK punctuation.
 *
 * font_halt(chain, face, cp, size, &cut, &dx) says how much blank a
 * full-width mark (「。，） ...) can lose and where its ink then sits, for
 * the compression W3C clreq and jlreq describe (line start, line end,
 * adjacent marks). The face's GPOS 'halt' feature is the authority when
 * it has one (Noto Sans/Serif CJK: each regional face knows its own
 * convention: zh-Hans marks sit left, zh-Hant ones centred); otherwise the
 * glyph's ink box is read: ink within one half of the em means the other
 * half is blank. Results are cached per face (HarfBuzz user data on the
 * hb_face, freed with it).
 */
#include <stdlib.h>
#include <string.h>
#include "font_int.h"

#define HALT_SLOTS 64

typedef struct halt_ent {
	uint32_t cp;            /* 0: empty */
	int8_t how;             /* FONT_HALT_* */
	int32_t cut, dx;        /* font units */
} halt_ent_t;

typedef struct halt_cache {
	halt_ent_t e[HALT_SLOTS];
} halt_cache_t;

static hb_user_data_key_t halt_key;

/* The 'halt' positioning of cp alone: 1 when the feature changed it. */
static int halt_gpos(font_face_t *f, hb_codepoint_t gid, uint32_t cp, int32_t *cut,
                     int32_t *dx)
{
	static const hb_feature_t on = { HB_TAG('h', 'a', 'l', 't'), 1, 0, (unsigned)-1 };
	int32_t adv, off;
	/* font_ot.c answers as HarfBuzz would, without loading its tables */
	int fast = getenv("VITA_SHAPER") && !strcmp(getenv("VITA_SHAPER"), "harfbuzz") ? 0 :
	           font_ot_halt(f, cp, gid, &adv, &off);
	if (fast) {
		int32_t nom = hb_font_get_glyph_h_advance(f->hbfont, gid);
		if (fast == 2 || adv >= nom || adv <= 0)
			return 0;
		*cut = nom - adv;
		*dx = off;
		return 1;
	}
	hb_buffer_t *b = hb_buffer_create();
	int ok = 0;
	hb_buffer_add_codepoints(b, &cp, 1, 0, 1);
	hb_buffer_set_direction(b, HB_DIRECTION_LTR);
	hb_buffer_set_language(b, hb_language_from_string("und", 3));
	hb_buffer_guess_segment_properties(b);
	hb_shape(f->hbfont, b, &on, 1);
	unsigned n;
	hb_glyph_info_t *in = hb_buffer_get_glyph_infos(b, &n);
	hb_glyph_position_t *p = hb_buffer_get_glyph_positions(b, NULL);
	if (n == 1 && in[0].codepoint == gid) {
		int32_t nom = hb_font_get_glyph_h_advance(f->hbfont, gid);
		if (p[0].x_advance < nom && p[0].x_advance > 0) {
			*cut = nom - p[0].x_advance;
			*dx = p[0].x_offset;
			ok = 1;
		}
	}
	hb_buffer_destroy(b);
	return ok;
}

/* No 'halt': the blank half from the ink box. */
static int halt_box(font_face_t *f, hb_codepoint_t gid, int32_t *cut, int32_t *dx)
{
	hb_glyph_extents_t e;
	int32_t adv = hb_font_get_glyph_h_advance(f->hbfont, gid);
	int32_t half = adv / 2, tol = adv / 50;
	if (adv <= 0 || !hb_font_get_glyph_extents(f->hbfont, gid, &e) || e.width <= 0)
		return 0;
	int32_t x0 = e.x_bearing, x1 = e.x_bearing + e.width;
	*cut = half;
	if (x0 >= half - tol && x1 <= adv + tol) {         /* ink right: blank left */
		*dx = -half;
		return 1;
	}
	if (x0 >= -tol && x1 <= half + tol) {               /* ink left: blank right */
		*dx = 0;
		return 1;
	}
	if (x0 >= adv / 4 - tol && x1 <= adv - adv / 4 + tol) { /* centred */
		*dx = -(adv / 4);
		return 1;
	}
	return 0;
}

static int32_t fu_u(int32_t fu, int32_t size, int upem)
{
	int64_t v = (int64_t)fu * size;
	return (int32_t)(v >= 0 ? (v + upem / 2) / upem : -((-v + upem / 2) / upem));
}

int font_halt(font_chain_t *c, int face, uint32_t cp, int32_t size, int32_t *cut,
              int32_t *dx)
{
	font_lib_t *lib = c->lib;
	*cut = *dx = 0;
	if (face < 0 || face >= lib->nused || !lib->used[face] || !lib->used[face]->hbfont)
		return 0;
	font_face_t *f = lib->used[face];
	halt_cache_t *hc = hb_face_get_user_data(f->hbface, &halt_key);
	if (!hc) {
		hc = xcalloc(1, sizeof(*hc));
		if (!hb_face_set_user_data(f->hbface, &halt_key, hc, free, 0)) {
			free(hc);
			hc = NULL;
		}
	}
	halt_ent_t *en = NULL, tmp;
	if (hc) {
		for (unsigned h = cp % HALT_SLOTS, k = 0; k < HALT_SLOTS; k++, h = (h + 1) % HALT_SLOTS)
			if (hc->e[h].cp == cp || !hc->e[h].cp) {
				en = &hc->e[h];
				break;
			}
	}
	if (!en || en->cp != cp) {
		hb_codepoint_t gid = 0;
		memset(&tmp, 0, sizeof(tmp));
		tmp.cp = cp;
		if (hb_font_get_nominal_glyph(f->hbfont, cp, &gid) && gid) {
			if (halt_gpos(f, gid, cp, &tmp.cut, &tmp.dx))
				tmp.how = FONT_HALT_GPOS;
			else if (halt_box(f, gid, &tmp.cut, &tmp.dx))
				tmp.how = FONT_HALT_BOX;
		}
		if (en)
			*en = tmp;
		else
			en = &tmp;
	}
	if (!en->how)
		return 0;
	*cut = fu_u(en->cut, size, f->upem);
	*dx = fu_u(en->dx, size, f->upem);
	return en->how;
}
