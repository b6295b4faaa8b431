/* image: check that a photo can be embedded before anything hands it to
 * libharu (whose PNG reader lets libpng abort() the process on a damaged
 * file, and whose JPEG reader embeds whatever follows a plausible header).
 *
 * A PNG is decoded completely, row by row, so every libpng error surfaces
 * here as a return value; a JPEG must have a frame header with a size
 * before its first scan. Both are limited to IMAGE_MAX_SIDE pixels a side.
 */
#ifndef VITA_IMAGE_H
#define VITA_IMAGE_H

#define IMAGE_MAX_SIDE 16384

typedef struct image_info {
	int png;        /* 1: PNG, 0: JPEG */
	int w, h;       /* pixels */
} image_info_t;

/* 0 and *out filled when path is a PNG or JPEG file that can be embedded;
 * -1 otherwise, with a short reason in *why (a static string). */
int image_probe(const char *path, image_info_t *out, const char **why);

#endif
