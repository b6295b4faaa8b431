/* unicode: NFC and general categories with HarfBuzz's Unicode data (the
 * only Unicode database linked in); see unicode.h. uni_nfc(s, n, &len)
 * returns a malloc'd NFC copy, or NULL when s is already NFC -- decided
 * without allocating by UAX #15's quick check (NFC_QC) when the text has
 * no marks (of any combining class), conjoining jamo or characters that
 * are not their own NFC. tests/unit/test_nfc.c runs Unicode's
 * NormalizationTest.txt against it.
 *
 * Algorithm (UAX #15): full canonical decomposition (HarfBuzz's
 * hb_unicode_decompose, applied recursively; Hangul syllables
 * algorithmically), canonical ordering by combining class (stable), then
 * canonical composition (hb_unicode_compose; Hangul L+V and LV+T
 * algorithmically), which is blocked when a mark of the same or higher
 * class lies in between.
 */
#include <stdlib.h>
#include <string.h>
#include <hb.h>
#include "arena.h"
#include "unicode.h"
#include "utf8.h"

enum {
	SBASE = 0xac00, LBASE = 0x1100, VBASE = 0x1161, TBASE = 0x11a7,
	LCOUNT = 19, VCOUNT = 21, TCOUNT = 28, NCOUNT = VCOUNT * TCOUNT, SCOUNT = LCOUNT * NCOUNT
};

typedef struct ucs {
	uint32_t *v;
	size_t n, cap;
} ucs_t;

static void ucs_push(ucs_t *u, uint32_t cp)
{
	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 64;
		u->v = xrealloc(u->v, u->cap * sizeof(uint32_t));
	}
	u->v[u->n++] = cp;
}

static void decompose(hb_unicode_funcs_t *uf, uint32_t cp, ucs_t *u, int depth)
{
	if (cp >= SBASE && cp < SBASE + SCOUNT) {
		uint32_t si = cp - SBASE;
		ucs_push(u, LBASE + si / NCOUNT);
		ucs_push(u, VBASE + (si % NCOUNT) / TCOUNT);
		if (si % TCOUNT)
			ucs_push(u, TBASE + si % TCOUNT);
		return;
	}
	hb_codepoint_t a, b;
	if (depth < 8 && hb_unicode_decompose(uf, cp, &a, &b)) {
		decompose(uf, a, u, depth + 1);
		if (b)
			decompose(uf, b, u, depth + 1);
		return;
	}
	ucs_push(u, cp);
}

static unsigned ccc(hb_unicode_funcs_t *uf, uint32_t cp)
{
	return cp < 0x300 ? 0 : (unsigned)hb_unicode_combining_class(uf, cp);
}

/* Stable insertion sort of each run of non-starters by combining class. */
static void reorder(hb_unicode_funcs_t *uf, ucs_t *u)
{
	for (size_t i = 1; i < u->n; i++) {
		unsigned c = ccc(uf, u->v[i]);
		if (c == 0)
			continue;
		size_t j = i;
		uint32_t x = u->v[i];
		while (j > 0 && ccc(uf, u->v[j - 1]) > c) {
			u->v[j] = u->v[j - 1];
			j--;
		}
		u->v[j] = x;
	}
}

static int compose_pair(hb_unicode_funcs_t *uf, uint32_t a, uint32_t b, uint32_t *ab)
{
	if (a >= LBASE && a < LBASE + LCOUNT && b >= VBASE && b < VBASE + VCOUNT) {
		*ab = SBASE + ((a - LBASE) * VCOUNT + (b - VBASE)) * TCOUNT;
		return 1;
	}
	if (a >= SBASE && a < SBASE + SCOUNT && (a - SBASE) % TCOUNT == 0 &&
	    b > TBASE && b < TBASE + TCOUNT) {
		*ab = a + (b - TBASE);
		return 1;
	}
	hb_codepoint_t r;
	if (hb_unicode_compose(uf, a, b, &r)) {
		*ab = r;
		return 1;
	}
	return 0;
}

static void compose(hb_unicode_funcs_t *uf, ucs_t *u)
{
	if (u->n == 0)
		return;
	size_t starter = 0, out = 1;
	int last = ccc(uf, u->v[0]) ? 256 : 0;
	for (size_t i = 1; i < u->n; i++) {
		uint32_t ch = u->v[i], ab;
		int c = (int)ccc(uf, ch);
		int blocked = !(last < c || last == 0);
		if (last == 256)
			blocked = 1;
		if (!blocked && compose_pair(uf, u->v[starter], ch, &ab)) {
			u->v[starter] = ab;
			continue;
		}
		if (c == 0) {
			starter = out;
			last = 0;
		} else {
			last = c;
		}
		u->v[out++] = ch;
	}
	u->n = out;
}

