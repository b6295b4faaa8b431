/* inline: rich text -> set lines of positioned runs; see inline.h.
 *
 * inline_set(arena, spans, n, opts, &result, errs) runs the pipeline for one
 * paragraph:
 *   1. NFC each span and concatenate them into one text; libunibreak
 *      (UAX #14, with the language) marks break opportunities over the
 *      whole of it, so CJK and punctuation rules see across spans.
 *   2. Break classes are adjusted per span: none inside INLINE_NOBREAK,
 *      only URL-safe points inside INLINE_URL, soft hyphens, libhyphen
 *      points in words of spans that allow it; Korean words are kept
 *      whole (breaks between Hangul syllables only as a last resort).
 *   3. Each span is shaped (font_shape) chunk by chunk; every code point
 *      gets its glyph's advance, face and run-break flag.
 *   4. A piece wider than the measure with no break inside gets break
 *      points between graphemes, and a warning.
 *   5. Items for para: boxes for word pieces; glue for spaces (justified:
 *      stretch/shrink from the options; ragged: Knuth-Plass's ragged
 *      scheme, glue(0,+R) penalty glue(space,-R), set at natural width);
 *      zero-width glue with a little stretch between CJK characters;
 *      penalties for hyphens, URL points and last-resort breaks.
 *   2b. Right-to-left text (bidi.c, UAX #9): embedding levels per code
 *      point, Arabic letters replaced by their joined presentation forms.
 *   6. para_break, then each line becomes runs: a new run at every face,
 *      synthetic style, size, colour or kerning change and after every
 *      space whose width differs from the font's space (justified), so the
 *      PDF never needs word spacing. A run followed by glue ends with its
 *      space character (harmless for drawing, good for text extraction).
 *      A run never spans two bidi levels; right-to-left text is one run
 *      per cluster (the PDF draws a line's clusters in one TJ array), its
 *      source text as /ActualText only when its glyph does not read as
 *      it (marks, lam-alef, mirrored brackets: ls_close); in a
 *      right-to-left page the clusters of one glyph that follow each
 *      other in a word are one run with an advance per glyph
 *      (page_run_t.adv: ls_word_add, ls_word_fast), drawn as those
 *      clusters would be; the runs of a line with RTL text are put in
 *      visual order (rule L2), so extraction, which orders RTL glyphs by
 *      position, reads it in logical order.
 * Scratch memory is malloc'd once per paragraph; results live in the arena.
 */
#include <linebreak.h>
#include <linebreakdef.h>
#include <stdlib.h>
#include <string.h>
#include "bidi.h"
#include "thai.h"
#include "buf.h"
#include "inline.h"
#include "para.h"
#include "unicode.h"
#include "utf8.h"

enum { K_CHAR, K_SPACE, K_NL };
/* BK_HYPHC: a hyphenation point in a capitalised word, a proper name in
 * most languages (Gennady, Microsoft): hyphenated only as a last resort */
/* BK_SYL: between two syllables of Lao, Khmer or Myanmar (il_sa_syllables);
 * BK_SYLIN: the same where no line may break, only stretch */
enum { BK_NONE, BK_ALLOW, BK_URL, BK_HYPH, BK_EMERG, BK_MUST, BK_KEEP, BK_HYPHC, BK_SYL,
       BK_SYLIN };

#define PEN_HYPHEN 50       /* a hyphenated or explicit-hyphen break */
#define PEN_HYPHEN_CAP 1000  /* inside a capitalised word (Chicago 7.36: names
                               are hyphenated only as a last resort) */
#define PEN_PLAIN 100       /* a break with no space (after "/" ...) */
#define PEN_URL 100         /* inside a URL */
#define PEN_EMERG 5000      /* inside a word too wide for the measure */
#define PEN_KEEP 1000       /* inside a Korean word, when the spaces leave a line loose;
                               between Lao, Khmer or Myanmar syllables when ragged */
#define PEN_SYL 100         /* between Lao, Khmer or Myanmar syllables (justified) */
#define SHAPE_MAX 2000      /* code points shaped at once, at most */
#define RUN_MAX 65000       /* bytes of text in one run (libharu: < 65,535) */

typedef struct fcp {        /* one code point of the paragraph */
	uint32_t cp;
	int32_t off;            /* bytes into the paragraph text */
	int32_t adv;            /* u; 0 when not drawn */
	int32_t span;
	union {                 /* what says whether a glyph continues the run
	                           of the one before it, read at once as key
	                           (ls_box; len is not part of it: KEY_MASK) */
		struct {
			int16_t face;   /* -1: not drawn */
			uint8_t synth, draw, brk;
			uint8_t lv;     /* bidi embedding level (odd: right to left) */
			uint8_t shaped; /* cp was replaced (Arabic form): text bytes differ */
			uint8_t len;
		};
		uint64_t key;
	};
	uint8_t kind, bk;
	uint8_t cjkgap;         /* a break after it is CJK-Latin: 1/4 em of glue */
	uint8_t kept;           /* a break after it that il_keep_words took away */
	uint8_t cl;             /* FONT_CL_START: its cluster's glyphs are
	                           il_t.cg[cgi[i]..+ncg) (adv: the cluster's width);
	                           FONT_CL_CONT: inside the cluster before (adv 0) */
	int32_t lead;           /* u: blank before its ink that a line start drops
	                           (an opening bracket: its half-width form) */
	int32_t trail;          /* u: blank after its ink that a line end may drop
	                           (a full stop, a closing bracket) */
	uint8_t trk;            /* adv includes the span's tracking (not its last glyph) */
	uint8_t ncg;            /* FONT_CL_START: glyphs (at most 255 drawn) */
	uint16_t gid;           /* a feature's glyph (font_glyph.gid), or 0 */
} fcp_t;

typedef struct fspan {      /* per span, computed once */
	const inline_span_t *s;
	int c0, c1;             /* its code points */
	size_t nb;              /* bytes of its NFC text */
	int have_hy, have_met, warned_over;
	int32_t hyw;            /* u: width of "-" */
	int hyface, hysynth;
	int32_t asc, desc;
	uint32_t warned[16];    /* code points already reported missing */
	int nwarned;
	const char *lang;       /* its language: the text's, or ja/ko when it has kana/Hangul */
	int plain;              /* no tracking, no frame (see ls_plain) */
	int kh;                 /* 0: not known yet; else 1 | 2 (it has kana) | 4 (Hangul) */
	hyph_t *hy;             /* its patterns (span_hyph), once hy_known */
	int hy_known;
} fspan_t;

typedef struct faux {       /* what a para item stands for */
	int32_t c0, c1;         /* box: code points; glue: space cp, -1 (CJK or
	                           ragged glue) or -2 (the lead of the box after:
	                           draws nothing); penalty: the code point before
	                           the break */
	int32_t lead;           /* box: drawn this far left of its item position
	                           (its first glyph's lead, not in its width) */
	int32_t cut;            /* box: its last glyph's trail, not in its width
	                           (the break after it gives it back mid-line) */
	int32_t trim;           /* break: a line ending here ends in a half-width
	                           mark; its last run is this much shorter */
} faux_t;

typedef struct fl {         /* the paragraph being set */
	arena_t *a;
	const inline_opts_t *o;
	errs_t *e;
	buf_t text;
	fspan_t *sp;
	int nsp;
	fcp_t *c;
	int nc;
	para_item_t *it;
	faux_t *aux;
	int nit, capit;
	int32_t w1, w2;         /* first and other line widths */
	int ragged;
	int bidi;               /* some code point has an odd level */
	int kept;               /* il_keep_words took breaks away */
	int syl;                /* il_items stretched between syllables (BK_SYL) */
	int sylwide;            /* ... an em/6, not an em/12 (il_break_kept) */
	int trail_box;          /* the box whose trail waits for the glue of the
	                           spaces after it (il_items), or -1 */
	uint32_t maxcp;         /* the largest code point (but ASCII, which counts
	                           as 0): the passes for RTL, CJK and kana text
	                           skip text without any */
	page_glyph_t *cg;       /* the clusters' glyphs (x from the cluster's pen) */
	int ncg, capcg;
	int32_t *cgi;           /* per code point: a cluster start's first in cg */
	int hyon;               /* il_hyph_on: 0 not asked yet, 1 no, 2 yes */
} il_t;

/* Widths and positions are int32 u (±21,000 km of paper), but one word
 * of a BibTeX field can be wider: sums saturate instead of wrapping. */
static inline int32_t sat32(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : v < -INT32_MAX ? -INT32_MAX : (int32_t)v;
}

static inline int32_t add32(int32_t a, int64_t b)
{
	return sat32((int64_t)a + b);
}

/* Scratch memory of the paragraph being set, kept from one paragraph to
 * the next (a CV sets thousands; malloc and free per paragraph cost more
 * than setting short ones), grown on demand, let go after one that was
 * very long. */
static struct {
	buf_t text;
	fspan_t *sp;
	size_t capsp;
	fcp_t *c;
	size_t capc;
	char *brks;
	size_t capb;
	para_item_t *it;
	faux_t *aux;
	int capit;
} il_keep;
#define KEEP_MAX (1 << 20)      /* bytes of fcp_t kept at most */

/* A paragraph kept in an inline_memo (see "the memo" below). */
typedef struct mspan {
	int c0, c1;
	size_t nb;
	int plain;
	int kh;                 /* fspan_t's, once il_span_langs has found it */
} mspan_t;

typedef struct ment {
	uint64_t hash;
	char *key;              /* one block: key, text, spans, code points */
	size_t keylen, textlen;
	const char *text;
	mspan_t *sp;
	int nsp;
	fcp_t *c;               /* nc + 1 (the terminator) */
	int nc, bidi, kept;
	uint32_t maxcp;
	uint8_t *hbk;           /* bk after il_hyphenate with hyph, or NULL */
	const hyph_t *hyph;
	char *shp;              /* il_shape's chunks (mshape_t, text, map, ends), or NULL */
	int nshp;
	int ol;                 /* il_one_line_sure may take it: 0 not known yet, 1 yes, -1 no */
	struct olspan *ols;     /* then what its spans add (nsp) */
	int64_t olbase;         /* and its code points without a glyph */
	int facts;              /* the caller's facts of the spans' text (inline_result_t) */
} ment_t;

/* What the code points of a span of a memo entry add to il_one_line's
 * sum at size s (il_one_line_may): within a s + r, each at least 0 from
 * size smin on; t of them take the span's tracking, nsp spaces without
 * a face a quarter of s each. */
struct olspan {
	double a, r, smin;
	int32_t t, nsp;
};

struct inline_memo {
	arena_t *a;             /* the entries */
	ment_t **tab;           /* open addressing, cap a power of two */
	int cap, n;
	size_t bytes;           /* kept, at most MEMO_BYTES */
	buf_t key;              /* the key being looked up */
	uint64_t hash;
	buf_t rec;              /* il_shape's chunks being recorded */
};

typedef struct mshape {     /* one span's glyphs as il_shape makes them */
	int si, n;              /* then n font_uglyph_t, each off the index of
	                           its code point (UINT32_MAX: none) */
} mshape_t;

/* p (cap elements of size sz) with room for n */
static void *room(void *p, size_t *cap, size_t n, size_t sz)
{
	if (n <= *cap)
		return p;
	*cap = n + n / 2 + 16;
	return xrealloc(p, *cap * sz);
}

/* ---- code point classes ---- */

static int is_cjk(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x9FFF) ||
	       (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
	       (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFEF) ||
	       (c >= 0x20000 && c <= 0x3FFFF);
}

static int is_dash(uint32_t c)
{
	return c == '-' || c == 0x2010 || c == 0x2013 || c == 0x2014;
}

/* Continues a grapheme (no break before it). */
static int is_extend(uint32_t c)
{
	return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) ||
	       (c >= 0x1DC0 && c <= 0x1DFF) || (c >= 0x20D0 && c <= 0x20FF) ||
	       (c >= 0xFE20 && c <= 0xFE2F) || (c >= 0xFE00 && c <= 0xFE0F) ||
	       c == 0x200D || c == 0x3099 || c == 0x309A ||
	       (c >= 0x1160 && c <= 0x11FF) || (c >= 0x1F3FB && c <= 0x1F3FF) ||
	       (c >= 0xE0100 && c <= 0xE01EF);
}

static int is_ri(uint32_t c)
{
	return c >= 0x1F1E6 && c <= 0x1F1FF;
}

static int is_url_safe(uint32_t c)
{
	return c == '/' || c == '.' || c == '-' || c == '_' || c == '?' ||
	       c == '&' || c == '=' || c == '#';
}

static int is_letter(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= 0x80 && uni_is_letter(c));
}

static int kind_of(uint32_t c, int *draw)
{
	*draw = 1;
	if (c > ' ' && c < 0x7F)
		return K_CHAR;
	/* U+0100..U+1FFF (Latin to Greek Extended: the Brahmic scripts,
	   Thai, Arabic, Cyrillic, ...): letters and marks, but the Arabic
	   letter mark */
	if (c - 0x100 < 0x1F00 && c != 0x61C)
		return K_CHAR;
	if (c == ' ' || c == '\t')
		return K_SPACE;
	if (c == '\n' || c == 0x2028 || c == 0x2029 || c == '\v' || c == '\f')
		return K_NL;
	if (c < 0x20 || c == 0x7F || c == 0xAD || c == 0x200B || c == 0xFEFF ||
	    c == 0x2060 || c == 0x61C || c == 0x200E || c == 0x200F ||
	    (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069))
		*draw = 0;      /* soft hyphen, zero-width space, controls; the bidi
		                   marks, embeddings and isolates act on levels only */
	/* Variation selectors (U+FE0F in "❤️") choose a glyph that libharu,
	   which draws each code point's cmap glyph, cannot show; drawn alone
	   they pulled a fallback font into the PDF for one empty glyph. */
	if ((c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF))
		*draw = 0;
	return K_CHAR;
}

/* U+FE0F after a character the chain has an emoji face for (✉️, ❤️, a
 * keycap's digit) is drawn: it asks that face for the character (font.h:
 * presentation: emoji); after any other, as every variation selector, it is not. */
static int vs_draws(const inline_span_t *s, uint32_t prev, uint32_t c)
{
	return c == 0xFE0F && prev && s->chain && font_emoji_has(s->chain, s->style, prev);
}

/* ---- 1, 2: text and break opportunities ---- */

static void il_text(il_t *f, const inline_span_t *spans, int n)
{
	f->sp = il_keep.sp = room(il_keep.sp, &il_keep.capsp, (size_t)(n ? n : 1), sizeof(*f->sp));
	memset(f->sp, 0, (size_t)n * sizeof(*f->sp));
	f->nsp = n;
	f->text = il_keep.text;
	buf_reset(&f->text);
	for (int i = 0; i < n; i++) {
		size_t nl = 0;
		const char *s = spans[i].text ? spans[i].text : "";
		size_t len = spans[i].len > 0 ? (size_t)spans[i].len : 0;
		char *nfc = uni_nfc(s, len, &nl);
		f->sp[i].s = &spans[i];
		f->sp[i].nb = nfc ? nl : len;
		f->sp[i].plain = !spans[i].track && !(spans[i].flags & INLINE_FRAME);
		buf_add(&f->text, nfc ? nfc : s, nfc ? nl : len);
		free(nfc);
	}
	if (!f->text.s)
		buf_add(&f->text, "", 0);
}

/* UAX #14 break opportunities, as libunibreak 1.1's set_linebreaks_utf8
 * finds them, at a tenth of its cost. Its algorithm is the pair table
 * one of UAX #14 (revision 26, the table below in the annex's notation:
 * '_' direct break, '%' indirect (only after a space), '#' indirect for
 * a combining mark, '@' prohibited for a combining mark (it takes the
 * class before it), '^' prohibited); the classes are its own data
 * (lb_prop_default, per language lb_prop_lang_map), looked up through a
 * table for U+0000..U+07FF and a binary search above instead of its
 * linear scan. Two things it gets wrong are done here as UAX #14 says:
 * Debian's 1.1 knows the regional indicator class (flags: U+1F1E6..
 * U+1F1FF) but its pair table stops before it and it fails an assertion
 * on one, so indicators break like ideographs (U+20000) and are paired
 * as rule 30a does (no break inside a pair, a break between pairs); and
 * it reads U+FFFF as its end of text, which is U+FFFD's class here.
 * tests/unit/test_breaks.c compares both on every class boundary. */
static const char lb_pairs[LBP_JT][LBP_RI + 1] = {
	"^^^^^^^^^^^^^^^^^^^^^@^^^^^^^", /* OP */
	"_^^%%^^^^%%_____%%__^#^______", /* CL */
	"_^^%%^^^^%%%%%__%%__^#^______", /* CP */
	"^^^%%%^^^%%%%%%%%%%%^#^%%%%%%", /* QU */
	"%^^%%%^^^%%%%%%%%%%%^#^%%%%%%", /* GL */
	"_^^%%%^^^_______%%__^#^______", /* NS */
	"_^^%%%^^^_______%%__^#^______", /* EX */
	"_^^%%%^^^__%____%%__^#^______", /* SY */
	"_^^%%%^^^__%%%__%%__^#^______", /* IS */
	"%^^%%%^^^__%%%%_%%__^#^%%%%%_", /* PR */
	"%^^%%%^^^__%%%__%%__^#^______", /* PO */
	"%^^%%%^^^%%%%%_%%%__^#^______", /* NU */
	"%^^%%%^^^__%%%_%%%__^#^______", /* AL */
	"%^^%%%^^^__%%%_%%%__^#^______", /* HL */
	"_^^%%%^^^_%____%%%__^#^______", /* ID */
	"_^^%%%^^^______%%%__^#^______", /* IN */
	"_^^%_%^^^__%____%%__^#^______", /* HY */
	"_^^%_%^^^_______%%__^#^______", /* BA */
	"%^^%%%^^^%%%%%%%%%%%^#^%%%%%%", /* BB */
	"_^^%%%^^^_______%%_^^#^______", /* B2 */
	"____________________^________", /* ZW */
	"%^^%%%^^^__%%%_%%%__^#^______", /* CM */
	"%^^%%%^^^%%%%%%%%%%%^#^%%%%%%", /* WJ */
	"_^^%%%^^^_%____%%%__^#^___%%_", /* H2 */
	"_^^%%%^^^_%____%%%__^#^____%_", /* H3 */
	"_^^%%%^^^_%____%%%__^#^%%%%__", /* JL */
	"_^^%%%^^^_%____%%%__^#^___%%_", /* JV */
	"_^^%%%^^^_%____%%%__^#^____%_", /* JT */
};

#define LB_LOW 0x800            /* classes below this come from a table */
#define LB_EOS 0xFFFFFFFFu
static uint8_t lb_low[LB_LOW];
static uint8_t lb_al[256];      /* byte b: an ASCII character of class AL */
static int lb_n;                /* entries of lb_prop_default */

static void lb_init(void)
{
	if (lb_n)
		return;
	while (lb_prop_default[lb_n].prop != LBP_Undefined)
		lb_n++;
	memset(lb_low, LBP_XX, sizeof(lb_low));
	for (int i = 0; i < lb_n && lb_prop_default[i].start < LB_LOW; i++)
		for (utf32_t c = lb_prop_default[i].start; c <= lb_prop_default[i].end && c < LB_LOW; c++)
			lb_low[c] = (uint8_t)lb_prop_default[i].prop;
	for (int b = 0; b < 0x80; b++)
		lb_al[b] = lb_low[b] == LBP_AL;
}

/* U+0800..U+0FFF (Samaritan to Tibetan: the Indic scripts, Thai, Lao) from
 * a table of their own too, made when a character of theirs first comes */
#define LB_MID 0x1000
static uint8_t lb_mid[LB_MID - LB_LOW];
static int lb_mid_made;

static void lb_mid_init(void)
{
	memset(lb_mid, LBP_XX, sizeof(lb_mid));
	for (int i = 0; i < lb_n && lb_prop_default[i].start < LB_MID; i++)
		for (utf32_t c = lb_prop_default[i].start; c <= lb_prop_default[i].end && c < LB_MID; c++)
			if (c >= LB_LOW)
				lb_mid[c - LB_LOW] = (uint8_t)lb_prop_default[i].prop;
	lb_mid_made = 1;
}

static enum LineBreakClass lb_default(utf32_t c)
{
	if (c < LB_LOW)
		return (enum LineBreakClass)lb_low[c];
	if (c < LB_MID) {
		if (!lb_mid_made)
			lb_mid_init();
		return (enum LineBreakClass)lb_mid[c - LB_LOW];
	}
	int lo = 0, hi = lb_n - 1;      /* the last entry starting at or before c */
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (lb_prop_default[mid].start <= c)
			lo = mid;
		else
			hi = mid - 1;
	}
	const struct LineBreakProperties *p = &lb_prop_default[lo];
	return p->start <= c && c <= p->end ? p->prop : LBP_XX;
}

static enum LineBreakClass lb_class(utf32_t c, const struct LineBreakProperties *lang)
{
	if (lang && c >= lang->start)
		for (const struct LineBreakProperties *p = lang; p->prop != LBP_Undefined && c >= p->start; p++)
			if (c <= p->end)
				return p->prop;
	return lb_default(c);
}

/* AI, CJ, SA, SG and XX as libunibreak resolves them */
static enum LineBreakClass lb_resolve(enum LineBreakClass c, int cjk)
{
	switch (c) {
	case LBP_AI:
		return cjk ? LBP_ID : LBP_AL;
	case LBP_CJ:
		return LBP_ID;
	case LBP_SA:
	case LBP_SG:
	case LBP_XX:
		return LBP_AL;
	case LBP_RI:    /* only from bytes that spell no flag (see inline_breaks) */
		return LBP_ID;
	default:
		return c;
	}
}

/* The next code point from s[*i..len), decoded as leniently as libunibreak
 * does (no check of continuation bytes; a byte that starts no sequence is
 * itself), or LB_EOS at the end or at a truncated sequence. */
static utf32_t lb_next(const unsigned char *s, size_t len, size_t *i)
{
	unsigned c;
	if (*i >= len)
		return LB_EOS;
	c = s[*i];
	if (c < 0xC2 || c > 0xF4) {
		*i += 1;
		return c;
	}
	int n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if (*i + (size_t)n > len)
		return LB_EOS;
	utf32_t v = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
	for (int k = 1; k < n; k++)
		v = (v << 6) + (s[*i + (size_t)k] & 0x3F);
	*i += (size_t)n;
	return v == 0xFFFF ? LB_EOS : v;   /* libunibreak's end of text */
}

