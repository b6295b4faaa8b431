/* profile: a native profile (spec/profile.md, version 1) -> model_t.
 *
 *   profile_load(arena, path, &opts, &model, &errs)   reads the file
 *   profile_load_mem(arena, path, data, len, ...)     from memory
 *
 * The loader keeps going after an error, so `vita check` reports every
 * problem at once; it returns -1 if any error was recorded. Items removed
 * by --tags are still validated. Typed getters live in profile_val.c,
 * BibTeX in profile_bib.c, the photo and named files in profile_common.c
 * (which the importers share). The schema, as a grammar ( ? optional,
 * * list, | choice; "text" accepts inline markup, any string or text may
 * be a translation map {LANG: string, ...}):
 *
 *   profile     = { vita? int(1), name string, name_native? string,
 *                   headline? string, affiliation? string, location? string,
 *                   contact? contact, links? link*, photo? path, photo_alt? string,
 *                   summary? text, updated? date, lang? string, layout? layout,
 *                   sections section* }
 *   contact     = { (email|phone|website|orcid|github|scholar|linkedin|
 *                   twitter)? citem }
 *   citem       = string | { value string, tags? tags }
 *   link        = string(url) | { label? string, url string }
 *   layout      = string | { name? string, KEY? (value | {KEY: ...}) }
 *                 (nested keys flatten to "a.b=value"; lists join with ",")
 *   section     = { title string, type TYPE, tags? tags, CONTENT }
 *     TYPE entries|education|experience|awards:  entries entry*
 *     TYPE publications: (entries pub* | bibtex path)+, highlight? string*,
 *                        numbering? none|forward|reverse,
 *                        group_by? none|year|type
 *     TYPE news:         entries news*
 *     TYPE list:         items item*, style? inline|bullets|numbered|reversed
 *     TYPE text:         text text
 *   entry       = { title text, org? text, location? string, date? date,
 *                   start? date, end? date (not before start),
 *                   details? item*, note? text, links? link*, tags? tags }
 *   pub         = { title text, authors? string*, equal? string* (each
 *                   among authors), venue? string, venue_full? text,
 *                   year? int, status? string, doi? string, links? link*,
 *                   badges? string*, note? text, summary? text, tags? tags }
 *   news        = { date date, text text, tags? tags }
 *   item        = text | { value text, tags? tags }
 *   tags        = string | string*
 *   date        = YYYY | YYYY-MM | YYYY-MM-DD | present | other free text
 *
 * A publications section without `highlight` gets one filled in: the name
 * (as chosen by --lang), its other translations, and name_native.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "json.h"
#include "buf.h"
#include "file.h"
#include "profile_import.h"
#include "deps.h"

static const char *const top_keys[] = {
	"vita", "name", "name_native", "headline", "affiliation", "location",
	"contact", "links", "photo", "photo_alt", "summary", "updated", "layout", "sections",
	"lang", NULL};
static const char *const contact_kinds[] = {
	"email", "phone", "website", "orcid", "github", "scholar", "linkedin",
	"twitter", NULL};
/* The keys of each section shape (model.h, MODEL_SECTIONS). */
static const char *const entries_sec_keys[] = {"title", "type", "tags", "entries", NULL};
static const char *const pubs_sec_keys[] = {"title", "type", "tags", "entries", "bibtex",
                                            "highlight", "numbering", "group_by", NULL};
static const char *const news_sec_keys[] = {"title", "type", "tags", "entries", NULL};
static const char *const items_sec_keys[] = {"title", "type", "tags", "items", "style", NULL};
static const char *const text_sec_keys[] = {"title", "type", "tags", "text", NULL};
static const char *const entry_keys[] = {
	"title", "org", "location", "date", "start", "end", "details", "note",
	"links", "lang", "tags", NULL};
static const char *const pub_keys[] = {
	"title", "authors", "equal", "venue", "venue_full", "year", "status",
	"doi", "links", "badges", "note", "summary", "lang", "tags", NULL};
