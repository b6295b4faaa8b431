/* profile_jsonresume: a JSON Resume document (jsonresume.org schema 1.0)
 * -> model_t. Called by profile_load_mem when the root map has `basics`;
 * the document was already parsed by ydoc (JSON is YAML).
 *
 *   basics        name -> name, label -> headline, email/phone/url ->
 *                 contact, summary, location {city, region, countryCode}
 *                 -> "city, region, countryCode", profiles: GitHub,
 *                 LinkedIn, Twitter/X, ORCID, Google Scholar -> contact,
 *                 others -> header links; image (a local path) -> photo
 *   work, volunteer   experience: position / name (organization), dates,
 *                 summary + highlights as details, url as a link; a
 *                 period with no endDate is ongoing ("present")
 *   education     "studyType in area" / institution, score as the note,
 *                 courses as one detail
 *   awards, certificates   awards: title / awarder (issuer), date
 *   publications  name, publisher -> venue_full, year of releaseDate
 *   projects, references   entries
 *   skills, interests, languages   lists
 * Sections come in the order of the document's keys. The schema allows
 * extra keys, so unknown ones are ignored (a near-miss of a known key gets
 * a warning); a wrong type is a located error. Text fields accept vita's
 * inline markup (**bold**, *italic*, [label](url)).
 */
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "buf.h"
#include "profile_import.h"

static const char *const jr_top[] = {
	"$schema", "basics", "work", "volunteer", "education", "awards",
	"certificates", "publications", "skills", "languages", "interests",
	"references", "projects", "meta", "presentations", "teaching", "portfolio",
	NULL};
static const char *const jr_basics_keys[] = {
	"name", "label", "image", "email", "phone", "url", "summary", "location",
	"profiles", "website", "picture", NULL};
static const char *const jr_location[] = {
	"address", "postalCode", "city", "countryCode", "region", NULL};
static const char *const jr_profile[] = {"network", "username", "url", NULL};
static const char *const jr_work[] = {
	"name", "company", "position", "url", "startDate", "endDate", "summary",
	"highlights", "location", "description", "website", NULL};
static const char *const jr_volunteer[] = {
	"organization", "position", "url", "startDate", "endDate", "summary",
	"highlights", "website", "location", NULL};
static const char *const jr_edu[] = {
	"institution", "url", "area", "studyType", "startDate", "endDate",
	"score", "courses", "gpa", "location", "highlights", NULL};
static const char *const jr_award[] = {"title", "date", "awarder", "summary", "url", NULL};
static const char *const jr_cert[] = {"name", "date", "issuer", "url", NULL};
static const char *const jr_pub[] = {
	"name", "publisher", "releaseDate", "url", "summary", "website", NULL};
static const char *const jr_skill[] = {"name", "level", "keywords", NULL};
static const char *const jr_lang[] = {"language", "fluency", NULL};
static const char *const jr_interest[] = {"name", "keywords", NULL};
static const char *const jr_ref[] = {"name", "reference", NULL};
static const char *const jr_project[] = {
	"name", "description", "highlights", "keywords", "startDate", "endDate",
	"url", "roles", "entity", "type", "summary", NULL};

/* ---- entries ---- */

static int jr_dates(pctx_t *c, const ynode_t *n, mentry_t *en, int ongoing)
{
	int rc = pim_date(c, n, "startDate", &en->start);
	rc |= pim_date(c, n, "endDate", &en->end);
	if (!rc && ongoing && en->start.kind >= DATE_YEAR &&
	    en->start.kind <= DATE_DAY && en->end.kind == DATE_NONE) {
		en->end.kind = DATE_PRESENT;
		en->end.text = "present";
		en->end.line = en->start.line;
		en->end.col = en->start.col;
	}
	return rc | pim_period(c, en);
}

static int jr_url(pctx_t *c, const ynode_t *n, const char *key, mentry_t *en)
{
	const char *u;
	if (pim_str(c, n, key, &u) < 0)
		return -1;
	if (u) {
		en->links = pim_link(c, u, ydoc_get(n, key));
		en->nlinks = 1;
	}
	return 0;
}

