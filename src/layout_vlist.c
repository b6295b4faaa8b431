/* layout_vlist: the vertical list and pagination.
 *
 * Every block of the CV becomes a run of items on one vertical list:
 * lines (set by inline.c, with anything placed beside them: the date column,
 * the venue column, a bullet) and gaps. Each line says whether a page may
 * break after it; that is how the keep rules are written (a title is kept
 * with what follows, a short entry is kept whole, a long one keeps its
 * head with its first line, paragraphs have no widows or orphans).
 * layout_paginate() then cuts the list into pages at the last allowed
 * break that fits.
 */
#include <stdlib.h>
#include <string.h>
#include "bidi.h"
#include "layout_int.h"
#include "unicode.h"
#include "utf8.h"

vitem_t *v_new(lay_t *L, int kind, int32_t h)
{
	if (L->r->nv == L->r->capv) {
		L->r->capv = L->r->capv ? L->r->capv * 2 : 256;
		L->r->v = xrealloc(L->r->v, sizeof(vitem_t) * (size_t)L->r->capv);
	}
	vitem_t *v = &L->r->v[L->r->nv++];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	v->h = h;
	return v;
}

void v_gap(lay_t *L, int32_t h)
{
	if (L->r->nv && L->r->v[L->r->nv - 1].kind == V_GAP) {
		if (L->r->v[L->r->nv - 1].h < h)
			L->r->v[L->r->nv - 1].h = h;
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

void lay_into(lay_t *L, region_t *r)
{
	L->r = r;
	L->d->cur = r->tag;
}

/* A link's Link element, with its text on the line as written (inline.c:
 * its source bytes in logical order, never the drawn glyphs: a right-to-
 * left word is drawn in joined forms from its last letter) for its
 * alternate description and the annotation's /Contents; the URL when it
 * has none (an icon). The runs of the line (items [from, v->n)) that start
 * inside its box become part of it, and so does the link. */
static void tag_link(lay_t *L, vitem_t *v, int from, page_item_t *lk, const char *text)
{
	int32_t x0 = lk->u.link.x, x1 = x0 + lk->u.link.w;
	int t = page_tag_open(L->d, "Link", NULL, text ? text : lk->u.link.url);
	page_tag_close(L->d, t);
	for (int i = from; i < v->n; i++) {
		const page_run_t *r = &v->it[i].u.run;
		if (v->it[i].kind == PAGE_RUN && r->x >= x0 && r->x < x1)
			v->it[i].tag = t;
	}
	lk->tag = t;
}

/* Alignment in a mirrored (right-to-left) page: start and end swap. */
int lay_align(const lay_t *L, int align)
{
	if (!L->rtl)
		return align;
	return align == INLINE_LEFT ? INLINE_RIGHT : align == INLINE_RIGHT ? INLINE_LEFT : align;
}

/* Copy a set line's runs, links and frames into v, its measure starting
 * dx from the page's left edge and width wide. A right-to-left page
 * mirrors the measure (dx from the right edge), not the line in it: inline.c
 * already set the line right to left. A frame (a badge, a chip) is drawn
 * from a pad above the capitals to a pad below the baseline, so it stays
 * within its line and never touches the lines above and below. */
void v_put_line(lay_t *L, vitem_t *v, const inline_line_t *fl, int32_t dx, int32_t width)
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
		page_item_t *it = v_item(L, v);
		it->kind = PAGE_LINK;
		it->u.link = fl->links[i];
		it->u.link.x += dx;
		tag_link(L, v, from, it, fl->link_text ? fl->link_text[i] : NULL);
	}
	for (int i = 0; i < fl->nframes; i++) {
		const inline_frame_t *fr = &fl->frames[i];
		int32_t cap = font_cap_height(L->body, FONT_REGULAR, fr->size);
		int32_t pad = L->frame_pad;
		page_item_t *it = v_item(L, v);
		it->kind = PAGE_RECT;
		it->u.rect.x = fr->x + dx;
		it->u.rect.y = -cap - pad;
		it->u.rect.w = fr->w;
		it->u.rect.h = cap + 2 * pad + fr->size / 5;
		it->u.rect.color = L->frame_color;
		it->u.rect.stroke = L->s->badge_stroke;
		it->u.rect.radius = L->frame_radius;
	}
}

