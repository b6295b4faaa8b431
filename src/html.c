/* html: the CV as HTML5 for a homepage, or the model as JSON; see html.h.
 *
 * The page follows the PDF's order and words: a header (name, native
 * name, headline, affiliation and location, contacts and links, the
 * summary), then each section as <section> with its entries,
 * publications (an ordered list numbered as in the PDF, the owner's name
 * in <strong class="vita-owner">, equal contributions starred with the
 * locale's footnote), news, lists and text; then the "updated" line of
 * the footer. Dates, ranges and fixed words come from the locale exactly
 * as layout prints them. Everything is escaped; only http(s), mailto and
 * tel links become <a href>. Class names are vita-* so a site's own
 * stylesheet can restyle the fragment; the layout's values are custom
 * properties on .vita.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include "file.h"
#include "html.h"
#include "unicode.h"

/* ---- escaping ---- */

static void esc(buf_t *b, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		/* braces too: no "{{" or "{%" from a profile, so the page can be
		   included as is by Hugo (Go templates) and Jekyll (Liquid) */
		case '{': buf_puts(b, "&#123;"); break;
		case '}': buf_puts(b, "&#125;"); break;
		default: buf_putc(b, *s);
		}
}

/* A JSON string; < > & { } as \u escapes so that it is safe inside a
 * <script> element and a site generator's template too. */
static void jstr(buf_t *b, const char *s)
{
	if (!s) {
		buf_puts(b, "null");
		return;
	}
	buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			buf_puts(b, "\\n");
		else if (*p < 0x20 || strchr("<>&{}", *p))
			buf_printf(b, "\\u%04x", *p);
		else
			buf_putc(b, (char)*p);
	}
	buf_putc(b, '"');
}

/* The target of an <a href>, or NULL when its scheme is not one a
 * homepage should link to. */
static const char *safe_url(const char *u)
{
	static const char *const ok[] = {"https:", "http:", "mailto:", "tel:"};
	for (size_t i = 0; u && i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strncasecmp(u, ok[i], strlen(ok[i])))
			return u;
	return NULL;
}

static void link_open(buf_t *b, const char *url, const char *cls)
{
	buf_puts(b, "<a");
	if (cls)
		buf_printf(b, " class=\"%s\"", cls);
	buf_puts(b, " href=\"");
	esc(b, url);
	buf_puts(b, "\">");
}

/* ---- text, dates ---- */

static void spans_html(buf_t *b, const mtext_t *t)
{
	for (int i = 0; i < t->n; i++) {
		const mspan_t *sp = &t->spans[i];
		const char *url = safe_url(sp->url);
		if (url)
			link_open(b, url, NULL);
		if (sp->flags & SPAN_BOLD)
			buf_puts(b, "<strong>");
		if (sp->flags & SPAN_ITALIC)
			buf_puts(b, "<em>");
		esc(b, sp->text);
		if (sp->flags & SPAN_ITALIC)
			buf_puts(b, "</em>");
		if (sp->flags & SPAN_BOLD)
			buf_puts(b, "</strong>");
		if (url)
			buf_puts(b, "</a>");
	}
}

static void spans_plain(buf_t *b, const mtext_t *t)
{
	for (int i = 0; i < t->n; i++)
		buf_puts(b, t->spans[i].text);
}

/* "(2025)" or "(2025, preprint)" after the authors. */
static void year_note(const vlocale_t *l, const mpub_t *p, buf_t *b)
{
	buf_t yb;   /* in the locale's digits, as the PDF has it */
	buf_init(&yb);
	locale_int(l, p->year, &yb);
	const char *y = yb.s ? yb.s : "";
	if (p->year && p->status)
		locale_fill(b, l->year_status, "year", y, "status", p->status, (const char *)NULL);
	else
		locale_fill(b, l->year, "year", p->year ? y : p->status, (const char *)NULL);
	buf_done(&yb);
}

static int is_owner(const model_t *m, const msection_t *sec, const char *author)
{
	for (int i = 0; i < sec->nhighlight; i++)
		if (!strcmp(sec->highlight[i], author))
			return 1;
	return !sec->nhighlight && m->name && !strcmp(m->name, author);
}

static int is_equal(const mpub_t *p, const char *author)
{
	for (int i = 0; i < p->nequal; i++)
		if (!strcmp(p->equal[i], author))
			return 1;
	return 0;
}

/* ---- style: the layout as custom properties ---- */

static void css_color(buf_t *b, const char *name, uint32_t c)
{
	buf_printf(b, "--vita-%s:#%06x;", name, (unsigned)(c & 0xffffff));
}

static void css_len(buf_t *b, const char *name, int32_t u)
{
	buf_printf(b, "--vita-%s:%.4gpt;", name, u / 1000.0);
}

