/* layout: model + style + fonts -> page list.
 *
 * Every block of the CV becomes a run of items on one vertical list:
 * lines (set by flow, with anything placed beside them: the date column,
 * the venue column, a bullet) and gaps. Each line says whether a page may
 * break after it; that is how the keep rules are written (a title is kept
 * with what follows, a short entry is kept whole, a long one keeps its
 * head with its first line, paragraphs have no widows or orphans).
 * paginate() then cuts the list into pages at the last allowed break that
 * fits, and footers and bookmarks are added.
 *
 * Call layout_render(), then layout_subset() (layout_fonts.c) before
 * pdf_write().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arena.h"
#include "buf.h"
#include "flow.h"
#include "font.h"
#include "hyph.h"
#include "image.h"
#include "layout.h"
#include "utf8.h"

#ifndef VITA_LAYOUT_VERSION
#define VITA_LAYOUT_VERSION "0.1.0"
#endif

enum { V_LINE, V_GAP };

typedef struct vitem {
	int kind;               /* V_LINE or V_GAP */
	int32_t h;              /* u: advance (line: baseline to baseline) */
	int32_t asc;            /* u: top of the line box to the baseline */
	int nobreak;            /* 1: no page break right after this item */
	const char *mark;       /* bookmark title placed at this line */
	page_item_t *it;        /* x from the page's left edge, y from the baseline */
	int n, cap;
} vitem_t;

typedef struct lay {
	const model_t *m;
	const style_t *s;
	font_lib_t *lib;
	errs_t *e;
	arena_t *a;             /* scratch for this layout */
	font_chain_t *body, *head;
	hyph_t *hyph;
	const char *lang;
	int32_t x0, width;      /* u: left margin, measure */
	vitem_t *v;
	int nv, capv;
	int failed;
} lay_t;

/* ---- spans ---------------------------------------------------------- */

typedef struct spans {
	flow_span_t *v;
	int n, cap;
} spans_t;

typedef struct tstyle {
	font_chain_t *chain;
	int style;
	int32_t size;
	uint32_t color;
	unsigned flags;
} tstyle_t;

static flow_span_t *sp_add(lay_t *L, spans_t *s, const char *text, int len, const tstyle_t *t,
                           const char *url, int line, int col)
{
	if (!text || len <= 0)
		return NULL;
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 16;
		s->v = arena_grow(L->a, s->v, sizeof(flow_span_t) * (size_t)s->cap,
		                  sizeof(flow_span_t) * (size_t)cap);
		s->cap = cap;
	}
	flow_span_t *f = &s->v[s->n++];
	memset(f, 0, sizeof(*f));
	f->text = text;
	f->len = len;
	f->chain = t->chain;
	f->style = t->style;
	f->size = t->size;
	f->color = url && strncmp(url, "vita-badge:", 11) ? L->s->c_link : t->color;
	f->url = url;
	f->flags = t->flags;
	f->line = line;
	f->col = col;
	return f;
}

static void sp_str(lay_t *L, spans_t *s, const char *text, const tstyle_t *t)
{
	if (text)
		sp_add(L, s, text, (int)strlen(text), t, NULL, 0, 0);
}

/* A plain string from the profile, located for warnings about its text. */
static void sp_at(lay_t *L, spans_t *s, const char *text, const tstyle_t *t, mpos_t at)
{
	if (text)
		sp_add(L, s, text, (int)strlen(text), t, NULL, at.line, at.col);
}

/* Rich text: markup flags add to the base style. */
static void sp_text(lay_t *L, spans_t *s, const mtext_t *x, const tstyle_t *t)
{
	for (int i = 0; i < x->n; i++) {
		const mspan_t *sp = &x->spans[i];
		tstyle_t u = *t;
		if (sp->flags & SPAN_BOLD)
			u.style |= FONT_BOLD;
		if (sp->flags & SPAN_ITALIC)
			u.style ^= FONT_ITALIC;
		sp_add(L, s, sp->text, (int)strlen(sp->text), &u, sp->url, x->line, x->col);
	}
}

static tstyle_t ts(lay_t *L, int style, int32_t size, uint32_t color)
{
	tstyle_t t = {L->body, style, size, color, 0};
	return t;
}

/* ---- the vertical list ---------------------------------------------- */

static vitem_t *v_new(lay_t *L, int kind, int32_t h)
{
	if (L->nv == L->capv) {
		L->capv = L->capv ? L->capv * 2 : 256;
		L->v = xrealloc(L->v, sizeof(vitem_t) * (size_t)L->capv);
	}
	vitem_t *v = &L->v[L->nv++];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	v->h = h;
	return v;
}

static void v_gap(lay_t *L, int32_t h)
{
	if (L->nv && L->v[L->nv - 1].kind == V_GAP) {
		if (L->v[L->nv - 1].h < h)
			L->v[L->nv - 1].h = h;
		return;
	}
	v_new(L, V_GAP, h);
}

static page_item_t *v_item(lay_t *L, vitem_t *v)
{
	if (v->n == v->cap) {
		int cap = v->cap ? v->cap * 2 : 8;
		v->it = arena_grow(L->a, v->it, sizeof(page_item_t) * (size_t)v->cap,
		                   sizeof(page_item_t) * (size_t)cap);
		v->cap = cap;
	}
	return &v->it[v->n++];
}

