/* profile_alfolio: al-folio's `_data/cv.yml` (a Jekyll site's CV page) ->
 * model_t. Called by profile_load_mem when the root is a list of maps
 * with `title` and `contents` (pal_is).
 *
 *   - title: T
 *     type: map | time_table | list | nested_list
 *     contents: ...
 *
 *   map          [{name, value}]: "**name:** value" items; the value of
 *                "Full Name" (or "Name") is also the CV's name
 *   time_table   [{title, institution, year, description, items}]:
 *                entries (title, institution as the org, year as the
 *                date, description lines and nested {title, contents} as
 *                details); an item with no title but `items` gives one
 *                entry per item, all with its year
 *   list         [string]: bullets
 *   nested_list  [{title, items}]: entries with the items as details
 * The HTML al-folio allows in values becomes markup: <a href="u">t</a> ->
 * [t](u), <b>/<strong> bold, <i>/<em> italic, other tags are dropped. A
 * key or type vita does not know is a located "ignored" warning.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "buf.h"
#include "profile_import.h"

int pal_is(const ynode_t *root)
{
	if (root->kind != YD_SEQ || !root->n)
		return 0;
	const ynode_t *f = root->kids[0];
	return f->kind == YD_MAP && ydoc_get(f, "title") && ydoc_get(f, "contents");
}

/* al-folio's HTML -> vita markup (plain text escaped). */
static const char *pal_html(arena_t *a, const char *s)
{
	buf_t b;
	buf_init(&b);
	const char *href = NULL;
	size_t hlen = 0;
	for (const char *p = s; *p;) {
		if (*p == '<') {
			const char *e = strchr(p, '>');
			if (!e) {
				buf_puts(&b, "<");
				p++;
				continue;
			}
			size_t n = (size_t)(e - p + 1);
			const char *h;
			if (!strncasecmp(p, "<a ", 3) && (h = strstr(p, "href=\"")) && h < e) {
				href = h + 6;
				const char *q = strchr(href, '"');
				hlen = q && q < e ? (size_t)(q - href) : 0;
				buf_putc(&b, '[');
			} else if (!strncasecmp(p, "</a>", 4) && href) {
				buf_printf(&b, "](%.*s)", (int)hlen, href);
				href = NULL;
			} else if (!strncasecmp(p, "<b>", 3) || !strncasecmp(p, "</b>", 4) ||
			           !strncasecmp(p, "<strong>", 8) || !strncasecmp(p, "</strong>", 9)) {
				buf_puts(&b, "**");
			} else if (!strncasecmp(p, "<i>", 3) || !strncasecmp(p, "</i>", 4) ||
			           !strncasecmp(p, "<em>", 4) || !strncasecmp(p, "</em>", 5)) {
				buf_puts(&b, "*");
			} else if (!strncasecmp(p, "<br", 3)) {
				buf_putc(&b, ' ');
			}
			p += n;
			continue;
		}
		if (*p == '*' || *p == '[' || *p == ']' || *p == '\\')
			buf_putc(&b, '\\');
		buf_putc(&b, *p++);
	}
	if (href)
		buf_printf(&b, "](%.*s)", (int)hlen, href);
	const char *r = arena_strdup(a, b.s ? b.s : "");
	buf_done(&b);
	return r;
}

static void pal_text(pctx_t *c, const ynode_t *n, mtext_t *out)
{
	memset(out, 0, sizeof(*out));
	pv_markup(c->a, pal_html(c->a, n->str), out);
	out->line = n->line;
	out->col = n->col;
}

static const char *pal_str(const ynode_t *map, const char *key)
{
	const ynode_t *n = ydoc_get(map, key);
	return n && n->kind == YD_SCALAR && n->len ? n->str : NULL;
}

static void pal_ignored(pctx_t *c, const ynode_t *map, const char *const *known,
                        const char *what)
{
	for (int i = 0; map->kind == YD_MAP && i < map->n; i++) {
		const ynode_t *k = map->kids[2 * i], *v = map->kids[2 * i + 1];
		int found = 0;
		for (int j = 0; known[j] && !found; j++)
			found = k->kind == YD_SCALAR && !strcmp(k->str, known[j]);
		if (!found && v->kind != YD_NULL)
			warn_at(c->e, c->file, k->line, k->col, "ignored: '%.60s' in %s",
			        k->kind == YD_SCALAR ? k->str : "?", what);
	}
}

