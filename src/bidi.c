/* bidi: UAX #9 levels, Arabic joining and line order with libfribidi
 * (see bidi.h), loaded when a paragraph first has a right-to-left
 * character (dl.h): most CVs have none. The common paragraphs of a
 * right-to-left CV get their levels (levels_simple) and joined forms
 * (shape_simple) here, from libfribidi's character tables, without its
 * algorithms (1.3 M instructions, 6%, of the generated Arabic CV's render). */
#include <stdlib.h>
#include <string.h>
#include <fribidi.h>
#include "arena.h"
#include "bidi.h"
#include "dl.h"

#define FRIBIDI_FUNCS(X) X(fribidi_get_bidi_type) X(fribidi_get_bidi_types) \
	X(fribidi_get_bracket_types) X(fribidi_get_par_embedding_levels_ex) \
	X(fribidi_get_joining_types) X(fribidi_join_arabic) X(fribidi_shape) \
	X(fribidi_shape_arabic) X(fribidi_get_mirror_char)
static struct {
	FRIBIDI_FUNCS(DL_FIELD)
} fb;

/* 1 when libfribidi is loaded (0 when it cannot be: a broken install,
 * its text then stays left to right). */
static int fb_loaded(void)
{
	static int loaded; /* 1, or -1 when it cannot be loaded */
	if (!loaded) {
		char why[300];
		void *h = dl_open("libfribidi.so.0", why, sizeof(why));
#define X(f) DL_SYM(h, fb, f, why)
		FRIBIDI_FUNCS(X)
#undef X
		loaded = h ? 1 : -1;
	}
	return loaded > 0;
}

/* Where Unicode has right-to-left characters (bidi classes R, AL, AN):
 * outside these blocks there are none (test_inline checks every code
 * point), so text of other scripts (CJK) never loads the library. */
static int rtl_block(uint32_t cp)
{
	return (cp >= 0x590 && cp <= 0x8ff) || cp == 0x200f || (cp >= 0xfb1d && cp <= 0xfdff) ||
	       (cp >= 0xfe70 && cp <= 0xfeff) || (cp >= 0x10800 && cp <= 0x10fff) ||
	       (cp >= 0x1e800 && cp <= 0x1efff);
}

/* Unicode 15's Bidi_Class where libfribidi 1.0's tables (Unicode 10.0)
 * give another: the marks of what was encoded since in blocks whose
 * default is R or AL (NKo's U+07FD, Arabic Extended-A and -B, Hanifi
 * Rohingya, Yezidi, Arabic Extended-C, Sogdian, Old Uyghur: NSM, not R),
 * the Adlam nasalization mark (R, not L), the Siyaq numbers (AL, not L),
 * the Arabic ligatures and ornate parentheses of Unicode 14 (ON, not AL).
 * test_dl checks every code point against extracted/DerivedBidiClass.txt. */
static const struct {
	uint32_t lo, hi;
	FriBidiCharType t;
} newer[] = {
	{0x07FD, 0x07FD, FRIBIDI_TYPE_NSM},   {0x0898, 0x089F, FRIBIDI_TYPE_NSM},
	{0x08CA, 0x08D3, FRIBIDI_TYPE_NSM},   {0xFD40, 0xFD4F, FRIBIDI_TYPE_ON},
	{0xFDCF, 0xFDCF, FRIBIDI_TYPE_ON},    {0xFDFE, 0xFDFF, FRIBIDI_TYPE_ON},
	{0x10D24, 0x10D27, FRIBIDI_TYPE_NSM}, {0x10EAB, 0x10EAC, FRIBIDI_TYPE_NSM},
	{0x10EFD, 0x10EFF, FRIBIDI_TYPE_NSM}, {0x10F46, 0x10F50, FRIBIDI_TYPE_NSM},
	{0x10F82, 0x10F85, FRIBIDI_TYPE_NSM}, {0x1E94B, 0x1E94B, FRIBIDI_TYPE_RTL},
	{0x1EC71, 0x1ECB4, FRIBIDI_TYPE_AL},  {0x1ED01, 0x1ED3D, FRIBIDI_TYPE_AL},
};

static FriBidiCharType type_of(uint32_t cp, FriBidiCharType t)
{
	for (size_t i = 0; i < sizeof(newer) / sizeof(*newer) && cp >= newer[i].lo; i++)
		if (cp <= newer[i].hi)
			return newer[i].t;
	return t;
}

