/* main: the command line (see ../shared/spec/cli.md, docs in README.md).
 *
 *   vita render PROFILE [-o OUT|-] [-l LAYOUT] [--lang CODE] [--tags T,..]
 *               [--set KEY=VALUE].. [--dump=model|layout] [--strict] [--reproducible]
 *   vita watch PROFILE [render options] [--exec CMD]
 *   vita batch PROFILE... -d DIR [-j N] [render options]
 *   vita check PROFILE...
 *   vita fonts [PROFILE] [-l LAYOUT]
 *   vita layouts
 *   vita new NAME [-o FILE]
 *
 * The only file that prints diagnostics. Exit: 0 ok, 1 invalid input,
 * 2 usage, 3 system resource.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <getopt.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "arena.h"
#include "buf.h"
#include "datadir.h"
#include "deps.h"
#include "err.h"
#include "font.h"
#include "html.h"
#include "layout.h"
#include "locale.h"
#include "model.h"
#include "ofile.h"
#include "page.h"
#include "pdf.h"
#include "profile.h"
#include "starter.h"
#include "style.h"
#include "suggest.h"
#include "version.h"
#include "watch.h"

static const char usage_text[] =
	"usage: vita COMMAND [OPTIONS]\n"
	"\n"
	"commands:\n"
	"  render PROFILE     typeset one CV (PROFILE.pdf unless -o)\n"
	"  watch PROFILE      render, then again whenever a file it reads changes\n"
	"  batch PROFILE...   typeset many CVs into -d DIR, -j N at a time\n"
	"  check PROFILE...   validate profiles; report every error\n"
	"  fonts [PROFILE]    the font chains, their files, and characters no font has\n"
	"  layouts [--keys]   the layouts available (--keys: every layout key)\n"
	"  locales            the languages available for --lang\n"
	"  new NAME           a commented starter profile for NAME (stdout, or -o FILE)\n"
	"  schema             the JSON Schema of profiles (docs/vita.schema.json)\n"
	"\n"
	"options:\n"
	"  -o, --output FILE  output PDF ('-' for stdout)\n"
	"  -l, --layout NAME  layout name or file (default: academic)\n"
	"      --lang CODE    pick translated fields and the words (months, footer) in\n"
	"                     this language: en, zh, zh-Hant, ja, ko, de, fr, ... (vita locales)\n"
	"      --tags T,...   keep untagged items and items with one of these tags\n"
	"      --set K=V      override a layout key (repeatable)\n"
	"      --dump=WHAT    print the model or the page list instead of a PDF\n"
	"      --strict       characters no font can draw, and BibTeX entries\n"
	"                     that cannot be used, are errors\n"
	"      --reproducible fixed dates (as SOURCE_DATE_EPOCH=0 would)\n"
	"      --pdf=plain    an untagged PDF (default tagged: PDF/UA-1 and PDF/A-2)\n"
	"      --deps FILE    write a Make-format depfile of the files the PDF is made from\n"
	"      --force        write a PDF to stdout even when it is a terminal\n"
	"      --exec CMD     watch: run CMD (sh -c) after each good render\n"
	"      --format F     pdf (default), html (a page), html-fragment (to include\n"
	"                     in a site's template) or json (the model, for site generators)\n"
	"      --changed      batch: skip CVs whose output is newer than all their inputs\n"
	"      --book FILE    batch: also one PDF of every CV, an outline entry per person\n"
	"      --untrusted    confine the profile: its files inside its folder, layouts\n"
	"                     and fonts only from vita's (default for batch; docs/security.md)\n"
	"      --trusted      batch: do not confine the profiles\n"
	"  -d, --dir DIR      batch: output directory\n"
	"  -j, --jobs N       batch: parallel jobs (default: number of CPUs)\n"
	"  -h, --help         this help\n"
	"  -V, --version      the version, commit and libraries\n"
	"\n"
	"exit status: 0 ok, 1 invalid input, 2 usage error, 3 system failure\n";

static const char render_help[] =
	"usage: vita render PROFILE|- [-o OUT.pdf|-] [-l LAYOUT] [--lang CODE]\n"
	"                   [--tags T,...] [--set KEY=VALUE]... [--dump=model|layout]\n"
	"                   [--strict] [--reproducible] [--deps FILE] [--force]\n"
	"                   [--pdf=tagged|plain]\n"
	"\n"
	"Typesets PROFILE into a PDF. OUT defaults to PROFILE with .pdf; PROFILE '-'\n"
	"reads stdin (relative paths then resolve against the working directory) and\n"
	"writes stdout unless -o is given. A PDF goes to a terminal only with --force.\n"
	"The PDF is written to a hidden temporary file beside OUT (.OUT.XXXXXX),\n"
	"renamed into place when complete and removed on any failure or signal.\n"
	"--deps FILE writes a Make-format list of every file the PDF was made from.\n"
	"With SOURCE_DATE_EPOCH set (or --reproducible) the output is byte-identical\n"
	"for the same inputs.\n";

enum { FMT_PDF, FMT_HTML, FMT_FRAGMENT, FMT_JSON };
static const char *const fmt_names[] = {"pdf", "html", "html-fragment", "json"};
static const char *const fmt_ext[] = {"pdf", "html", "html", "json"};

typedef struct opts {
	const char *out, *layout, *lang, *dump, *dir;
	const char *deps;          /* --deps FILE: a Make-format depfile */
	const char *exec;          /* watch --exec CMD: run after each good render */
	const char *book;          /* batch --book FILE: every CV in one PDF */
	int force;                 /* --force: a PDF to a terminal */
	int changed;               /* batch --changed: skip CVs newer than their inputs */
	int format;                /* --format: FMT_* */
	const char **sets; int nsets;
	const char **tags; int ntags;
	int strict, reproducible, jobs, keys;
	int untrusted, trusted;    /* --untrusted (batch: unless --trusted) */
	int plain;                 /* --pdf=plain: untagged, no PDF/A or UA claims */
	char **args; int nargs;
} opts_t;

static int usage_error(const char *fmt, const char *arg)
{
	fputs("vita: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'vita --help'.\n", stderr);
	return 2;
}

/* SOURCE_DATE_EPOCH: seconds from 1970 to at most 9999-12-31T23:59:59Z
 * (PDF dates and the footer's year have four digits). Anything else is a
 * usage error before any work, never a wrapped or overflowed date. */
#define EPOCH_MAX 253402300799LL

static int epoch_check(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	if (!s || !*s)
		return 0;
	int ok = strspn(s, "0123456789") == strlen(s) && strlen(s) <= 12;
	if (ok) {
		errno = 0;
		long long v = strtoll(s, NULL, 10);
		ok = errno == 0 && v <= EPOCH_MAX;
	}
	if (ok)
		return 0;
	fprintf(stderr, "vita: SOURCE_DATE_EPOCH must be a number of seconds from 0 to %lld "
	        "(9999-12-31), got '%.40s'\n", EPOCH_MAX, s);
	return -1;
}

static long long now_epoch(const opts_t *o)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	if (s && *s)
		return strtoll(s, NULL, 10);   /* checked by epoch_check */
	if (o->reproducible)
		return 0;
	return (long long)time(NULL);
}

static void print_errs(const errs_t *e)
{
	errs_print(stderr, e);
	int max = e->max ? e->max : 100;
	if (e->nerrors > max)
		fprintf(stderr, "vita: %d more errors not shown\n", e->nerrors - max);
}

/* "-" reads the profile from stdin; its relative paths then resolve
 * against the working directory. */
