/* layout_blocks: the blocks of a section on the vertical list -- its
 * title (with its rule or bar), entries (head line, secondary line,
 * bullets, links, with the dates and location where the region puts
 * them), publications (the label column, authors with the CV's owner
 * highlighted, venue, links and badges, groups by type or year), news,
 * lists (inline, bullets or chips) and paragraphs -- each with its keep
 * rules.
 *
 * Every block is set inside the current region (L->r): its text starts at
 * the region's body indent (bx), and labels (dates, venue tags, news
 * dates) go in the left date column when the region has one.
 */
#include <string.h>
#include "layout_int.h"
#include "unicode.h"
#include "utf8.h"

/* "\u00a0(2025,\u00a0preprint)" in the locale's pattern: the spaces of the
 * pattern become no-break spaces, so the note stays whole and with the
 * last name. */
static const char *year_note(lay_t *L, const mpub_t *p)
{
	buf_t b, yb;
	buf_init(&b);
	buf_init(&yb);
	locale_int(L->loc, p->year, &yb);   /* in the locale's digits */
	const char *y = yb.s ? yb.s : "";
	/* a full-width bracket ("（2025）") carries its own half-em of space:
	   no space before it (JLREQ, CLREQ) */
	const char *pat = p->year && p->status ? L->loc->year_status : L->loc->year;
	if (strncmp(pat, "\uFF08", 3) && strncmp(pat, "\u3010", 3) && strncmp(pat, "\u3014", 3))
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
	buf_done(&yb);
	return r;
}

/* The body's left edge (relative to the region) and width. */
static int32_t bx(const lay_t *L)
{
	return L->r->ind;
}

static int32_t bw(const lay_t *L)
{
	return L->r->width - L->r->ind;
}

/* The left date column's text width (0: none). */
static int32_t left_col(const lay_t *L)
{
	return L->r->ind > L->s->date_gap ? L->r->ind - L->s->date_gap : 0;
}

static int32_t pm(int32_t v, int32_t permille)
{
	return (int32_t)((int64_t)v * permille / 1000);
}

static int text_align(const lay_t *L)
{
	int a = L->r->align;
	return a == ST_JUSTIFY ? INLINE_JUSTIFY : a == ST_CENTER ? INLINE_CENTER
	       : a == ST_RIGHT ? INLINE_RIGHT : INLINE_LEFT;
}

/* A title's spans: as written, in capitals, or in small capitals: the
 * font's (smcp; the text stays lower case, so it extracts as written), or,
 * from a face without them, capitals of lower-case letters at 80% of the
 * size, a little wider spaced. Capitals are Unicode's, as the CV's
 * language writes them (uni_upper: HỌC VẤN, ΕΚΠΑΙΔΕΥΣΗ, STRASSE, EĞİTİM);
 * a title whose only letters with capitals are ASCII (English, CJK) takes
 * the short way (but in Turkish). */
/* Is the letter at p small (a mark: as the letter it is on)? *len: its bytes. */
static int small_at(const char *p, int prev, int *len)
{
	uint32_t cp;
	*len = utf8_next(p, strlen(p), &cp);
	if (cp < 0x80)
		return cp >= 'a' && cp <= 'z';
	return uni_is_mark(cp) ? prev : uni_case_lower(cp);
}

/* The language of the profile's text: the language a translation was
 * picked in (tr), else the profile's own lang, else the layout's. Not the
 * locale's: --lang tr on an English profile keeps EDUCATION English (the
 * locale's own words are cased as the locale's language). */
static const char *user_lang(lay_t *L, const char *picked)
{
	return picked ? picked : L->m->text_lang ? L->m->text_lang : L->s->lang;
}

static void title_upper(lay_t *L, spans_t *sp, const char *title, const char *lang,
                        const tstyle_t *t, const tstyle_t *sc, int synth, int line, int col)
{
	buf_t b;
	buf_init(&b);
	if (!synth) {
		uni_upper(title, strlen(title), lang, &b);
		sp_add(L, sp, arena_strndup(L->a, b.s, b.len), (int)b.len, t, NULL, line, col);
		buf_done(&b);
		return;
	}
	int lower = 0, l;
	for (const char *p = title; *p;) {
		lower = small_at(p, lower, &l);
		const char *q = p + l;
		while (*q && small_at(q, lower, &l) == lower)
			q += l;
		buf_reset(&b);
		uni_upper(p, (size_t)(q - p), lang, &b);
		sp_add(L, sp, arena_strndup(L->a, b.s, b.len), (int)b.len,
		       lower ? sc : t, NULL, p == title ? line : 0, p == title ? col : 0);
		p = q;
	}
	buf_done(&b);
}