static void css(buf_t *b, const style_t *s, const html_opts_t *o)
{
	buf_puts(b, "<style>\n.vita{");
	css_color(b, "text", s->c_text);
	css_color(b, "muted", s->c_muted);
	css_color(b, "accent", s->c_accent);
	css_color(b, "link", s->c_link);
	css_color(b, "rule", s->c_rule);
	css_color(b, "highlight", s->c_highlight);
	css_color(b, "badge", s->c_badge);
	buf_puts(b, "--vita-font-body:");
	buf_puts(b, o->font_body && *o->font_body ? o->font_body : "serif");
	buf_puts(b, ";--vita-font-heading:");
	buf_puts(b, o->font_heading && *o->font_heading ? o->font_heading : "serif");
	buf_putc(b, ';');
	css_len(b, "size-body", s->size_body);
	css_len(b, "size-small", s->size_small);
	css_len(b, "size-name", s->size_name);
	css_len(b, "size-headline", s->size_headline);
	css_len(b, "size-section", s->size_section);
	css_len(b, "rule-width", s->section_rule);
	buf_printf(b, "--vita-leading:%.4g;", s->leading / 1000.0);
	buf_puts(b, "}\n");
	/* the structure; values only through the properties above */
	buf_puts(b,
		".vita{font-family:var(--vita-font-body);font-size:var(--vita-size-body);"
		"line-height:var(--vita-leading);color:var(--vita-text);max-width:44em;margin:0 auto;"
		"padding:1em}\n"
		".vita a{color:var(--vita-link)}\n"
		".vita-header{text-align:var(--vita-header-align,center)}\n"
		".vita-photo{float:right;width:6em;border-radius:4px;margin:0 0 .5em 1em}\n"
		".vita-name{font-family:var(--vita-font-heading);font-size:var(--vita-size-name);"
		"margin:0;font-weight:bold}\n"
		".vita-native{margin-left:.4em}\n"
		".vita-headline{font-family:var(--vita-font-heading);font-size:var(--vita-size-headline);"
		"color:var(--vita-muted);margin:.2em 0}\n"
		".vita-affiliation,.vita-sep,.vita-dates,.vita-location,.vita-year,.vita-muted"
		"{color:var(--vita-muted)}\n"
		".vita-location{font-style:italic}\n"
		".vita-contact{font-size:var(--vita-size-small);margin:.3em 0}\n"
		".vita-summary{text-align:left}\n"
		".vita-section h2{font-family:var(--vita-font-heading);font-size:var(--vita-size-section);"
		"color:var(--vita-accent);border-bottom:var(--vita-rule-width) solid var(--vita-rule);"
		"margin:1.2em 0 .5em}\n"
		".vita-section h3{font-size:var(--vita-size-body);color:var(--vita-muted);margin:.8em 0 .3em}\n"
		".vita-entry{margin:.5em 0}\n"
		".vita-entry-head{display:flex;justify-content:space-between;gap:1em}\n"
		".vita-entry-title{font-weight:bold}\n"
		".vita-entry-sub{font-style:italic}\n"
		".vita-details{margin:.2em 0;padding-left:1.4em}\n"
		".vita-links,.vita-extra{font-size:var(--vita-size-small)}\n"
		".vita-pubs{list-style:none;padding-left:0}\n"
		".vita-num{color:var(--vita-muted);font-size:var(--vita-size-small);margin-right:.4em}\n"
		".vita-pub{margin:.45em 0}\n"
		".vita-pub-title{font-weight:bold;font-style:normal;display:block}\n"
		".vita-venue-tag{font-weight:bold;color:var(--vita-accent);font-size:var(--vita-size-small);"
		"margin-right:.4em}\n"
		".vita-venue{font-style:italic;display:block}\n"
		".vita-summary{display:block}\n"
		".vita-owner{font-weight:bold}\n"
		".vita-badge{color:var(--vita-badge);border:1px solid var(--vita-badge);border-radius:3px;"
		"padding:0 .25em;font-size:88%}\n"
		".vita-note{font-weight:bold;color:var(--vita-highlight)}\n"
		".vita-news{list-style:none;padding:0}\n"
		"ol.vita-marked{list-style:none}\n"
		".vita-marker{display:inline-block;min-width:1.6em;margin-left:-1.6em;text-align:right;"
		"padding-right:.4em;color:var(--vita-muted)}\n"
		".vita-news .vita-dates{display:inline-block;min-width:5.5em}\n"
		".vita-footnote{font-style:italic;font-size:var(--vita-size-small);color:var(--vita-muted)}\n"
		".vita-footer{font-size:var(--vita-size-small);color:var(--vita-muted);margin-top:2em}\n");
	if (s->section_upper)
		buf_puts(b, ".vita-section h2{text-transform:uppercase}\n");
	if (s->header_align == ST_LEFT)
		buf_puts(b, ".vita{--vita-header-align:left}\n");
	buf_puts(b, "</style>\n");
}

/* ---- JSON-LD ---- */

static void ld_person_fields(buf_t *b, const model_t *m)
{
	buf_puts(b, "\"@type\":\"Person\",\"@id\":\"#person\",\"name\":");
	jstr(b, m->name);
	if (m->name_native) {
		buf_puts(b, ",\"alternateName\":");
		jstr(b, m->name_native);
	}
	if (m->headline) {
		buf_puts(b, ",\"jobTitle\":");
		jstr(b, m->headline);
	}
	if (m->affiliation) {
		buf_puts(b, ",\"affiliation\":{\"@type\":\"Organization\",\"name\":");
		jstr(b, m->affiliation);
		buf_putc(b, '}');
	}
	if (m->location) {
		buf_puts(b, ",\"homeLocation\":{\"@type\":\"Place\",\"name\":");
		jstr(b, m->location);
		buf_putc(b, '}');
	}
	int same = 0;
	for (int i = 0; i < m->ncontacts; i++) {
		const mcontact_t *c = &m->contacts[i];
		const char *u = safe_url(c->url);
		if (!u)
			continue;
		if (!strcmp(c->kind, "email")) {
			buf_puts(b, ",\"email\":");
			jstr(b, c->value);
		} else if (!strcmp(c->kind, "phone")) {
			buf_puts(b, ",\"telephone\":");
			jstr(b, c->value);
		} else if (!strcmp(c->kind, "website")) {
			buf_puts(b, ",\"url\":");
			jstr(b, u);
		}
	}
	for (int i = 0; i < m->ncontacts + m->nlinks; i++) {
		const char *kind = i < m->ncontacts ? m->contacts[i].kind : "link";
		const char *u = safe_url(i < m->ncontacts ? m->contacts[i].url
		                                          : m->links[i - m->ncontacts].url);
		if (!u || !strcmp(kind, "email") || !strcmp(kind, "phone") || !strcmp(kind, "website"))
			continue;
		buf_puts(b, same++ ? "," : ",\"sameAs\":[");
		jstr(b, u);
	}
	if (same)
		buf_putc(b, ']');
}

