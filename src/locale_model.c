/* locale_model: the locale applied to the model: its typographic
 * punctuation over a whole model (locale_smart_model), the words the model
 * only names (a thesis or report's genre), and the words of dates, date
 * columns and contact labels that the PDF and HTML share (see locale.h). */
#include <string.h>
#include <time.h>
#include "arena.h"
#include "locale.h"
#include "model.h"

typedef struct sm {
	const vlocale_t *l;
	arena_t *a;
	buf_t b;
} sm_t;

static const char *sm_str(sm_t *x, const char *s, uint32_t *prev)
{
	if (!s || !strpbrk(s, "'\".-`")) {
		if (s && prev && *s) {
			size_t n = strlen(s), k = n - 1;
			while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
				k--;
			*prev = (unsigned char)s[k] < 0x80 ? (unsigned char)s[k] : 0x100;
		}
		return s;
	}
	buf_reset(&x->b);
	locale_smart(x->l, s, strlen(s), prev, &x->b);
	return arena_strndup(x->a, x->b.s ? x->b.s : "", x->b.len);
}

static void sm_one(sm_t *x, const char **s)
{
	*s = sm_str(x, *s, NULL);
}

static void sm_text(sm_t *x, mtext_t *t)
{
	uint32_t prev = 0;
	for (int i = 0; i < t->n; i++)
		t->spans[i].text = sm_str(x, t->spans[i].text, &prev);
}

static void sm_list(sm_t *x, const char **v, int n)
{
	for (int i = 0; i < n; i++)
		sm_one(x, &v[i]);
}

/* A separator or space at an end of a phrase whose venue is empty. */
static size_t sep_len(const char *s, size_t n, int end)
{
	static const char *const seps[] = {", ", ",", "\uff0c", "\u3001", "\u060c ", "\u060c", " "};
	for (size_t i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
		size_t l = strlen(seps[i]);
		if (l <= n && !strncmp(end ? s + n - l : s, seps[i], l))
			return l;
	}
	return 0;
}

/* A thesis or report: the locale's phrase around the venue (en: PhD
 * thesis, {venue}; zh-Hans: 博士学位论文，{venue}); alone when there is no
 * venue. */
static void sm_genre(sm_t *x, mpub_t *p)
{
	const vlocale_t *l = x->l;
	const char *pat = !p->genre ? NULL : !strcmp(p->genre, "phdthesis") ? l->phdthesis
	                  : !strcmp(p->genre, "mastersthesis") ? l->mastersthesis
	                  : !strcmp(p->genre, "techreport") ? l->techreport : NULL;
	if (!pat || !*pat)
		return;
	const char *at = strstr(pat, "{venue}");
	size_t pre = at ? (size_t)(at - pat) : strlen(pat);
	const char *post = at ? at + 7 : "";
	mtext_t *t = &p->venue_full;
	if (!t->n) {
		/* no venue: the phrase, without the separator that led to it */
		char *s = arena_printf(x->a, "%.*s%s", (int)pre, pat, post);
		size_t n = strlen(s), k;
		while ((k = sep_len(s, n, 1)) > 0)
			n -= k;
		while ((k = sep_len(s, n, 0)) > 0)
			s += k, n -= k;
		s[n] = '\0';
		t->spans = arena_alloc(x->a, sizeof(*t->spans));
		t->spans[0] = (mspan_t){s, 0, NULL};
		t->n = 1;
		t->line = p->line;
		t->col = p->col;
		return;
	}
	mspan_t *v = arena_alloc(x->a, (size_t)(t->n + 2) * sizeof(*v));
	int n = 0;
	if (pre)
		v[n++] = (mspan_t){arena_strndup(x->a, pat, pre), 0, NULL};
	memcpy(v + n, t->spans, (size_t)t->n * sizeof(*v));
	n += t->n;
	if (*post)
		v[n++] = (mspan_t){post, 0, NULL};
	t->spans = v;
	t->n = n;
}

static void sm_section(sm_t *x, msection_t *sec)
{
	sm_one(x, &sec->title);
	for (int i = 0; i < sec->nentries; i++) {
		mentry_t *en = &sec->entries[i];
		sm_text(x, &en->title);
		sm_text(x, &en->org);
		sm_text(x, &en->note);
		sm_one(x, &en->location);
		for (int k = 0; k < en->ndetails; k++)
			sm_text(x, &en->details[k]);
	}
	for (int i = 0; i < sec->npubs; i++) {
		mpub_t *p = &sec->pubs[i];
		sm_text(x, &p->title);
		sm_list(x, p->authors, p->nauthors);
		sm_list(x, p->equal, p->nequal);
		sm_one(x, &p->venue);
		sm_text(x, &p->venue_full);
		sm_genre(x, p);
		sm_one(x, &p->status);
		sm_text(x, &p->note);
		sm_text(x, &p->summary);
	}
	sm_list(x, sec->highlight, sec->nhighlight);
	for (int i = 0; i < sec->nnews; i++)
		sm_text(x, &sec->news[i].text);
	for (int i = 0; i < sec->nitems; i++)
		sm_text(x, &sec->items[i]);
	sm_text(x, &sec->text);
}

