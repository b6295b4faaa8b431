/* layout_blocks: the blocks of a section on the vertical list -- its
 * title (with the rule), entries (head line with the date column, the
 * secondary line, bullets, links), publications (the label column, authors
 * with the CV's owner highlighted, venue, links and badges, groups by type
 * or year), news, lists and paragraphs -- each with its keep rules.
 */
#include <string.h>
#include "layout_int.h"

/* "\u00a0(2025,\u00a0preprint)" in the locale's pattern: the spaces of the
 * pattern become no-break spaces, so the note stays whole and with the
 * last name. */
static const char *year_note(lay_t *L, const mpub_t *p)
{
	buf_t b;
	buf_init(&b);
	char y[16];
	snprintf(y, sizeof(y), "%d", p->year);
	buf_puts(&b, "\u00a0");
	if (p->year && p->status) {
		buf_t t;
		buf_init(&t);
		locale_fill(&t, L->loc->year_status, "year", y, "status", "\x01", (const char *)NULL);
		for (const char *c = t.s; *c; c++)
			if (*c == ' ')
				buf_puts(&b, "\u00a0");
			else if (*c == '\x01')
				buf_puts(&b, p->status);
			else
				buf_putc(&b, *c);
		buf_done(&t);
	} else {
		locale_fill(&b, L->loc->year, "year", p->year ? y : p->status, (const char *)NULL);
	}
	const char *r = arena_strdup(L->a, b.s);
	buf_done(&b);
	return r;
}

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
	int tag = lay_tag(L, "H2");
	int first = v_flow(L, &sp, 0, L->width, FLOW_LEFT, s->size_section, 0);
	lay_untag(L, tag);
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
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t bt = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	int list = lay_tag(L, "L");
	for (int i = 0; i < n; i++) {
		int li = lay_tag(L, "LI"), body = lay_tag(L, "LBody");
		spans_t sp = {0};
		sp_text(L, &sp, &items[i], &t);
		int first = v_flow(L, &sp, dx + s->bullet_indent, L->width - dx - s->bullet_indent,
		                   s->text_align == ST_JUSTIFY ? FLOW_JUSTIFY : FLOW_LEFT,
		                   s->size_body, 1);
		spans_t bs = {0};
		sp_str(L, &bs, s->bullet, &bt);
		lay_untag(L, body);
		int lbl = lay_tag(L, "Lbl");
		v_beside(L, first, &bs, dx + s->bullet_indent / 4, 0, s->bullet_indent);
		lay_untag(L, lbl);
		lay_untag(L, li);
	}
	lay_untag(L, list);
}

static int entry_has_org_first(const msection_t *sec, const mentry_t *en)
{
	return en->org.n && (sec->type == SEC_EDUCATION || sec->type == SEC_EXPERIENCE);
}

