/* pdf_zfast: raw deflate (RFC 1951) for the streams written at
 * PDF_Z_FAST (font programs, ToUnicode maps, the xref stream), in about
 * half the instructions of libdeflate's level 1 and within 0.1% of its
 * size on them (349,884 bytes against 349,521 for all such streams of the
 * CJK CVs, zhanda-zhu and the generated CJK CVs), and for page contents
 * and small object streams (pdf_int.h says why); and pdf_zlazy for
 * PDF_Z_LAZY (the page contents of a long document, pdf_int.h): zlib's
 * lazy parse, libdeflate's level 5's size in 20-30% fewer instructions.
 *
 *   n = pdf_zfast(in, len, out, cap);   out[0..n): the deflate data;
 *                                       0 when cap < pdf_zfast_bound(len)
 *   n = pdf_zlazy(in, len, out, cap);   the same
 *
 * Why: a CJK face's CFF subset (flattened charstrings, ~200 bytes a glyph
 * of path data) barely deflates: 17% at level 1, and libdeflate spends
 * ~49 instructions a byte on it (its matchfinder's two candidates a
 * position, its block-splitting statistics per symbol) plus ~40 K per
 * stream building its codes; 2 M of a 2-page CJK CV. Here: greedy
 * matching with one candidate a position (a 4-byte hash, matches of 4 to
 * 258 bytes in the last 32 KiB, one step lazy after a match of fewer
 * than LAZY_BELOW bytes: a longer match one byte on is taken instead; a
 * match of more than INSERT_ALL bytes enters only its first and last
 * positions in the table. Both cost 159 bytes (+0.07%) over the 85
 * streams of zhanda-zhu, zh-cv and the ta, bn, kn, hi CVs and saved 0.5
 * M of their 17.6 M instructions), and per block of BLOCK_BYTES of input the
 * smallest of a dynamic, the static and a stored block,
 * measured exactly before it is written (with those 85 streams, 15.6 M
 * instructions: 7.8 M the matcher, 4.4 M writing the symbols, 3.4 M the
 * blocks' codes). Deterministic: the hash table
 * is reused between calls (never zeroed again: its entries are stamped
 * with a base that grows past every earlier call's), but an entry of an
 * earlier call is never a candidate, so the same bytes in give the same
 * bytes out whatever came before.
 */
#include <stdint.h>
#include <string.h>
#include "arena.h"
#include "pdf_int.h"

enum {
	HBITS = 16, WINDOW = 32768, MIN_MATCH = 4, MAX_MATCH = 258,
	BLOCK_BYTES = PDF_Z_LAZY_BLOCK, /* a block's input: symbol counts stay below 65,536 */
	NLIT = 286, NDIST = 30, NPRE = 19,
	/* pdf_zfast: the next position looked at too after a match of fewer
	   than LAZY_BELOW bytes; a match's positions entered in the table:
	   all of one of up to INSERT_ALL bytes, else its first INSERT_HEAD
	   and last INSERT_TAIL */
	LAZY_BELOW = 8, INSERT_ALL = 16, INSERT_HEAD = 8, INSERT_TAIL = 4,
};

static const uint16_t len_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                      35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
                                       193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
                                       6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint8_t pre_order[NPRE] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* lookup tables, made once: the length code of each match length, the
 * distance code of each distance d at [d - 1] (32 KiB: one load, no
 * test); bits reversed within a byte */
static uint8_t len_code[MAX_MATCH + 1], dist_code[WINDOW], rev8[256];
static uint16_t st_code[NLIT + 2], st_dcode[NDIST];
static uint8_t st_len[NLIT + 2], st_dlen[NDIST];

static uint32_t htab[1 << HBITS];   /* 256 KiB: a position stamped base1 + i */
static uint32_t cprev[WINDOW];      /* pdf_zlazy's chains: the position before, by i % WINDOW */
static uint32_t hbase;
static struct zmatch *mts;          /* a block's matches */

