/* test_inline: rich text set into lines with the real "serif" chain. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "arena.h"
#include "bidi.h"
#include "inline.h"
#include "t.h"
#include "unicode.h"
#include "utf8.h"

static font_lib_t *lib;
static font_chain_t *serif;
static hyph_t *hy;
static arena_t *A;

static inline_span_t span(const char *text, int style, unsigned flags, const char *url)
{
	inline_span_t s;
	memset(&s, 0, sizeof(s));
	s.text = text;
	s.len = (int)strlen(text);
	s.chain = serif;
	s.style = style;
	s.size = 10000;
	s.url = url;
	s.flags = flags;
	s.line = 7;
	s.col = 3;
	return s;
}

static inline_opts_t opts(int32_t width, int align)
{
	inline_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = width;
	o.align = align;
	o.lang = "en";
	o.hyph = hy;
	o.file = "cv.yaml";
	return o;
}

/* The text of a line as a PDF extractor would see it. */
static const char *line_text(const inline_line_t *l)
{
	static char out[4096];
	size_t k = 0;
	for (int i = 0; i < l->nruns && k + (size_t)l->runs[i].len + 2 < sizeof(out); i++) {
		memcpy(out + k, l->runs[i].text, (size_t)l->runs[i].len);
		k += (size_t)l->runs[i].len;
	}
	out[k] = 0;
	return out;
}

/* Runs in order, inside the measure (but for the blank half of an
 * opening mark starting the line), no overlap, text < 65,535 bytes. */
static void check_lines(const inline_result_t *r, const inline_opts_t *o)
{
	for (int i = 0; i < r->nlines; i++) {
		const inline_line_t *l = &r->lines[i];
		int32_t right = 0;
		for (int k = 0; k < l->nruns; k++) {
			const page_run_t *u = &l->runs[k];
			CHECK(u->x >= right - 2 || (k == 0 && u->x >= -u->size / 2 - 2));
			right = u->x + u->w;
			CHECK(u->len > 0 && u->len < 65535);
			CHECK(u->face >= 0);
		}
		if (!l->overfull)
			CHECK(right <= o->width + 2);
		CHECK(l->asc > 0 && l->desc < 0);
	}
}

static const char *para_en =
	"I am a second year Ph.D. student at the University of Toronto, supervised "
	"by Prof. Gennady Pekhimenko. My research interests lie in the broad area of "
	"systems for machine learning, especially in efficient large-scale model "
	"pre-training, post-training, and serving. I have been fortunate to work at "
	"NVIDIA, CentML, Microsoft Research Asia, and the Vector Institute, "
	"contributing to projects in large-scale machine learning systems and "
	"characterization of heterogeneous accelerators.";

TEST(justified)
{
	inline_span_t s[3];
	s[0] = span(para_en, FONT_REGULAR, 0, NULL);
	s[1] = span(" Bold words", FONT_BOLD, 0, NULL);
	s[2] = span(" end here.", FONT_REGULAR, 0, NULL);
	for (int32_t w = 250000; w <= 450000; w += 25000) {
		inline_opts_t o = opts(w, INLINE_JUSTIFY);
		inline_result_t r;
		errs_t e;
		errs_init(&e);
		o.tolerance = 3000;
		EQ_INT(inline_set(A, s, 3, &o, &r, &e), 0);
		CHECK(r.nlines >= 2);
		EQ_INT(e.n, 0);
		check_lines(&r, &o);
		for (int i = 0; i + 1 < r.nlines; i++) {
			const inline_line_t *l = &r.lines[i];
			CHECK(l->ratio <= 3000 && l->ratio >= -1000);
			/* justified: the last run ends at the measure */
			EQ_INT(l->width, w);
			CHECK(!l->overfull);
		}
		CHECK(r.lines[r.nlines - 1].ratio <= 0);
		errs_done(&e);
	}
}