static const char *const news_keys[] = {"date", "text", "tags", NULL};
static const char *const item_keys[] = {"value", "tags", NULL};
static const char *const numbering_names[] = {"reverse", "forward", "none", NULL};
static const char *const group_names[] = {"none", "year", "type", NULL};
/* in model.h's order: LIST_INLINE, LIST_BULLETS, LIST_NUMBERED, LIST_REVERSED */
static const char *const style_names[] = {"inline", "bullets", "numbered", "reversed", NULL};

/* A list item: text, or {value: text, tags: [...]}. 1 = keep it. */
static int item_parse(pctx_t *c, const ynode_t *it, const char *key, mtext_t *out,
                      int *err)
{
	int keep = 1;
	if (it->kind == YD_MAP && (ydoc_get(it, "value") || ydoc_get(it, "tags"))) {
		if (pv_keys(c, it, item_keys, "a tagged item") < 0)
			*err = -1;
		keep = pv_keep(c, it);
		if (pv_text(c, it, "value", 1, out) < 0)
			*err = -1;
		return keep;
	}
	if (pv_text_node(c, it, key, out) < 0)
		*err = -1;
	else if (out->n == 0)
		*err = pv_err(c, it, "empty item in '%s'", key);
	return keep;
}

static int items_parse(pctx_t *c, const ynode_t *map, const char *key,
                       int required, mtext_t **out, int *n)
{
	const ynode_t *l = ydoc_get(map, key);
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (!l || l->kind == YD_NULL)
		return required ? (l ? pv_err(c, l, "'%s' is empty", key) : pv_missing(c, map, key)) : 0;
	if (!pv_is_seq(c, l, key))
		return -1;
	*out = arena_alloc(c->a, (size_t)l->n * sizeof(**out));
	for (int i = 0; i < l->n; i++)
		if (item_parse(c, l->kids[i], key, &(*out)[*n], &rc))
			(*n)++;
	return rc;
}

static int entry_period(pctx_t *c, mentry_t *en)
{
	const mdate_t *s = &en->start, *e = &en->end;
	int sn = s->kind >= DATE_YEAR && s->kind <= DATE_DAY;
	int enm = e->kind >= DATE_YEAR && e->kind <= DATE_DAY;
	if (sn && enm && pv_date_cmp(e, s) < 0)
		return err_at(c->e, c->file, e->line, e->col,
		              "the period ends (%s) before it starts (%s)", e->text,
		              s->text);
	return 0;
}

static int entry_parse(pctx_t *c, const ynode_t *n, mentry_t *en)
{
	int rc = 0;
	memset(en, 0, sizeof(*en));
	en->line = n->line;
	en->col = n->col;
	if (!pv_is_map(c, n, "an entry"))
		return -1;
	rc |= pv_keys(c, n, entry_keys, "an entry");
	rc |= pv_lang(c, n, "lang", &en->lang);
	c->item_lang = en->lang;   /* its texts' */
	rc |= pv_text(c, n, "title", 1, &en->title);
	rc |= pv_text(c, n, "org", 0, &en->org);
	rc |= pv_field(c, n, "location", 0, &en->location);
	rc |= pv_date(c, n, "date", &en->date);
	rc |= pv_date(c, n, "start", &en->start);
	rc |= pv_date(c, n, "end", &en->end);
	rc |= items_parse(c, n, "details", 0, &en->details, &en->ndetails);
	rc |= pv_text(c, n, "note", 0, &en->note);
	rc |= pv_links(c, n, "links", &en->links, &en->nlinks);
	c->item_lang = NULL;
	rc |= entry_period(c, en);
	return rc ? -1 : 0;
}

static int pub_equal_check(pctx_t *c, const ynode_t *n, const mpub_t *p)
{
	int rc = 0;
	for (int i = 0; i < p->nequal; i++) {
		int found = 0;
		for (int j = 0; j < p->nauthors && !found; j++)
			found = !strcmp(p->equal[i], p->authors[j]);
		if (!found)
			rc = pv_err(c, ydoc_get(n, "equal"),
			            "'%s' in 'equal' is not one of the authors", p->equal[i]);
	}
	return rc;
}

