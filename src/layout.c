/* layout: model + style + fonts -> page list; the driver.
 *
 * The header and then each section are built as blocks on one vertical
 * list (layout_header.c, layout_blocks.c, on the list of layout_vlist.c),
 * the list is cut into pages, and footers, bookmarks and the document
 * information are added here.
 *
 * Call layout_render(), then layout_subset() (layout_usage.c) before
 * pdf_write().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "layout_int.h"

#ifndef VITA_LAYOUT_VERSION
#define VITA_LAYOUT_VERSION "0.1.0"
#endif

static const char *subst(lay_t *L, const char *tmpl, int page, int pages, const char *date)
{
	buf_t b;
	buf_init(&b);
	for (const char *p = tmpl; *p; p++) {
		if (!strncmp(p, "{name}", 6)) {
			buf_puts(&b, L->m->name);
			p += 5;
		} else if (!strncmp(p, "{page}", 6)) {
			locale_int(L->loc, page, &b);
			p += 5;
		} else if (!strncmp(p, "{pages}", 7)) {
			locale_int(L->loc, pages, &b);
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
	tstyle_t t = lay_ts(L, FONT_REGULAR, L->s->size_footer, L->s->c_muted);
	sp_str(L, &sp, text, &t);
	inline_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = L->reg[R_HEAD].width;
	o.align = lay_align(L, align);
	o.rtl = L->rtl;
	o.cjk = L->cjk;
	o.lang = L->lang;
	o.file = L->m->file;
	o.memo = L->memo;
	o.cache = L->icache;
	inline_result_t r;
	/* the footer repeats the name: its characters were already reported
	   where the profile has them, so only real failures are kept */
	errs_t quiet;
	errs_init(&quiet);
	int rc = inline_set(L->a, sp.v, sp.n, &o, &r, &quiet);
	for (int i = 0; i < quiet.n; i++)
		if (quiet.v[i].sev == ERR_ERROR)
			err_at_code(L->e, ERR_SYSTEM, quiet.v[i].file, quiet.v[i].line, quiet.v[i].col,
			            "%s", quiet.v[i].msg);
	errs_done(&quiet);
	if (rc || r.nlines < 1)
		return;
	vitem_t tmp;
	memset(&tmp, 0, sizeof(tmp));
	v_put_line(L, &tmp, &r.lines[0], L->reg[R_HEAD].x0, L->reg[R_HEAD].width);
	lay_place(pg, &tmp, baseline, L->rtl);
}

static void footers(lay_t *L, page_doc_t *d, long long epoch)
{
	const style_t *s = L->s;
	if (!s->footer)
		return;
	buf_t b;
	buf_init(&b);
	locale_updated(L->loc, &L->m->updated, epoch, &b);
	const char *date = arena_strdup(L->a, b.s ? b.s : "");
	buf_done(&b);
	int32_t baseline = s->page_h - s->margin_bottom + s->footer_offset;
	int art = lay_tag(L, PAGE_ARTIFACT); /* page furniture */
	for (int i = 0; i < d->npages; i++) {
		page_t *pg = &d->pages[i];
		footer_line(L, pg, subst(L, L->loc->footer, i + 1, d->npages, date), INLINE_RIGHT, baseline);
		footer_line(L, pg, subst(L, L->loc->updated, i + 1, d->npages, date), INLINE_LEFT,
		            baseline);
	}
	lay_untag(L, art);
}

/* The keywords: the items of the first list section, "; " between them. */
typedef struct kw {
	buf_t *b;
	int in;         /* in the first list section */
} kw_t;

static int kw_visit(const mvisit_t *v, void *ctx)
{
	kw_t *k = ctx;
	if (v->kind == MV_NODE && !strcmp(v->key, "section")) {
		if (k->in)
			return 1;   /* past the first list section: done */
		k->in = v->sec->type == SEC_LIST;
	} else if (k->in && v->kind == MV_TEXT && !strcmp(v->key, "item")) {
		const mtext_t *t = v->u.text;
		for (int j = 0; j < t->n; j++)
			buf_printf(k->b, "%s%s", k->b->len && j == 0 ? "; " : "", t->spans[j].text);
	}
	return 0;
}

static void doc_info(lay_t *L, page_doc_t *d)
{
	const model_t *m = L->m;
	buf_t t;
	buf_init(&t);
	locale_fill(&t, L->loc->title, "name", m->name, (const char *)NULL);
	d->title = arena_strdup(d->arena, t.s ? t.s : "");
	buf_done(&t);
	d->author = m->name_native ? arena_printf(d->arena, "%s (%s)", m->name, m->name_native)
	                           : arena_strdup(d->arena, m->name);
	buf_t b;
	buf_init(&b);
	if (m->headline)
		buf_puts(&b, m->headline);
	if (m->affiliation)
		buf_printf(&b, "%s%s", b.len ? (L->loc->comma ? L->loc->comma : ", ") : "",
		           m->affiliation);
	d->subject = b.len ? arena_strdup(d->arena, b.s) : NULL;
	buf_reset(&b);
	kw_t kw = {&b, 0};
	model_walk(m, kw_visit, &kw);
	d->keywords = b.len ? arena_strdup(d->arena, b.s) : NULL;
	buf_done(&b);
	d->creator = "vita " VITA_LAYOUT_VERSION;
}

/* The CV's CJK language when its text says so: kana anywhere (and no
 * Hangul) make a kanji-only name Japanese too, Hangul without kana Korean
 * (jlreq: one face for the kanji and kana of a Japanese text). */
