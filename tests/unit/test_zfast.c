/* test_zfast: pdf_zfast's and pdf_zlazy's raw deflate read back by an
 * independent decoder (libdeflate's) on inputs that take each of their
 * paths: empty and tiny inputs (a static block), random bytes (stored
 * blocks, their 65,535 byte limit), runs and repeats (long and overlapping
 * matches, long chains, several blocks), text; the same bytes out whatever
 * was deflated before; the bound; and pdf_deflate's zlib wrapper
 * (PDF_Z_FAST, PDF_Z_CONTENT) against libdeflate's level 1 and 5 sizes on
 * text. */
#include <libdeflate.h>
#include <stdint.h>
#include "arena.h"
#include "../../src/pdf_int.h"
#include "t.h"

static struct libdeflate_decompressor *dec;

static uint32_t rnd_state = 12345;
static unsigned rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 16;
}

/* in[0..n) deflated (by pdf_zfast, else pdf_zlazy) and inflated again;
 * the deflated size (0: failed) */
static size_t trip(const unsigned char *in, size_t n, int lazy)
{
	size_t cap = pdf_zfast_bound(n);
	unsigned char *z = xmalloc(cap), *back = xmalloc(n + 1);
	size_t zn = (lazy ? pdf_zlazy : pdf_zfast)(in, n, z, cap), got = 0;
	CHECK(zn > 0 && zn <= cap);
	int r = zn ? (int)libdeflate_deflate_decompress(dec, z, zn, back, n + 1, &got) : -1;
	EQ_INT(r, LIBDEFLATE_SUCCESS);
	EQ_INT(got, n);
	CHECK(r != LIBDEFLATE_SUCCESS || got != n || memcmp(in, back, n) == 0);
	free(z);
	free(back);
	return r == LIBDEFLATE_SUCCESS && got == n ? zn : 0;
}

/* both, the larger size (0: one failed) */
static size_t round_trip(const unsigned char *in, size_t n)
{
	size_t a = trip(in, n, 0), b = trip(in, n, 1);
	return a && b ? (a > b ? a : b) : 0;
}

TEST(tiny)
{
	static const unsigned char s[] = "abcdabcdabcd";
	for (size_t n = 0; n <= 12; n++)
		CHECK(round_trip(s, n) > 0);
	CHECK(round_trip(s, 0) <= 2); /* a static block with only its end */
}

TEST(random_is_stored)
{
	static const size_t sizes[] = {1000, 65535, 65536, 65537, 200000};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		unsigned char *p = xmalloc(n);
		for (size_t i = 0; i < n; i++)
			p[i] = (unsigned char)rnd();
		size_t zn = round_trip(p, n);
		CHECK(zn >= n && zn <= pdf_zfast_bound(n));
		free(p);
	}
}

TEST(runs_and_repeats)
{
	size_t n = 300000;
	unsigned char *p = xmalloc(n);
	memset(p, 'x', n); /* one byte: overlapping matches of 258 */
	size_t zn = round_trip(p, n);
	CHECK(zn > 0 && zn < n / 100);
	for (size_t i = 0; i < n; i++) /* short repeats with noise, far and near */
		p[i] = i % 977 < 500 ? (unsigned char)"0123456789 /Type /Font"[i % 23] : (unsigned char)(rnd() % 7);
	CHECK(round_trip(p, n) > 0);
	for (size_t i = 0; i < n; i++) /* matches that begin between two lookups */
		p[i] = (unsigned char)(rnd() % 3 ? p[i] : rnd());
	CHECK(round_trip(p, n) > 0);
	for (size_t m = 1; m < 300; m += 37) { /* every length code, every block edge */
		for (size_t i = 0; i < n; i++)
			p[i] = (unsigned char)(i % (m + 3) < m ? i / 5 : rnd());
		CHECK(round_trip(p, 32768 + m) > 0);
	}
	free(p);
}

/* Inputs aimed at the matcher's edges: all zeros and one byte repeated
 * (258 and more: overlapping matches at distance 1) at every length
 * near a match's and a block's limits; matches of every length around
 * LAZY_BELOW (8) with a longer one a byte on, or not; long matches (more
 * than 16 bytes: only their first and last positions entered) followed
 * by copies of their middles, near and far; tiny inputs of every byte */
