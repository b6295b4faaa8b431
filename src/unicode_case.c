/* unicode_case: case mapping for titles in capitals (see unicode.h).
 *
 * The data is src/unicode_casetab.h, generated from the Unicode Character
 * Database by tests/tools/gen_case.py: the simple mappings as runs of
 * equal delta (binary search), SpecialCasing's unconditional full
 * mappings, Soft_Dotted, and each Greek letter's capital and marks. What
 * depends on context or language is code here:
 *
 * - Greek capitals carry no accents (Greek typography; the rules ICU's
 *   el upper-casing follows): accents, breathings and the macron or breve
 *   are dropped, the dialytika is kept, an ypogegrammeni becomes a capital
 *   iota after its letter (ᾳ -> ΑΙ), an iota or upsilon after a vowel that
 *   lost an accent gains a dialytika (τσάι -> ΤΣΑΪ: it was not a
 *   diphthong), and the disjunctive ή standing alone keeps its tonos (Ή).
 *   These apply to Greek letters whatever the CV's language.
 * - tr, az: i -> İ (SpecialCasing's tr/az entries; ı -> I is simple).
 * - lt: a combining dot above after a soft-dotted letter (i̇, į̇) is
 *   dropped (After_Soft_Dotted).
 * - Georgian Mkhedruli has capitals (Mtavruli, U+1C90) since Unicode 11,
 *   but Georgian text is not written in them except as a style: only a
 *   Georgian (ka) CV's titles get them.
 * The result goes through uni_nfc (Ọ from O + U+0323 stays one letter).
 */
#include <stdlib.h>
#include <string.h>
#include "unicode.h"
#include "utf8.h"
#include "unicode_casetab.h"

enum { G_VOWEL = 1, G_ACCENT = 2, G_DIALYTIKA = 4, G_YPOG = 8, G_OTHER = 16 };

static const case_run_t *run_find(const case_run_t *r, size_t n, uint32_t cp)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r[mid].start > cp)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo == 0)
		return NULL;
	const case_run_t *x = &r[lo - 1];
	uint32_t off = cp - x->start;
	return off % x->step == 0 && off / x->step < x->n ? x : NULL;
}

const char *uni_case_version(void)
{
	return CASE_UNICODE_VERSION;
}

uint32_t uni_case_simple(uint32_t cp, int kind)
{
	static const case_run_t *const tab[3] = {case_lower, case_title, case_upper};
	static const size_t len[3] = {sizeof(case_lower) / sizeof(case_lower[0]),
	                              sizeof(case_title) / sizeof(case_title[0]),
	                              sizeof(case_upper) / sizeof(case_upper[0])};
	if (kind < UNI_LOWER || kind > UNI_UPPER)
		return cp;
	const case_run_t *r = run_find(tab[kind], len[kind], cp);
	return r ? (uint32_t)((int32_t)cp + r->delta) : cp;
}