int32_t lay_lead(lay_t *L, int32_t size)
{
	return (int32_t)((int64_t)size * L->s->leading / 1000);
}

/* Is t[k] the lead of a CJK character: U+3000..U+DFFF (kana, Han, Hangul:
 * lead bytes E3..ED) or U+20000..U+3FFFF (Han Extensions B to H: F0 A0..BF)? */
static int cjk_lead(const unsigned char *t, int k, int n)
{
	return (unsigned char)(t[k] - 0xE3) <= 0xED - 0xE3 ||
	       (t[k] == 0xF0 && k + 1 < n && t[k + 1] >= 0xA0);
}

/* More than half of the letters of spans are Han, kana or Hangul. */
static int mostly_cjk(const spans_t *s)
{
	int cjk = 0, other = 0, any = 0;
	/* first: is there a CJK lead byte at all? (a Latin paragraph has
	   none, and its letters need no counting) */
	for (int i = 0; i < s->n && !any; i++) {
		const unsigned char *t = (const unsigned char *)s->v[i].text;
		int k = 0, n = s->v[i].len;
		for (uint64_t w; k + 8 <= n; k += 8) {   /* eight ASCII bytes at a time */
			memcpy(&w, t + k, 8);
			if (w & 0x8080808080808080u)
				break;
		}
		for (; k < n && !any; k++)
			any = cjk_lead(t, k, n);
	}
	if (!any)
		return 0;
	for (int i = 0; i < s->n; i++) {
		const unsigned char *t = (const unsigned char *)s->v[i].text;
		for (int k = 0; k < s->v[i].len; k++) {
			if (t[k] < 0x80) {
				other += (t[k] | 0x20) >= 'a' && (t[k] | 0x20) <= 'z';
			} else if (cjk_lead(t, k, s->v[i].len)) {
				cjk++;
				k += t[k] == 0xF0 ? 3 : 2;
			}
		}
	}
	return cjk > other;
}

/* Are the spans' letters mostly Myanmar or Tibetan (U+1000..U+109F, lead
 * bytes E1 80-82; U+0F00..U+0FFF, E0 BC-BF)? Their stacked consonants,
 * medials and marks reach far above and below the line (Noto Serif
 * Myanmar's ascent and descent are 1.24 and 1.26 em, Tibetan's 1.47 and
 * 1.35): lines at the Latin leading touch. */
static int mostly_tall(const spans_t *s)
{
	int tall = 0, other = 0, any = 0;
	/* first: is there a lead byte E0 or E1 at all? */
	for (int i = 0; i < s->n && !any; i++)
		any = s->v[i].len > 0 && (memchr(s->v[i].text, 0xE1, (size_t)s->v[i].len) ||
		                          memchr(s->v[i].text, 0xE0, (size_t)s->v[i].len));
	if (!any)
		return 0;
	for (int i = 0; i < s->n; i++) {
		const unsigned char *t = (const unsigned char *)s->v[i].text;
		int n = s->v[i].len, k = 0;
		for (uint64_t w; k + 8 <= n; k += 8) {   /* eight ASCII bytes at a time */
			memcpy(&w, t + k, 8);
			if (w & 0x8080808080808080u)
				break;
			other += 8;
		}
		for (; k < n; k++) {
			if (t[k] < 0x80) {
				other += (t[k] | 0x20) >= 'a' && (t[k] | 0x20) <= 'z';
			} else if (t[k] >= 0xE0 && k + 1 < n) {
				unsigned b = t[k + 1];
				if ((t[k] == 0xE1 && b >= 0x80 && b <= 0x82) || (t[k] == 0xE0 && b >= 0xBC))
					tall++;
				else
					other++;
				k += 2;
			} else if (t[k] >= 0xC0) {
				other++;
			}
		}
	}
	return tall > other;
}

/* fn(s), which reads only the texts of s, kept in *facts (bits 2i: known,
 * 2i + 1: the answer) when the fit's memo keeps a word with them: its
 * attempts set the same paragraphs again at other sizes. */
static int text_fact(int *facts, int i, int (*fn)(const spans_t *), const spans_t *s)
{
	if (facts && (*facts >> 2 * i & 1))
		return *facts >> (2 * i + 1) & 1;
	int v = fn(s);
	if (facts)
		*facts |= (1 | v << 1) << 2 * i;
	return v;
}

