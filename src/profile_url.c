/* profile_url: which link targets a CV may carry (issue 15, item 17).
 *
 * After a profile (native, JSON Resume or RenderCV, BibTeX included) is
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
		pu_links(c, p->links, p->nlinks);
	}
	for (int i = 0; i < s->nnews; i++)
		pu_text(c, &s->news[i].text);
	pu_texts(c, s->items, s->nitems);
	pu_text(c, &s->text);
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