/* A mark of any kind: the second of a canonical pair is a mark even when
 * its combining class is 0 -- spacing (U+0BBE) or not (U+102E, U+11127). */
static int is_mark(hb_unicode_funcs_t *uf, uint32_t cp)
{
	if (cp < 0x300)
		return 0;
	hb_unicode_general_category_t gc = hb_unicode_general_category(uf, cp);
	return gc == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK ||
	       gc == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK ||
	       gc == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK;
}

/* UAX #15's NFC quick check, NFC_QC, for one code point: 1 when cp is
 * NFC_QC=Yes and cannot combine with the character before it -- a
 * starter (combining class 0, not a mark of any kind, not a conjoining
 * jamo) that either has no canonical decomposition or is the primary
 * composite of its decomposition (hb_unicode_compose, which leaves out
 * the composition exclusions; its first half itself such a starter):
 * й, ё, ά, é. A text of only these is its own NFC (tests/unit/test_nfc.c
 * checks every code point against the full algorithm). Singletons and
 * excluded or non-starter decompositions (U+212B, U+0958, U+0344) and
 * everything that can be the second of a pair say 0: the full algorithm
 * decides. */
static int qc_yes(hb_unicode_funcs_t *uf, uint32_t cp, int depth)
{
	if (cp < 0x300)
		return 1; /* Latin-1 and Latin Extended (ü, ł, ǖ): starters that are
		             their own NFC (none is NFC_QC No or Maybe) */
	if ((cp >= 0x1100 && cp <= 0x11ff) || ccc(uf, cp) != 0 || is_mark(uf, cp))
		return 0;
	if (cp >= SBASE && cp < SBASE + SCOUNT)
		return 1;
	hb_codepoint_t a, b, ab;
	if (!hb_unicode_decompose(uf, cp, &a, &b))
		return 1;
	return depth < 8 && b && hb_unicode_compose(uf, a, b, &ab) && ab == cp &&
	       qc_yes(uf, a, depth + 1);
}

/* The Brahmic blocks U+0900..U+0DFF (Devanagari to Sinhala), Thai and
 * Lao (U+0E00..U+0EFF) and Khmer (U+1780..U+17FF), whose canonical pairs
 * are all inside one block (nukta forms, two-part vowel signs: U+0929,
 * U+09CB, U+0BCA, U+0DDA; Thai, Lao and Khmer have none; test_nfc checks
 * every code point): their text is full of marks, which the quick check
 * leaves to the full algorithm, but few of them combine with anything. */
enum { BR_LO = 0x0900, BR_HI = 0x0eff, KH_LO = 0x1780, KH_HI = 0x17ff,
       BR_N = (BR_HI + 1 - BR_LO) + (KH_HI + 1 - KH_LO), BR_BLOCKS = BR_N / 128 };

/* cp's index in those blocks, or -1 */
static int br_at(uint32_t cp)
{
	if (cp >= BR_LO && cp <= BR_HI)
		return (int)(cp - BR_LO);
	if (cp >= KH_LO && cp <= KH_HI)
		return (int)(cp - KH_LO) + (BR_HI + 1 - BR_LO);
	return -1;
}

/* 1 when cp (in those blocks: br_at(cp) >= 0) is the second of a
 * canonical pair whose composite is not excluded: found once per block
 * of 128 from its decompositions. */
static int br_second(hb_unicode_funcs_t *uf, uint32_t cp)
{
	static unsigned char done[BR_BLOCKS], second[BR_N];
	int at = br_at(cp);
	if (at < 0 || at >= BR_N)
		return 0;
	unsigned blk = (unsigned)at / 128;
	if (!done[blk]) {
		done[blk] = 1;
		uint32_t c0 = cp - (uint32_t)at % 128;
		for (uint32_t c = c0; c < c0 + 128; c++) {
			hb_codepoint_t a, b, ab;
			int bi = hb_unicode_decompose(uf, c, &a, &b) ? br_at(b) : -1;
			if (bi >= 0 && bi < BR_N && hb_unicode_compose(uf, a, b, &ab) && ab == c)
				second[bi] = 1;
		}
	}
	return second[at];
}

