/* para: Knuth-Plass line breaking with a greedy fallback; see para.h.
 *
 * para_break(items, n, opts, &lines, &nlines) chooses break points for a
 * paragraph of boxes, glue and penalties. The optimiser is TeX's: running
 * totals of width/stretch/shrink make any line's measure O(1); active
 * nodes (at most one per break and fitness class) are dropped as soon as
 * the line from them is overfull, so the work is about (items x breaks per
 * line). Demerits are (line_penalty + badness)^2 +- penalty^2, plus
 * fitness_demerits when adjacent lines' fitness classes differ by more than
 * one, hyphen_demerits for two hyphenated lines in a row (half of it when
 * the line before the last is hyphenated), and a quadratic charge for a
 * last line shorter than last_line_min permille of the measure. With
 * hyphen_limit, no more than that many hyphenated lines follow each other:
 * a node also knows how many end its line (hrun), and the best way to a
 * break is kept per fitness class and hrun, so a run that stops short of
 * the limit is not lost to a cheaper one that reaches it. The limit holds
 * only while every line stays within the tolerance: when it cannot, the
 * pass runs again without it (a ladder is better than loose lines), and
 * the final pass never keeps to it.
 *
 * Pass 1 uses opts->tolerance; pass 2 accepts any underfull line and, like
 * TeX's final pass, keeps an overfull line when nothing else is left (an
 * overlong box). Greedy first-fit is used above PARA_MAX_OPTIMAL items, on
 * request, or if pass 2 fails. With one_pass only pass 1 runs (the
 * caller's pretolerance pass; it hyphenates and calls again when that
 * fails). Glue with stretch >= PARA_FIL is infinite.
 * A line ending at a forced break is set at natural width when underfull
 * (ratio 0), like a paragraph's last line. Integers only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "para.h"

#define AWFUL ((int64_t)1 << 60)

void para_opts_default(para_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->tolerance = 2000;
	o->line_penalty = 10;
	o->hyphen_demerits = 10000;
	o->fitness_demerits = 10000;
	o->last_line_min = 200;
}

/* Running totals before item i. */
typedef struct sums {
	int64_t *w, *y, *z, *fil;
} sums_t;

typedef struct node {         /* an active or passive break */
	int pos;                  /* break item, -1 for the paragraph start */
	int start;                /* first item of the line after the break */
	int line;                 /* lines before this break */
	int fit;                  /* fitness class of the line ending here */
	int flagged;              /* broken at a flagged penalty */
	int hrun;                 /* hyphenated lines in a row ending here */
	int overfull;
	int32_t ratio;
	int64_t total;            /* total demerits */
	int prev;                 /* passive index of the previous break */
	int next;                 /* next active node (-1 = end) */
} node_t;

typedef struct kp {
	const para_item_t *it;
	int n;
	const para_opts_t *o;
	sums_t s;
	node_t *v;                /* all nodes ever made; never freed early */
	int nv, capv;
	int active;               /* head of the active list (by position) */
	int tail;                 /* its last node */
	int lim;                  /* the hyphen limit this pass keeps to (0: none) */
	int limited;              /* a line within the tolerance was refused for the limit */
} kp_t;

static int is_forced(const para_item_t *p)
{
	return p->type == PARA_PENALTY && p->penalty <= -PARA_INF;
}

/* Is item i a legal break (i == n: the virtual end)? Glue right before a
 * forced break is not: breaking there only adds an empty line (TeX puts
 * \penalty10000 before \parfillskip for the same reason). */
static int is_break(const para_item_t *it, int n, int i)
{
	if (i == n)
		return 1;
	if (it[i].type == PARA_PENALTY)
		return it[i].penalty < PARA_INF;
	if (it[i].type == PARA_GLUE)   /* not just before a forced break */
		return i > 0 && it[i - 1].type == PARA_BOX &&
		       !(i + 1 < n && is_forced(&it[i + 1]));
	return 0;
}

