/* profile_import: helpers shared by the JSON Resume and RenderCV importers
 * (see profile_import.h). They sit on top of the native loader's typed
 * getters (profile_val.c) and differ from them in two ways that the
 * foreign formats need: strings are strict (no {en: .., zh: ..}
 * translation maps) and an empty string means "absent", since exported
 * JSON Resume documents are full of "" placeholders.
 */
#include <string.h>
#include "buf.h"
#include "profile_import.h"

static const char *const contact_order[] = {
	"email", "phone", "website", "orcid", "github", "scholar", "linkedin",
	"twitter", NULL};

static int pim_strict(pctx_t *c, const ynode_t *n, const char *key)
{
	if (n && (n->kind == YD_MAP || n->kind == YD_SEQ))
		return pv_err(c, n, "expected a string for '%s', got %s", key,
		              ydoc_kind_name(n->kind));
	return 0;
}

int pim_str(pctx_t *c, const ynode_t *map, const char *key, const char **out)
{
	const ynode_t *n = ydoc_get(map, key);
	*out = NULL;
	if (pim_strict(c, n, key) < 0 || pv_string(c, n, key, out) < 0)
		return -1;
	if (*out && !**out)
		*out = NULL;
	return 0;
}

int pim_text(pctx_t *c, const ynode_t *map, const char *key, mtext_t *out)
{
	const ynode_t *n = ydoc_get(map, key);
	memset(out, 0, sizeof(*out));
	if (pim_strict(c, n, key) < 0)
		return -1;
	return pv_text_node(c, n, key, out);
}

int pim_date(pctx_t *c, const ynode_t *map, const char *key, mdate_t *out)
{
	const ynode_t *n = ydoc_get(map, key);
	memset(out, 0, sizeof(*out));
	if (pim_strict(c, n, key) < 0)
		return -1;
	if (n && n->kind == YD_SCALAR && n->len == 0)
		return 0;
	return pv_date(c, map, key, out);
}

int pim_missing(pctx_t *c, const ynode_t *map, const char *key,
                const char *what)
{
	const char *one[] = {key, NULL};
	for (int i = 0; i < map->n; i++) {
		const ynode_t *k = map->kids[2 * i];
		if (k->kind == YD_SCALAR && pv_suggest(k->str, one))
			return pv_err(c, map, "missing required key '%s' in %s (is "
			              "'%.60s' a misspelling?)", key, what, k->str);
	}
	return pv_err(c, map, "missing required key '%s' in %s", key, what);
}

int pim_seq(pctx_t *c, const ynode_t *map, const char *key, const char *what,
            const ynode_t **l)
{
	*l = ydoc_get(map, key);
	if (!*l || (*l)->kind == YD_NULL)
		return 0;
	if ((*l)->kind != YD_SEQ)
		return pv_err(c, *l, "expected a list of %s for '%s', got %s", what,
		              key, ydoc_kind_name((*l)->kind));
	return 1;
}

int pim_strings(pctx_t *c, const ynode_t *map, const char *key,
                const char ***out, int *n)
{
	const ynode_t *l;
	int rc = 0, has = pim_seq(c, map, key, "strings", &l);
	*out = NULL;
	*n = 0;
	if (has <= 0)
		return has;
	*out = arena_alloc(c->a, (size_t)l->n * sizeof(**out));
	for (int i = 0; i < l->n; i++) {
		const char *s;
		if (pim_strict(c, l->kids[i], key) < 0 ||
		    pv_string(c, l->kids[i], key, &s) < 0)
			rc = -1;
		else if (s && *s)
			(*out)[(*n)++] = s;
	}
	return rc;
}

void pim_lenient(pctx_t *c, const ynode_t *map, const char *const *known,
                 const char *what)
{
	for (int i = 0; map && map->kind == YD_MAP && i < map->n; i++) {
		const ynode_t *k = map->kids[2 * i];
		const char *s;
		int found = 0;
		if (k->kind != YD_SCALAR)
			continue;
		for (int j = 0; known[j] && !found; j++)
			found = !strcmp(k->str, known[j]);
		const ynode_t *v = map->kids[2 * i + 1];
		if (!found && (s = pv_suggest(k->str, known)))
			warn_at(c->e, c->file, k->line, k->col, "key '%.100s' in %s is "
			        "ignored; did you mean '%s'?", k->str, what, s);
		else if (!found && v->kind != YD_NULL && !(v->kind == YD_SCALAR && !v->len) &&
		         !((v->kind == YD_SEQ || v->kind == YD_MAP) && !v->n))
			warn_at(c->e, c->file, k->line, k->col, "ignored: key '%.100s' in %s "
			        "(vita has no place for it)", k->str, what);
	}
}