/* description: a string, or a list of strings and {title, contents}. */
static void pal_details(pctx_t *c, const ynode_t *d, mentry_t *en)
{
	if (!d || d->kind == YD_NULL)
		return;
	int max = d->kind == YD_SEQ ? d->n : 1;
	/* appended: description, then items, may both be there */
	mtext_t *v = arena_alloc(c->a, (size_t)(en->ndetails + max + 1) * sizeof(*v));
	if (en->ndetails)
		memcpy(v, en->details, (size_t)en->ndetails * sizeof(*v));
	en->details = v;
	for (int i = 0; i < max; i++) {
		const ynode_t *it = d->kind == YD_SEQ ? d->kids[i] : d;
		mtext_t *t = &en->details[en->ndetails];
		if (it->kind == YD_SCALAR && it->len) {
			pal_text(c, it, t);
			en->ndetails += t->n > 0;
		} else if (it->kind == YD_MAP) {
			/* {title, contents: [...]}: the title, its contents below it */
			buf_t b;
			buf_init(&b);
			const char *ti = pal_str(it, "title");
			if (ti)
				buf_puts(&b, pal_html(c->a, ti));
			const ynode_t *cs = ydoc_get(it, "contents");
			for (int j = 0; cs && cs->kind == YD_SEQ && j < cs->n; j++)
				if (cs->kids[j]->kind == YD_SCALAR)
					buf_printf(&b, "%s\u25e6 %s", b.len ? "\n" : "",
					           pal_html(c->a, cs->kids[j]->str));
			if (b.len) {
				memset(t, 0, sizeof(*t));
				pv_markup(c->a, b.s, t);
				t->line = it->line;
				t->col = it->col;
				en->ndetails += t->n > 0;
			}
			buf_done(&b);
		}
	}
}

static void pal_date(const ynode_t *it, mentry_t *en)
{
	const ynode_t *y = ydoc_get(it, "year");
	const char *why;
	if (!y || y->kind != YD_SCALAR || !y->len)
		return;
	if (pv_date_str(y->str, &en->date, &why) < 0) {
		memset(&en->date, 0, sizeof(en->date));
		en->date.kind = DATE_TEXT;     /* "1933 - 1955", "2015-now" */
	}
	en->date.text = y->str;
	en->date.line = y->line;
	en->date.col = y->col;
}

static const char *const tt_keys[] = {"title", "institution", "year", "description",
	"items", "location", NULL};

static void pal_time_table(pctx_t *c, const ynode_t *l, msection_t *s)
{
	int max = 0;
	for (int i = 0; i < l->n; i++) {
		const ynode_t *its = ydoc_get(l->kids[i], "items");
		max += 1 + (its && its->kind == YD_SEQ ? its->n : 0);
	}
	s->entries = arena_alloc(c->a, (size_t)(max ? max : 1) * sizeof(*s->entries));
	for (int i = 0; i < l->n; i++) {
		const ynode_t *it = l->kids[i];
		if (it->kind != YD_MAP)
			continue;
		pal_ignored(c, it, tt_keys, "a time_table item");
		const ynode_t *ti = ydoc_get(it, "title"), *its = ydoc_get(it, "items");
		if (ti && ti->kind == YD_SCALAR && ti->len) {
			mentry_t *en = &s->entries[s->nentries++];
			memset(en, 0, sizeof(*en));
			en->line = it->line;
			en->col = it->col;
			pal_text(c, ti, &en->title);
			const ynode_t *in = ydoc_get(it, "institution");
			if (in && in->kind == YD_SCALAR && in->len)
				pal_text(c, in, &en->org);
			en->location = pal_str(it, "location");
			pal_date(it, en);
			pal_details(c, ydoc_get(it, "description"), en);
			if (its)
				pal_details(c, its, en);
			continue;
		}
		/* {year, items}: one entry per item */
		for (int j = 0; its && its->kind == YD_SEQ && j < its->n; j++) {
			if (its->kids[j]->kind != YD_SCALAR || !its->kids[j]->len)
				continue;
			mentry_t *en = &s->entries[s->nentries++];
			memset(en, 0, sizeof(*en));
			en->line = its->kids[j]->line;
			en->col = its->kids[j]->col;
			pal_text(c, its->kids[j], &en->title);
			pal_date(it, en);
		}
	}
}