static int load_model(arena_t *a, const char *path, const opts_t *o, model_t **m, errs_t *e)
{
	profile_opts_t po = {o->lang, o->tags, o->ntags, o->untrusted, o->strict};
	if (strcmp(path, "-"))
		return profile_load(a, path, &po, m, e);
	buf_t b;
	buf_init(&b);
	char chunk[65536];
	ssize_t n;
	while ((n = read(STDIN_FILENO, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			buf_done(&b);
			return err_sys(e, "<stdin>", "cannot read the profile: %s", strerror(errno));
		}
		buf_add(&b, chunk, (size_t)n);
	}
	int rc = profile_load_mem(a, "<stdin>", b.s ? b.s : "", b.len, &po, m, e);
	buf_done(&b);
	return rc;
}

/* What a batch worker keeps across its CVs: the font library (faces,
 * shaping plans, chains), the hyphenation patterns, and the parsed layouts
 * and locales (before the profile's overrides, which go on a copy). NULL
 * members (and a NULL keep_t) mean a render of its own. None of it
 * changes a PDF: a CV from a batch is byte for byte its fresh `vita
 * render` (tests/scripts/batch.sh). Bounded: KEEP_MAX layouts and as many
 * locales; more are parsed per CV. */
enum { KEEP_MAX = 16 };

typedef struct kept {
	char *key;        /* how it was found: name or code, folder, dirs */
	void *obj;        /* style_t or vlocale_t */
	char **deps;      /* the files it read, recorded again on every use */
	int ndeps;
} kept_t;

typedef struct keep {
	font_lib_t *lib;
	hyph_set_t *hyphs;
	datadir_t *dirs[2];   /* vita's layouts and locales (no profile folder) */
	kept_t styles[KEEP_MAX], locales[KEEP_MAX];
	int nstyles, nlocales;
} keep_t;

static void kept_key(buf_t *key, unsigned flags, const char *name, const char *where,
                     const char *const *dirs)
{
	/* "%u\n%s\n%.*s\n" and "%s\n" per dir, without printf (per CV in a batch) */
	const char *sl = where ? strrchr(where, '/') : NULL;
	char num[16];
	int n = 0;
	do
		num[n++] = (char)('0' + flags % 10);
	while (flags /= 10);
	while (n)
		buf_putc(key, num[--n]);
	buf_putc(key, '\n');
	buf_puts(key, name);
	buf_putc(key, '\n');
	buf_add(key, where ? where : "", sl ? (size_t)(sl - where) : 0);
	buf_putc(key, '\n');
	for (int i = 0; dirs[i]; i++) {
		buf_puts(key, dirs[i]);
		buf_putc(key, '\n');
	}
}

/* The entry for key, its files recorded as inputs of this render; NULL. */
static kept_t *kept_find(kept_t *v, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].key, key)) {
			for (int d = 0; d < v[i].ndeps; d++)
				deps_add(v[i].deps[d]);
			return &v[i];
		}
	return NULL;
}

/* Keep obj, loaded with no message since deps entry d0; NULL when full. */
static kept_t *kept_add(kept_t *v, int *n, buf_t *key, void *obj, int d0)
{
	if (*n >= KEEP_MAX)
		return NULL;
	kept_t *c = &v[(*n)++];
	c->key = key->s;
	buf_init(key);
	c->obj = obj;
	c->ndeps = deps_count() - d0;
	c->deps = xcalloc((size_t)(c->ndeps ? c->ndeps : 1), sizeof(*c->deps));
	for (int d = 0; d < c->ndeps; d++)
		c->deps[d] = xstrdup(deps_get(d0 + d));
	return c;
}

static void kept_free(kept_t *v, int n, void (*fr)(void *))
{
	for (int i = 0; i < n; i++) {
		fr(v[i].obj);
		free(v[i].key);
		for (int d = 0; d < v[i].ndeps; d++)
			free(v[i].deps[d]);
		free(v[i].deps);
	}
}

static void free_style(void *p) { style_free(p); }
static void free_locale(void *p) { locale_free(p); }

static void keep_free(keep_t *k)
{
	font_lib_free(k->lib);
	hyph_set_free(k->hyphs);
	kept_free(k->styles, k->nstyles, free_style);
	kept_free(k->locales, k->nlocales, free_locale);
	free(k->dirs[0]);
	free(k->dirs[1]);
	memset(k, 0, sizeof(*k));
}

/* style_open through the keep: a layout found the same way is parsed once.
 * Only a clean load is kept (one with messages is loaded again per CV). */
static style_t *open_style(const char *name, const char *where, int line, int col,
                           const char *const *dirs, unsigned flags, keep_t *k, errs_t *e)
{
	if (!k)
		return style_open(name, where, line, col, dirs, flags, e);
	buf_t key;
	buf_init(&key);
	kept_key(&key, flags, name, where, dirs);
	kept_t *c = kept_find(k->styles, k->nstyles, key.s);
	style_t *s = NULL;
	if (c) {
		s = style_dup(c->obj);
	} else {
		int d0 = deps_count(), n0 = e->n;
		s = style_open(name, where, line, col, dirs, flags, e);
		if (s && e->n == n0 && kept_add(k->styles, &k->nstyles, &key, s, d0))
			s = style_dup(s);
	}
	buf_done(&key);
	return s;
}

/* locale_load through the keep, the same way. */
static vlocale_t *open_locale(const char *code, const char *const *dirs, const char *where,
                              int line, int col, keep_t *k, errs_t *e)
{
	if (!k)
		return locale_load(code, dirs, where, line, col, e);
	buf_t key;
	buf_init(&key);
	kept_key(&key, 0, code, NULL, dirs);
	kept_t *c = kept_find(k->locales, k->nlocales, key.s);
	vlocale_t *l = NULL;
	if (c) {
		l = locale_dup(c->obj);
	} else {
		int d0 = deps_count(), n0 = e->n;
		l = locale_load(code, dirs, where, line, col, e);
		if (l && e->n == n0 && kept_add(k->locales, &k->nlocales, &key, l, d0))
			l = locale_dup(l);
	}
	buf_done(&key);
	return l;
}

/* The search path for sub (kind 0 "layouts", 1 "locales"): in tmp, or
 * the keep's when there is no profile folder in it (every CV's then). */
static const datadir_t *data_dirs(datadir_t *tmp, int kind, const char *dir, keep_t *k)
{
	const char *sub = kind ? "locales" : "layouts";
	if (!k || dir) {
		datadir_get(tmp, sub, dir);
		return tmp;
	}
	if (!k->dirs[kind]) {
		k->dirs[kind] = xmalloc(sizeof(datadir_t));
		datadir_get(k->dirs[kind], sub, NULL);
	}
	return k->dirs[kind];
}

/* Layout for a model: -l beats the profile's `layout:`; then the
 * profile's overrides, then --set. */
static style_t *load_style(const model_t *m, const opts_t *o, keep_t *k, errs_t *e)
{
	datadir_t tmp;
	const datadir_t *d = data_dirs(&tmp, 0, m && !o->untrusted ? m->dir : NULL, k);
	const char *name = o->layout ? o->layout : m && m->layout ? m->layout : "academic";
	/* the profile's layout is found beside the profile (and, untrusted,
	   only among vita's); -l beside the working directory */
	int own = !o->layout && m && m->layout;
	style_t *s = open_style(name, own ? m->file : NULL, own ? m->layout_line : 0,
	                        own ? m->layout_col : 0, d->dirs,
	                        own && o->untrusted ? STYLE_CONFINED : 0, k, e);
	if (!s)
		return NULL;
	int rc = 0;
	for (int i = 0; m && i < m->nlayout_set; i++)
		if (style_set(s, m->layout_set[i], m->file,
		              m->layout_set_at ? m->layout_set_at[i].line : m->layout_line,
		              m->layout_set_at ? m->layout_set_at[i].col : m->layout_col, e))
			rc = -1;
	for (int i = 0; i < o->nsets; i++)
		if (style_set(s, o->sets[i], "--set", 0, 0, e))
			rc = -1;
	if (rc || style_check(s, e)) {
		style_free(s);
		return NULL;
	}
	return s;
}

/* The locale: --lang, else the profile's lang, else the layout's; then
 * the layout's words (locale.KEY, footer.text, ...) on top. */
static vlocale_t *load_locale(const model_t *m, const style_t *s, const opts_t *o, keep_t *k,
                              errs_t *e)
{
	datadir_t tmp;
	const char *const *dirs = data_dirs(&tmp, 1, m && !o->untrusted ? m->dir : NULL, k)->dirs;
	const char *code = s->lang ? s->lang : "en", *where = s->file;
	int line = 0, col = 0;
	if (o->lang) {
		code = o->lang;
		where = "--lang";
	} else if (m && m->lang) {
		code = m->lang;
		where = m->file;
		line = m->at_lang.line;
		col = m->at_lang.col;
	}
	vlocale_t *l = open_locale(code, dirs, where, line, col, k, e);
	if (!l)
		return NULL;
	for (int i = 0; i < s->nwords; i++) {
		const style_word_t *w = &s->words[i];
		if (locale_set(l, w->key, w->value, w->file, w->line, w->col, e)) {
			locale_free(l);
			return NULL;
		}
	}
	return l;
}

