/* sfnt_face: what a face of a font file or collection says about itself
 * -- its names, units per em, ascender and descender, OS/2 fields --
 * read from the table directory with no library (see include/sfnt.h).
 *
 * The values are those FreeType 2.12 gives (FT_Face's family_name,
 * style_name, units_per_EM, ascender, descender; FT_Get_Postscript_Name;
 * FT_Get_Sfnt_Table(FT_SFNT_OS2)), which vita used to load every face with:
 * the same tables found by the same rules (a table that lies outside the
 * file is ignored, an empty one is missing, the first of two wins), the
 * same name records accepted and chosen (Windows English, else Apple
 * English/Roman, else Unicode), the same conversions to ASCII, the same
 * hhea / OS/2 fallbacks. tests/unit/test_font.c compares every installed
 * face with FreeType. Fields are read from the file at the table's offset,
 * as FreeType reads them (a table shorter than its fields is not refused
 * while the file holds them).
 */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "sfnt.h"

#define TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* The table directory of face index; 0 when there is none. */
static int face_dir(const unsigned char *p, size_t n, int index, uint32_t *dir)
{
	if (n < 12)
		return -1;
	uint32_t d = 0;
	if (be32(p) == TAG('t', 't', 'c', 'f')) {
		if (index < 0 || (uint32_t)index >= be32(p + 8) || 16 + 4 * (uint64_t)index > n)
			return -1;
		d = be32(p + 12 + 4 * (size_t)index);
	} else if (index != 0) {
		return -1;
	}
	if ((uint64_t)d + 12 > n || (uint64_t)d + 12 + 16 * (uint64_t)be16(p + d + 4) > n)
		return -1;
	*dir = d;
	return 0;
}

/* Table tag of the face at dir: the first entry that lies in the file (a
 * metrics table running past the end is cut to it); 0 when there is none
 * or it is empty. */
static int face_table(const unsigned char *p, size_t n, uint32_t dir, uint32_t tag,
                      uint32_t *off, uint32_t *len)
{
	unsigned nt = be16(p + dir + 4);
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *r = p + dir + 12 + 16 * (size_t)i;
		uint32_t t = be32(r), o = be32(r + 8), l = be32(r + 12);
		if (o > n)
			continue;
		if (l > n - o) {
			if (t != TAG('h', 'm', 't', 'x') && t != TAG('v', 'm', 't', 'x'))
				continue;
			l = (uint32_t)((n - o) & ~(size_t)3);
		}
		if (t != tag)
			continue;
		*off = o;
		*len = l;
		return l != 0;
	}
	return 0;
}

/* OS/2 as FreeType loads it: the fields of its version must be in the
 * file, else the table counts as missing. */
static void face_os2(const unsigned char *p, size_t n, uint32_t dir, sfnt_face_t *fi)
{
	uint32_t o, l;
	fi->os2 = 0;
	if (!face_table(p, n, dir, TAG('O', 'S', '/', '2'), &o, &l) || (uint64_t)o + 78 > n)
		return;
	const unsigned char *t = p + o;
	unsigned ver = be16(t);
	size_t need = ver >= 5 ? 100 : ver >= 2 ? 96 : ver >= 1 ? 86 : 78;
	if ((uint64_t)o + need > n || ver == 0xffff)
		return;
	fi->os2 = 1;
	fi->os2_version = ver;
	fi->fs_selection = be16(t + 62);
	fi->typo_asc = (int16_t)be16(t + 68);
	fi->typo_desc = (int16_t)be16(t + 70);
	fi->win_asc = be16(t + 74);
	fi->win_desc = be16(t + 76);
	fi->cap = ver >= 2 ? (int16_t)be16(t + 88) : 0;
}

