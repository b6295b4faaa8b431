/* hyph: hyphenation points from libhyphen; see hyph.h.
 *
 * hyph_open("en") finds /usr/share/hyphen/hyph_en_US.dic (or hyph_en.dic)
 * and only checks that it is readable: parsing the patterns costs ~37M
 * instructions (twice a whole CV's layout), and most paragraphs never need
 * them (inline.c tries a break without hyphens first). The first hyph_word
 * call that has a real candidate word loads them, once, for the hyph_t's
 * lifetime (a load failure is remembered: no hyphenation, no retries).
 * hyph_word(h, "hyphenation", 11, offs, max) returns the byte
 * offsets a hyphen may precede. The dictionary's first line names its
 * encoding: UTF-8 words are passed as they are; ISO8859-1 dictionaries get
 * the word re-encoded (words with characters beyond Latin-1 are left
 * alone). Only words made entirely of lowercase letters are hyphenated,
 * at least 2 letters before and 3 after every break.
 *
 * The parsed patterns are cached: libhyphen's HyphenDict (a state machine,
 * its layout public in hyphen.h) is written once to
 * $XDG_CACHE_HOME/vita/hyph-NAME.bin (else ~/.cache/vita/), checked
 * against the .dic's path, size and mtime, and later read back with one
 * read() and a pass that turns offsets into pointers and bounds-checks
 * every index: ~0.1 M instructions instead of ~37 M, and the same state
 * machine, so libhyphen's hyphenate3 gives the same breaks. A cache that
 * is missing, stale, foreign or damaged is ignored and rewritten.
 * VITA_NO_HYPH_CACHE=1 turns it off.
 */
#include <hyphen.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "buf.h"
#include "file.h"
#include "hyph.h"
#include "utf8.h"
#include "deps.h"

#define HYPH_DIR "/usr/share/hyphen"
#define HYPH_MAXWORD 100          /* letters; longer words are not split */
#define HYPH_LMIN 2
#define HYPH_RMIN 3

struct hyph {
	HyphenDict *dict;         /* NULL until the first real hyph_word */
	int latin1;               /* the dictionary is ISO8859-1 */
	int koi8r;                /* the dictionary is KOI8-R (Russian) */
	int failed;               /* loading was tried and failed */
	void *cached;             /* dict lives in this block (hyph_cache_load) */
	char path[256];
};

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
	return n;
}

/* The cache of parsed patterns (see the top of the file). */
#define HC_MAGIC "vitahy1"
#define HC_MAX (64u << 20)

struct hc_head {
	char magic[8];
	uint32_t abi, ndict;
	int64_t size, mtime, mtime_ns;
	uint64_t total, strings, sum;
	uint64_t dict[2];
	char path[256];
};

static uint32_t hc_abi(void)
{
	return (uint32_t)(sizeof(HyphenDict) << 16 | sizeof(HyphenState) << 8 |
	                  sizeof(HyphenTrans));
}

static int hc_path(const hyph_t *h, char *out, size_t n)
{
	const char *off = getenv("VITA_NO_HYPH_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *base = strrchr(h->path, '/');
	int r;
	if (off && *off && strcmp(off, "0") != 0)
		return -1;
	base = base ? base + 1 : h->path;
	if (xdg && xdg[0] == '/')
		r = snprintf(out, n, "%s/vita/%s.bin", xdg, base);
	else if (home && home[0] == '/')
		r = snprintf(out, n, "%s/.cache/vita/%s.bin", home, base);
	else
		return -1;
	return r > 0 && (size_t)r < n ? 0 : -1;
}

/* A cheap checksum over 8-byte words: catches a damaged file, costs
 * ~3 instructions a word. */
static uint64_t hc_sum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull, w;
	for (size_t i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 1099511628211ull;
	}
	return h;
}

