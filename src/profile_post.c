/* profile_post: checks made once the whole model is built, whatever the
 * input format (native, JSON Resume, RenderCV, BibTeX after its macros):
 * the size limits and the link targets.
 *
 * Limits (pm_limits): at most PROFILE_MAX_ITEMS sections, entries,
 * details, publications, news and list items together, and at most
 * PROFILE_MAX_TEXT bytes of text, so that the work and the memory of the
 * layout that follows stay bounded (about 4 KB of layout per item, 80
 * bytes per byte of text) whatever the input. Each is one located error
 * at the item that passes it.
 *
 * Links: after a profile (native, JSON Resume or RenderCV, BibTeX included) is
 * loaded, every URL in the model (contacts, links, inline [label](url)
 * spans) goes through pu_check: only http, https, mailto, tel and doi are
 * written as link actions (doi:X becomes https://doi.org/X, which every
 * viewer opens); a URL without a scheme that does not start with '/', '\',
 * '.' or '#' is a web address and gets https://. Anything else
 * (javascript:, vbscript:, file:, data:, smb:, a UNC or local path, a
 * control character) is a located warning and the text is printed without
 * a link. The decision is made here, once, so no later stage sees an
 * unchecked URL.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "profile_int.h"

/* The URL to write for u (u itself, or rewritten in a), or NULL. */
const char *pu_url(arena_t *a, const char *u)
{
	static const char *const ok[] = {"http", "https", "mailto", "tel", NULL};
	size_t n = 0;
	for (const char *p = u; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return NULL;
	while (isalnum((unsigned char)u[n]) || u[n] == '+' || u[n] == '-' || u[n] == '.')
		n++;
	if (!*u)
		return NULL;
	if (u[n] != ':' || n == 0 || !isalpha((unsigned char)u[0])) {
		if (strchr("/\\.#", u[0]) || strchr(u, ':'))
			return NULL;   /* a path, a UNC name, or host:port */
		return arena_printf(a, "https://%s", u);
	}
	for (int i = 0; ok[i]; i++)
		if (strlen(ok[i]) == n && !strncasecmp(u, ok[i], n))
			return u[n + 1] ? u : NULL;
	if (n == 3 && !strncasecmp(u, "doi", 3) && u[4])
		return arena_printf(a, "https://doi.org/%s", u + 4);
	return NULL;
}

static const char *pu_check(pctx_t *c, const char *u, int line, int col)
{
	if (!u)
		return NULL;
	const char *r = pu_url(c->a, u);
	if (!r) {
		size_t n = strcspn(u, ":");
		warn_at(c->e, c->file, line, col,
		        "link target '%.*s%s' is not written as a link (only http, https, "
		        "mailto, tel and doi are); the text is printed without it",
		        (int)(n < 40 ? n : 40), u, u[n] ? ":..." : "");
	}
	return r;
}

static void pu_text(pctx_t *c, mtext_t *t)
{
	for (int i = 0; i < t->n; i++) {
		mspan_t *s = &t->spans[i];
		/* spans of one [label](url) share the pointer: check it once */
		if (s->url && (i == 0 || t->spans[i - 1].url != s->url)) {
			const char *old = s->url, *r = pu_check(c, old, t->line, t->col);
			for (int k = i; k < t->n && t->spans[k].url == old; k++)
				t->spans[k].url = r;
		}
	}
}

static void pu_links(pctx_t *c, mlink_t *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i].url = pu_check(c, v[i].url, v[i].line, v[i].col);
}

static void pu_texts(pctx_t *c, mtext_t *v, int n)
{
	for (int i = 0; i < n; i++)
		pu_text(c, &v[i]);
}

static void pu_section(pctx_t *c, msection_t *s)
{
	for (int i = 0; i < s->nentries; i++) {
		mentry_t *en = &s->entries[i];
		pu_text(c, &en->title);
		pu_text(c, &en->org);
		pu_text(c, &en->note);
		pu_texts(c, en->details, en->ndetails);
		pu_links(c, en->links, en->nlinks);
	}
	for (int i = 0; i < s->npubs; i++) {
		mpub_t *p = &s->pubs[i];
		pu_text(c, &p->title);
		pu_text(c, &p->venue_full);
		pu_text(c, &p->note);
		pu_text(c, &p->summary);
		pu_links(c, p->links, p->nlinks);
	}
	for (int i = 0; i < s->nnews; i++)
		pu_text(c, &s->news[i].text);
	pu_texts(c, s->items, s->nitems);
	pu_text(c, &s->text);
}

