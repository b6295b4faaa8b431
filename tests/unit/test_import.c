/* test_import: JSON Resume and RenderCV through profile_load_mem: the
 * dispatch by content, the mapping into the model, and located errors. */
#include <stdio.h>
#include "profile.h"
#include "t.h"

typedef struct run {
	arena_t *a;
	errs_t e;
	model_t *m;
	int rc;
} run_t;

static void load(run_t *r, const char *text)
{
	r->a = arena_new();
	errs_init(&r->e);
	const char *name = text[0] == '{' ? "t/cv.json" : "t/cv.yaml";
	r->rc = profile_load_mem(r->a, name, text, strlen(text), NULL, &r->m,
	                         &r->e);
}

static void done(run_t *r)
{
	errs_done(&r->e);
	arena_free(r->a);
}

static const char *first_text(const mtext_t *t)
{
	return t->n ? t->spans[0].text : "";
}

TEST(jr_basics)
{
	run_t r;
	load(&r, "{\"basics\": {\"name\": \"Ada\", \"label\": \"Engineer\",\n"
	         " \"profiles\": [{\"network\": \"twitter\", \"username\": \"ada\"},\n"
	         "  {\"network\": \"GitHub\", \"username\": \"ada\"}],\n"
	         " \"email\": \"a@b.org\", \"location\": {\"city\": \"London\", \"countryCode\": \"UK\"}}}");
	EQ_INT(r.rc, 0);
	EQ_STR(r.m->name, "Ada");
	EQ_STR(r.m->headline, "Engineer");
	EQ_STR(r.m->location, "London, UK");
	EQ_INT(r.m->ncontacts, 3);   /* in the spec's order */
	if (r.m->ncontacts == 3) {
		EQ_STR(r.m->contacts[0].kind, "email");
		EQ_STR(r.m->contacts[1].kind, "github");
		EQ_STR(r.m->contacts[1].url, "https://github.com/ada");
		EQ_STR(r.m->contacts[2].kind, "twitter");
	}
	EQ_INT(r.m->nsections, 0);
	done(&r);
}

TEST(jr_work)
{
	run_t r;
	load(&r, "{\"basics\": {\"name\": \"Ada\"}, \"work\": [\n"
	         " {\"name\": \"Co\", \"position\": \"Dev\", \"startDate\": \"2020-02\",\n"
	         "  \"endDate\": \"\", \"summary\": \"S\", \"highlights\": [\"H1\", \"H2\"]}]}");
	EQ_INT(r.rc, 0);
	EQ_INT(r.m->nsections, 1);
	if (r.m->nsections == 1) {
		const msection_t *s = &r.m->sections[0];
		EQ_INT(s->type, SEC_EXPERIENCE);
		EQ_STR(s->title, "Experience");
		EQ_INT(s->nentries, 1);
		const mentry_t *en = &s->entries[0];
		EQ_STR(first_text(&en->title), "Dev");
		EQ_STR(first_text(&en->org), "Co");
		EQ_INT(en->start.kind, DATE_MONTH);
		EQ_INT(en->end.kind, DATE_PRESENT);   /* no end: ongoing */
		EQ_INT(en->ndetails, 3);
		EQ_STR(first_text(&en->details[0]), "S");
	}
	done(&r);
}

TEST(jr_errors)
{
	run_t r;
	load(&r, "{\"basics\": {\"name\": \"Ada\"},\n\"work\": \"none\"}");
	EQ_INT(r.rc, -1);
	EQ_INT(r.e.nerrors, 1);
	if (r.e.n) {
		EQ_INT(r.e.v[0].line, 2);
		EQ_INT(r.e.v[0].col, 9);
		EQ_STR(r.e.v[0].msg, "expected a list of work items for 'work', got a string");
	}
	done(&r);
	/* translation maps are a native feature, not JSON Resume's */
	load(&r, "{\"basics\": {\"name\": {\"en\": \"Ada\"}}}");
	EQ_INT(r.rc, -1);
	if (r.e.n)
		EQ_STR(r.e.v[0].msg, "expected a string for 'name', got a map");
	done(&r);
}