/* Ragged lines: natural spaces stay inside runs; words extract right. */
TEST(ragged_text)
{
	inline_span_t s = span("alpha beta gamma delta epsilon zeta eta theta iota kappa",
	                     FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(100000, INLINE_LEFT);
	inline_result_t r;
	errs_t e;
	char all[512] = "";
	errs_init(&e);
	o.hyph = NULL;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	check_lines(&r, &o);
	CHECK(r.nlines >= 2);
	for (int i = 0; i < r.nlines; i++) {
		if (i)
			strcat(all, " ");
		strcat(all, line_text(&r.lines[i]));
		EQ_INT(r.lines[i].runs[0].x, 0);
		CHECK(r.lines[i].nruns <= 2);
	}
	EQ_STR(all, "alpha beta gamma delta epsilon zeta eta theta iota kappa");
	o.align = INLINE_RIGHT;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	for (int i = 0; i < r.nlines; i++) {
		const inline_line_t *l = &r.lines[i];
		const page_run_t *u = &l->runs[l->nruns - 1];
		CHECK(u->x + u->w >= 100000 - 2 && u->x + u->w <= 100000 + 2);
	}
	errs_done(&e);
}

static int starts_with_any(const char *t, const char *const *set)
{
	for (int i = 0; set[i]; i++)
		if (!strncmp(t, set[i], strlen(set[i])))
			return 1;
	return 0;
}

static int ends_with_any(const char *t, const char *const *set)
{
	size_t n = strlen(t);
	for (int i = 0; set[i]; i++) {
		size_t m = strlen(set[i]);
		if (n >= m && !strcmp(t + n - m, set[i]))
			return 1;
	}
	return 0;
}

TEST(cjk)
{
	static const char *const closing[] = {"，", "。", "）", "」", "、", NULL};
	static const char *const opening[] = {"（", "「", NULL};
	inline_span_t s = span("我是多伦多大学的二年级博士生，导师是Gennady Pekhimenko教授。"
	                     "我的研究兴趣（尤其是大规模模型的预训练、后训练和推理服务）"
	                     "在于机器学习系统。「高效」的分布式训练、量化和编译器，"
	                     "都是我关心的问题。我曾在NVIDIA、微软亚洲研究院和Vector研究所工作。",
	                     FONT_REGULAR, 0, NULL);
	int starts = 0, ends = 0;
	for (int32_t w = 60000; w <= 200000; w += 7000) {
		inline_opts_t o = opts(w, INLINE_JUSTIFY);
		inline_result_t r;
		errs_t e;
		errs_init(&e);
		o.lang = "zh";
		EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
		EQ_INT(e.n, 0);
		check_lines(&r, &o);
		CHECK(r.nlines >= 3);
		for (int i = 0; i < r.nlines; i++) {
			const char *t = line_text(&r.lines[i]);
			CHECK(!starts_with_any(t, closing));
			CHECK(!ends_with_any(t, opening));
			CHECK(!strstr(t, "Pekhi\n"));
			if (i + 1 < r.nlines && r.lines[i].ratio != 0)   /* 0: nothing to stretch */
				EQ_INT(r.lines[i].width, w);
			/* a line starting with an opening mark: half-width, its blank
			   half left of the measure; only there is a run left of it */
			if (starts_with_any(t, opening))
				EQ_INT(r.lines[i].runs[0].x, -5000);
			else
				CHECK(r.lines[i].runs[0].x >= 0);
			if (starts_with_any(t, opening))
				starts++;
			if (ends_with_any(t, closing) && i + 1 < r.nlines &&
			    r.lines[i].runs[r.lines[i].nruns - 1].x + r.lines[i].runs[r.lines[i].nruns - 1].w == w)
				ends++;
		}
		errs_done(&e);
	}
	CHECK(starts > 0);      /* the measures above do put marks at line edges */
	CHECK(ends > 0);
}

/* A paragraph of ideographs: full lines, and no lone character on the
 * last line; not a Latin last line of a fifth of the measure, which
 * spread lines of ideographs apart to pull characters down. */
TEST(cjk_last_line)
{
	/* 41 ideographs in a 20 em measure */
	inline_span_t s = span("我们还研究了稀疏注意力量化与算子融合之间的相互作用单独使用时它们各自能带来有限的加",
	                     FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(200000, INLINE_JUSTIFY);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	o.lang = "zh";
	o.hyph = NULL;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_INT(r.nlines, 3);
	for (int i = 0; i < r.nlines; i++) {
		int n = (int)strlen(line_text(&r.lines[i])) / 3;
		if (i + 1 < r.nlines)
			CHECK(n >= 19);
		else
			CHECK(n >= 2);
	}
	errs_done(&e);
}

TEST(hyphen_drawn)
{
	inline_span_t s = span("characterization internationalization responsibilities "
	                     "acknowledgements reconfigurable heterogeneous", FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(80000, INLINE_JUSTIFY);
	inline_result_t r;
	errs_t e;
	int hyph = 0;
	errs_init(&e);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	check_lines(&r, &o);
	for (int i = 0; i < r.nlines; i++) {
		const char *t = line_text(&r.lines[i]);
		if (r.lines[i].hyphen) {
			hyph++;
			CHECK(t[strlen(t) - 1] == '-');
		}
	}
	CHECK(hyph > 0);
	/* no hyphenation in names, or with hyph off */
	s = span("characterization internationalization responsibilities", FONT_REGULAR,
	         INLINE_NOHYPH, NULL);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	for (int i = 0; i < r.nlines; i++)
		CHECK(!r.lines[i].hyphen);
	errs_done(&e);
}

TEST(soft_hyphen)
{
	inline_span_t s = span("extra\xc2\xadordinarily extra\xc2\xadordinarily extra\xc2\xadordinarily",
	                     FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(60000, INLINE_LEFT);
	inline_result_t r;
	errs_t e;
	int hyph = 0;
	errs_init(&e);
	o.hyph = NULL;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_INT(e.n, 0);
	for (int i = 0; i < r.nlines; i++) {
		const char *t = line_text(&r.lines[i]);
		CHECK(!strstr(t, "\xc2\xad"));
		if (r.lines[i].hyphen) {
			hyph++;
			CHECK(strstr(t, "extra-") != NULL);
		}
	}
	CHECK(hyph > 0);
	errs_done(&e);
}

/* Code points that act on levels only or break nothing visibly are not
 * drawn: the Arabic letter mark U+061C among the letters of U+0100..U+1FFF (here Ā and ἀ)
 * (kind_of's short way for those), the LRM, ZWSP, word joiner, BOM; the
 * letters around them are. */
TEST(invisible_kinds)
{
	static const char *cps[] = {"\xd8\x9c", "\xe2\x80\x8e", "\xe2\x80\x8b", "\xe2\x81\xa0",
	                            "\xef\xbb\xbf"};
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		char t[64];
		snprintf(t, sizeof(t), "ab%scd \xc4\x80%s\xe1\xbc\x80", cps[i], cps[i]);
		inline_span_t s = span(t, FONT_REGULAR, 0, NULL);
		inline_opts_t o = opts(300000, INLINE_LEFT);
		inline_result_t r;
		errs_t e;
		errs_init(&e);
		EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
		EQ_INT(r.nlines, 1);
		const char *l = r.nlines ? line_text(&r.lines[0]) : "";
		CHECK(!strstr(l, cps[i]));
		EQ_INT(e.n, 0);   /* not drawn: no face is asked for it */
		CHECK(strstr(l, "ab") && strstr(l, "cd") && strstr(l, "\xc4\x80") &&
		      strstr(l, "\xe1\xbc\x80"));
		errs_done(&e);
	}
}

TEST(url)
{
	inline_span_t s[2];
	inline_opts_t o = opts(120000, INLINE_LEFT);
	inline_result_t r;
	errs_t e;
	int slash = 0, links = 0;
	errs_init(&e);
	s[0] = span("Code: ", FONT_REGULAR, 0, NULL);
	s[1] = span("https://github.com/pekhimenko-group/mist-distributed-training/tree/main/examples",
	            FONT_REGULAR, INLINE_URL | INLINE_NOHYPH,
	            "https://github.com/pekhimenko-group/mist-distributed-training/tree/main/examples");
	EQ_INT(inline_set(A, s, 2, &o, &r, &e), 0);
	EQ_INT(e.n, 0);
	check_lines(&r, &o);
	CHECK(r.nlines >= 2);
	for (int i = 0; i < r.nlines; i++) {
		const char *t = line_text(&r.lines[i]);
		size_t n = strlen(t);
		if (i + 1 < r.nlines && n && strchr("/-.", t[n - 1]))
			slash++;
		CHECK(!r.lines[i].hyphen);
		for (int k = 0; k < r.lines[i].nlinks; k++) {
			const page_link_t *l = &r.lines[i].links[k];
			links++;
			EQ_STR(l->url, s[1].url);
			CHECK(l->w > 0 && l->h > 0 && l->y < 0);
		}
	}
	CHECK(slash >= 1);
	EQ_INT(links, r.nlines);
	errs_done(&e);
}

/* The same text as one span or cut into spans with the same properties
 * (mid-word too) sets the same runs: a glyph from another span takes
 * ls_glyph's full path, one from the span before it the short one. A
 * link span in the middle keeps its own extent either way. */
static void set_runs_as(const inline_span_t *s, int n, int align, char *out, size_t cap)
{
	inline_opts_t o = opts(150000, align);
	inline_result_t r;
	errs_t e;
	size_t k = 0;
	o.hyph = NULL;
	errs_init(&e);
	EQ_INT(inline_set(A, s, n, &o, &r, &e), 0);
	for (int i = 0; i < r.nlines; i++) {
		const inline_line_t *l = &r.lines[i];
		for (int j = 0; j < l->nruns; j++)
			k += (size_t)snprintf(out + k, cap - k, "%d:%d+%d/%d[%.*s]", i, l->runs[j].x,
			                      l->runs[j].w, l->runs[j].face, l->runs[j].len,
			                      l->runs[j].text);
		for (int j = 0; j < l->nlinks; j++)
			k += (size_t)snprintf(out + k, cap - k, "<%d+%d %s>", l->links[j].x,
			                      l->links[j].w, l->links[j].url);
		k += (size_t)snprintf(out + k, cap - k, "|");
	}
	errs_done(&e);
}

static void set_runs(const inline_span_t *s, int n, char *out, size_t cap)
{
	set_runs_as(s, n, INLINE_JUSTIFY, out, cap);
}

/* An author list: names that never break, commas between them, in spans
 * that draw alike, make the runs one span of the same text makes (a run
 * goes on across spans that draw alike); a name in bold does not. */
TEST(runs_across_like_spans)
{
	static char a[8192], b[8192];
	static const char *const names[] = {"Alice Smith", "Bo Wang", "Chen Ivanova",
	                                    "Dmitri Garc\u00eda", "Elena Kim", "Fatima Zhu",
	                                    "Gennady Liu", "Hiro Tanaka", "Ines M\u00fcller"};
	char all[512] = "";
	inline_span_t cut[32];
	int n = 0;
	for (int i = 0; i < 9; i++) {
		if (i) {
			cut[n++] = span(", ", FONT_REGULAR, 0, NULL);
			strcat(all, ", ");
		}
		cut[n++] = span(names[i], FONT_REGULAR, INLINE_NOBREAK | INLINE_NOHYPH, NULL);
		strcat(all, names[i]);
	}
	inline_span_t one = span(all, FONT_REGULAR, 0, NULL);
	for (int align = INLINE_LEFT; align <= INLINE_CENTER; align++) {
		/* one span breaks where the names may not: compare a line */
		inline_span_t c1[32];
		memcpy(c1, cut, sizeof(c1));
		for (int i = 0; i < n; i++)
			c1[i].flags = 0;
		set_runs_as(&one, 1, align, a, sizeof(a));
		set_runs_as(c1, n, align, b, sizeof(b));
		EQ_STR(b, a);
		set_runs_as(cut, n, align, b, sizeof(b));
		CHECK(strchr(b, '|') != NULL);
	}
	/* a bold name is a run of its own */
	cut[2].style = FONT_BOLD;
	set_runs_as(cut, 5, INLINE_LEFT, b, sizeof(b));
	CHECK(strstr(b, "[Alice Smith, ]") != NULL && strstr(b, "[Bo") != NULL &&
	      strstr(b, ", Bo") == NULL);
}

TEST(runs_across_spans)
{
	static char a[8192], b[8192];
	const char *u = "https://example.org/x";
	inline_span_t one[3], cut[7];
	one[0] = span("Sparse attention for long context models and the ", FONT_REGULAR, 0, NULL);
	one[1] = span("mixture of experts", FONT_REGULAR, 0, u);
	one[2] = span(" systems that serve them at scale, with measured results.",
	              FONT_REGULAR, 0, NULL);
	cut[0] = span("Sparse attention for lo", FONT_REGULAR, 0, NULL);
	cut[1] = span("ng context models and the ", FONT_REGULAR, 0, NULL);
	cut[2] = span("mixture of ex", FONT_REGULAR, 0, u);
	cut[3] = span("perts", FONT_REGULAR, 0, u);
	cut[4] = span(" systems that serve them at sc", FONT_REGULAR, 0, NULL);
	cut[5] = span("ale, with measured res", FONT_REGULAR, 0, NULL);
	cut[6] = span("ults.", FONT_REGULAR, 0, NULL);
	set_runs(one, 3, a, sizeof(a));
	set_runs(cut, 7, b, sizeof(b));
	EQ_STR(b, a);
	CHECK(strstr(a, "<") != NULL);   /* the link is there */
}

/* inline_set looks for right-to-left text only from U+0590 up. */
TEST(rtl_from_0590)
{
	int below = 0;
	for (uint32_t c = 0; c < 0x590; c++)
		below += bidi_is_rtl(c);
	EQ_INT(below, 0);
	CHECK(bidi_is_rtl(0x5D0) && bidi_is_rtl(0x627));
}

/* bidi_levels answers the other common paragraphs of a right-to-left
 * page too (an English title, Arabic or Hebrew with numbers, numbers
 * alone: levels_simple in bidi.c): the same levels and highest level as
 * libfribidi's, for random paragraphs of letters of both directions,
 * numbers (European, Arabic-Indic, Persian), separators, terminators,
 * marks, brackets, spaces and other neutrals, joiners and tabs (which
 * libfribidi answers), some without left-to-right letters, some without
 * right-to-left ones. */
TEST(rtl_simple_levels)
{
	static const uint32_t ltr[] = {'a', 'Z', 0xE9, 0x3B1};
	static const uint32_t rtl[] = {0x5D0, 0x5E9, 0x627, 0x644, 0x6CC, 0x67E};
	static const uint32_t weak[] = {'0', '7', 0x661, 0x669, 0x6F1, 0x6F5, '+', '-', '%', '$', '#',
	                                0xB0, ',', '.', ':', '/', 0x60C, 0x64E, 0x651, 0x5B8, 0x300,
	                                ' ', ' ', ' ', '(', ')', '[', ']', 0xAB, 0xBB, '!', 0x2014,
	                                0x2013, 0xB7, 0x2022, 0x2019, '&', 0xD7, 0x200C, '\t'};
	const int nl = 4, nr = 6, nw = (int)(sizeof(weak) / sizeof(weak[0]));
	uint32_t cp[60];
	uint8_t a[60], b[60];
	unsigned seed = 4242;
	int bad = 0;
	for (int t = 0; t < 20000; t++) {
		int n = 1 + t % 60, kind = t % 4; /* 0: both, 1: no L, 2: no R, 3: no letters */
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = (seed >> 8) % 100, q = (seed >> 16);
			if (r < 30 && kind != 1 && kind != 3)
				cp[i] = ltr[q % (unsigned)nl];
			else if (r < 60 && kind != 2 && kind != 3)
				cp[i] = rtl[q % (unsigned)nr];
			else
				cp[i] = weak[q % (unsigned)nw];
			if (cp[i] == 0x200C && (q & 7))
				cp[i] = ' '; /* a joiner now and then */
			if (cp[i] == '\t' && (q & 7))
				cp[i] = '.';
		}
		int ra = bidi_levels(cp, n, 1, a), rb = bidi_levels_fribidi(cp, n, 1, b);
		if (ra != rb || memcmp(a, b, (size_t)n)) {
			if (bad < 5) {
				fprintf(stderr, "levels differ (%d vs fribidi's %d):", ra, rb);
				for (int i = 0; i < n; i++)
					fprintf(stderr, " %04X:%d/%d", (unsigned)cp[i], a[i], b[i]);
				fprintf(stderr, "\n");
			}
			bad++;
		}
	}
	EQ_INT(bad, 0);
}

/* bidi_shape joins Arabic paragraphs itself (shape_simple in bidi.c):
 * the same presentation forms, lam-alef ligatures and mirrored brackets
 * as libfribidi's, for random paragraphs of dual- and right-joining
 * letters (Arabic and Persian), hamza, marks, tatweel, joiners, spaces,
 * punctuation, brackets, Latin and Hebrew letters, digits, a letter of
 * the Arabic Supplement and a Latin mark (which libfribidi answers), in
 * pages of either direction. */
TEST(rtl_shape)
{
	static const uint32_t abc[] = {0x628, 0x644, 0x644, 0x645, 0x64A, 0x647, 0x639, 0x643, 0x646,
	                               0x627, 0x627, 0x623, 0x625, 0x622, 0x62F, 0x631, 0x648, 0x629,
	                               0x621, 0x67E, 0x6CC, 0x6A9, 0x6AF, 0x698, 0x671, 0x64E, 0x651,
	                               0x654, 0x670, 0x640, 0x200D, 0x200C, ' ', ' ', ' ', 0x60C,
	                               0x61F, '.', ':', '-', '(', ')', '[', ']', 0xAB, 0xBB, 'a',
	                               'Q', '1', '2', 0x661, 0x6F2, 0x5D0, 0x5E9, 0x750, 0x301};
	const int na = (int)(sizeof(abc) / sizeof(abc[0]));
	uint32_t cp[48], a[48], b[48];
	uint8_t lv[48];
	unsigned seed = 777;
	int bad = 0;
	for (int t = 0; t < 20000; t++) {
		int n = 1 + t % 48;
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned q = seed >> 8;
			cp[i] = abc[q % (unsigned)na];
			/* rarer: joiners, the supplement letter, the Latin mark */
			if ((cp[i] == 0x200D || cp[i] == 0x200C || cp[i] == 0x750 || cp[i] == 0x301) &&
			    (q >> 12) % 4)
				cp[i] = 0x644;
		}
		if (bidi_levels(cp, n, t % 5 != 0, lv) < 0)
			continue;
		memcpy(a, cp, sizeof(uint32_t) * (size_t)n);
		memcpy(b, cp, sizeof(uint32_t) * (size_t)n);
		bidi_shape(a, n, lv);
		bidi_shape_fribidi(b, n, lv);
		if (memcmp(a, b, sizeof(uint32_t) * (size_t)n)) {
			if (bad < 5) {
				fprintf(stderr, "shapes differ:");
				for (int i = 0; i < n; i++)
					fprintf(stderr, " %04X(%d):%04X/%04X", (unsigned)cp[i], lv[i],
					        (unsigned)a[i], (unsigned)b[i]);
				fprintf(stderr, "\n");
			}
			bad++;
		}
	}
	EQ_INT(bad, 0);
}

/* The glyphs of a line as drawn (a word's, page.h, one by one), left to
 * right: "x+w text" each, x from the line's leftmost glyph. */
static void glyphs_of(const inline_line_t *l, char *out, size_t cap, int *spaces)
{
	page_run_t g[256];
	int n = 0;
	*spaces = 0;
	for (int j = 0; j < l->nruns; j++) {
		page_word_t it;
		page_run_t one = l->runs[j];
		if (!l->runs[j].adv) {
			if (n < 256)
				g[n++] = one;
			continue;
		}
		for (page_word_start(&it, &l->runs[j]); page_word_next(&it, &one);)
			if (one.len == 1 && *one.text == ' ')
				++*spaces;      /* a space between right-to-left words: no ink */
			else if (n < 256)
				g[n++] = one;
	}
	for (int i = 1; i < n; i++)   /* insertion sort by x */
		for (int k = i; k > 0 && g[k - 1].x > g[k].x; k--) {
			page_run_t t = g[k];
			g[k] = g[k - 1];
			g[k - 1] = t;
		}
	size_t k = 0;
	out[0] = '\0';
	for (int i = 0; i < n && k < cap; i++)
		k += (size_t)snprintf(out + k, cap - k, " %d+%d %.*s", g[i].x - g[0].x, g[i].w,
		                      g[i].len, g[i].text);
}

/* Right-to-left words are one run each, with an advance per glyph
 * (page_run_t.adv), on a right-to-left page and in a left-to-right one
 * alike (lay_place draws them in reading order): the same glyphs at the
 * same places; a cluster with marks, a lam-alef, is a run of its own. The
 * space between two words is a glyph of the run too, as wide as the gap
 * (readers of the glyphs in drawing order read it), so words and spaces
 * of one style that follow each other are one run. */
TEST(rtl_words)
{
	/* "Mohamed Ali", "the paper" (a lam-alef, its /ActualText) */
	inline_span_t sp = span("\u0645\u062D\u0645\u062F \u0639\u0644\u064A \u0627\u0644\u0623\u0648\u0631\u0627\u0642",
	                        FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(300000, INLINE_LEFT);
	o.lang = "ar";
	o.hyph = NULL;
	inline_result_t a, b;
	errs_t e;
	errs_init(&e);
	EQ_INT(inline_set(A, &sp, 1, &o, &b, &e), 0);
	o.rtl = 1;
	EQ_INT(inline_set(A, &sp, 1, &o, &a, &e), 0);
	EQ_INT(e.n, 0);
	EQ_INT(a.nlines, 1);
	EQ_INT(b.nlines, 1);
	for (int p = 0; p < 2; p++) {
		const inline_line_t *l = p ? &b.lines[0] : &a.lines[0];
		int words = 0;
		for (int j = 0; j < l->nruns; j++) {
			const page_run_t *r = &l->runs[j];
			EQ_INT(r->level, 1);    /* a left-to-right page's: lay_place */
			if (!r->adv)
				continue;
			words++;
			int32_t sum = 0, n = 0;
			for (int k = 0; k < r->len; k++)
				if (((unsigned char)r->text[k] & 0xC0) != 0x80)
					sum += r->adv[n++];
			EQ_INT(sum, r->w);
			CHECK(!r->actual && !r->gids);
		}
		/* the first two words and the spaces after them one run; the
		   alef and the lam-alef of the third (runs of their own, read
		   as their letters), then waraq */
		EQ_INT(words, 2);
		EQ_INT(l->nruns, 4);
	}
	static char ga[4096], gb[4096];
	int sa, sb;
	glyphs_of(&a.lines[0], ga, sizeof(ga), &sa);
	glyphs_of(&b.lines[0], gb, sizeof(gb), &sb);
	EQ_STR(ga, gb);
	EQ_INT(sa, 2);
	EQ_INT(sb, 2);
	errs_done(&e);
}

/* inline_width measures Arabic text in the joined forms inline_set sets
 * it in (il_bidi's bidi_shape): measured as written, the letters were
 * shaped unjoined, a quarter wider than set (a header name taken for
 * too wide was set smaller). Arabic and Persian words: a lam-alef,
 * marks, a zero-width non-joiner, a Latin word and digits beside them,
 * on a left-to-right and a right-to-left page. */
TEST(rtl_width_as_set)
{
	static const char *const texts[] = {
		"ليلى حسن المصري",
		"محمد علي الأوراق",
		"يونيو 2023 – حتى الآن",
		"فعّالة (KAUST) سابقاً",
		"می‌خواهم ژوئیه",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		for (int rtl = 0; rtl < 2; rtl++) {
			inline_span_t sp = span(texts[i], i % 2 ? FONT_BOLD : FONT_REGULAR, INLINE_NOHYPH, NULL);
			int32_t w = inline_width(&sp, 1, "ar");
			inline_opts_t o = opts(w + 100000, INLINE_LEFT);
			o.lang = "ar";
			o.hyph = NULL;
			o.rtl = rtl;
			inline_result_t r;
			errs_t e;
			errs_init(&e);
			EQ_INT(inline_set(A, &sp, 1, &o, &r, &e), 0);
			EQ_INT(r.nlines, 1);
			if (r.nlines == 1)
				EQ_INT(r.lines[0].width, w);
			errs_done(&e);
		}
	}
}

/* A right-to-left mark (Bidi_Class NSM) stays in its letter's cluster,
 * wherever Unicode has it: the Hebrew varika U+FB1E, NKo's U+07EB and
 * U+07F2, Arabic Extended-A's U+08F0 were runs of their own, drawn beside
 * their letters and read apart from them (is_rtl_mark knew the marks of
 * U+0591..U+06ED only). uni_is_nsm is Unicode's NSM (test_case). */
TEST(rtl_marks_join)
{
	const char *texts[] = { "\u05D2\uFB1E\u05D5\u05E8\u05D2", "\u07D3\u07CA\u07F2\u07E1\u07EB",
	                        "\u0628\u08F0\u0627\u0628", "\u05E9\u05C1\u05B8\u05DC\u05D5\u05B9\u05DD" };
	errs_t e;
	errs_init(&e);
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		inline_span_t sp = span(texts[i], FONT_REGULAR, 0, NULL);
		inline_opts_t o = opts(300000, INLINE_LEFT);
		o.lang = i == 2 ? "ar" : "he";
		o.hyph = NULL;
		o.rtl = 1;
		inline_result_t r;
		EQ_INT(inline_set(A, &sp, 1, &o, &r, &e), 0);
		EQ_INT(r.nlines, 1);
		int drawn = 0;
		for (int j = 0; r.nlines && j < r.lines[0].nruns; j++) {
			const page_run_t *u = &r.lines[0].runs[j];
			uint32_t cp = 0;
			utf8_decode(u->text, (size_t)u->len, &cp);
			drawn += u->len;
			if (uni_is_nsm(cp)) {
				fprintf(stderr, "  text %zu: U+%04X starts a run of its own\n", i, (unsigned)cp);
				CHECK(0);
			}
		}
		CHECK(drawn > 0);
	}
	errs_done(&e);
}

/* bidi_levels answers a paragraph of plain right-to-left text (letters,
 * marks, spaces, joiners, a few stops) in a right-to-left page itself:
 * the same levels as libfribidi's, for every such paragraph tried. */
TEST(rtl_plain_levels)
{
	static const uint32_t abc[] = {0x5D0, 0x5E9, 0x5B8, 0x5C1, 0x627, 0x644, 0x64E, 0x651,
	                               0x670, 0x6CC, 0x67E, ' ', ' ', 0x200C, 0x200D, 0x60C,
	                               0x61F, '.', ',', ':', 0x5EF, 0x6D5, 0x640, 0x65F};
	const int na = (int)(sizeof(abc) / sizeof(abc[0]));
	uint32_t cp[40];
	uint8_t a[40], b[40];
	unsigned seed = 12345;
	int bad = 0;
	for (int t = 0; t < 3000; t++) {
		int n = 1 + t % 40;
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			cp[i] = abc[(seed >> 16) % (unsigned)na];
		}
		int ra = bidi_levels(cp, n, 1, a), rb = bidi_levels_fribidi(cp, n, 1, b);
		if (ra != rb || memcmp(a, b, (size_t)n))
			bad++;
	}
	EQ_INT(bad, 0);
	/* and it leaves the rest to libfribidi: a digit */
	cp[0] = 0x627;
	cp[1] = ' ';
	cp[2] = '1';
	EQ_INT(bidi_levels(cp, 3, 1, a), 2);
	EQ_INT(a[2], 2);
}

