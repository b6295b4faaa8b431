/* font_int.h: structures shared by the src/font*.c files (not a public
 * interface; see include/font.h). Only src/font*.c include this file. */
#ifndef VITA_FONT_INT_H
#define VITA_FONT_INT_H
#include <stdint.h>
#include <hb.h>
#include "font.h"
#include "sfnt.h"

/* The CJK languages a chain entry can be tagged with: zh is Simplified
 * Chinese (zh, zh-Hans, zh-CN, zh-SG) and the Han of text with no
 * language, zh-Hant Traditional (zh-Hant, zh-TW, zh-HK, zh-MO). */
enum { FONT_LANG_NONE, FONT_LANG_ZH, FONT_LANG_JA, FONT_LANG_KO, FONT_LANG_ZH_HANT, FONT_NLANG };
enum { FONT_NPLANS = 4, FONT_GID_CACHE = 0x2100, FONT_GID_PAGE = 256 };
/* styles as stored: FONT_REGULAR .. FONT_BOLD_ITALIC, FONT_LIGHT and
 * FONT_LIGHT_ITALIC (font_style_ok maps any FONT_* combination to one of
 * these, and each of these to itself; index 5 is never used) */
enum { FONT_S_LIGHT = FONT_LIGHT, FONT_S_LIGHT_ITALIC = FONT_LIGHT_ITALIC, FONT_NSTYLES = 7 };
#define FONT_FEATS_READ 0x80000000u

/* One font file + face index. Validated (sfnt checks) when a chain names
 * it; loaded (mapped, metrics, HarfBuzz objects) on first use, which is
 * also when it gets its face id. */
struct font_face {
	char *path;
	int index;
	int id;                 /* face id; -1 until first used */
	int broken;             /* loading failed (error recorded) */
	font_face_info_t info;
	char *family, *style, *psname;  /* read when font_face_info asks */
	sfnt_face_t sf;         /* what its tables say (points into file) */
	sfnt_file_t *file;      /* the file, read by pieces (font_face.c) */
	hb_blob_t *mapped;      /* the file mapped, for the tables HarfBuzz reads
	                         * scattered (outlines; cmap, hmtx without hb) */
	sfnt_hb_t *hb;          /* cmap and hmtx read by pieces for hbfont; made
	                         * when the face is loaded (its 2 KB cache is not
	                         * zeroed for each face a chain lists) */
	unsigned hbn;           /* hb->nglyphs when hb reads hmtx (hb->src), else
	                         * 0: advances below it come from hb */
	hb_face_t *hbface;      /* its tables from file (or mapped) */
	hb_face_t *hbleft;      /* hbface once unloaded: see font_face_unload */
	font_lib_t *lib;        /* whose face it is */
	/* font_face_cut: HarfBuzz's plans and shaping on GSUB and GPOS cut to
	 * what the document's text can use (font_prune.c) */
	int cut;                /* 0 not tried, 1 in use, -1 not cut or given up */
	int cutmiss;            /* HarfBuzz asked for a glyph outside cutg */
	uint8_t *cutg;          /* the closure: a bit per glyph */
	hb_face_t *cutface, *cutleft;   /* cutleft: as hbleft */
	hb_font_t *cutot, *cuthb, *cutshape;  /* as otfont, hbfont, shapefont */
	unsigned char *cuttab[2];       /* the cut GSUB and GPOS (NULL: absent) */
	size_t ncuttab[2];
	hb_font_t *otfont;      /* HarfBuzz's own font functions on hbface */
	hb_font_t *hbfont;      /* scale = upem: positions in font units; otfont's
	                         * sub-font that reads glyphs and advances from hb
	                         * (or otfont itself) */
	int upem;
	int color;              /* colour bitmaps (CBDT: emoji), no outlines: shaped
	                         * into clusters (flags, ZWJ sequences are one glyph) */
	int asc, desc, cap; /* font units */
	int kerns;              /* has GPOS or kern: worth shaping; -1 not yet known
	                         * (font_face_kerns) */
	unsigned nglyphs;
	int32_t *milli;         /* nominal advance per glyph (1/1000 em) + 1; 0 unknown */
	/* font_shape.c caches, allocated on first use: */
	int32_t *hadv;          /* advance per glyph in font units + 1; 0 unknown */
	uint16_t *gid[FONT_GID_CACHE / FONT_GID_PAGE]; /* glyph id + 1 per code point
	                         * < FONT_GID_CACHE, by pages of FONT_GID_PAGE made
	                         * when first asked (a CV touches 3 or 4) */
	hb_font_t *shapefont;   /* hbfont's sub-font that shapes (glyphs from gid) */
	hb_shape_plan_t *plan[FONT_NPLANS];   /* recently used plans */
	hb_segment_properties_t planprops[FONT_NPLANS];
	unsigned planfeats[FONT_NPLANS];      /* FONT_FEAT_* of each plan */
	int nplans;
	unsigned feats;         /* FONT_FEAT_* its GSUB has, | FONT_FEATS_READ */
	struct font_ot *ot;     /* font_ot.c's tables, read on first use */
};