/* a .json file is read as JSON: escapes and their errors, JSON messages */
TEST(jr_json)
{
	run_t r;
	load(&r, "{\"basics\": {\"name\": \"Ada \\ud83d\\ude80 \\u00e9\\/\\n\"}}");
	EQ_INT(r.rc, 0);
	if (r.rc == 0)
		EQ_STR(r.m->name, "Ada \xf0\x9f\x9a\x80 \xc3\xa9/\n");
	done(&r);
	static const struct { const char *doc, *msg; int line, col; } bad[] = {
		{"{\"basics\": {\"name\": \"a\\ud83d\"}}", "invalid JSON string: lone surrogate \\ud83d (a high surrogate needs a low one, \\udc00-\\udfff, right after it)", 1, 23},
		{"{\"basics\": {\"name\": \"\\ude80\"}}", "invalid JSON string: lone surrogate \\ude80 (a low surrogate without a high one before it)", 1, 22},
		{"{\"basics\": {\"name\": \"a\\u0000b\"}}", "invalid JSON string: \\u0000 (a NUL character) is not allowed in a profile", 1, 23},
		{"{\"basics\": {\"name\": \"a\",}}", "malformed JSON: a trailing comma before '}'", 1, 25},
		{"{\"basics\": {\"name\": 'a'}}", "malformed JSON: strings are written in double quotes", 1, 21},
		{"{\"basics\": {\"name\": \"a\"}\n \"work\": []}", "malformed JSON: expected ',' or '}' after an object member, got '\"'", 2, 2},
		{"{\"basics\": {\"name\": \"a\", \"name\": \"b\"}}", "duplicate key 'name' (first at line 1)", 1, 26},
		{"{\"basics\": {\"name\": \"a\"}} x", "malformed JSON: text after the end of the document ('x')", 1, 27},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		load(&r, bad[i].doc);
		EQ_INT(r.rc, -1);
		if (r.e.n) {
			EQ_STR(r.e.v[0].msg, bad[i].msg);
			EQ_INT(r.e.v[0].line, bad[i].line);
			EQ_INT(r.e.v[0].col, bad[i].col);
		}
		done(&r);
	}
}

TEST(rcv_sections)
{
	run_t r;
	load(&r, "cv:\n  name: Jo\n  social_networks:\n"
	         "    - {network: Mastodon, username: '@jo@m.org'}\n"
	         "  sections:\n"
	         "    selected_honors_and_awards:\n      - One.\n      - Two.\n"
	         "    Papers:\n      - title: T\n        authors: ['**Jo**', Bo]\n"
	         "        date: 2021-05\n"
	         "    counts:\n      - reversed_number: a\n      - reversed_number: b\n"
	         "design: {theme: classic}\n");
	EQ_INT(r.rc, 0);
	EQ_INT(r.m->nlinks, 1);
	if (r.m->nlinks)
		EQ_STR(r.m->links[0].url, "https://m.org/@jo");
	EQ_INT(r.m->nsections, 3);
	if (r.m->nsections == 3) {
		const msection_t *s = &r.m->sections[0];
		EQ_STR(s->title, "Selected Honors and Awards");
		EQ_INT(s->type, SEC_TEXT);
		EQ_INT(s->text.n, 3);   /* One. \n Two. */
		s = &r.m->sections[1];
		EQ_STR(s->title, "Papers");
		EQ_INT(s->type, SEC_PUBLICATIONS);
		EQ_INT(s->npubs, 1);
		if (s->npubs) {
			EQ_STR(s->pubs[0].authors[0], "Jo");
			EQ_INT(s->pubs[0].year, 2021);
		}
		EQ_STR(s->highlight[0], "Jo");
		s = &r.m->sections[2];
		EQ_INT(s->type, SEC_LIST);
		EQ_INT(s->nitems, 2);
		EQ_INT(s->list_style, LIST_REVERSED); /* the list numbers "2." "1." */
		if (s->nitems == 2)
			EQ_STR(first_text(&s->items[0]), "a");
	}
	done(&r);
}

TEST(rcv_errors)
{
	run_t r;
	load(&r, "cv:\n  name: Jo\n  sections:\n    jobs:\n"
	         "      - company: C\n        start_date: 2020\n        end_date: 2019\n");
	EQ_INT(r.rc, -1);
	EQ_INT(r.e.nerrors, 2);
	if (r.e.n == 2) {
		EQ_STR(r.e.v[0].msg, "missing required key 'position' in an ExperienceEntry");
		EQ_INT(r.e.v[0].line, 5);
		EQ_STR(r.e.v[1].msg, "the period ends (2019) before it starts (2020)");
		EQ_INT(r.e.v[1].line, 7);
	}
	done(&r);
}

int main(void)
{
	RUN(jr_basics);
	RUN(jr_work);
	RUN(jr_errors);
	RUN(jr_json);
	RUN(rcv_sections);
	RUN(rcv_errors);
	return t_report();
}