static void cjk_scan(const char *s, int *kana, int *hangul)
{
	for (const unsigned char *p = (const unsigned char *)s; s && *p; p++) {
		if (p[0] == 0xE3 && (p[1] == 0x81 || p[1] == 0x82 || p[1] == 0x83))
			*kana = 1;     /* U+3040..U+30FF */
		else if (p[0] >= 0xEA && p[0] <= 0xED && !(p[0] == 0xED && p[1] >= 0x9F))
			*hangul |= p[0] > 0xEA || p[1] >= 0xB0; /* U+AC00..U+D7AF */
	}
}

/* The fields whose script decides (model_walk keys under their node). */
typedef struct cjk {
	const char *node;   /* the key of the node being walked */
	int kana, hangul;
} cjk_t;

/* Is key under node one of the fields whose script decides? */
static int cjk_field(const char *node, const char *key)
{
	static const char *const model[] = {"name", "name_native", "headline", "affiliation",
	                                    "summary", NULL};
	static const char *const section[] = {"title", "text", "item", NULL};
	static const char *const entry[] = {"title", "org", NULL};
	const char *const *v = !strcmp(node, "model") ? model : !strcmp(node, "section") ? section
	                       : !strcmp(node, "entry") ? entry : NULL;
	for (int i = 0; v && v[i]; i++)
		if (!strcmp(key, v[i]))
			return 1;
	return 0;
}

static int cjk_visit(const mvisit_t *v, void *ctx)
{
	cjk_t *c = ctx;
	if (v->kind == MV_NODE) {
		c->node = v->key;
		return 0;
	}
	if ((v->kind != MV_STR && v->kind != MV_TEXT) || !cjk_field(c->node, v->key))
		return 0;
	if (v->kind == MV_STR)
		cjk_scan(v->u.str, &c->kana, &c->hangul);
	else
		for (int k = 0; k < v->u.text->n; k++)
			cjk_scan(v->u.text->spans[k].text, &c->kana, &c->hangul);
	return c->kana && c->hangul;   /* both: neither language, whatever follows */
}

/* Once per render: every fit attempt lays out the same text. */
static const char *cjk_of(const model_t *m)
{
	cjk_t c = {"model", 0, 0};
	model_walk(m, cjk_visit, &c);
	return c.kana && !c.hangul ? "ja" : c.hangul && !c.kana ? "ko" : NULL;
}

/* The document's text told to the font library before it is laid out
 * (font_lib_expect: a face HarfBuzz shapes then gets GSUB and GPOS cut to
 * what that text can use): the model's strings, the locale's words.
 * What the layout draws besides (a layout's bullets and separators,
 * ASCII) costs a face its cut tables when it comes, never a different
 * result. */
static void expect_str(font_lib_t *lib, const char *s)
{
	if (s)
		font_lib_expect(lib, s, strlen(s));
}

static int expect_visit(const mvisit_t *v, void *ctx)
{
	font_lib_t *lib = ctx;
	switch (v->kind) {
	case MV_STR:
	case MV_WORD:
		expect_str(lib, v->u.str);
		break;
	case MV_TEXT:
		for (int k = 0; k < v->u.text->n; k++)
			expect_str(lib, v->u.text->spans[k].text);
		break;
	case MV_STRS:
		for (int i = 0; i < v->n; i++)
			expect_str(lib, v->u.strs[i]);
		break;
	case MV_LINK:
		expect_str(lib, v->u.link->label);
		break;
	case MV_CONTACT:
		expect_str(lib, v->u.contact->value);
		break;
	}
	return 0;
}

typedef struct expect {
	const model_t *m;
	const vlocale_t *l;
} expect_t;

static void expect_text(font_lib_t *lib, void *ctx)
{
	const expect_t *x = ctx;
	const vlocale_t *l = x->l;
	model_walk(x->m, expect_visit, lib);
	if (!l)
		return;
	for (int i = 0; i < 12; i++) {
		expect_str(lib, l->months[i]);
		expect_str(lib, l->months_short[i]);
		expect_str(lib, l->months_of[i]);
	}
	for (int i = 0; i < 10; i++)
		expect_str(lib, l->digits[i]);
	for (int i = 0; i < 4; i++)
		expect_str(lib, l->quotes[i]);
	const char *w[] = {l->date_year, l->date_month, l->date_day, l->range, l->present,
	                   l->updated, l->footer, l->badges, l->equal, l->corresponding,
	                   l->et_al, l->comma, l->editor, l->editors, l->phdthesis,
	                   l->mastersthesis, l->techreport, l->published, l->year,
	                   l->year_status, l->scholar, l->number, l->pub_number, l->label_sep};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		expect_str(lib, w[i]);
}

static int same_word(const char *a, size_t n, const char *b)
{
	if (!b || strlen(b) != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = b[i];
		if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
	}
	return 1;
}

/* Does sec go to the sidebar? `sidebar.sections` lists types or titles. */
int lay_in_sidebar(lay_t *L, const msection_t *sec)
{
	const char *p = L->s->sidebar_sections;
	if (L->s->sidebar == SIDE_NONE || !p)
		return 0;
	while (*p) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *q = p;
		while (*q && *q != ',')
			q++;
		size_t n = (size_t)(q - p);
		while (n && p[n - 1] == ' ')
			n--;
		if (n && (same_word(p, n, sec->title) ||
		          (sec->type >= 0 && sec->type < SEC_NTYPES &&
		           same_word(p, n, model_section_name(sec->type)))))
			return 1;
		p = q;
	}
	return 0;
}