static int pub_parse(pctx_t *c, const ynode_t *n, mpub_t *p)
{
	int rc = 0;
	memset(p, 0, sizeof(*p));
	p->line = n->line;
	p->col = n->col;
	if (!pv_is_map(c, n, "a publication"))
		return -1;
	rc |= pv_keys(c, n, pub_keys, "a publication");
	rc |= pv_lang(c, n, "lang", &p->lang);
	c->item_lang = p->lang;   /* its texts' */
	rc |= pv_text(c, n, "title", 1, &p->title);
	rc |= pv_strings(c, n, "authors", &p->authors, &p->nauthors);
	rc |= pv_strings(c, n, "equal", &p->equal, &p->nequal);
	rc |= pv_field(c, n, "venue", 0, &p->venue);
	rc |= pv_text(c, n, "venue_full", 0, &p->venue_full);
	rc |= pv_int(c, n, "year", 1000, 9999, &p->year);
	rc |= pv_field(c, n, "status", 0, &p->status);
	rc |= pv_field(c, n, "doi", 0, &p->doi);
	rc |= pv_links(c, n, "links", &p->links, &p->nlinks);
	rc |= pv_strings(c, n, "badges", &p->badges, &p->nbadges);
	rc |= pv_text(c, n, "note", 0, &p->note);
	rc |= pv_text(c, n, "summary", 0, &p->summary);
	c->item_lang = NULL;
	if (!rc)
		rc |= pub_equal_check(c, n, p);
	return rc ? -1 : 0;
}

static int news_parse(pctx_t *c, const ynode_t *n, mnews_t *nw)
{
	int rc = 0;
	memset(nw, 0, sizeof(*nw));
	nw->line = n->line;
	nw->col = n->col;
	if (!pv_is_map(c, n, "a news item"))
		return -1;
	rc |= pv_keys(c, n, news_keys, "a news item");
	if (!ydoc_get(n, "date"))
		rc |= pv_missing(c, n, "date");
	rc |= pv_date(c, n, "date", &nw->date);
	rc |= pv_text(c, n, "text", 1, &nw->text);
	return rc ? -1 : 0;
}

/* The list under `entries`, parsed by kind into an arena array. */
static int sec_entries(pctx_t *c, const ynode_t *sec, msection_t *s, int required)
{
	const ynode_t *l = ydoc_get(sec, "entries");
	int rc = 0;
	if (!l || l->kind == YD_NULL)
		return required ? (l ? pv_err(c, l, "'entries' is empty") : pv_missing(c, sec, "entries")) : 0;
	if (!pv_is_seq(c, l, s->type == SEC_PUBLICATIONS ? "publications" :
	               s->type == SEC_NEWS ? "news items" : "entries"))
		return -1;
	size_t cnt = (size_t)l->n;
	if (s->type == SEC_PUBLICATIONS)
		s->pubs = arena_alloc(c->a, cnt * sizeof(*s->pubs));
	else if (s->type == SEC_NEWS)
		s->news = arena_alloc(c->a, cnt * sizeof(*s->news));
	else
		s->entries = arena_alloc(c->a, cnt * sizeof(*s->entries));
	for (int i = 0; i < l->n; i++) {
		const ynode_t *it = l->kids[i];
		int keep = it->kind == YD_MAP ? pv_keep(c, it) : 1;
		if (s->type == SEC_PUBLICATIONS) {
			rc |= pub_parse(c, it, &s->pubs[s->npubs]);
			s->npubs += keep;
		} else if (s->type == SEC_NEWS) {
			rc |= news_parse(c, it, &s->news[s->nnews]);
			s->nnews += keep;
		} else {
			rc |= entry_parse(c, it, &s->entries[s->nentries]);
			s->nentries += keep;
		}
	}
	return rc;
}

static int sec_bibtex(pctx_t *c, const ynode_t *sec, msection_t *s)
{
	const ynode_t *n = ydoc_get(sec, "bibtex");
	const char *p;
	mpub_t *v;
	int nv = 0;
	if (pv_string(c, n, "bibtex", &p) < 0 || !p)
		return n && n->kind != YD_NULL ? -1 : 0;
	const char *file;
	if (profile_file(c, n, p, "BibTeX file", &file) < 0 ||
	    pbib_load(c, n, file, &v, &nv) < 0)
		return -1;
	mpub_t *all = arena_alloc(c->a, (size_t)(s->npubs + nv) * sizeof(*all));
	if (s->npubs)
		memcpy(all, s->pubs, (size_t)s->npubs * sizeof(*all));
	if (nv)
		memcpy(all + s->npubs, v, (size_t)nv * sizeof(*all));
	s->pubs = all;
	s->npubs += nv;
	return 0;
}

