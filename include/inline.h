/* inline: rich text -> set lines of positioned runs.
 *
 * The bridge from text to para: segments the spans into break
 * opportunities with libunibreak (UAX #14: CJK breaks between ideographs,
 * never before closing or after opening punctuation, Latin words inside
 * CJK stay whole), adds hyphenation points (hyph) to words of spans that
 * allow it, soft hyphens (U+00AD) as flagged penalties, shapes every piece
 * with font_shape, builds boxes/glue/penalties, calls para_break, and turns
 * each line into page runs: x relative to the start of the measure, y = 0
 * on the line's baseline, a new run at every face, style, colour or
 * kerning change and at every justified space (so justification never
 * needs word spacing in the PDF). Drawn hyphens are real "-" glyphs.
 *
 * Overlong unbreakable words (a long URL) are broken at a URL-safe point
 * (after / . - _ ? & =) or, failing that, anywhere, and reported as a
 * warning with the span's location. Characters no face has are reported as
 * warnings (once per character and span) and not drawn.
 */
#ifndef VITA_FLOW_H
#define VITA_FLOW_H
#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "err.h"
#include "font.h"
#include "hyph.h"
#include "page.h"

enum { INLINE_NOHYPH = 1,   /* never hyphenate inside this span (names, tags) */
       INLINE_NOBREAK = 2,  /* no line break inside this span */
       INLINE_URL = 4,      /* a URL/e-mail/DOI: break only at URL-safe points */
       INLINE_FRAME = 8,    /* see frame below */
       INLINE_ARTIFACT = 16 }; /* decoration (an icon): its runs read as nothing */  /* the span's glyphs are framed (a badge, a chip):
                             consecutive spans with one frame id share one */

enum { INLINE_JUSTIFY, INLINE_LEFT, INLINE_RIGHT, INLINE_CENTER };

typedef struct inline_span {
	const char *text;       /* UTF-8 (valid; NFC applied by inline) */
	int len;                /* bytes */
	font_chain_t *chain;
	int style;              /* FONT_REGULAR ... */
	int32_t size;           /* u */
	uint32_t color;         /* 0xRRGGBB */
	const char *url;        /* clickable target, or NULL */
	unsigned flags;         /* INLINE_* */
	int frame;              /* INLINE_FRAME: spans with one id share one frame */
	int line, col;          /* source position for warnings (0 = unknown) */
	const char *lang;       /* BCP 47 when the span is in another language
	                           than the text around it (runs carry it), or NULL */
	unsigned feats;         /* FONT_FEAT_*: OpenType features (small caps,
	                           figure styles); runs carry the glyphs (gids) */
	int32_t track;          /* u: tracking, added after each glyph of the span
	                           but its last (runs carry it: PDF Tc) */
} inline_span_t;

/* Paragraphs' size-independent work (their text, break opportunities,
 * bidi levels, hyphenation points, glyphs at no size), kept to set them
 * again at other sizes and measures: fit's attempts lay out one CV up to
 * eleven times with only the sizes, gaps and leading changed. A paragraph
 * is found again by its spans' text, flags, tracking, chains, styles,
 * features and languages and the options that work reads (language, CJK
 * language, direction); what depends on sizes is always done again (the
 * glyphs are placed at the sizes with the rounding shaping gives), so a
 * paragraph set through a memo is the one set without it. */
typedef struct inline_memo inline_memo_t;
inline_memo_t *inline_memo_new(void);
void inline_memo_free(inline_memo_t *m);

/* Results of inline_set, kept to be given again when the same spans are
 * set with the same options into the same arena (a CV's entries repeat
 * their organisation, location and dates): found by everything
 * inline_set reads but the spans' source positions (line, col), so a
 * result is kept only when setting it gave no warning. The results stay
 * in their arena: the cache must not outlive it. */
typedef struct inline_cache inline_cache_t;
inline_cache_t *inline_cache_new(void);
void inline_cache_free(inline_cache_t *c);