void locale_smart_model(const vlocale_t *l, struct model *m, struct arena *a)
{
	sm_t x = {l, a, {0}};
	buf_init(&x.b);
	sm_one(&x, &m->name);
	sm_one(&x, &m->name_native);
	sm_one(&x, &m->headline);
	sm_one(&x, &m->affiliation);
	sm_one(&x, &m->location);
	sm_text(&x, &m->summary);
	for (int i = 0; i < m->nsections; i++)
		sm_section(&x, &m->sections[i]);
	buf_done(&x.b);
}

void locale_date_text(const vlocale_t *l, const mdate_t *d, buf_t *b)
{
	switch (d->kind) {
	case DATE_YEAR: locale_date(l, LOCALE_YEAR, d->y, 0, 0, b); break;
	case DATE_MONTH: locale_date(l, LOCALE_MONTH, d->y, d->m, 0, b); break;
	case DATE_DAY: locale_date(l, LOCALE_DAY, d->y, d->m, d->d, b); break;
	case DATE_PRESENT: buf_puts(b, l->present); break;
	case DATE_TEXT: buf_puts(b, d->text ? d->text : ""); break;
	default: break;
	}
}

/* A range from a date to the same date ("Jan. 1, 2018 – Jan. 1, 2018",
 * as exports write a one-day event) is that date. */
static int same_date(const mdate_t *a, const mdate_t *b)
{
	return a->kind == b->kind && (a->kind == DATE_YEAR || a->kind == DATE_MONTH ||
	                              a->kind == DATE_DAY) &&
	       a->y == b->y && a->m == b->m && a->d == b->d;
}

int locale_entry_dates(const vlocale_t *l, const mentry_t *en, buf_t *b)
{
	int split = 0;
	if (en->start.kind && same_date(&en->start, &en->end)) {
		locale_date_text(l, &en->start, b);
	} else if (en->start.kind) {
		buf_t s1, s2;
		buf_init(&s1);
		buf_init(&s2);
		locale_date_text(l, &en->start, &s1);
		if (en->end.kind)
			locale_date_text(l, &en->end, &s2);
		else
			buf_puts(&s2, l->present);
		const char *st = s1.s ? s1.s : "", *et = s2.s ? s2.s : "";
		size_t base = b->len;
		locale_fill(b, l->range, "start", st, "end", et, (const char *)NULL);
		/* where the end starts: the pattern's {end} with plain text after it */
		const char *e = strstr(l->range, "{end}");
		split = e && e > l->range && !strchr(e + 5, '{')
		        ? (int)(b->len - base - strlen(et) - strlen(e + 5)) : -1;
		buf_done(&s1);
		buf_done(&s2);
	} else if (en->end.kind) {
		locale_date_text(l, &en->end, b);
	} else if (en->date.kind) {
		locale_date_text(l, &en->date, b);
	}
	return split;
}

void locale_contact_label(const vlocale_t *l, const mcontact_t *c, buf_t *b)
{
	const char *v = c->value;
	if (!strncmp(v, "https://", 8))
		v += 8;
	else if (!strncmp(v, "http://", 7))
		v += 7;
	if (!strcmp(c->kind, "orcid"))
		buf_printf(b, "ORCID %s", v);
	else if (!strcmp(c->kind, "github") && !strchr(v, '/'))
		buf_printf(b, "github.com/%s", v);
	else if (!strcmp(c->kind, "scholar") && !strchr(v, '/'))
		buf_puts(b, l->scholar);
	else if (!strcmp(c->kind, "linkedin") && !strchr(v, '/'))
		buf_printf(b, "linkedin.com/in/%s", v);
	else if (!strcmp(c->kind, "twitter") && v[0] != '@' && !strchr(v, '/'))
		buf_printf(b, "@%s", v);
	else
		buf_puts(b, v);
}

void locale_updated(const vlocale_t *l, const mdate_t *updated, long long epoch, buf_t *b)
{
	mdate_t upd = *updated;
	if (!upd.kind) {
		time_t t = (time_t)epoch;
		struct tm tm;
		if (!gmtime_r(&t, &tm)) {   /* main refuses such epochs; be safe */
			t = 0;
			gmtime_r(&t, &tm);
		}
		upd.kind = DATE_MONTH;
		upd.y = tm.tm_year + 1900;
		upd.m = tm.tm_mon + 1;
	}
	locale_date_text(l, &upd, b);
}
