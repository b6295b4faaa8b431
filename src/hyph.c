/* hyph: hyphenation points from libhyphen's patterns; see hyph.h.
 *
 * hyph_open("en") finds /usr/share/hyphen/hyph_en_US.dic (or hyph_en.dic)
 * and only checks that it is readable; the first hyph_word call that has
 * a real candidate word loads the patterns, once, for the hyph_t's
 * lifetime (a load failure is remembered: no hyphenation, no retries).
 * hyph_word(h, "hyphenation", 11, offs, max) returns the byte offsets a
 * hyphen may precede. The dictionary's first line names its encoding:
 * UTF-8 words are passed as they are; ISO8859-1, ISO8859-7 (Greek) and
 * KOI8-R dictionaries get the word re-encoded (words with other
 * characters are left alone). Only words of lowercase letters, the first
 * perhaps a capital (looked up in lower case, as TeX's \uchyph=1), are
 * hyphenated, at least 2 letters before and 3 after every break.
 *
 * libhyphen parses a .dic into a state machine (its HyphenDict), which
 * costs ~37 M instructions for en_US. That is done once per version of
 * the .dic: the machine is compiled into a flat form (below, "the
 * compiled patterns") written to $XDG_CACHE_HOME/vita/hyph_en.dic.hyc
 * (else ~/.cache/vita/), and later loads use it in place: no parse, no
 * pass over it, only the 4 KiB blocks a word's walk touches are read
 * (~0.01 M instructions to load; ~3 K a word). The walk
 * (hc_hyphenate) is libhyphen's hnj_hyphen_hyphenate3 re-done over that
 * form: the same matches, compound level, minima, NOHYPHEN and UTF-8
 * folding, so the same breaks (tests/unit/test_hyph_lib.c compares them
 * on every installed dictionary vita's locales use). A word that meets a
 * non-standard pattern (libhyphen's "replacement" rules, which no Debian
 * dictionary has in reach of lowercase letters) is given to libhyphen
 * itself.
 *
 * The cache file is checked by its header only: the .dic's path, size
 * and mtime (as the other caches are), the format and byte order, and
 * its own size, so a stale, foreign, truncated or other-version file is
 * ignored and rewritten (atomically: temp file and rename, so no reader
 * ever sees half a file, and an open file is never changed under its
 * reader). The body is not checksummed (that cost ~0.5 M instructions per
 * process, more than all the words of a CV): every index the walk takes
 * from it is bounds-checked where it is used and every fallback must
 * lead to a smaller state, so whatever the bytes say the walk stays
 * inside the file and ends; a body someone edited can only give other
 * breaks. VITA_NO_HYPH_CACHE=1 compiles in memory and writes nothing.
 *
 * Memory: the file is not mapped. A file vita wrote itself sits in the
 * page cache in large folios, and a fault on a mapping of it maps the
 * whole folio: 2 bytes touched of the 4.4 MB German file cost 2 MB of
 * resident memory, a German CV 2.5-4 MB (its peak over 10 MB). Instead,
 * as src/sfnt_file.c does for fonts, a private anonymous mapping of the
 * file's size gets each 4 KiB block with pread when the walk first needs
 * it (hc_need, a byte test per state), so a CV costs the blocks its
 * words reach: 228 of the German file's 1,068 (0.9 MB) for
 * tests/bench/hyphen.yaml in German, which a render frees when its
 * layout ends, before the PDF's peak. For tests, VITA_HYPH_REPORT=FILE
 * makes hyph_close append a line per cache file read: its blocks read,
 * of how many, and how many mappings of a .hyc file the process has
 * (tests/scripts/hyph_cache.sh: none).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <hyphen.h>
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "buf.h"
#include "file.h"
#include "hyph.h"
#include "unicode.h"
#include "utf8.h"
#include "deps.h"
#include "dl.h"

#define HYPH_DIR "/usr/share/hyphen"
#define HYPH_MAXWORD 100          /* letters; longer words are not split */
#define HYPH_LMIN 2
#define HYPH_RMIN 3


/* Candidate file names for a language tag: "en-US" -> hyph_en_US.dic,
 * hyph_en.dic; "en" -> hyph_en_US.dic too (the common install). */
static int hyph_paths(const char *lang, char paths[][256], int max)
{
	char ll[16] = "", rr[16] = "";
	int n = 0, i = 0;
	while (lang[i] && lang[i] != '-' && lang[i] != '_' && i < 15) {
		ll[i] = (char)(lang[i] >= 'A' && lang[i] <= 'Z' ? lang[i] + 32 : lang[i]);
		i++;
	}
	ll[i] = 0;
	if (lang[i] == '-' || lang[i] == '_') {
		int j = 0;
		for (i++; lang[i] && j < 15; i++, j++)
			rr[j] = (char)(lang[i] >= 'a' && lang[i] <= 'z' ? lang[i] - 32 : lang[i]);
		rr[j] = 0;
	}
	if (!ll[0])
		return 0;
	if (rr[0] && n < max)
		snprintf(paths[n++], 256, "%s/hyph_%s_%s.dic", HYPH_DIR, ll, rr);
	if (n < max)
		snprintf(paths[n++], 256, "%s/hyph_%s.dic", HYPH_DIR, ll);
	if (!strcmp(ll, "en") && n < max)
		snprintf(paths[n++], 256, "%s/hyph_en_US.dic", HYPH_DIR);
	/* "es" -> hyph_es_ES.dic, "ru" -> hyph_ru_RU.dic (Debian ships no
	   hyph_es.dic or hyph_ru.dic) */
	char up[16];
	for (i = 0; ll[i]; i++)
		up[i] = (char)(ll[i] >= 'a' && ll[i] <= 'z' ? ll[i] - 32 : ll[i]);
	up[i] = 0;
	if (n < max)
		snprintf(paths[n++], 256, "%s/hyph_%s_%s.dic", HYPH_DIR, ll, up);
	/* none of those: the language's first dictionary by name in the
	   directory (Debian's hyphen-hi, -bn, -ta, -ml, ... ship only
	   hyph_hi_IN.dic, hyph_ta_IN.dic, ...; hyphen-sv hyph_sv_SE.dic) */
	for (i = 0; i < n; i++)
		if (access(paths[i], R_OK) == 0)
			return n;
	if (n < max) {
		DIR *d = opendir(HYPH_DIR);
		char best[200] = "", pre[24];   /* names under 200 bytes: a path of 256 holds one */
		size_t lp = (size_t)snprintf(pre, sizeof(pre), "hyph_%s_", ll);
		for (struct dirent *de; d && (de = readdir(d));) {
			size_t l = strlen(de->d_name);
			if (l > lp + 4 && l < 200 && !strncmp(de->d_name, pre, lp) &&
			    !strcmp(de->d_name + l - 4, ".dic") && (!best[0] || strcmp(de->d_name, best) < 0))
				memcpy(best, de->d_name, l + 1);
		}
		if (d)
			closedir(d);
		if (best[0])
			snprintf(paths[n++], 256, "%s/%s", HYPH_DIR, best);
	}
	return n;
}

