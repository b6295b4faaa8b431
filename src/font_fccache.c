/* font_fccache: a small persistent cache of fontconfig family listings, so
 * a run does not pay for FcInitLoadConfigAndFonts (5-10 ms with ~2000
 * fonts installed, more than everything else vita does for a CV).
 *
 * File: $XDG_CACHE_HOME/vita/families-v5-KEY (else under $HOME/.cache),
 * text, one record per family, written atomically (temp + rename):
 *
 *   vita-families 5 <configuration key>
 *   I <offset of its F line after the I lines> <family>   (one per record)
 *   F <number of C lines> <family as written in the chain>
 *   C <index> <weight> <slant> <width> <truetype> <mtime> <size> <dirmtime> <path>
 *
 * A run reads the I lines and then only the records of the families it
 * looks up (the file lists every family ever asked for: 250 of them after
 * `vita fonts`, 230 KB, of which a CV needs a few); a record not found
 * where its I line says (the file was edited) is not used. <truetype> is
 * 1 for TrueType outlines, 0 for CFF (or a variable font), 2 for a face
 * that is no sfnt (Type 1: v3 files said 0, hence v4). v5: weight and
 * width as font_chain.c's fc_style_fix mends them (a face whose own
 * style name contradicts them).
 *
 * The key is a hash of the fontconfig configuration: FONTCONFIG_FILE,
 * FONTCONFIG_PATH and FONTCONFIG_SYSROOT, and the times and sizes of the
 * configuration files and conf.d directories fontconfig reads (system and
 * user). Each configuration has its own file (KEY in its name, so runs
 * under two configurations do not overwrite each other's), and a file
 * whose first line names another key is ignored whole.
 *
 * A family's record is used only while every listed file still has the
 * same mtime and size and its directory the same mtime (a font added to or
 * removed from that directory changes it) and its fields are sane (an
 * absolute path to a regular file, weight, slant and width in fontconfig's
 * ranges). The faces the chain then picks from it are checked against
 * their files (font_fccache_valid: a face index inside the file, a .ttc
 * counting its faces; a TrueType flag that matches the outlines; the
 * family among the face's own names, IDs 1, 16 and 21, compared without
 * case and blanks as fontconfig does), only those, so no other font file
 * is opened. On any mismatch the record is forgotten and fontconfig asked
 * again, so a cache file edited by someone else cannot substitute a font.
 * Families that are not installed are kept apart (misses-v2-KEY, see
 * "what is not installed" below). VITA_NO_FONT_CACHE=1 turns both off. Any I/O problem just means no cache: the results are the same
 * either way.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "arena.h"
#include "buf.h"
#include "file.h"
#include "font_int.h"

typedef struct fcc_cand {
	font_cand_t c;
	long long mtime, size, dirmtime;
} fcc_cand_t;

typedef struct fcc_fam {
	char *family;
	int want;               /* C lines announced by the F line */
	fcc_cand_t *v;
	int n;
	font_cand_t *out;       /* what lookup hands out */
} fcc_fam_t;

/* A family fontconfig does not list, or a name's nearest family. */
typedef struct fcc_miss {
	char *name;
	int absent;             /* 1: fontconfig lists no face of this family */
	char *standin;          /* absent: its metric-compatible alias, or NULL */
	int near;               /* 0 not known, 1 no family is close, 2 near_s */
	char *near_s;
} fcc_miss_t;

typedef struct fcc_misses {
	char *path;
	int read;               /* the file was looked at */
	fcc_miss_t *v;
	int n, cap;
	char **dir;             /* the stamp: fontconfig's font and cache dirs, */
	long long *sec, *nsec;  /* their mtimes (-1 -1: not there) */
	int ndir;
	int stamped;            /* dir set (font_fccache_stamp), 2: unsafe to write */
	int dirty;              /* v has what the file has not: write it */
} fcc_misses_t;

typedef struct fccache {
	int off;
	char *path;
	char key[20];           /* hex of the configuration hash */
	fcc_fam_t *f;
	int n, cap;
	char *index;            /* the I lines, NUL-terminated */
	const char **ifam;      /* per I line: its family, */
	long long *ioff;        /* its record's offset in the file */
	int ni;
	long long size;         /* the file's */
	int fd;                 /* open on it, or -1 */
	int all;                /* every record of the file is in f */
	int dirty;              /* f has a family the file has not: write it */
	fcc_misses_t m;         /* what is not installed (its own file) */
} fccache_t;

static void fam_clear(fcc_fam_t *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->v[i].c.file);
	free(f->v);
	free(f->out);
	free(f->family);
	memset(f, 0, sizeof(*f));
}

