/* sfnt_int.h: what src/sfnt.c and src/sfnt_cff.c share (not a public
 * interface; see include/sfnt.h). Only src/sfnt*.c include this file. */
#ifndef VITA_SFNT_INT_H
#define VITA_SFNT_INT_H
#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "sfnt.h"

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

/* A font file read by pieces (include/sfnt.h): blocks of SFNT_BLOCK bytes,
 * a bit in have[] for each one read. */
enum { SFNT_BLOCK = 4096 };
struct sfnt_file {
	int refs;               /* sfnt_file_ref: closed when the last goes */
	int fd;
	unsigned char *p;       /* n bytes, anonymous: zero until read */
	size_t n;
	uint8_t *have;
};

/* sfnt_file_need, inline for the common ask (a few bytes of a block read
 * already: a binary search's probe, a charstring). */
static inline void sfnt_need(sfnt_file_t *f, const unsigned char *p, size_t len)
{
	if (!f)
		return;
	size_t off = (size_t)((uintptr_t)p - (uintptr_t)f->p), b = off / SFNT_BLOCK;
	if (off < f->n && off % SFNT_BLOCK + len <= SFNT_BLOCK && (f->have[b / 8] >> (b % 8) & 1))
		return;
	sfnt_file_need(f, p, len);
}
/* The table directory of face index in f (read), or 0 with *ok 0. */
uint32_t sfnt_file_dir(sfnt_file_t *f, int index, int *ok);
/* p[0..len) of f's bytes copied to dst, without reading them into f (a
 * few bytes alone in their block); zeros past the file's end. */
void sfnt_file_copy(sfnt_file_t *f, const unsigned char *p, size_t len, unsigned char *dst);

/* A parsed CFF table ('CFF ', version 1): CID-keyed or name-keyed. */
typedef struct sfnt_cff sfnt_cff_t;

/* 0 when the CFF table p[0..n) of a font of nglyphs glyphs looks sound
 * (header, Top DICT, CharStrings count): the check of a font named by a
 * chain, which reads only a few bytes of it. */
int sfnt_cff_check(const unsigned char *p, size_t n, unsigned nglyphs, sfnt_file_t *src,
                   char *why, size_t whysz);

/* Parse the CFF table p[0..n) of a font of nglyphs glyphs; NULL with a
 * reason in why when it is corrupt or cannot be embedded. lazy: the
 * offsets of the CharStrings and Subrs INDEXes are checked when an item
 * is read, not all at once (65,535 of them in a CJK face), for
 * sfnt_cff_subset. src: p lies in a font file read by pieces (sfnt_file_need
 * before each read), else NULL (also for sfnt_cff_check). */
sfnt_cff_t *sfnt_cff_open(const unsigned char *p, size_t n, unsigned nglyphs, int lazy,
                          sfnt_file_t *src, char *why, size_t whysz);
void sfnt_cff_free(sfnt_cff_t *c);

/* Write a CID-keyed CFF (FontFile3 /CIDFontType0C) of total glyphs into
 * out: glyph g draws glyph src(g) of the font (g < nglyphs: g itself;
 * else dup[g - nglyphs]), or nothing when !keep[src(g)] (keep is per
 * original glyph). Its charset is the identity (CID = glyph id), its
 * Registry-Ordering-Supplement Adobe-Identity-0; a name-keyed font gets
 * one font dict. */
void sfnt_cff_write(const sfnt_cff_t *c, unsigned total, unsigned nglyphs, const uint16_t *dup,
                    const uint8_t *keep, bbuf_t *out);

/* A CID-keyed CFF (the identity charset, ROS Adobe-Identity-0) of the
 * glyphs ids[0..n) of c (ascending, ids[0] = 0, which draws nothing), as
 * glyphs 0..n-1, into b: charstrings with their subroutines inlined and
 * their hints dropped, the font dicts they use with Private DICTs
 * without hinting, no strings but the ROS. When a charstring uses what is
 * not flattened here (seac, arithmetic), every one is kept as it is, with
 * the global and local subroutines and the hints. -1 when a charstring
 * lies outside the table. */
int sfnt_cff_subset(const sfnt_cff_t *c, const uint16_t *ids, unsigned n, bbuf_t *b);

/* ---- sfnt.c's reader, for sfnt_glyf.c ---- */