/* First item of the line after a break at b: glue and penalties are
 * discarded up to the next box or forced break. */
static int line_start(const para_item_t *it, int n, int b)
{
	int i = b + 1;
	while (i < n && it[i].type != PARA_BOX && !is_forced(&it[i]))
		i++;
	return i;
}

static int is_end_break(const para_item_t *it, int n, int b)
{
	return b == n || is_forced(&it[b]);
}

/* TeX's badness, about 100 (t/s)^3; unlike TeX's not capped at 10000
 * (up to BAD_MAX), so that when no solution is within tolerance, a ratio
 * of 3 still costs less than a ratio of 30. */
#define BAD_MAX 12500000
static int32_t badness(int64_t t, int64_t s)
{
	int64_t r;
	if (t <= 0)
		return 0;
	if (s <= 0)
		return BAD_MAX;
	r = t * 297 / s;
	if (r <= 1290)
		return (int32_t)((r * r * r + 0x20000) / 0x40000);
	r = t * 1000 / s;             /* ratio x 1000 */
	if (r >= 50000)
		return BAD_MAX;
	return (int32_t)(r * r * r / 10000000);
}

/* Geometry of a line from item s to the break b. */
typedef struct lmeas {
	int64_t w, y, z, fil;
} lmeas_t;

static int32_t line_width(const para_opts_t *o, int line)
{
	return line == 0 && o->first_width > 0 ? o->first_width : o->width;
}

static int32_t clamp32(int64_t v)
{
	if (v > INT32_MAX / 2)
		return INT32_MAX / 2;
	if (v < INT32_MIN / 2)
		return INT32_MIN / 2;
	return (int32_t)v;
}

/* Ratio (x1000) and badness of a line; *over is 1 when it cannot fit,
 * 2 when it is underfull with nothing to stretch (ratio 0, infinitely bad). */
static int32_t line_ratio(lmeas_t m, int32_t lw, int endb, int32_t *bad, int *over)
{
	int64_t t = lw - m.w;
	*over = 0;
	*bad = 0;
	if (t == 0)
		return 0;
	if (t > 0) {
		if (m.fil > 0 || endb)
			return 0;
		*bad = badness(t, m.y);
		if (m.y <= 0)
			*over = 2;
		return m.y > 0 ? clamp32(t * 1000 / m.y) : 0;
	}
	if (-t > m.z) {
		*over = 1;
		*bad = BAD_MAX;
		return -1000;
	}
	*bad = badness(-t, m.z);
	return clamp32(t * 1000 / m.z);
}

static int fitness(int64_t t, int32_t bad)
{
	if (t > 0)
		return bad > 99 ? 0 : bad > 12 ? 1 : 2;
	return bad > 12 ? 3 : 2;
}

/* Scratch kept from one paragraph to the next (thousands per CV): running
 * totals, nodes, the lines returned. Totals and nodes of a paragraph of
 * over KEEP_ITEMS items are let go after it. */
static struct {
	int64_t *w, *y, *z, *fil;
	size_t cap;
	node_t *v;
	int capv;
	para_line_t *l;
	int capl;
} pk;
#define KEEP_ITEMS 8192

static int kp_node(kp_t *k)
{
	if (k->nv == k->capv) {
		k->capv = k->capv ? k->capv * 2 : 256;
		k->v = xrealloc(k->v, (size_t)k->capv * sizeof(k->v[0]));
	}
	memset(&k->v[k->nv], 0, sizeof(k->v[0]));
	return k->nv++;
}