/* title, else org as the title; neither: the first key is missing. */
static int jr_title(pctx_t *c, const ynode_t *n, const char *tkey,
                    const char *okey, const char *what, mentry_t *en)
{
	int rc = pim_text(c, n, tkey, &en->title);
	rc |= okey ? pim_text(c, n, okey, &en->org) : 0;
	if (rc)
		return -1;
	if (!en->title.n && en->org.n) {
		en->title = en->org;
		memset(&en->org, 0, sizeof(en->org));
	}
	if (!en->title.n)
		return pim_missing(c, n, tkey, what);
	return 0;
}

static int jr_details(pctx_t *c, const ynode_t *n, const char *lead,
                      mentry_t *en)
{
	mtext_t t;
	if (pim_text(c, n, lead, &t) < 0)
		return -1;
	return pim_items(c, n, "highlights", &t, 1, &en->details, &en->ndetails);
}

static int jr_work_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = 0;
	const char *org = ydoc_get(n, "name") ? "name" : "company";
	pim_lenient(c, n, jr_work, "a work item");
	rc |= jr_title(c, n, "position", org, "a work item", en);
	rc |= pim_str(c, n, "location", &en->location);
	rc |= jr_dates(c, n, en, 1);
	mtext_t lead[2];
	rc |= pim_text(c, n, "description", &lead[0]);   /* what the company is */
	rc |= pim_text(c, n, "summary", &lead[1]);
	rc |= pim_items(c, n, "highlights", lead, 2, &en->details, &en->ndetails);
	rc |= jr_url(c, n, ydoc_get(n, "url") ? "url" : "website", en);
	return rc;
}

static int jr_volunteer_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = 0;
	pim_lenient(c, n, jr_volunteer, "a volunteer item");
	rc |= jr_title(c, n, "position", "organization", "a volunteer item", en);
	rc |= pim_str(c, n, "location", &en->location);
	rc |= jr_dates(c, n, en, 1);
	rc |= jr_details(c, n, "summary", en);
	rc |= jr_url(c, n, ydoc_get(n, "url") ? "url" : "website", en);
	return rc;
}

static const char *jr_join(pctx_t *c, const char **v, int n, const char *sep)
{
	buf_t b;
	buf_init(&b);
	for (int i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? sep : "", v[i]);
	const char *s = arena_strdup(c->a, b.s ? b.s : "");
	buf_done(&b);
	return s;
}

static int jr_courses(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	const char **v;
	int nv;
	if (pim_strings(c, n, "courses", &v, &nv) < 0)
		return -1;
	if (!nv)
		return 0;
	mtext_t *d = arena_alloc(c->a, (size_t)(en->ndetails + 1) * sizeof(*d));
	if (en->ndetails)
		memcpy(d, en->details, (size_t)en->ndetails * sizeof(*d));
	const char *s = arena_printf(c->a, "Courses: %s", jr_join(c, v, nv, ", "));
	pim_plain(c->a, s, ydoc_get(n, "courses"), &d[en->ndetails++]);
	en->details = d;
	return 0;
}

static int jr_edu_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	const char *type, *area;
	int rc = 0;
	pim_lenient(c, n, jr_edu, "an education item");
	rc |= pim_str(c, n, "studyType", &type);
	rc |= pim_str(c, n, "area", &area);
	rc |= pim_text(c, n, "institution", &en->org);
	rc |= pim_text(c, n, ydoc_get(n, "score") ? "score" : "gpa", &en->note);
	rc |= pim_str(c, n, "location", &en->location);
	rc |= pim_items(c, n, "highlights", NULL, 0, &en->details, &en->ndetails);
	rc |= jr_dates(c, n, en, 0);
	rc |= jr_url(c, n, "url", en);
	rc |= jr_courses(c, n, en);
	const ynode_t *at = ydoc_get(n, type ? "studyType" : "area");
	if (type && area)
		pim_plain(c->a, arena_printf(c->a, "%s in %s", type, area), at, &en->title);
	else if (type || area)
		pim_plain(c->a, type ? type : area, at, &en->title);
	else if (en->org.n) {
		en->title = en->org;
		memset(&en->org, 0, sizeof(en->org));
	} else if (!rc)
		return pim_missing(c, n, "institution", "an education item");
	return rc;
}

static int jr_award_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = 0;
	pim_lenient(c, n, jr_award, "an award");
	rc |= jr_title(c, n, "title", NULL, "an award", en);
	rc |= pim_text(c, n, "awarder", &en->org);
	rc |= pim_date(c, n, "date", &en->date);
	rc |= jr_details(c, n, "summary", en);
	rc |= jr_url(c, n, "url", en);
	return rc;
}

