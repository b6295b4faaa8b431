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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	"  layouts            the layouts available\n"
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
	"      --strict       characters no font can draw are errors\n"
	"      --reproducible fixed dates (as SOURCE_DATE_EPOCH=0 would)\n"
	"      --deps FILE    write a Make-format depfile of the files the PDF is made from\n"
	"      --force        write a PDF to stdout even when it is a terminal\n"
	"      --exec CMD     watch: run CMD (sh -c) after each good render\n"
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
	"\n"
	"Typesets PROFILE into a PDF. OUT defaults to PROFILE with .pdf; PROFILE '-'\n"
	"reads stdin (relative paths then resolve against the working directory) and\n"
	"writes stdout unless -o is given. A PDF goes to a terminal only with --force.\n"
	"The PDF is written to a hidden temporary file beside OUT (.OUT.XXXXXX),\n"
	"renamed into place when complete and removed on any failure or signal.\n"
	"--deps FILE writes a Make-format list of every file the PDF was made from.\n"
	"With SOURCE_DATE_EPOCH set (or --reproducible) the output is byte-identical\n"
	"for the same inputs.\n";

typedef struct opts {
	const char *out, *layout, *lang, *dump, *dir;
	const char *deps;          /* --deps FILE: a Make-format depfile */
	const char *exec;          /* watch --exec CMD: run after each good render */
	int force;                 /* --force: a PDF to a terminal */
	const char **sets; int nsets;
	const char **tags; int ntags;
	int strict, reproducible, jobs;
	int untrusted, trusted;    /* --untrusted (batch: unless --trusted) */
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
	profile_opts_t po = {o->lang, o->tags, o->ntags, o->untrusted};
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

/* Layout for a model: -l beats the profile's `layout:`; then the
 * profile's overrides, then --set. */
static style_t *load_style(const model_t *m, const opts_t *o, errs_t *e)
{
	datadir_t d;
	datadir_get(&d, "layouts", m && !o->untrusted ? m->dir : NULL);
	const char *name = o->layout ? o->layout : m && m->layout ? m->layout : "academic";
	/* the profile's layout is found beside the profile (and, untrusted,
	   only among vita's); -l beside the working directory */
	int own = !o->layout && m && m->layout;
	style_t *s = style_open(name, own ? m->file : NULL, own ? m->layout_line : 0,
	                        own ? m->layout_col : 0, d.dirs,
	                        own && o->untrusted ? STYLE_CONFINED : 0, e);
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
static vlocale_t *load_locale(const model_t *m, const style_t *s, const opts_t *o, errs_t *e)
{
	datadir_t d;
	datadir_get(&d, "locales", m && !o->untrusted ? m->dir : NULL);
	const char *const *dirs = d.dirs;
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
	vlocale_t *l = locale_load(code, dirs, where, line, col, e);
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

static char *default_out(const char *profile, const char *dir)
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
	buf_puts(&b, ".pdf");
	return b.s;
}

/* An output must not replace one of the files it is made from (-o cv.yaml,
 * -o photo.png): compared by device and inode with what the render read. */
static int output_is_input(const char *out, errs_t *e)
{
	int n = deps_count(), which;
	const char **v = xcalloc((size_t)(n ? n : 1), sizeof(*v));
	for (int i = 0; i < n; i++)
		v[i] = deps_get(i);
	int hit = ofile_is_one_of(out, v, n, &which);
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

/* Render one profile with an open font library (NULL: open one). The
 * files it read stay recorded in deps until the next render. Returns the
 * exit code. */
static int render_one(const char *profile, const char *out, const opts_t *o,
                      font_lib_t *shared_lib, errs_t *e)
{
	arena_t *a = arena_new();
	model_t *m = NULL;
	style_t *s = NULL;
	vlocale_t *loc = NULL;
	font_lib_t *lib = shared_lib;
	page_doc_t *doc = NULL;
	ofile_t *df = NULL;
	int code = 0;

	deps_start();
	if (load_model(a, profile, o, &m, e))
		goto fail;
	if (o->dump && !strcmp(o->dump, "model")) {
		model_dump(m, stdout);
		goto done;
	}
	if (!(s = load_style(m, o, e)) || !(loc = load_locale(m, s, o, e)))
		goto fail;
	if (!lib && !(lib = open_fonts(o->untrusted ? NULL : m, e)))
		goto fail;
	layout_opts_t lo = {now_epoch(o), o->strict, loc};
	if (!(doc = layout_render(m, s, lib, &lo, e)))
		goto fail;
	if (e->nerrors)
		goto fail;
	if (o->dump) {
		if (strcmp(o->dump, "layout")) {
			code = usage_error("unknown --dump '%s' (model or layout)", o->dump);
			goto done;
		}
		page_dump(doc, stdout);
		goto done;
	}
	if (output_is_input(out, e) || (o->deps && output_is_input(o->deps, e))) {
		code = ERR_USAGE;
		goto done;
	}
	if (o->deps && !(df = ofile_open(o->deps, "the dependency file", e)))
		goto fail;
	if (layout_subset(doc, lib, e))
		goto fail;
	if (pdf_write(doc, out, e))
		goto fail;
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
	page_doc_free(doc);
	if (lib && lib != shared_lib)
		font_lib_free(lib);
	style_free(s);
	locale_free(loc);
	arena_free(a);
	return code;
}

/* A PDF is binary: to a terminal only when asked. */
static int refuse_tty(const char *out, const opts_t *o)
{
	if (strcmp(out, "-") || o->force || o->dump || !isatty(STDOUT_FILENO))
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
	char *def = o->out || !strcmp(profile, "-") ? NULL : default_out(profile, NULL);
	const char *out = o->out ? o->out : def ? def : "-";
	int code = refuse_tty(out, o);
	if (!code && o->deps && !strcmp(out, "-"))
		code = usage_error("--deps needs an output file (-o FILE), not stdout%s", "");
	if (!code) {
		errs_t e;
		errs_init(&e);
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
		int st = system(o->exec);
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
	char *def = o->out ? NULL : default_out(profile, NULL);
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
	if (!(s = load_style(m, o, &e)) || !(lib = open_fonts(m, &e)))
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
	(void)o;
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

static void free_strs(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* batch: -j worker processes, each renders its share in one process (one
 * font library, faces loaded once). Children report per profile on a
 * pipe; the parent draws progress on a terminal and prints a summary. */
static int cmd_batch(const opts_t *o)
{
	if (o->nargs < 1)
		return usage_error("batch needs at least one PROFILE%s", "");
	if (!o->dir)
		return usage_error("batch needs -d DIR%s", "");
	if (o->out)
		return usage_error("batch writes into -d DIR; -o is not allowed%s", "");
	if (mkdir(o->dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: error: cannot create directory: %s\n", o->dir, strerror(errno));
		return 3;
	}
	int jobs = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (jobs < 1)
		jobs = 1;
	if (jobs > o->nargs)
		jobs = o->nargs;
	/* two profiles with one output name (a/cv.yaml, b/cv.yaml, or one path
	   twice) would race on one file: the later ones are refused */
	char **outs = xcalloc((size_t)o->nargs, sizeof(*outs));
	int ndup = 0;
	for (int i = 0; i < o->nargs; i++) {
		outs[i] = default_out(o->args[i], o->dir);
		for (int j = 0; j < i && outs[i]; j++)
			if (outs[j] && !strcmp(outs[i], outs[j])) {
				fprintf(stderr, "%s: error: its output %s is already the output of %s\n",
				        o->args[i], outs[i], o->args[j]);
				free(outs[i]);
				outs[i] = NULL;
				ndup++;
			}
	}
	int fds[2];
	if (pipe(fds)) {
		perror("vita: pipe");
		free_strs(outs, o->nargs);
		return 3;
	}
	fflush(NULL);
	for (int w = 0; w < jobs; w++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("vita: fork");
			free_strs(outs, o->nargs);
			return 3;
		}
		if (pid == 0) {
			close(fds[0]);
			font_lib_t *lib = NULL;
			for (int i = w; i < o->nargs; i += jobs) {
				if (!outs[i])
					continue;
				errs_t e;
				errs_init(&e);
				if (!lib) {
					lib = open_fonts(NULL, &e);
				}
				int code = lib ? render_one(o->args[i], outs[i], o, lib, &e) : errs_code(&e);
				print_errs(&e);
				fflush(stderr);
				errs_done(&e);
				unsigned char msg[2] = {(unsigned char)code, 0};
				if (write(fds[1], msg, 1) != 1)
					break;
			}
			font_lib_free(lib);
			free_strs(outs, o->nargs);
			_exit(0);
		}
	}
	close(fds[1]);
	int done = 0, failed = 0, tty = isatty(2);
	unsigned char c;
	while (read(fds[0], &c, 1) == 1) {
		done++;
		if (c)
			failed++;
		if (tty) {
			int bar = (done + ndup) * 30 / o->nargs;
			fprintf(stderr, "\r[%.*s%*s] %d/%d", bar, "==============================",
			        30 - bar, "", done + ndup, o->nargs);
		}
	}
	close(fds[0]);
	while (wait(NULL) > 0)
		;
	if (tty)
		fputc('\n', stderr);
	if (done + ndup < o->nargs)
		failed += o->nargs - ndup - done;
	failed += ndup;
	free_strs(outs, o->nargs);
	fprintf(stderr, "vita: %d of %d CVs rendered into %s%s\n", o->nargs - failed, o->nargs,
	        o->dir, failed ? "; see the errors above" : "");
	return failed ? 1 : 0;
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
		{"exec", required_argument, 0, 'X'},
		{"untrusted", no_argument, 0, 'U'},    {"trusted", no_argument, 0, 't'},
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
		case 'd': o.dir = optarg; break;
		case 'M': o.deps = optarg; break;
		case 'F': o.force = 1; break;
		case 'X': o.exec = optarg; break;
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
