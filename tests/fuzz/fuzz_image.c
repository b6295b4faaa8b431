/* fuzz_image: libFuzzer target for the photo decoder (libpng and libjpeg
 * under image.c's error handling). The input is the file's bytes, written
 * to a temporary file (image_load reads a path); a decoded image is also
 * scaled and re-encoded as the pdf stage would. The same bytes go to
 * image_png_data too (a colour font's glyph), whose IDAT and palette
 * (png_idat) are read through, both ways (libpng's rows, and the IDAT
 * inflated whole by pdf_inflate): what both read must be the same. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "image.h"
#include "../../src/pdf_int.h"   /* pdf_inflate */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[4096];
	if (!path[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(path, sizeof(path), "%s/vita-fuzz-image-%ld", t && *t ? t : "/tmp", (long)getpid());
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	arena_t *a = arena_new();
	image_t im, sc;
	const char *why;
	if (image_load(a, path, &im, &why) == 0) {
		image_scale(a, &im, 100, 100, &sc);
		unsigned char *jb;
		size_t n;
		if (!sc.alpha && image_jpeg(&sc, 90, &jb, &n) == 0)
			free(jb);
	}
	/* the PDF's way (its IDAT inflated whole) against libpng's rows: when
	   both read it, the same indices, alpha, palette and IDAT */
	image_t z;
	int zr = image_png_data(a, data, size, pdf_inflate, &z, &why);
	if (image_png_data(a, data, size, NULL, &im, &why) == 0 && zr == 0) {
		size_t px = (size_t)im.w * (size_t)im.h;
		if (im.w != z.w || im.h != z.h || !im.idx != !z.idx || !im.alpha != !z.alpha ||
		    (im.idx && memcmp(im.idx, z.idx, px)) || (im.alpha && memcmp(im.alpha, z.alpha, px)) ||
		    (im.idat && (im.nidat != z.nidat || memcmp(im.idat, z.idat, im.nidat) ||
		                 memcmp(im.pal, z.pal, 3u << im.bits))))
			abort();
	}
	if (image_png_data(a, data, size, NULL, &im, &why) == 0 && im.idat) {
		volatile unsigned sum = 0;
		for (size_t i = 0; i < im.nidat; i++)
			sum += im.idat[i];
		for (size_t i = 0; i < 3u << im.bits; i++)
			sum += im.pal[i];
		for (size_t i = 0; i < (size_t)im.w * (size_t)im.h; i++)
			sum += im.pal[3 * im.idx[i]];
	}
	arena_free(a);
	return 0;
}