static void highlight_add(msection_t *s, const char *name)
{
	if (!name || !*name)
		return;
	for (int i = 0; i < s->nhighlight; i++)
		if (!strcmp(s->highlight[i], name))
			return;
	s->highlight[s->nhighlight++] = name;
}

/* The name as chosen by --lang, its other translations, then name_native,
 * so authors written in either script are found. */
static void highlight_default(pctx_t *c, msection_t *s)
{
	const ynode_t *n = ydoc_get(c->root, "name");
	int max = 2 + (n && n->kind == YD_MAP ? n->n : 0);
	s->highlight = arena_alloc(c->a, (size_t)max * sizeof(*s->highlight));
	highlight_add(s, c->m->name);
	for (int i = 0; n && n->kind == YD_MAP && i < n->n; i++)
		if (n->kids[2 * i + 1]->kind == YD_SCALAR)
			highlight_add(s, n->kids[2 * i + 1]->str);
	highlight_add(s, c->m->name_native);
}

static int sec_parse_pubs(pctx_t *c, const ynode_t *sec, msection_t *s)
{
	int rc = 0;
	int has = ydoc_get(sec, "entries") || ydoc_get(sec, "bibtex");
	rc |= sec_entries(c, sec, s, 0);
	rc |= sec_bibtex(c, sec, s);
	if (!has)
		rc |= pv_err(c, sec, "missing required key 'entries' (or 'bibtex')");
	rc |= pv_strings(c, sec, "highlight", &s->highlight, &s->nhighlight);
	rc |= pv_enum(c, sec, "numbering", numbering_names, &s->numbering);
	rc |= pv_enum(c, sec, "group_by", group_names, &s->group_by);
	if (s->nhighlight == 0)
		highlight_default(c, s);
	return rc;
}

/* ---- the content of each section shape (model.h, MODEL_SECTIONS) ---- */

static int sec_parse_entries(pctx_t *c, const ynode_t *n, msection_t *s)
{
	return sec_entries(c, n, s, 1);
}

static int sec_parse_news(pctx_t *c, const ynode_t *n, msection_t *s)
{
	return sec_entries(c, n, s, 1);
}

static int sec_parse_items(pctx_t *c, const ynode_t *n, msection_t *s)
{
	int rc = items_parse(c, n, "items", 1, &s->items, &s->nitems);
	return rc | pv_enum(c, n, "style", style_names, &s->list_style);
}

static int sec_parse_text(pctx_t *c, const ynode_t *n, msection_t *s)
{
	return pv_text(c, n, "text", 1, &s->text);
}

/* Each section type: its allowed keys and its content's parser. */
typedef struct sec_kind {
	const char *const *keys;
	int (*parse)(pctx_t *c, const ynode_t *n, msection_t *s);
} sec_kind_t;

#define SEC_KIND(e, name, shape) [e] = {shape##_sec_keys, sec_parse_##shape},
static const sec_kind_t sec_kinds[SEC_NTYPES] = {MODEL_SECTIONS(SEC_KIND)};
#undef SEC_KIND