/* Is the region blocks go to sure to need more than L->max_pages pages
 * (then L->over = 1, and nothing more is set)? Called before each
 * paragraph: by then the items of the ones before are final (a block
 * changes its lines' heights, chips, right after setting them), but for a
 * last gap, which may still grow (v_gap): it is added next time. */
static int lay_over(lay_t *L)
{
	region_t *r = L->r;
	if (!L->max_pages || L->over)
		return L->over;
	int n = r->nv && r->v[r->nv - 1].kind == V_GAP ? r->nv - 1 : r->nv;
	for (; r->oi < n; r->oi++) {
		const vitem_t *v = &r->v[r->oi];
		layout_over_add(&r->o, &(layout_box_t){v->h, v->kind == V_GAP, v->nobreak});
	}
	L->over = layout_over(&r->o, L->room1, L->avail, L->max_pages);
	return L->over;
}

/* Set spans with a measure and append one V_LINE per line. Returns the
 * index of the first line appended (or -1 when nothing was set). */
int v_flow(lay_t *L, const spans_t *s, int32_t dx, int32_t width, int align,
                  int32_t size, int hyphenate)
{
	if (!s->n || lay_over(L))
		return -1;
	inline_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = width;
	o.align = lay_align(L, align);
	o.rtl = L->rtl;
	o.cjk = L->cjk;
	o.lang = L->lang;
	o.hyph = hyphenate && L->s->hyphenate ? L->hyph : NULL;
	o.hyphs = hyphenate && L->s->hyphenate ? L->hyphs : NULL;
	o.hyphen_limit = L->s->hyphen_limit;
	o.file = L->m->file;
	o.memo = L->memo;
	o.cache = L->icache;
	o.count = L->measure;
	inline_result_t r;
	if (inline_set(L->a, s->v, s->n, &o, &r, L->e)) {
		L->failed = 1;
		return -1;
	}
	int first = L->r->nv;
	int32_t h = lay_lead(L, size);
	if (hyphenate && text_fact(r.facts, 0, mostly_cjk, s))   /* body text, not a name or a title */
		h = (int32_t)((int64_t)size * L->s->leading_cjk / 1000);
	else if (text_fact(r.facts, 1, mostly_tall, s))
		/* any line, not only body text: a Tibetan or Burmese headline
		   reaches into the line below it whatever it is (the compact
		   header's tagline touched its location line) */
		h = (int32_t)((int64_t)size * L->s->leading_tall / 1000);
	for (int i = 0; L->measure && i < r.nlines; i++)
		v_new(L, V_LINE, h);   /* what pagination reads: heights and keeps */
	for (int i = 0; !L->measure && i < r.nlines; i++) {
		const inline_line_t *fl = &r.lines[i];
		/* report justified lines stretched or shrunk past the limits */
		int32_t st = L->s->loose_stretch, sh = L->s->loose_shrink;
		if (align == INLINE_JUSTIFY && i + 1 < r.nlines && !fl->overfull &&
		    (fl->ratio > st || fl->ratio < -sh))
			warn_at(L->e, L->m->file, s->v[0].line, s->v[0].col,
			        "loose line %d of a paragraph: its spaces are %s %d%% past their limit",
			        i + 1, fl->ratio > 0 ? "stretched" : "shrunk",
			        (fl->ratio > 0 ? fl->ratio - st : -fl->ratio - sh) / 10);
		vitem_t *v = v_new(L, V_LINE, h);
		int32_t gh = fl->asc - fl->desc;
		v->asc = (h - gh) / 2 + fl->asc;
		if (fl->asc == 0 && fl->desc == 0)
			v->asc = h * 4 / 5;
		v_put_line(L, v, fl, L->r->x0 + dx, width);
	}
	/* widows and orphans: no break after the first line or before the last */
	if (r.nlines >= 2) {
		L->r->v[first].nobreak = 1;
		L->r->v[L->r->nv - 2].nobreak = 1;
	}
	return r.nlines ? first : -1;
}

/* Set spans as one line (no breaking) and place it in line `at` with its
 * right edge at x (right = 1) or its left edge at x. Adds lines if the
 * list is shorter. */
