/* fuzz_zfast: libFuzzer target for pdf_zfast.c, vita's own deflate (the
 * PDF's fonts, ToUnicode maps, xref: pdf_zfast; page contents and small
 * object streams: pdf_zlazy). An input is byte 0 (bit 0: which parse;
 * bit 1: the input compressed twice, the second time after a different
 * one, since the encoders keep their hash tables across calls), then the
 * data. The output buffer is exactly pdf_zfast_bound(n) bytes, so any
 * write past the bound is an ASan report; the result must inflate back
 * (libdeflate's decoder) to exactly the data, and be the same bytes
 * whatever was compressed before. */
#include <libdeflate.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/pdf_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct libdeflate_decompressor *dec;

static size_t squeeze(int lazy, const uint8_t *in, size_t n, unsigned char **out)
{
	size_t cap = pdf_zfast_bound(n);
	*out = malloc(cap ? cap : 1);
	if (!*out)
		abort();
	size_t zn = (lazy ? pdf_zlazy : pdf_zfast)(in, n, *out, cap);
	if (zn == 0 || zn > cap)
		abort();   /* the bound is what the callers allocate */
	return zn;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	unsigned f = data[0];
	const uint8_t *in = data + 1;
	size_t n = size - 1, got = 0;
	int lazy = f & 1;
	if (!dec && !(dec = libdeflate_alloc_decompressor()))
		abort();
	unsigned char *z, *back = malloc(n + 1);
	if (!back)
		abort();
	size_t zn = squeeze(lazy, in, n, &z);
	if (libdeflate_deflate_decompress(dec, z, zn, back, n + 1, &got) != LIBDEFLATE_SUCCESS ||
	    got != n || memcmp(back, in, n) != 0)
		abort();
	if (f & 2) {   /* after another input, the same bytes again */
		unsigned char *o, *z2;
		size_t on = n / 2 + 1, i;
		if (!(o = malloc(on)))
			abort();
		for (i = 0; i < on; i++)
			o[i] = (unsigned char)(n ? in[(i * 7) % n] ^ (unsigned char)i : i);
		size_t x = squeeze(lazy, o, on, &z2);
		(void)x;
		free(z2);
		free(o);
		size_t zn2 = squeeze(lazy, in, n, &z2);
		if (zn2 != zn || memcmp(z2, z, zn) != 0)
			abort();
		free(z2);
	}
	free(z);
	free(back);
	return 0;
}
