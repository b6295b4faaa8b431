/* model: model_dump, the stable text form of a model_t (see model.h).
 *
 * One field per line, two spaces of indent per level, positions as @L:C.
 * Absent fields are omitted. Strings are quoted with C escapes; rich text
 * shows its spans inline with markers: [b]..[/b], [i]..[/i],
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

static void dump_ind(FILE *f, int ind)
{
	for (int i = 0; i < ind; i++)
		fputs("  ", f);
}

static void dump_q(FILE *f, const char *s)
{
	if (!s) {   /* a link whose target was refused (profile_url.c) */
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void dump_str(FILE *f, int ind, const char *key, const char *s)
{
	if (!s)
		return;
	dump_ind(f, ind);
	fprintf(f, "%s: ", key);
	dump_q(f, s);
	fputc('\n', f);
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
		/* the text without its quotes */
		for (const char *s = sp->text; *s; s++) {
			unsigned char c = (unsigned char)*s;
			if (c == '"' || c == '\\')
				fprintf(f, "\\%c", c);
			else if (c == '\n')
				fputs("\\n", f);
			else if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
		if (sp->flags & SPAN_ITALIC)
			fputs("[/i]", f);
		if (sp->flags & SPAN_BOLD)
			fputs("[/b]", f);
		if (sp->url)
			fputs("[/link]", f);
	}
	fputc('"', f);
}

static void dump_text(FILE *f, int ind, const char *key, const mtext_t *t)
{
	if (!t->n)
		return;
	dump_ind(f, ind);
	fprintf(f, "%s: ", key);
	dump_spans(f, t);
	fprintf(f, " @%d:%d\n", t->line, t->col);
}

static void dump_date(FILE *f, int ind, const char *key, const mdate_t *d)
{
	static const char *const kinds[] = {"none", "year", "month", "day", "present", "text"};
	if (d->kind == DATE_NONE)
		return;
	dump_ind(f, ind);
	fprintf(f, "%s: %s ", key, kinds[d->kind]);
	if (d->kind == DATE_YEAR)
		fprintf(f, "%04d ", d->y);
	else if (d->kind == DATE_MONTH)
		fprintf(f, "%04d-%02d ", d->y, d->m);
	else if (d->kind == DATE_DAY)
		fprintf(f, "%04d-%02d-%02d ", d->y, d->m, d->d);
	dump_q(f, d->text ? d->text : "");
	fprintf(f, " @%d:%d\n", d->line, d->col);
}

static void dump_strs(FILE *f, int ind, const char *key, const char *const *v, int n)
{
	if (!n)
		return;
	dump_ind(f, ind);
	fprintf(f, "%s:", key);
	for (int i = 0; i < n; i++) {
		fputs(i ? ", " : " ", f);
		dump_q(f, v[i]);
	}
	fputc('\n', f);
}

static void dump_links(FILE *f, int ind, const mlink_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		dump_ind(f, ind);
		fputs("link: ", f);
		dump_q(f, v[i].label);
		fputs(" -> ", f);
		dump_q(f, v[i].url);
		fprintf(f, " @%d:%d\n", v[i].line, v[i].col);
	}
}

static void dump_texts(FILE *f, int ind, const char *key, const mtext_t *v, int n)
{
	for (int i = 0; i < n; i++)
		dump_text(f, ind, key, &v[i]);
}

static void dump_entry(FILE *f, int ind, const mentry_t *e)
{
	dump_ind(f, ind);
	fprintf(f, "entry @%d:%d\n", e->line, e->col);
	ind++;
	dump_text(f, ind, "title", &e->title);
	dump_text(f, ind, "org", &e->org);
	dump_str(f, ind, "location", e->location);
	dump_date(f, ind, "date", &e->date);
	dump_date(f, ind, "start", &e->start);
	dump_date(f, ind, "end", &e->end);
	dump_text(f, ind, "note", &e->note);
	dump_texts(f, ind, "detail", e->details, e->ndetails);
	dump_links(f, ind, e->links, e->nlinks);
}

/* "marks: 1 owner, 3 equal corresponding" (author numbers from 1) */
static void dump_marks(FILE *f, int ind, const mpub_t *p)
{
	static const char *const names[] = {"owner", "equal", "corresponding"};
	int any = 0;
	for (int i = 0; p->aflags && i < p->nauthors; i++) {
		if (!p->aflags[i])
			continue;
		if (!any++) {
			dump_ind(f, ind);
			fputs("marks:", f);
		}
		fprintf(f, "%s %d", any > 1 ? "," : "", i + 1);
		for (int b = 0; b < 3; b++)
			if (p->aflags[i] & (1u << b))
				fprintf(f, " %s", names[b]);
	}
	if (any)
		fputc('\n', f);
}