/* An error about a layout key, located where the key was set. */
static int key_err(lay_t *L, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int key_err(lay_t *L, const char *key, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	const char *file;
	int line, col;
	style_key_at(L->orig, key, &file, &line, &col);
	return err_at(L->e, file, line, col, "%s", msg);
}

/* The language of the text: its hyphenation patterns, its CJK faces. */
static const char *text_lang(const model_t *m, const style_t *s)
{
	return m->lang ? m->lang : s->lang;
}

void layout_hyph_deps(const model_t *m, const style_t *s, hyph_set_t *hyphs)
{
	const char *lang = text_lang(m, s);
	if (!s->hyphenate || !lang)
		return;
	if (hyphs) {
		hyph_set_get(hyphs, lang);   /* records the .dic it finds */
		return;
	}
	errs_t he;
	errs_init(&he);
	hyph_close(hyph_open(lang, &he));   /* opens, records, parses nothing */
	errs_done(&he);
}

/* "Lato + serif" with no Lato installed: said where the key was set, and
 * the chain's own face is used. A family that is not installed but has a
 * metric-compatible stand-in (Helvetica: Nimbus Sans) is set in it: said
 * there too. */
static void lay_absent(lay_t *L, const font_chain_t *c, const char *key)
{
	const char *abs = font_chain_absent(c), *file, *fam, *standin;
	int line, col;
	int has = font_chain_standin(c, 0, &fam, &standin);
	if (!abs && !has)
		return;
	style_key_at(L->orig, key, &file, &line, &col);
	for (int i = 0; font_chain_standin(c, i, &fam, &standin); i++)
		warn_at(L->e, file, line, col, "font family '%s' is not installed; using its "
		        "metric-compatible stand-in '%s'", fam, standin);
	if (abs)
		warn_at(L->e, file, line, col, "font family %s is not installed; the layout's own "
		        "face is used for %s (fc-list : family lists the installed ones)", abs,
		        strcmp(key, "fonts.body") ? "the name and section titles" : "the text");
}

/* The columns: the header across the text block, the main column and the
 * sidebar beside it. Lengths that leave no room are errors located in the
 * layout; nothing is ever set outside the page. */
static int lay_regions(lay_t *L)
{
	const style_t *s = L->s;
	int32_t x0 = s->margin_left, w = s->page_w - s->margin_left - s->margin_right;
	for (int i = 0; i < R_COUNT; i++) {
		L->reg[i].x0 = x0;
		L->reg[i].width = w;
		L->reg[i].dates = s->dates;
		L->reg[i].align = s->text_align;
	}
	region_t *mr = &L->reg[R_MAIN], *sr = &L->reg[R_SIDE];
	if (s->sidebar != SIDE_NONE) {
		int32_t sw = s->sidebar_width, gap = s->sidebar_gap;
		if ((int64_t)sw + gap + 144000 > w)
			return key_err(L, "sidebar.width",
			              "sidebar.width (%d pt) and sidebar.gap (%d pt) leave %d pt of the %d pt "
			              "between the margins for the main column; at least 144 pt are needed",
			              sw / 1000, gap / 1000, (int)((w - (int64_t)sw - gap) / 1000), w / 1000);
		if (sw < 72000)
			return key_err(L, "sidebar.width",
			              "sidebar.width is %d pt; a sidebar needs at least 72 pt", sw / 1000);
		sr->width = sw;
		mr->width = w - sw - gap;
		if (s->sidebar == SIDE_LEFT) {
			mr->x0 = x0 + sw + gap;
		} else {
			sr->x0 = x0 + w - sw;
		}
		sr->dates = DATES_INLINE; /* a narrow column has no room beside its lines */
		sr->align = s->sidebar_align;
	}
	if (s->dates == DATES_LEFT) {
		mr->ind = s->date_width + s->date_gap;
		L->reg[R_HEAD].ind = 0;
		if ((int64_t)mr->ind + 144000 > mr->width)
			return key_err(L, "entry.date_width",
			              "entry.date_width (%d pt) and entry.date_gap (%d pt) leave %d pt of the "
			              "%d pt column for the text; at least 144 pt are needed",
			              s->date_width / 1000, s->date_gap / 1000,
			              (int)((mr->width - (int64_t)mr->ind) / 1000), mr->width / 1000);
	}
	/* the narrowest body any block is set in must hold its indents */
	int32_t body = mr->width - mr->ind;
	if (s->sidebar != SIDE_NONE && sr->width < body)
		body = sr->width;
	const struct { const char *key; int32_t v; } ind[] = {
		{"entry.bullet_indent", s->bullet_indent},
		{"publications.label_width", s->dates == DATES_LEFT ? 0 : s->pub_label_width},
		{"news.date_width", s->dates == DATES_LEFT ? 0 : s->news_date_width},
	};
	for (size_t i = 0; i < sizeof(ind) / sizeof(ind[0]); i++)
		if ((int64_t)ind[i].v + 36000 > body)
			return key_err(L, ind[i].key,
			              "%s is %d pt, which leaves %d pt of a %d pt column for the text; at "
			              "least 36 pt are needed", ind[i].key, ind[i].v / 1000,
			              (int)((body - (int64_t)ind[i].v) / 1000), body / 1000);
	if (s->bullet_offset > s->bullet_indent)
		return key_err(L, "entry.bullet_offset",
		              "entry.bullet_offset (%d pt) puts the bullet past entry.bullet_indent (%d pt)",
		              s->bullet_offset / 1000, s->bullet_indent / 1000);
	return 0;
}

/* The index of the first line of a region's items from `from`, or -1. */
static int first_line(const region_t *r, int from)
{
	for (int i = from; i < r->nv; i++)
		if (r->v[i].kind == V_LINE)
			return i;
	return -1;
}

/* Drop the structure elements [from, to) (a section set again: its
 * first setting's elements hold nothing any more), renumbering the later
 * ones in the document and in every item of the regions. */
static void drop_tags(lay_t *L, int from, int to)
{
	page_doc_t *d = L->d;
	int n = to - from;
	if (n <= 0)
		return;
	for (int i = to; i < d->ntags; i++) {
		d->tags[i - n] = d->tags[i];
		if (d->tags[i - n].parent >= to)
			d->tags[i - n].parent -= n;
	}
	d->ntags -= n;
	for (int r = 0; r < R_COUNT; r++) {
		region_t *g = &L->reg[r];
		if (g->tag >= to)
			g->tag -= n;
		for (int i = 0; i < g->nv; i++)
			for (int k = 0; k < g->v[i].n; k++)
				if (g->v[i].it[k].tag >= to)
					g->v[i].it[k].tag -= n;
	}
	if (L->photo_tag >= to)
		L->photo_tag -= n;
}

/* Lay the sections into their regions. With the sidebar on the first
 * page only (or, auto, on the pages its sections fill), the main column
 * widens from the first of its sections that starts on a page after the
 * sidebar's: those are set again at the full width (and the structure
 * elements of their first setting are dropped). */
static void lay_body(lay_t *L)
{
	const model_t *m = L->m;
	const style_t *s = L->s;
	int *start = xcalloc((size_t)m->nsections + 1, sizeof(int));
	int *tag0 = xcalloc((size_t)m->nsections + 1, sizeof(int));
	int *tag1 = xcalloc((size_t)m->nsections + 1, sizeof(int));
	/* a measured attempt for fit.pages stops once it is sure to need
	   more pages (lay_over); not with a sidebar on the first page only,
	   whose main column may be set again, wider, after the sections */
	L->room1 = L->avail - lay_height(&L->reg[R_HEAD], 0, L->reg[R_HEAD].nv);
	if (L->measure && !(s->sidebar != SIDE_NONE && s->sidebar_first))
		L->max_pages = s->fit_pages;
	for (int i = 0; i < m->nsections && !L->failed && !L->over; i++) {
		int side = lay_in_sidebar(L, &m->sections[i]);
		lay_into(L, &L->reg[side ? R_SIDE : R_MAIN]);
		start[i] = side ? -1 : L->r->nv;
		tag0[i] = L->d->ntags;
		lay_section(L, &m->sections[i]);
		tag1[i] = L->d->ntags;
	}
	if (L->failed || L->over || s->sidebar == SIDE_NONE || !s->sidebar_first)
		goto done;
	region_t *mr = &L->reg[R_MAIN], *sr = &L->reg[R_SIDE];
	int32_t first = L->avail - lay_height(&L->reg[R_HEAD], 0, L->reg[R_HEAD].nv);
	int nside = 1;   /* pages the sidebar takes */
	if (lay_height(sr, 0, sr->nv) > first) {
		if (s->sidebar_first == 1) {
			warn_at(L->e, s->file, 0, 0,
			        "the sidebar's sections do not fit on the first page; the sidebar "
			        "continues on the next pages (sidebar.pages: all)");
			goto done;
		}
		/* auto: the main column widens after the sidebar's last page */
		layout_box_t *sb = xcalloc((size_t)sr->nv + 1, sizeof(*sb));
		layout_page_t *sp = xcalloc((size_t)sr->nv + 1, sizeof(*sp));
		for (int i = 0; i < sr->nv; i++)
			sb[i] = (layout_box_t){sr->v[i].h, sr->v[i].kind == V_GAP, sr->v[i].nobreak};
		nside = layout_paginate(sb, sr->nv, first, L->avail, sp);
		free(sb);
		free(sp);
	}
	layout_box_t *b = xcalloc((size_t)mr->nv + 1, sizeof(*b));
	layout_page_t *pg = xcalloc((size_t)mr->nv + 1, sizeof(*pg));
	for (int i = 0; i < mr->nv; i++)
		b[i] = (layout_box_t){mr->v[i].h, mr->v[i].kind == V_GAP, mr->v[i].nobreak};
	int np = layout_paginate(b, mr->nv, first, L->avail, pg);
	int k = -1;
	for (int i = 0; np > nside && i < m->nsections && k < 0; i++) {
		int fl = start[i] >= 0 ? first_line(mr, start[i]) : -1;
		if (fl >= pg[nside].start)
			k = i;
	}
	free(b);
	free(pg);
	if (k < 0)
		goto done;
	mr->nv = start[k];
	mr->x0 = L->reg[R_HEAD].x0;
	mr->width = L->reg[R_HEAD].width;
	for (int i = m->nsections - 1; i >= k; i--) /* from the end: ids stay valid */
		if (start[i] >= 0)
			drop_tags(L, tag0[i], tag1[i]);
	lay_into(L, mr);
	for (int i = k; i < m->nsections && !L->failed; i++)
		if (start[i] >= 0)
			lay_section(L, &m->sections[i]);
done:
	L->d->cur = 0;
	free(start);
	free(tag0);
	free(tag1);
}

/* A role set in light where the family has no light face: the regular
 * face is used, and the layout is told so, once per key. */
static void light_check(lay_t *L)
{
	const style_t *s = L->s;
	const struct { const char *key; int style; font_chain_t *c; } r[] = {
		{"header.name_style", s->name_style, L->head},
		{"header.headline_style", s->headline_style, L->head},
		{"section.style", s->section_style, L->head},
		{"entry.title_style", s->title_style, L->body},
		{"entry.second_style", s->second_style, L->body},
		{"entry.award_style", s->award_style, L->body},
		{"publications.title_style", s->pub_title_style, L->body},
	};
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (!(r[i].style & FONT_LIGHT) || (r[i].style & FONT_BOLD) ||
		    font_style_real(r[i].c, r[i].style))
			continue;
		const char *file;
		int line, col;
		const char *fam[1] = {""};
		font_chain_families(r[i].c, fam, 1);
		style_key_at(L->orig, r[i].key, &file, &line, &col);
		warn_at(L->e, file, line, col, "%s: '%s' has no light face installed; the regular "
		        "weight is used", r[i].key, fam[0]);
	}
}

