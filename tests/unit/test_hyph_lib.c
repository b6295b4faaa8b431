/* test_hyph_lib: hyph.c's own walk over its compiled patterns gives the
 * break points libhyphen gives, word for word, in every installed
 * dictionary a locale of vita uses (en, de, fr, es, it, pt, pt-BR, ru:
 * UTF-8, ISO8859-1 and KOI8-R; de with its compound level), once from a
 * freshly compiled form and once from the cache file (read by blocks).
 *
 * The words (only what hyph_word hyphenates: lowercase letters) come
 * from each dictionary's own patterns (their letters, digits and dots
 * removed, each alone, inside random letters, and two or three of them
 * joined, which is what reaches de's compound level), from random
 * letters of the patterns' alphabet, and from the repository's CVs. The
 * reference is hnj_hyphen_hyphenate3 with hyph_word's minima (2 letters
 * before a break, 3 after) and its filtering. */
#include <hyphen.h>
#include <dirent.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hyph.h"
#include "utf8.h"
#include "t.h"

#define MAXW 100      /* hyph_word's longest word, in letters */
#define MAXA 128      /* letters of an alphabet */

static uint64_t rnd_state = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

/* hyph.c's letters (is_lower), so that every word is one it hyphenates */
static int is_lower(uint32_t c)
{
	if (c >= 'a' && c <= 'z')
		return 1;
	if (c >= 0xDF && c <= 0xFF)
		return c != 0xF7;
	if (c >= 0x100 && c <= 0x137)
		return c & 1;
	if (c >= 0x139 && c <= 0x148)
		return !(c & 1);
	if (c >= 0x14A && c <= 0x177)
		return c & 1;
	if (c >= 0x17A && c <= 0x17E)
		return !(c & 1);
	if (c >= 0x430 && c <= 0x45F)
		return 1;
	return c == 0x17F;
}

/* A growing list of UTF-8 words. */
typedef struct {
	char **v;
	int n, cap;
} words_t;

static void words_add(words_t *w, const char *s, size_t n)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 1024;
		w->v = realloc(w->v, (size_t)w->cap * sizeof(*w->v));
	}
	char *c = malloc(n + 1);
	memcpy(c, s, n);
	c[n] = 0;
	w->v[w->n++] = c;
}

static void words_free(words_t *w)
{
	for (int i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* s (n bytes) converted by cd; the bytes written, -1 when it cannot be */
static int conv(iconv_t cd, const char *s, size_t n, char *out, size_t max)
{
	char *in = (char *)s, *o = out;
	size_t il = n, ol = max - 1;
	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &in, &il, &o, &ol) == (size_t)-1 || il)
		return -1;
	*o = 0;
	return (int)(o - out);
}

/* Letters, whole words: every code point lowercase, 5 to MAXW of them. */
static int word_ok(const char *s, size_t n)
{
	int k = 0;
	for (size_t i = 0; i < n; k++) {
		uint32_t c;
		int l = utf8_decode(s + i, n - i, &c);
		if (!l || !is_lower(c))
			return 0;
		i += (size_t)l;
	}
	return k >= 1 && k <= MAXW;
}

/* The dictionary's patterns as UTF-8 letter strings (digits, dots and
 * anything after a space or slash dropped), and its alphabet. */
static void patterns(const char *path, iconv_t to8, words_t *frags, uint32_t *alpha, int *na)
{
	FILE *f = fopen(path, "rb");
	char line[512], u[2048], s[512];
	if (!f)
		return;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t k = 0;
		if (line[0] == '%' || !strncmp(line, "NEXTLEVEL", 9))
			continue;
		for (size_t i = 0; line[i] && line[i] != '\n' && line[i] != ' ' && line[i] != '/'; i++)
			if (!(line[i] >= '0' && line[i] <= '9') && line[i] != '.')
				s[k++] = line[i];
		int n = conv(to8, s, k, u, sizeof(u));
		if (n <= 0 || !word_ok(u, (size_t)n))
			continue;
		words_add(frags, u, (size_t)n);
		for (int i = 0; i < n;) {
			uint32_t c;
			int l = utf8_decode(u + i, (size_t)(n - i), &c), j;
			for (j = 0; j < *na && alpha[j] != c; j++)
				;
			if (j == *na && *na < MAXA)
				alpha[(*na)++] = c;
			i += l;
		}
	}
	fclose(f);
}

