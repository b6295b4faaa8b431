/* profile_rendercv: a RenderCV input file (rendercv.com, YAML) -> model_t.
 * Called by profile_load_mem when the root map has `cv`.
 *
 *   cv            name, label/headline -> headline, location, email,
 *                 phone, website -> contact, photo, social_networks
 *                 [{network, username}] (LinkedIn, GitHub, ORCID, Google
 *                 Scholar, X/Twitter -> contact; GitLab, Mastodon, ... ->
 *                 header links), sections {TITLE: [entry]}
 *   design, locale, locale_catalog   the layout and the locale's words
 *                 (profile_rendercv_design.c)
 *   settings, rendercv_settings      current_date, bold_keywords, pdf_title
 *
 * A section's entries are recognised by their keys, as RenderCV does, and
 * must all be of one kind:
 *   EducationEntry  {institution, area, degree?}  -> education entry
 *                   ("degree in area" / institution)
 *   ExperienceEntry {company, position}           -> experience entry
 *   NormalEntry     {name}                        -> entries
 *   (all three: location, date | start_date/end_date, summary,
 *    highlights -> details, url -> link; a start with no end is ongoing)
 *   PublicationEntry {title, authors, doi?, url?, journal?, date?}
 *   OneLineEntry {label, details}, BulletEntry {bullet},
 *   NumberedEntry {number}, ReversedNumberedEntry {reversed_number}
 *                   -> a bullet list
 *   TextEntry (a plain string)                    -> a text paragraph
 * A snake_case title becomes Title Case ("work_experience" -> "Work
 * Experience"); others are kept verbatim. RenderCV allows extra keys in cv
 * and entries, so unknown ones there are ignored (near-misses of a known
 * key get a warning); an unknown top-level key is an error.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "buf.h"
#include "profile_import.h"

static const char *const rc_top[] = {
	"cv", "design", "locale", "locale_catalog", "rendercv_settings", "settings",
	NULL};
static const char *const rc_cv[] = {
	"name", "label", "headline", "location", "email", "phone", "website",
	"photo", "social_networks", "custom_connections", "sections", NULL};
static const char *const rc_social[] = {"network", "username", NULL};
static const char *const rc_entry_keys[] = {
	"institution", "area", "degree", "company", "position", "name", "title",
	"authors", "doi", "url", "journal", "label", "details", "bullet",
	"number", "reversed_number", "location", "date", "start_date",
	"end_date", "summary", "highlights", "grade", "gpa", NULL};

enum { RT_TEXT, RT_EDU, RT_EXP, RT_PUB, RT_NORMAL, RT_ONELINE, RT_BULLET,
       RT_NUMBERED, RT_REVNUM, RT_NONE };
static const char *const rt_names[] = {
	"a TextEntry (a string)", "an EducationEntry", "an ExperienceEntry",
	"a PublicationEntry", "a NormalEntry", "a OneLineEntry", "a BulletEntry",
	"a NumberedEntry", "a ReversedNumberedEntry"};

/* The entry kind RenderCV would take the node for. */
static int rc_kind(const ynode_t *n)
{
	static const struct { const char *key; int kind; } by_key[] = {
		{"institution", RT_EDU}, {"company", RT_EXP}, {"authors", RT_PUB},
		{"title", RT_PUB}, {"bullet", RT_BULLET}, {"label", RT_ONELINE},
		{"name", RT_NORMAL}, {"position", RT_EXP}, {"area", RT_EDU},
		{"degree", RT_EDU}, {"number", RT_NUMBERED},
		{"reversed_number", RT_REVNUM}};
	if (n->kind == YD_SCALAR)
		return RT_TEXT;
	if (n->kind != YD_MAP)
		return RT_NONE;
	for (size_t i = 0; i < sizeof(by_key) / sizeof(by_key[0]); i++)
		if (ydoc_get(n, by_key[i].key))
			return by_key[i].kind;
	return RT_NONE;
}

/* ---- entries ---- */

static int rc_need(pctx_t *c, const ynode_t *n, const char *key, int kind,
                   const mtext_t *t)
{
	return t->n ? 0 : pim_missing(c, n, key, rt_names[kind]);
}

