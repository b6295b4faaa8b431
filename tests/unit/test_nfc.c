/* test_nfc: uni_nfc against Unicode's own NormalizationTest.txt (Debian's
 * unicode-data package, bzip2'd): for every line c1;c2;c3;c4;c5 the NFC checks of
 * the file's header -- c2 == NFC(c1) == NFC(c2) == NFC(c3) and
 * c4 == NFC(c4) == NFC(c5). Issue 15, case 13: the fast path missed
 * non-spacing marks of combining class 0 (U+1026, U+1112E, U+1112F). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hb.h>
#include "unicode.h"
#include "t.h"
#include "utf8.h"

#define TESTFILE "/usr/share/unicode/NormalizationTest.txt.bz2"

static int checks, fails;

/* "0044 0307" -> UTF-8 */
static size_t field(const char *s, char *out)
{
	size_t n = 0;
	while (*s && *s != ';') {
		char *end;
		unsigned long cp = strtoul(s, &end, 16);
		if (end == s)
			break;
		n += (size_t)utf8_encode((uint32_t)cp, out + n);
		s = end;
		while (*s == ' ')
			s++;
	}
	out[n] = 0;
	return n;
}

static void expect(const char *in, size_t n, const char *want, size_t wn, int line, int col)
{
	size_t len = 0;
	char *r = uni_nfc(in, n, &len);
	const char *got = r ? r : in;
	size_t gl = r ? len : n;
	checks++;
	if (gl != wn || memcmp(got, want, wn)) {
		if (fails++ < 20)
			fprintf(stderr, "NormalizationTest.txt:%d: NFC(c%d) is wrong\n", line, col);
	}
	free(r);
}

TEST(normalization_test)
{
	FILE *f = popen("bzcat " TESTFILE, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	char buf[4096], c[5][1024];
	size_t n[5];
	int line = 0;
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (buf[0] == '#' || buf[0] == '@' || buf[0] == '\n')
			continue;
		const char *s = buf;
		for (int k = 0; k < 5; k++) {
			n[k] = field(s, c[k]);
			s = strchr(s, ';');
			s = s ? s + 1 : "";
		}
		for (int k = 0; k < 3; k++)
			expect(c[k], n[k], c[1], n[1], line, k + 1);
		for (int k = 3; k < 5; k++)
			expect(c[k], n[k], c[3], n[3], line, k + 1);
	}
	CHECK(pclose(f) == 0);
	fprintf(stderr, "%d NFC checks, %d wrong\n", checks, fails);
	CHECK(checks > 90000);
	EQ_INT(fails, 0);
}

/* utf8_invalid_at skips eight ASCII bytes at a time: a bad byte (or a
 * truncated sequence) at any place in and around those words is found;
 * the inline utf8_decode agrees with utf8_decode_multi on every one- and
 * two-byte input. */
TEST(utf8_validation)
{
	char b[64];
	for (int n = 0; n <= 40; n++) {
		memset(b, 'a', sizeof(b));
		EQ_INT(utf8_invalid_at(b, (size_t)n), -1);
		for (int p = 0; p < n; p++) {
			memset(b, 'a', sizeof(b));
			b[p] = (char)0xFF;
			EQ_INT(utf8_invalid_at(b, (size_t)n), p);
			memset(b, 'a', sizeof(b));
			b[p] = (char)0xC3;   /* a lead byte without its continuation */
			EQ_INT(utf8_invalid_at(b, (size_t)n), p);
			if (p + 1 < n) {
				b[p + 1] = (char)0xA9;   /* e-acute: valid */
				EQ_INT(utf8_invalid_at(b, (size_t)n), -1);
			}
		}
	}
	for (int c0 = 0; c0 < 256; c0++)
		for (int c1 = 0; c1 < 256; c1++) {
			char s2[2] = {(char)c0, (char)c1};
			uint32_t a = 7, m = 7, q = 7;
			for (size_t n = 0; n <= 2; n++) {
				int la = utf8_decode(s2, n, &a), lm = utf8_decode_multi(s2, n, &m);
				EQ_INT(la, lm);
				if (la)
					EQ_INT(a, m);
				if (!n)
					continue;
				int ln = utf8_next(s2, n, &q);
				EQ_INT(ln, la ? la : 1);
				EQ_INT(q, la ? a : 0xFFFD);
			}
		}
	/* and on every three-byte input led by 0xE0..0xEF (inline too) */
	int differ = 0;
	for (int c0 = 0xe0; c0 <= 0xef; c0++)
		for (int c1 = 0; c1 < 256; c1++)
			for (int c2 = 0; c2 < 256; c2++) {
				char s3[3] = {(char)c0, (char)c1, (char)c2};
				uint32_t a = 7, m = 7;
				int la = utf8_decode(s3, 3, &a), lm = utf8_decode_multi(s3, 3, &m);
				differ += la != lm || (la && a != m);
			}
	EQ_INT(differ, 0);
}

