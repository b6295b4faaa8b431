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

int main(void)
{
	RUN(test_one_page);
	RUN(test_break_at_gap);
	RUN(test_stranded_title);
	RUN(test_no_break_allowed);
	RUN(test_first_page_shorter);
	RUN(test_overtall_and_gaps);
	return t_report();
}
