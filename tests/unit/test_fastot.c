/* test_fastot: font_ot.c's fast path against HarfBuzz itself.
 *
 * For every face vita would load under /usr/share/fonts (and the faces
 * of the bundled chains, more thoroughly), random words drawn from the
 * face's own cmap (Latin, Greek, Cyrillic, punctuation, CJK, with some
 * marks and other characters the fast path must refuse; and words of
 * Hangul: syllables, jamo, tone marks) are shaped both
 * ways with each feature set vita asks for. Whenever the fast path takes
 * a word, HarfBuzz (hb_shape, the features of font_shape.c) must give one
 * glyph per character with the same glyph, advance and offsets.
 * FASTOT_WORDS=N sets the words per face and feature set (default 24; the
 * chain faces get 8 times as many); FASTOT_FONTS=DIR another tree.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <hb-ot.h>
#include "t.h"
#include "t_fonts.h"
#include "../../src/font_int.h"

static const hb_tag_t tags[6] = {
	HB_TAG('s', 'm', 'c', 'p'), HB_TAG('c', '2', 's', 'c'), HB_TAG('o', 'n', 'u', 'm'),
	HB_TAG('l', 'n', 'u', 'm'), HB_TAG('t', 'n', 'u', 'm'), HB_TAG('p', 'n', 'u', 'm'),
};
static const unsigned masks[] = { 0, 1, 2, 4, 8, 16, 32, 1 | 4 | 32, 63 };
#define NMASKS (sizeof(masks) / sizeof(masks[0]))

static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static long n_words, n_fast, n_faces, n_fail;

/* The script HarfBuzz guesses (font_shape.c's text_script). */
static hb_script_t guess(const uint32_t *cp, int n)
{
	hb_unicode_funcs_t *u = hb_unicode_funcs_get_default();
	for (int i = 0; i < n; i++) {
		hb_script_t s = hb_unicode_script(u, cp[i]);
		if (s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN)
			return s;
	}
	return HB_SCRIPT_INVALID;
}

static void report(font_face_t *f, const uint32_t *cp, int n, unsigned mask, const char *why)
{
	n_fail++;
	if (n_fail > 30)
		return;
	fprintf(stderr, "%s#%d mask %u: %s; word", f->path, f->index, mask, why);
	for (int i = 0; i < n; i++)
		fprintf(stderr, " U+%04X", cp[i]);
	fprintf(stderr, "\n");
}

