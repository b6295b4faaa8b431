/* layout_int.h: what the layout files share (not part of the API).
 *
 *   layout.c         the driver: header, sections, pages, footers, info
 *   layout_vlist.c   the vertical list (lines, gaps, keep rules) and pagination
 *   layout_text.c    styled spans and dates, the pieces blocks are built from
 *   layout_blocks.c  the blocks of a section: titles, entries, publications, ...
 *   layout_header.c  the header: name, headline, contacts, photo
 *   layout_usage.c   subsets and coverage
 */
#ifndef VITA_LAYOUT_INT_H
#define VITA_LAYOUT_INT_H
#include "arena.h"
#include "buf.h"
#include "inline.h"
#include "hyph.h"
#include "layout.h"
#include "locale.h"

enum { V_LINE, V_GAP };

typedef struct vitem {
	int kind;               /* V_LINE or V_GAP */
	int32_t h;              /* u: advance (line: baseline to baseline) */
	int32_t asc;            /* u: top of the line box to the baseline */
	int nobreak;            /* 1: no page break right after this item */
	const char *mark;       /* bookmark title placed at this line */
	page_item_t *it;        /* x from the page's left edge, y from the baseline */
	int n, cap;
} vitem_t;

/* A region: a column of the page with its own vertical list, paginated
 * on its own (the header across the top of the first page, the main
 * column, the sidebar). Items carry their x from the page's left edge, so
 * one list may hold lines set at different widths. */
typedef struct region {
	int32_t x0, width;      /* u: left edge, measure */
	int32_t ind;            /* u: the body's indent (a left date column) */
	int dates;              /* DATES_*: where entry dates go in this region */
	int align;              /* ST_*: paragraphs and details */
	int tag;                /* its structure element (a Div beside a sidebar), or 0 */
	vitem_t *v;
	int nv, capv;
	layout_over_t o;        /* v[0, oi) as lay_over has added them */
	int oi;
} region_t;

enum { R_HEAD, R_MAIN, R_SIDE, R_COUNT };

typedef struct lay {
	const model_t *m;
	const style_t *s;
	const style_t *orig;    /* as loaded (s may be a fit-tightened copy): where keys are */
	const vlocale_t *loc;   /* the fixed words */
	int rtl;                /* a right-to-left locale: the page is mirrored */
	const char *cjk;        /* "ja"/"ko" when the CV's CJK text is Japanese/Korean */
	font_lib_t *lib;
	errs_t *e;
	arena_t *a;             /* scratch for this layout */
	font_chain_t *body, *head, *icons;
	hyph_t *hyph;
	hyph_set_t *hyphs;      /* the patterns of spans in other languages */
	inline_memo_t *memo;    /* fit's attempts share their paragraphs' work */
	inline_cache_t *icache; /* and each its repeated ones' results (in a) */
	const char *lang;
	region_t reg[R_COUNT];
	region_t *r;            /* the region blocks go to */
	int32_t avail;          /* u: height of the text block */
	int32_t last_fill;      /* u: height used on the last page (fit) */
	int32_t photo_top;      /* u: the photo's offset in the sidebar's first page */
	int photo_side;         /* 1: the photo heads the sidebar */
	int32_t frame_pad, frame_radius;  /* u: how frames (badges, chips) are drawn */
	page_doc_t *d;          /* the document: its structure elements grow with
	                           the blocks (lay_tag), its pages at the end */
	int photo_tag;          /* the photo's Figure element */
	int photo_at;           /* the photo is placed after this item of the header's region */
	uint32_t frame_color;
	unsigned feats_said;    /* bit per key told about missing features */
	int measure;            /* a fit attempt that is measured, never placed:
	                           its lines have their heights and keeps, no runs */
	int max_pages;          /* measure: stop (over = 1) once a column is sure
	                           to need more pages than this (0: never) */
	int over;               /* stopped: more than max_pages pages */
	int32_t room1;          /* u: the first page's room below the header */
	int failed;
} lay_t;

/* ---- spans (layout_text.c) ---- */

typedef struct spans {
	inline_span_t *v;
	int n, cap;
} spans_t;

typedef struct tstyle {
	font_chain_t *chain;
	int style;
	int32_t size;
	uint32_t color;
	unsigned flags;
	int frame;              /* INLINE_FRAME: which frame (spans of one share it) */
	unsigned feats;         /* FONT_FEAT_* (= STYLE_FEAT_*) */
	int32_t track;          /* u: tracking */
} tstyle_t;

inline_span_t *sp_add(lay_t *L, spans_t *s, const char *text, int len, const tstyle_t *t,
                    const char *url, int line, int col);
void sp_str(lay_t *L, spans_t *s, const char *text, const tstyle_t *t);
void sp_at(lay_t *L, spans_t *s, const char *text, const tstyle_t *t, mpos_t at);
void sp_text(lay_t *L, spans_t *s, const mtext_t *x, const tstyle_t *t);
tstyle_t lay_ts(lay_t *L, int style, int32_t size, uint32_t color);
/* feats with the figures of a STYLE_FIG_* choice (default: feats as they are). */
unsigned lay_figures(unsigned feats, int figures);
/* The features of feats that t's face lacks, said once per layout key
 * (where: the key that asked) and left out; 0 when it has them all. */
unsigned lay_feats_missing(lay_t *L, const tstyle_t *t, unsigned feats, const char *where);
int32_t sp_width(lay_t *L, const spans_t *s);
const char *lay_entry_dates(lay_t *L, const mentry_t *en, int *split);
void sp_dates(lay_t *L, spans_t *s, const char *dates, int split, const tstyle_t *t,
              const mentry_t *en);

/* ---- the vertical list (layout_vlist.c) ---- */

vitem_t *v_new(lay_t *L, int kind, int32_t h);
void v_gap(lay_t *L, int32_t h);
page_item_t *v_item(lay_t *L, vitem_t *v);
void v_put_line(lay_t *L, vitem_t *v, const inline_line_t *fl, int32_t dx, int32_t width);
int lay_align(const lay_t *L, int align);
int32_t lay_lead(lay_t *L, int32_t size);
int v_flow(lay_t *L, const spans_t *s, int32_t dx, int32_t width, int align,
           int32_t size, int hyphenate);
int v_beside(lay_t *L, int at, const spans_t *s, int32_t x, int right, int32_t width);
void lay_keep_block(lay_t *L, int first, int head);
/* Structure (tagged PDF): items added while an element is open belong to
 * it; lay_untag closes it. See page.h. */
int lay_tag(lay_t *L, const char *role);
/* Blocks go to region r from here on, inside its structure element. */
void lay_into(lay_t *L, region_t *r);
void lay_untag(lay_t *L, int tag);
void lay_place(page_t *pg, const vitem_t *v, int32_t baseline, int rtl);
/* Paginate the regions and place them on new pages of d. */
void lay_pages(lay_t *L, page_doc_t *d, page_image_t *photo);
int lay_measure(const lay_t *L, int32_t *last_fill);
int32_t lay_height(const region_t *r, int from, int to);

/* ---- blocks (layout_blocks.c, layout_header.c) ---- */

void lay_section(lay_t *L, const msection_t *sec);
void lay_paragraph(lay_t *L, const mtext_t *x);
int lay_header(lay_t *L, page_image_t *photo);
int lay_in_sidebar(lay_t *L, const msection_t *sec);

#endif
