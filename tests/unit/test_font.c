/* test_font: chains, per-character face selection, shaping and kerning,
 * NFC, subsetting (loaded back by FreeType and by the sfnt reader), and a corpus
 * of corrupt fonts generated from installed ones (each must give -1 and an
 * exit-3 error naming the file). Needs the fonts of `make deps`. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include FT_CID_H
#include FT_TYPE1_TABLES_H
#include "t.h"
#include "font.h"
#include "sfnt.h"
#include "arena.h"
#include "unicode.h"
#include "utf8.h"

#include "t_fonts.h"
#include "../../src/font_int.h"
#define NOTO t_font("serif", FONT_REGULAR, "en", 'A')
#define MICROHEI t_font("WenQuanYi Micro Hei", FONT_REGULAR, "zh", 0x6731)

static const char *dirs[] = { "fonts", NULL };
static char tmpdir[256];

static font_lib_t *lib_open(errs_t *e)
{
	errs_init(e);
	return font_lib_new(dirs, e);
}

static const char *family_of(font_lib_t *lib, int face)
{
	const font_face_info_t *fi = font_face_info(lib, face);
	return fi ? fi->family : "(none)";
}

static uint32_t cp_of(const char *s)
{
	uint32_t cp = 0;
	utf8_decode(s, strlen(s), &cp);
	return cp;
}

TEST(selection)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	CHECK(c != NULL);
	if (!c) {
		errs_print(stderr, &e);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	EQ_STR(font_chain_name(c), "serif");
	EQ_INT(font_face_count(lib), 0); /* nothing loaded yet: lazy */
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, "en", 'A')), "Noto Serif");
	EQ_INT(font_face_for(c, FONT_REGULAR, "en", 'A'), 0); /* first used = id 0 */
	/* a region face per CJK language; Han with no language is Simplified */
	static const char *const zh[][2] = {
		{"zh", "SC"}, {"zh-Hans", "SC"}, {"zh-CN", "SC"}, {"zh-Hans-HK", "SC"}, {NULL, "SC"},
		{"en", "SC"}, {"zh-Hant", "TC"}, {"zh-TW", "TC"}, {"zh_HK", "TC"}, {"zh-hant-CN", "TC"},
		{"zh-MO", "TC"}, {"ja", "JP"}, {"ko", "KR"},
	};
	for (size_t i = 0; i < sizeof(zh) / sizeof(zh[0]); i++) {
		char want[40];
		snprintf(want, sizeof(want), "Noto Serif CJK %s", zh[i][1]);
		EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, zh[i][0], cp_of("朱"))), want);
	}
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, "ja", cp_of("あ"))), "Noto Serif CJK JP");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, "zh", cp_of("あ"))), "Noto Serif CJK JP");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, "ko", cp_of("한"))), "Noto Serif CJK KR");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, cp_of("한"))), "Noto Serif CJK KR");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, cp_of("★"))), "DejaVu Sans");
	EQ_INT(font_face_for(c, FONT_REGULAR, NULL, 0x10fffd), -1);
	/* past the BMP: CJK Extension B by language, math letters, symbols */
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, 0x20bb7)), "Noto Serif CJK SC");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, "ja", 0x20bb7)), "Noto Serif CJK JP");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, 0x1d465)), "Noto Sans Math");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, 0x1d538)), "Noto Sans Math");
	/* 🎓: in colour where fonts-noto-color-emoji is installed */
	int emoji = font_emoji_has(c, FONT_REGULAR, 0x1f393);
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, 0x1f393)),
	       emoji ? "Noto Color Emoji" : "Noto Sans Symbols2");
	/* a text-style symbol keeps its face (U+FE0F asks for the emoji) */
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, 0x2709)), "DejaVu Sans");
	EQ_INT(font_emoji_has(c, FONT_REGULAR, 0x2709), emoji);
	EQ_INT(font_emoji_has(c, FONT_REGULAR, 'A'), 0);
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, 0x0f40)), "Noto Serif Tibetan");
	EQ_STR(family_of(lib, font_face_for(c, FONT_REGULAR, NULL, 0x0964)), "Noto Serif Devanagari");
	EQ_INT(font_face_for(c, FONT_REGULAR, NULL, 0xa840), -1);  /* Phags-pa: no chain face */
	/* styles: real bold/italic for Noto; Noto CJK: real bold (its own
	 * file), italic upright */
	int nb = font_face_for(c, FONT_BOLD, "en", 'A');
	EQ_STR(font_face_info(lib, nb)->style, "Bold");
	EQ_INT(font_face_synth(c, FONT_BOLD, nb), 0);
	int ni = font_face_for(c, FONT_ITALIC, "en", 'A');
	EQ_STR(font_face_info(lib, ni)->style, "Italic");
	int zb = font_face_for(c, FONT_BOLD, "zh", cp_of("朱"));
	EQ_STR(font_face_info(lib, zb)->style, "Bold");
	EQ_INT(font_face_synth(c, FONT_BOLD, zb), 0);
	int zi = font_face_for(c, FONT_ITALIC, "zh", cp_of("朱"));
	EQ_INT(font_face_synth(c, FONT_ITALIC, zi), 0);
	EQ_STR(font_face_info(lib, zi)->style, "Regular");
	CHECK(zb != font_face_for(c, FONT_REGULAR, "zh", cp_of("朱")));
	int jb = font_face_for(c, FONT_BOLD, "ja", cp_of("あ"));
	EQ_INT(font_face_synth(c, FONT_BOLD, jb), 0);
	EQ_STR(font_face_info(lib, jb)->style, "Bold");
	CHECK(strstr(font_face_info(lib, jb)->path, "NotoSerifCJK-Bold.ttc") != NULL);
	EQ_INT(font_face_synth(c, FONT_BOLD_ITALIC, font_face_for(c, FONT_BOLD_ITALIC, "ja", cp_of("あ"))),
	       0);
	int32_t asc, desc;
	font_metrics(c, FONT_REGULAR, 10000, &asc, &desc);
	CHECK(asc > 9000 && asc < 12000);
	CHECK(desc < -2000 && desc > -4000);
	int32_t ch = font_cap_height(c, FONT_REGULAR, 10000);
	CHECK(ch > 6000 && ch < 7500);
	char *out = NULL;
	size_t outn = 0;
	FILE *f = open_memstream(&out, &outn);
	font_chain_describe(c, f);
	fclose(f);
	CHECK(strstr(out, "NotoSerif-Regular.ttf") != NULL);
	CHECK(strstr(out, "NotoSerifCJK-Bold.ttc index=2") != NULL);
	/* real bold faces, but for the two (three) of one style (math letters,
	   symbols, colour emoji) */
	int nsynth = 0;
	for (const char *l = out; (l = strstr(l, "synthetic-bold")) != NULL; l++) {
		const char *b = l;
		while (b > out && b[-1] != '\n')
			b--;
		char line[400] = {0};
		memcpy(line, b, (size_t)(l - b) < sizeof(line) - 1 ? (size_t)(l - b) : sizeof(line) - 1);
		CHECK(strstr(line, "NotoSansMath-Regular") || strstr(line, "NotoSansSymbols2-Regular") ||
		      strstr(line, "NotoColorEmoji"));
		nsynth++;
	}
	EQ_INT(nsynth, emoji ? 6 : 4);   /* bold, bold-italic of each */
	CHECK(strstr(out, "lang=ja") != NULL);
	free(out);
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}

static char *describe(const char *chain)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, chain, &e);
	char *out = NULL;
	size_t outn = 0;
	FILE *f = open_memstream(&out, &outn);
	if (c)
		font_chain_describe(c, f);
	fclose(f);
	font_lib_free(lib);
	errs_done(&e);
	return out;
}

/* The whole of file p, NUL-terminated (malloc'd), its length in *n. */
static char *read_all(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	size_t cap = 1 << 16, k = 0;
	char *b = malloc(cap + 1);
	while (f && b) {
		k += fread(b + k, 1, cap - k, f);
		if (k < cap)
			break;
		cap *= 2;
		b = realloc(b, cap + 1);
	}
	if (f)
		fclose(f);
	if (b)
		b[k] = 0;
	*n = k;
	return b;
}

TEST(fccache)
{
	char p[600];
	glob_t g;
	snprintf(p, sizeof(p), "%s/vita/families-*", tmpdir);   /* one per fontconfig setup */
	CHECK(glob(p, 0, NULL, &g) == 0 && g.gl_pathc == 1);
	if (g.gl_pathc)
		snprintf(p, sizeof(p), "%s", g.gl_pathv[0]);
	globfree(&g);
	CHECK(access(p, R_OK) == 0);
	char *a = describe("serif");
	setenv("VITA_NO_FONT_CACHE", "1", 1);
	char *b = describe("serif");
	unsetenv("VITA_NO_FONT_CACHE");
	EQ_STR(a, b);
	CHECK(strstr(a, "NotoSerifCJK-Bold.ttc index=1") != NULL);
	free(a);
	free(b);
	/* a stale record (file size changed) is ignored */
	size_t n;
	char *buf = read_all(p, &n);
	FILE *f;
	char *s = strstr(buf, "NotoSerif-Regular.ttf");
	CHECK(s != NULL);
	if (s) {
		while (s > buf && s[-1] != '\n')
			s--;
		s[0] = 'X'; /* corrupt the record line: it is skipped */
		f = fopen(p, "w");
		fwrite(buf, 1, n, f);
		fclose(f);
		a = describe("serif");
		CHECK(strstr(a, "NotoSerif-Regular.ttf") != NULL);
		free(a);
	}
	/* a record whose directory time is not the directory's (a font added
	   to it since) is not used: fontconfig is asked and the record written
	   again with the right time, here for a face after the first of the
	   family (font_fccache.c stats each directory once a lookup) */
	free(buf);
	buf = read_all(p, &n);
	char *fam = strstr(buf, "\nF "), *line = NULL;
	for (; fam; fam = strstr(fam + 1, "\nF ")) {
		char *nl = strchr(fam + 1, '\n');
		if (nl && nl - fam > 11 && !memcmp(nl - 11, " Noto Serif", 11))
			break;
	}
	/* the second C line of Noto Serif's record (the file read whole),
	   its face in the directory of the first's */
	char *c1 = fam ? strchr(fam + 1, '\n') + 1 : NULL;
	char *c2 = c1 ? strchr(c1, '\n') + 1 : NULL, *e2 = c2 ? strchr(c2, '\n') : NULL;
	const char *p1 = c1 ? strchr(c1, '/') : NULL, *p2 = c2 ? strchr(c2, '/') : NULL;
	int same = 0;
	if (e2 && c1[0] == 'C' && c2[0] == 'C' && p1 && p1 < c2 && p2 && p2 < e2) {
		size_t n1 = 0, n2 = 0;   /* the directories' lengths */
		for (const char *q = p1; q < c2; q++)
			n1 = *q == '/' ? (size_t)(q - p1) : n1;
		for (const char *q = p2; q < e2; q++)
			n2 = *q == '/' ? (size_t)(q - p2) : n2;
		same = n1 == n2 && !memcmp(p1, p2, n1);
	}
	CHECK(same);
	if (same) {
		line = c2;
		/* C index weight slant width truetype mtime size dirmtime path */
		char *d = line;
		for (int k = 0; k < 8 && d; k++)
			d = strchr(d + 1, ' ');
		char *de = d ? strchr(d + 1, ' ') : NULL;
		CHECK(de != NULL && de[-1] >= '0' && de[-1] <= '9');
		if (de) {
			char want = de[-1];
			de[-1] = (char)(want == '9' ? '0' : want + 1);   /* the same length */
			f = fopen(p, "w");
			fwrite(buf, 1, n, f);
			fclose(f);
			a = describe("serif");
			free(a);
			size_t n2;
			char *buf2 = read_all(p, &n2);
			*de = 0;
			CHECK(strstr(buf2, line) == NULL);   /* the wrong time is gone */
			de[-1] = want;
			CHECK(strstr(buf2, line) != NULL);   /* the right one is back */
			free(buf2);
		}
	}
	free(buf);
}

static int32_t nominal_sum(font_lib_t *lib, int face, const char *s, int32_t size)
{
	FT_Library ft;
	FT_Face f;
	const font_face_info_t *fi = font_face_info(lib, face);
	FT_Init_FreeType(&ft);
	FT_New_Face(ft, fi->path, fi->index, &f);
	int32_t w = 0;
	for (size_t i = 0; s[i]; i++) {
		FT_Load_Char(f, (unsigned char)s[i], FT_LOAD_NO_SCALE);
		w += (int32_t)(f->glyph->advance.x * 1000 / f->units_per_EM) * size / 1000;
	}
	FT_Done_Face(f);
	FT_Done_FreeType(ft);
	return w;
}

TEST(shaping)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	font_shaped_t s;
	font_shaped_init(&s);
	const char *t = "AVAST Wave";
	CHECK(font_shape(c, FONT_REGULAR, 26000, "en", t, strlen(t), &s, &e) == 0);
	EQ_INT(s.n, 10);
	EQ_INT(s.missing, 0);
	int32_t sum = 0;
	int brks = 0;
	for (int i = 0; i < s.n; i++) {
		sum += s.g[i].adv;
		brks += s.g[i].brk;
		EQ_INT(s.g[i].off, i);
		EQ_INT(s.g[i].cp, (unsigned char)t[i]);
	}
	EQ_INT(s.width, sum);
	int32_t nom = nominal_sum(lib, s.g[0].face, t, 26000);
	CHECK(s.width < nom - 1000); /* kerned: AV, VA, AS?, Wa */
	CHECK(brks >= 3);
	EQ_INT(s.g[0].brk, 0);
	CHECK(s.g[1].brk == 1); /* after the kerned A of AV */
	EQ_INT(font_width(c, FONT_REGULAR, 26000, "en", t, strlen(t)), s.width);
	/* width of unkerned text is the sum of libharu's truncated advances */
	const char *u = "minimum";
	EQ_INT(font_width(c, FONT_REGULAR, 11000, "en", u, strlen(u)),
	       nominal_sum(lib, s.g[0].face, u, 11000));
	/* mixed faces: a new run at each face change, missing counted */
	s.n = 0;
	s.width = 0;
	const char *m = "Zhu 朱展达 ★ \xea\xa1\x80";
	CHECK(font_shape(c, FONT_REGULAR, 10000, "en", m, strlen(m), &s, &e) == 0);
	EQ_INT(s.n, 11);
	EQ_INT(s.missing, 1);
	EQ_INT(s.g[4].brk, 1);
	EQ_STR(family_of(lib, s.g[4].face), "Noto Serif CJK SC");
	EQ_INT(s.g[4].adv, 10000); /* full-width ideograph */
	EQ_INT(s.g[4].off, 4);
	EQ_INT(s.g[5].off, 7);
	EQ_INT(s.g[5].brk, 0);
	EQ_INT(s.g[7].brk, 1);
	EQ_STR(family_of(lib, s.g[8].face), "DejaVu Sans");
	EQ_INT(s.g[10].face, -1);
	EQ_INT(s.g[10].cp, 0xa840);
	/* cached path gives the same result */
	font_shaped_t s2;
	font_shaped_init(&s2);
	font_shape(c, FONT_REGULAR, 10000, "en", m, strlen(m), &s2, &e);
	EQ_INT(s2.n, s.n);
	EQ_INT(s2.width, s.width);
	CHECK(memcmp(s.g, s2.g, (size_t)s.n * sizeof(s.g[0])) == 0);
	/* a combining mark stays with its base's face */
	s2.n = 0;
	const char *dec = "u\xcc\x88";
	font_shape(c, FONT_ITALIC, 10000, "en", dec, strlen(dec), &s2, &e);
	EQ_INT(s2.n, 2);
	EQ_INT(s2.g[0].face, s2.g[1].face);
	font_shaped_done(&s2);
	font_shaped_done(&s);
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}

/* Each piece of t (split before every cut) shaped by a call of its own in
 * c, appended to out with offsets counted from t: what font_shape_pieces
 * must give. */