static void misses_free(fcc_misses_t *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->v[i].name);
		free(m->v[i].near_s);
		free(m->v[i].standin);
	}
	free(m->v);
	for (int i = 0; i < m->ndir; i++)
		free(m->dir[i]);
	free(m->dir);
	free(m->sec);
	free(m->nsec);
	free(m->path);
}

static void cache_write(fccache_t *c);
static void misses_write(fccache_t *c);

void font_fccache_flush(font_lib_t *lib)
{
	fccache_t *c = lib->fcc;
	if (c && c->dirty)
		cache_write(c);
	if (c && c->m.dirty)
		misses_write(c);
	if (c)
		c->dirty = c->m.dirty = 0;
}

void font_fccache_free(font_lib_t *lib)
{
	fccache_t *c = lib->fcc;
	if (!c)
		return;
	font_fccache_flush(lib);
	misses_free(&c->m);
	for (int i = 0; i < c->n; i++)
		fam_clear(&c->f[i]);
	free(c->f);
	free(c->path);
	if (c->fd >= 0)
		close(c->fd);
	free(c->index);
	free(c->ifam);
	free(c->ioff);
	free(c);
	lib->fcc = NULL;
}

/* The last directory dir_mtime looked at, for the candidates of one
 * family (Noto Serif's 72 faces share one: 71 calls of stat less). Not
 * kept from one lookup to the next: a long watch must see a font added. */
typedef struct dir_memo {
	size_t len;             /* of dir; 0: none yet */
	char dir[4096];
	long long m;
} dir_memo_t;

static int dir_mtime(const char *path, long long *m, dir_memo_t *dm)
{
	const char *sl = strrchr(path, '/');
	size_t n = sl ? (size_t)(sl - path) : 0;
	if (!sl || n >= sizeof(dm->dir))
		return -1;
	if (dm->len && dm->len == n + 1 && !memcmp(dm->dir, path, n)) {
		*m = dm->m;
		return 0;
	}
	memcpy(dm->dir, path, n);
	dm->dir[n] = 0;
	dm->len = 0;
	struct stat st;
	if (stat(n ? dm->dir : "/", &st) != 0)
		return -1;
	dm->len = n + 1;
	dm->m = *m = (long long)st.st_mtime;
	return 0;
}

static int cand_stat(fcc_cand_t *k, dir_memo_t *dm)
{
	struct stat st;
	if (stat(k->c.file, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	k->mtime = (long long)st.st_mtime;
	k->size = (long long)st.st_size;
	return dir_mtime(k->c.file, &k->dirmtime, dm);
}

static fcc_fam_t *fam_add(fccache_t *c, const char *family)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->f = xrealloc(c->f, (size_t)c->cap * sizeof(*c->f));
	}
	fcc_fam_t *f = &c->f[c->n++];
	memset(f, 0, sizeof(*f));
	f->family = xstrdup(family);
	return f;
}

static void fam_push(fcc_fam_t *f, const fcc_cand_t *k)
{
	if ((f->n & (f->n - 1)) == 0)   /* 0, 1, 2, 4, ...: double */
		f->v = xrealloc(f->v, (size_t)(f->n ? 2 * f->n : 1) * sizeof(*f->v));
	f->v[f->n++] = *k;
}

/* ---- the fontconfig configuration key ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	return h;
}

static uint64_t key_str(uint64_t h, const char *s)
{
	return fnv(h, s ? s : "-", strlen(s ? s : "-") + 1);
}

static uint64_t key_file(uint64_t h, const char *dir, const char *name)
{
	char p[4096];
	struct stat st;
	snprintf(p, sizeof(p), "%s%s%s", dir, name ? "/" : "", name ? name : "");
	long long v[3] = {-1, -1, -1};
	if (stat(p, &st) == 0) {
		v[0] = (long long)st.st_mtime;
		v[1] = (long long)st.st_size;
		v[2] = (long long)st.st_ino;
	}
	return fnv(key_str(h, p), v, sizeof(v));
}

static void config_key(char out[20])
{
	const char *file = getenv("FONTCONFIG_FILE"), *path = getenv("FONTCONFIG_PATH");
	const char *root = getenv("FONTCONFIG_SYSROOT"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char user[4096];
	uint64_t h = 14695981039346656037ull;
	h = key_str(key_str(key_str(h, file), path), root);
	const char *sys = path && *path ? path : "/etc/fonts";
	if (file && file[0] == '/')
		h = key_file(h, file, NULL);
	else
		h = key_file(h, sys, file && *file ? file : "fonts.conf");
	h = key_file(h, sys, "conf.d");
	h = key_file(h, "/etc/fonts", "conf.d");
	if (xdg && xdg[0] == '/')
		snprintf(user, sizeof(user), "%s/fontconfig", xdg);
	else
		snprintf(user, sizeof(user), "%s/.config/fontconfig", home ? home : "");
	h = key_file(key_file(h, user, "fonts.conf"), user, "conf.d");
	h = key_file(h, home ? home : "", ".fonts.conf");
	snprintf(out, 20, "%016llx", (unsigned long long)h);
}

/* ---- a record against its font file ---- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static int read_at(int fd, void *buf, size_t n, uint32_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* Lower-case ASCII without blanks, for fontconfig-like comparison. */
static void fold(const char *s, size_t n, char *out, size_t size)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < size; i++)
		if (s[i] != ' ')
			out[k++] = (char)tolower((unsigned char)s[i]);
	out[k] = '\0';
}

