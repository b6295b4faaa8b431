/* test_hyph: hyphenation points from the installed en_US patterns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
	/* a capitalised word as its lower case (TeX's \uchyph=1); capitals not */
	EQ_STR(split("Pekhimenko"), "Pekhi-menko");
	EQ_STR(split("Hyphenation"), "Hy-phen-ation");
	EQ_STR(split("HYPHENATION"), "HYPHENATION");
	EQ_STR(split("HyphenatioN"), "HyphenatioN");
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
	EQ_INT(hyph_word(l, "NVIDIA", 6, offs, 16), 0);
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

/* (at least 2 letters before and 3 after a break) Each language with Debian patterns (hyphen-de, -fr, -es, -it, -pt-pt,
 * -ru, -el): found by its code alone, in its own encoding (ISO8859-1 for
 * de and pt, KOI8-R for ru, ISO8859-7 for el, UTF-8 for the others), with
 * the breaks the patterns give. */
static void lang_case(const char *lang, const char *word, const char *want)
{
	errs_t e;
	errs_init(&e);
	hyph_t *l = hyph_open(lang, &e);
	CHECK(l != NULL);
	if (!l) {
		fprintf(stderr, "  no patterns for %s\n", lang);
		errs_done(&e);
		return;
	}
	int offs[32], n = hyph_word(l, word, strlen(word), offs, 32);
	char got[256] = "";
	size_t k = 0;
	for (int i = 0, j = 0; word[i] && k + 2 < sizeof(got); i++) {
		if (j < n && offs[j] == i) {
			got[k++] = '-';
			j++;
		}
		got[k++] = word[i];
	}
	got[k] = 0;
	EQ_STR(got, want);
	hyph_close(l);
	errs_done(&e);
}

TEST(languages)
{
	lang_case("de", "silbentrennung", "sil-ben-tren-nung");
	lang_case("de-DE", "donaudampfschiff", "do-nau-dampf-schiff");
	lang_case("fr", "typographie", "ty-po-gra-phie");
	lang_case("es", "universidad", "uni-ver-si-dad");
	lang_case("it", "università", "uni-ver-sità");
	lang_case("pt", "universidade", "uni-ver-si-dade");
	lang_case("ru", "университет", "уни-вер-си-тет");
	/* German nouns are capitalised; Greek in ISO8859-7 (hyphen-el) */
	lang_case("de", "Forschungslaboratorien", "For-schungs-la-bo-ra-to-rien");
	lang_case("ru", "Университет", "Уни-вер-си-тет");
	lang_case("el", "πολυτεχνείο", "πο-λυ-τε-χνείο");
	lang_case("el", "Πολυτεχνείο", "Πο-λυ-τε-χνείο");
	lang_case("el", "εξυπηρέτηση", "εξυ-πη-ρέτηση");
	/* Brahmic scripts: caseless, a word's vowel signs and viramas in it
	   (hyphen-ta, -hi, -ml: Debian ships hyph_ta_IN.dic etc. only, found
	   by the code alone) */
	lang_case("ta", "பல்கலைக்கழகத்தில்", "பல்-க-லைக்-க-ழ-கத்-தில்");
	lang_case("hi", "विश्वविद्यालय", "वि-श्व-वि-द्यालय");
	lang_case("ml", "സർവ്വകലാശാലയിൽ", "സർ-വ്വ-ക-ലാ-ശാ-ല-യിൽ");
	lang_case("ta-IN", "பல்கலைக்கழகத்தில்", "பல்-க-லைக்-க-ழ-கத்-தில்");
	errs_t e;
	errs_init(&e);
	CHECK(hyph_open("zh", &e) == NULL);   /* CJK: no patterns, no hyphens */
	CHECK(hyph_open("ar", &e) == NULL);
	errs_done(&e);
}

static char cachedir[256];

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0)
		n = ftell(f);
	if (f)
		fclose(f);
	return n;
}

/* The whole file, malloc'd; *n its size (-1: none). */
static unsigned char *file_get(const char *path, long *n)
{
	*n = file_size(path);
	FILE *f = *n >= 0 ? fopen(path, "rb") : NULL;
	unsigned char *p = *n >= 0 ? malloc((size_t)*n + 1) : NULL;
	if (!f || !p || fread(p, 1, (size_t)*n, f) != (size_t)*n) {
		free(p);
		p = NULL;
	}
	if (f)
		fclose(f);
	return p;
}

