/* hyph: hyphenation points from libhyphen; see hyph.h.
 *
 * hyph_open("en") finds /usr/share/hyphen/hyph_en_US.dic (or hyph_en.dic)
 * and only checks that it is readable: parsing the patterns costs ~37M
 * instructions (twice a whole CV's layout), and most paragraphs never need
 * them (flow tries a break without hyphens first). The first hyph_word
 * call that has a real candidate word loads them, once, for the hyph_t's
 * lifetime (a load failure is remembered: no hyphenation, no retries).
 * hyph_word(h, "hyphenation", 11, offs, max) returns the byte
 * offsets a hyphen may precede. The dictionary's first line names its
 * encoding: UTF-8 words are passed as they are; ISO8859-1 dictionaries get
 * the word re-encoded (words with characters beyond Latin-1 are left
 * alone). Only words made entirely of lowercase letters are hyphenated,
 * at least 2 letters before and 3 after every break.
 */
#include <hyphen.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "file.h"
#include "hyph.h"
#include "utf8.h"
#include "deps.h"

#define HYPH_DIR "/usr/share/hyphen"
#define HYPH_MAXWORD 100          /* letters; longer words are not split */
#define HYPH_LMIN 2
#define HYPH_RMIN 3

struct hyph {
	HyphenDict *dict;         /* NULL until the first real hyph_word */
	int latin1;               /* the dictionary is ISO8859-1 */
	int koi8r;                /* the dictionary is KOI8-R (Russian) */
	int failed;               /* loading was tried and failed */
	char path[256];
};

/* Candidate file names for a language tag: "en-US" -> hyph_en_US.dic,
 * hyph_en.dic; "en" -> hyph_en_US.dic too (the common install). */
static int hyph_paths(const char *lang, char paths[][256], int max)
{
	char ll[16] = "", rr[16] = "";
	int n = 0, i = 0;
	while (lang[i] && lang[i] != '-' && lang[i] != '_' && i < 15) {
		ll[i] = (char)(lang[i] >= 'A' && lang[i] <= 'Z' ? lang[i] + 32 : lang[i]);
		i++;
	}
	ll[i] = 0;
	if (lang[i] == '-' || lang[i] == '_') {
		int j = 0;
		for (i++; lang[i] && j < 15; i++, j++)
			rr[j] = (char)(lang[i] >= 'a' && lang[i] <= 'z' ? lang[i] - 32 : lang[i]);
		rr[j] = 0;
	}
	if (!ll[0])
		return 0;
	if (rr[0] && n < max)
		snprintf(paths[n++], 256, "%s/hyph_%s_%s.dic", HYPH_DIR, ll, rr);
	if (n < max)
		snprintf(paths[n++], 256, "%s/hyph_%s.dic", HYPH_DIR, ll);
	if (!strcmp(ll, "en") && n < max)
		snprintf(paths[n++], 256, "%s/hyph_en_US.dic", HYPH_DIR);
	/* "es" -> hyph_es_ES.dic, "ru" -> hyph_ru_RU.dic (Debian ships no
	   hyph_es.dic or hyph_ru.dic) */
	char up[16];
	for (i = 0; ll[i]; i++)
		up[i] = (char)(ll[i] >= 'a' && ll[i] <= 'z' ? ll[i] - 32 : ll[i]);
	up[i] = 0;
	if (n < max)
		snprintf(paths[n++], 256, "%s/hyph_%s_%s.dic", HYPH_DIR, ll, up);
	return n;
}

/* The first line of a .dic names its character set. */
static int dic_is_latin1(const char *path)
{
	char line[64] = "";
	FILE *f = file_fopen(path, FILE_MAX_TEXT, NULL);
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	if (!strncmp(line, "KOI8-R", 6))
		return 2;
	return !strncmp(line, "ISO8859-1", 9) || !strncmp(line, "ISO-8859-1", 10);
}

/* KOI8-R byte of a lowercase Cyrillic letter, 0 if none. */
static int koi8r(uint32_t c)
{
	static const char *lower = "юабцдефгхийклмнопярстужвьызшэщчъ";
	if (c == 0x451)
		return 0xA3; /* ё */
	for (int i = 0, k = 0; lower[k]; i++) {
		uint32_t x;
		int l = utf8_decode(lower + k, 4, &x);
		if (x == c)
			return 0xC0 + i;
		k += l;
	}
	return 0;
}