/* libfribidi's bidi types of cp[0..n) into t, as Unicode 15 has them. */
static void bidi_types(const uint32_t *cp, int n, FriBidiCharType *t)
{
	fb.fribidi_get_bidi_types(cp, n, t);
	for (int i = 0; i < n; i++)
		if (cp[i] >= 0x7FD && (cp[i] < 0x900 || (cp[i] >= 0xFD40 && cp[i] < 0xFE00) ||
		                       cp[i] >= 0x10D24))
			t[i] = type_of(cp[i], t[i]);
}

int bidi_is_rtl(uint32_t cp)
{
	if (!rtl_block(cp) || !fb_loaded())
		return 0;
	FriBidiCharType t = type_of(cp, fb.fribidi_get_bidi_type(cp));
	return t == FRIBIDI_TYPE_RTL || t == FRIBIDI_TYPE_AL || t == FRIBIDI_TYPE_AN;
}

/* What a paragraph of a right-to-left page needs no algorithm for:
 * Hebrew and Arabic letters (R, AL) and their marks (NSM), spaces, the
 * joiners (BN) and a few neutral stops. A paragraph of only these is all
 * at level 1 (UAX #9: its first strong character, if any, is right to
 * left; every neutral lies between two of them or at an edge, where sos
 * and eos are R; a mark takes its letter's level). test_inline checks it
 * against libfribidi. */
static int plain_rtl(uint32_t c)
{
	if (c < 0x591)
		return c == ' ' || c == '.' || c == ',' || c == ':';
	if (c <= 0x5F2)
		return (c >= 0x5D0 && c <= 0x5EA) || c >= 0x5EF || c <= 0x5BD || c == 0x5BF ||
		       c == 0x5C1 || c == 0x5C2 || c == 0x5C4 || c == 0x5C5 || c == 0x5C7;
	return c == 0x60C || c == 0x61B || c == 0x61F || (c >= 0x620 && c <= 0x65F) ||
	       (c >= 0x670 && c <= 0x6D3) || c == 0x6D5 || c == 0x200C || c == 0x200D;
}

/* Only plain_rtl characters; *arabic: some are Arabic. */
static int all_plain(const uint32_t *cp, int n, int *arabic)
{
	int ar = 0;
	for (int i = 0; i < n; i++) {
		if (!plain_rtl(cp[i]))
			return 0;
		ar |= cp[i] >= 0x600 && cp[i] < 0x700;
	}
	*arabic = ar;
	return 1;
}

/* The levels of the other paragraphs of a right-to-left page that need
 * none of UAX #9's machinery but its weak types (t: their bidi types, changed
 * here), the most of a CV's: none of explicit embeddings, isolates,
 * boundary neutrals or separators of segments or paragraphs, and either
 * no right-to-left type (R, AL, AN) with a left-to-right letter first (an
 * English title: P2, P3 make it left to right, and everything in it is at
 * level 0), or no left-to-right letter (Arabic or Hebrew with numbers,
 * or numbers alone: level 1, its numbers 2). In the second kind the
 * paragraph and sos and eos are right to left; W1-W6 settle which
 * characters are numbers (European ones after Arabic letters are Arabic,
 * W2; a single separator between two numbers, or terminators next to a
 * European one, join them, W4, W5); every neutral, bracket or not, lies
 * between strong types that all count as R (N0-N2: numbers do), so only
 * the numbers go up a level (I2) and L1 leaves trailing spaces at 1.
 * Returns the highest level, or -2: libfribidi's case. test_inline
 * checks it against libfribidi. */