/* An unknown --lang is a usage error, found before any profile is read. */
static int check_lang(const opts_t *o)
{
	if (!o->lang)
		return 0;
	datadir_t d;
	char dir[PATH_MAX] = ".";
	if (o->nargs > 0) {
		const char *sl = strrchr(o->args[0], '/');
		if (sl)
			snprintf(dir, sizeof(dir), "%.*s", (int)(sl - o->args[0]), o->args[0]);
	}
	datadir_get(&d, "locales", dir);
	if (locale_exists(o->lang, d.dirs))
		return 0;
	const char *s = locale_suggest(o->lang, d.dirs);
	if (s) {
		fprintf(stderr, "vita: unknown --lang '%.40s'; did you mean '%s'?\n", o->lang, s);
		fputs("Try 'vita locales'.\n", stderr);
		return 2;
	}
	return usage_error("unknown --lang '%.40s' (see 'vita locales')", o->lang);
}

static font_lib_t *open_fonts(const model_t *m, errs_t *e)
{
	datadir_t d;
	datadir_get(&d, "fonts", m ? m->dir : NULL);
	return font_lib_new(d.dirs, e);
}

static char *default_out(const char *profile, const char *dir, const char *ext)
{
	const char *base = dir ? strrchr(profile, '/') : NULL;
	base = base ? base + 1 : profile;
	size_t n = strlen(base);
	const char *dot = strrchr(base, '.');
	if (dot && !strchr(dot, '/'))
		n = (size_t)(dot - base);
	buf_t b;
	buf_init(&b);
	if (dir)
		buf_printf(&b, "%s/", dir);
	buf_add(&b, base, n);
	buf_printf(&b, ".%s", ext);
	return b.s;
}

/* An output must not replace one of the files it is made from (-o cv.yaml,
 * -o photo.png): compared by device and inode with what the render read.
 * The files from deps entry fresh on were read once by this process and
 * kept (a batch worker's); see ofile_is_one_of. */
static int output_is_input(const char *out, int fresh, errs_t *e)
{
	int n = deps_count(), which;
	const char **v = xcalloc((size_t)(n ? n : 1), sizeof(*v));
	for (int i = 0; i < n; i++)
		v[i] = deps_get(i);
	int hit = ofile_is_one_of(out, v, n, fresh, &which);
	if (hit)
		err_at(e, out, 0, 0, "the output is %s, an input of this CV; refusing to replace it",
		       v[which]);
	free(v);
	return hit;
}

/* The depfile (--deps): "OUT: every input" for make and ninja, written
 * through ofile like the PDF, after it. */
static int write_depfile(ofile_t *df, const char *name, const char *out, errs_t *e)
{
	buf_t b;
	buf_init(&b);
	deps_make_text(&b, out);
	int ok = buf_write_fd(ofile_fd(df), b.s, b.len) == 0;
	buf_done(&b);
	if (!ok)
		err_sys(e, name, "cannot write the dependency file: %s", strerror(errno));
	return ofile_close(df, ok, e) || !ok ? -1 : 0;
}

/* One CV on its way through the stages. */
typedef struct job {
	arena_t *a;
	model_t *m;
	style_t *s;
	vlocale_t *loc;
	font_lib_t *lib, *own_lib;
	page_doc_t *doc;
	hyph_set_t *hyphs;
	int fresh;        /* deps entries before it are the profile's own files */
} job_t;

/* cmd_render's one render is the process's last work: its job is left to
 * exit (faces, shaping plans, the page list: 0.2 M instructions of frees
 * on a 2-page CV), reachable from here so that leak checkers see it held
 * (volatile: the stores are kept though nothing reads them). */
static int job_is_last;
static volatile job_t last_job;

static void job_free(job_t *j)
{
	page_doc_free(j->doc);
	font_lib_free(j->own_lib);
	style_free(j->s);
	locale_free(j->loc);
	arena_free(j->a);
	memset(j, 0, sizeof(*j));
}

/* Profile, layout, locale and fonts (kept ones, or a library of its own). */
static int job_load(job_t *j, const char *profile, const opts_t *o, keep_t *k, errs_t *e)
{
	memset(j, 0, sizeof(*j));
	j->hyphs = k ? k->hyphs : NULL;
	j->a = arena_new();
	j->fresh = INT_MAX;
	if (load_model(j->a, profile, o, &j->m, e))
		return -1;
	if (k)   /* what follows (layouts, locales, fonts, patterns) is kept */
		j->fresh = deps_count();
	if (o->dump && !strcmp(o->dump, "model"))
		return 0;
	if (!(j->s = load_style(j->m, o, k, e)) || !(j->loc = load_locale(j->m, j->s, o, k, e)))
		return -1;
	locale_smart_model(j->loc, j->m, j->a);   /* ’ “ ” – … in every text field */
	j->lib = k ? k->lib : NULL;
	if (!j->lib && !(j->lib = j->own_lib = open_fonts(o->untrusted ? NULL : j->m, e)))
		return -1;
	return 0;
}

static int job_layout(job_t *j, const opts_t *o, errs_t *e)
{
	layout_opts_t lo = {now_epoch(o), o->strict, j->loc, j->hyphs};
	if (!(j->doc = layout_render(j->m, j->s, j->lib, &lo, e)))
		return -1;
	return e->nerrors ? -1 : 0;
}

/* --changed: out exists and is newer than every file read so far (the
 * fonts' chains and the hyphenation patterns are looked up first so that
 * they are on the list). */
static int up_to_date(const job_t *j, const char *out, errs_t *e)
{
	struct stat so, si;
	if (stat(out, &so))
		return 0;
	const char *chains[2] = {j->s->font_body, j->s->font_heading};
	for (int i = 0; i < 2; i++)
		if (chains[i] && !font_chain_get(j->lib, chains[i], e))
			return 0;
	layout_hyph_deps(j->m, j->s, j->hyphs);   /* the .dic is an input too */
	for (int i = 0; i < deps_count(); i++) {
		if (stat(deps_get(i), &si))
			return 0;
		if (si.st_mtim.tv_sec > so.st_mtim.tv_sec ||
		    (si.st_mtim.tv_sec == so.st_mtim.tv_sec && si.st_mtim.tv_nsec >= so.st_mtim.tv_nsec))
			return 0;
	}
	return 1;
}

enum { RENDER_SKIPPED = -1 };   /* render_one: --changed found it up to date */

/* A chain's families as a CSS font-family list, with a generic family. */
static void css_fonts(font_lib_t *lib, const char *chain, buf_t *b, errs_t *e)
{
	font_chain_t *c = chain ? font_chain_get(lib, chain, e) : NULL;
	const char *fam[16];
	int n = c ? font_chain_families(c, fam, 16) : 0;
	for (int i = 0; i < n; i++) {
		buf_putc(b, '"');
		for (const char *p = fam[i]; *p; p++)
			if (*p != '"' && *p != '\\' && *p != ';' && *p != '<' && *p != '}')
				buf_putc(b, *p);
		buf_puts(b, "\", ");
	}
	buf_puts(b, chain && strstr(chain, "sans") ? "sans-serif" : "serif");
}

/* --format html, html-fragment, json: from the model, layout and locale
 * (no layout run, no PDF). */
static int write_web(const job_t *j, const char *out, const opts_t *o, errs_t *e)
{
	buf_t b, fb, fh;
	buf_init(&b);
	buf_init(&fb);
	buf_init(&fh);
	int rc = 0;
	if (o->format == FMT_JSON) {
		html_json(j->m, j->loc, &b);
	} else {
		css_fonts(j->lib, j->s->font_body, &fb, e);
		css_fonts(j->lib, j->s->font_heading, &fh, e);
		char gen[64];
		snprintf(gen, sizeof(gen), "vita %s", version_release);
		html_opts_t ho = {o->format == FMT_FRAGMENT, fb.s, fh.s, gen, now_epoch(o)};
		rc = html_write(j->m, j->s, j->loc, &ho, &b, e);
	}
	ofile_t *f = rc ? NULL : ofile_open(out, fmt_names[o->format], e);
	if (f) {
		int ok = buf_write_fd(ofile_fd(f), b.s, b.len) == 0;
		if (!ok)
			err_sys(e, out, "cannot write the %s: %s", fmt_names[o->format], strerror(errno));
		rc = ofile_close(f, ok, e) || !ok ? -1 : 0;
	} else {
		rc = -1;
	}
	buf_done(&b);
	buf_done(&fb);
	buf_done(&fh);
	return rc;
}