/* Does name record r (in the name table t of n bytes) spell want? */
static int name_is(const unsigned char *t, size_t n, const unsigned char *r, const char *want)
{
	unsigned plat = be16(r), len = be16(r + 8), off = be16(t + 4) + be16(r + 10);
	char s[512], f[512];
	size_t k = 0;
	if (off + (size_t)len > n)
		return 0;
	const unsigned char *p = t + off;
	if (plat == 0 || plat == 3) {            /* UTF-16BE: ASCII only compares */
		for (unsigned i = 0; i + 1 < len && k + 1 < sizeof(s); i += 2)
			s[k++] = p[i] || p[i + 1] >= 0x80 ? '\x7f' : (char)p[i + 1];
	} else if (plat == 1) {
		for (unsigned i = 0; i < len && k + 1 < sizeof(s); i++)
			s[k++] = p[i] < 0x80 ? (char)p[i] : '\x7f';
	}
	fold(s, k, f, sizeof(f));
	return k > 0 && !strcmp(f, want);
}

/* 1 when face `index` of the file open as fd has family among its names
 * and the outline kind the record claims. */
static int face_matches(int fd, const fcc_cand_t *k, const char *family)
{
	unsigned char buf[12 + 16 * 64], *h = buf, *dir = buf + 12;
	ssize_t got = pread(fd, buf, sizeof(buf), 0);   /* header and directory at once */
	if (got < 12)
		return 0;
	if (!memcmp(h, "ttcf", 4)) {
		unsigned char o[4];
		if ((uint32_t)k->c.index >= be32(h + 8) || be32(h + 8) > 4096 ||
		    read_at(fd, o, 4, 12 + 4 * (uint32_t)k->c.index))
			return 0;
		got = pread(fd, buf, sizeof(buf), (off_t)be32(o));
		if (got < 12)
			return 0;
	} else if (k->c.index != 0) {
		return 0;
	}
	int cff = !memcmp(h, "OTTO", 4);
	if (!cff && be32(h) != 0x00010000 && memcmp(h, "true", 4))
		return 0;
	if ((k->c.truetype == 1 && cff) || k->c.truetype == 2)
		return 0;
	unsigned nt = be16(h + 4);
	if (nt == 0 || nt > 64 || got < (ssize_t)(12 + 16 * nt))
		return 0;
	char want[512];
	fold(family, strlen(family), want, sizeof(want));
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *d = dir + 16 * i;
		uint32_t len = be32(d + 12);
		if (memcmp(d, "name", 4) || len < 6 || len > (1u << 20))
			continue;
		unsigned char *t = malloc(len);
		int ok = 0;
		if (t && read_at(fd, t, len, be32(d + 8)) == 0) {
			unsigned cnt = be16(t + 2);
			for (unsigned r = 0; !ok && r < cnt && 6 + 12 * (size_t)(r + 1) <= len; r++) {
				const unsigned char *rec = t + 6 + 12 * r;
				unsigned id = be16(rec + 6);
				ok = (id == 1 || id == 16 || id == 21) && name_is(t, len, rec, want);
			}
		}
		free(t);
		return ok;
	}
	return 0;
}

/* The fields alone: an absolute path, fontconfig's ranges. */
static int rec_sane(const font_cand_t *c)
{
	return c->file && c->file[0] == '/' && c->index >= 0 && c->index <= 0xffff &&
	       c->weight >= 0 && c->weight <= 250 && c->slant >= 0 && c->slant <= 110 &&
	       c->width >= 25 && c->width <= 200 && c->truetype >= 0 && c->truetype <= 2;
}

int font_fccache_valid(const font_cand_t *c, const char *family)
{
	fcc_cand_t k;
	memset(&k, 0, sizeof(k));
	k.c = *c;
	if (!rec_sane(c))
		return 0;
	/* cand_stat found a regular file; O_NONBLOCK keeps a file swapped for
	   a FIFO since from blocking us (pread on it fails at once) */
	int fd = open(c->file, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	int ok = face_matches(fd, &k, family);
	close(fd);
	return ok;
}

/* One decimal number after blanks, as sscanf's " %lld" reads it (without
 * its cost: sscanf was 1.9 M instructions of a 45 M render for 136
 * lines); 0 when there is none or it overflows. */
static int rd_num(const char **p, long long lo, long long hi, long long *v)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	int neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	long long x = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > hi / 10 + 1)
			return 0;
		x = x * 10 + (*s - '0');
	}
	x = neg ? -x : x;
	if (x < lo || x > hi)
		return 0;
	*v = x;
	*p = s;
	return 1;
}