/* The tables sfnt.c reads, in tag order. */
enum { T_CBDT, T_CBLC, T_CFF, T_OS2, T_CMAP, T_CVT, T_FPGM, T_GLYF, T_HEAD, T_HHEA, T_HMTX, T_LOCA, T_MAXP,
       T_NAME, T_POST, T_PREP, T_N };

struct sfnt {
	const unsigned char *p;     /* the caller's bytes (a collection: the whole file) */
	size_t n;
	sfnt_file_t *src;           /* p is a file read by pieces (sfnt_file_need), or NULL */
	uint32_t off[T_N], len[T_N]; /* len 0: absent */
	unsigned upem, nglyphs, nmetrics, locfmt;
	const unsigned char *cmap;  /* the Unicode subtable used */
	uint32_t cmaplen;
	int cmapfmt;                /* 4 or 12 */
	unsigned seg4;              /* format 4: the last look-up's segment */
	char ps[64];                /* PostScript name */
	uint16_t *dup;              /* glyph nglyphs + k draws a copy of glyph dup[k] */
	unsigned ndup;
	struct sfnt_comp *comp;     /* per appended glyph: a composite (d NULL: a copy) */
	unsigned ncompmax;          /* the most components of one */
	unsigned comppts, compcts;  /* the most points and contours of one (maxp) */
	sfnt_cff_t *cff;            /* CFF outlines (no glyf): the program is a CFF */
	bbuf_t prog;                /* the last program written */
	uint8_t *keep;              /* scratch: per original glyph */
	uint16_t *stack;
	struct sfnt_out *out;       /* scratch: per glyph of the program */
};

/* Face index of p[0..n) (a collection or not) as sfnt_open reads it, but
 * for cutting a subset: no PostScript name or embedding licence needed,
 * and a CFF face is not parsed (f->cff NULL, f->len[T_GLYF] 0). */
sfnt_t *sfnt_open_face(const unsigned char *p, size_t n, sfnt_file_t *src, int index, char *why,
                       size_t whysz);
/* Glyph g's bytes in glyf (g < nglyphs); NULL and *len 0 when empty or
 * out of bounds. */
const unsigned char *sfnt_glyph_data(const sfnt_t *f, unsigned g, uint32_t *len);
/* A glyph record that draws nothing: a simple glyph of no contour, an
 * empty box and no instructions (12 bytes). A glyf table of no byte (a
 * subset whose glyphs are all empty: spaces, U+2800) is refused by
 * readers (pdf.js: 'Required "glyf" table is not found', and sfnt_open),
 * so such a subset's .notdef is this glyph. */
#define SFNT_EMPTY_GLYPH_LEN 12
extern const unsigned char sfnt_empty_glyph[SFNT_EMPTY_GLYPH_LEN];
/* The sum of the big-endian 32-bit words of p[0..n) (n a multiple of 4). */
uint32_t sfnt_sum(const unsigned char *p, size_t n);
/* Close the table written at b->p[at..b->n): pad it to 4 bytes and fill
 * its 16-byte directory entry at b->p + dir (tag, checksum, offset,
 * length). Returns the table's checksum. */
uint32_t sfnt_table_end(bbuf_t *b, size_t dir, const char *tag, size_t at);
/* A cmap table with one (3,1) format 4 subtable mapping cps[i] to gids[i]
 * (k pairs, BMP, code points ascending) at the end of b. */
void sfnt_cmap_table(const uint32_t *cps, const unsigned *gids, int k, bbuf_t *b);

/* sfnt_cbdt.c: glyph g's bitmap in the CBLC/CBDT tables of f (its strike
 * of the most pixels per em): 0 with *b set (b->len 0: the strike has
 * no image for it), -1 when the tables are corrupt. */
int sfnt_cbdt_glyph(const sfnt_t *f, unsigned g, sfnt_bitmap_t *b);
/* The CBLC and CBDT tables of a subset (sfnt_glyf.c) of f's glyphs
 * ids[0..n) (ascending, ids[0] = 0) as glyphs 0..n-1, each image as
 * format 17 (small metrics, PNG), one strike, one index of format 1. */
void sfnt_cbdt_subset(const sfnt_t *f, const uint16_t *ids, unsigned n, bbuf_t *cblc,
                      bbuf_t *cbdt);

#endif
