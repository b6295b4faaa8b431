/* font: faces, fallback chains, coverage, metrics, shaping, subsetting.
 *
 * The only module that includes HarfBuzz and fontconfig. All
 * lengths it returns are integer layout units (u = 1/1000 pt). A font's
 * unscaled metrics are read once and scaled once.
 *
 * A chain (fonts/<name>.yaml, loaded with font_chain_load) is an ordered
 * list of families: Latin first, then CJK faces (optionally tagged with
 * the languages they are preferred for: zh, ja, ko), then symbol fallbacks.
 * For a style (regular, bold, italic, bold italic) each family is resolved
 * to a face file+index; where a family has no real bold or italic, the
 * regular face is used with FONT_SYNTH_BOLD / FONT_SYNTH_ITALIC set, which
 * the PDF writer realises (fill+stroke, slant matrix). Never a silent
 * regular.
 *
 * Each character is drawn from the first face in the chain that has it
 * (CJK faces whose language tag matches the text's language are tried
 * before other CJK faces). Characters that no face has are reported through
 * font_chain_missing / the coverage callbacks, never drawn as tofu.
 *
 * Advances are those the PDF's widths give when drawing: per glyph,
 * trunc(advance * 1000 / units_per_em) in 1/1000 em, scaled by the size.
 * Kerning (HarfBuzz GPOS/kern) appears as a difference between a glyph's
 * shaped advance and its nominal one; font_shape marks those places so the
 * caller starts a new run there (each run is placed with its own text
 * matrix; the PDF's widths are the nominal advances).
 */
#ifndef VITA_FONT_H
#define VITA_FONT_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "arena.h"
#include "err.h"

/* FONT_LIGHT is a weight flag: the family's light face (Noto Sans Light),
 * or its regular one where it has none (font_style_real says which); with
 * FONT_BOLD (bold markup inside light text) the text is bold. */
enum {
	FONT_REGULAR = 0, FONT_BOLD = 1, FONT_ITALIC = 2, FONT_BOLD_ITALIC = 3,
	FONT_LIGHT = 4, FONT_LIGHT_ITALIC = 6
};
enum { FONT_SYNTH_BOLD = 1, FONT_SYNTH_ITALIC = 2 };

typedef struct font_lib font_lib_t;     /* fontconfig + face cache + shaping cache */
typedef struct font_face font_face_t;   /* one loaded file+index */
typedef struct font_chain font_chain_t; /* a named chain; owned by the lib */

/* Faces are numbered 0.. in the order they are first used (stable, so the
 * layout dump and the PDF are deterministic). */
typedef struct font_face_info {
	const char *path;       /* the installed font file */
	int index;              /* face index in a .ttc, else 0 */
	const char *family;     /* e.g. "Noto Serif" */
	const char *style;      /* e.g. "Bold" */
	const char *psname;     /* PostScript name */
	int units_per_em;
} font_face_info_t;

/* search_dirs: NULL-terminated list of extra directories searched for
 * chain files (<dir>/<name>.yaml) and font files before fontconfig (the
 * project's fonts/, the directory beside the profile). */
font_lib_t *font_lib_new(const char *const *search_dirs, errs_t *e);
void font_lib_free(font_lib_t *lib);
/* What the faces hold of their files (pages read, tables, HarfBuzz's
 * objects and plans) given back, for a lower peak: once the layout is
 * done, cutting the subsets needs only a few parts of the files, and the
 * PDF writer only the subsets. Afterwards the library can only subset
 * (font_subset, which reads the files again where it needs them) or be
 * freed: nothing of it may shape or measure any more. Called again, it
 * gives back the pages the subsets read. */
void font_lib_drop_faces(font_lib_t *lib);
/* The text the document will shape (UTF-8, n bytes): a face HarfBuzz
 * shapes with a large GSUB then gets its tables cut to what that text
 * can use (less set-up, less work a glyph). Text that was not told
 * costs that face its full tables again when it comes, never a
 * different result. fn (NULL: none) tells it, with font_lib_expect,
 * when a face first asks (most documents have no such face: the walk
 * would cost 0.2 M instructions for nothing); ctx must last until it is
 * unset. */