static int rd_int(const char **p, int *v)
{
	long long x;
	if (!rd_num(p, -2147483647LL - 1, 2147483647LL, &x))
		return 0;
	*v = (int)x;
	return 1;
}

/* The rest of the line after blanks; NULL when empty. */
static const char *rd_rest(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s ? s : NULL;
}

/* An F line: its C-line count and family (NULL when s is not one). */
static const char *rd_fam_line(const char *s, int *want)
{
	const char *p = s + 1;
	return s[0] == 'F' && rd_int(&p, want) ? rd_rest(p) : NULL;
}

/* The C lines after an F line (s: its first, lines NUL-terminated up to
 * end) into f, up to the next F line. */
static void rd_cands(fcc_fam_t *f, const char *s, const char *end)
{
	const long long big = 0x7fffffffffffffffLL / 16;
	for (; s < end; s += strlen(s) + 1) {
		int want;
		if (rd_fam_line(s, &want))
			return;
		fcc_cand_t k;
		const char *p = s + 1, *rest;
		memset(&k, 0, sizeof(k));
		if (s[0] != 'C' || !rd_int(&p, &k.c.index) || !rd_int(&p, &k.c.weight) ||
		    !rd_int(&p, &k.c.slant) || !rd_int(&p, &k.c.width) || !rd_int(&p, &k.c.truetype) ||
		    !rd_num(&p, -big, big, &k.mtime) || !rd_num(&p, -big, big, &k.size) ||
		    !rd_num(&p, -big, big, &k.dirmtime) || !(rest = rd_rest(p)))
			continue;
		k.c.file = xstrdup(rest);
		fam_push(f, &k);
	}
}

static fcc_fam_t *fam_find(fccache_t *c, const char *family)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->f[i].family, family) == 0)
			return &c->f[i];
	return NULL;
}

/* The record of I line i, read from the file into a new family of c; NULL
 * when it is not there (read error, edited file). */
static fcc_fam_t *record_read(fccache_t *c, int i)
{
	long long at = c->ioff[i];
	long long end = i + 1 < c->ni ? c->ioff[i + 1] : c->size;
	if (at < 0 || end <= at || end > c->size || c->fd < 0)
		return NULL;
	end = end + 512 < c->size ? end + 512 : c->size; /* a line edited longer */
	size_t len = (size_t)(end - at);
	char *b = xmalloc(len + 1);
	ssize_t got = pread(c->fd, b, len, (off_t)at);
	fcc_fam_t *f = NULL;
	if (got > 0) {
		b[got] = '\0';
		for (char *q = b; (q = strchr(q, '\n'));) /* lines NUL-terminated */
			*q++ = '\0';
		int want;
		const char *fam = rd_fam_line(b, &want);
		if (fam && strcmp(fam, c->ifam[i]) == 0 && !fam_find(c, fam)) {
			f = fam_add(c, fam);
			f->want = want;
			rd_cands(f, b + strlen(b) + 1, b + got);
		}
	}
	free(b);
	return f;
}

/* The records of the file are read when asked for: family's alone for a
 * lookup, all of them (the families not yet read) before the file is
 * rewritten. */
static fcc_fam_t *cache_read(fccache_t *c, const char *family)
{
	for (int i = 0; i < c->ni && (family || !c->all); i++) {
		if ((family && strcmp(c->ifam[i], family) != 0) || fam_find(c, c->ifam[i]))
			continue;
		fcc_fam_t *f = record_read(c, i);
		if (family)
			return f;
	}
	if (!family)
		c->all = 1;
	return NULL;
}

/* The I lines of the file (c->path) into c; none unless its first line
 * names this format and configuration. */