/* One word both ways. */
static void word(hb_buffer_t *b, font_face_t *f, const uint32_t *cp, int n, unsigned mask)
{
	uint32_t g[64];
	int32_t dx[64], xo[64], yo[64];
	hb_tag_t user[6];
	int nuser = 0;
	for (int i = 0; i < 6; i++)
		if (mask & 1u << i)
			user[nuser++] = tags[i];
	for (int i = 0; i < n; i++) {
		hb_codepoint_t gid = 0;
		hb_font_get_nominal_glyph(f->hbfont, cp[i], &gid);
		g[i] = gid;
	}
	hb_script_t sc = guess(cp, n);
	n_words++;
	if (!font_ot_shape(f, sc, mask, user, nuser, cp, g, n, dx, xo, yo))
		return;
	n_fast++;
	hb_feature_t feats[11] = {
		{ HB_TAG('k', 'e', 'r', 'n'), 1, 0, (unsigned)-1 },
		{ HB_TAG('l', 'i', 'g', 'a'), 0, 0, (unsigned)-1 },
		{ HB_TAG('c', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
		{ HB_TAG('d', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
		{ HB_TAG('c', 'a', 'l', 't'), 0, 0, (unsigned)-1 },
	};
	unsigned nf = 5;
	for (int i = 0; i < nuser; i++)
		feats[nf++] = (hb_feature_t){ user[i], 1, 0, (unsigned)-1 };
	hb_buffer_clear_contents(b);
	hb_buffer_add_codepoints(b, cp, n, 0, n);
	hb_buffer_set_direction(b, HB_DIRECTION_LTR);
	if (sc != HB_SCRIPT_INVALID)
		hb_buffer_set_script(b, sc);
	hb_buffer_set_language(b, hb_language_from_string("und", 3));
	hb_buffer_guess_segment_properties(b);
	hb_shape(f->hbfont, b, feats, nf);
	unsigned m;
	hb_glyph_info_t *in = hb_buffer_get_glyph_infos(b, &m);
	hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(b, NULL);
	if ((int)m != n) {
		report(f, cp, n, mask, "HarfBuzz gives another number of glyphs");
		return;
	}
	for (int i = 0; i < n; i++) {
		int32_t adv = hb_font_get_glyph_h_advance(f->hbfont, g[i]) + dx[i];
		if (in[i].cluster != (unsigned)i || in[i].codepoint != g[i] || pos[i].x_advance != adv ||
		    pos[i].x_offset != xo[i] || pos[i].y_offset != yo[i]) {
			char why[200];
			snprintf(why, sizeof(why),
			         "glyph %d: HarfBuzz %u adv %d off %d,%d; fast path %u adv %d off %d,%d", i,
			         in[i].codepoint, pos[i].x_advance, pos[i].x_offset, pos[i].y_offset, g[i],
			         adv, xo[i], yo[i]);
			report(f, cp, n, mask, why);
			return;
		}
	}
}

/* Candidate characters: what ordinary text holds, and some the fast path
 * must decline (marks, soft hyphen, fraction slash, joiners, controls). */
static int candidate(uint32_t c)
{
	return (c >= 0x20 && c < 0x250) || (c >= 0x300 && c < 0x310) || (c >= 0x370 && c < 0x3d0) ||
	       (c >= 0x400 && c < 0x460) || (c >= 0x2010 && c < 0x2050) || c == 0x20ac ||
	       (c >= 0xfb00 && c <= 0xfb04) || (c >= 0x3000 && c < 0x3020) ||
	       (c >= 0x3040 && c < 0x30a0) || (c >= 0x4e00 && c < 0x4e60) ||
	       (c >= 0xff01 && c < 0xff20) || c == 0x200d || c == 0x9 || c == 0xad;
}

/* font_halt.c's question (cp alone, default features + halt) both ways. */
static void halt_check(hb_buffer_t *b, font_face_t *f, uint32_t cp)
{
	hb_codepoint_t gid;
	int32_t adv, off;
	if (!hb_font_get_nominal_glyph(f->hbfont, cp, &gid) || !gid)
		return;
	n_words++;
	int r = font_ot_halt(f, cp, gid, &adv, &off);
	if (!r)
		return;
	n_fast++;
	static const hb_feature_t on = { HB_TAG('h', 'a', 'l', 't'), 1, 0, (unsigned)-1 };
	hb_buffer_clear_contents(b);
	hb_buffer_add_codepoints(b, &cp, 1, 0, 1);
	hb_buffer_set_direction(b, HB_DIRECTION_LTR);
	hb_buffer_set_language(b, hb_language_from_string("und", 3));
	hb_buffer_guess_segment_properties(b);
	hb_shape(f->hbfont, b, &on, 1);
	unsigned m;
	hb_glyph_info_t *in = hb_buffer_get_glyph_infos(b, &m);
	hb_glyph_position_t *p = hb_buffer_get_glyph_positions(b, NULL);
	int same = m == 1 && (r == 2 ? in[0].codepoint != gid :
	                      in[0].codepoint == gid && p[0].x_advance == adv && p[0].x_offset == off);
	if (!same)
		report(f, &cp, 1, 0, "halt: HarfBuzz differs");
}

/* Hangul for words of their own (HarfBuzz's Hangul shaper): syllables
 * (a sample from both ends of the block), conjoining jamo the shaper
 * composes, compatibility jamo, tone marks; and Common characters. */
static int hangul(uint32_t c)
{
	return (c >= 0xac00 && c < 0xac60) || (c >= 0xd780 && c <= 0xd7a3) ||
	       (c >= 0x1100 && c < 0x1118) || (c >= 0x1161 && c < 0x1170) ||
	       (c >= 0x11a8 && c < 0x11b0) || (c >= 0x3131 && c < 0x3140) || c == 0x302e ||
	       c == 0x302f || c == 0x25cc;
}

static void hangul_words(hb_buffer_t *b, font_face_t *f, int words)
{
	static const uint32_t common[] = { ' ', '.', ',', '(', ')', '1', '9', 0xb7, 0x2013, 0x201c,
		                           0x3001, 0x3002, 0xff0c };
	uint32_t cps[256];
	int nh = 0, ncp;
	hb_codepoint_t g;
	for (uint32_t c = 0x1100; c <= 0xd7a3 && nh < 200; c++)
		if (hangul(c) && hb_font_get_nominal_glyph(f->hbfont, c, &g))
			cps[nh++] = c;
	if (nh == 0)
		return;
	ncp = nh;
	for (unsigned i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (hb_font_get_nominal_glyph(f->hbfont, common[i], &g))
			cps[ncp++] = common[i];
	for (unsigned mi = 0; mi < NMASKS; mi++) {
		for (int k = 0; k < words; k++) {
			uint32_t w[24];
			int n = 1 + (int)rnd(12);
			for (int i = 0; i < n; i++)
				w[i] = rnd(5) ? cps[rnd((unsigned)nh)] : cps[rnd((unsigned)ncp)];
			/* the syllables alone, the words vita meets most */
			if (k % 2)
				for (int i = 0; i < n; i++)
					if (w[i] < 0xac00)
						w[i] = 0xac00 + rnd(0x60);
			word(b, f, w, n, masks[mi]);
		}
	}
}

static void face_words(hb_buffer_t *b, font_face_t *f, int words)
{
	static const uint32_t halts[] = { 0x3001, 0x3002, 0x300c, 0x300d, 0x300e, 0x3010, 0x3011,
		                          0xff08, 0xff09, 0xff0c, 0xff0e, 0xff1a, 0xff1b, 0x2018,
		                          0x2019, 0x201c, 0x201d, 0x2026, 0x30fb, 'a' };
	for (unsigned i = 0; i < sizeof(halts) / sizeof(halts[0]); i++)
		halt_check(b, f, halts[i]);
	uint32_t cps[1500];
	int ncp = 0;
	for (uint32_t c = 0x9; c < 0xff20 && ncp < 1500; c++) {
		hb_codepoint_t g;
		if (candidate(c) && hb_font_get_nominal_glyph(f->hbfont, c, &g))
			cps[ncp++] = c;
	}
	if (ncp == 0)
		return;
	n_faces++;
	for (unsigned mi = 0; mi < NMASKS; mi++) {
		for (int k = 0; k < words; k++) {
			uint32_t w[24];
			int n = 1 + (int)rnd(12);
			/* mostly one script's letters, so that kerning pairs occur */
			uint32_t base = cps[rnd((unsigned)ncp)];
			for (int i = 0; i < n; i++) {
				uint32_t c = cps[rnd((unsigned)ncp)];
				if (rnd(4) && c > base + 60)
					c = cps[rnd((unsigned)ncp)];
				w[i] = c;
			}
			word(b, f, w, n, masks[mi]);
		}
	}
	hangul_words(b, f, words);
}

static const char *const fdirs[] = { "fonts", NULL };

/* Each file in a library of its own, freed after it (HarfBuzz's tables
 * of two thousand faces would not fit). */
static void file_faces(hb_buffer_t *b, const char *path, int words)
{
	errs_t le;
	errs_init(&le);
	font_lib_t *lib = font_lib_new(fdirs, &le);
	errs_done(&le);
	if (!lib)
		return;
	hb_blob_t *blob = hb_blob_create_from_file_or_fail(path);
	unsigned count = blob ? hb_face_count(blob) : 0;
	hb_blob_destroy(blob);
	for (unsigned i = 0; i < count && i < 16; i++) {
		errs_t e;
		errs_init(&e);
		font_face_t *f = font_file_get(lib, path, (int)i, "", 0, 0, &e);
		errs_done(&e);
		if (!f || font_face_use(lib, f) < 0)
			continue;
		face_words(b, f, words);
	}
	font_lib_free(lib);
}

static int is_font(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && (!strcmp(name + n - 4, ".ttf") || !strcmp(name + n - 4, ".otf") ||
	                 !strcmp(name + n - 4, ".ttc"));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void tree(hb_buffer_t *b, const char *dir, int words)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap)
			v = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		v[n] = malloc(len);
		snprintf(v[n++], len, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(v[i], &st) == 0 && S_ISDIR(st.st_mode))
			tree(b, v[i], words);
		else if (is_font(v[i])) {
			const char *base = strrchr(v[i], '/') + 1;
			/* the bundled chains' families: more words */
			int main = !strncmp(base, "NotoSerif-", 10) || !strncmp(base, "NotoSans-", 9) ||
			           !strncmp(base, "NotoSerifCJK", 12) || !strncmp(base, "NotoSansCJK", 11) ||
			           !strncmp(base, "DejaVu", 6) || !strncmp(base, "Lato", 4) ||
			           !strncmp(base, "Liberation", 10);
			file_faces(b, v[i], main ? 8 * words : words);
		}
		free(v[i]);
	}
	free(v);
}

/* ---- a GPOS of known content, spliced into Noto Serif ---- */

typedef struct bw {
	unsigned char p[4096];
	size_t n;
} bw_t;

static void w16(bw_t *b, unsigned v)
{
	b->p[b->n++] = (unsigned char)(v >> 8);
	b->p[b->n++] = (unsigned char)v;
}

static void put16(bw_t *b, size_t at, unsigned v)
{
	b->p[at] = (unsigned char)(v >> 8);
	b->p[at + 1] = (unsigned char)v;
}

static void coverage1(bw_t *b, const unsigned *g, int n)
{
	w16(b, 1);
	w16(b, (unsigned)n);
	for (int i = 0; i < n; i++)
		w16(b, g[i]);
}

static int cmp_uint(const void *a, const void *b)
{
	return (int)*(const unsigned *)a - (int)*(const unsigned *)b;
}

/* Lookups: 0 PairPos format 1 with a value2 (x placement and advance on
 * the second glyph: the pair after it starts after the second glyph),
 * 1 PairPos format 2 (class kerning), 2 SinglePos; all under 'kern' of
 * DFLT and latn. */
static size_t make_gpos(bw_t *b, unsigned A, unsigned V, unsigned T, unsigned W, unsigned o,
                        unsigned a, unsigned y)
{
	b->n = 0;
	w16(b, 1), w16(b, 0);
	size_t hdr = b->n;
	w16(b, 0), w16(b, 0), w16(b, 0);
	/* ScriptList: DFLT and latn, both with the same default LangSys */
	size_t sl = b->n;
	put16(b, hdr, (unsigned)sl);
	w16(b, 2);
	b->p[b->n++] = 'D', b->p[b->n++] = 'F', b->p[b->n++] = 'L', b->p[b->n++] = 'T';
	w16(b, 14);
	b->p[b->n++] = 'l', b->p[b->n++] = 'a', b->p[b->n++] = 't', b->p[b->n++] = 'n';
	w16(b, 14);
	w16(b, 4), w16(b, 0);                   /* Script: default LangSys at +4 */
	w16(b, 0), w16(b, 0xffff), w16(b, 1), w16(b, 0);   /* LangSys: feature 0 */
	size_t fl = b->n;
	put16(b, hdr + 2, (unsigned)fl);
	w16(b, 1);
	b->p[b->n++] = 'k', b->p[b->n++] = 'e', b->p[b->n++] = 'r', b->p[b->n++] = 'n';
	w16(b, 8);
	w16(b, 0), w16(b, 3), w16(b, 0), w16(b, 1), w16(b, 2);
	size_t ll = b->n;
	put16(b, hdr + 4, (unsigned)ll);
	w16(b, 3);
	size_t lo[3];
	for (int i = 0; i < 3; i++)
		lo[i] = b->n, w16(b, 0);
	/* lookup 0: PairPos 1 */
	size_t L = b->n;
	put16(b, lo[0], (unsigned)(L - ll));
	w16(b, 2), w16(b, 0), w16(b, 1), w16(b, 8);
	size_t st = b->n;
	unsigned cov[2] = { A, V };
	qsort(cov, 2, sizeof(*cov), cmp_uint);
	w16(b, 1), w16(b, 0), w16(b, 4), w16(b, 5), w16(b, 2);
	size_t ps0 = b->n;
	w16(b, 0), w16(b, 0);
	put16(b, st + 2, (unsigned)(b->n - st));
	coverage1(b, cov, 2);
	for (int k = 0; k < 2; k++) {
		put16(b, ps0 + 2 * (size_t)k, (unsigned)(b->n - st));
		w16(b, 1);
		if (cov[k] == A)
			w16(b, V), w16(b, (unsigned)-80 & 0xffff), w16(b, 10), w16(b, (unsigned)-20 & 0xffff);
		else
			w16(b, A), w16(b, (unsigned)-60 & 0xffff), w16(b, 0), w16(b, 15);
	}
	/* lookup 1: PairPos 2 */
	L = b->n;
	put16(b, lo[1], (unsigned)(L - ll));
	w16(b, 2), w16(b, 0), w16(b, 1), w16(b, 8);
	st = b->n;
	w16(b, 2), w16(b, 0), w16(b, 4), w16(b, 0), w16(b, 0), w16(b, 0), w16(b, 2), w16(b, 2);
	w16(b, 0), w16(b, 0), w16(b, 0), w16(b, (unsigned)-90 & 0xffff);
	unsigned c1[2] = { T, W }, c2[3] = { o, a, y };
	qsort(c1, 2, sizeof(*c1), cmp_uint);
	qsort(c2, 3, sizeof(*c2), cmp_uint);
	put16(b, st + 2, (unsigned)(b->n - st));
	coverage1(b, c1, 2);
	put16(b, st + 8, (unsigned)(b->n - st));  /* ClassDef format 2: each glyph its range */
	w16(b, 2), w16(b, 2);
	for (int i = 0; i < 2; i++)
		w16(b, c1[i]), w16(b, c1[i]), w16(b, 1);
	put16(b, st + 10, (unsigned)(b->n - st));
	w16(b, 2), w16(b, 3);
	for (int i = 0; i < 3; i++)
		w16(b, c2[i]), w16(b, c2[i]), w16(b, 1);
	/* lookup 2: SinglePos 1 on y */
	L = b->n;
	put16(b, lo[2], (unsigned)(L - ll));
	w16(b, 1), w16(b, 0), w16(b, 1), w16(b, 8);
	st = b->n;
	w16(b, 1), w16(b, 0), w16(b, 5), w16(b, 7), w16(b, 3);
	put16(b, st + 2, (unsigned)(b->n - st));
	coverage1(b, &y, 1);
	while (b->n % 4)
		b->p[b->n++] = 0;
	return b->n;
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

TEST(synthetic_gpos)
{
	const char *path = t_font("serif", FONT_REGULAR, "en", 'A');
	FILE *fp = fopen(path, "rb");
	CHECK(fp != NULL);
	if (!fp)
		return;
	fseek(fp, 0, SEEK_END);
	long len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	size_t n = (size_t)len, base = (n + 3) & ~(size_t)3;
	unsigned char *w = calloc(1, base + 4096);
	CHECK(fread(w, 1, n, fp) == n);
	fclose(fp);
	hb_blob_t *b0 = hb_blob_create((const char *)w, (unsigned)n, HB_MEMORY_MODE_READONLY, NULL, NULL);
	hb_face_t *f0 = hb_face_create(b0, 0);
	hb_font_t *h0 = hb_font_create(f0);
	unsigned gl[7];
	const char *chars = "AVTWoay";
	for (int i = 0; i < 7; i++) {
		hb_codepoint_t g = 0;
		hb_font_get_nominal_glyph(h0, (unsigned char)chars[i], &g);
		gl[i] = g;
	}
	hb_font_destroy(h0);
	hb_face_destroy(f0);
	hb_blob_destroy(b0);
	bw_t gp;
	size_t gn = make_gpos(&gp, gl[0], gl[1], gl[2], gl[3], gl[4], gl[5], gl[6]);
	memcpy(w + base, gp.p, gn);
	unsigned nt = (unsigned)w[4] << 8 | w[5];
	int found = 0;
	for (unsigned i = 0; i < nt; i++) {
		unsigned char *r = w + 12 + 16 * i;
		if (!memcmp(r, "GPOS", 4)) {
			uint32_t off = (uint32_t)base, l = (uint32_t)gn;
			r[8] = (unsigned char)(off >> 24), r[9] = (unsigned char)(off >> 16);
			r[10] = (unsigned char)(off >> 8), r[11] = (unsigned char)off;
			r[12] = (unsigned char)(l >> 24), r[13] = (unsigned char)(l >> 16);
			r[14] = (unsigned char)(l >> 8), r[15] = (unsigned char)l;
			found = rd32(r + 8) == base;
		}
	}
	CHECK(found);
	hb_blob_t *blob = hb_blob_create((const char *)w, (unsigned)(base + gn), HB_MEMORY_MODE_READONLY,
	                                 NULL, NULL);
	font_face_t f;
	memset(&f, 0, sizeof(f));
	f.path = "synthetic";
	f.hbface = hb_face_create(blob, 0);
	f.hbfont = hb_font_create(f.hbface);
	f.upem = (int)hb_face_get_upem(f.hbface);
	hb_font_set_scale(f.hbfont, f.upem, f.upem);
	f.nglyphs = hb_face_get_glyph_count(f.hbface);
	hb_buffer_t *b = hb_buffer_create();
	static const char *const words[] = { "AVA", "VAV", "AVAVA", "Toy", "Wave", "TAVy", "yay",
		                             "VAT", "AAVV", "WoW", "oTo", "12" };
	long before = n_fast, fails = n_fail;
	for (unsigned k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		uint32_t cp[16];
		int m = 0;
		for (const char *s = words[k]; *s; s++)
			cp[m++] = (unsigned char)*s;
		for (unsigned mi = 0; mi < NMASKS; mi++)
			word(b, &f, cp, m, masks[mi]);
	}
	/* every word taken, and HarfBuzz agreed with each */
	EQ_INT(n_fast - before, (long)(sizeof(words) / sizeof(words[0]) * NMASKS));
	EQ_INT(n_fail - fails, 0);
	/* and the values are the table's: A V A: only the first pair kerns */
	uint32_t cp[3] = { 'A', 'V', 'A' }, g[3] = { gl[0], gl[1], gl[0] };
	int32_t dx[3], xo[3], yo[3];
	CHECK(font_ot_shape(&f, HB_SCRIPT_LATIN, 0, NULL, 0, cp, g, 3, dx, xo, yo));
	EQ_INT(dx[0], -80);
	EQ_INT(dx[1], -20);
	EQ_INT(xo[1], 10);
	EQ_INT(dx[2], 0);
	hb_buffer_destroy(b);
	font_ot_free(f.ot);
	hb_font_destroy(f.hbfont);
	hb_face_destroy(f.hbface);
	hb_blob_destroy(blob);
	free(w);
}

TEST(fast_path_equals_harfbuzz)
{
	const char *w = getenv("FASTOT_WORDS"), *dir = getenv("FASTOT_FONTS");
	int words = w && atoi(w) > 0 ? atoi(w) : 24;
	hb_buffer_t *b = hb_buffer_create();
	tree(b, dir ? dir : "/usr/share/fonts", words);
	hb_buffer_destroy(b);
	fprintf(stderr, "%ld faces, %ld words, %ld by the fast path (%.1f%%), %ld mismatches\n",
	        n_faces, n_words, n_fast, n_words ? 100.0 * n_fast / n_words : 0.0, n_fail);
	EQ_INT(n_fail, 0);
	/* the fast path must take most words: Noto Serif's are ordinary */
	CHECK(n_faces > 0 && n_fast > n_words / 10);
}

int main(void)
{
	RUN(synthetic_gpos);
	RUN(fast_path_equals_harfbuzz);
	return t_report();
}