void font_lib_expect(font_lib_t *lib, const char *s, size_t n);
typedef void font_text_fn(font_lib_t *lib, void *ctx);
void font_lib_text(font_lib_t *lib, font_text_fn *fn, void *ctx);

/* Load (or return the already loaded) chain by name ("serif") or path,
 * a list of families ("Noto Sans, DejaVu Sans": vita's CJK and symbol
 * faces follow), or families in front of either ("Lato + serif").
 * Errors: unknown chain (exit 1, located in the layout if given),
 * a family that cannot be found, a missing, unreadable, CFF-only or
 * corrupt font file (exit 3, naming the file). */
font_chain_t *font_chain_get(font_lib_t *lib, const char *name, errs_t *e);
const char *font_chain_name(const font_chain_t *c);
/* "Lato + serif" (families in front of a chain): the front families that
 * are not installed and were left out, as "'Lato'", or NULL. */
const char *font_chain_absent(const font_chain_t *c);
/* The i-th family of chain c (from 0) that is not installed but is set in
 * its metric-compatible stand-in (fontconfig's alias: Helvetica -> Nimbus
 * Sans): 1 with *family and *standin set, 0 past the last. */
int font_chain_standin(const font_chain_t *c, int i, const char **family, const char **standin);
/* The families of chain c in order (as named in the chain, or the family
 * of an explicit file): up to max into out; returns how many. */
int font_chain_families(const font_chain_t *c, const char **out, int max);
/* A chain may name families that are not installed: a CV that never
 * needs them renders. For cp, which no installed face of c has (in text
 * of language lang): the missing families that could have drawn it (CJK
 * characters: the lang-tagged ones; others: the untagged ones), written
 * into out as "'Noto Sans CJK JP' (Debian package fonts-noto-cjk)".
 * Returns their number, 0 when no missing family could have it, or -1 when
 * they were already reported for an earlier character (say it once). */
int font_chain_missing(font_chain_t *c, uint32_t cp, const char *lang, char *out, size_t outsz);

/* The face id (stable index) used for code point cp in a style and
 * language ("en", "zh", "ja", "ko" or NULL); -1 when no face has it. */
int font_face_for(font_chain_t *c, int style, const char *lang, uint32_t cp);
/* 1 when chain c has a face of emoji presentation (a chain file's
 * `presentation: emoji`: Noto Color Emoji) that has cp: U+FE0F after cp
 * asks for it, and is drawn (as part of the emoji) from it. */
int font_emoji_has(font_chain_t *c, int style, uint32_t cp);
/* 1 when the chain's first face (Latin) has a face of its own for style
 * (a light style: a light face, not the regular one standing in). */
int font_style_real(font_chain_t *c, int style);
/* Synthetic flags (FONT_SYNTH_*) that face id needs in style of chain c. */
int font_face_synth(font_chain_t *c, int style, int face);
int font_face_count(const font_lib_t *lib);
const font_face_info_t *font_face_info(const font_lib_t *lib, int face);

/* Vertical metrics of a chain's first face at size (u): ascender > 0,
 * descender < 0 (as in the font's hhea/OS2 typo metrics). */
void font_metrics(font_chain_t *c, int style, int32_t size, int32_t *asc, int32_t *desc);
/* Cap height (u) of the chain's first face at size. */
int32_t font_cap_height(font_chain_t *c, int style, int32_t size);

/* OpenType features a caller may ask font_shape_feat for (GSUB single
 * substitutions: one glyph per code point still, so the text stays the
 * text): small capitals of lower-case letters (smcp) and of capitals
 * (c2sc), oldstyle (onum), lining (lnum), tabular (tnum) and proportional
 * (pnum) figures. */
enum {
	FONT_FEAT_SMCP = 1, FONT_FEAT_C2SC = 2, FONT_FEAT_ONUM = 4, FONT_FEAT_LNUM = 8,
	FONT_FEAT_TNUM = 16, FONT_FEAT_PNUM = 32
};

/* Scripts whose letters HarfBuzz shapes into clusters (Devanagari,
 * Bengali, Tamil, Thai, ...: conjuncts, reordered vowel signs, stacked
 * marks) are given as clusters: the record of a cluster's first code
 * point (FONT_CL_START, advance 0 or an x offset) is followed by one
 * FONT_CL_GLYPH record per glyph drawn, in drawing order (gid, advance,
 * dy instead of cp; off: the cluster's first code point's), then by the records
 * of its other code points (FONT_CL_CONT, advance 0). The advances add
 * up to the cluster's width. */