static void dump_pub(FILE *f, int ind, const mpub_t *p)
{
	dump_ind(f, ind);
	fprintf(f, "publication @%d:%d\n", p->line, p->col);
	ind++;
	dump_text(f, ind, "title", &p->title);
	dump_strs(f, ind, "authors", p->authors, p->nauthors);
	dump_marks(f, ind, p);
	if (p->etal) {
		dump_ind(f, ind);
		fputs("et_al: yes\n", f);
	}
	dump_strs(f, ind, "editors", p->editors, p->neditors);
	dump_strs(f, ind, "equal", p->equal, p->nequal);
	dump_str(f, ind, "venue", p->venue);
	dump_text(f, ind, "venue_full", &p->venue_full);
	if (p->year) {
		dump_ind(f, ind);
		fprintf(f, "year: %d\n", p->year);
	}
	dump_str(f, ind, "status", p->status);
	dump_str(f, ind, "doi", p->doi);
	dump_links(f, ind, p->links, p->nlinks);
	dump_strs(f, ind, "badges", p->badges, p->nbadges);
	dump_text(f, ind, "note", &p->note);
}

static void dump_section(FILE *f, const msection_t *s)
{
	static const char *const nums[] = {"reverse", "forward", "none"};
	static const char *const groups[] = {"none", "year", "type"};
	static const char *const styles[] = {"inline", "bullets"};
	fprintf(f, "section %s @%d:%d\n", model_section_name(s->type), s->line, s->col);
	dump_str(f, 1, "title", s->title);
	for (int i = 0; i < s->nentries; i++)
		dump_entry(f, 1, &s->entries[i]);
	if (s->type == SEC_PUBLICATIONS) {
		dump_strs(f, 1, "highlight", s->highlight, s->nhighlight);
		fprintf(f, "  numbering: %s\n  group_by: %s\n", nums[s->numbering],
		        groups[s->group_by]);
	}
	for (int i = 0; i < s->npubs; i++)
		dump_pub(f, 1, &s->pubs[i]);
	for (int i = 0; i < s->nnews; i++) {
		fprintf(f, "  news @%d:%d\n", s->news[i].line, s->news[i].col);
		dump_date(f, 2, "date", &s->news[i].date);
		dump_text(f, 2, "text", &s->news[i].text);
	}
	if (s->type == SEC_LIST)
		fprintf(f, "  style: %s\n", styles[s->list_style]);
	dump_texts(f, 1, "item", s->items, s->nitems);
	dump_text(f, 1, "text", &s->text);
}

void model_dump(const model_t *m, FILE *f)
{
	fputs("model\n", f);
	dump_str(f, 1, "file", m->file);
	dump_str(f, 1, "dir", m->dir);
	fprintf(f, "  version: %d\n", m->version);
	dump_str(f, 1, "lang", m->lang);
	dump_str(f, 1, "name", m->name);
	dump_str(f, 1, "name_native", m->name_native);
	dump_str(f, 1, "headline", m->headline);
	dump_str(f, 1, "affiliation", m->affiliation);
	dump_str(f, 1, "location", m->location);
	for (int i = 0; i < m->ncontacts; i++) {
		const mcontact_t *c = &m->contacts[i];
		fprintf(f, "  contact %s: ", c->kind);
		dump_q(f, c->value);
		if (c->url) {
			fputs(" -> ", f);
			dump_q(f, c->url);
		}
		fprintf(f, " @%d:%d\n", c->line, c->col);
	}
	dump_links(f, 1, m->links, m->nlinks);
	if (m->photo) {
		fputs("  photo: ", f);
		dump_q(f, m->photo);
		fprintf(f, " @%d:%d\n", m->photo_line, m->photo_col);
	}
	if (m->photo_alt) {
		fputs("  photo_alt: ", f);
		dump_q(f, m->photo_alt);
		putc('\n', f);
	}
	dump_text(f, 1, "summary", &m->summary);
	dump_date(f, 1, "updated", &m->updated);
	if (m->layout || m->nlayout_set) {
		fputs("  layout: ", f);
		dump_q(f, m->layout ? m->layout : "(default)");
		fprintf(f, " @%d:%d\n", m->layout_line, m->layout_col);
		for (int i = 0; i < m->nlayout_set; i++)
			dump_str(f, 2, "set", m->layout_set[i]);
	}
	fprintf(f, "  sections: %d\n", m->nsections);
	for (int i = 0; i < m->nsections; i++)
		dump_section(f, &m->sections[i]);
}