static unsigned rev_bits(unsigned code, unsigned len)
{
	unsigned r = (unsigned)rev8[code & 0xff] << 8 | rev8[code >> 8 & 0xff];
	return r >> (16 - len);
}

/* Canonical codes (bit-reversed, as deflate sends them) for lens[0..n),
 * of which count[l] have length l (1-15; count[0] is not read). */
static void make_codes(const uint8_t *lens, unsigned n, const unsigned *count, uint16_t *codes)
{
	unsigned next[16];
	unsigned code = 0;
	for (unsigned l = 1; l < 16; l++) {
		code = (code + (l > 1 ? count[l - 1] : 0)) << 1;
		next[l] = code;
	}
	for (unsigned i = 0; i < n; i++)
		codes[i] = lens[i] ? (uint16_t)rev_bits(next[lens[i]]++, lens[i]) : 0;
}

static void init_tables(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	for (unsigned c = 0; c < 29; c++)
		for (unsigned l = len_base[c]; l < (c == 28 ? 259u : len_base[c + 1]); l++)
			len_code[l] = (uint8_t)c;
	len_code[258] = 28;
	for (unsigned c = 0; c < NDIST; c++)
		xfill(dist_code + dist_base[c] - 1, (int)c, 1u << dist_extra[c]);
	for (unsigned i = 1; i < 256; i++) /* rev8[i]: i's bits reversed */
		rev8[i] = (uint8_t)(rev8[i >> 1] >> 1 | (i & 1) << 7);
	for (unsigned i = 0; i < NLIT + 2; i++)
		st_len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	unsigned count[16] = {0}, dcount[16] = {0};
	for (unsigned i = 0; i < NLIT + 2; i++)
		count[st_len[i]]++;
	make_codes(st_len, NLIT + 2, count, st_code);
	memset(st_dlen, 5, sizeof(st_dlen));
	dcount[5] = NDIST;
	make_codes(st_dlen, NDIST, dcount, st_dcode);
}

static unsigned dcode_of(unsigned d)
{
	return dist_code[d - 1];
}

/* Code lengths of at most maxlen bits for the symbols of freq[0..n)
 * (each < 65,536): a Huffman tree built from the symbols sorted by
 * frequency (two queues, in place), then made to fit maxlen by moving leaves down
 * until the Kraft sum is 1 again. At least two symbols get a length (a
 * single one gets a partner), so every code is complete. count[l]: how
 * many have length l. */