static void ld_article(buf_t *b, const model_t *m, const msection_t *sec, const mpub_t *p)
{
	buf_t t;
	buf_init(&t);
	spans_plain(&t, &p->title);
	buf_puts(b, ",\n{\"@type\":\"ScholarlyArticle\",\"name\":");
	jstr(b, t.s ? t.s : "");
	buf_done(&t);
	if (p->nauthors) {
		buf_puts(b, ",\"author\":[");
		for (int i = 0; i < p->nauthors; i++) {
			if (i)
				buf_putc(b, ',');
			if (is_owner(m, sec, p->authors[i]))
				buf_puts(b, "{\"@id\":\"#person\"}");
			else {
				buf_puts(b, "{\"@type\":\"Person\",\"name\":");
				jstr(b, p->authors[i]);
				buf_putc(b, '}');
			}
		}
		buf_putc(b, ']');
	}
	if (p->year)
		buf_printf(b, ",\"datePublished\":\"%d\"", p->year);
	if (p->venue_full.n || p->venue) {
		buf_init(&t);
		if (p->venue_full.n)
			spans_plain(&t, &p->venue_full);
		else
			buf_puts(&t, p->venue);
		buf_puts(b, ",\"isPartOf\":{\"@type\":\"PublicationIssue\",\"name\":");
		jstr(b, t.s);
		buf_putc(b, '}');
		buf_done(&t);
	}
	if (p->doi) {
		buf_puts(b, ",\"sameAs\":");
		buf_init(&t);
		buf_printf(&t, "https://doi.org/%s", p->doi);
		jstr(b, t.s);
		buf_done(&t);
	}
	for (int i = 0; i < p->nlinks; i++)
		if (safe_url(p->links[i].url)) {
			buf_puts(b, ",\"url\":");
			jstr(b, p->links[i].url);
			break;
		}
	buf_putc(b, '}');
}

static void json_ld(buf_t *b, const model_t *m)
{
	buf_puts(b, "<script type=\"application/ld+json\">\n{\"@context\":\"https://schema.org\","
	            "\"@graph\":[\n{");
	ld_person_fields(b, m);
	buf_putc(b, '}');
	for (int i = 0; i < m->nsections; i++)
		for (int k = 0; k < m->sections[i].npubs; k++)
			ld_article(b, m, &m->sections[i], &m->sections[i].pubs[k]);
	buf_puts(b, "\n]}\n</script>\n");
}

/* ---- the body ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int photo(buf_t *b, const model_t *m, errs_t *e)
{
	buf_t f;
	buf_init(&f);
	const char *why;
	if (file_read(&f, m->photo, FILE_MAX_BINARY, &why)) {
		buf_done(&f);
		return err_sys(e, m->photo, "cannot read the photo: %s", why);
	}
	const unsigned char *p = (const unsigned char *)f.s;
	const char *mime = f.len > 3 && p[0] == 0x89 && p[1] == 'P' ? "image/png" : "image/jpeg";
	buf_printf(b, "<img class=\"vita-photo\" alt=\"\" src=\"data:%s;base64,", mime);
	for (size_t i = 0; i < f.len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < f.len ? (uint32_t)p[i + 1] << 8 : 0) |
		             (i + 2 < f.len ? p[i + 2] : 0);
		buf_putc(b, b64[v >> 18 & 63]);
		buf_putc(b, b64[v >> 12 & 63]);
		buf_putc(b, i + 1 < f.len ? b64[v >> 6 & 63] : '=');
		buf_putc(b, i + 2 < f.len ? b64[v & 63] : '=');
	}
	buf_puts(b, "\">\n");
	buf_done(&f);
	return 0;
}

static void sep(buf_t *b, const char *s)
{
	buf_puts(b, "<span class=\"vita-sep\" aria-hidden=\"true\">");
	esc(b, s);
	buf_puts(b, "</span>");
}

static void header(buf_t *b, const model_t *m, const style_t *s, const vlocale_t *l)
{
	buf_puts(b, "<header class=\"vita-header\">\n<h1 class=\"vita-name\">");
	esc(b, m->name);
	if (m->name_native) {
		buf_puts(b, " <span class=\"vita-native\">");
		esc(b, m->name_native);
		buf_puts(b, "</span>");
	}
	buf_puts(b, "</h1>\n");
	if (m->headline) {
		buf_puts(b, "<p class=\"vita-headline\">");
		esc(b, m->headline);
		buf_puts(b, "</p>\n");
	}
	if (m->affiliation || m->location) {
		buf_puts(b, "<p class=\"vita-affiliation\">");
		esc(b, m->affiliation);
		if (m->affiliation && m->location)
			sep(b, s->contact_sep);
		esc(b, m->location);
		buf_puts(b, "</p>\n");
	}
	if (m->ncontacts + m->nlinks) {
		buf_puts(b, "<p class=\"vita-contact\">");
		for (int i = 0; i < m->ncontacts + m->nlinks; i++) {
			if (i)
				sep(b, s->contact_sep);
			buf_t lab;
			buf_init(&lab);
			const char *url;
			if (i < m->ncontacts) {
				locale_contact_label(l, &m->contacts[i], &lab);
				url = m->contacts[i].url;
			} else {
				buf_puts(&lab, m->links[i - m->ncontacts].label);
				url = m->links[i - m->ncontacts].url;
			}
			if (safe_url(url))
				link_open(b, url, NULL);
			esc(b, lab.s);
			if (safe_url(url))
				buf_puts(b, "</a>");
			buf_done(&lab);
		}
		buf_puts(b, "</p>\n");
	}
	if (m->summary.n) {
		buf_puts(b, "<p class=\"vita-summary\">");
		spans_html(b, &m->summary);
		buf_puts(b, "</p>\n");
	}
	buf_puts(b, "</header>\n");
}

static void links_row(buf_t *b, const mlink_t *links, int n, const char *doi, int *k)
{
	for (int i = 0; i < n; i++, (*k)++) {
		if (*k)
			sep(b, " / ");
		const char *u = safe_url(links[i].url);
		if (u)
			link_open(b, u, NULL);
		esc(b, links[i].label);
		if (u)
			buf_puts(b, "</a>");
	}
	if (doi) {
		if ((*k)++)
			sep(b, " / ");
		buf_puts(b, "<a href=\"https://doi.org/");
		esc(b, doi);
		buf_puts(b, "\">doi:");
		esc(b, doi);
		buf_puts(b, "</a>");
	}
}

/* ` lang="en"` for an item in another language than the page's (its
 * `lang:`): a browser's hyphenation and a screen reader's voice. */