/* face_cut's last closure (font_face.c), for a face with the same GSUB
 * and seed: src is the GSUB it was made from (that face's file, while
 * the faces are loaded), seed and clos bits per glyph (ng), gsub its cut
 * copy. */
typedef struct cut_memo {
	const unsigned char *src;
	size_t nsrc;
	unsigned ng;
	uint8_t *seed, *clos;
	unsigned char *gsub;
} cut_memo_t;

/* One entry of a chain: a family (or explicit files) and its 4 styles. */
#define FONT_NCOV 96     /* an emoji face lists the Emoji_Presentation ranges */

typedef struct font_entry {
	char *family;           /* the name in the chain (or the file's family) */
	unsigned langs;         /* bit (1 << FONT_LANG_*) per lang tag */
	int upright_italic;     /* italic uses the upright face, no slant */
	font_face_t *face[FONT_NSTYLES]; /* per style index (font_style_ok) */
	int synth[FONT_NSTYLES];         /* FONT_SYNTH_* per style */
	char *why[FONT_NSTYLES];         /* how the style was resolved (for describe) */
	int missing;            /* the family is not installed: no faces; an error
	                         * only when a character needs it (font_chain_missing) */
	char *package;          /* the Debian package that provides it, or NULL */
	int reported;           /* font_chain_missing named it already */
	char *standin;          /* family is not installed: the metric-compatible
	                         * family fontconfig aliases it to, whose faces these
	                         * are (layout says so), or NULL */
	int pending;            /* a fallback family not yet looked up: it is, by
	                         * font_chain_resolve, when a character first
	                         * falls through to it */
	const char *where;      /* for pending: the chain file naming it (owned by
	                         * a chain of the library), its line and column */
	int line, col;
	/* covers: the only code points it is looked up for (ranges, inclusive;
	 * ncov 0: any), so a character of another script never loads it */
	uint32_t (*cov)[2];     /* malloc'd (an entry is copied often: kept small) */
	int ncov;
	int emoji;              /* presentation: emoji -- a character it has that
	                         * U+FE0F follows is drawn from it (a text-style
	                         * symbol asking for its emoji style: ✉️) */
} font_entry_t;

/* Cached result of shaping one item (a run of text in one face),
 * independent of size: per code point its offset, nominal advance and
 * kerning in font units. */
typedef struct font_sglyph {
	uint32_t cp;
	uint32_t off;           /* byte offset in the item */
	int32_t milli;          /* nominal advance, 1/1000 em (libharu's value) */
	int32_t kern;           /* shaped - nominal advance, font units */
	int32_t xoff;           /* x offset, font units */
	int32_t flags;          /* 1: brk before (offset), 2: brk after; FONT_SG_*
	                           (a cluster of a script HarfBuzz shapes) */
	uint32_t gid;           /* a feature's glyph (not cp's cmap glyph), or 0 */
} font_sglyph_t;
/* FONT_SG_START (a code point that starts a cluster): its glyphs are its
 * item's cg[kern..kern+xoff) (an item of clusters has no kerning or
 * offsets of its own); FONT_SG_CONT: a code point in the cluster before. */