static void huff_lens(const uint32_t *freq, unsigned n, unsigned maxlen, uint8_t *lens,
                      unsigned *count)
{
	uint32_t key[NLIT], tmp[NLIT], w[NLIT]; /* key: frequency << 16 | symbol */
	uint16_t a[NLIT];
	unsigned m = 0;
	uint32_t most = 0;
	memset(lens, 0, n);
	memset(count, 0, 16 * sizeof(*count));
	for (unsigned i = 0; i < n; i++)
		if (freq[i]) {
			key[m++] = freq[i] << 16 | i;
			most |= freq[i];
		}
	for (unsigned i = 0; m < 2 && i < n; i++)
		if (!freq[i])
			key[m++] = i; /* weight 0: sorted first */
	if (m < 2)
		return;
	/* sorted by frequency, stable: radix, one pass a byte of it */
	uint32_t *k0 = key, *k1 = tmp;
	for (unsigned sh = 16; sh < 32 && most >> (sh - 16); sh += 8) {
		/* the digits are at most top (most is at least every frequency) */
		unsigned cnt[257], top = most >> (sh - 16) > 255 ? 255 : most >> (sh - 16);
		memset(cnt, 0, (top + 2) * sizeof(cnt[0]));
		for (unsigned i = 0; i < m; i++)
			cnt[(k0[i] >> sh & 0xff) + 1]++;
		for (unsigned k = 1; k <= top; k++)
			cnt[k] += cnt[k - 1];
		for (unsigned i = 0; i < m; i++)
			k1[cnt[k0[i] >> sh & 0xff]++] = k0[i];
		uint32_t *t = k0;
		k0 = k1;
		k1 = t;
	}
	for (unsigned i = 0; i < m; i++) {
		a[i] = (uint16_t)k0[i];
		w[i] = k0[i] >> 16;
	}
	/* the tree in place (Moffat and Katajainen): w[k] becomes the k-th
	   internal node made (the two lightest of the leaves left and the
	   nodes made, a leaf first at equal weight: the two-queue tree), then
	   its parent's index, then its depth; the leaves' depths follow from
	   how many nodes each level holds */
	w[0] += w[1];
	unsigned root = 0, leaf = 2;
	for (unsigned next = 1; next + 1 < m; next++) {
		if (leaf >= m || w[root] < w[leaf]) { /* a node: always one left here */
			w[next] = w[root];
			w[root++] = next;
		} else {
			w[next] = w[leaf++];
		}
		if (leaf >= m || (root < next && w[root] < w[leaf])) {
			w[next] += w[root];
			w[root++] = next;
		} else {
			w[next] += w[leaf++];
		}
	}
	w[m - 2] = 0; /* the root's depth */
	for (unsigned k = m - 2; k-- > 0;)
		w[k] = w[w[k]] + 1;
	for (unsigned avail = 1, d = 0, k = m - 1; avail > 0; d++) { /* k: nodes left, from the root */
		unsigned used = 0;
		while (k > 0 && w[k - 1] == d) {
			used++;
			k--;
		}
		count[d > maxlen ? maxlen : d] += avail - used; /* the leaves at depth d */
		avail = 2 * used;
	}
	uint32_t kraft = 0;
	for (unsigned l = 1; l <= maxlen; l++)
		kraft += count[l] << (maxlen - l);
	while (kraft > (1u << maxlen)) {
		count[maxlen]--;
		for (unsigned l = maxlen - 1; l > 0; l--)
			if (count[l]) {
				count[l]--;
				count[l + 1] += 2;
				break;
			}
		kraft--;
	}
	/* the rarest symbols (first in a) get the longest codes */
	unsigned i = 0;
	for (unsigned l = maxlen; l > 0; l--)
		for (unsigned k = 0; k < count[l]; k++)
			lens[a[i++]] = (uint8_t)l;
}

/* The code lengths lens[0..n) as precode symbols (a length, 16 repeat
 * the last 3-6 times, 17 zeros 3-10 times, 18 zeros 11-138 times): into
 * out as sym | extra << 8, their frequencies added to pf; their number. */
static unsigned rle_lens(const uint8_t *lens, unsigned n, uint16_t *out, uint32_t *pf)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n;) {
		unsigned cur = lens[i], run = 1;
		while (i + run < n && lens[i + run] == cur)
			run++;
		i += run;
		if (run == 1) { /* the most common: a length unlike the next */
			out[k++] = (uint16_t)cur;
			pf[cur]++;
			continue;
		}
		if (cur == 0) {
			while (run >= 11) {
				unsigned r = run > 138 ? 138 : run;
				out[k++] = (uint16_t)(18 | (r - 11) << 8);
				pf[18]++;
				run -= r;
			}
			if (run >= 3) {
				out[k++] = (uint16_t)(17 | (run - 3) << 8);
				pf[17]++;
				run = 0;
			}
		} else {
			out[k++] = (uint16_t)cur;
			pf[cur]++;
			run--;
			while (run >= 3) {
				unsigned r = run > 6 ? 6 : run;
				out[k++] = (uint16_t)(16 | (r - 3) << 8);
				pf[16]++;
				run -= r;
			}
		}
		for (; run; run--) {
			out[k++] = (uint16_t)cur;
			pf[cur]++;
		}
	}
	return k;
}

typedef struct zout {
	unsigned char *p;
	size_t n;
	uint64_t bits;
	unsigned nb;
} zout_t;

static void store32(unsigned char *o, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(o, &v, 4);
#else
	o[0] = (unsigned char)v;
	o[1] = (unsigned char)(v >> 8);
	o[2] = (unsigned char)(v >> 16);
	o[3] = (unsigned char)(v >> 24);
#endif
}

