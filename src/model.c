/* model: the section-type names, the model walker (model_walk) and the
 * stable text form of a model_t built on it (model_dump; see model.h).
 *
 * The dump: one field per line, two spaces of indent per level, positions
 * as @L:C. Absent fields are omitted. Strings are quoted with C escapes;
 * rich text shows its spans inline with markers: [b]..[/b], [i]..[/i],
 * [link URL]..[/link]. Used by `vita render --dump=model` and the golden
 * tests, so change it only on purpose (and regenerate the goldens).
 */
#include <stdio.h>
#include "model.h"

#define SEC_NAME(e, name, shape) [e] = name,
const char *const model_section_names[SEC_NTYPES + 1] = {MODEL_SECTIONS(SEC_NAME) NULL};
#undef SEC_NAME

const char *model_section_name(int t)
{
	return t >= 0 && t < SEC_NTYPES ? model_section_names[t] : model_section_names[0];
}

/* ---- the walker ---- */

typedef struct walk {
	model_visit_fn *fn;
	void *ctx;
	const msection_t *sec;
	int depth;
} walk_t;

static int visit(walk_t *w, mvisit_t *v)
{
	v->depth = w->depth;
	v->sec = w->sec;
	return w->fn(v, w->ctx);
}

static int w_node(walk_t *w, const char *key, const char *word, int line, int col)
{
	mvisit_t v = {.kind = MV_NODE, .key = key, .line = line, .col = col};
	v.u.str = word;
	return visit(w, &v);
}

/* A plain string; at: the dump shows where it is. */
static int w_str(walk_t *w, const char *key, const char *role, const char *s, int line,
                 int col, int at)
{
	if (!s)
		return 0;
	mvisit_t v = {.kind = MV_STR, .key = key, .role = role, .line = line, .col = col, .at = at};
	v.u.str = s;
	return visit(w, &v);
}

static int w_text(walk_t *w, const char *key, const char *role, const mtext_t *t)
{
	if (!t->n)
		return 0;
	mvisit_t v = {.kind = MV_TEXT, .key = key, .role = role, .line = t->line, .col = t->col};
	v.u.text = t;
	return visit(w, &v);
}

static int w_texts(walk_t *w, const char *key, const char *role, const mtext_t *t, int n)
{
	int rc = 0;
	for (int i = 0; i < n && !rc; i++)
		rc = w_text(w, key, role, &t[i]);
	return rc;
}

static int w_strs(walk_t *w, const char *key, const char *role, const char *const *s, int n,
                  int line, int col)
{
	if (!n)
		return 0;
	mvisit_t v = {.kind = MV_STRS, .key = key, .role = role, .line = line, .col = col, .n = n};
	v.u.strs = s;
	return visit(w, &v);
}

static int w_date(walk_t *w, const char *key, const mdate_t *d)
{
	if (d->kind == DATE_NONE)
		return 0;
	mvisit_t v = {.kind = MV_DATE, .key = key, .line = d->line, .col = d->col};
	v.u.date = d;
	return visit(w, &v);
}

static int w_links(walk_t *w, const mlink_t *l, int n)
{
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		mvisit_t v = {.kind = MV_LINK, .key = "link", .role = "a link", .line = l[i].line,
		              .col = l[i].col};
		v.u.link = &l[i];
		rc = visit(w, &v);
	}
	return rc;
}

static int w_num(walk_t *w, const char *key, long num)
{
	mvisit_t v = {.kind = MV_INT, .key = key};
	v.u.num = num;
	return visit(w, &v);
}

static int w_word(walk_t *w, const char *key, const char *word)
{
	mvisit_t v = {.kind = MV_WORD, .key = key};
	v.u.str = word;
	return visit(w, &v);
}