/* ---- the compiled patterns (see the top of the file) ----
 *
 * File layout, native byte order (the cache is per machine): a header,
 * then for each of the one or two levels (the compound level first, as
 * libhyphen links them) its arrays, each 8-aligned:
 *   states   hc_state_t[nstates + 1], numbered breadth first from the
 *            root, so a state's fallback (a proper suffix: shallower)
 *            always has a smaller number and the first levels sit on a
 *            few pages; the last only ends the one before's transitions
 *   chars    uint8_t[ntrans]: the letter of each transition, a state's
 *            transitions contiguous from its first. libhyphen's machine
 *            is a trie (every state but the root is reached by exactly
 *            one transition), so numbered breadth first, transition t
 *            leads to state t + 1: no targets are stored
 *   match    the digit strings of the states that end a pattern
 *   nohyph   the NOHYPHEN list: nohyphl + 1 NUL-terminated strings
 *   root     uint32_t[256]: the root's transitions by letter (UINT32_MAX:
 *            none), where most walks fall back to
 * and in the header, the set of bytes any transition reads: a word with
 * none of them (the compound level of most dictionaries holds only
 * hyphen and apostrophe patterns) walks to nothing and is not walked.
 * The header says where each array is and how long; hc_check checks only
 * that (a few dozen compares): every index is checked where the walk uses
 * it, so no content can make it read outside the file or loop. */
#define HC_MAGIC "vitahy3"
#define HC_MAX (64u << 20)
#define HC_BOM 0x01020304u

typedef struct {
	uint32_t trans;           /* first transition; HC_REPL: a non-standard
	                             pattern (libhyphen's repl) ends here */
	int32_t fallback;         /* < the state's own number; -1: none */
	uint32_t match;           /* offset of its digits << 8 | how many */
} hc_state_t;
#define HC_REPL 0x80000000u

typedef struct {
	uint64_t states, chars, match, nohyph, root;   /* file offsets */
	uint8_t bytes[32];        /* bit c: some transition reads byte c */
	uint32_t nstates, ntrans, nmatch, nnohyph;
	int32_t nohyphl;
	int8_t lhmin, rhmin, clhmin, crhmin;
} hc_level_t;

struct hc_head {
	char magic[8];
	uint32_t bom, state_size, nlev, utf8;
	int64_t size, mtime, mtime_ns;     /* the .dic's */
	uint64_t total;                    /* bytes of the file */
	char cset[24];
	char path[256];
	hc_level_t lev[2];
};

/* The cache file read by blocks (see the top of the file): blocks of
 * p[0..n) are read from fd when first needed; fd -1: p is all there (a
 * block compiled in memory). */
#define HC_SHIFT 12
#define HC_BLOCK (1u << HC_SHIFT)
typedef struct {
	unsigned char *p;
	size_t n;
	uint8_t *have;            /* a byte per block: 1 when read (a byte, not
	                             a bit: the walk tests it per state) */
	int fd;
} hc_file_t;

/* One level as the walk sees it: pointers into the block, counts from
 * the header (checked against the block's size by hc_check). */
typedef struct {
	hc_file_t *file;          /* what the pointers point into */
	const hc_state_t *st;
	const unsigned char *ch, *match, *nohyph;
	const uint32_t *root;
	const uint8_t *bytes;
	uint32_t nstates, ntrans, nmatch, nnohyph;
	int nohyphl;
	int lhmin, rhmin, clhmin, crhmin;
} hc_lev_t;

struct hyph {
	hc_lev_t lev[2];          /* the compiled levels, compound level first */
	int nlev;                 /* 0 until the first real hyph_word */
	int utf8;                 /* the dictionary is UTF-8 */
	int latin1;               /* the dictionary is ISO8859-1 */
	int koi8r;                /* the dictionary is KOI8-R (Russian) */
	int greek;                /* the dictionary is ISO8859-7 (Greek) */
	int failed;               /* loading was tried and failed */
	int lib_failed;           /* libhyphen's own load failed */
	hc_file_t file;           /* the compiled form: the cache file read by
	                             blocks, or (fd -1) a malloc'd block */
	HyphenDict *dict;         /* libhyphen's, only when a word needs it */
	char path[256];
};

static int hc_path(const hyph_t *h, char *out, size_t n)
{
	const char *base = strrchr(h->path, '/');
	char name[300];
	snprintf(name, sizeof(name), "%s.hyc", base ? base + 1 : h->path);
	return file_cache_path("VITA_NO_HYPH_CACHE", name, out, n);
}