static void pal_map(pctx_t *c, const ynode_t *l, msection_t *s)
{
	static const char *const keys[] = {"name", "value", NULL};
	s->items = arena_alloc(c->a, (size_t)(l->n ? l->n : 1) * sizeof(*s->items));
	for (int i = 0; i < l->n; i++) {
		const ynode_t *it = l->kids[i];
		if (it->kind != YD_MAP)
			continue;
		pal_ignored(c, it, keys, "a map item");
		const char *nm = pal_str(it, "name"), *v = pal_str(it, "value");
		if (!v)
			continue;
		if (nm && !c->m->name && (!strcasecmp(nm, "Full Name") || !strcasecmp(nm, "Name")))
			c->m->name = v;
		mtext_t *t = &s->items[s->nitems];
		memset(t, 0, sizeof(*t));
		pv_markup(c->a, nm ? arena_printf(c->a, "**%s:** %s", pal_html(c->a, nm),
		                                  pal_html(c->a, v)) : pal_html(c->a, v), t);
		t->line = it->line;
		t->col = it->col;
		s->nitems += t->n > 0;
	}
}

static void pal_list(pctx_t *c, const ynode_t *l, msection_t *s)
{
	s->items = arena_alloc(c->a, (size_t)(l->n ? l->n : 1) * sizeof(*s->items));
	for (int i = 0; i < l->n; i++)
		if (l->kids[i]->kind == YD_SCALAR && l->kids[i]->len) {
			pal_text(c, l->kids[i], &s->items[s->nitems]);
			s->nitems += s->items[s->nitems].n > 0;
		}
}

static void pal_nested(pctx_t *c, const ynode_t *l, msection_t *s)
{
	static const char *const keys[] = {"title", "items", NULL};
	s->entries = arena_alloc(c->a, (size_t)(l->n ? l->n : 1) * sizeof(*s->entries));
	for (int i = 0; i < l->n; i++) {
		const ynode_t *it = l->kids[i], *ti = ydoc_get(it, "title");
		if (it->kind != YD_MAP || !ti || ti->kind != YD_SCALAR || !ti->len)
			continue;
		pal_ignored(c, it, keys, "a nested_list item");
		mentry_t *en = &s->entries[s->nentries++];
		memset(en, 0, sizeof(*en));
		en->line = it->line;
		en->col = it->col;
		pal_text(c, ti, &en->title);
		pal_details(c, ydoc_get(it, "items"), en);
	}
}

int pal_load(pctx_t *c, const ynode_t *root)
{
	static const char *const sec_keys[] = {"title", "type", "contents", NULL};
	c->m->version = 1;
	pim_sections(c, root->n);
	for (int i = 0; i < root->n; i++) {
		const ynode_t *sec = root->kids[i];
		if (!pv_is_map(c, sec, "a CV section ({title, type, contents})"))
			continue;
		pal_ignored(c, sec, sec_keys, "a CV section");
		const char *title = pal_str(sec, "title"), *type = pal_str(sec, "type");
		const ynode_t *l = ydoc_get(sec, "contents");
		if (!title || !l)
			continue;
		if (l->kind != YD_SEQ) {
			warn_at(c->e, c->file, l->line, l->col, "ignored: the contents of "
			        "'%.60s' (expected a list)", title);
			continue;
		}
		int map = type && !strcmp(type, "map"), list = type && !strcmp(type, "list");
		int nested = type && !strcmp(type, "nested_list");
		int tt = !type || !strcmp(type, "time_table");
		if (!map && !list && !nested && !tt) {
			const ynode_t *tn = ydoc_get(sec, "type");
			warn_at(c->e, c->file, tn->line, tn->col, "ignored: section '%.60s' of "
			        "type '%.40s' (vita reads map, time_table, list, nested_list)",
			        title, type);
			continue;
		}
		msection_t *s = pim_section(c, sec, map || list ? SEC_LIST : SEC_ENTRIES,
		                            pal_html(c->a, title));
		s->list_style = LIST_BULLETS;
		if (map)
			pal_map(c, l, s);
		else if (list)
			pal_list(c, l, s);
		else if (nested)
			pal_nested(c, l, s);
		else
			pal_time_table(c, l, s);
		if (!s->nentries && !s->nitems)
			c->m->nsections--;
	}
	if (!c->m->name)
		return err_at(c->e, c->file, root->line, root->col, "no name in this al-folio "
		              "CV (vita takes it from a 'Full Name' item of a map section)");
	return 0;
}