static int sums_init(sums_t *s, const para_item_t *it, int n)
{
	if ((size_t)n + 1 > pk.cap) {
		size_t sz = (size_t)(n + 1) * sizeof(int64_t);
		pk.cap = (size_t)n + 1;
		pk.w = xrealloc(pk.w, sz);
		pk.y = xrealloc(pk.y, sz);
		pk.z = xrealloc(pk.z, sz);
		pk.fil = xrealloc(pk.fil, sz);
	}
	s->w = pk.w;
	s->y = pk.y;
	s->z = pk.z;
	s->fil = pk.fil;
	s->w[0] = s->y[0] = s->z[0] = s->fil[0] = 0;
	for (int i = 0; i < n; i++) {
		const para_item_t *p = &it[i];
		int g = p->type == PARA_GLUE;
		int fil = g && p->stretch >= PARA_FIL;
		s->w[i + 1] = s->w[i] + (p->type == PARA_PENALTY ? 0 : p->w);
		s->y[i + 1] = s->y[i] + (g && !fil ? p->stretch : 0);
		s->z[i + 1] = s->z[i] + (g ? p->shrink : 0);
		s->fil[i + 1] = s->fil[i] + (fil ? 1 : 0);
	}
	return 0;
}

static void pk_trim(int n)
{
	if (n <= KEEP_ITEMS)
		return;
	free(pk.w);
	free(pk.y);
	free(pk.z);
	free(pk.fil);
	free(pk.v);
	pk.w = pk.y = pk.z = pk.fil = NULL;
	pk.cap = 0;
	pk.v = NULL;
	pk.capv = 0;
}

/* room for n lines in pk.l */
static para_line_t *pk_lines(int n)
{
	if (n > pk.capl) {
		pk.capl = n + n / 2 + 8;
		pk.l = xrealloc(pk.l, (size_t)pk.capl * sizeof(*pk.l));
	}
	return pk.l;
}

/* The best new break at b per fitness class. */
typedef struct cand {
	int64_t total;
	int from;                 /* node index */
	int32_t ratio;
	int overfull;
} cand_t;

/* What demerits() and measure() read of break b, the same for every
 * active node tried against it (kp_try works them out once). */
typedef struct bnow {
	int endb, last;           /* a paragraph end; the paragraph's last line */
	int64_t pw;               /* the penalty's width (a hyphen) */
	int64_t pd;               /* +- penalty^2 */
	int flagged;
	int64_t w, y, z, fil;     /* the running totals at b */
} bnow_t;

static bnow_t bnow(const kp_t *k, int b)
{
	bnow_t n = {0};
	int64_t p = 0;
	n.endb = is_end_break(k->it, k->n, b);
	n.last = b == k->n || (b == k->n - 1 && n.endb);
	if (b < k->n && k->it[b].type == PARA_PENALTY) {
		n.pw = k->it[b].w;
		p = k->it[b].penalty;
		n.flagged = k->it[b].flagged;
	}
	n.pd = p > 0 ? p * p : p > -PARA_INF ? -p * p : 0;
	n.w = k->s.w[b];
	n.y = k->s.y[b];
	n.z = k->s.z[b];
	n.fil = k->s.fil[b];
	return n;
}

/* demerits() with what it reads of b worked out (bnow). */
static int64_t demerits_at(const kp_t *k, const node_t *a, const bnow_t *bn, int32_t bad,
                           int fit, lmeas_t m, int32_t lw)
{
	const para_opts_t *o = k->o;
	int64_t d = (int64_t)o->line_penalty + bad;
	d = d * d + bn->pd;
	if (bn->flagged && a->flagged)
		d += o->hyphen_demerits;
	if (bn->last && a->flagged)
		d += o->hyphen_demerits / 2;
	if (abs(fit - a->fit) > 1)
		d += o->fitness_demerits;
	if (bn->endb && o->last_line_min > 0) {
		int64_t min = (int64_t)lw * o->last_line_min / 1000;
		if (m.w < min && min > 0) {
			int64_t s = (min - m.w) * 100 / min;
			d += 10 * s * s;
		}
	}
	return d;
}