static void hc_head_fill(struct hc_head *hd, const hyph_t *h, const struct stat *st)
{
	memset(hd, 0, sizeof(*hd));
	memcpy(hd->magic, HC_MAGIC, 8);
	hd->abi = hc_abi();
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

static uintptr_t hc_str(buf_t *b, const char *s, size_t n)
{
	if (!s)
		return 0;
	size_t off = b->len;
	buf_add(b, s, n);
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

/* Write the state machine: structs with offsets for pointers, then the
 * strings. Only the shape libhyphen builds: a root and at most one
 * next level. */
static void hc_store(const hyph_t *h, HyphenDict *root, const struct stat *st)
{
	HyphenDict *d[2] = {root, root->nextlevel};
	int nd = d[1] ? 2 : 1;
	size_t doff[2], soff[2], *toff[2] = {NULL, NULL};
	char path[600], tmp[640];
	struct hc_head hd;
	buf_t b;
	if ((d[1] && d[1]->nextlevel) || hc_path(h, path, sizeof(path)))
		return;
	buf_init(&b);
	hc_head_fill(&hd, h, st);
	hd.ndict = (uint32_t)nd;
	hc_reserve(&b, sizeof(hd));
	for (int i = 0; i < nd; i++) {
		doff[i] = hc_reserve(&b, sizeof(HyphenDict));
		soff[i] = hc_reserve(&b, (size_t)d[i]->num_states * sizeof(HyphenState));
		toff[i] = xcalloc((size_t)d[i]->num_states + 1, sizeof(size_t));
		for (int k = 0; k < d[i]->num_states; k++) {
			HyphenState *s = &d[i]->states[k];
			if (s->num_trans <= 0)
				continue;
			size_t n = (size_t)s->num_trans * sizeof(HyphenTrans);
			toff[i][k] = hc_reserve(&b, n);
			for (int t = 0; t < s->num_trans; t++) {
				HyphenTrans x;
				memset(&x, 0, sizeof(x));
				x.ch = s->trans[t].ch;
				x.new_state = s->trans[t].new_state;
				memcpy(b.s + toff[i][k] + (size_t)t * sizeof(x), &x, sizeof(x));
			}
		}
	}
	hd.strings = b.len;
	for (int i = 0; i < nd; i++) {
		HyphenDict x;
		memset(&x, 0, sizeof(x));
		x.lhmin = d[i]->lhmin;
		x.rhmin = d[i]->rhmin;
		x.clhmin = d[i]->clhmin;
		x.crhmin = d[i]->crhmin;
		x.nohyphen = (char *)hc_str(&b, d[i]->nohyphen, nohyphen_len(d[i]));
		x.nohyphenl = d[i]->nohyphenl;
		x.num_states = d[i]->num_states;
		memcpy(x.cset, d[i]->cset, sizeof(x.cset));
		x.utf8 = d[i]->utf8;
		x.states = (HyphenState *)(uintptr_t)soff[i];
		x.nextlevel = (HyphenDict *)(uintptr_t)(i == 0 && nd == 2 ? 2 : 0);
		for (int k = 0; k < d[i]->num_states; k++) {
			HyphenState *s = &d[i]->states[k], y;
			memset(&y, 0, sizeof(y));
			y.match = (char *)hc_str(&b, s->match, s->match ? strlen(s->match) + 1 : 0);
			y.repl = (char *)hc_str(&b, s->repl, s->repl ? strlen(s->repl) + 1 : 0);
			y.replindex = s->replindex;
			y.replcut = s->replcut;
			y.fallback_state = s->fallback_state;
			y.num_trans = s->num_trans > 0 ? s->num_trans : 0;
			y.trans = (HyphenTrans *)(uintptr_t)toff[i][k];
			memcpy(b.s + soff[i] + (size_t)k * sizeof(y), &y, sizeof(y));
		}
		memcpy(b.s + doff[i], &x, sizeof(x));
		hd.dict[i] = doff[i];
		free(toff[i]);
	}
	buf_putc(&b, 0);
	hc_reserve(&b, 0);
	hd.total = b.len;
	hd.sum = hc_sum((unsigned char *)b.s + sizeof(hd), b.len - sizeof(hd));
	memcpy(b.s, &hd, sizeof(hd));
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	for (char *c = tmp + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(tmp, 0755);
			*c = '/';
		}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		int bad = buf_write_fd(fd, b.s, b.len) != 0;
		bad |= close(fd) != 0;
		if (bad || rename(tmp, path) != 0)
			unlink(tmp);
	}
	buf_done(&b);
}

/* An offset of a string inside the string area, or 0 (NULL). */
static int hc_ptr(char **p, unsigned char *blk, const struct hc_head *hd)
{
	uintptr_t o = (uintptr_t)*p;
	if (!o) {
		*p = NULL;
		return 0;
	}
	if (o < hd->strings || o >= hd->total)
		return -1;
	*p = (char *)blk + o;
	return 0;
}

/* Turn one dictionary's offsets into pointers, checking every one. */
static int hc_fix(HyphenDict *d, unsigned char *blk, const struct hc_head *hd)
{
	uintptr_t so = (uintptr_t)d->states;
	size_t ns = (size_t)d->num_states;
	if (d->num_states < 1 || so % 8 || so > hd->strings ||
	    (hd->strings - so) / sizeof(HyphenState) < ns || d->nohyphenl < 0 ||
	    d->cset[sizeof(d->cset) - 1] != 0 || hc_ptr(&d->nohyphen, blk, hd))
		return -1;
	if (d->nohyphen) {
		size_t at = (size_t)(d->nohyphen - (char *)blk);
		for (int i = 0; i <= d->nohyphenl; i++) {
			if (at >= hd->total)
				return -1;
			at += strlen((char *)blk + at) + 1;
		}
	}
	d->states = (HyphenState *)(blk + so);
	for (size_t k = 0; k < ns; k++) {
		HyphenState *s = &d->states[k];
		uintptr_t to = (uintptr_t)s->trans;
		if (hc_ptr(&s->match, blk, hd) || hc_ptr(&s->repl, blk, hd) ||
		    s->fallback_state < -1 || s->fallback_state >= (int)ns ||
		    s->num_trans < 0 || to % 8 || to > hd->strings ||
		    (hd->strings - to) / sizeof(HyphenTrans) < (size_t)s->num_trans ||
		    (s->num_trans && !to))
			return -1;
		s->trans = to ? (HyphenTrans *)(blk + to) : NULL;
		for (int t = 0; t < s->num_trans; t++)
			if (s->trans[t].new_state < 0 || s->trans[t].new_state >= (int)ns)
				return -1;
	}
	return 0;
}

/* The cached state machine for h's .dic, or NULL; *blk is to be freed. */
static HyphenDict *hc_load(const hyph_t *h, const struct stat *st, void **blkp)
{
	char path[600];
	struct hc_head want, *hd;
	size_t size = 0;
	unsigned char *blk;
	if (hc_path(h, path, sizeof(path)))
		return NULL;
	int fd = file_open(path, HC_MAX, &size, NULL);
	if (fd < 0)
		return NULL;
	blk = size >= sizeof(*hd) ? malloc(size) : NULL;
	if (!blk || read(fd, blk, size) != (ssize_t)size) {
		close(fd);
		free(blk);
		return NULL;
	}
	close(fd);
	hd = (struct hc_head *)blk;
	hc_head_fill(&want, h, st);
	HyphenDict *d[2] = {NULL, NULL};
	if (memcmp(hd->magic, want.magic, 8) || hd->abi != want.abi ||
	    hd->size != want.size || hd->mtime != want.mtime ||
	    hd->mtime_ns != want.mtime_ns || memcmp(hd->path, want.path, sizeof(want.path)) ||
	    hd->total != size || size % 8 || hd->strings < sizeof(*hd) ||
	    hd->strings >= size || blk[size - 1] != 0 ||
	    hd->ndict < 1 || hd->ndict > 2 ||
	    hd->sum != hc_sum(blk + sizeof(*hd), size - sizeof(*hd)))
		goto bad;
	for (uint32_t i = 0; i < hd->ndict; i++) {
		uint64_t o = hd->dict[i];
		if (o % 8 || o < sizeof(*hd) || o > hd->strings - sizeof(HyphenDict))
			goto bad;
		d[i] = (HyphenDict *)(blk + o);
	}
	for (uint32_t i = 0; i < hd->ndict; i++) {
		uintptr_t next = (uintptr_t)d[i]->nextlevel;
		if (next != (i == 0 && hd->ndict == 2 ? 2u : 0u) || hc_fix(d[i], blk, hd))
			goto bad;
		d[i]->nextlevel = next ? d[1] : NULL;
	}
	*blkp = blk;
	return d[0];
bad:
	free(blk);
	return NULL;
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
};

hyph_set_t *hyph_set_new(void)
{
	return xcalloc(1, sizeof(hyph_set_t));
}

hyph_t *hyph_set_get(hyph_set_t *set, const char *lang)
{
	char paths[4][256];
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
	return NULL;
}

void hyph_set_free(hyph_set_t *set)
{
	if (!set)
		return;
	for (int k = 0; k < set->n; k++)
		hyph_close(set->v[k]);
	free(set->v);
	free(set);
}

/* Parse the patterns (once), from the cache when it is current. 0 when
 * they are usable. */
static int hyph_load(hyph_t *h)
{
	struct stat st;
	if (h->dict)
		return 0;
	if (h->failed)
		return -1;
	int have = stat(h->path, &st) == 0;
	if (have)
		h->dict = hc_load(h, &st, &h->cached);
	if (!h->dict) {
		h->dict = hnj_hyphen_load(h->path);
		if (h->dict && have)
			hc_store(h, h->dict, &st);
	}
	if (!h->dict) {
		h->failed = 1;
		return -1;
	}
	/* the .dic's first line, kept by libhyphen, names its encoding */
	h->latin1 = !strncmp(h->dict->cset, "ISO8859-1", 9) ||
	            !strncmp(h->dict->cset, "ISO-8859-1", 10);
	h->koi8r = !strncmp(h->dict->cset, "KOI8-R", 6);
	return 0;
}

int hyph_loaded(const hyph_t *h)
{
	return h && h->dict;
}

void hyph_close(hyph_t *h)
{
	if (!h)
		return;
	if (h->cached)
		free(h->cached);  /* the dict points into it */
	else if (h->dict)
		hnj_hyphen_free(h->dict);
	free(h);
}

/* Lowercase letters of Latin scripts (ASCII, Latin-1, Latin Extended-A). */
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
	return c == 0x17F;
}