/* Copy a set line's runs and links into v, shifted right by dx. */
static void v_put_line(lay_t *L, vitem_t *v, const flow_line_t *fl, int32_t dx)
{
	for (int i = 0; i < fl->nruns; i++) {
		page_item_t *it = v_item(L, v);
		it->kind = PAGE_RUN;
		it->u.run = fl->runs[i];
		it->u.run.x += dx;
	}
	for (int i = 0; i < fl->nlinks; i++) {
		const page_link_t *lk = &fl->links[i];
		page_item_t *it = v_item(L, v);
		if (!strncmp(lk->url, "vita-badge:", 11)) {
			/* a badge: a thin frame around its label */
			int32_t pad = 0;
			it->kind = PAGE_RECT;
			it->u.rect.x = lk->x + dx - pad;
			it->u.rect.y = lk->y + 800;
			it->u.rect.w = lk->w + 2 * pad;
			it->u.rect.h = lk->h - 800;
			it->u.rect.color = L->s->c_badge;
			it->u.rect.stroke = 400;
			continue;
		}
		it->kind = PAGE_LINK;
		it->u.link = *lk;
		it->u.link.x += dx;
	}
}

static int32_t lead(lay_t *L, int32_t size)
{
	return (int32_t)((int64_t)size * L->s->leading / 1000);
}

/* Set spans with a measure and append one V_LINE per line. Returns the
 * index of the first line appended (or -1 when nothing was set). */
static int v_flow(lay_t *L, const spans_t *s, int32_t dx, int32_t width, int align,
                  int32_t size, int hyphenate)
{
	if (!s->n)
		return -1;
	flow_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = width;
	o.align = align;
	o.lang = L->lang;
	o.hyph = hyphenate && L->s->hyphenate ? L->hyph : NULL;
	o.file = L->m->file;
	flow_result_t r;
	if (flow_set(L->a, s->v, s->n, &o, &r, L->e)) {
		L->failed = 1;
		return -1;
	}
	int first = L->nv;
	int32_t h = lead(L, size);
	for (int i = 0; i < r.nlines; i++) {
		const flow_line_t *fl = &r.lines[i];
		/* report justified lines stretched or shrunk past the limits */
		if (align == FLOW_JUSTIFY && i + 1 < r.nlines && !fl->overfull &&
		    (fl->ratio > 2000 || fl->ratio < -1000))
			warn_at(L->e, L->m->file, s->v[0].line, s->v[0].col,
			        "loose line %d of a paragraph: its spaces are %s %d%% past their limit",
			        i + 1, fl->ratio > 0 ? "stretched" : "shrunk",
			        (fl->ratio > 0 ? fl->ratio - 2000 : -fl->ratio - 1000) / 10);
		vitem_t *v = v_new(L, V_LINE, h);
		int32_t gh = fl->asc - fl->desc;
		v->asc = (h - gh) / 2 + fl->asc;
		if (fl->asc == 0 && fl->desc == 0)
			v->asc = h * 4 / 5;
		v_put_line(L, v, fl, L->x0 + dx);
	}
	/* widows and orphans: no break after the first line or before the last */
	if (r.nlines >= 2) {
		L->v[first].nobreak = 1;
		L->v[L->nv - 2].nobreak = 1;
	}
	return r.nlines ? first : -1;
}

/* Set spans as one line (no breaking) and place it in line `at` with its
 * right edge at x (right = 1) or its left edge at x. Adds lines if the
 * list is shorter. */
static int32_t v_beside(lay_t *L, int at, const spans_t *s, int32_t x, int right, int32_t width)
{
	if (!s->n || at < 0)
		return 0;
	flow_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = width;
	o.align = right ? FLOW_RIGHT : FLOW_LEFT;
	o.lang = L->lang;
	o.file = L->m->file;
	flow_result_t r;
	if (flow_set(L->a, s->v, s->n, &o, &r, L->e)) {
		L->failed = 1;
		return 0;
	}
	int32_t wmax = 0;
	for (int i = 0; i < r.nlines; i++) {
		int k = at + i;
		if (k >= L->nv || L->v[k].kind != V_LINE) {
			/* a column taller than its text: more lines, kept together */
			vitem_t *nv = v_new(L, V_LINE, L->v[at].h);
			nv->asc = L->v[at].asc;
			L->v[L->nv - 2].nobreak = 1;
			k = L->nv - 1;
		}
		v_put_line(L, &L->v[k], &r.lines[i], L->x0 + x - (right ? width : 0));
		if (r.lines[i].width > wmax)
			wmax = r.lines[i].width;
	}
	return wmax;
}

static int32_t sp_width(lay_t *L, const spans_t *s)
{
	return s->n ? flow_width(s->v, s->n, L->lang) : 0;
}

/* Keep lines [first, L->nv) together when short; otherwise keep the
 * first `head` lines with the next one. */
static void keep_block(lay_t *L, int first, int head)
{
	int n = L->nv - first;
	if (first < 0 || n <= 0)
		return;
	if (n <= 7) {
		for (int i = first; i < L->nv - 1; i++)
			L->v[i].nobreak = 1;
		return;
	}
	for (int i = first; i < first + head && i < L->nv - 1; i++)
		L->v[i].nobreak = 1;
}

/* ---- dates ---------------------------------------------------------- */

static void date_text(lay_t *L, const mdate_t *d, buf_t *b)
{
	char months[256];
	const char *mon[12] = {0};
	snprintf(months, sizeof(months), "%s", L->s->month_names);
	int k = 0;
	for (char *t = strtok(months, ","); t && k < 12; t = strtok(NULL, ","))
		mon[k++] = t;
	switch (d->kind) {
	case DATE_YEAR:
		buf_printf(b, "%d", d->y);
		break;
	case DATE_MONTH:
		buf_printf(b, "%s %d", mon[d->m - 1] ? mon[d->m - 1] : "", d->y);
		break;
	case DATE_DAY:
		buf_printf(b, "%s %d, %d", mon[d->m - 1] ? mon[d->m - 1] : "", d->d, d->y);
		break;
	case DATE_PRESENT:
		buf_puts(b, L->s->present_word);
		break;
	case DATE_TEXT:
		buf_puts(b, d->text ? d->text : "");
		break;
	default:
		break;
	}
}