static int is_ri_utf8(const char *s, size_t len, size_t i)
{
	const unsigned char *u = (const unsigned char *)s + i;
	return i + 3 < len && u[0] == 0xF0 && u[1] == 0x9F && u[2] == 0x87 &&
	       u[3] >= 0xA6 && u[3] <= 0xBF;
}

static void lb_breaks(const unsigned char *s, size_t len, const char *lang, char *brks)
{
	const struct LineBreakProperties *lp = NULL;
	enum LineBreakClass cur, nw = LBP_Undefined, last;
	size_t pos = 0, at = (size_t)-1;    /* at: the last byte of the previous character */
	/* the language's CJK flag and table, kept for the next paragraph
	   (the same language, mostly) */
	static char lb_lang[16];
	static const struct LineBreakProperties *lb_lang_lp;
	static int lb_lang_cjk;
	int cjk = 0, lowfast;
	utf32_t ch;
	lb_init();
	ch = lb_next(s, len, &pos);
	if (ch == LB_EOS)
		return;
	if (lang && lb_lang[0] && !strcmp(lang, lb_lang)) {
		lp = lb_lang_lp;
		cjk = lb_lang_cjk;
	} else if (lang) {
		cjk = !strncmp(lang, "zh", 2) || !strncmp(lang, "ja", 2) || !strncmp(lang, "ko", 2);
		for (const struct LineBreakPropertiesLang *m = lb_prop_lang_map; m->lang; m++)
			if (!strncmp(lang, m->lang, m->namelen)) {
				lp = m->lbp;
				break;
			}
		if (lang[0] && strlen(lang) < sizeof(lb_lang)) {
			strcpy(lb_lang, lang);
			lb_lang_lp = lp;
			lb_lang_cjk = cjk;
		}
	}
	lowfast = !lp || lp->start >= 0x80;   /* ASCII: no language entries */
	cur = lb_resolve(lb_class(ch, lp), cjk);
line:
	/* the first character of a line */
	if (cur == LBP_LF || cur == LBP_NL)
		cur = LBP_BK;
	else if (cur == LBP_CB)
		cur = LBP_BA;
	else if (cur == LBP_SP)
		cur = LBP_WJ;
	for (;;) {
		/* the bytes of the character but its last (UTF-8: at most three;
		   stored one by one, not by a memset call for each character) */
		at++;
		if (at + 1 < pos) {
			brks[at++] = LINEBREAK_INSIDEACHAR;
			if (at + 1 < pos) {
				brks[at++] = LINEBREAK_INSIDEACHAR;
				while (at + 1 < pos)
					brks[at++] = LINEBREAK_INSIDEACHAR;
			}
		}
		/* inside a word: AL after AL is an indirect break, not taken
		   (the class before is no space); nothing else changes */
		if (cur == LBP_AL && nw == LBP_AL && lowfast)
			while (pos < len && lb_al[s[pos]]) {
				brks[at] = LINEBREAK_NOBREAK;
				at = pos++;
			}
		last = nw;
		if (lowfast && pos < len && s[pos] < 0x80) {
			ch = s[pos++];
			nw = (enum LineBreakClass)lb_low[ch];
		} else {
			ch = lb_next(s, len, &pos);
			if (ch == LB_EOS)
				break;
			nw = lb_class(ch, lp);
		}
		if (cur == LBP_BK || (cur == LBP_CR && nw != LBP_LF)) {
			brks[at] = LINEBREAK_MUSTBREAK;
			cur = lb_resolve(nw, cjk);
			goto line;
		}
		switch (nw) {
		case LBP_SP:
			brks[at] = LINEBREAK_NOBREAK;
			continue;
		case LBP_BK:
		case LBP_LF:
		case LBP_NL:
			brks[at] = LINEBREAK_NOBREAK;
			cur = LBP_BK;
			continue;
		case LBP_CR:
			brks[at] = LINEBREAK_NOBREAK;
			cur = LBP_CR;
			continue;
		case LBP_CB:
			brks[at] = LINEBREAK_ALLOWBREAK;
			cur = LBP_BA;
			continue;
		default:
			break;
		}
		nw = lb_resolve(nw, cjk);
		switch (lb_pairs[cur - 1][nw - 1]) {
		case '_':
			brks[at] = LINEBREAK_ALLOWBREAK;
			break;
		case '%':
		case '#':
			brks[at] = last == LBP_SP ? LINEBREAK_ALLOWBREAK : LINEBREAK_NOBREAK;
			break;
		case '@':
			brks[at] = LINEBREAK_NOBREAK;
			if (last != LBP_SP)
				continue;
			break;
		default:
			brks[at] = LINEBREAK_NOBREAK;
		}
		cur = nw;
	}
	brks[at] = LINEBREAK_MUSTBREAK;
	while (pos < len)
		brks[pos++] = LINEBREAK_INSIDEACHAR;
}

/* Flags and U+FFFF (see above) are rewritten first, as bytes of the same
 * length: U+20000 and U+FFFD. */
/* Khmer's ។ ៕ and Myanmar's ၊ ။ end a sentence or clause after its last
 * syllable: UAX #14 (class BA) breaks after them and not before, but for
 * a space before (LB18 before LB21), which some texts have (ខ្ញុំ ។); that
 * space keeps them with their syllable too, as LB13 keeps ! and ) after
 * a space. */
static void sa_marks_keep(const unsigned char *s, size_t len, char *brks)
{
	/* spaces are fewer than the scripts' E1 lead bytes */
	for (const unsigned char *p = s, *e = s + len; (p = memchr(p, ' ', (size_t)(e - p))); p++)
		if (e - p >= 4 && p[1] == 0xE1 &&
		    ((p[2] == 0x9F && (p[3] == 0x94 || p[3] == 0x95)) ||
		     (p[2] == 0x81 && (p[3] == 0x8A || p[3] == 0x8B))) &&
		    brks[p - s] == LINEBREAK_ALLOWBREAK)
			brks[p - s] = LINEBREAK_NOBREAK;
}

void inline_breaks(const char *str, size_t len, const char *lang, char *brks)
{
	const unsigned char *s = (const unsigned char *)str;
	char *tmp = NULL;
	int maybe = memchr(s, 0xEF, len) || memchr(s, 0xF0, len);
	for (size_t i = 0; maybe && i < len; i++) {
		int ffff = i + 2 < len && s[i] == 0xEF && s[i + 1] == 0xBF && s[i + 2] == 0xBF;
		int ri = is_ri_utf8(str, len, i);
		if (!ffff && !ri)
			continue;
		if (!tmp)
			tmp = memcpy(xmalloc(len), s, len);
		if (ffff)
			tmp[i + 2] = (char)0xBD;
		else
			memcpy(tmp + i, "\xF0\xA0\x80\x80", 4);
	}
	lb_breaks(tmp ? (const unsigned char *)tmp : s, len, lang, brks);
	if (memchr(s, 0xE1, len))
		sa_marks_keep(s, len, brks);
	for (size_t i = 0; tmp && i < len; i++) {
		if (!is_ri_utf8(str, len, i))
			continue;
		if (is_ri_utf8(str, len, i + 4))
			brks[i + 3] = LINEBREAK_NOBREAK;
		i += is_ri_utf8(str, len, i + 4) ? 7 : 3;
	}
	free(tmp);
}

static void il_decode(il_t *f, int n)
{
	size_t len = f->text.len, pos = 0;
	uint32_t maxcp = 0;
	char *brks = il_keep.brks = room(il_keep.brks, &il_keep.capb, len + 1, 1);
	if (len)
		inline_breaks(f->text.s, len, f->o->lang, brks);
	f->c = il_keep.c = room(il_keep.c, &il_keep.capc, len + 1, sizeof(*f->c));
	int nc = 0;             /* kept here, not in f: the stores below cannot alias it */
	const char *text = f->text.s;
	const fcp_t ascii = {.face = -1, .len = 1, .draw = 1};  /* what ASCII shares */
	for (int si = 0; si < n; si++) {
		size_t end = pos + f->sp[si].nb;
		f->sp[si].c0 = nc;
		while (pos < end) {
			unsigned char b0 = (unsigned char)text[pos];
			int l, draw;
			if (b0 - 0x20u < 0x5Fu) {
				/* ' ' to '~', most of a CV: no decoding, no kind_of,
				   no maxcp (all its tests are of U+0590 and up) */
				char b = brks[pos];
				fcp_t *c = &f->c[nc++];
				*c = ascii;
				c->cp = b0;
				c->off = (int32_t)pos;
				c->span = si;
				c->kind = b0 == ' ' ? K_SPACE : K_CHAR;
				c->bk = b == LINEBREAK_ALLOWBREAK || b == LINEBREAK_MUSTBREAK ? BK_ALLOW
				                                                              : BK_NONE;
				pos++;
				continue;
			}
			fcp_t *c = &f->c[nc++];
			*c = (fcp_t){.off = (int32_t)pos, .span = si, .face = -1};
			if (b0 < 0x80) {
				c->cp = b0;
				l = 1;
			} else {
				l = utf8_decode(text + pos, end - pos, &c->cp);
			}
			if (b0 > ' ' && b0 < 0x7F) {
				c->kind = K_CHAR;
				draw = 1;
			} else {
				c->kind = (uint8_t)kind_of(l ? c->cp : 0xFFFD, &draw);
				if (!draw && nc >= 2 && f->c[nc - 2].span == si && f->c[nc - 2].draw &&
				    vs_draws(f->sp[si].s, f->c[nc - 2].cp, c->cp))
					draw = 1;
			}
			c->draw = (uint8_t)(l ? draw : 0);   /* a stray byte: never drawn */
			if (!l) {
				c->cp = 0xFFFD;
				l = 1;
			}
			c->len = (uint8_t)l;
			char b = brks[pos + (size_t)l - 1];
			c->bk = c->kind == K_NL ? BK_MUST :
			        b == LINEBREAK_ALLOWBREAK || b == LINEBREAK_MUSTBREAK ? BK_ALLOW : BK_NONE;
			if (c->cp == 0xAD)
				c->bk = BK_HYPH;
			if (c->cp > maxcp)
				maxcp = c->cp;
			pos += (size_t)l;
		}
		f->sp[si].c1 = nc;
	}
	f->nc = nc;
	f->c[f->nc] = (fcp_t){0};
	f->maxcp = maxcp;
}

/* 2b: levels and Arabic forms, only when the paragraph has RTL text (or
 * the page is right to left). */
static void il_bidi(il_t *f)
{
	int any = f->o->rtl;
	/* nothing below U+0590 is right to left (test_inline rtl_from_0590) */
	for (int i = 0; i < f->nc && !any && f->maxcp >= 0x590; i++)
		any = f->c[i].cp >= 0x590 && bidi_is_rtl(f->c[i].cp);
	if (!any || !f->nc)
		return;
	uint32_t *cp = xmalloc((size_t)f->nc * sizeof(*cp));
	uint8_t *lv = xmalloc((size_t)f->nc);
	for (int i = 0; i < f->nc; i++)
		cp[i] = f->c[i].cp;
	int max = bidi_levels(cp, f->nc, f->o->rtl, lv);
	if (max > 0 || f->o->rtl) {
		f->bidi = 1;
		bidi_shape(cp, f->nc, lv);
		for (int i = 0; i < f->nc; i++) {
			fcp_t *c = &f->c[i];
			c->lv = lv[i];
			if (cp[i] == c->cp || c->kind != K_CHAR)
				continue;
			c->cp = cp[i];
			c->shaped = 1;
			if (cp[i] == 0xFEFF)
				c->draw = 0;  /* the second half of a lam-alef ligature */
		}
		/* a zero-width (non-)joiner in right-to-left text has done its
		   work (the forms around it); it is not drawn (it pulled in a
		   Latin face, shaped by HarfBuzz, for an empty glyph) but read:
		   ls_box adds it to the source text of the cluster before it */
		for (int i = 0; i < f->nc; i++) {
			fcp_t *c = &f->c[i];
			if ((c->cp == 0x200C || c->cp == 0x200D) && lv[i] % 2) {
				c->draw = 0;
				c->shaped = 1;
			}
		}
	}
	free(cp);
	free(lv);
}

/* INLINE_NOBREAK and INLINE_URL spans: only the span's own break rules. */
static void il_span_rules(il_t *f)
{
	for (int si = 0; si < f->nsp; si++) {
		fspan_t *s = &f->sp[si];
		unsigned fl = s->s->flags;
		if (!(fl & (INLINE_NOBREAK | INLINE_URL)))
			continue;
		for (int i = s->c0; i + 1 < s->c1; i++) {
			fcp_t *c = &f->c[i];
			if (c->bk == BK_ALLOW || c->bk == BK_SYL || c->bk == BK_SYLIN)
				c->bk = BK_NONE;
			if ((fl & INLINE_URL) && !(fl & INLINE_NOBREAK) && c->kind == K_CHAR &&
			    is_url_safe(c->cp) && !is_url_safe(f->c[i + 1].cp) &&
			    f->c[i + 1].kind == K_CHAR && i + 2 < s->c1)
				c->bk = BK_URL;
		}
	}
}

/* Hangul: syllables, conjoining and compatibility jamo, half-width. */
static int is_hangul(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x3130 && c <= 0x318F) ||
	       (c >= 0xA960 && c <= 0xA97F) || (c >= 0xAC00 && c <= 0xD7FF) ||
	       (c >= 0xFFA0 && c <= 0xFFDC);
}

/* Korean words stay whole: UAX #14 lets a line break between any two
 * Hangul syllables (they are ID-like) and beside them ("3|년차",
 * "삼성리서치|(KAIST)"), but Korean is written with spaces between its
 * words (eojeol) and set, like the web's word-break: keep-all and
 * KLREQ's line breaking by eojeol, at those spaces. So a break
 * opportunity with Hangul on either side is taken away unless it is a
 * space (or a zero-width one); those between other characters stay (Latin, digits,
 * punctuation, Chinese and Japanese text). A Korean word wider than the
 * measure still breaks between its syllables (il_emergency, with the
 * overflow warning) rather than overflow. As CSS's keep-all with a
 * fallback: a justified paragraph that cannot be set with every line
 * within the tolerance at its spaces gets those breaks back, each at
 * PEN_KEEP (il_break_kept), so that a line breaks inside a word ("제안했
 * |습니다") rather than stretch its spaces past the limit; the penalty,
 * above any line's demerits within the tolerance, keeps such breaks as
 * few as the paragraph allows. Keyed on the script, not on
 * the language: Hangul is only ever Korean, so a Korean name in an
 * English CV keeps together too, and text without Hangul is untouched. */
static void il_keep_words(il_t *f)
{
	if (f->maxcp < 0x1100)
		return;
	for (int i = 0; i + 1 < f->nc; i++) {
		fcp_t *a = &f->c[i], *b = &f->c[i + 1];
		/* after a zero-width space: the writer's own break */
		if (a->bk != BK_ALLOW || a->kind != K_CHAR || b->kind != K_CHAR || a->cp == 0x200B)
			continue;
		if (is_hangul(a->cp) || is_hangul(b->cp)) {
			a->bk = BK_NONE;
			a->kept = 1;
			f->kept = 1;
		}
	}
}

/* Thai words: Thai is written without spaces between words, and UAX #14
 * leaves its breaks to a dictionary (class SA), which libunibreak 1.1 has
 * not (no break inside a Thai run). Each run of Thai text gets its word
 * boundaries from thai.c (libthai's dictionary and rules; the compiled
 * dictionary is mapped when a paragraph first has Thai). Before
 * il_span_rules: a nobreak span or a URL keeps its text whole. */
/* 1 when c[i..j) lies inside one nobreak span or URL: il_span_rules
 * drops every break inside such a span (before its last character), so
 * a word boundary there would be thrown away. A Thai name (never split)
 * then costs no dictionary. */
static int il_kept_whole(const il_t *f, int i, int j)
{
	for (int si = 0; si < f->nsp; si++) {
		const fspan_t *s = &f->sp[si];
		if (s->c0 <= i && j <= s->c1)
			return (s->s->flags & (INLINE_NOBREAK | INLINE_URL)) != 0;
	}
	return 0;
}

static void il_thai_words(il_t *f)
{
	/* Thai is U+0E01.., bytes E0 B8 81..: a text without the byte E0 has
	   none (CJK text's lead bytes are E3..E9) */
	if (f->maxcp < 0xE01 || !memchr(f->text.s, 0xE0, f->text.len))
		return;
	int i = 0;
	while (i < f->nc && !thai_is(f->c[i].cp))
		i++;
	if (i == f->nc)
		return;
	uint32_t *cp = xmalloc((size_t)f->nc * sizeof(*cp));
	int *pos = xmalloc((size_t)f->nc * sizeof(*pos));
	while (i < f->nc) {
		int j = i, n = 0;
		while (j < f->nc && f->c[j].kind == K_CHAR && thai_is(f->c[j].cp))
			cp[n++] = f->c[j++].cp;
		int k = il_kept_whole(f, i, j) ? 0 : thai_breaks(cp, n, pos, n);
		for (int b = 0; b < k; b++)
			if (f->c[i + pos[b] - 1].bk == BK_NONE)
				f->c[i + pos[b] - 1].bk = BK_ALLOW;
		for (i = j + 1; i < f->nc && !thai_is(f->c[i].cp); i++)
			;
	}
	free(cp);
	free(pos);
}

/* Lao, Khmer and Myanmar are written without spaces between words too,
 * and no dictionary for them is at hand (libthai's is Thai only;
 * libunibreak 1.1 resolves their class SA as AL): a run of their text
 * would never break but at a space, and those come only between phrases.
 * Their typesetters break lines between syllables as a matter of course,
 * a phrase space being the stronger break, not the only one. So a line
 * may break between two of their syllables (BK_SYL), at PEN_SYL, a
 * penalty as a break without a space has, so that a space that sets the
 * line as well is taken first; and, as Thai's words and CJK's
 * characters, justified text stretches a little between syllables (an
 * em/12 each, half of Thai's em/6 between words of about two syllables),
 * or a line's one or two phrase spaces took all its slack (519% past
 * their limit). No break leaves one syllable alone: the first and last
 * boundaries of a run of one script's text (up to a space, a character
 * of another script or none of them, a break it had) only stretch
 * (BK_SYLIN). Ragged text breaks between syllables at PEN_KEEP, as
 * Korean's kept breaks (il_break_kept): it has room to end a line at a
 * space, and does whenever it can. The syllables are the
 * orthographic ones, found by the scripts' own structure, not by a
 * dictionary:
 *   Myanmar: before a consonant or independent vowel, unless it is
 *     stacked (after the virama U+1039) or killed (an asat U+103A or a
 *     virama follows it, a dot below between): ကျွန်|မ, တက္က|သိုလ်.
 *   Khmer: before a consonant or independent vowel not after a coeng
 *     (U+17D2) nor marked by a bantoc (U+17CB) as a final: សា|ស្ត្រ,
 *     ចាន់ whole.
 *   Lao: a syllable is [leading vowel] onset [medial] [vowels above,
 *     below, after] [tone mark] [final], every vowel written (the
 *     vowel may be a letter: ອ ɔː in ຂອງ, ວ ua in ຄວນ; ຽ), the finals
 *     ກ ງ ດ ນ ບ ມ ຍ ວ. So one starts before a leading vowel (U+0EC0..
 *     0EC4), and before a consonant that no leading vowel precedes,
 *     that no U+0ECC silences (ໂປຣແກຣມ's ມ), that is no medial (ວ
 *     after a consonant; ລ ຣ after one that may begin a cluster, not
 *     after a final ງ ດ ນ ມ ຍ ວ: ຊາດ|ລາວ) nor one of ຫ's sonorants
 *     (ຫງ ຫຍ ຫນ ຫມ ຫລ ຫວ), and: a vowel or tone mark follows it; or it
 *     comes after ະ or ຳ (which take no final); or it is no final (an
 *     onset then) but ອ, which starts one only before a mark or ອ
 *     (ອອກ); or it is a final whose vowel letter follows, ອ or ວ
 *     before a final (ມອບ, ດວງ): ສຸ|ດາ|ລັດ, ພົມ|ມະ|ວົງ, ສະ|ຫວ່າງ,
 *     ນຳ|ຂອງ|ອາ|ຈານ, ຄອມ|ພິວ|ເຕີ. A final before ວ and a mark
 *     (ກວ່າ, or ການ|ວາງ?) starts none: fewer breaks where it is not
 *     sure, never a wrong one inside a syllable.
 * A nobreak span or URL keeps its text whole (il_span_rules). */
static int sa_script(uint32_t c)
{
	if (c >= 0x0E80 && c <= 0x0EFF)
		return 1;   /* Lao */
	if ((c >= 0x1780 && c <= 0x17FF) || (c >= 0x19E0 && c <= 0x19FF))
		return 2;   /* Khmer */
	if ((c >= 0x1000 && c <= 0x109F) || (c >= 0xA9E0 && c <= 0xA9FF) ||
	    (c >= 0xAA60 && c <= 0xAA7F))
		return 3;   /* Myanmar */
	return 0;
}

static int lao_cons(uint32_t c)
{
	return (c >= 0x0E81 && c <= 0x0EAE) || (c >= 0x0EDC && c <= 0x0EDF);
}

/* ງ ດ ນ ມ ຍ ວ: finals that begin no cluster with ລ or ຣ */
static int lao_final(uint32_t c)
{
	return c == 0x0E87 || c == 0x0E94 || c == 0x0E99 || c == 0x0EA1 || c == 0x0E8D ||
	       c == 0x0EA7;
}

/* ກ ງ ດ ນ ບ ມ ຍ ວ: the consonants that may end a syllable */
static int lao_coda(uint32_t c)
{
	return lao_final(c) || c == 0x0E81 || c == 0x0E9A;
}

/* A Lao vowel sign (above, below, after: ະ ັ າ ຳ ິ ... ົ ຼ ຽ) or tone
 * mark or ໍ (not ໌, which silences the letter before it). */
static int lao_mark(uint32_t c)
{
	return (c >= 0x0EB0 && c <= 0x0EBD) || (c >= 0x0EC8 && c <= 0x0ECB) || c == 0x0ECD;
}

/* Does a Lao syllable start at consonant or vowel c, between p and n, m
 * (0: no character of the run)? */
