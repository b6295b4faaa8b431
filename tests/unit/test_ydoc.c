/* test_ydoc: YAML -> ynode tree, positions, and the refusals. */
#include <dirent.h>
#include <stdlib.h>
#include "t.h"
#include "ydoc_same.h"
#include "../../src/ydoc_int.h"

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

/* ydoc_fast reads s (it must: s is in its subset) into libyaml's tree. */
static void fast_same(const char *what, const char *s, size_t n)
{
	arena_t *a = arena_new();
	errs_t e;
	ynode_t *f = NULL, *l = NULL;
	char why[512] = "";
	errs_init(&e);
	int fr = ydoc_fast(a, s, n, &f);
	int lr = ydoc_libyaml(a, "t.yaml", s, n, &l, &e);
	if (fr != 0 || lr != 0 || !ydoc_same(f, l, why, sizeof(why)))
		fprintf(stderr, "%s: fast %d, libyaml %d (%s) %s\n", what, fr, lr,
		        e.n ? e.v[0].msg : "", why);
	CHECK(fr == 0 && lr == 0 && why[0] == '\0');
	errs_done(&e);
	arena_free(a);
}

/* What ydoc_fast reads, each the very tree libyaml gives. */
TEST(fast_subset)
{
	static const char *const cases[] = {
		"", "\n\n", "# c\n", "~\n", "hello\n", "a: 1", "a: 1\nb: 2\n", "  a: 1\n  b:  x  \n",
		"a:\nb: 2\n", "a:\n", "a:   # c\nb:\n", "a: ~\nb: null\nc: Null\nd: NULL\ne: nulls\n",
		"a:\n  b:\n    c: 1\n  d: 2\ne: 3\n", "a:\n- 1\n- 2\nb: 3\n", "a:\n  - 1\n  -\n  - 3\n",
		"- a\n- b: 1\n  c: 2\n-   d: 3\n    e:\n- x\n", "-\n- \n-  # c\n  x\n",
		"- a: 1\n  b:\n  - x\n  - y\n  c: 2\n- z\n", "x:\n  - a:\n    - 1\n",
		"a: [1, 'two', \"three\", [4, [5]], {k: v}]\nb: []\nc: {}\nd: [ ]\n",
		"links: [{label: Paper, url: \"https://a.b/c.pdf\"}, {label: Code, url: https://g.h/x}]\n",
		"a: [x:y, a b  c , d]\n", "a: {k: v, k2: 'w''x'}\n",
		"a: 'it''s'\nb: \"q \\\" \\\\ \\/ \\t \\n \\u00e9 \\U0001F600 \\x41 \\_ \\N \\e \\a\"\n",
		"a: '  spaced  '\nb: \"\"\nc: ''\n", "a: 'x'# c\nb: \"y\"  # c\n",
		"url: https://example.org/a#b\nc: C# and F#\nd: a #comment\n", "a: b:c\n",
		"a: this is\n  continued\n\n  and a paragraph\n\n\n  more\nb: 1\n",
		"- one\n  two\n  - three\n- x\n", "a: x\n  # not a continuation\nb: y\n",
		"plain\nscalar\n", "a: >\n  folded\n  text\n\n  para\n",
		"a: |\n  literal\n  text\n\n  para\n", "a: |-\n  strip\n\n", "a: |+\n  keep\n\n\nb: 1\n",
		"a: >-\n  x\n   more indented\n  y\n", "a: >\n\n\n  leading\nb: >\n  eof", "a: |\n  eof",
		"a: |\n  x\n  \n   \n  y\n", "a: > # c\n  x\n# c\nb: |\n    deep\n      deeper\n",
		"- |\n  in a list\n- >\n  folded\n  item\n", "a:\n  - b: |\n      x\n    c: 1\n",
		"名前: 朱展达\n住所: [東京, 'é']\nx: {é: \"ü\"}\n",
		"朱展达朱展达朱展达: [東京東京東京東京, 'éééééééé', 名前名前名前名前, ü]\n"
		"l:\n- ñ: {ééééééééééé: x, 東京東京東京東京東京: y}\n", "é: 1\n  # c\n\xc3\xa9\xc3\xa9: 2\n",
		"a: -1\nb: --x\n-c: 3\n", "a: x\n\n\nb: y\n\n",
		"k1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\nk10: 10\n"
		"k11: 11\nk12: 12\nk13: 13\nk14: 14\nk15: 15\nk16: 16\nk17: 17\nk18: 18\n",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[32];
		snprintf(what, sizeof(what), "case %zu", i);
		fast_same(what, cases[i], strlen(cases[i]));
	}
}