static int levels_simple(FriBidiCharType *t, int n, uint8_t *lv)
{
	int ltr = 0, rtl = 0, first = 0;
	for (int i = 0; i < n; i++) {
		switch (t[i]) {
		case FRIBIDI_TYPE_LTR:
			ltr = 1;
			first = first ? first : 1;
			break;
		case FRIBIDI_TYPE_RTL:
		case FRIBIDI_TYPE_AL:
			first = first ? first : 2;
			/* fall through */
		case FRIBIDI_TYPE_AN:
			rtl = 1;
			break;
		case FRIBIDI_TYPE_EN: case FRIBIDI_TYPE_ES: case FRIBIDI_TYPE_ET:
		case FRIBIDI_TYPE_CS: case FRIBIDI_TYPE_NSM: case FRIBIDI_TYPE_WS:
		case FRIBIDI_TYPE_ON:
			break;
		default:
			return -2;
		}
	}
	if (first == 1 && !rtl) {
		memset(lv, 0, (size_t)n);
		return 0;
	}
	if (ltr)
		return -2;
	FriBidiCharType prev = FRIBIDI_TYPE_RTL; /* sos */
	for (int i = 0; i < n; i++) /* W1 */
		prev = t[i] = t[i] == FRIBIDI_TYPE_NSM ? prev : t[i];
	int al = 0;
	for (int i = 0; i < n; i++) { /* W2, W3 */
		if (t[i] == FRIBIDI_TYPE_RTL || t[i] == FRIBIDI_TYPE_AL) {
			al = t[i] == FRIBIDI_TYPE_AL;
			t[i] = FRIBIDI_TYPE_RTL;
		} else if (t[i] == FRIBIDI_TYPE_EN && al) {
			t[i] = FRIBIDI_TYPE_AN;
		}
	}
	for (int i = 1; i + 1 < n; i++) { /* W4 */
		FriBidiCharType a = t[i - 1], b = t[i + 1];
		if (t[i] == FRIBIDI_TYPE_ES && a == FRIBIDI_TYPE_EN && b == FRIBIDI_TYPE_EN)
			t[i] = FRIBIDI_TYPE_EN;
		else if (t[i] == FRIBIDI_TYPE_CS && a == b &&
		         (a == FRIBIDI_TYPE_EN || a == FRIBIDI_TYPE_AN))
			t[i] = a;
	}
	for (int i = 0; i < n;) { /* W5 */
		if (t[i] != FRIBIDI_TYPE_ET) {
			i++;
			continue;
		}
		int j = i;
		while (j < n && t[j] == FRIBIDI_TYPE_ET)
			j++;
		if ((i > 0 && t[i - 1] == FRIBIDI_TYPE_EN) || (j < n && t[j] == FRIBIDI_TYPE_EN))
			for (int k = i; k < j; k++)
				t[k] = FRIBIDI_TYPE_EN;
		i = j;
	}
	int max = 1;
	for (int i = 0; i < n; i++) { /* I2 */
		int num = t[i] == FRIBIDI_TYPE_EN || t[i] == FRIBIDI_TYPE_AN;
		lv[i] = (uint8_t)(1 + num);
		max = num ? 2 : max;
	}
	return max;
}

int bidi_levels(const uint32_t *cp, int n, int rtl, uint8_t *lv)
{
	int arabic;
	if (n > 0 && rtl && all_plain(cp, n, &arabic)) {
		memset(lv, 1, (size_t)n);
		return 1;
	}
	if (n > 0 && rtl && fb_loaded()) {
		FriBidiCharType *t = xmalloc((size_t)n * sizeof(*t));
		bidi_types(cp, n, t);
		int r = levels_simple(t, n, lv);
		free(t);
		if (r != -2)
			return r;
	}
	return bidi_levels_fribidi(cp, n, rtl, lv);
}

int bidi_levels_fribidi(const uint32_t *cp, int n, int rtl, uint8_t *lv)
{
	if (n <= 0)
		return 0;
	if (!fb_loaded())
		return -1;
	FriBidiCharType *t = xmalloc((size_t)n * sizeof(*t));
	FriBidiBracketType *bt = xmalloc((size_t)n * sizeof(*bt));
	FriBidiLevel *l = xmalloc((size_t)n * sizeof(*l));
	bidi_types(cp, n, t);
	fb.fribidi_get_bracket_types(cp, n, t, bt);
	/* in a right-to-left page a paragraph takes the direction of its first
	   strong character (an English sentence stays left to right), RTL
	   when it has none */
	FriBidiParType base = rtl ? FRIBIDI_PAR_WRTL : FRIBIDI_PAR_LTR;
	FriBidiLevel max = fb.fribidi_get_par_embedding_levels_ex(t, bt, n, &base, l);
	int r = max == 0 ? -1 : max - 1;
	for (int i = 0; i < n; i++)
		lv[i] = r < 0 ? (uint8_t)(rtl != 0) : (uint8_t)l[i];
	free(t);
	free(bt);
	free(l);
	return r;
}