int sfnt_face_read(const unsigned char *p, size_t n, int index, sfnt_face_t *fi)
{
	uint32_t dir, o, l, ho, hl;
	memset(fi, 0, sizeof(*fi));
	if (face_dir(p, n, index, &dir) != 0)
		return -1;
	fi->p = p;
	fi->n = n;
	fi->dir = dir;
	/* FreeType's has_outline; bitmaps make a face not scalable for it
	   only when it finds usable strikes in them: here always */
	fi->bitmaps = face_table(p, n, dir, TAG('C', 'B', 'L', 'C'), &o, &l) ||
	              face_table(p, n, dir, TAG('C', 'B', 'D', 'T'), &o, &l) ||
	              face_table(p, n, dir, TAG('s', 'b', 'i', 'x'), &o, &l);
	int outlines = face_table(p, n, dir, TAG('g', 'l', 'y', 'f'), &o, &l) ||
	               face_table(p, n, dir, TAG('C', 'F', 'F', ' '), &o, &l) ||
	               face_table(p, n, dir, TAG('C', 'F', 'F', '2'), &o, &l);
	fi->outline = !fi->bitmaps && outlines;
	fi->color = !outlines && face_table(p, n, dir, TAG('C', 'B', 'L', 'C'), &o, &l) &&
	            face_table(p, n, dir, TAG('C', 'B', 'D', 'T'), &o, &l);
	if (!face_table(p, n, dir, TAG('h', 'e', 'a', 'd'), &ho, &hl) || (uint64_t)ho + 54 > n ||
	    !face_table(p, n, dir, TAG('h', 'h', 'e', 'a'), &o, &l) || (uint64_t)o + 36 > n)
		return -1;
	fi->upem = be16(p + ho + 18);
	face_os2(p, n, dir, fi);
	/* FreeType: USE_TYPO_METRICS, else hhea, else (both 0) typo, else win */
	int asc = (int16_t)be16(p + o + 4), desc = (int16_t)be16(p + o + 6);
	if (fi->os2 && (fi->fs_selection & 128)) {
		asc = fi->typo_asc;
		desc = fi->typo_desc;
	} else if (!asc && !desc && fi->os2) {
		if (fi->typo_asc || fi->typo_desc) {
			asc = fi->typo_asc;
			desc = fi->typo_desc;
		} else {
			asc = (int16_t)fi->win_asc;
			desc = (int16_t)-(int16_t)fi->win_desc;
		}
	}
	fi->asc = asc;
	fi->desc = desc;
	return 0;
}

/* ---- names ---- */

/* The name records FreeType keeps: inside the table's storage, not
 * empty, with a valid language tag (format 1). */
typedef struct name_tab {
	const unsigned char *p;
	uint32_t off, start, limit; /* table; string storage [start, limit) */
	unsigned count, ntags;
	unsigned fmt;
	uint32_t tagoff;            /* format 1: the language tag records */
} name_tab_t;

static int name_open(const sfnt_face_t *fi, name_tab_t *nt)
{
	const unsigned char *p = fi->p;
	size_t n = fi->n;
	uint32_t o, l;
	if (!face_table(p, n, fi->dir, TAG('n', 'a', 'm', 'e'), &o, &l) || (uint64_t)o + 6 > n)
		return -1;
	nt->p = p;
	nt->off = o;
	nt->fmt = be16(p + o);
	nt->count = be16(p + o + 2);
	uint64_t start = (uint64_t)o + 6 + 12 * (uint64_t)nt->count, limit = (uint64_t)o + l;
	if (start > limit)
		return -1;
	nt->ntags = 0;
	if (nt->fmt == 1) {
		if (start + 2 > n)
			return -1;
		nt->ntags = be16(p + start);
		nt->tagoff = (uint32_t)start + 2;
		if (start + 2 + 4 * (uint64_t)nt->ntags > n)
			return -1;
		start += 2 + 4 * (uint64_t)nt->ntags;
	}
	nt->start = (uint32_t)start;
	nt->limit = (uint32_t)limit;
	return 0;
}

/* The string of record i (platform, encoding, language, name id), or
 * NULL when FreeType drops the record. */
static const unsigned char *name_rec(const name_tab_t *nt, unsigned i, unsigned *plat,
                                     unsigned *enc, unsigned *lang, unsigned *id, unsigned *len)
{
	const unsigned char *r = nt->p + nt->off + 6 + 12 * (size_t)i;
	unsigned storage = be16(nt->p + nt->off + 4);
	*plat = be16(r);
	*enc = be16(r + 2);
	*lang = be16(r + 4);
	*id = be16(r + 6);
	*len = be16(r + 8);
	uint64_t s = (uint64_t)nt->off + storage + be16(r + 10);
	if (*len == 0 || s < nt->start || s + *len > nt->limit)
		return NULL;
	if (nt->fmt == 1 && *lang >= 0x8000) {
		unsigned k = *lang - 0x8000;
		if (k >= nt->ntags)
			return NULL;
		const unsigned char *t = nt->p + nt->tagoff + 4 * (size_t)k;
		uint64_t ts = (uint64_t)nt->off + storage + be16(t + 2);
		if (be16(t) == 0 || ts < nt->start || ts + be16(t) > nt->limit)
			return NULL;
	}
	return nt->p + s;
}

/* Name id as FreeType's tt_face_get_name converts it to ASCII (others
 * become '?'), or NULL. */