int v_beside(lay_t *L, int at, const spans_t *s, int32_t x, int right, int32_t width)
{
	if (!s->n || at < 0 || L->over)
		return 0;
	inline_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = width;
	o.align = lay_align(L, right ? INLINE_RIGHT : INLINE_LEFT);
	o.rtl = L->rtl;
	o.cjk = L->cjk;
	o.lang = L->lang;
	o.file = L->m->file;
	o.memo = L->memo;
	o.cache = L->icache;
	o.count = L->measure;
	inline_result_t r;
	if (inline_set(L->a, s->v, s->n, &o, &r, L->e)) {
		L->failed = 1;
		return 0;
	}
	for (int i = 0; i < r.nlines; i++) {
		int k = at + i;
		if (k >= L->r->nv || L->r->v[k].kind != V_LINE) {
			/* a column taller than its text: more lines, kept together */
			vitem_t *nv = v_new(L, V_LINE, L->r->v[at].h);
			nv->asc = L->r->v[at].asc;
			L->r->v[L->r->nv - 2].nobreak = 1;
			k = L->r->nv - 1;
		}
		if (!L->measure)
			v_put_line(L, &L->r->v[k], &r.lines[i], L->r->x0 + x - (right ? width : 0), width);
	}
	return r.nlines;
}


/* Keep lines [first, L->r->nv) together when short; otherwise keep the
 * first `head` lines with the next one. */
