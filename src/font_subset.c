/* font_subset: a small font program with just the code points a document
 * uses, for the PDF writer to embed (kept in memory).
 *
 * sfnt_subset_file (sfnt_glyf.c) cuts it straight from the file (read by
 * pieces: what the glyphs need), with no
 * library: the glyphs used (TrueType: and their composite components),
 * renumbered in the order of their ids, without hinting (CFF: the
 * charstrings flattened), with a cmap of the code points kept. It made
 * what hb-subset made (which it replaces) at a twentieth of the cost. The
 * result is checked with the same sfnt checks as any input font before it
 * is returned.
 */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "font_int.h"
#include "sfnt.h"

int font_subset(font_lib_t *lib, int face, const uint32_t *cps, int ncps, arena_t *a,
                const unsigned char **data, size_t *len, errs_t *e)
{
	return font_subset_glyphs(lib, face, cps, ncps, NULL, 0, NULL, a, data, len, e);
}

/* Glyphs no code point maps to (a feature's: small capitals) are kept
 * through gids; newids says where they went. */
int font_subset_glyphs(font_lib_t *lib, int face, const uint32_t *cps, int ncps,
                       const uint16_t *gids, int ngids, uint16_t *newids, arena_t *a,
                       const unsigned char **data, size_t *len, errs_t *e)
{
	if (face < 0 || face >= lib->nused)
		return err_sys(e, "", "font_subset: no face %d", face);
	font_face_t *f = lib->used[face];
	unsigned char *o = NULL;
	size_t on = 0;
	char why[300] = "empty font file";
	int r = f->file ? sfnt_subset_file(f->file, f->index, cps, ncps, gids, ngids, newids, &o, &on,
	                                   why, sizeof(why)) : -1;
	if (r == 0 && sfnt_check(o, on, 0, why, sizeof(why)) != 0)
		r = -1;
	if (r == 0) {
		/* the program's block, cut to its size (in place), is the
		   arena's: not copied */
		*data = arena_keep(a, xrealloc(o, on));
		*len = on;
		return 0;
	}
	err_sys(e, f->path, "font subset unusable: %s", why);
	free(o);
	return r;
}