int pim_items(pctx_t *c, const ynode_t *map, const char *key,
              const mtext_t *lead, int nlead, mtext_t **out, int *n)
{
	const ynode_t *l;
	int rc = 0, has = pim_seq(c, map, key, "strings", &l);
	*out = NULL;
	*n = 0;
	if (has < 0)
		return -1;
	size_t max = (size_t)nlead + (has ? (size_t)l->n : 0);
	if (!max)
		return 0;
	*out = arena_alloc(c->a, max * sizeof(**out));
	for (int i = 0; i < nlead; i++)
		if (lead[i].n)
			(*out)[(*n)++] = lead[i];
	for (int i = 0; has && i < l->n; i++) {
		const ynode_t *it = l->kids[i];
		mtext_t *t = &(*out)[*n];
		if (pim_strict(c, it, key) < 0 || pv_text_node(c, it, key, t) < 0)
			rc = -1;
		else if (t->n)
			(*n)++;
	}
	return rc;
}

char *pim_escape(arena_t *a, const char *s)
{
	buf_t b;
	buf_init(&b);
	for (; *s; s++) {
		if (*s == '*' || *s == '[' || *s == ']' || *s == '\\')
			buf_putc(&b, '\\');
		buf_putc(&b, *s);
	}
	char *r = arena_strdup(a, b.s ? b.s : "");
	buf_done(&b);
	return r;
}

void pim_plain(arena_t *a, const char *s, const ynode_t *at, mtext_t *out)
{
	memset(out, 0, sizeof(*out));
	pv_markup(a, pim_escape(a, s), out);
	out->line = at->line;
	out->col = at->col;
}

mlink_t *pim_link(pctx_t *c, const char *url, const ynode_t *at)
{
	mlink_t *lk = arena_alloc(c->a, sizeof(*lk));
	lk->label = url;
	lk->url = url;
	lk->line = at->line;
	lk->col = at->col;
	return lk;
}

int pim_period(pctx_t *c, const mentry_t *en)
{
	const mdate_t *s = &en->start, *e = &en->end;
	if (s->kind >= DATE_YEAR && s->kind <= DATE_DAY && e->kind >= DATE_YEAR &&
	    e->kind <= DATE_DAY && pv_date_cmp(e, s) < 0)
		return err_at(c->e, c->file, e->line, e->col, "the period ends (%s) "
		              "before it starts (%s)", e->text, s->text);
	return 0;
}

void pim_sections(pctx_t *c, int max)
{
	c->m->sections = arena_alloc(c->a, (size_t)(max > 0 ? max : 1) *
	                             sizeof(*c->m->sections));
	c->m->nsections = 0;
}

msection_t *pim_section(pctx_t *c, const ynode_t *at, int type,
                        const char *title)
{
	msection_t *s = &c->m->sections[c->m->nsections++];
	memset(s, 0, sizeof(*s));
	s->type = type;
	s->title = title;
	s->line = at->line;
	s->col = at->col;
	if (type == SEC_PUBLICATIONS) {
		s->highlight = arena_alloc(c->a, sizeof(*s->highlight));
		if (c->m->name)
			s->highlight[s->nhighlight++] = c->m->name;
	}
	return s;
}

void pim_contact(pctx_t *c, const char *kind, const char *value,
                 const char *url, const ynode_t *at)
{
	model_t *m = c->m;
	int rank = 0, pos;
	while (contact_order[rank] && strcmp(contact_order[rank], kind))
		rank++;
	if (!m->contacts)
		m->contacts = arena_alloc(c->a, 8 * sizeof(*m->contacts));
	for (pos = 0; pos < m->ncontacts; pos++) {
		if (!strcmp(m->contacts[pos].kind, kind))
			return;   /* the first one of a kind wins */
		int r = 0;
		while (contact_order[r] && strcmp(contact_order[r], m->contacts[pos].kind))
			r++;
		if (r > rank)
			break;
	}
	memmove(&m->contacts[pos + 1], &m->contacts[pos],
	        (size_t)(m->ncontacts - pos) * sizeof(*m->contacts));
	mcontact_t *ct = &m->contacts[pos];
	ct->kind = contact_order[rank];
	ct->value = value;
	ct->url = url ? url : profile_contact_url(c->a, kind, value);
	ct->line = at->line;
	ct->col = at->col;
	m->ncontacts++;
}

void pim_links_add(pctx_t *c, const char *label, const char *url,
                   const ynode_t *at)
{
	model_t *m = c->m;
	int n = m->nlinks;
	if ((n & (n - 1)) == 0) {   /* 0, 1, 2, 4...: full, double it */
		size_t cap = n ? (size_t)n * 2 : 2;
		m->links = arena_grow(c->a, m->links, (size_t)n * sizeof(*m->links),
		                      cap * sizeof(*m->links));
	}
	mlink_t *lk = &m->links[m->nlinks++];
	lk->label = label && *label ? label : url;
	lk->url = url;
	lk->line = at->line;
	lk->col = at->col;
}