static void title_spans(lay_t *L, spans_t *sp, const char *title, const char *lang,
                        const tstyle_t *t, int line, int col)
{
	const style_t *s = L->s;
	int synth = s->section_small_caps &&
	            (lay_feats_missing(L, t, STYLE_FEAT_SMCP, "section.small_caps") & STYLE_FEAT_SMCP);
	if (!s->section_upper && !synth) {
		sp_add(L, sp, title, (int)strlen(title), t, NULL, line, col);
		return;
	}
	tstyle_t sc = *t;
	sc.size = pm(t->size, 800);
	sc.feats &= ~(unsigned)STYLE_FEAT_SMCP;
	sc.track = pm(sc.size, s->section_track + 30);
	if (!uni_upper_ascii(title, strlen(title), lang)) {
		title_upper(L, sp, title, lang, t, &sc, synth, line, col);
		return;
	}
	for (const char *p = title; *p;) {
		int lower = *p >= 'a' && *p <= 'z';
		const char *q = p;
		while (*q && (*q >= 'a' && *q <= 'z') == lower)
			q++;
		char *u = arena_strndup(L->a, p, (size_t)(q - p));
		for (char *c = u; *c; c++)
			if (*c >= 'a' && *c <= 'z')
				*c = (char)(*c - 'a' + 'A');
		sp_add(L, sp, u, (int)(q - p), lower && synth ? &sc : t, NULL,
		       p == title ? line : 0, p == title ? col : 0);
		p = q;
	}
}

static void rule(lay_t *L, vitem_t *v, int32_t x, int32_t y, int32_t w, int32_t h)
{
	if (w <= 0 || h <= 0)
		return;
	page_item_t *it = v_item(L, v);
	it->kind = PAGE_RECT;
	it->u.rect.x = L->r->x0 + x;
	if (L->rtl) /* a mirrored page */
		it->u.rect.x = L->s->page_w - it->u.rect.x - w;
	it->u.rect.y = y;
	it->u.rect.w = w;
	it->u.rect.h = h;
	it->u.rect.color = L->s->c_rule;
}

static void section_title(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	/* the sidebar's first title beside a main column that opens with the
	   summary starts level with the summary's first line, as in AltaCV
	   (not a section.before lower) */
	const region_t *mr = &L->reg[R_MAIN];
	if (!(L->r == &L->reg[R_SIDE] && !L->r->nv && mr->nv && mr->v[0].kind != V_GAP))
		v_gap(L, s->section_before);
	spans_t sp = {0};
	tstyle_t t = {L->head, s->section_style, s->size_section, s->c_accent, INLINE_NOHYPH, 0, 0, 0};
	t.feats = lay_figures(s->section_feats, s->section_figures);
	t.feats &= ~lay_feats_missing(L, &t, t.feats & ~(unsigned)STYLE_FEAT_SMCP,
	                              s->section_figures ? "section.figures" : "section.features");
	if (s->section_small_caps)
		t.feats |= STYLE_FEAT_SMCP;
	t.track = pm(s->size_section, s->section_track);
	title_spans(L, &sp, sec->title, user_lang(L, sec->title_lang), &t, sec->line, sec->col);
	int tag = lay_tag(L, "H2");
	int first = v_flow(L, &sp, bx(L), bw(L), INLINE_LEFT, s->size_section, 0);
	lay_untag(L, tag);
	if (first < 0)
		return;
	for (int i = first; i < L->r->nv; i++)
		L->r->v[i].nobreak = 1;
	L->r->v[first].mark = sec->title;
	vitem_t *last = &L->r->v[L->r->nv - 1];
	int32_t off = pm(s->size_section, s->section_rule_offset);
	int style = s->section_rule_style;
	if (style == RULE_BAR && !left_col(L))
		style = RULE_FULL; /* no date column to put the bar in */
	if (s->section_rule > 0 && style == RULE_FULL) {
		rule(L, last, L->r->ind ? bx(L) : 0, off, L->r->ind ? bw(L) : L->r->width,
		     s->section_rule);
	} else if (s->section_rule > 0 && style == RULE_PARTIAL) {
		/* the rule runs from after the title's last line to the edge */
		int32_t w = 0;
		for (int i = 0; i < last->n; i++)
			if (last->it[i].kind == PAGE_RUN) {
				int32_t e = last->it[i].u.run.x + last->it[i].u.run.w - L->r->x0;
				if (e > w)
					w = e;
			}
		int32_t x = w + s->size_section / 2;
		rule(L, last, x, -off - s->section_rule / 2, L->r->width - x, s->section_rule);
	} else if (s->section_rule > 0 && style == RULE_BAR) {
		rule(L, &L->r->v[first], 0, -off - s->section_rule / 2, left_col(L), s->section_rule);
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
			sp_str(L, sp, L->s->link_sep, &sep);
		sp_add(L, sp, links[i].label, (int)strlen(links[i].label), t, links[i].url,
		       links[i].line, links[i].col);
	}
	if (doi) {
		if (k)
			sp_str(L, sp, L->s->link_sep, &sep);
		const char *label = arena_printf(L->a, "doi:%s", doi);
		tstyle_t u = *t;
		u.flags |= INLINE_URL;
		sp_add(L, sp, label, (int)strlen(label), &u,
		       arena_printf(L->a, "https://doi.org/%s", doi), 0, 0);
	}
}