static int lao_starts(uint32_t p, uint32_t c, uint32_t n, uint32_t m)
{
	if (c >= 0x0EC0 && c <= 0x0EC4)
		return 1;
	if (!lao_cons(c) || (p >= 0x0EC0 && p <= 0x0EC4) || n == 0x0ECC)
		return 0;
	if (lao_cons(p) && (c == 0x0EA7 || ((c == 0x0EA5 || c == 0x0EA3) && !lao_final(p))))
		return 0;   /* a medial */
	if (p == 0x0EAB && (c == 0x0E87 || c == 0x0E8D || c == 0x0E99 || c == 0x0EA1 ||
	                    c == 0x0EA5 || c == 0x0EA7))
		return 0;   /* ຫ's sonorant */
	if (lao_mark(n) || p == 0x0EB0 || p == 0x0EB3)
		return 1;
	if (c == 0x0EAD)
		return n == 0x0EAD;
	if (!lao_coda(c))
		return 1;
	/* a final, unless its vowel letter follows, before a final */
	return (n == 0x0EAD || n == 0x0EA7) && lao_coda(m);
}

/* Does a syllable of script sc start at c[i] (c[i - 1] of the same)? */
static int sa_starts(const il_t *f, int i, int sc)
{
	uint32_t p = f->c[i - 1].cp, c = f->c[i].cp;
	uint32_t n = i + 1 < f->nc && f->c[i + 1].kind == K_CHAR ? f->c[i + 1].cp : 0;
	switch (sc) {
	case 1: {
		uint32_t m = n && i + 2 < f->nc && f->c[i + 2].kind == K_CHAR ? f->c[i + 2].cp : 0;
		return lao_starts(p, c, n, m);
	}
	case 2:
		return c >= 0x1780 && c <= 0x17B3 && p != 0x17D2 && n != 0x17CB;
	default: {
		if (!((c >= 0x1000 && c <= 0x102A) || c == 0x103F) || p == 0x1039)
			return 0;
		int k = i + 1;
		while (k < f->nc && f->c[k].kind == K_CHAR && f->c[k].cp == 0x1037)
			k++;
		uint32_t m = k < f->nc && f->c[k].kind == K_CHAR ? f->c[k].cp : 0;
		return m != 0x103A && m != 0x1039;
	}
	}
}

/* Does s[0..n) have a code point of the three blocks? Their UTF-8: Lao
 * E0 BA-BB, Myanmar E1 80-82, Khmer E1 9E-9F and E1 A7 (symbols), the
 * Myanmar extensions EA A7 and EA A9; memchr finds the lead bytes (a
 * Chinese or Japanese text's are E3-E9). */
static int sa_bytes(const char *s, size_t n)
{
	static const unsigned char lead[3] = {0xE0, 0xE1, 0xEA};
	for (int k = 0; k < 3; k++)
		for (const char *p = s, *e = s + n; p + 1 < e && (p = memchr(p, lead[k], (size_t)(e - p)));
		     p++) {
			unsigned b = (unsigned char)p[1];
			if (k == 0 ? b == 0xBA || b == 0xBB
			           : k == 1 ? b <= 0x82 || b == 0x9E || b == 0x9F || b == 0xA7
			                    : b == 0xA7 || b == 0xA9)
				return 1;
		}
	return 0;
}

static void il_sa_syllables(il_t *f)
{
	if (f->maxcp < 0xE80 || !sa_bytes(f->text.s, f->text.len))
		return;
	/* a run of one script's text, up to a space, a character of no
	   such script (a comma) or a break it had: its first syllable
	   boundary only stretches, and its last is made so when the run
	   ends (last: the run's last boundary so far) */
	int last = -1;
	for (int i = 1; i <= f->nc; i++) {
		fcp_t *a = &f->c[i - 1];
		int sc = i < f->nc ? sa_script(f->c[i].cp) : 0;
		if (!sc || a->bk != BK_NONE || a->kind != K_CHAR || f->c[i].kind != K_CHAR ||
		    sa_script(a->cp) != sc) {
			if (last >= 0)
				f->c[last].bk = BK_SYLIN;
			last = -1;
			continue;
		}
		if (!sa_starts(f, i, sc))
			continue;
		a->bk = last < 0 ? BK_SYLIN : BK_SYL;
		last = i - 1;
	}
}

void inline_syllables(const char *s, size_t len, char *starts)
{
	il_t f = {0};
	f.c = xcalloc(len + 1, sizeof(*f.c));
	f.text.s = (char *)(uintptr_t)s;
	f.text.len = len;
	memset(starts, 0, len);
	for (size_t at = 0; at < len; f.nc++) {
		f.c[f.nc].off = (int32_t)at;
		f.c[f.nc].kind = K_CHAR;
		at += (size_t)utf8_decode(s + at, len - at, &f.c[f.nc].cp);
		if (f.c[f.nc].cp > f.maxcp)
			f.maxcp = f.c[f.nc].cp;
	}
	il_sa_syllables(&f);
	for (int i = 0; i + 1 < f.nc; i++)
		starts[f.c[i + 1].off] = f.c[i].bk == BK_SYL || f.c[i].bk == BK_SYLIN;
	free(f.c);
}

/* ---- hyphenation ---- */

/* The patterns of span si: those of its own language when it has one (a
 * publication in English in a German CV: hyph_set_get), else the text's. */
static hyph_t *span_hyph(il_t *f, int si)
{
	fspan_t *s = &f->sp[si];
	if (!s->hy_known) {
		const char *lg = s->s->lang;
		if (!lg || (f->o->lang && !strcmp(lg, f->o->lang)))
			s->hy = f->o->hyph;
		else   /* not the text's patterns: they would break its words wrongly */
			s->hy = f->o->hyphs ? hyph_set_get(f->o->hyphs, lg) : NULL;
		s->hy_known = 1;
	}
	return s->hy;
}

static int hyph_ok(il_t *f, int si)
{
	unsigned fl = f->sp[si].s->flags;
	return !(fl & (INLINE_NOHYPH | INLINE_URL | INLINE_NOBREAK)) && span_hyph(f, si);
}

/* May any word of the paragraph be hyphenated: the text's patterns, or a
 * span's own? */
static int il_hyph_on(il_t *f)
{
	if (!f->hyon) {
		int on = f->o->hyph != NULL;
		for (int si = 0; !on && f->o->hyphs && si < f->nsp; si++)
			on = f->sp[si].s->lang && span_hyph(f, si);
		f->hyon = on ? 2 : 1;
	}
	return f->hyon == 2;
}

/* One word c[a..b): all in one span, no break inside. */
static void il_hyph_word(il_t *f, int a, int b)
{
	int offs[64], n, j;
	while (a < b && !is_letter(f->c[a].cp))
		a++;
	while (b > a && !is_letter(f->c[b - 1].cp) && !uni_is_mark(f->c[b - 1].cp))
		b--;   /* a word's last mark is its own (Tamil's final virama) */
	if (b - a < 5)
		return;
	if ((a > 0 && f->c[a - 1].cp == 0xAD) || (b < f->nc && f->c[b].cp == 0xAD))
		return;
	for (int i = a; i < b; i++)
		if (f->c[i].cp == 0xAD || !f->c[i].draw)
			return;
	int si = f->c[a].span;
	n = hyph_word(span_hyph(f, si), f->text.s + f->c[a].off,
	              (size_t)(f->c[b - 1].off + f->c[b - 1].len - f->c[a].off), offs, 64);
	/* a capital first letter marks a name, but not in German, whose
	   nouns all have one */
	const char *lg = f->sp[si].s->lang && f->sp[si].hy != f->o->hyph ? f->sp[si].s->lang
	                 : f->o->lang ? f->o->lang : "";
	int german = (lg[0] == 'd' && lg[1] == 'e') || (lg[0] == 'l' && lg[1] == 'b');
	german = german && (!lg[2] || lg[2] == '-' || lg[2] == '_');
	uint32_t c0 = f->c[a].cp;
	int bk = !german && uni_case_simple(c0, UNI_LOWER) != c0 ? BK_HYPHC : BK_HYPH;
	j = a;
	for (int k = 0; k < n; k++) {
		int32_t at = f->c[a].off + offs[k];
		while (j < b && f->c[j].off < at)
			j++;
		if (j < b && j > a && f->c[j].off == at && f->c[j - 1].bk == BK_NONE &&
		    f->c[j].cl != FONT_CL_CONT)
			f->c[j - 1].bk = (uint8_t)bk;
	}
}

static void il_hyphenate(il_t *f)
{
	if (!il_hyph_on(f))
		return;
	for (int i = 0; i < f->nc;) {
		int j = i;
		if (f->c[i].kind != K_CHAR) {
			i++;
			continue;
		}
		while (j < f->nc && f->c[j].kind == K_CHAR && f->c[j].span == f->c[i].span &&
		       (j == i || f->c[j - 1].bk == BK_NONE))
			j++;
		/* a word running into another span is left alone */
		int glued = (i > 0 && f->c[i - 1].kind == K_CHAR && f->c[i - 1].bk == BK_NONE &&
		             is_letter(f->c[i - 1].cp)) ||
		            (j < f->nc && f->c[j].kind == K_CHAR && f->c[j - 1].bk == BK_NONE &&
		             is_letter(f->c[j].cp));
		if (!glued && hyph_ok(f, f->c[i].span))
			il_hyph_word(f, i, j);
		i = j;
	}
}

/* ---- 3: shaping ---- */

static void il_warn_missing(il_t *f, fcp_t *c)
{
	fspan_t *s = &f->sp[c->span];
	char u[8], miss[300];
	int nm;
	const char *script = uni_unshaped_script(c->cp);
	/* one warning per code point, or per script the chains lack (a
	 * Gujarati name would otherwise warn for each of its letters) */
	for (int i = 0; i < s->nwarned; i++)
		if (s->warned[i] == c->cp || (script && uni_unshaped_script(s->warned[i]) == script))
			return;
	if (s->nwarned < 16)
		s->warned[s->nwarned++] = c->cp;
	u[utf8_encode(c->cp, u)] = 0;
	if ((nm = s->s->chain ? font_chain_missing(s->s->chain, c->cp, s->lang, miss,
	                                                sizeof(miss)) : 0) != 0) {
		/* the CV needs a family the chain names but this machine lacks */
		if (nm > 0)
			err_at_code(f->e, ERR_SYSTEM, f->o->file, s->s->line, s->s->col,
			            "U+%04X '%s' needs a font that is not installed: chain '%s' names %s",
			            (unsigned)c->cp, u, font_chain_name(s->s->chain), miss);
	} else if (script)
		/* the fonts may well be installed: the chains leave them out */
		warn_at(f->e, f->o->file, s->s->line, s->s->col,
		        "U+%04X '%s' is not drawn: chain '%s' has no face for %s text (vita's "
		        "own chains list one for every script it shapes); nor is the rest of "
		        "this text's %s",
		        (unsigned)c->cp, u, s->s->chain ? font_chain_name(s->s->chain) : "?", script,
		        script);
	else
		warn_at(f->e, f->o->file, s->s->line, s->s->col,
		        "no font in chain '%s' has U+%04X '%s'",
		        s->s->chain ? font_chain_name(s->s->chain) : "?", (unsigned)c->cp, u);
}

/* Append c[a..b) (one chunk of a span, no newline) without its invisible
 * code points to tmp, noting in map which code point each byte starts. */
static void il_shape_text(il_t *f, int a, int b, buf_t *tmp, int **map, int *mapcap)
{
	size_t room = tmp->len + 4 * (size_t)(b - a) + 1;
	if (room > tmp->cap) {
		tmp->cap = 2 * room;
		tmp->s = xrealloc(tmp->s, tmp->cap);
	}
	if ((int)room > *mapcap) {
		*mapcap = 2 * (int)room;
		*map = xrealloc(*map, (size_t)*mapcap * sizeof(int));
	}
	char *t = tmp->s;
	size_t len = tmp->len;
	for (int i = a; i < b; i++) {
		const fcp_t *c = &f->c[i];
		if (!c->draw)
			continue;
		(*map)[len] = i;
		if (c->len == 1 && !c->shaped) {   /* ASCII; a space or a tab is ' ' */
			t[len++] = c->kind == K_SPACE ? ' ' : f->text.s[c->off];
			continue;
		}
		if (c->shaped)
			len += (size_t)utf8_encode(c->cp, t + len);
		else if (c->kind == K_SPACE)
			t[len++] = ' ';
		else
			for (int k = 0; k < c->len; k++)
				t[len++] = f->text.s[c->off + k];
	}
	t[len] = 0;
	tmp->len = len;
}

/* Code point ci of span s gets a glyph: its advance, face and run break
 * (last: the span's last drawn code point, which its tracking skips). */
static inline void il_place_one(il_t *f, const inline_span_t *s, int ci, int last, int32_t adv,
                                int face, int synth, int brk, int gid)
{
	fcp_t *c = &f->c[ci];
	c->adv = adv;
	c->face = (int16_t)face;
	c->synth = (uint8_t)synth;
	c->brk = (uint8_t)brk;
	c->gid = (uint16_t)gid;
	c->trk = 0;
	c->cl = 0;
	if (c->face < 0) {
		if (c->kind == K_CHAR)
			il_warn_missing(f, c);
		c->face = -1;
		c->adv = 0;
		c->brk = 1;
		c->gid = 0;
	} else if (s->track && ci != last) {
		c->adv = sat32((int64_t)c->adv + s->track);
		c->trk = 1;
	}
}

/* A record of a cluster (FONT_CL_*) for code point ci: its start or
 * another code point of it, or one of its glyphs (adv, dy at size; gid
 * the face's), which the start's advance takes in. Clusters are set
 * solid: no tracking, no break inside. */
static inline void il_place_cl(il_t *f, int ci, int cl, int32_t adv, int32_t dy, int face, int synth,
                        int gid)
{
	fcp_t *c = &f->c[ci];
	if (cl == FONT_CL_GLYPH) {
		if (c->cl != FONT_CL_START)
			return;
		if (f->ncg == f->capcg) {
			f->capcg = f->capcg ? 2 * f->capcg : 64;
			f->cg = xrealloc(f->cg, (size_t)f->capcg * sizeof(*f->cg));
		}
		if (!f->cgi)
			f->cgi = xmalloc(sizeof(*f->cgi) * (size_t)(f->nc + 1));
		if (!c->ncg)
			f->cgi[ci] = f->ncg;
		if (c->ncg < 255) {
			f->cg[f->ncg++] = (page_glyph_t){.x = c->adv, .y = dy, .gid = (uint16_t)gid};
			c->ncg++;
		}
		c->adv = sat32((int64_t)c->adv + adv);
		return;
	}
	c->adv = adv;
	c->face = (int16_t)face;
	c->synth = (uint8_t)synth;
	c->brk = 1;
	c->gid = 0;
	c->trk = 0;
	c->cl = (uint8_t)cl;
	c->ncg = 0;
	if (cl == FONT_CL_CONT && ci > 0 && f->c[ci - 1].bk != BK_MUST)
		f->c[ci - 1].bk = BK_NONE;
}

/* The last drawn code point of span si (its tracking skips it), or -1. */
static int il_track_last(const il_t *f, int si)
{
	int last = -1;
	if (f->sp[si].s->track)
		for (int i = f->sp[si].c1 - 1; i >= f->sp[si].c0 && last < 0; i--)
			if (f->c[i].draw && f->c[i].kind == K_CHAR)
				last = i;
	return last;
}

/* Give the code points of span si the glyphs g[0..n) (of its text as
 * il_shape_text made it, len bytes, map its byte -> code point). */
static void il_shape_place(il_t *f, int si, size_t len, const int *map, const font_glyph_t *g,
                           int n)
{
	const inline_span_t *s = f->sp[si].s;
	int last = il_track_last(f, si);
	for (int k = 0; k < n; k++, g++) {
		if (g->off >= len)
			continue;
		if (__builtin_expect(g->cl != 0, 0))
			il_place_cl(f, map[g->off], g->cl, g->adv, g->dy, g->face, g->synth, g->gid);
		else
			il_place_one(f, s, map[g->off], last, g->adv, g->face, g->synth, g->brk, g->gid);
	}
}

static void il_shape_at(font_shaped_t *sh, const font_uglyph_t *u, int n, int32_t size);

/* Shape tmp, the chunks of span si (ending at cut[0..ncut)), and give
 * each code point its glyph's advance, face and run break. With u, the
 * glyphs are shaped at no size into u (kept to be placed again at other
 * sizes) and then placed at the span's size. */
static int il_shape_span(il_t *f, int si, const buf_t *tmp, const int *map,
                         const uint32_t *cut, int ncut, font_shaped_t *sh, font_ushaped_t *u)
{
	const inline_span_t *s = f->sp[si].s;
	if (u) {
		u->n = 0;
		u->missing = 0;
	}
	if (!tmp->len || !s->chain)
		return 0;
	errs_t late;
	errs_init(&late);
	sh->n = 0;
	sh->width = 0;
	sh->missing = 0;
	int rc;
	if (u) {
		rc = font_shape_pieces_u(s->chain, s->style, f->sp[si].lang, s->feats, tmp->s, cut,
		                         ncut, u, &late);
		il_shape_at(sh, u->g, u->n, s->size);
	} else {
		rc = font_shape_pieces(s->chain, s->style, s->size, f->sp[si].lang, s->feats, tmp->s,
		                       cut, ncut, sh, &late);
	}
	il_shape_place(f, si, tmp->len, map, sh->g, sh->n);
	/* a face that failed to load: its error after what the chunks
	   before it reported */
	errs_append(f->e, &late);
	errs_done(&late);
	return rc;
}

static int lang_is_cjk(const char *l)
{
	return l && (!strncmp(l, "zh", 2) || !strncmp(l, "ja", 2) || !strncmp(l, "ko", 2));
}

/* The language of each span: kana make it Japanese and Hangul Korean
 * (W3C jlreq/klreq: a kanji-only name beside kana is Japanese), so all
 * its Han characters come from the same face as its kana; otherwise the
 * paragraph's language. */
static void il_span_langs(il_t *f)
{
	for (int si = 0; si < f->nsp; si++) {
		fspan_t *s = &f->sp[si];
		if (!s->kh) {   /* what its text has (a memo keeps it) */
			int kana = 0, hangul = 0;
			for (int i = s->c0; i < s->c1 && f->maxcp >= 0x1100; i++) {
				uint32_t c = f->c[i].cp;
				kana |= (c >= 0x3040 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF);
				hangul |= (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0x1100 && c <= 0x11FF) ||
				          (c >= 0x3130 && c <= 0x318F);
			}
			s->kh = 1 | (kana ? 2 : 0) | (hangul ? 4 : 0);
		}
		int kana = s->kh & 2, hangul = s->kh & 4;
		s->lang = kana && !hangul ? "ja" : hangul && !kana ? "ko" : f->o->lang;
		if (s->s->lang && lang_is_cjk(s->s->lang))
			s->lang = s->s->lang;   /* the span says which */
		if (s->lang == f->o->lang && f->o->cjk && !lang_is_cjk(f->o->lang))
			s->lang = f->o->cjk;
	}
}

static int is_han_kana(uint32_t c)
{
	return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
	       (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
	       (c >= 0x20000 && c <= 0x3FFFF);   /* CJK Extensions B-H */
}

static int is_latin_alnum(uint32_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7);
}

/* Full-width punctuation whose ink is on the left half (closing) or on
 * the right half (opening) of its em. */
static int is_cjk_close(uint32_t c)
{
	return c == 0x3001 || c == 0x3002 || c == 0xFF0C || c == 0xFF0E || c == 0xFF09 ||
	       c == 0x300D || c == 0x300F || c == 0x3011 || c == 0x3015 || c == 0x3009 ||
	       c == 0x300B || c == 0x3017 || c == 0xFF3D || c == 0xFF5D;
}

static int is_cjk_open(uint32_t c)
{
	return c == 0xFF08 || c == 0x300C || c == 0x300E || c == 0x3010 || c == 0x3014 ||
	       c == 0x3008 || c == 0x300A || c == 0x3016 || c == 0xFF3B || c == 0xFF5B;
}

/* The half-width form of c as its face draws it (font_halt): 1 and the
 * blank it loses (*cut) and its ink's move (*dx), or 0. */
static int il_halt(const il_t *f, const fcp_t *c, int32_t *cut, int32_t *dx)
{
	const inline_span_t *s = f->sp[c->span].s;
	*cut = *dx = 0;
	return c->face >= 0 && s->chain && font_halt(s->chain, c->face, c->cp, s->size, cut, dx);
}

/* Marks that may lose the blank half of their em at a line start
 * (opening brackets and quotes) or at a line end (closing ones, commas,
 * full stops, and the colon, semicolon, ! and ? where the face sets them
 * to the left: zh-Hans). Quotes only when the face draws them full-width. */
/* All of them are in U+2018..U+201D, U+3001..U+3017 and U+FF01..U+FF5D. */
static int maybe_mark(uint32_t c)
{
	return c - 0x2018 <= 0x201D - 0x2018 || c - 0x3001 <= 0x3017 - 0x3001 ||
	       c - 0xFF01 <= 0xFF5D - 0xFF01;
}

static int is_line_start_mark(uint32_t c)
{
	return maybe_mark(c) && (is_cjk_open(c) || c == 0x201C || c == 0x2018);
}

static int is_line_end_mark(uint32_t c)
{
	return maybe_mark(c) &&
	       (is_cjk_close(c) || c == 0xFF1A || c == 0xFF1B || c == 0xFF01 || c == 0xFF1F ||
	        c == 0x201D || c == 0x2019);
}

/* W3C jlreq 3.1.5 and 3.1.7, clreq 3.1.6 (CSS Text 4 text-spacing-trim):
 * an opening mark at the start of a line is set half-width (its blank
 * left half dropped), a closing one at the end of a line may be (when
 * that lets the line fit). Which half is blank is the face's business:
 * its 'halt' feature, or its ink box (font_halt); a centred mark (zh-Hant,
 * a Japanese colon) keeps its em. Marks already halved beside another
 * mark keep their place. */
static void il_cjk_edges(il_t *f)
{
	if (f->maxcp < 0x2018)    /* no marks (the first: U+2018) */
		return;
	for (int i = 0; i < f->nc; i++) {
		fcp_t *c = &f->c[i];
		const inline_span_t *s = f->sp[c->span].s;
		int start = is_line_start_mark(c->cp), end = is_line_end_mark(c->cp);
		int32_t cut, dx, em = s->size;
		if ((!start && !end) || c->kind != K_CHAR || !c->draw || c->lv % 2 ||
		    !il_halt(f, c, &cut, &dx) || cut < em * 2 / 5)
			continue;
		if (start && dx <= -cut * 3 / 4)
			c->lead = cut;
		if (end && dx >= -cut / 4 && c->adv > em * 3 / 4)
			c->trail = cut;
	}
}

