/* fuzz_sfnt: libFuzzer target for sfnt.c, sfnt_cff.c and sfnt_glyf.c, the
 * font program reader and writers that see every face a chain names
 * (sfnt_check), every face a document uses (sfnt_subset) and every subset
 * the PDF embeds (sfnt_open, sfnt_copy, sfnt_program). The fonts are the
 * installed ones, never files of the project: at start the serif chain's
 * Chinese face (Noto Serif CJK SC, CID-keyed CFF) and its Latin face (Noto
 * Serif, TrueType) are cut by sfnt_subset to a few characters; a subset
 * is a font sfnt_subset cuts again. An input is byte 0 (which of the two), then patches of 3
 * bytes (a 16-bit offset into the font's first 64 KiB, a byte to put
 * there): structure stays mostly intact, so the parsers are reached. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "font.h"
#include "sfnt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned char *base[2];
static size_t baselen[2];

static void make_bases(void)
{
	static const char *const fdirs[] = {"fonts", NULL};
	static const uint32_t cps[] = {0x6731, 0x5c55, 0x8fbe, 'a', '-', 0x2011, 0x3002};
	static arena_t *a;
	errs_t e;
	errs_init(&e);
	a = arena_new();
	font_lib_t *lib = font_lib_new(fdirs, &e);
	font_chain_t *c = lib ? font_chain_get(lib, "serif", &e) : NULL;
	for (int i = 0; c && i < 2; i++) {
		int face = font_face_for(c, FONT_REGULAR, i ? "en" : "zh", i ? 'a' : 0x6731);
		if (face < 0 || font_subset(lib, face, cps, 7, a, &base[i], &baselen[i], &e) != 0)
			base[i] = NULL;
	}
	if (!base[0] || !base[1]) {
		errs_print(stderr, &e);
		fprintf(stderr, "fuzz_sfnt: the serif chain's faces are not installed\n");
		exit(2);
	}
	font_lib_free(lib); /* the subsets live in a, kept to the end */
	errs_done(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!base[0])
		make_bases();
	if (size < 1)
		return 0;
	int k = data[0] & 1;
	size_t n = baselen[k];
	unsigned char *w = malloc(n);
	memcpy(w, base[k], n);
	for (size_t i = 1; i + 3 <= size; i += 3)
		w[((size_t)data[i] << 8 | data[i + 1]) % n] = data[i + 2];
	char why[300];
	static const uint32_t cut[] = {'a', '-', 0x2011, 0x6731};
	static const uint16_t gids[] = {1, 2, 3, 40000};
	uint16_t to[4];
	unsigned char *sub = NULL;
	size_t sublen = 0;
	if (sfnt_subset(w, n, 0, cut, 4, gids, 4, to, &sub, &sublen, why, sizeof(why)) == 0 &&
	    sfnt_check(sub, sublen, 0, why, sizeof(why)) != 0)
		abort(); /* a subset the sfnt checks refuse */
	free(sub);
	sfnt_t *f = sfnt_check(w, n, 0, why, sizeof(why)) == 0 ? sfnt_open(w, n, why, sizeof(why)) : NULL;
	if (f) {
		unsigned ng = sfnt_nglyphs(f);
		sfnt_copy(f, ng > 1 ? 1 : 0);
		uint8_t *keep = malloc(ng + 1);
		memset(keep, 1, ng + 1);
		keep[ng > 2 ? 2 : 0] = 0;
		const unsigned char *prog;
		size_t plen;
		sfnt_program(f, keep, &prog, &plen);
		for (unsigned g = 0; g <= ng; g++)
			(void)sfnt_width(f, g);
		free(keep);
		sfnt_free(f);
	}
	free(w);
	return 0;
}
