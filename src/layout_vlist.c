/* layout_vlist: the vertical list and pagination.
 *
 * Every block of the CV becomes a run of items on one vertical list:
 * lines (set by flow, with anything placed beside them: the date column,
 * the venue column, a bullet) and gaps. Each line says whether a page may
 * break after it; that is how the keep rules are written (a title is kept
 * with what follows, a short entry is kept whole, a long one keeps its
 * head with its first line, paragraphs have no widows or orphans).
 * layout_paginate() then cuts the list into pages at the last allowed
 * break that fits.
 */
#include <stdlib.h>
#include <string.h>
#include "layout_int.h"

vitem_t *v_new(lay_t *L, int kind, int32_t h)
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

void v_gap(lay_t *L, int32_t h)
{
	if (L->nv && L->v[L->nv - 1].kind == V_GAP) {
		if (L->v[L->nv - 1].h < h)
			L->v[L->nv - 1].h = h;
		return;
	}
	v_new(L, V_GAP, h);
}

page_item_t *v_item(lay_t *L, vitem_t *v)
{
	if (v->n == v->cap) {
		int cap = v->cap ? v->cap * 2 : 8;
		v->it = arena_grow(L->a, v->it, sizeof(page_item_t) * (size_t)v->cap,
		                   sizeof(page_item_t) * (size_t)cap);
		v->cap = cap;
	}
	page_item_t *it = &v->it[v->n++];
	it->tag = L->d ? L->d->cur : PAGE_TAG_DOCUMENT;
	return it;
}

/* ---- structure ---- */

int lay_tag(lay_t *L, const char *role)
{
	return page_tag_open(L->d, role, NULL, NULL);
}

void lay_untag(lay_t *L, int tag)
{
	page_tag_close(L->d, tag);
}

/* A link's text, for its alternate description: the runs of the line
 * (items [from, v->n)) that start inside its box, with a space where a gap is left
 * between two of them (justified or kerned runs hold no spaces). The runs
 * become part of a Link element, and so does the link. */
static void tag_link(lay_t *L, vitem_t *v, int from, page_item_t *lk)
{
	buf_t b;
	buf_init(&b);
	int32_t x0 = lk->u.link.x, x1 = x0 + lk->u.link.w, end = x0;
	for (int i = from; i < v->n; i++) {
		const page_run_t *r = &v->it[i].u.run;
		if (v->it[i].kind != PAGE_RUN || r->x < x0 || r->x >= x1)
			continue;
		if (b.len && r->x - end > r->size / 8)
			buf_putc(&b, ' ');
		buf_add(&b, r->text, (size_t)r->len);
		end = r->x + r->w;
	}
	while (b.len && b.s[b.len - 1] == ' ')
		b.s[--b.len] = '\0';
	int t = page_tag_open(L->d, "Link", NULL, b.len ? b.s : lk->u.link.url);
	page_tag_close(L->d, t);
	for (int i = from; i < v->n; i++) {
		const page_run_t *r = &v->it[i].u.run;
		if (v->it[i].kind == PAGE_RUN && r->x >= x0 && r->x < x1)
			v->it[i].tag = t;
	}
	lk->tag = t;
	buf_done(&b);
}

/* Alignment in a mirrored (right-to-left) page: start and end swap. */
int lay_align(const lay_t *L, int align)
{
	if (!L->rtl)
		return align;
	return align == FLOW_LEFT ? FLOW_RIGHT : align == FLOW_RIGHT ? FLOW_LEFT : align;
}

/* Copy a set line's runs and links into v, its measure starting dx from
 * the page's left edge and width wide. A right-to-left page mirrors the
 * measure (dx from the right edge), not the line in it: flow already set
 * the line right to left. */
void v_put_line(lay_t *L, vitem_t *v, const flow_line_t *fl, int32_t dx, int32_t width)
{
	if (L->rtl)
		dx = L->s->page_w - dx - width;
	int from = v->n;
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
		tag_link(L, v, from, it);
	}
}

int32_t lay_lead(lay_t *L, int32_t size)
{
	return (int32_t)((int64_t)size * L->s->leading / 1000);
}

/* More than half of the letters of spans are Han, kana or Hangul. */
static int mostly_cjk(const spans_t *s)
{
	int cjk = 0, other = 0;
	for (int i = 0; i < s->n; i++) {
		const unsigned char *t = (const unsigned char *)s->v[i].text;
		for (int k = 0; k < s->v[i].len; k++) {
			if (t[k] < 0x80) {
				other += (t[k] | 0x20) >= 'a' && (t[k] | 0x20) <= 'z';
			} else if (t[k] >= 0xE3 && t[k] <= 0xED) {
				cjk++;        /* U+3000..U+DFFF: kana, Han, Hangul */
				k += 2;
			}
		}
	}
	return cjk > other;
}

/* Set spans with a measure and append one V_LINE per line. Returns the
 * index of the first line appended (or -1 when nothing was set). */