static int rc_dates(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = pim_date(c, n, "date", &en->date);
	rc |= pim_date(c, n, "start_date", &en->start);
	rc |= pim_date(c, n, "end_date", &en->end);
	if (!rc && en->start.kind >= DATE_YEAR && en->start.kind <= DATE_DAY &&
	    en->end.kind == DATE_NONE) {
		en->end.kind = DATE_PRESENT;   /* RenderCV: no end means ongoing */
		en->end.text = "present";
		en->end.line = en->start.line;
		en->end.col = en->start.col;
	}
	return rc | pim_period(c, en);
}

/* location, dates, summary + highlights, url: common to three kinds. */
static int rc_common(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	mtext_t sum;
	const char *u;
	int rc = pim_str(c, n, "location", &en->location);
	rc |= rc_dates(c, n, en);
	rc |= pim_text(c, n, "summary", &sum);
	rc |= pim_items(c, n, "highlights", &sum, 1, &en->details, &en->ndetails);
	rc |= pim_str(c, n, "url", &u);
	if (u) {
		en->links = pim_link(c, u, ydoc_get(n, "url"));
		en->nlinks = 1;
	}
	return rc;
}

/* tpl with every k1 replaced by v1 and k2 by v2 */
static const char *rc_fill2(arena_t *a, const char *tpl, const char *k1, const char *v1,
                            const char *k2, const char *v2)
{
	buf_t b;
	buf_init(&b);
	for (const char *q = tpl; *q;) {
		if (!strncmp(q, k1, strlen(k1))) {
			buf_puts(&b, v1);
			q += strlen(k1);
		} else if (!strncmp(q, k2, strlen(k2))) {
			buf_puts(&b, v2);
			q += strlen(k2);
		} else {
			buf_putc(&b, *q++);
		}
	}
	const char *r = arena_strdup(a, b.s ? b.s : "");
	buf_done(&b);
	return r;
}

static int rc_edu(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	const char *degree, *area;
	int rc = pim_text(c, n, "institution", &en->org);
	rc |= rc_need(c, n, "institution", RT_EDU, &en->org);
	rc |= pim_str(c, n, "degree", &degree);
	rc |= pim_str(c, n, "area", &area);
	rc |= pim_text(c, n, ydoc_get(n, "grade") ? "grade" : "gpa", &en->note);
	rc |= rc_common(c, n, en);
	const ynode_t *at = ydoc_get(n, degree ? "degree" : "area");
	/* locale.phrases.degree_with_area (2.4+), else RenderCV's default */
	const char *tpl = NULL;
	const ynode_t *ph = ydoc_get(ydoc_get(c->root, "locale"), "phrases");
	const ynode_t *dw = ydoc_get(ph, "degree_with_area");
	if (dw && dw->kind == YD_SCALAR && strstr(dw->str, "DEGREE") && strstr(dw->str, "AREA"))
		tpl = dw->str;
	if (degree && area && tpl)
		pv_markup(c->a, rc_fill2(c->a, tpl, "DEGREE", degree, "AREA", area), &en->title);
	else if (degree && area)
		pv_markup(c->a, arena_printf(c->a, "%s in %s", degree, area), &en->title);
	else if (degree || area)
		pv_markup(c->a, degree ? degree : area, &en->title);
	else if (!ydoc_get(n, "degree") && !ydoc_get(n, "area"))
		return pim_missing(c, n, "area", rt_names[RT_EDU]);
	if (at) {
		en->title.line = at->line;
		en->title.col = at->col;
	}
	return rc;
}

static int rc_exp(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = pim_text(c, n, "position", &en->title);
	rc |= pim_text(c, n, "company", &en->org);
	if (!rc) {
		rc |= rc_need(c, n, "company", RT_EXP, &en->org);
		rc |= rc_need(c, n, "position", RT_EXP, &en->title);
	}
	return rc | rc_common(c, n, en);
}

static int rc_normal(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = pim_text(c, n, "name", &en->title);
	if (!rc)
		rc |= rc_need(c, n, "name", RT_NORMAL, &en->title);
	return rc | rc_common(c, n, en);
}