/* v's low c bits (c <= 32); nb < 32 before and after */
static void put_bits(zout_t *z, uint32_t v, unsigned c)
{
	z->bits |= (uint64_t)v << z->nb;
	z->nb += c;
	if (z->nb >= 32) {
		store32(z->p + z->n, (uint32_t)z->bits);
		z->n += 4;
		z->bits >>= 32;
		z->nb -= 32;
	}
}

/* to the next byte boundary */
static void put_align(zout_t *z)
{
	while (z->nb > 0) {
		z->p[z->n++] = (unsigned char)z->bits;
		z->bits >>= 8;
		z->nb = z->nb > 8 ? z->nb - 8 : 0;
	}
	z->bits = 0;
}

static void put_stored(zout_t *z, const unsigned char *in, size_t n, int last)
{
	do {
		size_t k = n > 65535 ? 65535 : n;
		put_bits(z, last && k == n, 3); /* BTYPE 00 */
		put_align(z);
		unsigned char *o = z->p + z->n;
		o[0] = (unsigned char)k;
		o[1] = (unsigned char)(k >> 8);
		o[2] = (unsigned char)~k;
		o[3] = (unsigned char)(~k >> 8);
		memcpy(o + 4, in, k);
		z->n += 4 + k;
		in += k;
		n -= k;
	} while (n);
}

/* A match: lit literals (the input's bytes), then len bytes from dist
 * back. */
typedef struct zmatch {
	uint32_t lit;
	uint16_t len, dist;
} zmatch_t;

/* The block's symbols: matches mt[0..nm), then literals up to in + n;
 * the bit buffer in locals (a byte store could alias z's fields). */
static void put_syms(zout_t *z, const unsigned char *in, size_t n, const zmatch_t *mt, size_t nm,
                     const uint16_t *lc, const uint8_t *ll, const uint16_t *dc, const uint8_t *dl)
{
	uint64_t bits = z->bits;
	unsigned nb = z->nb;
	unsigned char *o = z->p + z->n;
	const unsigned char *end = in + n;
#define FLUSH() do { if (nb >= 32) { store32(o, (uint32_t)bits); o += 4; bits >>= 32; nb -= 32; } } while (0)
	for (size_t j = 0;; j++) {
		size_t nl = j < nm ? mt[j].lit : (size_t)(end - in);
		const unsigned char *p = in, *pend = in + (nl & ~(size_t)1);
		in += nl;
		for (; p != pend; p += 2) { /* two codes of <= 15 bits, then a flush */
			unsigned a = p[0], b = p[1];
			bits |= (uint64_t)lc[a] << nb;
			nb += ll[a];
			bits |= (uint64_t)lc[b] << nb;
			nb += ll[b];
			FLUSH();
		}
		if (nl & 1) {
			unsigned a = *p;
			bits |= (uint64_t)lc[a] << nb;
			nb += ll[a];
			FLUSH();
		}
		if (j == nm)
			break;
		unsigned len = mt[j].len, dist = mt[j].dist, c = len_code[len], d = dcode_of(dist);
		bits |= (uint64_t)(lc[257 + c] | (uint32_t)(len - len_base[c]) << ll[257 + c]) << nb;
		nb += ll[257 + c] + len_extra[c];
		FLUSH();
		bits |= (uint64_t)(dc[d] | (uint32_t)(dist - dist_base[d]) << dl[d]) << nb;
		nb += dl[d] + dist_extra[d];
		FLUSH();
		in += len;
	}
	bits |= (uint64_t)lc[256] << nb;
	nb += ll[256];
	FLUSH();
#undef FLUSH
	z->bits = bits;
	z->nb = nb;
	z->n = (size_t)(o - z->p);
}

/* One block, in[0..n): the matches mt[0..nm) and literals, their
 * frequencies in lf (with the end of block's) and df; the smallest of a
 * stored, a static and a dynamic block. */