TEST(adversarial)
{
	size_t cap = 300000;
	unsigned char *p = xmalloc(cap);
	static const size_t lens[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 257, 258, 259, 260,
	                              261, 262, 515, 516, 517, 4096, 32767, 32768, 32769, 65536,
	                              65537, 100000};
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		memset(p, 0, lens[k]);
		size_t zn = round_trip(p, lens[k]);
		CHECK(zn > 0 && (lens[k] < 1000 || zn < lens[k] / 50));
		memset(p, 0xff, lens[k]);
		CHECK(round_trip(p, lens[k]) > 0);
	}
	/* a match of m bytes at distance 100, then one of m + 1..m + 3 a
	   byte on (or the same bytes again), with noise between */
	for (size_t m = 4; m <= 20; m++) {
		size_t n = 200;
		for (size_t i = 0; i < n; i++)
			p[i] = (unsigned char)rnd();
		while (n + 400 < 60000) {
			for (size_t i = 0; i < 100; i++)
				p[n + i] = (unsigned char)rnd();
			memcpy(p + n + 100, p + n, m);                 /* m bytes from 100 back */
			p[n + 100 + m] = (unsigned char)(p[n + m] ^ 1); /* and no further */
			memcpy(p + n + 101 + m, p + n + 101 + m - 150, m + rnd() % 4);
			n += 101 + 2 * m + 4;
		}
		CHECK(round_trip(p, n) > 0);
	}
	/* long matches and their middles again */
	for (size_t m = 17; m < 600; m += 29) {
		size_t n = 0;
		for (size_t i = 0; i < m; i++)
			p[n++] = (unsigned char)rnd();
		while (n + 3 * m + 64 < cap) {
			size_t from = 1 + rnd() % (n < 30000 ? n : 30000), n0 = n;
			for (size_t i = 0; i < m; i++, n++) /* a long copy (it may overlap) */
				p[n] = p[n - from];
			size_t mid = 1 + rnd() % (m - 1), ml = 4 + rnd() % 20;
			for (size_t i = 0; i < ml; i++, n++) /* bytes from inside it */
				p[n] = p[n0 + mid + i];
			for (size_t i = rnd() % 8; i > 0; i--)
				p[n++] = (unsigned char)rnd();
		}
		CHECK(round_trip(p, n) > 0);
	}
	for (unsigned b = 0; b < 256; b++) { /* tiny inputs of every byte */
		unsigned char t[6] = {(unsigned char)b, (unsigned char)b, (unsigned char)(b ^ 0x55),
		                      (unsigned char)b, (unsigned char)b, (unsigned char)b};
		for (size_t n = 0; n <= 6; n++)
			CHECK(round_trip(t, n) > 0);
	}
	free(p);
}

/* Random inputs: lengths 0 to 70,000 over alphabets of 1 to 256 bytes,
 * runs and copies of earlier stretches mixed in; each deflated by both
 * parses and read back */
TEST(random_inputs)
{
	size_t cap = 70000;
	unsigned char *p = xmalloc(cap);
	for (int r = 0; r < 300; r++) {
		size_t n = r < 200 ? rnd() % 3000 : rnd() % cap;
		unsigned alpha = 1 + rnd() % 256, mode = rnd() % 3;
		for (size_t i = 0; i < n;) {
			unsigned what = mode ? rnd() % 8 : 0;
			if (what == 1 && i > 0) { /* a copy */
				size_t d = 1 + rnd() % (i < 40000 ? i : 40000), l = 3 + rnd() % 300;
				for (; l > 0 && i < n; l--, i++)
					p[i] = p[i - d];
			} else if (what == 2) { /* a run */
				unsigned char c = (unsigned char)(rnd() % alpha);
				for (size_t l = 1 + rnd() % 600; l > 0 && i < n; l--)
					p[i++] = c;
			} else {
				p[i++] = (unsigned char)(rnd() % alpha);
			}
		}
		CHECK(round_trip(p, n) > 0);
	}
	free(p);
}

/* A ToUnicode map's text, deflated at PDF_Z_FAST: a zlib stream that
 * libdeflate reads back, no more than 2% larger than libdeflate's level 1 */
