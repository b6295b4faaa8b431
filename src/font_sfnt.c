/* font_sfnt: our own sanity checks of a TrueType file before anything
 * reaches libharu 2.3.0, which trusts the tables: numberOfHMetrics >
 * numGlyphs crashes it (SIGSEGV), unitsPerEm 0 divides by zero (SIGFPE),
 * CFF outlines and table lengths past the end of the file make it fail or
 * take seconds. FreeType misses some of these, so we read the table
 * directory and the few fields ourselves (a few hundred bytes per file).
 *
 * font_sfnt_check(path, index, why, n): 0 when usable, else -1 with a
 * reason ("not a TrueType-outline font (CFF outlines)", "corrupt font:
 * ...") written into why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "file.h"
#include "font_int.h"

#define TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

typedef struct sfnt_tab {
	uint32_t off, len;
	int have;
} sfnt_tab_t;

enum { T_HEAD, T_HHEA, T_MAXP, T_HMTX, T_GLYF, T_LOCA, T_CMAP, T_NAME, T_CFF, T_N };

static const uint32_t sfnt_tags[T_N] = {
	TAG('h', 'e', 'a', 'd'), TAG('h', 'h', 'e', 'a'), TAG('m', 'a', 'x', 'p'),
	TAG('h', 'm', 't', 'x'), TAG('g', 'l', 'y', 'f'), TAG('l', 'o', 'c', 'a'),
	TAG('c', 'm', 'a', 'p'), TAG('n', 'a', 'm', 'e'), TAG('C', 'F', 'F', ' '),
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static int sfnt_read(FILE *f, long off, void *dst, size_t n)
{
	if (fseek(f, off, SEEK_SET) != 0)
		return -1;
	return fread(dst, 1, n, f) == n ? 0 : -1;
}

/* Offset of the table directory of face index (following a ttcf header). */
static int sfnt_face_offset(FILE *f, uint64_t size, int index, uint32_t *off,
                            char *why, size_t whysz)
{
	unsigned char h[12];
	if (size < 12 || sfnt_read(f, 0, h, 12) != 0) {
		snprintf(why, whysz, "corrupt font: file too short (%llu bytes)",
		         (unsigned long long)size);
		return -1;
	}
	if (be32(h) != TAG('t', 't', 'c', 'f')) {
		if (index != 0) {
			snprintf(why, whysz, "face index %d given, but the file is not a collection", index);
			return -1;
		}
		*off = 0;
		return 0;
	}
	uint32_t nfonts = be32(h + 8);
	if (index < 0 || (uint32_t)index >= nfonts) {
		snprintf(why, whysz, "face index %d out of range (the collection has %u faces)",
		         index, nfonts);
		return -1;
	}
	unsigned char o[4];
	if ((uint64_t)12 + 4 * (uint64_t)index + 4 > size || sfnt_read(f, 12 + 4L * index, o, 4) != 0) {
		snprintf(why, whysz, "corrupt font: collection header truncated");
		return -1;
	}
	*off = be32(o);
	return 0;
}

static int sfnt_directory(FILE *f, uint64_t size, uint32_t off, sfnt_tab_t *t,
                          char *why, size_t whysz)
{
	unsigned char h[12], r[16];
	if ((uint64_t)off + 12 > size || sfnt_read(f, off, h, 12) != 0) {
		snprintf(why, whysz, "corrupt font: table directory truncated");
		return -1;
	}
	uint32_t ver = be32(h);
	if (ver == TAG('O', 'T', 'T', 'O')) {
		snprintf(why, whysz, "not a TrueType-outline font (CFF outlines); "
		         "libharu can embed only glyf TrueType fonts");
		return -1;
	}
	if (ver != 0x00010000 && ver != TAG('t', 'r', 'u', 'e')) {
		snprintf(why, whysz, "not a TrueType font (unknown sfnt version 0x%08x)", ver);
		return -1;
	}
	unsigned ntab = be16(h + 4);
	if (ntab == 0 || (uint64_t)off + 12 + 16 * (uint64_t)ntab > size) {
		snprintf(why, whysz, "corrupt font: table directory truncated");
		return -1;
	}
	for (unsigned i = 0; i < ntab; i++) {
		if (sfnt_read(f, off + 12 + 16L * i, r, 16) != 0) {
			snprintf(why, whysz, "corrupt font: table directory unreadable");
			return -1;
		}
		uint32_t tag = be32(r), to = be32(r + 8), tl = be32(r + 12);
		for (int k = 0; k < T_N; k++) {
			if (tag != sfnt_tags[k] && !(k == T_CFF && tag == TAG('C', 'F', 'F', '2')))
				continue;
			if ((uint64_t)to + tl > size) {
				snprintf(why, whysz, "corrupt font: table '%c%c%c%c' extends past the end of the file",
				         r[0], r[1], r[2], r[3]);
				return -1;
			}
			t[k].off = to;
			t[k].len = tl;
			t[k].have = 1;
		}
	}
	return 0;
}