void lay_keep_block(lay_t *L, int first, int head)
{
	int n = L->r->nv - first;
	if (first < 0 || n <= 0)
		return;
	if (n <= L->s->keep_short) {
		for (int i = first; i < L->r->nv - 1; i++)
			L->r->v[i].nobreak = 1;
		return;
	}
	for (int i = first; i < first + head && i < L->r->nv - 1; i++)
		L->r->v[i].nobreak = 1;
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

static void place_item(page_t *pg, page_item_t it, int32_t baseline)
{
	switch (it.kind) {
	case PAGE_RUN: it.u.run.y += baseline; break;
	case PAGE_RECT: it.u.rect.y += baseline; break;
	case PAGE_LINK: it.u.link.y += baseline; break;
	default: return;
	}
	page_item(pg, &it);
}

/* Glyphs [j, end) of a right-to-left word (bytes [at, to) of its text,
 * the advances before them cum, theirs w), as one item. */
static void place_piece(page_t *pg, page_item_t it, int j, int at, int to, int32_t cum,
                        int32_t w, int32_t baseline)
{
	page_run_t *r = &it.u.run;
	r->x = r->x + r->w - cum - w;
	r->w = w;
	r->adv = r->adv + j;
	r->text += at;
	r->len = to - at;
	int one = 1;
	for (int k = 1; k < r->len && one; k++)
		one = ((unsigned char)r->text[k] & 0xC0) == 0x80;
	if (one)
		r->adv = NULL;
	place_item(pg, it, baseline);
}

/* The word at sorted place *pi (order, keys xs) of a right-to-left line,
 * and the items after it that come among its glyphs: the order the runs
 * it stands for (page.h) would have given them, so that a frame or a rule
 * is drawn over the same glyphs. *pi: the last item placed. */
static void place_word(page_t *pg, const vitem_t *v, const int *order, const int32_t *xs,
                       int *pi, int32_t baseline)
{
	int i = *pi, wi = order[i], k = i + 1;
	const page_item_t *it = &v->it[wi];
	const page_run_t *r = &it->u.run;
	int j = 0, at = 0;      /* the first glyph not placed yet, its byte */
	int32_t cum = 0;        /* the advances before it */
	/* an item right of the word's left edge may come among its glyphs:
	   before the first glyph whose right edge is left of its (or at it,
	   when the item was before the word in the line) */
	while (k < v->n && xs[k] < -r->x) {
		int jj = j, aa = at, found = 0;
		int32_t cc = cum;
		while (!found) {
			do
				aa++;
			while (aa < r->len && ((unsigned char)r->text[aa] & 0xC0) == 0x80);
			cc += r->adv[jj++];
			if (aa >= r->len)
				break;
			int32_t key = -(r->x + r->w - cc);
			found = xs[k] < key || (xs[k] == key && order[k] < wi);
		}
		if (!found)
			break;
		place_piece(pg, *it, j, at, aa, cum, cc - cum, baseline);
		place_item(pg, v->it[order[k]], baseline);
		j = jj;
		at = aa;
		cum = cc;
		k++;
	}
	if (!j)
		place_item(pg, *it, baseline);
	else
		place_piece(pg, *it, j, at, r->len, cum, r->w - cum, baseline);
	*pi = k - 1;
}

/* Place a line's items, left to right (right to left when rtl: a date
 * column or a label added beside a line later comes where it is read), so
 * that the page list is in reading order. */
/* The direction of an item's text: 1 left to right (a letter that is not
 * right to left, or a digit, and no right-to-left letter), -1 right to
 * left, 0 neither (spaces, punctuation; rules and links, which have none). */
static int item_dir(const page_item_t *it)
{
	if (it->kind != PAGE_RUN)
		return 0;
	if (it->u.run.adv)
		return -1;   /* a right-to-left word */
	const char *s = it->u.run.text;
	int n = it->u.run.len, dir = 0;
	for (int k = 0; k < n;) {
		uint32_t cp = (unsigned char)s[k];
		int l = 1;
		if (cp >= 0x80) {
			l = utf8_decode(s + k, (size_t)(n - k), &cp);
			l = l > 0 ? l : 1;
		}
		k += l;
		if (bidi_is_rtl(cp))
			return -1;
		if ((cp >= '0' && cp <= '9') || uni_is_letter(cp))
			dir = 1;
	}
	return dir;
}

/* Swap items i and j of a drawing order and their x positions. */
static void swap_at(int *order, int32_t *xs, int i, int j)
{
	int t = order[i];
	int32_t tx = xs[i];
	order[i] = order[j];
	xs[i] = xs[j];
	order[j] = t;
	xs[j] = tx;
}

/* On a right-to-left page the items are drawn from the right: a stretch of
 * left-to-right runs in it (a Latin name, split where its kerning changes)
 * is turned round, so that the readers that take text in drawing order
 * (MuPDF, pdf.js) read "Layla Hassan", not "yla Hassan La"; poppler orders
 * by position either way. order[0..n) is the drawing order, xs its keys. */
static void ltr_stretches(const vitem_t *v, int *order, int32_t *xs, int n)
{
	for (int a = 0; a < n; a++) {
		if (item_dir(&v->it[order[a]]) != 1)
			continue;
		int b = a, k = a + 1;
		for (int d; k < n && (d = item_dir(&v->it[order[k]])) >= 0; k++)
			if (d == 1)
				b = k;
		for (int i = a, j = b; i < j; i++, j--)
			swap_at(order, xs, i, j);
		a = b;
	}
}

/* Reverse, among order[a..b], the runs at level lv or more (the other
 * items keep their places) in each stretch of them that no run of a lower
 * level, and nothing drawn but runs, interrupts. */
static void reverse_at(const vitem_t *v, int *order, int32_t *xs, int a, int b, int lv)
{
	for (int i = a; i <= b; i++) {
		const page_item_t *it = &v->it[order[i]];
		if (it->kind != PAGE_RUN || it->u.run.level < lv)
			continue;
		int j = i, e = i;
		for (; j <= b; j++) {
			const page_item_t *q = &v->it[order[j]];
			if (q->kind == PAGE_RUN && q->u.run.level < lv)
				break;
			if (q->kind == PAGE_RUN)
				e = j;
		}
		for (int l = i, r = e; l < r; l++, r--) {
			while (v->it[order[l]].kind != PAGE_RUN)
				l++;
			while (v->it[order[r]].kind != PAGE_RUN)
				r--;
			if (l >= r)
				break;
			swap_at(order, xs, l, r);
		}
		i = j;
	}
}

/* On a left-to-right line the items are drawn from the left: a stretch of
 * runs at bidi level 1 or more (an Arabic name, a Hebrew title with its
 * numbers) is put back in reading order, the runs of each level from 1 up
 * turned round (UAX #9 L2 undone: the right-to-left runs from the right,
 * a number or a Latin name in them left to right), so that the readers
 * that take text in drawing order (MuPDF, pdf.js) read "محمد العلي", not
 * "يلعلا دمحم" (a word, one run, is drawn from its first letter: page.h;
 * the space after the stretch is a run of its own: inline.c ls_glue).
 * Links (no ink) keep their places among the runs; a frame, a rule or an
 * image ends the stretch (each is drawn before and after the glyphs it
 * was). order[0..n) is the drawing order, xs its keys. */
static void rtl_stretches(const vitem_t *v, int *order, int32_t *xs, int n)
{
	for (int a = 0; a < n; a++) {
		const page_item_t *it = &v->it[order[a]];
		if (it->kind != PAGE_RUN || it->u.run.level < 1)
			continue;
		int b = a, top = it->u.run.level;
		for (int k = a + 1; k < n; k++) {
			const page_item_t *q = &v->it[order[k]];
			if (q->kind == PAGE_LINK)
				continue;
			if (q->kind != PAGE_RUN || q->u.run.level < 1)
				break;
			b = k;
			top = q->u.run.level > top ? q->u.run.level : top;
		}
		for (int lv = 1; lv <= top; lv++)
			reverse_at(v, order, xs, a, b, lv);
		a = b;
	}
}

void lay_place(page_t *pg, const vitem_t *v, int32_t baseline, int rtl)
{
	/* insertion sort (stable) of the item indices by x; a line has a
	   few items, so both arrays are on the stack unless it has many */
	int order_s[64], *order = v->n <= 64 ? order_s : xmalloc(sizeof(int) * (size_t)v->n);
	int32_t xs_s[64], *xs = v->n <= 64 ? xs_s : xmalloc(sizeof(int32_t) * (size_t)v->n);
	int lv = 0;     /* a run above level 0: right-to-left text */
	for (int m = 0; m < v->n; m++) {
		/* a right-to-left line's runs come left to right: taken from
		   the last, they are almost in order (ties stay in the
		   list's order) */
		int i = rtl ? v->n - 1 - m : m, k = m;
		int32_t x = item_x(&v->it[i], rtl);
		lv |= v->it[i].kind == PAGE_RUN ? v->it[i].u.run.level : 0;
		while (k > 0 && (xs[k - 1] > x || (xs[k - 1] == x && order[k - 1] > i))) {
			order[k] = order[k - 1];
			xs[k] = xs[k - 1];
			k--;
		}
		order[k] = i;
		xs[k] = x;
	}
	if (rtl)
		ltr_stretches(v, order, xs, v->n);
	else if (lv)
		rtl_stretches(v, order, xs, v->n);
	for (int i = 0; i < v->n; i++) {
		const page_item_t *it = &v->it[order[i]];
		if (rtl && it->kind == PAGE_RUN && it->u.run.adv)
			place_word(pg, v, order, xs, &i, baseline);
		else
			place_item(pg, *it, baseline);
	}
	if (order != order_s)
		free(order);
	if (xs != xs_s)
		free(xs);
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

void layout_over_add(layout_over_t *o, const layout_box_t *b)
{
	o->y += b->h;
	if (b->gap) {
		o->run += b->h;
		if (o->run > o->g)
			o->g = o->run;
		return;
	}
	o->run = 0;
	o->last = o->y;
	if (b->h > o->tallest)
		o->tallest = b->h;
}

/* Proof. In layout_paginate, with room R1 on the first page and A on the
 * others: a page holds its boxes up to its last non-gap box within its
 * room (a non-gap box after the page's first is taken only while
 * y + h <= room; the first is a non-gap box, or the list's first box, and
 * is within the room when no non-gap box is taller than min(R1, A)).
 * Between a page's last non-gap box and the next page's first box there
 * are only gaps (a page ends after its last allowed break, and the next
 * one skips the gaps at its top): one run of consecutive gaps, at most G,
 * the tallest run of them. So the boxes up to a non-gap box on page q sum
 * to at most R1 + (q - 1) (A + G), and a sum above R1 + (N - 1) (A + G)
 * puts that box on a page past N. Boxes added later only come after it. */
int layout_over(const layout_over_t *o, int32_t avail_first, int32_t avail, int max)
{
	int32_t room = avail_first < avail ? avail_first : avail;
	if (max < 1 || o->tallest > room)
		return 0;
	return o->last > avail_first + (int64_t)(max - 1) * (avail + o->g);
}

int32_t lay_height(const region_t *r, int from, int to)
{
	int32_t h = 0;
	for (int i = from; i < to && i < r->nv; i++)
		h += r->v[i].h;
	return h;
}

/* Pages of one region: *out is malloc'd (free it); returns their number. */
static int region_pages(const region_t *r, int32_t first, int32_t avail, layout_page_t **out)
{
	layout_box_t *b = xcalloc((size_t)r->nv + 1, sizeof(*b));
	*out = xcalloc((size_t)r->nv + 1, sizeof(**out));
	for (int i = 0; i < r->nv; i++) {
		b[i].h = r->v[i].h;
		b[i].gap = r->v[i].kind == V_GAP;
		b[i].keep = r->v[i].nobreak;
	}
	int np = layout_paginate(b, r->nv, first, avail, *out);
	free(b);
	return np;
}

/* Place items [from, to) of r on the last page of d from top down;
 * returns the bottom. */
static int32_t place_range(lay_t *L, page_doc_t *d, page_t *page, const region_t *r, int from,
                           int to, int32_t top, const page_image_t *photo)
{
	int at = L->photo_at < to ? L->photo_at : to - 1;
	if (photo && at < from)   /* at the top of the region */
		page_item(page, &(page_item_t){.kind = PAGE_IMAGE, .tag = L->photo_tag,
		                               .u.image = *photo});
	for (int k = from; k < to; k++) {
		const vitem_t *v = &r->v[k];
		if (v->kind == V_LINE) {
			lay_place(page, v, top + v->asc, L->rtl);
			if (v->mark)
				page_mark(d, v->mark, d->npages - 1, top);
		}
		top += v->h;
		/* the photo is read after the header lines beside it */
		if (photo && k == at)
			page_item(page, &(page_item_t){.kind = PAGE_IMAGE, .tag = L->photo_tag,
			                               .u.image = *photo});
	}
	return top;
}

/* Text extraction in reading order beside a sidebar. pdftotext (poppler)
 * groups lines into blocks and orders them by Breuel's rules, but first
 * widens every block that has no block beside it across the page, over the
 * blocks below it; a sidebar block that sits level with a gap of the main
 * column (or the other way round) then overlaps the other column and is
 * read in between its lines. So each column's gaps are closed with
 * anchors: a word joiner (U+2060: no width, no ink, not white space, so
 * poppler makes a word of it) at the column's left edge, as many as it
 * takes for their line boxes to touch the boxes of the lines above and
 * below. */
/* An anchor is no content of the CV: an artifact in the structure. */
static void anchor(page_t *page, const page_run_t *a)
{
	page_item(page, &(page_item_t){.kind = PAGE_RUN, .tag = PAGE_TAG_ARTIFACT, .u.run = *a});
}

static void anchors(lay_t *L, page_t *page, const region_t *r, int from, int to, int32_t top)
{
	int32_t prev = -1;              /* bottom of the previous line's box */
	const page_run_t *title = NULL; /* the previous line, when a section title */
	for (int k = from; k < to; k++) {
		const vitem_t *v = &r->v[k];
		const page_run_t *first = NULL;
		for (int i = 0; i < v->n && !first; i++)
			if (v->it[i].kind == PAGE_RUN)
				first = &v->it[i].u.run;
		if (v->kind != V_LINE || !first) {
			top += v->h;
			continue;
		}
		/* a stack of anchors above this line at its first run's place and
		   size (under a title: at the title's), so poppler joins them to
		   that line's block, up to the box of the line above */
		const page_run_t *like = title ? title : first;
		int32_t base = top + v->asc, sz = first->size, step = like->size * 13 / 10;
		page_run_t a = *like;
		a.text = "\u2060";
		a.len = 3;
		a.adv = NULL;
		a.w = 0;
		a.actual = NULL;
		a.actual_len = 0;
		a.gids = NULL;
		a.glyphs = NULL;   /* the first run may draw clusters */
		a.nglyphs = 0;
		a.face = font_face_for(L->body, FONT_REGULAR, L->lang, 0x2060);
		a.synth = 0;
		int hole = prev >= 0 && base - sz * 11 / 10 - prev > sz * 3 / 10;
		if (title) /* downwards from the title */
			for (int32_t b = prev - like->size * 3 / 10 + step;
			     hole && a.face >= 0 && b - like->size * 11 / 10 < base - sz * 11 / 10; b += step) {
				a.y = b;
				anchor(page, &a);
			}
		else
			for (int32_t b = base - step; hole && a.face >= 0 && b + sz * 3 / 10 > prev; b -= step) {
				a.y = b;
				anchor(page, &a);
			}
		prev = base + sz * 3 / 10;
		title = v->mark ? first : NULL;
		top += v->h;
	}
}

/* What lay_pages would make of the regions, without placing anything:
 * the number of pages, and the height it would use on the last one (its
 * L->last_fill). For fit's attempts that are not kept. */
int lay_measure(const lay_t *L, int32_t *last_fill)
{
	const style_t *s = L->s;
	const region_t *hr = &L->reg[R_HEAD], *mr = &L->reg[R_MAIN], *sr = &L->reg[R_SIDE];
	int32_t hh = lay_height(hr, 0, hr->nv);
	layout_page_t *pm, *ps;
	int npm = region_pages(mr, L->avail - hh, L->avail, &pm);
	int nps = region_pages(sr, L->avail - hh, L->avail, &ps);
	int np = npm > nps ? npm : nps;
	if (np < 1)
		np = 1;
	int p = np - 1;
	int32_t top = s->margin_top + (p == 0 ? hh : 0), bottom = top;
	const region_t *r[2] = {mr, sr};
	const layout_page_t *pages[2] = {pm, ps};
	int counts[2] = {npm, nps};
	for (int c = 0; c < 2; c++)
		if (p < counts[c]) {
			int32_t b = top + lay_height(r[c], pages[c][p].start, pages[c][p].end);
			if (b > bottom)
				bottom = b;
		}
	*last_fill = bottom - s->margin_top;
	free(pm);
	free(ps);
	return np;
}

/* Paginate the regions and place them on new pages of d: the header at
 * the top of the first page, then on each page the columns in reading
 * order (the main column, then the sidebar; sidebar.read: before turns
 * them round), each whole before the next, so text extraction never
 * interleaves them. The photo goes on the first page. */
void lay_pages(lay_t *L, page_doc_t *d, page_image_t *photo)
{
	const style_t *s = L->s;
	const region_t *hr = &L->reg[R_HEAD], *mr = &L->reg[R_MAIN], *sr = &L->reg[R_SIDE];
	int32_t hh = lay_height(hr, 0, hr->nv);
	int32_t first = L->avail - hh;
	layout_page_t *pm, *ps;
	int npm = region_pages(mr, first, L->avail, &pm);
	int nps = region_pages(sr, first, L->avail, &ps);
	int np = npm > nps ? npm : nps;
	if (np < 1)
		np = 1;
	const region_t *order[2] = {mr, sr};
	const layout_page_t *pages[2] = {pm, ps};
	int counts[2] = {npm, nps};
	if (s->sidebar_read_first) {
		order[0] = sr, order[1] = mr;
		pages[0] = ps, pages[1] = pm;
		counts[0] = nps, counts[1] = npm;
	}
	for (int p = 0; p < np; p++) {
		page_t *page = page_add(d);
		int32_t top = s->margin_top, bottom = top;
		/* the region whose lines the photo is read after */
		const region_t *pr = !photo->path ? NULL : L->photo_side ? sr
		                     : &L->reg[s->sidebar != SIDE_NONE ? R_HEAD : R_MAIN];
		if (p == 0) {
			if (photo->path && L->photo_side)
				photo->y = s->margin_top + hh + L->photo_top;
			if (pr == hr && !hr->nv)
				page_item(page, &(page_item_t){.kind = PAGE_IMAGE, .tag = L->photo_tag,
				                               .u.image = *photo});
			top = bottom = place_range(L, d, page, hr, 0, hr->nv, top, pr == hr ? photo : NULL);
		}
		for (int c = 0; c < 2; c++) {
			if (p >= counts[c])
				continue;
			int32_t b = place_range(L, d, page, order[c], pages[c][p].start, pages[c][p].end, top,
			                        p == 0 && pr == order[c] ? photo : NULL);
			if (s->sidebar != SIDE_NONE)
				anchors(L, page, order[c], pages[c][p].start, pages[c][p].end, top);
			if (b > bottom)
				bottom = b;
		}
		L->last_fill = bottom - s->margin_top;
	}
	free(pm);
	free(ps);
}