static int w_entry(walk_t *w, const mentry_t *e)
{
	int rc = w_node(w, "entry", NULL, e->line, e->col);
	w->depth++;
	rc = rc || w_text(w, "title", "an entry title", &e->title) ||
	     w_text(w, "org", "an organisation", &e->org) ||
	     w_str(w, "location", "a location", e->location, e->line, e->col, 0) ||
	     w_date(w, "date", &e->date) || w_date(w, "start", &e->start) ||
	     w_date(w, "end", &e->end) || w_text(w, "note", "a note", &e->note) ||
	     w_texts(w, "detail", "a detail", e->details, e->ndetails) ||
	     w_links(w, e->links, e->nlinks) || (e->lang && w_word(w, "lang", e->lang));
	w->depth--;
	return rc;
}

static int w_marks(walk_t *w, const mpub_t *p)
{
	for (int i = 0; p->aflags && i < p->nauthors; i++)
		if (p->aflags[i]) {
			mvisit_t v = {.kind = MV_MARKS, .key = "marks", .line = p->line, .col = p->col};
			v.u.pub = p;
			return visit(w, &v);
		}
	return 0;
}

static int w_pub(walk_t *w, const mpub_t *p)
{
	int l = p->line, c = p->col;
	int rc = w_node(w, "publication", NULL, l, c);
	w->depth++;
	rc = rc || w_text(w, "title", "a publication title", &p->title) ||
	     w_strs(w, "authors", "an author", p->authors, p->nauthors, l, c) ||
	     w_marks(w, p) || (p->etal && w_word(w, "et_al", "yes")) ||
	     w_strs(w, "editors", "an editor", p->editors, p->neditors, l, c) ||
	     w_strs(w, "equal", NULL, p->equal, p->nequal, l, c) ||
	     w_str(w, "venue", "a venue", p->venue, l, c, 0) ||
	     w_str(w, "genre", NULL, p->genre, l, c, 0) ||
	     w_text(w, "venue_full", "a venue", &p->venue_full) ||
	     (p->year && w_num(w, "year", p->year)) ||
	     w_str(w, "status", "a status", p->status, l, c, 0) ||
	     w_str(w, "doi", NULL, p->doi, l, c, 0) || w_links(w, p->links, p->nlinks) ||
	     w_strs(w, "badges", "a badge", p->badges, p->nbadges, l, c) ||
	     w_text(w, "note", "a note", &p->note) ||
	     w_text(w, "summary", "a summary", &p->summary) ||
	     (p->lang && w_word(w, "lang", p->lang));
	w->depth--;
	return rc;
}

/* ---- the content of each section shape (MODEL_SECTIONS) ---- */

static int walk_entries(walk_t *w, const msection_t *s)
{
	int rc = 0;
	for (int i = 0; i < s->nentries && !rc; i++)
		rc = w_entry(w, &s->entries[i]);
	return rc;
}

static int walk_pubs(walk_t *w, const msection_t *s)
{
	static const char *const nums[] = {"reverse", "forward", "none"};
	static const char *const groups[] = {"none", "year", "type"};
	int rc = w_strs(w, "highlight", NULL, s->highlight, s->nhighlight, s->line, s->col) ||
	         w_word(w, "numbering", nums[s->numbering]) ||
	         w_word(w, "group_by", groups[s->group_by]);
	for (int i = 0; i < s->npubs && !rc; i++)
		rc = w_pub(w, &s->pubs[i]);
	return rc;
}

static int walk_news(walk_t *w, const msection_t *s)
{
	int rc = 0;
	for (int i = 0; i < s->nnews && !rc; i++) {
		const mnews_t *n = &s->news[i];
		rc = w_node(w, "news", NULL, n->line, n->col);
		w->depth++;
		rc = rc || w_date(w, "date", &n->date) || w_text(w, "text", "a news item", &n->text);
		w->depth--;
	}
	return rc;
}

static int walk_items(walk_t *w, const msection_t *s)
{
	static const char *const styles[] = {"inline", "bullets", "numbered", "reversed"};
	return w_word(w, "style", styles[s->list_style]) ||
	       w_texts(w, "item", "a list item", s->items, s->nitems);
}

static int walk_text(walk_t *w, const msection_t *s)
{
	return w_text(w, "text", "a text section", &s->text);
}