static void lang_attr(buf_t *b, const char *lang, const vlocale_t *l)
{
	if (lang && (!l->lang || strcmp(lang, l->lang))) {
		buf_puts(b, " lang=\"");
		esc(b, lang);
		buf_puts(b, "\"");
	}
}

static void entry(buf_t *b, const msection_t *sec, const mentry_t *en, const vlocale_t *l)
{
	int org_first = en->org.n && (sec->type == SEC_EDUCATION || sec->type == SEC_EXPERIENCE);
	buf_puts(b, "<div class=\"vita-entry\"");
	lang_attr(b, en->lang, l);
	buf_puts(b, ">\n<div class=\"vita-entry-head\"><span>"
	            "<span class=\"vita-entry-title\">");
	spans_html(b, org_first ? &en->org : &en->title);
	buf_puts(b, "</span>");
	if (!org_first && en->note.n) {
		buf_puts(b, " <span class=\"vita-muted\">(");
		spans_html(b, &en->note);
		buf_puts(b, ")</span>");
	}
	if (en->location) {
		buf_puts(b, " <span class=\"vita-location\">");
		esc(b, en->location);
		buf_puts(b, "</span>");
	}
	buf_puts(b, "</span>");
	buf_t d;
	buf_init(&d);
	locale_entry_dates(l, en, &d);
	if (d.len) {
		buf_puts(b, "<span class=\"vita-dates\">");
		esc(b, d.s);
		buf_puts(b, "</span>");
	}
	buf_done(&d);
	buf_puts(b, "</div>\n");
	const mtext_t *second = org_first ? &en->title : &en->org;
	if (second->n || (org_first && en->note.n)) {
		buf_puts(b, "<div class=\"vita-entry-sub\">");
		spans_html(b, second);
		if (org_first && en->note.n) {
			if (second->n)
				buf_puts(b, ", ");
			spans_html(b, &en->note);
		}
		buf_puts(b, "</div>\n");
	}
	if (en->ndetails) {
		buf_puts(b, "<ul class=\"vita-details\">\n");
		for (int i = 0; i < en->ndetails; i++) {
			buf_puts(b, "<li>");
			spans_html(b, &en->details[i]);
			buf_puts(b, "</li>\n");
		}
		buf_puts(b, "</ul>\n");
	}
	if (en->nlinks) {
		int k = 0;
		buf_puts(b, "<p class=\"vita-links\">");
		links_row(b, en->links, en->nlinks, NULL, &k);
		buf_puts(b, "</p>\n");
	}
	buf_puts(b, "</div>\n");
}

/* n in the locale's digits, put into fmt's {n} ("[{n}]", "{n}."), in a
 * span of class cls: a number as text, as the PDF sets it. */
static void num_span(buf_t *b, const vlocale_t *l, const char *fmt, int n, const char *cls)
{
	buf_t d, t;
	buf_init(&d);
	buf_init(&t);
	locale_int(l, n, &d);
	locale_fill(&t, fmt, "n", d.s, (const char *)NULL);
	buf_printf(b, "<span class=\"%s\">", cls);
	esc(b, t.s ? t.s : "");
	buf_puts(b, "</span>");
	buf_done(&d);
	buf_done(&t);
}