/* "***Jane Doe***" (RenderCV's way to bold oneself) -> "Jane Doe". */
static const char *rc_author(arena_t *a, const char *s)
{
	size_t n = strlen(s), i = 0;
	while (i < n && s[i] == '*')
		i++;
	while (n > i && s[n - 1] == '*')
		n--;
	return arena_strndup(a, s + i, n - i);
}

static int rc_pub(pctx_t *c, const ynode_t *n, mpub_t *p)
{
	mdate_t d;
	const char *u;
	int rc = pim_text(c, n, "title", &p->title);
	if (!rc)
		rc |= rc_need(c, n, "title", RT_PUB, &p->title);
	rc |= pim_strings(c, n, "authors", &p->authors, &p->nauthors);
	if (!ydoc_get(n, "authors"))
		rc |= pim_missing(c, n, "authors", rt_names[RT_PUB]);
	for (int i = 0; i < p->nauthors; i++)
		p->authors[i] = rc_author(c->a, p->authors[i]);
	rc |= pim_str(c, n, "doi", &p->doi);
	rc |= pim_text(c, n, "journal", &p->venue_full);
	rc |= pim_text(c, n, "summary", &p->summary);
	rc |= pim_date(c, n, "date", &d);
	if (d.kind >= DATE_YEAR && d.kind <= DATE_DAY && d.y >= 1000)
		p->year = d.y;
	rc |= pim_str(c, n, "url", &u);
	if (u) {
		p->links = pim_link(c, u, ydoc_get(n, "url"));
		p->nlinks = 1;
	}
	return rc;
}

/* One line of a list section. */
static int rc_line(pctx_t *c, const ynode_t *n, int kind, mtext_t *out)
{
	const char *a = NULL, *b = NULL;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (kind == RT_ONELINE) {
		rc |= pim_str(c, n, "label", &a);
		rc |= pim_str(c, n, "details", &b);
		if (!rc && !a)
			rc = pim_missing(c, n, "label", rt_names[kind]);
		if (!rc && !b && !ydoc_get(n, "details"))
			rc = pim_missing(c, n, "details", rt_names[kind]);
		if (rc)
			return -1;
		pv_markup(c->a, arena_printf(c->a, "**%s:** %s", a, b ? b : ""), out);
	} else {
		const char *key = kind == RT_BULLET ? "bullet" : kind == RT_NUMBERED
		                  ? "number" : "reversed_number";
		if (pim_str(c, n, key, &a) < 0)
			return -1;
		if (!a)
			return pim_missing(c, n, key, rt_names[kind]);
		/* the numbers are the list's (LIST_NUMBERED, LIST_REVERSED) */
		pv_markup(c->a, a, out);
	}
	out->line = n->line;
	out->col = n->col;
	return 0;
}

/* ---- sections ---- */

/* RenderCV's rule: a key with a space or a capital is the title as is;
 * otherwise underscores become spaces and words are capitalised, except
 * short function words after the first. */
static const char *rc_title(arena_t *a, const char *key)
{
	static const char *const small[] = {
		"a", "and", "as", "at", "but", "by", "for", "from", "if", "in", "into",
		"like", "near", "nor", "of", "off", "on", "onto", "or", "over", "so",
		"than", "that", "to", "upon", "when", "with", "yet", NULL};
	for (const char *p = key; *p; p++)
		if (*p == ' ' || isupper((unsigned char)*p))
			return key;
	char *t = arena_strdup(a, key);
	for (char *w = t; *w;) {
		char *e = w;
		while (*e && *e != '_')
			e++;
		int keep = 0;
		for (int i = 0; small[i]; i++)   /* even the first word, as RenderCV */
			keep |= (size_t)(e - w) == strlen(small[i]) && !strncmp(w, small[i], (size_t)(e - w));
		if (!keep)
			*w = (char)toupper((unsigned char)*w);
		if (!*e)
			break;
		*e = ' ';
		w = e + 1;
	}
	return t;
}

static int rc_sec_type(int kind)
{
	switch (kind) {
	case RT_EDU: return SEC_EDUCATION;
	case RT_EXP: return SEC_EXPERIENCE;
	case RT_NORMAL: return SEC_ENTRIES;
	case RT_PUB: return SEC_PUBLICATIONS;
	case RT_TEXT: return SEC_TEXT;
	default: return SEC_LIST;
	}
}