TEST(zlib_wrapper_and_size)
{
	char *t = xmalloc(20000);
	size_t n = 0;
	n += (size_t)snprintf(t, 20000, "/CIDInit /ProcSet findresource begin\n12 dict begin\n"
	                      "begincmap\n100 beginbfchar\n");
	for (unsigned g = 1; g < 400 && n < 19000; g++)
		n += (size_t)snprintf(t + n, 20000 - n, "<%04X> <%04X>\n", g * 7 % 911,
		                      0x4e00 + (g * 131) % 20000);
	const unsigned char *z;
	size_t zn = pdf_deflate(t, n, PDF_Z_FAST, &z), got = 0;
	CHECK(zn > 6);
	unsigned char *back = xmalloc(20001);
	EQ_INT(libdeflate_zlib_decompress(dec, z, zn, back, 20001, &got), LIBDEFLATE_SUCCESS);
	EQ_INT(got, n);
	CHECK(memcmp(back, t, n) == 0);
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
	unsigned char *l1 = xmalloc(21000);
	size_t ln = libdeflate_zlib_compress(c, t, n, l1, 21000);
	CHECK(ln > 0 && zn <= ln + ln / 50);
	libdeflate_free_compressor(c);
	/* a page's content: PDF_Z_LAZY (a long document's) within 2% of
	   libdeflate's level 5, PDF_Z_CONTENT (PDF_Z_FAST) of its level 1 */
	n = 0;
	for (unsigned k = 1; k < 600 && n < 19000; k++)
		n += (size_t)snprintf(t + n, 20000 - n, "%u.%u %d Td\n[(%c%c)-20.%u(%c)]TJ\n",
		                      k * 37 % 400, k % 10, -(int)(k % 3) * 12,
		                      'A' + k % 26, 'a' + k * 7 % 26, k % 3, 'a' + k % 5);
	static const int levels[2][2] = {{PDF_Z_LAZY, 5}, {PDF_Z_CONTENT, 1}};
	for (int k = 0; k < 2; k++) {
		zn = pdf_deflate(t, n, levels[k][0], &z);
		CHECK(zn > 6);
		EQ_INT(libdeflate_zlib_decompress(dec, z, zn, back, 20001, &got), LIBDEFLATE_SUCCESS);
		EQ_INT(got, n);
		CHECK(memcmp(back, t, n) == 0);
		c = libdeflate_alloc_compressor(levels[k][1]);
		ln = libdeflate_zlib_compress(c, t, n, l1, 21000);
		CHECK(ln > 0 && zn <= ln + ln / 50);
		libdeflate_free_compressor(c);
	}
	free(l1);
	free(back);
	free(t);
}

/* The hash table is kept between calls: an input deflates to the same
 * bytes after others (the cache's and batch's byte-for-byte promise) */
TEST(same_bytes_whatever_came_before)
{
	size_t n = 50000;
	unsigned char *p = xmalloc(n), *q = xmalloc(n);
	for (size_t i = 0; i < n; i++) {
		p[i] = (unsigned char)(i % 300 < 200 ? i % 61 : rnd());
		q[i] = (unsigned char)(i % 200 < 100 ? i % 61 : rnd());
	}
	size_t cap = pdf_zfast_bound(n);
	unsigned char *a = xmalloc(cap), *b = xmalloc(cap);
	size_t an = pdf_zfast(p, n, a, cap);
	for (int k = 0; k < 3; k++) /* the two share their table */
		CHECK((k % 2 ? pdf_zlazy : pdf_zfast)(q, n - 1000 * (size_t)k, b, cap) > 0);
	size_t bn = pdf_zfast(p, n, b, cap);
	EQ_INT(an, bn);
	CHECK(an == bn && memcmp(a, b, an) == 0);
	an = pdf_zlazy(p, n, a, cap);
	for (int k = 0; k < 3; k++)
		CHECK((k % 2 ? pdf_zfast : pdf_zlazy)(q, n - 1000 * (size_t)k, b, cap) > 0);
	bn = pdf_zlazy(p, n, b, cap);
	EQ_INT(an, bn);
	CHECK(an == bn && memcmp(a, b, an) == 0);
	EQ_INT(pdf_zfast(p, n, b, cap - 1), 0); /* too little room: refused */
	free(p);
	free(q);
	free(a);
	free(b);
}

int main(void)
{
	dec = libdeflate_alloc_decompressor();
	RUN(tiny);
	RUN(random_is_stored);
	RUN(runs_and_repeats);
	RUN(adversarial);
	RUN(random_inputs);
	RUN(zlib_wrapper_and_size);
	RUN(same_bytes_whatever_came_before);
	libdeflate_free_decompressor(dec);
	return t_report();
}
