/* page: the page list -- what layout decided, ready to be placed.
 *
 * Coordinates are integer layout units (u = 1/1000 pt) with the origin at
 * the top-left corner of the page and y growing downwards. A run's y is its
 * baseline. The PDF writer converts to PDF space (y up, points) and never
 * measures or wraps anything.
 *
 * page_dump prints the list as stable text for golden tests
 * (`vita render --dump=layout`).
 */
#ifndef VITA_PAGE_H
#define VITA_PAGE_H
#include <stdint.h>
#include <stdio.h>
#include "arena.h"

/* One glyph of a run that HarfBuzz shaped into other than one glyph per
 * code point (Devanagari, Bengali, Tamil, Thai, ...: conjuncts, reordered
 * vowel signs, marks): where it goes and what it reads as. */
typedef struct page_glyph {
	int32_t x;          /* u: from the run's x */
	int32_t y;          /* u: above the run's baseline (a mark's offset) */
	uint16_t gid;       /* the face's glyph id (page_face's alt_from) */
	uint16_t n;         /* > 0: it starts a cluster, which reads as the
	                       next n bytes of the run's text (after the earlier
	                       clusters'); 0: it belongs to the cluster before */
	int32_t pen, adv;   /* u, a cluster's first glyph: where the cluster's
	                       pen is (from the run's x) and its advance */
} page_glyph_t;

/* One run of text drawn with one face at one size, starting at (x, y). */
typedef struct page_run {
	int32_t x, y;       /* u: pen start, baseline */
	int32_t w;          /* u: advance width of the run (for checks, links) */
	int32_t size;       /* u: font size */
	int face;           /* face id (font_face_info) */
	int synth;          /* FONT_SYNTH_BOLD | FONT_SYNTH_ITALIC */
	uint32_t color;     /* 0xRRGGBB */
	int level;          /* its bidi level (UAX #9) on a line that has right-to-
	                       left text, else 0: on a left-to-right line the
	                       runs of a stretch at level 1 and more are drawn in
	                       reading order (layout_vlist.c lay_place) */
	const char *text;   /* UTF-8, NFC, BMP only, < 65,535 bytes */
	int len;            /* bytes */
	/* What text extraction should read instead of text (PDF /ActualText),
	   or NULL: a hyphenated word's first part reads as the whole word and
	   its continuation on the next line reads as nothing. */
	const char *actual;
	int actual_len;     /* bytes; 0 with actual != NULL: reads as nothing */
	const char *lang;   /* BCP 47 language of this text when it is not its
	                       element's (a CJK name: "zh"), or NULL */
	/* One per code point of text: the face's glyph id when an OpenType
	   feature replaced the code point's cmap glyph (a small capital, an
	   oldstyle figure), else 0; NULL when every glyph is the cmap's. The
	   PDF maps such a glyph back to its code point (ToUnicode), so the
	   text extracts as written. */
	const uint16_t *gids;
	int32_t track;      /* u: space after each glyph (tracking); x, w and the
	                       next run's x include it, except after the last
	                       glyph of tracked text */
	/* A right-to-left word: one advance per code point of text (u), or
	   NULL. Its glyphs are drawn in the order of text (logical), from the
	   run's right edge leftwards: glyph k spans [x + w - (adv[0] + ... +
	   adv[k]), + adv[k]), and w is the sum. It stands for, and is drawn
	   and dumped as, one run per glyph at those places (inline.c merges a
	   word's clusters that read as their glyphs: one item, not one each);
	   never with gids or actual. */
	const int32_t *adv;
	/* The glyphs drawn, in drawing order, when they are not one per code
	   point of text (gids, adv then NULL): shaped clusters (Devanagari,
	   Bengali, Tamil, Thai); text is the source text they read as */
	const page_glyph_t *glyphs;
	int nglyphs;
	/* u: white space after the run's last glyph, up to the next run, that
	   is no space character (glue without text: the quarter em between
	   Han and Latin, a justified line's stretch between Thai words, Lao,
	   Khmer or Myanmar syllables, or ideographs), or 0. The PDF makes it
	   part of a glyph's advance, so that readers see no gap to read as a
	   space. */
	int32_t gap;
} page_run_t;

/* A filled rectangle (rules, bars) or an outline (badge frames, chips). */
typedef struct page_rect {
	int32_t x, y, w, h; /* u; (x, y) is the top-left corner */
	uint32_t color;     /* fill colour */
	int32_t stroke;     /* u: 0 = filled; > 0 = outline of that width */
	int32_t radius;     /* u: rounded corners (0: square) */
} page_rect_t;

/* A clickable area. */
typedef struct page_link {
	int32_t x, y, w, h; /* u; top-left corner */
	const char *url;    /* https://, mailto:, tel: */
} page_link_t;

typedef struct page_image {
	int32_t x, y, w, h; /* u; top-left corner, drawn size */
	const char *path;   /* PNG or JPEG file (for the dump) */
	int png;            /* 1 PNG, 0 JPEG */
	const struct image *img; /* its decoded pixels (image.h) */
	int32_t radius;     /* u: clipped to a rounded rectangle (0: none;
	                       half the side of a square box: a circle) */
	/* the part of img drawn (pixels of img: a centred crop when the box's
	   shape is not the photo's); cw == 0: all of it */
	int cx, cy, cw, ch;
} page_image_t;

enum { PAGE_RUN, PAGE_RECT, PAGE_LINK, PAGE_IMAGE };

typedef struct page_item {
	int kind;           /* PAGE_* */
	int tag;            /* the structure element it belongs to (page_tag_t) */
	union {
		page_run_t run;
		page_rect_t rect;
		page_link_t link;
		page_image_t image;
	} u;
} page_item_t;