static void shape_each(font_chain_t *c, int style, unsigned feats, const char *lang,
                       const char *t, const uint32_t *cut, int ncut, font_shaped_t *out,
                       errs_t *e)
{
	font_shaped_t one;
	font_shaped_init(&one);
	for (int p = 0; p < ncut; p++) {
		uint32_t a = p ? cut[p - 1] : 0;
		one.n = 0;
		one.width = 0;
		one.missing = 0;
		font_shape_feat(c, style, 10000, lang, feats, t + a, cut[p] - a, &one, e);
		for (int k = 0; k < one.n; k++) {
			if (out->n == out->cap) {
				out->cap = out->cap ? 2 * out->cap : 64;
				out->g = realloc(out->g, (size_t)out->cap * sizeof(*out->g));
			}
			out->g[out->n] = one.g[k];
			out->g[out->n++].off += a;
		}
		out->width += one.width;
		out->missing += one.missing;
	}
	font_shaped_done(&one);
}

/* Cuts before each word of t ("word and the spaces after it", as
 * inline.c shapes), plus the extra cuts given; returns their number. */
static int word_cuts(const char *t, const uint32_t *extra, int nextra, uint32_t *cut, int max)
{
	int n = 0;
	uint32_t len = (uint32_t)strlen(t);
	for (uint32_t i = 1; i < len && n < max - 1; i++) {
		int at = t[i] != ' ' && t[i - 1] == ' ';
		for (int k = 0; k < nextra; k++)
			at |= extra[k] == i;
		if (at)
			cut[n++] = i;
	}
	cut[n++] = len;
	return n;
}

/* font_shape_pieces of t at cut in style and feats, from a library of
 * its own, against one font_shape_feat call per piece from another (no
 * shared cache): the same glyphs, advances, faces, run breaks, offsets. */
static void pieces_case(const char *t, const uint32_t *cut, int ncut, int style, unsigned feats,
                        int missing)
{
	errs_t e1, e2;
	font_lib_t *l1 = lib_open(&e1), *l2 = lib_open(&e2);
	font_chain_t *c1 = font_chain_get(l1, "serif", &e1);
	font_chain_t *c2 = font_chain_get(l2, "serif", &e2);
	CHECK(c1 && c2);
	if (c1 && c2) {
		font_shaped_t a, b;
		font_shaped_init(&a);
		font_shaped_init(&b);
		shape_each(c1, style, feats, "en", t, cut, ncut, &a, &e1);
		CHECK(font_shape_pieces(c2, style, 10000, "en", feats, t, cut, ncut, &b, &e2) == 0);
		EQ_INT(b.missing, missing);
		EQ_INT(b.n, a.n);
		EQ_INT(b.width, a.width);
		EQ_INT(b.missing, a.missing);
		for (int k = 0; k < a.n && k < b.n; k++)
			if (memcmp(&a.g[k], &b.g[k], sizeof(a.g[k]))) {
				fprintf(stderr, "style %d feats %u glyph %d (U+%04X at %u): adv %d/%d "
				        "brk %d/%d face %d/%d\n", style, feats, k, (unsigned)a.g[k].cp,
				        (unsigned)a.g[k].off, (int)a.g[k].adv, (int)b.g[k].adv,
				        a.g[k].brk, b.g[k].brk, a.g[k].face, b.g[k].face);
				CHECK(0);
				break;
			}
		font_shaped_done(&a);
		font_shaped_done(&b);
	}
	EQ_INT(e1.n, 0);
	EQ_INT(e2.n, 0);
	font_lib_free(l1);
	font_lib_free(l2);
	errs_done(&e1);
	errs_done(&e2);
}

/* Each piece of t shaped in a library of its own, created for it: no
 * cache of any kind; faces named by file in *path (owned by the caller). */
static void shape_fresh(const char *t, const uint32_t *cut, int ncut, int style, int32_t size,
                        font_shaped_t *out, const char **path)
{
	for (int p = 0; p < ncut; p++) {
		errs_t e;
		font_lib_t *lib = lib_open(&e);
		font_chain_t *c = font_chain_get(lib, "serif", &e);
		uint32_t a = p ? cut[p - 1] : 0;
		font_shaped_t one;
		font_shaped_init(&one);
		if (c)
			font_shape(c, style, size, "en", t + a, cut[p] - a, &one, &e);
		for (int k = 0; k < one.n; k++) {
			if (out->n == out->cap) {
				out->cap = out->cap ? 2 * out->cap : 64;
				out->g = realloc(out->g, (size_t)out->cap * sizeof(*out->g));
			}
			out->g[out->n] = one.g[k];
			out->g[out->n].off += a;
			const font_face_info_t *fi = font_face_info(lib, one.g[k].face);
			path[out->n++] = fi ? strdup(fi->path) : NULL;
		}
		font_shaped_done(&one);
		font_lib_free(lib);
		errs_done(&e);
	}
}

/* What a warm library gives (its items, and their glyphs as emitted at a
 * size, cached; the text shaped before at another size and style) is
 * what libraries with no cache give; "Zhu" after a CJK character starts
 * a run, at the start of a piece it does not. */
static void warm_case(const char *t, const uint32_t *cut, int ncut)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	CHECK(c != NULL);
	if (!c) {
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	const int32_t sizes[] = { 10000, 12500, 10000 };
	const int styles[] = { FONT_REGULAR, FONT_BOLD, FONT_BOLD_ITALIC, FONT_REGULAR };
	for (int r = 0; r < 3; r++) {
		font_shaped_t w, f;
		font_shaped_init(&w);
		font_shaped_init(&f);
		const char **path = calloc(strlen(t) + 1, sizeof(*path));
		for (int pass = 0; pass < 2; pass++) {  /* the second pass: all cached */
			w.n = 0;
			font_shape_pieces(c, styles[r + pass], sizes[r], "en", 0, t, cut, ncut, &w, &e);
		}
		shape_fresh(t, cut, ncut, styles[r + 1], sizes[r], &f, path);
		EQ_INT(w.n, f.n);
		for (int k = 0; k < w.n && k < f.n; k++) {
			const font_face_info_t *fi = font_face_info(lib, w.g[k].face);
			font_glyph_t a = w.g[k], b = f.g[k];
			a.face = b.face = 0;
			if (memcmp(&a, &b, sizeof(a)) || (fi && path[k] && strcmp(fi->path, path[k]))) {
				fprintf(stderr, "warm %d glyph %d (U+%04X at %u): adv %d/%d brk %d/%d\n", r,
				        k, (unsigned)a.cp, (unsigned)a.off, (int)a.adv, (int)b.adv, a.brk,
				        b.brk);
				CHECK(0);
				break;
			}
		}
		for (int k = 0; k < f.n; k++)
			free((void *)path[k]);
		free(path);
		font_shaped_done(&w);
		font_shaped_done(&f);
	}
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}

/* What a text measures (font_width_pieces, font_width_pieces_u with
 * font_uglyphs_width) is what its glyphs are set at (the sum of
 * font_shape_pieces' advances, of font_uglyphs_adv's), in every style:
 * also where a glyph's x offset is carried into the advance of the glyph
 * before it. It was not (Noto Serif Hebrew's kerning of ר before ו, of
 * ש before ל, comes with an offset): a Hebrew location measured for the
 * date column was set 72 u wider than measured, and wrapped. */
TEST(width_is_set_width)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	CHECK(c != NULL);
	const char *texts[] = { "ירושלים, ישראל", "רו", "של", "תל־אביב, ישראל", "AVAV Wave",
	                        "e\xcc\x81\xcc\xa3 a\xcc\x8a", "الآن مرحبا", "Ли́за" };
	const int styles[] = { FONT_REGULAR, FONT_ITALIC, FONT_BOLD, FONT_BOLD_ITALIC };
	int offsets = 0;
	for (size_t i = 0; c && i < sizeof(texts) / sizeof(*texts); i++) {
		const char *t = texts[i];
		uint32_t cut[1] = { (uint32_t)strlen(t) };
		for (int si = 0; si < 4; si++) {
			for (int32_t size = 9000; size <= 10500; size += 1500) {
				font_shaped_t sh;
				font_shaped_init(&sh);
				CHECK(font_shape_pieces(c, styles[si], size, "und", 0, t, cut, 1, &sh, &e) == 0);
				int64_t sum = 0;
				for (int k = 0; k < sh.n; k++)
					sum += sh.g[k].adv;
				int32_t w = font_width_pieces(c, styles[si], size, "und", 0, t, cut, 1);
				font_ushaped_t u = {0};
				font_width_pieces_u(c, styles[si], "und", 0, t, cut, 1, &u);
				int32_t *adv = calloc((size_t)u.n + 1, sizeof(*adv));
				font_uglyphs_adv(u.g, u.n, size, adv);
				int64_t usum = 0;
				for (int k = 0; k < u.n; k++) {
					usum += adv[k];
					offsets += u.g[k].dx != 0;
				}
				int32_t uw = font_uglyphs_width(u.g, u.n, size);
				if (sum != sh.width || w != sum || uw != usum || usum != sum) {
					fprintf(stderr, "  '%s' style %d size %d: set %lld (width %d), measured "
					        "%d; at no size set %lld, measured %d\n", t, styles[si], (int)size,
					        (long long)sum, sh.width, w, (long long)usum, uw);
					CHECK(0);
				}
				free(adv);
				font_ushaped_done(&u);
				font_shaped_done(&sh);
			}
		}
	}
	CHECK(offsets > 0);   /* the case is there */
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}

/* font_shape_pieces (several pieces per HarfBuzz call, split where
 * HarfBuzz says a break is safe) gives exactly what one call per piece
 * gives, in every style, with features, and where the boundaries are
 * unsafe: a cut inside a kerned pair (AV|AV: shaped together the V would
 * be kerned against the A after it), before a combining mark (HarfBuzz
 * puts it in the space's cluster), inside Arabic words (joined). */
TEST(pieces)
{
	const char *latin =
		"AVAST Wave Type To Yvonne, P. Tallis and W. Vaughan (2019) \xe2\x80\x9c" "AV"
		"\xe2\x80\x9d LaTeX 3.14 \xce\x91\xce\xb8\xce\xae\xce\xbd\xce\xb1 \xd0\x9c\xd0\xbe"
		"\xd1\x81\xd0\xba\xd0\xb2\xd0\xb0 na\xc3\xafve caf\xc3\xa9 Zhu "
		"\xe6\x9c\xb1\xe5\xb1\x95\xe8\xbe\xbe \xe6\x9c\xb1" "Zhu \xe2\x98\x85 \xea\xa1\x80\xea\xa1\x81 a "
		"\xcc\x81" "b AVAV AVAV";
	const char *arabic = "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd8\xa8\xd8\xa7\xd9\x84"
	                     "\xd8\xb9\xd8\xa7\xd9\x84\xd9\x85 AV";
	/* cuts inside words besides those before each: AV|AST, AV|AV twice;
	   the Arabic words' letters */
	const uint32_t extra0[] = { 2, 156, 161 }, extra1[] = { 4, 15 };
	uint32_t cut[200];
	int n0 = word_cuts(latin, extra0, 3, cut, 200);
	EQ_INT(strlen(latin), 163);
	for (int style = 0; style < 4; style++) {
		pieces_case(latin, cut, n0, style, 0, 2);   /* U+A840 U+A841 (Phags-pa): in no face */
		pieces_case(latin, cut, n0, style, FONT_FEAT_SMCP | FONT_FEAT_ONUM, 2);
	}
	warm_case(latin, cut, n0);
	int n1 = word_cuts(arabic, extra1, 2, cut, 200);
	pieces_case(arabic, cut, n1, FONT_REGULAR, 0, 0);
	pieces_case(arabic, cut, n1, FONT_BOLD, 0, 0);
	/* the AV|AV cut is a real unsafe boundary: shaped as one, the first V
	   is kerned against the A after it */
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	CHECK(c != NULL);
	if (c) {
		font_shaped_t one, two;
		font_shaped_init(&one);
		font_shaped_init(&two);
		const uint32_t whole[] = { 4 }, split[] = { 2, 4 };
		font_shape_pieces(c, FONT_REGULAR, 10000, "en", 0, "AVAV", whole, 1, &one, &e);
		font_shape_pieces(c, FONT_REGULAR, 10000, "en", 0, "AVAV", split, 2, &two, &e);
		EQ_INT(one.n, 4);
		EQ_INT(two.n, 4);
		if (one.n == 4 && two.n == 4) {
			CHECK(one.g[1].adv < two.g[1].adv);  /* V before A: kerned only when whole */
			EQ_INT(two.g[1].adv, two.g[3].adv);  /* each piece's V ends it */
			EQ_INT(two.g[2].brk, 0);             /* a piece starts its own runs */
		}
		font_shaped_done(&one);
		font_shaped_done(&two);
	}
	font_lib_free(lib);
	errs_done(&e);
	/* Devanagari, Bengali and Tamil, shaped into clusters: their words
	   share HarfBuzz calls too (kept apart by a space); cut inside a
	   conjunct (प्|रौ: the reph-less ra joins the syllable before), before
	   a vowel sign (क|िया) and inside a Tamil two-part vowel (க|ொள்) */
	const char *indic = "\u092A\u094D\u0930\u094C\u0926\u094D\u092F\u094B\u0917\u093F\u0915\u0940 "
	                    "\u0938\u0902\u0938\u094D\u0925\u093E\u0928 \u0915\u093F\u092F\u093E "
	                    "\u092E\u0947\u0902 \u0939\u0942\u0901\u0964 \u0915\u0940 \u0915\u0940 "
	                    "\u09AC\u09BF\u09B6\u09CD\u09AC\u09AC\u09BF\u09A6\u09CD\u09AF\u09BE "
	                    "\u0997\u09AC\u09C7\u09B7\u09A3\u09BE \u0B95\u0BCA\u0BB3\u0BCD\u0B95\u0BC8 "
	                    "\u0BAA\u0BCA\u0BB1\u0BBF\u0BAF\u0BBF\u0BAF\u0BB2\u0BCD AV";
	const uint32_t extra2[] = { 6, 62, 165 };
	int n2 = word_cuts(indic, extra2, 3, cut, 200);
	pieces_case(indic, cut, n2, FONT_REGULAR, 0, 0);
	pieces_case(indic, cut, n2, FONT_BOLD, 0, 0);
	pieces_case(indic, cut, word_cuts(indic, NULL, 0, cut, 200), FONT_REGULAR, 0, 0);
	/* many words, most repeated, over several windows of items */
	static char big[8000];
	static uint32_t bcut[1000];
	size_t bl = 0;
	for (int i = 0; i < 900 && bl < sizeof(big) - 20; i++)
		bl += (size_t)snprintf(big + bl, sizeof(big) - bl, "%s%d ",
		                       i % 3 ? "Wave" : i % 5 ? "AVAST" : "To", i % 17);
	pieces_case(big, bcut, word_cuts(big, NULL, 0, bcut, 1000), FONT_BOLD, 0, 0);
}

/* OpenType features: small caps and figure styles replace glyphs one for
 * one (the code points stay), with their own advances; a face without a
 * feature (CJK) is left alone; the cache keeps shapings apart by feature. */