/* One layout on its way: its blocks laid out on the regions (lay_build),
 * then placed on pages (lay_finish) or dropped (lay_drop); it stays where
 * it is in between (L is pointed into). */
typedef struct attempt {
	lay_t L;
	page_image_t photo;
	hyph_t *own_hyph;
} attempt_t;

static void lay_end(attempt_t *t)
{
	for (int i = 0; i < R_COUNT; i++)
		free(t->L.reg[i].v);
	hyph_close(t->own_hyph);
	inline_cache_free(t->L.icache);
	arena_free(t->L.a);
}

static void lay_drop(attempt_t *t)
{
	page_doc_free(t->L.d);
	lay_end(t);
}

/* The header and the sections of a layout with style s; -1 on failure.
 * measure: only what lay_measure reads (heights and keeps; lines with no
 * runs), for an attempt that is not kept. */
static int lay_build(attempt_t *t, const model_t *m, const char *cjk, const style_t *s,
                     const style_t *orig, font_lib_t *lib, const layout_opts_t *o,
                     inline_memo_t *memo, int measure, errs_t *e)
{
	memset(t, 0, sizeof(*t));
	lay_t *L = &t->L;
	L->memo = memo;
	L->measure = measure;
	L->m = m;
	L->s = s;
	L->orig = orig;
	L->loc = o->loc;
	L->rtl = o->loc->rtl;
	L->cjk = cjk;
	L->lib = lib;
	L->e = e;
	L->lang = text_lang(m, s);
	L->hyphs = o->hyphs;
	int32_t width = s->page_w - s->margin_left - s->margin_right;
	L->avail = s->page_h - s->margin_top - s->margin_bottom;
	if (width < 72000 || L->avail < 144000) {
		err_at(e, s->file, 0, 0,
		       "the margins leave too little room on the page: %d x %d pt between them, "
		       "at least 72 x 144 pt needed (page.margin.left/right/top/bottom)",
		       width / 1000, L->avail / 1000);
		return -1;
	}
	if (lay_regions(L))
		return -1;
	if (!(L->body = font_chain_get(lib, s->font_body, e)) ||
	    !(L->head = font_chain_get(lib, s->font_heading, e)))
		return -1;
	lay_absent(L, L->body, "fonts.body");
	if (L->head != L->body)
		lay_absent(L, L->head, "fonts.heading");
	if (o->strict && layout_coverage(m, s, lib, 1, e))
		return -1;
	light_check(L);
	L->a = arena_new();
	L->icache = inline_cache_new();
	/* the text's language picks the patterns (hyph_de.dic, hyph_ru_RU.dic
	   ...); none for CJK or RTL languages: no hyphenation */
	if (s->hyphenate && L->lang && o->hyphs) {
		L->hyph = hyph_set_get(o->hyphs, L->lang);   /* kept across CVs */
	} else if (s->hyphenate && L->lang) {
		errs_t he;
		errs_init(&he);
		L->hyph = t->own_hyph = hyph_open(L->lang, &he); /* no patterns: no hyphenation */
		errs_done(&he);
	}
	page_doc_t *d = L->d = page_doc_new(s->page_w, s->page_h);
	d->lang = L->loc && L->loc->lang ? L->loc->lang : L->lang;
	if (lay_header(L, &t->photo) || L->failed || (lay_body(L), L->failed)) {
		lay_drop(t);
		return -1;
	}
	return 0;
}

