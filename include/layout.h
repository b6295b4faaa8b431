/* layout: model + style + fonts -> page list.
 *
 * Blocks (header, section titles, entries, publications, news, lists,
 * text) are built as lists of set lines (inline.c) with keep rules, then
 * paginated: a section title never ends a page, an entry's title block
 * stays with its first line, a short entry is not split, no widows or
 * orphans in paragraphs. Then footers and bookmarks are added.
 */
#ifndef VITA_LAYOUT_H
#define VITA_LAYOUT_H
#include "err.h"
#include "font.h"
#include "hyph.h"
#include "locale.h"
#include "model.h"
#include "page.h"
#include "style.h"

typedef struct layout_opts {
	long long epoch;        /* "now" for the updated date and PDF dates */
	int strict;             /* characters no font has are errors, not warnings */
	const vlocale_t *loc;    /* the fixed words (month names, footer, title...) */
	hyph_set_t *hyphs;       /* hyphenation patterns kept across renders; NULL:
	                            opened (and parsed if needed) per render */
} layout_opts_t;

/* Lay out m; NULL with errors in e on failure (warnings are kept in e). */
page_doc_t *layout_render(const model_t *m, const style_t *s, font_lib_t *lib,
                          const layout_opts_t *o, errs_t *e);
/* Record in deps the hyphenation patterns layout_render of m with s reads
 * (from hyphs when given), without laying out: batch --changed compares
 * them with the output before it renders. */
void layout_hyph_deps(const model_t *m, const style_t *s, hyph_set_t *hyphs);
/* Subset every face the document uses and fill d->faces (in d->arena). */
int layout_subset(page_doc_t *d, font_lib_t *lib, errs_t *e);
/* Report (as warnings, or errors when strict) every character of the
 * profile's text that no face of the layout's chains can draw, located.
 * Returns the number of such characters. */
int layout_coverage(const model_t *m, const style_t *s, font_lib_t *lib, int strict, errs_t *e);

/* Pagination, pure (layout_vlist.c): the vertical list seen as boxes. */
typedef struct layout_box {
	int32_t h;              /* u: height (a line: baseline to baseline) */
	int gap;                /* 1: a gap, which vanishes at the top of a page */
	int keep;               /* 1: no page break right after this box */
} layout_box_t;

typedef struct layout_page {
	int start, end;         /* boxes [start, end) go on this page */
} layout_page_t;

/* Cut n boxes into pages avail_first high (the first) and avail (the
 * rest); pages has room for n entries. Returns the number of pages. */
int layout_paginate(const layout_box_t *b, int n, int32_t avail_first, int32_t avail,
                    layout_page_t *pages);

/* A lower bound on the pages of a list still being built (fit's measured
 * attempts stop once theirs pass fit.pages): add its boxes in order;
 * layout_over(o, first, avail, max) = 1 proves that layout_paginate of
 * those boxes followed by any others, with the same rooms, gives more than
 * max pages. Zero it to start. */
typedef struct layout_over {
	int64_t y;              /* u: the boxes' heights so far */
	int64_t last;           /* u: the sum up to the last non-gap box */
	int64_t run, g;         /* u: the gaps since it; the tallest such run */
	int32_t tallest;        /* u: the tallest non-gap box */
} layout_over_t;
void layout_over_add(layout_over_t *o, const layout_box_t *b);
int layout_over(const layout_over_t *o, int32_t avail_first, int32_t avail, int max);

/* fit's search (docs/layouts.md, "Fit") over the steps 1..10, step 0
 * known not to fit: attempt(ctx, k, lo) tries step k and says whether it fits
 * (1), does not (0), or ends the search (-1); lo is the largest step
 * known not to fit (0 at first), so that k - 1 == lo means that k is kept
 * if it fits. From guess (1..10), galloping away from it (1, 2, 4 ...
 * steps) while the answers agree, then bisecting between the nearest step
 * that fits and the nearest that does not; with no guess (0), step 10
 * first, then bisecting. Each step is tried at most once, at most 6 in
 * all. Returns the step kept: one tried that fits whose step below was
 * tried and does not fit (or is 0), the smallest that fits when fitting
 * is monotone in the step; 11 when none tried fits (step 10 was then
 * tried); -1 when attempt ended it. */
int layout_fit_search(int guess, int (*attempt)(void *ctx, int k, int lo), void *ctx);

#endif