TEST(features)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	unsigned all = FONT_FEAT_SMCP | FONT_FEAT_C2SC | FONT_FEAT_ONUM | FONT_FEAT_LNUM |
	               FONT_FEAT_TNUM | FONT_FEAT_PNUM;
	EQ_INT(font_features(c, FONT_REGULAR, all), all); /* Noto Serif has them all */
	font_shaped_t p, s;
	font_shaped_init(&p);
	font_shaped_init(&s);
	const char *t = "Award 1990";
	CHECK(font_shape(c, FONT_REGULAR, 10000, "en", t, strlen(t), &p, &e) == 0);
	CHECK(font_shape_feat(c, FONT_REGULAR, 10000, "en", FONT_FEAT_SMCP, t, strlen(t), &s,
	                      &e) == 0);
	EQ_INT(s.n, 10);
	for (int i = 0; i < p.n; i++)
		EQ_INT(p.g[i].gid, 0);          /* plain: cmap glyphs */
	EQ_INT(s.g[0].gid, 0);              /* 'A' stays a capital */
	for (int i = 1; i < 5; i++) {
		CHECK(s.g[i].gid != 0);         /* "ward": small capitals */
		EQ_INT(s.g[i].cp, (unsigned char)t[i]);
	}
	CHECK(s.width > p.width);           /* small capitals are wider than lower case */
	EQ_INT(s.g[6].gid, 0);              /* figures untouched by smcp */
	font_shaped_t c2;
	font_shaped_init(&c2);
	font_shape_feat(c, FONT_REGULAR, 10000, "en", FONT_FEAT_SMCP | FONT_FEAT_C2SC, t,
	                strlen(t), &c2, &e);
	CHECK(c2.g[0].gid != 0);            /* all small caps: the A too */
	c2.n = 0;
	font_shape_feat(c, FONT_REGULAR, 10000, "en", FONT_FEAT_ONUM, t, strlen(t), &c2, &e);
	EQ_INT(c2.g[1].gid, 0);
	for (int i = 6; i < 10; i++)
		CHECK(c2.g[i].gid != 0);        /* oldstyle figures */
	c2.n = 0;
	/* tabular: every figure as wide as the others */
	const char *d = "1101";
	font_shape_feat(c, FONT_REGULAR, 10000, "en", FONT_FEAT_TNUM, d, 4, &c2, &e);
	EQ_INT(c2.g[0].adv, c2.g[1].adv);
	EQ_INT(c2.g[0].adv, c2.g[2].adv);
	/* the same text again without the feature: the cached plain shaping */
	font_shaped_t q;
	font_shaped_init(&q);
	font_shape(c, FONT_REGULAR, 10000, "en", t, strlen(t), &q, &e);
	CHECK(memcmp(q.g, p.g, (size_t)p.n * sizeof(p.g[0])) == 0);
	EQ_INT(font_width_feat(c, FONT_REGULAR, 10000, "en", FONT_FEAT_SMCP, t, strlen(t)),
	       s.width);
	/* CJK: no smcp in the face, nothing replaced */
	q.n = 0;
	const char *z = "朱展达";
	font_shape_feat(c, FONT_REGULAR, 10000, "en", FONT_FEAT_SMCP, z, strlen(z), &q, &e);
	EQ_INT(q.n, 3);
	for (int i = 0; i < q.n; i++)
		EQ_INT(q.g[i].gid, 0);
	font_shaped_done(&q);
	font_shaped_done(&c2);
	font_shaped_done(&s);
	font_shaped_done(&p);
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}

/* Light weights: the family's light faces where installed; bold markup in
 * light text is bold; a family without one stands in with its regular. */
TEST(light)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "sans", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	CHECK(font_style_real(c, FONT_LIGHT));
	CHECK(font_style_real(c, FONT_LIGHT_ITALIC));
	CHECK(font_style_real(c, FONT_BOLD));
	int lf = font_face_for(c, FONT_LIGHT, "en", 'a');
	int rf = font_face_for(c, FONT_REGULAR, "en", 'a');
	int bf = font_face_for(c, FONT_BOLD, "en", 'a');
	CHECK(lf >= 0 && lf != rf && lf != bf);
	EQ_STR(font_face_info(lib, lf)->psname, "NotoSans-Light");
	EQ_STR(font_face_info(lib, font_face_for(c, FONT_LIGHT_ITALIC, "en", 'a'))->psname,
	       "NotoSans-LightItalic");
	EQ_INT(font_face_for(c, FONT_LIGHT | FONT_BOLD, "en", 'a'), bf);
	/* the light face's glyphs are narrower than the regular's */
	CHECK(font_width(c, FONT_LIGHT, 10000, "en", "minimum", 7) <
	      font_width(c, FONT_REGULAR, 10000, "en", "minimum", 7));
	/* IPA Gothic has no light face: its regular stands in */
	EQ_INT(font_face_for(c, FONT_LIGHT, "ja", 0x3042), font_face_for(c, FONT_REGULAR, "ja", 0x3042));
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}

/* Texts too long for the shaping cache, in more scripts than a face keeps
 * shaping plans for: shaped again in another order (plans evicted and
 * made again), every glyph must come out the same. */
TEST(plans)
{
	static const char *unit[] = {
		"AVAST Wave ", "\xce\x91\xce\xa5\xce\x93\xce\x9f \xce\xa4\xce\xac\xcf\x85 ",
		"\xd0\x90\xd0\xa3\xd0\x93\xd0\x9e \xd0\xa2\xd0\xb0\xd1\x83 ", "1971 (2024) ",
		"\xd4\xb1\xd6\x82\xd5\xa1\xd5\xa3", "\xe1\x83\x90\xe1\x83\x95\xe1\x83\x90",
		"\xd7\x90\xd7\x91\xd7\x92", "\xe2\x86\x92\xe2\x86\x90",
		"\xe1\x9a\x81\xe1\x9a\x82", "\xe2\xb4\xb0\xe2\xb4\xb1",
	};
	enum { NT = sizeof(unit) / sizeof(unit[0]) };
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	char text[NT][400];
	font_shaped_t first[NT], again;
	font_shaped_init(&again);
	for (int i = 0; i < NT; i++) {
		size_t n = 0, l = strlen(unit[i]);
		while (n + l < sizeof(text[i]))
			n += (size_t)snprintf(text[i] + n, sizeof(text[i]) - n, "%s", unit[i]);
		font_shaped_init(&first[i]);
		CHECK(font_shape(c, FONT_REGULAR, 10000, "en", text[i], n, &first[i], &e) == 0);
		CHECK(first[i].width > 0);
	}
	for (int r = 0; r < 2; r++)
		for (int j = NT - 1; j >= 0; j--) {
			int i = r ? (j * 3) % NT : j;
			again.n = 0;
			again.width = 0;
			font_shape(c, FONT_REGULAR, 10000, "en", text[i], strlen(text[i]), &again, &e);
			EQ_INT(again.n, first[i].n);
			EQ_INT(again.width, first[i].width);
			CHECK(again.n == first[i].n &&
			      !memcmp(again.g, first[i].g, (size_t)again.n * sizeof(again.g[0])));
		}
	/* kerned Latin: the first text is narrower than its nominal width */
	CHECK(first[0].width < nominal_sum(lib, first[0].g[0].face, text[0], 10000));
	for (int i = 0; i < NT; i++)
		font_shaped_done(&first[i]);
	font_shaped_done(&again);
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}


/* One shaping of a text at a size, into an empty out (font_shape_pieces
 * or, with width, font_width_pieces' scratch). */
typedef struct tc_case {
	const char *t;
	uint32_t cut[4];
	int ncut, style;
	int32_t size;
	const char *lang;
	unsigned feats;
	int width;
} tc_case_t;

static void tc_shape(font_chain_t *c, const tc_case_t *k, font_shaped_t *out, errs_t *e)
{
	out->n = 0;
	out->width = 0;
	out->missing = 0;
	if (k->width) {
		int32_t w = font_width_pieces(c, k->style, k->size, k->lang, k->feats, k->t, k->cut,
		                              k->ncut);
		EQ_INT(w, c->scratch.width);
		font_shaped_t *sc = &c->scratch;
		if (out->cap < sc->n) {
			out->cap = sc->n;
			out->g = realloc(out->g, sizeof(*out->g) * (size_t)out->cap);
		}
		memcpy(out->g, sc->g, sizeof(*out->g) * (size_t)sc->n);
		out->n = sc->n;
		out->width = sc->width;
		out->missing = sc->missing;
		return;
	}
	CHECK(font_shape_pieces(c, k->style, k->size, k->lang, k->feats, k->t, k->cut, k->ncut, out,
	                        e) == 0);
}

static int tc_same(const font_shaped_t *a, const font_shaped_t *b)
{
	return a->n == b->n && a->width == b->width && a->missing == b->missing &&
	       (!a->n || !memcmp(a->g, b->g, sizeof(*a->g) * (size_t)a->n));
}

/* The texts shaped at a size kept whole (font_shape.c's stext): a text
 * shaped again, measured or set, is given the glyphs a library that never
 * saw it gives, and so is every text that differs from one kept in any of
 * what the glyphs depend on (size, style, features, CJK language, cuts,
 * bytes); a text appended to glyphs already in out (its first glyph's run
 * break depends on them) is shaped, not answered. */
TEST(text_cache)
{
	static const tc_case_t cases[] = {
		{"Zhanda Zhu", {10}, 1, FONT_REGULAR, 10000, "en", 0, 0},
		{"Zhanda Zhu", {10}, 1, FONT_REGULAR, 10000, "en", 0, 1},
		{"Zhanda Zhu", {10}, 1, FONT_REGULAR, 12500, "en", 0, 0},
		{"Zhanda Zhu", {10}, 1, FONT_BOLD, 10000, "en", 0, 0},
		{"Zhanda Zhu", {10}, 1, FONT_REGULAR, 10000, "en", FONT_FEAT_SMCP, 0},
		{"Zhanda Zhu", {7, 10}, 2, FONT_REGULAR, 10000, "en", 0, 0},
		{"AVAV", {4}, 1, FONT_REGULAR, 10000, "en", 0, 0},
		{"AVAV", {2, 4}, 2, FONT_REGULAR, 10000, "en", 0, 0},
		{"AVAV", {1, 4}, 2, FONT_REGULAR, 10000, "en", 0, 0},
		{"AVAW", {4}, 1, FONT_REGULAR, 10000, "en", 0, 0},
		{", ", {2}, 1, FONT_ITALIC, 10000, "en", 0, 0},
		{"\u4e2d\u201c\u6587\u201d", {12}, 1, FONT_REGULAR, 10000, "en", 0, 0},
		{"\u4e2d\u201c\u6587\u201d", {12}, 1, FONT_REGULAR, 10000, "ja", 0, 0},
		{"\u092A\u094D\u0930\u094C\u0926 \u092F\u094B\u0917", {16, 25}, 2, FONT_REGULAR, 10000,
		 "hi", 0, 0},
		{"a\ue000b", {5}, 1, FONT_REGULAR, 10000, "en", 0, 0},
	};
	enum { NC = sizeof(cases) / sizeof(cases[0]) };
	errs_t e, ef;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	CHECK(c != NULL);
	if (!c) {
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	font_shaped_t got, fresh;
	font_shaped_init(&got);
	font_shaped_init(&fresh);
	int kept = lib->nstext;
	for (int r = 0; r < 3; r++)
		for (int i = 0; i < NC; i++) {
			const tc_case_t *k = &cases[r == 1 ? NC - 1 - i : i];
			tc_shape(c, k, &got, &e);
			font_lib_t *fl = lib_open(&ef);
			font_chain_t *fc = font_chain_get(fl, "serif", &ef);
			CHECK(fc != NULL);
			if (fc)
				tc_shape(fc, k, &fresh, &ef);
			/* faces are numbered as they load: compare their files */
			for (int g = 0; g < got.n && g < fresh.n; g++) {
				const font_face_info_t *a = font_face_info(lib, got.g[g].face);
				const font_face_info_t *b = font_face_info(fl, fresh.g[g].face);
				CHECK((a == NULL) == (b == NULL));
				if (a && b)
					CHECK(!strcmp(a->path, b->path) && a->index == b->index);
				fresh.g[g].face = got.g[g].face;
			}
			if (!tc_same(&got, &fresh)) {
				fprintf(stderr, "text_cache: pass %d case %d ('%s'): %d glyphs, %d u / %d, %d\n",
				        r, (int)(k - cases), k->t, got.n, (int)got.width, fresh.n,
				        (int)fresh.width);
				CHECK(0);
			}
			font_lib_free(fl);
			errs_done(&ef);
		}
	EQ_INT(got.missing, 1);   /* U+E000: no face has it, also when answered */
	/* one kept per text (the measured and the set one are one), none again */
	EQ_INT(lib->nstext - kept, NC - 1);
	/* into an out that holds glyphs already: appended after them, the
	   width added to theirs, as a text of its own (a new piece) */
	const uint32_t one = 3;
	got.n = 0;
	got.width = 0;
	got.missing = 0;
	CHECK(font_shape_pieces(c, FONT_REGULAR, 10000, "en", 0, "Zhu", &one, 1, &got, &e) == 0);
	font_shaped_t zhu = got;
	zhu.g = malloc(sizeof(*zhu.g) * (size_t)(got.n ? got.n : 1));
	memcpy(zhu.g, got.g, sizeof(*zhu.g) * (size_t)got.n);
	got.n = 0;
	got.width = 0;
	CHECK(font_shape(c, FONT_REGULAR, 10000, "en", "\u4e2d", 3, &got, &e) == 0);
	int at = got.n;
	int32_t w0 = got.width;
	CHECK(font_shape_pieces(c, FONT_REGULAR, 10000, "en", 0, "Zhu", &one, 1, &got, &e) == 0);
	CHECK(got.n == at + zhu.n && got.width == w0 + zhu.width &&
	      !memcmp(got.g + at, zhu.g, sizeof(*zhu.g) * (size_t)zhu.n));
	free(zhu.g);
	font_shaped_done(&got);
	font_shaped_done(&fresh);
	EQ_INT(e.n, 0);
	font_lib_free(lib);
	errs_done(&e);
}

static void nfc_case(const char *in, const char *want)
{
	size_t n = 0;
	char *r = uni_nfc(in, strlen(in), &n);
	if (!want) {
		CHECK(r == NULL);
		if (r)
			fprintf(stderr, "  unexpected NFC change of '%s' to '%s'\n", in, r);
	} else {
		EQ_STR(r, want);
		if (r)
			EQ_INT(n, strlen(want));
	}
	free(r);
}

TEST(nfc)
{
	nfc_case("plain ascii", NULL);
	nfc_case("Müller", NULL);                              /* already composed */
	nfc_case("Mu\xcc\x88ller", "Müller");                  /* u + U+0308 */
	nfc_case("朱展达", NULL);
	nfc_case("\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab", "한"); /* jamo H A N */
	nfc_case("한국", NULL);
	/* Vietnamese: e + circumflex + acute (in either mark order, the same
	 * class 230 keeps order: e + U+0302 + U+0301 -> ế) */
	nfc_case("Nguye\xcc\x82\xcc\x83n", "Nguyễn");
	nfc_case("Nguyễn", NULL);
	nfc_case("e\xcc\x82\xcc\x81", "ế");
	/* ordering: dot below (220) before circumflex (230): a + U+0302 + U+0323 -> ậ */
	nfc_case("a\xcc\x82\xcc\xa3", "ậ");
	nfc_case("\xe2\x84\xab", "Å"); /* ANGSTROM SIGN singleton */
	nfc_case("\xcc\x88u", NULL);   /* a leading mark stays */
}

TEST(subset)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	const char *lat = "Zhanda Zhu, University of Toronto. Müller Ñandú (2024) — AI/ML & systems!";
	uint32_t cps[128];
	int n = 0;
	for (size_t i = 0; lat[i];) {
		uint32_t cp;
		i += (size_t)utf8_decode(lat + i, strlen(lat) - i, &cp);
		int dup = 0;
		for (int k = 0; k < n; k++)
			dup |= cps[k] == cp;
		if (!dup)
			cps[n++] = cp;
	}
	int face = font_face_for(c, FONT_REGULAR, "en", 'Z');
	arena_t *a = arena_new();
	const unsigned char *sub = NULL;
	size_t len = 0;
	CHECK(font_subset(lib, face, cps, n, a, &sub, &len, &e) == 0);
	fprintf(stderr, "  Noto Serif subset, %d code points: %zu bytes\n", n, len);
	CHECK(len > 2000 && len < 20000);
	FT_Library ft;
	FT_Face f;
	FT_Init_FreeType(&ft);
	CHECK(FT_New_Memory_Face(ft, sub, (FT_Long)len, 0, &f) == 0);
	for (int k = 0; k < n; k++)
		CHECK(FT_Get_Char_Index(f, cps[k]) != 0);
	CHECK(FT_Get_Char_Index(f, 'q') == 0);
	CHECK((int)f->num_glyphs <= 2 * n); /* + composite components */
	int has31 = 0;
	for (int k = 0; k < f->num_charmaps; k++)
		if (f->charmaps[k]->platform_id == 3 && f->charmaps[k]->encoding_id == 1)
			has31 = (int)FT_Get_CMap_Format(f->charmaps[k]);
	EQ_INT(has31, 4); /* the cmap the PDF writer reads first */
	FT_Done_Face(f);
	/* the PDF writer's reader takes it */
	char why[300] = "";
	sfnt_t *sf = sfnt_open(sub, len, why, sizeof(why));
	CHECK(sf != NULL);
	if (sf) {
		EQ_STR(sfnt_psname(sf), "NotoSerif-Regular");
		CHECK(sfnt_gid(sf, 'Z') != 0);
		sfnt_free(sf);
	}
	/* CJK (Noto Serif CJK SC, CFF in a collection): the subset stays CFF
	   and small; the program written is a CID-keyed CFF whose CID g is
	   glyph g, a copy drawing what its original draws */
	uint32_t zh[] = { 0x6731, 0x5c55, 0x8fbe };
	int z = font_face_for(c, FONT_REGULAR, "zh", 0x8fbe);
	CHECK(font_subset(lib, z, zh, 3, a, &sub, &len, &e) == 0);
	fprintf(stderr, "  Noto Serif CJK SC subset, 3 code points: %zu bytes\n", len);
	CHECK(len < 20000);
	CHECK(len >= 4 && memcmp(sub, "OTTO", 4) == 0);
	CHECK(FT_New_Memory_Face(ft, sub, (FT_Long)len, 0, &f) == 0);
	CHECK(FT_Get_Char_Index(f, 0x8fbe) != 0);
	FT_Done_Face(f);
	sf = sfnt_open(sub, len, why, sizeof(why));
	CHECK(sf != NULL);
	if (sf) {
		CHECK(sfnt_is_cff(sf));
		EQ_STR(sfnt_psname(sf), "NotoSerifCJKsc-Regular");
		unsigned g = sfnt_gid(sf, 0x8fbe), n0 = sfnt_nglyphs(sf);
		EQ_INT(sfnt_width(sf, g), 1000);
		unsigned cp = sfnt_copy(sf, g);
		EQ_INT(cp, n0);
		EQ_INT(sfnt_source(sf, cp), g);
		uint8_t keep[8] = {1, 1, 1, 1, 1, 1, 1, 1};
		const unsigned char *prog;
		size_t plen;
		CHECK(n0 + 1 <= 8);
		sfnt_program(sf, keep, &prog, &plen);
		CHECK(plen > 100 && prog[0] == 1);
		CHECK(FT_New_Memory_Face(ft, prog, (FT_Long)plen, 0, &f) == 0);
		if (f) {
			EQ_INT(f->num_glyphs, n0 + 1);
			FT_Bool cid = 0;
			CHECK(FT_Get_CID_Is_Internally_CID_Keyed(f, &cid) == 0 && cid);
			for (unsigned k = 0; k <= n0; k++) {
				FT_UInt id = 99;
				CHECK(FT_Get_CID_From_Glyph_Index(f, k, &id) == 0 && id == k);
			}
			CHECK(FT_Load_Glyph(f, g, FT_LOAD_NO_SCALE) == 0);
			int pts = f->glyph->outline.n_points;
			long adv = f->glyph->metrics.horiAdvance;
			CHECK(pts > 10);
			CHECK(FT_Load_Glyph(f, cp, FT_LOAD_NO_SCALE) == 0);
			EQ_INT(f->glyph->outline.n_points, pts);
			EQ_INT(f->glyph->metrics.horiAdvance, adv);
			FT_Done_Face(f);
		}
		sfnt_free(sf);
	}
	arena_free(a);
	FT_Done_FreeType(ft);
	EQ_INT(e.n, 0);
	errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
}