/* A built layout on its pages, with footers and document information. */
static page_doc_t *lay_finish(attempt_t *t, const layout_opts_t *o, int32_t *last_fill)
{
	lay_t *L = &t->L;
	page_doc_t *d = L->d;
	d->epoch = o->epoch;
	lay_pages(L, d, &t->photo);
	*last_fill = L->last_fill;
	footers(L, d, o->epoch);
	doc_info(L, d);
	lay_end(t);
	return d;
}

/* One layout with style s; NULL on failure. */
static page_doc_t *lay_once(const model_t *m, const char *cjk, const style_t *s,
                            const style_t *orig, font_lib_t *lib, const layout_opts_t *o,
                            inline_memo_t *memo, errs_t *e, int32_t *last_fill)
{
	attempt_t t;
	return lay_build(&t, m, cjk, s, orig, lib, o, memo, 0, e) ? NULL
	                                                          : lay_finish(&t, o, last_fill);
}

static int32_t scale(int32_t v, int32_t pm)
{
	return (int32_t)((int64_t)v * pm / 1000);
}

/* s tightened by step t of 10: leading towards fit.min_leading, gaps and
 * sizes towards fit.min_scale of their value. */
static void tighten(style_t *s, const style_t *base, int t)
{
	*s = *base;
	int32_t ml = base->fit_min_leading < base->leading ? base->fit_min_leading : base->leading;
	s->leading = base->leading - (base->leading - ml) * t / 10;
	int32_t k = 1000 - (1000 - (base->fit_min_scale < 1000 ? base->fit_min_scale : 1000)) * t / 10;
	int32_t *gaps[] = {&s->header_gap, &s->section_before, &s->section_after, &s->entry_gap,
	                   &s->award_gap, &s->pub_gap, &s->news_gap, &s->group_before,
	                   &s->group_after, &s->para_gap};
	for (size_t i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++)
		*gaps[i] = scale(*gaps[i], k);
	/* type shrinks half as fast as space */
	int32_t ks = 1000 - (1000 - k) / 2;
	int32_t *sizes[] = {&s->size_body, &s->size_small, &s->size_section, &s->size_headline,
	                    &s->size_name, &s->size_native};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		*sizes[i] = scale(*sizes[i], ks);
}