static void file_put(const char *path, const unsigned char *p, long n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		CHECK(fwrite(p, 1, (size_t)n, f) == (size_t)n);
		fclose(f);
	}
}

/* Breaks of a few words through a fresh handle: never a crash, always
 * ascending, inside the minima; 1 when they are exactly the patterns'. */
static int words_sane(const char *lang)
{
	static const char *w[] = {"hyphenation", "typesetting", "accelerators",
	                          "characterization", "extraordinarily", "university"};
	static const char *want[] = {"hy-phen-ation", "type-set-ting", "ac-cel-er-a-tors",
	                             "char-ac-ter-i-za-tion", "ex-traor-di-nar-ily", "uni-ver-sity"};
	errs_t e;
	errs_init(&e);
	hyph_t *l = hyph_open(lang, &e);
	int same = l != NULL;
	for (size_t i = 0; l && i < sizeof(w) / sizeof(w[0]); i++) {
		int offs[64], n = hyph_word(l, w[i], strlen(w[i]), offs, 64);
		int len = (int)strlen(w[i]);
		char got[128];
		CHECK(n >= 0 && n < len);
		for (int j = 0, k = 0, c = 0; j <= len; j++) {
			if (c < n && offs[c] == j) {
				got[k++] = '-';
				c++;
			}
			got[k++] = w[i][j];
		}
		for (int j = 0; j < n; j++) {
			CHECK(offs[j] >= 2 && len - offs[j] >= 3);
			CHECK(j == 0 || offs[j] > offs[j - 1]);
		}
		same &= !strcmp(got, want[i]);
	}
	hyph_close(l);
	errs_done(&e);
	return same;
}

/* The compiled patterns are cached under $XDG_CACHE_HOME/vita and read
 * by later loads: the same breaks in every encoding. Only the header is
 * checked (the .dic's path, size and time, the format, the file's size):
 * a truncated, foreign or stale file is ignored and rewritten; a byte
 * changed anywhere else is never a crash (every index is checked where
 * it is used), only perhaps other breaks. */
TEST(cache)
{
	char path[512], dpath[512];
	long n, m;
	snprintf(path, sizeof(path), "%s/vita/hyph_en_US.dic.hyc", cachedir);
	snprintf(dpath, sizeof(dpath), "%s/vita/hyph_de.dic.hyc", cachedir);
	n = file_size(path);
	CHECK(n > 1000);    /* written by the first load */
	lang_case("en-US", "hyphenation", "hy-phen-ation");
	lang_case("de", "silbentrennung", "sil-ben-tren-nung");   /* from the cache now */
	lang_case("ru", "университет", "уни-вер-си-тет");
	/* German nouns are capitalised; Greek in ISO8859-7 (hyphen-el) */
	lang_case("de", "Forschungslaboratorien", "For-schungs-la-bo-ra-to-rien");
	lang_case("ru", "Университет", "Уни-вер-си-тет");
	lang_case("el", "πολυτεχνείο", "πο-λυ-τε-χνείο");
	lang_case("el", "Πολυτεχνείο", "Πο-λυ-τε-χνείο");
	lang_case("el", "εξυπηρέτηση", "εξυ-πη-ρέτηση");
	lang_case("fr", "typographie", "ty-po-gra-phie");
	CHECK(words_sane("en-US"));
	unsigned char *good = file_get(path, &n), *bad = good ? malloc((size_t)n) : NULL;
	CHECK(bad != NULL);
	if (!bad) {
		free(good);
		return;
	}
	/* a byte changed in the body, at 61 places in turn */
	for (long at = 512; at < n; at += n / 61 + 1) {
		memcpy(bad, good, (size_t)n);
		bad[at] ^= 0x5A;
		file_put(path, bad, n);
		words_sane("en-US");
		EQ_INT(file_size(path), n);
	}
	/* all of the body garbage */
	memcpy(bad, good, 512);
	for (long i = 512; i < n; i++)
		bad[i] = (unsigned char)(i * 2654435761u >> 13);
	file_put(path, bad, n);
	words_sane("en-US");
	/* the header: another format, .dic size or file size: rewritten */
	static const int hdr[] = {0, 3, 8, 12, 24, 32, 40, 48, 80, 100};
	for (size_t i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++) {
		memcpy(bad, good, (size_t)n);
		bad[hdr[i]] ^= 0x21;
		file_put(path, bad, n);
		CHECK(words_sane("en-US"));
		unsigned char *now = file_get(path, &m);
		CHECK(now && m == n && !memcmp(now, good, (size_t)n));
		free(now);
	}
	/* truncated: rewritten whole */
	CHECK(truncate(path, n / 3) == 0);
	CHECK(words_sane("en-US"));
	EQ_INT(file_size(path), n);
	/* foreign: another dictionary's cache under this name */
	unsigned char *de = file_get(dpath, &m);
	CHECK(de != NULL);
	if (de)
		file_put(path, de, m);
	free(de);
	CHECK(words_sane("en-US"));
	EQ_INT(file_size(path), n);
	/* a few bytes, and nothing */
	file_put(path, good, 7);
	CHECK(words_sane("en-US"));
	file_put(path, good, 0);
	CHECK(words_sane("en-US"));
	unsigned char *now = file_get(path, &m);
	CHECK(now && m == n && !memcmp(now, good, (size_t)n));
	free(now);
	free(good);
	free(bad);
	setenv("VITA_NO_HYPH_CACHE", "1", 1);
	unlink(path);
	lang_case("en-US", "hyphenation", "hy-phen-ation");
	CHECK(words_sane("en-US"));
	CHECK(file_size(path) < 0);
	unsetenv("VITA_NO_HYPH_CACHE");
}