/* Left to right throughout, and no character of a script that joins
 * (they are all in U+0590..U+1FFF, U+A800..U+ABFF, U+FB00..U+FEFF or
 * beyond the BMP): an English title of a right-to-left page, which
 * bidi_shape leaves as it is (only joining characters change shape, and
 * only right-to-left ones mirror). */
static int nothing_to_shape(const uint32_t *cp, int n, const uint8_t *lv)
{
	for (int i = 0; i < n; i++) {
		uint32_t c = cp[i];
		if ((lv[i] & 1) || (c >= 0x590 && c < 0x2000) || (c >= 0xA800 && c < 0xAC00) ||
		    (c >= 0xFB00 && c < 0xFF00) || c >= 0x10000)
			return 0;
	}
	return 1;
}

/* The presentation form libfribidi gives Arabic character cp (U+0600..
 * U+06FF) joined on the sides form says (FRIBIDI_MASK_JOINS_RIGHT: to the
 * character before it in a right-to-left run, _LEFT: to the one after),
 * asked of it once per character and form. */
static uint32_t arabic_form(uint32_t cp, unsigned form)
{
	static uint16_t memo[256][4]; /* the form + 1; 0: not asked yet */
	uint16_t *m = &memo[cp - 0x600][form];
	if (!*m) {
		FriBidiChar c = cp;
		FriBidiLevel l = 1;
		FriBidiArabicProp p = (FriBidiArabicProp)(FRIBIDI_MASK_ARAB_SHAPES | form);
		fb.fribidi_shape_arabic(FRIBIDI_FLAG_SHAPE_ARAB_PRES, &l, 1, &p, &c);
		*m = (uint16_t)(c <= 0xFFFE ? c + 1 : cp + 1);
	}
	return *m - 1u;
}

/* Arabic joining and mirroring of a paragraph whose joining characters
 * are all Arabic (U+0600..U+06FF) and right to left (the paragraphs of
 * an Arabic or Persian CV), as libfribidi's join, shape and mirroring
 * would do them (test_inline checks it against libfribidi): a character
 * joins the one before it, marks (transparent) skipped, when it joins on
 * that side, the other joins on its other side and they are at one level
 * (a boundary neutral's, a joiner's, matches any; a mark at another level
 * parts them); marks between two joined letters take both sides; each
 * shaping character takes its form (arabic_form); a lam next to an alef
 * is left to libfribidi's ligature (the pair alone, as it joins); a
 * right-to-left character with a mirror is mirrored. 0 (nothing done):
 * libfribidi's case. */