/* TextEntries: one paragraph each, as lines of one text. */
static void rc_text_add(pctx_t *c, msection_t *s, const mtext_t *t)
{
	mtext_t *x = &s->text;
	int nl = x->n > 0;
	mspan_t *v = arena_alloc(c->a, (size_t)(x->n + nl + t->n) * sizeof(*v));
	if (x->n)
		memcpy(v, x->spans, (size_t)x->n * sizeof(*v));
	if (nl)
		v[x->n] = (mspan_t){"\n", 0, NULL};
	memcpy(v + x->n + nl, t->spans, (size_t)t->n * sizeof(*v));
	if (!x->n) {
		x->line = t->line;
		x->col = t->col;
	}
	x->spans = v;
	x->n += nl + t->n;
}

static int rc_entry(pctx_t *c, const ynode_t *it, int kind, msection_t *s)
{
	int rc;
	mtext_t t;
	if (it->kind == YD_MAP)
		pim_lenient(c, it, rc_entry_keys, rt_names[kind]);
	switch (kind) {
	case RT_TEXT:
		if ((rc = pv_text_node(c, it, "entry", &t)) == 0 && t.n)
			rc_text_add(c, s, &t);
		return rc;
	case RT_PUB: {
		mpub_t *p = &s->pubs[s->npubs];
		p->line = it->line;
		p->col = it->col;
		if ((rc = rc_pub(c, it, p)) == 0)
			s->npubs++;
		return rc;
	}
	case RT_EDU: case RT_EXP: case RT_NORMAL: {
		mentry_t *en = &s->entries[s->nentries];
		en->line = it->line;
		en->col = it->col;
		rc = kind == RT_EDU ? rc_edu(c, it, en) : kind == RT_EXP
		     ? rc_exp(c, it, en) : rc_normal(c, it, en);
		if (rc == 0)
			s->nentries++;
		return rc;
	}
	default:
		if ((rc = rc_line(c, it, kind, &s->items[s->nitems])) == 0)
			s->nitems++;
		return rc;
	}
}

static int rc_section(pctx_t *c, const ynode_t *k, const ynode_t *l)
{
	const char *title = k->kind == YD_SCALAR ? rc_title(c->a, k->str) : "";
	int rc = 0;
	if (l->kind == YD_NULL || (l->kind == YD_SEQ && l->n == 0))
		return pv_err(c, l->kind == YD_NULL ? k : l, "section '%.60s' has no "
		              "entries", k->str);
	if (l->kind != YD_SEQ)
		return pv_err(c, l, "expected a list of entries for section '%.60s', "
		              "got %s", k->str, ydoc_kind_name(l->kind));
	int kind = rc_kind(l->kids[0]);
	msection_t *s = pim_section(c, k, RT_NONE == kind ? SEC_TEXT : rc_sec_type(kind),
	                            title);
	size_t n = (size_t)l->n;
	s->entries = arena_alloc(c->a, n * sizeof(*s->entries));
	s->pubs = arena_alloc(c->a, n * sizeof(*s->pubs));
	s->items = arena_alloc(c->a, n * sizeof(*s->items));
	s->list_style = kind == RT_NUMBERED ? LIST_NUMBERED : kind == RT_REVNUM ? LIST_REVERSED
	                : LIST_BULLETS;
	for (int i = 0; i < l->n; i++) {
		const ynode_t *it = l->kids[i];
		int k2 = rc_kind(it);
		if (k2 == RT_NONE)
			rc = pv_err(c, it, "cannot tell what kind of entry this is (expected "
			            "a string or a map with institution, company, title and "
			            "authors, name, label and details, or bullet)");
		else if (k2 != kind && kind != RT_NONE)
			rc = pv_err(c, it, "this is %s, but section '%.60s' began with %s; "
			            "a section holds one kind of entry", rt_names[k2], k->str,
			            rt_names[kind]);
		else if (kind != RT_NONE)
			rc |= rc_entry(c, it, kind, s);
	}
	return rc;
}