enum { FONT_CL_START = 1, FONT_CL_GLYPH = 2, FONT_CL_CONT = 3 };

/* One shaped glyph. */
typedef struct font_glyph {
	union {
		uint32_t cp;    /* the code point this glyph stands for */
		int32_t dy;     /* a FONT_CL_GLYPH's: u above the baseline */
	};
	uint32_t off;       /* byte offset of that code point in the input */
	int32_t adv;        /* advance in u at the size (kerning included) */
	int16_t face;       /* face id */
	uint8_t synth;      /* FONT_SYNTH_* */
	uint8_t brk;        /* 1: a new drawing run must start at this glyph
	                       (face change, kerning, or an offset) */
	uint16_t gid;       /* the face's glyph when a feature replaced cp's
	                       cmap glyph (a small capital), else 0; a
	                       FONT_CL_GLYPH record's glyph */
	uint8_t cl;         /* FONT_CL_*, or 0: one glyph for cp */
} font_glyph_t;

typedef struct font_shaped {
	font_glyph_t *g;    /* owned by the caller's arena or by font_shaped_done */
	int n, cap;
	int32_t width;      /* sum of adv (u) */
	int missing;        /* number of code points no face could draw */
} font_shaped_t;

void font_shaped_init(font_shaped_t *s);
void font_shaped_done(font_shaped_t *s);
/* Shape s[0..n) (valid UTF-8, NFC) in chain c, style, size (u), language.
 * Itemises by face (first face that covers each character, kept for a
 * whole cluster), shapes each item with HarfBuzz (+kern, -liga, -clig),
 * appends one glyph per code point to out (code points with no face get
 * face -1, adv 0, and are counted in out->missing). Kerning is applied.
 * Returns 0, or -1 on an internal failure recorded in e. */
int font_shape(font_chain_t *c, int style, int32_t size, const char *lang,
               const char *s, size_t n, font_shaped_t *out, errs_t *e);
/* Width in u of s at size, as font_shape would give. */
int32_t font_width(font_chain_t *c, int style, int32_t size, const char *lang,
                   const char *s, size_t n);
/* font_shape and font_width with the features feats (FONT_FEAT_*) on:
 * a glyph a feature replaced carries its glyph id (gid) and its own
 * advance. */
int font_shape_feat(font_chain_t *c, int style, int32_t size, const char *lang,
                    unsigned feats, const char *s, size_t n, font_shaped_t *out, errs_t *e);
int32_t font_width_feat(font_chain_t *c, int style, int32_t size, const char *lang,
                        unsigned feats, const char *s, size_t n);
/* font_width_feat of the pieces s[cut[p-1]..cut[p]) (as font_shape_pieces
 * cuts them) one after the other: the width inline_set gives the words of
 * a line when it shapes them a word at a time (kerning never crosses a
 * cut). */
int32_t font_width_pieces(font_chain_t *c, int style, int32_t size, const char *lang,
                          unsigned feats, const char *s, const uint32_t *cut, int ncut);
/* font_shape_feat of each piece s[cut[p-1]..cut[p]) (cut[-1] = 0,
 * cut[ncut-1] the length), one after the other into out, offsets counted
 * from s: the glyphs one call per piece would give, from fewer HarfBuzz
 * calls (the pieces of one face are shaped together and split where
 * HarfBuzz marks the boundary safe to break; kerning never crosses a
 * boundary). On -1 (a face failed to load), out holds the glyphs of the
 * pieces before the one whose call would have failed. */
int font_shape_pieces(font_chain_t *c, int style, int32_t size, const char *lang,
                      unsigned feats, const char *s, const uint32_t *cut, int ncut,
                      font_shaped_t *out, errs_t *e);
/* One glyph of font_shape_pieces at no size: what its advance at any size
 * is computed from (font_uglyphs_adv), so that a paragraph set again at
 * another size (fit's attempts) is not shaped again. */
