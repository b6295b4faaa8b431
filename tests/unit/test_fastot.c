/* test_fastot: font_ot.c's fast path against HarfBuzz itself.
 *
 * For every face vita would load under /usr/share/fonts (and the faces
 * of the bundled chains, more thoroughly), random words drawn from the
 * face's own cmap (Latin, Greek, Cyrillic, punctuation, CJK, with some
 * marks and other characters the fast path must refuse; and words of
 * Hangul: syllables, jamo, tone marks; of Hebrew, Arabic presentation
 * forms, Armenian, Georgian: run_words) are shaped both
 * ways with each feature set vita asks for. Whenever the fast path takes
 * a word, HarfBuzz (hb_shape, the features of font_shape.c) must give one
 * glyph per character with the same glyph, advance and offsets.
 * FASTOT_WORDS=N sets the words per face and feature set (default 24; the
 * chain faces get 8 times as many); FASTOT_FONTS=DIR another tree.
 * Then GPOS and GSUB tables of known content spliced into real faces
 * (synthetic_*): what must be applied, and in which order or direction.
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
	       (c >= 0xff01 && c < 0xff20) || c == 0x200d || c == 0x9 || c == 0xad ||
	       (c >= 0x5b0 && c < 0x5f5) || (c >= 0x620 && c < 0x670) || (c >= 0xfe80 && c < 0xfea0);
}

/* Words of one run of a script the fast path takes beside Latin, Greek,
 * Cyrillic and CJK: the letters of the script (Hebrew, Arabic
 * presentation forms, Armenian, Georgian), with some digits,
 * punctuation, marks (points, harakat), letters the fast path must refuse
 * and Latin among them. */
static const struct run {
	uint32_t from, to;      /* the letters */
	uint32_t other[12];     /* what else the words may hold */
	uint32_t nonletter;     /* of the script, not a letter (0: none) */
} runs[] = {
	{ 0x5d0, 0x5ea, { '1', '2', '.', '-', 0x5be, 0x5f3, 0x5f4, 0x5b8, 0x5bc, 0x5c1, 'a', 0x20 }, 0x5f3 },
	/* Arabic as bidi.c gives it: presentation forms, with letters that
	   join (alef, beh), tatweel, a fatha, digits, the Arabic comma */
	{ 0xfe70, 0xfefc, { '1', 0x661, 0x60c, 0x61f, 0x627, 0x628, 0x640, 0x64e, '(', 0xfd3e, 0x6f4, 0x20 }, 0x661 },
	{ 0xfb50, 0xfdff, { '1', 0x662, 0x621, 0x6d4, 0x644, 0xfeef, 0x640, 0x650, ')', 0x66b, 0x200d, 'a' }, 0x662 },
	/* scripts of the default shaper */
	{ 0x531, 0x586, { '1', '.', 0x55d, 0x589, 0x301, 'a', 0x20, 0x2014, '(', 0x55e, 0xfb13, 0x2019 }, 0 },
	{ 0x10d0, 0x10fa, { '1', '.', 0x10fb, 0x301, 'a', 0x20, 0x2014, '(', ',', 0x10fc, 0x2019, ';' }, 0 },
};
#define NRUNS (sizeof(runs) / sizeof(runs[0]))
static long n_run_words[NRUNS], n_run_fast[NRUNS];