static int rc_sections(pctx_t *c, const ynode_t *cv)
{
	const ynode_t *n = ydoc_get(cv, "sections");
	int rc = 0;
	if (!n || n->kind == YD_NULL) {
		pim_sections(c, 0);
		return 0;
	}
	if (!pv_is_map(c, n, "'sections' (a map of titles to lists of entries)")) {
		pim_sections(c, 0);
		return -1;
	}
	pim_sections(c, n->n);
	for (int i = 0; i < n->n; i++)
		rc |= rc_section(c, n->kids[2 * i], n->kids[2 * i + 1]);
	return rc;
}

/* ---- header ---- */

static const struct rc_net {
	const char *name, *kind, *fmt;   /* kind: a contact, else fmt: a link */
} rc_nets[] = {
	{"LinkedIn", "linkedin", NULL}, {"GitHub", "github", NULL},
	{"ORCID", "orcid", NULL}, {"Google Scholar", "scholar", NULL},
	{"X", "twitter", NULL}, {"Twitter", "twitter", NULL},
	{"GitLab", NULL, "https://gitlab.com/%s"},
	{"Instagram", NULL, "https://instagram.com/%s"},
	{"StackOverflow", NULL, "https://stackoverflow.com/users/%s"},
	{"ResearchGate", NULL, "https://researchgate.net/profile/%s"},
	{"YouTube", NULL, "https://youtube.com/@%s"},
	{"Telegram", NULL, "https://t.me/%s"},
	{"IMDB", NULL, "https://imdb.com/name/%s"},
	{"Leetcode", NULL, "https://leetcode.com/u/%s"},
	{"Bluesky", NULL, "https://bsky.app/profile/%s"},
	{"WhatsApp", NULL, "https://wa.me/%s"},
	{"Reddit", NULL, "https://reddit.com/user/%s"},
	{"Mastodon", NULL, NULL},
};

static int rc_net_find(pctx_t *c, const ynode_t *at, const char *net)
{
	const size_t nn = sizeof(rc_nets) / sizeof(rc_nets[0]);
	const char *names[sizeof(rc_nets) / sizeof(rc_nets[0]) + 1];
	for (size_t i = 0; i < nn; i++) {
		if (!strcasecmp(net, rc_nets[i].name))
			return (int)i;
		names[i] = rc_nets[i].name;
	}
	names[nn] = NULL;
	const char *s = pv_suggest(net, names);
	if (s)
		return pv_err(c, at, "unknown social network '%.60s'; did you mean "
		              "'%s'?", net, s);
	return pv_err(c, at, "unknown social network '%.60s' (expected LinkedIn, "
	              "GitHub, GitLab, Instagram, ORCID, Mastodon, StackOverflow, "
	              "ResearchGate, YouTube, Google Scholar, Telegram, X, ...)", net);
}

/* Mastodon "@user@host" -> https://host/@user */
static const char *rc_mastodon(pctx_t *c, const ynode_t *at, const char *u)
{
	const char *h = strchr(u + (u[0] == '@'), '@');
	if (!h || h[1] == '\0') {
		pv_err(c, at, "a Mastodon username is written @user@host, got '%.60s'", u);
		return NULL;
	}
	return arena_printf(c->a, "https://%s/@%.*s", h + 1,
	                    (int)(h - u - (u[0] == '@')), u + (u[0] == '@'));
}

static int rc_social_item(pctx_t *c, const ynode_t *n)
{
	const char *net, *user;
	int rc = 0;
	if (!pv_is_map(c, n, "a social network"))
		return -1;
	pim_lenient(c, n, rc_social, "a social network");
	rc |= pim_str(c, n, "network", &net);
	rc |= pim_str(c, n, "username", &user);
	if (!rc && !net)
		rc = pim_missing(c, n, "network", "a social network");
	if (!rc && !user)
		rc = pim_missing(c, n, "username", "a social network");
	if (rc)
		return -1;
	const ynode_t *at = ydoc_get(n, "network");
	int i = rc_net_find(c, at, net);
	if (i < 0)
		return -1;
	const struct rc_net *d = &rc_nets[i];
	if (d->kind) {
		pim_contact(c, d->kind, user, NULL, n);
		return 0;
	}
	if (!strcmp(d->name, "WhatsApp")) {   /* wa.me takes the digits alone */
		buf_t dg;
		buf_init(&dg);
		for (const char *q = user; *q; q++)
			if (*q >= '0' && *q <= '9')
				buf_putc(&dg, *q);
		const char *digits = arena_strdup(c->a, dg.s ? dg.s : "");
		buf_done(&dg);
		pim_links_add(c, arena_printf(c->a, "%s: %s", d->name, user),
		              arena_printf(c->a, d->fmt, digits), n);
		return 0;
	}
	const char *url = d->fmt ? arena_printf(c->a, d->fmt, user)
	                  : rc_mastodon(c, ydoc_get(n, "username"), user);
	if (!url)
		return -1;
	pim_links_add(c, arena_printf(c->a, "%s: %s", d->name, user), url, n);
	return 0;
}