/* How many lines of /proc/self/maps name a .hyc file (-1: unreadable). */
static int hyc_maps(void)
{
	FILE *m = fopen("/proc/self/maps", "r");
	char line[1024];
	int n = 0;
	if (!m)
		return -1;
	while (fgets(line, sizeof(line), m))
		n += strstr(line, ".hyc") != NULL;
	fclose(m);
	return n;
}

/* A handle's breaks of w, as "sil-ben-tren-nung". */
static const char *split_with(hyph_t *l, const char *w)
{
	hyph_t *keep = h;
	h = l;
	const char *r = split(w);
	h = keep;
	return r;
}

/* The cache file is read by blocks, never mapped (a file vita wrote sits
 * in the page cache in large folios, mapped whole by a fault: MBs of
 * resident memory); a file cut while a handle reads it gives zeros past
 * its end, never a crash (a mapping would give SIGBUS), and is then
 * rewritten. */
TEST(blocks)
{
	char dpath[512];
	errs_t e;
	errs_init(&e);
	snprintf(dpath, sizeof(dpath), "%s/vita/hyph_de.dic.hyc", cachedir);
	long n = file_size(dpath);
	CHECK(n > 100000);   /* written by an earlier test */
	hyph_t *l = hyph_open("de", &e);
	CHECK(l != NULL);
	if (!l) {
		errs_done(&e);
		return;
	}
	EQ_STR(split_with(l, "silbentrennung"), "sil-ben-tren-nung");
	EQ_INT(hyc_maps(), 0);
	EQ_STR(split_with(l, "donaudampfschiff"), "do-nau-dampf-schiff");
	EQ_STR(split_with(l, "wissenschaftlerin"), "wis-sen-schaft-le-rin");
	EQ_INT(hyc_maps(), 0);
	CHECK(truncate(dpath, 8192) == 0);
	static const char *w[] = {"universitaetsbibliothek", "forschungsgemeinschaft",
	                          "zusammenarbeit", "entwicklungsumgebung"};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		int offs[64], k = hyph_word(l, w[i], strlen(w[i]), offs, 64);
		CHECK(k >= 0 && k < (int)strlen(w[i]));
		for (int j = 0; j < k; j++)
			CHECK(offs[j] >= 2 && (int)strlen(w[i]) - offs[j] >= 3 && (j == 0 || offs[j] > offs[j - 1]));
	}
	hyph_close(l);
	lang_case("de", "silbentrennung", "sil-ben-tren-nung");   /* compiled again */
	EQ_INT(file_size(dpath), n);
	errs_done(&e);
}

int main(void)
{
	if (t_tmpdir(cachedir, sizeof(cachedir), "vita-hyph") != 0)
		return 1;
	setenv("XDG_CACHE_HOME", cachedir, 1);
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
	RUN(languages);
	RUN(cache);
	RUN(blocks);
	hyph_close(h);
	errs_done(&e);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cachedir);
	if (system(cmd) != 0)
		return 1;
	return t_report();
}