static void put_block(zout_t *z, const unsigned char *in, size_t n, const zmatch_t *mt, size_t nm,
                      uint32_t *lf, uint32_t *df, int last)
{
	uint8_t ll[NLIT], dl[NDIST], pl[NPRE];
	uint16_t lc[NLIT], dc[NDIST], pc[NPRE], pre[NLIT + NDIST];
	uint32_t pf[NPRE] = {0};
	unsigned lcount[16], dcount[16], pcount[16];
	huff_lens(lf, NLIT, 15, ll, lcount);
	huff_lens(df, NDIST, 15, dl, dcount);
	unsigned hlit = NLIT, hdist = NDIST;
	while (hlit > 257 && !ll[hlit - 1])
		hlit--;
	while (hdist > 1 && !dl[hdist - 1])
		hdist--;
	unsigned np = rle_lens(ll, hlit, pre, pf);
	np += rle_lens(dl, hdist, pre + np, pf);
	huff_lens(pf, NPRE, 7, pl, pcount);
	unsigned hclen = NPRE;
	while (hclen > 4 && !pl[pre_order[hclen - 1]])
		hclen--;
	/* the three sizes, in bits */
	uint64_t extra = 0, dyn = 3 + 14 + 3 * (uint64_t)hclen, fix = 3;
	for (unsigned i = 0; i < 29; i++)
		extra += (uint64_t)lf[257 + i] * len_extra[i];
	for (unsigned i = 0; i < NDIST; i++) {
		extra += (uint64_t)df[i] * dist_extra[i];
		dyn += (uint64_t)df[i] * dl[i];
		fix += (uint64_t)df[i] * 5;
	}
	for (unsigned i = 0; i < NLIT; i++) {
		dyn += (uint64_t)lf[i] * ll[i];
		fix += (uint64_t)lf[i] * st_len[i];
	}
	for (unsigned i = 0; i < NPRE; i++)
		dyn += (uint64_t)pf[i] * pl[i];
	dyn += 2 * (uint64_t)pf[16] + 3 * (uint64_t)pf[17] + 7 * (uint64_t)pf[18] + extra;
	fix += extra;
	uint64_t stored = 8 * ((uint64_t)n + 5 * (n / 65535 + 1)) + 8;
	if (stored <= dyn && stored <= fix) {
		put_stored(z, in, n, last);
		return;
	}
	if (fix <= dyn) {
		put_bits(z, (unsigned)last | 1u << 1, 3);
		put_syms(z, in, n, mt, nm, st_code, st_len, st_dcode, st_dlen);
		return;
	}
	make_codes(ll, hlit, lcount, lc); /* the symbols past hlit and hdist are not used */
	make_codes(dl, hdist, dcount, dc);
	make_codes(pl, NPRE, pcount, pc);
	put_bits(z, (unsigned)last | 2u << 1, 3);
	put_bits(z, (hlit - 257) | (hdist - 1) << 5 | (hclen - 4) << 10, 14);
	for (unsigned i = 0; i < hclen; i++)
		put_bits(z, pl[pre_order[i]], 3);
	static const uint8_t pre_extra[3] = {2, 3, 7};
	for (unsigned i = 0; i < np; i++) {
		unsigned v = pre[i] & 0xff, e = pre[i] >> 8;
		if (v >= 16)
			put_bits(z, pc[v] | e << pl[v], pl[v] + pre_extra[v - 16]);
		else
			put_bits(z, pc[v], pl[v]);
	}
	put_syms(z, in, n, mt, nm, lc, ll, dc, dl);
}

size_t pdf_zfast_bound(size_t n)
{
	return n + 5 * (n / 65535 + 1) * (n / BLOCK_BYTES + 1) + 64;
}

/* The stamp of position 0 of an input of n bytes: positions are stamped
 * base1 + i in htab (and cprev); an earlier call's are more than a window
 * back, an empty entry's (0) too, and every entry is older than the
 * position that reads it (pdf_zfast looks a position up before it enters
 * it, and only past what it entered), so a distance is at least 1.
 * (cprev is not cleared when the stamps start again: a chain only reads
 * the links of positions entered in the same call.) */