/* Render one profile with an open font library (NULL: open one). The
 * files it read stay recorded in deps until the next render. Returns the
 * exit code, or RENDER_SKIPPED. */
static int render_one(const char *profile, const char *out, const opts_t *o, keep_t *k,
                      errs_t *e)
{
	job_t j;
	ofile_t *df = NULL;
	int code = 0;

	deps_start();
	if (job_load(&j, profile, o, k, e))
		goto fail;
	if (o->dump && !strcmp(o->dump, "model")) {
		model_dump(j.m, stdout);
		goto done;
	}
	if (o->changed && !o->dump && up_to_date(&j, out, e)) {
		code = RENDER_SKIPPED;
		goto done;
	}
	if (o->format != FMT_PDF && !o->dump) {
		if (output_is_input(out, j.fresh, e) || (o->deps && output_is_input(o->deps, j.fresh, e))) {
			code = ERR_USAGE;
			goto done;
		}
		if (o->deps && !(df = ofile_open(o->deps, "the dependency file", e)))
			goto fail;
		if (write_web(&j, out, o, e))
			goto fail;
		goto depfile;
	}
	if (job_layout(&j, o, e))
		goto fail;
	if (o->dump) {
		if (strcmp(o->dump, "layout")) {
			code = usage_error("unknown --dump '%s' (model or layout)", o->dump);
			goto done;
		}
		page_dump(j.doc, stdout);
		goto done;
	}
	if (output_is_input(out, j.fresh, e) || (o->deps && output_is_input(o->deps, j.fresh, e))) {
		code = ERR_USAGE;
		goto done;
	}
	if (o->deps && !(df = ofile_open(o->deps, "the dependency file", e)))
		goto fail;
	/* the subsets need a few parts of the font files, the PDF only the
	   subsets (in j.doc): what layout read goes first, for a lower peak */
	if (j.own_lib)
		font_lib_drop_faces(j.own_lib);
	if (layout_subset(j.doc, j.lib, e))
		goto fail;
	if (j.own_lib)
		font_lib_drop_faces(j.own_lib);
	pdf_opts_t po = {o->plain};
	if (pdf_write_opts(j.doc, out, &po, e))
		goto fail;
depfile:
	if (df) {
		ofile_t *d = df;
		df = NULL;
		if (write_depfile(d, o->deps, out, e))
			goto fail;
	}
	goto done;
fail:
	code = errs_code(e);
	if (!code)
		code = 1;
done:
	if (df)
		ofile_close(df, 0, e);
	if (job_is_last)
		last_job = j;
	else
		job_free(&j);
	return code;
}

/* A PDF is binary: to a terminal only when asked. */
static int refuse_tty(const char *out, const opts_t *o)
{
	if (strcmp(out, "-") || o->force || o->dump || o->format != FMT_PDF ||
	    !isatty(STDOUT_FILENO))
		return 0;
	return usage_error("refusing to write a PDF to a terminal; redirect stdout, or add --force%s",
	                   "");
}

static int cmd_render(const opts_t *o)
{
	if (o->nargs != 1)
		return usage_error("render takes exactly one PROFILE%s", "");
	const char *profile = o->args[0];
	/* a profile from stdin goes to stdout unless -o says otherwise */
	char *def = o->out || !strcmp(profile, "-") ? NULL : default_out(profile, NULL, fmt_ext[o->format]);
	const char *out = o->out ? o->out : def ? def : "-";
	int code = refuse_tty(out, o);
	if (!code && o->deps && !strcmp(out, "-"))
		code = usage_error("--deps needs an output file (-o FILE), not stdout%s", "");
	if (!code) {
		errs_t e;
		errs_init(&e);
		job_is_last = 1;
		pdf_one_document();
		code = render_one(profile, out, o, NULL, &e);
		print_errs(&e);
		errs_done(&e);
	}
	deps_stop();
	free(def);
	return code;
}

/* The files the last render read, plus the profile itself (watched even
 * when it could not be read). */
static void watch_inputs(watch_t *w, const char *profile, errs_t *e)
{
	int n = deps_count();
	const char **v = xcalloc((size_t)n + 1, sizeof(*v));
	v[0] = profile;
	for (int i = 0; i < n; i++)
		v[i + 1] = deps_get(i);
	watch_files(w, v, n + 1, e);
	free(v);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)((t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000);
}

/* One round of watch: render, report, run --exec after a good render. */
/* Run CMD with /bin/sh -c and wait for it. Not system(): it ignores SIGINT
 * in the caller while CMD runs, so a Ctrl-C that lands then would be lost
 * and the watch would go on. */
static int run_shell(const char *cmd)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

static int watch_render(const char *profile, const char *out, const opts_t *o, watch_t *w)
{
	errs_t e;
	errs_init(&e);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int code = render_one(profile, out, o, NULL, &e);
	print_errs(&e);
	if (code == 0)
		fprintf(stderr, "vita: wrote %s (%ld ms)\n", out, ms_since(&t0));
	else
		fprintf(stderr, "vita: %s not updated; fix the error%s and save again\n", out,
		        e.nerrors == 1 ? "" : "s");
	errs_clear(&e);
	watch_inputs(w, profile, &e); /* also after a failure: what was read so far */
	print_errs(&e);
	errs_done(&e);
	fflush(stderr);
	if (code == 0 && o->exec) {
		int st = run_shell(o->exec);
		if (st != 0)
			fprintf(stderr, "vita: --exec '%s' failed (status %d)\n", o->exec,
			        WIFEXITED(st) ? WEXITSTATUS(st) : st);
	}
	return code;
}

/* watch: render, then again whenever a file the renders read changes,
 * until interrupted (Ctrl-C: the signal handler removes any temporary
 * file; the last good PDF stays). A broken save prints its located errors
 * and leaves the PDF as it was, since a PDF is replaced only when whole. */
static int cmd_watch(const opts_t *o)
{
	if (o->nargs != 1)
		return usage_error("watch takes exactly one PROFILE%s", "");
	const char *profile = o->args[0];
	if (!strcmp(profile, "-"))
		return usage_error("watch needs a PROFILE file, not stdin%s", "");
	if (o->out && !strcmp(o->out, "-"))
		return usage_error("watch writes a file; -o - is not allowed%s", "");
	if (o->dump)
		return usage_error("watch writes a PDF; --dump is not allowed%s", "");
	char *def = o->out ? NULL : default_out(profile, NULL, fmt_ext[o->format]);
	const char *out = o->out ? o->out : def;
	errs_t e;
	errs_init(&e);
	watch_t *w = watch_new(&e);
	int code = 0;
	if (!w)
		goto done;
	if (watch_render(profile, out, o, w) == ERR_USAGE)
		goto done;
	fprintf(stderr, "vita: watching %s and the files it reads (Ctrl-C to stop)\n", profile);
	while (watch_wait(w, 30, &e) > 0) {
		fprintf(stderr, "vita: %s changed\n", watch_changed(w));
		if (watch_render(profile, out, o, w) == ERR_USAGE)
			break;
	}
done:
	print_errs(&e);
	code = errs_code(&e);
	errs_done(&e);
	watch_free(w);
	deps_stop();
	free(def);
	return code;
}

static int cmd_check(const opts_t *o)
{
	if (o->nargs < 1)
		return usage_error("check needs at least one PROFILE%s", "");
	int code = 0;
	for (int i = 0; i < o->nargs; i++) {
		errs_t e;
		errs_init(&e);
		/* everything render does, the PDF included, into /dev/null: check
		   accepts exactly what render accepts */
		int c = render_one(o->args[i], "/dev/null", o, NULL, &e);
		print_errs(&e);
		if (c > code)
			code = c;
		errs_done(&e);
	}
	return code;
}