static int sfnt_need(const sfnt_tab_t *t, int k, uint32_t minlen, char *why, size_t whysz)
{
	uint32_t tag = sfnt_tags[k];
	if (!t[k].have) {
		snprintf(why, whysz, "corrupt font: no '%c%c%c%c' table",
		         tag >> 24, (tag >> 16) & 0xff, (tag >> 8) & 0xff, tag & 0xff);
		return -1;
	}
	if (t[k].len < minlen) {
		snprintf(why, whysz, "corrupt font: '%c%c%c%c' table too short (%u bytes)",
		         tag >> 24, (tag >> 16) & 0xff, (tag >> 8) & 0xff, tag & 0xff, t[k].len);
		return -1;
	}
	return 0;
}

/* The fields libharu divides by or sizes buffers with. */
static int sfnt_fields(FILE *f, const sfnt_tab_t *t, char *why, size_t whysz)
{
	unsigned char head[54], hhea[36], maxp[6];
	if (sfnt_read(f, t[T_HEAD].off, head, 54) || sfnt_read(f, t[T_HHEA].off, hhea, 36) ||
	    sfnt_read(f, t[T_MAXP].off, maxp, 6)) {
		snprintf(why, whysz, "corrupt font: cannot read head/hhea/maxp");
		return -1;
	}
	unsigned upem = be16(head + 18), locfmt = be16(head + 50);
	unsigned nglyphs = be16(maxp + 4), nhm = be16(hhea + 34);
	if (upem < 16 || upem > 16384)
		return snprintf(why, whysz, "corrupt font: head.unitsPerEm = %u (expected 16..16384)", upem), -1;
	if (locfmt > 1)
		return snprintf(why, whysz, "corrupt font: head.indexToLocFormat = %u", locfmt), -1;
	if (nglyphs == 0)
		return snprintf(why, whysz, "corrupt font: maxp.numGlyphs = 0"), -1;
	if (nhm < 1 || nhm > nglyphs)
		return snprintf(why, whysz, "corrupt font: hhea.numberOfHMetrics = %u "
		                "(expected 1..maxp.numGlyphs = %u)", nhm, nglyphs), -1;
	if ((uint64_t)t[T_HMTX].len < 4 * (uint64_t)nhm + 2 * (uint64_t)(nglyphs - nhm))
		return snprintf(why, whysz, "corrupt font: 'hmtx' too short for %u glyphs", nglyphs), -1;
	if ((uint64_t)t[T_LOCA].len < (nglyphs + 1ull) * (locfmt ? 4 : 2))
		return snprintf(why, whysz, "corrupt font: 'loca' too short for %u glyphs", nglyphs), -1;
	return 0;
}

int font_sfnt_check(const char *path, int index, char *why, size_t whysz)
{
	const char *whyf;
	FILE *f = file_fopen(path, FILE_MAX_BINARY, &whyf);
	if (!f) {
		snprintf(why, whysz, "cannot open font file: %s", whyf);
		return -1;
	}
	struct stat st;
	sfnt_tab_t t[T_N];
	memset(t, 0, sizeof(t));
	uint32_t off = 0;
	int r = -1;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		snprintf(why, whysz, "not a regular file");
	else if (sfnt_face_offset(f, (uint64_t)st.st_size, index, &off, why, whysz) == 0 &&
	         sfnt_directory(f, (uint64_t)st.st_size, off, t, why, whysz) == 0) {
		if (!t[T_GLYF].have || !t[T_LOCA].have)
			snprintf(why, whysz, "not a TrueType-outline font (%s); "
			         "libharu can embed only glyf TrueType fonts",
			         t[T_CFF].have ? "CFF outlines" : "no glyf/loca tables");
		else if (sfnt_need(t, T_HEAD, 54, why, whysz) == 0 &&
		         sfnt_need(t, T_HHEA, 36, why, whysz) == 0 &&
		         sfnt_need(t, T_MAXP, 6, why, whysz) == 0 &&
		         sfnt_need(t, T_HMTX, 4, why, whysz) == 0 &&
		         sfnt_need(t, T_CMAP, 4, why, whysz) == 0 &&
		         sfnt_need(t, T_NAME, 6, why, whysz) == 0)
			r = sfnt_fields(f, t, why, whysz);
	}
	fclose(f);
	return r;
}
