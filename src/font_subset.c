/* font_subset: a small font program with just the code points a document
 * uses, for the PDF writer to embed (kept in memory).
 *
 * hb-subset renumbers glyph ids, drops hinting (TrueType instructions, CFF
 * hints) and the layout tables the PDF never needs, and writes a post table
 * without glyph names. It keeps the Unicode cmap, name ids 0-6 (the
 * PostScript name is id 6) and the outline kind: a CFF font stays CFF (a
 * CID-keyed one keeps its font dicts), its charstrings desubroutinized. The result is checked with the same
 * sfnt checks as any input font before it is returned.
 */
#include <string.h>
#include <hb-subset.h>
#include "font_int.h"
#include "sfnt.h"

static const hb_tag_t drop_tags[] = {
	HB_TAG('G', 'S', 'U', 'B'), HB_TAG('G', 'P', 'O', 'S'), HB_TAG('G', 'D', 'E', 'F'),
	HB_TAG('k', 'e', 'r', 'n'), HB_TAG('B', 'A', 'S', 'E'), HB_TAG('J', 'S', 'T', 'F'),
	HB_TAG('M', 'A', 'T', 'H'), HB_TAG('v', 'h', 'e', 'a'), HB_TAG('v', 'm', 't', 'x'),
	HB_TAG('V', 'O', 'R', 'G'), HB_TAG('D', 'S', 'I', 'G'), HB_TAG('m', 'e', 't', 'a'),
	HB_TAG('S', 'T', 'A', 'T'), HB_TAG('g', 'a', 's', 'p'), HB_TAG('h', 'd', 'm', 'x'),
	HB_TAG('L', 'T', 'S', 'H'), HB_TAG('V', 'D', 'M', 'X'), HB_TAG('P', 'C', 'L', 'T'),
};

static hb_subset_input_t *subset_input(const uint32_t *cps, int ncps)
{
	hb_subset_input_t *in = hb_subset_input_create_or_fail();
	if (!in)
		return NULL;
	hb_set_t *u = hb_subset_input_unicode_set(in);
	for (int i = 0; i < ncps; i++)
		if (cps[i] <= 0xffff)
			hb_set_add(u, cps[i]);
	hb_set_t *drop = hb_subset_input_set(in, HB_SUBSET_SETS_DROP_TABLE_TAG);
	for (size_t i = 0; i < sizeof(drop_tags) / sizeof(drop_tags[0]); i++)
		hb_set_add(drop, drop_tags[i]);
	hb_set_t *names = hb_subset_input_set(in, HB_SUBSET_SETS_NAME_ID);
	for (unsigned id = 0; id <= 6; id++)
		hb_set_add(names, id);
	/* CFF: a CV's few hundred glyphs are smaller, and cut faster, with
	   their subroutines inlined than with the subroutine closure kept
	   (measured on the Chinese CV: 660 bytes and 3.8 M instructions less) */
	hb_subset_input_set_flags(in, HB_SUBSET_FLAGS_NO_HINTING | HB_SUBSET_FLAGS_DESUBROUTINIZE);
	return in;
}

int font_subset(font_lib_t *lib, int face, const uint32_t *cps, int ncps, arena_t *a,
                const unsigned char **data, size_t *len, errs_t *e)
{
	return font_subset_glyphs(lib, face, cps, ncps, NULL, 0, NULL, a, data, len, e);
}

/* Glyphs no code point maps to (a feature's: small capitals) are kept
 * through the input's glyph set; the plan says where they went. */
int font_subset_glyphs(font_lib_t *lib, int face, const uint32_t *cps, int ncps,
                       const uint16_t *gids, int ngids, uint16_t *newids, arena_t *a,
                       const unsigned char **data, size_t *len, errs_t *e)
{
	if (face < 0 || face >= lib->nused)
		return err_sys(e, "", "font_subset: no face %d", face);
	font_face_t *f = lib->used[face];
	hb_subset_input_t *in = subset_input(cps, ncps);
	if (!in)
		return err_sys(e, f->path, "cannot subset font: out of memory");
	hb_face_t *sub = NULL;
	if (ngids > 0) {
		hb_set_t *gs = hb_subset_input_glyph_set(in);
		for (int i = 0; i < ngids; i++)
			hb_set_add(gs, gids[i]);
		hb_subset_plan_t *plan = hb_subset_plan_create_or_fail(f->hbface, in);
		if (plan) {
			const hb_map_t *m = hb_subset_plan_old_to_new_glyph_mapping(plan);
			for (int i = 0; i < ngids; i++) {
				hb_codepoint_t g = hb_map_get(m, gids[i]);
				newids[i] = g == HB_MAP_VALUE_INVALID || g > 0xffff ? 0 : (uint16_t)g;
			}
			sub = hb_subset_plan_execute_or_fail(plan);
			hb_subset_plan_destroy(plan);
		}
	} else {
		sub = hb_subset_or_fail(f->hbface, in);
	}
	hb_subset_input_destroy(in);
	if (!sub)
		return err_sys(e, f->path, "cannot subset font (hb-subset failed)");
	hb_blob_t *blob = hb_face_reference_blob(sub);
	hb_face_destroy(sub);
	unsigned n;
	const char *p = hb_blob_get_data(blob, &n);
	char why[300];
	int rc = 0;
	if (!p || sfnt_check((const unsigned char *)p, n, 0, why, sizeof(why)) != 0) {
		rc = err_sys(e, f->path, "font subset unusable: %s", p ? why : "empty");
	} else {
		unsigned char *o = arena_alloc(a, n);
		memcpy(o, p, n);
		*data = o;
		*len = n;
	}
	hb_blob_destroy(blob);
	return rc;
}
