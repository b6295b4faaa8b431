/* test_para: the line breaker with made-up widths (no fonts). */
#include <stdlib.h>
#include <time.h>
#include "para.h"
#include "t.h"

#define MAXIT 64

typedef struct pb {
	para_item_t it[MAXIT];
	int n;
} pb_t;

static void box(pb_t *p, int32_t w)
{
	p->it[p->n++] = (para_item_t){PARA_BOX, w, 0, 0, 0, 0};
}

static void glue(pb_t *p, int32_t w, int32_t st, int32_t sh)
{
	p->it[p->n++] = (para_item_t){PARA_GLUE, w, st, sh, 0, 0};
}

static void pen(pb_t *p, int32_t w, int32_t pen_, int flagged)
{
	p->it[p->n++] = (para_item_t){PARA_PENALTY, w, 0, 0, pen_, flagged};
}

static void finish(pb_t *p)
{
	glue(p, 0, PARA_FIL, 0);
	pen(p, 0, -PARA_INF, 0);
}

/* Words with glue 10 (+5 -3) between them. */
static void words(pb_t *p, const int *w, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			glue(p, 10, 5, 3);
		box(p, w[i]);
	}
	finish(p);
}

static int32_t max_ratio(const para_line_t *l, int n)
{
	int32_t m = 0;
	for (int i = 0; i + 1 < n; i++)
		if (l[i].ratio > m)
			m = l[i].ratio;
	return m;
}

/* Greedy fills line 1 and leaves line 2 very loose (ratio 2.8); the
 * optimiser spreads the words so no line is looser than 0.67. */
TEST(classic)
{
	static const int w[] = {10, 24, 11, 17, 8, 14, 21, 17, 34, 16, 35, 17, 14};
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l;
	int n;
	words(&p, w, 13);
	para_opts_default(&o);
	o.width = 100;
	o.tolerance = 10000;
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), 0);
	EQ_INT(n, 4);
	EQ_INT(l[0].start, 0);
	EQ_INT(l[0].end, 7);
	EQ_INT(l[1].start, 8);
	EQ_INT(l[1].end, 15);
	EQ_INT(l[2].end, 21);
	EQ_INT(l[3].end, 26);
	EQ_INT(l[3].ratio, 0);
	CHECK(max_ratio(l, n) <= 700);
	o.greedy = 1;
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), 1);
	EQ_INT(n, 4);
	EQ_INT(l[1].ratio, 2800);
}

/* "A B C1-C2 D": a cheap hyphen beats a loose line; an expensive one not. */
static int hyph_case(int32_t penalty)
{
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l;
	int n, h;
	box(&p, 35); glue(&p, 10, 15, 5);
	box(&p, 35); glue(&p, 10, 15, 5);
	box(&p, 10); pen(&p, 5, penalty, 1); box(&p, 20); glue(&p, 10, 15, 5);
	box(&p, 60);
	finish(&p);
	para_opts_default(&o);
	o.width = 100;
	para_break(p.it, p.n, &o, &l, &n);
	h = n == 2 ? l[0].hyphen : -1;
	if (n == 2 && h)
		CHECK(l[0].end == 5 && l[1].start == 6);
	return h;
}

TEST(hyphen_penalty)
{
	EQ_INT(hyph_case(50), 1);
	EQ_INT(hyph_case(500), 0);
}

/* Two lines that would both end hyphenated: hyphen_demerits decides. */
static int consecutive(int32_t hd)
{
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l;
	int n, twice = 0;
	box(&p, 35); glue(&p, 10, 15, 5);
	box(&p, 35); glue(&p, 10, 15, 5);
	box(&p, 10); pen(&p, 5, 50, 1); box(&p, 20); glue(&p, 10, 15, 5);
	box(&p, 35); glue(&p, 10, 15, 5);
	box(&p, 25); pen(&p, 5, 50, 1); box(&p, 20); glue(&p, 10, 15, 5);
	box(&p, 40);
	finish(&p);
	para_opts_default(&o);
	o.width = 100;
	o.tolerance = 5000;
	o.hyphen_demerits = hd;
	para_break(p.it, p.n, &o, &l, &n);
	for (int i = 0; i + 1 < n; i++)
		if (l[i].hyphen && l[i + 1].hyphen)
			twice = 1;
	return twice;
}

