/* test_image: every kind of PNG and JPEG a camera or editor writes, made
 * here with libpng and libjpeg, decoded by image_load and compared pixel
 * by pixel; broken files are refused with a reason; downsampling.
 *
 * `test_image --write DIR` writes the same files (and a 16384 x 16384
 * PNG) for tests/scripts/photos.sh, which renders each of them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <png.h>
#include "image.h"
#include "t.h"
#include "../../src/pdf_int.h"   /* pdf_inflate: the PDF's decompressor */

#define W 37
#define H 23

static char dir[256];
static arena_t *A;

static const char *at(const char *name)
{
	static char p[8][512];
	static int k;
	k = (k + 1) % 8;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

/* The 8-bit value of channel c of pixel (x, y) in every test image. */
static unsigned v8(int x, int y, int c)
{
	return (unsigned)(x * 37 + y * 11 + c * 80) & 255;
}

/* ---- PNG writer ---- */

typedef struct pngspec {
	int color, depth, interlace, trns;
	int w, h;
} pngspec_t;

static const png_color palette[4] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {250, 250, 250}};

static unsigned sample(const pngspec_t *s, int x, int y, int c)
{
	if (s->color == PNG_COLOR_TYPE_PALETTE)
		return (unsigned)(x + y) % 4;
	if (s->depth < 8)
		return (unsigned)(x + 2 * y) % (1u << s->depth);
	if (s->color & PNG_COLOR_MASK_ALPHA && c == (s->color == PNG_COLOR_TYPE_GRAY_ALPHA ? 1 : 3))
		/* alpha: a clear column, a half and opaque */
		return (x == 0 ? 0u : x == 1 ? 128u : 255u) * (s->depth == 16 ? 257u : 1u);
	unsigned v = v8(x, y, c);
	return s->depth == 16 ? v << 8 | (unsigned)(x & 255) : v;
}