enum { FONT_SG_START = 4, FONT_SG_CONT = 8 };

typedef struct font_sitem {
	uint64_t hash;
	int face;               /* face id */
	unsigned feats;         /* FONT_FEAT_* it was shaped with */
	uint32_t len;           /* bytes of text */
	int n;                  /* glyphs */
	char *text;             /* points into the allocation */
	font_sglyph_t *g;
} font_sitem_t;

struct font_chain {
	font_lib_t *lib;
	char *name, *file, *desc;
	int from_file;          /* file is a chain file (not a family list) */
	int neager;             /* its first entries looked up when it loads (a
	                         * family list's families; else the first) */
	int front;              /* families in front of another chain ("Lato + serif"):
	                         * one that is not installed is left out, not an error */
	char *absent;           /* front: the families left out, "'Lato'" (NULL: none) */
	struct font_chain *tail; /* front: the chain they stand in front of */
	unsigned deps_gen;      /* its files are recorded in this deps recording */
	font_entry_t *ent;
	int nent;
	int *order[2][FONT_NLANG]; /* entry indices tried: [CJK char?][language] */
	/* cp -> entry cache: key (cp << 5 | lang << 3 | style) + 1, 0 = empty */
	uint32_t ckey[4096];
	int16_t cval[4096];
	int8_t ascii[FONT_NSTYLES][FONT_NLANG][128]; /* entry + 2 for cp < 0x80; 0 not yet */
	font_shaped_t scratch;  /* for font_width */
	struct font_chain *next;
};

struct font_lib {
	char **dirs;            /* chain search directories */
	int ndirs;
	void *fc;               /* FcConfig, created when first needed */
	long long fc_since;     /* when (CLOCK_REALTIME s) it was begun */
	void *fcc;              /* font_fccache.c state */
	void *fcx;              /* font_chain.c's index of fontconfig's faces */
	font_face_t **all;      /* every file+index seen */
	int nall, capall;
	font_face_t **used;     /* by face id */
	int nused, capused;
	font_chain_t *chains;
	errs_t late;            /* errors from lazy loading, handed on later */
	hb_buffer_t *buf;
	font_sitem_t *cache;    /* open addressing shaping cache */
	int ncache, capcache;
	char **slab;            /* the cached items' memory, in blocks freed with
	                         * the cache (font_shape.c: no malloc per item) */
	int nslab;
	char *slab_at;          /* the free part of the last block */
	size_t slab_left;
	struct font_stext **stext;  /* font_shape.c's texts shaped at a size
	                         * (open addressing, in the slab blocks) */
	int nstext, capstext;
	uint8_t *expect;        /* the document's code points (font_lib_expect):
	                         * a bit each, U+0000..U+10FFFF; NULL: none said */
	uint32_t *expcp;        /* the same, listed */
	int nexp, capexp;
	font_text_fn *text_fn;  /* font_lib_text's, not called yet */
	void *text_ctx;
	cut_memo_t cutmemo;
};

/* A face of a family as fontconfig lists it. */
typedef struct font_cand {
	char *file;
	int index, weight, slant, width, truetype;
} font_cand_t;

/* font_fccache.c: family listings cached across runs. lookup returns the
 * number of candidates (owned by the cache) or 0 when absent or stale. */
int font_fccache_lookup(font_lib_t *lib, const char *family, font_cand_t **v);
void font_fccache_store(font_lib_t *lib, const char *family, const font_cand_t *v, int n);
void font_fccache_free(font_lib_t *lib);
/* What was stored since the last flush written to the files: once a
 * chain is resolved (font_chain_get), not at each family. */