TEST(consecutive_hyphens)
{
	EQ_INT(consecutive(0), 1);
	EQ_INT(consecutive(50000000), 0);
}

TEST(forced_breaks)
{
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l;
	int n;
	box(&p, 20); glue(&p, 10, 5, 3); box(&p, 20);
	glue(&p, 0, PARA_FIL, 0); pen(&p, 0, -PARA_INF, 0);
	glue(&p, 0, PARA_FIL, 0); pen(&p, 0, -PARA_INF, 0);   /* empty line */
	box(&p, 30);
	finish(&p);
	para_opts_default(&o);
	o.width = 100;
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), 0);
	EQ_INT(n, 3);
	EQ_INT(l[0].start, 0);
	EQ_INT(l[0].end, 4);
	EQ_INT(l[0].ratio, 0);
	EQ_INT(l[1].start, 6);
	EQ_INT(l[1].end, 6);
	EQ_INT(l[2].start, 7);
	EQ_INT(l[2].end, 9);
}

TEST(overlong_box)
{
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l;
	int n, over = 0;
	box(&p, 30); glue(&p, 10, 5, 3); box(&p, 40); glue(&p, 10, 5, 3);
	box(&p, 250); glue(&p, 10, 5, 3);
	box(&p, 40); glue(&p, 10, 5, 3); box(&p, 30);
	finish(&p);
	para_opts_default(&o);
	o.width = 100;
	para_break(p.it, p.n, &o, &l, &n);
	EQ_INT(n, 3);
	for (int i = 0; i < n; i++)
		if (l[i].overfull) {
			over++;
			EQ_INT(l[i].start, 4);
			EQ_INT(l[i].end, 5);
		}
	EQ_INT(over, 1);
}

TEST(empty)
{
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l = (para_line_t *)&p;
	int n = -1;
	para_opts_default(&o);
	o.width = 100;
	EQ_INT(para_break(p.it, 0, &o, &l, &n), 0);
	EQ_INT(n, 0);
	CHECK(l == NULL);
	finish(&p);
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), 0);
	EQ_INT(n, 1);
}

/* A short last line costs demerits: with last_line_min the optimiser
 * takes a word down to it. */
TEST(last_line)
{
	static const int w[] = {30, 30, 25, 30, 30, 20, 10};
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l;
	int n;
	int32_t lastw = 0;
	for (int i = 0; i < 7; i++) {
		if (i)
			glue(&p, 10, 30, 3);
		box(&p, w[i]);
	}
	finish(&p);
	para_opts_default(&o);
	o.width = 100;
	o.last_line_min = 0;
	para_break(p.it, p.n, &o, &l, &n);
	EQ_INT(n, 3);
	EQ_INT(l[2].start, 12);     /* "10" alone */
	o.last_line_min = 300;
	para_break(p.it, p.n, &o, &l, &n);
	EQ_INT(n, 3);
	for (int i = l[n - 1].start; i < l[n - 1].end; i++)
		lastw += p.it[i].w;
	CHECK(lastw >= 30);
}

TEST(first_width)
{
	static const int w[] = {40, 40, 40, 40, 40, 40};
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l;
	int n;
	words(&p, w, 6);
	para_opts_default(&o);
	o.width = 140;
	o.first_width = 90;
	para_break(p.it, p.n, &o, &l, &n);
	EQ_INT(n, 3);
	EQ_INT(l[0].end, 3);
}

/* one_pass: the classic paragraph sets within ratio 1.0 but not 0.5; a
 * failed pass gives -1 and no lines, never a rescue or greedy setting. */