static int cmd_fonts(const opts_t *o)
{
	if (o->nargs > 1)
		return usage_error("fonts takes at most one PROFILE%s", "");
	errs_t e;
	errs_init(&e);
	arena_t *a = arena_new();
	model_t *m = NULL;
	style_t *s = NULL;
	font_lib_t *lib = NULL;
	int code = 0;
	if (o->nargs == 1 && load_model(a, o->args[0], o, &m, &e))
		goto out;
	if (!(s = load_style(m, o, NULL, &e)) || !(lib = open_fonts(m, &e)))
		goto out;
	const char *chains[2] = {s->font_body, s->font_heading};
	for (int i = 0; i < 2; i++) {
		if (i == 1 && !strcmp(chains[1], chains[0]))
			break;
		font_chain_t *c = font_chain_get(lib, chains[i], &e);
		if (!c)
			goto out;
		printf("chain %s (%s)\n", font_chain_name(c), i == 0 ? "body" : "heading");
		font_chain_describe(c, stdout);
	}
	if (m) {
		int n = layout_coverage(m, s, lib, o->strict, &e);
		if (n == 0)
			printf("every character of %s has a font\n", m->file);
		else
			printf("%d character%s of %s have no font (listed on stderr)\n", n,
			       n == 1 ? "" : "s", m->file);
	}
out:
	print_errs(&e);
	code = errs_code(&e);
	if (!code && e.nerrors)
		code = 1;
	font_lib_free(lib);
	style_free(s);
	arena_free(a);
	errs_done(&e);
	return code;
}

static int cmd_layouts(const opts_t *o)
{
	if (o->keys) {
		style_keys(stdout);
		return 0;
	}
	datadir_t d;
	datadir_get(&d, "layouts", NULL);
	style_list(d.dirs, stdout);
	return 0;
}

static int cmd_locales(const opts_t *o)
{
	(void)o;
	datadir_t d;
	datadir_get(&d, "locales", NULL);
	locale_list(d.dirs, stdout);
	return 0;
}

/* schema: the JSON Schema of the profile format (docs/vita.schema.json). */
static int cmd_schema(const opts_t *o)
{
	if (o->nargs)
		return usage_error("schema takes no arguments%s", "");
	buf_t b;
	buf_init(&b);
	errs_t e;
	errs_init(&e);
	int code = 0;
	if (profile_schema(&b, &e)) {
		print_errs(&e);
		code = 1;
	} else if (fwrite(b.s, 1, b.len, stdout) != b.len) {
		code = 3;
	}
	errs_done(&e);
	buf_done(&b);
	return code;
}

/* new: the starter profile on stdout, or in a new file -o FILE (never
 * over an existing one). */
static int cmd_new(const opts_t *o)
{
	if (o->nargs != 1)
		return usage_error("new takes exactly one NAME%s", "");
	buf_t b;
	buf_init(&b);
	if (starter_profile(&b, o->args[0], datadir_find("vita.schema.json"))) {
		buf_done(&b);
		return usage_error("NAME must be valid UTF-8 and not blank%s", "");
	}
	int code = 0;
	if (!o->out || !strcmp(o->out, "-")) {
		if (fwrite(b.s, 1, b.len, stdout) != b.len || fflush(stdout))
			code = 3;
	} else {
		int fd = open(o->out, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd < 0) {
			fprintf(stderr, "%s: error: %s\n", o->out,
			        errno == EEXIST ? "already exists; not overwritten" : strerror(errno));
			code = 3;
		} else if (buf_write_fd(fd, b.s, b.len) || close(fd)) {
			fprintf(stderr, "%s: error: cannot write: %s\n", o->out, strerror(errno));
			unlink(o->out);
			code = 3;
		} else {
			fprintf(stderr, "vita: wrote %s; render it with: vita render %s\n", o->out, o->out);
		}
	}
	buf_done(&b);
	return code;
}

/* ---- batch ----
 *
 * The parent names every output first (the -o template), refuses two CVs
 * mapped to one file before anything is rendered, then forks -j workers.
 * Each worker renders its share with one font library and sends a record
 * per CV on its own pipe: "index code len deplen\n", the CV's messages
 * (len bytes, as they would be printed) and its depfile rule (deplen
 * bytes). The parent prints messages above the progress bar, then a
 * summary table, the depfile (--deps) and the lab book (--book).
 */

enum { B_PENDING, B_RENDERED, B_SKIPPED, B_FAILED };

typedef struct bcv {
	const char *profile;
	char *out;            /* NULL: refused before rendering */
	int state, code;
	char *first_error;    /* the first error line, for the summary */
	char *rule;           /* its depfile rule */
} bcv_t;

/* A placeholder value made safe as (part of) a file name: no '/', no
 * control characters, no leading '.', spaces as '-'. */
static void safe_name(buf_t *b, const char *v)
{
	size_t start = b->len;
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		int c = *p;
		if (c == ' ' || c == '\t')
			c = '-';
		else if (c < 0x20 || c == 0x7f || strchr("/\\:*?\"<>|", c))
			c = '_';
		if (c == '.' && b->len == start)
			c = '_';
		buf_putc(b, (char)c);
	}
	if (b->len == start)
		buf_putc(b, '_');
}

static const char *const placeholders[] = {"dir", "stem", "name", NULL};

/* The first unknown {placeholder} of a template, or NULL. */
static const char *bad_placeholder(const char *t, char *what, size_t n)
{
	for (const char *p = strchr(t, '{'); p; p = strchr(p + 1, '{')) {
		const char *q = strchr(p, '}');
		if (!q)
			break;
		int ok = 0;
		for (int i = 0; placeholders[i] && !ok; i++)
			ok = (size_t)(q - p - 1) == strlen(placeholders[i]) &&
			     !strncmp(p + 1, placeholders[i], (size_t)(q - p - 1));
		if (!ok) {
			snprintf(what, n, "%.*s", (int)(q - p + 1), p);
			return what;
		}
	}
	return NULL;
}

/* {dir}: the name of the profile's folder; {stem}: its file name without
 * the extension; {name}: the person's name (name may be NULL if unused). */
static char *expand_out(const char *t, const char *profile, const char *name, const char *dir)
{
	char folder[PATH_MAX] = ".", real[PATH_MAX];
	const char *sl = strrchr(profile, '/');
	if (sl)
		snprintf(folder, sizeof(folder), "%.*s", (int)(sl - profile), profile);
	const char *fb = NULL;   /* the folder's real name: only {dir} needs it */
	if (strstr(t, "{dir}"))
		fb = realpath(*folder ? folder : "/", real) ? strrchr(real, '/') : NULL;
	fb = fb && fb[1] ? fb + 1 : folder;
	const char *base = sl ? sl + 1 : profile, *dot = strrchr(base, '.');
	char stem[NAME_MAX + 1];
	snprintf(stem, sizeof(stem), "%.*s", (int)(dot && dot != base ? dot - base : (long)strlen(base)), base);
	buf_t b;
	buf_init(&b);
	if (dir && t[0] != '/')
		buf_printf(&b, "%s/", dir);
	for (const char *p = t; *p; p++) {
		if (*p == '{' && !strncmp(p, "{dir}", 5)) {
			safe_name(&b, fb);
			p += 4;
		} else if (*p == '{' && !strncmp(p, "{stem}", 6)) {
			safe_name(&b, stem);
			p += 5;
		} else if (*p == '{' && !strncmp(p, "{name}", 6)) {
			safe_name(&b, name ? name : stem);
			p += 5;
		} else {
			buf_putc(&b, *p);
		}
	}
	return b.s;
}

/* The outputs named so far, by a hash of the name: the CV whose output it
 * is (-1: free). Sized for n at half load. */
typedef struct outset {
	int *v;
	unsigned mask;
} outset_t;

static unsigned out_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The earlier CV with cv[i]'s output, or -1 after adding i. */
static int outset_add(outset_t *t, const bcv_t *cv, int i)
{
	unsigned h = out_hash(cv[i].out) & t->mask;
	for (; t->v[h] >= 0; h = (h + 1) & t->mask)
		if (!strcmp(cv[t->v[h]].out, cv[i].out))
			return t->v[h];
	t->v[h] = i;
	return -1;
}

/* Name every output; two CVs with one output are refused (naming both).
 * Returns the number refused, or -1 after a usage error. */