/* "entries, education, ..., text" */
static const char *sec_type_list(pctx_t *c)
{
	buf_t b;
	buf_init(&b);
	for (int i = 0; i < SEC_NTYPES; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", model_section_names[i]);
	const char *r = arena_strdup(c->a, b.s);
	buf_done(&b);
	return r;
}

static int sec_type(pctx_t *c, const ynode_t *n, int *type)
{
	const ynode_t *t = ydoc_get(n, "type");
	const char *s;
	if (!t && pv_misspelt(n, "type"))
		return -1;
	if (!t)
		return pv_err(c, n, "missing required key 'type' (one of: %s)", sec_type_list(c));
	if (pv_string(c, t, "type", &s) < 0)
		return -1;
	for (int i = 0; s && i < SEC_NTYPES; i++)
		if (!strcmp(s, model_section_names[i])) {
			*type = i;
			return 0;
		}
	const char *sug = s ? pv_suggest(s, model_section_names) : NULL;
	if (sug)
		return pv_err(c, t, "unknown section type '%.60s'; did you mean '%s'?", s, sug);
	return pv_err(c, t, "unknown section type '%.60s' (expected one of: %s)", s ? s : "",
	              sec_type_list(c));
}

/* The keys any section type allows, in order of first appearance (for a
 * section whose type is wrong). */
static void sec_any_keys(const char **out, int max)
{
	int n = 0;
	for (int t = 0; t < SEC_NTYPES; t++)
		for (const char *const *k = sec_kinds[t].keys; *k; k++) {
			int dup = 0;
			for (int i = 0; i < n; i++)
				dup |= !strcmp(out[i], *k);
			if (!dup && n < max - 1)
				out[n++] = *k;
		}
	out[n] = NULL;
}

static int section_parse(pctx_t *c, const ynode_t *n, msection_t *s)
{
	int rc = 0;
	char what[64];
	memset(s, 0, sizeof(*s));
	s->line = n->line;
	s->col = n->col;
	if (!pv_is_map(c, n, "a section"))
		return -1;
	rc |= pv_field(c, n, "title", 1, &s->title);
	s->title_lang = c->picked;
	if (sec_type(c, n, &s->type) < 0) {
		const char *any[32];
		sec_any_keys(any, 32);
		pv_keys(c, n, any, "a section");
		return -1;
	}
	snprintf(what, sizeof(what), "a section of type '%s'", model_section_names[s->type]);
	rc |= pv_keys(c, n, sec_kinds[s->type].keys, what);
	rc |= sec_kinds[s->type].parse(c, n, s);
	return rc ? -1 : 0;
}

static int sections_parse(pctx_t *c, const ynode_t *root)
{
	const ynode_t *l = ydoc_get(root, "sections");
	model_t *m = c->m;
	int rc = 0;
	if (!l)
		return pv_missing(c, root, "sections");
	if (l->kind != YD_SEQ)
		return pv_err(c, l, "expected a list of sections, got %s",
		              ydoc_kind_name(l->kind));
	m->sections = arena_alloc(c->a, (size_t)l->n * sizeof(*m->sections));
	for (int i = 0; i < l->n; i++) {
		const ynode_t *it = l->kids[i];
		int keep = it->kind == YD_MAP ? pv_keep(c, it) : 1;
		rc |= section_parse(c, it, &m->sections[m->nsections]);
		m->nsections += keep;
	}
	return rc;
}

/* ---- header: contact, layout, photo ---- */

static int contact_item(pctx_t *c, const ynode_t *v, const char *kind,
                        mcontact_t *ct)
{
	const char *s;
	int keep = 1, rc = 0;
	memset(ct, 0, sizeof(*ct));
	ct->kind = kind;
	ct->line = v->line;
	ct->col = v->col;
	if (v->kind == YD_MAP && (ydoc_get(v, "value") || ydoc_get(v, "tags"))) {
		rc |= pv_keys(c, v, item_keys, "a contact item");
		keep = pv_keep(c, v);
		rc |= pv_field(c, v, "value", 1, &s);
	} else {
		rc |= pv_string(c, v, kind, &s);
		if (!rc && (!s || !*s))
			rc = pv_err(c, v, "'%s' is empty", kind);
	}
	if (rc)
		return -1;
	ct->value = s;
	ct->url = profile_contact_url(c->a, kind, s);
	return keep;
}

static int contact_parse(pctx_t *c, const ynode_t *root)
{
	const ynode_t *n = ydoc_get(root, "contact");
	model_t *m = c->m;
	int rc = 0;
	if (!n || n->kind == YD_NULL)
		return 0;
	if (!pv_is_map(c, n, "'contact'"))
		return -1;
	rc |= pv_keys(c, n, contact_kinds, "'contact'");
	m->contacts = arena_alloc(c->a, 8 * sizeof(*m->contacts));
	for (int i = 0; contact_kinds[i]; i++) {
		const ynode_t *v = ydoc_get(n, contact_kinds[i]);
		if (!v)
			continue;
		int k = contact_item(c, v, contact_kinds[i], &m->contacts[m->ncontacts]);
		if (k < 0)
			rc = -1;
		else
			m->ncontacts += k;
	}
	return rc;
}

static int layout_value(pctx_t *c, const ynode_t *v, buf_t *b)
{
	if (v->kind == YD_SCALAR) {
		buf_puts(b, v->str);
		return 0;
	}
	if (v->kind == YD_SEQ) {
		for (int i = 0; i < v->n; i++) {
			if (v->kids[i]->kind != YD_SCALAR)
				return pv_err(c, v->kids[i], "expected a value in a layout "
				              "list, got %s", ydoc_kind_name(v->kids[i]->kind));
			buf_printf(b, "%s%s", i ? "," : "", v->kids[i]->str);
		}
		return 0;
	}
	return pv_err(c, v, "expected a value for a layout setting, got %s",
	              ydoc_kind_name(v->kind));
}

/* Flatten {page: {size: letter}} into "page.size=letter". */
static int layout_flatten(pctx_t *c, const ynode_t *map, const char *prefix,
                          const char ***out, mpos_t **at, int *n, int *cap)
{
	int rc = 0;
	for (int i = 0; i < map->n; i++) {
		const ynode_t *k = map->kids[2 * i], *v = map->kids[2 * i + 1];
		if (k->kind != YD_SCALAR || (!prefix && !strcmp(k->str, "name")))
			continue;
		char *key = prefix ? arena_printf(c->a, "%s.%s", prefix, k->str)
		                   : arena_strdup(c->a, k->str);
		if (v->kind == YD_MAP) {
			rc |= layout_flatten(c, v, key, out, at, n, cap);
			continue;
		}
		buf_t b;
		buf_init(&b);
		buf_printf(&b, "%s=", key);
		if (layout_value(c, v, &b) < 0) {
			rc = -1;
		} else if (c->o && c->o->untrusted && !strncmp(key, "fonts.", 6) &&
		           (strchr(b.s, '/') || strstr(b.s, ".yaml"))) {
			rc = pv_err(c, v, "'%s' names a file: with --untrusted, fonts are "
			            "named (a chain such as serif, or font families)", key);
		} else {
			if (*n == *cap) {
				int nc = *cap ? *cap * 2 : 8;
				*out = arena_grow(c->a, (void *)*out, (size_t)*cap * sizeof(**out),
				                  (size_t)nc * sizeof(**out));
				*at = arena_grow(c->a, *at, (size_t)*cap * sizeof(**at),
				                 (size_t)nc * sizeof(**at));
				*cap = nc;
			}
			(*at)[*n].line = v->line;
			(*at)[*n].col = v->col;
			(*out)[(*n)++] = arena_strdup(c->a, b.s);
		}
		buf_done(&b);
	}
	return rc;
}

static int layout_parse(pctx_t *c, const ynode_t *root)
{
	const ynode_t *n = ydoc_get(root, "layout");
	model_t *m = c->m;
	int cap = 0;
	if (!n || n->kind == YD_NULL)
		return 0;
	m->layout_line = n->line;
	m->layout_col = n->col;
	if (n->kind == YD_SCALAR)
		return pv_string(c, n, "layout", &m->layout);
	if (n->kind != YD_MAP)
		return pv_err(c, n, "expected a layout name or a map {name: ..., "
		              "overrides...} for 'layout', got %s", ydoc_kind_name(n->kind));
	int rc = pv_field(c, n, "name", 0, &m->layout);
	rc |= layout_flatten(c, n, NULL, &m->layout_set, &m->layout_set_at, &m->nlayout_set, &cap);
	return rc;
}

static int photo_parse(pctx_t *c, const ynode_t *root)
{
	const ynode_t *n = ydoc_get(root, "photo");
	const char *p;
	if (pv_string(c, n, "photo", &p) < 0)
		return -1;
	return p ? profile_photo(c, n, p) : 0;
}

static int version_parse(pctx_t *c, const ynode_t *root)
{
	c->m->version = 1;
	if (pv_int(c, root, "vita", 0, 999999, &c->m->version) < 0)
		return -1;
	if (c->m->version != 1)
		return pv_err(c, ydoc_get(root, "vita"), "unsupported profile version "
		              "%d (this vita reads version 1)", c->m->version);
	return 0;
}

/* The profile's `lang: zh`: the language its translations are picked in
 * and its locale, unless --lang says otherwise. main checks that a
 * locale exists for it (at_lang locates the message). */
static int lang_parse(pctx_t *c, const ynode_t *root)
{
	const ynode_t *n = ydoc_get(root, "lang");
	if (!n)
		return 0;
	if (n->kind != YD_SCALAR || !n->len || n->len > 35)
		return pv_err(c, n, "'lang' expects a language code such as en, zh or de");
	c->m->lang = n->str;
	c->m->at_lang.line = n->line;
	c->m->at_lang.col = n->col;
	return 0;
}

/* With name: {en: Zhanda Zhu, zh: 朱展达}, name_native: 朱展达 and --lang zh
 * the name is already in its native script: print it once. */
static void native_once(model_t *m)
{
	if (m->name && m->name_native && !strcmp(m->name, m->name_native)) {
		m->name_native = NULL;
		m->at_native.line = m->at_native.col = 0;
	}
}

static int header_parse(pctx_t *c, const ynode_t *root)
{
	model_t *m = c->m;
	int rc = 0;
	rc |= pv_keys(c, root, top_keys, "the profile");
	rc |= version_parse(c, root);
	rc |= pv_field(c, root, "name", 1, &m->name);
	rc |= pv_field(c, root, "name_native", 0, &m->name_native);
	rc |= pv_field(c, root, "headline", 0, &m->headline);
	rc |= pv_field(c, root, "affiliation", 0, &m->affiliation);
	rc |= pv_field(c, root, "location", 0, &m->location);
	rc |= pv_field(c, root, "photo_alt", 0, &m->photo_alt);
	static const char *const pos_keys[] = {"name", "name_native", "headline", "affiliation",
	                                        "location"};
	mpos_t *pos[] = {&m->at_name, &m->at_native, &m->at_headline, &m->at_affiliation,
	                 &m->at_location};
	for (int i = 0; i < 5; i++) {
		const ynode_t *n = ydoc_get(root, pos_keys[i]);
		if (n) {
			pos[i]->line = n->line;
			pos[i]->col = n->col;
		}
	}
	rc |= contact_parse(c, root);
	rc |= pv_links(c, root, "links", &m->links, &m->nlinks);
	rc |= photo_parse(c, root);
	rc |= pv_text(c, root, "summary", 0, &m->summary);
	rc |= pv_date(c, root, "updated", &m->updated);
	rc |= layout_parse(c, root);
	native_once(m);
	return rc;
}

/* A file most of whose top-level keys are neither profile keys nor
 * misspellings of one is some other file (a .env, /etc/shadow read as
 * YAML): one error that quotes none of it. See docs/security.md. */
static int looks_like_profile(const ynode_t *root)
{
	int known = 0;
	for (int i = 0; i < root->n; i++) {
		const ynode_t *k = root->kids[2 * i];
		known += k->kind == YD_SCALAR && pv_suggest(k->str, top_keys) != NULL;
	}
	return known * 2 >= root->n;
}

static const char *dir_of(arena_t *a, const char *path)
{
	const char *s = strrchr(path, '/');
	if (!s)
		return ".";
	if (s == path)
		return "/";
	return arena_strndup(a, path, (size_t)(s - path));
}

/* Errors come out per concern (keys, then values); show them in file order.
 * Stable insertion sort over this load's errors only. */
static void errs_sort(errs_t *e, int from)
{
	for (int i = from + 1; i < e->n; i++) {
		err_t x = e->v[i];
		int j = i;
		while (j > from && !strcmp(e->v[j - 1].file, x.file) &&
		       (e->v[j - 1].line > x.line ||
		        (e->v[j - 1].line == x.line && e->v[j - 1].col > x.col))) {
			e->v[j] = e->v[j - 1];
			j--;
		}
		e->v[j] = x;
	}
}

int profile_load_mem(arena_t *a, const char *path, const char *data, size_t len,
                     const profile_opts_t *o, model_t **out, errs_t *e)
{
	ynode_t *root;
	pctx_t c = {a, e, path, o, NULL, NULL, NULL, 0, NULL, NULL};
	int before = e->nerrors, first = e->n;
	*out = NULL;
	if (len > PROFILE_MAX_FILE)
		return err_at(e, path, 0, 0, "profile is too large (%zu bytes; at most %d)",
		              len, PROFILE_MAX_FILE);
	size_t pl = strlen(path);
	int json = pl > 5 && !strcasecmp(path + pl - 5, ".json");
	if ((json ? json_parse : ydoc_parse)(a, path, data, len, &root, e) < 0)
		return -1;
	if (root->kind == YD_NULL)
		return err_at(e, path, 1, 1, "empty profile (expected a map with at "
		              "least name: and sections:)");
	if (root->kind != YD_MAP && !pal_is(root))
		return pv_err(&c, root, "expected a profile (a map with keys such as "
		              "name: and sections:), got %s", ydoc_kind_name(root->kind));
	c.root = root;
	c.m = arena_alloc(a, sizeof(model_t));
	c.m->file = arena_strdup(a, path);
	c.m->dir = dir_of(a, path);
	c.m->lang = o && o->lang ? arena_strdup(a, o->lang) : NULL;
	if (!c.m->lang && lang_parse(&c, root))
		return -1;
	/* the language the plain strings are written in: the profile's own */
	const ynode_t *ln = root->kind == YD_MAP ? ydoc_get(root, "lang") : NULL;
	c.m->text_lang = ln && ln->kind == YD_SCALAR && ln->len && ln->len <= 35 ? ln->str : NULL;
	c.lang = c.m->lang;
	if (root->kind == YD_SEQ) {              /* al-folio's _data/cv.yml */
		pal_load(&c, root);
	} else if (ydoc_get(root, "basics")) {   /* JSON Resume */
		pjr_load(&c, root);
	} else if (ydoc_get(root, "cv")) {       /* RenderCV */
		prcv_load(&c, root);
	} else if (!looks_like_profile(root)) {
		pv_err(&c, root, "this is not a vita profile: most of its %d top-level keys "
		       "are not profile keys (not listed, so that no other kind of file "
		       "is shown in messages)", root->n);
	} else {
		header_parse(&c, root);
		sections_parse(&c, root);
	}
	if (e->nerrors == before && pm_limits(&c) == 0) {
		pnames_mark(&c);
		pu_model(&c);
	}
	errs_sort(e, first);
	if (e->nerrors > before)
		return -1;
	*out = c.m;
	return 0;
}

int profile_load(arena_t *a, const char *path, const profile_opts_t *o,
                 model_t **out, errs_t *e)
{
	buf_t b;
	buf_init(&b);
	*out = NULL;
	const char *why;
	if (file_read(&b, path, PROFILE_MAX_FILE, &why) < 0) {
		int r = err_at(e, path, 0, 0, "cannot read the profile: %s", why);
		buf_done(&b);
		return r;
	}
	deps_add(path);
	int rc = profile_load_mem(a, path, b.s ? b.s : "", b.len, o, out, e);
	buf_done(&b);
	return rc;
}

const profile_keyset_t *profile_keysets(void)
{
	static const profile_keyset_t sets[] = {
		{"profile", top_keys},
		{"contact", contact_kinds},
		{"contact item", item_keys},
		{"link", pv_link_keys},
		{"section types", model_section_names},
#define SEC_KEYSET(e, name, shape) {"section." name, shape##_sec_keys},
		MODEL_SECTIONS(SEC_KEYSET)
#undef SEC_KEYSET
		{"entry", entry_keys},
		{"publication", pub_keys},
		{"news", news_keys},
		{"item", item_keys},
		{"numbering", numbering_names},
		{"group_by", group_names},
		{"list style", style_names},
		{NULL, NULL}};
	return sets;
}