/* n in the locale's pattern (number: "{n}.", pub_number: "[{n}]") and
 * digits, in L's arena. */
static const char *lay_number(lay_t *L, const char *pat, long n)
{
	buf_t d, b;
	buf_init(&d);
	buf_init(&b);
	locale_int(L->loc, n, &d);
	locale_fill(&b, pat, "n", d.s, (const char *)NULL);
	const char *r = arena_strdup(L->a, b.s ? b.s : "");
	buf_done(&d);
	buf_done(&b);
	return r;
}

/* A numbered list's marker (the locale's number: "3.", "３．", "٣."); NULL
 * for a bullet. */
static const char *marker(lay_t *L, int style, int i, int n)
{
	if (style != LIST_NUMBERED && style != LIST_REVERSED)
		return NULL;
	return lay_number(L, L->loc->number ? L->loc->number : "{n}.",
	                  style == LIST_NUMBERED ? i + 1 : n - i);
}

/* Items with entry.bullet in the indent, or (numbered lists) their
 * numbers flush right, as far from the text as the bullet is; the indent
 * grows to the widest number. */
static void bullets(lay_t *L, const mtext_t *items, int n, int style)
{
	const style_t *s = L->s;
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t bt = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	int32_t dx = bx(L), ind = s->bullet_indent, gap = 0;
	if (marker(L, style, 0, n)) {
		spans_t b = {0}, w = {0};
		sp_str(L, &b, s->bullet, &bt);
		gap = ind - s->bullet_offset - sp_width(L, &b);
		sp_str(L, &w, marker(L, style, style == LIST_NUMBERED ? n - 1 : 0, n), &bt);
		int32_t need = s->bullet_offset + sp_width(L, &w) + gap;
		if (need > ind)
			ind = need;
	}
	int list = lay_tag(L, "L");
	for (int i = 0; i < n; i++) {
		int li = lay_tag(L, "LI"), body = lay_tag(L, "LBody");
		spans_t sp = {0};
		sp_text(L, &sp, &items[i], &t);
		int first = v_flow(L, &sp, dx + ind, bw(L) - ind,
		                   L->r->align == ST_JUSTIFY ? INLINE_JUSTIFY : INLINE_LEFT,
		                   s->size_body, 1);
		spans_t bs = {0};
		const char *num = marker(L, style, i, n);
		sp_str(L, &bs, num ? num : s->bullet, &bt);
		lay_untag(L, body);
		int lbl = lay_tag(L, "Lbl");
		if (num)
			v_beside(L, first, &bs, dx + ind - gap, 1, ind - gap);
		else
			v_beside(L, first, &bs, dx + s->bullet_offset, 0, ind - s->bullet_offset);
		lay_untag(L, lbl);
		lay_untag(L, li);
	}
	lay_untag(L, list);
}

static int entry_has_org_first(const msection_t *sec, const mentry_t *en)
{
	return en->org.n && (sec->type == SEC_EDUCATION || sec->type == SEC_EXPERIENCE);
}

/* A right column's width: its widest piece, at most entry.date_max of
 * the body. */
static int32_t col_width(lay_t *L, const spans_t *a, const spans_t *b)
{
	int32_t w = sp_width(L, a), wb = b ? sp_width(L, b) : 0;
	if (wb > w)
		w = wb;
	int32_t max = pm(bw(L), L->s->date_max);
	return w > max ? max : w;
}

/* The separator without its spaces into *p, *n; 0 when it is only spaces. */
static int sep_core(const char *sep, const char **p, size_t *n)
{
	size_t sl = strlen(sep), s0 = 0;
	while (sl && sep[sl - 1] == ' ')
		sl--;
	while (s0 < sl && sep[s0] == ' ')
		s0++;
	*p = sep + s0;
	*n = sl - s0;
	return *n > 0;
}

/* 1 when the rightmost of runs ends with core (spaces aside). */
static int run_ends(const page_run_t *last, const char *core, size_t cl)
{
	if (!last)
		return 0;
	size_t tl = (size_t)last->len;
	while (tl && last->text[tl - 1] == ' ')
		tl--;
	return tl >= cl && !memcmp(last->text + tl - cl, core, cl);
}

/* Placed lines from..to-1 of the region: 1 when one but the last ends with
 * the separator core, -1 when they hold a link (not set again), else 0. */
static int placed_dangle(lay_t *L, int from, int to, const char *core, size_t cl)
{
	int d = 0;
	for (int i = from; i < to; i++) {
		const vitem_t *v = &L->r->v[i];
		const page_run_t *last = NULL;
		for (int k = 0; k < v->n; k++) {
			if (v->it[k].kind == PAGE_LINK)
				return -1;
			if (v->it[k].kind == PAGE_RUN && (!last || v->it[k].u.run.x > last->x))
				last = &v->it[k].u.run;
		}
		if (i + 1 < to && v->kind == V_LINE && run_ends(last, core, cl))
			d = 1;
	}
	return d;
}