typedef struct page {
	page_item_t *items; /* in drawing order; owned by doc->arena */
	int n, cap;
	struct page_doc *doc; /* the document this page belongs to */
	int index;          /* 0-based position in doc->pages */
} page_t;

/* A bookmark: one per section. */
typedef struct page_mark {
	const char *title;  /* UTF-8 */
	int page;           /* 0-based */
	int32_t y;          /* u, top of the section title */
	int level;          /* 0: top level; 1: under the last level-0 mark */
} page_mark_t;

/* A face's font program for the PDF writer: TrueType bytes (a subset made
 * by font_subset), and a name for messages (the font it was cut from). */
typedef struct page_face {
	const unsigned char *data;
	size_t len;
	const char *name;
	/* the runs' feature glyph ids (gids) and their ids in data, sorted by
	   alt_from */
	const uint16_t *alt_from, *alt_to;
	int nalt;
} page_face_t;

/* The logical structure: a tagged PDF's structure tree, in reading order.
 * Element 0 is the document; every item belongs to one element (its tag),
 * the element open when it was added. Rectangles are decoration (rules,
 * badge frames) and always drawn as artifacts; so is everything in an
 * element whose role is PAGE_ARTIFACT (footers, and element 1, always
 * there). An element's children come in the order their content first
 * appears in the page list; elements without content are left out. */
#define PAGE_ARTIFACT "Artifact"
enum { PAGE_TAG_DOCUMENT = 0, PAGE_TAG_ARTIFACT = 1 };

typedef struct page_tag {
	const char *role;   /* a standard structure type (PDF 1.7, 14.8.4): Document,
	                       Sect, H1..H3, P, L, LI, Lbl, LBody, Link, Figure,
	                       Span; or PAGE_ARTIFACT */
	int parent;         /* -1 for element 0 */
	const char *lang;   /* BCP 47 when it differs from its parent's, or NULL */
	const char *alt;    /* alternate description (Figure, Link), or NULL */
} page_tag_t;

typedef struct page_doc {
	arena_t *arena;     /* owns everything below */
	int32_t w, h;       /* u: page size */
	page_t *pages;
	int npages, cappages;
	page_mark_t *marks;
	int nmarks, capmarks;
	/* document information (UTF-8; NULL when absent) */
	const char *title, *author, *subject, *keywords, *creator;
	/* faces: for face id i, the font program the PDF writer embeds
	   (filled by layout_subset; data NULL for faces never drawn) */
	page_face_t *faces;
	int nfaces;
	long long epoch;    /* creation time (seconds since 1970, UTC) */
	const char *lang;   /* the document's language (BCP 47), or NULL */
	page_tag_t *tags;   /* the structure elements; [0] document, [1] artifact */
	int ntags, captags;
	int cur;            /* the open element: new items belong to it */
} page_doc_t;

page_doc_t *page_doc_new(int32_t w, int32_t h);
void page_doc_free(page_doc_t *d);
/* Appends a blank page. d->pages may move when pages are added: a page_t
 * pointer kept across page_add still works with the page_* adders below
 * (they follow p->doc and p->index), but read items through d->pages[i]. */
page_t *page_add(page_doc_t *d);
/* The adders copy the item, and copy its strings (run text, URL, image path)
 * into doc->arena, so callers may pass temporaries and unterminated slices
 * (a run's text is r->text[0..r->len)). */
void page_run(page_t *p, const page_run_t *r);
/* The runs a right-to-left word (r->adv) stands for, one glyph each, in
 * the order of its text (right to left on the page):
 *   page_word_t g; page_run_t one;
 *   for (page_word_start(&g, r); page_word_next(&g, &one);) ...
 * (one.text points into r->text; one.adv is NULL). */
typedef struct page_word {
	const page_run_t *r;
	int at, k;          /* the next glyph's byte in text, its index */
	int32_t x;          /* u: the left edge of the glyph before it */
} page_word_t;
void page_word_start(page_word_t *g, const page_run_t *r);
int page_word_next(page_word_t *g, page_run_t *one);
void page_rect(page_t *p, const page_rect_t *r);
void page_link(page_t *p, const page_link_t *l);
void page_image(page_t *p, const page_image_t *im);
void page_mark(page_doc_t *d, const char *title, int page, int32_t y); /* copies title */
/* Append src's pages (items and strings copied) to dst, with one level-0
 * mark `title` at src's first page and src's marks under it (a lab book
 * of many CVs). Face ids are kept: both documents must come from one font
 * library. -1 (nothing appended) when the page sizes differ. */
int page_doc_append(page_doc_t *dst, const page_doc_t *src, const char *title);
/* Append a copy of an item built elsewhere, keeping its tag (the adders
 * above give theirs the open element). */
void page_item(page_t *p, const page_item_t *it);

/* Open a new element, a child of the open one (role, lang, alt copied);
 * returns its id. page_tag_close(d, id) makes its parent the open one. */
int page_tag_open(page_doc_t *d, const char *role, const char *lang, const char *alt);
void page_tag_close(page_doc_t *d, int id);
/* 1 when element id is an artifact or inside one. */
int page_tag_is_artifact(const page_doc_t *d, int id);

/* Stable text: one line per item (a right-to-left word: per glyph, as the
 * runs it stands for), integer coordinates. Prints the page
 * size, title/author/subject/keywords, every page's items (with " @N",
 * their element, when it is not the document), the marks and the
 * structure elements;
 * never font programs or names, image directories, creator or epoch (they differ
 * between machines and versions). Strings are quoted with \" \\ and \xHH
 * escapes for control characters; other UTF-8 is printed as is. */
void page_dump(const page_doc_t *d, FILE *out);

#endif
