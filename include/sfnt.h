/* sfnt: TrueType and OpenType/CFF font programs in memory -- no library.
 *
 * Reads what a PDF font needs from a glyf TrueType or a CFF OpenType font
 * (table directory, Unicode cmap, PostScript name, advance widths,
 * descriptor metrics) and writes a cut-down font program: for TrueType an
 * sfnt whose glyf/loca keep only the glyphs asked for (with composite
 * components), for CFF a bare CID-keyed CFF (FontFile3 /CIDFontType0C,
 * CID = glyph id); either with copies of glyphs appended after the last
 * one. Also the sanity checks libharu 2.3.0 lacks (it crashes on
 * numberOfHMetrics > numGlyphs, divides by unitsPerEm 0).
 *
 *   sfnt_t *f = sfnt_open(data, len, why, sizeof why);  (data outlives f)
 *   unsigned g = sfnt_gid(f, 'A');  int w = sfnt_width(f, g);
 *   unsigned c = sfnt_copy(f, g);              (a new glyph drawing g)
 *   sfnt_program(f, keep, &prog, &n);          (owned by f)
 *   sfnt_free(f);
 * and cuts a document's TrueType subset from a font file (sfnt_subset).
 */
#ifndef VITA_SFNT_H
#define VITA_SFNT_H
#include <stddef.h>
#include <stdint.h>

typedef struct sfnt sfnt_t;

/* Font descriptor metrics, in 1/1000 em. */
typedef struct sfnt_metrics {
	int ascent, descent, cap;
	int bbox[4];            /* xMin yMin xMax yMax */
	double italic;          /* post.italicAngle, degrees */
	unsigned weight;        /* OS/2 usWeightClass (400 without OS/2) */
	int fixed;              /* post.isFixedPitch */
	int slanted;            /* italic angle, or head.macStyle italic */
} sfnt_metrics_t;

/* A font file read by pieces (a CJK collection is 26 MB, of which a CV
 * needs a few KB): a private anonymous mapping of the file's size, zero
 * until a part is asked for with sfnt_file_need, which reads the 4 KiB
 * blocks it covers with pread. Mapping the file instead costs the pages
 * the kernel maps around each one touched (64 KB: fault-around), which a
 * binary search over cmap or a CJK face's charstrings scatter over
 * megabytes. Pointers into sfnt_file_bytes stay valid until the close;
 * the bytes are the file's where they were asked for, else zero. */
typedef struct sfnt_file sfnt_file_t;
sfnt_file_t *sfnt_file_open(const char *path, char *why, size_t whysz);
const unsigned char *sfnt_file_bytes(const sfnt_file_t *f, size_t *n);
/* Read p[0..len) of f's bytes (clamped to the file) unless read already;
 * f NULL (bytes in memory) does nothing. */
void sfnt_file_need(sfnt_file_t *f, const unsigned char *p, size_t len);
/* Read face index's table directory and the small tables whose fields
 * sfnt_check, sfnt_face_read and sfnt_face_name read (head, hhea, maxp,
 * OS/2, name, post's header). */
void sfnt_file_face(sfnt_file_t *f, int index);
/* Table tag of face index, read whole; NULL when the face has none (the
 * first of two; cut to the file's end). */
const unsigned char *sfnt_file_table(sfnt_file_t *f, int index, uint32_t tag, size_t *len);
/* The same, not read (where it lies). */
const unsigned char *sfnt_file_find(sfnt_file_t *f, int index, uint32_t tag, size_t *len);
/* f once more (the faces of a collection share their file's blocks: its
 * CFF, hmtx, name): each sfnt_file_ref needs its own close. */
sfnt_file_t *sfnt_file_ref(sfnt_file_t *f);
/* Give back the pages read (they read as zero until asked for again):
 * every pointer into the bytes must be asked for (sfnt_file_need) anew. */
void sfnt_file_drop(sfnt_file_t *f);
void sfnt_file_close(sfnt_file_t *f);

/* What HarfBuzz 6's font functions read from a face's cmap and hmtx, read
 * by pieces instead (a CJK face's cmap and hmtx are 250 KB each, of which
 * a lookup needs a few bytes): the glyph of a code point and the advance
 * of a glyph as hb_font_get_nominal_glyph and hb_font_get_glyph_h_advance
 * give them (at a scale of units per em). */