static int batch_outputs(bcv_t *cv, int n, const opts_t *o, const char *ext)
{
	char tdef[32], what[64];
	snprintf(tdef, sizeof(tdef), "{stem}.%s", ext);
	const char *t = o->out ? o->out : tdef;
	if (bad_placeholder(t, what, sizeof(what))) {
		usage_error("unknown placeholder '%s' in -o (use {dir}, {stem} or {name})", what);
		return -1;
	}
	int refused = 0, need_name = strstr(t, "{name}") != NULL;
	outset_t seen;   /* a hash set: thousands of CVs are not compared in pairs */
	seen.mask = 1;
	while (seen.mask < 2u * (unsigned)n)
		seen.mask <<= 1;
	seen.v = xmalloc(sizeof(int) * seen.mask);
	memset(seen.v, 0xff, sizeof(int) * seen.mask);
	seen.mask--;
	for (int i = 0; i < n; i++) {
		const char *name = NULL;
		arena_t *a = NULL;
		if (need_name) {   /* the person's name: read the profile now */
			errs_t e;
			errs_init(&e);
			a = arena_new();
			model_t *m;
			if (load_model(a, cv[i].profile, o, &m, &e) == 0)
				name = m->name;
			errs_done(&e);   /* its errors come again when it is rendered */
		}
		cv[i].out = expand_out(t, cv[i].profile, name, o->dir);
		arena_free(a);
		int k = cv[i].out ? outset_add(&seen, cv, i) : -1;
		if (k >= 0) {
			fprintf(stderr, "%s: error: its output %s is already the output of %s\n",
			        cv[i].profile, cv[i].out, cv[k].profile);
			char msg[PATH_MAX + 64];
			snprintf(msg, sizeof(msg), "%s is also the output of %s", cv[i].out,
			         cv[k].profile);
			cv[i].first_error = xstrdup(msg);
			cv[i].state = B_FAILED;
			cv[i].code = ERR_INPUT;
			free(cv[i].out);
			cv[i].out = NULL;
			refused++;
		}
	}
	free(seen.v);
	return refused;
}

static void put_record(int fd, int index, int code, const char *msg, size_t len,
                       const char *rule, size_t rlen)
{
	char head[96];
	int h = snprintf(head, sizeof(head), "%d %d %zu %zu\n", index, code, len, rlen);
	if (buf_write_fd(fd, head, (size_t)h) || buf_write_fd(fd, msg, len) ||
	    buf_write_fd(fd, rule, rlen))
		_exit(3);
}

/* The next CV for a worker: from the counter the workers share (each
 * takes the next one not taken, so that a worker on a busier core, or
 * with longer CVs, takes fewer), else w, w + jobs, ...; n when done.
 * order (NULL: as given) is the order they are taken in. */
static int next_cv(int *shared, int *mine, int jobs, int n, const int *order)
{
	int i = shared ? __atomic_fetch_add(shared, 1, __ATOMIC_RELAXED) : *mine;
	*mine += jobs;
	return i >= n ? n : order ? order[i] : i;
}

typedef struct bsize {
	off_t size;
	int i;
} bsize_t;

static int by_size(const void *pa, const void *pb)
{
	const bsize_t *a = pa, *b = pb;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return a->i - b->i;
}

/* Several workers take the biggest profiles first: a long CV taken last
 * would keep one worker busy while the others have finished (the CVs'
 * files are their nearest measure of work). NULL: in the order given. */
static int *batch_order(const bcv_t *cv, int n, int jobs)
{
	if (jobs < 2)
		return NULL;
	bsize_t *v = xmalloc(sizeof(*v) * (size_t)n);
	for (int i = 0; i < n; i++) {
		struct stat st;
		v[i].size = cv[i].out && !stat(cv[i].profile, &st) ? st.st_size : 0;
		v[i].i = i;
	}
	qsort(v, (size_t)n, sizeof(*v), by_size);
	int *order = xmalloc(sizeof(*order) * (size_t)n);
	for (int i = 0; i < n; i++)
		order[i] = v[i].i;
	free(v);
	return order;
}

/* A worker: its CVs (next_cv) with one keep_t. */
static void batch_worker(bcv_t *cv, int n, int w, int jobs, int *shared, const int *order,
                         const opts_t *bo, int fd)
{
	opts_t one = *bo;
	one.deps = NULL;   /* the parent writes every CV's rule into one file */
	const opts_t *o = &one;
	keep_t k = {.hyphs = hyph_set_new()};
	ofile_sweep_once();   /* the output directory is read once, not per CV */
#ifdef __GLIBC__
	/* the heap a CV grew is kept for the next one: by default glibc gives
	   its top back to the kernel after every CV (brk, 6 calls a CV) and
	   maps arrays of 128 KB and more afresh, and the next CV faults those
	   pages in again, zeroed by the kernel */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
	for (int i, mine = w; (i = next_cv(shared, &mine, jobs, n, order)) < n;) {
		if (!cv[i].out)
			continue;
		errs_t e;
		errs_init(&e);
		if (!k.lib)
			k.lib = open_fonts(NULL, &e);
		int code = k.lib ? render_one(cv[i].profile, cv[i].out, o, &k, &e) : errs_code(&e);
		char *msg = NULL;
		size_t len = 0;
		FILE *f = e.n ? open_memstream(&msg, &len) : NULL;
		if (f) {
			errs_print(f, &e);
			fclose(f);
		}
		buf_t rule;   /* only --deps writes the rules */
		buf_init(&rule);
		if (bo->deps && (code == 0 || code == RENDER_SKIPPED))
			deps_make_text(&rule, cv[i].out);
		put_record(fd, i, code, msg ? msg : "", len, rule.s ? rule.s : "", rule.len);
		free(msg);
		buf_done(&rule);
		errs_done(&e);
	}
	keep_free(&k);
}

typedef struct bpipe {
	int fd;
	buf_t in;
} bpipe_t;

typedef struct bstate {
	bcv_t *cv;
	int n, done, tty;
} bstate_t;

static void bar_clear(const bstate_t *b)
{
	if (b->tty)
		fputs("\r\033[K", stderr);
}

static void bar_draw(const bstate_t *b)
{
	if (!b->tty)
		return;
	int k = b->done * 30 / (b->n ? b->n : 1);
	fprintf(stderr, "[%.*s%*s] %d/%d", k, "==============================", 30 - k, "",
	        b->done, b->n);
	fflush(stderr);
}

/* The first "error:" line of a CV's messages. */
static char *first_error(const char *msg)
{
	const char *p = strstr(msg, ": error: ");
	if (!p)
		return NULL;
	while (p > msg && p[-1] != '\n')
		p--;
	size_t n = strcspn(p, "\n");
	return strndup(p, n);
}

/* Parse the complete records in a worker's buffer. */
static void take_records(bstate_t *b, buf_t *in)
{
	size_t off = 0;
	while (off < in->len) {
		const char *nl = memchr(in->s + off, '\n', in->len - off);
		if (!nl)
			break;
		int index, code;
		size_t len, rlen;
		if (sscanf(in->s + off, "%d %d %zu %zu", &index, &code, &len, &rlen) != 4 ||
		    index < 0 || index >= b->n)
			break;
		size_t body = (size_t)(nl - in->s) + 1;
		if (in->len - body < len + rlen)
			break;
		bcv_t *c = &b->cv[index];
		const char *msg = in->s + body;
		c->code = code;
		c->state = code == 0 ? B_RENDERED : code == RENDER_SKIPPED ? B_SKIPPED : B_FAILED;
		if (len) {
			char *m = strndup(msg, len);
			bar_clear(b);
			fputs(m, stderr);
			c->first_error = first_error(m);
			free(m);
		}
		if (rlen)
			c->rule = strndup(msg + len, rlen);
		b->done++;
		bar_clear(b);
		bar_draw(b);
		off = body + len + rlen;
	}
	memmove(in->s, in->s + off, in->len - off);
	in->len -= off;
}