TEST(one_pass)
{
	static const int w[] = {10, 24, 11, 17, 8, 14, 21, 17, 34, 16, 35, 17, 14};
	pb_t p = {.n = 0};
	para_opts_t o;
	para_line_t *l, *l2;
	int n, n2;
	words(&p, w, 13);
	para_opts_default(&o);
	o.width = 100;
	o.one_pass = 1;
	o.tolerance = 1000;
	int ends[8] = {0};
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), 0);
	EQ_INT(n, 4);
	CHECK(max_ratio(l, n) <= 1000);
	for (int i = 0; i < n && i < 8; i++)
		ends[i] = l[i].end;   /* the next call reuses l */
	o.one_pass = 0;
	EQ_INT(para_break(p.it, p.n, &o, &l2, &n2), 0);
	EQ_INT(n2, n);
	for (int i = 0; i < n && i < n2 && i < 8; i++)
		EQ_INT(l2[i].end, ends[i]);
	o.one_pass = 1;
	o.tolerance = 300;
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), -1);
	CHECK(l == NULL && n == 0);
	o.tolerance = 1000;
	o.greedy = 1;
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), -1);
	CHECK(l == NULL && n == 0);
	/* an overlong box: never feasible */
	p.n = 0;
	box(&p, 150);
	finish(&p);
	o.greedy = 0;
	o.tolerance = 100000;
	EQ_INT(para_break(p.it, p.n, &o, &l, &n), -1);
	CHECK(l == NULL && n == 0);
}

/* The one-line shortcut gives what the optimiser gives, and declines
 * what it must: random paragraphs near one line wide (words, hyphen
 * points with widths, bonuses, forced breaks, zero-width glue), ragged and
 * justified, with a first line of its own width, both ways. */
static void forced(pb_t *p)
{
	pen(p, 0, PARA_INF, 0);
	glue(p, 0, PARA_FIL, 0);
	pen(p, 0, -PARA_INF, 0);
}

static uint32_t rs = 7;
static int rn(int m)
{
	rs = rs * 1103515245u + 12345u;
	return (int)((rs >> 8) % (uint32_t)m);
}

TEST(one_line_shortcut)
{
	int ones = 0, more = 0;
	for (int t = 0; t < 20000; t++) {
		pb_t p = {.n = 0};
		para_opts_t o;
		para_line_t *l, a[64];
		int n, na, ra, rb, words = 1 + rn(8);
		for (int i = 0; i < words; i++) {
			box(&p, 5 + rn(30));
			if (rn(4) == 0)
				pen(&p, rn(12), rn(5) == 0 ? -50 : 50, 1);
			if (rn(6) == 0)
				box(&p, rn(10));
			if (i + 1 < words) {
				if (rn(10) == 0)
					forced(&p);
				else
					glue(&p, rn(12), rn(8), rn(5));
			}
		}
		finish(&p);
		para_opts_default(&o);
		o.width = 40 + rn(120);
		o.first_width = rn(3) == 0 ? 30 + rn(100) : 0;
		o.tolerance = rn(2) ? 1000 : 3000;
		o.one_pass = rn(3) == 0;
		o.no_shortcut = 1;
		ra = para_break(p.it, p.n, &o, &l, &na);
		if (na > 64)
			continue;
		if (na > 0)
			memcpy(a, l, sizeof(*l) * (size_t)na);
		o.no_shortcut = 0;
		rb = para_break(p.it, p.n, &o, &l, &n);
		EQ_INT(rb, ra);
		EQ_INT(n, na);
		for (int i = 0; i < n && i < na; i++) {
			EQ_INT(l[i].start, a[i].start);
			EQ_INT(l[i].end, a[i].end);
			EQ_INT(l[i].ratio, a[i].ratio);
			EQ_INT(l[i].hyphen, a[i].hyphen);
			EQ_INT(l[i].overfull, a[i].overfull);
		}
		if (na == 1)
			ones++;
		else
			more++;
	}
	CHECK(ones > 2000 && more > 2000);
}