/* The same for the paragraph j as inline_set sets it (fit's measured
 * attempts place no runs, yet must break as the final layout does). */
static int probe_dangle(lay_t *L, const spans_t *j, int32_t w, const char *core, size_t cl)
{
	inline_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = w;
	o.align = lay_align(L, INLINE_LEFT);
	o.rtl = L->rtl;
	o.cjk = L->cjk;
	o.lang = L->lang;
	o.hyph = L->s->hyphenate ? L->hyph : NULL;
	o.hyphs = L->s->hyphenate ? L->hyphs : NULL;
	o.hyphen_limit = L->s->hyphen_limit;
	o.file = L->m->file;
	o.memo = L->memo;
	o.cache = L->icache;
	inline_result_t r;
	errs_t quiet;   /* v_flow says what there is to say */
	errs_init(&quiet);
	int rc = inline_set(L->a, j->v, j->n, &o, &r, &quiet);
	errs_done(&quiet);
	int d = 0;
	for (int i = 0; !rc && i < r.nlines; i++) {
		const inline_line_t *ln = &r.lines[i];
		const page_run_t *last = NULL;
		if (ln->nlinks)
			return -1;
		for (int k = 0; k < ln->nruns; k++)
			if (!last || ln->runs[k].x > last->x)
				last = &ln->runs[k];
		if (i + 1 < r.nlines && run_ends(last, core, cl))
			d = 1;
	}
	return d;
}

/* Parts of an entry's inline line (the secondary line, the location, the
 * dates) joined by entry.location_separator on one line while they fit,
 * else the part that does not fit starts a new line: no separator ends
 * or starts a line (but after a part wider than the line, which wraps
 * by itself). Set joined first; set again part by part only when a line
 * of that ends with the separator. */
static void inline_parts(lay_t *L, const spans_t *part, int n, int32_t x, int32_t w,
                         const tstyle_t *sept)
{
	const style_t *s = L->s;
	const char *core;
	size_t cl;
	spans_t cur = {0};
	if (!n)
		return;
	/* joined, as one paragraph: what nearly every entry keeps */
	for (int i = 0; i < n; i++) {
		if (i)
			sp_str(L, &cur, s->location_sep, sept);
		for (int k = 0; k < part[i].n; k++) {
			const inline_span_t *v = &part[i].v[k];
			inline_span_t *c = sp_add(L, &cur, v->text, v->len, sept, NULL, 0, 0);
			if (c)
				*c = *v;
		}
	}
	if (n < 2 || !sep_core(s->location_sep, &core, &cl)) {
		v_flow(L, &cur, x, w, INLINE_LEFT, s->size_body, 1);
		return;
	}
	int from = L->r->nv;
	if (L->measure) {
		if (probe_dangle(L, &cur, w, core, cl) != 1) {
			v_flow(L, &cur, x, w, INLINE_LEFT, s->size_body, 1);
			return;
		}
	} else {
		v_flow(L, &cur, x, w, INLINE_LEFT, s->size_body, 1);
		if (placed_dangle(L, from, L->r->nv, core, cl) != 1)
			return;
		L->r->nv = from;   /* set again, part by part */
	}
	/* a part that does not fit after the others starts the next line */
	spans_t t = {0};
	sp_str(L, &t, s->location_sep, sept);
	int32_t sep = sp_width(L, &t), at = 0;
	cur.n = 0;
	cur.v = NULL;
	cur.cap = 0;
	for (int i = 0; i < n; i++) {
		int32_t pw = sp_width(L, &part[i]);
		/* after a part that wraps by itself, the next follows its last
		   line, whose room is not known here */
		if (cur.n && at <= w && at + sep + pw > w) {
			v_flow(L, &cur, x, w, INLINE_LEFT, s->size_body, 1);
			cur.n = 0;
			cur.v = NULL;
			cur.cap = 0;
		}
		if (cur.n) {
			sp_str(L, &cur, s->location_sep, sept);
			at += sep;
		} else {
			at = 0;
		}
		for (int k = 0; k < part[i].n; k++) {
			const inline_span_t *v = &part[i].v[k];
			inline_span_t *c = sp_add(L, &cur, v->text, v->len, sept, NULL, 0, 0);
			if (c)
				*c = *v;
		}
		at += pw;
	}
	v_flow(L, &cur, x, w, INLINE_LEFT, s->size_body, 1);
}