/* What the text check (maybe_not_nfc) knows of a code point:
 * Q_YES   qc_yes: a starter that is its own NFC and combines with nothing
 *         before it;
 * Q_INERT a Brahmic code point without a canonical decomposition that is
 *         the second of no pair: it never combines, whatever its
 *         combining class (viramas, vowel signs, anusvara);
 * Q_SECOND a Brahmic second of a pair without a decomposition of its own
 *         (U+093C nukta, U+09BE, U+0BBE): NFC when it cannot combine with
 *         the code point just before it;
 * Q_FULL  anything else: the full algorithm decides. */
enum { Q_FULL, Q_YES, Q_INERT, Q_SECOND };

static unsigned qc_class(hb_unicode_funcs_t *uf, uint32_t cp)
{
	if (br_at(cp) >= 0) {
		hb_codepoint_t a, b, ab, x, y;
		if (!hb_unicode_decompose(uf, cp, &a, &b))
			return br_second(uf, cp) ? Q_SECOND : Q_INERT;
		/* a two-part vowel sign or nukta letter (U+0BCA, U+0929):
		   its own NFC and a starter when its first part is a starter
		   that is nobody's second and either decomposes no further or
		   is itself such a vowel sign (U+0CCB = U+0CCA U+0CD5, U+0DDD
		   = U+0DDC U+0DCA), and its second part decomposes no
		   further */
		if (br_at(b) >= 0 && br_at(a) >= 0 &&
		    hb_unicode_compose(uf, a, b, &ab) && ab == cp && ccc(uf, a) == 0 &&
		    !br_second(uf, a) && !hb_unicode_decompose(uf, b, &x, &y) &&
		    (!hb_unicode_decompose(uf, a, &x, &y) || qc_class(uf, a) == Q_YES))
			return Q_YES;
	}
	return qc_yes(uf, cp, 0) ? Q_YES : Q_FULL;
}

/* qc_class and the combining class (class | ccc << 2) through a small
 * direct-mapped memo: a CV's text repeats a few dozen letters of its
 * script. */
static unsigned qc_memo(hb_unicode_funcs_t *uf, uint32_t cp)
{
	static uint32_t key[512];    /* cp + 1; 0 = empty */
	static uint16_t val[512];
	unsigned h = (cp ^ (cp >> 9)) & 511;
	if (key[h] != cp + 1) {
		key[h] = cp + 1;
		unsigned q = qc_class(uf, cp);   /* Q_YES: a starter */
		val[h] = (uint16_t)(q | (q == Q_YES ? 0 : ccc(uf, cp) << 2));
	}
	return val[h];
}

unsigned uni_ccc(uint32_t cp)
{
	return ccc(hb_unicode_funcs_get_default(), cp);
}

int uni_nfc_qc_yes(uint32_t cp)
{
	return qc_yes(hb_unicode_funcs_get_default(), cp, 0);
}

/* Could s differ from its NFC? False when every code point passes the
 * quick check (qc_yes: ASCII, Latin, and the precomposed letters of
 * Cyrillic, Greek, Vietnamese, ...) or is a Brahmic one that cannot
 * combine there (Q_INERT; Q_SECOND right after a starter it does not
 * combine with), and the combining classes of each run of marks go up
 * (canonical order). Decompositions of Q_YES code points change nothing:
 * their marks combine back, and a Q_INERT mark that canonical ordering
 * moves in front of them combines with nothing. */
static int maybe_not_nfc(hb_unicode_funcs_t *uf, const char *s, size_t n)
{
	uint32_t prev = 0;      /* the code point before, 0 at the start */
	unsigned last = 0;      /* its combining class */
	int prevq = Q_YES;      /* its class */
	for (size_t i = 0; i < n;) {
		if ((unsigned char)s[i] < 0x80) {
			while (++i < n && (unsigned char)s[i] < 0x80)
				;
			prev = (unsigned char)s[i - 1];
			last = 0;
			prevq = Q_YES;
			continue;
		}
		uint32_t cp;
		int l = utf8_decode(s + i, n - i, &cp);
		if (l == 0)
			return 0; /* invalid UTF-8: not ours to fix */
		i += (size_t)l;
		if (cp < 0x300) {
			prev = cp;
			last = 0;
			prevq = Q_YES;
			continue;
		}
		unsigned v = qc_memo(uf, cp), q = v & 3, c = v >> 2;
		if (q == Q_FULL || (c && c < last))
			return 1;
		if (q == Q_SECOND) {
			/* it combines only with a starter: the one just before
			   (a combining class 0 second is blocked by any mark
			   between), which must not be a composite whose marks
			   canonical ordering could move (Q_YES U+00E9 before
			   U+0327) when the second is a mark itself */
			hb_codepoint_t ab;
			if (prev && (last != 0 || (c && prevq != Q_INERT && prevq != Q_SECOND)))
				return 1;
			if (prev && hb_unicode_compose(uf, prev, cp, &ab))
				return 1;
		}
		prev = cp;
		last = c;
		prevq = (int)q;
	}
	return 0;
}