/* How much closer two full-width marks in a row come: the blank right of
 * a's ink and left of b's, at most half an em (jlreq 3.1.4: "）、" set
 * solid, "、「" with half an em between), as the faces' half-width forms
 * place the ink, so a centred zh-Hant "。" before "」" loses only its
 * quarter; half an em when neither face says. Nine tenths of it: a reader
 * (poppler) takes a glyph overlapping the one before by half an em or
 * more for a new line, and the difference does not show. */
static int32_t il_pair_cut(const il_t *f, const fcp_t *a, const fcp_t *b, int32_t em)
{
	int32_t ca, da, cb, db, blank = 0;
	int ha = il_halt(f, a, &ca, &da), hb = il_halt(f, b, &cb, &db);
	if (!ha && !hb)
		blank = em / 2;
	if (ha)
		blank += ca + da;   /* blank right of a's ink */
	if (hb)
		blank -= db;        /* blank left of b's ink */
	if (blank > em / 2)
		blank = em / 2;
	return blank * 9 / 10;
}

/* CJK spacing after shaping (W3C clreq 3.4, jlreq 3.1.2 and 3.8):
 *  - two full-width punctuation marks in a row, the first closing or the
 *    second opening ("）、", "。」", "、「"): they come closer by the blank
 *    between their inks, at most half an em (il_pair_cut);
 *  - a Han or kana character next to a Latin letter or digit with no
 *    space between ("在NVIDIA工作", "3年"): a quarter em between them, as
 *    glue where a line may break there (it vanishes at a line end), else
 *    added to the first one's advance.
 * A glyph whose place changed starts a new run (brk). */
static void il_cjk_spacing(il_t *f)
{
	if (f->maxcp < 0x2018)    /* no marks (from U+2018), no Han or kana */
		return;
	for (int i = 0; i + 1 < f->nc; i++) {
		fcp_t *a = &f->c[i], *b = &f->c[i + 1];
		if (a->kind != K_CHAR || b->kind != K_CHAR || a->face < 0 || b->face < 0 ||
		    !a->draw || !b->draw)
			continue;
		int32_t em = f->sp[a->span].s->size;
		/* the marks that may lose half an em at a line edge are the
		   ones that close up with a neighbouring mark (quotes only
		   when full-width: a's advance is checked below) */
		if ((is_line_end_mark(a->cp) && (is_line_end_mark(b->cp) || is_line_start_mark(b->cp))) ||
		    (is_line_start_mark(b->cp) && (is_line_start_mark(a->cp) || is_line_end_mark(a->cp)))) {
			int32_t cut = il_pair_cut(f, a, b, em);
			if (cut > 0 && a->adv > em * 3 / 4) {
				a->adv -= cut;
				b->brk = 1;
			}
		} else if ((is_han_kana(a->cp) && is_latin_alnum(b->cp)) ||
		           (is_latin_alnum(a->cp) && is_han_kana(b->cp))) {
			if (a->bk != BK_NONE) {
				a->cjkgap = 1;
			} else {
				a->adv += em / 4;
				b->brk = 1;
			}
		}
	}
}

/* il_shape's scratch, kept from one paragraph to the next like il_keep
 * (let go after a paragraph of over KEEP_MAX bytes of text). */
static struct {
	buf_t tmp;              /* a span's text as shaped */
	int *map;               /* its bytes -> code points */
	int mapcap;
	uint32_t *cut;          /* its chunks' ends */
	int cutcap;
	font_shaped_t sh;       /* its glyphs */
	font_ushaped_t u;       /* and at no size (for a memo) */
	int32_t *adv;           /* a kept span's advances at its size */
	int advcap;
} il_shape_keep;

/* sh = the glyphs u[0..n) at size. */
static void il_shape_at(font_shaped_t *sh, const font_uglyph_t *u, int n, int32_t size)
{
	if (n > sh->cap) {
		sh->cap = 2 * n;
		sh->g = xrealloc(sh->g, (size_t)sh->cap * sizeof(*sh->g));
	}
	font_uglyphs_at(u, n, size, sh->g);
	sh->n = n;
}

/* il_shape with the glyphs me kept (they depend only on what it keeps,
 * not on the sizes): placed at the spans' sizes, nothing shaped again. */
static int il_shape_kept(il_t *f, const ment_t *me)
{
	const char *p = me->shp;
	int count = f->o->count;
	for (int g = 0; g < me->nshp; g++) {
		mshape_t h;
		memcpy(&h, p, sizeof(h));
		p += sizeof(h);
		const font_uglyph_t *u = (const font_uglyph_t *)(const void *)p;
		p += sizeof(font_uglyph_t) * (size_t)h.n;
		const inline_span_t *s = f->sp[h.si].s;
		if (h.n > il_shape_keep.advcap) {
			il_shape_keep.advcap = 2 * h.n;
			il_shape_keep.adv = xrealloc(il_shape_keep.adv,
			                             (size_t)il_shape_keep.advcap * sizeof(int32_t));
		}
		int32_t *adv = il_shape_keep.adv;
		font_uglyphs_adv(u, h.n, s->size, adv);
		int last = il_track_last(f, h.si);
		for (int k = 0; k < h.n; k++, u++) {
			if (u->off == UINT32_MAX)
				continue;
			if (!u->cl) {   /* the code point, as il_shape_rec put it */
				il_place_one(f, s, (int)u->off, last, adv[k], u->face, u->synth, u->brk,
				             u->gid);
			} else if (u->cl != FONT_CL_GLYPH || !count) {
				il_place_cl(f, (int)u->off, u->cl, adv[k],
				            u->cl == FONT_CL_GLYPH ? font_uglyph_dy(u, s->size) : 0,
				            u->face, u->synth, u->gid);
			} else {
				/* counting: the cluster's width, not its glyphs (only
				   setting lines draws them: ls_cluster) */
				fcp_t *c = &f->c[u->off];
				if (c->cl == FONT_CL_START)
					c->adv = sat32((int64_t)c->adv + adv[k]);
			}
		}
	}
	return 0;
}

/* Keep span si's glyphs at no size in rec for me, each with the index of
 * its code point (map[off]; UINT32_MAX: none) instead of its offset. */
static void il_shape_rec(buf_t *rec, int si, size_t len, const int *map,
                         const font_ushaped_t *u)
{
	mshape_t h = {si, u->n};
	buf_add(rec, (const char *)&h, sizeof(h));
	size_t at = rec->len;
	buf_add(rec, (const char *)u->g, sizeof(font_uglyph_t) * (size_t)u->n);
	font_uglyph_t *g = (font_uglyph_t *)(void *)(rec->s + at);
	for (int k = 0; k < u->n; k++)
		g[k].off = g[k].off < len ? (uint32_t)map[g[k].off] : UINT32_MAX;
}

static int il_shape(il_t *f, ment_t *me)
{
	if (me && me->shp)
		return il_shape_kept(f, me);
	buf_t *tmp = &il_shape_keep.tmp;
	int **map = &il_shape_keep.map, *mapcap = &il_shape_keep.mapcap;
	uint32_t **cut = &il_shape_keep.cut;
	int *cutcap = &il_shape_keep.cutcap, rc = 0, ncut = 0;
	font_shaped_t *sh = &il_shape_keep.sh;
	buf_t *rec = me ? &f->o->memo->rec : NULL;
	int nrec = 0;
	if (rec)
		buf_reset(rec);
	for (int i = 0; i < f->nc && !rc;) {
		/* a span at a time, in chunks: one word and the spaces after
		   it (the font module caches shaped words; kerning never
		   crosses a space), or at most SHAPE_MAX code points of text
		   without spaces; a newline ends a chunk and is not shaped */
		int si = f->c[i].span, j = i;
		buf_reset(tmp);
		ncut = 0;
		while (j < f->nc && f->c[j].span == si) {
			int k = j;
			while (k < f->nc && f->c[k].span == si && f->c[k].kind != K_NL &&
			       k - j < SHAPE_MAX && !(k > j && f->c[k].kind != K_SPACE &&
			                              f->c[k - 1].kind == K_SPACE))
				k++;
			if (k > j) {
				il_shape_text(f, j, k, tmp, map, mapcap);
				if (ncut == *cutcap) {
					*cutcap = *cutcap ? 2 * *cutcap : 64;
					*cut = xrealloc(*cut, (size_t)*cutcap * sizeof(**cut));
				}
				(*cut)[ncut++] = (uint32_t)tmp->len;
			}
			j = k < f->nc && f->c[k].kind == K_NL ? k + 1 : k;
		}
		if (ncut) {
			rc = il_shape_span(f, si, tmp, *map, *cut, ncut, sh, me ? &il_shape_keep.u : NULL);
			if (me) {
				il_shape_rec(rec, si, tmp->len, *map, &il_shape_keep.u);
				nrec++;
			}
		}
		i = j;
	}
	if (me && !rc) {
		me->shp = arena_alloc(f->o->memo->a, rec->len + 1);
		if (rec->len)
			memcpy(me->shp, rec->s, rec->len);
		me->nshp = nrec;
		f->o->memo->bytes += rec->len;
	}
	if (tmp->cap > KEEP_MAX) {
		buf_done(tmp);
		free(*map);
		free(*cut);
		font_shaped_done(sh);
		font_ushaped_done(&il_shape_keep.u);
		free(il_shape_keep.adv);
		memset(&il_shape_keep, 0, sizeof(il_shape_keep));
	}
	return rc;
}

/* ---- 4: pieces too wide for the measure ---- */

static void il_warn_over(il_t *f, int a, int b)
{
	fspan_t *s = &f->sp[f->c[a].span];
	int end = a, k = 0;
	while (end < b && k < 24) {
		end++;
		k++;
	}
	int nbytes = f->c[end - 1].off + f->c[end - 1].len - f->c[a].off;
	if (s->warned_over)
		return;
	s->warned_over = 1;
	warn_at(f->e, f->o->file, s->s->line, s->s->col,
	        "line overflows: '%.*s%s' is wider than the measure", nbytes,
	        f->text.s + f->c[a].off, end < b ? "\xe2\x80\xa6" : "");
}

/* A nobreak span (a name in an author list) wider than the measure gets
 * its spaces back as breaks, said once: it wraps between its words rather
 * than run off the page. */
static int il_wide_nobreak(il_t *f, int32_t lw)
{
	int any = 0;
	for (int si = 0; si < f->nsp; si++) {
		fspan_t *s = &f->sp[si];
		if ((s->s->flags & (INLINE_NOBREAK | INLINE_URL)) != INLINE_NOBREAK)
			continue;
		int64_t w = 0;
		int spaces = 0;
		for (int k = s->c0; k < s->c1; k++) {
			const fcp_t *c = &f->c[k];
			if (c->kind == K_SPACE) {
				spaces++;
				w += c->face >= 0 ? c->adv : s->s->size / 4;
			} else {
				w += c->adv;
			}
		}
		if (w <= lw || !spaces)
			continue;
		for (int k = s->c0; k + 1 < s->c1; k++)
			if (f->c[k].kind == K_SPACE && f->c[k + 1].kind == K_CHAR)
				f->c[k].bk = BK_ALLOW;
		any = 1;
		if (s->warned_over)
			continue;
		s->warned_over = 1;
		const fcp_t *a = &f->c[s->c0], *b = &f->c[s->c1 - 1];
		int nb = b->off + b->len - a->off;
		warn_at(f->e, f->o->file, s->s->line, s->s->col,
		        "'%.*s%s' is wider than the measure: it wraps between its words",
		        nb > 40 ? 40 : nb, f->text.s + a->off, nb > 40 ? "\xe2\x80\xa6" : "");
	}
	return any;
}

static void il_emergency(il_t *f)
{
	int32_t lw = f->w1 < f->w2 ? f->w1 : f->w2;
	for (int i = 0; i < f->nc;) {
		int j = i;
		int64_t w = 0;
		if (f->c[i].kind != K_CHAR) {
			i++;
			continue;
		}
		while (j < f->nc && f->c[j].kind == K_CHAR && (j == i || f->c[j - 1].bk == BK_NONE))
			w += f->c[j++].adv;
		if (w > lw && j - i > 1) {
			int ri = 0;     /* regional indicators so far in a row: pairs are flags */
			for (int k = i; k + 1 < j; k++) {
				ri = is_ri(f->c[k].cp) ? ri + 1 : 0;
				if (ri % 2 == 1 && is_ri(f->c[k + 1].cp))
					continue;
				if (!is_extend(f->c[k + 1].cp) && f->c[k].cp != 0x200D &&
				    f->c[k + 1].cl != FONT_CL_CONT)
					f->c[k].bk = BK_EMERG;
			}
			il_warn_over(f, i, j);
		}
		i = j;
	}
}

/* ---- 5: items ---- */

static inline void il_item(il_t *f, int type, int32_t w, int32_t st, int32_t sh, int32_t pen,
                    int flagged, int c0, int c1)
{
	if (f->nit == f->capit) {
		f->capit = f->capit ? f->capit * 2 : 256;
		f->it = il_keep.it = xrealloc(f->it, (size_t)f->capit * sizeof(*f->it));
		f->aux = il_keep.aux = xrealloc(f->aux, (size_t)f->capit * sizeof(*f->aux));
		il_keep.capit = f->capit;
	}
	f->it[f->nit] = (para_item_t){type, w, st, sh, pen, flagged};
	f->aux[f->nit] = (faux_t){.c0 = c0, .c1 = c1};
	f->nit++;
}

static fspan_t *il_hyinfo(il_t *f, int si)
{
	fspan_t *s = &f->sp[si];
	if (!s->have_hy && s->s->chain) {
		s->hyw = font_width(s->s->chain, s->s->style, s->s->size, f->o->lang, "-", 1);
		s->hyface = font_face_for(s->s->chain, s->s->style, f->o->lang, '-');
		s->hysynth = s->hyface >= 0 ? font_face_synth(s->s->chain, s->s->style, s->hyface) : 0;
	} else if (!s->have_hy) {
		s->hyface = -1;
	}
	s->have_hy = 1;
	return s;
}

/* Ragged setting: a break with ragged stretch R that vanishes when not
 * taken (Knuth & Plass, "Breaking paragraphs into lines", ragged right). */
static void il_ragged_break(il_t *f, int32_t R, int32_t pen, int32_t pw, int flagged,
                            int32_t space, int cbefore, int cspace)
{
	il_item(f, PARA_PENALTY, 0, 0, 0, PARA_INF, 0, -1, -1);
	il_item(f, PARA_GLUE, 0, R, 0, 0, 0, -1, -1);
	il_item(f, PARA_PENALTY, pw, 0, 0, pen, flagged, cbefore, cbefore);
	il_item(f, PARA_GLUE, space, -R, 0, 0, 0, cspace, cspace);
}

/* The glue for spaces c[ci, cj): one space when justified (a typed double
 * space is not a wider gap), all of them when ragged (a separator such as
 * "   ·   " keeps its spaces). trail: the half-width blank of the mark
 * before the spaces, given back mid-line (a line ending here drops it). */
static void il_glue(il_t *f, int ci, int cj, int breakable, int32_t trail)
{
	const fcp_t *c = &f->c[ci];
	const inline_span_t *s = f->sp[c->span].s;
	int32_t w = c->face >= 0 ? c->adv : s->size / 4;
	for (int k = ci + 1; f->ragged && k < cj; k++)
		w = sat32((int64_t)w + (f->c[k].face >= 0 ? f->c[k].adv : f->sp[f->c[k].span].s->size / 4));
	if (!breakable) {
		il_item(f, PARA_PENALTY, 0, 0, 0, PARA_INF, 0, -1, -1);
		il_item(f, PARA_GLUE, w, f->ragged ? 0 : (int32_t)((int64_t)w * f->o->stretch_pm / 1000),
		        f->ragged ? 0 : (int32_t)((int64_t)w * f->o->shrink_pm / 1000), 0, 0, ci, ci);
	} else if (f->ragged) {
		il_ragged_break(f, s->size * 3 / 2, 0, 0, 0, w + trail, ci, ci);
		f->aux[f->nit - 2].trim = trail;
	} else {
		il_item(f, PARA_GLUE, w + trail, (int32_t)((int64_t)w * f->o->stretch_pm / 1000),
		        (int32_t)((int64_t)w * f->o->shrink_pm / 1000), 0, 0, ci, ci);
		f->aux[f->nit - 1].trim = trail;
	}
}

/* A break between c[ci] and c[ci + 1] with no space: its kind. */
enum { NB_PENALTY, NB_CJK, NB_CJKGAP, NB_SYL };
static int il_nospace_kind(const il_t *f, int ci)
{
	const fcp_t *c = &f->c[ci];
	if (c->bk == BK_SYL || c->bk == BK_SYLIN)
		return NB_SYL;
	if (c->bk != BK_ALLOW || is_dash(c->cp))
		return NB_PENALTY;
	if (c->cjkgap)
		return NB_CJKGAP;
	/* between two Thai words (il_thai_words) as between ideographs: no
	   penalty, and a little stretch, for Thai justifies between its
	   words, which have no spaces */
	/* and after a Tibetan tsheg (U+0F0B, between syllables): Tibetan
	   justifies between its syllables, and a line of them with one
	   space after a shad stretched that space alone, ten times past
	   its limit */
	return is_cjk(c->cp) || is_cjk(f->c[ci + 1].cp) ||
	       (thai_is(c->cp) && thai_is(f->c[ci + 1].cp)) || c->cp == 0x0F0B ? NB_CJK
	                                                                        : NB_PENALTY;
}

/* The break itself. trail: the half-width blank of the mark before it
 * (NB_CJK only), which the line may drop when it ends here. */
static void il_nospace_break(il_t *f, int ci, int32_t trail)
{
	const fcp_t *c = &f->c[ci];
	const inline_span_t *s = f->sp[c->span].s;
	int32_t pen = PEN_PLAIN, pw = 0;
	int flagged = 0, kind = il_nospace_kind(f, ci);
	switch (c->bk) {
	case BK_HYPH:
	case BK_HYPHC:
		pen = c->bk == BK_HYPH ? PEN_HYPHEN : PEN_HYPHEN_CAP;
		pw = il_hyinfo(f, c->span)->hyw;
		flagged = 1;
		break;
	case BK_URL:
		pen = PEN_URL;
		break;
	case BK_EMERG:
		pen = PEN_EMERG;
		break;
	case BK_KEEP:
		pen = PEN_KEEP;
		break;
	case BK_SYL:
		pen = f->ragged ? PEN_KEEP : PEN_SYL;
		break;
	case BK_SYLIN:
		if (f->ragged)
			return;
		pen = PARA_INF;
		break;
	default:
		if (is_dash(c->cp)) {
			pen = PEN_HYPHEN;
			flagged = 1;
		} else if (kind == NB_CJK) {
			pen = 0;
		}
	}
	if (kind == NB_CJKGAP) {
		/* CJK-Latin: a quarter em that may stretch a little and vanishes
		   at a line break */
		int32_t w = s->size / 4;
		if (f->ragged)
			il_ragged_break(f, s->size * 3 / 2, 0, 0, 0, w, -1, -1);
		else
			il_item(f, PARA_GLUE, w, s->size / 8, s->size / 8, 0, 0, -1, -1);
	} else if (f->ragged) {
		il_ragged_break(f, s->size * 3 / 2, pen, pw, flagged, trail, ci, -1);
		f->aux[f->nit - 2].trim = trail;
	} else if (kind == NB_CJK && trail > 0) {
		/* two ways to end a line here: the mark half-width (a line
		   that would not fit otherwise) or at full width (the second
		   penalty takes its blank back; para drops a start whose line
		   overflows, so the narrower break comes first); mid-line the
		   glue gives the blank back. A penalty of 1 on the half-width
		   end: of two lines equally good, the one with less stretch */
		il_item(f, PARA_PENALTY, 0, 0, 0, 1, 0, ci, ci);
		f->aux[f->nit - 1].trim = trail;
		il_item(f, PARA_PENALTY, trail, 0, 0, 0, 0, ci, ci);
		il_item(f, PARA_GLUE, trail, s->size / 6, 0, 0, 0, -1, -1);
	} else if (kind == NB_CJK) {
		il_item(f, PARA_GLUE, 0, s->size / 6, 0, 0, 0, -1, -1);
	} else if (kind == NB_SYL) {
		il_item(f, PARA_PENALTY, 0, 0, 0, pen, 0, ci, ci);
		il_item(f, PARA_GLUE, 0, s->size / (f->sylwide ? 6 : 12), 0, 0, 0, -1, -1);
		f->syl = 1;
	} else {
		il_item(f, PARA_PENALTY, pw, 0, 0, pen, flagged, ci, ci);
	}
}

static void il_forced(il_t *f)
{
	il_item(f, PARA_PENALTY, 0, 0, 0, PARA_INF, 0, -1, -1);
	il_item(f, PARA_GLUE, 0, PARA_FIL, 0, 0, 0, -1, -1);
	il_item(f, PARA_PENALTY, 0, 0, 0, -PARA_INF, 0, -1, -1);
}

/* The box waiting for its trail (spaces followed it, then no word): it
 * keeps its full width. */
static void il_trail_cancel(il_t *f)
{
	if (f->trail_box < 0)
		return;
	f->it[f->trail_box].w = add32(f->it[f->trail_box].w, f->aux[f->trail_box].cut);
	f->aux[f->trail_box].cut = 0;
	f->trail_box = -1;
}

/* A box for the word c[i..j). Its first glyph's lead comes off its width
 * when a break precedes it: then a glue of the lead's width stands before
 * it (mid-line it gives the lead back; at a line start it is discarded).
 * Its last glyph's trail comes off when a break that can give it back
 * follows (the spaces after it, or a CJK break). */
static void il_box(il_t *f, int i, int j, int64_t w)
{
	const fcp_t *a = &f->c[i], *z = &f->c[j - 1];
	int32_t lead = 0, cut = 0;
	if (a->lead > 0 && (f->nit == 0 || f->it[f->nit - 1].type != PARA_BOX)) {
		lead = a->lead;
		if (f->nit > 0)
			il_item(f, PARA_GLUE, lead, 0, 0, 0, 0, -2, -2);
	}
	if (z->trail > 0 && j < f->nc &&
	    ((f->c[j].kind == K_CHAR && il_nospace_kind(f, j - 1) == NB_CJK) ||
	     (f->c[j].kind == K_SPACE && z->bk == BK_NONE)))
		cut = z->trail;
	il_item(f, PARA_BOX, sat32(w - lead - cut), 0, 0, 0, 0, i, j);
	f->aux[f->nit - 1].lead = lead;
	f->aux[f->nit - 1].cut = cut;
	f->trail_box = cut && f->c[j].kind == K_SPACE ? f->nit - 1 : -1;
}