TEST(overflow)
{
	inline_span_t s[3];
	inline_opts_t o = opts(50000, INLINE_JUSTIFY);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	s[0] = span("see ", FONT_REGULAR, 0, NULL);
	s[1] = span("Pneumonoultramicroscopicsilicovolcanoconiosis", FONT_BOLD, INLINE_NOHYPH, NULL);
	s[2] = span(" here", FONT_REGULAR, 0, NULL);
	EQ_INT(inline_set(A, s, 3, &o, &r, &e), 0);
	EQ_INT(e.n, 1);
	CHECK(e.n == 1 && e.v[0].sev == ERR_WARNING && e.v[0].line == 7 && e.v[0].col == 3);
	CHECK(e.n == 1 && strstr(e.v[0].msg, "line overflows: 'Pneumono") != NULL);
	CHECK(e.n == 1 && strstr(e.v[0].msg, "is wider than the measure") != NULL);
	check_lines(&r, &o);
	for (int i = 0; i < r.nlines; i++)
		CHECK(!r.lines[i].overfull);
	errs_done(&e);
}

TEST(missing)
{
	inline_span_t s = span("a \xee\x80\x80 b \xee\x80\x80 c \xf4\x8f\xbf\xbd d", FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(300000, INLINE_LEFT);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_INT(e.n, 2);
	CHECK(e.n >= 1 && strstr(e.v[0].msg, "no font in chain 'serif' has U+E000") != NULL);
	CHECK(e.n >= 2 && strstr(e.v[1].msg, "no font in chain 'serif' has U+10FFFD") != NULL);
	check_lines(&r, &o);
	EQ_INT(r.nlines, 1);
	errs_done(&e);
}

TEST(forced_and_empty)
{
	inline_span_t s = span("first line\nsecond line\n", FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(300000, INLINE_JUSTIFY);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_INT(r.nlines, 2);
	EQ_STR(line_text(&r.lines[0]), "first line");
	EQ_STR(line_text(&r.lines[1]), "second line");
	EQ_INT(inline_set(A, &s, 0, &o, &r, &e), 0);
	EQ_INT(r.nlines, 0);
	s = span("", FONT_REGULAR, 0, NULL);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_INT(r.nlines, 0);
	CHECK(inline_width(&s, 1, "en") == 0);
	s = span("abc def", FONT_REGULAR, 0, NULL);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_INT(r.nlines, 1);
	EQ_INT(inline_width(&s, 1, "en"), r.lines[0].width);
	errs_done(&e);
}

TEST(indent)
{
	inline_span_t s = span(para_en, FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(200000, INLINE_JUSTIFY);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	o.indent = 20000;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	check_lines(&r, &o);
	EQ_INT(r.lines[0].runs[0].x, 0);
	for (int i = 1; i < r.nlines; i++) {
		EQ_INT(r.lines[i].runs[0].x, 20000);
		CHECK(r.lines[i].width <= 180000 + 2);
	}
	errs_done(&e);
}

/* The lines joined back: no space after a line ending in "-". */
static const char *joined(const inline_result_t *r)
{
	static char out[8192];
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < r->nlines; i++) {
		const char *t = line_text(&r->lines[i]);
		size_t n = strlen(t);
		if (i && k && out[k - 1] != '-' && k + 1 < sizeof(out))
			out[k++] = ' ';
		if (k + n + 1 < sizeof(out)) {
			memcpy(out + k, t, n);
			k += n;
		}
		out[k] = 0;
	}
	return out;
}

/* TeX's pretolerance pass: a paragraph that sets well without hyphens
 * gets none (lines within ratio 1.0) and never loads the patterns; a
 * narrow measure hyphenates and loads them. Same input, same breaks. */
TEST(pretolerance)
{
	inline_span_t s = span(para_en, FONT_REGULAR, 0, NULL);
	inline_opts_t o;
	inline_result_t r, r2;
	errs_t e;
	int fine = 0, hyphenated = 0, hyph = 0;
	errs_init(&e);
	for (int32_t w = 380000; w <= 520000; w += 5000) {
		hyph_t *fresh = hyph_open("en", &e);
		o = opts(w, INLINE_JUSTIFY);
		o.hyph = fresh;
		EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
		check_lines(&r, &o);
		if (!hyph_loaded(fresh)) {
			fine++;
			EQ_STR(joined(&r), para_en);      /* no hyphen added */
			for (int i = 0; i + 1 < r.nlines; i++)
				CHECK(r.lines[i].ratio <= 1000 && r.lines[i].ratio >= -1000);
		} else {
			hyphenated++;
		}
		EQ_INT(inline_set(A, &s, 1, &o, &r2, &e), 0);
		EQ_INT(r2.nlines, r.nlines);
		for (int i = 0; i < r.nlines && i < r2.nlines; i++) {
			char t[4096];
			snprintf(t, sizeof(t), "%s", line_text(&r.lines[i]));
			EQ_STR(t, line_text(&r2.lines[i]));
			EQ_INT(r.lines[i].ratio, r2.lines[i].ratio);
		}
		hyph_close(fresh);
	}
	CHECK(fine >= 3);
	CHECK(hyphenated >= 3);
	/* ragged text that never overflows: no hyphens */
	hyph_t *fresh = hyph_open("en", &e);
	o = opts(300000, INLINE_LEFT);
	o.hyph = fresh;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_STR(joined(&r), para_en);
	CHECK(!hyph_loaded(fresh));
	/* a narrow measure: hyphens, the patterns loaded */
	s = span("characterization of heterogeneous accelerators for internationalization "
	         "and reconfigurable distributed systems", FONT_REGULAR, 0, NULL);
	o = opts(90000, INLINE_JUSTIFY);
	o.hyph = fresh;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	check_lines(&r, &o);
	for (int i = 0; i < r.nlines; i++)
		hyph += r.lines[i].hyphen;
	CHECK(hyph > 0);
	CHECK(hyph_loaded(fresh));
	EQ_INT(e.n, 0);
	hyph_close(fresh);
	/* pretolerance < 0: hyphenate at once */
	fresh = hyph_open("en", &e);
	s = span(para_en, FONT_REGULAR, 0, NULL);
	o = opts(430000, INLINE_JUSTIFY);
	o.hyph = fresh;
	o.pretolerance = -1;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	CHECK(hyph_loaded(fresh));
	hyph_close(fresh);
	errs_done(&e);
}


/* Issue 15, case 1: regional indicators (flags) made libunibreak 1.1
 * abort. Set them in a measure so narrow that every break is taken: no
 * crash, the text around them set, the missing flags reported. */
TEST(flags)
{
	static const char *text = "a \xf0\x9f\x87\xa8\xf0\x9f\x87\xa6 b"
		"\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5\xf0\x9f\x87\xba\xf0\x9f\x87\xb8"
		"\xf0\x9f\x87\xa6 c\xf0\x9f\x87\xbf";
	inline_span_t s = span(text, FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(100, INLINE_LEFT);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	if (font_emoji_has(serif, FONT_REGULAR, 0x1F1E8)) {
		/* Noto Color Emoji draws them: each flag is one glyph, on a
		   line of its own here, never cut between its two letters (the
		   odd one, U+1F1E6, stays alone) */
		static const char *want[] = {"a", "\xf0\x9f\x87\xa8\xf0\x9f\x87\xa6", "b",
		                             "\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5",
		                             "\xf0\x9f\x87\xba\xf0\x9f\x87\xb8",
		                             "\xf0\x9f\x87\xa6", "c", "\xf0\x9f\x87\xbf"};
		EQ_INT(r.nlines, 8);
		for (int i = 0; i < r.nlines && i < 8; i++)
			EQ_STR(line_text(&r.lines[i]), want[i]);
		for (int i = 0; i < e.n; i++)   /* (wider than the measure: warnings) */
			CHECK(strstr(e.v[i].msg, "U+1F1") == NULL);
		errs_done(&e);
		return;
	}
	/* no font draws them: the flags take no room and stay whole */
	EQ_INT(r.nlines, 6);
	if (r.nlines == 6) {
		EQ_STR(line_text(&r.lines[0]), "a");
		EQ_STR(line_text(&r.lines[2]), "b");
		EQ_STR(line_text(&r.lines[4]), "c");
	}
	CHECK(e.n >= 1 && strstr(e.v[0].msg, "U+1F1E8") != NULL);
	errs_done(&e);
}

/* Issue 15, case 4: one word wider than 2^31 u (a 340 KB BibTeX field)
 * overflowed int widths. It is set, broken between graphemes, and the
 * natural width saturates instead of wrapping. */
/* inline_width shapes a word (and the spaces after it) at a time, as
 * inline_set does: random texts of kerned words, punctuation and runs of
 * spaces measure what inline_set sets them at on one line, and (the
 * tree's faces kern nothing across a space) what shaping the whole text
 * at once gives. */
TEST(width_by_words)
{
	static const char *const words[] = {
		"AV", "To", "Wa", "Ty", "LT", "Proceedings", "of", "the", "Conf", "\u2019", "00",
		"[250]", "(2024)", "fi", "f.", "y,", "\"quoted\"", "\u00e9t\u00e9", "Yo", "P.",
	};
	static const int styles[] = {FONT_REGULAR, FONT_BOLD, FONT_ITALIC, FONT_BOLD | FONT_ITALIC};
	char text[512];
	unsigned seed = 12345;
	for (int it = 0; it < 300; it++) {
		size_t k = 0;
		int nw = 1 + (int)((seed = seed * 1103515245 + 12345) >> 16) % 12;
		for (int w = 0; w < nw; w++) {
			seed = seed * 1103515245 + 12345;
			const char *x = words[(seed >> 16) % (sizeof(words) / sizeof(words[0]))];
			if (w) {
				int sp = 1 + (int)(seed >> 8) % 3 / 2;   /* mostly one, some two */
				while (sp-- && k + 1 < sizeof(text))
					text[k++] = ' ';
			}
			size_t n = strlen(x);
			if (k + n + 1 >= sizeof(text))
				break;
			memcpy(text + k, x, n);
			k += n;
		}
		text[k] = 0;
		inline_span_t s = span(text, styles[it % 4], INLINE_NOHYPH, NULL);
		int32_t w = inline_width(&s, 1, "en");
		EQ_INT(w, font_width(serif, s.style, s.size, "en", text, k));
		inline_opts_t o = opts(w + 100000, INLINE_LEFT);
		inline_result_t r;
		errs_t e;
		errs_init(&e);
		EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
		EQ_INT(r.nlines, 1);
		if (r.nlines == 1)
			EQ_INT(r.lines[0].width, w);
		errs_done(&e);
	}
}

TEST(huge_word)
{
	size_t n = 400000;      /* 'W' at 10 pt: about 9,400 u each, 3.7e9 u */
	char *w = malloc(n + 1);
	memset(w, 'W', n);
	w[n] = 0;
	inline_span_t s = span(w, FONT_BOLD, INLINE_NOHYPH, NULL);
	inline_opts_t o = opts(300000, INLINE_JUSTIFY);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	CHECK(r.nlines > 10000);
	CHECK(e.n == 1 && strstr(e.v[0].msg, "is wider than the measure") != NULL);
	for (int i = 0; i < r.nlines; i++)
		CHECK(r.lines[i].width > 0 && r.lines[i].width <= o.width);
	CHECK(inline_width(&s, 1, "en") == INT32_MAX);
	s.len = 10;
	CHECK(inline_width(&s, 1, "en") > 0 && inline_width(&s, 1, "en") < 200000);
	errs_done(&e);
	free(w);
}

/* Issue 15, case 28: a word's own hyphen ending a line is kept for text
 * extraction: the run reads "...Memory-Parallelism" (poppler drops a "-"
 * that ends a line, not one inside ActualText), the continuation reads as
 * what follows the word. A break after a spaced dash is left alone. */
TEST(own_hyphen)
{
	inline_span_t s = span("via Memory-", FONT_REGULAR, INLINE_NOHYPH, NULL);
	inline_opts_t o = opts(inline_width(&s, 1, "en") + 800, INLINE_LEFT);
	inline_result_t r;
	errs_t e;
	errs_init(&e);
	s = span("via Memory-Parallelism Co-Optimization", FONT_REGULAR, INLINE_NOHYPH, NULL);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	CHECK(r.nlines >= 2);
	if (r.nlines >= 2) {
		const page_run_t *a = &r.lines[0].runs[r.lines[0].nruns - 1];
		const page_run_t *b = &r.lines[1].runs[0];
		EQ_STR(line_text(&r.lines[0]), "via Memory-");
		CHECK(a->actual && a->actual_len >= 18 &&
		      !memcmp(a->actual + a->actual_len - 18, "Memory-Parallelism", 18));
		CHECK(b->actual && b->actual_len == 0);   /* "Parallelism " reads as nothing */
	}
	s = span("via Memory - Parallelism", FONT_REGULAR, INLINE_NOHYPH, NULL);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	for (int i = 0; i < r.nlines; i++)
		for (int k = 0; k < r.lines[i].nruns; k++)
			CHECK(!r.lines[i].runs[k].actual);
	errs_done(&e);
}

/* Everything a result holds, as text. */
static void dump_result(const inline_result_t *r, char *out, size_t cap)
{
	size_t k = 0;
	for (int i = 0; i < r->nlines && k < cap; i++) {
		const inline_line_t *l = &r->lines[i];
		k += (size_t)snprintf(out + k, cap - k, "L%d w%d a%d d%d r%d h%d o%d:", i, l->width,
		                      l->asc, l->desc, l->ratio, l->hyphen, l->overfull);
		for (int j = 0; j < l->nruns && k < cap; j++) {
			const page_run_t *u = &l->runs[j];
			k += (size_t)snprintf(out + k, cap - k, " %d,%d+%d s%d f%d y%d c%x t%d [%.*s]",
			                      u->x, u->y, u->w, u->size, u->face, u->synth, u->color,
			                      u->track, u->len, u->text);
			if (u->actual)
				k += (size_t)snprintf(out + k, cap - k, "{%.*s}", u->actual_len, u->actual);
			for (int g = 0; u->gids && g < u->len && k < cap; g++)
				k += (size_t)snprintf(out + k, cap - k, "g%d", u->gids[g]);
		}
		for (int j = 0; j < l->nlinks && k < cap; j++)
			k += (size_t)snprintf(out + k, cap - k, " <%d+%d>", l->links[j].x, l->links[j].w);
		for (int j = 0; j < l->nframes && k < cap; j++)
			k += (size_t)snprintf(out + k, cap - k, " [%d+%d]", l->frames[j].x, l->frames[j].w);
		k += (size_t)snprintf(out + k, cap - k, "\n");
	}
}

/* A paragraph set through a memo (fit's attempts: its glyphs kept at no
 * size and placed at each size, not shaped again) sets what setting it
 * afresh sets, at every size, warnings included (and counted only, it
 * has as many lines), and is as wide
 * (inline_width_memo); and the same text in
 * another style, with a feature, tracking or in another language does not
 * take its glyphs. */
TEST(memo_same)
{
	const char *const texts[] = {
		para_en,
		"AVATAR Wolf Tea. To VAVA, \"quoted\" T.Y. office",
		"Ph.D. in Computer Science — 2019–2024, café naïve",
		"中文测试，「引用」2023年9月 データ",
		"שלום עולם and مرحبا بالعالم",
		"xệ Ελληνικά Русский á ☃ 😀",
	};
	static const int32_t sizes[] = {10000, 9950, 9900, 9500, 12500, 9950};
	static const int styles[] = {FONT_REGULAR, FONT_BOLD, FONT_ITALIC};
	static char a[65536], b[65536];
	inline_memo_t *m = inline_memo_new();
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
		for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
			for (size_t v = 0; v < 3 * 4; v++) {
				inline_span_t sp[2];
				sp[0] = span(texts[t], styles[v % 3], 0, NULL);
				sp[1] = span(" tail", FONT_BOLD, 0, NULL);
				sp[0].size = sizes[z];
				sp[1].size = sizes[z] * 9 / 10;
				if (v / 3 == 1)
					sp[0].feats = FONT_FEAT_SMCP | FONT_FEAT_ONUM;
				if (v / 3 == 2)
					sp[0].track = 120;
				inline_opts_t o = opts(v / 3 == 3 ? 90000 : 160000,
				                       v % 2 ? INLINE_LEFT : INLINE_JUSTIFY);
				if (v / 3 == 3) {
					o.lang = "ja";
					o.rtl = 1;
				}
				inline_result_t r;
				errs_t e1, e2;
				errs_init(&e1);
				errs_init(&e2);
				o.memo = m;
				EQ_INT(inline_set(A, sp, 2, &o, &r, &e1), 0);
				dump_result(&r, a, sizeof(a));
				o.memo = NULL;
				EQ_INT(inline_set(A, sp, 2, &o, &r, &e2), 0);
				dump_result(&r, b, sizeof(b));
				EQ_STR(a, b);
				/* counted only (fit's measured attempts): as many lines,
				   none set, the same messages */
				inline_result_t rc;
				errs_t e3;
				errs_init(&e3);
				o.memo = m;
				o.count = 1;
				EQ_INT(inline_set(A, sp, 2, &o, &rc, &e3), 0);
				EQ_INT(rc.nlines, r.nlines);
				CHECK(rc.lines == NULL);
				EQ_INT(e3.n, e2.n);
				errs_done(&e3);
				o.count = 0;
				EQ_INT(inline_width_memo(m, sp, 2, o.lang), inline_width(sp, 2, o.lang));
				EQ_INT(e1.n, e2.n);
				for (int i = 0; i < e1.n && i < e2.n; i++)
					EQ_STR(e1.v[i].msg, e2.v[i].msg);
				errs_done(&e1);
				errs_done(&e2);
			}
	inline_memo_free(m);
}

/* A result cache (inline_opts_t.cache: a layout's repeated organisations
 * and places) gives again what setting the same spans with the same
 * options gives, from another source position too; not for another
 * width, size, style, text, arena or option; and a paragraph that warned
 * is set again, so that it warns again (at its own position). */
TEST(cache_same)
{
	static char a[65536], b[65536];
	inline_cache_t *c = inline_cache_new();
	arena_t *A2 = arena_new();
	const char *text = "Shanghai Jiao Tong University, 上海";
	inline_span_t sp = span(text, FONT_ITALIC, 0, NULL);
	inline_opts_t o = opts(160000, INLINE_RIGHT), plain = o;
	o.cache = c;
	inline_result_t r1, r2, r0;
	errs_t e;
	errs_init(&e);
	EQ_INT(inline_set(A, &sp, 1, &o, &r1, &e), 0);
	char copy[64];
	snprintf(copy, sizeof(copy), "%s", text);
	inline_span_t sq = sp;
	sq.text = copy;     /* the same text elsewhere, from another line */
	sq.line = 40;
	sq.col = 9;
	EQ_INT(inline_set(A, &sq, 1, &o, &r2, &e), 0);
	CHECK(r2.lines == r1.lines);    /* given again, not set again */
	EQ_INT(inline_set(A, &sq, 1, &plain, &r0, &e), 0);
	dump_result(&r0, a, sizeof(a));
	dump_result(&r2, b, sizeof(b));
	EQ_STR(a, b);
	EQ_INT(e.n, 0);
	/* what differs is set afresh */
	for (int k = 0; k < 8; k++) {
		inline_span_t x = sq;
		inline_opts_t ox = o;
		arena_t *ax = A;
		if (k == 0)
			ox.width = 150000;
		if (k == 1)
			x.size = 9000;
		if (k == 2)
			x.style = FONT_BOLD;
		if (k == 3)
			copy[0] = 's';
		if (k == 4)
			ax = A2;
		if (k == 5)
			ox.align = INLINE_LEFT;
		if (k == 6)
			x.color = 0x336699;
		if (k == 7)
			ox.count = 1;
		inline_result_t rx, ry;
		EQ_INT(inline_set(ax, &x, 1, &ox, &rx, &e), 0);
		CHECK(rx.lines != r1.lines);
		ox.cache = NULL;
		EQ_INT(inline_set(ax, &x, 1, &ox, &ry, &e), 0);
		EQ_INT(rx.nlines, ry.nlines);
		if (!ox.count) {
			dump_result(&ry, a, sizeof(a));
			dump_result(&rx, b, sizeof(b));
			EQ_STR(a, b);
		}
		copy[0] = 'S';
	}
	EQ_INT(e.n, 0);
	/* a paragraph that warns is not kept: it warns each time */
	inline_span_t m = span("a \xee\x80\x80 b", FONT_REGULAR, 0, NULL);
	EQ_INT(inline_set(A, &m, 1, &o, &r1, &e), 0);
	EQ_INT(e.n, 1);
	m.line = 12;
	EQ_INT(inline_set(A, &m, 1, &o, &r2, &e), 0);
	EQ_INT(e.n, 2);
	CHECK(e.n == 2 && e.v[1].line == 12);
	errs_done(&e);
	arena_free(A2);
	inline_cache_free(c);
}

/* The lines of a paragraph joined with '|' (a hyphenated line ends "-"). */
static const char *lines_of(const inline_result_t *r)
{
	static char out[4096];
	size_t k = 0;
	for (int i = 0; i < r->nlines && k + 2 < sizeof(out); i++) {
		const char *t = line_text(&r->lines[i]);
		size_t n = strlen(t);
		if (k + n + 2 >= sizeof(out))
			break;
		memcpy(out + k, t, n);
		k += n;
		out[k++] = '|';
	}
	out[k] = 0;
	return out;
}

/* Lao is written without spaces between words, with a space between
 * phrases: a justified paragraph breaks between syllables too, and
 * stretches a little there, so that no line is loose (a line's one space
 * took all of its slack: 519% past its limit); never inside a syllable,
 * nor so that one syllable is left alone (ສົມ|ສັກ, ແສງ|ສະຫວ່າງ). */
TEST(sa_syllables)
{
	static const char text[] =
		"ຂ້ອຍເປັນນັກສຶກສາປະລິນຍາເອກປີທີສອງຢູ່ມະຫາວິທະຍາໄລແຫ່ງຊາດລາວ ພາຍໃຕ້ການແນະນຳຂອງອາຈານສົມສັກ "
		"ແສງສະຫວ່າງ. ຂ້ອຍສົນໃຈລະບົບການຮຽນຮູ້ຂອງເຄື່ອງຈັກ ໂດຍສະເພາະການຝຶກອົບຮົມແບບຈຳລອງພາສາຂະໜາດໃຫຍ່"
		"ຢ່າງມີປະສິດທິພາບ. ກ່ອນໜ້ານີ້ ຂ້ອຍເຄີຍເຮັດວຽກຢູ່ຫ້ອງທົດລອງໃນຫຼວງພະບາງ ແລະ ປາກເຊ.";
	/* words of two and three syllables, a breakable one's halves */
	static const char *const whole[][2] = {
		{"ສົມ", "ສັກ"}, {"ແສງ", "ສະຫວ່າງ."}, {"ແສງສະ", "ຫວ່າງ."}, {"ປາກ", "ເຊ."}, {"ສຶກ", "ສາ"}};
	inline_span_t s = span(text, FONT_REGULAR, 0, NULL);
	int inside = 0;
	for (int32_t w = 150000; w <= 400000; w += 10000) {
		inline_opts_t o = opts(w, INLINE_JUSTIFY);
		inline_result_t r;
		errs_t e;
		errs_init(&e);
		o.lang = NULL;
		o.hyph = NULL;
		EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
		EQ_INT(e.n, 0);
		check_lines(&r, &o);
		CHECK(r.nlines >= 2);
		const char *p = text;
		for (int i = 0; i < r.nlines; i++) {
			const char *t = line_text(&r.lines[i]);
			size_t n = strlen(t);
			CHECK(strncmp(p, t, n) == 0);
			p += n;
			if (i + 1 < r.nlines) {
				/* within the layouts' text.loose_stretch (2.0) */
				CHECK(r.lines[i].ratio <= 2000 && !r.lines[i].overfull);
				EQ_INT(r.lines[i].width, w);
				if (*p == ' ')
					p++;
				else
					inside++;
			}
		}
		const char *all = lines_of(&r);
		for (size_t k = 0; k < sizeof(whole) / sizeof(whole[0]); k++) {
			char cut[64];
			snprintf(cut, sizeof(cut), "%s|%s", whole[k][0], whole[k][1]);
			CHECK(!strstr(all, cut));
		}
		errs_done(&e);
	}
	CHECK(inside > 10);    /* lines do end between syllables */
}

/* text with '|' before each syllable inline_syllables finds */
static const char *syllables_of(const char *text)
{
	static char out[1024];
	char st[512];
	size_t n = strlen(text), k = 0;
	inline_syllables(text, n, st);
	for (size_t i = 0; i < n && k + 2 < sizeof(out); i++) {
		if (st[i])
			out[k++] = '|';
		out[k++] = text[i];
	}
	out[k] = 0;
	return out;
}

/* Lao orthographic syllables: every vowel is written, some as letters
 * (ອ ɔː, ວ ua, ຽ), and one consonant ends a syllable at most: a syllable
 * whose onset carries no mark (ຂອງ, ຄອມ, ສອງ, ຄວາມ) starts where its
 * onset does (none was found: the one before took it in); a medial, ຫ's
 * sonorant, a letter U+0ECC silences start none; a final before ວ and a
 * mark (ກວ່າ) may be an onset or not: no start. Khmer and Myanmar as
 * they were. */
TEST(sa_syllable_rules)
{
	static const char *const cases[][2] = {
		{"ການແນະນຳຂອງອາຈານສົມສັກ", "ການ|ແນະ|ນຳ|ຂອງ|ອາ|ຈານ|ສົມ|ສັກ"},
		{"ຄອມພິວເຕີ", "ຄອມ|ພິວ|ເຕີ"},
		{"ປີທີສອງຢູ່ມະຫາວິທະຍາໄລແຫ່ງຊາດລາວ", "ປີ|ທີ|ສອງ|ຢູ່|ມະ|ຫາ|ວິ|ທະ|ຍາ|ໄລ|ແຫ່ງ|ຊາດ|ລາວ"},
		{"ຄວາມຮູ້", "ຄວາມ|ຮູ້"},
		{"ການມອບໝາຍ", "ການ|ມອບ|ໝາຍ"},
		{"ດາວດວງ", "ດາວ|ດວງ"},
		{"ອອກແບບ", "ອອກ|ແບບ"},
		{"ຮຽນຮູ້ໜັງສື", "ຮຽນ|ຮູ້|ໜັງ|ສື"},
		{"ນະຄອນຫຼວງພະບາງ", "ນະ|ຄອນ|ຫຼວງ|ພະ|ບາງ"},
		{"ສະຫວ່າງ", "ສະ|ຫວ່າງ"},
		{"ເຄື່ອງຈັກຂ້ອຍ", "ເຄື່ອງ|ຈັກ|ຂ້ອຍ"},
		{"ໂປຣແກຣມ", "ໂປຣ|ແກຣມ"},
		{"ຫຼາຍກວ່າ", "ຫຼາຍກວ່າ"},
		{"ຂອງໆ", "ຂອງໆ"},
		{"សាស្ត្រ", "សា|ស្ត្រ"},
		{"ကျွန်မ", "ကျွန်|မ"},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		EQ_STR(syllables_of(cases[k][0]), cases[k][1]);
}

/* Khmer's khan ។ and bariyoosan ៕, Myanmar's little section ၊ and
 * section ။ end a sentence or clause (UAX #14: BA): they belong to the
 * syllable before them (no break, no syllable start before them, nor a
 * break at a space before them: a line never starts with one; it did
 * after a space, 'ខ្ញុំ ។') and a line may break after them, with no space
 * after (Khmer writes none after ។ at times) as with one. */
TEST(sa_punctuation)
{
	static const char *const texts[] = {
		"ក្រោមការណែនាំរបស់សាស្ត្រាចារ្យហេងសុវណ្ណ។ចំណាប់អារម្មណ៍ស្រាវជ្រាវរបស់ខ្ញុំគឺប្រព័ន្ធរៀនម៉ាស៊ីន"
		"ជាពិសេសការបណ្តុះបណ្តាលគំរូភាសាធំៗ។ពីមុនខ្ញុំធ្លាប់ធ្វើការនៅមន្ទីរពិសោធន៍នៅសៀមរាប៕និងបាត់ដំបង។",
		"သုတေသီဖြစ်ပြီးပါမောက္ခဦးအောင်မြင့်၏လမ်းညွှန်မှုဖြင့်လုပ်ကိုင်နေပါသည်။ကျွန်မ၏ဘာသာစကားမော်ဒယ်များကို"
		"ထိရောက်စွာလေ့ကျင့်ခြင်း၊ဖြစ်ပါသည်။ယခင်ကမန္တလေးနှင့်နေပြည်တော်ရှိဓာတ်ခွဲခန်းများတွင်အလုပ်လုပ်ခဲ့ပါသည်။",
		"ក្រោមការណែនាំរបស់សាស្ត្រាចារ្យ ហេង សុវណ្ណ។ ចំណាប់អារម្មណ៍ស្រាវជ្រាវរបស់ខ្ញុំ ។ គឺប្រព័ន្ធរៀនម៉ាស៊ីន "
		"ជាពិសេសការបណ្តុះបណ្តាលគំរូភាសាធំៗ ៕ ពីមុនខ្ញុំធ្លាប់ធ្វើការនៅមន្ទីរពិសោធន៍នៅសៀមរាប និងបាត់ដំបង ។",
		"သုတေသီဖြစ်ပြီး ပါမောက္ခ ဦးအောင်မြင့်၏ လမ်းညွှန်မှုဖြင့် လုပ်ကိုင်နေပါသည် ။ ကျွန်မ၏ ဘာသာစကားမော်ဒယ်များကို "
		"ထိရောက်စွာ လေ့ကျင့်ခြင်း ၊ ဖြစ်ပါသည်။ ယခင်က မန္တလေးနှင့် နေပြည်တော်ရှိ ဓာတ်ခွဲခန်းများတွင် အလုပ်လုပ်ခဲ့ပါသည် ။",
	};
	static const char *const marks[] = {"។", "៕", "၊", "။"};
	for (int t = 0; t < 4; t++) {
		const char *text = texts[t];
		size_t n = strlen(text);
		char brks[2048], st[2048];
		CHECK(n < sizeof(brks));
		inline_breaks(text, n, NULL, brks);
		inline_syllables(text, n, st);
		int seen = 0;
		for (int k = 0; k < 4; k++)
			for (const char *q = text; (q = strstr(q, marks[k])); q += 3) {
				size_t at = (size_t)(q - text);
				seen++;
				EQ_INT(brks[at - 1], 2);  /* LINEBREAK_NOBREAK before */
				if (text[at - 1] == ' ')
					EQ_INT(brks[at - 2], 2);  /* and before its space */
				EQ_INT(st[at], 0);
				if (at + 3 < n)   /* LINEBREAK_ALLOWBREAK after (and its space) */
					EQ_INT(brks[text[at + 3] == ' ' ? at + 3 : at + 2], 1);
			}
		CHECK(seen >= 4);
		int after = 0;
		for (int align = 0; align < 2; align++)
			for (int32_t w = 60000; w <= 300000; w += 4000) {
				inline_span_t s = span(text, FONT_REGULAR, 0, NULL);
				inline_opts_t o = opts(w, align ? INLINE_JUSTIFY : INLINE_LEFT);
				o.lang = t % 2 ? "my" : "km";
				o.hyph = NULL;
				inline_result_t r;
				errs_t e;
				errs_init(&e);
				EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
				EQ_INT(e.n, 0);
				const char *p = text;
				for (int i = 0; i < r.nlines; i++) {
					const char *l = line_text(&r.lines[i]);
					size_t ln = strlen(l);
					CHECK(strncmp(p, l, ln) == 0);
					p += ln;
					if (*p == ' ')
						p++;
					for (int k = 0; k < 4; k++) {
						size_t mk = strlen(marks[k]);
						if (!strncmp(l, marks[k], mk)) {
							fprintf(stderr, "  line %d at %d u starts with %s\n", i, w, marks[k]);
							CHECK(0);
						}
						if (i + 1 < r.nlines && ln >= mk && !strcmp(l + ln - mk, marks[k]))
							after++;
					}
				}
				CHECK(*p == 0);
				errs_done(&e);
			}
		CHECK(after > 0);   /* lines do end after them */
		fprintf(stderr, "  %s: %d lines end after a sentence mark\n", t % 2 ? "my" : "km", after);
	}
}

/* A span in another language than the text (a publication with `lang:
 * en` in a German CV) is hyphenated with its own patterns, from the set;
 * one whose language has none (zh) is not hyphenated; a CV with no
 * patterns of its own (zh) still hyphenates its English spans. */
TEST(span_lang_hyphen)
{
	static const char text[] = "characterization internationalization responsibilities "
	                           "acknowledgements reconfigurable heterogeneous";
	errs_t e;
	errs_init(&e);
	hyph_t *de = hyph_open("de", &e);
	hyph_set_t *set = hyph_set_new();
	inline_result_t r;
	char want[4096], german[4096];
	/* English text, English patterns: the reference */
	inline_span_t s = span(text, FONT_REGULAR, 0, NULL);
	inline_opts_t o = opts(80000, INLINE_JUSTIFY);
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	snprintf(want, sizeof(want), "%s", lines_of(&r));
	CHECK(strchr(want, '-') != NULL);
	/* the same words in a German text: German points */
	o.lang = "de";
	o.hyph = de;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	snprintf(german, sizeof(german), "%s", lines_of(&r));
	CHECK(strcmp(german, want) != 0);
	/* marked English: English points, from the set */
	s.lang = "en";
	o.hyphs = set;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_STR(lines_of(&r), want);
	/* without the set, the span is not hyphenated */
	o.hyphs = NULL;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	CHECK(strchr(lines_of(&r), '-') == NULL);
	/* a Chinese CV (no patterns of its own) with an English span */
	o.lang = "zh";
	o.hyph = NULL;
	o.hyphs = set;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	EQ_STR(lines_of(&r), want);
	/* a span in a language with no patterns: none */
	s.lang = "zh-Hant";
	o.lang = "en";
	o.hyph = hy;
	EQ_INT(inline_set(A, &s, 1, &o, &r, &e), 0);
	CHECK(strchr(lines_of(&r), '-') == NULL);
	hyph_set_free(set);
	hyph_close(de);
	errs_done(&e);
}

int main(void)
{
	static const char *const dirs[] = {"fonts", NULL};
	errs_t e;
	errs_init(&e);
	lib = font_lib_new(dirs, &e);
	serif = lib ? font_chain_get(lib, "serif", &e) : NULL;
	hy = hyph_open("en", &e);
	if (!serif || !hy) {
		errs_print(stderr, &e);
		return 1;
	}
	A = arena_new();
	RUN(justified);
	RUN(ragged_text);
	RUN(cjk);
	RUN(cjk_last_line);
	RUN(hyphen_drawn);
	RUN(span_lang_hyphen);
	RUN(soft_hyphen);
	RUN(invisible_kinds);
	RUN(url);
	RUN(runs_across_spans);
	RUN(runs_across_like_spans);
	RUN(rtl_from_0590);
	RUN(rtl_plain_levels);
	RUN(rtl_words);
	RUN(rtl_width_as_set);
	RUN(rtl_marks_join);
	RUN(rtl_simple_levels);
	RUN(rtl_shape);
	RUN(overflow);
	RUN(missing);
	RUN(flags);
	RUN(huge_word);
	RUN(width_by_words);
	RUN(own_hyphen);
	RUN(forced_and_empty);
	RUN(indent);
	RUN(pretolerance);
	RUN(memo_same);
	RUN(cache_same);
	RUN(sa_syllables);
	RUN(sa_syllable_rules);
	RUN(sa_punctuation);
	arena_free(A);
	hyph_close(hy);
	font_lib_free(lib);
	errs_done(&e);
	return t_report();
}