/* Try every active node against break b. */
static void kp_try(kp_t *k, int b, int32_t tol, int final)
{
	/* candidates by fitness class f and, at a hyphen with a limit, by the
	   run h it makes: c[f + 4 * h] */
	cand_t c[4 * (PARA_HYPHEN_LIMIT + 1)];
	int prev = -1, a = k->active;
	bnow_t bn = bnow(k, b);
	int endb = bn.endb;
	int lim = k->lim;
	int runs = bn.flagged && lim > 0;
	int nc = runs ? 4 * (lim + 1) : 4;
	int64_t best = AWFUL, hbest[PARA_HYPHEN_LIMIT + 1];
	int refused = 0;
	for (int f = 0; f < nc; f++)
		c[f].total = AWFUL;
	for (int h = 0; h <= PARA_HYPHEN_LIMIT; h++)
		hbest[h] = AWFUL;
	while (a >= 0) {
		node_t *na = &k->v[a];
		int next = na->next, over, drop;
		int32_t bad, lw = line_width(k->o, na->line), r;
		lmeas_t m;
		if (na->start > b || (na->start == b && !endb)) {
			prev = a;
			a = next;
			continue;
		}
		int s0 = na->start;
		m.w = bn.w - k->s.w[s0] + bn.pw;   /* measure(k, s0, b) */
		m.y = bn.y - k->s.y[s0];
		m.z = bn.z - k->s.z[s0];
		m.fil = bn.fil - k->s.fil[s0];
		r = line_ratio(m, lw, endb, &bad, &over);
		drop = over == 1 || endb;
		int h = runs ? na->hrun + 1 : 0;
		if (over != 1 && (final || (over == 0 && r <= tol)) && h <= lim) {
			int fit = fitness(lw - m.w, bad);
			int64_t t = na->total + demerits_at(k, na, &bn, bad, fit, m, lw);
			cand_t *cf = &c[fit + 4 * h];
			if (t < cf->total) {
				cf->total = t;
				cf->from = a;
				cf->ratio = r;
				cf->overfull = 0;
			}
			if (t < best)
				best = t;
			if (t < hbest[h])
				hbest[h] = t;
		} else if (h > lim && over != 1 && (final || (over == 0 && r <= tol))) {
			refused = 1;
		} else if (over == 1 && final && best == AWFUL && next < 0 && prev < 0) {
			/* the last hope: keep the overfull line (TeX's rescue) */
			c[2].total = na->total;
			c[2].from = a;
			c[2].ratio = -1000;
			c[2].overfull = 1;
			best = hbest[0] = na->total;
		}
		if (drop) {
			if (prev < 0)
				k->active = next;
			else
				k->v[prev].next = next;
			if (k->tail == a)
				k->tail = prev;
		} else {
			prev = a;
		}
		a = next;
	}
	k->limited |= refused;
	for (int ci = 0; ci < nc; ci++) {
		/* TeX drops a way dearer than the best by more than the fitness
		   demerits; with a limit, only against ways of the same run (a
		   cheaper way that has used up its run may lead nowhere) */
		int64_t b0 = runs ? hbest[ci / 4] : best;
		if (c[ci].total == AWFUL || c[ci].total > b0 + k->o->fitness_demerits)
			continue;
		int f = ci & 3;
		int id = kp_node(k);
		node_t *nn = &k->v[id], *from = &k->v[c[ci].from];
		nn->pos = b;
		nn->start = b < k->n ? line_start(k->it, k->n, b) : k->n;
		nn->line = from->line + 1;
		nn->fit = f;
		nn->flagged = b < k->n && k->it[b].type == PARA_PENALTY && k->it[b].flagged;
		nn->hrun = nn->flagged ? from->hrun + 1 : 0;
		nn->overfull = c[ci].overfull;
		nn->ratio = c[ci].ratio;
		nn->total = c[ci].total;
		nn->prev = c[ci].from;
		nn->next = -1;
		if (k->active < 0)
			k->active = id;
		else
			k->v[k->tail].next = id;
		k->tail = id;
	}
}