static void il_items(il_t *f)
{
	int space = -1, spaceend = -1, spacebrk = 0, boxes = 0;
	f->trail_box = -1;
	for (int i = 0; i < f->nc;) {
		fcp_t *c = &f->c[i];
		if (c->kind == K_SPACE) {
			int j = i;
			while (j < f->nc && f->c[j].kind == K_SPACE)
				j++;
			if (boxes && space < 0) {
				space = i;
				spaceend = j;
				spacebrk = f->c[j - 1].bk != BK_NONE;
			}
			i = j;
			continue;
		}
		if (c->kind == K_NL) {
			int j = i;   /* trailing newlines make no empty lines */
			while (j < f->nc && f->c[j].kind != K_CHAR)
				j++;
			il_trail_cancel(f);
			if (j < f->nc)
				il_forced(f);
			space = -1;
			i++;
			continue;
		}
		if (space >= 0) {
			int32_t trail = 0;
			if (f->trail_box >= 0 && spacebrk)
				trail = f->aux[f->trail_box].cut;
			else
				il_trail_cancel(f);
			f->trail_box = -1;
			il_glue(f, space, spaceend, spacebrk, trail);
		}
		space = -1;
		int j = i + 1, nc = f->nc;
		int64_t w = c->adv;     /* c is a character: K_SPACE and K_NL went above */
		for (const fcp_t *q = c + 1; j < nc && q->kind == K_CHAR && q->span == c->span &&
		                             q[-1].bk == BK_NONE; q++, j++)
			w += q->adv;
		il_box(f, i, j, w);
		boxes++;
		if (f->c[j - 1].bk != BK_NONE && j < f->nc && f->c[j].kind == K_CHAR)
			il_nospace_break(f, j - 1, f->aux[f->nit - 1].cut);
		i = j;
	}
	il_trail_cancel(f);
	if (boxes)
		il_forced(f);
	else
		f->nit = 0;       /* nothing to set: no lines */
}

/* ---- 6: lines -> runs ---- */

typedef struct lset {       /* one line being turned into runs */
	page_run_t *runs;
	int nruns, caprun;
	page_link_t *links;
	size_t (*lsrc)[2];      /* each link's source text: bytes [0], [1] of f->text */
	int nlinks, caplink;
	buf_t rt;               /* text of the open run (drawn order for RTL: reversed at close) */
	buf_t lt;               /* its logical text (the source bytes) */
	uint8_t *rlv;           /* level per run */
	uint8_t *glv;           /* level of the space after each run */
	uint8_t lv;             /* level of the open run */
	uint8_t gap_lv;         /* level of the space that closes it */
	int open;
	page_run_t cur;
	const char *url;
	int32_t lx0, lx1;
	size_t lo0, lo1;        /* the open link's source bytes (logical order) */
	inline_frame_t *frames;
	int nframes, capframe;
	int fspan;              /* 1 + the frame id of the open frame, 0: none */
	int runframe;           /* the same for the open run */
	int32_t fx0, fx1, fsize;
	int32_t asc, desc;
	int metrics;
	uint32_t *goff;         /* feature glyphs of the open run: byte offset in rt */
	uint16_t *gval;         /* and glyph id */
	int ng, capg;
	int sealed;             /* the open run's last glyph has no tracking after it */
	int last_si;            /* the span of the open run's last glyph, or -1 */
	int met_si;             /* a span whose metrics the line has, or -1 */
	/* The open word (page_run_t.adv): the right-to-left clusters of one
	   glyph that read as it (no /ActualText), merged as they close into
	   runs[wrun], the line's last run, while they follow each other on
	   the line in one style (merge: the paragraph's runs are put right
	   to left on its page, lay_place) */
	int merge;
	int wrun;               /* or -1 */
	buf_t wt;               /* its glyphs' bytes */
	int32_t *wadv;          /* and advances */
	int nwadv, capwadv;
	const char *wurl;       /* its link (every glyph's) */
	int wframe;             /* its frame (runframe) */
	int fast;               /* ls_word_fast may add glyphs to it */
	int wlast;              /* its last glyph came from ls_word_fast: it
	                           stands for an open cluster (ls_glue) */
	int gr;                 /* the open run draws clusters: its glyphs */
	page_glyph_t *pg;
	int npg, cappg;
	int pgpend;             /* bytes of a cluster without glyphs, read by the next */
} lset_t;

/* A mark that continues its letter's RTL cluster: Bidi_Class NSM
 * (general category Mn or Me, uni_is_nsm: Hebrew points, Arabic harakat,
 * the marks of Syriac, Thaana, NKo, Samaritan, Mandaic, Arabic Extended,
 * the Hebrew varika U+FB1E, and beyond the BMP those of Kharoshthi,
 * Hanifi Rohingya, Yezidi, Sogdian, Old Uyghur, Mende Kikakui, Adlam),
 * or what else continues a grapheme (is_extend: a joiner). */
static inline int is_rtl_mark(uint32_t c)
{
	/* at once for the letters and presentation forms that most RTL
	   glyphs are (none is a mark) */
	if (c < 0x300 || (c >= 0x5D0 && c <= 0x5EA) || (c >= 0x620 && c <= 0x64A) ||
	    (c >= 0xFB50 && c <= 0xFDFF) || (c >= 0xFE30 && c <= 0xFEFF))
		return 0;
	return is_extend(c) || uni_is_nsm(c);
}

static char *reverse_cps(arena_t *a, const char *s, size_t n)
{
	char *t = arena_alloc(a, n + 1);
	size_t k = n;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(s + i, n - i, &cp);
		l = l > 0 ? l : 1;
		k -= (size_t)l;
		memcpy(t + k, s + i, (size_t)l);
		i += (size_t)l;
	}
	return t;
}

/* The open RTL cluster is one glyph whose reading (its code point, or
 * the letter of a presentation form: uni_pres_letter) is its source text,
 * one code point. */
static int reads_as_drawn(const lset_t *L)
{
	uint32_t d, s;
	int dl = utf8_decode(L->rt.s ? L->rt.s : "", L->rt.len, &d);
	int sl = utf8_decode(L->lt.s ? L->lt.s : "", L->lt.len, &s);
	return dl > 0 && sl > 0 && (size_t)dl == L->rt.len && (size_t)sl == L->lt.len &&
	       uni_pres_letter(d) == s;
}

/* The open word is done: its text (and advances, when it has more than
 * one glyph) into the arena. */
static void ls_word_end(il_t *f, lset_t *L)
{
	if (L->wrun < 0)
		return;
	page_run_t *r = &L->runs[L->wrun];
	r->text = arena_strndup(f->a, L->wt.s, L->wt.len);
	r->len = (int)L->wt.len;
	if (L->nwadv > 1) {
		int32_t *a = arena_alloc(f->a, sizeof(int32_t) * (size_t)L->nwadv);
		memcpy(a, L->wadv, sizeof(int32_t) * (size_t)L->nwadv);
		r->adv = a;
	}
	L->wrun = -1;
	L->wlast = 0;
}

/* The open run, an RTL cluster of one glyph that reads as it, continues
 * the open word: it is the glyph after the word's last in the pen's
 * (logical) order, in the word's style, level, link and frame, and the
 * space between is at the word's level. Then it goes into the word. */
static int ls_word_add(il_t *f, lset_t *L)
{
	if (L->wrun < 0)
		return 0;
	const char *url = L->last_si >= 0 ? f->sp[L->last_si].s->url : NULL;
	page_run_t *w = &L->runs[L->wrun], *c = &L->cur;
	if (!(w->face == c->face && w->synth == c->synth && w->size == c->size &&
	      w->color == c->color && w->lang == c->lang && w->track == c->track &&
	      L->rlv[L->wrun] == L->lv && L->glv[L->wrun] == L->lv && L->wframe == L->runframe &&
	      L->wurl == url && (int64_t)w->x + w->w == c->x && L->wt.len + L->rt.len <= RUN_MAX))
		return 0;
	buf_add(&L->wt, L->rt.s, L->rt.len);
	if (L->nwadv == L->capwadv) {
		L->capwadv = L->capwadv ? 2 * L->capwadv : 64;
		L->wadv = xrealloc(L->wadv, sizeof(int32_t) * (size_t)L->capwadv);
	}
	L->wadv[L->nwadv++] = c->w;
	w->w = sat32((int64_t)w->w + c->w);
	L->glv[L->wrun] = L->gap_lv;
	return 1;
}

static void ls_close(il_t *f, lset_t *L, int trailing_space)
{
	if (!L->open)
		return;
	/* an RTL cluster that reads as its one glyph; in a word (see
	   ls_word_add) when it is as wide as the pen moves */
	int asis = L->lv % 2 && !L->cur.actual && reads_as_drawn(L);
	int word = asis && L->merge && L->cur.w > 0;
	if (word && ls_word_add(f, L))
		goto done;
	ls_word_end(f, L);
	if (L->nruns == L->caprun) {
		L->caprun = L->caprun ? L->caprun * 2 : 16;
		L->runs = xrealloc(L->runs, (size_t)L->caprun * sizeof(*L->runs));
		L->rlv = xrealloc(L->rlv, (size_t)L->caprun);
		L->glv = xrealloc(L->glv, (size_t)L->caprun);
	}
	if (L->lv % 2) {
		/* An RTL run is one cluster (a letter and its marks; a lam-alef
		   ligature), put in its visual place by ls_visual: the PDF draws
		   a line's clusters in the page's order, in one TJ array, and
		   readers order RTL glyphs by position. A cluster of one glyph
		   that reads as its one source letter (the letter itself, or its
		   joined form: the PDF's ToUnicode maps a presentation form to
		   its letter) needs nothing else. Any other (marks, a lam-alef,
		   a mirrored bracket) has its source text as /ActualText, so the
		   source letters are read, not the glyphs drawn; reversed,
		   because readers (poppler) share a run's width among its
		   characters and read RTL characters right to left by
		   position. */
		if (word) {     /* a new word: its text when it is done */
			L->wrun = L->nruns;
			buf_reset(&L->wt);
			buf_add(&L->wt, L->rt.s, L->rt.len);
			L->nwadv = 0;
			if (!L->capwadv) {
				L->capwadv = 64;
				L->wadv = xrealloc(L->wadv, sizeof(int32_t) * (size_t)L->capwadv);
			}
			L->wadv[L->nwadv++] = L->cur.w;
			L->wurl = L->last_si >= 0 ? f->sp[L->last_si].s->url : NULL;
			L->wframe = L->runframe;
		} else {
			L->cur.text = arena_strndup(f->a, L->rt.s ? L->rt.s : "", L->rt.len);
			L->cur.len = (int)L->rt.len;
		}
		if (!asis) {
			L->cur.actual = reverse_cps(f->a, L->lt.s, L->lt.len);
			L->cur.actual_len = (int)L->lt.len;
		}
	} else if (L->gr) {
		/* clusters: their glyphs, and their text to read (ended by
		   the space after it, the face's, as other runs are) */
		if (trailing_space && L->npg < L->cappg) {
			L->pg[L->npg++] = (page_glyph_t){.x = L->cur.w, .n = 1, .pen = L->cur.w};
			buf_putc(&L->rt, ' ');
		}
		L->cur.text = arena_strndup(f->a, L->rt.s ? L->rt.s : "", L->rt.len);
		L->cur.len = (int)L->rt.len;
		for (int i = L->npg - 1; L->pgpend && i >= 0; i--)
			if (L->pg[i].n) {   /* a cluster without glyphs reads with the one before */
				L->pg[i].n = (uint16_t)(L->pg[i].n + L->pgpend);
				L->pgpend = 0;
			}
		L->pgpend = 0;
		size_t gb = sizeof(page_glyph_t) * (size_t)(L->npg ? L->npg : 1);
		page_glyph_t *g = arena_alloc(f->a, gb);
		if (L->npg)
			memcpy(g, L->pg, sizeof(page_glyph_t) * (size_t)L->npg);
		L->cur.glyphs = g;
		L->cur.nglyphs = L->npg;
		L->gr = 0;
		L->npg = 0;
	} else {
		if (trailing_space)
			buf_putc(&L->rt, ' ');
		L->cur.text = arena_strndup(f->a, L->rt.s ? L->rt.s : "", L->rt.len);
		L->cur.len = (int)L->rt.len;
		if (L->ng) {   /* one glyph id per code point, 0 for cmap glyphs */
			int n = 0;
			for (size_t k = 0; k < L->rt.len; n++) {
				uint32_t cp;
				int l = utf8_decode(L->rt.s + k, L->rt.len - k, &cp);
				k += l > 0 ? (size_t)l : 1;
			}
			uint16_t *g = arena_alloc(f->a, sizeof(uint16_t) * (size_t)(n ? n : 1));
			for (size_t k = 0, j = 0, q = 0; k < L->rt.len; j++) {
				uint32_t cp;
				if (q < (size_t)L->ng && L->goff[q] == k)
					g[j] = L->gval[q++];
				int l = utf8_decode(L->rt.s + k, L->rt.len - k, &cp);
				k += l > 0 ? (size_t)l : 1;
			}
			L->cur.gids = g;
		}
	}
	L->rlv[L->nruns] = L->lv;
	L->glv[L->nruns] = L->gap_lv;
	L->runs[L->nruns++] = L->cur;
done:
	L->ng = 0;
	L->sealed = 0;
	L->last_si = -1;
	L->open = 0;
	buf_reset(&L->rt);
	buf_reset(&L->lt);
}

/* Glyphs of bytes t[0..n) of the open link were drawn: when they are
 * source text (not a drawn hyphen) of a span that reads as text (not an
 * icon), the link's text (its source, in logical order, whatever order
 * bidi draws it in) reaches over them. */
static void ls_link_src(const il_t *f, lset_t *L, const char *t, size_t n, int art)
{
	if (art || t < f->text.s || t >= f->text.s + f->text.len)
		return;
	size_t o = (size_t)(t - f->text.s);
	L->lo0 = o < L->lo0 ? o : L->lo0;
	L->lo1 = o + n > L->lo1 ? o + n : L->lo1;
}

static void ls_link_open(lset_t *L, const char *url, int32_t x0, int32_t x1)
{
	L->url = url;
	L->lx0 = x0;
	L->lx1 = x1;
	L->lo0 = SIZE_MAX;
	L->lo1 = 0;
}

static void ls_link_flush(lset_t *L)
{
	if (!L->url)
		return;
	if (L->nlinks == L->caplink) {
		L->caplink = L->caplink ? L->caplink * 2 : 4;
		L->links = xrealloc(L->links, (size_t)L->caplink * sizeof(*L->links));
		L->lsrc = xrealloc(L->lsrc, (size_t)L->caplink * sizeof(*L->lsrc));
	}
	L->lsrc[L->nlinks][0] = L->lo1 > L->lo0 ? L->lo0 : 0;
	L->lsrc[L->nlinks][1] = L->lo1 > L->lo0 ? L->lo1 : 0;
	L->links[L->nlinks++] = (page_link_t){L->lx0, 0, L->lx1 - L->lx0, 0, L->url};
	L->url = NULL;
}

static void ls_frame_flush(lset_t *L)
{
	if (!L->fspan)
		return;
	if (L->nframes == L->capframe) {
		L->capframe = L->capframe ? L->capframe * 2 : 4;
		L->frames = xrealloc(L->frames, (size_t)L->capframe * sizeof(*L->frames));
	}
	L->frames[L->nframes++] = (inline_frame_t){L->fx0, L->fx1 - L->fx0, L->fsize};
	L->fspan = 0;
}

static void ls_metrics(il_t *f, lset_t *L, int si)
{
	fspan_t *s = &f->sp[si];
	if (L->metrics && L->met_si == si)
		return;
	L->met_si = si;
	if (!s->have_met) {
		if (s->s->chain)
			font_metrics(s->s->chain, s->s->style, s->s->size, &s->asc, &s->desc);
		s->have_met = 1;
	}
	if (!L->metrics || s->asc > L->asc)
		L->asc = s->asc;
	if (!L->metrics || s->desc < L->desc)
		L->desc = s->desc;
	L->metrics = 1;
}

/* Draw one glyph (bytes t[0..n), source bytes src[0..sn)) of span si at
 * x, at bidi level lv. */
static void ls_glyph(il_t *f, lset_t *L, int si, int face, int synth, int brk,
                     const char *t, int n, const char *src, int sn, int lv, int32_t x,
                     int32_t adv, const fcp_t *c)
{
	const inline_span_t *s = f->sp[si].s;
	int art = (s->flags & INLINE_ARTIFACT) != 0;
	int frame = s->flags & INLINE_FRAME ? s->frame + 1 : 0;
	uint32_t cp0 = 0;
	if (lv % 2) /* an RTL cluster is a run of its own (see ls_close) */
		brk = !(utf8_decode(t, (size_t)n, &cp0) > 0 && is_rtl_mark(cp0));
	if (!L->open || brk || L->cur.face != face || L->cur.synth != synth ||
	    L->cur.size != s->size || L->cur.color != s->color || L->lv != lv || L->cur.lang != s->lang ||
	    (L->cur.actual != NULL) != art || L->runframe != frame ||
	    L->rt.len + (size_t)n > RUN_MAX || L->cur.track != s->track || L->sealed) {
		ls_close(f, L, 0);
		L->wlast = 0;
		L->runframe = frame; /* a frame holds whole runs */
		L->cur = (page_run_t){.x = x, .size = s->size, .face = face, .synth = synth,
		                      .color = s->color, .lang = s->lang,
		                      .actual = art ? "" : NULL, .track = s->track};
		L->lv = L->gap_lv = (uint8_t)lv;
		L->open = 1;
		L->gr = 0;
		L->npg = 0;
		L->pgpend = 0;
	}
	if (c && c->gid && !(lv % 2)) {
		if (L->ng == L->capg) {
			L->capg = L->capg ? 2 * L->capg : 16;
			L->goff = xrealloc(L->goff, sizeof(uint32_t) * (size_t)L->capg);
			L->gval = xrealloc(L->gval, sizeof(uint16_t) * (size_t)L->capg);
		}
		L->goff[L->ng] = (uint32_t)L->rt.len;
		L->gval[L->ng++] = c->gid;
	}
	/* Tc would add the tracking after this glyph too: the next glyph
	   starts a run of its own */
	L->sealed = s->track && !(c && c->trk);
	L->last_si = si;
	buf_add(&L->rt, t, (size_t)n);
	if (lv % 2)   /* the logical text is only read for RTL runs */
		buf_add(&L->lt, src, (size_t)sn);
	L->cur.w = sat32((int64_t)x + adv - L->cur.x);
	ls_metrics(f, L, si);
	if (s->url && L->url && !strcmp(s->url, L->url)) {
		L->lx1 = add32(x, adv);
		ls_link_src(f, L, src, (size_t)sn, art);
	} else {
		ls_link_flush(L);
		if (s->url) {
			ls_link_open(L, s->url, x, add32(x, adv));
			ls_link_src(f, L, src, (size_t)sn, art);
		}
	}
	if (!(s->flags & INLINE_FRAME)) {
		ls_frame_flush(L);
	} else if (L->fspan == s->frame + 1) {
		L->fx1 = x + adv;
	} else {
		ls_frame_flush(L);
		L->fspan = s->frame + 1;
		L->fx0 = x;
		L->fx1 = x + adv;
		L->fsize = s->size;
	}
}

/* Draw the cluster that starts at code point k (FONT_CL_START) at x: its
 * glyphs go on the open run when that draws clusters in the same state
 * and ends at x, else they start one (untracked: clusters are set solid).
 * The cluster's first glyph reads as its text, the others as nothing. */
static void ls_cluster(il_t *f, lset_t *L, int k, int32_t x)
{
	const fcp_t *c = &f->c[k];
	int e = k + 1;
	while (e < f->nc && f->c[e].cl == FONT_CL_CONT)
		e++;
	int n = f->c[e - 1].off + f->c[e - 1].len - c->off;
	int brk = !(L->open && L->gr && add32(L->cur.x, L->cur.w) == x);
	ls_glyph(f, L, c->span, c->face, c->synth, brk, f->text.s + c->off, n, f->text.s + c->off,
	         n, c->lv, x, c->adv, c);
	if (!L->gr) {   /* a new run */
		L->gr = 1;
		L->cur.track = 0;
		L->sealed = 0;
	}
	if (L->npg + c->ncg + 1 > L->cappg) {   /* + 1: room for a space */
		L->cappg = 2 * (L->npg + c->ncg) + 16;
		L->pg = xrealloc(L->pg, (size_t)L->cappg * sizeof(*L->pg));
	}
	int32_t dx = x - L->cur.x;
	for (int i = 0; i < c->ncg; i++) {
		page_glyph_t g = f->cg[f->cgi[k] + i];
		g.x = add32(g.x, dx);
		g.n = 0;
		if (i == 0) {
			g.n = (uint16_t)(n + L->pgpend);
			g.pen = dx;
			g.adv = c->adv;
			L->pgpend = 0;
		}
		L->pg[L->npg++] = g;
	}
	if (!c->ncg)
		L->pgpend += n;
}

/* Spans a and b draw alike: a glyph of b may follow one of a in a run as
 * ls_glyph would leave it (same size, colour, language, link, artifact
 * or not; neither tracked nor framed), and the line's ascent and descent
 * stay what a's gave it (same chain, style and size: font_metrics). An
 * author list's names and the commas between them. */
static int ls_like(const fspan_t *a, const fspan_t *b)
{
	const inline_span_t *x = a->s, *y = b->s;
	return a->plain && b->plain && x->chain == y->chain && x->style == y->style &&
	       x->size == y->size && x->color == y->color && x->lang == y->lang &&
	       x->url == y->url && !((x->flags ^ y->flags) & INLINE_ARTIFACT);
}

/* Can c (drawn) go on the open run as ls_glyph would put it there, with
 * nothing to do but add its bytes and its width (and, from another span
 * that draws alike, become the run's last span)? The common case: the
 * glyph before it came from the same span (so size, colour, language,
 * tracking and frame agree), same face, no run break, left to right,
 * plain text; its span (s) has no tracking (so the run is not sealed)
 * and no frame, and the open link, if any, is its own. */
static inline int ls_plain(const il_t *f, const lset_t *L, const fcp_t *c, size_t pend)
{
	const fspan_t *s = &f->sp[c->span];
	return !(c->brk | c->shaped | c->gid | (c->lv & 1)) &&
	       c->face == L->cur.face && c->synth == L->cur.synth && c->lv == L->lv && L->open &&
	       s->plain && (!s->s->url || L->url == s->s->url) &&
	       L->rt.len + pend + c->len <= RUN_MAX &&
	       (c->span == L->last_si || (L->last_si >= 0 && ls_like(&f->sp[L->last_si], s)));
}