/* The height of a built layout's columns: the header and the taller
 * column. */
static int64_t lay_total(const lay_t *L)
{
	int32_t m = lay_height(&L->reg[R_MAIN], 0, L->reg[R_MAIN].nv);
	int32_t d = lay_height(&L->reg[R_SIDE], 0, L->reg[R_SIDE].nv);
	return (int64_t)lay_height(&L->reg[R_HEAD], 0, L->reg[R_HEAD].nv) + (m > d ? m : d);
}

/* Where a fit key was set, for its warnings. */
static void fit_at(const style_t *s, const char **file, int *line, int *col)
{
	if (style_key_at(s, s->fit_pages ? "fit.pages" : "fit.no_short_last", file, line, col))
		*file = s->file;
}

/* fit (docs/layouts.md, "Fit"): the steps 0..10 of tighten, step 0 the
 * layout as written. An attempt is ok when it has no error, takes at most
 * fit.pages pages and, with fit.no_short_last, its last page holds at
 * least a fifth of a page, or it is the only page, or the step took a
 * page off step 0's count (fit_ok). Step 0 is tried first and kept when
 * ok. Otherwise the steps 1..10 are searched for the smallest ok one on
 * the assumption that being ok is monotone in the step (a tighter step
 * never takes more pages): from the step that the height of step 0
 * points to (fit_guess), galloping (1, 2, 4 ... steps) away from it while
 * the answers stay the same, then by bisection between the nearest ok
 * and not-ok steps. The step kept is always one that was tried and is
 * ok, and the step below it was tried and is not ok (or is step 0):
 * where the assumption fails it is still a valid fit, not necessarily the
 * smallest. When no step tried is ok (step 10 was then tried), the
 * fallback is kept: step 10 with fit.pages (the tightest), else step 0.
 * VITA_FIT=trace prints each attempt to standard error; VITA_FIT=scan
 * also tries every step after the search and prints the smallest ok one
 * (for tests: the output is the same). */
typedef struct fit {
	const model_t *m;
	const char *cjk;
	const style_t *s;
	font_lib_t *lib;
	const layout_opts_t *o;
	inline_memo_t *memo;
	errs_t *e;
	int32_t avail;
	int last;            /* the fallback step */
	int trace;           /* VITA_FIT: 1 trace, 2 scan */
	int pages0;          /* step 0's pages */
	int64_t h0;          /* step 0's height (lay_total; -1: not known) */
	int32_t fill0;       /* and the fill of its last page */
	int best;            /* the smallest ok step tried (-1: none) */
	struct fit_at *ba;   /* it, when it was built in full (not yet placed) */
	errs_t bq;           /* and its messages */
	struct fit_at *fa;   /* the fallback, when it was built and is not ok */
	errs_t fq;
} fit_t;

static int fit_ok(const fit_t *F, int k, int n, int32_t fill)
{
	const style_t *s = F->s;
	int ok_pages = !s->fit_pages || n <= s->fit_pages;
	int ok_short = !s->fit_no_short || n <= 1 || fill * 5 >= F->avail ||
	               (k > 0 && n < F->pages0);
	return ok_pages && ok_short;
}

/* The step that the height of step 0 points to, where the search starts:
 * the smallest whose lines' heights (the size of the text times the
 * leading), scaled from step 0's, bring its height within the pages it
 * must come down to (fit.pages, or one page less for fit.no_short_last),
 * each page losing at its foot what step 0's lost on average, with 3% to
 * spare (the text reflows too: smaller type holds more of it on a line);
 * 10 when none does; 0 (none) when step 0's height is not known (a
 * measured attempt stops once it is sure to pass fit.pages). Only what the search
 * costs depends on it and, where being ok is not monotone in the step,
 * which ok step it finds. */
static int fit_guess(const fit_t *F)
{
	const style_t *s = F->s;
	if (F->h0 < 0 || s->size_body <= 0 || s->leading <= 0)
		return 0;
	int n0 = F->pages0;
	int target = s->fit_pages && n0 > s->fit_pages ? s->fit_pages : n0 - 1;
	if (target < 1)
		target = 1;
	int64_t foot = n0 > 1 ? ((int64_t)(n0 - 1) * F->avail - (F->h0 - F->fill0)) / (n0 - 1) : 0;
	if (foot < 0)
		foot = 0;
	int64_t room = (int64_t)target * (F->avail - foot);
	for (int k = 1; k < 10; k++) {
		style_t t;
		tighten(&t, s, k);
		int64_t r = (int64_t)1000000 * t.size_body / s->size_body * t.leading / s->leading;
		if (F->h0 * r / 1000 <= room * 1030)
			return k;
	}
	return 10;
}