static void publication(buf_t *b, const model_t *m, const msection_t *sec, const mpub_t *p,
                        int number, const vlocale_t *l)
{
	buf_puts(b, "<li class=\"vita-pub\"");
	lang_attr(b, p->lang, l);
	if (number > 0)
		buf_printf(b, " value=\"%d\"", number);
	buf_puts(b, ">");
	if (number > 0) /* as text, as in the PDF, not a list marker */
		num_span(b, l, l->pub_number ? l->pub_number : "[{n}]", number, "vita-num");
	if (p->venue) {
		buf_puts(b, "<span class=\"vita-venue-tag\">");
		esc(b, p->venue);
		buf_puts(b, "</span>");
	}
	buf_puts(b, "<cite class=\"vita-pub-title\">");
	spans_html(b, &p->title);
	buf_puts(b, "</cite>\n");
	if (p->nauthors || p->year || p->status) {
		buf_puts(b, "<span class=\"vita-authors\">");
		for (int i = 0; i < p->nauthors; i++) {
			const char *au = p->authors[i];
			if (i)
				buf_puts(b, ", ");
			int own = is_owner(m, sec, au);
			buf_puts(b, own ? "<strong class=\"vita-owner\">" : "<span class=\"vita-author\">");
			esc(b, au);
			if (is_equal(p, au))
				buf_putc(b, '*');
			buf_puts(b, own ? "</strong>" : "</span>");
		}
		if (p->year || p->status) {
			buf_t y;
			buf_init(&y);
			year_note(l, p, &y);
			buf_puts(b, p->nauthors ? " <span class=\"vita-year\">" : "<span class=\"vita-year\">");
			esc(b, y.s);
			buf_puts(b, "</span>");
			buf_done(&y);
		}
		buf_puts(b, "</span>\n");
	}
	if (p->venue_full.n) {
		buf_puts(b, "<span class=\"vita-venue\">");
		spans_html(b, &p->venue_full);
		buf_puts(b, "</span>\n");
	}
	if (p->summary.n) {
		buf_puts(b, "<span class=\"vita-summary\">");
		spans_html(b, &p->summary);
		buf_puts(b, "</span>\n");
	}
	if (p->nlinks || p->doi || p->nbadges || p->note.n) {
		int k = 0;
		buf_puts(b, "<span class=\"vita-extra\">");
		links_row(b, p->links, p->nlinks, p->doi, &k);
		if (p->nbadges) {
			if (k)
				sep(b, " \u00b7 ");
			buf_puts(b, "<span class=\"vita-muted\">");
			esc(b, l->badges);
			buf_puts(b, "</span>");
			for (int i = 0; i < p->nbadges; i++) {
				/* after the label, the locale's space ("" after "：") */
				esc(b, i || !l->badges[0] ? " " : l->label_sep ? l->label_sep : " ");
				buf_puts(b, "<span class=\"vita-badge\">");
				esc(b, p->badges[i]);
				buf_puts(b, "</span>");
			}
		}
		if (p->note.n) {
			if (k || p->nbadges)
				sep(b, " \u00b7 ");
			buf_puts(b, "<strong class=\"vita-note\">");
			spans_html(b, &p->note);
			buf_puts(b, "</strong>");
		}
		buf_puts(b, "</span>\n");
	}
	buf_puts(b, "</li>\n");
}

/* As layout: groups by status (published first) or by year; numbers
 * counted over the whole section. */
static void publications(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l)
{
	const char *kinds[64];
	int nkinds = 0, shown = 0, any_equal = 0;
	if (sec->group_by == GROUP_TYPE) {
		kinds[nkinds++] = "";
		for (int i = 0; i < sec->npubs && nkinds < 64; i++) {
			const char *k = sec->pubs[i].status ? sec->pubs[i].status : "";
			int seen = 0;
			for (int j = 0; j < nkinds; j++)
				seen |= !strcmp(kinds[j], k);
			if (!seen)
				kinds[nkinds++] = k;
		}
	} else {
		kinds[nkinds++] = NULL;
	}
	int open = 0;
	for (int g = 0; g < nkinds; g++) {
		int in_group = 0;
		for (int i = 0; i < sec->npubs; i++) {
			const mpub_t *p = &sec->pubs[i];
			const char *kind = p->status ? p->status : "";
			if (kinds[g] && strcmp(kinds[g], kind))
				continue;
			int number = sec->numbering == NUM_REVERSE ? sec->npubs - shown
			             : sec->numbering == NUM_FORWARD ? shown + 1 : 0;
			const char *head = NULL;
			char ybuf[16];
			if (kinds[g] && !in_group)
				head = kinds[g][0] ? kinds[g] : l->published;
			else if (sec->group_by == GROUP_YEAR && p->year &&
			         (shown == 0 || sec->pubs[i - 1].year != p->year)) {
				snprintf(ybuf, sizeof(ybuf), "%d", p->year);
				head = ybuf;
			}
			if (head || !open) {
				if (open)
					buf_puts(b, "</ol>\n");
				if (head) {
					buf_puts(b, "<h3>");
					buf_t t;
					buf_init(&t);
					uni_title_first(head, strlen(head), l->lang, &t);
					esc(b, t.s);
					buf_done(&t);
					buf_puts(b, "</h3>\n");
				}
				buf_puts(b, "<ol class=\"vita-pubs\">\n");
				open = 1;
			}
			in_group = 1;
			publication(b, m, sec, p, number, l);
			shown++;
			any_equal |= p->nequal > 0;
		}
	}
	if (open)
		buf_puts(b, "</ol>\n");
	if (any_equal) {
		buf_puts(b, "<p class=\"vita-footnote\">");
		esc(b, l->equal);
		buf_puts(b, "</p>\n");
	}
}

/* ---- the content of each section shape (model.h, MODEL_SECTIONS) ---- */

static void sec_entries(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l)
{
	(void)m;
	for (int i = 0; i < sec->nentries; i++)
		entry(b, sec, &sec->entries[i], l);
}

static void sec_pubs(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l)
{
	publications(b, m, sec, l);
}