static void entry(lay_t *L, const msection_t *sec, const mentry_t *en)
{
	const style_t *s = L->s;
	int mode = L->r->dates;
	int award = sec->type == SEC_AWARDS;
	tstyle_t bold = lay_ts(L, award ? s->award_style : s->title_style, s->size_body, s->c_text);
	tstyle_t ital = lay_ts(L, s->second_style, s->size_body, s->c_text);
	tstyle_t muted = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	tstyle_t mutedi = lay_ts(L, FONT_ITALIC, s->size_body, s->c_muted);
	tstyle_t dated = muted;     /* the dates: the date column's figures */
	dated.feats = lay_figures(muted.feats, s->date_figures);
	dated.feats &= ~lay_feats_missing(L, &dated, dated.feats, "entry.date_figures");
	int org_first = entry_has_org_first(sec, en);
	int start = L->r->nv;
	int32_t x = bx(L), w = bw(L);
	int li = lay_tag(L, "LI"), body = lay_tag(L, "LBody");

	/* the dates, and the location where it goes beside them */
	spans_t ds = {0}, ls = {0};
	int split;
	const char *dates = lay_entry_dates(L, en, &split);
	sp_dates(L, &ds, dates, split, &dated, en);
	if (en->location)
		sp_str(L, &ls, en->location, &mutedi);

	/* the secondary line: the secondary name and (positions) the note */
	spans_t ss = {0};
	const mtext_t *second = org_first ? &en->title : &en->org;
	if (second->n)
		sp_text(L, &ss, second, &ital);
	if (org_first && en->note.n) {
		if (ss.n)
			sp_str(L, &ss, L->loc->comma ? L->loc->comma : ", ", &ital);
		sp_text(L, &ss, &en->note, &ital);
	}
	int loc_right = mode == DATES_STACKED && en->location && ss.n;

	/* head line: the primary name, (awards) the note, the location when it
	   has no place of its own */
	spans_t hs = {0};
	sp_text(L, &hs, org_first ? &en->org : &en->title, &bold);
	if (!org_first && en->note.n) {
		sp_str(L, &hs, " (", &muted);
		sp_text(L, &hs, &en->note, &muted);
		sp_str(L, &hs, ")", &muted);
	}
	if (mode == DATES_STACKED && en->location && !ss.n) {
		/* no second line to stand beside: location, then dates */
		spans_t both = {0};
		sp_str(L, &both, en->location, &mutedi);
		if (ds.n) {
			sp_str(L, &both, s->location_sep, &muted);
			sp_dates(L, &both, dates, split, &dated, en);
		}
		ds = both;
	} else if ((mode == DATES_RIGHT || mode == DATES_LEFT) && en->location) {
		sp_str(L, &hs, s->location_sep, &mutedi);
		sp_str(L, &hs, en->location, &mutedi);
	}
	/* inline: the secondary line, the location and the dates, one after
	   the other, each whole on the line it fits on (a separator never
	   ends a line: a part that does not fit starts the next one) */
	spans_t inl[3] = {{0}};
	int ninl = 0;
	if (mode == DATES_INLINE) {
		if (ss.n)
			inl[ninl++] = ss;
		if (ls.n)
			inl[ninl++] = ls;
		if (ds.n)
			inl[ninl++] = ds;
		ds.n = 0;
	}

	if (loc_right && s->stack_loc_first) {
		/* the location on the title line, the dates under it */
		spans_t t = ds;
		ds = ls;
		ls = t;
	}
	int32_t cw = 0;
	if (mode == DATES_RIGHT || mode == DATES_STACKED)
		cw = col_width(L, &ds, loc_right ? &ls : NULL);
	int32_t measure = w - (cw ? cw + s->date_gap : 0);
	int first = v_flow(L, &hs, x, measure, INLINE_LEFT, s->size_body, 0);
	if (cw)
		v_beside(L, first, &ds, x + w, 1, cw);
	int sec_line = L->r->nv;
	if (mode == DATES_INLINE)
		inline_parts(L, inl, ninl, x, w, &muted);
	else
		v_flow(L, &ss, x, loc_right ? measure : w, INLINE_LEFT, s->size_body, 1);
	/* a left column's dates that wrap go beside the lines after the head
	   line (the second line is not pushed under them) */
	if (mode == DATES_LEFT)
		v_beside(L, first, &ds, left_col(L), 1, left_col(L));
	if (loc_right)
		v_beside(L, sec_line, &ls, x + w, 1, cw);
	if (en->ndetails)
		bullets(L, en->details, en->ndetails, LIST_BULLETS);
	if (en->nlinks) {
		spans_t lk = {0};
		tstyle_t lt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_link);
		links_row(L, &lk, en->links, en->nlinks, NULL, &lt);
		v_flow(L, &lk, x, w, INLINE_LEFT, s->size_small, 0);
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

/* The label column of a publications section: publications.label_width,
 * or (label_fit) as wide as its widest label up to a quarter of the body;
 * in a region with a left date column, that column. */
static int32_t label_width(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	if (L->r->ind)
		return L->r->ind;
	int32_t lw = s->pub_label_width;
	if (!s->pub_label_fit)
		return lw;
	tstyle_t vt = lay_ts(L, FONT_BOLD, s->size_small, s->c_accent);
	int32_t widest = 0;
	for (int i = 0; i < sec->npubs; i++) {
		spans_t sp = {0};
		sp_str(L, &sp, sec->pubs[i].venue, &vt);
		int32_t w = sp_width(L, &sp);
		if (w > widest)
			widest = w;
	}
	int32_t fit = widest + s->pub_label_gap, max = bw(L) / 4;
	if (fit > max)
		fit = max;
	if (!widest) {
		/* no venue tags: the column holds only the numbers ("[4]"), or
		   nothing, and is as wide as they are, not publications.label_width */
		if (sec->numbering == NUM_NONE)
			return 0;
		tstyle_t nt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);
		spans_t sp = {0};
		sp_str(L, &sp, arena_printf(L->a, "[%d]", sec->npubs), &nt);
		fit = sp_width(L, &sp) + s->pub_label_gap;
		return fit < lw ? fit : lw;
	}
	return fit > lw ? fit : lw;
}

