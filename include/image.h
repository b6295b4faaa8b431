/* image: a photo, PNG or JPEG, decoded once into 8-bit pixels.
 *
 * image_load decodes the whole file with libpng or libjpeg (every row, so
 * a damaged file is an error here, never later), downsampled on the way
 * (libjpeg's DCT scaling, then a box filter fed row by row: memory is
 * bounded by the output, not the file) to at most IMAGE_MAX_PX pixels a
 * side. What comes out is pixels and nothing else: EXIF, GPS, comments,
 * ICC profiles and text chunks are never copied. The pdf stage asks
 * image_scale for the size the page needs (IMAGE_DPI at the printed size).
 *
 * Accepted: PNG of every colour type and depth (palette, gray, gray+alpha,
 * RGB, RGBA, 1-16 bits, Adam7 interlaced, tRNS); JPEG baseline,
 * extended and progressive, gray, YCbCr, RGB, CMYK and YCCK (Adobe
 * inverted or not; CMYK becomes RGB). Refused with a reason: anything
 * else (2-component, 12-bit or lossless JPEG, truncated or corrupt data).
 */
#ifndef VITA_IMAGE_H
#define VITA_IMAGE_H
#include "arena.h"

#define IMAGE_MAX_SIDE 16384 /* pixels a side of the file, at most */
#define IMAGE_MAX_PX 1024    /* pixels a side kept after decoding */
#define IMAGE_DPI 300        /* resolution embedded at the printed size */

typedef struct image {
	int w, h;               /* pixels of px */
	int src_w, src_h;       /* pixels of the file */
	int comps;              /* 1 gray, 3 RGB */
	int png;                /* 1 PNG, 0 JPEG */
	unsigned char *px;      /* w * h * comps, rows top down; NULL with idx */
	unsigned char *alpha;   /* w * h, or NULL when every pixel is opaque */
	/* image_png_data of a palette PNG kept at its size, not interlaced
	   (a colour font's emoji): its IDAT data idat[0..nidat), a zlib
	   stream of PNG-filtered rows of bits-bit palette indices (bits 1, 2,
	   4 or 8), and its palette, 1 << bits RGB triples in pal (padded
	   with black, white where the entry is fully clear): what a PDF
	   /Indexed image with the PNG predictor takes as it is. NULL else. */
	const unsigned char *idat;
	size_t nidat;
	const unsigned char *pal;
	int bits;
	/* and, decoded, its indices (w * h, one byte each) in place of px:
	   pixel i is the colour pal[3 * idx[i]] */
	const unsigned char *idx;
} image_t;

/* Decode path into *out (pixels in a); 0, or -1 with a short reason in
 * *why (static storage, valid until the next call). */
int image_load(arena_t *a, const char *path, image_t *out, const char **why);

/* A zlib decompressor: in[0..n) into out[0..cap); the bytes written, or
 * -1 unless in is one whole zlib stream (its checksum right, nothing
 * after it) of at most cap bytes. */
typedef long image_inflate_fn(const unsigned char *in, size_t n, unsigned char *out, size_t cap);

/* image_load of PNG data p[0..n) in memory (a colour font's glyph:
 * sfnt_bitmap); the same checks and limits, and what libpng only warns of
 * refused too. A palette PNG kept at its size, not interlaced, comes as
 * idx, pal and idat with px NULL: for the PDF to take as it is, not for
 * image_scale, image_crop or image_jpeg, which read px. With inflate, its
 * IDAT is inflated whole by it and its rows unfiltered here (the same
 * pixels: libpng inflates a row at a time, at four times the cost); its
 * chunks' CRCs before the image data are libpng's to check, the image
 * data's zlib's checksum. NULL: libpng reads every row. */
int image_png_data(arena_t *a, const unsigned char *p, size_t n, image_inflate_fn *inflate,
                   image_t *out, const char **why);

/* im (no alpha) as a baseline JPEG of the given quality (1-100), with no
 * marker but the image's own (no JFIF, EXIF or comment): a photo for the
 * PDF's DCTDecode at a fraction of its Flate size. 0 and *out (malloc'd,
 * *n bytes), or -1. */
int image_jpeg(const image_t *im, int quality, unsigned char **out, size_t *n);

/* im box-filtered down to fit w x h pixels (never up: a smaller image is
 * returned as it is), aspect kept; pixels in a. */
void image_scale(arena_t *a, const image_t *im, int w, int h, image_t *out);
/* The part x, y, w, h (pixels of im, clamped to it) of im; pixels in a.
 * A photo drawn in a box of another shape is cropped, never squashed. */
void image_crop(arena_t *a, const image_t *im, int x, int y, int w, int h, image_t *out);

#endif