static void hc_head_fill(struct hc_head *hd, const hyph_t *h, const struct stat *st)
{
	memset(hd, 0, sizeof(*hd));
	memcpy(hd->magic, HC_MAGIC, 8);
	hd->bom = HC_BOM;
	hd->state_size = sizeof(hc_state_t);
	hd->size = (int64_t)st->st_size;
	hd->mtime = (int64_t)st->st_mtim.tv_sec;
	hd->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
	snprintf(hd->path, sizeof(hd->path), "%s", h->path); /* zero-padded */
}

/* Append n zero bytes after padding to 8; the offset of the first. */
static size_t hc_reserve(buf_t *b, size_t n)
{
	static const char zero[256];
	while (b->len % 8)
		buf_putc(b, 0);
	size_t off = b->len;
	for (size_t k; n; n -= k) {
		k = n < sizeof(zero) ? n : sizeof(zero);
		buf_add(b, zero, k);
	}
	return off;
}

/* Bytes of a NOHYPHEN list: nohyphenl + 1 NUL-terminated strings. */
static size_t nohyphen_len(const HyphenDict *d)
{
	size_t n = 0;
	if (!d->nohyphen)
		return 0;
	for (int i = 0; i <= d->nohyphenl; i++)
		n += strlen(d->nohyphen + n) + 1;
	return n;
}

/* Number d's states breadth first: map[old] = new, ord[new] = old. 0 when
 * the machine is the trie libhyphen builds (every state but the root
 * reached by one transition, every fallback to a shallower state), else
 * -1 (then libhyphen's own walk is used). */
static int hc_order(const HyphenDict *d, uint32_t *map, uint32_t *ord)
{
	uint32_t n = (uint32_t)d->num_states, head = 0, tail = 0;
	for (uint32_t i = 0; i < n; i++)
		map[i] = UINT32_MAX;
	map[0] = 0;
	ord[tail++] = 0;
	while (head < tail) {
		const HyphenState *s = &d->states[ord[head++]];
		for (int t = 0; t < s->num_trans; t++) {
			int to = s->trans[t].new_state;
			if (to < 0 || to >= (int)n || map[to] != UINT32_MAX)
				return -1;   /* not a trie */
			map[to] = tail;
			ord[tail++] = (uint32_t)to;
		}
	}
	if (tail != n || d->states[0].fallback_state != -1)
		return -1;
	for (uint32_t k = 1; k < n; k++) {
		int fb = d->states[ord[k]].fallback_state;
		if (fb < 0 || fb >= (int)n || map[fb] >= k)
			return -1;
	}
	return 0;
}

/* Append one level's arrays to b and describe them in lv. */
static int hc_level_put(buf_t *b, const HyphenDict *d, hc_level_t *lv)
{
	uint32_t n = (uint32_t)d->num_states, nt = 0, nm = 0;
	uint32_t *map = xcalloc(n, sizeof(uint32_t)), *ord = xcalloc(n, sizeof(uint32_t));
	int rc = -1;
	if (n < 1 || hc_order(d, map, ord))
		goto out;
	for (uint32_t k = 0; k < n; k++) {
		const HyphenState *s = &d->states[ord[k]];
		size_t ml = s->match ? strlen(s->match) : 0;
		if (ml > 0xFF)
			goto out;
		nt += (uint32_t)s->num_trans;
		nm += (uint32_t)ml;
	}
	memset(lv, 0, sizeof(*lv));
	lv->nstates = n;
	lv->ntrans = nt;
	lv->nmatch = nm;
	lv->lhmin = (int8_t)d->lhmin;
	lv->rhmin = (int8_t)d->rhmin;
	lv->clhmin = (int8_t)d->clhmin;
	lv->crhmin = (int8_t)d->crhmin;
	if (nt >= HC_REPL || nm >= 1u << 24)
		goto out;
	lv->states = hc_reserve(b, ((size_t)n + 1) * sizeof(hc_state_t));
	lv->chars = hc_reserve(b, nt);
	lv->match = hc_reserve(b, nm);
	lv->nnohyph = (uint32_t)nohyphen_len(d);
	lv->nohyphl = d->nohyphen ? d->nohyphenl : -1;
	lv->nohyph = hc_reserve(b, lv->nnohyph);
	lv->root = hc_reserve(b, 256 * 4);
	for (int c = 0; c < 256; c++)
		memcpy(b->s + lv->root + (size_t)c * 4, &(uint32_t){UINT32_MAX}, 4);
	if (lv->nnohyph)
		memcpy(b->s + lv->nohyph, d->nohyphen, lv->nnohyph);
	uint32_t t = 0, m = 0;
	for (uint32_t k = 0; k < n; k++) {
		const HyphenState *s = &d->states[ord[k]];
		hc_state_t x;
		uint32_t ml = (uint32_t)(s->match ? strlen(s->match) : 0);
		x.trans = t | (s->match && s->repl ? HC_REPL : 0);
		x.match = m << 8 | ml;
		x.fallback = s->fallback_state < 0 ? -1 : (int32_t)map[s->fallback_state];
		memcpy(b->s + lv->states + (size_t)k * sizeof(x), &x, sizeof(x));
		for (int i = 0; i < s->num_trans; i++, t++) {
			uint32_t to = map[s->trans[i].new_state];
			unsigned char c = (unsigned char)s->trans[i].ch;
			if (to != t + 1)
				goto out;   /* breadth first, a trie's cannot be otherwise */
			b->s[lv->chars + t] = (char)c;
			lv->bytes[c / 8] |= (uint8_t)(1u << c % 8);
			if (k == 0) {
				uint32_t was;
				memcpy(&was, b->s + lv->root + (size_t)c * 4, 4);
				if (was == UINT32_MAX)   /* the first, as the scan finds */
					memcpy(b->s + lv->root + (size_t)c * 4, &to, 4);
			}
		}
		memcpy(b->s + lv->match + m, s->match ? s->match : "", ml);
		m += ml;
	}
	hc_state_t end = {t, -1, m << 8};
	memcpy(b->s + lv->states + (size_t)n * sizeof(end), &end, sizeof(end));
	rc = 0;
out:
	free(map);
	free(ord);
	return rc;
}