static int batch_run(bcv_t *cv, int n, int jobs, const opts_t *o)
{
	bpipe_t *p = xcalloc((size_t)jobs, sizeof(*p));
	bstate_t b = {cv, n, 0, isatty(STDERR_FILENO)};
	for (int i = 0; i < n; i++)
		b.done += cv[i].state == B_FAILED;
	fflush(NULL);
	int *shared = NULL;   /* NULL: the workers split the CVs in turn */
#ifdef MAP_ANONYMOUS
	if (jobs > 1) {
		void *m = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		shared = m == MAP_FAILED ? NULL : m;
		if (shared)
			*shared = 0;
	}
#endif
	int *order = batch_order(cv, n, jobs);
	int started = 0;
	for (int w = 0; w < jobs; w++) {
		int fds[2];
		if (pipe(fds)) {
			perror("vita: pipe");
			break;
		}
		pid_t pid = fork();
		if (pid < 0) {
			perror("vita: fork");
			close(fds[0]);
			close(fds[1]);
			break;
		}
		if (pid == 0) {
			for (int k = 0; k < started; k++)
				close(p[k].fd);
			close(fds[0]);
			batch_worker(cv, n, w, jobs, shared, order, o, fds[1]);
			_exit(0);
		}
		close(fds[1]);
		p[started].fd = fds[0];
		buf_init(&p[started].in);
		started++;
	}
	bar_draw(&b);
	int open_fds = started;
	while (open_fds > 0) {
		struct pollfd pf[256];
		int map[256], np = 0;
		for (int w = 0; w < started && np < 256; w++)
			if (p[w].fd >= 0) {
				pf[np] = (struct pollfd){p[w].fd, POLLIN, 0};
				map[np++] = w;
			}
		if (poll(pf, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int k = 0; k < np; k++) {
			if (!pf[k].revents)
				continue;
			bpipe_t *q = &p[map[k]];
			char chunk[65536];
			ssize_t r = read(q->fd, chunk, sizeof(chunk));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(q->fd);
				q->fd = -1;
				open_fds--;
				continue;
			}
			buf_add(&q->in, chunk, (size_t)r);
			take_records(&b, &q->in);
		}
	}
	while (wait(NULL) > 0)
		;
	if (shared)
		munmap(shared, sizeof(int));
	free(order);
	bar_clear(&b);
	for (int w = 0; w < started; w++)
		buf_done(&p[w].in);
	free(p);
	/* a worker that died took its remaining CVs with it */
	int lost = 0;
	for (int i = 0; i < n; i++)
		if (cv[i].state == B_PENDING) {
			cv[i].state = B_FAILED;
			cv[i].code = ERR_SYSTEM;
			cv[i].first_error = xstrdup(started ? "its worker process died" : "no worker could start");
			lost++;
		}
	return lost;
}

/* The table and the count, written at once (stderr has no buffer: a
 * line per write would be a system call per CV). */
static void batch_summary(const bcv_t *cv, int n, const opts_t *o)
{
	int counts[4] = {0};
	static const char *const label[4] = {"", "rendered", "skipped", "failed"};
	int wide = 0;
	for (int i = 0; i < n; i++) {
		counts[cv[i].state]++;
		int l = (int)strlen(cv[i].profile);
		wide = l > wide && l < 60 ? l : wide;
	}
	buf_t b;
	buf_init(&b);
	for (int i = 0; i < n; i++) {
		const bcv_t *c = &cv[i];
		if (c->state == B_FAILED)
			buf_printf(&b, "  %-8s  %-*s  %s\n", label[c->state], wide, c->profile,
			           c->first_error ? c->first_error : "");
		else
			buf_printf(&b, "  %-8s  %-*s  -> %s%s\n", label[c->state], wide, c->profile,
			           c->out, c->state == B_SKIPPED ? " (up to date)" : "");
	}
	buf_printf(&b, "vita: %d of %d CVs rendered into %s", counts[B_RENDERED], n,
	           o->dir ? o->dir : ".");
	if (counts[B_SKIPPED])
		buf_printf(&b, ", %d up to date", counts[B_SKIPPED]);
	if (counts[B_FAILED])
		buf_printf(&b, ", %d failed (errors above)", counts[B_FAILED]);
	buf_putc(&b, '\n');
	fwrite(b.s, 1, b.len, stderr);
	buf_done(&b);
}

static int batch_depfile(const bcv_t *cv, int n, const char *path)
{
	errs_t e;
	errs_init(&e);
	ofile_t *f = ofile_open(path, "the dependency file", &e);
	int ok = f != NULL;
	for (int i = 0; ok && i < n; i++)
		if (cv[i].rule)
			ok = buf_write_fd(ofile_fd(f), cv[i].rule, strlen(cv[i].rule)) == 0;
	if (f && !ok)
		err_sys(&e, path, "cannot write the dependency file: %s", strerror(errno));
	if (f)
		ofile_close(f, ok, &e);
	print_errs(&e);
	int code = errs_code(&e);
	errs_done(&e);
	return code;
}

static int batch_book(const bcv_t *cv, int n, const opts_t *o);