/* Lowercase words of 5+ letters in the repository's CVs. */
static void cv_words(words_t *w)
{
	static const char *dirs[] = {"profiles", "examples", "tests/golden", "tests/bench"};
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		DIR *dp = opendir(dirs[d]);
		struct dirent *e;
		while (dp && (e = readdir(dp))) {
			size_t l = strlen(e->d_name);
			if (l < 6 || strcmp(e->d_name + l - 5, ".yaml"))
				continue;
			char p[512], buf[4096];
			snprintf(p, sizeof(p), "%s/%s", dirs[d], e->d_name);
			FILE *f = fopen(p, "rb");
			while (f && fgets(buf, sizeof(buf), f)) {
				size_t i = 0, n = strlen(buf);
				while (i < n) {
					size_t j = i;
					for (;;) {
						uint32_t c;
						int cl = utf8_decode(buf + j, n - j, &c);
						if (!cl || !is_lower(c))
							break;
						j += (size_t)cl;
					}
					if (j > i + 4 && word_ok(buf + i, j - i))
						words_add(w, buf + i, j - i);
					if (j == i) {
						uint32_t c;
						int cl = utf8_decode(buf + j, n - j, &c);
						j += cl ? (size_t)cl : 1;
					}
					i = j;
				}
			}
			if (f)
				fclose(f);
		}
		if (dp)
			closedir(dp);
	}
}

/* What hyph_word should return for w, from libhyphen itself. */
static int ref_word(HyphenDict *d, iconv_t from8, const char *w, int *offs, int max)
{
	int off[MAXW + 1], k = 0, cnt = 0;
	char enc[MAXW * 4 + 1], hy[MAXW * 4 + 5];
	char **rep = NULL;
	int *pos = NULL, *cut = NULL;
	size_t n = strlen(w);
	for (size_t i = 0; i < n && k <= MAXW; k++) {
		uint32_t c;
		off[k] = (int)i;
		i += (size_t)utf8_decode(w + i, n - i, &c);
	}
	if (k < 5 || k > MAXW)
		return 0;
	int len = conv(from8, w, n, enc, sizeof(enc));
	if (len < 0)
		return 0;
	memset(hy, 0, sizeof(hy));
	if (hnj_hyphen_hyphenate3(d, enc, len, hy, NULL, &rep, &pos, &cut, 2, 3, 2, 3) == 0)
		for (int i = 1; i < k - 3 && cnt < max; i++)
			if ((hy[i] & 1) && !(rep && rep[i]))
				offs[cnt++] = off[i + 1];
	if (rep) {
		for (int i = 0; i < len; i++)
			free(rep[i]);
		free(rep);
	}
	free(pos);
	free(cut);
	return cnt;
}

static char cachedir[256];
static long compared;

/* Every word through hyph_word and through libhyphen; the mismatches. */
static int compare(const char *lang, HyphenDict *d, iconv_t from8, const words_t *w)
{
	errs_t e;
	errs_init(&e);
	hyph_t *h = hyph_open(lang, &e);
	int bad = 0;
	CHECK(h != NULL);
	for (int i = 0; h && i < w->n; i++) {
		int a[MAXW], b[MAXW];
		int na = hyph_word(h, w->v[i], strlen(w->v[i]), a, MAXW);
		int nb = ref_word(d, from8, w->v[i], b, MAXW);
		compared++;
		if (na == nb && !memcmp(a, b, (size_t)na * sizeof(int)))
			continue;
		if (bad++ < 10) {
			fprintf(stderr, "%s: '%s': hyph_word", lang, w->v[i]);
			for (int j = 0; j < na; j++)
				fprintf(stderr, " %d", a[j]);
			fprintf(stderr, "; libhyphen");
			for (int j = 0; j < nb; j++)
				fprintf(stderr, " %d", b[j]);
			fprintf(stderr, "\n");
		}
	}
	hyph_close(h);
	errs_done(&e);
	return bad;
}

