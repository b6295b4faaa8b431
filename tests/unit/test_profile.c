/* test_profile: the profile loader through profile_load_mem: markup, dates,
 * translations, tags, contact URLs, layout overrides, and error reports. */
#include <stdio.h>
#include "buf.h"
#include "file.h"
#include "profile.h"
#include "t.h"

typedef struct run {
	arena_t *a;
	errs_t e;
	model_t *m;
	int rc;
} run_t;

static void load(run_t *r, const char *yaml, const profile_opts_t *o)
{
	r->a = arena_new();
	errs_init(&r->e);
	r->rc = profile_load_mem(r->a, "t/p.yaml", yaml, strlen(yaml), o, &r->m, &r->e);
}

static void done(run_t *r)
{
	errs_done(&r->e);
	arena_free(r->a);
}

/* The spans of t in model_dump's marker form. */
static const char *spans(const mtext_t *t, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < t->n && n < size; i++) {
		const mspan_t *s = &t->spans[i];
		n += (size_t)snprintf(buf + n, size - n, "%s%s%s%s%s%s%s",
		                      s->url ? "[link]" : "",
		                      s->flags & SPAN_BOLD ? "[b]" : "",
		                      s->flags & SPAN_ITALIC ? "[i]" : "", s->text,
		                      s->flags & SPAN_ITALIC ? "[/i]" : "",
		                      s->flags & SPAN_BOLD ? "[/b]" : "",
		                      s->url ? "[/link]" : "");
	}
	return buf;
}

TEST(markup)
{
	static const char *const cases[][2] = {
		{"plain", "plain"},
		{"**b** and *i*", "[b]b[/b] and [i]i[/i]"},
		{"***both***", "[b][i]both[/i][/b]"},
		{"a [x](https://e.org) b", "a [link]x[/link] b"},
		{"[**B**](u)", "[link][b]B[/b][/link]"},
		{"5 * 3 * 2", "5 * 3 * 2"},
		{"**unclosed", "**unclosed"},
		{"*unclosed", "*unclosed"},
		{"[label](no end", "[label](no end"},
		{"\\*x\\* \\[y\\] \\\\ \\n", "*x* [y] \\ \\n"},
		{"*a **b** c*", "[i]a [/i][b][i]b[/i][/b][i] c[/i]"},
		{"[](https://e.org)", "[link]https://e.org[/link]"},
		{"[w](https://e.org/a_(b))", "[link]w[/link]"},
	};
	char yaml[512], buf[512];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_t r;
		snprintf(yaml, sizeof(yaml), "name: x\nsummary: '%s'\nsections: []\n",
		         cases[i][0]);
		load(&r, yaml, NULL);
		EQ_INT(r.rc, 0);
		if (r.rc == 0)
			EQ_STR(spans(&r.m->summary, buf, sizeof(buf)), cases[i][1]);
		done(&r);
	}
}

TEST(link_url)
{
	run_t r;
	load(&r, "name: x\nsummary: '[w](https://e.org/a_(b))'\nsections: []\n", NULL);
	EQ_INT(r.rc, 0);
	EQ_STR(r.m->summary.spans[0].url, "https://e.org/a_(b)");
	done(&r);
}

TEST(dates)
{
	static const struct { const char *in; int kind, y, m, d; } ok[] = {
		{"2021", DATE_YEAR, 2021, 0, 0}, {"2021-05", DATE_MONTH, 2021, 5, 0},
		{"2024-02-29", DATE_DAY, 2024, 2, 29}, {"present", DATE_PRESENT, 0, 0, 0},
		{"Summer 2021", DATE_TEXT, 0, 0, 0}, {"2019 & 2020", DATE_TEXT, 0, 0, 0},
	};
	static const char *const bad[] = {"2021-13", "2021-00", "2023-02-29", "2021-04-31"};
	char yaml[256];
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		run_t r;
		snprintf(yaml, sizeof(yaml), "name: x\nupdated: '%s'\nsections: []\n", ok[i].in);
		load(&r, yaml, NULL);
		EQ_INT(r.rc, 0);
		if (!r.rc) {
			EQ_INT(r.m->updated.kind, ok[i].kind);
			EQ_INT(r.m->updated.y, ok[i].y);
			EQ_INT(r.m->updated.m, ok[i].m);
			EQ_INT(r.m->updated.d, ok[i].d);
			EQ_STR(r.m->updated.text, ok[i].in);
		}
		done(&r);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_t r;
		snprintf(yaml, sizeof(yaml), "name: x\nupdated: %s\nsections: []\n", bad[i]);
		load(&r, yaml, NULL);
		EQ_INT(r.rc, -1);
		EQ_INT(r.e.n, 1);
		CHECK(r.e.n && strstr(r.e.v[0].msg, "invalid date"));
		EQ_INT(r.e.v[0].line, 2);
		EQ_INT(r.e.v[0].col, 10);
		done(&r);
	}
}