typedef struct sfnt_hb {
	sfnt_file_t *src;
	const unsigned char *cmap;  /* the subtable HarfBuzz reads */
	uint32_t cmaplen;
	int cmapfmt;                /* 4 or 12 */
	const unsigned char *hmtx;
	unsigned nglyphs, nmetrics;
	int dense;                  /* hmtx read whole (small: a Latin face's) */
	const unsigned char *glyf, *loca; /* a glyf face's ink boxes (sfnt_hb_extents) */
	uint32_t glyflen;
	unsigned ninked;            /* glyphs loca holds (0: not a glyf face read so) */
	int shortloca;
	uint64_t cache[256];        /* (cp + 1) << 16 | glyph, by cp % 256: text
	                             * repeats its characters (HarfBuzz's cache) */
	unsigned seg4;              /* format 4: the last look-up's segment */
} sfnt_hb_t;
/* 0 when face index is one these follow exactly as HarfBuzz does: the
 * cmap subtable HarfBuzz picks is of format 4 or 12 and sound, no symbol
 * subtable, no variations, hhea and maxp as sfnt_check wants them; else
 * -1 (leave it to HarfBuzz). */
int sfnt_hb_cmap(sfnt_file_t *src, int index, sfnt_hb_t *h);
/* The glyph of cp, unchecked against numGlyphs as HarfBuzz's; 0: none. */
unsigned sfnt_hb_glyph(sfnt_hb_t *h, uint32_t cp);
/* The advance of glyph g < h->nglyphs, font units (inline: shaping asks
 * for it per glyph). */
unsigned sfnt_hb_advance_read(const sfnt_hb_t *h, unsigned g);
/* Glyph g's ink box (x bearing, y bearing, width, height, font units) as
 * hb_font_get_glyph_extents gives it for a glyf face with no colour or
 * bitmap tables: 1, or 0 when HarfBuzz has none (*e zero); -1: not such a
 * face (ask HarfBuzz). */
int sfnt_hb_extents(const sfnt_hb_t *h, unsigned g, int32_t e[4]);
static inline unsigned sfnt_hb_advance(const sfnt_hb_t *h, unsigned g)
{
	if (!h->dense)
		return sfnt_hb_advance_read(h, g);
	const unsigned char *r = h->hmtx + 4 * (size_t)(g < h->nmetrics ? g : h->nmetrics - 1);
	return (unsigned)r[0] << 8 | r[1];
}

/* 0 when face index of the font in p[0..n) is a glyf TrueType or a CFF
 * (not CFF2) OpenType font whose tables we can trust; else -1 with a
 * reason in why. */
int sfnt_check(const unsigned char *p, size_t n, int index, char *why, size_t whysz);
/* The same for a file (mapped, never read whole). */
int sfnt_check_file(const char *path, int index, char *why, size_t whysz);

/* Parse a single-face font (not a collection); NULL with a reason in why
 * when it cannot be embedded (checks as sfnt_check, plus a usable Unicode cmap, a
 * PostScript name and a licence that allows embedding). */
sfnt_t *sfnt_open(const unsigned char *p, size_t n, char *why, size_t whysz);
void sfnt_free(sfnt_t *f);

unsigned sfnt_nglyphs(const sfnt_t *f);       /* including copies */
int sfnt_is_cff(const sfnt_t *f);             /* CFF outlines: the program is a CFF */
/* Colour bitmaps (CBLC/CBDT, no outlines: Noto Color Emoji): drawn from
 * their PNG images (sfnt_bitmap), never embedded as a font program. */
int sfnt_is_bitmap(const sfnt_t *f);
/* A glyph's image in the strike of the most pixels per em: its size and
 * place in pixels of that strike (bx right, by up from the pen to its top
 * left corner) and its PNG data (in the font's bytes; len 0: none). */
typedef struct sfnt_bitmap {
	int ppem;
	int w, h, bx, by;
	const unsigned char *png;
	uint32_t len;
} sfnt_bitmap_t;
/* 0 with *b set, -1 when g has no readable image entry (corrupt tables). */
int sfnt_bitmap(const sfnt_t *f, unsigned g, sfnt_bitmap_t *b);
const char *sfnt_psname(const sfnt_t *f);     /* PDF-name safe, not empty */
/* The glyph of a code point (0 when none). */
unsigned sfnt_gid(sfnt_t *f, uint32_t cp);
/* Advance width of glyph g (a copy: of the glyph it copies) in 1/1000 em,
 * truncated as libharu did (layout measures so). */
int sfnt_width(const sfnt_t *f, unsigned g);
/* The glyph a glyph id draws (itself, or the original of a copy). */
unsigned sfnt_source(const sfnt_t *f, unsigned g);
/* Append a copy of glyph g; its new id, or g when the font is full. */
unsigned sfnt_copy(sfnt_t *f, unsigned g);
/* Append a composite glyph (TrueType only; n 0: an empty one) of the n glyphs gids[i]
 * (< the font's own glyph count), each moved by (dx[i], dy[i]) font
 * units, advancing adv: a shaped cluster drawn as one glyph. Its new id,
 * or 0 (CFF, full, offsets out of range). */