static void entry(lay_t *L, const msection_t *sec, const mentry_t *en)
{
	const style_t *s = L->s;
	tstyle_t bold = lay_ts(L, FONT_BOLD, s->size_body, s->c_text);
	tstyle_t ital = lay_ts(L, FONT_ITALIC, s->size_body, s->c_text);
	tstyle_t muted = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	tstyle_t mutedi = lay_ts(L, FONT_ITALIC, s->size_body, s->c_muted);
	int org_first = entry_has_org_first(sec, en);
	int start = L->nv;
	int li = lay_tag(L, "LI"), body = lay_tag(L, "LBody");

	/* the date column */
	spans_t ds = {0};
	const char *dates = lay_entry_dates(L, en);
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
		tstyle_t lt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_link);
		links_row(L, &ls, en->links, en->nlinks, NULL, &lt);
		v_flow(L, &ls, 0, L->width, FLOW_LEFT, s->size_small, 0);
	}
	lay_untag(L, body);
	lay_untag(L, li);
	lay_keep_block(L, start, 2);
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
	tstyle_t bold = lay_ts(L, FONT_BOLD, s->size_body, s->c_text);
	tstyle_t reg = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t ital = lay_ts(L, FONT_ITALIC, s->size_body, s->c_text);
	tstyle_t small = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);

	int li = lay_tag(L, "LI"), body = lay_tag(L, "LBody");
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
			unsigned fl = p->aflags ? p->aflags[i] : 0;
			int me = p->aflags ? (fl & AUTHOR_OWNER) != 0 : is_highlight(L->m, sec, au);
			const tstyle_t *st = me ? &hname : &name;
			int eq = (fl & AUTHOR_EQUAL) || is_equal(p, au);
			const char *txt = eq || (fl & AUTHOR_CORRESPONDING)
			                  ? arena_printf(L->a, "%s%s%s", au, eq ? "*" : "",
			                                 fl & AUTHOR_CORRESPONDING ? "\u2020" : "")
			                  : au;
			if (i)
				sp_str(L, &a, ", ", &reg);
			sp_add(L, &a, txt, (int)strlen(txt), st, NULL, p->line, p->col);
		}
		if (p->etal)
			sp_str(L, &a, arena_printf(L->a, ", %s", L->loc->et_al), &reg);
		/* "(2025)" or "(2025, preprint)" closes the author line, as in
		   author-year styles; the venue tag already sits in the margin */
		tstyle_t yt = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
		/* a no-break space keeps "(2026)" with the last name */
		if (p->year || p->status)
			sp_str(L, &a, year_note(L, p), &yt);
		v_flow(L, &a, lw, mw, FLOW_LEFT, s->size_body, 0);
	} else if (p->year || p->status) {
		spans_t y = {0};
		tstyle_t yt = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
		if (p->year)
			sp_str(L, &y, arena_printf(L->a, "%d%s", p->year, p->status ? ", " : ""), &yt);
		if (p->status)
			sp_str(L, &y, p->status, &yt);
		v_flow(L, &y, lw, mw, FLOW_LEFT, s->size_body, 0);
	}

	spans_t vn = {0};
	if (p->venue_full.n)
		sp_text(L, &vn, &p->venue_full, &ital);
	if (p->neditors) {
		buf_t eb;
		buf_init(&eb);
		for (int i = 0; i < p->neditors; i++)
			buf_printf(&eb, "%s%s", i ? ", " : "", p->editors[i]);
		buf_t ed;
		buf_init(&ed);
		locale_fill(&ed, L->loc->editors ? L->loc->editors : "{names}", "names", eb.s,
		            (const char *)NULL);
		sp_str(L, &vn, arena_printf(L->a, "%s%s", vn.n ? "; " : "", ed.s), &reg);
		buf_done(&eb);
		buf_done(&ed);
	}
	v_flow(L, &vn, lw, mw, FLOW_LEFT, s->size_body, 1);

	spans_t ex = {0};
	tstyle_t lt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_link);
	links_row(L, &ex, p->links, p->nlinks, p->doi, &lt);
	if (p->nbadges) {
		if (ex.n)
			sp_str(L, &ex, " \u00b7 ", &small);
		sp_str(L, &ex, L->loc->badges, &small);
		tstyle_t bt = lay_ts(L, FONT_REGULAR, s->size_small * 88 / 100, s->c_badge);
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
		tstyle_t nt = lay_ts(L, FONT_BOLD, s->size_small, s->c_highlight);
		sp_text(L, &ex, &p->note, &nt);
	}
	v_flow(L, &ex, lw, mw, FLOW_LEFT, s->size_small, 0);
	lay_untag(L, body);

	/* the label column: venue tag, then the number */
	int lbl = lay_tag(L, "Lbl");
	if (first >= 0) {
		spans_t lab = {0};
		tstyle_t vt = lay_ts(L, FONT_BOLD, s->size_small, s->c_accent);
		vt.flags = FLOW_NOHYPH;
		tstyle_t nt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);
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
	lay_untag(L, lbl);
	lay_untag(L, li);
	lay_keep_block(L, start, 2);
}