/* The bits of fcp_t.key that two glyphs of one run share: all but len's. */
static uint64_t key_mask(void)
{
	fcp_t m = {0};
	m.face = -1;
	m.synth = m.draw = m.brk = m.lv = m.shaped = 0xFF;
	return m.key;
}

/* The fast way of ls_glyph and ls_close for the glyphs inside a word: c
 * (drawn, right to left, at x) is a cluster of its own (not a mark, and
 * the code point after it, in the box, starts a cluster of its own), it
 * reads as its glyph, and it continues the open word as ls_word_add
 * would find when ls_close closed it, in a span without tracking, frame
 * or link, none of them open: then it is added to the word at once,
 * leaving what ls_glyph would (the cluster, merged, stands for the open
 * run: wlast). 0: ls_glyph must. */
static int ls_word_fast(il_t *f, lset_t *L, const fcp_t *c, int32_t x)
{
	const fspan_t *s = &f->sp[c->span];
	const inline_span_t *ss = s->s;
	if (L->open || L->wrun < 0 || !s->plain || ss->url || L->url || L->fspan ||
	    (ss->flags & INLINE_ARTIFACT) || c->adv <= 0 || c->gid || is_rtl_mark(c->cp))
		return 0;
	const fcp_t *n = c + 1;
	if (!n->draw || n->face < 0 || is_rtl_mark(n->cp))
		return 0;
	page_run_t *w = &L->runs[L->wrun];
	if (w->face != c->face || w->synth != c->synth || w->size != ss->size ||
	    w->color != ss->color || w->lang != ss->lang || w->track != ss->track ||
	    L->rlv[L->wrun] != c->lv || L->glv[L->wrun] != c->lv || L->wframe || L->wurl ||
	    (int64_t)w->x + w->w != x)
		return 0;
	char u[4];
	const char *t = f->text.s + c->off;
	int tl = c->len;
	uint32_t src = c->cp;
	if (c->shaped) {
		if (utf8_decode(t, (size_t)tl, &src) != tl)
			return 0;
		tl = utf8_encode(c->cp, u);
		t = u;
	}
	if (uni_pres_letter(c->cp) != src || L->wt.len + (size_t)tl > RUN_MAX)
		return 0;
	buf_add(&L->wt, t, (size_t)tl);
	if (L->nwadv == L->capwadv) {
		L->capwadv = L->capwadv ? 2 * L->capwadv : 64;
		L->wadv = xrealloc(L->wadv, sizeof(int32_t) * (size_t)L->capwadv);
	}
	L->wadv[L->nwadv++] = c->adv;
	w->w = sat32((int64_t)w->w + c->adv);
	L->lv = L->gap_lv = c->lv;
	L->wlast = 1;
	ls_metrics(f, L, c->span);
	return 1;
}

static int32_t ls_box(il_t *f, lset_t *L, const faux_t *ax, int32_t x)
{
	int32_t p0 = 0;
	size_t pend = 0;        /* bytes f->text.s[p0..) of plain glyphs not yet in L->rt */
	for (int k = ax->c0; k < ax->c1; k++) {
		const fcp_t *c = &f->c[k];
		if (c->face >= 0 && c->draw && ls_plain(f, L, c, pend)) {
			/* c and the glyphs after it in the box (one span: its bytes
			   follow c's) for as long as they stay plain */
			int32_t xl, al;
			const fcp_t *e = f->c + ax->c1;
			/* ls_plain: c has the run's face, style and level, is
			   drawn, no run break, not shaped, no feature glyph; the
			   glyphs that continue the run have c's key */
			const uint64_t mask = key_mask(), key = c->key & mask;
			const size_t room = RUN_MAX - L->rt.len;  /* ls_plain: >= pend + c->len */
			const int32_t c0off = c->off;
			if (!pend)
				p0 = c->off;
			L->last_si = c->span;
			do {
				pend += c->len;
				xl = x;
				al = c->adv;
				x = add32(x, al);
				c++;
			} while (c < e && (c->key & mask) == key && !c->gid && pend + c->len <= room);
			k = (int)(c - f->c) - 1;
			L->cur.w = sat32((int64_t)xl + al - L->cur.x);
			if (f->sp[f->c[k].span].s->url) {
				L->lx1 = add32(xl, al);
				ls_link_src(f, L, f->text.s + c0off, (size_t)(f->c[k].off + f->c[k].len - c0off),
				            (f->sp[f->c[k].span].s->flags & INLINE_ARTIFACT) != 0);
			}
			continue;
		}
		if (pend) {
			buf_add(&L->rt, f->text.s + p0, pend);
			pend = 0;
		}
		if (c->face < 0 || !c->draw) {
			if (c->face < 0 && c->draw && f->c[k].kind == K_CHAR) {
				ls_link_flush(L);
			}
			if (c->shaped && L->open) /* the alef of a lam-alef, a joiner: read, not drawn */
				buf_add(&L->lt, f->text.s + c->off, c->len);
			continue;
		}
		if (c->cl) {   /* a cluster: its start draws all its glyphs */
			if (c->cl == FONT_CL_START)
				ls_cluster(f, L, k, x);
			x = add32(x, c->adv);
			continue;
		}
		if ((c->lv & 1) && L->fast && k + 1 < ax->c1 && !is_rtl_mark(c->cp)) {
			/* ls_glyph would close the open run first */
			ls_close(f, L, 0);
			if (ls_word_fast(f, L, c, x)) {
				x = add32(x, c->adv);
				continue;
			}
		}
		char u[4];
		int ul = c->shaped ? utf8_encode(c->cp, u) : 0;
		ls_glyph(f, L, c->span, c->face, c->synth, c->brk, ul ? u : f->text.s + c->off,
		         ul ? ul : c->len, f->text.s + c->off, c->len, c->lv, x, c->adv, c);
		x = add32(x, c->adv);
	}
	if (pend)
		buf_add(&L->rt, f->text.s + p0, pend);
	return x;
}

/* A space's glue, moving the pen from at by gw: a natural space stays in the run
 * (glue without a space, ax->c0 < 0, is left to the next box: it breaks
 * the run only if the pen moved). */
static void ls_glue(il_t *f, lset_t *L, const faux_t *ax, int32_t at, int32_t gw)
{
	const fcp_t *c = &f->c[ax->c0];
	const inline_span_t *gs = f->sp[c->span].s;
	int gframe = gs->flags & INLINE_FRAME ? gs->frame + 1 : 0;
	if (L->open && c->face == L->cur.face && c->synth == L->cur.synth &&
	    gw == c->adv && gs->size == L->cur.size && c->lv == L->lv &&
	    gframe == L->runframe && gs->track == L->cur.track && !L->sealed &&
	    !(c->lv % 2) && L->rt.len + 1 < RUN_MAX) {
		buf_putc(&L->rt, ' ');       /* natural space: stays in the run */
		L->cur.w = add32(L->cur.w, gw);
		return;
	}
	L->gap_lv = c->lv;
	if (!L->open && L->wlast) /* the cluster ls_word_fast added closes here */
		L->glv[L->wrun] = c->lv;
	L->wlast = 0;
	if ((c->lv & 1) && (L->open || L->wrun >= 0) && c->face >= 0 && gw > 0 &&
	    f->sp[c->span].plain && !gs->url && !(gs->flags & INLINE_ARTIFACT)) {
		/* A right-to-left page's space between right-to-left words is
		   a glyph of its own as wide as the glue (it continues the word
		   before it, and the word after continues it: ls_word_add), so
		   that readers of the glyphs in drawing order (MuPDF) read
		   it; without it they saw a gap, and their space heuristics are
		   off for text drawn right to left. It is drawn in the face of
		   the glyph before, as a left-to-right run's space is (the
		   space's own face may be one the line draws nothing else in;
		   the PDF draws nothing for a face without a space). */
		int face = L->open ? L->cur.face : L->runs[L->wrun].face;
		int synth = L->open ? L->cur.synth : L->runs[L->wrun].synth;
		ls_glyph(f, L, c->span, face, synth, 1, " ", 1, f->text.s + c->off, c->len, c->lv, at,
		         gw, NULL);
		return;
	}
	if (L->lv > c->lv && !f->o->rtl && (L->open || L->wrun >= 0) && c->face >= 0 && gw > 0 &&
	    f->sp[c->span].plain && !gs->url && !(gs->flags & INLINE_ARTIFACT)) {
		/* A left-to-right page's space that ends a stretch of right-
		   to-left text (its level is below the glyph's before: the
		   space after "جامعة القاهرة" in "... القاهرة (Cairo", after
		   "123" in "مرحبا 123 done") is a glyph too, a run of its own
		   at its level: lay_place draws the stretch from its right
		   end, then this space where it is, then what follows it.
		   MuPDF starts a new line at a jump forwards to left-to-right
		   text, and guesses no space after right-to-left text; the
		   jump back over the stretch comes at the space, a neutral
		   character, and it reads the line as one, with the space.
		   In the face of the glyph before, as above (not the trailing
		   space of a run above its level, which is drawn inside the
		   stretch). */
		int face = L->open ? L->cur.face : L->runs[L->wrun].face;
		int synth = L->open ? L->cur.synth : L->runs[L->wrun].synth;
		ls_close(f, L, 0);
		ls_word_end(f, L);
		ls_glyph(f, L, c->span, face, synth, 1, " ", 1, f->text.s + c->off, c->len, c->lv, at,
		         gw, NULL);
		return;
	}
	ls_close(f, L, !(L->lv % 2));
}

/* How a line's glue is set: natural widths plus delta, shared out in
 * proportion to stretch (or shrink) with exact integer remainders, so a
 * justified line ends exactly at the measure. */
typedef struct gset {
	int64_t nat, den, delta, cum, done;
	int shrink;
} gset_t;

static void gset_init(il_t *f, const para_line_t *pl, int32_t lw, gset_t *g)
{
	int64_t st = 0, sh = 0;
	memset(g, 0, sizeof(*g));
	/* ragged glue is set as it is, and a line set flush left never
	   asks its natural width */
	if (f->ragged && f->o->align != INLINE_RIGHT && f->o->align != INLINE_CENTER)
		return;
	for (int i = pl->start; i < pl->end; i++) {
		const para_item_t *p = &f->it[i];
		if (p->type == PARA_PENALTY)
			continue;
		g->nat += p->w;
		if (p->type == PARA_GLUE && p->stretch < PARA_FIL) {
			st += p->stretch;
			sh += p->shrink;
		}
	}
	if (pl->end < f->nit && f->it[pl->end].type == PARA_PENALTY)
		g->nat += f->it[pl->end].w;
	if (f->ragged)
		return;
	g->delta = lw - g->nat;
	int endb = pl->end >= f->nit || (f->it[pl->end].type == PARA_PENALTY &&
	                                 f->it[pl->end].penalty <= -PARA_INF);
	if (g->delta > 0 && st > 0 && !endb) {
		g->den = st;
	} else if (g->delta < 0 && sh > 0) {
		g->den = sh;
		g->shrink = 1;
		if (-g->delta > sh)
			g->delta = -sh;
	} else {
		g->delta = 0;
	}
}

static int32_t gset_glue(gset_t *g, const para_item_t *p)
{
	int64_t t;
	if (!g->den || p->stretch >= PARA_FIL)
		return p->w;
	g->cum += g->shrink ? p->shrink : p->stretch;
	t = g->delta * g->cum / g->den;
	int32_t adj = (int32_t)(t - g->done);
	g->done = t;
	return p->w + adj;
}

/* The span [*x, *x + *w) of a line that covered runs old[0..n) (a link,
 * a frame) now covers them at their visual places nx: the span from the
 * leftmost to the rightmost of them. */
static void ls_move_span(const page_run_t *old, const int32_t *nx, int n, int32_t *x, int32_t *w)
{
	int32_t a = INT32_MAX, b = INT32_MIN;
	for (int i = 0; i < n; i++) {
		if (old[i].x + old[i].w <= *x || old[i].x >= *x + *w)
			continue;
		a = nx[i] < a ? nx[i] : a;
		b = nx[i] + old[i].w > b ? nx[i] + old[i].w : b;
	}
	if (a < b) {
		*x = a;
		*w = b - a;
	}
}

/* Put the runs of a line in visual order (UAX #9 L2 over runs; a run has
 * one level). Each run keeps its width and the space that followed it in
 * logical order, which goes to its left when it is right to left. Links
 * and frames (badges: a frame holds whole runs) move with the runs they
 * cover. */
static void ls_visual(lset_t *L, int rtl)
{
	int n = L->nruns, any = rtl;
	for (int i = 0; i < n && !any; i++)
		any = L->rlv[i] % 2;
	if (n < 1 || !any)
		return;
	/* items: each run, then the space after it (with its own level) */
	int m = 2 * n;
	int *ord = xmalloc((size_t)m * sizeof(int));
	int32_t *w = xmalloc((size_t)m * sizeof(int32_t));
	uint8_t *lv = xmalloc((size_t)m);
	page_run_t *old = xmalloc((size_t)n * sizeof(*old));
	memcpy(old, L->runs, (size_t)n * sizeof(*old));
	for (int i = 0; i < n; i++) {
		int32_t gap = i + 1 < n ? old[i + 1].x - old[i].x - old[i].w : 0;
		w[2 * i] = old[i].w;
		lv[2 * i] = L->rlv[i];
		w[2 * i + 1] = gap > 0 ? gap : 0;
		lv[2 * i + 1] = L->glv[i];
	}
	bidi_order(lv, m, ord);
	int32_t cur = old[0].x, *nx = xmalloc((size_t)n * sizeof(int32_t));
	for (int k = 0; k < m; k++) {
		if (ord[k] % 2 == 0)
			nx[ord[k] / 2] = cur;
		cur += w[ord[k]];
	}
	/* a link, a frame covers the new places of the runs it covered */
	for (int j = 0; j < L->nlinks; j++)
		ls_move_span(old, nx, n, &L->links[j].x, &L->links[j].w);
	for (int j = 0; j < L->nframes; j++)
		ls_move_span(old, nx, n, &L->frames[j].x, &L->frames[j].w);
	for (int k = 0, r = 0; k < m; k++)
		if (ord[k] % 2 == 0) {
			L->runs[r] = old[ord[k] / 2];
			L->runs[r].level = lv[ord[k]];
			L->runs[r++].x = nx[ord[k] / 2];
		}
	free(ord);
	free(w);
	free(lv);
	free(nx);
	free(old);
}

/* A link's text on its line: the paragraph's bytes [o0, o1) as they are
 * read (in logical order), without what is not drawn and reads as
 * nothing (soft hyphens, zero-width spaces, joiners, bidi controls), a
 * run of white space one space; NULL when empty. */
static const char *ls_link_text(const il_t *f, size_t o0, size_t o1)
{
	if (o1 <= o0)
		return NULL;
	char *t = arena_alloc(f->a, o1 - o0 + 1);
	size_t n = 0;
	for (size_t i = o0; i < o1;) {
		uint32_t c;
		int l = utf8_decode(f->text.s + i, o1 - i, &c);
		l = l > 0 ? l : 1;
		int draw;
		int k = kind_of(c, &draw);
		if (k == K_SPACE || k == K_NL) {
			if (n && t[n - 1] != ' ')
				t[n++] = ' ';
		} else if (draw && c != 0x200C && c != 0x200D) {
			memcpy(t + n, f->text.s + i, (size_t)l);
			n += (size_t)l;
		}
		i += (size_t)l;
	}
	while (n && t[n - 1] == ' ')
		n--;
	t[n] = '\0';
	return n ? t : NULL;
}

/* Set one line into out; returns 1 when a hyphen glyph was added at its end. */
static int ls_line(il_t *f, lset_t *L, const para_line_t *pl, int first, inline_line_t *out)
{
	int drew = 0;
	int32_t lw = first ? f->w1 : f->w2, x0 = first ? 0 : f->o->indent, x;
	gset_t gs;
	gset_init(f, pl, lw, &gs);
	if (f->o->rtl) {
		/* right to left: the indent and a short first line are on the
		   right; a justified paragraph's last line is flush right */
		x0 = f->o->width - lw;
		if (f->o->align == INLINE_JUSTIFY) {
			int64_t d = lw - gs.nat - gs.delta;
			if (d > 0)
				x0 += (int32_t)d;
		}
	}
	if (f->o->align == INLINE_RIGHT || f->o->align == INLINE_CENTER) {
		int64_t d = lw - gs.nat;
		if (d > 0)
			x0 += (int32_t)(f->o->align == INLINE_RIGHT ? d : d / 2);
	}
	x = x0;
	int32_t pen = x;        /* where the open run's next glyph would go */
	int nsp = 0;            /* glue without a space since the last box */
	L->nruns = L->nlinks = L->nframes = 0;
	L->open = 0;
	L->url = NULL;
	L->fspan = 0;
	L->metrics = 0;
	L->last_si = L->met_si = -1;
	L->wrun = -1;
	L->wlast = 0;
	/* a line end that trims its last run (a half-width mark) trims an
	   open run: ls_word_fast leaves none */
	L->fast = L->merge && !(pl->end < f->nit && f->aux[pl->end].trim > 0);
	buf_reset(&L->rt);
	for (int i = pl->start; i < pl->end; i++) {
		const para_item_t *p = &f->it[i];
		if (p->type == PARA_BOX) {
			/* a half-width opening mark starts left of the box, a
			   half-width closing one ends right of it */
			int32_t at = add32(x, -(int64_t)f->aux[i].lead);
			if (L->open && at != pen)
				ls_close(f, L, 0);
			/* glue without a space moved the pen: the run before
			   ends in white space that is no space character */
			if (nsp && at > pen && !f->bidi && L->nruns > 0 &&
			    (int64_t)L->runs[L->nruns - 1].x + L->runs[L->nruns - 1].w == pen)
				L->runs[L->nruns - 1].gap = at - pen;
			nsp = 0;
			pen = ls_box(f, L, &f->aux[i], at);
			x = add32(pen, -(int64_t)f->aux[i].cut);
		} else if (p->type == PARA_GLUE) {
			x = add32(x, gset_glue(&gs, p));
			if (f->aux[i].c0 >= 0) {
				ls_glue(f, L, &f->aux[i], pen, x - pen);
				pen = x;
			} else {
				nsp = 1;
			}
		}
	}
	if (pl->end < f->nit) {
		const para_item_t *e = &f->it[pl->end];
		if (e->type == PARA_PENALTY && !e->flagged && e->w > 0)
			x = add32(x, e->w);     /* a closing mark kept at full width */
		if (f->aux[pl->end].trim > 0 && L->open)
			L->cur.w -= f->aux[pl->end].trim;  /* ... or set half-width */
	}
	if (pl->end < f->nit && f->it[pl->end].type == PARA_PENALTY && f->it[pl->end].flagged &&
	    f->it[pl->end].w > 0 && f->aux[pl->end].c0 >= 0) {
		int si = f->c[f->aux[pl->end].c0].span;
		fspan_t *s = il_hyinfo(f, si);
		if (s->hyface >= 0) {
			ls_glyph(f, L, si, s->hyface, s->hysynth, 0, "-", 1, "-", 1, L->lv, x, s->hyw,
			         NULL);
			x = add32(x, s->hyw);
			drew = 1;
		}
	}
	ls_close(f, L, 0);
	ls_word_end(f, L);
	ls_link_flush(L);
	ls_frame_flush(L);
	if (f->bidi)
		ls_visual(L, f->o->rtl);
	if (!L->metrics && f->nsp)
		ls_metrics(f, L, pl->start < f->nit && f->aux[pl->start].c0 >= 0 &&
		                 f->it[pl->start].type == PARA_BOX ?
		                 f->c[f->aux[pl->start].c0].span : 0);
	out->runs = arena_alloc(f->a, sizeof(page_run_t) * (size_t)(L->nruns ? L->nruns : 1));
	if (L->nruns) /* a line of undrawable characters has none */
		memcpy(out->runs, L->runs, sizeof(page_run_t) * (size_t)L->nruns);
	out->nruns = L->nruns;
	out->links = arena_alloc(f->a, sizeof(page_link_t) * (size_t)(L->nlinks ? L->nlinks : 1));
	out->link_text = arena_alloc(f->a, sizeof(char *) * (size_t)(L->nlinks ? L->nlinks : 1));
	for (int k = 0; k < L->nlinks; k++) {
		out->link_text[k] = ls_link_text(f, L->lsrc[k][0], L->lsrc[k][1]);
		out->links[k] = L->links[k];
		out->links[k].y = -L->asc;
		out->links[k].h = L->asc - L->desc;
	}
	out->nlinks = L->nlinks;
	out->frames = NULL;
	if (L->nframes) {
		out->frames = arena_alloc(f->a, sizeof(inline_frame_t) * (size_t)L->nframes);
		memcpy(out->frames, L->frames, sizeof(inline_frame_t) * (size_t)L->nframes);
	}
	out->nframes = L->nframes;
	out->width = add32(x, -(int64_t)(first ? 0 : f->o->indent));
	out->asc = L->asc;
	out->desc = L->desc;
	out->ratio = pl->ratio;
	out->hyphen = pl->hyphen;
	out->overfull = pl->overfull;
	return drew;
}

/* Text extraction should read a hyphenated word whole: the run that ends
 * with the drawn hyphen reads as its text without the hyphen plus the
 * word's continuation; the continuation, at the start of the next line,
 * reads as what follows the word (or nothing). A word's own hyphen
 * ("Memory-Parallelism" broken after its "-") is kept (keep = 1): poppler
 * drops any "-" that ends a line, but not one inside an ActualText. */
static void il_actual(il_t *f, inline_line_t *a, inline_line_t *b, int keep)
{
	if (!a->nruns || !b->nruns)
		return;
	page_run_t *ra = &a->runs[a->nruns - 1];
	if (ra->len < 1 || ra->text[ra->len - 1] != '-')
		return;
	buf_t w;
	buf_init(&w);
	buf_add(&w, ra->text, (size_t)ra->len - (keep ? 0 : 1));
	for (int j = 0; j < b->nruns; j++) {
		page_run_t *rb = &b->runs[j];
		const char *sp = memchr(rb->text, ' ', (size_t)rb->len);
		int k = sp ? (int)(sp - rb->text) : rb->len;
		buf_add(&w, rb->text, (size_t)k);
		/* the line break already separates the word from what follows */
		int skip = sp ? k + 1 : k;
		rb->actual = rb->text + skip;
		rb->actual_len = rb->len - skip;
		if (sp)
			break;
	}
	ra->actual = arena_strndup(f->a, w.s ? w.s : "", w.len);
	ra->actual_len = (int)w.len;
	buf_done(&w);
}