typedef struct font_uglyph {
	union {             /* as font_glyph_t; dy in font units */
		uint32_t cp;
		int32_t dy;
	};
	uint32_t off;
	int32_t milli;      /* nominal advance, 1/1000 em */
	int32_t kern;       /* font units: kerning added to it */
	int32_t dx;         /* font units: x offset carried from this glyph's
	                       advance to the one before it */
	uint16_t upem;      /* its face's units per em */
	int16_t face;       /* as font_glyph_t */
	uint8_t synth, brk;
	uint16_t gid;
	uint8_t cl;         /* as font_glyph_t */
} font_uglyph_t;

typedef struct font_ushaped {
	font_uglyph_t *g;   /* malloc'd: font_ushaped_done */
	int n, cap;
	int missing;
} font_ushaped_t;

/* font_shape_pieces at no size, appending to out; font_uglyphs_at then
 * gives the glyphs font_shape_pieces would give at a size, exactly (the
 * same integer rounding, glyph by glyph), into out[0..n). */
int font_shape_pieces_u(font_chain_t *c, int style, const char *lang, unsigned feats,
                        const char *s, const uint32_t *cut, int ncut, font_ushaped_t *out,
                        errs_t *e);
void font_uglyphs_at(const font_uglyph_t *u, int n, int32_t size, font_glyph_t *out);
/* A FONT_CL_GLYPH's dy at size (font_uglyphs_at's out[k].dy). */
int32_t font_uglyph_dy(const font_uglyph_t *u, int32_t size);
/* The advances only: adv[k] = font_uglyphs_at's out[k].adv. */
void font_uglyphs_adv(const font_uglyph_t *u, int n, int32_t size, int32_t *adv);
/* font_width_pieces at no size (its glyphs into out, appended):
 * font_uglyphs_width gives the width font_width_pieces gives at a size. */
void font_width_pieces_u(font_chain_t *c, int style, const char *lang, unsigned feats,
                         const char *s, const uint32_t *cut, int ncut, font_ushaped_t *out);
int32_t font_uglyphs_width(const font_uglyph_t *u, int n, int32_t size);
void font_ushaped_done(font_ushaped_t *u);
/* Which of feats the chain's first face (its Latin face) in style has
 * (read from its GSUB once). */
unsigned font_features(font_chain_t *c, int style, unsigned feats);

/* The half-width form of the full-width punctuation mark cp as drawn by
 * face id face of chain c at size (u): *cut (u, > 0) is the blank it can
 * lose, *dx (u, <= 0) how far its ink then moves left (-cut: the blank was
 * on the left, an opening bracket; 0: on the right, a full stop in zh-Hans
 * or ja; -cut/2: both sides, a centred zh-Hant mark). From the face's GPOS
 * 'halt' feature (FONT_HALT_GPOS) or, without one, from the glyph's ink
 * box (FONT_HALT_BOX); 0 when the glyph has no blank half to lose. */
enum { FONT_HALT_GPOS = 1, FONT_HALT_BOX = 2 };
int font_halt(font_chain_t *c, int face, uint32_t cp, int32_t size, int32_t *cut, int32_t *dx);

/* Subset face to exactly the code points given (plus .notdef), into a
 * TrueType or OpenType/CFF program allocated in arena a (*data, *len),
 * by sfnt_subset (no library). It keeps the code points' cmap entries
 * and the glyphs with renumbered ids (in the order of the face's), and
 * passes the same sfnt checks as any input font.
 * Returns 0 or -1 (exit 3 error). */
int font_subset(font_lib_t *lib, int face, const uint32_t *cps, int ncps, arena_t *a,
                const unsigned char **data, size_t *len, errs_t *e);
/* font_subset that also keeps the glyphs gids[0..ngids) (no code point
 * has them: small capitals, oldstyle figures) and writes their ids in the
 * subset to newids[0..ngids) (0: dropped). */
int font_subset_glyphs(font_lib_t *lib, int face, const uint32_t *cps, int ncps,
                       const uint16_t *gids, int ngids, uint16_t *newids, arena_t *a,
                       const unsigned char **data, size_t *len, errs_t *e);

/* Describe the chains for `vita fonts`: one line per family and style with
 * the file and index used. */
void font_chain_describe(font_chain_t *c, FILE *out);

#endif