static void group_heading(lay_t *L, const char *text, int first)
{
	spans_t y = {0};
	tstyle_t yt = lay_ts(L, FONT_BOLD, L->s->size_body, L->s->c_muted);
	sp_str(L, &y, text, &yt);
	if (!first)
		v_gap(L, L->s->pub_gap * 3 / 2);
	int tag = lay_tag(L, "H3");
	int f = v_flow(L, &y, 0, L->width, FLOW_LEFT, L->s->size_body, 0);
	lay_untag(L, tag);
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
	int any_equal = 0, shown = 0, list = -1;
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
				const char *t = kinds[k][0] ? kinds[k] : L->loc->published;
				char *h = arena_strdup(L->a, t);
				if (h[0] >= 'a' && h[0] <= 'z')
					h[0] = (char)(h[0] - 'a' + 'A');
				if (list >= 0)
					lay_untag(L, list);
				group_heading(L, h, shown == 0);
				list = lay_tag(L, "L");
			} else if (sec->group_by == GROUP_YEAR && p->year &&
			           (shown == 0 || sec->pubs[i - 1].year != p->year)) {
				if (list >= 0)
					lay_untag(L, list);
				group_heading(L, arena_printf(L->a, "%d", p->year), shown == 0);
				list = lay_tag(L, "L");
			} else if (shown) {
				v_gap(L, L->s->pub_gap);
			}
			if (list < 0)
				list = lay_tag(L, "L");
			in_group = 1;
			publication(L, sec, p, number);
			shown++;
			if (p->nequal)
				any_equal = 1;
		}
	}
	if (list >= 0)
		lay_untag(L, list);
	if (any_equal) {
		v_gap(L, L->s->pub_gap / 2);
		spans_t f = {0};
		tstyle_t t = lay_ts(L, FONT_ITALIC, L->s->size_small, L->s->c_muted);
		sp_str(L, &f, L->loc->equal, &t);
		int tag = lay_tag(L, "P");
		v_flow(L, &f, L->s->pub_label_width, L->width - L->s->pub_label_width, FLOW_LEFT,
		       L->s->size_small, 0);
		lay_untag(L, tag);
	}
}

static void news(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	int32_t dw = s->news_date_width;
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t dt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);
	int list = lay_tag(L, "L");
	for (int i = 0; i < sec->nnews; i++) {
		const mnews_t *n = &sec->news[i];
		if (i)
			v_gap(L, s->entry_gap / 3);
		int start = L->nv;
		int li = lay_tag(L, "LI"), body = lay_tag(L, "LBody");
		spans_t sp = {0};
		sp_text(L, &sp, &n->text, &t);
		int first = v_flow(L, &sp, dw, L->width - dw, FLOW_LEFT, s->size_body, 1);
		buf_t b;
		buf_init(&b);
		lay_date_text(L, &n->date, &b);
		spans_t ds = {0};
		if (b.len)
			sp_str(L, &ds, arena_strdup(L->a, b.s), &dt);
		buf_done(&b);
		lay_untag(L, body);
		int lbl = lay_tag(L, "Lbl");
		v_beside(L, first, &ds, 0, 0, dw - 4000);
		lay_untag(L, lbl);
		lay_untag(L, li);
		lay_keep_block(L, start, 1);
	}
	lay_untag(L, list);
}

static void list(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	if (sec->list_style == LIST_BULLETS) {
		bullets(L, sec->items, sec->nitems, 0);
		return;
	}
	spans_t sp = {0};
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t sep = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	for (int i = 0; i < sec->nitems; i++) {
		if (i)
			sp_str(L, &sp, "  \u00b7  ", &sep);
		sp_text(L, &sp, &sec->items[i], &t);
	}
	int tag = lay_tag(L, "P");
	v_flow(L, &sp, 0, L->width, FLOW_LEFT, s->size_body, 1);
	lay_untag(L, tag);
}

void lay_paragraph(lay_t *L, const mtext_t *x)
{
	const style_t *s = L->s;
	spans_t sp = {0};
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	sp_text(L, &sp, x, &t);
	int align = s->text_align == ST_JUSTIFY ? FLOW_JUSTIFY
	            : s->text_align == ST_CENTER ? FLOW_CENTER
	            : s->text_align == ST_RIGHT ? FLOW_RIGHT : FLOW_LEFT;
	v_flow(L, &sp, 0, L->width, align, s->size_body, 1);
}

void lay_section(lay_t *L, const msection_t *sec)
{
	int sect = lay_tag(L, "Sect"), tag;
	section_title(L, sec);
	switch (sec->type) {
	case SEC_ENTRIES:
	case SEC_EDUCATION:
	case SEC_EXPERIENCE:
	case SEC_AWARDS:
		tag = lay_tag(L, "L");
		for (int i = 0; i < sec->nentries; i++) {
			if (i)
				v_gap(L, sec->type == SEC_AWARDS ? L->s->entry_gap / 2 : L->s->entry_gap);
			entry(L, sec, &sec->entries[i]);
		}
		lay_untag(L, tag);
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
		tag = lay_tag(L, "P");
		lay_paragraph(L, &sec->text);
		lay_untag(L, tag);
		break;
	}
	lay_untag(L, sect);
}