/* One pass; returns the final node or -1. */
static int kp_pass(kp_t *k, int32_t tol, int final)
{
	int root, best = -1;
	k->nv = 0;
	root = kp_node(k);
	k->v[root].pos = -1;
	k->v[root].start = 0;
	k->v[root].fit = 2;
	k->v[root].prev = -1;
	k->v[root].next = -1;
	k->active = root;
	k->tail = root;
	for (int b = 0; b <= k->n && k->active >= 0; b++) {
		if (!is_break(k->it, k->n, b))
			continue;
		if (b == k->n && k->n > 0 && is_forced(&k->it[k->n - 1]))
			break;
		kp_try(k, b, tol, final);
	}
	for (int a = k->active; a >= 0; a = k->v[a].next) {
		int endpos = k->n > 0 && is_forced(&k->it[k->n - 1]) ? k->n - 1 : k->n;
		if (k->v[a].pos != endpos)
			continue;
		if (best < 0 || k->v[a].total < k->v[best].total ||
		    (k->v[a].total == k->v[best].total && a < best))
			best = a;
	}
	return best;
}

static void kp_lines(kp_t *k, int last, para_line_t **lines, int *nlines)
{
	int cnt = 0;
	for (int a = last; a >= 0 && k->v[a].pos >= 0; a = k->v[a].prev)
		cnt++;
	para_line_t *l = pk_lines(cnt ? cnt : 1);
	memset(l, 0, (size_t)(cnt ? cnt : 1) * sizeof(*l));
	int i = cnt;
	for (int a = last; a >= 0 && k->v[a].pos >= 0; a = k->v[a].prev) {
		node_t *na = &k->v[a], *pa = &k->v[na->prev];
		i--;
		l[i].start = pa->start;
		l[i].end = na->pos;
		l[i].ratio = na->ratio;
		l[i].hyphen = na->flagged;
		l[i].overfull = na->overfull;
	}
	*lines = l;
	*nlines = cnt;
}

/* Ratio and overfull flag of a finished line (greedy). */
static void line_finish(const para_item_t *it, int n, const para_opts_t *o,
                        para_line_t *l, int line)
{
	lmeas_t m = {0, 0, 0, 0};
	int32_t bad;
	int endb = is_end_break(it, n, l->end);
	for (int i = l->start; i < l->end; i++) {
		if (it[i].type == PARA_PENALTY)
			continue;
		m.w += it[i].w;
		if (it[i].type == PARA_GLUE) {
			if (it[i].stretch >= PARA_FIL)
				m.fil++;
			else
				m.y += it[i].stretch;
			m.z += it[i].shrink;
		}
	}
	if (l->end < n && it[l->end].type == PARA_PENALTY) {
		m.w += it[l->end].w;
		l->hyphen = it[l->end].flagged;
	}
	l->ratio = line_ratio(m, line_width(o, line), endb, &bad, &l->overfull);
	l->overfull = l->overfull == 1;
}

static void greedy_push(para_line_t **v, int *nv, int s, int b)
{
	*v = pk_lines(*nv + 1);
	memset(&(*v)[*nv], 0, sizeof(**v));
	(*v)[*nv].start = s;
	(*v)[*nv].end = b;
	(*nv)++;
}

/* First fit: each line takes as much as fits (shrink allowed). */
static void greedy(const para_item_t *it, int n, const para_opts_t *o,
                   para_line_t **lines, int *nlines)
{
	para_line_t *v = pk.l;
	int nv = 0, s = 0;
	int end = n > 0 && is_forced(&it[n - 1]) ? n - 1 : n;
	for (;;) {
		int64_t w = 0, z = 0;
		int last = -1, b = -1, lw = line_width(o, nv);
		for (int i = s; i <= n; i++) {
			if (is_break(it, n, i) && (i > s || is_end_break(it, n, i))) {
				int64_t bw = w + (i < n && it[i].type == PARA_PENALTY ? it[i].w : 0);
				int fits = bw - z <= lw;
				if (is_end_break(it, n, i)) {
					b = fits || last < 0 ? i : last;
					break;
				}
				if (!fits) {
					b = last >= 0 ? last : i;
					break;
				}
				last = i;
			}
			if (i < n && it[i].type != PARA_PENALTY) {
				w += it[i].w;
				if (it[i].type == PARA_GLUE)
					z += it[i].shrink;
			}
		}
		if (b < 0)
			b = n;
		greedy_push(&v, &nv, s, b);
		line_finish(it, n, o, &v[nv - 1], nv - 1);
		if (b >= end)
			break;
		s = line_start(it, n, b);
	}
	*lines = v;
	*nlines = nv;
}