/* Line pl ends in a break just after a "-" of the text, inside a word. */
static int ends_in_own_hyphen(const il_t *f, const para_line_t *pl)
{
	if (pl->end >= f->nit || f->it[pl->end].type != PARA_PENALTY)
		return 0;
	int c = f->aux[pl->end].c0;
	return c >= 0 && c + 1 < f->nc && f->c[c].cp == '-' && f->c[c + 1].kind == K_CHAR;
}

static void il_lines(il_t *f, const para_line_t *pl, int n, inline_result_t *out)
{
	static lset_t keep;     /* its arrays, from one paragraph to the next */
	lset_t L;
	memset(&L, 0, sizeof(L));
	L.runs = keep.runs;
	L.rlv = keep.rlv;
	L.glv = keep.glv;
	L.caprun = keep.caprun;
	L.links = keep.links;
	L.lsrc = keep.lsrc;
	L.caplink = keep.caplink;
	L.frames = keep.frames;
	L.capframe = keep.capframe;
	L.goff = keep.goff;
	L.gval = keep.gval;
	L.capg = keep.capg;
	L.pg = keep.pg;
	L.cappg = keep.cappg;
	L.rt = keep.rt;
	L.lt = keep.lt;
	L.wt = keep.wt;
	L.wadv = keep.wadv;
	L.capwadv = keep.capwadv;
	buf_reset(&L.rt);
	buf_reset(&L.lt);
	out->lines = arena_alloc(f->a, sizeof(inline_line_t) * (size_t)(n ? n : 1));
	out->nlines = n;
	int prev = 0;
	for (int i = 0; i < n; i++) {
		/* right-to-left words are merged (lay_place draws them in
		   reading order), but not at the start of a line that
		   continues a hyphenated word (il_actual changes its first
		   runs) */
		L.merge = !prev && !(i > 0 && ends_in_own_hyphen(f, &pl[i - 1]));
		int drew = ls_line(f, &L, &pl[i], i == 0, &out->lines[i]);
		if (prev)
			il_actual(f, &out->lines[i - 1], &out->lines[i], 0);
		else if (i > 0 && ends_in_own_hyphen(f, &pl[i - 1]))
			il_actual(f, &out->lines[i - 1], &out->lines[i], 1);
		prev = drew;
	}
	keep = L;
}

/* Keep the scratch for the next paragraph, unless it grew very large. */
static void il_free(il_t *f)
{
	free(f->cg);
	free(f->cgi);
	il_keep.text = f->text;
	if (il_keep.capc * sizeof(fcp_t) <= KEEP_MAX)
		return;
	buf_done(&il_keep.text);
	free(il_keep.sp);
	free(il_keep.c);
	free(il_keep.brks);
	free(il_keep.it);
	free(il_keep.aux);
	memset(&il_keep, 0, sizeof(il_keep));
}

/* ---- the memo (inline_memo_t) ----
 *
 * An entry is the state after il_text, il_decode, il_span_rules and
 * il_bidi (the text, its code points with their break classes, bidi
 * levels and Arabic forms), which read only the spans' text, flags and
 * tracking and the options' language and direction, and its glyphs at no
 * size (il_shape), which read the spans' chains, styles, features and
 * languages (and the options' CJK language) too: those, as bytes, are its
 * key. Its hyphenation points are added when il_hyphenate first runs on
 * it (they read the same, and the patterns). The glyphs are placed at the
 * spans' sizes; spacing, items, breaking and lines are done again on
 * every use. */

#define MEMO_BYTES (4 << 20)

inline_memo_t *inline_memo_new(void)
{
	inline_memo_t *m = xcalloc(1, sizeof(*m));
	m->a = arena_new();
	buf_init(&m->key);
	buf_init(&m->rec);
	return m;
}

void inline_memo_free(inline_memo_t *m)
{
	if (!m)
		return;
	arena_free(m->a);
	free(m->tab);
	buf_done(&m->key);
	buf_done(&m->rec);
	free(m);
}

static void key_put(buf_t *b, const void *p, size_t n)
{
	buf_add(b, (const char *)p, n);
}

static void key_str(buf_t *b, const char *s)
{
	uint32_t n = s ? (uint32_t)strlen(s) + 1 : 0;   /* NULL is not "" */
	key_put(b, &n, sizeof(n));
	if (s)
		key_put(b, s, n);
}

static uint64_t key_hash(const unsigned char *p, size_t n)
{
	return buf_hash(0x9E3779B97F4A7C15ull ^ n, p, n);
}

/* The entry with the key m->key, or NULL; its hash into m->hash. */
static ment_t *memo_lookup(inline_memo_t *m)
{
	buf_t *b = &m->key;
	m->hash = key_hash((const unsigned char *)b->s, b->len);
	if (!m->cap)
		return NULL;
	for (unsigned h = (unsigned)m->hash & (unsigned)(m->cap - 1); m->tab[h];
	     h = (h + 1) & (unsigned)(m->cap - 1)) {
		ment_t *e = m->tab[h];
		if (e->hash == m->hash && e->keylen == b->len && !memcmp(e->key, b->s, b->len))
			return e;
	}
	return NULL;
}

/* The key of spans and o, into m->key; the entry with it, or NULL. */
static ment_t *memo_find(inline_memo_t *m, const inline_span_t *spans, int n,
                         const inline_opts_t *o)
{
	buf_t *b = &m->key;
	buf_reset(b);
	int32_t head[3] = {'P', n, o->rtl};
	key_put(b, head, sizeof(head));
	key_str(b, o->lang);
	key_str(b, o->cjk);
	for (int i = 0; i < n; i++) {
		const inline_span_t *sp = &spans[i];
		/* the glyphs it keeps: the span's chain, style, features and
		   language are what they were shaped with (but the size) */
		int32_t v[5] = {sp->text && sp->len > 0 ? sp->len : 0, (int32_t)sp->flags,
		                sp->track != 0, sp->style, (int32_t)sp->feats};
		key_put(b, v, sizeof(v));
		key_put(b, &sp->chain, sizeof(sp->chain));
		key_str(b, sp->lang);
		if (v[0])
			key_put(b, sp->text, (size_t)v[0]);
	}
	return memo_lookup(m);
}

static void memo_insert(inline_memo_t *m, ment_t *e)
{
	unsigned h = (unsigned)e->hash & (unsigned)(m->cap - 1);
	while (m->tab[h])
		h = (h + 1) & (unsigned)(m->cap - 1);
	m->tab[h] = e;
}

/* Room in m's table for one more entry. */
static void memo_room(inline_memo_t *m)
{
	if (2 * (m->n + 1) <= m->cap)
		return;
	ment_t **old = m->tab;
	int ocap = m->cap;
	m->cap = ocap ? 2 * ocap : 256;
	m->tab = xcalloc((size_t)m->cap, sizeof(*m->tab));
	for (int i = 0; i < ocap; i++)
		if (old[i])
			memo_insert(m, old[i]);
	free(old);
}

/* Keep rec[0..len) (inline_width_memo's) under the key m->key. */
static void memo_keep(inline_memo_t *m, const char *rec, size_t len)
{
	size_t kl = m->key.len, size = ((kl + 15) & ~(size_t)15) + len + 1;
	if (m->bytes + size + sizeof(ment_t) > MEMO_BYTES)
		return;
	memo_room(m);
	ment_t *e = arena_alloc(m->a, sizeof(*e) + size);
	memset(e, 0, sizeof(*e));
	char *blk = (char *)(e + 1);
	e->hash = m->hash;
	e->key = blk;
	e->keylen = kl;
	memcpy(blk, m->key.s, kl);
	e->shp = blk + ((kl + 15) & ~(size_t)15);
	if (len)
		memcpy(e->shp, rec, len);
	e->nshp = (int)len;
	memo_insert(m, e);
	m->n++;
	m->bytes += size + sizeof(*e);
}

/* Keep f's state under the key memo_find made; NULL when full. */
static ment_t *memo_add(inline_memo_t *m, const il_t *f)
{
	size_t kl = m->key.len, tl = f->text.len;
	size_t off_sp = (kl + tl + 1 + 15) & ~(size_t)15;
	size_t off_c = off_sp + (size_t)f->nsp * sizeof(mspan_t);
	size_t size = off_c + (size_t)(f->nc + 1) * sizeof(fcp_t);
	if (m->bytes + size > MEMO_BYTES)
		return NULL;
	memo_room(m);
	ment_t *e = arena_alloc(m->a, sizeof(*e) + size);
	char *blk = (char *)(e + 1);
	e->hash = m->hash;
	e->key = blk;
	e->keylen = kl;
	memcpy(blk, m->key.s, kl);
	memcpy(blk + kl, f->text.s, tl + 1);
	e->text = blk + kl;
	e->textlen = tl;
	e->sp = (mspan_t *)(void *)(blk + off_sp);
	e->nsp = f->nsp;
	for (int i = 0; i < f->nsp; i++)
		e->sp[i] = (mspan_t){f->sp[i].c0, f->sp[i].c1, f->sp[i].nb, f->sp[i].plain,
		                     f->sp[i].kh};
	e->c = (fcp_t *)(void *)(blk + off_c);
	memcpy(e->c, f->c, (size_t)(f->nc + 1) * sizeof(fcp_t));
	e->nc = f->nc;
	e->bidi = f->bidi;
	e->kept = f->kept;
	e->maxcp = f->maxcp;
	memo_insert(m, e);
	m->n++;
	m->bytes += size + sizeof(*e);
	return e;
}

/* f as il_text .. il_bidi would leave it for spans, from e. */
static void memo_restore(il_t *f, const ment_t *e, const inline_span_t *spans)
{
	f->sp = il_keep.sp = room(il_keep.sp, &il_keep.capsp, (size_t)(e->nsp ? e->nsp : 1),
	                          sizeof(*f->sp));
	memset(f->sp, 0, (size_t)e->nsp * sizeof(*f->sp));
	f->nsp = e->nsp;
	for (int i = 0; i < e->nsp; i++) {
		f->sp[i].s = &spans[i];
		f->sp[i].c0 = e->sp[i].c0;
		f->sp[i].c1 = e->sp[i].c1;
		f->sp[i].nb = e->sp[i].nb;
		f->sp[i].plain = e->sp[i].plain;
		f->sp[i].kh = e->sp[i].kh;
	}
	f->text = il_keep.text;
	buf_reset(&f->text);
	buf_add(&f->text, e->text, e->textlen);
	f->c = il_keep.c = room(il_keep.c, &il_keep.capc, e->textlen + 1, sizeof(*f->c));
	memcpy(f->c, e->c, (size_t)(e->nc + 1) * sizeof(fcp_t));
	f->nc = e->nc;
	f->bidi = e->bidi;
	f->kept = e->kept;
	f->maxcp = e->maxcp;
}

/* il_hyphenate, or its points as e keeps them. */
static void il_hyphenate_memo(il_t *f, ment_t *e)
{
	if (!il_hyph_on(f))
		return;
	if (e && e->hbk && e->hyph == f->o->hyph) {
		for (int i = 0; i < f->nc; i++)
			if (e->hbk[i] == BK_HYPH || e->hbk[i] == BK_HYPHC)
				f->c[i].bk = e->hbk[i];
		return;
	}
	il_hyphenate(f);
	if (e && !e->hbk) {
		e->hbk = arena_alloc(f->o->memo->a, (size_t)(f->nc ? f->nc : 1));
		for (int i = 0; i < f->nc; i++)
			e->hbk[i] = f->c[i].bk;
		e->hyph = f->o->hyph;
		f->o->memo->bytes += (size_t)f->nc;
	}
}

/* Does any span allow hyphenation? */
static int il_may_hyph(il_t *f)
{
	for (int si = 0; si < f->nsp; si++)
		if (hyph_ok(f, si) && f->sp[si].c1 - f->sp[si].c0 >= 5)
			return 1;
	return 0;
}

/* The em of a paragraph mostly in CJK characters, or 0. */
static int32_t il_cjk_em(const il_t *f)
{
	int cjk = 0, other = 0;
	int32_t em = 0;
	if (f->maxcp < 0x1100)
		return 0;
	for (int i = 0; i < f->nc; i++) {
		if (f->c[i].kind != K_CHAR || !f->c[i].draw)
			continue;
		if (is_cjk(f->c[i].cp)) {
			cjk++;
			if (!em)
				em = f->sp[f->c[i].span].s->size;
		} else {
			other++;
		}
	}
	return cjk > other ? em : 0;
}

static int il_break(il_t *f, int32_t tol, int one_pass, para_line_t **pl, int *npl)
{
	para_opts_t po;
	int32_t em = il_cjk_em(f);
	para_opts_default(&po);
	po.width = f->w2;
	po.first_width = f->w1;
	/* CJK lines are full and a short last line is normal; only a last
	   line of one character is avoided (clreq: no lone character). A
	   Latin last line of a fifth of the measure would space out whole
	   lines of ideographs to pull characters down. */
	if (em > 0 && f->w2 > 0 && (int64_t)2 * em * 1000 / f->w2 < po.last_line_min)
		po.last_line_min = (int32_t)((int64_t)2 * em * 1000 / f->w2);
	if (tol > 0)
		po.tolerance = tol;
	po.one_pass = one_pass;
	po.hyphen_limit = f->o->hyphen_limit;
	return para_break(f->it, f->nit, &po, pl, npl);
}

/* May a line break after c[i], inside a word il_keep_words kept whole?
 * As hyphenation's minimums: two letters on either side ("제안했습|니다",
 * "삼성리서치|(KAIST와"; not "있습니|다.", "3|년차"). */
static int il_kept_ok(const il_t *f, int i)
{
	int left = 0, right = 0;
	for (int k = i; left < 2; k--) {
		left += is_letter(f->c[k].cp);
		if (k == 0 || !f->c[k - 1].kept)
			break;
	}
	for (int k = i + 1; k < f->nc && right < 2; k++) {
		right += is_letter(f->c[k].cp);
		if (!f->c[k].kept)
			break;
	}
	return left >= 2 && right >= 2;
}

/* il_break, and for a justified paragraph whose breaks il_keep_words took
 * away (Korean) or that stretches between syllables (Lao, Khmer, Myanmar:
 * il_sa_syllables) and that no break sequence sets within the
 * tolerance, the same with those breaks back at PEN_KEEP and an em/6
 * between syllables, as much as Thai's words get (a narrow measure: the
 * em/12 that keeps a wider one from looking letterspaced leaves lines
 * loose there, the fewer spaces the more). A paragraph that fits pays
 * nothing more: its first pass is il_break's own. */
static int il_break_kept(il_t *f, int32_t tol, para_line_t **pl, int *npl)
{
	if ((!f->kept && !f->syl) || f->ragged)
		return il_break(f, tol, 0, pl, npl);
	int rc = il_break(f, tol, 1, pl, npl);
	if (rc >= 0)
		return rc;
	for (int i = 0; f->kept && i < f->nc; i++)
		if (f->c[i].kept && f->c[i].bk == BK_NONE && il_kept_ok(f, i))
			f->c[i].bk = BK_KEEP;
	f->sylwide = f->syl;
	f->nit = 0;
	il_items(f);
	return il_break(f, tol, 0, pl, npl);
}

/* TeX's first pass: break without hyphenation points (soft hyphens and
 * explicit dashes still count). Justified text must keep every line
 * within the pretolerance; ragged text (whose lines may end anywhere)
 * only must not overflow. Returns para's result, or -1 (no lines) when
 * the paragraph needs hyphenation. */
static int il_prepass(il_t *f, para_line_t **pl, int *npl)
{
	int32_t pre = f->o->pretolerance ? f->o->pretolerance : 1000;
	int rc;
	if (pre < 0 || !il_may_hyph(f))
		return -1;
	il_items(f);
	rc = f->ragged ? il_break(f, f->o->tolerance, 0, pl, npl) : il_break(f, pre, 1, pl, npl);
	for (int i = 0; rc >= 0 && i < *npl; i++)
		if ((*pl)[i].overfull)
			rc = -1;
	if (rc < 0) {
		*pl = NULL;
		*npl = 0;
		f->nit = 0;
	}
	return rc;
}

/* Counting only: does the paragraph set on one line, without items or
 * breaking? Yes when all of it is narrower than both measures: then
 * para_break's own shortcut (one_line) takes it, whatever the pass. Its
 * items are boxes (a word's advances less its first glyph's lead and last
 * glyph's trail), glue (a space's advance, or a quarter em without a face,
 * plus the trail given back; a lead given back; a quarter em between Han
 * and Latin) and penalties, which sum to at most the advances of its code
 * points and those quarter ems: no item is below zero when no advance is
 * below its lead and trail; no penalty has a width but a hyphen's, and
 * there are none without soft hyphens and with the first pass run without
 * hyphenation points (which is taken, being one line: hyphenation never
 * runs); no penalty is below zero without a newline; no piece is wider
 * than a measure, so nothing is broken in an emergency (nor warned of);
 * greedy never runs below PARA_MAX_OPTIMAL items (4 per code point, 3 at
 * the end). */
static int il_one_line(il_t *f)
{
	int64_t w = 0, lw = f->w1 < f->w2 ? f->w1 : f->w2;
	int chars = 0;
	if (f->nc >= PARA_MAX_OPTIMAL / 4 - 1 || (f->o->pretolerance < 0 && il_hyph_on(f)))
		return 0;
	const unsigned no = 1u << BK_HYPH | 1u << BK_HYPHC;
	for (const fcp_t *c = f->c, *e = f->c + f->nc; c < e && w <= lw; c++) {
		if (c->kind == K_NL || (no >> c->bk & 1))
			return 0;
		if (c->kind == K_SPACE) {
			if (c->face >= 0 && c->adv < 0)
				return 0;
			w += c->face >= 0 ? c->adv : f->sp[c->span].s->size / 4;
			continue;
		}
		/* (with lead and trail not below 0, an advance below 0 is below
		   their sum) */
		if ((c->lead | c->trail) < 0 || (int64_t)c->lead + c->trail > c->adv)
			return 0;
		w += c->adv + (c->cjkgap ? f->sp[c->span].s->size / 4 : 0);
		chars = 1;
	}
	return chars && w <= lw;
}

/* Counting through a memo: il_one_line without placing the glyphs (a
 * paragraph counted at the sizes of a fit attempt is most often one line,
 * and placing it was most of what counting it cost).
 *
 * il_one_line_may: does placing entry me's glyphs (il_shape_kept) change
 * nothing il_one_line reads but the advances, and how far are these from
 * a constant times the size (me->ols)? The text must be one il_one_line
 * does not say no to for what it is (a newline, a hyphen break, no
 * letter), and one il_cjk_spacing and il_cjk_edges leave alone (no CJK
 * mark, Han or kana; nothing from U+2018 on is their own test), with no
 * glyph missing (that is said) and each code point given one glyph or one
 * cluster (its start, its glyphs after it, its other code points). A
 * code point's advance is then its glyph's, as font_uglyphs_adv gives it:
 * the nominal advance and the kerning at the size, less the x offset
 * carried to the glyph before, plus the next glyph's, each rounded to
 * within half a unit (a term of 0 is 0); a cluster's start adds up its
 * own and its glyphs'; il_place_one adds the span's tracking (not to its
 * last letter). A paragraph well past the measure at the sizes it is
 * first counted at is not worked out (fit's attempts differ by a few
 * percent: it will not be one line at the next either). */
static int ol_add(struct olspan *o, double a, double r, int trk)
{
	if (a > 0) {
		if (r / a > o->smin)
			o->smin = r / a;
	} else if (a < 0 || r > 0) {
		return -1;   /* may come out below 0 */
	}
	o->a += a;
	o->r += r;
	o->t += trk;
	return 0;
}

static __attribute__((noinline)) int il_one_line_may(inline_memo_t *m, ment_t *me,
                                                  const inline_span_t *spans, int32_t lw)
{
	if (me->ol)
		return me->ol > 0;
	me->ol = -1;
	int nc = me->nc, nsp = me->nsp;
	if (nc >= PARA_MAX_OPTIMAL / 4 - 1 || !nsp)
		return 0;
	double far = 1.02 * lw + 100, est = 0;   /* est: u at the sizes of spans */
	const char *p = me->shp;
	for (int g = 0; g < me->nshp; g++) {   /* first, roughly: far past it? */
		mshape_t h;
		memcpy(&h, p, sizeof(h));
		p += sizeof(h);
		const font_uglyph_t *q = (const font_uglyph_t *)(const void *)p;
		p += sizeof(font_uglyph_t) * (size_t)h.n;
		if (h.si < 0 || h.si >= nsp)
			return 0;
		int64_t ms = 0;
		for (int j = 0; j < h.n; j++)
			ms += q[j].milli;
		if ((est += (double)ms * spans[h.si].size / 1000) > far)
			return 0;
	}
	static uint8_t *seen;
	static int capseen;
	if (nc > capseen) {
		capseen = 2 * nc;
		seen = xrealloc(seen, (size_t)capseen);
	}
	memset(seen, 0, (size_t)nc);
	struct olspan *ol = arena_alloc(m->a, sizeof(*ol) * (size_t)nsp);
	memset(ol, 0, sizeof(*ol) * (size_t)nsp);
	const fcp_t *cp = me->c;
	int start = -1;   /* the cluster being added up */
	double sa = 0, sr = 0;
	p = me->shp;
	for (int g = 0; g < me->nshp; g++) {
		mshape_t h;
		memcpy(&h, p, sizeof(h));
		p += sizeof(h);
		const font_uglyph_t *q = (const font_uglyph_t *)(const void *)p, *qe = q + h.n;
		p += sizeof(font_uglyph_t) * (size_t)h.n;
		if (h.si < 0 || h.si >= nsp || (h.n && q->dx) || spans[h.si].size <= 0)
			return 0;
		int si = h.si;
		uint32_t last = UINT32_MAX;   /* il_track_last */
		for (int i = me->sp[si].c1 - 1; i >= me->sp[si].c0 && last == UINT32_MAX; i--)
			if (cp[i].draw && cp[i].kind == K_CHAR)
				last = (uint32_t)i;
		/* a glyph with its nominal advance only (the most of them): added
		   up as milli s / 1000, each rounded */
		int64_t msum = 0;
		int32_t half = 0, least = INT32_MAX, t = 0;
		for (; q < qe; q++) {
			uint32_t off = q->off;
			if (off == UINT32_MAX)
				continue;
			if (off >= (uint32_t)nc)
				return 0;
			int dx1 = q + 1 < qe && q[1].dx;
			if (((uint32_t)q->kern | (uint32_t)q->dx | q->cl | (uint32_t)dx1) == 0 && start < 0) {
				if (seen[off] | (q->face < 0) | (q->milli < 0))
					return 0;
				seen[off] = 1;
				if (q->milli) {
					msum += q->milli;
					half++;
					if (q->milli < least)
						least = q->milli;
				}
				t += off != last;
				continue;
			}
			/* font_uglyphs_adv's advance of the glyph, per unit of size */
			double a = q->milli / 1000.0, r = q->milli ? 0.5 : 0;
			if (q->kern)
				a += (double)q->kern / q->upem, r += 0.5;
			if (q->dx)
				a -= (double)q->dx / q->upem, r += 0.5;
			if (dx1)
				a += (double)q[1].dx / q[1].upem, r += 0.5;
			if (q->cl == FONT_CL_GLYPH) {
				if ((int)off != start)
					return 0;
				sa += a, sr += r;
				continue;
			}
			if (seen[off] || q->face < 0)
				return 0;   /* placed twice; missing (said, not drawn) */
			seen[off] = 1;
			/* a cluster is done when a record of another code point comes */
			if (start >= 0 && ol_add(&ol[cp[start].span], sa, sr, 0))
				return 0;
			start = -1;
			if (q->cl == FONT_CL_START)
				start = (int)off, sa = a, sr = r;
			else if (ol_add(&ol[si], a, r, !q->cl && off != last))
				return 0;
		}
		struct olspan *o = &ol[si];
		o->a += msum / 1000.0;
		o->r += 0.5 * half;
		o->t += t;
		if (half && 500.0 / least > o->smin)
			o->smin = 500.0 / least;
	}
	if (start >= 0 && ol_add(&ol[cp[start].span], sa, sr, 0))
		return 0;
	int64_t base = 0;
	int chars = 0;
	const unsigned no = 1u << BK_HYPH | 1u << BK_HYPHC;
	for (int i = 0; i < nc; i++) {
		const fcp_t *c = &cp[i];
		if ((c->lead | c->trail | c->cjkgap) || c->kind == K_NL || (no >> c->bk & 1))
			return 0;
		if (me->maxcp >= 0x2018 &&
		    (is_line_start_mark(c->cp) || is_line_end_mark(c->cp) || is_han_kana(c->cp)))
			return 0;
		chars += c->kind != K_SPACE;
		if (seen[i])
			continue;
		/* no glyph: what il_shape left (nothing) */
		if (c->kind == K_SPACE && c->face < 0) {
			ol[c->span].nsp++;
		} else {
			if (c->adv < 0)
				return 0;
			base += c->adv;
		}
	}
	if (!chars)
		return 0;
	m->bytes += sizeof(*ol) * (size_t)nsp;
	me->ols = ol;
	me->olbase = base;
	me->ol = 1;
	return 1;
}

