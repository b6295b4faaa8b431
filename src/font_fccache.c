/* font_fccache: a small persistent cache of fontconfig family listings, so
 * a run does not pay for FcInitLoadConfigAndFonts (5-10 ms with ~2000
 * fonts installed, more than everything else vita does for a CV).
 *
 * File: $XDG_CACHE_HOME/vita/families (else $HOME/.cache/vita/families),
 * text, one record per family, written atomically (temp + rename):
 *
 *   vita-families 1
 *   F <number of C lines> <family as written in the chain>
 *   C <index> <weight> <slant> <width> <truetype> <mtime> <size> <dirmtime> <path>
 *
 * A family's record is used only while every listed file still has the
 * same mtime and size and its directory the same mtime (a font added to or
 * removed from that directory changes it); otherwise fontconfig is asked
 * again and the record replaced. Families that are not installed are never
 * cached. VITA_NO_FONT_CACHE=1 turns the cache off. Any I/O problem just
 * means no cache: the results are the same either way.
 */
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

typedef struct fccache {
	int loaded, off;
	char *path;
	fcc_fam_t *f;
	int n, cap;
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

void font_fccache_free(font_lib_t *lib)
{
	fccache_t *c = lib->fcc;
	if (!c)
		return;
	for (int i = 0; i < c->n; i++)
		fam_clear(&c->f[i]);
	free(c->f);
	free(c->path);
	free(c);
	lib->fcc = NULL;
}

static int dir_mtime(const char *path, long long *m)
{
	const char *sl = strrchr(path, '/');
	char dir[4096];
	if (!sl || (size_t)(sl - path) >= sizeof(dir))
		return -1;
	memcpy(dir, path, (size_t)(sl - path));
	dir[sl - path] = 0;
	struct stat st;
	if (stat(dir[0] ? dir : "/", &st) != 0)
		return -1;
	*m = (long long)st.st_mtime;
	return 0;
}

static int cand_stat(fcc_cand_t *k)
{
	struct stat st;
	if (stat(k->c.file, &st) != 0)
		return -1;
	k->mtime = (long long)st.st_mtime;
	k->size = (long long)st.st_size;
	return dir_mtime(k->c.file, &k->dirmtime);
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
	f->v = xrealloc(f->v, (size_t)(f->n + 1) * sizeof(*f->v));
	f->v[f->n++] = *k;
}

static void cache_parse(fccache_t *c, char *s)
{
	fcc_fam_t *cur = NULL;
	char *line = strtok(s, "\n");
	if (!line || strcmp(line, "vita-families 1") != 0)
		return;
	while ((line = strtok(NULL, "\n"))) {
		int want = 0, pos = 0;
		if (sscanf(line, "F %d %n", &want, &pos) == 1 && pos > 0 && line[pos]) {
			cur = fam_add(c, line + pos);
			cur->want = want;
			continue;
		}
		fcc_cand_t k;
		memset(&k, 0, sizeof(k));
		if (!cur || sscanf(line, "C %d %d %d %d %d %lld %lld %lld %n", &k.c.index,
		                   &k.c.weight, &k.c.slant, &k.c.width, &k.c.truetype, &k.mtime,
		                   &k.size, &k.dirmtime, &pos) != 8 || pos == 0 || !line[pos])
			continue;
		k.c.file = xstrdup(line + pos);
		fam_push(cur, &k);
	}
}

static fccache_t *cache_get(font_lib_t *lib)
{
	if (lib->fcc)
		return lib->fcc;
	fccache_t *c = xcalloc(1, sizeof(*c));
	lib->fcc = c;
	const char *off = getenv("VITA_NO_FONT_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	buf_t p;
	buf_init(&p);
	if (xdg && xdg[0] == '/')
		buf_printf(&p, "%s/vita/families", xdg);
	else if (home && home[0] == '/')
		buf_printf(&p, "%s/.cache/vita/families", home);
	if ((off && *off && strcmp(off, "0") != 0) || !p.s) {
		c->off = 1;
		buf_done(&p);
		return c;
	}
	c->path = p.s;
	buf_t d;
	buf_init(&d);
	if (file_read(&d, c->path, FILE_MAX_TEXT, NULL) == 0 && d.s)
		cache_parse(c, d.s);
	buf_done(&d);
	return c;
}

int font_fccache_lookup(font_lib_t *lib, const char *family, font_cand_t **v)
{
	fccache_t *c = cache_get(lib);
	for (int i = 0; i < c->n; i++) {
		fcc_fam_t *f = &c->f[i];
		if (strcmp(f->family, family) != 0)
			continue;
		if (f->n == 0 || f->n != f->want)
			return 0; /* damaged record */
		for (int k = 0; k < f->n; k++) {
			fcc_cand_t now = f->v[k];
			if (cand_stat(&now) != 0 || now.mtime != f->v[k].mtime ||
			    now.size != f->v[k].size || now.dirmtime != f->v[k].dirmtime)
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

static void cache_write(fccache_t *c)
{
	buf_t b, tmp;
	buf_init(&b);
	buf_init(&tmp);
	buf_puts(&b, "vita-families 1\n");
	for (int i = 0; i < c->n; i++) {
		fcc_fam_t *f = &c->f[i];
		if (f->n == 0 || f->n != f->want)
			continue;
		buf_printf(&b, "F %d %s\n", f->n, f->family);
		for (int k = 0; k < f->n; k++) {
			fcc_cand_t *x = &f->v[k];
			buf_printf(&b, "C %d %d %d %d %d %lld %lld %lld %s\n", x->c.index, x->c.weight,
			           x->c.slant, x->c.width, x->c.truetype, x->mtime, x->size,
			           x->dirmtime, x->c.file);
		}
	}
	buf_printf(&tmp, "%s.%ld.tmp", c->path, (long)getpid());
	mkdirs(tmp.s);
	FILE *fp = fopen(tmp.s, "wb");
	if (fp) {
		int bad = fwrite(b.s, 1, b.len, fp) != b.len;
		bad |= fclose(fp) != 0;
		if (bad || rename(tmp.s, c->path) != 0)
			unlink(tmp.s);
	}
	buf_done(&b);
	buf_done(&tmp);
}

void font_fccache_store(font_lib_t *lib, const char *family, const font_cand_t *v, int n)
{
	fccache_t *c = cache_get(lib);
	if (c->off || n <= 0 || strchr(family, '\n'))
		return;
	fcc_fam_t *f = NULL;
	for (int i = 0; i < c->n && !f; i++)
		if (strcmp(c->f[i].family, family) == 0)
			f = &c->f[i];
	if (f) {
		fam_clear(f);
		f->family = xstrdup(family);
	} else {
		f = fam_add(c, family);
	}
	for (int k = 0; k < n; k++) {
		fcc_cand_t x;
		memset(&x, 0, sizeof(x));
		x.c = v[k];
		x.c.file = xstrdup(v[k].file);
		if (strchr(x.c.file, '\n') || cand_stat(&x) != 0) {
			free(x.c.file);
			for (int i = 0; i < f->n; i++)
				free(f->v[i].c.file);
			f->n = 0; /* unstatable: do not cache this family */
			return;
		}
		fam_push(f, &x);
	}
	f->want = f->n;
	cache_write(c);
}