typedef struct pm {
	pctx_t *c;
	long items, text;
	int failed;
} pm_t;

static int pm_over(pm_t *k, int line, int col)
{
	if (k->failed)
		return 1;
	if (k->items > PROFILE_MAX_ITEMS) {
		err_at(k->c->e, k->c->file, line, col, "more than %d items (sections, entries, "
		       "details, publications, news and list items together): this is too "
		       "long for a CV", PROFILE_MAX_ITEMS);
		k->failed = 1;
	} else if (k->text > PROFILE_MAX_TEXT) {
		err_at(k->c->e, k->c->file, line, col, "more than %d MB of text in the CV: "
		       "this is too long for a CV", PROFILE_MAX_TEXT >> 20);
		k->failed = 1;
	}
	return k->failed;
}

static long pm_str(const char *s)
{
	return s ? (long)strlen(s) : 0;
}

static long pm_mtext(const mtext_t *t)
{
	long n = 0;
	for (int i = 0; i < t->n; i++)
		n += pm_str(t->spans[i].text) + pm_str(t->spans[i].url);
	return n;
}

static long pm_mlinks(const mlink_t *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += pm_str(v[i].label) + pm_str(v[i].url);
	return s;
}

static long pm_strs(const char *const *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += pm_str(v[i]);
	return s;
}

/* One item at line:col, with its text; 1 once a limit is passed. */
static int pm_item(pm_t *k, long text, int line, int col)
{
	k->items++;
	k->text += text;
	return pm_over(k, line, col);
}

static int pm_section(pm_t *k, const msection_t *s)
{
	if (pm_item(k, pm_str(s->title) + pm_mtext(&s->text), s->line, s->col))
		return 1;
	for (int i = 0; i < s->nentries; i++) {
		const mentry_t *en = &s->entries[i];
		long t = pm_mtext(&en->title) + pm_mtext(&en->org) + pm_mtext(&en->note) +
		         pm_str(en->location) + pm_mlinks(en->links, en->nlinks);
		if (pm_item(k, t, en->line, en->col))
			return 1;
		for (int j = 0; j < en->ndetails; j++)
			if (pm_item(k, pm_mtext(&en->details[j]), en->details[j].line,
			            en->details[j].col))
				return 1;
	}
	for (int i = 0; i < s->npubs; i++) {
		const mpub_t *p = &s->pubs[i];
		long t = pm_mtext(&p->title) + pm_mtext(&p->venue_full) + pm_mtext(&p->note) +
		         pm_mtext(&p->summary) +
		         pm_strs(p->authors, p->nauthors) + pm_strs(p->badges, p->nbadges) +
		         pm_str(p->venue) + pm_str(p->status) + pm_str(p->doi) +
		         pm_mlinks(p->links, p->nlinks);
		if (pm_item(k, t, p->line, p->col))
			return 1;
	}
	for (int i = 0; i < s->nnews; i++)
		if (pm_item(k, pm_mtext(&s->news[i].text), s->news[i].line, s->news[i].col))
			return 1;
	for (int i = 0; i < s->nitems; i++)
		if (pm_item(k, pm_mtext(&s->items[i]), s->items[i].line, s->items[i].col))
			return 1;
	return 0;
}

int pm_limits(pctx_t *c)
{
	pm_t k = {c, 0, 0, 0};
	const model_t *m = c->m;
	k.text = pm_str(m->name) + pm_str(m->name_native) + pm_str(m->headline) +
	         pm_str(m->affiliation) + pm_str(m->location) + pm_mtext(&m->summary) +
	         pm_mlinks(m->links, m->nlinks);
	for (int i = 0; i < m->ncontacts; i++)
		k.text += pm_str(m->contacts[i].value) + pm_str(m->contacts[i].url);
	if (pm_over(&k, 1, 1))
		return -1;
	for (int i = 0; i < m->nsections; i++)
		if (pm_section(&k, &m->sections[i]))
			return -1;
	return 0;
}

void pu_model(pctx_t *c)
{
	model_t *m = c->m;
	for (int i = 0; i < m->ncontacts; i++)
		m->contacts[i].url = pu_check(c, m->contacts[i].url, m->contacts[i].line,
		                              m->contacts[i].col);
	pu_links(c, m->links, m->nlinks);
	pu_text(c, &m->summary);
	for (int i = 0; i < m->nsections; i++)
		pu_section(c, &m->sections[i]);
}