static int cmd_batch(const opts_t *o)
{
	if (o->nargs < 1)
		return usage_error("batch needs at least one PROFILE%s", "");
	if (!o->dir && !o->out)
		return usage_error("batch needs -d DIR (and/or an -o template)%s", "");
	if (o->dump)
		return usage_error("batch writes files; --dump is not allowed%s", "");
	if (o->dir && mkdir(o->dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: error: cannot create directory: %s\n", o->dir, strerror(errno));
		return 3;
	}
	bcv_t *cv = xcalloc((size_t)o->nargs, sizeof(*cv));
	for (int i = 0; i < o->nargs; i++)
		cv[i].profile = o->args[i];
	int code = 0;
	if (o->book && o->format != FMT_PDF) {
		code = usage_error("--book makes a PDF; it cannot be combined with --format %s",
		                   fmt_names[o->format]);
		goto out;
	}
	if (batch_outputs(cv, o->nargs, o, fmt_ext[o->format]) < 0) {
		code = ERR_USAGE;
		goto out;
	}
	int jobs = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (jobs < 1)
		jobs = 1;
	if (jobs > o->nargs)
		jobs = o->nargs;
	batch_run(cv, o->nargs, jobs, o);
	batch_summary(cv, o->nargs, o);
	for (int i = 0; i < o->nargs; i++)
		if (cv[i].state == B_FAILED) {
			int c = cv[i].code == ERR_SYSTEM ? ERR_SYSTEM : ERR_INPUT;
			if (c > code)
				code = c;
		}
	if (o->deps) {
		int c = batch_depfile(cv, o->nargs, o->deps);
		if (c > code)
			code = c;
	}
	if (o->book) {
		int c = batch_book(cv, o->nargs, o);
		if (c > code)
			code = c;
	}
out:
	for (int i = 0; i < o->nargs; i++) {
		free(cv[i].out);
		free(cv[i].first_error);
		free(cv[i].rule);
	}
	free(cv);
	return code;
}

/* --book: every CV that rendered, laid out again with one font library
 * (so face ids agree) into one document; one outline entry per person
 * with that CV's sections under it. */
static int batch_book(const bcv_t *cv, int n, const opts_t *o)
{
	errs_t e;
	errs_init(&e);
	job_t *jobs = xcalloc((size_t)n, sizeof(*jobs));
	keep_t k = {.lib = open_fonts(NULL, &e), .hyphs = hyph_set_new()};
	page_doc_t *book = NULL;
	int code = 0;
	if (!k.lib)
		goto out;
	for (int i = 0; i < n; i++) {
		if (cv[i].state != B_RENDERED && cv[i].state != B_SKIPPED)
			continue;
		if (job_load(&jobs[i], cv[i].profile, o, &k, &e) || job_layout(&jobs[i], o, &e))
			goto out;
		const page_doc_t *d = jobs[i].doc;
		if (!book) {
			book = page_doc_new(d->w, d->h);
			book->epoch = d->epoch;
			book->creator = d->creator ? arena_strdup(book->arena, d->creator) : NULL;
		}
		if (page_doc_append(book, d, jobs[i].m->name) < 0) {
			err_at(&e, cv[i].profile, 0, 0, "its page size differs from the book's (%s)",
			       o->book);
			goto out;
		}
	}
	if (!book) {
		err_at(&e, o->book, 0, 0, "no CV rendered, so there is no book to write");
		goto out;
	}
	pdf_opts_t po = {o->plain};
	if (layout_subset(book, k.lib, &e) == 0 && pdf_write_opts(book, o->book, &po, &e) == 0)
		fprintf(stderr, "vita: wrote the book %s (%d pages)\n", o->book, book->npages);
out:
	print_errs(&e);
	code = errs_code(&e);
	if (!code && e.nerrors)
		code = 1;
	page_doc_free(book);
	for (int i = 0; i < n; i++)
		job_free(&jobs[i]);
	free(jobs);
	keep_free(&k);
	errs_done(&e);
	return code;
}

/* --help: the usage and where data is looked for. */
static void print_help(FILE *f)
{
	fputs(usage_text, f);
	datadir_t d;
	datadir_get(&d, "", NULL);
	fputs("\nlayouts/, fonts/ and locales/ are looked for in the profile's directory,\nthen:\n", f);
	for (int i = 0; i < d.n; i++)
		fprintf(f, "  %s\n", d.dirs[i]);
}

/* --version: the release, the commit, the libraries it was built with. */
static void print_version(void)
{
	printf("vita %s (commit %s)\n", version_release, version_commit);
	printf("data: %s\n", datadir_builtin());
	const char *s = version_libs;
	if (!*s)
		return;
	printf("built with:");
	while (*s) {
		const char *e = strchr(s, ';');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		while (n && *s == ' ')
			s++, n--;
		if (n)
			printf(" %.*s,", (int)n, s);
		s += n + (e ? 1 : 0);
	}
	printf(" libhyphen\n");
}

static const char *const commands[] = {"render",  "batch",   "check", "fonts", "layouts",
                                       "locales", "new",     "schema", "watch", NULL};

/* A usage error with "did you mean" when WORD is close to one of KNOWN. */
static int unknown(const char *what, const char *word, const char *prefix,
                   const char *const *known)
{
	const char *best = NULL;
	int bd = 3;
	for (int i = 0; known[i]; i++) {
		int dist = suggest_distance(word, known[i]);
		if (dist < bd && dist <= (int)strlen(known[i]) / 2) {
			bd = dist;
			best = known[i];
		}
	}
	fprintf(stderr, "vita: unknown %s '%s%s'", what, prefix, word);
	if (best)
		fprintf(stderr, "; did you mean '%s%s'?", prefix, best);
	fputs("\nTry 'vita --help'.\n", stderr);
	return 2;
}

/* Commands that read layouts or fonts stop early, and say where they
 * looked, when no data directory exists at all (a binary moved away from
 * its data). */
static int check_data(const char *cmd)
{
	if (strcmp(cmd, "render") && strcmp(cmd, "batch") && strcmp(cmd, "check") &&
	    strcmp(cmd, "fonts") && strcmp(cmd, "layouts") && strcmp(cmd, "watch"))
		return 0;
	datadir_t d;
	datadir_get(&d, "layouts", NULL);
	if (datadir_any(&d))
		return 0;
	fputs("vita: error: cannot find vita's data (layouts/); searched:\n", stderr);
	for (int i = 0; i < d.n; i++)
		fprintf(stderr, "  %s\n", d.dirs[i]);
	fputs("Install it (make install) or put your layouts in one of these.\n", stderr);
	return 3;
}

static int vita_main(int argc, char **argv)
{
	datadir_init();
	opts_t o;
	memset(&o, 0, sizeof(o));
	if (argc < 2) {
		fputs(usage_text, stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		print_version();
		return 0;
	}
	static const struct option longopts[] = {
		{"output", required_argument, 0, 'o'}, {"layout", required_argument, 0, 'l'},
		{"lang", required_argument, 0, 'L'},   {"tags", required_argument, 0, 'T'},
		{"set", required_argument, 0, 'S'},    {"dump", required_argument, 0, 'D'},
		{"strict", no_argument, 0, 's'},       {"reproducible", no_argument, 0, 'R'},
		{"dir", required_argument, 0, 'd'},    {"jobs", required_argument, 0, 'j'},
		{"help", no_argument, 0, 'h'},         {"version", no_argument, 0, 'V'},
		{"deps", required_argument, 0, 'M'},   {"force", no_argument, 0, 'F'},
		{"exec", required_argument, 0, 'X'},   {"book", required_argument, 0, 'B'},
		{"changed", no_argument, 0, 'C'},      {"format", required_argument, 0, 'f'},
		{"untrusted", no_argument, 0, 'U'},    {"trusted", no_argument, 0, 't'},
		{"pdf", required_argument, 0, 'P'},
		{"keys", no_argument, 0, 'K'},
		{0, 0, 0, 0}};
	o.sets = xcalloc((size_t)argc, sizeof(char *));
	o.tags = xcalloc((size_t)argc * 8 + 8, sizeof(char *));
	char *tagbuf = NULL;
	int code = 0;
	optind = 2;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, ":o:l:d:j:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			if (!*optarg) {
				code = usage_error("-o needs a file name ('-' for stdout)%s", "");
				goto out;
			}
			o.out = optarg;
			break;
		case 'l': o.layout = optarg; break;
		case 'L': o.lang = optarg; break;
		case 'D': o.dump = optarg; break;
		case 's': o.strict = 1; break;
		case 'U': o.untrusted = 1; break;
		case 't': o.trusted = 1; break;
		case 'R': o.reproducible = 1; break;
		case 'K': o.keys = 1; break;
		case 'd': o.dir = optarg; break;
		case 'M': o.deps = optarg; break;
		case 'F': o.force = 1; break;
		case 'X': o.exec = optarg; break;
		case 'B': o.book = optarg; break;
		case 'C': o.changed = 1; break;
		case 'f': {
			int k = 0;
			while (k < 4 && strcmp(optarg, fmt_names[k]))
				k++;
			if (k == 4) {
				code = usage_error("unknown --format '%s' (pdf, html, html-fragment or json)",
				                   optarg);
				goto out;
			}
			o.format = k;
			break;
		}
		case 'P':
			if (strcmp(optarg, "plain") && strcmp(optarg, "tagged")) {
				code = usage_error("unknown --pdf '%s' (tagged or plain)", optarg);
				goto out;
			}
			o.plain = !strcmp(optarg, "plain");
			break;
		case 'S': o.sets[o.nsets++] = optarg; break;
		case 'j': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 256) {
				code = usage_error("-j expects a number from 1 to 256, got '%s'", optarg);
				goto out;
			}
			o.jobs = (int)v;
			break;
		}
		case 'T': {
			free(tagbuf);
			tagbuf = xstrdup(optarg);
			o.ntags = 0;
			for (char *t = strtok(tagbuf, ","); t && o.ntags < argc * 8; t = strtok(NULL, ","))
				o.tags[o.ntags++] = t;
			break;
		}
		case 'h':
			if (!strcmp(cmd, "render"))
				fputs(render_help, stdout);
			else
				print_help(stdout);
			goto out;
		case 'V':
			print_version();
			goto out;
		case ':':
			code = usage_error("option '%s' needs a value", argv[optind - 1]);
			goto out;
		default: {
			/* "--lnag=x" -> "lnag"; suggest among the long options */
			const char *a = argv[optind - 1];
			if (optopt) {
				char shortopt[3] = {'-', (char)optopt, '\0'};
				code = usage_error("unknown option '%s' (a NAME or PROFILE that starts "
				                   "with '-' goes after '--')", shortopt);
				goto out;
			}
			char word[64];
			snprintf(word, sizeof(word), "%.*s", (int)strcspn(a + 2, "="), a + 2);
			const char *names[32];
			int n = 0;
			for (int i = 0; longopts[i].name && n < 31; i++)
				names[n++] = longopts[i].name;
			names[n] = NULL;
			code = unknown("option", word, "--", names);
			goto out;
		}
		}
	}
	o.args = argv + optind;
	o.nargs = argc - optind;
	if (!o.ntags && !tagbuf)
		o.tags = (free(o.tags), NULL);
	if (!strcmp(cmd, "batch") && !o.trusted)
		o.untrusted = 1;   /* a batch renders other people's profiles */
	if ((code = check_data(cmd)))
		goto out;
	if ((code = check_lang(&o)))
		goto out;
	if (epoch_check() < 0)
		code = 2;
	else if (!strcmp(cmd, "render"))
		code = cmd_render(&o);
	else if (!strcmp(cmd, "watch"))
		code = cmd_watch(&o);
	else if (!strcmp(cmd, "batch"))
		code = cmd_batch(&o);
	else if (!strcmp(cmd, "check"))
		code = cmd_check(&o);
	else if (!strcmp(cmd, "fonts"))
		code = cmd_fonts(&o);
	else if (!strcmp(cmd, "layouts"))
		code = cmd_layouts(&o);
	else if (!strcmp(cmd, "locales"))
		code = cmd_locales(&o);
	else if (!strcmp(cmd, "new"))
		code = cmd_new(&o);
	else if (!strcmp(cmd, "schema"))
		code = cmd_schema(&o);
	else
		code = unknown("command", cmd, "", commands);
out:
	free(o.sets);
	free((void *)o.tags);
	free(tagbuf);
	return code;
}

/* Every command's stdout is checked at exit: a full disk or a closed
 * pipe is a failure (exit 3), never a silent 0. */
static int finish_stdout(int code)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return code;
	fprintf(stderr, "vita: cannot write to stdout: %s\n",
	        errno ? strerror(errno) : "write error");
	return ERR_SYSTEM;
}

int main(int argc, char **argv)
{
	ofile_catch_signals();
	return finish_stdout(vita_main(argc, argv));
}