void font_fccache_flush(font_lib_t *lib);
/* 1 when candidate c (from the cache) agrees with its font file: the face
 * index exists, the outline kind matches, family is one of its names. */
int font_fccache_valid(const font_cand_t *c, const char *family);
/* Drop family's record (it disagreed with a font file). */
void font_fccache_forget(font_lib_t *lib, const char *family);
/* What fontconfig does not have, kept across runs while its font and cache
 * directories are unchanged. absent: 0 when not known, 1 when family is
 * known not to be installed, 2 when it is not but fontconfig aliases it to
 * the installed metric-compatible family in standin (store_absent: standin
 * NULL for none). near: 1 and the nearest installed family to name in near, 0
 * when none is close, -1 when not known. Before a store, the directories
 * as fontconfig (created at time since, in s) names them:
 * font_fccache_stamp, when font_fccache_need_stamp says so. */
int font_fccache_absent(font_lib_t *lib, const char *family, char *standin, size_t size);
int font_fccache_near(font_lib_t *lib, const char *name, char *near, size_t size);
int font_fccache_need_stamp(font_lib_t *lib);
void font_fccache_stamp(font_lib_t *lib, const char *const *dirs, int n, long long since);
void font_fccache_store_absent(font_lib_t *lib, const char *family, const char *standin);
/* near NULL: no installed family is close to name */
void font_fccache_store_near(font_lib_t *lib, const char *name, const char *near);

/* font_face.c (calls no other src/font*.c file) */
font_face_t *font_file_get(font_lib_t *lib, const char *path, int index,
                           const char *ctx, int line, int col, errs_t *e);
int font_face_use(font_lib_t *lib, font_face_t *f);
/* The cmap glyph of cp (0: none), as hb_font_get_nominal_glyph on
 * f->hbfont gives it; cached for the code points of Latin, Greek,
 * Cyrillic and general punctuation (f->gid): the cached answer inline
 * (every glyph asks two or three times, and the chain's pick once),
 * font_face_gid_slow fills the cache. The face is in use. */
hb_codepoint_t font_face_gid_slow(font_face_t *f, uint32_t cp);
static inline hb_codepoint_t font_face_gid(font_face_t *f, uint32_t cp)
{
	const uint16_t *pg;
	if (cp < FONT_GID_CACHE && (pg = f->gid[cp / FONT_GID_PAGE]) && pg[cp % FONT_GID_PAGE])
		return pg[cp % FONT_GID_PAGE] - 1u;
	return font_face_gid_slow(f, cp);
}
int32_t font_face_milli_slow(font_face_t *f, unsigned gid);
/* The nominal advance of glyph gid, 1/1000 em: from hmtx inline (asked
 * per glyph), else font_face_milli_slow. */
static inline int32_t font_face_milli(font_face_t *f, unsigned gid)
{
	if (gid < f->hbn && gid < f->nglyphs)
		return (int32_t)((int64_t)sfnt_hb_advance(f->hb, gid) * 1000 / f->upem);
	return font_face_milli_slow(f, gid);
}
int font_face_kerns(font_face_t *f);
/* The face HarfBuzz shapes f's text with: its tables cut to the closure
 * of the document's text when that pays (tried once), else f->hbface. */
hb_face_t *font_face_shaping(font_face_t *f);
/* face_cut's memo given back (the faces are dropped, or the library). */
void font_cut_memo_free(font_lib_t *lib);
/* Give f's cut tables up for good (a glyph outside the closure). */
void font_face_uncut(font_face_t *f);
/* font_prune.c: GSUB and GPOS (either may be NULL) cut to the closure of
 * the glyphs set in g (a bit per glyph, nglyphs; g becomes the closure);
 * the copies (same lengths, malloc'd) in *gsub_out, *gpos_out. stats, if
 * not NULL: lookups followed, lookups, subtables kept, subtables, for
 * GSUB then GPOS. -1: not cut (nothing allocated). */
