/* locale_model: the locale's typographic punctuation over a whole model
 * (locale_smart_model, see locale.h). */
#include <string.h>
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
		sm_one(x, &p->status);
		sm_text(x, &p->note);
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
