/* test_paginate: the page breaker with made-up heights (no fonts). */
#include "layout.h"
#include "t.h"

#define L(h) {(h), 0, 0}
#define K(h) {(h), 0, 1}   /* a line kept with the next */
#define G(h) {(h), 1, 0}
#define GK(h) {(h), 1, 1}  /* a gap that must not become a break */

/* Everything fits: one page. */
TEST(test_one_page)
{
	layout_box_t b[] = {L(10), L(10), G(5), L(10)};
	layout_page_t p[4];
	EQ_INT(layout_paginate(b, 4, 100, 100, p), 1);
	EQ_INT(p[0].start, 0);
	EQ_INT(p[0].end, 4);
}

/* A full page breaks at the last allowed break; the gap at the break
 * vanishes at the top of the next page. */
TEST(test_break_at_gap)
{
	layout_box_t b[] = {L(10), L(10), G(5), L(10), L(10), L(10)};
	layout_page_t p[6];
	/* 10+10+5+10+10 = 45 fits in 45; the last line does not */
	EQ_INT(layout_paginate(b, 6, 45, 45, p), 2);
	EQ_INT(p[0].end, 5);
	EQ_INT(p[1].start, 5);
	EQ_INT(p[1].end, 6);
}

/* A kept title is never the last thing on a page: the page breaks before
 * it, at the gap, even though the title itself would fit. */
TEST(test_stranded_title)
{
	layout_box_t b[] = {L(10), L(10), G(5), K(10), GK(3), K(10), L(10)};
	layout_page_t p[7];
	EQ_INT(layout_paginate(b, 7, 40, 100, p), 2);
	EQ_INT(p[0].end, 3);     /* lines, then the gap */
	EQ_INT(p[1].start, 3);   /* the title starts page 2 */
	EQ_INT(p[1].end, 7);
}

/* No allowed break on a full page: break where it is full. */
TEST(test_no_break_allowed)
{
	layout_box_t b[] = {K(10), K(10), K(10), K(10), L(10)};
	layout_page_t p[5];
	EQ_INT(layout_paginate(b, 5, 25, 25, p), 3);
	EQ_INT(p[0].end, 2);
	EQ_INT(p[1].end, 4);
	EQ_INT(p[2].end, 5);
}

/* The first page may be shorter (a header above the columns). */
TEST(test_first_page_shorter)
{
	layout_box_t b[] = {L(10), L(10), L(10), L(10)};
	layout_page_t p[4];
	EQ_INT(layout_paginate(b, 4, 10, 30, p), 2);
	EQ_INT(p[0].end, 1);
	EQ_INT(p[1].start, 1);
	EQ_INT(p[1].end, 4);
}

/* A line taller than the page still goes somewhere (alone); gaps never
 * push a page over (they end it); nothing makes an empty page. */
TEST(test_overtall_and_gaps)
{
	layout_box_t b[] = {L(50), G(5), G(5), L(10)};
	layout_page_t p[4];
	int n = layout_paginate(b, 4, 20, 20, p);
	EQ_INT(n, 2);
	EQ_INT(p[0].start, 0);
	EQ_INT(p[0].end, 3);
	EQ_INT(p[1].start, 3);
	EQ_INT(layout_paginate(b, 0, 20, 20, p), 0);
}

static int over_of(const layout_box_t *b, int n, int32_t first, int32_t avail, int max)
{
	layout_over_t o = {0};
	for (int i = 0; i < n; i++)
		layout_over_add(&o, &b[i]);
	return layout_over(&o, first, avail, max);
}

/* layout_over's bound is tight: three lines fill the first page (30),
 * a gap of 5 is the break, four lines fill the second (40): 75 =
 * R1 + (A + G) still fits two pages, and is not said to be over; one line
 * more is, and takes a third page. */
TEST(test_over_tight)
{
	layout_box_t b[] = {L(10), L(10), L(10), G(5), L(10), L(10), L(10), L(10), L(10)};
	layout_page_t p[9];
	EQ_INT(layout_paginate(b, 8, 30, 40, p), 2);
	EQ_INT(over_of(b, 8, 30, 40, 2), 0);
	EQ_INT(layout_paginate(b, 9, 30, 40, p), 3);
	EQ_INT(over_of(b, 9, 30, 40, 2), 1);
	/* a line taller than a page proves nothing (it is set anyway) */
	layout_box_t t[] = {L(50), L(50), L(50)};
	EQ_INT(over_of(t, 3, 40, 40, 1), 0);
	EQ_INT(over_of(b, 9, 30, 40, 0), 0);
}

/* Whenever layout_over says a prefix needs more than max pages, the
 * prefix followed by anything does: random lists (heights, gaps, keeps),
 * every prefix, random tails. */
TEST(test_over_sound)
{
	unsigned x = 12345;
#define RND(k) ((x = x * 1103515245u + 12345u) >> 16) % (unsigned)(k)
	layout_box_t b[64];
	layout_page_t p[64];
	int said = 0;
	for (int round = 0; round < 3000; round++) {
		int n = 1 + (int)RND(63), max = 1 + (int)RND(3);
		int32_t avail = 20 + (int32_t)RND(60), first = 5 + (int32_t)RND((unsigned)avail);
		for (int i = 0; i < n; i++) {
			int gap = RND(4) == 0;
			b[i] = (layout_box_t){gap ? (int32_t)RND(12) : 1 + (int32_t)RND(18), gap,
			                      RND(3) == 0};
		}
		layout_over_t o = {0};
		for (int k = 0; k < n; k++) {
			layout_over_add(&o, &b[k]);
			if (!layout_over(&o, first, avail, max))
				continue;
			said++;
			/* this prefix and two other tails */
			for (int tail = 0; tail < 3; tail++) {
				for (int i = k + 1; tail && i < n; i++)
					b[i].h = b[i].gap ? (int32_t)RND(12) : 1 + (int32_t)RND(18);
				int m = tail ? n : k + 1;
				int np = layout_paginate(b, m, first, avail, p);
				if (np <= max)
					fprintf(stderr, "round %d: %d boxes, prefix %d: %d pages, max %d\n",
					        round, m, k + 1, np, max);
				CHECK(np > max);
			}
			break;
		}
	}
	CHECK(said > 100);
#undef RND
}

int main(void)
{
	RUN(test_one_page);
	RUN(test_break_at_gap);
	RUN(test_stranded_title);
	RUN(test_no_break_allowed);
	RUN(test_first_page_shorter);
	RUN(test_overtall_and_gaps);
	RUN(test_over_tight);
	RUN(test_over_sound);
	return t_report();
}
