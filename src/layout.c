/* layout: model + style + fonts -> page list; the driver.
 *
 * The header and then each section are built as blocks on one vertical
 * list (layout_header.c, layout_blocks.c, on the list of layout_vlist.c),
 * the list is cut into pages, and footers, bookmarks and the document
 * information are added here.
 *
 * Call layout_render(), then layout_subset() (layout_fonts.c) before
 * pdf_write().
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
	tstyle_t t = lay_ts(L, FONT_REGULAR, L->s->size_footer, L->s->c_muted);
	sp_str(L, &sp, text, &t);
	flow_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = L->width;
	o.align = lay_align(L, align);
	o.rtl = L->rtl;
	o.cjk = L->cjk;
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
	v_put_line(L, &tmp, &r.lines[0], L->x0, L->width);
	lay_place(pg, &tmp, baseline, L->rtl);
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
		if (!gmtime_r(&t, &tm)) {   /* main refuses such epochs; be safe */
			t = 0;
			gmtime_r(&t, &tm);
		}
		upd.kind = DATE_MONTH;
		upd.y = tm.tm_year + 1900;
		upd.m = tm.tm_mon + 1;
	}
	lay_date_text(L, &upd, &b);
	const char *date = arena_strdup(L->a, b.s ? b.s : "");
	buf_done(&b);
	int32_t baseline = s->page_h - s->margin_bottom + s->margin_bottom / 2;
	int art = lay_tag(L, PAGE_ARTIFACT); /* page furniture */
	for (int i = 0; i < d->npages; i++) {
		page_t *pg = &d->pages[i];
		footer_line(L, pg, subst(L, L->loc->footer, i + 1, d->npages, date), FLOW_RIGHT, baseline);
		footer_line(L, pg, subst(L, L->loc->updated, i + 1, d->npages, date), FLOW_LEFT,
		            baseline);
	}
	lay_untag(L, art);
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

static void cjk_text(const mtext_t *t, int *kana, int *hangul)
{
	for (int i = 0; i < t->n; i++)
		cjk_scan(t->spans[i].text, kana, hangul);
}

static const char *cjk_of(const model_t *m)
{
	int kana = 0, hangul = 0;
	cjk_scan(m->name, &kana, &hangul);
	cjk_scan(m->name_native, &kana, &hangul);
	cjk_scan(m->headline, &kana, &hangul);
	cjk_scan(m->affiliation, &kana, &hangul);
	cjk_text(&m->summary, &kana, &hangul);
	for (int i = 0; i < m->nsections; i++) {
		const msection_t *s = &m->sections[i];
		cjk_scan(s->title, &kana, &hangul);
		cjk_text(&s->text, &kana, &hangul);
		for (int k = 0; k < s->nentries; k++) {
			cjk_text(&s->entries[k].title, &kana, &hangul);
			cjk_text(&s->entries[k].org, &kana, &hangul);
		}
		for (int k = 0; k < s->nitems; k++)
			cjk_text(&s->items[k], &kana, &hangul);
	}
	return kana && !hangul ? "ja" : hangul && !kana ? "ko" : NULL;
}

page_doc_t *layout_render(const model_t *m, const style_t *s, font_lib_t *lib,
                          const layout_opts_t *o, errs_t *e)
{
	lay_t L;
	memset(&L, 0, sizeof(L));
	L.m = m;
	L.s = s;
	L.loc = o->loc;
	L.rtl = o->loc->rtl;
	L.cjk = cjk_of(m);
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
	/* the text's language picks the patterns (hyph_de.dic, hyph_ru_RU.dic
	   ...); none for CJK or RTL languages: no hyphenation */
	if (s->hyphenate && L.lang) {
		errs_t he;
		errs_init(&he);
		L.hyph = hyph_open(L.lang, &he); /* no patterns: no hyphenation */
		errs_done(&he);
	}
	page_doc_t *d = L.d = page_doc_new(s->page_w, s->page_h);
	d->lang = L.loc && L.loc->lang ? L.loc->lang : L.lang;
	page_image_t photo;
	if (lay_header(&L, &photo) || L.failed)
		goto fail;
	for (int i = 0; i < m->nsections && !L.failed; i++)
		lay_section(&L, &m->sections[i]);
	if (L.failed)
		goto fail;
	d->epoch = o->epoch;
	lay_pages(&L, d, &photo);
	footers(&L, d, o->epoch);
	doc_info(&L, d);
	goto out;
fail:
	page_doc_free(d);
	d = NULL;
out:
	free(L.v);
	hyph_close(L.hyph);
	arena_free(L.a);
	return d;
}