/* custom_connections: {placeholder, url, fontawesome_icon} -> a header
 * link (the icon is RenderCV's; vita prints the text) */
static int rc_custom_item(pctx_t *c, const ynode_t *n)
{
	static const char *const keys[] = {"placeholder", "url", "fontawesome_icon", NULL};
	const char *ph, *url;
	if (!pv_is_map(c, n, "a custom connection"))
		return -1;
	pim_lenient(c, n, keys, "a custom connection");
	if (pim_str(c, n, "placeholder", &ph) < 0 || pim_str(c, n, "url", &url) < 0)
		return -1;
	if (!ph)
		return pim_missing(c, n, "placeholder", "a custom connection");
	if (url)
		pim_links_add(c, ph, url, n);
	else
		warn_at(c->e, c->file, n->line, n->col, "ignored: custom connection "
		        "'%.60s' has no url (vita's header shows links)", ph);
	return 0;
}

static int rc_photo(pctx_t *c, const ynode_t *cv)
{
	const char *p;
	if (pim_str(c, cv, "photo", &p) < 0)
		return -1;
	return p ? profile_photo(c, ydoc_get(cv, "photo"), p) : 0;
}

static int rc_header(pctx_t *c, const ynode_t *cv)
{
	static const char *const keys[][2] = {
		{"email", "email"}, {"phone", "phone"}, {"website", "website"}};
	model_t *m = c->m;
	const ynode_t *l;
	const char *v;
	int rc = pim_str(c, cv, "name", &m->name);
	if (!rc && !m->name)
		rc = pim_missing(c, cv, "name", "'cv'");
	rc |= pim_str(c, cv, ydoc_get(cv, "headline") ? "headline" : "label",
	              &m->headline);
	rc |= pim_str(c, cv, "location", &m->location);
	for (int i = 0; i < 3; i++) {
		if (pim_str(c, cv, keys[i][0], &v) < 0)
			rc = -1;
		else if (v && i == 1 && !strncmp(v, "tel:", 4))
			pim_contact(c, "phone", v + 4, NULL, ydoc_get(cv, "phone"));
		else if (v)
			pim_contact(c, keys[i][1], v, NULL, ydoc_get(cv, keys[i][0]));
	}
	int has = pim_seq(c, cv, "social_networks", "social networks", &l);
	for (int i = 0; has > 0 && i < l->n; i++)
		rc |= rc_social_item(c, l->kids[i]);
	rc |= has < 0 ? -1 : 0;
	has = pim_seq(c, cv, "custom_connections", "custom connections", &l);
	for (int i = 0; has > 0 && i < l->n; i++)
		rc |= rc_custom_item(c, l->kids[i]);
	return rc | (has < 0 ? -1 : 0) | rc_photo(c, cv);
}

/* ---- RenderCV's Markdown and settings, applied to the tree first ---- */

/* `code` -> code (vita has no monospace), keeping unpaired backticks. */
static const char *rc_code(arena_t *a, const char *s)
{
	const char *p = strchr(s, '`');
	if (!p || !strchr(p + 1, '`'))
		return s;
	buf_t b;
	buf_init(&b);
	for (const char *q = s; *q; q++) {
		const char *e;
		if (*q == '`' && (e = strchr(q + 1, '`'))) {
			buf_add(&b, q + 1, (size_t)(e - q - 1));
			q = e;
		} else {
			buf_putc(&b, *q);
		}
	}
	const char *r = arena_strdup(a, b.s ? b.s : "");
	buf_done(&b);
	return r;
}