char *uni_nfc(const char *s, size_t n, size_t *outlen)
{
	if (!maybe_not_nfc(hb_unicode_funcs_get_default(), s, n))
		return NULL;
	return uni_nfc_full(s, n, outlen);
}

char *uni_nfc_full(const char *s, size_t n, size_t *outlen)
{
	hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
	ucs_t u = { NULL, 0, 0 };
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(s + i, n - i, &cp);
		if (l == 0) {
			free(u.v);
			return NULL;
		}
		decompose(uf, cp, &u, 0);
		i += (size_t)l;
	}
	reorder(uf, &u);
	compose(uf, &u);
	char *r = xmalloc(u.n * 4 + 1);
	size_t len = 0;
	for (size_t i = 0; i < u.n; i++)
		len += (size_t)utf8_encode(u.v[i], r + len);
	r[len] = 0;
	free(u.v);
	if (len == n && memcmp(r, s, n) == 0) {
		free(r);
		return NULL;
	}
	if (outlen)
		*outlen = len;
	return r;
}

/* HarfBuzz's general category through a small direct-mapped memo (as
 * qc_memo): a CV asks it of the same few dozen letters of its script,
 * per code point of every text drawn (pdf.c's text parts), hyphenated
 * (hyph.c) and itemised (font_shape.c's marks). */
static hb_unicode_general_category_t category(uint32_t cp)
{
	static uint32_t key[1024];    /* cp + 1; 0 = empty */
	static uint8_t val[1024];
	unsigned h = (cp ^ (cp >> 10)) & 1023;
	if (key[h] != cp + 1) {
		key[h] = cp + 1;
		val[h] = (uint8_t)hb_unicode_general_category(hb_unicode_funcs_get_default(), cp);
	}
	return (hb_unicode_general_category_t)val[h];
}

int uni_is_letter(uint32_t cp)
{
	switch (category(cp)) {
	case HB_UNICODE_GENERAL_CATEGORY_LOWERCASE_LETTER:
	case HB_UNICODE_GENERAL_CATEGORY_MODIFIER_LETTER:
	case HB_UNICODE_GENERAL_CATEGORY_OTHER_LETTER:
	case HB_UNICODE_GENERAL_CATEGORY_TITLECASE_LETTER:
	case HB_UNICODE_GENERAL_CATEGORY_UPPERCASE_LETTER:
		return 1;
	default:
		return 0;
	}
}

int uni_is_mark(uint32_t cp)
{
	switch (category(cp)) {
	case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
	case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
	case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
		return 1;
	default:
		return 0;
	}
}

int uni_is_nonspacing(uint32_t cp)
{
	return cp >= 0x300 && category(cp) == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK;
}

int uni_is_nsm(uint32_t cp)
{
	if (cp < 0x300)
		return 0;
	hb_unicode_general_category_t c = category(cp);
	return c == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK ||
	       c == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK;
}

const char *uni_unshaped_script(uint32_t cp)
{
	static const struct {
		uint32_t lo, hi;
		const char *name;
	} sc[] = {
		{0x0a00, 0x0a7f, "Gurmukhi"},   {0x0a80, 0x0aff, "Gujarati"},
		{0x0b00, 0x0b7f, "Oriya"},      {0x0c00, 0x0c7f, "Telugu"},
		{0x0c80, 0x0cff, "Kannada"},    {0x0d00, 0x0d7f, "Malayalam"},
		{0x0d80, 0x0dff, "Sinhala"},    {0x0e80, 0x0eff, "Lao"},
		{0x0f00, 0x0fff, "Tibetan"},    {0x1000, 0x109f, "Myanmar"},
		{0x1780, 0x17ff, "Khmer"},      {0x19e0, 0x19ff, "Khmer"},
		{0xa9e0, 0xa9ff, "Myanmar"},    {0xaa60, 0xaa7f, "Myanmar"}};
	if (cp < 0x0a00 || cp > 0xaa7f)
		return NULL;
	for (size_t i = 0; i < sizeof(sc) / sizeof(sc[0]); i++)
		if (cp >= sc[i].lo && cp <= sc[i].hi)
			return sc[i].name;
	return NULL;
}