/* What ydoc_fast leaves to libyaml (which reads or refuses it as before). */
TEST(fast_declines)
{
	static const char *const cases[] = {
		"a:\tb\n", "a: 1\r\nb: 2\r\n", "\xef\xbb\xbf" "a: 1\n", "a: \xc2\x85\n", "a: &x 1\nb: *x\n",
		"a: !!str 1\n", "--- \na: 1\n", "%YAML 1.1\n---\na: 1\n", "a: 1\n...\n", "? a\n: b\n",
		"'a': 1\n", "[a]: 1\n", "a: [1,\n  2]\n", "a: 'x\n  y'\n", "a: \"x\\\n  y\"\n",
		"a: \"\\0\"\n", "a: \"\\L\"\n", "a: \"\\q\"\n", "a: |2\n   x\n", "a: |\nb: 1\n",
		"a: 1\na: 2\n", "~: 1\n", "- - x\n", "a: [a, ]\n", "a: {k}\n", "a: {k: }\n",
		"a: b: c\n", "a: 1\n b: 2\n", "a:\n    b: 1\n  c: 2\n", "a: 1\n- b\n", "- a\nb: 1\n",
		"a: [x:]\n", "a: [-1]\n", "a: [b # c]\n", "a: 'x' y\n", "a: x\n  y: z\n",
		"a: |\n   \n  x\n",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		arena_t *a = arena_new();
		ynode_t *r;
		if (ydoc_fast(a, cases[i], strlen(cases[i]), &r) != 1)
			fprintf(stderr, "declines case %zu: read\n", i);
		CHECK(ydoc_fast(a, cases[i], strlen(cases[i]), &r) == 1);
		arena_free(a);
	}
	int line, col;
	char buf[512];
	first_err("a: [1,\n  2]\nb: \"x\\\n  y\"\n", buf, sizeof(buf), &line, &col);
	EQ_STR(buf, "");   /* over lines: libyaml reads it */
}

/* A control character, DEL or a stray byte >= 0x80 anywhere (each
 * position of the eight-byte checks) sends the text to libyaml. */
TEST(fast_declines_bytes)
{
	for (int b = 0; b < 256; b++) {
		if ((b >= 0x20 && b < 0x7f) || b == '\n')
			continue;
		for (int at = 3; at < 24; at++) {
			char s[32] = "a: xxxxxxxxxxxxxxxxxxxxxxxxx\n";
			s[at] = (char)b;
			arena_t *a = arena_new();
			ynode_t *r;
			int got = ydoc_fast(a, s, strlen(s) + (b == 0), &r);
			if (got != 1)
				fprintf(stderr, "byte 0x%02x at %d: read\n", b, at);
			CHECK(got == 1);
			arena_free(a);
		}
	}
}

/* Every file vita ships (profiles, layouts, locales, font chains,
 * examples) is in the subset, and read as libyaml reads it. */
TEST(fast_bundled)
{
	static const char *const dirs[] = {"profiles", "layouts", "locales", "fonts", "examples"};
	int files = 0;
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		DIR *dir = opendir(dirs[d]);
		CHECK(dir != NULL);
		struct dirent *de;
		while (dir && (de = readdir(dir))) {
			size_t n = strlen(de->d_name);
			if (n < 6 || strcmp(de->d_name + n - 5, ".yaml"))
				continue;
			char path[512];
			snprintf(path, sizeof(path), "%s/%s", dirs[d], de->d_name);
			FILE *f = fopen(path, "rb");
			CHECK(f != NULL);
			if (!f)
				continue;
			static char text[1 << 20];
			size_t len = fread(text, 1, sizeof(text), f);
			fclose(f);
			fast_same(path, text, len);
			files++;
		}
		if (dir)
			closedir(dir);
	}
	CHECK(files >= 20);
}

/* --compare FILE...: each file read by both readers; 1 when ydoc_fast
 * reads one differently from libyaml (tests/scripts/ydoc_fast.sh). */
static int compare_files(int argc, char **argv)
{
	int bad = 0, fast = 0;
	static char text[1 << 20];
	for (int i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		size_t len = fread(text, 1, sizeof(text), f);
		fclose(f);
		arena_t *a = arena_new();
		errs_t e;
		ynode_t *fr, *lr;
		char why[512] = "";
		errs_init(&e);
		if (ydoc_fast(a, text, len, &fr) == 0) {
			fast++;
			if (ydoc_libyaml(a, argv[i], text, len, &lr, &e) != 0 ||
			    !ydoc_same(fr, lr, why, sizeof(why))) {
				fprintf(stderr, "%s: ydoc_fast and libyaml differ: %s\n", argv[i],
				        e.n ? e.v[0].msg : why);
				bad++;
			}
		}
		errs_done(&e);
		arena_free(a);
	}
	printf("%d files, %d read by ydoc_fast, %d differ\n", argc - 2, fast, bad);
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--compare"))
		return compare_files(argc, argv);
	RUN(tree_and_positions);
	RUN(empty_documents);
	RUN(aliases);
	RUN(refusals);
	RUN(nul_byte);
	RUN(depth_limit);
	RUN(alias_bomb);
	RUN(fast_subset);
	RUN(fast_declines);
	RUN(fast_declines_bytes);
	RUN(fast_bundled);
	return t_report();
}