static void sec_news(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l)
{
	(void)m;
	buf_puts(b, "<ul class=\"vita-news\">\n");
	for (int i = 0; i < sec->nnews; i++) {
		buf_t d;
		buf_init(&d);
		locale_date_text(l, &sec->news[i].date, &d);
		buf_puts(b, "<li><span class=\"vita-dates\">");
		esc(b, d.s);
		buf_puts(b, "</span> ");
		spans_html(b, &sec->news[i].text);
		buf_puts(b, "</li>\n");
		buf_done(&d);
	}
	buf_puts(b, "</ul>\n");
}

static void sec_items(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l)
{
	(void)m;
	(void)l;
	if (sec->list_style != LIST_INLINE) {
		int ol = sec->list_style != LIST_BULLETS;
		/* the layout's or locale's marker ("{n})", "١.") as written; the
		   default "{n}." as the browser's own */
		int marked = ol && ((l->number && strcmp(l->number, "{n}.")) || l->digits[0]);
		buf_puts(b, !ol ? "<ul class=\"vita-list\">\n" : marked ? "<ol class=\"vita-list vita-marked\">\n"
		         : sec->list_style == LIST_REVERSED ? "<ol class=\"vita-list\" reversed>\n"
		         : "<ol class=\"vita-list\">\n");
		for (int i = 0; i < sec->nitems; i++) {
			buf_puts(b, "<li>");
			if (marked)
				num_span(b, l, l->number ? l->number : "{n}.",
				         sec->list_style == LIST_REVERSED ? sec->nitems - i : i + 1,
				         "vita-marker");
			spans_html(b, &sec->items[i]);
			buf_puts(b, "</li>\n");
		}
		buf_puts(b, ol ? "</ol>\n" : "</ul>\n");
	} else {
		buf_puts(b, "<p class=\"vita-list\">");
		for (int i = 0; i < sec->nitems; i++) {
			if (i)
				sep(b, "  \u00b7  ");
			spans_html(b, &sec->items[i]);
		}
		buf_puts(b, "</p>\n");
	}
}

static void sec_text(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l)
{
	(void)m;
	(void)l;
	buf_puts(b, "<p>");
	spans_html(b, &sec->text);
	buf_puts(b, "</p>\n");
}

typedef void sec_html_fn(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l);
#define SEC_HTML(e, name, shape) [e] = sec_##shape,
static sec_html_fn *const sec_html[SEC_NTYPES] = {MODEL_SECTIONS(SEC_HTML)};
#undef SEC_HTML

static void section(buf_t *b, const model_t *m, const msection_t *sec, int index,
                    const vlocale_t *l, const char *deflang)
{
	buf_printf(b, "<section class=\"vita-section vita-%s\" id=\"vita-s%d\">\n<h2",
	           model_section_name(sec->type), index + 1);
	/* the title's own language, so that a browser's capitals are its
	   (no EDUCATİON from an English title on a Turkish page) */
	const char *tl = sec->title_lang ? sec->title_lang : m->text_lang ? m->text_lang : deflang;
	if (tl && strcmp(tl, l->lang)) {
		buf_puts(b, " lang=\"");
		esc(b, tl);
		buf_puts(b, "\"");
	}
	buf_puts(b, ">");
	esc(b, sec->title);
	buf_puts(b, "</h2>\n");
	if (sec->type >= 0 && sec->type < SEC_NTYPES)
		sec_html[sec->type](b, m, sec, l);
	buf_puts(b, "</section>\n");
}

/* The footer's "updated" line, dated as the PDF's. */
static void footer(buf_t *b, const model_t *m, const style_t *s, const vlocale_t *l,
                   long long epoch)
{
	if (!s->footer || !l->updated[0])
		return;
	buf_t d, t;
	buf_init(&d);
	buf_init(&t);
	locale_updated(l, &m->updated, epoch, &d);
	locale_fill(&t, l->updated, "date", d.s ? d.s : "", (const char *)NULL);
	buf_puts(b, "<footer class=\"vita-footer\"><p>");
	esc(b, t.s);
	buf_puts(b, "</p></footer>\n");
	buf_done(&d);
	buf_done(&t);
}

int html_write(const model_t *m, const style_t *s, const vlocale_t *l, const html_opts_t *o,
               buf_t *out, errs_t *e)
{
	buf_t head, body;
	buf_init(&head);
	buf_init(&body);
	css(&head, s, o);
	json_ld(&head, m);
	buf_printf(&body, "<article class=\"vita\" lang=\"%s\"%s>\n", l->lang, l->rtl ? " dir=\"rtl\"" : "");
	int rc = 0;
	if (m->photo && photo(&body, m, e))
		rc = -1;
	header(&body, m, s, l);
	for (int i = 0; i < m->nsections; i++)
		section(&body, m, &m->sections[i], i, l, s->lang);
	footer(&body, m, s, l, o->epoch);
	buf_puts(&body, "</article>\n");
	if (o->fragment) {
		buf_add(out, head.s, head.len);
		buf_add(out, body.s, body.len);
	} else {
		buf_t t;
		buf_init(&t);
		locale_fill(&t, l->title, "name", m->name, (const char *)NULL);
		buf_printf(out, "<!DOCTYPE html>\n<html lang=\"%s\"%s>\n<head>\n<meta charset=\"utf-8\">\n"
		           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
		           l->lang, l->rtl ? " dir=\"rtl\"" : "");
		if (o->generator) {
			buf_puts(out, "<meta name=\"generator\" content=\"");
			esc(out, o->generator);
			buf_puts(out, "\">\n");
		}
		buf_puts(out, "<title>");
		esc(out, t.s);
		buf_puts(out, "</title>\n");
		buf_add(out, head.s, head.len);
		buf_puts(out, "</head>\n<body>\n");
		buf_add(out, body.s, body.len);
		buf_puts(out, "</body>\n</html>\n");
		buf_done(&t);
	}
	buf_done(&head);
	buf_done(&body);
	return rc;
}