/* The quick check (uni_nfc_qc_yes) over every code point, against
 * HarfBuzz's data: a code point it passes is never the second of a
 * canonical pair (so nothing before it can combine with it), nor is the
 * first character of its full decomposition, and when it decomposes,
 * the full algorithm gives it back unchanged (after a lone U+0301, which
 * takes the text through the full algorithm). With those, a text of only
 * such code points is its own NFC. */
TEST(quick_check)
{
	hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
	static unsigned char second[0x110000];
	memset(second, 0, sizeof(second));
	for (uint32_t cp = 0; cp < 0x110000; cp++) {
		hb_codepoint_t a, b, ab;
		if (hb_unicode_decompose(uf, cp, &a, &b) && b && hb_unicode_compose(uf, a, b, &ab) && ab == cp)
			second[b] = 1;
	}
	for (uint32_t cp = 0x1161; cp < 0x1161 + 21; cp++)
		second[cp] = 1;   /* Hangul V and T jamo (algorithmic) */
	for (uint32_t cp = 0x11a8; cp < 0x11a7 + 28; cp++)
		second[cp] = 1;
	int yes = 0, composites = 0, bad = 0;
	for (uint32_t cp = 0; cp < 0x110000; cp++) {
		if ((cp >= 0xd800 && cp <= 0xdfff) || !uni_nfc_qc_yes(cp))
			continue;
		yes++;
		hb_codepoint_t a = cp, b, first = cp;
		while (hb_unicode_decompose(uf, first, &a, &b))
			first = a;
		int ok = !second[cp] && !second[first];
		if (first != cp) {
			char s[8] = "\xcc\x81";   /* U+0301 */
			size_t n = 2 + (size_t)utf8_encode(cp, s + 2);
			size_t len;
			char *r = uni_nfc(s, n, &len);
			ok = ok && r == NULL;
			free(r);
			composites++;
		}
		if (!ok && bad++ < 20)
			fprintf(stderr, "quick check passes U+%04X wrongly\n", (unsigned)cp);
	}
	fprintf(stderr, "quick check: %d code points pass, %d of them composites\n", yes, composites);
	EQ_INT(bad, 0);
	CHECK(composites > 12000);   /* 11,172 Hangul syllables; e-acute, yo, Greek tonos, ... */
	CHECK(uni_nfc_qc_yes(0x439) && uni_nfc_qc_yes(0x451) && uni_nfc_qc_yes(0x3ac) && uni_nfc_qc_yes(0x1ec7));
	CHECK(!uni_nfc_qc_yes(0x212b) && !uni_nfc_qc_yes(0x958) && !uni_nfc_qc_yes(0x344) &&
	      !uni_nfc_qc_yes(0x301) && !uni_nfc_qc_yes(0x1161) && !uni_nfc_qc_yes(0x1f71));
}

/* The quick check of Brahmic text (U+0900..U+0DFF, Devanagari to
 * Sinhala; Thai and Lao U+0E00..U+0EFF, Khmer U+1780..U+17FF), which passes marks that combine with nothing: every
 * canonical pair whose second is in those blocks has its composite in
 * the second's block of 128 (unicode.c finds the seconds from each
 * block's decompositions), and on every text of two code points of the
 * blocks (and around them Latin ones that combine: e-acute, U+0301,
 * U+0327) and every one of three (a code point of a block, then two of
 * its marks), uni_nfc says what the full algorithm says. */
static int in_quick(uint32_t cp)
{
	return (cp >= 0x900 && cp <= 0xeff) || (cp >= 0x1780 && cp <= 0x17ff);
}