typedef struct inline_opts {
	int32_t width;          /* u: measure */
	int32_t indent;         /* u: extra left offset of lines after the first
	                           (hanging indent); the first line starts at 0 */
	int32_t first_width;    /* u: width of the first line; 0 = width */
	int align;              /* INLINE_* */
	const char *lang;       /* "en", "zh", ...: hyphenation and CJK face choice */
	hyph_t *hyph;           /* NULL: no hyphenation (but of spans with a lang) */
	hyph_set_t *hyphs;      /* the patterns of spans with a lang of their own
	                           (hyph_set_get); NULL: those are not hyphenated */
	const char *file;       /* for warnings */
	int32_t stretch_pm;     /* interword stretch, permille of the space (default 500) */
	int32_t shrink_pm;      /* interword shrink, permille of the space (default 333) */
	int32_t tolerance;      /* para tolerance x1000 (0 = default) */
	int hyphen_limit;       /* most hyphenated lines in a row (0: any) */
	int rtl;                /* the paragraph's base direction is right to left */
	const char *cjk;        /* the CJK language of Han text whose span and
	                           paragraph say none ("ja" in a CV with kana), or NULL */
	int32_t pretolerance;   /* justified: ratio x1000 a first pass without
	                           hyphenation must stay within (0 = 1000, TeX's
	                           \pretolerance=100); < 0: hyphenate at once */
	inline_memo_t *memo;    /* where paragraphs set before are found, or NULL */
	int count;              /* only count the lines: out->nlines is the number
	                           setting them gives (the same breaks), out->lines
	                           is NULL (fit's attempts that are measured only) */
	inline_cache_t *cache;  /* where results set before are found, or NULL */
} inline_opts_t;

/* The extent of a INLINE_FRAME span on a line; the caller draws the frame. */
typedef struct inline_frame {
	int32_t x, w;           /* u: x relative to the measure */
	int32_t size;           /* u: the span's size */
} inline_frame_t;

typedef struct inline_line {
	page_run_t *runs; int nruns;   /* x relative to the measure, y = 0 */
	page_link_t *links; int nlinks;/* x relative, y = -asc, h = asc - desc */
	const char **link_text;        /* each link's text on the line as written (its
	                                  source, logical order: for the Link tag and
	                                  the annotation's /Contents), or NULL */
	inline_frame_t *frames; int nframes;
	int32_t width;          /* u: set width of the line */
	int32_t asc, desc;      /* u: tallest ascender, lowest descender (< 0) */
	int32_t ratio;          /* para ratio x 1000 */
	int hyphen;             /* ends with a drawn hyphen */
	int overfull;
} inline_line_t;

typedef struct inline_result {
	inline_line_t *lines; int nlines;
	int greedy;             /* the fallback breaker was used */
	int *facts;             /* with o->memo: a word kept with the spans' texts (0 at
	                           first) for what the caller works out from them alone */
} inline_result_t;

/* Set spans into lines; everything is allocated in a. Warnings (missing
 * characters, overflow) go to e; returns -1 only on a real failure.
 * Like TeX, a paragraph is first broken without hyphenation points
 * (justified: every line within pretolerance; ragged: no line overfull);
 * only when that fails are words hyphenated (the first use of o->hyph
 * loads its patterns) and the paragraph broken again with tolerance. */
int inline_set(arena_t *a, const inline_span_t *spans, int n, const inline_opts_t *o,
             inline_result_t *out, errs_t *e);
/* UAX #14 break opportunities of s[0..len) in language lang (NULL: none),
 * one per byte, as libunibreak 1.1's set_linebreaks_utf8 gives them
 * (brks[i]: 0 a break after byte i is mandatory, 1 allowed, 2 not, 3 byte
 * i is inside a character), but for flags (regional indicator pairs),
 * which break as UAX #14 says. What inline_set starts from. */
void inline_breaks(const char *s, size_t len, const char *lang, char *brks);
/* The orthographic syllables of Lao, Khmer and Myanmar text in s[0..len)
 * that inline_set may break or stretch between: starts[i] is 1 when one
 * starts at byte i after a character of the same script, else 0. */
void inline_syllables(const char *s, size_t len, char *starts);
/* Natural width (u) of spans set on one line with no breaking. */
int32_t inline_width(const inline_span_t *spans, int n, const char *lang);
/* inline_width, through memo m (NULL: none): spans measured before with
 * the same text, chains, styles and features (other sizes and tracking)
 * are not shaped again; the width is inline_width's. */
int32_t inline_width_memo(inline_memo_t *m, const inline_span_t *spans, int n,
                          const char *lang);

#endif