static void run_words(hb_buffer_t *b, font_face_t *f, const struct run *r, int words)
{
	uint32_t let[400], oth[12];
	int nl = 0, no = 0;
	hb_codepoint_t g;
	for (uint32_t c = r->from; c <= r->to && nl < 400; c++)
		if (hb_font_get_nominal_glyph(f->hbfont, c, &g))
			let[nl++] = c;
	for (int i = 0; i < 12; i++)
		if (hb_font_get_nominal_glyph(f->hbfont, r->other[i], &g))
			oth[no++] = r->other[i];
	if (nl < 4)
		return;
	for (unsigned mi = 0; mi < NMASKS; mi += 3) {
		for (int k = 0; k < words; k++) {
			uint32_t w[24];
			int n = 1 + (int)rnd(10);
			for (int i = 0; i < n; i++)
				w[i] = no && !rnd(6) ? oth[rnd((unsigned)no)] : let[rnd((unsigned)nl)];
			/* the script's punctuation and digits, no letter: shaped
			   left to right (Hebrew), now and then */
			if (r->nonletter && hb_font_get_nominal_glyph(f->hbfont, r->nonletter, &g) &&
			    !rnd(12))
				for (int i = 0; i < n; i++)
					w[i] = i ? (uint32_t)"1.2-3"[i % 5] : r->nonletter;
			if (no && !rnd(16) && n > 1)
				w[0] = oth[rnd((unsigned)no)];
			long fast = n_fast;
			word(b, f, w, n, masks[mi]);
			n_run_words[r - runs]++;
			n_run_fast[r - runs] += n_fast - fast;
		}
	}
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
	for (unsigned i = 0; i < NRUNS; i++)
		run_words(b, f, &runs[i], words);
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
 * DFLT and script2 (sorted after DFLT). */
static size_t make_gpos(bw_t *b, unsigned A, unsigned V, unsigned T, unsigned W, unsigned o,
                        unsigned a, unsigned y, const char *script2)
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
	memcpy(b->p + b->n, script2, 4);
	b->n += 4;
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

/* A face: the file at path with make_gpos's GPOS on the glyphs of ch[7]
 * (A V T W o a y) in place of its own, and no legacy kern table. */
typedef struct synth {
	unsigned char *w;
	hb_blob_t *blob;
	font_face_t f;
	unsigned gl[12];
} synth_t;

/* Writes a GSUB on the glyphs gl (of synth_open's characters) into b. */
typedef void gsub_fn(bw_t *b, const unsigned *gl, int variant);

static void set_table(unsigned char *r, uint32_t off, uint32_t l)
{
	r[8] = (unsigned char)(off >> 24), r[9] = (unsigned char)(off >> 16);
	r[10] = (unsigned char)(off >> 8), r[11] = (unsigned char)off;
	r[12] = (unsigned char)(l >> 24), r[13] = (unsigned char)(l >> 16);
	r[14] = (unsigned char)(l >> 8), r[15] = (unsigned char)l;
}

/* With gsub: its GSUB too (variant: its argument). nch: characters in
 * ch, at least 7 (make_gpos's). */
static int synth_open2(synth_t *sy, const char *path, const uint32_t *ch, int nch,
                       const char *script2, gsub_fn *gsub, int variant)
{
	memset(sy, 0, sizeof(*sy));
	FILE *fp = fopen(path, "rb");
	CHECK(fp != NULL);
	if (!fp)
		return 0;
	fseek(fp, 0, SEEK_END);
	long len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	size_t n = (size_t)len, base = (n + 3) & ~(size_t)3;
	unsigned char *w = sy->w = calloc(1, base + 8192);
	CHECK(fread(w, 1, n, fp) == n);
	fclose(fp);
	hb_blob_t *b0 = hb_blob_create((const char *)w, (unsigned)n, HB_MEMORY_MODE_READONLY, NULL, NULL);
	hb_face_t *f0 = hb_face_create(b0, 0);
	hb_font_t *h0 = hb_font_create(f0);
	int all = 1;
	for (int i = 0; i < nch; i++) {
		hb_codepoint_t g = 0;
		hb_font_get_nominal_glyph(h0, ch[i], &g);
		sy->gl[i] = g;
		all &= g != 0;
	}
	CHECK(all);
	hb_font_destroy(h0);
	hb_face_destroy(f0);
	hb_blob_destroy(b0);
	bw_t gp;
	size_t gn = make_gpos(&gp, sy->gl[0], sy->gl[1], sy->gl[2], sy->gl[3], sy->gl[4], sy->gl[5],
	                      sy->gl[6], script2);
	memcpy(w + base, gp.p, gn);
	size_t sbase = base + gn, sn = 0;
	if (gsub) {
		bw_t gs;
		gsub(&gs, sy->gl, variant);
		memcpy(w + sbase, gs.p, gs.n);
		sn = gs.n;
	}
	unsigned nt = (unsigned)w[4] << 8 | w[5];
	int found = 0, sfound = !gsub;
	for (unsigned i = 0; i < nt; i++) {
		unsigned char *r = w + 12 + 16 * i;
		if (!memcmp(r, "kern", 4))
			r[3] = 'm';     /* no legacy kern table: 'kerm' sorts where it was */
		if (!memcmp(r, "GPOS", 4)) {
			set_table(r, (uint32_t)base, (uint32_t)gn);
			found = rd32(r + 8) == base;
		}
		if (gsub && !memcmp(r, "GSUB", 4)) {
			set_table(r, (uint32_t)sbase, (uint32_t)sn);
			sfound = 1;
		}
	}
	CHECK(found && sfound);
	sy->blob = hb_blob_create((const char *)w, (unsigned)(sbase + sn), HB_MEMORY_MODE_READONLY,
	                          NULL, NULL);
	font_face_t *f = &sy->f;
	f->path = "synthetic";
	f->hbface = hb_face_create(sy->blob, 0);
	f->hbfont = hb_font_create(f->hbface);
	f->upem = (int)hb_face_get_upem(f->hbface);
	hb_font_set_scale(f->hbfont, f->upem, f->upem);
	f->nglyphs = hb_face_get_glyph_count(f->hbface);
	return all && found && sfound;
}

static int synth_open(synth_t *sy, const char *path, const uint32_t *ch, const char *script2)
{
	return synth_open2(sy, path, ch, 7, script2, NULL, 0);
}

static void synth_close(synth_t *sy)
{
	font_ot_free(sy->f.ot);
	hb_font_destroy(sy->f.hbfont);
	hb_face_destroy(sy->f.hbface);
	hb_blob_destroy(sy->blob);
	free(sy->w);
}

/* The code points of s (UTF-8 of the BMP), at most max. */
static int cps_of(const char *s, uint32_t *cp, int max)
{
	int m = 0;
	while (*s && m < max) {
		uint32_t c = (unsigned char)*s++;
		if (c >= 0xc0) {
			int more = c >= 0xe0 ? 2 : 1;
			c &= more == 2 ? 0x0f : 0x1f;
			while (more-- && *s)
				c = c << 6 | ((unsigned char)*s++ & 0x3f);
		}
		cp[m++] = c;
	}
	return m;
}

/* Each word (UTF-8) with every mask both ways: the fast path must take
 * all of them and HarfBuzz agree with each. */
static void synth_words(hb_buffer_t *b, synth_t *sy, const char *const *words, int nw)
{
	long before = n_fast, fails = n_fail;
	for (int k = 0; k < nw; k++) {
		uint32_t cp[16];
		int m = cps_of(words[k], cp, 16);
		for (unsigned mi = 0; mi < NMASKS; mi++)
			word(b, &sy->f, cp, m, masks[mi]);
	}
	EQ_INT(n_fast - before, (long)nw * (long)NMASKS);
	EQ_INT(n_fail - fails, 0);
}

TEST(synthetic_gpos)
{
	static const uint32_t ch[7] = { 'A', 'V', 'T', 'W', 'o', 'a', 'y' };
	synth_t sy;
	if (!synth_open(&sy, t_font("serif", FONT_REGULAR, "en", 'A'), ch, "latn")) {
		synth_close(&sy);
		return;
	}
	hb_buffer_t *b = hb_buffer_create();
	static const char *const words[] = { "AVA", "VAV", "AVAVA", "Toy", "Wave", "TAVy", "yay",
		                             "VAT", "AAVV", "WoW", "oTo", "12" };
	synth_words(b, &sy, words, (int)(sizeof(words) / sizeof(words[0])));
	/* and the values are the table's: A V A: only the first pair kerns */
	uint32_t cp[3] = { 'A', 'V', 'A' }, g[3] = { sy.gl[0], sy.gl[1], sy.gl[0] };
	int32_t dx[3], xo[3], yo[3];
	CHECK(font_ot_shape(&sy.f, HB_SCRIPT_LATIN, 0, NULL, 0, cp, g, 3, dx, xo, yo));
	EQ_INT(dx[0], -80);
	EQ_INT(dx[1], -20);
	EQ_INT(xo[1], 10);
	EQ_INT(dx[2], 0);
	hb_buffer_destroy(b);
	synth_close(&sy);
}

/* Hebrew: HarfBuzz shapes the run reversed (but not one of digits and
 * punctuation only), and applies GPOS only when GPOS has a 'hebr'
 * script. A = alef, V = bet, T = geresh, o = '1'. */
TEST(synthetic_hebrew)
{
	static const uint32_t ch[7] = { 0x5d0, 0x5d1, 0x5f3, 0x5d2, '1', 0x5d3, 0x5d4 };
	static const char *const words[] = { "אב", "בא", "אבא", "בבאא", "׳1", "׳11", "1׳", "ג1",
		                             "׳ה", "גדה", "1״2", "ה-1" };
	/* DejaVu Sans: Hebrew letters and punctuation, and digits */
	const char *path = t_fc_file("DejaVu Sans:charset=5d0 5f3 31");
	for (int hebr = 0; hebr < 2; hebr++) {
		synth_t sy;
		if (!synth_open(&sy, path, ch, hebr ? "hebr" : "latn")) {
			synth_close(&sy);
			return;
		}
		hb_buffer_t *b = hb_buffer_create();
		synth_words(b, &sy, words, (int)(sizeof(words) / sizeof(words[0])));
		/* alef bet: shaped as bet alef, so the pair (V, A) kerns;
		   geresh 1: left to right, the class pair (T, o) */
		uint32_t cp[2] = { 0x5d0, 0x5d1 }, g[2] = { sy.gl[0], sy.gl[1] };
		int32_t dx[2], xo[2], yo[2];
		CHECK(font_ot_shape(&sy.f, HB_SCRIPT_HEBREW, 0, NULL, 0, cp, g, 2, dx, xo, yo));
		EQ_INT(dx[1], hebr ? -60 : 0);
		EQ_INT(dx[0], hebr ? 15 : 0);
		uint32_t cp2[2] = { 0x5f3, '1' }, g2[2] = { sy.gl[2], sy.gl[4] };
		CHECK(font_ot_shape(&sy.f, HB_SCRIPT_HEBREW, 0, NULL, 0, cp2, g2, 2, dx, xo, yo));
		EQ_INT(dx[0], hebr ? -90 : 0);
		EQ_INT(dx[1], 0);
		hb_buffer_destroy(b);
		synth_close(&sy);
	}
}

/* An Arabic GSUB on the glyphs of gl (X Y Z W V at 7..11), scripts DFLT
 * and arab, one LangSys: lookup 0 X -> Y under rlig, 1 X -> Z under
 * ccmp, 2 W -> V under mset, 3 V -> X under init. The Arabic shaper
 * applies ccmp's stage before rlig's (X -> Z), mset (after all), never
 * init on letters that do not join. variant 1: no init (no joining
 * feature: HarfBuzz's fallback shaping); 2: init also the required
 * feature (applied to all, in its stage: V -> X -> Y). */
static void make_gsub_arabic(bw_t *b, const unsigned *gl, int variant)
{
	static const char ftags[4][5] = { "ccmp", "init", "mset", "rlig" };
	static const int lookup_of[4] = { 1, 3, 2, 0 };
	unsigned X = gl[7], Y = gl[8], Z = gl[9], W = gl[10], V = gl[11];
	unsigned from[4] = { X, X, W, V }, to[4] = { Y, Z, V, X };
	int nf = variant == 1 ? 3 : 4;
	b->n = 0;
	w16(b, 1), w16(b, 0);
	size_t hdr = b->n;
	w16(b, 0), w16(b, 0), w16(b, 0);
	size_t sl = b->n;
	put16(b, hdr, (unsigned)sl);
	w16(b, 2);
	memcpy(b->p + b->n, "DFLT", 4), b->n += 4, w16(b, 14);
	memcpy(b->p + b->n, "arab", 4), b->n += 4, w16(b, 14);
	w16(b, 4), w16(b, 0);                   /* Script: default LangSys at +4 */
	w16(b, 0), w16(b, variant == 2 ? 1 : 0xffff), w16(b, (unsigned)nf);
	for (int k = 0; k < nf; k++)
		w16(b, (unsigned)k);
	size_t fl = b->n;
	put16(b, hdr + 2, (unsigned)fl);
	w16(b, (unsigned)nf);
	size_t frec = b->n;
	for (int k = 0, t = 0; k < nf; k++, t++) {
		if (variant == 1 && t == 1)
			t++;            /* no init */
		memcpy(b->p + b->n, ftags[t], 4), b->n += 4, w16(b, 0);
	}
	for (int k = 0, t = 0; k < nf; k++, t++) {
		if (variant == 1 && t == 1)
			t++;
		put16(b, frec + 6 * (size_t)k + 4, (unsigned)(b->n - fl));
		w16(b, 0), w16(b, 1), w16(b, (unsigned)lookup_of[t]);
	}
	size_t ll = b->n;
	put16(b, hdr + 4, (unsigned)ll);
	w16(b, 4);
	size_t lo = b->n;
	for (int i = 0; i < 4; i++)
		w16(b, 0);
	for (int i = 0; i < 4; i++) {
		size_t L = b->n;
		put16(b, lo + 2 * (size_t)i, (unsigned)(L - ll));
		w16(b, 1), w16(b, 0), w16(b, 1), w16(b, 8);
		size_t st = b->n;        /* SingleSubst format 2, one glyph */
		w16(b, 2), w16(b, 8), w16(b, 1), w16(b, to[i]);
		coverage1(b, &from[i], 1);
		(void)st;
	}
	while (b->n % 4)
		b->p[b->n++] = 0;
}

/* Arabic presentation forms (what bidi.c gives HarfBuzz): shaped reversed,
 * in the Arabic shaper's GSUB stages, with mset; not by the fast path
 * when HarfBuzz would shape by its fallback or a required feature is
 * there. A = beh isolated, V = beh final (make_gpos); X Y Z W V the
 * forms of teh; lam initial and alef final: the fallback's ligature. */
TEST(synthetic_arabic)
{
	static const uint32_t ch[12] = { 0xfe8f, 0xfe90, 0xfe91, 0xfe92, 0xfe8e, 0xfedf, 0xfee0,
		                         0xfe95, 0xfe96, 0xfe97, 0xfe98, 0xfea9 };
	static const char *const words[] = { "ﺏﺐ", "ﺐﺏ", "ﺏﺐﺏ", "ﺑﺎ", "ﺕ", "ﺘ", "ﺩ", "ﺕﺘﺩ", "ﺩﺕ",
		                             "١٢", "ﺕ١", "ﻟﺎ", "ﺎﻟ", "ﺏ(ﺐ" };
	const char *path = t_fc_file("DejaVu Sans:charset=fe8f fe95 fea9 fedf fefb");
	for (int variant = 0; variant < 3; variant++) {
		synth_t sy;
		if (!synth_open2(&sy, path, ch, 12, "arab", make_gsub_arabic, variant)) {
			synth_close(&sy);
			return;
		}
		hb_buffer_t *b = hb_buffer_create();
		int nw = (int)(sizeof(words) / sizeof(words[0]));
		if (variant == 0) {
			synth_words(b, &sy, words, nw);
			/* teh isolated: ccmp's Z, not rlig's Y; medial: mset's V */
			uint32_t cp[3] = { 0xfe95, 0xfe98, 0xfea9 }, g[3] = { sy.gl[7], sy.gl[10], sy.gl[11] };
			int32_t dx[3], xo[3], yo[3];
			CHECK(font_ot_shape(&sy.f, HB_SCRIPT_ARABIC, 0, NULL, 0, cp, g, 3, dx, xo, yo));
			EQ_INT(g[0], sy.gl[9]);
			EQ_INT(g[1], sy.gl[11]);
			EQ_INT(g[2], sy.gl[11]);
		} else {
			/* none taken: the fallback's lam-alef ligature, the
			   required feature's stage are HarfBuzz's */
			long before = n_fast, fails = n_fail;
			for (int k = 0; k < nw; k++) {
				uint32_t cp[16];
				int m = cps_of(words[k], cp, 16);
				if (cp[0] == 0x661)     /* digits only: shaped as ever */
					continue;
				word(b, &sy.f, cp, m, 0);
			}
			EQ_INT(n_fast - before, 0);
			EQ_INT(n_fail - fails, 0);
		}
		hb_buffer_destroy(b);
		synth_close(&sy);
	}
}

/* A coverage of glyphs g[0..n) (sorted here; ix[k]: where g[k] went). */
static void coverage_sorted(bw_t *b, const unsigned *g, int n, int *ix)
{
	unsigned s[8];
	memcpy(s, g, (size_t)n * sizeof(*g));
	qsort(s, (size_t)n, sizeof(*s), cmp_uint);
	coverage1(b, s, n);
	for (int k = 0; ix && k < n; k++)
		for (int j = 0; j < n; j++)
			if (s[j] == g[k])
				ix[k] = j;
}

/* A Latin GSUB of context rules on the glyphs of gl (A V T W o a y),
 * scripts DFLT and latn, all under ccmp (lookups 0 and 1, in that
 * order); 2, 3 only nested:
 *  0 ChainContextSubst format 3: backtrack T, input A V, lookahead o;
 *    records (1 -> lookup 2), (0 -> lookup 3): "TAVo" -> T T W o;
 *  1 ContextSubst format 1, coverage A W a: A W -> (0 -> lookup 3), so
 *    "AWo" goes on after the W (HarfBuzz's move_to(end)): T W o, not the
 *    W o rule's T y o; W o -> (0 -> lookup 2); a y -> (0 -> lookup 0): a
 *    context nested in a context, which the fast path leaves to
 *    HarfBuzz;
 *  2 SingleSubst format 2: V -> W, W -> y; 3 format 1: A -> T. */
static void make_gsub_context(bw_t *b, const unsigned *gl, int variant)
{
	unsigned A = gl[0], V = gl[1], T = gl[2], W = gl[3], o = gl[4], a = gl[5], y = gl[6];
	(void)variant;
	b->n = 0;
	w16(b, 1), w16(b, 0);
	size_t hdr = b->n;
	w16(b, 0), w16(b, 0), w16(b, 0);
	size_t sl = b->n;
	put16(b, hdr, (unsigned)sl);
	w16(b, 2);
	memcpy(b->p + b->n, "DFLT", 4), b->n += 4, w16(b, 14);
	memcpy(b->p + b->n, "latn", 4), b->n += 4, w16(b, 14);
	w16(b, 4), w16(b, 0);
	w16(b, 0), w16(b, 0xffff), w16(b, 1), w16(b, 0);
	size_t fl = b->n;
	put16(b, hdr + 2, (unsigned)fl);
	w16(b, 1);
	memcpy(b->p + b->n, "ccmp", 4), b->n += 4, w16(b, 8);
	w16(b, 0), w16(b, 2), w16(b, 0), w16(b, 1);
	size_t ll = b->n;
	put16(b, hdr + 4, (unsigned)ll);
	w16(b, 4);
	size_t lo = b->n;
	for (int i = 0; i < 4; i++)
		w16(b, 0);
	/* 0: chain context, format 3 */
	size_t L = b->n;
	put16(b, lo, (unsigned)(L - ll));
	w16(b, 6), w16(b, 0), w16(b, 1), w16(b, 8);
	size_t st = b->n;
	w16(b, 3);
	size_t cb = b->n;
	w16(b, 1), w16(b, 0);                   /* backtrack: T */
	w16(b, 2), w16(b, 0), w16(b, 0);        /* input: A V */
	w16(b, 1), w16(b, 0);                   /* lookahead: o */
	w16(b, 2), w16(b, 1), w16(b, 2), w16(b, 0), w16(b, 3);
	const unsigned cg[4] = { T, A, V, o };
	const size_t at[4] = { cb + 2, cb + 6, cb + 8, cb + 12 };
	for (int k = 0; k < 4; k++) {
		put16(b, at[k], (unsigned)(b->n - st));
		coverage1(b, &cg[k], 1);
	}
	/* 1: context, format 1 */
	L = b->n;
	put16(b, lo + 2, (unsigned)(L - ll));
	w16(b, 5), w16(b, 0), w16(b, 1), w16(b, 8);
	st = b->n;
	const unsigned first[3] = { A, W, a }, second[3] = { W, o, y }, seq[3] = { 0, 0, 0 },
	               nested[3] = { 3, 2, 0 };
	int ix[3];
	w16(b, 1), w16(b, 0), w16(b, 3);
	size_t sets = b->n;
	w16(b, 0), w16(b, 0), w16(b, 0);
	put16(b, st + 2, (unsigned)(b->n - st));
	coverage_sorted(b, first, 3, ix);
	for (int k = 0; k < 3; k++) {
		size_t rs = b->n;
		put16(b, sets + 2 * (size_t)ix[k], (unsigned)(rs - st));
		w16(b, 1), w16(b, 4);           /* one rule, at +4 */
		w16(b, 2), w16(b, 1), w16(b, second[k]), w16(b, seq[k]), w16(b, nested[k]);
	}
	/* 2: single, format 2: V -> W, W -> y */
	L = b->n;
	put16(b, lo + 4, (unsigned)(L - ll));
	w16(b, 1), w16(b, 0), w16(b, 1), w16(b, 8);
	st = b->n;
	const unsigned from[2] = { V, W }, to[2] = { W, y };
	int fx[2];
	w16(b, 2), w16(b, 10), w16(b, 2), w16(b, 0), w16(b, 0);
	coverage_sorted(b, from, 2, fx);
	for (int k = 0; k < 2; k++)
		put16(b, st + 6 + 2 * (size_t)fx[k], to[k]);
	/* 3: single, format 1: A -> T */
	L = b->n;
	put16(b, lo + 6, (unsigned)(L - ll));
	w16(b, 1), w16(b, 0), w16(b, 1), w16(b, 8);
	w16(b, 1), w16(b, 6), w16(b, (T - A) & 0xffffu);
	coverage1(b, &A, 1);
	while (b->n % 4)
		b->p[b->n++] = 0;
}

/* Context rules whose lookups are single substitutions are applied by
 * the fast path as HarfBuzz applies them: the records' lookups at their
 * input glyphs, in order, the lookup going on after the input; a rule
 * with another kind of lookup is HarfBuzz's. */
TEST(synthetic_context)
{
	static const uint32_t ch[7] = { 'A', 'V', 'T', 'W', 'o', 'a', 'y' };
	synth_t sy;
	if (!synth_open2(&sy, t_font("serif", FONT_REGULAR, "en", 'A'), ch, 7, "latn",
	                 make_gsub_context, 0)) {
		synth_close(&sy);
		return;
	}
	hb_buffer_t *b = hb_buffer_create();
	static const char *const words[] = { "TAVo", "AWo", "TAVoAWo", "AVo", "TAV", "Wo", "AW",
		                             "TAWo", "oTAVo", "AAWWo", "VWo", "12" };
	synth_words(b, &sy, words, (int)(sizeof(words) / sizeof(words[0])));
	const unsigned A = sy.gl[0], V = sy.gl[1], T = sy.gl[2], W = sy.gl[3], o = sy.gl[4],
	               y = sy.gl[6];
	uint32_t cp[4] = { 'T', 'A', 'V', 'o' }, g[4] = { T, A, V, o };
	int32_t dx[4], xo[4], yo[4];
	CHECK(font_ot_shape(&sy.f, HB_SCRIPT_LATIN, 0, NULL, 0, cp, g, 4, dx, xo, yo));
	EQ_INT(g[1], T);
	EQ_INT(g[2], y);        /* lookup 0: V -> W, then lookup 1's W o: W -> y */
	uint32_t cp2[3] = { 'A', 'W', 'o' }, g2[3] = { A, W, o };
	CHECK(font_ot_shape(&sy.f, HB_SCRIPT_LATIN, 0, NULL, 0, cp2, g2, 3, dx, xo, yo));
	EQ_INT(g2[0], T);
	EQ_INT(g2[1], W);       /* after A W the lookup goes on at o */
	(void)V;
	/* a context nested in a context: HarfBuzz's */
	uint32_t cp3[2] = { 'a', 'y' }, g3[2] = { sy.gl[5], y };
	CHECK(!font_ot_shape(&sy.f, HB_SCRIPT_LATIN, 0, NULL, 0, cp3, g3, 2, dx, xo, yo));
	hb_buffer_destroy(b);
	synth_close(&sy);
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
	for (unsigned i = 0; i < NRUNS; i++)
		fprintf(stderr, "U+%04X runs: %ld words, %ld by the fast path\n", runs[i].from,
		        n_run_words[i], n_run_fast[i]);
	EQ_INT(n_fail, 0);
	/* the fast path must take most words: Noto Serif's are ordinary */
	CHECK(n_faces > 0 && n_fast > n_words / 10);
	/* and Hebrew, Arabic, Armenian, Georgian words (Noto Serif Hebrew,
	   Noto Naskh Arabic, Noto Serif Armenian, ...) */
	for (unsigned i = 0; i < NRUNS; i++)
		CHECK(n_run_fast[i] > n_run_words[i] / 10);
}

int main(void)
{
	RUN(synthetic_gpos);
	RUN(synthetic_hebrew);
	RUN(synthetic_arabic);
	RUN(synthetic_context);
	RUN(fast_path_equals_harfbuzz);
	return t_report();
}