/* ---- the TrueType subset, table by table ---- */

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* 1 when the sfnt p[0..n) is well formed: tags ascending, tables 4-byte
 * aligned and inside the file, zero padding, every table's checksum (head
 * summed with checkSumAdjustment 0) and the whole file's sum 0xB1B0AFBA. */
static int sfnt_sums_ok(const unsigned char *p, size_t n)
{
	if (n < 12)
		return 0;
	unsigned nt = (unsigned)p[4] << 8 | p[5], es = 0;
	while ((2u << es) <= nt)
		es++;
	if (12 + 16 * (size_t)nt > n || rd32(p + 4) << 16 >> 16 != 16u << es || rd32(p + 8) >> 16 != es)
		return 0;
	uint32_t total = 0;
	for (size_t i = 0; i < 12 + 16 * (size_t)nt; i += 4)
		total += rd32(p + i);
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *r = p + 12 + 16 * i;
		uint32_t off = rd32(r + 8), len = rd32(r + 12), sum = 0;
		if ((i && memcmp(r - 16, r, 4) >= 0) || off % 4 || off > n || len > n - off)
			return 0;
		size_t padded = (len + 3) & ~(size_t)3;
		if (padded > n - off)
			return 0;
		for (size_t k = len; k < padded; k++)
			if (p[off + k])
				return 0;
		for (size_t k = 0; k < padded; k += 4)
			sum += rd32(p + off + k);
		total += sum;
		if (!memcmp(r, "head", 4))
			sum -= rd32(p + off + 8);
		if (sum != rd32(r + 4)) {
			fprintf(stderr, "  table %.4s: checksum %08x, directory says %08x\n", (const char *)r,
			        sum, rd32(r + 4));
			return 0;
		}
	}
	return total == 0xB1B0AFBAu;
}

/* arena_keep: blocks handed to an arena keep their bytes where they are
 * and go with it (ASan's leak check sees any it does not free). */
TEST(arena_keeps)
{
	arena_t *a = arena_new();
	unsigned char *p[20];
	for (int i = 0; i < 20; i++) {
		unsigned char *b = xmalloc(100 + (size_t)i);
		memset(b, i, 100 + (size_t)i);
		p[i] = arena_keep(a, b);
		CHECK(p[i] == b);
		arena_alloc(a, 64);
	}
	for (int i = 0; i < 20; i++)
		CHECK(p[i][0] == i && p[i][99 + i] == i);
	arena_free(a);
}

/* sfnt.c's checksum (src/sfnt_int.h: not a public interface) */
uint32_t sfnt_sum(const unsigned char *p, size_t n);

/* sfnt_sum is the sum of the big-endian words, whatever the bytes (all
 * 0xFF: the most its byte sums by place can hold, past 255 blocks of 16),
 * the length (around the 16-byte blocks and their 255-block groups) and
 * the alignment. */
TEST(sum_words)
{
	static const size_t lens[] = {0, 4, 12, 16, 20, 60, 64, 68, 4076, 4080, 4084, 4096, 4112,
	                              8160, 8164, 65532, 200000};
	unsigned char *buf = malloc(200000 + 8);
	uint32_t seed = 1;
	for (int fill = 0; fill < 3; fill++)
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
			for (size_t at = 0; at < 4; at++) {
				size_t n = lens[li];
				for (size_t i = 0; i < n + 8; i++) {
					seed = seed * 1103515245u + 12345u;
					buf[i] = fill == 0 ? 0xFF : fill == 1 ? (unsigned char)(seed >> 16)
					         : (seed >> 20) & 1 ? 0xFF : 0;
				}
				uint32_t want = 0;
				for (size_t k = 0; k < n; k += 4)
					want += rd32(buf + at + k);
				EQ_INT(sfnt_sum(buf + at, n), want);
			}
	free(buf);
}

/* Glyph ga of face a and gb of face b draw the same outline, unhinted, in
 * font units, with the same advance. */
static int same_outline(FT_Face a, unsigned ga, FT_Face b, unsigned gb)
{
	const FT_Int32 fl = FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP;
	if (FT_Load_Glyph(a, ga, fl) || a->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
		return 0;
	FT_Outline oa = a->glyph->outline;
	long adv = a->glyph->metrics.horiAdvance;
	FT_Vector *pa = malloc(sizeof(FT_Vector) * (size_t)(oa.n_points ? oa.n_points : 1));
	char *ta = malloc((size_t)(oa.n_points ? oa.n_points : 1));
	short *ca = malloc(sizeof(short) * (size_t)(oa.n_contours ? oa.n_contours : 1));
	memcpy(pa, oa.points, sizeof(FT_Vector) * (size_t)oa.n_points);
	memcpy(ta, oa.tags, (size_t)oa.n_points);
	memcpy(ca, oa.contours, sizeof(short) * (size_t)oa.n_contours);
	int ok = FT_Load_Glyph(b, gb, fl) == 0 && b->glyph->format == FT_GLYPH_FORMAT_OUTLINE;
	FT_Outline ob = b->glyph->outline;
	ok = ok && ob.n_points == oa.n_points && ob.n_contours == oa.n_contours &&
	     b->glyph->metrics.horiAdvance == adv;
	for (int i = 0; ok && i < oa.n_points; i++)
		ok = pa[i].x == ob.points[i].x && pa[i].y == ob.points[i].y &&
		     (ta[i] & 1) == (ob.tags[i] & 1);
	for (int i = 0; ok && i < oa.n_contours; i++)
		ok = ca[i] == ob.contours[i];
	free(pa);
	free(ta);
	free(ca);
	return ok;
}

/* Glyph g of f is a composite (in the font's glyf: not flattened); its
 * number of components. */
static int components(FT_Face f, unsigned g)
{
	if (FT_Load_Glyph(f, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_RECURSE) ||
	    f->glyph->format != FT_GLYPH_FORMAT_COMPOSITE)
		return 0;
	return (int)f->glyph->num_subglyphs;
}

/* Noto Serif's é (U+00E9) is a composite of e and an acute; ŵ (U+0175)
 * too (w and a circumflex). Asking for é alone, the subset must keep its
 * components (renumbered), draw é as the font does, and its tables must be
 * valid; so must the program the PDF writer cuts from it. Every code
 * point of a line draws as in the font, with the font's advance. */
TEST(subset_composite)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	int face = font_face_for(c, FONT_REGULAR, "en", 0xe9);
	const char *path = font_face_info(lib, face)->path;
	FT_Library ft;
	FT_Face orig = NULL, sub = NULL, prog = NULL;
	FT_Init_FreeType(&ft);
	CHECK(FT_New_Face(ft, path, 0, &orig) == 0);
	unsigned oe = FT_Get_Char_Index(orig, 0xe9);
	int ncomp = components(orig, oe);
	CHECK(ncomp >= 2); /* the font this test was written for */

	arena_t *a = arena_new();
	const unsigned char *data = NULL;
	size_t len = 0;
	uint32_t one[] = { 0xe9 };
	CHECK(font_subset(lib, face, one, 1, a, &data, &len, &e) == 0);
	CHECK(sfnt_sums_ok(data, len));
	CHECK(FT_New_Memory_Face(ft, data, (FT_Long)len, 0, &sub) == 0);
	if (sub) {
		unsigned se = FT_Get_Char_Index(sub, 0xe9);
		CHECK(se != 0);
		EQ_INT(sub->num_glyphs, 1 + 1 + ncomp); /* .notdef, é, its components */
		EQ_INT(components(sub, se), ncomp);
		for (int i = 0; i < ncomp; i++) {
			FT_Int sg = -1, so = -1;
			FT_UInt fl;
			FT_Int a1, a2;
			FT_Matrix m;
			CHECK(components(orig, oe) == ncomp &&
			      FT_Get_SubGlyph_Info(orig->glyph, (FT_UInt)i, &so, &fl, &a1, &a2, &m) == 0);
			CHECK(components(sub, se) == ncomp &&
			      FT_Get_SubGlyph_Info(sub->glyph, (FT_UInt)i, &sg, &fl, &a1, &a2, &m) == 0);
			CHECK(sg > 0 && sg < sub->num_glyphs && sg != (FT_Int)se);
			CHECK(same_outline(orig, (unsigned)so, sub, (unsigned)sg));
		}
		CHECK(same_outline(orig, oe, sub, se));
		/* .notdef draws nothing; no hinting is left */
		CHECK(FT_Load_Glyph(sub, 0, FT_LOAD_NO_SCALE) == 0 && sub->glyph->outline.n_points == 0);
		TT_MaxProfile *mp = FT_Get_Sfnt_Table(sub, FT_SFNT_MAXP);
		/* (FreeType raises maxFunctionDefs to 64 itself) */
		CHECK(mp && mp->maxSizeOfInstructions == 0 && mp->maxStackElements == 0);
		FT_ULong tl = 0;
		CHECK(FT_Load_Sfnt_Table(sub, FT_MAKE_TAG('f', 'p', 'g', 'm'), 0, NULL, &tl) != 0);
		FT_Done_Face(sub);
	}
	/* the program the PDF embeds (CID = glyph id of the subset) */
	char why[300] = "";
	sfnt_t *sf = sfnt_open(data, len, why, sizeof(why));
	CHECK(sf != NULL);
	if (sf) {
		unsigned g = sfnt_gid(sf, 0xe9), n = sfnt_nglyphs(sf);
		uint8_t keep[16] = {0};
		CHECK(n <= 16);
		keep[0] = keep[g] = 1; /* the components come by the closure */
		const unsigned char *pp;
		size_t pn;
		sfnt_program(sf, keep, &pp, &pn);
		CHECK(sfnt_sums_ok(pp, pn));
		CHECK(FT_New_Memory_Face(ft, pp, (FT_Long)pn, 0, &prog) == 0);
		if (prog) {
			CHECK(same_outline(orig, oe, prog, g));
			FT_Done_Face(prog);
		}
		sfnt_free(sf);
	}

	/* a line of text, with glyph ids asked for too (a feature's glyphs) */
	const char *line = "Zhanda Zhu, Université de Montréal: Ŵ ŵ Ǻ — “AI/ML” & systems (2024)!";
	uint32_t cps[128];
	int n = 0;
	for (size_t i = 0; line[i];) {
		uint32_t cp;
		i += (size_t)utf8_decode(line + i, strlen(line) - i, &cp);
		int dup = 0;
		for (int k = 0; k < n; k++)
			dup |= cps[k] == cp;
		if (!dup)
			cps[n++] = cp;
	}
	uint16_t gids[2] = { (uint16_t)FT_Get_Char_Index(orig, 'q'), 60000 }, to[2] = { 9, 9 };
	CHECK(font_subset_glyphs(lib, face, cps, n, gids, 2, to, a, &data, &len, &e) == 0);
	CHECK(sfnt_sums_ok(data, len));
	CHECK(FT_New_Memory_Face(ft, data, (FT_Long)len, 0, &sub) == 0);
	if (sub) {
		for (int k = 0; k < n; k++) {
			unsigned go = FT_Get_Char_Index(orig, cps[k]), gs = FT_Get_Char_Index(sub, cps[k]);
			CHECK(go != 0 && gs != 0);
			if (!same_outline(orig, go, sub, gs)) {
				fprintf(stderr, "  U+%04X draws differently in the subset\n", cps[k]);
				CHECK(0);
			}
		}
		CHECK(FT_Get_Char_Index(sub, 'q') == 0); /* not a code point asked for */
		CHECK(to[0] > 0 && to[0] < sub->num_glyphs && same_outline(orig, gids[0], sub, to[0]));
		EQ_INT(to[1], 0); /* no such glyph */
		FT_Done_Face(sub);
	}
	FT_Done_Face(orig);
	FT_Done_FreeType(ft);
	arena_free(a);
	EQ_INT(e.n, 0);
	errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
}