static int jr_cert_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = 0;
	pim_lenient(c, n, jr_cert, "a certificate");
	rc |= jr_title(c, n, "name", NULL, "a certificate", en);
	rc |= pim_text(c, n, "issuer", &en->org);
	rc |= pim_date(c, n, "date", &en->date);
	rc |= jr_url(c, n, "url", en);
	return rc;
}

static int jr_ref_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = 0;
	pim_lenient(c, n, jr_ref, "a reference");
	rc |= jr_title(c, n, "name", NULL, "a reference", en);
	mtext_t t;
	rc |= pim_text(c, n, "reference", &t);
	if (t.n) {
		en->details = arena_alloc(c->a, sizeof(*en->details));
		en->details[0] = t;
		en->ndetails = 1;
	}
	return rc;
}

static int jr_project_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	const char **roles;
	int nroles, rc = 0;
	pim_lenient(c, n, jr_project, "a project");
	rc |= jr_title(c, n, "name", "entity", "a project", en);
	rc |= jr_dates(c, n, en, 0);
	rc |= jr_details(c, n, ydoc_get(n, "description") ? "description" : "summary", en);
	rc |= jr_url(c, n, "url", en);
	rc |= pim_strings(c, n, "roles", &roles, &nroles);
	if (nroles)
		pim_plain(c->a, jr_join(c, roles, nroles, ", "), ydoc_get(n, "roles"),
		          &en->note);
	/* keywords: a last detail line, "containers, HPC" */
	const char **kws;
	int nkw;
	rc |= pim_strings(c, n, "keywords", &kws, &nkw);
	if (nkw) {
		mtext_t *d = arena_alloc(c->a, (size_t)(en->ndetails + 1) * sizeof(*d));
		if (en->ndetails)
			memcpy(d, en->details, (size_t)en->ndetails * sizeof(*d));
		pim_plain(c->a, jr_join(c, kws, nkw, ", "), ydoc_get(n, "keywords"),
		          &d[en->ndetails]);
		en->details = d;
		en->ndetails++;
	}
	const ynode_t *ty = ydoc_get(n, "type");
	if (ty && ty->kind == YD_SCALAR && ty->len)
		warn_at(c->e, c->file, ty->line, ty->col, "ignored: a project's type "
		        "'%.40s' (vita has no place for it)", ty->str);
	return rc;
}

/* academicpages' cv.json adds these to the schema */
static int jr_talk_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	static const char *const keys[] = {"name", "event", "date", "location",
		"description", "url", NULL};
	int rc = 0;
	pim_lenient(c, n, keys, "a presentation");
	rc |= jr_title(c, n, "name", "event", "a presentation", en);
	rc |= pim_str(c, n, "location", &en->location);
	rc |= pim_date(c, n, "date", &en->date);
	rc |= jr_details(c, n, "description", en);
	rc |= jr_url(c, n, "url", en);
	return rc;
}

static int jr_teaching_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	static const char *const keys[] = {"course", "institution", "date", "role",
		"description", "url", NULL};
	int rc = 0;
	pim_lenient(c, n, keys, "a teaching item");
	rc |= jr_title(c, n, "course", "institution", "a teaching item", en);
	rc |= pim_text(c, n, "role", &en->note);
	rc |= pim_date(c, n, "date", &en->date);
	rc |= jr_details(c, n, "description", en);
	rc |= jr_url(c, n, "url", en);
	return rc;
}

static int jr_portfolio_item(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	static const char *const keys[] = {"name", "category", "date", "url",
		"description", NULL};
	int rc = 0;
	pim_lenient(c, n, keys, "a portfolio item");
	rc |= jr_title(c, n, "name", NULL, "a portfolio item", en);
	rc |= pim_date(c, n, "date", &en->date);
	rc |= jr_details(c, n, "description", en);
	const char *u;
	rc |= pim_str(c, n, "url", &u);
	if (u && strstr(u, "://"))
		rc |= jr_url(c, n, "url", en);
	else if (u)
		warn_at(c->e, c->file, ydoc_get(n, "url")->line, ydoc_get(n, "url")->col,
		        "ignored: url '%.60s' is a page of the site, not a web address", u);
	return rc;
}

