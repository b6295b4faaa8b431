/* para: breaking a paragraph into lines (boxes, glue, penalties).
 *
 * One entry point. A Knuth-Plass whole-paragraph optimiser (demerits,
 * fitness classes, a penalty for consecutive hyphenated lines and for a
 * too-short last line) with a greedy fallback used when the optimiser
 * finds no feasible break sequence within its tolerance or the paragraph
 * is larger than PARA_MAX_OPTIMAL items. Pure: widths are made-up integers
 * (u) and no fonts are needed, so it is unit-tested alone.
 */
#ifndef VITA_PARA_H
#define VITA_PARA_H
#include <stdint.h>

#define PARA_INF 10000            /* penalty >= INF: no break; <= -INF: forced */
#define PARA_MAX_OPTIMAL 20000    /* items; above this, greedy */
#define PARA_FIL 0x10000000       /* glue stretch >= this is infinite (fil) */
#define PARA_HYPHEN_LIMIT 8       /* the largest hyphen_limit that is kept to */

enum { PARA_BOX, PARA_GLUE, PARA_PENALTY };

typedef struct para_item {
	int type;                 /* PARA_* */
	int32_t w;                /* u: width (penalty: width if broken here, e.g. a hyphen) */
	int32_t stretch, shrink;  /* u: glue only */
	int32_t penalty;          /* penalty only */
	int flagged;              /* penalty only: a hyphen break */
} para_item_t;

typedef struct para_opts {
	int32_t width;            /* u: line width */
	int32_t first_width;      /* u: first line width; 0 = width */
	int32_t tolerance;        /* max adjustment ratio x 1000 (e.g. 2000 = 2.0) */
	int32_t line_penalty;     /* added to each line's badness (TeX: 10) */
	int32_t hyphen_demerits;  /* two flagged breaks in a row (TeX: 10000) */
	int32_t fitness_demerits; /* adjacent lines' fitness classes differ by > 1 */
	int32_t last_line_min;    /* permille of width the last line should fill; shorter costs demerits */
	int hyphen_limit;         /* most hyphenated lines in a row (0, or over PARA_HYPHEN_LIMIT: any) */
	int greedy;               /* 1: always greedy */
	int one_pass;             /* 1: only the tolerance pass (TeX's pretolerance
	                             pass): no rescue pass, no greedy fallback */
	int no_shortcut;          /* 1: run the optimiser even where the answer is
	                             known to be one line (tests compare) */
} para_opts_t;

void para_opts_default(para_opts_t *o);

typedef struct para_line {
	int start;                /* first item on the line (after discarded glue/penalties) */
	int end;                  /* the break item (exclusive end of the line's content) */
	int32_t ratio;            /* adjustment ratio x 1000 (< 0: shrunk); 0 for the last line */
	int hyphen;               /* 1: broken at a flagged penalty (draw a hyphen) */
	int overfull;             /* 1: content wider than the measure even fully shrunk */
} para_line_t;

/* Break items[0..n) (which must end with a forced break, as usual:
 * glue(0, inf stretch) + penalty(-INF)). Fills *lines (para's own
 * memory, valid until the next call; not to be freed) and *nlines. Returns 0, or 1 when the greedy fallback was used.
 * With o->one_pass, returns -1 (no lines) when no break sequence has every
 * line within the tolerance, or when the optimiser would not run (greedy,
 * more than PARA_MAX_OPTIMAL items). */
int para_break(const para_item_t *items, int n, const para_opts_t *o,
               para_line_t **lines, int *nlines);

#endif