/* Table tag's length in the sfnt b[0..n), -1 when it has none. */
static long table_len(const unsigned char *b, size_t n, const char *tag)
{
	unsigned nt = n >= 12 ? (unsigned)b[4] << 8 | b[5] : 0;
	for (unsigned i = 0; i < nt && 12 + 16 * (size_t)(i + 1) <= n; i++)
		if (memcmp(b + 12 + 16 * i, tag, 4) == 0)
			return (long)rd32(b + 12 + 16 * i + 12);
	return -1;
}

/* A subset whose glyphs are all empty (DejaVu Sans's braille blank U+2800
 * and space, as the face of a CV's one ⠀) has a glyf table all the same:
 * .notdef a record of no contour (a glyf of no byte was refused by
 * sfnt_open, "a required table ... is missing", and by pdf.js); FreeType
 * reads it, and so the program the PDF embeds. */
TEST(subset_empty)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	int face = font_face_for(c, FONT_REGULAR, NULL, 0x2800);
	EQ_STR(family_of(lib, face), "DejaVu Sans");
	static const uint32_t sets[2][2] = {{0x2800, 0x20}, {0x20, 0}};
	FT_Library ft;
	FT_Init_FreeType(&ft);
	arena_t *a = arena_new();
	for (int k = 0; k < 2; k++) {
		const unsigned char *sub = NULL;
		size_t len = 0;
		int n = sets[k][1] ? 2 : 1;
		CHECK(font_subset(lib, face, sets[k], n, a, &sub, &len, &e) == 0);
		if (!sub)
			continue;
		CHECK(sfnt_sums_ok(sub, len));
		EQ_INT(table_len(sub, len, "glyf"), 12);
		FT_Face f = NULL;
		CHECK(FT_New_Memory_Face(ft, sub, (FT_Long)len, 0, &f) == 0);
		if (f) {
			EQ_INT(f->num_glyphs, n + 1);
			for (int i = 0; i < n; i++) {
				FT_UInt g = FT_Get_Char_Index(f, sets[k][i]);
				CHECK(g != 0 && FT_Load_Glyph(f, g, FT_LOAD_NO_SCALE) == 0);
				EQ_INT(f->glyph->outline.n_points, 0);
				CHECK(f->glyph->advance.x > 0);
			}
			CHECK(FT_Load_Glyph(f, 0, FT_LOAD_NO_SCALE) == 0);
			EQ_INT(f->glyph->outline.n_contours, 0);
			FT_Done_Face(f);
		}
		char why[300] = "";
		sfnt_t *sf = sfnt_open(sub, len, why, sizeof(why));
		CHECK(sf != NULL);
		if (!sf) {
			fprintf(stderr, "  sfnt_open: %s\n", why);
			continue;
		}
		uint8_t keep[3] = {1, 1, 1};
		const unsigned char *pp;
		size_t pn;
		sfnt_program(sf, keep, &pp, &pn);
		CHECK(sfnt_sums_ok(pp, pn));
		EQ_INT(table_len(pp, pn, "glyf"), 12);
		CHECK(FT_New_Memory_Face(ft, pp, (FT_Long)pn, 0, &f) == 0);
		if (f) {
			CHECK(FT_Load_Glyph(f, 1, FT_LOAD_NO_SCALE) == 0);
			FT_Done_Face(f);
		}
		sfnt_free(sf);
	}
	FT_Done_FreeType(ft);
	arena_free(a);
	EQ_INT(e.n, 0);
	errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
}

/* The CJK face (Noto Serif CJK SC: CID-keyed CFF with subroutines and
 * hints, in a collection) is cut by sfnt_subset too: its charstrings come
 * flattened (no subroutine calls), with no hints, and draw as the font's
 * do; the program the PDF embeds (a bare CID-keyed CFF) draws them with
 * the font's advances, kept through the charstrings' widths (Latin
 * letters of the face are proportional: their width is not the default). */
TEST(subset_cff)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	if (!c) {
		CHECK(c != NULL);
		font_lib_free(lib);
		errs_done(&e);
		return;
	}
	int face = font_face_for(c, FONT_REGULAR, "zh", 0x8fbe);
	const font_face_info_t *fi = font_face_info(lib, face);
	FT_Library ft;
	FT_Face orig = NULL, sub = NULL, prog = NULL;
	FT_Init_FreeType(&ft);
	CHECK(FT_New_Face(ft, fi->path, fi->index, &orig) == 0);
	/* CJK, kana, CJK punctuation, fullwidth and proportional Latin, Hangul */
	uint32_t cps[] = { 'W', 'a', 'g', '1', 0x3001, 0x3002, 0x300c, 0x3042, 0x30ab, 0x4e00,
	                   0x5c55, 0x6731, 0x8fbe, 0x9f98, 0xff01, 0xff21, 0xac00, 0xad6d, 0xc11c,
	                   0xd55c, 0xd7a3 };
	int n = (int)(sizeof(cps) / sizeof(cps[0]));
	arena_t *a = arena_new();
	const unsigned char *data = NULL;
	size_t len = 0;
	CHECK(font_subset(lib, face, cps, n, a, &data, &len, &e) == 0);
	CHECK(len > 12 && memcmp(data, "OTTO", 4) == 0);
	CHECK(sfnt_sums_ok(data, len));
	CHECK(FT_New_Memory_Face(ft, data, (FT_Long)len, 0, &sub) == 0);
	char why[300] = "";
	sfnt_t *sf = sfnt_open(data, len, why, sizeof(why));
	CHECK(sf != NULL && sfnt_is_cff(sf));
	if (sub && sf) {
		EQ_INT(sub->num_glyphs, n + 1);
		unsigned ng = sfnt_nglyphs(sf);
		uint8_t *keep = calloc(ng, 1);
		for (int k = 0; k < n; k++)
			keep[sfnt_gid(sf, cps[k])] = 1;
		const unsigned char *pp;
		size_t pn;
		sfnt_program(sf, keep, &pp, &pn);
		free(keep);
		CHECK(FT_New_Memory_Face(ft, pp, (FT_Long)pn, 0, &prog) == 0);
		int proportional = 0;
		for (int k = 0; k < n && prog; k++) {
			unsigned go = FT_Get_Char_Index(orig, cps[k]), gs = FT_Get_Char_Index(sub, cps[k]);
			CHECK(go != 0 && gs != 0 && gs == sfnt_gid(sf, cps[k]));
			if (!same_outline(orig, go, sub, gs) || !same_outline(orig, go, prog, gs)) {
				fprintf(stderr, "  U+%04X draws differently in the CFF subset\n", cps[k]);
				CHECK(0);
			}
			FT_Load_Glyph(orig, go, FT_LOAD_NO_SCALE);
			proportional += orig->glyph->metrics.horiAdvance != 1000;
		}
		CHECK(proportional >= 3);
		/* no subroutines left, no hints: FreeType finds no stems to
		   report, the Private DICT no blues */
		PS_PrivateRec pr;
		if (prog && FT_Get_PS_Font_Private(prog, &pr) == 0)
			EQ_INT(pr.num_blue_values, 0);
	}
	if (prog)
		FT_Done_Face(prog);
	sfnt_free(sf);
	if (sub)
		FT_Done_Face(sub);
	FT_Done_Face(orig);
	FT_Done_FreeType(ft);
	arena_free(a);
	EQ_INT(e.n, 0);
	errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
}

/* ---- corrupt-font corpus, generated from Noto Serif ---- */

static unsigned char *slurp(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc((size_t)len);
	*n = fread(b, 1, (size_t)len, f);
	fclose(f);
	return b;
}

static void spit(const char *p, const void *b, size_t n)
{
	FILE *f = fopen(p, "wb");
	fwrite(b, 1, n, f);
	fclose(f);
}

static long table_off(const unsigned char *b, const char *tag)
{
	unsigned nt = (unsigned)b[4] << 8 | b[5];
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *r = b + 12 + 16 * i;
		if (memcmp(r, tag, 4) == 0)
			return (long)((uint32_t)r[8] << 24 | (uint32_t)r[9] << 16 | (uint32_t)r[10] << 8 | r[11]);
	}
	return -1;
}

static void write_chain(const char *chain, const char *file, const char *extra)
{
	FILE *f = fopen(chain, "w");
	fprintf(f, "name: bad\nfaces:\n  - file: %s\n%s", file, extra ? extra : "");
	fclose(f);
}

/* The chain naming font file must fail with exit 3 and name the file,
 * with want in the message. */
static void corrupt_case(const char *file, const char *want, const char *extra)
{
	char chain[512];
	snprintf(chain, sizeof(chain), "%s/bad.yaml", tmpdir);
	write_chain(chain, file, extra);
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, chain, &e);
	CHECK(c == NULL);
	EQ_INT(errs_code(&e), 3);
	if (e.n > 0) {
		CHECK(strstr(e.v[0].file, file) != NULL);
		if (!strstr(e.v[0].msg, want))
			fprintf(stderr, "  %s: message '%s' lacks '%s'\n", file, e.v[0].msg, want);
		CHECK(strstr(e.v[0].msg, want) != NULL);
	}
	font_lib_free(lib);
	errs_done(&e);
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

TEST(corrupt)
{
	size_t n;
	unsigned char *b = slurp(NOTO, &n);
	CHECK(b != NULL);
	if (!b)
		return;
	char p[512];
	unsigned char *w = malloc(n);

	snprintf(p, sizeof(p), "%s/truncated.ttf", tmpdir);
	spit(p, b, 10000);
	corrupt_case(p, "corrupt font", NULL);

	snprintf(p, sizeof(p), "%s/empty.ttf", tmpdir);
	spit(p, b, 0);
	corrupt_case(p, "corrupt font", NULL);

	snprintf(p, sizeof(p), "%s/random.ttf", tmpdir);
	srand(7);
	for (size_t i = 0; i < 4096; i++)
		w[i] = (unsigned char)(rand() >> 7);
	spit(p, w, 4096);
	corrupt_case(p, "not a TrueType font", NULL);

	memcpy(w, b, n);
	put16(w + table_off(b, "hhea") + 34, 0xffff);
	snprintf(p, sizeof(p), "%s/nummetrics.ttf", tmpdir);
	spit(p, w, n);
	corrupt_case(p, "numberOfHMetrics", NULL);

	memcpy(w, b, n);
	put16(w + table_off(b, "hhea") + 34, 0);
	snprintf(p, sizeof(p), "%s/nummetrics0.ttf", tmpdir);
	spit(p, w, n);
	corrupt_case(p, "numberOfHMetrics", NULL);

	memcpy(w, b, n);
	put16(w + table_off(b, "head") + 18, 0);
	snprintf(p, sizeof(p), "%s/upem0.ttf", tmpdir);
	spit(p, w, n);
	corrupt_case(p, "unitsPerEm", NULL);

	memcpy(w, b, n);
	{ /* hmtx length 0x7fffffff */
		unsigned nt = (unsigned)b[4] << 8 | b[5];
		for (unsigned i = 0; i < nt; i++)
			if (memcmp(w + 12 + 16 * i, "hmtx", 4) == 0)
				memcpy(w + 12 + 16 * i + 12, "\x7f\xff\xff\xff", 4);
	}
	snprintf(p, sizeof(p), "%s/hmtxlen.ttf", tmpdir);
	spit(p, w, n);
	corrupt_case(p, "past the end", NULL);

	memcpy(w, b, n);
	memcpy(w + 12 + 16 * 0, "zzzz", 0); /* no-op; then rename glyf -> glyx */
	{
		unsigned nt = (unsigned)b[4] << 8 | b[5];
		for (unsigned i = 0; i < nt; i++)
			if (memcmp(w + 12 + 16 * i, "glyf", 4) == 0)
				memcpy(w + 12 + 16 * i, "glyx", 4);
	}
	snprintf(p, sizeof(p), "%s/noglyf.ttf", tmpdir);
	spit(p, w, n);
	corrupt_case(p, "not an outline font", NULL);

	/* a CFF font (name-keyed, URW's C059) is no longer refused */
	const char *cff = t_fc_file("C059:style=Roman:fontformat=CFF");
	if (access(cff, R_OK) == 0) {
		char chain[512];
		snprintf(chain, sizeof(chain), "%s/cff.yaml", tmpdir);
		write_chain(chain, cff, NULL);
		errs_t ce;
		font_lib_t *clib = lib_open(&ce);
		font_chain_t *cc = font_chain_get(clib, chain, &ce);
		CHECK(cc != NULL);
		CHECK(cc && font_face_for(cc, FONT_REGULAR, "en", 'A') >= 0);
		EQ_INT(ce.n, 0);
		font_lib_free(clib);
		errs_done(&ce);
	} else {
		fprintf(stderr, "  (no CFF font installed: CFF case skipped)\n");
	}

	snprintf(p, sizeof(p), "%s/missing.ttf", tmpdir);
	corrupt_case(p, "cannot open", NULL);
	corrupt_case(NOTO, "not a collection", "    index: 1\n");
	corrupt_case(MICROHEI, "out of range", "    index: 5\n");
	free(w);
	free(b);
}

/* ASCII picks come from a table of their own once asked: the same face
 * every time, for every style and language; the Latin face draws the
 * letters, and a control character no face has gives -1. */
TEST(ascii_picks)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	CHECK(c != NULL);
	static const char *langs[] = { NULL, "en", "zh", "ja", "ko", "zh-Hant" };
	static const int styles[] = { FONT_REGULAR, FONT_BOLD, FONT_ITALIC, FONT_BOLD_ITALIC,
	                              FONT_LIGHT, FONT_LIGHT_ITALIC };
	int diff = 0;
	for (int l = 0; c && l < 6; l++)
		for (int st = 0; st < 6; st++)
			for (uint32_t cp = 0; cp < 0x80; cp++) {
				int a = font_face_for(c, styles[st], langs[l], cp);
				int b = font_face_for(c, styles[st], langs[l], cp);
				diff += a != b;
				if (cp == 'A' || cp == 'z' || cp == '0')
					diff += a < 0 || a != font_face_for(c, styles[st], "en", 'a');
				if (cp == 0x01)
					diff += a != -1;
			}
	EQ_INT(diff, 0);
	font_lib_free(lib);
	errs_done(&e);
}

/* ---- the sfnt face reader against FreeType ---- */

/* 1 when sfnt_face_read/_name give for face idx of p[0..n) what FreeType
 * gives (names, units per em, ascender, descender, scalable, OS/2);
 * else prints what differs, naming what. Faces FreeType refuses are
 * skipped (*skipped counts them). */
static int face_like_ft(FT_Library ft, const unsigned char *p, size_t n, int idx,
                        const char *what, int *skipped)
{
	FT_Face f;
	if (FT_New_Memory_Face(ft, p, (FT_Long)n, idx, &f) != 0) {
		(*skipped)++;
		return 1;
	}
	sfnt_face_t s;
	int ok = sfnt_face_read(p, n, idx, &s) == 0;
	char *nm[3] = { NULL, NULL, NULL };
	const char *fn[3] = { f->family_name, f->style_name, FT_Get_Postscript_Name(f) };
	static const char *const field[3] = { "family", "style", "psname" };
	for (int k = 0; ok && k < 3; k++) {
		nm[k] = sfnt_face_name(&s, k);
		if ((!nm[k]) != (!fn[k]) || (nm[k] && strcmp(nm[k], fn[k]) != 0)) {
			fprintf(stderr, "  %s: %s '%s', FreeType '%s'\n", what, field[k],
			        nm[k] ? nm[k] : "(null)", fn[k] ? fn[k] : "(null)");
			ok = 0;
		}
	}
	TT_OS2 *os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2);
	int scalable = FT_IS_SFNT(f) && FT_IS_SCALABLE(f);
	/* stricter than FreeType: bitmap tables with no strikes it can use */
	if (s.bitmaps && !FT_HAS_FIXED_SIZES(f))
		scalable = 0;
	if (ok && (s.outline != scalable || (scalable && (s.upem != f->units_per_EM ||
	           s.asc != f->ascender || s.desc != f->descender)))) {
		fprintf(stderr, "  %s: outline %d upem %u asc %d desc %d, FreeType %d %u %d %d\n",
		        what, s.outline, s.upem, s.asc, s.desc, scalable, f->units_per_EM,
		        f->ascender, f->descender);
		ok = 0;
	}
	if (ok && (s.os2 != (os2 != NULL) ||
	           (os2 && (s.os2_version != os2->version || s.typo_asc != os2->sTypoAscender ||
	                    s.typo_desc != os2->sTypoDescender ||
	                    s.cap != (os2->version >= 2 ? os2->sCapHeight : 0))))) {
		fprintf(stderr, "  %s: OS/2 %d version %u typo %d %d cap %d, FreeType %s\n", what,
		        s.os2, s.os2_version, s.typo_asc, s.typo_desc, s.cap, os2 ? "has one" : "none");
		ok = 0;
	}
	if (!ok && !nm[0] && !s.p)
		fprintf(stderr, "  %s: sfnt_face_read failed\n", what);
	for (int k = 0; k < 3; k++)
		free(nm[k]);
	FT_Done_Face(f);
	return ok;
}