/* ---- JSON ---- */

static void j_key(buf_t *b, int *first, const char *k)
{
	buf_puts(b, *first ? "" : ",");
	*first = 0;
	jstr(b, k);
	buf_putc(b, ':');
}

static void j_text(buf_t *b, const mtext_t *t)
{
	if (!t->n) {
		buf_puts(b, "null");
		return;
	}
	buf_t p, h;
	buf_init(&p);
	buf_init(&h);
	spans_plain(&p, t);
	spans_html(&h, t);
	buf_puts(b, "{\"text\":");
	jstr(b, p.s ? p.s : "");
	buf_puts(b, ",\"html\":");
	jstr(b, h.s ? h.s : "");
	buf_putc(b, '}');
	buf_done(&p);
	buf_done(&h);
}

static void j_date(buf_t *b, const mdate_t *d, const vlocale_t *l)
{
	static const char *const kinds[] = {"none", "year", "month", "day", "present", "text"};
	if (!d->kind) {
		buf_puts(b, "null");
		return;
	}
	buf_t t;
	buf_init(&t);
	locale_date_text(l, d, &t);
	buf_printf(b, "{\"kind\":\"%s\"", kinds[d->kind]);
	if (d->kind >= DATE_YEAR && d->kind <= DATE_DAY)
		buf_printf(b, ",\"year\":%d", d->y);
	if (d->kind >= DATE_MONTH && d->kind <= DATE_DAY)
		buf_printf(b, ",\"month\":%d", d->m);
	if (d->kind == DATE_DAY)
		buf_printf(b, ",\"day\":%d", d->d);
	buf_puts(b, ",\"source\":");
	jstr(b, d->text);
	buf_puts(b, ",\"shown\":");
	jstr(b, t.s ? t.s : "");
	buf_putc(b, '}');
	buf_done(&t);
}

static void j_links(buf_t *b, const mlink_t *v, int n)
{
	buf_putc(b, '[');
	for (int i = 0; i < n; i++) {
		buf_puts(b, i ? ",{\"label\":" : "{\"label\":");
		jstr(b, v[i].label);
		buf_puts(b, ",\"url\":");
		jstr(b, safe_url(v[i].url));
		buf_putc(b, '}');
	}
	buf_putc(b, ']');
}

static void j_strs(buf_t *b, const char *const *v, int n)
{
	buf_putc(b, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_putc(b, ',');
		jstr(b, v[i]);
	}
	buf_putc(b, ']');
}

static void j_entry(buf_t *b, const mentry_t *en, const vlocale_t *l)
{
	int f = 1;
	buf_putc(b, '{');
	j_key(b, &f, "title"); j_text(b, &en->title);
	j_key(b, &f, "org"); j_text(b, &en->org);
	j_key(b, &f, "note"); j_text(b, &en->note);
	j_key(b, &f, "location"); jstr(b, en->location);
	j_key(b, &f, "lang"); jstr(b, en->lang);
	j_key(b, &f, "date"); j_date(b, &en->date, l);
	j_key(b, &f, "start"); j_date(b, &en->start, l);
	j_key(b, &f, "end"); j_date(b, &en->end, l);
	buf_t d;
	buf_init(&d);
	locale_entry_dates(l, en, &d);
	j_key(b, &f, "dates"); jstr(b, d.len ? d.s : NULL);
	buf_done(&d);
	j_key(b, &f, "details");
	buf_putc(b, '[');
	for (int i = 0; i < en->ndetails; i++) {
		if (i)
			buf_putc(b, ',');
		j_text(b, &en->details[i]);
	}
	buf_putc(b, ']');
	j_key(b, &f, "links"); j_links(b, en->links, en->nlinks);
	buf_putc(b, '}');
}

static void j_pub(buf_t *b, const model_t *m, const msection_t *sec, const mpub_t *p,
                  const vlocale_t *l)
{
	int f = 1;
	buf_putc(b, '{');
	j_key(b, &f, "title"); j_text(b, &p->title);
	j_key(b, &f, "authors");
	buf_putc(b, '[');
	for (int i = 0; i < p->nauthors; i++) {
		buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jstr(b, p->authors[i]);
		buf_printf(b, ",\"owner\":%s,\"equal\":%s}", is_owner(m, sec, p->authors[i]) ? "true" : "false",
		           is_equal(p, p->authors[i]) ? "true" : "false");
	}
	buf_putc(b, ']');
	j_key(b, &f, "venue"); jstr(b, p->venue);
	j_key(b, &f, "venue_full"); j_text(b, &p->venue_full);
	j_key(b, &f, "year");
	if (p->year)
		buf_printf(b, "%d", p->year);
	else
		buf_puts(b, "null");
	j_key(b, &f, "status"); jstr(b, p->status);
	j_key(b, &f, "doi"); jstr(b, p->doi);
	buf_t y;
	buf_init(&y);
	if (p->year || p->status)
		year_note(l, p, &y);
	j_key(b, &f, "year_note"); jstr(b, y.len ? y.s : NULL);
	buf_done(&y);
	j_key(b, &f, "links"); j_links(b, p->links, p->nlinks);
	j_key(b, &f, "badges"); j_strs(b, p->badges, p->nbadges);
	j_key(b, &f, "note"); j_text(b, &p->note);
	j_key(b, &f, "summary"); j_text(b, &p->summary);
	j_key(b, &f, "lang"); jstr(b, p->lang);
	buf_putc(b, '}');
}