static void index_read(fccache_t *c)
{
	size_t size = 0;
	int fd = file_open(c->path, FILE_MAX_TEXT, &size, NULL);
	if (fd < 0)
		return;
	c->size = (long long)size;
	size_t cap = 16384, len = 0, scan = 0;
	char *b = xmalloc(cap + 1), *e = NULL; /* e: the first record */
	while (!e) { /* read until the first line that is not the header or an I line */
		ssize_t k = pread(fd, b + len, cap - len, (off_t)len);
		len += k > 0 ? (size_t)k : 0;
		b[len] = '\0';
		char *q = b + scan, *nl;
		while (!e && (nl = memchr(q, '\n', (size_t)(b + len - q)))) {
			if (q != b && q[0] != 'I')
				e = q;
			else
				q = nl + 1;
		}
		scan = (size_t)(q - b);
		if (!e && (k <= 0 || len == size))
			e = q; /* the end: no records */
		if (!e && len == cap) {
			cap *= 2;
			b = xrealloc(b, cap + 1);
		}
	}
	size_t hl = 16 + strlen(c->key);
	if (strncmp(b, "vita-families 5 ", 16) != 0 || strncmp(b + 16, c->key, strlen(c->key)) ||
	    b[hl] != '\n' || e < b + hl + 1) {
		close(fd);
		free(b);
		return;
	}
	c->fd = fd;
	long long base = (long long)(e - b);
	for (char *q = b + hl + 1; q < e;) {
		char *nl = memchr(q, '\n', (size_t)(e - q));
		if (!nl)
			break;
		*nl = '\0';
		const char *p = q + 1, *fam;
		long long off;
		if (q[0] == 'I' && rd_num(&p, 0, 1LL << 40, &off) && (fam = rd_rest(p))) {
			if ((c->ni & (c->ni - 1)) == 0) {
				int n = c->ni ? 2 * c->ni : 1;
				c->ifam = xrealloc(c->ifam, (size_t)n * sizeof(*c->ifam));
				c->ioff = xrealloc(c->ioff, (size_t)n * sizeof(*c->ioff));
			}
			c->ifam[c->ni] = fam;
			c->ioff[c->ni++] = base + off;
		}
		q = nl + 1;
	}
	c->index = b;
}

static fccache_t *cache_get(font_lib_t *lib)
{
	if (lib->fcc)
		return lib->fcc;
	fccache_t *c = xcalloc(1, sizeof(*c));
	c->fd = -1;
	lib->fcc = c;
	buf_t p, m;
	buf_init(&p);
	buf_init(&m);
	config_key(c->key);
	char fam[1024], miss[1024], name[128];
	snprintf(name, sizeof(name), "families-v5-%s", c->key);
	if (file_cache_path("VITA_NO_FONT_CACHE", name, fam, sizeof(fam)) == 0) {
		snprintf(name, sizeof(name), "misses-v2-%s", c->key);
		if (file_cache_path(NULL, name, miss, sizeof(miss)) == 0) {
			buf_add(&p, fam, strlen(fam));
			buf_add(&m, miss, strlen(miss));
		}
	}
	if (!p.s) {
		c->off = 1;
		c->m.read = 1;  /* no file: nothing to read */
		buf_done(&p);
		buf_done(&m);
		return c;
	}
	c->path = p.s;
	c->m.path = m.s;
	index_read(c);
	return c;
}

int font_fccache_lookup(font_lib_t *lib, const char *family, font_cand_t **v)
{
	fccache_t *c = cache_get(lib);
	fcc_fam_t *f = fam_find(c, family);
	if (!f)
		f = cache_read(c, family);
	if (f) {
		if (f->n == 0 || f->n != f->want)
			return 0; /* damaged record */
		dir_memo_t dm;
		dm.len = 0;
		for (int k = 0; k < f->n; k++) {
			fcc_cand_t now = f->v[k];
			if (cand_stat(&now, &dm) != 0 || now.mtime != f->v[k].mtime ||
			    now.size != f->v[k].size || now.dirmtime != f->v[k].dirmtime ||
			    !rec_sane(&f->v[k].c))
				return 0;
		}
		if (!f->out) {
			f->out = xcalloc((size_t)(f->n ? f->n : 1), sizeof(*f->out));
			for (int k = 0; k < f->n; k++)
				f->out[k] = f->v[k].c;
		}
		*v = f->out;
		return f->n;
	}
	return 0;
}

void font_fccache_forget(font_lib_t *lib, const char *family)
{
	fccache_t *c = cache_get(lib);
	fcc_fam_t *f = fam_find(c, family);
	if (!f)
		f = cache_read(c, family);
	if (f)
		f->want = -1;   /* never matches f->n: looked up and written no more */
}

static void mkdirs(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
}

/* The temporary file a new version of path is written to (its name into
 * tmp), or NULL when it cannot be made (a read-only cache directory: then
 * nothing is formatted either). */
static FILE *tmp_open(const char *path, buf_t *tmp)
{
	buf_init(tmp);
	buf_printf(tmp, "%s.%ld.tmp", path, (long)getpid());
	mkdirs(tmp->s);
	FILE *fp = fopen(tmp->s, "wb");
	if (!fp)
		buf_done(tmp);
	return fp;
}

/* fp (tmp_open's) := a then b, then renamed to path, atomically; on error
 * path is unchanged. */
