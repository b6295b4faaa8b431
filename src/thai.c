/* thai: Thai word boundaries; see thai.h.
 *
 * libthai (0.1.29, what Debian ships and Pango uses) reads its dictionary,
 * a libdatrie double-array trie of 25,110 words (thbrk.tri, 588 KB),
 * into memory cell by cell: ~31 M instructions, per process, before the
 * first break. Here the trie file is read by our own reader (the format:
 * an alphabet map, the double array, the tails, big-endian) once per
 * version of the file and compiled into a flat trie (below) written to
 * $XDG_CACHE_HOME/vita/thbrk.tri.thc (else ~/.cache/vita/; atomically:
 * temp file and rename; another word list than the default one, from
 * $LIBTHAI_DICTDIR, gets thbrk.tri.HASH.thc). Later processes map that file and use it in
 * place: a header check, no parse (~0.02 M instructions). libthai and
 * libdatrie are not used at all.
 *
 * The breaking is libthai's th_brk_find_breaks re-done over that trie
 * (tests/unit/test_thai_lib.c compares the two over a corpus, when
 * libthai is installed):
 *  - the run is cut into chunks of character classes (Thai letters;
 *    digits; the currency sign; the repetition and abbreviation marks;
 *    the end-of-section marks); between two chunks libthai's class table
 *    says whether a line may break (inside a run there is no space, so
 *    its "indirect" breaks never happen);
 *  - a chunk of Thai letters is cut into dictionary words by a search
 *    over break paths: each path walks the trie from its last break; at
 *    the end of a word it may break only where a syllable may start
 *    (th_hints: before a consonant that does not end the syllable before
 *    it, a leading vowel, ...); where a longer word may go on, the path
 *    forks (one breaks, one walks on). Paths that reach the same last
 *    break are merged, keeping the one with the smaller penalty (the
 *    letters left out of words so far), then fewer breaks. The path
 *    with the least progress is walked first;
 *  - where no word goes on, the path skips unknown letters to the next
 *    syllable start after which three dictionary words follow (th_recover;
 *    penalty: the letters skipped). libthai's test meant to accept fewer
 *    words that reach the end of the chunk compares at a wrong index and
 *    never holds (0.1.29 and 0.1.30); we keep that, for the same breaks;
 *    with no such place, the rest of the chunk is one word.
 * The order of the paths in the pool (newest first) and every tie rule
 * are libthai's: where two paths tie, the one it keeps is the one we keep.
 *
 * The cache file is checked by its header: the .tri's path, size and
 * mtime (as hyph.c does), the format and byte order, and its own size; a
 * stale, foreign, truncated or other-version file is compiled again and
 * replaced. The body is not checksummed: every node index the walk takes
 * is checked where it is used, and the search always advances through
 * the text, so whatever the bytes say the breaking stays inside the file
 * and ends (tests/fuzz/fuzz_thai.c); a damaged body can only give other
 * breaks. VITA_NO_THAI_CACHE=1 compiles in memory and writes nothing.
 * The file is mapped whole (hyph.c reads its blocks instead, as a fault
 * on a file vita wrote itself can map a whole large folio: 2 MB of a
 * 4.4 MB German file for 2 bytes): this one is 580 KB, and a Thai CV's
 * peak RSS is 1 MB lower than with libthai's trie in the heap.
 * A missing or unreadable dictionary gives no breaks (the run stays
 * whole), as libthai's absence did before.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena.h"
#include "buf.h"
#include "file.h"
#include "thai.h"

#define TH_DICT_DIR "/usr/share/libthai"
#define TH_DICT_NAME "thbrk.tri"
#define TH_TRI_MAX (64u << 20)

/* ---- the compiled form ----
 *
 * A header, then the nodes of the trie numbered breadth first from the
 * root (node 0), so the children of a node are contiguous and sorted by
 * letter: node i's children are nodes first .. first + n - 1, and each
 * node holds the letter leading to it (its code point - U+0E00). */
#define TH_MAGIC "vitath1"
#define TH_BOM 0x01020304u

typedef struct {
	uint32_t first;           /* the first child */
	uint8_t n;                /* children */
	uint8_t flags;            /* TH_WORD, TH_FORK */
	uint8_t ch;               /* the letter leading here, - U+0E00 */
	uint8_t pad;
} th_node_t;
#define TH_WORD 1             /* a word ends here */
#define TH_BRANCH 2           /* libdatrie's walk is here in its double
                                 array, not in a tail: libthai forks a
                                 path at a word that ends here */

struct th_head {
	char magic[8];
	uint32_t bom, node_size;
	int64_t size, mtime, mtime_ns;     /* the .tri's */
	uint64_t total;                    /* bytes of the file */
	uint32_t nnodes, nwords;
	char path[256];
};
#define TH_NODES ((sizeof(struct th_head) + 7) & ~(size_t)7)

struct thai_dict {
	const th_node_t *node;
	uint32_t nnodes, nwords;
	uint32_t root[256];       /* the root's child by letter, + 1; 0: none
	                             (most walks start there: no search) */
};