/* The compiled form of libhyphen's dictionary root into b (header
 * included); -1 when it has a shape this walk does not take. */
static int hc_build(buf_t *b, const hyph_t *h, const HyphenDict *root, const struct stat *st)
{
	const HyphenDict *d[2] = {root, root->nextlevel};
	struct hc_head hd;
	int nd = d[1] ? 2 : 1;
	if (d[1] && d[1]->nextlevel)
		return -1;
	hc_head_fill(&hd, h, st);
	hd.nlev = (uint32_t)nd;
	hd.utf8 = root->utf8 != 0;
	memcpy(hd.cset, root->cset, sizeof(root->cset) < sizeof(hd.cset) ? sizeof(root->cset)
	                                                                : sizeof(hd.cset) - 1);
	hd.cset[sizeof(hd.cset) - 1] = 0;
	hc_reserve(b, sizeof(hd));
	for (int i = 0; i < nd; i++)
		if (hc_level_put(b, d[i], &hd.lev[i]))
			return -1;
	hc_reserve(b, 0);
	hd.total = b->len;
	memcpy(b->s, &hd, sizeof(hd));
	return 0;
}

/* Write the compiled form atomically (temp file + rename). */
static void hc_write(const hyph_t *h, const buf_t *b)
{
	char path[600];
	if (hc_path(h, path, sizeof(path)))
		return;
	file_write_atomic(path, (const void *[]){b->s}, (size_t[]){b->len}, 1);
}

/* An array of n elements of sz bytes at off lies inside a block of total. */
static int hc_fits(uint64_t off, uint64_t n, uint64_t sz, uint64_t total, uint64_t align)
{
	return off % align == 0 && off <= total && n <= (total - off) / sz;
}

/* Read the blocks of p[0..len) (len > 0, inside f) not read yet (a short
 * read leaves zeros: the file was cut since its header was checked; the
 * walk stays inside it whatever the bytes). */
static void hc_read(hc_file_t *f, const void *p, size_t len)
{
	size_t off = (size_t)((const unsigned char *)p - f->p);
	for (size_t b = off >> HC_SHIFT; b <= (off + len - 1) >> HC_SHIFT; b++) {
		if (f->have[b])
			continue;
		size_t at = b * HC_BLOCK, end = at + HC_BLOCK < f->n ? at + HC_BLOCK : f->n;
		file_pread(f->fd, f->p + at, end - at, at);
		f->have[b] = 1;
	}
}

/* Make p[0..len) (len > 0, inside f) readable: its first and last
 * blocks, which is all of it for what the walk reads (a state pair, a
 * state's transitions, a match: at most 256 bytes). A longer range only
 * a damaged file can ask for reads zeros in between: other breaks. */
static inline void hc_need(hc_file_t *f, const void *p, size_t len)
{
	size_t off = (size_t)((const unsigned char *)p - f->p);
	if (!(f->have[off >> HC_SHIFT] & f->have[(off + len - 1) >> HC_SHIFT]))
		hc_read(f, p, len);
}

/* Check the block's header (not its content: see the top of this part)
 * and make the levels' views; 0 when usable. */
static int hc_check(hyph_t *h, hc_file_t *f, const struct hc_head *want)
{
	struct hc_head hd;
	const unsigned char *blk = f->p;
	size_t size = f->n;
	if (size < sizeof(hd))
		return -1;
	hc_read(f, blk, sizeof(hd));
	memcpy(&hd, blk, sizeof(hd));
	if (memcmp(hd.magic, want->magic, 8) || hd.bom != HC_BOM ||
	    hd.state_size != sizeof(hc_state_t) || hd.size != want->size ||
	    hd.mtime != want->mtime || hd.mtime_ns != want->mtime_ns ||
	    memcmp(hd.path, want->path, sizeof(hd.path)) || hd.total != size ||
	    hd.nlev < 1 || hd.nlev > 2 || hd.cset[sizeof(hd.cset) - 1] != 0)
		return -1;
	for (uint32_t i = 0; i < hd.nlev; i++) {
		const hc_level_t *l = &hd.lev[i];
		hc_lev_t *v = &h->lev[i];
		if (l->nstates < 1 || l->nstates == UINT32_MAX ||
		    !hc_fits(l->states, (uint64_t)l->nstates + 1, sizeof(hc_state_t), size, 8) ||
		    !hc_fits(l->chars, l->ntrans, 1, size, 1) ||
		    !hc_fits(l->match, l->nmatch, 1, size, 1) ||
		    !hc_fits(l->nohyph, l->nnohyph, 1, size, 1) ||
		    !hc_fits(l->root, 256, 4, size, 4))
			return -1;
		/* what every word reads: the root, its transitions, NOHYPHEN */
		hc_read(f, blk + l->states, 2 * sizeof(hc_state_t));
		hc_read(f, blk + l->root, 256 * 4);
		if (l->nnohyph)
			hc_read(f, blk + l->nohyph, l->nnohyph);
		if (l->nnohyph && blk[l->nohyph + l->nnohyph - 1] != 0)
			return -1;
		v->file = f;
		v->st = (const hc_state_t *)(blk + l->states);
		v->ch = blk + l->chars;
		v->match = blk + l->match;
		v->nohyph = blk + l->nohyph;
		v->root = (const uint32_t *)(blk + l->root);
		v->bytes = blk + offsetof(struct hc_head, lev) + i * sizeof(hc_level_t) +
		           offsetof(hc_level_t, bytes);
		v->nstates = l->nstates;
		v->ntrans = l->ntrans;
		v->nmatch = l->nmatch;
		v->nnohyph = l->nnohyph;
		v->nohyphl = l->nohyphl;
		v->lhmin = l->lhmin;
		v->rhmin = l->rhmin;
		v->clhmin = l->clhmin;
		v->crhmin = l->crhmin;
	}
	h->nlev = (int)hd.nlev;
	h->utf8 = hd.utf8 != 0;
	h->latin1 = !strncmp(hd.cset, "ISO8859-1", 9) || !strncmp(hd.cset, "ISO-8859-1", 10);
	h->koi8r = !strncmp(hd.cset, "KOI8-R", 6);
	h->greek = !strncmp(hd.cset, "ISO8859-7", 9) || !strncmp(hd.cset, "ISO-8859-7", 10);
	return 0;
}