static void one(const char *lang, const char *file, const words_t *cv)
{
	char path[256], cache[512];
	snprintf(path, sizeof(path), "/usr/share/hyphen/%s", file);
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "  %s: no %s (skipped)\n", lang, path);
		return;
	}
	HyphenDict *d = hnj_hyphen_load(path);
	CHECK(d != NULL);
	if (!d)
		return;
	iconv_t to8 = iconv_open("UTF-8", d->cset), from8 = iconv_open(d->cset, "UTF-8");
	CHECK(to8 != (iconv_t)-1 && from8 != (iconv_t)-1);
	if (to8 == (iconv_t)-1 || from8 == (iconv_t)-1) {
		hnj_hyphen_free(d);
		return;
	}
	words_t frags = {0}, w = {0};
	uint32_t alpha[MAXA];
	int na = 0;
	patterns(path, to8, &frags, alpha, &na);
	CHECK(frags.n > 100 && na >= 20);
	char buf[MAXW * 8];
	for (int i = 0; i < 6000 && frags.n; i++) {   /* patterns alone */
		const char *f = frags.v[frags.n > 6000 ? rnd((unsigned)frags.n) : (unsigned)i % frags.n];
		words_add(&w, f, strlen(f));
	}
	for (int i = 0; i < 9000 && frags.n && na; i++) {
		/* inside random letters; two or three joined; random letters */
		size_t k = 0;
		int parts = i < 3000 ? 1 : i < 6000 ? 2 + (int)rnd(2) : 0;
		int pre = i < 3000 ? (int)rnd(5) : 0, post = i < 3000 ? (int)rnd(5) : 0;
		if (!parts)
			pre = 5 + (int)rnd(20);
		for (int j = 0; j < pre; j++)
			k += (size_t)utf8_encode(alpha[rnd((unsigned)na)], buf + k);
		for (int p = 0; p < parts; p++) {
			const char *f = frags.v[rnd((unsigned)frags.n)];
			size_t l = strlen(f);
			if (k + l + 40 < sizeof(buf) / 2) {
				memcpy(buf + k, f, l);
				k += l;
			}
		}
		for (int j = 0; j < post; j++)
			k += (size_t)utf8_encode(alpha[rnd((unsigned)na)], buf + k);
		if (word_ok(buf, k))
			words_add(&w, buf, k);
	}
	for (int i = 0; i < cv->n; i++)
		words_add(&w, cv->v[i], strlen(cv->v[i]));

	snprintf(cache, sizeof(cache), "%s/vita/%s.hyc", cachedir, file);
	unlink(cache);
	int bad = compare(lang, d, from8, &w);      /* compiled now, cache written */
	EQ_INT(bad, 0);
	if (access(cache, R_OK) != 0) {
		CHECK(!"no cache file written");
		fprintf(stderr, "  %s: no %s\n", lang, cache);
	}
	bad = compare(lang, d, from8, &w);          /* from the mapped cache */
	EQ_INT(bad, 0);
	fprintf(stderr, "  %s: %d words, %d letters in the patterns' alphabet\n", lang, w.n, na);
	words_free(&w);
	words_free(&frags);
	iconv_close(to8);
	iconv_close(from8);
	hnj_hyphen_free(d);
}

TEST(every_dictionary)
{
	static const char *langs[][2] = {
		{"en", "hyph_en.dic"}, {"de", "hyph_de.dic"},    {"fr", "hyph_fr.dic"},
		{"es", "hyph_es_ES.dic"}, {"it", "hyph_it.dic"},    {"pt", "hyph_pt.dic"},
		{"pt-BR", "hyph_pt_BR.dic"}, {"ru", "hyph_ru_RU.dic"},
	};
	words_t cv = {0};
	cv_words(&cv);
	CHECK(cv.n > 500);
	for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++)
		one(langs[i][0], langs[i][1], &cv);
	words_free(&cv);
	fprintf(stderr, "  %ld words compared\n", compared);
}

int main(void)
{
	if (t_tmpdir(cachedir, sizeof(cachedir), "vita-hyphlib") != 0)
		return 1;
	setenv("XDG_CACHE_HOME", cachedir, 1);
	unsetenv("VITA_NO_HYPH_CACHE");
	RUN(every_dictionary);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cachedir);
	if (system(cmd) != 0)
		return 1;
	return t_report();
}