/* Decode w into code points with their byte offsets; 0 when the word is
 * not all lowercase letters (or is too short or too long). */
static int word_cps(const char *w, size_t n, uint32_t *cps, int *off, int max)
{
	int k = 0;
	for (size_t i = 0; i < n;) {
		uint32_t c;
		int l = utf8_decode(w + i, n - i, &c);
		if (!l || !is_lower(c) || k >= max)
			return 0;
		cps[k] = c;
		off[k++] = (int)i;
		i += (size_t)l;
	}
	return k;
}

int hyph_word(hyph_t *h, const char *w, size_t n, int *offs, int max)
{
	uint32_t cps[HYPH_MAXWORD];
	int off[HYPH_MAXWORD], k, cnt = 0;
	char enc[HYPH_MAXWORD * 4 + 1], hy[HYPH_MAXWORD * 4 + 5];
	char **rep = NULL;
	int *pos = NULL, *cut = NULL, len = 0;
	if (!h || !w || max <= 0)
		return 0;
	k = word_cps(w, n, cps, off, HYPH_MAXWORD);
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
	} else {
		memcpy(enc, w, n);
		len = (int)n;
	}
	enc[len] = 0;
	memset(hy, 0, sizeof(hy));
	if (hnj_hyphen_hyphenate3(h->dict, enc, len, hy, NULL, &rep, &pos, &cut,
	                          HYPH_LMIN, HYPH_RMIN, HYPH_LMIN, HYPH_RMIN) == 0) {
		/* hy[i] odd: a break after letter i (indexed by letter in UTF-8
		 * dictionaries too: libhyphen normalises the array) */
		for (int i = HYPH_LMIN - 1; i < k - HYPH_RMIN && cnt < max; i++)
			if ((hy[i] & 1) && !(rep && rep[i]))
				offs[cnt++] = off[i + 1];
	}
	if (rep) {
		for (int i = 0; i < len; i++)
			free(rep[i]);
		free(rep);
	}
	free(pos);
	free(cut);
	return cnt;
}