/* ---- publications and lists ---- */

static int jr_pub_item(pctx_t *c, const ynode_t *n, mpub_t *p)
{
	mdate_t d;
	int rc = 0;
	pim_lenient(c, n, jr_pub, "a publication");
	rc |= pim_text(c, n, "name", &p->title);
	if (!rc && !p->title.n)
		rc = pim_missing(c, n, "name", "a publication");
	rc |= pim_text(c, n, "publisher", &p->venue_full);
	rc |= pim_text(c, n, "summary", &p->summary);
	rc |= pim_date(c, n, "releaseDate", &d);
	if (d.kind >= DATE_YEAR && d.kind <= DATE_DAY && d.y >= 1000)
		p->year = d.y;
	const char *u, *uk = ydoc_get(n, "url") ? "url" : "website";
	rc |= pim_str(c, n, uk, &u);
	if (u) {
		p->links = pim_link(c, u, ydoc_get(n, uk));
		p->nlinks = 1;
	}
	return rc;
}

/* "**name** (level): k1, k2" with each part optional; the name is bold
 * when keywords follow it (skills, interests), plain for languages. */
static int jr_named_item(pctx_t *c, const ynode_t *n, const char *nkey,
                         const char *lkey, int kw, mtext_t *out)
{
	const char *name, *level = NULL, **kws = NULL;
	int nkw = 0, rc = pim_str(c, n, nkey, &name);
	if (lkey)
		rc |= pim_str(c, n, lkey, &level);
	if (kw)
		rc |= pim_strings(c, n, "keywords", &kws, &nkw);
	if (rc)
		return -1;
	buf_t b;
	buf_init(&b);
	if (name)
		buf_printf(&b, kw ? "**%s**" : "%s", pim_escape(c->a, name));
	if (level)
		buf_printf(&b, "%s(%s)", b.len ? " " : "", pim_escape(c->a, level));
	if (nkw)
		buf_printf(&b, "%s%s", b.len ? ": " : "",
		           pim_escape(c->a, jr_join(c, kws, nkw, ", ")));
	memset(out, 0, sizeof(*out));
	if (b.len)
		pv_markup(c->a, b.s, out);
	out->line = n->line;
	out->col = n->col;
	buf_done(&b);
	return 0;
}

static int jr_skill_item(pctx_t *c, const ynode_t *n, mtext_t *out)
{
	pim_lenient(c, n, jr_skill, "a skill");
	return jr_named_item(c, n, "name", "level", 1, out);
}

static int jr_lang_item(pctx_t *c, const ynode_t *n, mtext_t *out)
{
	pim_lenient(c, n, jr_lang, "a language");
	return jr_named_item(c, n, "language", "fluency", 0, out);
}

static int jr_interest_item(pctx_t *c, const ynode_t *n, mtext_t *out)
{
	pim_lenient(c, n, jr_interest, "an interest");
	return jr_named_item(c, n, "name", NULL, 1, out);
}

/* ---- sections ---- */

typedef struct jr_sec {
	const char *key, *title, *items, *item;   /* item: "a work item" */
	int type, style;
	int (*entry)(pctx_t *, const ynode_t *, mentry_t *);
	int (*text)(pctx_t *, const ynode_t *, mtext_t *);
} jr_sec_t;

static const jr_sec_t jr_secs[] = {
	{"work", "Experience", "work items", "a work item", SEC_EXPERIENCE, 0, jr_work_item, NULL},
	{"volunteer", "Volunteering", "volunteer items", "a volunteer item", SEC_EXPERIENCE, 0, jr_volunteer_item, NULL},
	{"education", "Education", "education items", "an education item", SEC_EDUCATION, 0, jr_edu_item, NULL},
	{"awards", "Awards", "awards", "an award", SEC_AWARDS, 0, jr_award_item, NULL},
	{"certificates", "Certificates", "certificates", "a certificate", SEC_AWARDS, 0, jr_cert_item, NULL},
	{"publications", "Publications", "publications", "a publication", SEC_PUBLICATIONS, 0, NULL, NULL},
	{"skills", "Skills", "skills", "a skill", SEC_LIST, LIST_BULLETS, NULL, jr_skill_item},
	{"languages", "Languages", "languages", "a language", SEC_LIST, LIST_INLINE, NULL, jr_lang_item},
	{"interests", "Interests", "interests", "an interest", SEC_LIST, LIST_BULLETS, NULL, jr_interest_item},
	{"references", "References", "references", "a reference", SEC_ENTRIES, 0, jr_ref_item, NULL},
	{"projects", "Projects", "projects", "a project", SEC_ENTRIES, 0, jr_project_item, NULL},
	{"presentations", "Presentations", "presentations", "a presentation", SEC_ENTRIES, 0, jr_talk_item, NULL},
	{"teaching", "Teaching", "teaching items", "a teaching item", SEC_ENTRIES, 0, jr_teaching_item, NULL},
	{"portfolio", "Portfolio", "portfolio items", "a portfolio item", SEC_ENTRIES, 0, jr_portfolio_item, NULL},
};