int v_flow(lay_t *L, const spans_t *s, int32_t dx, int32_t width, int align,
                  int32_t size, int hyphenate)
{
	if (!s->n)
		return -1;
	flow_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = width;
	o.align = lay_align(L, align);
	o.rtl = L->rtl;
	o.cjk = L->cjk;
	o.lang = L->lang;
	o.hyph = hyphenate && L->s->hyphenate ? L->hyph : NULL;
	o.file = L->m->file;
	flow_result_t r;
	if (flow_set(L->a, s->v, s->n, &o, &r, L->e)) {
		L->failed = 1;
		return -1;
	}
	int first = L->nv;
	int32_t h = lay_lead(L, size);
	if (hyphenate && mostly_cjk(s))   /* body text, not a name or a title */
		h = (int32_t)((int64_t)size * L->s->leading_cjk / 1000);
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
		v_put_line(L, v, fl, L->x0 + dx, width);
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
int32_t v_beside(lay_t *L, int at, const spans_t *s, int32_t x, int right, int32_t width)
{
	if (!s->n || at < 0)
		return 0;
	flow_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = width;
	o.align = lay_align(L, right ? FLOW_RIGHT : FLOW_LEFT);
	o.rtl = L->rtl;
	o.cjk = L->cjk;
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
		v_put_line(L, &L->v[k], &r.lines[i], L->x0 + x - (right ? width : 0), width);
		if (r.lines[i].width > wmax)
			wmax = r.lines[i].width;
	}
	return wmax;
}


/* Keep lines [first, L->nv) together when short; otherwise keep the
 * first `head` lines with the next one. */
void lay_keep_block(lay_t *L, int first, int head)
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
/* Where an item starts in reading order: its left edge, or in a
 * right-to-left page its right edge, negated. */
static int32_t item_x(const page_item_t *it, int rtl)
{
	int32_t x = it->kind == PAGE_RUN ? it->u.run.x : it->kind == PAGE_RECT ? it->u.rect.x
	            : it->kind == PAGE_LINK ? it->u.link.x : 0;
	int32_t w = it->kind == PAGE_RUN ? it->u.run.w : it->kind == PAGE_RECT ? it->u.rect.w
	            : it->kind == PAGE_LINK ? it->u.link.w : 0;
	return rtl ? -(x + w) : x;
}

/* Place a line's items, left to right (right to left when rtl: a date
 * column or a label added beside a line later comes where it is read), so
 * that the page list is in reading order. */
void lay_place(page_t *pg, const vitem_t *v, int32_t baseline, int rtl)
{
	int *order = xmalloc(sizeof(int) * (size_t)(v->n ? v->n : 1));
	for (int i = 0; i < v->n; i++) {
		int k = i;
		int32_t x = item_x(&v->it[i], rtl);
		while (k > 0 && item_x(&v->it[order[k - 1]], rtl) > x) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	for (int i = 0; i < v->n; i++) {
		page_item_t it = v->it[order[i]];
		switch (it.kind) {
		case PAGE_RUN: it.u.run.y += baseline; break;
		case PAGE_RECT: it.u.rect.y += baseline; break;
		case PAGE_LINK: it.u.link.y += baseline; break;
		default: continue;
		}
		page_item(pg, &it);
	}
	free(order);
}

/* Cut boxes into pages: fill each page, then break at the last place on
 * it where a break is allowed (a gap, or a line without keep); when a page
 * holds no allowed break, break where it is full. Gaps vanish at the top
 * of every page but the first. Pure: heights and keeps in, pages out. */
int layout_paginate(const layout_box_t *b, int n, int32_t avail_first, int32_t avail,
                    layout_page_t *pages)
{
	int np = 0, i = 0;
	while (i < n) {
		while (i < n && b[i].gap && np > 0)
			i++;
		if (i >= n)
			break;
		int32_t room = np ? avail : avail_first;
		int start = i, last = -1;
		int32_t y = 0;
		while (i < n) {
			if (!b[i].gap && y + b[i].h > room && i > start)
				break;
			y += b[i].h;
			if (b[i].gap ? !b[i].keep || i + 1 == n : !b[i].keep)
				last = i;
			i++;
		}
		int end = i;
		if (i < n && last >= start)
			end = last + 1;
		pages[np].start = start;
		pages[np].end = end;
		np++;
		i = end;
	}
	return np;
}

/* Paginate L's list and place it on new pages of d (the photo on the
 * first). */
void lay_pages(lay_t *L, page_doc_t *d, const page_image_t *photo)
{
	const style_t *s = L->s;
	int32_t avail = s->page_h - s->margin_top - s->margin_bottom;
	layout_box_t *b = xcalloc((size_t)(L->nv ? L->nv : 1), sizeof(*b));
	layout_page_t *pg = xcalloc((size_t)(L->nv ? L->nv : 1), sizeof(*pg));
	for (int i = 0; i < L->nv; i++) {
		b[i].h = L->v[i].h;
		b[i].gap = L->v[i].kind == V_GAP;
		b[i].keep = L->v[i].nobreak;
	}
	int np = layout_paginate(b, L->nv, avail, avail, pg), photo_done = 0;
	for (int p = 0; p < np; p++) {
		page_t *page = page_add(d);
		int32_t top = s->margin_top;
		for (int k = pg[p].start; k < pg[p].end; k++) {
			const vitem_t *v = &L->v[k];
			if (v->kind == V_LINE) {
				lay_place(page, v, top + v->asc, L->rtl);
				if (v->mark)
					page_mark(d, v->mark, d->npages - 1, top);
			}
			top += v->h;
			if (p == 0 && (k == L->photo_at || k + 1 == pg[p].end) && photo->path &&
			    !photo_done) {
				page_item(page, &(page_item_t){.kind = PAGE_IMAGE, .tag = L->photo_tag,
				                               .u.image = *photo});
				photo_done = 1;
			}
		}
	}
	if (!d->npages)
		page_add(d);
	free(b);
	free(pg);
}