unsigned sfnt_compose(sfnt_t *f, int n, const unsigned *gids, const int32_t *dx,
                      const int32_t *dy, int32_t adv);
unsigned sfnt_upem(const sfnt_t *f);
void sfnt_get_metrics(const sfnt_t *f, sfnt_metrics_t *m);
/* The font program with the glyphs keep[g] != 0 (g < sfnt_nglyphs), copies
 * included: TrueType, the tables a PDF viewer needs, glyf/loca cut to those
 * glyphs and their components, checksums recomputed; CFF, a CID-keyed CFF
 * whose CID g is glyph g (the others drawn empty). The bytes belong to f
 * (valid until the next call or sfnt_free). */
void sfnt_program(sfnt_t *f, const uint8_t *keep, const unsigned char **out, size_t *n);

/* A subset of face index of the font p[0..n) (sfnt_glyf.c): the glyphs
 * of code points cps[0..ncps) (BMP) and of glyph ids gids[0..ngids),
 * renumbered in the order of their ids (.notdef stays 0, drawn empty),
 * with no hinting, a (3,1) format 4 cmap of the code points kept, hmtx,
 * maxp, head, hhea, post (format 3), OS/2 and name, checksums set.
 * TrueType: with their composite components, glyf and loca. CFF: a
 * CID-keyed CFF (identity charset) whose charstrings have their
 * subroutines inlined (but when one uses seac or arithmetic operators).
 * The gids' new ids go to newids[0..ngids) (0: none). *out is malloc'd.
 * 0, or -1 when the font is corrupt (why). */
int sfnt_subset(const unsigned char *p, size_t n, int index, const uint32_t *cps, int ncps,
                const uint16_t *gids, int ngids, uint16_t *newids, unsigned char **out,
                size_t *outlen, char *why, size_t whysz);
/* The same from a font file read by pieces: only what the subset needs. */
int sfnt_subset_file(sfnt_file_t *src, int index, const uint32_t *cps, int ncps,
                     const uint16_t *gids, int ngids, uint16_t *newids, unsigned char **out,
                     size_t *outlen, char *why, size_t whysz);

/* The single-face font p[0..n), which has no cmap, with one added: a
 * (3,1) format 4 subtable mapping code point cps[i] to glyph gids[i]
 * (k pairs, BMP, code points ascending). *out is malloc'd. -1 when the
 * font is a collection, has a cmap or is corrupt, or a pair is out of
 * range. */
int sfnt_with_cmap(const unsigned char *p, size_t n, const uint32_t *cps, const unsigned *gids,
                   int k, unsigned char **out, size_t *outlen);

/* What face index of the font file or collection p[0..n) says about
 * itself, as FreeType 2.12 reads it (src/sfnt_face.c): FT_Face's
 * units_per_EM, ascender and descender (hhea; OS/2 typo metrics with
 * USE_TYPO_METRICS or when hhea has none; else OS/2 win metrics), its
 * FT_IS_SCALABLE (stricter: any colour bitmap table makes a face not an
 * outline face), and the OS/2 table FT_Get_Sfnt_Table gives (os2 0: none).
 * No check beyond what it reads (sfnt_check is the check). */
typedef struct sfnt_face {
	const unsigned char *p;  /* the file (sfnt_face_name reads it again) */
	size_t n;
	uint32_t dir;            /* the face's table directory */
	unsigned upem;
	int asc, desc;           /* font units */
	int outline;             /* glyf, CFF or CFF2 outlines and no bitmaps */
	int bitmaps;             /* a CBLC, CBDT or sbix table */
	int color;               /* colour bitmaps only: CBLC and CBDT, no outlines */
	int os2;                 /* has an OS/2 table (the fields below) */
	unsigned os2_version, fs_selection, win_asc, win_desc;
	int typo_asc, typo_desc;
	int cap;                 /* sCapHeight (version >= 2), else 0 */
} sfnt_face_t;
/* 0, or -1 when p has no such face or no head or hhea table. */
int sfnt_face_read(const unsigned char *p, size_t n, int index, sfnt_face_t *fi);
/* FT_Face's family_name and style_name, FT_Get_Postscript_Name: the name
 * records FreeType picks, converted to ASCII as it converts them;
 * malloc'd, NULL when the face has none. */
enum { SFNT_NAME_FAMILY, SFNT_NAME_STYLE, SFNT_NAME_PS };
char *sfnt_face_name(const sfnt_face_t *fi, int which);

#endif