static void tmp_commit(FILE *fp, buf_t *tmp, const char *path, const buf_t *a, const buf_t *b)
{
	int bad = a->len && fwrite(a->s, 1, a->len, fp) != a->len;
	bad |= b->len && fwrite(b->s, 1, b->len, fp) != b->len;
	bad |= fclose(fp) != 0;
	if (bad || rename(tmp->s, path) != 0)
		unlink(tmp->s);
	buf_done(tmp);
}

/* " <v>" in decimal (printf's %lld was most of a cold render's writing) */
static void put_num(buf_t *b, long long v)
{
	char d[24], *e = d + sizeof(d), *q = e;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do
		*--q = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		*--q = '-';
	*--q = ' ';
	buf_add(b, q, (size_t)(e - q));
}

static void put_line(buf_t *b, char tag, long long v, const char *s)
{
	buf_putc(b, tag);
	put_num(b, v);
	buf_putc(b, ' ');
	buf_puts(b, s);
	buf_putc(b, '\n');
}

/* Written once a chain is resolved (font_fccache_flush), not at each
 * family stored. */
static void cache_write(fccache_t *c)
{
	buf_t b, r, tmp;
	FILE *fp = tmp_open(c->path, &tmp);
	if (!fp)
		return;
	buf_init(&b);
	buf_init(&r);
	buf_printf(&b, "vita-families 5 %s\n", c->key);
	for (int i = 0; i < c->n; i++) {
		fcc_fam_t *f = &c->f[i];
		if (f->n == 0 || f->n != f->want)
			continue;
		put_line(&b, 'I', (long long)r.len, f->family);
		put_line(&r, 'F', f->n, f->family);
		for (int k = 0; k < f->n; k++) {
			fcc_cand_t *x = &f->v[k];
			long long num[8] = { x->c.index, x->c.weight, x->c.slant, x->c.width,
			                     x->c.truetype, x->mtime, x->size, x->dirmtime };
			buf_putc(&r, 'C');
			for (int j = 0; j < 8; j++)
				put_num(&r, num[j]);
			buf_putc(&r, ' ');
			buf_puts(&r, x->c.file);
			buf_putc(&r, '\n');
		}
	}
	tmp_commit(fp, &tmp, c->path, &b, &r);
	buf_done(&b);
	buf_done(&r);
}

void font_fccache_store(font_lib_t *lib, const char *family, const font_cand_t *v, int n)
{
	fccache_t *c = cache_get(lib);
	if (c->off || n <= 0 || strchr(family, '\n'))
		return;
	cache_read(c, NULL);    /* the whole file is written back */
	fcc_fam_t *f = fam_find(c, family);
	if (f) {
		fam_clear(f);
		f->family = xstrdup(family);
	} else {
		f = fam_add(c, family);
	}
	dir_memo_t dm;
	dm.len = 0;
	for (int k = 0; k < n; k++) {
		fcc_cand_t x;
		memset(&x, 0, sizeof(x));
		x.c = v[k];
		x.c.file = xstrdup(v[k].file);
		if (strchr(x.c.file, '\n') || cand_stat(&x, &dm) != 0) {
			free(x.c.file);
			for (int i = 0; i < f->n; i++)
				free(f->v[i].c.file);
			f->n = 0; /* unstatable: do not cache this family */
			return;
		}
		fam_push(f, &x);
	}
	f->want = f->n;
	c->dirty = 1;
}

/* ---- what is not installed ----
 *
 * A family fontconfig does not list costs a render more than anything
 * else: fontconfig loaded in full to confirm it, then a "did you mean"
 * over every installed family. Both answers are kept in their own file,
 * misses-v2-KEY beside the families file (v1 had no M lines: its A lines
 * may hide a stand-in, so it is not read):
 *
 *   vita-misses 2 <configuration key> <environment hash>
 *   D <mtime s> <mtime ns> <dir>   (fontconfig's font directories and their
 *                                   subdirectories)
 *   A <family>                     (fontconfig lists no face of it, and
 *                                   aliases it to no installed family)
 *   M <family>\t<stand-in>         (no face of it; its metric-compatible
 *                                   alias, installed: font_chain.c)
 *   N <name>                       (no installed family is close to it)
 *   S <name>\t<family>             (the installed family closest to it)
 *
 * A font added, removed or renamed changes the mtime of its directory (a
 * new subdirectory: of its parent), which is what fontconfig itself looks
 * at to rescan a directory: the file is then ignored whole, as it is when
 * the configuration (KEY) or the environment fontconfig expands paths with
 * (HOME, XDG_*) is another. A directory changed in the second before
 * fontconfig was loaded, or since, may not be what fontconfig saw: then
 * nothing is written. Not seen: a font file overwritten in place by one of
 * another family (no directory changes; fontconfig too sees it only after
 * fc-cache -f). Fontconfig's cache directories are not in the stamp: with
 * SOURCE_DATE_EPOCH set, fontconfig 2.14 rewrites its caches on every
 * run. The answers are kept in memory in any case (one run, one
 * fontconfig). */