static void publication(lay_t *L, const msection_t *sec, const mpub_t *p, int number,
                        int32_t lw)
{
	const style_t *s = L->s;
	int32_t mw = L->r->width - lw;
	int start = L->r->nv;
	tstyle_t bold = lay_ts(L, FONT_BOLD, s->size_body, s->c_text);
	tstyle_t tt = lay_ts(L, s->pub_title_style, s->size_body, s->c_text);
	tstyle_t reg = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t ital = lay_ts(L, FONT_ITALIC, s->size_body, s->c_text);
	tstyle_t small = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);

	int li = lay_tag(L, "LI"), body = lay_tag(L, "LBody");
	spans_t t = {0};
	sp_text(L, &t, &p->title, &tt);
	int first = v_flow(L, &t, lw, mw, INLINE_LEFT, s->size_body, 1);

	if (p->nauthors) {
		spans_t a = {0};
		tstyle_t name = reg;
		name.flags = INLINE_NOHYPH | INLINE_NOBREAK; /* a name is never split */
		tstyle_t hname = bold;
		hname.flags = INLINE_NOHYPH | INLINE_NOBREAK;
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
		v_flow(L, &a, lw, mw, INLINE_LEFT, s->size_body, 0);
	} else if (p->year || p->status) {
		spans_t y = {0};
		tstyle_t yt = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
		if (p->year) {   /* in the locale's digits */
			buf_t yb;
			buf_init(&yb);
			locale_int(L->loc, p->year, &yb);
			sp_str(L, &y, arena_printf(L->a, "%s%s", yb.s ? yb.s : "", p->status ? ", " : ""),
			       &yt);
			buf_done(&yb);
		}
		if (p->status)
			sp_str(L, &y, p->status, &yt);
		v_flow(L, &y, lw, mw, INLINE_LEFT, s->size_body, 0);
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
		const char *pat = p->neditors == 1 && L->loc->editor ? L->loc->editor : L->loc->editors;
		locale_fill(&ed, pat ? pat : "{names}", "names", eb.s,
		            (const char *)NULL);
		sp_str(L, &vn, arena_printf(L->a, "%s%s", vn.n ? "; " : "", ed.s), &reg);
		buf_done(&eb);
		buf_done(&ed);
	}
	v_flow(L, &vn, lw, mw, INLINE_LEFT, s->size_body, 1);

	/* a description: set as the body's paragraphs are, in the muted
	   colour, so that it reads apart from the citation above it */
	if (p->summary.n) {
		spans_t sm = {0};
		tstyle_t st = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
		sp_text(L, &sm, &p->summary, &st);
		v_flow(L, &sm, lw, mw, L->r->align == ST_JUSTIFY ? INLINE_JUSTIFY : INLINE_LEFT,
		       s->size_body, 1);
	}

	spans_t ex = {0};
	tstyle_t lt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_link);
	links_row(L, &ex, p->links, p->nlinks, p->doi, &lt);
	if (p->nbadges) {
		if (ex.n)
			sp_str(L, &ex, s->extra_sep, &small);
		sp_str(L, &ex, L->loc->badges, &small);
		/* the space after the label is the locale's: none after a
		   full-width colon (Chinese, Japanese), which has its own */
		const char *lsep = L->loc->label_sep ? L->loc->label_sep : " ";
		tstyle_t bt = lay_ts(L, FONT_REGULAR, pm(s->size_small, s->badge_size), s->c_badge);
		bt.flags = INLINE_NOBREAK | INLINE_NOHYPH | INLINE_FRAME;
		for (int i = 0; i < p->nbadges; i++) {
			/* a space between badges, so their frames stay apart */
			sp_str(L, &ex, i || !L->loc->badges[0] ? " " : lsep, &small);
			bt.frame = i + 1;
			/* no-break spaces inside the frame pad the label. Each
			   badge is isolated (FSI .. PDI, UAX #9 X5c): its label and
			   pads keep one level, so its runs stay together in its
			   frame in a right-to-left line; and so is the list of them,
			   which takes its first badge's direction: English badges
			   of an Arabic CV follow each other left to right, as
			   plain text does (and its readers read it) */
			const char *b = arena_printf(L->a, "%s\u2068\u00a0%s\u00a0\u2069%s",
			                             i ? "" : "\u2068", p->badges[i],
			                             i + 1 < p->nbadges ? "" : "\u2069");
			sp_add(L, &ex, b, (int)strlen(b), &bt, NULL, 0, 0);
		}
	}
	if (p->note.n) {
		if (ex.n)
			sp_str(L, &ex, p->nbadges ? arena_printf(L->a, " %s", s->extra_sep) : s->extra_sep,
			       &small);
		tstyle_t nt = lay_ts(L, FONT_BOLD, s->size_small, s->c_highlight);
		sp_text(L, &ex, &p->note, &nt);
	}
	L->frame_pad = s->badge_pad;
	L->frame_radius = s->badge_radius;
	L->frame_color = s->c_badge;
	v_flow(L, &ex, lw, mw, INLINE_LEFT, s->size_small, 0);
	lay_untag(L, body);

	/* the label column: venue tag, then the number (below the tag's last
	   line, so a long tag that wraps never prints over it) */
	int lbl = lay_tag(L, "Lbl");
	if (first >= 0) {
		tstyle_t vt = lay_ts(L, FONT_BOLD, s->size_small, s->c_accent);
		vt.flags = INLINE_NOHYPH;
		tstyle_t nt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);
		int32_t cw = lw - s->pub_label_gap;
		int right = L->r->ind > 0; /* a left date column is set flush right */
		int32_t cx = right ? cw : 0;
		spans_t a = {0}, b = {0};
		const char *num = number > 0 ? lay_number(L, L->loc->pub_number ? L->loc->pub_number
		                                                 : "[{n}]", number) : NULL;
		if (s->pub_label == 0) {
			sp_str(L, &a, p->venue, &vt);
			sp_str(L, &b, num, &nt);
		} else {
			sp_str(L, &a, num, &nt);
			sp_str(L, &b, p->venue, &vt);
		}
		int k = v_beside(L, first, a.n ? &a : &b, cx, right, cw);
		if (a.n && b.n)
			v_beside(L, first + k, &b, cx, right, cw);
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
		v_gap(L, L->s->group_before);
	int tag = lay_tag(L, "H3");
	int f = v_flow(L, &y, bx(L), bw(L), INLINE_LEFT, L->s->size_body, 0);
	lay_untag(L, tag);
	if (f >= 0)
		L->r->v[f].nobreak = 1;
	v_new(L, V_GAP, L->s->group_after)->nobreak = 1;
}

