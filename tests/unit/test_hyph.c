/* test_hyph: hyphenation points from the installed en_US patterns. */
#include <stdlib.h>
#include "hyph.h"
#include "t.h"

static hyph_t *h;

/* The word with "-" at each point: "hy-phen-ation". */
static const char *split(const char *w)
{
	static char out[256];
	int offs[64], n = hyph_word(h, w, strlen(w), offs, 64), k = 0, j = 0;
	for (int i = 0; w[i]; i++) {
		if (j < n && offs[j] == i) {
			out[k++] = '-';
			j++;
		}
		out[k++] = w[i];
	}
	out[k] = 0;
	return out;
}

TEST(words)
{
	EQ_STR(split("hyphenation"), "hy-phen-ation");
	EQ_STR(split("typesetting"), "type-set-ting");
	EQ_STR(split("Pekhimenko"), "Pekhimenko");
	EQ_STR(split("GPU"), "GPU");
	EQ_STR(split("x86"), "x86");
	EQ_STR(split("cat"), "cat");
	EQ_STR(split("e-mail"), "e-mail");
	EQ_STR(split("don't"), "don't");
	EQ_STR(split(""), "");
}

/* No break leaves fewer than 2 letters before or 3 after it. */
TEST(minima)
{
	static const char *w[] = {"hyphenation", "accelerators", "compilers",
	                          "distributed", "optimization", "university",
	                          "characterization", "abbreviation", "ideas"};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		int offs[64], n = hyph_word(h, w[i], strlen(w[i]), offs, 64);
		int len = (int)strlen(w[i]);
		for (int j = 0; j < n; j++) {
			CHECK(offs[j] >= 2);
			CHECK(len - offs[j] >= 3);
			if (j)
				CHECK(offs[j] > offs[j - 1]);
		}
	}
	int offs[2];
	CHECK(hyph_word(h, "characterization", 16, offs, 1) <= 1);
}

/* Offsets are bytes even past non-ASCII letters. */
TEST(utf8)
{
	int offs[16], n = hyph_word(h, "\xc3\xa9lectronique", 13, offs, 16);
	for (int i = 0; i < n; i++) {
		CHECK(offs[i] >= 3);
		CHECK((unsigned char)"\xc3\xa9lectronique"[offs[i]] < 0x80);
	}
	CHECK(hyph_word(h, "caf\xc3\xa9", 5, offs, 16) == 0);
}

TEST(no_patterns)
{
	errs_t e;
	errs_init(&e);
	CHECK(hyph_open("xx-nowhere", &e) == NULL);
	CHECK(e.nerrors == 1);
	errs_done(&e);
}

/* Opening only finds the file; the first real candidate loads it. */
TEST(lazy)
{
	errs_t e;
	int offs[16];
	errs_init(&e);
	hyph_t *l = hyph_open("en-US", &e);
	CHECK(l != NULL);
	CHECK(!hyph_loaded(l));
	CHECK(!hyph_loaded(NULL));
	EQ_INT(hyph_word(l, "GPU", 3, offs, 16), 0);
	EQ_INT(hyph_word(l, "cat", 3, offs, 16), 0);
	EQ_INT(hyph_word(l, "Pekhimenko", 10, offs, 16), 0);
	CHECK(!hyph_loaded(l));
	EQ_INT(hyph_word(l, "hyphenation", 11, offs, 16), 2);
	CHECK(hyph_loaded(l));
	EQ_INT(hyph_word(l, "typesetting", 11, offs, 16), 2);
	hyph_close(l);
	l = hyph_open("en", &e);   /* closing unloaded is fine too */
	hyph_close(l);
	hyph_close(NULL);
	EQ_INT(e.n, 0);
	errs_done(&e);
}

int main(void)
{
	errs_t e;
	errs_init(&e);
	h = hyph_open("en", &e);
	CHECK(h != NULL);
	if (!h) {
		errs_print(stderr, &e);
		return 1;
	}
	RUN(lazy);
	RUN(words);
	RUN(minima);
	RUN(utf8);
	RUN(no_patterns);
	hyph_close(h);
	errs_done(&e);
	return t_report();
}