/* ---- our reader of libdatrie's file (thbrk.tri) ----
 *
 * Big-endian int32s: the alphabet map (0xD9FCD9FC, the number of ranges,
 * each range's first and last code point: trie letters 1, 2, ... in
 * order, 0 ends a word), the double array (0xDAFCDAFC, its cell count,
 * then base and check of cells 1..: cell 2 is the root; a child of cell
 * s by letter c is cell base[s] + c when its check is s; a negative base
 * means the rest of the word is in tail -base), the tails (0xDFFCDFFC,
 * first free, count, then per tail: next free, data, a 16-bit length
 * and its letters). */
typedef struct {
	const unsigned char *p;
	size_t n, at;
	int bad;
} th_rd_t;

static uint32_t rd32(th_rd_t *r)
{
	if (r->at > r->n || r->n - r->at < 4) {
		r->bad = 1;
		return 0;
	}
	const unsigned char *q = r->p + r->at;
	r->at += 4;
	return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

typedef struct {
	uint32_t alpha[256];      /* trie letter -> code point; 0: none */
	int32_t ncells;
	const unsigned char *cells; /* ncells - 1 pairs from cell 1 */
	uint32_t ntails;
	const unsigned char **tail; /* each tail's letters */
	uint16_t *taillen;
} th_tri_t;

static int32_t be32(const unsigned char *q)
{
	return (int32_t)((uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]);
}

static int32_t tri_base(const th_tri_t *t, int64_t s)
{
	return s >= 1 && s < t->ncells ? be32(t->cells + (size_t)(s - 1) * 8) : 0;
}

static int32_t tri_check(const th_tri_t *t, int64_t s)
{
	return s >= 1 && s < t->ncells ? be32(t->cells + (size_t)(s - 1) * 8 + 4) : -1;
}

static int tri_read(th_tri_t *t, const unsigned char *p, size_t n)
{
	th_rd_t r = {p, n, 0, 0};
	memset(t, 0, sizeof(*t));
	if (rd32(&r) != 0xD9FCD9FCu)
		return -1;
	uint32_t nr = rd32(&r), tc = 1, prev = 0;
	if (nr > 255)
		return -1;
	for (uint32_t i = 0; i < nr && !r.bad; i++) {
		uint32_t b = rd32(&r), e = rd32(&r);
		/* libdatrie sorts and merges the ranges it writes: take them
		   ascending and apart, at most 255 letters in all */
		if (r.bad || b == 0 || e < b || (i && b <= prev) || e - b >= 256 - tc)
			return -1;
		for (uint32_t a = b; a <= e; a++)
			t->alpha[tc++] = a;
		prev = e;
	}
	if (r.bad || rd32(&r) != 0xDAFCDAFCu)
		return -1;
	int32_t nc = (int32_t)rd32(&r);
	if (r.bad || nc < 3 || (size_t)(nc - 1) > (n - r.at) / 8)
		return -1;
	t->ncells = nc;
	t->cells = p + r.at;
	r.at += (size_t)(nc - 1) * 8;
	if (rd32(&r) != 0xDFFCDFFCu)
		return -1;
	rd32(&r);                 /* first free */
	uint32_t nt = rd32(&r);
	if (r.bad || nt > (n - r.at) / 10)
		return -1;
	t->ntails = nt;
	t->tail = xmalloc((nt + 1) * sizeof(*t->tail));
	t->taillen = xmalloc((nt + 1) * sizeof(*t->taillen));
	for (uint32_t i = 0; i < nt; i++) {
		rd32(&r);
		rd32(&r);
		if (r.bad || n - r.at < 2)
			return -1;
		int len = (int16_t)(p[r.at] << 8 | p[r.at + 1]);
		r.at += 2;
		if (len < 0)
			len = 0;      /* libdatrie reads none then */
		if ((size_t)len > n - r.at)
			return -1;
		t->tail[i] = p + r.at;
		t->taillen[i] = (uint16_t)len;
		r.at += (size_t)len;
	}
	return 0;
}

static void tri_done(th_tri_t *t)
{
	free(t->tail);
	free(t->taillen);
}

/* A state of libdatrie's walk: a cell of the double array (tail 0), or
 * letter k of tail `tail` (1-based, as libdatrie numbers them). */
typedef struct {
	int32_t cell;
	uint32_t tail;
	uint32_t k;
	uint32_t depth;
} th_src_t;

/* The tail's letter at k: 0 at its end (libdatrie ends each with 0). */
static unsigned tail_at(const th_tri_t *t, const th_src_t *s)
{
	if (s->tail < 1 || s->tail > t->ntails)
		return 256;           /* a tail that is not there: no word */
	const unsigned char *q = t->tail[s->tail - 1];
	return s->k < t->taillen[s->tail - 1] ? q[s->k] : 0;
}

#define TH_MAXNODES (4u << 20)
#define TH_MAXDEPTH 200

static int th_put_child(buf_t *nb, th_src_t **src, size_t *srccap, uint32_t *nn, uint32_t cp,
                        th_src_t s)
{
	if (cp < 0xE01 || cp > 0xEFF)
		return 0;             /* a letter no Thai run has: never walked */
	if (*nn >= TH_MAXNODES)
		return -1;
	if (*nn >= *srccap) {
		*srccap *= 2;
		*src = xrealloc(*src, *srccap * sizeof(**src));
	}
	th_node_t z = {0, 0, 0, (uint8_t)(cp - 0xE00), 0};
	buf_add(nb, (const char *)&z, sizeof(z));
	(*src)[(*nn)++] = s;
	return 0;
}

int thai_dict_compile(const unsigned char *tri, size_t n, buf_t *out)
{
	th_tri_t t;
	if (tri_read(&t, tri, n)) {
		tri_done(&t);
		return -1;
	}
	struct th_head hd;
	memset(&hd, 0, sizeof(hd));
	buf_add(out, (const char *)&hd, sizeof(hd));
	while (out->len < TH_NODES)
		buf_putc(out, 0);
	/* the children of each cell, by one pass over the cells: cell n is
	   a child of check[n] by letter n - base[check[n]] (ascending) */
	int32_t nc = t.ncells;
	uint32_t *off = xcalloc((size_t)nc + 1, sizeof(*off)), *kid;
	for (int32_t c = 1; c < nc; c++) {
		int32_t p = tri_check(&t, c);
		int64_t l = p >= 2 ? (int64_t)c - tri_base(&t, p) : -1;
		if (p >= 2 && p < nc && l >= 1 && l < 256)
			off[p + 1]++;
	}
	for (int32_t c = 0; c < nc; c++)
		off[c + 1] += off[c];
	kid = xmalloc(((size_t)off[nc] + 1) * sizeof(*kid));
	uint32_t *fill = xmalloc(((size_t)nc + 1) * sizeof(*fill));
	memcpy(fill, off, ((size_t)nc + 1) * sizeof(*fill));
	for (int32_t c = 1; c < nc; c++) {
		int32_t p = tri_check(&t, c);
		int64_t l = p >= 2 ? (int64_t)c - tri_base(&t, p) : -1;
		if (p >= 2 && p < nc && l >= 1 && l < 256)
			kid[fill[p]++] = (uint32_t)c;
	}
	free(fill);
	size_t srccap = 4096;
	th_src_t *src = xmalloc(srccap * sizeof(*src));
	uint32_t nn = 0, words = 0;
	int bad = th_put_child(out, &src, &srccap, &nn, 0xE01, (th_src_t){2, 0, 0, 0});
	((th_node_t *)(out->s + TH_NODES))[0].ch = 0;
	/* breadth first: node i's children are appended as it is expanded */
	for (uint32_t i = 0; i < nn && !bad; i++) {
		th_src_t s = src[i];
		uint32_t first = nn;
		uint8_t flags = 0;
		if (s.depth >= TH_MAXDEPTH) {
			bad = 1;
			break;
		}
		if (!s.tail) {
			int64_t base = tri_base(&t, s.cell);
			flags |= TH_BRANCH;
			if (tri_check(&t, base) == s.cell)
				flags |= TH_WORD;
			for (uint32_t j = off[s.cell]; j < off[s.cell + 1] && !bad; j++) {
				int64_t nx = kid[j], c = nx - base;
				if (!t.alpha[c])
					continue;
				int32_t b = tri_base(&t, nx);
				th_src_t k = b < 0 ? (th_src_t){0, (uint32_t)-(int64_t)b, 0, s.depth + 1}
				                   : (th_src_t){(int32_t)nx, 0, 0, s.depth + 1};
				bad = th_put_child(out, &src, &srccap, &nn, t.alpha[c], k);
			}
		} else {
			unsigned c = tail_at(&t, &s);
			if (c == 0)
				flags |= TH_WORD;
			else if (c < 256 && t.alpha[c])
				bad = th_put_child(out, &src, &srccap, &nn, t.alpha[c],
				                   (th_src_t){0, s.tail, s.k + 1, s.depth + 1});
		}
		th_node_t *nd = (th_node_t *)(out->s + TH_NODES) + i;
		if (nn - first > 255)
			bad = 1;
		nd->first = first;
		nd->n = (uint8_t)(nn - first);
		nd->flags = flags;
		words += flags & TH_WORD;
	}
	free(src);
	free(off);
	free(kid);
	tri_done(&t);
	if (bad || !words)
		return -1;
	struct th_head *h = (struct th_head *)out->s;
	memcpy(h->magic, TH_MAGIC, 8);
	h->bom = TH_BOM;
	h->node_size = sizeof(th_node_t);
	h->nnodes = nn;
	h->nwords = words;
	h->total = out->len;
	return 0;
}

thai_dict_t *thai_dict_use(const void *p, size_t n)
{
	struct th_head hd;
	if (n < TH_NODES || ((uintptr_t)p & 7))
		return NULL;
	memcpy(&hd, p, sizeof(hd));
	if (memcmp(hd.magic, TH_MAGIC, 8) || hd.bom != TH_BOM || hd.node_size != sizeof(th_node_t) ||
	    hd.total != n || hd.nnodes < 1 || hd.nnodes > (n - TH_NODES) / sizeof(th_node_t))
		return NULL;
	thai_dict_t *d = xcalloc(1, sizeof(*d));
	d->node = (const th_node_t *)((const char *)p + TH_NODES);
	d->nnodes = hd.nnodes;
	d->nwords = hd.nwords;
	const th_node_t *r = &d->node[0];
	if ((uint64_t)r->first + r->n <= d->nnodes)
		for (uint32_t k = r->first + r->n; k-- > r->first;)
			d->root[d->node[k].ch] = k + 1;   /* the first of equal letters */
	return d;
}

void thai_dict_free(thai_dict_t *d)
{
	free(d);
}

uint32_t thai_dict_words(const thai_dict_t *d)
{
	return d ? d->nwords : 0;
}

uint32_t thai_dict_nodes(const thai_dict_t *d)
{
	return d ? d->nnodes : 0;
}

void thai_dict_each(const thai_dict_t *d, void (*f)(const uint32_t *w, int n, void *arg), void *arg)
{
	uint32_t w[64], node[65], next[65];
	int depth = 0;
	if (!d)
		return;
	node[0] = 0;
	next[0] = 0;
	while (depth >= 0) {
		const th_node_t *nd = &d->node[node[depth]];
		uint32_t k = next[depth]++;
		if (k >= nd->n || (uint64_t)nd->first + nd->n > d->nnodes || depth == 64) {
			depth--;
			continue;
		}
		uint32_t c = nd->first + k;
		w[depth] = 0xE00 + d->node[c].ch;
		if (d->node[c].flags & TH_WORD)
			f(w, depth + 1, arg);
		depth++;
		node[depth] = c;
		next[depth] = 0;
	}
}

/* The child of node s by code point cp, or -1 (and for a first/n that
 * leave the node array: -1, whatever the file says). */
static int64_t th_walk(const thai_dict_t *d, uint32_t s, uint32_t cp)
{
	uint32_t c = cp - 0xE00;
	if (c - 1 > 254)
		return -1;
	if (s == 0)
		return (int64_t)d->root[c] - 1;
	const th_node_t *nd = &d->node[s];
	uint32_t lo = nd->first, hi = lo + nd->n;
	if (hi > d->nnodes || lo > hi)
		return -1;
	if (nd->n <= 6) {
		for (; lo < hi; lo++)
			if (d->node[lo].ch >= c)
				return d->node[lo].ch == c ? (int64_t)lo : -1;
		return -1;
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, m = d->node[mid].ch;
		if (m == c)
			return mid;
		if (m < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* ---- libthai's syllable starts (th_hints) ----
 *
 * h[i] = 1 where a word may start at s[i]: at a consonant, unless it
 * carries a cancellation mark (thanthakhat) on it or the next letter,
 * or follows mai han-akat or sara uee (with or without a tone mark:
 * then it closes that syllable); at a leading vowel (the consonant after
 * it is skipped, and for sara e/ae what completes the vowel); at ru and
 * lu. */
enum {
	KO_KAI = 0xE01, WO_WAEN = 0xE27, O_ANG = 0xE2D, RU = 0xE24, LU = 0xE26,
	SARA_A = 0xE30, MAI_HAN_AKAT = 0xE31, SARA_AA = 0xE32, SARA_UEE = 0xE37,
	SARA_E = 0xE40, SARA_AE = 0xE41, MAITAIKHU = 0xE47, THANTHAKHAT = 0xE4C
};

static int is_cons(uint32_t c)
{
	return c >= 0xE01 && c <= 0xE2E && c != RU && c != LU;
}

static int is_tone(uint32_t c)
{
	return c >= 0xE48 && c <= 0xE4B;
}

static int is_upvowel(uint32_t c)
{
	return c == MAI_HAN_AKAT || (c >= 0xE34 && c <= 0xE37);
}

static void th_hints(const uint32_t *s, int len, char *h)
{
	memset(h, 0, (size_t)len);
	int i = 0;
	while (i < len) {
		uint32_t c = s[i];
		if (is_cons(c)) {
			uint32_t a = i + 1 < len ? s[i + 1] : 0, b = i + 2 < len ? s[i + 2] : 0;
			uint32_t p1 = i > 0 ? s[i - 1] : 0, p2 = i > 1 ? s[i - 2] : 0;
			if (a == THANTHAKHAT)
				i += 2;
			else if (b == THANTHAKHAT)
				i += 3;
			else if (b && c != KO_KAI && a == MAITAIKHU && (b == O_ANG || b == WO_WAEN)) {
				h[i] = 1;
				i += 4;
			} else if (p1 == MAI_HAN_AKAT || p1 == SARA_UEE ||
			           (is_tone(p1) && (p2 == MAI_HAN_AKAT || p2 == SARA_UEE)))
				i++;
			else
				h[i++] = 1;
		} else if (c == SARA_E || c == SARA_AE) {
			h[i] = 1;
			i += 2;
			if (i >= len)
				break;
			uint32_t a = i + 1 < len ? s[i + 1] : 0, b = i + 2 < len ? s[i + 2] : 0;
			if (s[i] == MAITAIKHU) {
				i += 2;
			} else if (is_upvowel(s[i])) {
				i++;
				if (i < len && is_tone(s[i]))
					i++;
				i++;
			} else if (b && ((a == SARA_AA && b == SARA_A) ||
			                 (s[i] != KO_KAI && a == MAITAIKHU && b != O_ANG && b != WO_WAEN))) {
				i += 3;
			}
		} else if (c >= 0xE40 && c <= 0xE44) {
			h[i] = 1;
			i += 2;
		} else if (c == RU || c == LU) {
			h[i++] = 1;
		} else {
			i++;
		}
	}
}

/* ---- the search over break paths (libthai's maximal matching) ---- */

/* A path: where its walk is in the trie and in the text, its breaks so
 * far (in the pool's array brk, cap per path), its penalty. The pool is
 * a list, newest first, as libthai keeps it. */
typedef struct {
	uint32_t node;
	int pos, nb, pen;
	int prev, next;
} th_path_t;

typedef struct {
	th_path_t *p;
	int *brk;
	int cap, n, size, head, free;
	long *work;               /* the chunk's steps (th_ctx_t) */
} th_pool_t;

static void pool_reset(th_pool_t *P, int cap)
{
	if (cap > P->cap) {
		free(P->brk);
		P->brk = NULL;
		P->size = 0;
		free(P->p);
		P->p = NULL;
		P->cap = cap;
	}
	P->n = 0;
	P->head = -1;
	P->free = -1;
}

static int *brks(th_pool_t *P, int k)
{
	return P->brk + (size_t)k * (size_t)P->cap;
}

static int last_brk(th_pool_t *P, int k)
{
	return P->p[k].nb ? brks(P, k)[P->p[k].nb - 1] : 0;
}

/* A new path at the head of the list: a copy of path `from` (breaks and
 * all), or the root path when from is -1. */
static int pool_add(th_pool_t *P, int from)
{
	int k = P->free;
	if (k >= 0) {
		P->free = P->p[k].next;
	} else {
		if (P->n == P->size) {
			P->size = P->size ? 2 * P->size : 16;
			P->p = xrealloc(P->p, (size_t)P->size * sizeof(*P->p));
			P->brk = xrealloc(P->brk, (size_t)P->size * (size_t)P->cap * sizeof(int));
		}
		k = P->n++;
	}
	if (from >= 0) {
		P->p[k] = P->p[from];
		memcpy(brks(P, k), brks(P, from), (size_t)P->p[from].nb * sizeof(int));
	} else {
		P->p[k] = (th_path_t){0, 0, 0, 0, -1, -1};
	}
	P->p[k].prev = -1;
	P->p[k].next = P->head;
	if (P->head >= 0)
		P->p[P->head].prev = k;
	P->head = k;
	return k;
}

static void pool_del(th_pool_t *P, int k)
{
	th_path_t *x = &P->p[k];
	if (x->prev >= 0)
		P->p[x->prev].next = x->next;
	else
		P->head = x->next;
	if (x->next >= 0)
		P->p[x->next].prev = x->prev;
	x->next = P->free;
	P->free = k;
}

/* The path with the least progress: the first without a break, else the
 * first whose last break is the smallest; -1 when none is left. */
static int pool_least(th_pool_t *P)
{
	int best = -1, at = 0;
	for (int k = P->head; k >= 0; k = P->p[k].next) {
		++*P->work;
		if (!P->p[k].nb)
			return k;
		int b = last_brk(P, k);
		if (best < 0 || b < at) {
			best = k;
			at = b;
		}
	}
	return best;
}

/* The first path from `from` on, other than k, whose last break is k's
 * (or that has none, as k), or -1. */
static int pool_same(th_pool_t *P, int from, int k)
{
	int nb = P->p[k].nb, b = last_brk(P, k);
	for (int m = from; m >= 0; m = P->p[m].next, ++*P->work)
		if (m != k && (nb ? P->p[m].nb && last_brk(P, m) == b : !P->p[m].nb))
			return m;
	return -1;
}

/* The search's steps (letters walked, paths looked at) are counted per
 * chunk: with libthai's dictionary they are at most 42 per letter over
 * test_thai_lib's corpus (10 over 16,000 letters of words, or of random
 * letters); a dictionary whose body was damaged into cycles could make
 * every string a word and the search cubic, so past TH_WORK per letter
 * (and 65,536) the chunk is given up (left whole) instead. */
#define TH_WORK 4096
typedef struct {
	const thai_dict_t *d;
	th_pool_t main, rec;
	int rec_at, rec_to;       /* the last recovery: from, to */
	signed char *ok;          /* per letter of the chunk: 1 when TH_FOLLOW
	                             words follow it, -1 when not, 0: unknown */
	int okcap;
	long work, budget;
} th_ctx_t;

static int over(const th_ctx_t *x)
{
	return x->work > x->budget;
}

static int is_word(const thai_dict_t *d, uint32_t s)
{
	return d->node[s].flags & TH_WORD;
}

static int is_branch(const thai_dict_t *d, uint32_t s)
{
	return d->node[s].flags & TH_BRANCH;
}

/* How many dictionary words (at most want) follow s[0..len) from its
 * start, each ending where a syllable starts or at len; *last: where the
 * last of them ends. Paths are walked as in th_words, without penalties:
 * the first that reaches want words, or the end, ends the search. */
static int th_follow(th_ctx_t *x, const uint32_t *s, int len, const char *h, int want, int *last)
{
	th_pool_t *P = &x->rec;
	int got = 0;
	pool_reset(P, want);
	pool_add(P, -1);
	for (int k; !over(x) && (k = pool_least(P)) >= 0;) {
		for (;;) {
			th_path_t *w = &P->p[k];
			int keep = 1, word = 0;
			do {
				int64_t nx = th_walk(x->d, w->node, s[w->pos++]);
				x->work++;
				if (nx < 0) {
					keep = 0;
					break;
				}
				w->node = (uint32_t)nx;
				word = is_word(x->d, w->node);
				if (w->pos >= len) {
					keep = word;
					break;
				}
			} while (!(word && h[w->pos]));
			if (!keep) {
				pool_del(P, k);
				break;
			}
			if (w->pos < len && is_branch(x->d, w->node))
				k = pool_add(P, k);     /* this one breaks, its parent walks on */
			w = &P->p[k];
			w->node = 0;
			brks(P, k)[w->nb++] = w->pos;
			if (w->pos == len || w->nb == want) {
				if (w->nb > got) {
					got = w->nb;
					*last = brks(P, k)[got - 1];
				}
				pool_del(P, k);
				if (got == want)
					return got;
				break;
			}
			for (int m, from = P->head; (m = pool_same(P, from, k)) >= 0;) {
				from = P->p[m].next;
				pool_del(P, m);
			}
		}
	}
	return got;
}

#define TH_FOLLOW 3           /* words that must follow a recovery point */

/* Where a path that met no word at from - 1 goes on: the first syllable
 * start at or after the first one from `from` on after which TH_FOLLOW
 * words follow; -1 when there is none. Whether they follow a letter is
 * a matter of the chunk alone: x->ok keeps the answer per letter for the
 * other paths that fail (libthai asks again; it keeps only its last
 * answer, rec_at/rec_to, which we keep too). */
static int th_recover(th_ctx_t *x, const uint32_t *s, int len, int from, const char *h)
{
	while (from < len && !h[from])
		from++;
	if (from == x->rec_at)
		return x->rec_to;
	for (int p = from; p < len && !over(x); p++) {
		if (!h[p])
			continue;
		if (!x->ok[p]) {
			int last = 0, n = th_follow(x, s + p, len - p, h + p, TH_FOLLOW, &last);
			/* libthai also takes fewer words that reach the end, but
			   tests that as s[last] == 0, last counted from p, not from
			   s: true only when last == len (see the top of the file) */
			x->ok[p] = n == TH_FOLLOW || (n > 0 && last == len) ? 1 : -1;
		}
		if (x->ok[p] > 0) {
			x->rec_at = from;
			x->rec_to = p;
			return p;
		}
	}
	return -1;
}

/* The words of one chunk of Thai letters s[0..len): up to cap breaks
 * (the last at len) into out; how many. */
static int th_words(th_ctx_t *x, const uint32_t *s, int len, const char *h, int *out, int cap)
{
	th_pool_t *P = &x->main;
	int best_pos = 0, best_pen = 0, best_nb = 0;
	pool_reset(P, cap);
	x->rec_at = x->rec_to = -1;
	pool_add(P, -1);
	for (int k; (k = pool_least(P)) >= 0;) {
		if (over(x))
			return 0;
		th_path_t *w = &P->p[k];
		int keep = 1, word = 0, recovered = 0, at = w->pos;
		for (;;) {
			int64_t nx = th_walk(x->d, w->node, s[at++]);
			x->work++;
			if (nx < 0) {
				int r = th_recover(x, s, len, w->pos + 1, h);
				w = &P->p[k];
				word = 0;
				if (r >= 0) {
					w->pen += r - last_brk(P, k);
					at = r;
					recovered = 1;
				} else {
					w->pen += len - last_brk(P, k);
					brks(P, k)[w->nb++] = at = len;
					keep = 0;
				}
				break;
			}
			w->node = (uint32_t)nx;
			word = is_word(x->d, w->node);
			if (at >= len) {
				if (!word) {
					w->pen += len - last_brk(P, k);
					brks(P, k)[w->nb++] = len;
					keep = 0;
				}
				break;
			}
			if (word && h[at])
				break;
		}
		w->pos = at;
		if (keep && (word || recovered)) {
			if (at < len && word && is_branch(x->d, w->node))
				k = pool_add(P, k);     /* this one breaks, its parent walks on */
			w = &P->p[k];
			w->node = 0;
			brks(P, k)[w->nb++] = w->pos;
		}
		if (!keep || w->pos == len || w->nb >= cap) {
			/* done: the best is the one that got furthest, then with
			   the smaller penalty, then with fewer breaks (the later of
			   equals) */
			if (w->pos > best_pos ||
			    (w->pos == best_pos && (w->pen < best_pen || (w->pen == best_pen && w->nb <= best_nb)))) {
				memcpy(out, brks(P, k), (size_t)w->nb * sizeof(int));
				best_pos = w->pos;
				best_pen = w->pen;
				best_nb = w->nb;
			}
			pool_del(P, k);
			continue;
		}
		/* merge the paths with the same last break: the smaller penalty
		   stays, then the fewer breaks, then the one met later */
		for (int m, from = P->head; (m = pool_same(P, from, k)) >= 0;) {
			int next = P->p[m].next, del = m;
			const th_path_t *a = &P->p[m], *b = &P->p[k];
			if (a->pen < b->pen || (a->pen == b->pen && a->nb < b->nb)) {
				del = k;
				if (next == k)
					next = P->p[k].next;
				k = m;
			}
			pool_del(P, del);
			from = next;
		}
	}
	return over(x) ? 0 : best_nb;
}

/* ---- the classes of the Thai block (libthai's brk_class over TIS-620)
 * and the breaks between them (its table; no space inside a run, so its
 * indirect breaks never apply) ---- */
enum { C_THAI, C_ALPHA, C_NUM, C_NBB, C_CUR, C_TERM };

static int th_class(uint32_t c)
{
	if (c == 0xE2F || c == 0xE46 || c < 0xE01 || c > 0xE5B || (c >= 0xE3B && c <= 0xE3E))
		return C_NBB;         /* paiyannoi, mai yamok; what TIS-620 lacks */
	if (c == 0xE3F)
		return C_CUR;         /* baht */
	if (c == 0xE4F)
		return C_ALPHA;       /* fongman */
	if (c >= 0xE50 && c <= 0xE59)
		return C_NUM;
	if (c >= 0xE5A)
		return C_TERM;        /* angkhankhu, khomut */
	return C_THAI;
}

static const unsigned char th_allow[6][6] = {
	/*           THAI ALPHA NUM NBB CUR TERM */
	/* THAI  */ {0, 1, 0, 0, 1, 0},
	/* ALPHA */ {1, 0, 0, 0, 0, 0},
	/* NUM   */ {1, 0, 0, 0, 0, 0},
	/* NBB   */ {1, 1, 1, 0, 1, 0},
	/* CUR   */ {1, 0, 0, 0, 0, 0},
	/* TERM  */ {1, 1, 1, 0, 1, 0},
};

static th_ctx_t th_ctx;

/* The words of the Thai chunk s[c0..c1) into pos[*k..max), its last
 * break (at c1) dropped. */
static void th_chunk(const thai_dict_t *d, const uint32_t *s, int c0, int c1, int *pos, int *k,
                     int max)
{
	int len = c1 - c0;
	char stack[256], *h = len <= 256 ? stack : xmalloc((size_t)len);
	th_hints(s + c0, len, h);
	th_ctx.d = d;
	th_ctx.main.work = th_ctx.rec.work = &th_ctx.work;
	th_ctx.work = 0;
	if (len > th_ctx.okcap) {
		th_ctx.okcap = len > 256 ? len : 256;
		free(th_ctx.ok);
		th_ctx.ok = xmalloc((size_t)th_ctx.okcap);
	}
	memset(th_ctx.ok, 0, (size_t)len);
	th_ctx.budget = (long)TH_WORK * len + 65536;
	int got = th_words(&th_ctx, s + c0, len, h, pos + *k, max - *k);
	for (int i = 0; i < got; i++)
		pos[*k + i] += c0;
	*k += got;
	if (*k > 0 && pos[*k - 1] == c1)
		--*k;
	if (h != stack)
		free(h);
}

int thai_dict_breaks(const thai_dict_t *d, const uint32_t *s, int n, int *pos, int max)
{
	if (!d || n < 1 || max < 1)
		return 0;
	int k = 0, chunk = 0, prev = th_class(s[0]);
	int p = 1;
	for (; p < n && k < max; p++) {
		int cls = th_class(s[p]);
		if (prev == C_THAI && cls != C_THAI) {
			th_chunk(d, s, chunk, p, pos, &k, max);
			if (k >= max)
				break;
		}
		if (cls != prev)
			chunk = p;
		if (th_allow[prev][cls])
			pos[k++] = p;
		prev = cls;
	}
	if (prev == C_THAI && k < max)
		th_chunk(d, s, chunk, p, pos, &k, max);
	return k;
}

/* ---- the cache file, and the process's dictionary ---- */

static int th_cache_path(const char *tri, char *out, size_t n)
{
	const char *base = strrchr(tri, '/');
	base = base ? base + 1 : tri;
	/* thbrk.tri.thc for the default word list; another one (from
	   $LIBTHAI_DICTDIR) gets its own file, named with a hash of its path,
	   so that using both does not compile them in turn */
	char tag[16] = "";
	if (strcmp(tri, TH_DICT_DIR "/" TH_DICT_NAME) != 0) {
		uint32_t h = 2166136261u;
		for (const char *c = tri; *c; c++)
			h = (h ^ (unsigned char)*c) * 16777619u;
		snprintf(tag, sizeof(tag), ".%08x", (unsigned)h);
	}
	char name[300];
	snprintf(name, sizeof(name), "%s%s.thc", base, tag);
	return file_cache_path("VITA_NO_THAI_CACHE", name, out, n);
}

/* The identity of the .tri in a header. */
static void th_ident(struct th_head *hd, const char *tri, const struct stat *st)
{
	hd->size = (int64_t)st->st_size;
	hd->mtime = (int64_t)st->st_mtim.tv_sec;
	hd->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
	memset(hd->path, 0, sizeof(hd->path));
	snprintf(hd->path, sizeof(hd->path), "%s", tri);
}

static void th_write(const char *path, const buf_t *b)
{
	file_write_atomic(path, (const void *[]){b->s}, (size_t[]){b->len}, 1);
}

/* The compiled dictionary of the .tri at path (st its stat): the cache
 * file mapped when it is current, else compiled (and the cache written).
 * NULL when the .tri cannot be read. */
static thai_dict_t *th_load(const char *tri, const struct stat *st)
{
	char path[600];
	int cached = th_cache_path(tri, path, sizeof(path)) == 0;
	struct th_head want;
	memset(&want, 0, sizeof(want));
	th_ident(&want, tri, st);
	if (cached) {
		size_t size = 0;
		int fd = file_open(path, TH_TRI_MAX * 4, &size, NULL);
		void *p = fd >= 0 && size >= TH_NODES ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0)
		                                      : MAP_FAILED;
		if (fd >= 0)
			close(fd);
		if (p != MAP_FAILED) {
			const struct th_head *hd = p;
			thai_dict_t *d = NULL;
			if (hd->size == want.size && hd->mtime == want.mtime && hd->mtime_ns == want.mtime_ns &&
			    !memcmp(hd->path, want.path, sizeof(want.path)))
				d = thai_dict_use(p, size);
			if (d)
				return d;     /* mapped for the process's life */
			munmap(p, size);
		}
	}
	buf_t raw, b;
	buf_init(&raw);
	buf_init(&b);
	thai_dict_t *d = NULL;
	if (file_read(&raw, tri, TH_TRI_MAX, NULL) == 0 &&
	    thai_dict_compile((const unsigned char *)raw.s, raw.len, &b) == 0) {
		th_ident((struct th_head *)b.s, tri, st);
		d = thai_dict_use(b.s, b.len);    /* b kept: d points into it */
		if (d && cached)
			th_write(path, &b);
	}
	buf_done(&raw);
	if (!d)
		buf_done(&b);
	return d;
}

/* $LIBTHAI_DICTDIR/thbrk.tri, then /usr/share/libthai/thbrk.tri (as
 * libthai looks), once per process. */
const thai_dict_t *thai_dict_default(void)
{
	static thai_dict_t *d;
	static int tried;
	if (tried)
		return d;
	tried = 1;
	const char *dir = getenv("LIBTHAI_DICTDIR");
	char tri[sizeof(((struct th_head *)0)->path)];   /* whole in the header */
	struct stat st;
	for (int i = dir ? 0 : 1; i < 2 && !d; i++) {
		if (snprintf(tri, sizeof(tri), "%s/%s", i ? TH_DICT_DIR : dir, TH_DICT_NAME) >=
		    (int)sizeof(tri))
			continue;
		if (stat(tri, &st) == 0 && S_ISREG(st.st_mode))
			d = th_load(tri, &st);
	}
	return d;
}

/* The runs broken so far and their breaks (a render sets many
 * paragraphs more than once: 73 runs, 38 different, in the generated th
 * CV): an open-addressing table of TH_MEMO slots over one growing array
 * (a run's letters, then its breaks), emptied when it holds TH_MEMO_MAX
 * values (batch workers keep it across CVs). */
#define TH_MEMO 1024
#define TH_MEMO_MAX (1 << 18)
static struct {
	struct { uint32_t hash, at; int n, k; } slot[TH_MEMO];
	uint32_t *v;
	size_t len, cap;
	int used;
} th_memo;

static uint32_t th_hash(const uint32_t *cp, int n)
{
	uint32_t h = 2166136261u ^ (uint32_t)n;
	for (int i = 0; i < n; i++)
		h = (h ^ cp[i]) * 16777619u;
	return h | 1;             /* 0: an empty slot */
}

int thai_breaks(const uint32_t *cp, int n, int *pos, int max)
{
	if (n < 2 || max < 1)
		return 0;
	uint32_t h = th_hash(cp, n), i = h % TH_MEMO;
	for (; max >= n && th_memo.slot[i].hash; i = (i + 1) % TH_MEMO) {
		const uint32_t *v = th_memo.v + th_memo.slot[i].at;
		if (th_memo.slot[i].hash == h && th_memo.slot[i].n == n && !memcmp(v, cp, (size_t)n * 4)) {
			int k = th_memo.slot[i].k;
			for (int j = 0; j < k; j++)
				pos[j] = (int)v[n + j];
			return k;
		}
	}
	const thai_dict_t *d = thai_dict_default();
	int k = thai_dict_breaks(d, cp, n, pos, max), out = 0;
	for (int j = 0; j < k; j++) /* only those inside the run */
		if (pos[j] > 0 && pos[j] < n)
			pos[out++] = pos[j];
	if (max < n || (size_t)n + (size_t)out > TH_MEMO_MAX)
		return out;           /* cut short (not what another call gets), or huge */
	if (th_memo.used >= TH_MEMO / 2 || th_memo.len + (size_t)n + (size_t)out > TH_MEMO_MAX) {
		memset(th_memo.slot, 0, sizeof(th_memo.slot));
		th_memo.used = 0;
		th_memo.len = 0;
		i = h % TH_MEMO;
	}
	if (th_memo.len + (size_t)n + (size_t)out > th_memo.cap) {
		th_memo.cap = th_memo.len + (size_t)n + (size_t)out + 4096;
		th_memo.v = xrealloc(th_memo.v, th_memo.cap * sizeof(*th_memo.v));
	}
	uint32_t *v = th_memo.v + th_memo.len;
	memcpy(v, cp, (size_t)n * 4);
	for (int j = 0; j < out; j++)
		v[n + j] = (uint32_t)pos[j];
	th_memo.slot[i].hash = h;
	th_memo.slot[i].at = (uint32_t)th_memo.len;
	th_memo.slot[i].n = n;
	th_memo.slot[i].k = out;
	th_memo.len += (size_t)n + (size_t)out;
	th_memo.used++;
	return out;
}
