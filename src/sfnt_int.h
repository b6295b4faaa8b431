/* sfnt_int.h: what src/sfnt.c and src/sfnt_cff.c share (not a public
 * interface; see include/sfnt.h). Only src/sfnt*.c include this file. */
#ifndef VITA_SFNT_INT_H
#define VITA_SFNT_INT_H
#include <stddef.h>
#include <stdint.h>
#include "arena.h"

/* A growing byte buffer. */
typedef struct bbuf {
	unsigned char *p;
	size_t n, cap;
} bbuf_t;

/* k more bytes at the end of b (uninitialised); their address. (Inline:
 * both files write programs, and sfnt.c calls sfnt_cff.c, not back.) */
static inline unsigned char *sfnt_bb_grow(bbuf_t *b, size_t k)
{
	if (b->n + k > b->cap) {
		while (b->n + k > b->cap)
			b->cap = b->cap ? 2 * b->cap : 65536;
		b->p = xrealloc(b->p, b->cap);
	}
	unsigned char *o = b->p + b->n;
	b->n += k;
	return o;
}

/* A parsed CFF table ('CFF ', version 1): CID-keyed or name-keyed. */
typedef struct sfnt_cff sfnt_cff_t;

/* 0 when the CFF table p[0..n) of a font of nglyphs glyphs looks sound
 * (header, Top DICT, CharStrings count): the check of a font named by a
 * chain, which reads only a few bytes of it. */
int sfnt_cff_check(const unsigned char *p, size_t n, unsigned nglyphs, char *why, size_t whysz);

/* Parse the CFF table p[0..n) of a font of nglyphs glyphs; NULL with a
 * reason in why when it is corrupt or cannot be embedded. */
sfnt_cff_t *sfnt_cff_open(const unsigned char *p, size_t n, unsigned nglyphs, char *why,
                          size_t whysz);
void sfnt_cff_free(sfnt_cff_t *c);

/* Write a CID-keyed CFF (FontFile3 /CIDFontType0C) of total glyphs into
 * out: glyph g draws glyph src(g) of the font (g < nglyphs: g itself;
 * else dup[g - nglyphs]), or nothing when !keep[src(g)] (keep is per
 * original glyph). Its charset is the identity (CID = glyph id), its
 * Registry-Ordering-Supplement Adobe-Identity-0; a name-keyed font gets
 * one font dict. */
void sfnt_cff_write(const sfnt_cff_t *c, unsigned total, unsigned nglyphs, const uint16_t *dup,
                    const uint8_t *keep, bbuf_t *out);

#endif