hyph_t *hyph_open(const char *lang, errs_t *e)
{
	char paths[4][256];
	int n = hyph_paths(lang ? lang : "", paths, 4);
	for (int i = 0; i < n; i++) {
		int fd = file_open(paths[i], FILE_MAX_TEXT, NULL, NULL);
		if (fd < 0)
			continue;   /* missing, or not a regular file: never a FIFO */
		close(fd);
		deps_add(paths[i]); /* read when a word needs it */
		hyph_t *h = xcalloc(1, sizeof(*h));
		memcpy(h->path, paths[i], sizeof(h->path));
		return h;
	}
	err_sys(e, n ? paths[0] : HYPH_DIR,
	        "no hyphenation patterns for language '%s' in %s",
	        lang ? lang : "", HYPH_DIR);
	return NULL;
}

/* Parse the patterns (once). 0 when they are usable. */
static int hyph_load(hyph_t *h)
{
	if (h->dict)
		return 0;
	if (h->failed)
		return -1;
	h->dict = hnj_hyphen_load(h->path);
	if (!h->dict) {
		h->failed = 1;
		return -1;
	}
	int enc = dic_is_latin1(h->path);
	h->latin1 = enc == 1;
	h->koi8r = enc == 2;
	return 0;
}

int hyph_loaded(const hyph_t *h)
{
	return h && h->dict;
}

void hyph_close(hyph_t *h)
{
	if (!h)
		return;
	if (h->dict)
		hnj_hyphen_free(h->dict);
	free(h);
}

/* Lowercase letters of Latin scripts (ASCII, Latin-1, Latin Extended-A). */
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
		return 1;   /* Cyrillic */
	return c == 0x17F;
}

/* Decode w into code points with their byte offsets; 0 when the word is
 * not all lowercase letters (or is too short or too long). */
static int word_cps(const char *w, size_t n, uint32_t *cps, int *off, int max)
{
	int k = 0;
	for (size_t i = 0; i < n;) {
		uint32_t c;
		int l = utf8_decode(w + i, n - i, &c);
		if (!l || !is_lower(c) || k >= max)
			return 0;
		cps[k] = c;
		off[k++] = (int)i;
		i += (size_t)l;
	}
	return k;
}

int hyph_word(hyph_t *h, const char *w, size_t n, int *offs, int max)
{
	uint32_t cps[HYPH_MAXWORD];
	int off[HYPH_MAXWORD], k, cnt = 0;
	char enc[HYPH_MAXWORD * 4 + 1], hy[HYPH_MAXWORD * 4 + 5];
	char **rep = NULL;
	int *pos = NULL, *cut = NULL, len = 0;
	if (!h || !w || max <= 0)
		return 0;
	k = word_cps(w, n, cps, off, HYPH_MAXWORD);
	if (k < HYPH_LMIN + HYPH_RMIN || hyph_load(h))
		return 0;
	if (h->latin1) {
		for (int i = 0; i < k; i++) {
			if (cps[i] > 0xFF)
				return 0;
			enc[len++] = (char)cps[i];
		}
	} else if (h->koi8r) {
		for (int i = 0; i < k; i++) {
			int b = koi8r(cps[i]);
			if (!b)
				return 0;
			enc[len++] = (char)b;
		}
	} else {
		memcpy(enc, w, n);
		len = (int)n;
	}
	enc[len] = 0;
	memset(hy, 0, sizeof(hy));
	if (hnj_hyphen_hyphenate3(h->dict, enc, len, hy, NULL, &rep, &pos, &cut,
	                          HYPH_LMIN, HYPH_RMIN, HYPH_LMIN, HYPH_RMIN) == 0) {
		/* hy[i] odd: a break after letter i (indexed by letter in UTF-8
		 * dictionaries too: libhyphen normalises the array) */
		for (int i = HYPH_LMIN - 1; i < k - HYPH_RMIN && cnt < max; i++)
			if ((hy[i] & 1) && !(rep && rep[i]))
				offs[cnt++] = off[i + 1];
	}
	if (rep) {
		for (int i = 0; i < len; i++)
			free(rep[i]);
		free(rep);
	}
	free(pos);
	free(cut);
	return cnt;
}