static char *name_get(const name_tab_t *nt, unsigned nameid)
{
	int win = -1, win_en = 0, apple_en = -1, apple_roman = -1, uni = -1;
	for (unsigned i = 0; i < nt->count; i++) {
		unsigned plat, enc, lang, id, len;
		if (!name_rec(nt, i, &plat, &enc, &lang, &id, &len) || id != nameid)
			continue;
		if (plat == 0 || plat == 2) {
			uni = (int)i;
		} else if (plat == 1) {
			if (lang == 0)
				apple_en = (int)i;
			else if (enc == 0)
				apple_roman = (int)i;
		} else if (plat == 3 && (win == -1 || (lang & 0x3ff) == 9) &&
		           (enc == 0 || enc == 1 || enc == 10)) {
			win_en = (lang & 0x3ff) == 9;
			win = (int)i;
		}
	}
	int apple = apple_en >= 0 ? apple_en : apple_roman, rec, wide;
	if (win >= 0 && !(apple >= 0 && !win_en))
		rec = win, wide = 1;
	else if (apple >= 0)
		rec = apple, wide = 0;
	else if (uni >= 0)
		rec = uni, wide = 1;
	else
		return NULL;
	unsigned plat, enc, lang, id, len;
	const unsigned char *s = name_rec(nt, (unsigned)rec, &plat, &enc, &lang, &id, &len);
	unsigned nch = wide ? len / 2 : len, k;
	char *out = xmalloc(nch + 1);
	for (k = 0; k < nch; k++) {
		unsigned c = wide ? be16(s + 2 * k) : s[k];
		if (c == 0)
			break;
		out[k] = (char)(c < 32 || c > 127 ? '?' : c);
	}
	out[k] = '\0';
	return out;
}

/* The characters FreeType allows in a PostScript name (sfnt_is_postscript):
 * printable ASCII but space [ ] ( ) { } < > / % */
static int ps_char(unsigned c)
{
	return c > 32 && c < 127 && !strchr("[](){}<>/%", (int)c);
}

/* Name id 6 as FreeType's sfnt_get_ps_name reads it: the Windows (3,0 or
 * 3,1) record, US English or else the first; failing that (a character
 * that is not ASCII or not allowed), the Apple Roman one. */
static char *name_ps(const name_tab_t *nt)
{
	int win = -1, apple = -1;
	for (unsigned i = 0; i < nt->count; i++) {
		unsigned plat, enc, lang, id, len;
		if (!name_rec(nt, i, &plat, &enc, &lang, &id, &len) || id != 6)
			continue;
		if (plat == 3 && enc <= 1 && (lang == 0x409 || win == -1))
			win = (int)i;
		if (plat == 1 && enc == 0 && (lang == 0 || apple == -1))
			apple = (int)i;
	}
	for (int pass = 0; pass < 2; pass++) {
		int rec = pass ? apple : win;
		if (rec < 0)
			continue;
		unsigned plat, enc, lang, id, len, k, nch;
		const unsigned char *s = name_rec(nt, (unsigned)rec, &plat, &enc, &lang, &id, &len);
		nch = pass ? len : len / 2;
		char *out = xmalloc(nch + 1);
		for (k = 0; k < nch; k++) {
			const unsigned char *c = pass ? s + k : s + 2 * k;
			if ((!pass && c[0] != 0) || !ps_char(pass ? c[0] : c[1]))
				break;
			out[k] = (char)(pass ? c[0] : c[1]);
		}
		out[k] = '\0';
		if (k == nch)
			return out;
		free(out);
	}
	return NULL;
}

char *sfnt_face_name(const sfnt_face_t *fi, int which)
{
	name_tab_t nt;
	if (!fi->p || name_open(fi, &nt) != 0)
		return NULL;
	if (which == SFNT_NAME_PS)
		return name_ps(&nt);
	/* FreeType 2.12: with fsSelection bit 8 (WWS) the typographic names,
	   without it the WWS names first; then the typographic ones, then
	   ids 1 and 2 */
	static const unsigned ids[2][2][3] = { { { 21, 16, 1 }, { 22, 17, 2 } },
	                                       { { 16, 1, 0 }, { 17, 2, 0 } } };
	int wws = fi->os2 && (fi->fs_selection & 256);
	const unsigned *v = ids[wws][which == SFNT_NAME_STYLE];
	for (int i = 0; i < 3 && v[i]; i++) {
		char *s = name_get(&nt, v[i]);
		if (s)
			return s;
	}
	return NULL;
}