static uint32_t stamp_base(size_t n)
{
	if (hbase == 0) { /* the first call: the tables are zero */
		hbase = WINDOW + 1;
	} else if (hbase > UINT32_MAX - n - 2 * WINDOW - 2) {
		memset(htab, 0, sizeof(htab));
		hbase = WINDOW + 1;
	}
	uint32_t base1 = hbase;
	hbase += (uint32_t)n + WINDOW + 1;
	return base1;
}

static uint32_t load32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static unsigned hash4(uint32_t v)
{
	return (v * 0x9E3779B1u) >> (32 - HBITS);
}

/* How far a and b agree from len on, up to max (> len): 8 bytes at a
 * time where the words can be compared as little-endian. */
static size_t agree(const unsigned char *a, const unsigned char *b, size_t len, size_t max)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	for (; len + 8 <= max; len += 8) {
		uint64_t x, y;
		memcpy(&x, a + len, 8);
		memcpy(&y, b + len, 8);
		if (x != y)
			return len + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
#endif
	while (len < max && a[len] == b[len])
		len++;
	return len;
}

/* The length of the match at a, dist back, of at most left bytes (the
 * first MIN_MATCH are known to match). */
static inline __attribute__((always_inline)) size_t match_len(const unsigned char *a,
                                                               uint32_t dist, size_t left)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	if (left >= MIN_MATCH + 8) { /* most matches end in their next 8 bytes */
		uint64_t x, y;
		memcpy(&x, a + MIN_MATCH, 8);
		memcpy(&y, a + MIN_MATCH - dist, 8);
		if (x != y)
			return MIN_MATCH + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
#endif
	return agree(a, a - dist, MIN_MATCH, left < MAX_MATCH ? left : MAX_MATCH);
}

/* The literals from in + i on, counted into lf, up to the first position
 * before bl that matches the 4 bytes at its candidate (its distance into
 * *dist), or bl. Each position looked up is entered in the table. */
static size_t next_match(const unsigned char *in, size_t i, size_t bl, uint32_t base1,
                         uint32_t *restrict ht, uint32_t *restrict lf, uint32_t *dist)
{
	/* the stamp of in + k is base1 + k: one counter for both */
	size_t k = i;
	const unsigned char *at = in;
	uint32_t off = base1;
	for (; k < bl; k++) {
		uint32_t v = load32(at + k), *e = &ht[hash4(v)], stamp = off + (uint32_t)k, d = stamp - *e;
		*e = stamp;
		if (d <= WINDOW && load32(at + k - d) == v) { /* d > 0: an entry is older */
			*dist = d;
			break;
		}
		lf[at[k]]++;
	}
	return k;
}

/* What both parses do first: the bound and size checks, the tables, the
 * hash stamps' base for this call, the match buffer; -1: cannot. */
static int z_start(size_t n, size_t cap, uint32_t *base1)
{
	if (cap < pdf_zfast_bound(n) || n > (1u << 30))
		return -1;
	init_tables();
	*base1 = stamp_base(n);
	if (!mts)
		mts = xmalloc((BLOCK_BYTES / MIN_MATCH + 2) * sizeof(*mts));
	return 0;
}

/* A block's end in both parses: the last bytes (fewer than a match) as
 * literals when the block ends the input, the end-of-block code, the
 * block written; where the next block starts. */
static size_t z_block_end(zout_t *z, const unsigned char *in, size_t bstart, size_t i, size_t n,
                          int last, const zmatch_t *mt, size_t nm, uint32_t *lf, uint32_t *df)
{
	if (last)
		for (; i < n; i++)
			lf[in[i]]++;
	lf[256] = 1;
	put_block(z, in + bstart, i - bstart, mt, nm, lf, df, i == n);
	return i;
}