static const case_special_t *special_find(uint32_t cp)
{
	size_t lo = 0, hi = sizeof(case_special) / sizeof(case_special[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (case_special[mid].cp == cp)
			return &case_special[mid];
		if (case_special[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int uni_case_full(uint32_t cp, int kind, uint32_t out[3])
{
	const case_special_t *s = cp >= 0xDF ? special_find(cp) : NULL;
	if (s && kind >= UNI_LOWER && kind <= UNI_UPPER) {
		int n = 0;
		while (n < 3 && s->m[kind][n])
			n++;
		memcpy(out, s->m[kind], sizeof(s->m[kind]));
		return n;
	}
	out[0] = uni_case_simple(cp, kind);
	return 1;
}

int uni_case_lower(uint32_t cp)
{
	uint32_t o[3];
	return uni_case_full(cp, UNI_UPPER, o) != 1 || o[0] != cp;
}

static int soft_dotted(uint32_t cp)
{
	size_t lo = 0, hi = sizeof(case_soft_dotted) / sizeof(case_soft_dotted[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (case_soft_dotted[mid] == cp)
			return 1;
		if (case_soft_dotted[mid] < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* A Greek letter's capital and marks (flags G_*): 1 for one of the table
 * or a capital of the basic block; 0 for anything else. */
static int greek_letter(uint32_t cp, uint32_t *cap, unsigned *flags)
{
	if ((cp < 0x370 || cp > 0x3FF) && (cp < 0x1F00 || cp > 0x1FFF))
		return 0;
	size_t lo = 0, hi = sizeof(case_greek) / sizeof(case_greek[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (case_greek[mid].cp == cp) {
			*cap = case_greek[mid].cap;
			*flags = case_greek[mid].flags;
			return 1;
		}
		if (case_greek[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) {
		*cap = cp;
		*flags = (cp == 0x391 || cp == 0x395 || cp == 0x397 || cp == 0x399 || cp == 0x39F ||
		          cp == 0x3A5 || cp == 0x3A9) ? G_VOWEL : 0;
		return 1;
	}
	return 0;
}

/* The marks a Greek capital drops (or keeps: the dialytika), as G_*. */
static unsigned greek_mark(uint32_t cp)
{
	switch (cp) {
	case 0x300: case 0x301: case 0x302: case 0x303: case 0x311: case 0x342:
		return G_ACCENT;
	case 0x308: return G_DIALYTIKA;
	case 0x344: return G_ACCENT | G_DIALYTIKA;
	case 0x345: return G_YPOG;
	case 0x304: case 0x306: case 0x313: case 0x314: case 0x343:
		return G_OTHER;
	}
	return 0;
}

static void put(buf_t *b, uint32_t cp)
{
	char u[4];
	buf_add(b, u, (size_t)utf8_encode(cp, u));
}

/* The language subtag of a BCP 47 tag, compared with two letters. */
static int lang_is(const char *lang, const char *code)
{
	return lang && (lang[0] | 0x20) == code[0] && (lang[1] | 0x20) == code[1] &&
	       (lang[2] == 0 || lang[2] == '-' || lang[2] == '_');
}

typedef struct cstate {
	int turkic, lt, ka;
	int cased;        /* the last letter before (marks skipped) */
	int vowel_accent; /* ... was a Greek vowel that lost an accent */
	int soft;         /* ... was soft-dotted, no mark of class 0 or 230 since */
} cstate_t;

/* One Greek letter at s[i] (cap, flags) and the Greek marks after it;
 * returns where the next character starts. */
static size_t greek_upper(const char *s, size_t n, size_t i, uint32_t cap, unsigned flags,
                          cstate_t *st, buf_t *out)
{
	int nypog = (flags & G_YPOG) != 0;
	uint32_t cp;
	for (int l; i < n && (l = utf8_decode(s + i, n - i, &cp)) > 0 && greek_mark(cp); i += (size_t)l) {
		flags |= greek_mark(cp);
		nypog += greek_mark(cp) == G_YPOG;
	}
	if ((flags & G_VOWEL) && st->vowel_accent && (cap == 0x399 || cap == 0x3A5))
		flags |= G_DIALYTIKA;
	int next_letter = i < n && utf8_decode(s + i, n - i, &cp) > 0 && uni_is_letter(cp);
	if (cap == 0x397 && (flags & G_ACCENT) && !nypog && !st->cased && !next_letter) {
		put(out, 0x389); /* ή, "or": Ή */
	} else if ((flags & G_DIALYTIKA) && (cap == 0x399 || cap == 0x3A5)) {
		put(out, cap == 0x399 ? 0x3AA : 0x3AB);
	} else {
		put(out, cap);
		if (flags & G_DIALYTIKA)
			put(out, 0x308);
	}
	while (nypog--)
		put(out, 0x399);
	st->vowel_accent = (flags & (G_VOWEL | G_ACCENT | G_DIALYTIKA)) == (G_VOWEL | G_ACCENT);
	st->cased = 1;
	st->soft = 0;
	return i;
}

/* Can a code point of cp's block change in capitals? */
static int block_cased(uint32_t cp)
{
	uint32_t b = cp >> 8;
	return b >> 5 < sizeof(case_blocks) / sizeof(case_blocks[0]) &&
	       (case_blocks[b >> 5] >> (b & 31) & 1);
}

static void other_upper(uint32_t cp, cstate_t *st, buf_t *out)
{
	if (!block_cased(cp)) { /* CJK, Hangul, Arabic, Indic: as written, not cased */
		put(out, cp);
		st->cased = st->soft = st->vowel_accent = 0;
		return;
	}
	unsigned c = cp >= 0x300 ? uni_ccc(cp) : 0;
	if (cp == 0x307 && st->lt && st->soft)
		return; /* lt: i̇ -> I */
	if (c == 0 || c == 230)
		st->soft = 0;
	if (c == 0 && !uni_is_mark(cp)) {
		st->cased = uni_is_letter(cp);
		st->soft = soft_dotted(cp);
		st->vowel_accent = 0;
	}
	if (cp == 'i' && st->turkic) {
		put(out, 0x130);
		return;
	}
	if (cp >= 0x10D0 && cp <= 0x10FF && !st->ka) {
		put(out, cp);
		return;
	}
	uint32_t m[3];
	int k = uni_case_full(cp, UNI_UPPER, m);
	for (int j = 0; j < k; j++)
		put(out, m[j]);
}

static void add_nfc(buf_t *out, size_t from)
{
	size_t nl;
	if (out->len == from)
		return;
	char *nfc = uni_nfc(out->s + from, out->len - from, &nl);
	if (nfc) {
		out->len = from;
		buf_add(out, nfc, nl);
		free(nfc);
	}
}

int uni_upper_ascii(const char *s, size_t n, const char *lang)
{
	if (lang_is(lang, "tr") || lang_is(lang, "az"))
		return 0;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		int l = utf8_decode(s + i, n - i, &cp);
		if (l == 0 || block_cased(cp))
			return 0;
		i += (size_t)l;
	}
	return 1;
}

void uni_upper(const char *s, size_t n, const char *lang, buf_t *out)
{
	size_t from = out->len;
	cstate_t st = {lang_is(lang, "tr") || lang_is(lang, "az"), lang_is(lang, "lt"),
	               lang_is(lang, "ka"), 0, 0, 0};
	for (size_t i = 0; i < n;) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x80) { /* ASCII, inline */
			if (ch == 'i' && st.turkic) {
				put(out, 0x130);
			} else {
				buf_putc(out, ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
			}
			st.cased = (ch | 0x20) >= 'a' && (ch | 0x20) <= 'z';
			st.soft = ch == 'i' || ch == 'j';
			st.vowel_accent = 0;
			i++;
			continue;
		}
		uint32_t cp, cap;
		unsigned flags;
		int l = utf8_decode(s + i, n - i, &cp);
		if (l == 0) { /* not UTF-8: copied as it is */
			buf_putc(out, ch);
			i++;
			continue;
		}
		i += (size_t)l;
		if (greek_letter(cp, &cap, &flags))
			i = greek_upper(s, n, i, cap, flags, &st, out);
		else
			other_upper(cp, &st, out);
	}
	add_nfc(out, from);
}

void uni_title_first(const char *s, size_t n, const char *lang, buf_t *out)
{
	size_t from = out->len;
	uint32_t cp, m[3];
	int l = n ? utf8_decode(s, n, &cp) : 0;
	if (l == 0) {
		buf_add(out, s, n);
		return;
	}
	int k = 1;
	if (cp == 'i' && (lang_is(lang, "tr") || lang_is(lang, "az")))
		m[0] = 0x130;
	else
		k = uni_case_full(cp, UNI_TITLE, m);
	for (int j = 0; j < k; j++)
		put(out, m[j]);
	buf_add(out, s + l, n - (size_t)l);
	add_nfc(out, from);
}