/* Arabic Presentation Forms-A (U+FB50-FBFF) and -B (U+FE70-FEFF): the one
 * letter each form is a positional form of (its compatibility
 * decomposition, from UnicodeData.txt), 0 for ligatures of two letters,
 * spacing marks and unassigned code points. */
static const uint16_t pres_a[] = {
	0x0671, 0x0671, 0x067b, 0x067b, 0x067b, 0x067b, 0x067e, 0x067e,
	0x067e, 0x067e, 0x0680, 0x0680, 0x0680, 0x0680, 0x067a, 0x067a,
	0x067a, 0x067a, 0x067f, 0x067f, 0x067f, 0x067f, 0x0679, 0x0679,
	0x0679, 0x0679, 0x06a4, 0x06a4, 0x06a4, 0x06a4, 0x06a6, 0x06a6,
	0x06a6, 0x06a6, 0x0684, 0x0684, 0x0684, 0x0684, 0x0683, 0x0683,
	0x0683, 0x0683, 0x0686, 0x0686, 0x0686, 0x0686, 0x0687, 0x0687,
	0x0687, 0x0687, 0x068d, 0x068d, 0x068c, 0x068c, 0x068e, 0x068e,
	0x0688, 0x0688, 0x0698, 0x0698, 0x0691, 0x0691, 0x06a9, 0x06a9,
	0x06a9, 0x06a9, 0x06af, 0x06af, 0x06af, 0x06af, 0x06b3, 0x06b3,
	0x06b3, 0x06b3, 0x06b1, 0x06b1, 0x06b1, 0x06b1, 0x06ba, 0x06ba,
	0x06bb, 0x06bb, 0x06bb, 0x06bb, 0x06c0, 0x06c0, 0x06c1, 0x06c1,
	0x06c1, 0x06c1, 0x06be, 0x06be, 0x06be, 0x06be, 0x06d2, 0x06d2,
	0x06d3, 0x06d3, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x06ad, 0x06ad, 0x06ad, 0x06ad, 0x06c7,
	0x06c7, 0x06c6, 0x06c6, 0x06c8, 0x06c8, 0x0677, 0x06cb, 0x06cb,
	0x06c5, 0x06c5, 0x06c9, 0x06c9, 0x06d0, 0x06d0, 0x06d0, 0x06d0,
	0x0649, 0x0649, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x0000, 0x06cc, 0x06cc, 0x06cc, 0x06cc,
};
static const uint16_t pres_b[] = {
	0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
	0x0621, 0x0622, 0x0622, 0x0623, 0x0623, 0x0624, 0x0624, 0x0625,
	0x0625, 0x0626, 0x0626, 0x0626, 0x0626, 0x0627, 0x0627, 0x0628,
	0x0628, 0x0628, 0x0628, 0x0629, 0x0629, 0x062a, 0x062a, 0x062a,
	0x062a, 0x062b, 0x062b, 0x062b, 0x062b, 0x062c, 0x062c, 0x062c,
	0x062c, 0x062d, 0x062d, 0x062d, 0x062d, 0x062e, 0x062e, 0x062e,
	0x062e, 0x062f, 0x062f, 0x0630, 0x0630, 0x0631, 0x0631, 0x0632,
	0x0632, 0x0633, 0x0633, 0x0633, 0x0633, 0x0634, 0x0634, 0x0634,
	0x0634, 0x0635, 0x0635, 0x0635, 0x0635, 0x0636, 0x0636, 0x0636,
	0x0636, 0x0637, 0x0637, 0x0637, 0x0637, 0x0638, 0x0638, 0x0638,
	0x0638, 0x0639, 0x0639, 0x0639, 0x0639, 0x063a, 0x063a, 0x063a,
	0x063a, 0x0641, 0x0641, 0x0641, 0x0641, 0x0642, 0x0642, 0x0642,
	0x0642, 0x0643, 0x0643, 0x0643, 0x0643, 0x0644, 0x0644, 0x0644,
	0x0644, 0x0645, 0x0645, 0x0645, 0x0645, 0x0646, 0x0646, 0x0646,
	0x0646, 0x0647, 0x0647, 0x0647, 0x0647, 0x0648, 0x0648, 0x0649,
	0x0649, 0x064a, 0x064a, 0x064a, 0x064a, 0x0000, 0x0000, 0x0000,
	0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
};

uint32_t uni_pres_letter(uint32_t cp)
{
	uint16_t v = 0;
	if (cp >= 0xFB50 && cp <= 0xFBFF)
		v = pres_a[cp - 0xFB50];
	else if (cp >= 0xFE70 && cp <= 0xFEFF)
		v = pres_b[cp - 0xFE70];
	return v ? v : cp;
}