size_t pdf_zfast(const void *src, size_t n, unsigned char *out, size_t cap)
{
	const unsigned char *in = src;
	uint32_t base1;
	if (z_start(n, cap, &base1))
		return 0;
	uint32_t *restrict ht = htab;
	zmatch_t *restrict mt = mts;
	zout_t z = {out, 0, 0, 0};
	uint32_t lf[NLIT], df[NDIST];
	const size_t lim = n >= MIN_MATCH ? n - MIN_MATCH + 1 : 0; /* positions with 4 bytes */
	size_t i = 0;
	do {
		size_t bstart = i, lit = i, nm = 0;
		size_t bend = n - i > BLOCK_BYTES ? i + BLOCK_BYTES : n, bl = bend < lim ? bend : lim;
		memset(lf, 0, sizeof(lf));
		memset(df, 0, sizeof(df));
		while (i < bl) {
			uint32_t dist = 0;
			i = next_match(in, i, bl, base1, ht, lf, &dist);
			if (i == bl)
				break;
			size_t m = match_len(in + i, dist, n - i);
			if (m < LAZY_BELOW && i + 1 < bl) { /* one step lazy: a longer match at i + 1? */
				uint32_t v2 = load32(in + i + 1);
				uint32_t *e2 = &ht[hash4(v2)];
				uint32_t d2 = base1 + (uint32_t)i + 1 - *e2;
				*e2 = base1 + (uint32_t)i + 1;
				if (d2 - 1 < WINDOW && load32(in + i + 1 - d2) == v2) {
					size_t m2 = match_len(in + i + 1, d2, n - i - 1);
					if (m2 > m) {
						lf[in[i]]++;
						i++;
						m = m2;
						dist = d2;
					}
				}
			}
			mt[nm].lit = (uint32_t)(i - lit);
			mt[nm].len = (uint16_t)m;
			mt[nm].dist = (uint16_t)dist;
			nm++;
			lf[257 + len_code[m]]++;
			df[dcode_of(dist)]++;
			size_t end = i + m, stop = end < lim ? end : lim, k = i + 1;
			if (m > INSERT_ALL) {
				size_t head = k + INSERT_HEAD < stop ? k + INSERT_HEAD : stop;
				for (; k < head; k++)
					ht[hash4(load32(in + k))] = base1 + (uint32_t)k;
				k = end - INSERT_TAIL;
			}
			for (; k + 1 < stop; k += 2) { /* in order: two may share an entry */
				ht[hash4(load32(in + k))] = base1 + (uint32_t)k;
				ht[hash4(load32(in + k + 1))] = base1 + (uint32_t)k + 1;
			}
			if (k < stop)
				ht[hash4(load32(in + k))] = base1 + (uint32_t)k;
			i = lit = end;
		}
		i = z_block_end(&z, in, bstart, i, n, bend == n, mt, nm, lf, df);
	} while (i < n);
	put_align(&z);
	return z.n;
}

/* ---- pdf_zlazy: lazy matching on hash chains ----
 *
 * zlib's deflate_slow parse with its level 5 settings but a chain of 16:
 * at each position the longest match along the chain of earlier
 * positions with the same hash (at most CHAIN of them, a quarter once a
 * match of GOOD is in hand, none past NICE), and a match is taken only
 * when the one at the next position is not longer. The blocks, their
 * codes and the tables are pdf_zfast's (htab holds the chains' heads). */
enum { CHAIN = 16, GOOD = 8, NICE = 32, LAZY_MAX = 16 };

/* The longest match at in + i longer than best along the chain from
 * stamp cand (i stamped stamp); its length (0: none longer), its
 * distance into *dist. A chain ends a window back: its links past that
 * may be overwritten. */