/* Counting, through entry me: is the paragraph surely one line at the
 * sizes of spans, as il_one_line would find it after il_shape,
 * il_cjk_spacing and il_cjk_edges (para_break's one_line then takes it)?
 * Yes when the most its code points can add up to (il_one_line_may's
 * bounds, with two units to spare) is within both measures and none of
 * them can be below 0. No says nothing: the paragraph is set as usual. */
static int il_one_line_sure(const il_t *f, inline_memo_t *m, ment_t *me,
                            const inline_span_t *spans, int n)
{
	int32_t lw = f->w1 < f->w2 ? f->w1 : f->w2;
	if ((f->o->hyph && f->o->pretolerance < 0) || n != me->nsp ||
	    !il_one_line_may(m, me, spans, lw))
		return 0;
	double w = (double)me->olbase + 2;
	for (int i = 0; i < n; i++) {
		const struct olspan *o = &me->ols[i];
		int32_t s = spans[i].size;
		if (s < o->smin * (1 + 1e-9) + 1e-6 || (o->t && spans[i].track < 0))
			return 0;
		w += (o->a * s + o->r) * (1 + 1e-12) + (double)o->t * spans[i].track + o->nsp * (s / 4);
	}
	return w <= lw;
}

static int il_set(arena_t *a, const inline_span_t *spans, int n, const inline_opts_t *o,
                  inline_result_t *out, errs_t *e)
{
	il_t f;
	inline_opts_t oo = *o;
	para_line_t *pl = NULL;
	int npl = 0, rc;
	memset(out, 0, sizeof(*out));
	memset(&f, 0, sizeof(f));
	if (!oo.stretch_pm)
		oo.stretch_pm = 500;
	if (!oo.shrink_pm)
		oo.shrink_pm = 333;
	f.a = a;
	f.o = &oo;
	f.e = e;
	f.ragged = oo.align != INLINE_JUSTIFY;
	f.w1 = oo.first_width > 0 ? oo.first_width : oo.width;
	f.w2 = oo.width - oo.indent > 0 ? oo.width - oo.indent : oo.width;
	f.it = il_keep.it;
	f.aux = il_keep.aux;
	f.capit = il_keep.capit;
	ment_t *me = oo.memo ? memo_find(oo.memo, spans, n > 0 ? n : 0, &oo) : NULL;
	out->facts = me ? &me->facts : NULL;
	if (me && oo.count && me->shp && il_one_line_sure(&f, oo.memo, me, spans, n)) {
		out->nlines = 1;
		return 0;
	}
	if (me) {
		memo_restore(&f, me, spans);
	} else {
		il_text(&f, spans, n > 0 ? n : 0);
		il_decode(&f, n > 0 ? n : 0);
		il_thai_words(&f);
		il_sa_syllables(&f);
		il_span_rules(&f);
		il_keep_words(&f);
		il_bidi(&f);
		if (oo.memo)
			out->facts = (me = memo_add(oo.memo, &f)) ? &me->facts : NULL;
	}
	il_span_langs(&f);
	for (int i = 0; me && i < f.nsp && i < me->nsp; i++)
		me->sp[i].kh = f.sp[i].kh;
	if (il_shape(&f, me)) {
		il_free(&f);
		return -1;
	}
	il_cjk_spacing(&f);
	il_cjk_edges(&f);
	if (oo.count && il_one_line(&f)) {
		out->nlines = 1;
		il_free(&f);
		return 0;
	}
	rc = il_hyph_on(&f) ? il_prepass(&f, &pl, &npl) : -1;
	if (rc < 0) {
		il_hyphenate_memo(&f, me);
		il_emergency(&f);
		il_items(&f);
		rc = il_break_kept(&f, oo.tolerance, &pl, &npl);
		/* an overfull line: a nobreak span (a name) wider than the
		   measure wraps at its spaces (asked only then: it is rare) */
		int over = 0;
		for (int i = 0; i < npl && !over; i++)
			over = pl[i].overfull;
		if (over && il_wide_nobreak(&f, f.w1 < f.w2 ? f.w1 : f.w2)) {
			f.nit = 0;
			il_items(&f);
			rc = il_break_kept(&f, oo.tolerance, &pl, &npl);
		}
	}
	out->greedy = rc == 1;
	if (oo.count)
		out->nlines = npl;     /* the lines il_lines would set, one per break */
	else
		il_lines(&f, pl, npl, out);
	il_free(&f);
	return 0;
}

/* ---- the cache (inline_cache_t) ----
 *
 * A result is found again by everything inline_set reads but the spans'
 * source positions, which only its warnings name: so a result is kept
 * only when setting it said nothing. Strings but the text are compared
 * by their address (a CV's come from one place: one address, one text;
 * the same text at another address is only a miss). */

#define CACHE_MAXSPANS 4
#define CACHE_MAXLEN 128

typedef struct cent {
	uint64_t hash;
	arena_t *a;
	inline_opts_t o;        /* file, memo and cache not compared */
	inline_span_t *sp;      /* n, their texts copied */
	int n;
	inline_result_t r;
} cent_t;

struct inline_cache {
	arena_t *a;             /* the entries */
	cent_t **tab;           /* open addressing, cap a power of two */
	int cap, n;
	uint64_t hash;          /* of the spans and options being looked up */
};

inline_cache_t *inline_cache_new(void)
{
	inline_cache_t *c = xcalloc(1, sizeof(*c));
	c->a = arena_new();
	return c;
}

void inline_cache_free(inline_cache_t *c)
{
	if (!c)
		return;
	arena_free(c->a);
	free(c->tab);
	free(c);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0xFF51AFD7ED558CCDull;
	return h ^ h >> 32;
}

static int same_opts(const inline_opts_t *x, const inline_opts_t *o)
{
	return x->width == o->width && x->indent == o->indent &&
	       x->first_width == o->first_width && x->align == o->align && x->lang == o->lang &&
	       x->hyph == o->hyph && x->hyphs == o->hyphs && x->stretch_pm == o->stretch_pm &&
	       x->shrink_pm == o->shrink_pm && x->tolerance == o->tolerance &&
	       x->hyphen_limit == o->hyphen_limit && x->rtl == o->rtl && x->cjk == o->cjk &&
	       x->pretolerance == o->pretolerance && x->memo == o->memo && x->count == o->count;
}

static int span_len(const inline_span_t *s)
{
	return s->text && s->len > 0 ? s->len : 0;
}

static int same_span(const inline_span_t *x, const inline_span_t *s)
{
	return x->len == s->len && !x->text == !s->text && x->chain == s->chain &&
	       x->style == s->style &&
	       x->size == s->size && x->color == s->color && x->url == s->url &&
	       x->flags == s->flags && x->frame == s->frame && x->lang == s->lang &&
	       x->feats == s->feats && x->track == s->track &&
	       (!span_len(x) || !memcmp(x->text, s->text, (size_t)x->len));
}

/* The entry for a, spans and o, or NULL; their hash into c->hash. */
static cent_t *cache_find(inline_cache_t *c, arena_t *a, const inline_span_t *spans, int n,
                          const inline_opts_t *o)
{
	uint64_t h = mix(mix(0x9E3779B97F4A7C15ull, (uint64_t)n << 32 | (uint32_t)o->width),
	                 (uintptr_t)a);
	for (int i = 0; i < n; i++) {
		const inline_span_t *sp = &spans[i];
		h = mix(h, (uint64_t)(uint32_t)sp->size << 32 | (uint32_t)sp->style << 8 | sp->flags);
		h = mix(h, (uintptr_t)sp->chain);
		const unsigned char *t = (const unsigned char *)sp->text;
		int k = 0, len = span_len(sp);
		uint64_t w;
		for (; k + 8 <= len; k += 8) {
			memcpy(&w, t + k, 8);
			h = mix(h, w);
		}
		for (w = (uint64_t)len << 56; k < len; k++)
			w |= (uint64_t)t[k] << 8 * (k & 7);
		h = mix(h, w);
	}
	c->hash = h;
	if (!c->cap)
		return NULL;
	for (unsigned k = (unsigned)h & (unsigned)(c->cap - 1); c->tab[k];
	     k = (k + 1) & (unsigned)(c->cap - 1)) {
		cent_t *x = c->tab[k];
		if (x->hash != h || x->n != n || x->a != a || !same_opts(&x->o, o))
			continue;
		int i = 0;
		while (i < n && same_span(&x->sp[i], &spans[i]))
			i++;
		if (i == n)
			return x;
	}
	return NULL;
}

static void cache_insert(inline_cache_t *c, cent_t *x)
{
	unsigned h = (unsigned)x->hash & (unsigned)(c->cap - 1);
	while (c->tab[h])
		h = (h + 1) & (unsigned)(c->cap - 1);
	c->tab[h] = x;
}

/* Keep r for a, spans and o (whose hash cache_find left in c->hash). */
static void cache_keep(inline_cache_t *c, arena_t *a, const inline_span_t *spans, int n,
                       const inline_opts_t *o, const inline_result_t *r)
{
	if (2 * (c->n + 1) > c->cap) {
		cent_t **old = c->tab;
		int ocap = c->cap;
		c->cap = ocap ? 2 * ocap : 64;
		c->tab = xcalloc((size_t)c->cap, sizeof(*c->tab));
		for (int i = 0; i < ocap; i++)
			if (old[i])
				cache_insert(c, old[i]);
		free(old);
	}
	size_t bytes = 0;
	for (int i = 0; i < n; i++)
		bytes += (size_t)span_len(&spans[i]);
	cent_t *x = arena_alloc(c->a, sizeof(*x) + sizeof(*x->sp) * (size_t)n + bytes);
	x->sp = (inline_span_t *)(x + 1);
	char *t = (char *)(x->sp + n);
	for (int i = 0; i < n; i++) {
		x->sp[i] = spans[i];
		if (span_len(&spans[i])) {
			memcpy(t, spans[i].text, (size_t)spans[i].len);
			x->sp[i].text = t;
			t += spans[i].len;
		}
	}
	x->hash = c->hash;
	x->a = a;
	x->o = *o;
	x->n = n;
	x->r = *r;
	cache_insert(c, x);
	c->n++;
}

int inline_set(arena_t *a, const inline_span_t *spans, int n, const inline_opts_t *o,
               inline_result_t *out, errs_t *e)
{
	inline_cache_t *c = o->cache;
	/* what repeats is short (an organisation, a place, a date): a long
	   paragraph is not looked for (its key would cost what it saves) */
	int bytes = 0;
	for (int i = 0; c && i < n && bytes <= CACHE_MAXLEN; i++)
		bytes += span_len(&spans[i]);
	if (!c || n > CACHE_MAXSPANS || bytes > CACHE_MAXLEN)
		return il_set(a, spans, n, o, out, e);
	const cent_t *x = cache_find(c, a, spans, n > 0 ? n : 0, o);
	if (x) {
		*out = x->r;
		return 0;
	}
	int n0 = e->n, max = e->max ? e->max : 100;
	if (il_set(a, spans, n, o, out, e))
		return -1;
	if (e->n == n0 && n0 < max)
		cache_keep(c, a, spans, n > 0 ? n : 0, o, out);
	return 0;
}

/* Where il_shape ends a chunk of the text b (of drawn code points and
 * spaces) being built: before a word that follows spaces, at a newline,
 * after SHAPE_MAX code points. */
typedef struct wcut {
	uint32_t *v;
	int n, cap;
	int ncp;                /* code points since the last cut */
	int space;              /* the last one added was a space */
} wcut_t;

static void wcut_at(wcut_t *w, size_t at)
{
	w->ncp = 0;
	if (!at || (w->n && w->v[w->n - 1] == (uint32_t)at))
		return;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->v = xrealloc(w->v, (size_t)w->cap * sizeof(*w->v));
	}
	w->v[w->n++] = (uint32_t)at;
}

/* What inline_width measures of a span at no size, kept in a memo: its
 * glyphs (nu of them follow) and its code points (for the tracking). */
typedef struct wspan {
	int32_t nu, ncp;
} wspan_t;

/* s[0..n) with its Arabic letters in the joined forms il_bidi gives
 * them (bidi_shape: the forms, lam-alef as one glyph, the joiners done
 * with in right-to-left text), into a new string (*out_n bytes); NULL
 * when it has no Arabic letter (U+0600-06FF, U+0750-077F, U+0840-08FF:
 * their lead bytes), as is. Measured as written, the letters were
 * shaped unjoined, their isolated forms a quarter wider, and each word
 * went to HarfBuzz. */
static char *arabic_forms(const char *s, size_t n, size_t *out_n)
{
	size_t i = 0;
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i], d = i + 1 < n ? (unsigned char)s[i + 1] : 0;
		if ((c >= 0xD8 && c <= 0xDB) || (c == 0xDD && d >= 0x90) ||
		    (c == 0xE0 && d >= 0xA1 && d <= 0xA3))
			break;
	}
	if (i == n)
		return NULL;
	uint32_t *cp = xmalloc((n + 1) * sizeof(*cp));
	int m = 0;
	for (size_t k = 0; k < n;) {
		int l = utf8_decode(s + k, n - k, &cp[m]);
		if (l <= 0) {
			k++;
			continue;
		}
		k += (size_t)l;
		m++;
	}
	uint8_t *lv = xmalloc((size_t)m + 1);
	char *t = NULL;
	size_t tl = 0;
	if (bidi_levels(cp, m, 1, lv) >= 0) {
		bidi_shape(cp, m, lv);
		t = xmalloc((size_t)m * 4 + 1);
		for (int k = 0; k < m; k++) {
			if (cp[k] == 0xFEFF || ((cp[k] == 0x200C || cp[k] == 0x200D) && lv[k] % 2))
				continue;   /* not drawn (il_bidi) */
			tl += (size_t)utf8_encode(cp[k], t + tl);
		}
		t[tl] = 0;
	}
	free(cp);
	free(lv);
	*out_n = tl;
	return t;
}

/* inline_width; with rec, what it measures at no size is also written
 * there (per span a wspan_t and its glyphs, then the CJK-Latin gaps: the
 * index of the span whose size each is a quarter of). */
static int32_t width_of(const inline_span_t *spans, int n, const char *lang, buf_t *rec)
{
	int64_t w = 0;
	uint32_t prev = 0;      /* the last code point, for CJK-Latin gaps */
	int32_t prevsize = 0, prevspan = 0;
	buf_t b, gaps;
	wcut_t wc = {0};
	font_ushaped_t u = {0};
	buf_init(&b);
	buf_init(&gaps);
	for (int i = 0; i < n; i++) {
		const inline_span_t *s = &spans[i];
		size_t nl = 0, len = s->len > 0 ? (size_t)s->len : 0;
		char *nfc = uni_nfc(s->text ? s->text : "", len, &nl);
		const char *t = nfc ? nfc : s->text;
		size_t tl = nfc ? nl : len, al = 0;
		char *ar = t ? arabic_forms(t, tl, &al) : NULL;
		if (ar) {
			t = ar;
			tl = al;
		}
		buf_reset(&b);
		wc.n = wc.ncp = wc.space = 0;
		for (size_t k = 0; k < tl;) {
			uint32_t cp;
			int l = utf8_decode(t + k, tl - k, &cp), draw;
			if (!l) {
				k++;
				continue;
			}
			int kind = kind_of(cp, &draw);
			if (!draw && vs_draws(s, prev, cp))
				draw = 1;
			/* shaped in the chunks inline_set shapes (il_shape): a
			   word and the spaces after it */
			if (kind == K_NL) {
				wcut_at(&wc, b.len);
			} else {
				if (wc.ncp >= SHAPE_MAX || (wc.space && kind != K_SPACE))
					wcut_at(&wc, b.len);
				wc.ncp++;
				wc.space = kind == K_SPACE;
			}
			if (kind == K_SPACE)
				buf_putc(&b, ' ');
			else if (kind == K_CHAR && draw)
				buf_add(&b, t + k, (size_t)l);
			/* the quarter em il_cjk_spacing puts between Han and Latin
			   ("2023年9月"): a date column measured without it wraps */
			if (kind == K_CHAR && draw && ((is_han_kana(prev) && is_latin_alnum(cp)) ||
			                               (is_latin_alnum(prev) && is_han_kana(cp)))) {
				w += prevsize / 4;
				if (rec)
					buf_add(&gaps, (const char *)&prevspan, sizeof(prevspan));
			}
			if (kind != K_CHAR || draw) {
				prev = kind == K_CHAR ? cp : 0;
				prevsize = s->size;
				prevspan = i;
			}
			k += (size_t)l;
		}
		wspan_t ws = {0, 0};
		if (b.len && s->chain) {
			wcut_at(&wc, b.len);
			if (rec) {
				u.n = 0;
				font_width_pieces_u(s->chain, s->style, lang, s->feats, b.s, wc.v, wc.n, &u);
				w += font_uglyphs_width(u.g, u.n, s->size);
				ws.nu = u.n;
			} else {
				w += font_width_pieces(s->chain, s->style, s->size, lang, s->feats, b.s, wc.v,
				                       wc.n);
			}
		}
		for (size_t k = 0; b.len && (s->track || rec) && k < b.len; ws.ncp++) {
			uint32_t cp;
			int l = utf8_decode(b.s + k, b.len - k, &cp);
			k += l > 0 ? (size_t)l : 1;
		}
		if (b.len && s->track)   /* after each glyph but the last */
			w += (int64_t)s->track * (ws.ncp - 1);
		if (rec) {
			buf_add(rec, (const char *)&ws, sizeof(ws));
			buf_add(rec, (const char *)u.g, sizeof(*u.g) * (size_t)ws.nu);
		}
		free(ar);
		free(nfc);
	}
	if (rec && gaps.len)
		buf_add(rec, gaps.s, gaps.len);
	buf_done(&b);
	buf_done(&gaps);
	font_ushaped_done(&u);
	free(wc.v);
	return sat32(w);
}

int32_t inline_width(const inline_span_t *spans, int n, const char *lang)
{
	return width_of(spans, n, lang, NULL);
}

/* The width at the spans' sizes of what e keeps (width_of's record). */
static int32_t width_kept(const ment_t *e, const inline_span_t *spans, int n)
{
	const char *p = e->shp, *end = e->shp + e->nshp;
	int64_t w = 0;
	for (int i = 0; i < n; i++) {
		wspan_t ws;
		memcpy(&ws, p, sizeof(ws));
		p += sizeof(ws);
		if (ws.nu)
			w += font_uglyphs_width((const font_uglyph_t *)(const void *)p, ws.nu,
			                        spans[i].size);
		p += sizeof(font_uglyph_t) * (size_t)ws.nu;
		if (ws.ncp && spans[i].track)
			w += (int64_t)spans[i].track * (ws.ncp - 1);
	}
	for (; p < end; p += sizeof(int32_t)) {
		int32_t si;
		memcpy(&si, p, sizeof(si));
		w += spans[si].size / 4;
	}
	return sat32(w);
}

int32_t inline_width_memo(inline_memo_t *m, const inline_span_t *spans, int n,
                          const char *lang)
{
	if (!m)
		return inline_width(spans, n, lang);
	buf_t *b = &m->key;
	buf_reset(b);
	int32_t head[2] = {'W', n};
	key_put(b, head, sizeof(head));
	key_str(b, lang);
	for (int i = 0; i < n; i++) {
		const inline_span_t *sp = &spans[i];
		int32_t v[3] = {sp->text && sp->len > 0 ? sp->len : 0, sp->style, (int32_t)sp->feats};
		key_put(b, v, sizeof(v));
		key_put(b, &sp->chain, sizeof(sp->chain));
		if (v[0])
			key_put(b, sp->text, (size_t)v[0]);
	}
	ment_t *e = memo_lookup(m);
	if (e)
		return width_kept(e, spans, n);
	buf_reset(&m->rec);
	int32_t w = width_of(spans, n, lang, &m->rec);
	memo_keep(m, m->rec.s, m->rec.len);
	return w;
}