static int shape_simple(uint32_t *cp, int n, const uint8_t *lv, const FriBidiCharType *t,
                        FriBidiArabicProp *jt)
{
	const unsigned JR = FRIBIDI_MASK_JOINS_RIGHT, JL = FRIBIDI_MASK_JOINS_LEFT;
	for (int i = 0; i < n; i++) {
		if (FRIBIDI_IS_EXPLICIT(t[i]))
			return 0;
		if ((jt[i] & (JR | JL | FRIBIDI_MASK_TRANSPARENT)) &&
		    (!(lv[i] & 1) || ((jt[i] & FRIBIDI_MASK_ARAB_SHAPES) &&
		                      (cp[i] < 0x600 || cp[i] > 0x6FF))) &&
		    !FRIBIDI_IS_EXPLICIT_OR_BN(t[i]))
			return 0;
	}
	int prev = -1, joins = 0, plv = -1;
	for (int i = 0; i < n; i++) {
		if (jt[i] & FRIBIDI_MASK_IGNORED)
			continue;
		int l = FRIBIDI_IS_EXPLICIT_OR_BN(t[i]) ? -1 : lv[i];
		if (joins && l != plv && l >= 0 && plv >= 0) {
			joins = 0;  /* levels part them */
			if (jt[prev] & FRIBIDI_MASK_ARAB_SHAPES)
				jt[prev] &= ~JL;
		}
		if (jt[i] & FRIBIDI_MASK_TRANSPARENT)
			continue;
		if (joins && (jt[i] & JR)) {
			for (int k = prev + 1; k < i; k++)
				if (!(jt[k] & FRIBIDI_MASK_IGNORED))
					jt[k] |= JR | JL;
		} else {
			if (jt[i] & FRIBIDI_MASK_ARAB_SHAPES)
				jt[i] &= ~JR;
			if (joins && (jt[prev] & FRIBIDI_MASK_ARAB_SHAPES))
				jt[prev] &= ~JL;
		}
		prev = i;
		plv = l;
		joins = (jt[i] & JL) != 0;
	}
	if (joins && (jt[prev] & FRIBIDI_MASK_ARAB_SHAPES))
		jt[prev] &= ~JL;
	for (int i = 0; i < n; i++) {
		if (jt[i] & FRIBIDI_MASK_ARAB_SHAPES && cp[i] >= 0x600 && cp[i] <= 0x6FF) {
			if (cp[i] == 0x644 && i + 1 < n && (cp[i + 1] == 0x622 || cp[i + 1] == 0x623 ||
			                                    cp[i + 1] == 0x625 || cp[i + 1] == 0x627)) {
				FriBidiChar c2[2] = {cp[i], cp[i + 1]};
				FriBidiLevel l2[2] = {lv[i], lv[i + 1]};
				FriBidiArabicProp p2[2] = {jt[i], jt[i + 1]};
				fb.fribidi_shape_arabic(FRIBIDI_FLAGS_ARABIC, l2, 2, p2, c2);
				cp[i] = c2[0];
				cp[i + 1] = c2[1];
				i++;
				continue;
			}
			cp[i] = arabic_form(cp[i], jt[i] & (JR | JL));
		} else if ((lv[i] & 1) && t[i] != FRIBIDI_TYPE_AL && t[i] != FRIBIDI_TYPE_RTL &&
		           t[i] != FRIBIDI_TYPE_NSM && t[i] != FRIBIDI_TYPE_WS &&
		           t[i] != FRIBIDI_TYPE_EN && t[i] != FRIBIDI_TYPE_AN) {
			FriBidiChar m;
			if (fb.fribidi_get_mirror_char(cp[i], &m))
				cp[i] = m;
		}
	}
	return 1;
}

static void shape(uint32_t *cp, int n, const uint8_t *lv, int simple)
{
	FriBidiCharType *t = xmalloc((size_t)n * sizeof(*t));
	FriBidiArabicProp *ap = xmalloc((size_t)n * sizeof(*ap));
	bidi_types(cp, n, t);
	fb.fribidi_get_joining_types(cp, n, ap);
	if (!simple || !shape_simple(cp, n, lv, t, ap)) {
		FriBidiLevel *l = xmalloc((size_t)n * sizeof(*l));
		for (int i = 0; i < n; i++)
			l[i] = (FriBidiLevel)lv[i];
		fb.fribidi_join_arabic(t, n, l, ap);
		fb.fribidi_shape(FRIBIDI_FLAG_SHAPE_MIRRORING | FRIBIDI_FLAGS_ARABIC, l, n, ap, cp);
		free(l);
	}
	free(t);
	free(ap);
}

void bidi_shape(uint32_t *cp, int n, const uint8_t *lv)
{
	int arabic;
	if (n <= 0 || nothing_to_shape(cp, n, lv) || (all_plain(cp, n, &arabic) && !arabic))
		return; /* nothing to join, nothing to mirror */
	if (fb_loaded())
		shape(cp, n, lv, 1);
}

void bidi_shape_fribidi(uint32_t *cp, int n, const uint8_t *lv)
{
	if (n > 0 && fb_loaded())
		shape(cp, n, lv, 0);
}

/* L2: from the highest level down to the lowest odd one, reverse every
 * maximal sequence of items at that level or higher. */
void bidi_order(const uint8_t *lv, int n, int *order)
{
	int hi = 0, lo = 255;
	for (int i = 0; i < n; i++) {
		order[i] = i;
		if (lv[i] > hi)
			hi = lv[i];
		if (lv[i] % 2 && lv[i] < lo)
			lo = lv[i];
	}
	for (int k = hi; k >= lo && k > 0; k--) {
		for (int i = 0; i < n;) {
			if (lv[order[i]] < k) {
				i++;
				continue;
			}
			int j = i;
			while (j < n && lv[order[j]] >= k)
				j++;
			for (int a = i, b = j - 1; a < b; a++, b--) {
				int x = order[a];
				order[a] = order[b];
				order[b] = x;
			}
			i = j;
		}
	}
}