/* Try step k (lo: the largest step known not to be ok, -1 before step
 * 0): 1 if ok, 0 if not, -1 if it had errors (the search stops). An
 * attempt is built in full (placed on pages) when it is kept if ok (the
 * step below is known not to be ok), when it is the fallback, and at
 * step 10 (tried when the guess is that nothing less will do, or last);
 * else it is only measured (its lines broken, not set: the same breaks,
 * heights and keeps). The smallest ok one is kept, the fallback too,
 * built but not yet placed on pages (lay_finish): only the one the fit
 * ends with is. */
typedef struct fit_at {
	attempt_t at;
	style_t s;           /* its style (at.L.s points here) */
} fit_at_t;

static void fit_free(fit_at_t *a)
{
	if (a)
		lay_drop(&a->at);
	free(a);
}

/* Place a kept attempt on its pages. */
static page_doc_t *fit_place(fit_at_t *a, const layout_opts_t *o, int32_t *fill)
{
	page_doc_t *d = lay_finish(&a->at, o, fill);
	free(a);
	return d;
}

static int fit_try(fit_t *F, int k, int lo)
{
	fit_at_t *a = xmalloc(sizeof(*a));
	attempt_t *at = &a->at;
	tighten(&a->s, F->s, k);
	errs_t q;
	errs_init(&q);
	q.max = F->e->max;
	int measure = k != F->last && k != 10 && !(k > 0 && k - 1 == lo);
	if (lay_build(at, F->m, F->cjk, &a->s, F->s, F->lib, F->o, F->memo, measure, &q)) {
		int r = q.nerrors ? -1 : 0;
		free(a);
		errs_done(&q);
		return r;
	}
	if (q.nerrors) {
		fit_free(a);
		errs_done(&q);
		return -1;
	}
	int32_t fill = 0;
	int n = at->L.over ? F->s->fit_pages + 1 : lay_measure(&at->L, &fill);
	if (k == 0) {
		F->pages0 = n;
		F->h0 = at->L.over ? -1 : lay_total(&at->L);
		F->fill0 = fill;
	}
	int ok = fit_ok(F, k, n, fill);
	if (F->trace)
		fprintf(stderr, "vita: fit: step %d %s: %s%d pages, last page %d pt: %s\n", k,
		        measure ? "measured" : "built", at->L.over ? "over " : "", n,
		        at->L.over ? 0 : fill / 1000, ok ? "ok" : "not ok");
	if (ok && (F->best < 0 || k < F->best)) {
		fit_free(F->ba);
		errs_done(&F->bq);
		F->best = k;
		F->ba = NULL;
		if (measure)
			fit_free(a);
		else
			F->ba = a;
		F->bq = q;
		if (F->ba)
			F->ba->at.L.e = &F->bq;   /* for what placing it says */
		return 1;
	}
	if (!ok && k == F->last) {
		F->fa = a;
		F->fq = q;
		a->at.L.e = &F->fq;
		return 0;
	}
	fit_free(a);
	errs_done(&q);
	return ok;
}

int layout_fit_search(int guess, int (*attempt)(void *ctx, int k, int lo), void *ctx)
{
	int lo = 0, hi = 11, d = 1;
	int dir = guess > 0 ? 0 : 2;   /* 2: bisecting (no guess to stay near) */
	int x = guess > 0 && guess < 10 ? guess : 10;
	while (hi - lo > 1) {
		int r = attempt(ctx, x, lo);
		if (r < 0)
			return -1;
		if (r)
			hi = x;
		else
			lo = x;
		if (hi - lo <= 1)
			break;
		if (dir == 0 || dir == (r ? -1 : 1)) {
			/* galloping away from the guess while the answers agree */
			dir = r ? -1 : 1;
			x = r ? hi - d : lo + d;
			d *= 2;
			if (x <= lo)
				x = lo + 1;
			if (x >= hi || x > 10)
				x = hi - 1 < 10 ? hi - 1 : 10;
		} else {
			dir = 2;   /* the answer turned: bisection */
			x = lo + (hi - lo) / 2;
		}
	}
	return hi;
}

static int fit_try_cb(void *ctx, int k, int lo)
{
	return fit_try(ctx, k, lo);
}

/* The steps 1..10 after step 0 was not ok (layout_fit_search); -1 when an
 * attempt had errors. */
static int fit_search(fit_t *F)
{
	int g = fit_guess(F);
	if (F->trace)
		fprintf(stderr, "vita: fit: from step %d\n", g > 0 ? g : 10);
	return layout_fit_search(g, fit_try_cb, F) < 0 ? -1 : 0;
}

/* VITA_FIT=scan: every step 1..10 measured, for the smallest ok one. */
static void fit_scan(fit_t *F)
{
	int first = -1;
	for (int k = 1; k <= 10 && first < 0; k++) {
		style_t t;
		tighten(&t, F->s, k);
		errs_t q;
		errs_init(&q);
		attempt_t at;
		if (lay_build(&at, F->m, F->cjk, &t, F->s, F->lib, F->o, F->memo, 1, &q) == 0) {
			int32_t fill = 0;
			int n = at.L.over ? F->s->fit_pages + 1 : lay_measure(&at.L, &fill);
			if (!q.nerrors && fit_ok(F, k, n, fill))
				first = k;
			lay_drop(&at);
		}
		errs_done(&q);
	}
	fprintf(stderr, "vita: fit: scan: smallest ok step %d\n", first);
}

static page_doc_t *render(const model_t *m, const style_t *s, font_lib_t *lib,
                          const layout_opts_t *o, errs_t *e);

