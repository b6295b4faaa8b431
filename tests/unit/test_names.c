/* test_names: the owner of a CV is recognised among a paper's authors in
 * the forms real tools write (profile_name_match), and only there; the
 * marks after a name become flags (through a profile). */
#include <stdio.h>
#include <string.h>
#include "buf.h"
#include "profile.h"
#include "t.h"

static const struct { const char *owner, *author; int match; } forms[] = {
	{"Zhen Zhu", "Zhen Zhu", 1},
	{"Zhen Zhu", "Z. Zhu", 1},
	{"Zhen Zhu", "Z Zhu", 1},
	{"Zhen Zhu", "Zhu, Zhen", 1},
	{"Zhen Zhu", "Zhu, Z.", 1},
	{"Zhen Zhu", "ZHU Zhen", 1},
	{"Zhen Zhu", "Zhu Z", 1},
	{"Zhen Zhu", "zhen zhu", 1},
	{"Zhen Zhu", "ZHEN ZHU", 1},
	{"Zhen Zhu", "Zhēn Zhū", 1},
	{"Zhēn Zhū", "Zhen Zhu", 1},
	{"Zhen Zhu", "Zhen Q. Zhu", 1},
	{"Zhen Zhu", "Z. Q. Zhu", 1},
	{"Zhen Qiang Zhu", "Zhen Zhu", 1},
	{"Zhen Qiang Zhu", "Z. Q. Zhu", 1},
	{"Zhanda Zhu", "Zhan-Da Zhu", 1},
	{"Zhanda Zhu", "Zhan Da Zhu", 1},
	{"José García", "Jose Garcia", 1},
	{"José García", "García, J.", 1},
	{"Jürgen Müller", "J. Muller", 1},
	{"Anna van der Berg", "A. van der Berg", 1},
	{"朱珍", "朱珍", 1},
	{"朱珍", "朱 珍", 1},
	{"山田太郎", "山田 太郎", 1},
	{"Z. Zhu", "Zhen Zhu", 1},
	/* must not */
	{"Zhen Zhu", "Yuhao Zhu", 0},
	{"Zhen Zhu", "Y. Zhu", 0},
	{"Zhen Zhu", "Zhu, Yuhao", 0},
	{"Zhen Zhu", "Zhen Zhou", 0},
	{"Zhen Zhu", "Zhu", 0},
	{"Zhen Zhu", "Zhenyu Zhu", 0},
	{"Zhen Zhu", "Q. Zhen Zhu", 0},
	{"Zhen Qiang Zhu", "Z. W. Zhu", 0},
	{"朱珍", "朱展达", 0},
	{"Anna van der Berg", "A. Berg", 0},
	{"Zhen Zhu", "", 0},
};

TEST(name_forms)
{
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		int got = profile_name_match(forms[i].owner, forms[i].author);
		if (got != forms[i].match) {
			t_fail++;
			fprintf(stderr, "owner '%s', author '%s': %s, expected %s\n",
			        forms[i].owner, forms[i].author, got ? "match" : "no match",
			        forms[i].match ? "match" : "no match");
		}
	}
	t_run++;
}

TEST(name_marks)
{
	const char *y =
		"name: Zhen Zhu\nsections:\n  - title: P\n    type: publications\n"
		"    entries:\n      - title: T\n        authors: [\"Zhu, Z.*\", \"Yuhao Zhu†\", "
		"\"W. Chen #\", \"A. B‡\", \"Zhen Zhu\"]\n";
	arena_t *a = arena_new();
	errs_t e;
	model_t *m;
	errs_init(&e);
	EQ_INT(profile_load_mem(a, "t.yaml", y, strlen(y), NULL, &m, &e), 0);
	if (m && m->nsections == 1 && m->sections[0].npubs == 1) {
		const mpub_t *p = &m->sections[0].pubs[0];
		EQ_INT(p->nauthors, 5);
		EQ_STR(p->authors[0], "Zhu, Z.");
		EQ_INT(p->aflags[0], AUTHOR_OWNER | AUTHOR_EQUAL);
		EQ_STR(p->authors[1], "Yuhao Zhu");
		EQ_INT(p->aflags[1], AUTHOR_CORRESPONDING);
		EQ_STR(p->authors[2], "W. Chen");
		EQ_INT(p->aflags[2], AUTHOR_EQUAL);
		EQ_STR(p->authors[3], "A. B");
		EQ_INT(p->aflags[3], AUTHOR_CORRESPONDING);
		EQ_INT(p->aflags[4], AUTHOR_OWNER);
	} else {
		CHECK(0);
	}
	errs_done(&e);
	arena_free(a);
}

/* mark_pub rules most authors out before parsing them: every owner of
 * the table above against every author of it (and a few more), through a
 * profile, must mark exactly what profile_name_match says. */
TEST(name_marks_agree)
{
	static const char *const more[] = {"ZHU", "Zhu-Li", "zhu", "Berg", "VAN DER BERG, Anna",
		"Garcia, Jose", "Muller, Jurgen", "Zhu Zhen", "Tanaka", "12 Zhu", "Zhu, 2",
		"Q Zhu", "Zhenzhu", "朱 珍", "Zhù Zhen"};
	size_t nf = sizeof(forms) / sizeof(forms[0]), nm = sizeof(more) / sizeof(more[0]);
	for (size_t o = 0; o < nf; o++) {
		if (o && !strcmp(forms[o].owner, forms[o - 1].owner))
			continue;
		buf_t y;
		buf_init(&y);
		buf_printf(&y, "name: \"%s\"\nsections:\n  - title: P\n    type: publications\n"
		           "    entries:\n      - title: T\n        authors: [", forms[o].owner);
		int n = 0;
		const char *au[64];
		for (size_t i = 0; i < nf + nm; i++) {
			const char *w = i < nf ? forms[i].author : more[i - nf];
			if (!*w)
				continue;
			buf_printf(&y, "%s\"%s\"", n ? ", " : "", w);
			au[n++] = w;
		}
		buf_printf(&y, "]\n");
		arena_t *a = arena_new();
		errs_t e;
		model_t *m;
		errs_init(&e);
		EQ_INT(profile_load_mem(a, "t.yaml", y.s, y.len, NULL, &m, &e), 0);
		if (m && m->nsections == 1 && m->sections[0].npubs == 1 &&
		    m->sections[0].pubs[0].nauthors == n) {
			const mpub_t *p = &m->sections[0].pubs[0];
			for (int i = 0; i < n; i++) {
				int want = !strcmp(au[i], forms[o].owner) ||
				           profile_name_match(forms[o].owner, au[i]);
				int got = !!(p->aflags[i] & AUTHOR_OWNER);
				if (got != want) {
					t_fail++;
					fprintf(stderr, "owner '%s', author '%s': marked %d, expected %d\n",
					        forms[o].owner, au[i], got, want);
				}
			}
		} else {
			CHECK(0);
		}
		t_run++;
		errs_done(&e);
		arena_free(a);
		buf_done(&y);
	}
}

int main(void)
{
	RUN(name_forms);
	RUN(name_marks);
	RUN(name_marks_agree);
	return t_report();
}