static void hc_file_close(hc_file_t *f)
{
	if (f->fd >= 0) {
		munmap(f->p, f->n);
		close(f->fd);
	} else {
		free(f->p);
	}
	free(f->have);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

/* Open the cache file, to be read by blocks, when it is current for the
 * .dic (st); 0 when h's levels now point into it. */
static int hc_open(hyph_t *h, const struct stat *st)
{
	char path[600];
	struct hc_head want;
	size_t size = 0;
	if (hc_path(h, path, sizeof(path)))
		return -1;
	int fd = file_open(path, HC_MAX, &size, NULL);
	if (fd < 0)
		return -1;
	/* not malloc: a block of megabytes may come from the heap and be
	   cleared (touched) whole */
	void *p = size >= sizeof(want) ? mmap(NULL, size, PROT_READ | PROT_WRITE,
	                                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
	                               : MAP_FAILED;
	if (p == MAP_FAILED) {
		close(fd);
		return -1;
	}
	hc_file_t *f = &h->file;
	f->p = p;
	f->n = size;
	f->fd = fd;
	f->have = xcalloc((size + HC_BLOCK - 1) / HC_BLOCK + 1, 1);
	hc_head_fill(&want, h, st);
	if (hc_check(h, f, &want)) {
		hc_file_close(f);
		h->nlev = 0;
		return -1;
	}
	return 0;
}

/* ---- the walk: libhyphen's hyphenation over the compiled form ----
 *
 * Values are libhyphen's: ASCII digits, odd where a break may be, kept
 * per byte of the word until hc_hyphenate folds them per letter. */

/* Run level L's machine over ".w." (n bytes of w) and leave in v[i]
 * the value after byte i (v[n - 1] = '0'). -1 when a non-standard
 * pattern matched (libhyphen is then asked instead). */
static int hc_walk(const hc_lev_t *L, const unsigned char *w, int n, char *v)
{
	int len = n + 2, any = L->bytes['.' / 8] >> '.' % 8 & 1;
	uint32_t s = 0;
	memset(v, '0', (size_t)len);
	for (int i = 0; i < n && !any; i++)
		any = L->bytes[w[i] / 8] >> w[i] % 8 & 1;
	for (int i = 0; i < len && any; i++) {
		unsigned c = i == 0 || i == len - 1 ? '.' : w[i - 1];
		if (c >= '0' && c <= '9')
			c = '.';
		for (;;) {
			/* state s and the next one (where its transitions end) are
			   read: each state is needed once, when the walk gets to it */
			const hc_state_t *x = &L->st[s];
			uint32_t t = x->trans & ~HC_REPL, e = x[1].trans & ~HC_REPL, to = UINT32_MAX;
			if (s == 0)
				to = L->root[c];
			else if (t < e && e <= L->ntrans) {
				hc_need(L->file, L->ch + t, e - t);
				/* the first transition on c (a state after a UTF-8
				   lead byte has dozens) */
				const unsigned char *q = memchr(L->ch + t, (int)c, e - t);
				if (q)
					to = (uint32_t)(q - L->ch) + 1;
			}
			if (to < L->nstates) {
				s = to;
				hc_need(L->file, &L->st[s], 2 * sizeof(*x));
				break;
			}
			if (x->fallback < 0 || (uint32_t)x->fallback >= s) {
				s = UINT32_MAX;    /* past the root: on to the next letter */
				break;
			}
			s = (uint32_t)x->fallback;
			hc_need(L->file, &L->st[s], 2 * sizeof(*x));
		}
		if (s == UINT32_MAX) {
			s = 0;
			continue;
		}
		const hc_state_t *x = &L->st[s];
		uint32_t mo = x->match >> 8, ml = x->match & 0xFF;
		if (x->trans & HC_REPL)
			return -1;
		if (!ml || mo > L->nmatch || ml > L->nmatch - mo)
			continue;
		const unsigned char *m = L->match + mo;
		hc_need(L->file, m, ml);
		int at = i + 1 - (int)ml;
		for (int k = 0; k < (int)ml; k++)
			if (at + k >= 0 && at + k < len && v[at + k] < (char)m[k])
				v[at + k] = (char)m[k];
	}
	for (int i = 0; i + 1 < n; i++)
		v[i] = v[i + 1];
	v[n - 1] = '0';
	v[n] = 0;
	return 0;
}

/* No break in the first min letters' bytes (libhyphen's lefthyphenmin;
 * the words here have no digits or ligatures). */
static void hc_lmin(int utf8, const unsigned char *w, int n, char *v, int min)
{
	for (int i = 1, j = 0; i < min && j < n; i++)
		do
			v[j++] = '0';
		while (utf8 && j < n && (w[j] & 0xC0) == 0x80);
}

/* No break after the last min letters (righthyphenmin), counted back
 * from the end as libhyphen does (never byte 0). */
static void hc_rmin(int utf8, const unsigned char *w, int n, char *v, int min)
{
	for (int j = n - 1, i = 0; i < min && j > 0; j--) {
		v[j] = '0';
		if (!utf8 || (w[j] & 0xC0) != 0x80)
			i++;
	}
}

/* Level lev's values for w (libhyphen's hnj_hyphen_hyph_): a level
 * with a next one is the compound level; its breaks cut w into parts,
 * each hyphenated again (so recursively shorter) from this level, and
 * a word it does not cut goes to the next level, with the compound
 * minima at the cuts (lend, rend: an end that is the word's own). */
static int hc_level(const hyph_t *h, int lev, const unsigned char *w, int n, char *v,
                    int clmin, int crmin, int lend, int rend)
{
	char v2[HYPH_MAXWORD * 4 + 8];
	int begin = 0;
	if (hc_walk(&h->lev[lev], w, n, v))
		return -1;
	if (lev + 1 >= h->nlev)
		return 0;
	for (int i = 0; i < n; i++) {
		if (!(v[i] & 1) && !(begin > 0 && i + 1 == n))
			continue;
		if (i - begin > 1) {
			if (hc_level(h, lev, w + begin, i - begin + 1, v2, clmin, crmin,
			             begin > 0 ? 0 : lend, v[i] & 1 ? 0 : rend))
				return -1;
			/* the part's values but its last two (the cut keeps its own) */
			memcpy(v + begin, v2, (size_t)(i - begin - 1));
		}
		begin = i + 1;
	}
	if (begin == 0) {
		if (hc_level(h, lev + 1, w, n, v, clmin, crmin, lend, rend))
			return -1;
		if (!lend)
			hc_lmin(h->utf8, w, n, v, clmin);
		if (!rend)
			hc_rmin(h->utf8, w, n, v, crmin);
	}
	return 0;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* libhyphen's hnj_hyphen_hyphenate3 for one encoded word w (n bytes,
 * NUL-terminated) with the minima lmin, rmin (also at compound cuts):
 * per letter, odd where a hyphen may go. -1: ask libhyphen. */
static int hc_hyphenate(const hyph_t *h, const unsigned char *w, int n, char *v,
                        int lmin, int rmin)
{
	const hc_lev_t *top = &h->lev[0];
	int lm = imax(lmin, top->lhmin), rm = imax(rmin, top->rhmin);
	if (hc_level(h, 0, w, n, v, imax(lmin, top->clhmin), imax(rmin, top->crhmin), 1, 1))
		return -1;
	hc_lmin(h->utf8, w, n, v, lm > 0 ? lm : 2);
	hc_rmin(h->utf8, w, n, v, rm > 0 ? rm : 2);
	/* NOHYPHEN: no break just before or at the end of a listed string */
	const char *nh = (const char *)top->nohyph, *end = nh + top->nnohyph;
	for (int k = 0; k <= top->nohyphl && nh < end; k++) {
		size_t l = strlen(nh);
		if (!l)
			memset(v, 0, (size_t)n);
		for (const char *p = l ? strstr((const char *)w, nh) : NULL; p; p = strstr(p + 1, nh)) {
			int at = (int)(p - (const char *)w);
			v[at + (int)l - 1] = 0;
			if (at > 0)
				v[at - 1] = 0;
		}
		nh += l + 1;
	}
	if (h->utf8) {
		/* per letter: the value after its last byte */
		int j = -1;
		for (int i = 0; i < n; i++) {
			if ((w[i] & 0xC0) != 0x80)
				j++;
			if (j >= 0)
				v[j] = v[i];
		}
		v[j + 1] = 0;
	}
	return 0;
}

/* KOI8-R byte of a lowercase Cyrillic letter, 0 if none. */
static int koi8r(uint32_t c)
{
	static const char *lower = "юабцдефгхийклмнопярстужвьызшэщчъ";
	if (c == 0x451)
		return 0xA3; /* ё */
	for (int i = 0, k = 0; lower[k]; i++) {
		uint32_t x;
		int l = utf8_decode(lower + k, 4, &x);
		if (x == c)
			return 0xC0 + i;
		k += l;
	}
	return 0;
}

/* A handle on the readable dictionary at path (parsed later). */
static hyph_t *hyph_at(const char *path)
{
	deps_add(path); /* read when a word needs it */
	hyph_t *h = xcalloc(1, sizeof(*h));
	h->file.fd = -1;
	size_t n = strlen(path);
	memcpy(h->path, path, n < sizeof(h->path) ? n : sizeof(h->path) - 1);
	return h;
}

hyph_t *hyph_open(const char *lang, errs_t *e)
{
	char paths[4][256];
	int n = hyph_paths(lang ? lang : "", paths, 4);
	for (int i = 0; i < n; i++) {
		int fd = file_open(paths[i], FILE_MAX_TEXT, NULL, NULL);
		if (fd < 0)
			continue;   /* missing, or not a regular file: never a FIFO */
		close(fd);
		return hyph_at(paths[i]);
	}
	err_sys(e, n ? paths[0] : HYPH_DIR,
	        "no hyphenation patterns for language '%s' in %s",
	        lang ? lang : "", HYPH_DIR);
	return NULL;
}

/* The set is keyed by the dictionary's path, not by the tag: "en",
 * "en-US" and "en-GB" that find one .dic share it, and the set is bounded
 * by the files in HYPH_DIR whatever tags the profiles use. */
struct hyph_set {
	hyph_t **v;
	int n, cap;
	char **none;            /* languages asked for that have no patterns */
	int nnone;
};

hyph_set_t *hyph_set_new(void)
{
	return xcalloc(1, sizeof(hyph_set_t));
}

hyph_t *hyph_set_get(hyph_set_t *set, const char *lang)
{
	char paths[4][256];
	for (int k = 0; k < set->nnone; k++)   /* asked before: no files to look for */
		if (!strcmp(set->none[k], lang ? lang : ""))
			return NULL;
	int n = hyph_paths(lang ? lang : "", paths, 4);
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < set->n; k++)
			if (!strcmp(set->v[k]->path, paths[i])) {
				deps_add(paths[i]);   /* an input of this render too */
				return set->v[k];
			}
		int fd = file_open(paths[i], FILE_MAX_TEXT, NULL, NULL);
		if (fd < 0)
			continue;
		close(fd);
		hyph_t *h = hyph_at(paths[i]);
		if (set->n == set->cap) {
			set->cap = set->cap ? 2 * set->cap : 4;
			set->v = xrealloc(set->v, (size_t)set->cap * sizeof(*set->v));
		}
		return set->v[set->n++] = h;
	}
	set->none = xrealloc(set->none, (size_t)(set->nnone + 1) * sizeof(*set->none));
	set->none[set->nnone++] = xstrdup(lang ? lang : "");
	return NULL;
}