static size_t longest(const unsigned char *in, size_t i, size_t n, uint32_t stamp,
                      uint32_t base1, uint32_t cand, size_t best, uint32_t *dist)
{
	size_t max = n - i < MAX_MATCH ? n - i : MAX_MATCH, found = 0;
	if (best >= max)
		return 0;
	unsigned depth = best >= GOOD ? CHAIN / 4 : CHAIN;
	const unsigned char *a = in + i;
	uint32_t a4 = load32(a);
	while (depth--) {
		uint32_t d = stamp - cand;
		if (d - 1 >= WINDOW - 1)
			break;
		const unsigned char *b = a - d;
		if (b[best] == a[best] && load32(b) == a4) {
			size_t len = agree(a, b, MIN_MATCH, max);
			if (len > best) {
				best = found = len;
				*dist = d;
				if (len >= NICE || len >= max)
					break;
			}
		}
		cand = cprev[(cand - base1) & (WINDOW - 1)];
	}
	return found;
}

/* Match mt[*nm] at in + s, len bytes from dist back: counted, and its
 * positions from s + 2 on entered in the chains (s and s + 1 are in
 * them); where it ends. */
static size_t lazy_take(const unsigned char *in, size_t s, size_t len, uint32_t dist, size_t lit,
                        size_t lim, uint32_t base1, zmatch_t *mt, size_t *nm, uint32_t *lf,
                        uint32_t *df)
{
	size_t end = s + len, stop = end < lim ? end : lim;
	mt[*nm].lit = (uint32_t)(s - lit);
	mt[*nm].len = (uint16_t)len;
	mt[*nm].dist = (uint16_t)dist;
	(*nm)++;
	lf[257 + len_code[len]]++;
	df[dcode_of(dist)]++;
	for (size_t k = s + 2; k < stop; k++) {
		uint32_t *h = &htab[hash4(load32(in + k))];
		cprev[k & (WINDOW - 1)] = *h;
		*h = base1 + (uint32_t)k;
	}
	return end;
}

size_t pdf_zlazy(const void *src, size_t n, unsigned char *out, size_t cap)
{
	const unsigned char *in = src;
	uint32_t base1;
	if (z_start(n, cap, &base1))
		return 0;
	zmatch_t *restrict mt = mts;
	zout_t z = {out, 0, 0, 0};
	uint32_t lf[NLIT], df[NDIST];
	const size_t lim = n >= MIN_MATCH ? n - MIN_MATCH + 1 : 0; /* positions with 4 bytes */
	size_t i = 0;
	do {
		size_t bstart = i, lit = i, nm = 0;
		size_t bend = n - i > BLOCK_BYTES ? i + BLOCK_BYTES : n, bl = bend < lim ? bend : lim;
		memset(lf, 0, sizeof(lf));
		memset(df, 0, sizeof(df));
		/* position i - 1 was looked at (have): its match plen (0: none,
		   else >= MIN_MATCH), pdist */
		int have = 0;
		size_t plen = 0;
		uint32_t pdist = 0;
		while (i < bl) {
			uint32_t stamp = base1 + (uint32_t)i, *h = &htab[hash4(load32(in + i))], cand = *h;
			cprev[i & (WINDOW - 1)] = cand;
			*h = stamp;
			size_t clen = 0;
			uint32_t cdist = 0;
			if (plen < LAZY_MAX && stamp - cand - 1 < WINDOW - 1)
				clen = longest(in, i, n, stamp, base1, cand, plen ? plen : MIN_MATCH - 1, &cdist);
			if (plen && clen <= plen) { /* take the match at i - 1 */
				i = lit = lazy_take(in, i - 1, plen, pdist, lit, lim, base1, mt, &nm, lf, df);
				have = 0;
				plen = 0;
				continue;
			}
			if (have) /* i - 1 is a literal */
				lf[in[i - 1]]++;
			have = 1;
			plen = clen;
			pdist = cdist;
			i++;
		}
		if (plen) /* the last position looked at: its match */
			i = lit = lazy_take(in, i - 1, plen, pdist, lit, lim, base1, mt, &nm, lf, df);
		else if (have)
			lf[in[i - 1]]++;
		i = z_block_end(&z, in, bstart, i, n, bend == n, mt, nm, lf, df);
	} while (i < n);
	put_align(&z);
	return z.n;
}