/* group_by type: the kind of a publication is its status (published
 * when it has none); groups follow in order of first appearance. */
static const char *pub_kind(const mpub_t *p)
{
	return p->status ? p->status : "";
}

static void sec_pubs(lay_t *L, const msection_t *sec)
{
	int any_equal = 0, shown = 0, list = -1;
	int32_t lw = label_width(L, sec);
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
				buf_t hb;
				buf_init(&hb);
				/* a status is the profile's words, "Published" the locale's */
				uni_title_first(t, strlen(t), kinds[k][0] ? user_lang(L, NULL) : L->loc->lang,
				                &hb);
				char *h = arena_strndup(L->a, hb.s, hb.len);
				buf_done(&hb);
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
			publication(L, sec, p, number, lw);
			shown++;
			if (p->nequal)
				any_equal = 1;
		}
	}
	if (list >= 0)
		lay_untag(L, list);
	if (any_equal) {
		v_gap(L, L->s->group_after);
		spans_t f = {0};
		tstyle_t t = lay_ts(L, FONT_ITALIC, L->s->size_small, L->s->c_muted);
		sp_str(L, &f, L->loc->equal, &t);
		int tag = lay_tag(L, "P");
		v_flow(L, &f, lw, L->r->width - lw, INLINE_LEFT, L->s->size_small, 0);
		lay_untag(L, tag);
	}
}

static void sec_news(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	int32_t dw = L->r->ind ? L->r->ind : s->news_date_width;
	int right = L->r->ind > 0;
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t dt = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);
	dt.feats = lay_figures(dt.feats, s->date_figures);
	dt.feats &= ~lay_feats_missing(L, &dt, dt.feats, "entry.date_figures");
	int list = lay_tag(L, "L");
	for (int i = 0; i < sec->nnews; i++) {
		const mnews_t *n = &sec->news[i];
		if (i)
			v_gap(L, s->news_gap);
		int start = L->r->nv;
		int li = lay_tag(L, "LI");
		buf_t b;
		buf_init(&b);
		locale_date_text(L->loc, &n->date, &b);
		spans_t ds = {0};
		if (b.len)
			sp_str(L, &ds, arena_strdup(L->a, b.s), &dt);
		buf_done(&b);
		spans_t sp = {0};
		sp_text(L, &sp, &n->text, &t);
		if (L->r->dates == DATES_INLINE) {
			/* a narrow column: the date above its text */
			int lbl = lay_tag(L, "Lbl");
			v_flow(L, &ds, 0, L->r->width, INLINE_LEFT, s->size_small, 0);
			lay_untag(L, lbl);
			int body = lay_tag(L, "LBody");
			v_flow(L, &sp, 0, L->r->width, INLINE_LEFT, s->size_body, 1);
			lay_untag(L, body);
			lay_untag(L, li);
			lay_keep_block(L, start, 1);
			continue;
		}
		int body = lay_tag(L, "LBody");
		int first = v_flow(L, &sp, dw, L->r->width - dw, INLINE_LEFT, s->size_body, 1);
		lay_untag(L, body);
		int lbl = lay_tag(L, "Lbl");
		int32_t cw = dw - (right ? s->date_gap : s->pub_label_gap);
		v_beside(L, first, &ds, right ? cw : 0, right, cw);
		lay_untag(L, lbl);
		lay_untag(L, li);
		lay_keep_block(L, start, 1);
	}
	lay_untag(L, list);
}