static void write_png(const char *path, const pngspec_t *s)
{
	FILE *f = fopen(path, "wb");
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(p);
	png_init_io(p, f);
	png_set_compression_level(p, 1);
	png_set_IHDR(p, info, (png_uint_32)s->w, (png_uint_32)s->h, s->depth, s->color,
	             s->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (s->color == PNG_COLOR_TYPE_PALETTE)
		png_set_PLTE(p, info, palette, 4);
	if (s->trns) {
		png_byte ta[4] = {0, 255, 128, 255};
		png_color_16 tc = {0, 0, 0, 0, 0};   /* black is transparent */
		tc.gray = (png_uint_16)sample(s, 0, 0, 0);
		tc.red = (png_uint_16)sample(s, 0, 0, 0);
		tc.green = (png_uint_16)sample(s, 0, 0, 1);
		tc.blue = (png_uint_16)sample(s, 0, 0, 2);
		png_set_tRNS(p, info, ta, 4, &tc);
	}
	png_text t = {PNG_TEXT_COMPRESSION_NONE, "Comment", "PNG-TEXT-SECRET", 15, 0, NULL, NULL};
	png_set_text(p, info, &t, 1);
	png_write_info(p, info);
	int passes = png_set_interlace_handling(p);
	int ch = png_get_channels(p, info);
	size_t rb = png_get_rowbytes(p, info);
	png_bytep row = calloc(1, rb);
	for (int pass = 0; pass < passes; pass++)
		for (int y = 0; y < s->h; y++) {
			memset(row, 0, rb);
			for (int x = 0; x < s->w; x++)
				for (int c = 0; c < ch; c++) {
					unsigned v = sample(s, x, y, c);
					if (s->depth == 16) {
						row[(x * ch + c) * 2] = (png_byte)(v >> 8);
						row[(x * ch + c) * 2 + 1] = (png_byte)v;
					} else if (s->depth == 8) {
						row[x * ch + c] = (png_byte)v;
					} else {
						int bit = x * s->depth;
						row[bit / 8] |= (png_byte)(v << (8 - s->depth - bit % 8));
					}
				}
			png_write_row(p, row);
		}
	png_write_end(p, info);
	png_destroy_write_struct(&p, &info);
	free(row);
	fclose(f);
}

/* ---- JPEG writer ---- */

typedef struct jpgspec {
	J_COLOR_SPACE in, jcs;
	int comps, progressive, w, h;
} jpgspec_t;

static void write_jpg(const char *path, const jpgspec_t *s)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;
	FILE *f = fopen(path, "wb");
	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	jpeg_stdio_dest(&c, f);
	c.image_width = (JDIMENSION)s->w;
	c.image_height = (JDIMENSION)s->h;
	c.input_components = s->comps;
	c.in_color_space = s->in;
	jpeg_set_defaults(&c);
	jpeg_set_colorspace(&c, s->jcs);
	jpeg_set_quality(&c, 95, TRUE);
	if (s->progressive)
		jpeg_simple_progression(&c);
	jpeg_start_compress(&c, TRUE);
	static const char exif[] = "Exif\0\0GPS-SECRET 51.5007N 0.1246W CAMERA-SECRET";
	jpeg_write_marker(&c, JPEG_APP0 + 1, (const JOCTET *)exif, sizeof(exif));
	jpeg_write_marker(&c, JPEG_COM, (const JOCTET *)"COMMENT-SECRET", 14);
	JSAMPROW row = malloc((size_t)s->w * (size_t)s->comps);
	for (int y = 0; y < s->h; y++) {
		for (int x = 0; x < s->w; x++)
			for (int k = 0; k < s->comps; k++) {
				/* CMYK: pure cyan on the left half, white on the right,
				   stored inverted as Adobe's writers do */
				unsigned v = s->in == JCS_CMYK ? (x < s->w / 2 && k == 0 ? 0 : 255)
				                               : (unsigned)(y * 255 / (s->h > 1 ? s->h - 1 : 1));
				row[x * s->comps + k] = (JSAMPLE)v;
			}
		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	free(row);
	fclose(f);
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = malloc(1 << 24);
	*n = fread(b, 1, 1 << 24, f);
	fclose(f);
	return b;
}

static void spit(const char *path, const unsigned char *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	fwrite(b, 1, n, f);
	fclose(f);
}

static size_t find(const unsigned char *b, size_t n, unsigned m)
{
	for (size_t i = 2; i + 1 < n; i++)
		if (b[i] == 0xff && b[i + 1] == m)
			return i;
	return 0;
}

/* The broken JPEGs of issue 15 case 9, made from a good one. */
static void write_broken(void)
{
	size_t n;
	unsigned char *b = slurp(at("baseline.jpg"), &n);
	size_t sos = find(b, n, 0xda), sof = find(b, n, 0xc0);
	spit(at("truncated.jpg"), b, sos + 40);
	unsigned char *c = malloc(n + 2);
	memcpy(c, b, sos);
	c[sos] = 0xff, c[sos + 1] = 0xd9;
	spit(at("noscan.jpg"), c, sos + 2);
	memcpy(c, b, n);
	c[sof + 1] = 0xc3;
	spit(at("lossless.jpg"), c, n);
	memcpy(c, b, n);
	c[sof + 4] = 12;
	spit(at("12bit.jpg"), c, n);
	memcpy(c, b, n);
	for (size_t i = sos + 200; i < sos + 260 && i < n; i++)
		c[i] = (unsigned char)(i * 77);
	spit(at("corrupt.jpg"), c, n);
	free(c);
	free(b);
}

static const struct {
	const char *name;
	pngspec_t s;
} pngs[] = {
	{"palette.png", {PNG_COLOR_TYPE_PALETTE, 8, 0, 0, W, H}},
	{"palette-trns.png", {PNG_COLOR_TYPE_PALETTE, 4, 0, 1, W, H}},
	{"gray1.png", {PNG_COLOR_TYPE_GRAY, 1, 0, 0, W, H}},
	{"gray4.png", {PNG_COLOR_TYPE_GRAY, 4, 0, 0, W, H}},
	{"gray8.png", {PNG_COLOR_TYPE_GRAY, 8, 0, 0, W, H}},
	{"gray16.png", {PNG_COLOR_TYPE_GRAY, 16, 0, 0, W, H}},
	{"gray-trns.png", {PNG_COLOR_TYPE_GRAY, 8, 0, 1, W, H}},
	{"gray-alpha.png", {PNG_COLOR_TYPE_GRAY_ALPHA, 8, 0, 0, W, H}},
	{"gray-alpha16.png", {PNG_COLOR_TYPE_GRAY_ALPHA, 16, 0, 0, W, H}},
	{"rgb8.png", {PNG_COLOR_TYPE_RGB, 8, 0, 0, W, H}},
	{"rgb16.png", {PNG_COLOR_TYPE_RGB, 16, 0, 0, W, H}},
	{"rgb-trns.png", {PNG_COLOR_TYPE_RGB, 8, 0, 1, W, H}},
	{"rgba8.png", {PNG_COLOR_TYPE_RGB_ALPHA, 8, 0, 0, W, H}},
	{"rgba16.png", {PNG_COLOR_TYPE_RGB_ALPHA, 16, 0, 0, W, H}},
	{"interlaced-rgb8.png", {PNG_COLOR_TYPE_RGB, 8, 1, 0, W, H}},
	{"interlaced-rgba8.png", {PNG_COLOR_TYPE_RGB_ALPHA, 8, 1, 0, W, H}},
	{"interlaced-rgba16.png", {PNG_COLOR_TYPE_RGB_ALPHA, 16, 1, 0, W, H}},
	{"interlaced-palette-trns.png", {PNG_COLOR_TYPE_PALETTE, 8, 1, 1, W, H}},
	{"interlaced-1x1-rgba.png", {PNG_COLOR_TYPE_RGB_ALPHA, 8, 1, 0, 1, 1}},
	{"wide.png", {PNG_COLOR_TYPE_RGB, 8, 0, 0, 3000, 10}},
	{"large.png", {PNG_COLOR_TYPE_RGB, 8, 1, 0, 2500, 1800}},
};

static const struct {
	const char *name;
	jpgspec_t s;
} jpgs[] = {
	{"baseline.jpg", {JCS_RGB, JCS_YCbCr, 3, 0, W * 4, H * 4}},
	{"progressive.jpg", {JCS_RGB, JCS_YCbCr, 3, 1, W * 4, H * 4}},
	{"gray.jpg", {JCS_GRAYSCALE, JCS_GRAYSCALE, 1, 0, W * 4, H * 4}},
	{"rgb.jpg", {JCS_RGB, JCS_RGB, 3, 0, W * 4, H * 4}},
	{"cmyk.jpg", {JCS_CMYK, JCS_CMYK, 4, 0, W * 4, H * 4}},
	{"ycck.jpg", {JCS_CMYK, JCS_YCCK, 4, 1, W * 4, H * 4}},
	{"two-components.jpg", {JCS_UNKNOWN, JCS_UNKNOWN, 2, 0, W, H}},
	{"camera.jpg", {JCS_RGB, JCS_YCbCr, 3, 0, 4000, 3000}},
};

static void write_all(void)
{
	for (size_t i = 0; i < sizeof(pngs) / sizeof(pngs[0]); i++)
		write_png(at(pngs[i].name), &pngs[i].s);
	for (size_t i = 0; i < sizeof(jpgs) / sizeof(jpgs[0]); i++)
		write_jpg(at(jpgs[i].name), &jpgs[i].s);
	write_broken();
}

/* ---- tests ---- */

static int load(const char *name, image_t *im, const char **why)
{
	*why = NULL;
	return image_load(A, at(name), im, why);
}

/* What image_load should give for pixel (x, y) of a small PNG. */
static void expect_png(const pngspec_t *s, int x, int y, unsigned char *rgb, int *alpha)
{
	*alpha = 255;
	if (s->color == PNG_COLOR_TYPE_PALETTE) {
		unsigned i = sample(s, x, y, 0);
		rgb[0] = palette[i].red, rgb[1] = palette[i].green, rgb[2] = palette[i].blue;
		if (s->trns)
			*alpha = (int[]){0, 255, 128, 255}[i];
		return;
	}
	int gray = !(s->color & PNG_COLOR_MASK_COLOR);
	for (int c = 0; c < (gray ? 1 : 3); c++) {
		unsigned v = sample(s, x, y, c);
		rgb[c] = (unsigned char)(s->depth == 16 ? v >> 8 : s->depth < 8 ? v * 255 / ((1u << s->depth) - 1) : v);
	}
	if (s->color & PNG_COLOR_MASK_ALPHA) {
		unsigned a = sample(s, x, y, gray ? 1 : 3);
		*alpha = (int)(s->depth == 16 ? a >> 8 : a);
	} else if (s->trns && sample(s, x, y, 0) == sample(s, 0, 0, 0) &&
	           (gray || (sample(s, x, y, 1) == sample(s, 0, 0, 1) &&
	                     sample(s, x, y, 2) == sample(s, 0, 0, 2)))) {
		*alpha = 0;
	}
}

TEST(png_kinds)
{
	for (size_t i = 0; i < sizeof(pngs) / sizeof(pngs[0]); i++) {
		const pngspec_t *s = &pngs[i].s;
		image_t im;
		const char *why;
		if (s->w > IMAGE_MAX_PX || s->h > IMAGE_MAX_PX)
			continue;
		int rc = load(pngs[i].name, &im, &why);
		EQ_INT(rc, 0);
		if (rc) {
			fprintf(stderr, "%s: %s\n", pngs[i].name, why);
			continue;
		}
		int gray = !(s->color & PNG_COLOR_MASK_COLOR) && s->color != PNG_COLOR_TYPE_PALETTE;
		EQ_INT(im.png, 1);
		EQ_INT(im.w, s->w);
		EQ_INT(im.h, s->h);
		EQ_INT(im.src_w, s->w);
		EQ_INT(im.comps, gray ? 1 : 3);
		int bad = 0, transparent = 0;
		for (int y = 0; y < s->h; y++)
			for (int x = 0; x < s->w; x++) {
				unsigned char want[3];
				int a;
				expect_png(s, x, y, want, &a);
				const unsigned char *got = im.px + ((size_t)y * (size_t)s->w + (size_t)x) * (size_t)im.comps;
				int ga = im.alpha ? im.alpha[y * s->w + x] : 255;
				transparent |= a < 255;
				if (ga != a || (a > 0 && memcmp(got, want, (size_t)im.comps)))
					bad++;
			}
		CHECK((im.alpha != NULL) == transparent);
		EQ_INT(bad, 0);
		if (bad)
			fprintf(stderr, "  in %s\n", pngs[i].name);
	}
}

/* Adam7 puts every pixel where it belongs: the same pixels as the plain file. */
TEST(png_interlaced_same)
{
	image_t a, b;
	const char *why;
	EQ_INT(load("rgba8.png", &a, &why), 0);
	EQ_INT(load("interlaced-rgba8.png", &b, &why), 0);
	CHECK(a.alpha && b.alpha && !memcmp(a.px, b.px, (size_t)W * H * 3) &&
	      !memcmp(a.alpha, b.alpha, (size_t)W * H));
	EQ_INT(load("interlaced-1x1-rgba.png", &a, &why), 0);
	CHECK(a.w == 1 && a.h == 1 && a.alpha && a.alpha[0] == 0);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

/* Two image_png_data results the same: size, indices or pixels, alpha,
 * palette and IDAT. */
static int same_data(const image_t *x, const image_t *y)
{
	size_t px = (size_t)x->w * (size_t)x->h;
	if (x->w != y->w || x->h != y->h || x->comps != y->comps || !x->idx != !y->idx ||
	    !x->px != !y->px || !x->alpha != !y->alpha || !x->idat != !y->idat || x->bits != y->bits)
		return 0;
	if ((x->idx && memcmp(x->idx, y->idx, px)) ||
	    (x->px && memcmp(x->px, y->px, px * (size_t)x->comps)) ||
	    (x->alpha && memcmp(x->alpha, y->alpha, px)))
		return 0;
	return !x->idat || (x->nidat == y->nidat && !memcmp(x->idat, y->idat, x->nidat) &&
	                    !memcmp(x->pal, y->pal, 3u << x->bits));
}

/* image_png_data (a colour font's glyph) gives the pixels image_load
 * gives, and for a palette PNG kept at its size, not interlaced, its IDAT
 * data as it is and its palette padded to 1 << depth entries (black), an
 * entry tRNS makes clear white, and in place of the pixels their indices
 * into it (the same colours, the same alpha); for any other kind no IDAT. A palette PNG
 * whose zlib checksum is wrong is refused (the data would reach the PDF
 * as it is), though a file's is read. */
TEST(png_data_idat)
{
	for (size_t i = 0; i < sizeof(pngs) / sizeof(pngs[0]); i++) {
		const pngspec_t *s = &pngs[i].s;
		if (s->w > IMAGE_MAX_PX || s->h > IMAGE_MAX_PX)
			continue;
		size_t n;
		unsigned char *b = slurp(at(pngs[i].name), &n);
		image_t f, d;
		const char *why;
		EQ_INT(load(pngs[i].name, &f, &why), 0);
		EQ_INT(image_png_data(A, b, n, NULL, &d, &why), 0);
		size_t px = (size_t)s->w * (size_t)s->h;
		image_t z;   /* inflated whole and unfiltered here: the same */
		EQ_INT(image_png_data(A, b, n, pdf_inflate, &z, &why), 0);
		CHECK(same_data(&d, &z));
		int want = s->color == PNG_COLOR_TYPE_PALETTE && !s->interlace;
		CHECK((d.idat != NULL) == want && (d.idx != NULL) == want && (d.px == NULL) == want);
		CHECK(d.w == f.w && d.h == f.h && d.comps == f.comps &&
		      (d.alpha != NULL) == (f.alpha != NULL) && (!d.alpha || !memcmp(d.alpha, f.alpha, px)));
		if (!want || !d.idat) {
			CHECK(d.px && !memcmp(d.px, f.px, px * (size_t)f.comps));
			free(b);
			continue;
		}
		/* the colours are the palette's of the indices: the file's pixels */
		int off = 0;
		for (size_t q = 0; q < px; q++)
			off += d.idx[q] >= 1u << s->depth || memcmp(d.pal + 3 * d.idx[q], f.px + 3 * q, 3);
		EQ_INT(off, 0);
		EQ_INT(d.bits, s->depth);
		/* the IDAT chunks' data, found here on its own */
		unsigned char *cat = malloc(n);
		size_t k = 0, idat_at = 0;
		for (size_t at = 8; at + 12 <= n; at += 12 + rd32(b + at))
			if (!memcmp(b + at + 4, "IDAT", 4)) {
				memcpy(cat + k, b + at + 8, rd32(b + at));
				k += rd32(b + at);
				idat_at = at;
			}
		CHECK(k == d.nidat && !memcmp(cat, d.idat, k));
		int bad = 0;
		for (unsigned e = 0; e < 1u << s->depth; e++) {
			unsigned char w3[3] = {0, 0, 0};
			if (e < 4 && s->trns && e == 0)
				w3[0] = w3[1] = w3[2] = 255;
			else if (e < 4)
				w3[0] = palette[e].red, w3[1] = palette[e].green, w3[2] = palette[e].blue;
			bad += memcmp(d.pal + 3 * e, w3, 3) != 0;
		}
		EQ_INT(bad, 0);
		/* the last IDAT's last byte is the end of zlib's checksum: wrong,
		   with the chunk's CRC made right again */
		uint32_t len = rd32(b + idat_at);
		b[idat_at + 8 + len - 1] ^= 0x5a;
		uint32_t crc = crc32_of(b + idat_at + 4, 4 + (size_t)len);
		unsigned char *c = b + idat_at + 8 + len;
		c[0] = (unsigned char)(crc >> 24), c[1] = (unsigned char)(crc >> 16);
		c[2] = (unsigned char)(crc >> 8), c[3] = (unsigned char)crc;
		CHECK(image_png_data(A, b, n, NULL, &d, &why) != 0 && d.idat == NULL);
		CHECK(image_png_data(A, b, n, pdf_inflate, &d, &why) != 0 && d.idat == NULL);
		free(cat);
		free(b);
	}
}

/* A palette PNG of w x h pixels whose pixel (x, y) is index (x + 2y) %
 * (1 << depth), with npal palette entries (index i: a colour of its own)
 * and ntrns tRNS entries trns[], its rows filtered as filter (libpng's
 * PNG_FILTER_* set; 0: its default); its bytes in *n (malloc'd). */
static unsigned char *pal_png(int depth, int npal, int ntrns, const png_byte *trns, int w, int h,
                              int filter, size_t *n)
{
	char *out = NULL;
	size_t on = 0;
	FILE *f = open_memstream(&out, &on);
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(p);
	png_init_io(p, f);
	png_set_check_for_invalid_index(p, 0);   /* indices past the palette: written */
	if (filter)
		png_set_filter(p, 0, filter);    /* (libpng's default for a palette: none) */
	png_set_IHDR(p, info, (png_uint_32)w, (png_uint_32)h, depth, PNG_COLOR_TYPE_PALETTE,
	             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_color pl[256];
	for (int i = 0; i < npal; i++)
		pl[i] = (png_color){(png_byte)(40 + 50 * i), (png_byte)(200 - 30 * i), (png_byte)(7 * i)};
	png_set_PLTE(p, info, pl, npal);
	if (ntrns)
		png_set_tRNS(p, info, trns, ntrns, NULL);
	png_write_info(p, info);
	png_bytep row = calloc(1, (size_t)w + 8);
	for (int y = 0; y < h; y++) {
		memset(row, 0, (size_t)w + 8);
		for (int x = 0; x < w; x++) {
			unsigned v = (unsigned)(x + 2 * y) % (1u << depth);
			int bit = x * depth;
			row[bit / 8] |= (png_byte)(v << (8 - depth - bit % 8));
		}
		png_write_row(p, row);
	}
	png_write_end(p, info);
	png_destroy_write_struct(&p, &info);
	free(row);
	fclose(f);
	*n = on;
	return (unsigned char *)out;
}

/* The first chunk of the given type in PNG b[0..n): its offset, or 0. */
static size_t chunk_at(const unsigned char *b, size_t n, const char *type)
{
	for (size_t at = 8; at + 12 <= n; at += 12 + rd32(b + at))
		if (!memcmp(b + at + 4, type, 4))
			return at;
	return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* PNG b[0..n) (one IDAT, then IEND) with z[0..zn) for its IDAT's data,
 * the chunk's CRC made right, into out (n + zn + 12 bytes); its length. */
static size_t with_idat(const unsigned char *b, size_t n, const unsigned char *z, size_t zn,
                        unsigned char *out)
{
	size_t i = chunk_at(b, n, "IDAT"), e = chunk_at(b, n, "IEND");
	memcpy(out, b, i);
	put32(out + i, (uint32_t)zn);
	memcpy(out + i + 4, "IDAT", 4);
	memcpy(out + i + 8, z, zn);
	put32(out + i + 8 + zn, crc32_of(out + i + 4, 4 + zn));
	memcpy(out + i + 12 + zn, b + e, n - e);
	return i + 12 + zn + (n - e);
}

/* image_png_data of a palette PNG against image_load of the same file:
 * the same size and alpha, each pixel the colour of its index; the
 * indices past the palette black, past tRNS opaque; an all-opaque tRNS
 * no alpha; 1- and 2-bit rows of widths no multiple of 8. What libpng
 * only warns of (a tRNS longer than the palette or after the image data,
 * compressed data past the image) is refused there, though a file with
 * it is read (the PDF would take those bytes as they are). */
TEST(png_data_palettes)
{
	static const png_byte t2[] = {0, 100}, t4[] = {255, 255, 255, 255};
	static const struct {
		int depth, npal, ntrns;
		const png_byte *trns;
		int w, h, filter;
	} k[] = {
		{2, 3, 2, t2, 11, 5, 0},    /* index 3 past the palette, 2 and 3 past tRNS */
		{1, 2, 0, NULL, 13, 3, 0},
		{8, 4, 4, t4, 9, 4, 0},     /* tRNS all opaque: no alpha */
		{4, 16, 2, t2, 21, 2, 0},
		/* each of PNG's filters on every row (inflated whole, they are
		   undone by image.c, not libpng) */
		{8, 16, 2, t2, 23, 7, PNG_FILTER_SUB},
		{8, 16, 2, t2, 23, 7, PNG_FILTER_UP},
		{8, 16, 2, t2, 23, 7, PNG_FILTER_AVG},
		{8, 16, 2, t2, 23, 7, PNG_FILTER_PAETH},
		{4, 16, 2, t2, 23, 7, PNG_ALL_FILTERS},
		{2, 4, 2, t2, 37, 9, PNG_FILTER_PAETH},
	};
	for (size_t c = 0; c < sizeof(k) / sizeof(k[0]); c++) {
		size_t n;
		unsigned char *b = pal_png(k[c].depth, k[c].npal, k[c].ntrns, k[c].trns, k[c].w, k[c].h,
		                           k[c].filter, &n);
		spit(at("pal-edge.png"), b, n);
		image_t f, d;
		const char *why;
		EQ_INT(load("pal-edge.png", &f, &why), 0);
		EQ_INT(image_png_data(A, b, n, NULL, &d, &why), 0);
		size_t px = (size_t)k[c].w * (size_t)k[c].h;
		image_t z;
		EQ_INT(image_png_data(A, b, n, pdf_inflate, &z, &why), 0);
		CHECK(same_data(&d, &z));
		CHECK(d.idx && d.idat && !d.px && d.bits == k[c].depth && d.w == f.w && d.h == f.h);
		CHECK((d.alpha != NULL) == (f.alpha != NULL) && (d.alpha != NULL) == (c != 1 && c != 2));
		if (!d.idx || d.w != f.w || d.h != f.h) {
			free(b);
			continue;
		}
		int off = 0;
		for (size_t i = 0; i < px; i++) {
			unsigned ix = d.idx[i];
			off += ix != (unsigned)((i % (size_t)k[c].w) + 2 * (i / (size_t)k[c].w)) % (1u << k[c].depth);
			int fa = f.alpha ? f.alpha[i] : 255, da = d.alpha ? d.alpha[i] : 255;
			off += fa != da || memcmp(d.pal + 3 * ix, f.px + 3 * i, 3) != 0;
			if ((int)ix >= k[c].npal)   /* past the palette: black, opaque */
				off += da != 255 || d.pal[3 * ix] || d.pal[3 * ix + 1] || d.pal[3 * ix + 2];
			else if ((int)ix >= k[c].ntrns)
				off += da != 255;
		}
		EQ_INT(off, 0);
		free(b);
	}
	/* rows of random filtered bytes, each with a random filter type (the
	   sums of Average and the choices of Paeth libpng's writer would not
	   make): the same both ways */
	unsigned seed = 12345;
	for (int c = 0; c < 300; c++) {
		int depth = 1 << (c % 4), w = 1 + c * 7 % 39, h = 1 + c % 9;
		size_t n;
		unsigned char *b = pal_png(depth, 1 << depth, 2, t2, w, h, 0, &n);
		size_t rb = ((size_t)w * (size_t)depth + 7) / 8, rn = (rb + 1) * (size_t)h;
		unsigned char *rows = malloc(rn), *cp = malloc(n + rn + 4096);
		for (size_t q = 0; q < rn; q++) {
			seed = seed * 1103515245u + 12345u;
			rows[q] = (unsigned char)(seed >> 16);
			if (q % (rb + 1) == 0)
				rows[q] = (unsigned char)((seed >> 16) % 5);
		}
		const unsigned char *z;
		size_t zn = pdf_deflate(rows, rn, PDF_Z_BEST, &z);
		size_t m = with_idat(b, n, z, zn, cp);
		image_t d, y;
		const char *why;
		EQ_INT(image_png_data(A, cp, m, NULL, &d, &why), 0);
		EQ_INT(image_png_data(A, cp, m, pdf_inflate, &y, &why), 0);
		CHECK(same_data(&d, &y));
		free(rows);
		free(cp);
		free(b);
	}
	/* below 8 bits, an index past the palette's count: libpng refuses
	   it, and so does the other way */
	{
		size_t n;
		unsigned char *b = pal_png(4, 2, 0, NULL, 9, 3, 0, &n);
		image_t d;
		const char *why;
		CHECK(image_png_data(A, b, n, NULL, &d, &why) != 0);
		CHECK(image_png_data(A, b, n, pdf_inflate, &d, &why) != 0 && d.idx == NULL);
		free(b);
	}
	/* image data that is not right (a filter type 5; the stream cut
	   short, its CRC made right; a whole stream of a row too few):
	   refused both ways, and as a file */
	for (int bad = 0; bad < 3; bad++) {
		size_t n;
		unsigned char *b = pal_png(8, 16, 2, t2, 23, 7, PNG_FILTER_SUB, &n);
		size_t i = chunk_at(b, n, "IDAT"), e = chunk_at(b, n, "IEND");
		uint32_t len = rd32(b + i);
		CHECK(i && e && i + 12 + len == e);
		unsigned char rows[24 * 7], *c = malloc(n + 4096);
		const unsigned char *z = b + i + 8;
		size_t zn = len;
		if (bad == 0) {
			CHECK(pdf_inflate(b + i + 8, len, rows, sizeof(rows)) == (long)sizeof(rows));
			rows[24 * 3] = 5;   /* the fourth row's filter type */
			zn = pdf_deflate(rows, sizeof(rows), PDF_Z_BEST, &z);
		} else if (bad == 1) {
			zn = len - 9;       /* (the last row and the checksum) */
		} else {
			CHECK(pdf_inflate(b + i + 8, len, rows, sizeof(rows)) == (long)sizeof(rows));
			zn = pdf_deflate(rows, 24 * 6, PDF_Z_BEST, &z);
		}
		size_t m = with_idat(b, n, z, zn, c);
		spit(at("pal-bad.png"), c, m);
		image_t d;
		const char *why;
		CHECK(load("pal-bad.png", &d, &why) != 0);
		CHECK(image_png_data(A, c, m, NULL, &d, &why) != 0 && d.idx == NULL);
		CHECK(image_png_data(A, c, m, pdf_inflate, &d, &why) != 0 && d.idx == NULL);
		free(c);
		free(b);
	}
	/* what libpng warns of: refused as data, read as a file */
	for (int bad = 0; bad < 5; bad++) {
		size_t n;
		unsigned char *b = pal_png(2, 3, 2, t2, 11, 5, 0, &n);
		unsigned char *c = malloc(n + 64);
		size_t t = chunk_at(b, n, "tRNS"), i = chunk_at(b, n, "IDAT"), e = chunk_at(b, n, "IEND");
		size_t m = 0;
		CHECK(t && i && e && t < i && i + 12 + rd32(b + i) == e);   /* one IDAT, then IEND */
		if (bad == 0) { /* tRNS of 4 entries, 3 in the palette */
			memcpy(c, b, t);
			put32(c + t, 4);
			memcpy(c + t + 4, "tRNS", 4);
			memcpy(c + t + 8, "\0\144\377\377", 4);
			put32(c + t + 12, crc32_of(c + t + 4, 8));
			m = t + 16;
			memcpy(c + m, b + i, n - i);
			m += n - i;
		} else if (bad == 1) { /* tRNS after IDAT */
			memcpy(c, b, t);
			memcpy(c + t, b + i, e - i);
			memcpy(c + t + (e - i), b + t, i - t);
			memcpy(c + e, b + e, n - e);
			m = n;
		} else if (bad == 2) { /* the IDAT's data goes on past zlib's stream */
			uint32_t len = rd32(b + i);
			memcpy(c, b, i + 8 + len);
			memcpy(c + i + 8 + len, "\1\2\3", 3);
			put32(c + i, len + 3);
			put32(c + i + 11 + len, crc32_of(c + i + 4, 7 + (size_t)len));
			memcpy(c + i + 15 + len, b + e, n - e);
			m = i + 15 + len + (n - e);
		} else { /* an IDAT after another chunk after the image data (3:
			    2 bytes, 4: none) */
			size_t x = bad == 3 ? 2 : 0;
			memcpy(c, b, e);
			put32(c + e, 1);
			memcpy(c + e + 4, "teXtA", 5);
			put32(c + e + 9, crc32_of(c + e + 4, 5));
			put32(c + e + 13, (uint32_t)x);
			memcpy(c + e + 17, "IDAT\1\2", 4 + x);
			put32(c + e + 21 + x, crc32_of(c + e + 17, 4 + x));
			memcpy(c + e + 25 + x, b + e, n - e);
			m = n + 25 + x;
		}
		spit(at("pal-bad.png"), c, m);
		image_t f, d;
		const char *why;
		EQ_INT(load("pal-bad.png", &f, &why), 0);
		CHECK(image_png_data(A, c, m, NULL, &d, &why) != 0 && d.idat == NULL && d.idx == NULL);
		CHECK(image_png_data(A, c, m, pdf_inflate, &d, &why) != 0 && d.idat == NULL &&
		      d.idx == NULL);
		free(c);
		free(b);
	}
}

static int avg(const image_t *im, int x0, int x1, int c)
{
	long s = 0, n = 0;
	for (int y = 0; y < im->h; y++)
		for (int x = x0; x < x1; x++, n++)
			s += im->px[((size_t)y * (size_t)im->w + (size_t)x) * (size_t)im->comps + (size_t)c];
	return (int)(s / (n ? n : 1));
}

TEST(jpeg_kinds)
{
	static const char *ok[] = {"baseline.jpg", "progressive.jpg", "gray.jpg", "rgb.jpg"};
	for (int i = 0; i < 4; i++) {
		image_t im;
		const char *why;
		EQ_INT(load(ok[i], &im, &why), 0);
		EQ_INT(im.png, 0);
		EQ_INT(im.w, W * 4);
		EQ_INT(im.h, H * 4);
		EQ_INT(im.comps, i == 2 ? 1 : 3);
		CHECK(!im.alpha);
		/* a vertical ramp, black to white */
		CHECK(im.px[0] < 8 && im.px[(size_t)(im.h - 1) * (size_t)im.w * (size_t)im.comps] > 247);
	}
	/* CMYK, Adobe-inverted: cyan on the left, white on the right */
	static const char *cmyk[] = {"cmyk.jpg", "ycck.jpg"};
	for (int i = 0; i < 2; i++) {
		image_t im;
		const char *why;
		EQ_INT(load(cmyk[i], &im, &why), 0);
		EQ_INT(im.comps, 3);
		int l = 4, r = im.w / 2 - 4;
		CHECK(avg(&im, l, r, 0) < 8 && avg(&im, l, r, 1) > 247 && avg(&im, l, r, 2) > 247);
		CHECK(avg(&im, im.w / 2 + 4, im.w - 4, 0) > 247);
	}
}

TEST(refused)
{
	static const struct {
		const char *name, *why;
	} bad[] = {
		{"two-components.jpg", "a JPEG with 2 colour components is not supported"},
		{"truncated.jpg", "the file ends too early"},
		{"noscan.jpg", "missing SOS marker"},
		{"lossless.jpg", "Unsupported JPEG process: SOF type 0xc3"},
		{"12bit.jpg", "Unsupported JPEG data precision 12"},
		{"corrupt.jpg", "Corrupt JPEG data"},
		{"nothing-here.png", "No such file"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		image_t im;
		const char *why;
		EQ_INT(load(bad[i].name, &im, &why), -1);
		CHECK(why && strstr(why, bad[i].why));
		if (!why || !strstr(why, bad[i].why))
			fprintf(stderr, "%s: %s\n", bad[i].name, why ? why : "(null)");
		CHECK(!im.px);
	}
}

/* Large files come out at most IMAGE_MAX_PX a side, aspect kept, and the
 * average colour survives; image_scale fits the page's size. */
TEST(downsample)
{
	image_t im, sc;
	const char *why;
	EQ_INT(load("camera.jpg", &im, &why), 0);
	EQ_INT(im.src_w, 4000);
	EQ_INT(im.w, IMAGE_MAX_PX);
	EQ_INT(im.h, IMAGE_MAX_PX * 3 / 4);
	int mid = avg(&im, 0, im.w, 0);
	CHECK(mid > 117 && mid < 137);
	EQ_INT(load("large.png", &im, &why), 0);
	EQ_INT(im.w, IMAGE_MAX_PX);
	EQ_INT(im.h, (1800 * IMAGE_MAX_PX + 1250) / 2500);
	EQ_INT(load("wide.png", &im, &why), 0);
	EQ_INT(im.w, IMAGE_MAX_PX);
	EQ_INT(im.h, 3);
	EQ_INT(load("rgba8.png", &im, &why), 0);
	image_scale(A, &im, 10, 10, &sc);
	EQ_INT(sc.w, 10);
	EQ_INT(sc.h, 6);
	CHECK(sc.alpha != NULL && sc.alpha[0] < 200);  /* the clear column weighs in */
	image_scale(A, &im, 100, 100, &sc);
	CHECK(sc.px == im.px);                     /* never scaled up */
}

/* image_crop: the part asked for, clamped to the image, alpha with it. */
TEST(crop)
{
	image_t im, c;
	const char *why;
	EQ_INT(load("rgba8.png", &im, &why), 0);
	image_crop(A, &im, 1, 0, 2, im.h, &c);
	EQ_INT(c.w, 2);
	EQ_INT(c.h, im.h);
	for (int y = 0; y < c.h; y++)
		for (int x = 0; x < 2; x++) {
			EQ_INT(c.px[(y * 2 + x) * 3], im.px[(y * im.w + x + 1) * 3]);
			EQ_INT(c.alpha[y * 2 + x], im.alpha[y * im.w + x + 1]);
		}
	image_crop(A, &im, -5, -5, 10000, 10000, &c);
	CHECK(c.px == im.px);                      /* all of it: the image itself */
	image_crop(A, &im, im.w + 3, 0, 4, 1, &c);
	EQ_INT(c.w, 1);                            /* clamped, never outside */
	EQ_INT(c.h, 1);
}

/* image_jpeg: the photo back as a JPEG with no marker but its own, which
 * decodes to about the same pixels. */
TEST(reencode)
{
	image_t im, back;
	const char *why;
	unsigned char *jb;
	size_t n;
	EQ_INT(load("baseline.jpg", &im, &why), 0);
	EQ_INT(image_jpeg(&im, 90, &jb, &n), 0);
	CHECK(n > 100);
	int markers = 0;
	for (size_t i = 0; i + 1 < n; i++)
		markers += jb[i] == 0xff && (jb[i + 1] == 0xe0 || jb[i + 1] == 0xe1 || jb[i + 1] == 0xfe);
	EQ_INT(markers, 0);   /* no APP0 (JFIF), APP1 (EXIF) or COM */
	FILE *f = fopen(at("again.jpg"), "wb");
	fwrite(jb, 1, n, f);
	fclose(f);
	free(jb);
	EQ_INT(load("again.jpg", &back, &why), 0);
	EQ_INT(back.w, im.w);
	EQ_INT(back.h, im.h);
	int d = avg(&back, 0, back.w, 1) - avg(&im, 0, im.w, 1);
	CHECK(d > -3 && d < 3);
}

/* 16384 x 16384, RGB: every row "Up"-filtered zeros but the first. */
static void write_huge(const char *path)
{
	FILE *f = fopen(path, "wb");
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(p);
	png_init_io(p, f);
	png_set_compression_level(p, 1);
	png_set_filter(p, 0, PNG_FILTER_UP);
	png_set_IHDR(p, info, 16384, 16384, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(p, info);
	png_bytep row = malloc(16384 * 3);
	for (int x = 0; x < 16384 * 3; x++)
		row[x] = (png_byte)(x / 3 * 255 / 16383);
	for (int y = 0; y < 16384; y++)
		png_write_row(p, row);
	png_write_end(p, info);
	png_destroy_write_struct(&p, &info);
	free(row);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write")) {
		snprintf(dir, sizeof(dir), "%s", argv[2]);
		write_all();
		write_huge(at("huge.png"));
		return 0;
	}
	if (t_tmpdir(dir, sizeof(dir), "vita-test-image") != 0)
		return 1;
	A = arena_new();
	write_all();
	RUN(png_kinds);
	RUN(png_interlaced_same);
	RUN(png_data_idat);
	RUN(png_data_palettes);
	RUN(jpeg_kinds);
	RUN(refused);
	RUN(downsample);
	RUN(crop);
	RUN(reencode);
	arena_free(A);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return t_report();
}
