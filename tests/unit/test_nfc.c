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

int main(void)
{
	RUN(utf8_validation);
	RUN(normalization_test);
	RUN(quick_check);
	return t_report();
}