static int nfc_agrees(const uint32_t *cp, int n)
{
	char s[32];
	size_t len = 0, l1 = 0, l2 = 0;
	for (int i = 0; i < n; i++)
		len += (size_t)utf8_encode(cp[i], s + len);
	char *a = uni_nfc(s, len, &l1), *b = uni_nfc_full(s, len, &l2);
	int ok = (a == NULL) == (b == NULL) && (!a || (l1 == l2 && !memcmp(a, b, l1)));
	free(a);
	free(b);
	return ok;
}

TEST(brahmic_quick_check)
{
	hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
	int outside = 0, bad = 0, texts = 0;
	for (uint32_t cp = 0; cp < 0x110000; cp++) {
		hb_codepoint_t a, b, ab;
		if (hb_unicode_decompose(uf, cp, &a, &b) && in_quick(b) &&
		    hb_unicode_compose(uf, a, b, &ab) && ab == cp && (cp >> 7) != (b >> 7))
			outside++;
	}
	EQ_INT(outside, 0);
	static uint32_t set[1700];
	int n = 0;
	for (uint32_t cp = 0x900; cp <= 0x17ff; cp++)
		if (in_quick(cp))
			set[n++] = cp;
	const uint32_t extra[] = {'a', 0xe9, 0x301, 0x327, 0x25cc, 0x200c, 0x200d};
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		set[n++] = extra[i];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			uint32_t t[2] = {set[i], set[j]};
			texts++;
			if (!nfc_agrees(t, 2) && bad++ < 20)
				fprintf(stderr, "NFC of U+%04X U+%04X is wrong\n", (unsigned)t[0], (unsigned)t[1]);
		}
	for (uint32_t blk = 0x900; blk <= 0x1780; blk += 0x80) {
		if (!in_quick(blk))
			continue;
		uint32_t marks[128];
		int nm = 0;
		for (uint32_t cp = blk; cp < blk + 0x80; cp++)
			if (uni_is_mark(cp) || uni_ccc(cp))
				marks[nm++] = cp;
		for (uint32_t x = blk; x < blk + 0x80; x++)
			for (int j = 0; j < nm; j++)
				for (int k = 0; k < nm; k++) {
					uint32_t t[3] = {x, marks[j], marks[k]};
					texts++;
					if (!nfc_agrees(t, 3) && bad++ < 20)
						fprintf(stderr, "NFC of U+%04X U+%04X U+%04X is wrong\n",
						        (unsigned)t[0], (unsigned)t[1], (unsigned)t[2]);
				}
	}
	fprintf(stderr, "brahmic quick check: %d texts\n", texts);
	EQ_INT(bad, 0);
}

/* The strict decoder, written as the definition says (lead byte, then
 * each continuation byte, then the range): utf8_decode_multi's unrolled
 * cases must agree with it on every input of up to three bytes and on
 * four-byte ones. */
static int ref_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	if (n == 0)
		return 0;
	unsigned c = s[0];
	int len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		len = 2; v = c & 0x1f; min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; v = c & 0x0f; min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; v = c & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (n < (size_t)len)
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

TEST(utf8_decoder)
{
	static const unsigned char tails[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff};
	int bad = 0;
	for (unsigned c0 = 0x80; c0 < 256; c0++)
		for (unsigned c1 = 0; c1 < 256; c1++)
			for (unsigned c2 = 0; c2 < 256; c2++)
				for (size_t k = 0; k < sizeof(tails); k++) {
					unsigned char s[4] = {(unsigned char)c0, (unsigned char)c1, (unsigned char)c2, tails[k]};
					if (c0 < 0xe0 && (c2 || k))
						continue;   /* two-byte leads: c1 alone matters */
					if (c0 < 0xf0 && k)
						continue;
					if (c0 >= 0xf0 && !memchr(tails, (int)c2, sizeof(tails)))
						continue;   /* four-byte leads: c2 and c3 from tails */
					for (size_t n = 1; n <= 4; n++) {
						uint32_t a = 7, r = 7, d = 7;
						int la = utf8_decode_multi((const char *)s, n, &a), lr = ref_decode(s, n, &r);
						int ld = utf8_decode((const char *)s, n, &d);
						if (la != lr || ld != lr || (lr && (a != r || d != r)))
							bad++;
					}
				}
	EQ_INT(bad, 0);
}