#define SEC_WALK(e, name, shape) [e] = walk_##shape,
static int (*const sec_walk[SEC_NTYPES])(walk_t *w, const msection_t *s) = {
	MODEL_SECTIONS(SEC_WALK)
};
#undef SEC_WALK

static int w_section(walk_t *w, const msection_t *s)
{
	w->sec = s;
	int rc = w_node(w, "section", model_section_name(s->type), s->line, s->col);
	w->depth++;
	rc = rc || w_str(w, "title", "a section title", s->title, s->line, s->col, 0) ||
	     (s->type >= 0 && s->type < SEC_NTYPES && sec_walk[s->type](w, s));
	w->depth--;
	w->sec = NULL;
	return rc;
}

static int w_header(walk_t *w, const model_t *m)
{
	int rc = w_str(w, "file", NULL, m->file, 0, 0, 0) || w_str(w, "dir", NULL, m->dir, 0, 0, 0) ||
	         w_num(w, "version", m->version) || w_str(w, "lang", NULL, m->lang, 0, 0, 0) ||
	         w_str(w, "name", "the name", m->name, m->at_name.line, m->at_name.col, 0) ||
	         w_str(w, "name_native", "the native name", m->name_native, m->at_native.line,
	               m->at_native.col, 0) ||
	         w_str(w, "headline", "the headline", m->headline, m->at_headline.line,
	               m->at_headline.col, 0) ||
	         w_str(w, "affiliation", "the affiliation", m->affiliation,
	               m->at_affiliation.line, m->at_affiliation.col, 0) ||
	         w_str(w, "location", "the location", m->location, m->at_location.line,
	               m->at_location.col, 0);
	for (int i = 0; i < m->ncontacts && !rc; i++) {
		const mcontact_t *c = &m->contacts[i];
		mvisit_t v = {.kind = MV_CONTACT, .key = "contact", .role = "a contact",
		              .line = c->line, .col = c->col};
		v.u.contact = c;
		rc = visit(w, &v);
	}
	return rc || w_links(w, m->links, m->nlinks) ||
	       w_str(w, "photo", NULL, m->photo, m->photo_line, m->photo_col, 1) ||
	       w_str(w, "photo_alt", NULL, m->photo_alt, 0, 0, 0) ||
	       w_text(w, "summary", "the summary", &m->summary) ||
	       w_date(w, "updated", &m->updated);
}

/* The layout and its overrides (never drawn: no role). */
static int w_layout(walk_t *w, const model_t *m)
{
	if (!m->layout && !m->nlayout_set)
		return 0;
	int rc = w_str(w, "layout", NULL, m->layout ? m->layout : "(default)", m->layout_line,
	               m->layout_col, 1);
	w->depth++;
	for (int i = 0; i < m->nlayout_set && !rc; i++)
		rc = w_str(w, "set", NULL, m->layout_set[i], 0, 0, 0);
	w->depth--;
	return rc;
}

int model_walk(const model_t *m, model_visit_fn *fn, void *ctx)
{
	walk_t w = {fn, ctx, NULL, 0};
	int rc = w_node(&w, "model", NULL, 0, 0);
	w.depth = 1;
	rc = rc || w_header(&w, m) || w_layout(&w, m) || w_num(&w, "sections", m->nsections);
	w.depth = 0;    /* sections stand beside the model node, as in the dump */
	for (int i = 0; i < m->nsections && !rc; i++)
		rc = w_section(&w, &m->sections[i]);
	return rc;
}

/* ---- the dump: a visitor ---- */

static void dump_ind(FILE *f, int ind)
{
	for (int i = 0; i < ind; i++)
		fputs("  ", f);
}

/* s with C escapes, without quotes; a tab is "\t" in strings, "\x09" in
 * rich text (as the goldens have it). */
static void dump_esc(FILE *f, const char *s, int tab)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t' && tab)
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void dump_q(FILE *f, const char *s)
{
	if (!s) {   /* a link whose target was refused (profile_url.c) */
		fputs("null", f);
		return;
	}
	fputc('"', f);
	dump_esc(f, s, 1);
	fputc('"', f);
}