/* The text of an entry's date column ("" when it has none). */
static const char *entry_dates(lay_t *L, const mentry_t *en)
{
	buf_t b;
	buf_init(&b);
	if (en->start.kind) {
		date_text(L, &en->start, &b);
		buf_puts(&b, L->s->date_sep);
		if (en->end.kind)
			date_text(L, &en->end, &b);
		else
			buf_puts(&b, L->s->present_word);
	} else if (en->end.kind) {
		date_text(L, &en->end, &b);
	} else if (en->date.kind) {
		date_text(L, &en->date, &b);
	}
	const char *r = b.len ? arena_strdup(L->a, b.s) : NULL;
	buf_done(&b);
	return r;
}

/* ---- blocks --------------------------------------------------------- */

static const char *upper_ascii(lay_t *L, const char *s)
{
	char *u = arena_strdup(L->a, s);
	for (char *p = u; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return u;
}

static void section_title(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	v_gap(L, s->section_before);
	spans_t sp = {0};
	tstyle_t t = {L->head, s->section_style, s->size_section, s->c_accent, FLOW_NOHYPH};
	const char *title = s->section_upper ? upper_ascii(L, sec->title) : sec->title;
	sp_add(L, &sp, title, (int)strlen(title), &t, NULL, sec->line, sec->col);
	int first = v_flow(L, &sp, 0, L->width, FLOW_LEFT, s->size_section, 0);
	if (first < 0)
		return;
	for (int i = first; i < L->nv; i++)
		L->v[i].nobreak = 1;
	L->v[first].mark = sec->title;
	vitem_t *last = &L->v[L->nv - 1];
	if (s->section_rule > 0) {
		page_item_t *it = v_item(L, last);
		it->kind = PAGE_RECT;
		it->u.rect.x = L->x0;
		it->u.rect.y = s->size_section * 3 / 10;
		it->u.rect.w = L->width;
		it->u.rect.h = s->section_rule;
		it->u.rect.color = s->c_rule;
	}
	/* the gap after a title must not become a page break */
	vitem_t *g = v_new(L, V_GAP, s->section_after);
	g->nobreak = 1;
}

static void links_row(lay_t *L, spans_t *sp, const mlink_t *links, int n, const char *doi,
                      const tstyle_t *t)
{
	tstyle_t sep = *t;
	sep.color = L->s->c_muted;
	int k = 0;
	for (int i = 0; i < n; i++, k++) {
		if (k)
			sp_str(L, sp, " / ", &sep);
		sp_add(L, sp, links[i].label, (int)strlen(links[i].label), t, links[i].url,
		       links[i].line, links[i].col);
	}
	if (doi) {
		if (k)
			sp_str(L, sp, " / ", &sep);
		const char *label = arena_printf(L->a, "doi:%s", doi);
		tstyle_t u = *t;
		u.flags |= FLOW_URL;
		sp_add(L, sp, label, (int)strlen(label), &u,
		       arena_printf(L->a, "https://doi.org/%s", doi), 0, 0);
	}
}

static void bullets(lay_t *L, const mtext_t *items, int n, int32_t dx)
{
	const style_t *s = L->s;
	tstyle_t t = ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t bt = ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	for (int i = 0; i < n; i++) {
		spans_t sp = {0};
		sp_text(L, &sp, &items[i], &t);
		int first = v_flow(L, &sp, dx + s->bullet_indent, L->width - dx - s->bullet_indent,
		                   s->text_align == ST_JUSTIFY ? FLOW_JUSTIFY : FLOW_LEFT,
		                   s->size_body, 1);
		spans_t bs = {0};
		sp_str(L, &bs, s->bullet, &bt);
		v_beside(L, first, &bs, dx + s->bullet_indent / 4, 0, s->bullet_indent);
	}
}

static int entry_has_org_first(const msection_t *sec, const mentry_t *en)
{
	return en->org.n && (sec->type == SEC_EDUCATION || sec->type == SEC_EXPERIENCE);
}

static void entry(lay_t *L, const msection_t *sec, const mentry_t *en)
{
	const style_t *s = L->s;
	tstyle_t bold = ts(L, FONT_BOLD, s->size_body, s->c_text);
	tstyle_t ital = ts(L, FONT_ITALIC, s->size_body, s->c_text);
	tstyle_t muted = ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	tstyle_t mutedi = ts(L, FONT_ITALIC, s->size_body, s->c_muted);
	int org_first = entry_has_org_first(sec, en);
	int start = L->nv;

	/* the date column */
	spans_t ds = {0};
	const char *dates = entry_dates(L, en);
	if (dates)
		sp_add(L, &ds, dates, (int)strlen(dates), &muted, NULL, en->line, en->col);
	int32_t dw = sp_width(L, &ds);
	if (dw > L->width / 3)
		dw = L->width / 3;
	int32_t measure = L->width - (dw ? dw + s->date_gap : 0);

	/* head line: the primary name, the location, and (awards) the note */
	spans_t hs = {0};
	sp_text(L, &hs, org_first ? &en->org : &en->title, &bold);
	if (!org_first && en->note.n) {
		sp_str(L, &hs, " (", &muted);
		sp_text(L, &hs, &en->note, &muted);
		sp_str(L, &hs, ")", &muted);
	}
	if (en->location) {
		sp_str(L, &hs, "  ", &mutedi);
		sp_str(L, &hs, en->location, &mutedi);
	}
	int first = v_flow(L, &hs, 0, measure, FLOW_LEFT, s->size_body, 0);
	v_beside(L, first, &ds, L->width, 1, dw);

	/* second line: the secondary name and (positions) the note */
	spans_t ss = {0};
	const mtext_t *second = org_first ? &en->title : &en->org;
	if (second->n)
		sp_text(L, &ss, second, &ital);
	if (org_first && en->note.n) {
		if (ss.n)
			sp_str(L, &ss, ", ", &ital);
		sp_text(L, &ss, &en->note, &ital);
	}
	v_flow(L, &ss, 0, L->width, FLOW_LEFT, s->size_body, 1);
	if (en->ndetails)
		bullets(L, en->details, en->ndetails, 0);
	if (en->nlinks) {
		spans_t ls = {0};
		tstyle_t lt = ts(L, FONT_REGULAR, s->size_small, s->c_link);
		links_row(L, &ls, en->links, en->nlinks, NULL, &lt);
		v_flow(L, &ls, 0, L->width, FLOW_LEFT, s->size_small, 0);
	}
	keep_block(L, start, 2);
}

static int is_highlight(const model_t *m, const msection_t *sec, const char *author)
{
	if (sec->nhighlight) {
		for (int i = 0; i < sec->nhighlight; i++)
			if (!strcmp(sec->highlight[i], author))
				return 1;
		return 0;
	}
	return m->name && !strcmp(m->name, author);
}

static int is_equal(const mpub_t *p, const char *author)
{
	for (int i = 0; i < p->nequal; i++)
		if (!strcmp(p->equal[i], author))
			return 1;
	return 0;
}

static void publication(lay_t *L, const msection_t *sec, const mpub_t *p, int number)
{
	const style_t *s = L->s;
	int32_t lw = s->pub_label_width;
	int32_t mw = L->width - lw;
	int start = L->nv;
	tstyle_t bold = ts(L, FONT_BOLD, s->size_body, s->c_text);
	tstyle_t reg = ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t ital = ts(L, FONT_ITALIC, s->size_body, s->c_text);
	tstyle_t small = ts(L, FONT_REGULAR, s->size_small, s->c_muted);

	spans_t t = {0};
	sp_text(L, &t, &p->title, &bold);
	int first = v_flow(L, &t, lw, mw, FLOW_LEFT, s->size_body, 1);

	if (p->nauthors) {
		spans_t a = {0};
		tstyle_t name = reg;
		name.flags = FLOW_NOHYPH | FLOW_NOBREAK; /* a name is never split */
		tstyle_t hname = bold;
		hname.flags = FLOW_NOHYPH | FLOW_NOBREAK;
		for (int i = 0; i < p->nauthors; i++) {
			const char *au = p->authors[i];
			const tstyle_t *st = is_highlight(L->m, sec, au) ? &hname : &name;
			const char *txt = is_equal(p, au) ? arena_printf(L->a, "%s*", au) : au;
			if (i)
				sp_str(L, &a, ", ", &reg);
			sp_add(L, &a, txt, (int)strlen(txt), st, NULL, p->line, p->col);
		}
		/* "(2025)" or "(2025, preprint)" closes the author line, as in
		   author-year styles; the venue tag already sits in the margin */
		tstyle_t yt = ts(L, FONT_REGULAR, s->size_body, s->c_muted);
		/* a no-break space keeps "(2026)" with the last name */
		if (p->year && p->status)
			sp_str(L, &a, arena_printf(L->a, "\u00a0(%d,\u00a0%s)", p->year, p->status), &yt);
		else if (p->year)
			sp_str(L, &a, arena_printf(L->a, "\u00a0(%d)", p->year), &yt);
		else if (p->status)
			sp_str(L, &a, arena_printf(L->a, "\u00a0(%s)", p->status), &yt);
		v_flow(L, &a, lw, mw, FLOW_LEFT, s->size_body, 0);
	} else if (p->year || p->status) {
		spans_t y = {0};
		tstyle_t yt = ts(L, FONT_REGULAR, s->size_body, s->c_muted);
		if (p->year)
			sp_str(L, &y, arena_printf(L->a, "%d%s", p->year, p->status ? ", " : ""), &yt);
		if (p->status)
			sp_str(L, &y, p->status, &yt);
		v_flow(L, &y, lw, mw, FLOW_LEFT, s->size_body, 0);
	}

	spans_t vn = {0};
	if (p->venue_full.n)
		sp_text(L, &vn, &p->venue_full, &ital);
	v_flow(L, &vn, lw, mw, FLOW_LEFT, s->size_body, 1);

	spans_t ex = {0};
	tstyle_t lt = ts(L, FONT_REGULAR, s->size_small, s->c_link);
	links_row(L, &ex, p->links, p->nlinks, p->doi, &lt);
	if (p->nbadges) {
		if (ex.n)
			sp_str(L, &ex, " \u00b7 ", &small);
		sp_str(L, &ex, s->badge_prefix, &small);
		tstyle_t bt = ts(L, FONT_REGULAR, s->size_small * 88 / 100, s->c_badge);
		bt.flags = FLOW_NOBREAK | FLOW_NOHYPH;
		for (int i = 0; i < p->nbadges; i++) {
			/* each badge its own target, so flow keeps their frames apart */
			sp_str(L, &ex, " ", &small);
			/* no-break spaces inside the frame pad the label */
			const char *b = arena_printf(L->a, "\u00a0%s\u00a0", p->badges[i]);
			sp_add(L, &ex, b, (int)strlen(b), &bt, arena_printf(L->a, "vita-badge:%d", i), 0, 0);
		}
	}
	if (p->note.n) {
		if (ex.n)
			sp_str(L, &ex, p->nbadges ? "  \u00b7 " : " \u00b7 ", &small);
		tstyle_t nt = ts(L, FONT_BOLD, s->size_small, s->c_highlight);
		sp_text(L, &ex, &p->note, &nt);
	}
	v_flow(L, &ex, lw, mw, FLOW_LEFT, s->size_small, 0);

	/* the label column: venue tag, then the number */
	if (first >= 0) {
		spans_t lab = {0};
		tstyle_t vt = ts(L, FONT_BOLD, s->size_small, s->c_accent);
		vt.flags = FLOW_NOHYPH;
		tstyle_t nt = ts(L, FONT_REGULAR, s->size_small, s->c_muted);
		if (s->pub_label == 0 && p->venue) {
			sp_str(L, &lab, p->venue, &vt);
			v_beside(L, first, &lab, 0, 0, lw - 4000);
			if (number > 0) {
				spans_t num = {0};
				sp_str(L, &num, arena_printf(L->a, "[%d]", number), &nt);
				v_beside(L, first + 1, &num, 0, 0, lw - 4000);
			}
		} else if (number > 0) {
			sp_str(L, &lab, arena_printf(L->a, "[%d]", number), &nt);
			v_beside(L, first, &lab, 0, 0, lw - 4000);
			if (p->venue) {
				spans_t vv = {0};
				sp_str(L, &vv, p->venue, &vt);
				v_beside(L, first + 1, &vv, 0, 0, lw - 4000);
			}
		}
	}
	keep_block(L, start, 2);
}

static void group_heading(lay_t *L, const char *text, int first)
{
	spans_t y = {0};
	tstyle_t yt = ts(L, FONT_BOLD, L->s->size_body, L->s->c_muted);
	sp_str(L, &y, text, &yt);
	if (!first)
		v_gap(L, L->s->pub_gap * 3 / 2);
	int f = v_flow(L, &y, 0, L->width, FLOW_LEFT, L->s->size_body, 0);
	if (f >= 0)
		L->v[f].nobreak = 1;
	v_new(L, V_GAP, L->s->pub_gap / 2)->nobreak = 1;
}

/* group_by type: the kind of a publication is its status (published
 * when it has none); groups follow in order of first appearance. */
static const char *pub_kind(const mpub_t *p)
{
	return p->status ? p->status : "";
}

static void publications(lay_t *L, const msection_t *sec)
{
	int any_equal = 0, shown = 0;
	const char *kinds[64];
	int nkinds = 0;
	if (sec->group_by == GROUP_TYPE) {
		kinds[nkinds++] = "";
		for (int i = 0; i < sec->npubs && nkinds < 64; i++) {
			int seen = 0;
			for (int k = 0; k < nkinds; k++)
				seen |= !strcmp(kinds[k], pub_kind(&sec->pubs[i]));
			if (!seen)
				kinds[nkinds++] = pub_kind(&sec->pubs[i]);
		}
	} else {
		kinds[nkinds++] = NULL; /* one pass over everything */
	}
	for (int k = 0; k < nkinds; k++) {
		int in_group = 0;
		for (int i = 0; i < sec->npubs; i++) {
			const mpub_t *p = &sec->pubs[i];
			if (kinds[k] && strcmp(kinds[k], pub_kind(p)))
				continue;
			int number = sec->numbering == NUM_REVERSE ? sec->npubs - shown
			             : sec->numbering == NUM_FORWARD ? shown + 1 : 0;
			if (kinds[k] && !in_group) {
				const char *t = kinds[k][0] ? kinds[k] : "Published";
				char *h = arena_strdup(L->a, t);
				if (h[0] >= 'a' && h[0] <= 'z')
					h[0] = (char)(h[0] - 'a' + 'A');
				group_heading(L, h, shown == 0);
			} else if (sec->group_by == GROUP_YEAR && p->year &&
			           (shown == 0 || sec->pubs[i - 1].year != p->year)) {
				group_heading(L, arena_printf(L->a, "%d", p->year), shown == 0);
			} else if (shown) {
				v_gap(L, L->s->pub_gap);
			}
			in_group = 1;
			publication(L, sec, p, number);
			shown++;
			if (p->nequal)
				any_equal = 1;
		}
	}
	if (any_equal) {
		v_gap(L, L->s->pub_gap / 2);
		spans_t f = {0};
		tstyle_t t = ts(L, FONT_ITALIC, L->s->size_small, L->s->c_muted);
		sp_str(L, &f, "* Equal contribution.", &t);
		v_flow(L, &f, L->s->pub_label_width, L->width - L->s->pub_label_width, FLOW_LEFT,
		       L->s->size_small, 0);
	}
}

static void news(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	int32_t dw = s->news_date_width;
	tstyle_t t = ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t dt = ts(L, FONT_REGULAR, s->size_small, s->c_muted);
	for (int i = 0; i < sec->nnews; i++) {
		const mnews_t *n = &sec->news[i];
		if (i)
			v_gap(L, s->entry_gap / 3);
		int start = L->nv;
		spans_t sp = {0};
		sp_text(L, &sp, &n->text, &t);
		int first = v_flow(L, &sp, dw, L->width - dw, FLOW_LEFT, s->size_body, 1);
		buf_t b;
		buf_init(&b);
		date_text(L, &n->date, &b);
		spans_t ds = {0};
		if (b.len)
			sp_str(L, &ds, arena_strdup(L->a, b.s), &dt);
		buf_done(&b);
		v_beside(L, first, &ds, 0, 0, dw - 4000);
		keep_block(L, start, 1);
	}
}

static void list(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	if (sec->list_style == LIST_BULLETS) {
		bullets(L, sec->items, sec->nitems, 0);
		return;
	}
	spans_t sp = {0};
	tstyle_t t = ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t sep = ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	for (int i = 0; i < sec->nitems; i++) {
		if (i)
			sp_str(L, &sp, "  \u00b7  ", &sep);
		sp_text(L, &sp, &sec->items[i], &t);
	}
	v_flow(L, &sp, 0, L->width, FLOW_LEFT, s->size_body, 1);
}

static void paragraph(lay_t *L, const mtext_t *x)
{
	const style_t *s = L->s;
	spans_t sp = {0};
	tstyle_t t = ts(L, FONT_REGULAR, s->size_body, s->c_text);
	sp_text(L, &sp, x, &t);
	int align = s->text_align == ST_JUSTIFY ? FLOW_JUSTIFY
	            : s->text_align == ST_CENTER ? FLOW_CENTER
	            : s->text_align == ST_RIGHT ? FLOW_RIGHT : FLOW_LEFT;
	v_flow(L, &sp, 0, L->width, align, s->size_body, 1);
}

static void section(lay_t *L, const msection_t *sec)
{
	section_title(L, sec);
	switch (sec->type) {
	case SEC_ENTRIES:
	case SEC_EDUCATION:
	case SEC_EXPERIENCE:
	case SEC_AWARDS:
		for (int i = 0; i < sec->nentries; i++) {
			if (i)
				v_gap(L, sec->type == SEC_AWARDS ? L->s->entry_gap / 2 : L->s->entry_gap);
			entry(L, sec, &sec->entries[i]);
		}
		break;
	case SEC_PUBLICATIONS:
		publications(L, sec);
		break;
	case SEC_NEWS:
		news(L, sec);
		break;
	case SEC_LIST:
		list(L, sec);
		break;
	case SEC_TEXT:
		paragraph(L, &sec->text);
		break;
	}
}

/* ---- header --------------------------------------------------------- */

/* Width and height in pixels of a PNG or JPEG file; -1 (with a reason)
 * when it cannot be embedded. image_probe decodes it in full, so a damaged
 * PNG fails here, located, not with abort() inside libharu's libpng. */
static int image_size(const char *path, int *png, int *w, int *h, const char **why)
{
	image_info_t ii;
	if (image_probe(path, &ii, why))
		return -1;
	*png = ii.png;
	*w = ii.w;
	*h = ii.h;
	return 0;
}

static const char *contact_label(lay_t *L, const mcontact_t *c)
{
	const char *v = c->value;
	if (!strncmp(v, "https://", 8))
		v += 8;
	else if (!strncmp(v, "http://", 7))
		v += 7;
	if (!strcmp(c->kind, "orcid"))
		return arena_printf(L->a, "ORCID %s", v);
	if (!strcmp(c->kind, "github") && !strchr(v, '/'))
		return arena_printf(L->a, "github.com/%s", v);
	if (!strcmp(c->kind, "scholar") && !strchr(v, '/'))
		return "Google Scholar";
	if (!strcmp(c->kind, "linkedin") && !strchr(v, '/'))
		return arena_printf(L->a, "linkedin.com/in/%s", v);
	if (!strcmp(c->kind, "twitter") && v[0] != '@' && !strchr(v, '/'))
		return arena_printf(L->a, "@%s", v);
	return v;
}

static int header(lay_t *L, page_image_t *photo)
{
	const model_t *m = L->m;
	const style_t *s = L->s;
	int align = s->header_align == ST_LEFT ? FLOW_LEFT : FLOW_CENTER;
	int32_t width = L->width, dx = 0;
	int png = 0, pw = 0, ph = 0;
	memset(photo, 0, sizeof(*photo));
	if (m->photo) {
		const char *why;
		if (image_size(m->photo, &png, &pw, &ph, &why))
			return err_at(L->e, m->file, m->photo_line, m->photo_col,
			              "photo '%s' is not a readable PNG or JPEG file (%s)", m->photo, why);
		photo->h = 78000;
		photo->w = (int32_t)((int64_t)photo->h * pw / ph);
		if (photo->w > 100000) {
			photo->w = 100000;
			photo->h = (int32_t)((int64_t)photo->w * ph / pw);
		}
		photo->x = L->x0 + L->width - photo->w;
		photo->y = s->margin_top;
		photo->path = m->photo;
		photo->png = png;
		width -= photo->w + 14000;
		if (align == FLOW_CENTER) {
			dx = photo->w + 14000; /* keep the text centred on the page */
			width -= photo->w + 14000;
		}
	}
	int start = L->nv;
	spans_t n = {0};
	tstyle_t nt = {L->head, FONT_BOLD, s->size_name, s->c_text, FLOW_NOHYPH | FLOW_NOBREAK};
	sp_at(L, &n, m->name, &nt, m->at_name);
	if (m->name_native) {
		tstyle_t nn = nt;
		nn.size = s->size_native ? s->size_native : s->size_name;
		nn.style = FONT_REGULAR;
		sp_str(L, &n, "  ", &nt);
		sp_at(L, &n, m->name_native, &nn, m->at_native);
	}
	v_flow(L, &n, dx, width, align, s->size_name, 0);
	if (m->headline) {
		spans_t h = {0};
		tstyle_t t = {L->head, FONT_REGULAR, s->size_headline, s->c_muted, 0};
		sp_at(L, &h, m->headline, &t, m->at_headline);
		v_flow(L, &h, dx, width, align, s->size_headline, 0);
	}
	spans_t a = {0};
	tstyle_t at = ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t sep = ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	if (m->affiliation)
		sp_at(L, &a, m->affiliation, &at, m->at_affiliation);
	if (m->location) {
		if (a.n)
			sp_str(L, &a, s->contact_sep, &sep);
		sp_at(L, &a, m->location, &at, m->at_location);
	}
	v_flow(L, &a, dx, width, align, s->size_body, 0);
	spans_t c = {0};
	tstyle_t ct = ts(L, FONT_REGULAR, s->size_small, s->c_link);
	ct.flags = FLOW_NOBREAK | FLOW_NOHYPH; /* a contact item is never split */
	tstyle_t cs = ts(L, FONT_REGULAR, s->size_small, s->c_muted);
	for (int i = 0; i < m->ncontacts; i++) {
		if (c.n)
			sp_str(L, &c, s->contact_sep, &cs);
		const char *label = contact_label(L, &m->contacts[i]);
		sp_add(L, &c, label, (int)strlen(label), &ct, m->contacts[i].url,
		       m->contacts[i].line, m->contacts[i].col);
	}
	for (int i = 0; i < m->nlinks; i++) {
		if (c.n)
			sp_str(L, &c, s->contact_sep, &cs);
		sp_add(L, &c, m->links[i].label, (int)strlen(m->links[i].label), &ct, m->links[i].url,
		       m->links[i].line, m->links[i].col);
	}
	v_flow(L, &c, dx, width, align, s->size_small, 0);
	/* the photo's height counts as part of the header */
	int32_t hh = 0;
	for (int i = start; i < L->nv; i++)
		hh += L->v[i].h;
	if (photo->h > hh)
		v_new(L, V_GAP, photo->h - hh)->nobreak = 1;
	for (int i = start; i < L->nv; i++)
		L->v[i].nobreak = 1;
	if (m->summary.n) {
		v_gap(L, s->header_gap);
		L->v[L->nv - 1].nobreak = 0;
		paragraph(L, &m->summary);
	} else {
		v_gap(L, s->header_gap - s->section_before > 0 ? s->header_gap - s->section_before : 0);
	}
	return 0;
}

/* ---- pages ---------------------------------------------------------- */

static void place(page_t *pg, const vitem_t *v, int32_t baseline)
{
	for (int i = 0; i < v->n; i++) {
		page_item_t it = v->it[i];
		switch (it.kind) {
		case PAGE_RUN:
			it.u.run.y += baseline;
			page_run(pg, &it.u.run);
			break;
		case PAGE_RECT:
			it.u.rect.y += baseline;
			page_rect(pg, &it.u.rect);
			break;
		case PAGE_LINK:
			it.u.link.y += baseline;
			page_link(pg, &it.u.link);
			break;
		}
	}
}

/* Cut the vertical list into pages: fill each page, then break at the
 * last place on it where a break is allowed (a gap, or a line without
 * nobreak); when a page holds no allowed break, break where it is full. */
static void paginate(lay_t *L, page_doc_t *d, const page_image_t *photo)
{
	const style_t *s = L->s;
	int32_t avail = s->page_h - s->margin_top - s->margin_bottom;
	int i = 0;
	while (i < L->nv) {
		while (i < L->nv && L->v[i].kind == V_GAP && d->npages > 0)
			i++; /* gaps vanish at the top of a page */
		if (i >= L->nv)
			break;
		int start = i, last = -1;
		int32_t y = 0;
		while (i < L->nv) {
			const vitem_t *v = &L->v[i];
			if (v->kind == V_LINE && y + v->h > avail && i > start)
				break;
			y += v->h;
			if (v->kind == V_GAP ? !v->nobreak || i + 1 == L->nv : !v->nobreak)
				last = i;
			i++;
		}
		int end = i;
		if (i < L->nv && last >= start)
			end = last + 1;
		page_t *pg = page_add(d);
		if (d->npages == 1 && photo->path)
			page_image(pg, photo);
		int32_t top = s->margin_top;
		for (int k = start; k < end; k++) {
			const vitem_t *v = &L->v[k];
			if (v->kind == V_LINE) {
				place(pg, v, top + v->asc);
				if (v->mark)
					page_mark(d, v->mark, d->npages - 1, top);
			}
			top += v->h;
		}
		i = end;
	}
	if (!d->npages)
		page_add(d);
}

static const char *subst(lay_t *L, const char *tmpl, int page, int pages, const char *date)
{
	buf_t b;
	buf_init(&b);
	for (const char *p = tmpl; *p; p++) {
		if (!strncmp(p, "{name}", 6)) {
			buf_puts(&b, L->m->name);
			p += 5;
		} else if (!strncmp(p, "{page}", 6)) {
			buf_printf(&b, "%d", page);
			p += 5;
		} else if (!strncmp(p, "{pages}", 7)) {
			buf_printf(&b, "%d", pages);
			p += 6;
		} else if (!strncmp(p, "{date}", 6)) {
			buf_puts(&b, date);
			p += 5;
		} else {
			buf_putc(&b, *p);
		}
	}
	const char *r = arena_strdup(L->a, b.s ? b.s : "");
	buf_done(&b);
	return r;
}

static void footer_line(lay_t *L, page_t *pg, const char *text, int align, int32_t baseline)
{
	if (!text[0])
		return;
	spans_t sp = {0};
	tstyle_t t = ts(L, FONT_REGULAR, L->s->size_footer, L->s->c_muted);
	sp_str(L, &sp, text, &t);
	flow_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = L->width;
	o.align = align;
	o.lang = L->lang;
	o.file = L->m->file;
	flow_result_t r;
	/* the footer repeats the name: its characters were already reported
	   where the profile has them, so only real failures are kept */
	errs_t quiet;
	errs_init(&quiet);
	int rc = flow_set(L->a, sp.v, sp.n, &o, &r, &quiet);
	for (int i = 0; i < quiet.n; i++)
		if (quiet.v[i].sev == ERR_ERROR)
			err_sys(L->e, quiet.v[i].file, "%s", quiet.v[i].msg);
	errs_done(&quiet);
	if (rc || r.nlines < 1)
		return;
	vitem_t tmp;
	memset(&tmp, 0, sizeof(tmp));
	v_put_line(L, &tmp, &r.lines[0], L->x0);
	place(pg, &tmp, baseline);
}

static void footers(lay_t *L, page_doc_t *d, long long epoch)
{
	const style_t *s = L->s;
	if (!s->footer)
		return;
	buf_t b;
	buf_init(&b);
	mdate_t upd = L->m->updated;
	if (!upd.kind) {
		time_t t = (time_t)epoch;
		struct tm tm;
		gmtime_r(&t, &tm);
		upd.kind = DATE_MONTH;
		upd.y = tm.tm_year + 1900;
		upd.m = tm.tm_mon + 1;
	}
	date_text(L, &upd, &b);
	const char *date = arena_strdup(L->a, b.s ? b.s : "");
	buf_done(&b);
	int32_t baseline = s->page_h - s->margin_bottom + s->margin_bottom / 2;
	for (int i = 0; i < d->npages; i++) {
		page_t *pg = &d->pages[i];
		footer_line(L, pg, subst(L, s->footer_text, i + 1, d->npages, date), FLOW_RIGHT, baseline);
		if (s->updated_text)
			footer_line(L, pg, subst(L, s->updated_text, i + 1, d->npages, date), FLOW_LEFT,
			            baseline);
	}
}

static void doc_info(lay_t *L, page_doc_t *d)
{
	const model_t *m = L->m;
	d->title = arena_printf(d->arena, "Curriculum Vitae \u2014 %s", m->name);
	d->author = m->name_native ? arena_printf(d->arena, "%s (%s)", m->name, m->name_native)
	                           : arena_strdup(d->arena, m->name);
	buf_t b;
	buf_init(&b);
	if (m->headline)
		buf_puts(&b, m->headline);
	if (m->affiliation)
		buf_printf(&b, "%s%s", b.len ? ", " : "", m->affiliation);
	d->subject = b.len ? arena_strdup(d->arena, b.s) : NULL;
	buf_reset(&b);
	for (int i = 0; i < m->nsections; i++) {
		const msection_t *sec = &m->sections[i];
		if (sec->type != SEC_LIST)
			continue;
		for (int k = 0; k < sec->nitems; k++)
			for (int j = 0; j < sec->items[k].n; j++)
				buf_printf(&b, "%s%s", b.len && j == 0 ? "; " : "", sec->items[k].spans[j].text);
		break;
	}
	d->keywords = b.len ? arena_strdup(d->arena, b.s) : NULL;
	buf_done(&b);
	d->creator = "vita " VITA_LAYOUT_VERSION;
}

page_doc_t *layout_render(const model_t *m, const style_t *s, font_lib_t *lib,
                          const layout_opts_t *o, errs_t *e)
{
	lay_t L;
	memset(&L, 0, sizeof(L));
	L.m = m;
	L.s = s;
	L.lib = lib;
	L.e = e;
	L.lang = m->lang ? m->lang : s->lang;
	L.x0 = s->margin_left;
	L.width = s->page_w - s->margin_left - s->margin_right;
	int32_t tall = s->page_h - s->margin_top - s->margin_bottom;
	if (L.width < 72000 || tall < 144000) {
		err_at(e, s->file, 0, 0,
		       "the margins leave too little room on the page: %d x %d pt between them, "
		       "at least 72 x 144 pt needed (page.margin.left/right/top/bottom)",
		       L.width / 1000, tall / 1000);
		return NULL;
	}
	if (!(L.body = font_chain_get(lib, s->font_body, e)) ||
	    !(L.head = font_chain_get(lib, s->font_heading, e)))
		return NULL;
	if (o->strict && layout_coverage(m, s, lib, 1, e))
		return NULL;
	L.a = arena_new();
	if (s->hyphenate && L.lang && !strncmp(L.lang, "en", 2)) {
		errs_t he;
		errs_init(&he);
		L.hyph = hyph_open(L.lang, &he); /* no patterns: no hyphenation */
		errs_done(&he);
	}
	page_doc_t *d = NULL;
	page_image_t photo;
	if (header(&L, &photo))
		goto out;
	for (int i = 0; i < m->nsections && !L.failed; i++)
		section(&L, &m->sections[i]);
	if (L.failed)
		goto out;
	d = page_doc_new(s->page_w, s->page_h);
	d->epoch = o->epoch;
	paginate(&L, d, &photo);
	footers(&L, d, o->epoch);
	doc_info(&L, d);
out:
	free(L.v);
	hyph_close(L.hyph);
	arena_free(L.a);
	return d;
}