/* The longest run of hyphenated lines. */
static int hyphen_run(const para_line_t *l, int n)
{
	int best = 0, run = 0;
	for (int i = 0; i < n; i++) {
		run = l[i].hyphen ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/* hyphen_limit: random paragraphs of hyphenable words where hyphens cost
 * nothing, so that runs of three and more hyphenated lines are the
 * optimum. With a limit, each paragraph is either set within the limit and
 * the tolerance, or (when no such breaks exist) exactly as without the
 * limit; never the greedy fallback. */
TEST(hyphen_limit)
{
	static para_item_t it[4096];
	static para_line_t l0[512];
	unsigned seed = 12345;
	int over3 = 0, kept[3] = {0, 0, 0};
	for (int round = 0; round < 200; round++) {
		int n = 0;
		for (int wd = 0; wd < 60; wd++) {
			if (wd)
				it[n++] = (para_item_t){PARA_GLUE, 10, 5, 3, 0, 0};
			int parts = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 3;
			for (int k = 0; k < parts; k++) {
				if (k)
					it[n++] = (para_item_t){PARA_PENALTY, 4, 0, 0, 0, 1};
				int w = 12 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 25;
				it[n++] = (para_item_t){PARA_BOX, w, 0, 0, 0, 0};
			}
		}
		it[n++] = (para_item_t){PARA_GLUE, 0, PARA_FIL, 0, 0, 0};
		it[n++] = (para_item_t){PARA_PENALTY, 0, 0, 0, -PARA_INF, 0};
		para_opts_t o;
		para_line_t *l;
		int nl, n0;
		para_opts_default(&o);
		o.width = 230;
		o.hyphen_demerits = 0;
		o.fitness_demerits = 0;
		EQ_INT(para_break(it, n, &o, &l, &n0), 0);
		memcpy(l0, l, sizeof(*l) * (size_t)(n0 < 512 ? n0 : 512));
		if (hyphen_run(l0, n0) >= 3)
			over3++;
		for (int lim = 1; lim <= 3; lim++) {
			o.hyphen_limit = lim;
			EQ_INT(para_break(it, n, &o, &l, &nl), 0);
			if (hyphen_run(l, nl) <= lim) {
				/* within the tolerance, unless no breaks are */
				CHECK(max_ratio(l, nl) <= o.tolerance || max_ratio(l0, n0) > o.tolerance);
				kept[lim - 1]++;
				continue;
			}
			/* kept to no limit: the breaks without it */
			EQ_INT(nl, n0);
			for (int i = 0; i < nl && i < n0; i++)
				EQ_INT(l[i].end, l0[i].end);
		}
		o.hyphen_limit = PARA_HYPHEN_LIMIT + 1;   /* over the largest: any */
		EQ_INT(para_break(it, n, &o, &l, &nl), 0);
		EQ_INT(nl, n0);
		EQ_INT(hyphen_run(l, nl), hyphen_run(l0, n0));
	}
	CHECK(over3 > 100);   /* the test can fail: ladders are the optimum here */
	/* most paragraphs keep to the limit, the more the looser it is */
	CHECK(kept[0] > 60 && kept[1] > 120 && kept[2] > 150);
	/* ways are dropped only against the best of the same run: pruned
	   against the best of all, 2 and 1 of these were lost (146, 180) */
	CHECK(kept[1] >= 148 && kept[2] >= 181);
	CHECK(kept[0] <= kept[1] && kept[1] <= kept[2]);
}

/* One million items: greedy and linear (make bench times whole renders). */
TEST(huge)
{
	int nw = 333333, n = 0;
	para_item_t *it = malloc(sizeof(*it) * (size_t)(nw * 3 + 2));
	para_opts_t o;
	para_line_t *l;
	int nl;
	for (int i = 0; i < nw; i++) {
		it[n++] = (para_item_t){PARA_BOX, 20 + (i % 1000) * 7919 % 40, 0, 0, 0, 0};
		it[n++] = (para_item_t){PARA_PENALTY, 5, 0, 0, (i % 3) ? PARA_INF : 50, 1};
		it[n++] = (para_item_t){PARA_GLUE, 10, 5, 3, 0, 0};
	}
	it[n++] = (para_item_t){PARA_GLUE, 0, PARA_FIL, 0, 0, 0};
	it[n++] = (para_item_t){PARA_PENALTY, 0, 0, 0, -PARA_INF, 0};
	para_opts_default(&o);
	o.width = 500;
	EQ_INT(para_break(it, n, &o, &l, &nl), 1);
	CHECK(nl > 20000);
	for (int i = 0; i < nl; i++)
		CHECK(!l[i].overfull);
	EQ_INT(l[nl - 1].end, n - 1);
	free(it);
}

int main(void)
{
	RUN(classic);
	RUN(hyphen_penalty);
	RUN(consecutive_hyphens);
	RUN(hyphen_limit);
	RUN(forced_breaks);
	RUN(overlong_box);
	RUN(empty);
	RUN(last_line);
	RUN(first_width);
	RUN(one_pass);
	RUN(one_line_shortcut);
	RUN(huge);
	return t_report();
}