static int jr_item(pctx_t *c, const jr_sec_t *d, const ynode_t *it,
                   msection_t *s)
{
	int rc;
	if (!pv_is_map(c, it, d->item))
		return -1;
	if (d->type == SEC_PUBLICATIONS) {
		mpub_t *p = &s->pubs[s->npubs];
		p->line = it->line;
		p->col = it->col;
		if ((rc = jr_pub_item(c, it, p)) == 0)
			s->npubs++;
	} else if (d->type == SEC_LIST) {
		if ((rc = d->text(c, it, &s->items[s->nitems])) == 0 &&
		    s->items[s->nitems].n)
			s->nitems++;
	} else {
		mentry_t *en = &s->entries[s->nentries];
		en->line = it->line;
		en->col = it->col;
		if ((rc = d->entry(c, it, en)) == 0)
			s->nentries++;
	}
	return rc;
}

static int jr_section(pctx_t *c, const jr_sec_t *d, const ynode_t *l)
{
	int rc = 0;
	if (l->kind == YD_NULL)
		return 0;
	if (l->kind != YD_SEQ)
		return pv_err(c, l, "expected a list of %s for '%s', got %s", d->items,
		              d->key, ydoc_kind_name(l->kind));
	if (!l->n)
		return 0;
	msection_t *s = pim_section(c, l, d->type, d->title);
	size_t n = (size_t)l->n;
	if (d->type == SEC_PUBLICATIONS)
		s->pubs = arena_alloc(c->a, n * sizeof(*s->pubs));
	else if (d->type == SEC_LIST)
		s->items = arena_alloc(c->a, n * sizeof(*s->items));
	else
		s->entries = arena_alloc(c->a, n * sizeof(*s->entries));
	s->list_style = d->style;
	for (int i = 0; i < l->n; i++)
		rc |= jr_item(c, d, l->kids[i], s);
	if (!s->nentries && !s->npubs && !s->nitems)
		c->m->nsections--;   /* every item was empty */
	return rc;
}

/* ---- basics ---- */

static const char *jr_kind(const char *network)
{
	static const char *const map[][2] = {
		{"github", "github"}, {"linkedin", "linkedin"}, {"twitter", "twitter"},
		{"x", "twitter"}, {"orcid", "orcid"}, {"google scholar", "scholar"},
		{"googlescholar", "scholar"}, {"scholar", "scholar"}};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcasecmp(network, map[i][0]))
			return map[i][1];
	return NULL;
}

static int jr_profile_item(pctx_t *c, const ynode_t *n)
{
	const char *net, *user, *url;
	int rc = 0;
	if (!pv_is_map(c, n, "a profile"))
		return -1;
	pim_lenient(c, n, jr_profile, "a profile");
	rc |= pim_str(c, n, "network", &net);
	rc |= pim_str(c, n, "username", &user);
	rc |= pim_str(c, n, "url", &url);
	if (rc)
		return -1;
	const char *kind = net ? jr_kind(net) : NULL;
	if (kind && (user || url))
		pim_contact(c, kind, user ? user : url, url, n);
	else if (url)
		pim_links_add(c, net ? net : user, url, n);
	else
		warn_at(c->e, c->file, n->line, n->col, "a profile without a 'url' "
		        "is ignored");
	return 0;
}