void hyph_set_free(hyph_set_t *set)
{
	if (!set)
		return;
	for (int k = 0; k < set->n; k++)
		hyph_close(set->v[k]);
	for (int k = 0; k < set->nnone; k++)
		free(set->none[k]);
	free(set->none);
	free(set->v);
	free(set);
}

/* libhyphen, loaded when first needed (dl.h): with the compiled form
 * cached, a run never calls it. */
#define HNJ_FUNCS(X) X(hnj_hyphen_load) X(hnj_hyphen_free) X(hnj_hyphen_hyphenate3)
static struct {
	HNJ_FUNCS(DL_FIELD)
} hl;

/* libhyphen's own dictionary for h (parsed once, ~37 M instructions for
 * en_US): what the compiled form is made from, and the walk for a word
 * that meets a non-standard pattern (none of Debian's reaches one). */
static HyphenDict *hyph_lib(hyph_t *h)
{
	static int loaded; /* 1, or -1 when the library cannot be loaded */
	if (!loaded) {
		char why[300];
		void *l = dl_open("libhyphen.so.0", why, sizeof(why));
#define X(f) DL_SYM(l, hl, f, why)
		HNJ_FUNCS(X)
#undef X
		loaded = l ? 1 : -1;
	}
	if (!h->dict && !h->lib_failed) {
		h->dict = loaded > 0 ? hl.hnj_hyphen_load(h->path) : NULL;
		h->lib_failed = !h->dict;
	}
	return h->dict;
}