/* The JSON content of each section shape (model.h, MODEL_SECTIONS); f is
 * j_key's "first key" flag of the section's object. */
static void js_entries(buf_t *b, int *f, const model_t *m, const msection_t *sec,
                       const vlocale_t *l)
{
	(void)m;
	j_key(b, f, "entries");
	buf_putc(b, '[');
	for (int i = 0; i < sec->nentries; i++) {
		if (i)
			buf_puts(b, ",\n");
		j_entry(b, &sec->entries[i], l);
	}
	buf_putc(b, ']');
}

static void js_pubs(buf_t *b, int *f, const model_t *m, const msection_t *sec,
                    const vlocale_t *l)
{
	j_key(b, f, "publications");
	buf_putc(b, '[');
	for (int i = 0; i < sec->npubs; i++) {
		if (i)
			buf_puts(b, ",\n");
		j_pub(b, m, sec, &sec->pubs[i], l);
	}
	buf_putc(b, ']');
}

static void js_news(buf_t *b, int *f, const model_t *m, const msection_t *sec,
                    const vlocale_t *l)
{
	(void)m;
	j_key(b, f, "news");
	buf_putc(b, '[');
	for (int i = 0; i < sec->nnews; i++) {
		buf_puts(b, i ? ",{\"date\":" : "{\"date\":");
		j_date(b, &sec->news[i].date, l);
		buf_puts(b, ",\"text\":");
		j_text(b, &sec->news[i].text);
		buf_putc(b, '}');
	}
	buf_putc(b, ']');
}

static void js_items(buf_t *b, int *f, const model_t *m, const msection_t *sec,
                     const vlocale_t *l)
{
	(void)m;
	(void)l;
	static const char *const styles[] = {"inline", "bullets", "numbered", "reversed"};
	j_key(b, f, "style"); jstr(b, styles[sec->list_style]);
	j_key(b, f, "items");
	buf_putc(b, '[');
	for (int i = 0; i < sec->nitems; i++) {
		if (i)
			buf_putc(b, ',');
		j_text(b, &sec->items[i]);
	}
	buf_putc(b, ']');
}

static void js_text(buf_t *b, int *f, const model_t *m, const msection_t *sec,
                    const vlocale_t *l)
{
	(void)m;
	(void)l;
	j_key(b, f, "text"); j_text(b, &sec->text);
}

typedef void sec_json_fn(buf_t *b, int *f, const model_t *m, const msection_t *sec,
                         const vlocale_t *l);
#define SEC_JSON(e, name, shape) [e] = js_##shape,
static sec_json_fn *const sec_json[SEC_NTYPES] = {MODEL_SECTIONS(SEC_JSON)};
#undef SEC_JSON

static void j_section(buf_t *b, const model_t *m, const msection_t *sec, const vlocale_t *l)
{
	int f = 1;
	buf_putc(b, '{');
	j_key(b, &f, "title"); jstr(b, sec->title);
	j_key(b, &f, "type"); jstr(b, model_section_name(sec->type));
	sec_json[sec->type >= 0 && sec->type < SEC_NTYPES ? sec->type : 0](b, &f, m, sec, l);
	buf_putc(b, '}');
}

void html_json(const model_t *m, const vlocale_t *l, buf_t *b)
{
	int f = 1;
	buf_putc(b, '{');
	j_key(b, &f, "vita"); buf_printf(b, "%d", m->version ? m->version : 1);
	j_key(b, &f, "lang"); jstr(b, l->lang);
	j_key(b, &f, "name"); jstr(b, m->name);
	j_key(b, &f, "name_native"); jstr(b, m->name_native);
	j_key(b, &f, "headline"); jstr(b, m->headline);
	j_key(b, &f, "affiliation"); jstr(b, m->affiliation);
	j_key(b, &f, "location"); jstr(b, m->location);
	j_key(b, &f, "contacts");
	buf_putc(b, '[');
	for (int i = 0; i < m->ncontacts; i++) {
		const mcontact_t *c = &m->contacts[i];
		buf_t lab;
		buf_init(&lab);
		locale_contact_label(l, c, &lab);
		buf_puts(b, i ? ",{\"kind\":" : "{\"kind\":");
		jstr(b, c->kind);
		buf_puts(b, ",\"value\":");
		jstr(b, c->value);
		buf_puts(b, ",\"label\":");
		jstr(b, lab.s);
		buf_puts(b, ",\"url\":");
		jstr(b, safe_url(c->url));
		buf_putc(b, '}');
		buf_done(&lab);
	}
	buf_putc(b, ']');
	j_key(b, &f, "links"); j_links(b, m->links, m->nlinks);
	j_key(b, &f, "photo"); jstr(b, m->photo);
	j_key(b, &f, "summary"); j_text(b, &m->summary);
	j_key(b, &f, "updated"); j_date(b, &m->updated, l);
	j_key(b, &f, "sections");
	buf_puts(b, "[\n");
	for (int i = 0; i < m->nsections; i++) {
		if (i)
			buf_puts(b, ",\n");
		j_section(b, m, &m->sections[i], l);
	}
	buf_puts(b, "\n]}\n");
}
