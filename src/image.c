/* image: is this file a PNG or JPEG that can be embedded? (see image.h)
 *
 * The only libpng user. PNGs are read to the last row with one row buffer,
 * under libpng's own setjmp (no frames of ours between it and png_error),
 * so a truncated or corrupt file is an error here rather than an abort()
 * inside libharu later. JPEGs are checked by walking their markers up to
 * the first frame header.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "file.h"
#include "image.h"

static void png_fail(png_structp p, png_const_charp msg)
{
	const char **why = png_get_error_ptr(p);
	static char text[128];
	/* libpng's stdio reader says "Read Error" at the end of the file */
	snprintf(text, sizeof(text), "%s", strcmp(msg, "Read Error") ? msg : "the file ends too early");
	*why = text;
	png_longjmp(p, 1);
}

static void png_quiet(png_structp p, png_const_charp msg)
{
	(void)p;
	(void)msg;
}

/* Decode every row; libpng reports CRC errors, short data and bad headers. */
static int png_check(FILE *f, image_info_t *out, const char **why)
{
	png_structp p = png_create_read_struct(PNG_LIBPNG_VER_STRING, (png_voidp)why,
	                                       png_fail, png_quiet);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	png_bytep volatile row = NULL;
	int rc = -1;
	if (!info) {
		*why = "out of memory";
		goto done;
	}
	if (setjmp(png_jmpbuf(p)))
		goto done;
	png_init_io(p, f);
	png_set_user_limits(p, IMAGE_MAX_SIDE, IMAGE_MAX_SIDE);
	png_read_info(p, info);
	out->w = (int)png_get_image_width(p, info);
	out->h = (int)png_get_image_height(p, info);
	int passes = png_set_interlace_handling(p);
	png_read_update_info(p, info);
	row = malloc(png_get_rowbytes(p, info));
	if (!row) {
		*why = "out of memory";
		goto done;
	}
	for (int pass = 0; pass < passes; pass++)
		for (int y = 0; y < out->h; y++)
			png_read_row(p, row, NULL);
	png_read_end(p, NULL);
	rc = 0;
done:
	free(row);
	png_destroy_read_struct(p ? &p : NULL, info ? &info : NULL, NULL);
	return rc;
}

/* Walk the markers to the first SOFn (not DHT, JPG, DAC); give up at SOS. */
static int jpeg_check(FILE *f, image_info_t *out, const char **why)
{
	long pos = 2;
	for (int guard = 0; guard < 1000; guard++) {
		unsigned char m[9];
		if (fseek(f, pos, SEEK_SET) || fread(m, 1, 4, f) != 4 || m[0] != 0xff)
			break;
		int len = (m[2] << 8) | m[3];
		if (m[1] == 0xda)
			break;
		if (m[1] >= 0xc0 && m[1] <= 0xcf && m[1] != 0xc4 && m[1] != 0xc8 && m[1] != 0xcc) {
			if (fread(m + 4, 1, 5, f) != 5)
				break;
			out->h = (m[5] << 8) | m[6];
			out->w = (m[7] << 8) | m[8];
			if (out->w <= 0 || out->h <= 0 || out->w > IMAGE_MAX_SIDE ||
			    out->h > IMAGE_MAX_SIDE) {
				*why = "image size out of range";
				return -1;
			}
			return 0;
		}
		if (len < 2)
			break;
		pos += 2 + len;
	}
	*why = "no JPEG frame header";
	return -1;
}

int image_probe(const char *path, image_info_t *out, const char **why)
{
	static const char *dummy;
	if (!why)
		why = &dummy;
	memset(out, 0, sizeof(*out));
	FILE *f = file_fopen(path, FILE_MAX_BINARY, why);
	if (!f)
		return -1;
	unsigned char b[8];
	size_t n = fread(b, 1, sizeof(b), f);
	int rc = -1;
	*why = "neither PNG nor JPEG data";
	if (n == 8 && !png_sig_cmp(b, 0, 8)) {
		out->png = 1;
		rewind(f);
		rc = png_check(f, out, why);
	} else if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff) {
		rc = jpeg_check(f, out, why);
	}
	fclose(f);
	return rc;
}