typedef struct walk_st {
	FT_Library ft;
	int faces, bad, skipped;
} walk_st_t;

static walk_st_t walk;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *w)
{
	(void)w;
	size_t l = strlen(path);
	if (type != FTW_F || l < 4 || (strcasecmp(path + l - 4, ".ttf") && strcasecmp(path + l - 4, ".otf") &&
	                               strcasecmp(path + l - 4, ".ttc")))
		return 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || st->st_size < 12) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	size_t n = (size_t)st->st_size;
	const unsigned char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	int nfaces = memcmp(p, "ttcf", 4) ? 1 : (int)((unsigned)p[10] << 8 | p[11]);
	for (int i = 0; i < nfaces && i < 64; i++) {
		char why[256], what[600];
		if (sfnt_check(p, n, i, why, sizeof(why)) != 0)
			continue; /* vita refuses it before loading */
		snprintf(what, sizeof(what), "%s index %d", path, i);
		walk.faces++;
		walk.bad += !face_like_ft(walk.ft, p, n, i, what, &walk.skipped);
	}
	munmap((void *)p, n);
	return 0;
}

/* A name record for name_table: s is UTF-8, written as UTF-16BE (platform
 * 0, 2, 3) or as bytes (platform 1); off overrides the string offset. */
typedef struct nrec {
	unsigned plat, enc, lang, id;
	const char *s;
	int off;
} nrec_t;

/* A 'name' table of format fmt with records r[0..nr) (and for format 1,
 * ntags language tags) into out; its length. */
static size_t name_table(unsigned char *out, unsigned fmt, const nrec_t *r, int nr, int ntags)
{
	size_t hdr = 6 + 12 * (size_t)nr + (fmt == 1 ? 2 + 4 * (size_t)ntags : 0), k = 0;
	unsigned char *str = out + hdr;
	put16(out, fmt);
	put16(out + 2, (unsigned)nr);
	put16(out + 4, (unsigned)hdr);
	for (int i = 0; i < nr; i++) {
		unsigned char *e = out + 6 + 12 * i;
		size_t at = k;
		for (const char *c = r[i].s; *c;) {
			uint32_t cp;
			int l = utf8_decode(c, strlen(c), &cp);
			c += l > 0 ? l : 1;
			if (r[i].plat == 1) {
				str[k++] = (unsigned char)cp;
			} else {
				put16(str + k, cp);
				k += 2;
			}
		}
		put16(e, r[i].plat);
		put16(e + 2, r[i].enc);
		put16(e + 4, r[i].lang);
		put16(e + 6, r[i].id);
		put16(e + 8, (unsigned)(k - at));
		put16(e + 10, r[i].off ? (unsigned)r[i].off : (unsigned)at);
	}
	if (fmt == 1) {
		unsigned char *t = out + 6 + 12 * nr;
		put16(t, (unsigned)ntags);
		for (int i = 0; i < ntags; i++) {
			put16(t + 2 + 4 * i, i == 1 ? 0 : 4); /* tag 1 is empty: invalid */
			put16(t + 4 + 4 * i, (unsigned)k);
		}
		memcpy(str + k, "\0e\0n", 4);
		k += 4;
	}
	return hdr + k;
}

/* A copy of the font b[0..n) whose table tag is t[0..tl) (appended; the
 * directory entry points at it), with len declared (0: tl); *outn. */
static unsigned char *with_table(const unsigned char *b, size_t n, const char *tag,
                                 const unsigned char *t, size_t tl, size_t len, size_t *outn)
{
	size_t at = (n + 3) & ~(size_t)3;
	unsigned char *o = calloc(1, at + tl);
	memcpy(o, b, n);
	memcpy(o + at, t, tl);
	unsigned nt = (unsigned)b[4] << 8 | b[5];
	for (unsigned i = 0; i < nt; i++) {
		unsigned char *r = o + 12 + 16 * i;
		if (memcmp(r, tag, 4) == 0) {
			put16(r + 8, (unsigned)(at >> 16));
			put16(r + 10, (unsigned)at);
			put16(r + 12, (unsigned)((len ? len : tl) >> 16));
			put16(r + 14, (unsigned)(len ? len : tl));
		}
	}
	*outn = at + tl;
	return o;
}

TEST(face_reader)
{
	walk_st_t *w = &walk;
	memset(w, 0, sizeof(*w));
	CHECK(FT_Init_FreeType(&w->ft) == 0);
	/* every installed face vita would load (the chains' Noto faces among them) */
	nftw("/usr/share/fonts", walk_one, 16, FTW_PHYS);
	fprintf(stderr, "  face_reader: %d installed faces, %d differ from FreeType, %d refused by it\n",
	        w->faces, w->bad, w->skipped);
	CHECK(w->faces > 10);
	EQ_INT(w->bad, 0);

	/* the rules on variants of Noto Serif: name records of every platform,
	   language and kind, bad records, OS/2 bits and fallbacks */
	size_t n, vn;
	unsigned char *b = slurp(NOTO, &n), *v, t[4096];
	CHECK(b != NULL);
	if (!b) {
		FT_Done_FreeType(w->ft);
		return;
	}
	static const nrec_t sets[][8] = {
		{ { 1, 0, 0, 1, "Mac Fam", 0 }, { 1, 0, 0, 2, "Mac Sty", 0 }, { 1, 0, 0, 6, "Mac-PS", 0 } },
		{ { 3, 1, 0x411, 1, "Win JP", 0 }, { 1, 0, 0, 1, "Mac En", 0 }, { 3, 1, 0x411, 6, "W-PS", 0 } },
		{ { 3, 1, 0x411, 1, "Win JP", 0 }, { 3, 1, 0x809, 1, "Win GB", 0 }, { 3, 1, 0x409, 1, "Win US", 0 },
		  { 3, 1, 0x40c, 1, "Win FR", 0 }, { 3, 10, 0x409, 2, "Wide", 0 } },
		{ { 3, 2, 0x409, 1, "Win enc 2", 0 }, { 3, 0, 0x411, 1, "Win sym", 0 }, { 0, 3, 0, 2, "Uni", 0 },
		  { 2, 1, 0, 2, "ISO", 0 }, { 1, 5, 7, 1, "Mac other", 0 } },
		{ { 1, 5, 7, 1, "Mac other", 0 }, { 1, 0, 3, 1, "Mac Roman", 0 }, { 3, 1, 0x409, 6, "Has Space", 0 },
		  { 1, 0, 0, 6, "Mac-OK", 0 } },
		{ { 3, 1, 0x409, 1, "Caf\xc3\xa9 \x01\x7f", 0 }, { 1, 0, 0, 2, "Caf\xc3\xa9", 0 },
		  { 3, 1, 0x409, 6, "Ps\xc3\xa9", 0 }, { 1, 0, 0, 6, "P(s)", 0 } },
		{ { 3, 1, 0x409, 1, "Fam", 0 }, { 3, 1, 0x409, 16, "Typo", 0 }, { 3, 1, 0x409, 21, "WWS", 0 },
		  { 3, 1, 0x409, 2, "Sty", 0 }, { 3, 1, 0x409, 17, "TypoSty", 0 }, { 3, 1, 0x409, 22, "WWSSty", 0 } },
		{ { 3, 1, 0x409, 1, "Bad offset", 0x7000 }, { 3, 1, 0x409, 2, "", 0 }, { 3, 1, 0x409, 6, "A#b", 0 },
		  { 3, 1, 0x409, 6, "Second-US", 0 }, { 3, 0, 0x411, 6, "JP", 0 } },
		{ { 3, 1, 0x8000, 1, "Tag 0", 0 }, { 3, 1, 0x8001, 2, "Tag 1 empty", 0 },
		  { 3, 1, 0x8005, 6, "Tag5", 0 }, { 3, 1, 0x409, 2, "Plain", 0 } },
	};
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		int nr = 0;
		while (nr < 8 && sets[i][nr].s)
			nr++;
		for (int wws = 0; wws < 2; wws++) {
			size_t tl = name_table(t, i == 8 ? 1 : 0, sets[i], nr, 3);
			v = with_table(b, n, "name", t, tl, 0, &vn);
			long os2 = table_off(v, "OS/2");
			put16(v + os2 + 62, wws ? 0x100 : 0x40);
			char what[64];
			snprintf(what, sizeof(what), "name set %zu, wws %d", i, wws);
			CHECK(face_like_ft(w->ft, v, vn, 0, what, &w->skipped));
			free(v);
		}
	}
	/* no records at all; records past the table's end */
	put16(t, 0), put16(t + 2, 0), put16(t + 4, 6);
	v = with_table(b, n, "name", t, 6, 0, &vn);
	CHECK(face_like_ft(w->ft, v, vn, 0, "empty name table", &w->skipped));
	free(v);
	size_t tl = name_table(t, 0, sets[0], 3, 0);
	v = with_table(b, n, "name", t, tl, 20, &vn);
	CHECK(face_like_ft(w->ft, v, vn, 0, "name table cut short", &w->skipped));
	free(v);

	/* vertical metrics: USE_TYPO_METRICS; hhea zero -> typo; typo zero -> win */
	long os2 = table_off(b, "OS/2"), hhea = table_off(b, "hhea");
	for (int k = 0; k < 5; k++) {
		v = malloc(n);
		memcpy(v, b, n);
		if (k == 0)
			put16(v + os2 + 62, 0x80);
		if (k >= 1) {
			put16(v + hhea + 4, 0);
			put16(v + hhea + 6, 0);
		}
		if (k >= 2) {
			put16(v + os2 + 68, 0);
			put16(v + os2 + 70, 0);
		}
		if (k == 3)
			put16(v + os2 + 76, 0x9000); /* a win descent past int16 */
		if (k == 4)
			put16(v + os2, 0xffff);        /* version 0xffff: no OS/2 */
		char what[64];
		snprintf(what, sizeof(what), "metrics case %d", k);
		CHECK(face_like_ft(w->ft, v, n, 0, what, &w->skipped));
		free(v);
	}
	/* OS/2 versions 0..5, a table whose fields run past the file's end, an
	   empty one; colour bitmaps (not scalable) */
	unsigned char o2[100];
	memcpy(o2, b + os2, 96);
	memset(o2 + 96, 0, 4);
	for (unsigned ver = 0; ver <= 5; ver++) {
		put16(o2, ver);
		for (int cut = 0; cut < 2; cut++) {
			size_t ol = cut ? 90 : 100;
			v = with_table(b, n, "OS/2", o2, ol, 0, &vn);
			char what[64];
			snprintf(what, sizeof(what), "OS/2 version %u, %zu bytes", ver, ol);
			CHECK(face_like_ft(w->ft, v, vn, 0, what, &w->skipped));
			free(v);
		}
	}
	v = with_table(b, n, "OS/2", o2, 0, 0, &vn);
	CHECK(face_like_ft(w->ft, v, vn, 0, "empty OS/2", &w->skipped));
	free(v);
	v = malloc(n);
	memcpy(v, b, n);
	memcpy(v + 12 + 16 * 0, "CBDT", 4); /* the first table (DSIG) */
	CHECK(memcmp(b + 12, "DSIG", 4) == 0);
	CHECK(face_like_ft(w->ft, v, n, 0, "a CBDT table", &w->skipped));
	sfnt_face_t sf;
	CHECK(sfnt_face_read(v, n, 0, &sf) == 0 && !sf.outline);
	free(v);
	free(b);
	FT_Done_FreeType(w->ft);
}

/* Errors in the chain file itself: located, with the right exit code. */
static void chain_case(const char *text, int code, int line, const char *want)
{
	char chain[512];
	snprintf(chain, sizeof(chain), "%s/c.yaml", tmpdir);
	FILE *f = fopen(chain, "w");
	fputs(text, f);
	fclose(f);
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	CHECK(font_chain_get(lib, chain, &e) == NULL);
	EQ_INT(errs_code(&e), code);
	CHECK(e.n >= 1);
	if (e.n >= 1) {
		EQ_STR(e.v[0].file, chain);
		EQ_INT(e.v[0].line, line);
		if (e.v[0].line != line)
			fprintf(stderr, "  (%s)\n", e.v[0].msg);
		if (!strstr(e.v[0].msg, want))
			fprintf(stderr, "  message '%s' lacks '%s'\n", e.v[0].msg, want);
		CHECK(strstr(e.v[0].msg, want) != NULL);
	}
	font_lib_free(lib);
	errs_done(&e);
}

/* The end of CFF INDEX at b[at..n): its item count, the offset of item
 * i's bytes into *item (i < count). */
static unsigned cff_index_item(const unsigned char *b, size_t at, unsigned i, size_t *item,
                               size_t *end)
{
	unsigned count = (unsigned)b[at] << 8 | b[at + 1], osz = b[at + 2];
	size_t offs = at + 3, data = offs + (count + 1) * osz - 1;
	uint32_t o[2] = {0, 0};
	for (int k = 0; k < 2; k++)
		for (unsigned j = 0; j < osz; j++)
			o[k] = o[k] << 8 | b[offs + (size_t)(k ? count : i) * osz + j];
	*item = data + o[0];
	*end = data + o[1];
	return count;
}

/* A CFF face whose charstrings cannot all be flattened (C059 with one
 * glyph made a seac accent, "0 0 65 66 endchar") is still cut, every
 * charstring kept as it is with its subroutines and hints: the other
 * glyphs draw as the font's, in the subset and in the PDF's program. */