static const char *const lang_tags_yaml =
	"name: {en: Ada, zh: 艾达}\n"
	"contact:\n  phone: {value: '+1 (555) 010-9999', tags: [private]}\n"
	"  email: a@b.c\n"
	"sections:\n"
	"  - title: {en: Awards, zh: 奖项}\n    type: awards\n    entries:\n"
	"      - {title: A, date: 2020}\n"
	"      - {title: B, date: 2021, tags: [full]}\n"
	"  - {title: Short, type: text, text: hi, tags: [short]}\n"
	"  - title: L\n    type: list\n    items: [a, {value: b, tags: [full]}]\n";

TEST(lang_and_tags)
{
	run_t r;
	load(&r, lang_tags_yaml, NULL);
	EQ_INT(r.rc, 0);
	EQ_STR(r.m->name, "Ada");
	EQ_INT(r.m->ncontacts, 2);
	EQ_STR(r.m->contacts[0].kind, "email");
	EQ_STR(r.m->contacts[1].url, "tel:+15550109999");
	EQ_INT(r.m->nsections, 3);
	EQ_INT(r.m->sections[0].nentries, 2);
	EQ_INT(r.m->sections[2].nitems, 2);
	done(&r);

	const char *tags[] = {"short"};
	profile_opts_t o = {.lang = "zh", .tags = tags, .ntags = 1};
	load(&r, lang_tags_yaml, &o);
	EQ_INT(r.rc, 0);
	EQ_STR(r.m->name, "艾达");
	EQ_STR(r.m->lang, "zh");
	EQ_INT(r.m->ncontacts, 1);
	EQ_INT(r.m->nsections, 3);
	EQ_STR(r.m->sections[0].title, "奖项");
	EQ_INT(r.m->sections[0].nentries, 1);
	EQ_INT(r.m->sections[2].nitems, 1);
	done(&r);

	profile_opts_t fr = {.lang = "fr"};   /* missing language: the first */
	load(&r, lang_tags_yaml, &fr);
	EQ_STR(r.m->name, "Ada");
	done(&r);
}

TEST(contact_urls)
{
	run_t r;
	load(&r, "name: x\ncontact:\n  website: https://a.org\n  orcid: https://orcid.org/1\n"
	         "  github: '@gh'\n  twitter: tw\n  linkedin: li\n  scholar: SC\n"
	         "  email: mailto:m@x.org\nsections: []\n", NULL);
	EQ_INT(r.rc, 0);
	EQ_INT(r.m->ncontacts, 7);
	EQ_STR(r.m->contacts[0].url, "mailto:m@x.org");
	EQ_STR(r.m->contacts[1].url, "https://a.org");
	EQ_STR(r.m->contacts[2].url, "https://orcid.org/1");
	EQ_STR(r.m->contacts[3].url, "https://github.com/gh");
	EQ_STR(r.m->contacts[4].url, "https://scholar.google.com/citations?user=SC");
	EQ_STR(r.m->contacts[5].url, "https://www.linkedin.com/in/li");
	EQ_STR(r.m->contacts[6].url, "https://twitter.com/tw");
	done(&r);
}

TEST(layout_overrides)
{
	run_t r;
	load(&r, "name: x\nlayout: {name: compact, page: {size: a4, margin: {top: 1in}}, "
	         "accent: red}\nsections: []\n", NULL);
	EQ_INT(r.rc, 0);
	EQ_STR(r.m->layout, "compact");
	EQ_INT(r.m->nlayout_set, 3);
	EQ_STR(r.m->layout_set[0], "page.size=a4");
	EQ_STR(r.m->layout_set[1], "page.margin.top=1in");
	EQ_STR(r.m->layout_set[2], "accent=red");
	EQ_INT(r.m->layout_line, 2);
	done(&r);
	load(&r, "name: x\nlayout: classic\nsections: []\n", NULL);
	EQ_STR(r.m->layout, "classic");
	EQ_INT(r.m->nlayout_set, 0);
	EQ_STR(r.m->dir, "t");
	done(&r);
}

struct errcase { const char *yaml, *msg; int line, col; };