/* The patterns (once): the cache file when it is current, else
 * compiled from libhyphen's parse (and the cache written). 0 when usable. */
static int hyph_load(hyph_t *h)
{
	struct stat st;
	buf_t b;
	if (h->nlev || h->dict)
		return 0;
	if (h->failed)
		return -1;
	if (stat(h->path, &st) != 0) {
		h->failed = 1;
		return -1;
	}
	if (hc_open(h, &st) == 0)
		return 0;
	HyphenDict *d = hyph_lib(h);
	if (!d) {
		h->failed = 1;
		return -1;
	}
	buf_init(&b);
	if (hc_build(&b, h, d, &st) == 0) {
		struct hc_head want;
		hc_head_fill(&want, h, &st);
		h->file.p = (unsigned char *)b.s;  /* kept: the levels point into it */
		h->file.n = b.len;
		h->file.fd = -1;
		h->file.have = xmalloc(b.len / HC_BLOCK + 1);
		memset(h->file.have, 1, b.len / HC_BLOCK + 1);
		if (hc_check(h, &h->file, &want) == 0) {
			hc_write(h, &b);
			hl.hnj_hyphen_free(d);  /* parsed again only if a word needs it */
			h->dict = NULL;
			return 0;
		}
		free(h->file.have);
		memset(&h->file, 0, sizeof(h->file));
		h->file.fd = -1;
		h->nlev = 0;
	}
	buf_done(&b);
	/* a shape the walk does not take: libhyphen hyphenates every word */
	h->utf8 = d->utf8 != 0;
	h->latin1 = !strncmp(d->cset, "ISO8859-1", 9) || !strncmp(d->cset, "ISO-8859-1", 10);
	h->koi8r = !strncmp(d->cset, "KOI8-R", 6);
	h->greek = !strncmp(d->cset, "ISO8859-7", 9) || !strncmp(d->cset, "ISO-8859-7", 10);
	return 0;
}

int hyph_loaded(const hyph_t *h)
{
	return h && (h->nlev || h->dict);
}

/* VITA_HYPH_REPORT (see the top of the file). */
static void hc_report(const hyph_t *h)
{
	const char *to = getenv("VITA_HYPH_REPORT");
	const hc_file_t *f = &h->file;
	if (!to || !*to || f->fd < 0)
		return;
	size_t nb = (f->n + HC_BLOCK - 1) / HC_BLOCK, got = 0;
	for (size_t b = 0; b < nb; b++)
		got += f->have[b];
	int maps = 0;
	char line[1024];
	FILE *m = fopen("/proc/self/maps", "r");
	while (m && fgets(line, sizeof(line), m))
		maps += strstr(line, ".hyc") != NULL;
	if (m)
		fclose(m);
	FILE *out = fopen(to, "a");
	if (out) {
		const char *base = strrchr(h->path, '/');
		/* "hyph_de.dic.hyc blocks 228 of 1068 maps 0": maps, lines of
		   /proc/self/maps that name a .hyc (-1: unreadable) */
		fprintf(out, "%s.hyc blocks %zu of %zu maps %d\n", base ? base + 1 : h->path, got,
		        nb, m ? maps : -1);
		fclose(out);
	}
}

