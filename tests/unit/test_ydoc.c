/* test_ydoc: YAML -> ynode tree, positions, and the refusals. */
#include <stdlib.h>
#include "t.h"
#include "ydoc.h"

static int parse(const char *s, ynode_t **root, errs_t *e, arena_t *a)
{
	return ydoc_parse(a, "t.yaml", s, strlen(s), root, e);
}

/* First error message of parsing s ("" when none). */
static const char *first_err(const char *s, char *buf, size_t size, int *line, int *col)
{
	arena_t *a = arena_new();
	errs_t e;
	ynode_t *r;
	errs_init(&e);
	buf[0] = '\0';
	*line = *col = 0;
	if (parse(s, &r, &e, a) < 0 && e.n) {
		snprintf(buf, size, "%s", e.v[0].msg);
		*line = e.v[0].line;
		*col = e.v[0].col;
	}
	errs_done(&e);
	arena_free(a);
	return buf;
}

TEST(tree_and_positions)
{
	arena_t *a = arena_new();
	errs_t e;
	ynode_t *r;
	errs_init(&e);
	EQ_INT(parse("a: 1\nb:\n  - x\n  - 'y'\nc: ~\n", &r, &e, a), 0);
	EQ_INT(r->kind, YD_MAP);
	EQ_INT(r->n, 3);
	ynode_t *b = ydoc_get(r, "b");
	CHECK(b && b->kind == YD_SEQ && b->n == 2);
	EQ_INT(b->line, 3);
	EQ_INT(b->col, 3);
	EQ_STR(b->kids[1]->str, "y");
	EQ_INT(b->kids[1]->plain, 0);
	EQ_INT(b->kids[0]->plain, 1);
	EQ_INT(b->kids[1]->line, 4);
	EQ_INT(b->kids[1]->col, 5);
	EQ_INT(ydoc_get(r, "c")->kind, YD_NULL);
	CHECK(ydoc_get(r, "zz") == NULL);
	EQ_STR(ydoc_kind_name(YD_SEQ), "a list");
	errs_done(&e);
	arena_free(a);
}

TEST(empty_documents)
{
	const char *v[] = {"", "# only a comment\n", "---\n", "~\n"};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		arena_t *a = arena_new();
		errs_t e;
		ynode_t *r = NULL;
		errs_init(&e);
		EQ_INT(parse(v[i], &r, &e, a), 0);
		CHECK(r && r->kind == YD_NULL);
		errs_done(&e);
		arena_free(a);
	}
}

TEST(aliases)
{
	arena_t *a = arena_new();
	errs_t e;
	ynode_t *r;
	errs_init(&e);
	EQ_INT(parse("a: &x [1, 2]\nb: *x\n", &r, &e, a), 0);
	CHECK(ydoc_get(r, "a") == ydoc_get(r, "b"));   /* shared, not copied */
	errs_done(&e);
	arena_free(a);
}

struct bad { const char *in, *msg; int line, col; };

TEST(refusals)
{
	static const struct bad cases[] = {
		{"a: [1, 2\n", "malformed YAML", 2, 1},
		{"a: 1\na: 2\n", "duplicate key 'a' (first at line 1)", 2, 1},
		{"a: *nope\n", "alias '*nope' refers to an undefined anchor", 1, 4},
		{"a: &r [*r]\n", "recursive aliases", 1, 8},
		{"a: 1\n--- \nb: 2\n", "a second YAML document", 2, 1},
		{"a: b\xff\n", "invalid UTF-8 at byte offset 4", 1, 5},
		{"ab: \xe6\x9c\xb1\xc3\n", "invalid UTF-8 at byte offset 7", 1, 6},
		{"[a, b]: 1\n", "a mapping key must be a plain value", 1, 1},
	};
	char buf[512];
	int line, col;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		first_err(cases[i].in, buf, sizeof(buf), &line, &col);
		if (!strstr(buf, cases[i].msg))
			fprintf(stderr, "case %zu: got \"%s\"\n", i, buf);
		CHECK(strstr(buf, cases[i].msg) != NULL);
		EQ_INT(line, cases[i].line);
		EQ_INT(col, cases[i].col);
	}
}

TEST(nul_byte)
{
	arena_t *a = arena_new();
	errs_t e;
	ynode_t *r;
	errs_init(&e);
	EQ_INT(ydoc_parse(a, "t", "a: 1\n\0b", 8, &r, &e), -1);
	CHECK(strstr(e.v[0].msg, "NUL byte at byte offset 5") != NULL);
	EQ_INT(e.v[0].line, 2);
	errs_done(&e);
	arena_free(a);
}

TEST(depth_limit)
{
	char buf[512];
	int line, col;
	size_t n = 20000;
	char *s = malloc(2 * n + 8);
	memset(s, '[', n);
	memset(s + n, ']', n);
	s[2 * n] = '\0';
	first_err(s, buf, sizeof(buf), &line, &col);
	CHECK(strstr(buf, "nesting deeper than 64 levels") != NULL);
	EQ_INT(col, YDOC_MAX_DEPTH + 1);
	/* exactly the limit is fine */
	memset(s, '[', YDOC_MAX_DEPTH);
	memset(s + YDOC_MAX_DEPTH, ']', YDOC_MAX_DEPTH);
	s[2 * YDOC_MAX_DEPTH] = '\0';
	first_err(s, buf, sizeof(buf), &line, &col);
	EQ_STR(buf, "");
	free(s);
}

TEST(alias_bomb)
{
	const char *bomb =
		"a: &a [x,x,x,x,x,x,x,x,x,x]\n"
		"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
		"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
		"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n";
	char buf[512];
	int line, col;
	first_err(bomb, buf, sizeof(buf), &line, &col);
	CHECK(strstr(buf, "expands the document beyond 10000 nodes") != NULL);
	EQ_INT(line, 4);
}

int main(void)
{
	RUN(tree_and_positions);
	RUN(empty_documents);
	RUN(aliases);
	RUN(refusals);
	RUN(nul_byte);
	RUN(depth_limit);
	RUN(alias_bomb);
	return t_report();
}