/* Is the optimum one line, without running the optimiser? When all of
 * the paragraph fits the first line, with no forced break before its end,
 * no width below zero and no bonus (negative penalty), the one line costs
 * line_penalty^2 plus the short-last-line charge of its width, and every
 * other sequence costs more: at least two lines of line_penalty^2 each,
 * and a last line no longer than the whole. The optimiser finds it too,
 * unless a line from the start is overfull at some earlier break (a
 * hyphen's width), which drops the start: then it runs. */
static int one_line(const para_item_t *it, int n, const para_opts_t *o)
{
	int64_t w = 0, z = 0, lw = line_width(o, 0);
	if (n < 1 || !is_forced(&it[n - 1]) || o->line_penalty <= 0 || it[n - 1].w < 0)
		return 0;
	for (int i = 0; i < n - 1; i++) {
		const para_item_t *p = &it[i];
		if (p->type == PARA_PENALTY) {
			if (p->penalty < 0)
				return 0;
			if (w + p->w > lw && w + p->w - lw > z && i > 0 && is_break(it, n, i))
				return 0;
			continue;
		}
		if (p->w < 0)
			return 0;
		if (w > lw && w - lw > z && p->type == PARA_GLUE && i > 0 && is_break(it, n, i))
			return 0;
		w += p->w;
		if (p->type == PARA_GLUE)
			z += p->shrink;
	}
	return w + it[n - 1].w <= lw;
}

int para_break(const para_item_t *items, int n, const para_opts_t *o,
               para_line_t **lines, int *nlines)
{
	kp_t k;
	int last;
	*lines = NULL;
	*nlines = 0;
	if (n <= 0)
		return 0;
	if (o->greedy || n > PARA_MAX_OPTIMAL) {
		if (o->one_pass)
			return -1;
		greedy(items, n, o, lines, nlines);
		return 1;
	}
	if (!o->no_shortcut && one_line(items, n, o)) {
		para_line_t *l = pk_lines(1);
		memset(l, 0, sizeof(*l));
		l->end = n - 1;
		l->hyphen = items[n - 1].flagged;
		*lines = l;
		*nlines = 1;
		return 0;
	}
	memset(&k, 0, sizeof(k));
	k.it = items;
	k.n = n;
	k.o = o;
	k.v = pk.v;
	k.capv = pk.capv;
	sums_init(&k.s, items, n);
	/* the hyphen limit holds while the lines stay within the tolerance:
	   looser lines are worse than the ladder they would avoid */
	k.lim = o->hyphen_limit > PARA_HYPHEN_LIMIT ? 0 : o->hyphen_limit;
	int32_t tol = o->tolerance > 0 ? o->tolerance : 2000;
	last = kp_pass(&k, tol, 0);
	/* without the limit the same breaks are reachable (a break is, or
	   is not, whatever the way to it; only the first line's width
	   depends on more than where it starts) unless a line was refused
	   for the limit: then it fails again */
	if (last < 0 && k.lim) {
		k.lim = 0;
		if (k.limited)
			last = kp_pass(&k, tol, 0);
	}
	if (last < 0 && !o->one_pass)
		last = kp_pass(&k, INT32_MAX, 1);
	if (last >= 0)
		kp_lines(&k, last, lines, nlines);
	pk.v = k.v;
	pk.capv = k.capv;
	pk_trim(n);
	if (last < 0 && o->one_pass)
		return -1;
	if (last < 0) {
		greedy(items, n, o, lines, nlines);
		return 1;
	}
	return 0;
}