void hyph_close(hyph_t *h)
{
	if (!h)
		return;
	hc_report(h);
	hc_file_close(&h->file);
	if (h->dict)
		hl.hnj_hyphen_free(h->dict);
	free(h);
}

/* Lowercase letters of Latin scripts (ASCII, Latin-1, Latin Extended-A),
 * Cyrillic and Greek, and the letters and marks of the caseless Brahmic
 * scripts (Devanagari to Sinhala: a word's vowel signs and viramas are
 * part of it, LibreOffice's Indic patterns hold them). */
static int is_lower(uint32_t c)
{
	if (c >= 'a' && c <= 'z')
		return 1;
	if (c >= 0xDF && c <= 0xFF)
		return c != 0xF7;
	if (c >= 0x100 && c <= 0x137)
		return c & 1;
	if (c >= 0x139 && c <= 0x148)
		return !(c & 1);
	if (c >= 0x14A && c <= 0x177)
		return c & 1;
	if (c >= 0x17A && c <= 0x17E)
		return !(c & 1);
	if (c >= 0x430 && c <= 0x45F)
		return 1;   /* Cyrillic */
	if (c == 0x390 || (c >= 0x3AC && c <= 0x3CE))
		return 1;   /* Greek: ΐ, ά..ώ (tonos, dialytika, final sigma) */
	if (c >= 0x900 && c <= 0xDFF)
		return uni_is_letter(c) || uni_is_mark(c);   /* Brahmic: caseless */
	return c == 0x17F;
}

/* Decode w into code points with their byte offsets; 0 when the word is
 * not all lowercase letters but for a capital first one (or is too short
 * or too long). A capitalised word (a sentence's first, a name: Πολυτεχνείο,
 * Universität) is looked up in lower case, as TeX does (\uchyph=1); a word
 * in capitals (an acronym) is not hyphenated. *cap: the first letter was
 * a capital. */
static int word_cps(const char *w, size_t n, uint32_t *cps, int *off, int max, int *cap)
{
	int k = 0;
	*cap = 0;
	for (size_t i = 0; i < n;) {
		uint32_t c;
		int l = utf8_decode(w + i, n - i, &c);
		if (l && k == 0 && !is_lower(c)) {
			uint32_t lc = uni_case_simple(c, UNI_LOWER);
			if (lc != c && is_lower(lc)) {
				c = lc;
				*cap = 1;
			}
		}
		if (!l || !is_lower(c) || k >= max)
			return 0;
		cps[k] = c;
		off[k++] = (int)i;
		i += (size_t)l;
	}
	return k;
}

/* libhyphen's values for the encoded word (the compiled form's walk
 * when there is one), per letter, in hy; -1 when there are none. */
static int hyph_values(hyph_t *h, const char *enc, int len, char *hy)
{
	char **rep = NULL;
	int *pos = NULL, *cut = NULL, rc = -1;
	if (h->nlev && hc_hyphenate(h, (const unsigned char *)enc, len, hy, HYPH_LMIN,
	                            HYPH_RMIN) == 0)
		return 0;
	HyphenDict *d = hyph_lib(h);
	memset(hy, 0, HYPH_MAXWORD * 4 + 5);
	if (d && hl.hnj_hyphen_hyphenate3(d, enc, len, hy, NULL, &rep, &pos, &cut, HYPH_LMIN,
	                               HYPH_RMIN, HYPH_LMIN, HYPH_RMIN) == 0)
		rc = 0;
	if (rep) {
		/* a non-standard break (a letter changes) is not offered */
		for (int i = 0; i < len; i++) {
			if (rep[i] && rc == 0)
				hy[i] = '0';
			free(rep[i]);
		}
		free(rep);
	}
	free(pos);
	free(cut);
	return rc;
}

int hyph_word(hyph_t *h, const char *w, size_t n, int *offs, int max)
{
	uint32_t cps[HYPH_MAXWORD];
	int off[HYPH_MAXWORD], k, cnt = 0, len = 0;
	char enc[HYPH_MAXWORD * 4 + 1], hy[HYPH_MAXWORD * 4 + 5];
	if (!h || !w || max <= 0)
		return 0;
	int cap;
	k = word_cps(w, n, cps, off, HYPH_MAXWORD, &cap);
	if (k < HYPH_LMIN + HYPH_RMIN || hyph_load(h))
		return 0;
	if (h->latin1) {
		for (int i = 0; i < k; i++) {
			if (cps[i] > 0xFF)
				return 0;
			enc[len++] = (char)cps[i];
		}
	} else if (h->koi8r) {
		for (int i = 0; i < k; i++) {
			int b = koi8r(cps[i]);
			if (!b)
				return 0;
			enc[len++] = (char)b;
		}
	} else if (h->greek) {
		/* ISO8859-7 has the Greek letters at U+0384..U+03CE - 0x2D0 */
		for (int i = 0; i < k; i++) {
			if (cps[i] < 0x384 || cps[i] > 0x3CE)
				return 0;
			enc[len++] = (char)(cps[i] - 0x2D0);
		}
	} else if (cap) {
		for (int i = 0; i < k; i++)
			len += utf8_encode(cps[i], enc + len);
	} else {
		memcpy(enc, w, n);
		len = (int)n;
	}
	enc[len] = 0;
	if (hyph_values(h, enc, len, hy) != 0)
		return 0;
	/* hy[i] odd: a break after letter i */
	for (int i = HYPH_LMIN - 1; i < k - HYPH_RMIN && cnt < max; i++)
		if (hy[i] & 1)
			offs[cnt++] = off[i + 1];
	return cnt;
}
