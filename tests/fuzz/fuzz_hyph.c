/* fuzz_hyph: libFuzzer target for hyph.c's reader of its cache file (the
 * compiled patterns, read by blocks and walked in place without a
 * checksum: see hyph.c). At start the installed en_US and ru patterns
 * are compiled into a private $XDG_CACHE_HOME; an input is byte 0 (bit
 * 0: which dictionary; bits 1 and 2 both set: patches may reach the
 * header too, which mostly makes the file rejected and compiled again,
 * slowly), then patches of 4 bytes (a 24-bit offset into the file, a
 * byte to put there). The damaged file is written back under its name
 * and words are hyphenated through it: any crash, hang or out-of-bounds
 * read is a bug, and the breaks must stay ascending and inside the word
 * (which breaks is not checked: a damaged body may give other ones). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hyph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const langs[2] = {"en-US", "ru"};
static const char *const files[2] = {"hyph_en_US.dic.hyc", "hyph_ru_RU.dic.hyc"};
static char paths[2][512];
static unsigned char *base[2];
static size_t baselen[2];

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	long l;
	if (f && fseek(f, 0, SEEK_END) == 0 && (l = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (p = malloc((size_t)l)) && fread(p, 1, (size_t)l, f) == (size_t)l)
		*n = (size_t)l;
	else {
		free(p);
		p = NULL;
	}
	if (f)
		fclose(f);
	return p;
}

static char dir[512];

/* The private cache goes when the fuzzer exits. */
static void cleanup(void)
{
	char sub[600];
	for (int k = 0; k < 2; k++)
		if (paths[k][0])
			unlink(paths[k]);
	snprintf(sub, sizeof(sub), "%s/vita", dir);
	rmdir(sub);
	rmdir(dir);
}

static void make_bases(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/vita-fuzz-hyph-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		exit(2);
	}
	atexit(cleanup);
	setenv("XDG_CACHE_HOME", dir, 1);
	unsetenv("VITA_NO_HYPH_CACHE");
	for (int k = 0; k < 2; k++) {
		errs_t e;
		int offs[8];
		errs_init(&e);
		hyph_t *h = hyph_open(langs[k], &e);
		hyph_word(h, k ? "\xd1\x83\xd0\xbd\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x80" : "hyphenation",
		          k ? 12 : 11, offs, 8);   /* compiles, writes the cache */
		hyph_close(h);
		errs_done(&e);
		snprintf(paths[k], sizeof(paths[k]), "%s/vita/%s", dir, files[k]);
		base[k] = slurp(paths[k], &baselen[k]);
		if (!base[k]) {
			fprintf(stderr, "fuzz_hyph: no patterns compiled for %s (%s)\n", langs[k], paths[k]);
			exit(2);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const words[2][6] = {
		{"hyphenation", "typesetting", "characterization", "extraordinarily",
		 "accelerators", "supercalifragilisticexpialidocious"},
		{"\xd1\x83\xd0\xbd\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x80\xd1\x81\xd0\xb8\xd1\x82\xd0\xb5\xd1\x82",
		 "\xd0\xbf\xd1\x80\xd0\xbe\xd0\xb3\xd1\x80\xd0\xb0\xd0\xbc\xd0\xbc\xd0\xb0",
		 "\xd0\xb8\xd1\x81\xd1\x81\xd0\xbb\xd0\xb5\xd0\xb4\xd0\xbe\xd0\xb2\xd0\xb0\xd0\xbd\xd0\xb8\xd0\xb5",
		 "\xd0\xbc\xd0\xb0\xd1\x82\xd0\xb5\xd0\xbc\xd0\xb0\xd1\x82\xd0\xb8\xd0\xba\xd0\xb0",
		 "\xd1\x91\xd0\xbb\xd0\xba\xd0\xb0\xd1\x91\xd0\xbb\xd0\xba\xd0\xb0",
		 "\xd1\x8d\xd0\xba\xd1\x81\xd0\xbf\xd0\xb5\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd0\xbd\xd1\x82"}};
	if (!base[0])
		make_bases();
	if (size < 1)
		return 0;
	int k = data[0] & 1, head = (data[0] & 6) == 6;
	size_t n = baselen[k], from = head ? 0 : 512;
	unsigned char *w = malloc(n);
	memcpy(w, base[k], n);
	for (size_t i = 1; i + 4 <= size && n > from; i += 4) {
		size_t at = ((size_t)data[i] << 16 | (size_t)data[i + 1] << 8 | data[i + 2]) % (n - from);
		w[from + at] = data[i + 3];
	}
	FILE *f = fopen(paths[k], "wb");
	if (!f || fwrite(w, 1, n, f) != n)
		abort();
	fclose(f);
	free(w);
	errs_t e;
	errs_init(&e);
	hyph_t *h = hyph_open(langs[k], &e);
	for (int i = 0; h && i < 6; i++) {
		int offs[64], len = (int)strlen(words[k][i]);
		int c = hyph_word(h, words[k][i], (size_t)len, offs, 64);
		if (c < 0 || c > len)
			abort();
		for (int j = 0; j < c; j++)
			if (offs[j] < 1 || offs[j] >= len || (j && offs[j] <= offs[j - 1]))
				abort();
	}
	hyph_close(h);
	errs_done(&e);
	return 0;
}
