/* font_subset: a small font program with just the code points a document
 * uses, for the PDF writer to embed (kept in memory).
 *
 * sfnt_subset (sfnt_glyf.c) cuts it straight from the mapped file: the
 * glyphs used (TrueType: and their composite components), renumbered in
 * the order of their ids, without hinting (CFF: the charstrings
 * flattened), with a cmap of the code points kept: what hb-subset made,
 * at a fraction of the cost. hb-subset remains for the CFF faces it
 * cannot flatten (seac accents, arithmetic operators): it drops hinting
 * and the layout tables, keeps name ids 0-6 (the PostScript name is id
 * 6) and desubroutinizes; its cmap is not hb-subset's (cutting a CJK
 * face's format 12 and 14 subtables was half the cost of its subset) but
 * sfnt_with_cmap's, a format 4 of just the code points kept, from the
 * plan's glyph maps. Either result is checked with the same sfnt checks
 * as any input font before it is returned.
 */
#include <stdlib.h>
#include <string.h>
#include <hb-subset.h>
#include "arena.h"
#include "font_int.h"
#include "sfnt.h"

static const hb_tag_t drop_tags[] = {
	HB_TAG('G', 'S', 'U', 'B'), HB_TAG('G', 'P', 'O', 'S'), HB_TAG('G', 'D', 'E', 'F'),
	HB_TAG('k', 'e', 'r', 'n'), HB_TAG('B', 'A', 'S', 'E'), HB_TAG('J', 'S', 'T', 'F'),
	HB_TAG('M', 'A', 'T', 'H'), HB_TAG('v', 'h', 'e', 'a'), HB_TAG('v', 'm', 't', 'x'),
	HB_TAG('V', 'O', 'R', 'G'), HB_TAG('D', 'S', 'I', 'G'), HB_TAG('m', 'e', 't', 'a'),
	HB_TAG('S', 'T', 'A', 'T'), HB_TAG('g', 'a', 's', 'p'), HB_TAG('h', 'd', 'm', 'x'),
	HB_TAG('L', 'T', 'S', 'H'), HB_TAG('V', 'D', 'M', 'X'), HB_TAG('P', 'C', 'L', 'T'),
	HB_TAG('c', 'm', 'a', 'p'), /* written by sfnt_with_cmap */
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

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The kept code points (BMP, ascending, once each) and their glyphs in
 * the subset, from the plan's maps; their number. */
static int kept_pairs(hb_subset_plan_t *plan, const uint32_t *cps, int ncps, uint32_t *ucp,
                      unsigned *gid)
{
	const hb_map_t *u2o = hb_subset_plan_unicode_to_old_glyph_mapping(plan);
	const hb_map_t *o2n = hb_subset_plan_old_to_new_glyph_mapping(plan);
	int k = 0;
	for (int i = 0; i < ncps; i++)
		if (cps[i] <= 0xffff)
			ucp[k++] = cps[i];
	qsort(ucp, (size_t)k, sizeof(*ucp), cmp_u32);
	int m = 0;
	for (int i = 0; i < k; i++) {
		if (m && ucp[m - 1] == ucp[i])
			continue;
		hb_codepoint_t old = hb_map_get(u2o, ucp[i]);
		hb_codepoint_t g = old == HB_MAP_VALUE_INVALID ? old : hb_map_get(o2n, old);
		if (g == HB_MAP_VALUE_INVALID || g == 0)
			continue;
		ucp[m] = ucp[i];
		gid[m++] = g;
	}
	return m;
}

/* The subset (no cmap) with the cmap of the code points kept, checked,
 * into the arena. */
static int subset_finish(font_face_t *f, hb_subset_plan_t *plan, hb_face_t *sub,
                         const uint32_t *cps, int ncps, arena_t *a, const unsigned char **data,
                         size_t *len, errs_t *e)
{
	hb_blob_t *blob = hb_face_reference_blob(sub);
	unsigned n;
	const char *p = hb_blob_get_data(blob, &n);
	uint32_t *ucp = xmalloc((size_t)(ncps ? ncps : 1) * sizeof(*ucp));
	unsigned *gid = xmalloc((size_t)(ncps ? ncps : 1) * sizeof(*gid));
	int k = kept_pairs(plan, cps, ncps, ucp, gid);
	unsigned char *o = NULL;
	size_t on = 0;
	char why[300] = "empty";
	int rc = 0;
	if (!p || sfnt_with_cmap((const unsigned char *)p, n, ucp, gid, k, &o, &on) != 0 ||
	    sfnt_check(o, on, 0, why, sizeof(why)) != 0) {
		rc = err_sys(e, f->path, "font subset unusable: %s", why);
	} else {
		unsigned char *d = arena_alloc(a, on);
		memcpy(d, o, on);
		*data = d;
		*len = on;
	}
	free(o);
	free(ucp);
	free(gid);
	hb_blob_destroy(blob);
	return rc;
}

int font_subset(font_lib_t *lib, int face, const uint32_t *cps, int ncps, arena_t *a,
                const unsigned char **data, size_t *len, errs_t *e)
{
	return font_subset_glyphs(lib, face, cps, ncps, NULL, 0, NULL, a, data, len, e);
}

/* Cut by sfnt_subset from the mapped file: 0, 1 (not done: hb-subset's
 * turn) or -1. */
static int subset_glyf(font_face_t *f, const uint32_t *cps, int ncps, const uint16_t *gids,
                       int ngids, uint16_t *newids, arena_t *a, const unsigned char **data,
                       size_t *len, errs_t *e)
{
	unsigned n;
	const unsigned char *p = (const unsigned char *)hb_blob_get_data(f->blob, &n);
	unsigned char *o = NULL;
	size_t on = 0;
	char why[300] = "empty";
	int r = p ? sfnt_subset(p, n, f->index, cps, ncps, gids, ngids, newids, &o, &on, why,
	                        sizeof(why)) : -1;
	if (r == 0 && sfnt_check(o, on, 0, why, sizeof(why)) != 0)
		r = -1;
	if (r == 0) {
		unsigned char *d = arena_alloc(a, on);
		memcpy(d, o, on);
		*data = d;
		*len = on;
	} else if (r < 0) {
		err_sys(e, f->path, "font subset unusable: %s", why);
	}
	free(o);
	return r;
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
	int r = subset_glyf(f, cps, ncps, gids, ngids, newids, a, data, len, e);
	if (r <= 0)
		return r;
	hb_subset_input_t *in = subset_input(cps, ncps);
	if (!in)
		return err_sys(e, f->path, "cannot subset font: out of memory");
	hb_set_t *gs = hb_subset_input_glyph_set(in);
	for (int i = 0; i < ngids; i++)
		hb_set_add(gs, gids[i]);
	hb_subset_plan_t *plan = hb_subset_plan_create_or_fail(f->hbface, in);
	hb_subset_input_destroy(in);
	if (plan && ngids > 0) {
		const hb_map_t *m = hb_subset_plan_old_to_new_glyph_mapping(plan);
		for (int i = 0; i < ngids; i++) {
			hb_codepoint_t g = hb_map_get(m, gids[i]);
			newids[i] = g == HB_MAP_VALUE_INVALID || g > 0xffff ? 0 : (uint16_t)g;
		}
	}
	hb_face_t *sub = plan ? hb_subset_plan_execute_or_fail(plan) : NULL;
	int rc = sub ? subset_finish(f, plan, sub, cps, ncps, a, data, len, e)
	             : err_sys(e, f->path, "cannot subset font (hb-subset failed)");
	hb_face_destroy(sub);
	hb_subset_plan_destroy(plan);
	return rc;
}