int font_prune(const unsigned char *gsub, size_t ngsub, const unsigned char *gpos, size_t ngpos,
               uint8_t *g, unsigned nglyphs, unsigned char **gsub_out,
               unsigned char **gpos_out, unsigned *stats);
int font_pass_late(font_lib_t *lib, errs_t *e);
void font_face_unload(font_face_t *f, int keep);
void font_face_free(font_face_t *f);

/* font_pick.c (calls font_face.c, font_chain.c) */
int font_lang_index(const char *lang);
/* The CJK language a character's script implies, or FONT_LANG_NONE. */
int font_script_lang(uint32_t cp);
/* style if it is a FONT_* style, else FONT_REGULAR. */
int font_style_ok(int style);
int font_chain_entry_for(font_chain_t *c, int style, int li, uint32_t cp);
int font_chain_entry_cjk(font_chain_t *c, int style, int li, uint32_t cp);
int font_chain_entry_emoji(font_chain_t *c, int style, uint32_t cp);
int font_entry_has(font_chain_t *c, int k, int style, uint32_t cp);

/* font_chain.c (calls font_face.c, font_fccache.c) */
/* Look up entry k of c if it is pending (its faces, or missing); errors go
 * to lib->late. */
void font_chain_resolve(font_chain_t *c, int k);
/* Every pending entry of c (`vita fonts`, the families a character lacks). */
void font_chain_resolve_all(font_chain_t *c);
/* The installed family nearest to FAMILY (a typo) into NEAR; 0 if none is
 * close. */
int font_family_suggest(font_lib_t *lib, const char *family, char *near, size_t size);
int font_chain_parse(font_lib_t *lib, font_chain_t *c, const char *file,
                     const char *data, size_t len, errs_t *e);
void font_chain_free(font_chain_t *c);
/* Front chain c: leave out its families that are not installed (named in
 * c->absent), then append a copy of tail's entries. */
int font_chain_join(font_chain_t *c, font_chain_t *tail, errs_t *e);
void font_fc_free(font_lib_t *lib);

/* font_ot.c (calls no other src/font*.c file): shaping a word without
 * HarfBuzz where its result is sure to be HarfBuzz 6.0's */
typedef struct font_ot font_ot_t;
/* 1 when the fast path shaped the n code points cps (glyphs g[0..n), their
 * cmap glyphs, replaced by the glyphs GSUB gives) of a run of script sc
 * with the user features user[0..nuser) (keyed by mask) as HarfBuzz would:
 * dx, xoff, yoff get each glyph's x advance added to its nominal one, and
 * its offsets (font units). 0: not modelled, shape it with HarfBuzz. */
int font_ot_shape(font_face_t *f, hb_script_t sc, unsigned mask, const hb_tag_t *user, int nuser,
                  const uint32_t *cps, uint32_t *g, int n, int32_t *dx, int32_t *xoff,
                  int32_t *yoff);
/* font_face_kerns's answer (a GPOS or a kern table) for a face the fast
 * path models; -1 for the others. */
int font_ot_kerns(font_face_t *f);
/* Bit i set when script 0's default LangSys of GSUB has feature tags[i];
 * -1 for a face the fast path does not model. */
int font_ot_feats(font_face_t *f, const hb_tag_t *tags, int ntags);
/* HarfBuzz's x advance and offset of the glyph gid of cp shaped alone
 * with the default features and 'halt' (font_halt.c): 1; 2 when shaping
 * replaces the glyph; 0 when HarfBuzz must answer. */
int font_ot_halt(font_face_t *f, uint32_t cp, uint32_t gid, int32_t *xadv, int32_t *xoff);
#define FONT_OT_HALT 0x100000u  /* font_ot_shape's mask for that feature set */
void font_ot_free(font_ot_t *o);

/* font_shape.c (calls font_face.c, font_pick.c, font_ot.c) */
void font_cache_free(font_lib_t *lib);

#endif