/* "Top - sub one - sub two" (a nested list, which YAML folds into one
 * line) -> "Top\n◦ sub one\n◦ sub two", as RenderCV reads it. */
static const char *rc_nested(arena_t *a, const char *s)
{
	if (!strstr(s, " - "))
		return s;
	buf_t b;
	buf_init(&b);
	for (const char *q = s; *q;) {
		const char *e = strstr(q, " - ");
		size_t n = e ? (size_t)(e - q) : strlen(q);
		if (q != s)
			buf_puts(&b, "\n\u25e6 ");
		buf_add(&b, q, n);
		q = e ? e + 3 : q + n;
	}
	const char *r = arena_strdup(a, b.s);
	buf_done(&b);
	return r;
}

/* settings.bold_keywords: each keyword, as a whole word, in bold. */
static const char *rc_bold(arena_t *a, const char *s, const ynode_t *kw)
{
	for (int i = 0; kw && kw->kind == YD_SEQ && i < kw->n; i++) {
		const ynode_t *k = kw->kids[i];
		if (k->kind != YD_SCALAR || !k->len || strstr(k->str, "**"))
			continue;
		const char *hit = strstr(s, k->str);
		if (!hit)
			continue;
		buf_t b;
		buf_init(&b);
		for (const char *q = s; *q;) {
			hit = strstr(q, k->str);
			int word = hit && (hit == s || !isalnum((unsigned char)hit[-1])) &&
			           !isalnum((unsigned char)hit[k->len]);
			if (!hit) {
				buf_puts(&b, q);
				break;
			}
			buf_add(&b, q, (size_t)(hit - q));
			if (word)
				buf_printf(&b, "**%s**", k->str);
			else
				buf_add(&b, hit, k->len);
			q = hit + k->len;
		}
		s = arena_strdup(a, b.s ? b.s : "");
		buf_done(&b);
	}
	return s;
}

static void rc_prepass(pctx_t *c, ynode_t *n, int highlights, const ynode_t *kw,
                       int depth)
{
	if (!n || depth > YDOC_MAX_DEPTH)
		return;
	if (n->kind == YD_SCALAR && n->len) {
		n->str = rc_bold(c->a, rc_code(c->a, n->str), kw);
		if (highlights)
			n->str = rc_nested(c->a, n->str);
		n->len = strlen(n->str);
		n->clean = 0;   /* rewritten: pv_string checks it again */
	} else if (n->kind == YD_SEQ) {
		for (int i = 0; i < n->n; i++)
			rc_prepass(c, n->kids[i], highlights, kw, depth + 1);
	} else if (n->kind == YD_MAP) {
		for (int i = 0; i < n->n; i++) {
			const ynode_t *k = n->kids[2 * i];
			int h = k->kind == YD_SCALAR && !strcmp(k->str, "highlights");
			int skip = k->kind == YD_SCALAR && (!strcmp(k->str, "url") ||
			           !strcmp(k->str, "doi") || !strcmp(k->str, "email") ||
			           !strcmp(k->str, "photo") || !strcmp(k->str, "authors"));
			if (!skip)
				rc_prepass(c, n->kids[2 * i + 1], h, kw, depth + 1);
		}
	}
}

/* ---- settings and locale (design: profile_rendercv_design.c) ---- */

static const char *rc_scalar(const ynode_t *map, const char *key)
{
	const ynode_t *n = ydoc_get(map, key);
	return n && n->kind == YD_SCALAR && n->len ? n->str : NULL;
}

/* settings.pdf_title ("NAME - CV") -> the locale's document title
 * pattern, which has only the name. */
static void rc_pdf_title(pctx_t *c, const ynode_t *v)
{
	int bad = 0;
	const char *p = prcv_pattern(c->a, v->str, &bad);
	for (const char *q = strchr(p, '{'); q && !bad; q = strchr(q + 1, '{'))
		bad = strncmp(q, "{name}", 6) != 0;
	if (bad || !p[0])
		warn_at(c->e, c->file, v->line, v->col, "ignored: settings.pdf_title '%.60s' "
		        "(vita's document title has only NAME)", v->str);
	else
		prcv_set(c, "locale.title", p, v);
}