TEST(subset_cff_raw)
{
	const char *path = t_fc_file("C059:style=Roman:fontformat=CFF");
	size_t n = 0;
	unsigned char *b = access(path, R_OK) == 0 ? slurp(path, &n) : NULL;
	if (!b) {
		fprintf(stderr, "  (no CFF font installed: raw CFF case skipped)\n");
		return;
	}
	FT_Library ft;
	FT_Face orig = NULL, sub = NULL, prog = NULL;
	FT_Init_FreeType(&ft);
	CHECK(FT_New_Face(ft, path, 0, &orig) == 0);
	unsigned gz = FT_Get_Char_Index(orig, 'z');
	long cff = table_off(b, "CFF ");
	CHECK(cff > 0 && gz > 0);
	/* Name INDEX, Top DICT INDEX; CharStrings (17) is the Top DICT's */
	size_t item, end, at = (size_t)cff + b[cff + 2];
	cff_index_item(b, at, 0, &item, &end);
	cff_index_item(b, end, 0, &item, &end);
	long v = -1, cs = -1;
	for (size_t i = item; i < end;) {
		unsigned c = b[i];
		if (c == 29) {
			v = (long)((uint32_t)b[i + 1] << 24 | (uint32_t)b[i + 2] << 16 | b[i + 3] << 8 | b[i + 4]);
			i += 5;
		} else if (c == 28) {
			v = (int16_t)(b[i + 1] << 8 | b[i + 2]);
			i += 3;
		} else if (c >= 32 && c <= 246) {
			v = (long)c - 139;
			i++;
		} else if (c >= 247 && c <= 254) {
			long m = (long)((c - 247) & 3) * 256 + b[i + 1] + 108;
			v = c <= 250 ? m : -m;
			i += 2;
		} else if (c == 30) {
			while (i < end && (b[i] & 0xf) != 0xf && (b[i] >> 4) != 0xf)
				i++;
			i++;
		} else {
			if (c == 17)
				cs = v;
			i += c == 12 ? 2 : 1;
		}
	}
	CHECK(cs > 0);
	if (cs > 0) {
		cff_index_item(b, (size_t)cff + (size_t)cs, gz, &item, &end);
		CHECK(end - item >= 5);
		static const unsigned char seac[5] = {139, 139, 204, 205, 14};
		memcpy(b + item, seac, 5);
	}
	char file[512], chain[512];
	snprintf(file, sizeof(file), "%s/seac.otf", tmpdir);
	snprintf(chain, sizeof(chain), "%s/seac.yaml", tmpdir);
	spit(file, b, n);
	write_chain(chain, file, NULL);
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, chain, &e);
	int face = c ? font_face_for(c, FONT_REGULAR, "en", 'a') : -1;
	uint32_t cps[] = { 'a', 'b', 'e', 'z', 0xe9 };
	arena_t *a = arena_new();
	const unsigned char *data = NULL;
	size_t len = 0;
	CHECK(face >= 0 && font_subset(lib, face, cps, 5, a, &data, &len, &e) == 0);
	CHECK(data && sfnt_sums_ok(data, len));
	CHECK(data && FT_New_Memory_Face(ft, data, (FT_Long)len, 0, &sub) == 0);
	char why[300] = "";
	sfnt_t *sf = data ? sfnt_open(data, len, why, sizeof(why)) : NULL;
	CHECK(sf != NULL);
	if (sub && sf) {
		uint8_t keep[8] = {1, 1, 1, 1, 1, 1, 1, 1};
		const unsigned char *pp;
		size_t pn;
		CHECK(sfnt_nglyphs(sf) <= 8);
		sfnt_program(sf, keep, &pp, &pn);
		CHECK(FT_New_Memory_Face(ft, pp, (FT_Long)pn, 0, &prog) == 0);
		for (int k = 0; k < 5 && prog; k++) {
			if (cps[k] == 'z')
				continue;
			unsigned go = FT_Get_Char_Index(orig, cps[k]), gs = FT_Get_Char_Index(sub, cps[k]);
			CHECK(go != 0 && gs != 0);
			if (!same_outline(orig, go, sub, gs) || !same_outline(orig, go, prog, gs)) {
				fprintf(stderr, "  U+%04X draws differently in the raw CFF subset\n", cps[k]);
				CHECK(0);
			}
		}
	}
	if (prog)
		FT_Done_Face(prog);
	if (sub)
		FT_Done_Face(sub);
	sfnt_free(sf);
	FT_Done_Face(orig);
	FT_Done_FreeType(ft);
	arena_free(a);
	EQ_INT(e.n, 0);
	errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
	free(b);
}

TEST(chain_errors)
{
	chain_case("name: x\nfaces:\n  - family: Noto Serif\n    colour: red\n", 1, 4, "unknown key 'colour'");
	chain_case("name: x\nfaces:\n  - lang: [zh]\n", 1, 3, "needs family");
	chain_case("name: x\nfonts: []\n", 1, 2, "unknown key 'fonts'");
	chain_case("name: x\n", 1, 1, "needs faces");
	/* a missing first face is an error; a later one only when text needs it */
	chain_case("name: x\nfaces:\n  - family: No Such Family 42\n    package: fonts-x\n"
	           "  - family: Noto Serif\n", 3, 3,
	           "'No Such Family 42' is not installed (Debian package fonts-x)");
	chain_case("name: x\nfaces:\n  - family: Noto Serif CJK SC\n    lang: [fr]\n", 1, 4, "lang must be");
	chain_case("name: x\nfaces:\n  - family: Noto Serif CJK TC\n    lang: [zh-TW]\n", 1, 4,
	           "lang must be zh (or zh-Hans), zh-Hant, ja or ko");
	chain_case("name: x\nfaces:\n  - family: [a\n", 1, 4, "malformed YAML");
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	CHECK(font_chain_get(lib, "nosuchchain", &e) == NULL);
	EQ_INT(errs_code(&e), 1);
	CHECK(e.n == 1 && strstr(e.v[0].msg, "unknown font chain 'nosuchchain'"));
	font_lib_free(lib);
	errs_done(&e);
}

/* An explicit file chain with a .ttc index and lang tags. */
TEST(file_chain)
{
	char chain[512];
	snprintf(chain, sizeof(chain), "%s/f.yaml", tmpdir);
	FILE *f = fopen(chain, "w");
	fprintf(f, "name: files\nfaces:\n  - file: %s\n    family: Noto\n"
	        "  - file: %s\n    index: 1\n    lang: zh\n", NOTO, MICROHEI);
	fclose(f);
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, chain, &e);
	CHECK(c != NULL);
	if (c) {
		int id = font_face_for(c, FONT_BOLD, "zh", 0x6731);
		CHECK(id >= 0);
		EQ_INT(font_face_info(lib, id)->index, 1);
		EQ_INT(font_face_synth(c, FONT_BOLD, id), FONT_SYNTH_BOLD);
		EQ_INT(font_face_synth(c, FONT_ITALIC, font_face_for(c, FONT_ITALIC, NULL, 'a')),
		       FONT_SYNTH_ITALIC);
		CHECK(font_chain_get(lib, chain, &e) == c);
	}
	errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
}

/* font_lib_drop_faces (what a fresh render does once the layout is done,
 * and again after the subsets): the faces give back their files' pages,
 * tables and HarfBuzz objects, and subsets cut afterwards, from the files
 * read again, are byte for byte those cut before; twice is no harm, and
 * the library still frees cleanly (the sanitizer build checks). The faces
 * of one collection (CJK SC and JP) share their file. */
static int drop_subsets(int drop, unsigned char **out, size_t *outlen)
{
	static const char *text[3] = {"Zhanda Zhu, Müller (2024)", "朱展达 多伦多大学", "東京大学 ひらがな"};
	static const char *lang[3] = {"en", "zh", "ja"};
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	int faces[3], ok = c != NULL;
	for (int i = 0; ok && i < 3; i++) {
		font_shaped_t s;
		font_shaped_init(&s);
		ok &= font_shape(c, FONT_REGULAR, 10000, lang[i], text[i], strlen(text[i]), &s, &e) == 0;
		faces[i] = s.n ? s.g[s.n - 1].face : -1;
		ok &= faces[i] >= 0;
		font_shaped_done(&s);
	}
	if (ok && drop)
		font_lib_drop_faces(lib);
	arena_t *a = arena_new();
	for (int i = 0; ok && i < 3; i++) {
		uint32_t cps[64];
		int n = 0;
		for (size_t k = 0; text[i][k];) {
			uint32_t cp;
			k += (size_t)utf8_decode(text[i] + k, strlen(text[i]) - k, &cp);
			int dup = cp == ' ';
			for (int j = 0; j < n; j++)
				dup |= cps[j] == cp;
			if (!dup)
				cps[n++] = cp;
		}
		const unsigned char *sub;
		size_t len;
		ok &= font_subset(lib, faces[i], cps, n, a, &sub, &len, &e) == 0;
		if (ok) {
			out[i] = malloc(len);
			memcpy(out[i], sub, len);
			outlen[i] = len;
		}
		if (ok && drop > 1)
			font_lib_drop_faces(lib);
	}
	arena_free(a);
	font_lib_free(lib);
	errs_done(&e);
	return ok;
}

TEST(drop)
{
	unsigned char *want[3] = {0}, *got[3] = {0};
	size_t wn[3], gn[3];
	CHECK(drop_subsets(0, want, wn));
	for (int d = 1; d <= 2; d++) {
		CHECK(drop_subsets(d, got, gn));
		for (int i = 0; i < 3; i++) {
			CHECK(got[i] && want[i] && gn[i] == wn[i] && !memcmp(got[i], want[i], wn[i]));
			free(got[i]);
			got[i] = NULL;
		}
	}
	for (int i = 0; i < 3; i++)
		free(want[i]);
}

/* A face HarfBuzz shaped with (a plan made: its lookups' accelerators
 * built) is unloaded by font_lib_drop_faces all the same, but keeps its
 * HarfBuzz face (f->hbleft) for font_face_free, which a fresh render
 * leaves to exit: the frees were 0.2 M instructions per Devanagari face.
 * Twice is no harm; font_lib_free destroys it (the sanitizer build checks
 * that nothing leaks). A face whose file HarfBuzz read mapped (here: the
 * bold face's glyf asked for) keeps nothing: the mapping would stay. */
TEST(drop_keeps_hbface)
{
	static const char *deva = "\u092A\u094D\u0930\u094C\u0926\u094D\u092F\u094B\u0917\u093F\u0915\u0940";
	static const int style[2] = {FONT_REGULAR, FONT_BOLD};
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	font_face_t *f[2] = {NULL, NULL};
	hb_face_t *hf[2] = {NULL, NULL};
	CHECK(c != NULL);
	for (int i = 0; c && i < 2; i++) {
		font_shaped_t s;
		font_shaped_init(&s);
		CHECK(font_shape(c, style[i], 10000, "hi", deva, strlen(deva), &s, &e) == 0);
		int id = s.n ? s.g[0].face : -1;
		font_shaped_done(&s);
		CHECK(id >= 0 && id < lib->nused);
		if (id < 0 || id >= lib->nused)
			continue;
		f[i] = lib->used[id];
		hf[i] = f[i]->hbface;
		CHECK(hf[i] != NULL && f[i]->nplans > 0 && !f[i]->mapped && !f[i]->hbleft);
	}
	if (f[0] && f[1] && f[0] != f[1]) {
		hb_blob_destroy(hb_face_reference_table(hf[1], HB_TAG('g', 'l', 'y', 'f')));
		CHECK(f[1]->mapped != NULL);
		for (int d = 0; d < 2; d++) {
			font_lib_drop_faces(lib);
			CHECK(!f[0]->hbface && !f[0]->hbfont && !f[0]->nplans && f[0]->hbleft == hf[0]);
			CHECK(!f[1]->hbface && !f[1]->hbfont && !f[1]->hbleft && !f[1]->mapped);
		}
	} else {
		CHECK(!"two Devanagari faces");
	}
	errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
}

/* Noto Serif Tibetan's GSUB and GPOS cut to the closure of the text the
 * library was told (font_lib_expect; font_prune.c) shape as the face's
 * own: the same glyphs, advances and clusters for the text told, for a
 * text whose glyphs it does not reach (the face goes back to its own
 * tables: cut -1) and for the first text again. */
static int tib_shape_in(font_lib_t *lib, int style, const char *s, font_shaped_t *out,
                        font_face_t **f)
{
	errs_t e;
	errs_init(&e);
	font_chain_t *c = font_chain_get(lib, "serif", &e);
	font_shaped_init(out);
	int r = c ? font_shape(c, style, 10000, "bo", s, strlen(s), out, &e) : -1;
	if (f)
		*f = r == 0 && out->n && out->g[0].face >= 0 ? lib->used[out->g[0].face] : NULL;
	errs_print(stderr, &e);
	errs_done(&e);
	return r;
}

static int tib_shape(font_lib_t *lib, const char *s, font_shaped_t *out, font_face_t **f)
{
	return tib_shape_in(lib, FONT_REGULAR, s, out, f);
}

static int same_shaped(const font_shaped_t *a, const font_shaped_t *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->g[i].cp != b->g[i].cp || a->g[i].off != b->g[i].off || a->g[i].adv != b->g[i].adv ||
		    a->g[i].gid != b->g[i].gid || a->g[i].cl != b->g[i].cl || a->g[i].face != b->g[i].face)
			return 0;
	return 1;
}

TEST(cut_tables)
{
	static const char *told = "\u0F56\u0F66\u0F9F\u0F53\u0F0B\u0F60\u0F5B\u0F72\u0F53\u0F0B"
	                          "\u0F66\u0F92\u0FB2\u0F7C\u0F63\u0F0B\u0F58\u0F0D";
	static const char *other = "\u0F00\u0F0B\u0F40\u0FB5\u0F0B\u0F21\u0F22\u0F23";
	errs_t e;
	font_lib_t *full = lib_open(&e), *cut = lib_open(&e);
	font_lib_expect(cut, told, strlen(told));
	font_shaped_t a, b;
	font_face_t *fa = NULL, *fb = NULL;
	CHECK(tib_shape(full, told, &a, &fa) == 0 && tib_shape(cut, told, &b, &fb) == 0);
	CHECK(fa && fb && fa->cut == -1 && fb->cut == 1);
	CHECK(a.n > 0 && same_shaped(&a, &b));
	font_shaped_done(&a);
	font_shaped_done(&b);
	/* the bold face: the same GSUB and seed, so the regular's closure
	   (face_cut's memo) and its own GPOS cut */
	font_face_t *ga = NULL, *gb = NULL;
	CHECK(tib_shape_in(full, FONT_BOLD, told, &a, &ga) == 0 &&
	      tib_shape_in(cut, FONT_BOLD, told, &b, &gb) == 0);
	CHECK(ga && gb && gb != fb && gb->cut == 1 && a.n > 0 && same_shaped(&a, &b));
	CHECK(cut->cutmemo.src != NULL);
	font_shaped_done(&a);
	font_shaped_done(&b);
	CHECK(tib_shape(full, other, &a, NULL) == 0 && tib_shape(cut, other, &b, NULL) == 0);
	CHECK(a.n > 0 && same_shaped(&a, &b));
	CHECK(fb && fb->cut == -1);     /* U+0F00's glyph: not in the closure */
	font_shaped_done(&a);
	font_shaped_done(&b);
	/* a word told, in a new item of the face now uncut */
	static const char *again = "\u0F66\u0F92\u0FB2\u0F7C\u0F63\u0F0B\u0F58";
	CHECK(tib_shape(full, again, &a, NULL) == 0 && tib_shape(cut, again, &b, NULL) == 0);
	CHECK(a.n > 0 && same_shaped(&a, &b));
	font_shaped_done(&a);
	font_shaped_done(&b);
	font_lib_free(full);
	font_lib_free(cut);
	errs_done(&e);
}

/* font_prune itself: the Tibetan face's GSUB for one syllable keeps a
 * fraction of its lookups, and its copy has the table's length and
 * every byte outside the lookups' subtable counts and offsets. */
TEST(prune_tables)
{
	errs_t e;
	font_lib_t *lib = lib_open(&e);
	font_shaped_t s;
	font_face_t *f = NULL;
	static const char *w = "\u0F56\u0F66\u0F9F\u0F53";
	CHECK(tib_shape(lib, w, &s, &f) == 0 && f);
	font_shaped_done(&s);
	if (f) {
		size_t n[2];
		const unsigned char *t[2];
		t[0] = sfnt_file_table(f->file, f->index, HB_TAG('G', 'S', 'U', 'B'), &n[0]);
		t[1] = sfnt_file_table(f->file, f->index, HB_TAG('G', 'P', 'O', 'S'), &n[1]);
		uint8_t *g = calloc(f->nglyphs / 8 + 1, 1);
		g[0] = 1;
		for (const char *p = w; *p;) {
			uint32_t cp;
			p += utf8_decode(p, strlen(p), &cp);
			hb_codepoint_t gid = 0;
			hb_font_get_nominal_glyph(f->hbfont, cp, &gid);
			g[gid >> 3] |= (uint8_t)(1u << (gid & 7));
		}
		unsigned char *q[2] = {NULL, NULL};
		unsigned st[8] = {0};
		CHECK(t[0] && t[1] && font_prune(t[0], n[0], t[1], n[1], g, f->nglyphs, &q[0], &q[1], st) == 0);
		CHECK(st[1] == 1164 && st[0] > 0 && st[0] < st[1] / 2 && st[2] < st[3]);
		CHECK(st[4] > 0 && st[4] <= st[5]);
		if (q[0]) {
			/* the header and the lookup list are the face's */
			unsigned ll = (unsigned)t[0][8] << 8 | t[0][9];
			CHECK(!memcmp(q[0], t[0], ll + 2 + 2 * 1164));
		}
		free(q[0]);
		free(q[1]);
		free(g);
	}
	font_lib_free(lib);
	errs_done(&e);
}