static int jr_location_parse(pctx_t *c, const ynode_t *b)
{
	const ynode_t *n = ydoc_get(b, "location");
	static const char *const parts[] = {"city", "region", "countryCode"};
	const char *v;
	int rc = 0;
	if (!n || n->kind == YD_NULL)
		return 0;
	if (!pv_is_map(c, n, "'location'"))
		return -1;
	pim_lenient(c, n, jr_location, "'location'");
	buf_t s;
	buf_init(&s);
	for (int i = 0; i < 3; i++) {
		rc |= pim_str(c, n, parts[i], &v);
		if (v)
			buf_printf(&s, "%s%s", s.len ? ", " : "", v);
	}
	rc |= pim_str(c, n, "address", &v);
	if (v) {   /* the street first: "2712 Broadway St, San Francisco, ..." */
		char *all = arena_printf(c->a, "%s%s%s", v, s.len ? ", " : "", s.s ? s.s : "");
		buf_reset(&s);
		buf_puts(&s, all);
	}
	if (s.len)
		c->m->location = arena_strdup(c->a, s.s);
	buf_done(&s);
	return rc;
}

static int jr_image(pctx_t *c, const ynode_t *b)
{
	const char *p;
	if (pim_str(c, b, "image", &p) < 0)
		return -1;
	if (!p || strstr(p, "://") || !strncmp(p, "data:", 5))
		return 0;   /* a web image: nothing to embed offline */
	return profile_photo(c, ydoc_get(b, "image"), p);
}

static int jr_contacts(pctx_t *c, const ynode_t *b)
{
	static const char *const keys[][2] = {
		{"email", "email"}, {"phone", "phone"}, {"url", "website"},
		{"website", "website"}};   /* website: the schema before 1.0 */
	const ynode_t *l;
	const char *v;
	int rc = 0;
	for (int i = 0; i < 4; i++) {
		if (pim_str(c, b, keys[i][0], &v) < 0)
			rc = -1;
		else if (v)
			pim_contact(c, keys[i][1], v, NULL, ydoc_get(b, keys[i][0]));
	}
	int has = pim_seq(c, b, "profiles", "profiles", &l);
	for (int i = 0; has > 0 && i < l->n; i++)
		rc |= jr_profile_item(c, l->kids[i]);
	return rc | (has < 0 ? -1 : 0);
}

static int jr_basics(pctx_t *c, const ynode_t *b)
{
	model_t *m = c->m;
	int rc = 0;
	if (!pv_is_map(c, b, "'basics'"))
		return -1;
	pim_lenient(c, b, jr_basics_keys, "'basics'");
	rc |= pim_str(c, b, "name", &m->name);
	if (!rc && !m->name)
		rc = pim_missing(c, b, "name", "'basics'");
	rc |= pim_str(c, b, "label", &m->headline);
	rc |= pim_text(c, b, "summary", &m->summary);
	rc |= jr_location_parse(c, b);
	rc |= jr_contacts(c, b);
	rc |= jr_image(c, b);
	return rc;
}

int pjr_load(pctx_t *c, const ynode_t *root)
{
	int rc = 0;
	const int nsecs = (int)(sizeof(jr_secs) / sizeof(jr_secs[0]));
	c->m->version = 1;
	pim_lenient(c, root, jr_top, "a JSON Resume document");
	rc |= jr_basics(c, ydoc_get(root, "basics"));
	pim_sections(c, nsecs);
	for (int i = 0; i < root->n; i++) {
		const ynode_t *k = root->kids[2 * i], *v = root->kids[2 * i + 1];
		int known = 0;
		for (int j = 0; k->kind == YD_SCALAR && j < nsecs; j++)
			if (!strcmp(k->str, jr_secs[j].key)) {
				rc |= jr_section(c, &jr_secs[j], v);
				known = 1;
			}
		for (int j = 0; !known && k->kind == YD_SCALAR && jr_top[j]; j++)
			known = !strcmp(k->str, jr_top[j]);
		/* what the schema does not have (academicpages' presentations,
		   teaching, portfolio...): said, not dropped in silence */
		if (!known && k->kind == YD_SCALAR && !pv_suggest(k->str, jr_top) &&
		    ((v->kind == YD_SEQ && v->n) || (v->kind == YD_MAP && v->n) ||
		     (v->kind == YD_SCALAR && v->len)))
			warn_at(c->e, c->file, k->line, k->col, "ignored: '%.60s' is not "
			        "a JSON Resume section", k->str);
	}
	return rc ? -1 : 0;
}