static void dump_spans(FILE *f, const mtext_t *t)
{
	fputc('"', f);
	for (int i = 0; i < t->n; i++) {
		const mspan_t *sp = &t->spans[i];
		if (sp->url)
			fprintf(f, "[link %s]", sp->url);
		if (sp->flags & SPAN_BOLD)
			fputs("[b]", f);
		if (sp->flags & SPAN_ITALIC)
			fputs("[i]", f);
		dump_esc(f, sp->text, 0);
		if (sp->flags & SPAN_ITALIC)
			fputs("[/i]", f);
		if (sp->flags & SPAN_BOLD)
			fputs("[/b]", f);
		if (sp->url)
			fputs("[/link]", f);
	}
	fputc('"', f);
}

static void dump_date(FILE *f, const char *key, const mdate_t *d)
{
	static const char *const kinds[] = {"none", "year", "month", "day", "present", "text"};
	fprintf(f, "%s: %s ", key, kinds[d->kind]);
	if (d->kind == DATE_YEAR)
		fprintf(f, "%04d ", d->y);
	else if (d->kind == DATE_MONTH)
		fprintf(f, "%04d-%02d ", d->y, d->m);
	else if (d->kind == DATE_DAY)
		fprintf(f, "%04d-%02d-%02d ", d->y, d->m, d->d);
	dump_q(f, d->text ? d->text : "");
	fprintf(f, " @%d:%d", d->line, d->col);
}

/* "marks: 1 owner, 3 equal corresponding" (author numbers from 1) */
static void dump_marks(FILE *f, const mpub_t *p)
{
	static const char *const names[] = {"owner", "equal", "corresponding"};
	int any = 0;
	fputs("marks:", f);
	for (int i = 0; p->aflags && i < p->nauthors; i++) {
		if (!p->aflags[i])
			continue;
		fprintf(f, "%s %d", any++ ? "," : "", i + 1);
		for (int b = 0; b < 3; b++)
			if (p->aflags[i] & (1u << b))
				fprintf(f, " %s", names[b]);
	}
}

static int dump_visit(const mvisit_t *v, void *ctx)
{
	FILE *f = ctx;
	dump_ind(f, v->depth);
	switch (v->kind) {
	case MV_NODE:
		fputs(v->key, f);
		if (v->u.str)
			fprintf(f, " %s", v->u.str);
		if (v->line)
			fprintf(f, " @%d:%d", v->line, v->col);
		break;
	case MV_STR:
		fprintf(f, "%s: ", v->key);
		dump_q(f, v->u.str);
		if (v->at)
			fprintf(f, " @%d:%d", v->line, v->col);
		break;
	case MV_TEXT:
		fprintf(f, "%s: ", v->key);
		dump_spans(f, v->u.text);
		fprintf(f, " @%d:%d", v->line, v->col);
		break;
	case MV_STRS:
		fprintf(f, "%s:", v->key);
		for (int i = 0; i < v->n; i++) {
			fputs(i ? ", " : " ", f);
			dump_q(f, v->u.strs[i]);
		}
		break;
	case MV_DATE:
		dump_date(f, v->key, v->u.date);
		break;
	case MV_LINK:
		fputs("link: ", f);
		dump_q(f, v->u.link->label);
		fputs(" -> ", f);
		dump_q(f, v->u.link->url);
		fprintf(f, " @%d:%d", v->line, v->col);
		break;
	case MV_CONTACT:
		fprintf(f, "contact %s: ", v->u.contact->kind);
		dump_q(f, v->u.contact->value);
		if (v->u.contact->url) {
			fputs(" -> ", f);
			dump_q(f, v->u.contact->url);
		}
		fprintf(f, " @%d:%d", v->line, v->col);
		break;
	case MV_INT:
		fprintf(f, "%s: %ld", v->key, v->u.num);
		break;
	case MV_WORD:
		fprintf(f, "%s: %s", v->key, v->u.str);
		break;
	case MV_MARKS:
		dump_marks(f, v->u.pub);
		break;
	}
	fputc('\n', f);
	return 0;
}

void model_dump(const model_t *m, FILE *f)
{
	model_walk(m, dump_visit, f);
}