/* font_prune on tables a hostile font file could hold (a chain may name
 * any file): it refuses them (-1, nothing allocated) without reading or
 * writing outside them. A lookup that says it has a mark filtering set
 * but ends at the table's end; one Lookup table listed 20,000 times with
 * 20,000 subtables (400 M subtables to list from 80 K bytes). The first
 * wrote two bytes past the copy (ASan: heap-buffer-overflow); the second
 * allocated 4.8 GB and was cut; the third (ranges that overlap) was cut
 * after 0.5 s. */
TEST(prune_hostile)
{
	/* header, FeatureList (one feature: lookup 0), LookupList (one
	   lookup), the lookup: type 1, UseMarkFilteringSet, no subtables,
	   and no markFilteringSet field: the table ends */
	unsigned char t[34] = {0};
	put16(t, 1);
	put16(t + 6, 10);
	put16(t + 8, 24);
	put16(t + 10, 1);
	memcpy(t + 12, "liga", 4);
	put16(t + 16, 8);
	put16(t + 20, 1);
	put16(t + 24, 1);
	put16(t + 26, 4);
	put16(t + 28, 1);
	put16(t + 30, 0x10);
	uint8_t g[2] = {1, 0};
	unsigned char *q[2] = {NULL, NULL};
	CHECK(font_prune(t, sizeof(t), NULL, 0, g, 16, &q[0], &q[1], NULL) == -1);
	CHECK(q[0] == NULL && q[1] == NULL);
	/* the shared lookup: LookupList at 24, 20,000 offsets to one lookup
	   whose 20,000 subtable offsets are all null */
	enum { NL = 20000 };
	size_t n = 24 + 2 + 2 * NL + 6 + 2 * NL;
	unsigned char *u = calloc(n, 1);
	memcpy(u, t, 24);
	put16(u + 24, NL);
	for (unsigned k = 0; k < NL; k++)
		put16(u + 26 + 2 * k, 2 + 2 * NL);
	put16(u + 26 + 2 * NL, 1);
	put16(u + 26 + 2 * NL + 4, NL);
	CHECK(font_prune(u, n, NULL, 0, g, 16, &q[0], &q[1], NULL) == -1);
	CHECK(q[0] == NULL && q[1] == NULL);
	free(u);
	/* one lookup of 100 SingleSubsts sharing one coverage of 100
	   ranges, each 1..65535, and only .notdef in the closure: 650 M
	   glyphs to look at a pass (the closure went on for 0.5 s; 2,000 of
	   each, for hours), over the budget of a table of its length */
	enum { NS = 100, NR = 100 };
	uint32_t sub = 28 + 6 + 2 * NS;
	n = sub + 6 + 4 + 6 * NR;
	u = calloc(n, 1);
	memcpy(u, t, 28);
	put16(u + 30, 0);
	put16(u + 32, NS);
	for (unsigned k = 0; k < NS; k++)
		put16(u + 34 + 2 * k, sub - 28);
	put16(u + sub, 1);
	put16(u + sub + 2, 6);
	put16(u + sub + 6, 2);
	put16(u + sub + 8, NR);
	for (unsigned k = 0; k < NR; k++) {
		put16(u + sub + 10 + 6 * k, 1);
		put16(u + sub + 12 + 6 * k, 0xffff);
	}
	uint8_t *big = calloc(65536 / 8, 1);
	big[0] = 1;
	CHECK(font_prune(u, n, NULL, 0, big, 65535, &q[0], &q[1], NULL) == -1);
	CHECK(q[0] == NULL && q[1] == NULL);
	free(big);
	free(u);
}

/* A differential test of the cut tables: documents made of random
 * Tibetan syllables (stacks, vowels, marks in and out of place, tsheg
 * and shad, Tibetan and ASCII digits, Latin, punctuation, ZWJ/ZWNJ,
 * NBSP, the dotted circle) are told to a library; the Tibetan face it
 * cuts (f->cutface) and the face's own tables (f->hbface) shape pieces
 * of the document, mutated with its own characters, to the same glyphs,
 * clusters, flags and positions (hb_shape on each: a glyph HarfBuzz
 * asks for outside the closure would have sent font_shape.c back, and
 * must not happen for the document's characters). font_shape then gives
 * the same records in that library as in one never told, for the same
 * pieces and for pieces with characters the document does not have
 * (the face goes back to its own tables on the way). */
static uint64_t prune_rs = 0x9E3779B97F4A7C15ull;

static unsigned prune_rnd(unsigned n)
{
	prune_rs ^= prune_rs << 13;
	prune_rs ^= prune_rs >> 7;
	prune_rs ^= prune_rs << 17;
	return (unsigned)(prune_rs % n);
}

#define PRUNE_PICK(a) a[prune_rnd(sizeof(a) / sizeof(a[0]))]

static int prune_syl(uint32_t *o)
{
	static const uint32_t pre[] = {0xF42, 0xF51, 0xF56, 0xF58, 0xF60};
	static const uint32_t sup[] = {0xF62, 0xF63, 0xF66};
	static const uint32_t vow[] = {0xF71, 0xF72, 0xF73, 0xF74, 0xF75, 0xF7A, 0xF7B,
	                               0xF7C, 0xF7D, 0xF80, 0xF81};
	static const uint32_t mk[] = {0xF7E, 0xF7F, 0xF82, 0xF83, 0xF84, 0xF86, 0xF87, 0xF35,
	                              0xF37, 0xF39, 0xF18, 0xF19, 0xF3E, 0xF3F, 0xFC6};
	static const uint32_t pun[] = {0xF0B, 0xF0B, 0xF0B, 0xF0C, 0xF0D, 0xF0E, 0xF11, 0xF14,
	                               0xF08, 0xF04, 0xF05, 0xF3A, 0xF3B, 0x20, 0x20, 0x2C,
	                               0x2E, 0x28, 0x29, 0x2D, 0x3A, 0xA0, 0x200D, 0x200C,
	                               0x25CC, 0xF0B};
	int n = 0, r = (int)prune_rnd(20);
	if (r == 0) {
		for (int k = 1 + (int)prune_rnd(4); k > 0; k--)
			o[n++] = 0xF20 + prune_rnd(10);
		o[n++] = PRUNE_PICK(pun);
		return n;
	}
	if (r == 1) {
		for (int k = 1 + (int)prune_rnd(6); k > 0; k--)
			o[n++] = prune_rnd(2) ? 'a' + prune_rnd(26) : '0' + prune_rnd(10);
		o[n++] = PRUNE_PICK(pun);
		return n;
	}
	if (r == 2 || r == 3) {
		o[n++] = r == 2 ? 0xF00 + prune_rnd(0x20) : 0xFBE + prune_rnd(0x1D);
		return n;
	}
	if (prune_rnd(4) == 0)
		o[n++] = PRUNE_PICK(pre);
	if (prune_rnd(4) == 0)
		o[n++] = PRUNE_PICK(sup);
	o[n++] = 0xF40 + prune_rnd(0x2D);
	for (int k = prune_rnd(6) == 0 ? 1 + (int)prune_rnd(3) : prune_rnd(3) == 0; k > 0; k--)
		o[n++] = 0xF90 + prune_rnd(0x2D);
	if (prune_rnd(2))
		o[n++] = PRUNE_PICK(vow);
	if (prune_rnd(3) == 0)
		o[n++] = PRUNE_PICK(vow);
	if (prune_rnd(5) == 0)
		o[n++] = PRUNE_PICK(mk);
	if (prune_rnd(3) == 0)
		o[n++] = 0xF40 + prune_rnd(0x2D);
	if (prune_rnd(8) == 0)
		o[n++] = PRUNE_PICK(mk);
	o[n++] = PRUNE_PICK(pun);
	return n;
}

static int prune_put(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xC0 | c >> 6);
		o[1] = (char)(0x80 | (c & 63));
		return 2;
	}
	o[0] = (char)(0xE0 | c >> 12);
	o[1] = (char)(0x80 | (c >> 6 & 63));
	o[2] = (char)(0x80 | (c & 63));
	return 3;
}

static uint8_t *prune_cutg;
static unsigned prune_ng;
static int prune_miss;

static hb_bool_t prune_nominal(hb_font_t *font, void *d, hb_codepoint_t u, hb_codepoint_t *g,
                               void *x)
{
	(void)d;
	(void)x;
	hb_bool_t r = hb_font_get_nominal_glyph(hb_font_get_parent(font), u, g);
	if (r && !(*g < prune_ng && prune_cutg[*g >> 3] >> (*g & 7) & 1))
		prune_miss = 1;
	return r;
}

static int prune_same_hb(hb_buffer_t *a, hb_buffer_t *b)
{
	unsigned la, lb;
	hb_glyph_info_t *ia = hb_buffer_get_glyph_infos(a, &la), *ib = hb_buffer_get_glyph_infos(b, &lb);
	hb_glyph_position_t *pa = hb_buffer_get_glyph_positions(a, NULL);
	hb_glyph_position_t *pb = hb_buffer_get_glyph_positions(b, NULL);
	if (la != lb || la == 0)
		return 0;
	for (unsigned i = 0; i < la; i++)
		if (ia[i].codepoint != ib[i].codepoint || ia[i].cluster != ib[i].cluster ||
		    hb_glyph_info_get_glyph_flags(&ia[i]) != hb_glyph_info_get_glyph_flags(&ib[i]) ||
		    pa[i].x_advance != pb[i].x_advance || pa[i].y_advance != pb[i].y_advance ||
		    pa[i].x_offset != pb[i].x_offset || pa[i].y_offset != pb[i].y_offset)
			return 0;
	return 1;
}

TEST(cut_random)
{
	enum { DOCS = 12, PIECES = 150, MAXDOC = 1200 };
	errs_t e;
	font_lib_t *full = lib_open(&e);
	hb_font_funcs_t *ff = hb_font_funcs_create();
	hb_font_funcs_set_nominal_glyph_func(ff, prune_nominal, NULL, NULL);
	hb_buffer_t *a = hb_buffer_create(), *b = hb_buffer_create();
	long compared = 0, differ = 0, misses = 0, lib_differ = 0;
	for (int d = 0; d < DOCS; d++) {
		uint32_t doc[MAXDOC];
		int nd = 0;
		for (int k = 5 + (int)prune_rnd(150); k > 0 && nd < MAXDOC - 16; k--)
			nd += prune_syl(doc + nd);
		char text[4 * MAXDOC];
		int nt = 0;
		for (int i = 0; i < nd; i++)
			nt += prune_put(text + nt, doc[i]);
		font_lib_t *cut = lib_open(&e);
		static const char *w = "\u0F56\u0F66\u0F9F\u0F53";  /* to find the face */
		font_lib_expect(cut, text, (size_t)nt);
		font_lib_expect(cut, w, strlen(w));
		font_shaped_t sa, sb;
		font_face_t *f = NULL;
		CHECK(tib_shape(cut, w, &sb, &f) == 0 && f && f->cut == 1);
		font_shaped_done(&sb);
		if (!f || f->cut != 1) {
			font_lib_free(cut);
			continue;
		}
		prune_cutg = f->cutg;
		prune_ng = f->nglyphs;
		hb_font_t *fc = hb_font_create(f->cutface), *fo = hb_font_create(f->hbface);
		hb_font_t *fcs = hb_font_create_sub_font(fc);
		hb_font_set_funcs(fcs, ff, NULL, NULL);
		char s[PIECES][4 * 96];
		int ns[PIECES];
		for (int k = 0; k < PIECES; k++) {
			/* a piece of the document, its own characters put in or
			   left out here and there */
			int n = 0, at = (int)prune_rnd((unsigned)nd), l = 1 + (int)prune_rnd(40);
			for (int i = at; i < nd && i < at + l; i++) {
				if (prune_rnd(12) == 0)
					n += prune_put(s[k] + n, doc[prune_rnd((unsigned)nd)]);
				if (prune_rnd(15))
					n += prune_put(s[k] + n, doc[i]);
			}
			if (!n)
				n = prune_put(s[k], doc[at]);
			ns[k] = n;
			for (int pass = 0; pass < 2; pass++) {
				hb_buffer_t *x = pass ? b : a;
				hb_buffer_clear_contents(x);
				hb_buffer_add_utf8(x, s[k], n, 0, n);
				hb_buffer_set_direction(x, HB_DIRECTION_LTR);
				hb_buffer_set_script(x, HB_SCRIPT_TIBETAN);
				hb_buffer_set_language(x, hb_language_from_string("bo", 2));
				prune_miss = 0;
				hb_shape(pass ? fcs : fo, x, NULL, 0);
			}
			misses += prune_miss;
			compared++;
			if (!prune_same_hb(a, b) && differ++ < 3) {
				fprintf(stderr, "  cut_random: doc %d piece differs:", d);
				for (int i = 0; i < n;) {
					uint32_t cp;
					i += utf8_decode(s[k] + i, (size_t)(n - i), &cp);
					fprintf(stderr, " %04X", cp);
				}
				fputc('\n', stderr);
			}
		}
		hb_font_destroy(fcs);
		hb_font_destroy(fc);
		hb_font_destroy(fo);
		/* through font_shape: the pieces, then pieces with a character
		   from anywhere in Tibetan (the face gives its cut up) */
		for (int k = 0; k < PIECES; k++) {
			char t2[4 * 96 + 64];
			int n = ns[k];
			memcpy(t2, s[k], (size_t)n);
			if (k >= PIECES / 2) {
				uint32_t x[16];
				int nx = prune_syl(x);
				for (int i = 0; i < nx; i++)
					n += prune_put(t2 + n, x[i]);
			}
			t2[n] = 0;
			CHECK(tib_shape(full, t2, &sa, NULL) == 0 && tib_shape(cut, t2, &sb, NULL) == 0);
			if (!same_shaped(&sa, &sb) && lib_differ++ < 3)
				fprintf(stderr, "  cut_random: font_shape differs for doc %d piece %d\n", d, k);
			font_shaped_done(&sa);
			font_shaped_done(&sb);
		}
		font_lib_free(cut);
	}
	CHECK(compared == DOCS * PIECES);
	EQ_INT(misses, 0);
	EQ_INT(differ, 0);
	EQ_INT(lib_differ, 0);
	hb_buffer_destroy(a);
	hb_buffer_destroy(b);
	hb_font_funcs_destroy(ff);
	font_lib_free(full);
	errs_done(&e);
}

int main(void)
{
	if (t_tmpdir(tmpdir, sizeof(tmpdir), "vita-font-test") != 0)
		return 1;
	/* the family cache goes to the temp dir: first run fills it, the
	 * second run of the same tests reads it */
	setenv("XDG_CACHE_HOME", tmpdir, 1);
	RUN(selection);
	RUN(fccache);
	RUN(selection);
	RUN(shaping);
	RUN(pieces);
	RUN(width_is_set_width);
	RUN(features);
	RUN(light);
	RUN(plans);
	RUN(text_cache);
	RUN(nfc);
	RUN(sum_words);
	RUN(arena_keeps);
	RUN(subset);
	RUN(subset_composite);
	RUN(subset_empty);
	RUN(subset_cff);
	RUN(drop);
	RUN(drop_keeps_hbface);
	RUN(cut_tables);
	RUN(prune_tables);
	RUN(prune_hostile);
	RUN(cut_random);
	RUN(corrupt);
	RUN(face_reader);
	RUN(ascii_picks);
	RUN(subset_cff_raw);
	RUN(chain_errors);
	RUN(file_chain);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return t_report();
}