/* settings (2.4+) / rendercv_settings: current_date -> the "updated"
 * date; bold_keywords were applied to the text; the rest is RenderCV's
 * command line. */
static int rc_settings(pctx_t *c, const ynode_t *set)
{
	if (!set || set->kind != YD_MAP)
		return 0;
	const char *cd = rc_scalar(set, "current_date");
	int rc = 0;
	if (cd && strcmp(cd, "today"))
		rc = pv_date(c, set, "current_date", &c->m->updated);
	for (int i = 0; i < set->n; i++) {
		const ynode_t *k = set->kids[2 * i], *v = set->kids[2 * i + 1];
		if (!strcmp(k->str, "current_date") || !strcmp(k->str, "bold_keywords"))
			continue;
		if (!strcmp(k->str, "render_command")) {
			if (v->kind == YD_MAP && v->n)
				warn_at(c->e, c->file, k->line, k->col, "ignored: 'render_command' "
				        "(RenderCV's output files; vita writes one PDF)");
		} else if (!strcmp(k->str, "pdf_title") && v->kind == YD_SCALAR) {
			rc_pdf_title(c, v);
		} else if (v->kind != YD_SCALAR || v->len) {
			warn_at(c->e, c->file, k->line, k->col, "ignored: 'settings.%s' "
			        "(a RenderCV option vita has no equivalent for)", k->str);
		}
	}
	return rc;
}

/* locale.language picks vita's locale (RenderCV writes the language's
 * English name, or an ISO code); its words (months, "present", the date
 * template...) go onto that locale unless --lang chose another one. */
static void rc_locale(pctx_t *c, const ynode_t *loc)
{
	static const char *const names[][2] = {
		{"english", "en"}, {"turkish", "tr"}, {"spanish", "es"}, {"german", "de"},
		{"french", "fr"}, {"portuguese", "pt"}, {"italian", "it"}, {"russian", "ru"},
		{"chinese", "zh"}, {"mandarin_chinese", "zh"}, {"japanese", "ja"},
		{"korean", "ko"}, {"arabic", "ar"}, {"hebrew", "he"}, {"persian", "fa"},
		{"hindi", "hi"}, {"indonesian", "id"}, {"danish", "da"}, {"dutch", "nl"},
		{"norwegian", "no"}, {"swedish", "sv"}, {"polish", "pl"}, {"greek", "el"},
		{"vietnamese", "vi"}};
	if (!loc || loc->kind != YD_MAP || !loc->n)
		return;
	const ynode_t *l = ydoc_get(loc, "language");
	int apply = 1;
	if (l && l->kind == YD_SCALAR && l->len) {
		const char *code = l->str;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcasecmp(l->str, names[i][0]))
				code = names[i][1];
		c->m->text_lang = code;   /* the words of the file are in it */
		if (c->m->lang) {
			apply = !strcasecmp(code, c->m->lang);   /* --lang */
		} else {
			c->m->lang = code;
			c->m->at_lang.line = l->line;
			c->m->at_lang.col = l->col;
		}
	}
	prcv_words(c, loc, "locale", apply);
}

int prcv_load(pctx_t *c, const ynode_t *root)
{
	const ynode_t *cv = ydoc_get(root, "cv");
	int rc = pv_keys(c, root, rc_top, "a RenderCV file");
	c->m->version = 1;
	if (!pv_is_map(c, cv, "'cv'")) {
		pim_sections(c, 0);
		return -1;
	}
	rc_locale(c, ydoc_get(root, "locale"));
	/* before 2.0: the words, in English only */
	prcv_words(c, ydoc_get(root, "locale_catalog"), "locale_catalog", !c->m->lang ||
	           !strncasecmp(c->m->lang, "en", 2));
	const ynode_t *set = ydoc_get(root, "settings");
	if (!set)
		set = ydoc_get(root, "rendercv_settings");
	rc_prepass(c, (ynode_t *)ydoc_get(cv, "sections"), 0, ydoc_get(set, "bold_keywords"), 0);
	rc |= rc_settings(c, set);
	rc |= prcv_design(c, root);
	pim_lenient(c, cv, rc_cv, "'cv'");
	rc |= rc_header(c, cv);
	rc |= rc_sections(c, cv);
	return rc ? -1 : 0;
}