TEST(errors)
{
	static const struct errcase cases[] = {
		{"name: x\nsections: text\n", "expected a list of sections, got a string", 2, 11},
		{"name: x\nsectoins: []\n", "unknown key 'sectoins' in the profile; did you mean 'sections'?", 2, 1},
		{"name: x\nsections: [{title: T, type: lst, items: [a]}]\n",
		 "unknown section type 'lst'; did you mean 'list'?", 2, 29},
		{"name: x\nsections: [{title: T, type: list, items: [a], entries: []}]\n",
		 "unknown key 'entries' in a section of type 'list'", 2, 47},
		{"sections: []\n", "missing required key 'name'", 1, 1},
		{"name: ''\nsections: []\n", "'name' is empty", 1, 7},
		{"name: [x]\nsections: []\n", "expected a string for 'name', got a list", 1, 7},
		{"vita: 3\nname: x\nsections: []\n", "unsupported profile version 3", 1, 7},
		{"", "empty profile", 1, 1},
		{"name: x\nsections: [{title: P, type: publications, entries: [{title: t, year: 20x}]}]\n",
		 "expected an integer for 'year', got '20x'", 2, 70},
		{"name: x\nsections: [{title: E, type: entries, entries: [{title: t, start: 2020, end: 2019-12}]}]\n",
		 "the period ends (2019-12) before it starts (2020)", 2, 77},
		{"name: x\nsections: [{title: P, type: publications, entries: [{title: t, authors: [a], equal: [b]}]}]\n",
		 "'b' in 'equal' is not one of the authors", 2, 85},
		{"name: x\nsections: [{title: P, type: publications}]\n",
		 "missing required key 'entries' (or 'bibtex')", 2, 12},
		{"name: x\nsections: [{title: P, type: publications, bibtex: none.bib}]\n",
		 "cannot read the BibTeX file 't/none.bib'", 2, 51},
		{"name: x\ncontact: {email: [a]}\nsections: []\n", "expected a string for 'email', got a list", 2, 18},
		{"name: x\nlinks: [{label: a}]\nsections: []\n", "missing required key 'url'", 2, 9},
		{"name: {english: x}\nsections: []\n", "got a map with key 'english'", 1, 8},
		{"name: x\nsummary: \"a\\0b\"\nsections: []\n", "a NUL character", 2, 10},
		{"\"name\\u0000x\": y\nsections: []\n", "a NUL character", 1, 1},
		{"name: \"   \"\nsections: []\n", "'name' is blank", 1, 7},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_t r;
		load(&r, cases[i].yaml, NULL);
		EQ_INT(r.rc, -1);
		CHECK(r.m == NULL);
		int k = 0;
		while (k < r.e.n && !strstr(r.e.v[k].msg, cases[i].msg))
			k++;
		if (k == r.e.n)
			fprintf(stderr, "case %zu: got \"%s\"\n", i, r.e.n ? r.e.v[0].msg : "");
		CHECK(k < r.e.n);
		if (k < r.e.n) {
			EQ_INT(r.e.v[k].line, cases[i].line);
			EQ_INT(r.e.v[k].col, cases[i].col);
			EQ_STR(r.e.v[k].file, "t/p.yaml");
		}
		done(&r);
	}
}

TEST(every_error_reported)
{
	run_t r;
	load(&r, "name: [x]\nheadlin: h\nsections:\n  - {title: a, type: nope}\n"
	         "  - {type: text}\n", NULL);
	EQ_INT(r.rc, -1);
	EQ_INT(r.e.n, 5);   /* name, headlin, nope, title, text */
	for (int i = 1; i < r.e.n; i++)
		CHECK(r.e.v[i].line >= r.e.v[i - 1].line);
	done(&r);
}

TEST(bibtex)
{
	run_t r;
	buf_t b;
	buf_init(&b);
	CHECK(file_read(&b, "tests/golden/markup.bib", FILE_MAX_TEXT, NULL) == 0);
	buf_done(&b);
	r.a = arena_new();
	errs_init(&r.e);
	const char *y = "name: x\nsections: [{title: P, type: publications, bibtex: markup.bib}]\n";
	r.rc = profile_load_mem(r.a, "tests/golden/x.yaml", y, strlen(y), NULL, &r.m, &r.e);
	EQ_INT(r.rc, 0);
	if (!r.rc) {
		const msection_t *s = &r.m->sections[0];
		EQ_INT(s->npubs, 2);
		EQ_STR(s->pubs[0].authors[2], "Jörg Müller");
		EQ_STR(s->pubs[0].authors[3], "François Guérin");
		EQ_STR(s->pubs[1].authors[0], "Paul Erdős");
		EQ_STR(s->pubs[1].authors[2], "Hans Straße Jr");
		EQ_INT(s->pubs[1].year, 1959);
		EQ_STR(s->pubs[0].venue_full.spans[0].text,
		       "USENIX Symposium on Operating Systems Design and Implementation (OSDI)");
	}
	done(&r);
}

/* Each shape's smallest content, by MODEL_SECTIONS' shape name: a new
 * shape does not compile here until it has one. */