static uint64_t env_hash(void)
{
	static const char *const v[] = { "HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS",
	                                 "XDG_CACHE_HOME", "XDG_CONFIG_HOME" };
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = key_str(h, getenv(v[i]));
	return h;
}

static void dir_stamp(const char *dir, long long *sec, long long *nsec)
{
	struct stat st;
	*sec = *nsec = -1;
	if (stat(dir, &st) == 0) {
		*sec = (long long)st.st_mtim.tv_sec;
		*nsec = (long long)st.st_mtim.tv_nsec;
	}
}

static fcc_miss_t *miss_get(fcc_misses_t *m, const char *name, int add)
{
	for (int i = 0; i < m->n; i++)
		if (strcmp(m->v[i].name, name) == 0)
			return &m->v[i];
	if (!add)
		return NULL;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 8;
		m->v = xrealloc(m->v, (size_t)m->cap * sizeof(*m->v));
	}
	fcc_miss_t *x = &m->v[m->n++];
	memset(x, 0, sizeof(*x));
	x->name = xstrdup(name);
	return x;
}

static void stamp_add(fcc_misses_t *m, const char *dir, long long sec, long long nsec)
{
	if ((m->ndir & (m->ndir - 1)) == 0) {
		int n = m->ndir ? 2 * m->ndir : 1;
		m->dir = xrealloc(m->dir, (size_t)n * sizeof(*m->dir));
		m->sec = xrealloc(m->sec, (size_t)n * sizeof(*m->sec));
		m->nsec = xrealloc(m->nsec, (size_t)n * sizeof(*m->nsec));
	}
	m->dir[m->ndir] = xstrdup(dir);
	m->sec[m->ndir] = sec;
	m->nsec[m->ndir++] = nsec;
}

static void stamp_clear(fcc_misses_t *m)
{
	for (int i = 0; i < m->ndir; i++)
		free(m->dir[i]);
	m->ndir = 0;
}

/* One line of the file into m; -1 when it is a directory that changed. */
static int misses_line(fcc_misses_t *m, char *s)
{
	const char *p = s + 1, *rest;
	long long sec, nsec, nsec_now, sec_now;
	fcc_miss_t *x;
	char *tab;
	switch (s[0]) {
	case 'D':
		if (!rd_num(&p, -1, 1LL << 40, &sec) || !rd_num(&p, -1, 999999999, &nsec) ||
		    !(rest = rd_rest(p)))
			return -1;
		dir_stamp(rest, &sec_now, &nsec_now);
		if (sec_now != sec || nsec_now != nsec)
			return -1;
		stamp_add(m, rest, sec, nsec);
		return 0;
	case 'A':
		if ((rest = rd_rest(p)))
			miss_get(m, rest, 1)->absent = 1;
		return 0;
	case 'M':
		if (!(rest = rd_rest(p)) || !(tab = strchr(rest, '\t')) || !tab[1])
			return 0;
		*tab = '\0';
		x = miss_get(m, rest, 1);
		x->absent = 1;
		free(x->standin);
		x->standin = xstrdup(tab + 1);
		return 0;
	case 'N':
		if ((rest = rd_rest(p)))
			miss_get(m, rest, 1)->near = 1;
		return 0;
	case 'S':
		if (!(rest = rd_rest(p)) || !(tab = strchr(rest, '\t')) || !tab[1])
			return 0;
		*tab = '\0';
		x = miss_get(m, rest, 1);
		free(x->near_s);
		x->near_s = xstrdup(tab + 1);
		x->near = 2;
		return 0;
	}
	return 0;
}

/* The file, once, when first asked: nothing of it when its header names
 * another configuration or environment, or a directory changed. */
static void misses_read(fccache_t *c)
{
	fcc_misses_t *m = &c->m;
	if (m->read)
		return;
	m->read = 1;
	buf_t b, h;
	buf_init(&b);
	buf_init(&h);
	buf_printf(&h, "vita-misses 2 %s %016llx\n", c->key, (unsigned long long)env_hash());
	if (file_read(&b, m->path, 1u << 20, NULL) == 0 && b.len > h.len &&
	    memcmp(b.s, h.s, h.len) == 0) {
		fcc_misses_t got;
		memset(&got, 0, sizeof(got));
		int bad = 0;
		for (char *q = b.s + h.len, *nl; !bad && (nl = strchr(q, '\n')); q = nl + 1) {
			*nl = '\0';
			bad = misses_line(&got, q) != 0;
		}
		if (!bad && got.ndir > 0) {
			for (int i = 0; i < got.n; i++) { /* none yet in m: read comes first */
				fcc_miss_t *x = miss_get(m, got.v[i].name, 1);
				x->absent = got.v[i].absent;
				x->standin = got.v[i].standin;
				got.v[i].standin = NULL;
				x->near = got.v[i].near;
				x->near_s = got.v[i].near_s;
				got.v[i].near_s = NULL;
			}
		}
		got.path = NULL;
		misses_free(&got);
	}
	buf_done(&b);
	buf_done(&h);
}