static void sec_items(lay_t *L, const msection_t *sec)
{
	const style_t *s = L->s;
	if (sec->list_style != LIST_INLINE) {
		bullets(L, sec->items, sec->nitems, sec->list_style);
		return;
	}
	spans_t sp = {0};
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t sep = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	if (s->list_chips) {
		/* each item in its own frame; the no-break spaces pad it, the
		   space between items keeps the frames apart */
		t = lay_ts(L, FONT_REGULAR, s->size_small, s->c_text);
		t.flags = INLINE_NOBREAK | INLINE_NOHYPH | INLINE_FRAME;
		tstyle_t gap = lay_ts(L, FONT_REGULAR, s->size_small, s->c_text);
		for (int i = 0; i < sec->nitems; i++) {
			t.frame = i + 1; /* one frame per item, whatever its markup */
			if (i)
				sp_str(L, &sp, s->chip_sep, &gap);
			/* isolated, and the list of them, as badges are
			   (publication) */
			sp_str(L, &sp, i ? "\u2068\u00a0\u00a0" : "\u2068\u2068\u00a0\u00a0", &t);
			sp_text(L, &sp, &sec->items[i], &t);
			sp_str(L, &sp, i + 1 < sec->nitems ? "\u00a0\u00a0\u2069" : "\u00a0\u00a0\u2069\u2069",
			       &t);
		}
		L->frame_pad = s->chip_pad;
		L->frame_radius = s->chip_radius;
		L->frame_color = s->c_chip;
		int tag = lay_tag(L, "P");
		int first = v_flow(L, &sp, bx(L), bw(L), INLINE_LEFT, s->size_small, 0);
		lay_untag(L, tag);
		/* chips are taller than text: more room between their lines */
		int32_t h = lay_lead(L, s->size_small) + 2 * s->chip_pad + s->chip_leading;
		for (int i = first; first >= 0 && i < L->r->nv; i++) {
			L->r->v[i].asc += (h - L->r->v[i].h) / 2;
			L->r->v[i].h = h;
		}
		return;
	}
	for (int i = 0; i < sec->nitems; i++) {
		if (i)
			sp_str(L, &sp, s->list_sep, &sep);
		sp_text(L, &sp, &sec->items[i], &t);
	}
	int tag = lay_tag(L, "P");
	v_flow(L, &sp, bx(L), bw(L), INLINE_LEFT, s->size_body, 1);
	lay_untag(L, tag);
}

void lay_paragraph(lay_t *L, const mtext_t *x)
{
	const style_t *s = L->s;
	spans_t sp = {0};
	tstyle_t t = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	sp_text(L, &sp, x, &t);
	v_flow(L, &sp, bx(L), bw(L), text_align(L), s->size_body, 1);
}

static void sec_entries(lay_t *L, const msection_t *sec)
{
	int tag = lay_tag(L, "L");
	for (int i = 0; i < sec->nentries; i++) {
		if (i)
			v_gap(L, sec->type == SEC_AWARDS ? L->s->award_gap : L->s->entry_gap);
		entry(L, sec, &sec->entries[i]);
	}
	lay_untag(L, tag);
}

static void sec_text(lay_t *L, const msection_t *sec)
{
	int tag = lay_tag(L, "P");
	lay_paragraph(L, &sec->text);
	lay_untag(L, tag);
}

/* The layout of each section type: its shape's function (model.h). */
#define SEC_LAYOUT(e, name, shape) [e] = sec_##shape,
static void (*const sec_layout[SEC_NTYPES])(lay_t *L, const msection_t *sec) = {
	MODEL_SECTIONS(SEC_LAYOUT)
};
#undef SEC_LAYOUT

void lay_section(lay_t *L, const msection_t *sec)
{
	int sect = lay_tag(L, "Sect");
	section_title(L, sec);
	if (sec->type >= 0 && sec->type < SEC_NTYPES)
		sec_layout[sec->type](L, sec);
	lay_untag(L, sect);
}