#define CONTENT_entries "entries: [{title: T}]"
#define CONTENT_pubs "entries: [{title: T, authors: [A, B]}]"
#define CONTENT_news "entries: [{date: 2020, text: T}]"
#define CONTENT_items "items: [T]"
#define CONTENT_text "text: T"
#define SEC_CASE(e, name, shape) {e, name, #shape, CONTENT_##shape},
static const struct { int type; const char *name, *shape, *content; } sec_cases[] = {
	MODEL_SECTIONS(SEC_CASE)
};
#undef SEC_CASE

/* Every section type of model.h loads, dumps under its name, has a key
 * set, and an unknown type names them all. */
TEST(section_types)
{
	EQ_INT((int)(sizeof(sec_cases) / sizeof(sec_cases[0])), SEC_NTYPES);
	for (int i = 0; i < SEC_NTYPES; i++) {
		char y[256], set[64];
		snprintf(y, sizeof(y), "name: x\nsections: [{title: S, type: %s, %s}]\n",
		         sec_cases[i].name, sec_cases[i].content);
		run_t r;
		load(&r, y, NULL);
		EQ_INT(r.rc, 0);
		if (!r.rc) {
			EQ_INT(r.m->sections[0].type, sec_cases[i].type);
			EQ_STR(model_section_name(r.m->sections[0].type), sec_cases[i].name);
		}
		done(&r);
		snprintf(set, sizeof(set), "section.%s", sec_cases[i].name);
		int found = 0;
		for (const profile_keyset_t *k = profile_keysets(); k->object; k++)
			found |= !strcmp(k->object, set);
		CHECK(found);
	}
	EQ_STR(model_section_name(-1), "entries");
	EQ_STR(model_section_name(SEC_NTYPES), "entries");
	char all[256] = "one of: ";
	for (int i = 0; i < SEC_NTYPES; i++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? ", " : "",
		         model_section_names[i]);
	CHECK(!strncmp(all, "one of: entries, education, experience, awards, publications, "
	               "news, list, text", 72));
	run_t r;
	load(&r, "name: x\nsections: [{title: S, type: nonsense, items: [a]}]\n", NULL);
	EQ_INT(r.rc, -1);
	CHECK(r.e.n == 1 && strstr(r.e.v[0].msg, all));
	done(&r);
}

typedef struct wcount {
	int nodes, texts, roles, stop_at, seen;
	char roles_seen[512];
} wcount_t;

static int count_visit(const mvisit_t *v, void *ctx)
{
	wcount_t *w = ctx;
	w->seen++;
	w->nodes += v->kind == MV_NODE;
	w->texts += v->kind == MV_TEXT;
	if (v->role && !strstr(w->roles_seen, v->role) &&
	    strlen(w->roles_seen) + strlen(v->role) + 2 < sizeof(w->roles_seen)) {
		strcat(w->roles_seen, v->role);
		strcat(w->roles_seen, "|");
	}
	return w->stop_at && w->seen == w->stop_at ? 7 : 0;
}

/* model_walk: every field once, with its role; a visitor can stop it. */
TEST(walker)
{
	char y[1024];
	int n = snprintf(y, sizeof(y), "name: x\nheadline: H\nsummary: S\nsections:\n");
	for (int i = 0; i < SEC_NTYPES; i++)
		n += snprintf(y + n, sizeof(y) - (size_t)n, "  - {title: S%d, type: %s, %s}\n", i,
		              sec_cases[i].name, sec_cases[i].content);
	run_t r;
	load(&r, y, NULL);
	EQ_INT(r.rc, 0);
	if (!r.rc) {
		wcount_t w = {0};
		EQ_INT(model_walk(r.m, count_visit, &w), 0);
		/* each section's content (CONTENT_*) is one node and one text, but
		 * for items and text: one text and no node */
		int nodes = 1 + SEC_NTYPES, texts = 1; /* the model, the sections; the summary */
		for (int i = 0; i < SEC_NTYPES; i++) {
			int flat = !strcmp(sec_cases[i].shape, "items") ||
			           !strcmp(sec_cases[i].shape, "text");
			nodes += !flat;
			texts++;
		}
		EQ_INT(w.nodes, nodes);
		EQ_INT(w.texts, texts);
		CHECK(strstr(w.roles_seen, "the name|the headline|the summary|a section title|"
		             "an entry title|a publication title|an author|a news item|"
		             "a list item|a text section|") != NULL);
		wcount_t s = {0};
		s.stop_at = 3;
		EQ_INT(model_walk(r.m, count_visit, &s), 1);
		EQ_INT(s.seen, 3);
	}
	done(&r);
}

int main(void)
{
	RUN(markup);
	RUN(link_url);
	RUN(dates);
	RUN(lang_and_tags);
	RUN(contact_urls);
	RUN(layout_overrides);
	RUN(errors);
	RUN(every_error_reported);
	RUN(bibtex);
	RUN(section_types);
	RUN(walker);
	return t_report();
}
