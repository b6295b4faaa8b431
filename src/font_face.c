/* font_face: one font file + face index: validated when a chain names it
 * (font_file_get, sfnt checks), loaded on first use (font_face_use:
 * FreeType check, names, vertical metrics, HarfBuzz objects, face id),
 * nominal advances, and the errors of lazy loading (lib->late).
 *
 * An error while loading lazily (the only case is FreeType refusing a file
 * that passed our checks) is kept in lib->late and handed to the next call
 * that takes an errs_t (font_shape, font_subset); the face then covers
 * nothing. The lowest of the src/font*.c files: it calls none of them.
 */
#include <stdlib.h>
#include <string.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
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

static char *dup_or(const char *s, const char *dflt)
{
	return xstrdup(s && *s ? s : dflt);
}

/* FreeType must accept the file; take names and vertical metrics from it. */
static int face_load_ft(font_lib_t *lib, font_face_t *f)
{
	FT_Face ft;
	FT_Error fe = FT_New_Face((FT_Library)lib->ft, f->path, f->index, &ft);
	if (fe != 0) {
		char why[128];
		snprintf(why, sizeof(why), "corrupt font: FreeType cannot open it (error 0x%02x)", fe);
		face_error(&lib->late, f->path, why, "", 0, 0);
		return -1;
	}
	if (!FT_IS_SFNT(ft) || !FT_IS_SCALABLE(ft) || ft->units_per_EM == 0) {
		FT_Done_Face(ft);
		face_error(&lib->late, f->path, "not a TrueType-outline font", "", 0, 0);
		return -1;
	}
	f->upem = ft->units_per_EM;
	f->asc = ft->ascender;
	f->desc = ft->descender;
	TT_OS2 *os2 = FT_Get_Sfnt_Table(ft, FT_SFNT_OS2);
	if (os2 && os2->version >= 2 && os2->version != 0xffff) {
		f->cap = os2->sCapHeight;
	}
	if (f->asc <= 0 && os2) {
		f->asc = os2->sTypoAscender;
		f->desc = os2->sTypoDescender;
	}
	f->family = dup_or(ft->family_name, "");
	f->style = dup_or(ft->style_name, "");
	f->psname = dup_or(FT_Get_Postscript_Name(ft), "");
	FT_Done_Face(ft);
	return 0;
}

static int face_load_hb(font_lib_t *lib, font_face_t *f)
{
	f->blob = hb_blob_create_from_file_or_fail(f->path);
	if (!f->blob) {
		face_error(&lib->late, f->path, "cannot read font file", "", 0, 0);
		return -1;
	}
	f->hbface = hb_face_create(f->blob, (unsigned)f->index);
	f->hbfont = hb_font_create(f->hbface);
	hb_font_set_scale(f->hbfont, f->upem, f->upem);
	f->nglyphs = hb_face_get_glyph_count(f->hbface);
	if (f->nglyphs == 0) {
		face_error(&lib->late, f->path, "corrupt font: HarfBuzz finds no glyphs", "", 0, 0);
		return -1;
	}
	hb_blob_t *kern = hb_face_reference_table(f->hbface, HB_TAG('k', 'e', 'r', 'n'));
	f->kerns = hb_ot_layout_has_positioning(f->hbface) || hb_blob_get_length(kern) > 0;
	hb_blob_destroy(kern);
	f->milli = xmalloc(f->nglyphs * sizeof(int32_t));
	memset(f->milli, 0xff, f->nglyphs * sizeof(int32_t));
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
	if (face_load_ft(lib, f) != 0 || face_load_hb(lib, f) != 0) {
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
	f->info.family = f->family;
	f->info.style = f->style;
	f->info.psname = f->psname;
	f->info.units_per_em = f->upem;
	return f->id;
}

/* Nominal advance as libharu computes it: trunc(advance * 1000 / upem). */
int32_t font_face_milli(font_face_t *f, unsigned gid)
{
	if (gid >= f->nglyphs)
		return 0;
	if (f->milli[gid] < 0) {
		int64_t a = hb_font_get_glyph_h_advance(f->hbfont, gid);
		f->milli[gid] = (int32_t)(a * 1000 / f->upem);
	}
	return f->milli[gid];
}

int font_pass_late(font_lib_t *lib, errs_t *e)
{
	if (lib->late.n == 0)
		return 0;
	for (int i = 0; i < lib->late.n; i++) {
		err_sys(e, lib->late.v[i].file, "%s", lib->late.v[i].msg);
		err_context(e, "%s", lib->late.v[i].context);
	}
	errs_clear(&lib->late);
	return -1;
}

int font_face_count(const font_lib_t *lib)
{
	return lib->nused;
}

const font_face_info_t *font_face_info(const font_lib_t *lib, int face)
{
	if (face < 0 || face >= lib->nused)
		return NULL;
	return &lib->used[face]->info;
}

/* Everything a face owns, font_shape.c's caches included. */
void font_face_free(font_face_t *f)
{
	for (int i = 0; i < f->nplans; i++)
		hb_shape_plan_destroy(f->plan[i]);
	free(f->hadv);
	free(f->gid);
	hb_font_destroy(f->hbfont);
	hb_face_destroy(f->hbface);
	hb_blob_destroy(f->blob);
	free(f->milli);
	free(f->family);
	free(f->style);
	free(f->psname);
	free(f->path);
	free(f);
}