static void misses_write(fccache_t *c)
{
	fcc_misses_t *m = &c->m;
	buf_t b, r, tmp;
	FILE *fp = c->off || m->stamped != 1 ? NULL : tmp_open(m->path, &tmp);
	if (!fp)
		return;
	buf_init(&b);
	buf_init(&r);
	buf_printf(&b, "vita-misses 2 %s %016llx\n", c->key, (unsigned long long)env_hash());
	for (int i = 0; i < m->ndir; i++)
		buf_printf(&b, "D %lld %lld %s\n", m->sec[i], m->nsec[i], m->dir[i]);
	for (int i = 0; i < m->n; i++) {
		fcc_miss_t *x = &m->v[i];
		if (x->absent && x->standin)
			buf_printf(&r, "M %s\t%s\n", x->name, x->standin);
		else if (x->absent)
			buf_printf(&r, "A %s\n", x->name);
		if (x->near == 1)
			buf_printf(&r, "N %s\n", x->name);
		else if (x->near == 2)
			buf_printf(&r, "S %s\t%s\n", x->name, x->near_s);
	}
	tmp_commit(fp, &tmp, m->path, &b, &r);
	buf_done(&b);
	buf_done(&r);
}

/* A name the file can hold: one line, no tab, no blank at either end
 * (rd_rest would not give it back the same). */
static int misses_name_ok(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < 1024 && !strpbrk(s, "\n\r\t") && s[0] != ' ' && s[n - 1] != ' ';
}

int font_fccache_absent(font_lib_t *lib, const char *family, char *standin, size_t size)
{
	fccache_t *c = cache_get(lib);
	misses_read(c);
	fcc_miss_t *x = miss_get(&c->m, family, 0);
	if (!x || !x->absent)
		return 0;
	if (x->standin)
		snprintf(standin, size, "%s", x->standin);
	return x->standin ? 2 : 1;
}

int font_fccache_near(font_lib_t *lib, const char *name, char *near, size_t size)
{
	fccache_t *c = cache_get(lib);
	misses_read(c);
	fcc_miss_t *x = miss_get(&c->m, name, 0);
	if (!x || !x->near)
		return -1;
	if (x->near == 2)
		snprintf(near, size, "%s", x->near_s);
	return x->near == 2;
}

int font_fccache_need_stamp(font_lib_t *lib)
{
	fccache_t *c = cache_get(lib);
	return !c->off && !c->m.stamped;
}

void font_fccache_stamp(font_lib_t *lib, const char *const *dirs, int n, long long since)
{
	fccache_t *c = cache_get(lib);
	fcc_misses_t *m = &c->m;
	if (c->off || m->stamped)
		return;
	misses_read(c);   /* its answers are kept; its stamp is replaced */
	stamp_clear(m);
	m->stamped = n > 0 ? 1 : 2;
	for (int i = 0; i < n; i++) {
		long long sec, nsec;
		dir_stamp(dirs[i], &sec, &nsec);
		if (sec >= since - 1 || !misses_name_ok(dirs[i]))
			m->stamped = 2;   /* changed while fontconfig was read: not written */
		stamp_add(m, dirs[i], sec, nsec);
	}
}

void font_fccache_store_absent(font_lib_t *lib, const char *family, const char *standin)
{
	fccache_t *c = cache_get(lib);
	if (!misses_name_ok(family) || (standin && !misses_name_ok(standin)))
		return;
	misses_read(c);
	fcc_miss_t *x = miss_get(&c->m, family, 1);
	x->absent = 1;
	free(x->standin);
	x->standin = standin ? xstrdup(standin) : NULL;
	c->m.dirty = 1;
}

void font_fccache_store_near(font_lib_t *lib, const char *name, const char *near)
{
	fccache_t *c = cache_get(lib);
	if (!misses_name_ok(name) || (near && !misses_name_ok(near)))
		return;
	misses_read(c);
	fcc_miss_t *x = miss_get(&c->m, name, 1);
	free(x->near_s);
	x->near_s = near ? xstrdup(near) : NULL;
	x->near = near ? 2 : 1;
	c->m.dirty = 1;
}