/* uni_pres_letter against UnicodeData.txt: an Arabic presentation form
 * whose decomposition is <initial>, <medial>, <final> or <isolated> and
 * one code point maps to it; every other code point (ligatures of two
 * letters, spacing marks, the rest of Unicode) to itself. */
TEST(presentation_forms)
{
	static uint32_t want[0x10000];
	for (uint32_t c = 0; c < 0x10000; c++)
		want[c] = c;
	FILE *fp = fopen("/usr/share/unicode/UnicodeData.txt", "r");
	CHECK(fp != NULL);
	if (!fp)
		return;
	char line[512];
	int forms = 0;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long cp = strtoul(line, NULL, 16);
		const char *d = line;
		for (int k = 0; k < 5 && d; k++)
			d = strchr(d + 1, ';');
		if (!d || cp < 0xFB50 || cp > 0xFEFF || (cp > 0xFBFF && cp < 0xFE70))
			continue;
		static const char *tags[] = {"<initial> ", "<medial> ", "<final> ", "<isolated> "};
		for (int k = 0; k < 4; k++) {
			size_t tl = strlen(tags[k]);
			if (strncmp(d + 1, tags[k], tl))
				continue;
			char *end;
			unsigned long v = strtoul(d + 1 + tl, &end, 16);
			if (*end == ';') { /* one code point */
				want[cp] = (uint32_t)v;
				forms++;
			}
		}
	}
	fclose(fp);
	CHECK(forms > 200); /* 242 in Unicode 15 */
	int bad = 0;
	for (uint32_t c = 0; c < 0x10000; c++)
		if (uni_pres_letter(c) != want[c] && bad++ < 5)
			fprintf(stderr, "uni_pres_letter(U+%04X) == U+%04X, expected U+%04X\n", (unsigned)c,
			        (unsigned)uni_pres_letter(c), (unsigned)want[c]);
	EQ_INT(bad, 0);
	EQ_INT(uni_pres_letter(0xFEE3), 0x645);  /* meem, initial */
	EQ_INT(uni_pres_letter(0xFB58), 0x67E);  /* peh, initial */
	EQ_INT(uni_pres_letter(0xFEFB), 0xFEFB); /* lam-alef: two letters */
}

/* The category tests (uni_is_letter, _mark, _nonspacing, _nsm: from a
 * memo of HarfBuzz's answers) are HarfBuzz's for every code point, asked
 * in an order that evicts (code points 1024 and 1025 apart share slots)
 * and asked again. */
TEST(categories)
{
	hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
	int bad = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < 0x30000; i++) {
			uint32_t cp = pass ? (i * 1025u) % 0x30000 : i;
			hb_unicode_general_category_t g = hb_unicode_general_category(uf, cp);
			int letter = g == HB_UNICODE_GENERAL_CATEGORY_LOWERCASE_LETTER ||
			             g == HB_UNICODE_GENERAL_CATEGORY_MODIFIER_LETTER ||
			             g == HB_UNICODE_GENERAL_CATEGORY_OTHER_LETTER ||
			             g == HB_UNICODE_GENERAL_CATEGORY_TITLECASE_LETTER ||
			             g == HB_UNICODE_GENERAL_CATEGORY_UPPERCASE_LETTER;
			int nsm = g == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK;
			int mark = nsm || g == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK ||
			           g == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK;
			int encl = g == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK;
			if (uni_is_letter(cp) != letter || uni_is_mark(cp) != mark ||
			    uni_is_nonspacing(cp) != (cp >= 0x300 && nsm) ||
			    uni_is_nsm(cp) != (cp >= 0x300 && (nsm || encl))) {
				if (bad++ < 5)
					fprintf(stderr, "  U+%04X: category %d\n", (unsigned)cp, (int)g);
			}
		}
	EQ_INT(bad, 0);
}

int main(void)
{
	RUN(utf8_validation);
	RUN(utf8_decoder);
	RUN(normalization_test);
	RUN(quick_check);
	RUN(brahmic_quick_check);
	RUN(presentation_forms);
	RUN(categories);
	return t_report();
}