/* (a render that is not given a set of patterns makes its own for the
   spans in other languages: opened when one first asks, by its fit
   attempts too) */
page_doc_t *layout_render(const model_t *m, const style_t *s, font_lib_t *lib,
                          const layout_opts_t *o, errs_t *e)
{
	if (o->hyphs)
		return render(m, s, lib, o, e);
	layout_opts_t oo = *o;
	oo.hyphs = hyph_set_new();
	page_doc_t *d = render(m, s, lib, &oo, e);
	hyph_set_free(oo.hyphs);
	return d;
}

static page_doc_t *render_fit(const model_t *m, const char *cjk, const style_t *s,
                              font_lib_t *lib, const layout_opts_t *o, errs_t *e,
                              const char *ff, int fl, int fc);

static page_doc_t *render(const model_t *m, const style_t *s, font_lib_t *lib,
                          const layout_opts_t *o, errs_t *e)
{
	const char *ff;
	int fl, fc;
	fit_at(s, &ff, &fl, &fc);
	const char *cjk = cjk_of(m);
	expect_t x = {m, o->loc};
	font_lib_text(lib, expect_text, &x);
	page_doc_t *d = render_fit(m, cjk, s, lib, o, e, ff, fl, fc);
	font_lib_text(lib, NULL, NULL);
	return d;
}

static page_doc_t *render_fit(const model_t *m, const char *cjk, const style_t *s,
                              font_lib_t *lib, const layout_opts_t *o, errs_t *e,
                              const char *ff, int fl, int fc)
{
	int32_t fill = 0;
	if (!s->fit_pages && !s->fit_no_short)
		return lay_once(m, cjk, s, s, lib, o, NULL, e, &fill);
	/* step 0, then the search (fit_search), quietly; the attempt kept
	   is not laid out again, its warnings are passed on (a compact CV
	   that fits as written costs one layout, not two); the attempts
	   differ in sizes, gaps and leading only, so they share their
	   paragraphs' other work (inline_memo, made for the first: it keeps
	   the text's glyphs at no size, for little more than it costs to set
	   them). A kept attempt that was only measured is built again in
	   full, which gives what a full first build would have (the memo
	   changes no result). */
	const char *tr = getenv("VITA_FIT");
	fit_t F = {m, cjk, s, lib, o, inline_memo_new(), e,
	           s->page_h - s->margin_top - s->margin_bottom, s->fit_pages ? 10 : 0,
	           tr && !strcmp(tr, "scan") ? 2 : tr && !strcmp(tr, "trace") ? 1 : 0,
	           0, -1, 0, -1, NULL, {0}, NULL, {0}};
	page_doc_t *fd = NULL;
	errs_init(&F.bq);
	errs_init(&F.fq);
	if (fit_try(&F, 0, -1) == 0 && fit_search(&F) == 0 && F.trace == 2)
		fit_scan(&F);
	style_t t;
	page_doc_t *d = NULL;
	if (F.ba) {
		d = fit_place(F.ba, o, &fill);
	} else if (F.best >= 0) {
		/* the smallest ok step was measured only: built in full */
		errs_t q;
		errs_init(&q);
		q.max = e->max;
		attempt_t at;
		tighten(&t, s, F.best);
		if (F.trace)
			fprintf(stderr, "vita: fit: step %d built again in full\n", F.best);
		if (lay_build(&at, m, cjk, &t, s, lib, o, F.memo, 0, &q) == 0) {
			if (!q.nerrors)
				d = lay_finish(&at, o, &fill);
			else
				lay_drop(&at);
		}
		errs_done(&F.bq);
		F.bq = q;
	}
	if (F.trace)
		fprintf(stderr, "vita: fit: kept step %d\n", d ? F.best : F.last);
	if (d) {
		fit_free(F.fa);
		errs_append(e, &F.bq);
	} else if (F.fa) {
		fd = fit_place(F.fa, o, &fill);
		errs_append(e, &F.fq);
	}
	errs_done(&F.bq);
	errs_done(&F.fq);
	if (!d) {
		tighten(&t, s, F.last);
		/* no step fits: the layout at step `last`, as laid out above
		   (the same document and messages as laying it out again) */
		d = fd ? fd : lay_once(m, cjk, &t, s, lib, o, F.memo, e, &fill);
		inline_memo_free(F.memo);
		if (d && s->fit_pages && d->npages > s->fit_pages)
			warn_at(e, ff, fl, fc,
			        "fit: %d pages at the tightest this layout allows (leading %.2f, gaps and "
			        "type at %d%%), more than fit.pages: %d; lower fit.min_leading or "
			        "fit.min_scale, or shorten the CV",
			        d->npages, t.leading / 1000.0, s->fit_min_scale / 10, s->fit_pages);
		else if (d)
			warn_at(e, ff, fl, fc,
			        "fit: the last page stays short; tightening within fit.min_leading and "
			        "fit.min_scale does not remove it");
		return d;
	}
	inline_memo_free(F.memo);
	int best = F.best;
	tighten(&t, s, best);
	if (best > 0)
		warn_at(e, ff, fl, fc,
		        "fit: tightened to %d page%s: leading %.2f (was %.2f), gaps %d%%, type %d%%",
		        d->npages, d->npages == 1 ? "" : "s", t.leading / 1000.0, s->leading / 1000.0,
		        (1000 - (1000 - s->fit_min_scale) * best / 10) / 10,
		        (1000 - (1000 - s->fit_min_scale) * best / 20) / 10);
	return d;
}
