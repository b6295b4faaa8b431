/* locale: locales/<code>.yaml -> vlocale_t (see locale.h).
 *
 * One table (keys[]) names every key of a locale file with its kind and,
 * for patterns, the placeholders it may and must hold; loading the file
 * and a layout's `locale.KEY` overrides both go through set_key(), so
 * both are checked the same way. Lookup by alias scans the installed
 * files only when <code>.yaml itself is not there.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena.h"
#include "datadir.h"
#include "deps.h"
#include "file.h"
#include "locale.h"
#include "suggest.h"
#include "utf8.h"
#include "ydoc.h"

enum { K_STR, K_PAT, K_BOOL, K_LIST };

typedef struct lkey {
	const char *path;
	int kind;
	size_t off;
	int n;                 /* K_LIST: number of items */
	const char *allowed;   /* K_PAT: "year,yy" */
	const char *required;  /* K_PAT: groups "year|yy;month|mon|m|mm" */
	int optional;
} lkey_t;

#define F(f) offsetof(vlocale_t, f)
#define YEAR "year,yy"
#define MONTH YEAR ",month,mon,m,mm"
static const lkey_t keys[] = {
	{"code", K_STR, F(code), 0, NULL, NULL, 0},
	{"name", K_STR, F(name), 0, NULL, NULL, 0},
	{"lang", K_STR, F(lang), 0, NULL, NULL, 0},
	{"rtl", K_BOOL, F(rtl), 0, NULL, NULL, 1},
	{"months", K_LIST, F(months), 12, NULL, NULL, 0},
	{"months_short", K_LIST, F(months_short), 12, NULL, NULL, 0},
	{"months_of", K_LIST, F(months_of), 12, NULL, NULL, 1},
	{"date.year", K_PAT, F(date_year), 0, YEAR, "year|yy", 0},
	{"date.month", K_PAT, F(date_month), 0, MONTH, "year|yy;month|mon|m|mm", 0},
	{"date.day", K_PAT, F(date_day), 0, MONTH ",d,dd,month_of",
	 "year|yy;month|mon|m|mm|month_of;d|dd", 0},
	{"range", K_PAT, F(range), 0, "start,end", "start;end", 0},
	{"present", K_PAT, F(present), 0, "", NULL, 0},
	{"updated", K_PAT, F(updated), 0, "date", NULL, 0},
	{"footer", K_PAT, F(footer), 0, "name,page,pages,date", NULL, 0},
	{"title", K_PAT, F(title), 0, "name", "name", 0},
	{"badges", K_PAT, F(badges), 0, "", NULL, 0},
	{"equal", K_PAT, F(equal), 0, "", NULL, 0},
	{"corresponding", K_PAT, F(corresponding), 0, "", NULL, 0},
	{"et_al", K_PAT, F(et_al), 0, "", NULL, 0},
	{"editor", K_PAT, F(editor), 0, "names", "names", 1},
	{"editors", K_PAT, F(editors), 0, "names", "names", 1},
	{"comma", K_PAT, F(comma), 0, "", NULL, 1},
	{"phdthesis", K_PAT, F(phdthesis), 0, "venue", NULL, 1},
	{"mastersthesis", K_PAT, F(mastersthesis), 0, "venue", NULL, 1},
	{"techreport", K_PAT, F(techreport), 0, "venue", NULL, 1},
	{"published", K_PAT, F(published), 0, "", NULL, 0},
	{"year", K_PAT, F(year), 0, "year", "year", 0},
	{"year_status", K_PAT, F(year_status), 0, "year,status", "year;status", 0},
	{"scholar", K_PAT, F(scholar), 0, "", NULL, 0},
	{"photo_alt", K_PAT, F(photo_alt), 0, "name", "name", 0},
	{"quotes", K_LIST, F(quotes), 4, NULL, NULL, 0},
	{"number", K_PAT, F(number), 0, "n", "n", 1},
	{"pub_number", K_PAT, F(pub_number), 0, "n", "n", 1},
	{"digits", K_LIST, F(digits), 10, NULL, NULL, 1},
	{"label_sep", K_PAT, F(label_sep), 0, "", NULL, 1},
	{"aliases", K_LIST, 0, -1, NULL, NULL, 1}, /* read by the lookup only */
};
#undef F
#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

typedef struct locale_box {
	vlocale_t l;            /* first: a vlocale_t* is a locale_box* */
	arena_t *a;
	unsigned char seen[NKEYS];
} locale_box_t;

/* ---- patterns ------------------------------------------------------- */

/* 1 when name (n bytes) is one of the comma-separated words of list. */
static int in_list(const char *list, const char *name, size_t n)
{
	for (const char *p = list; p && *p;) {
		const char *q = strchr(p, ',');
		size_t l = q ? (size_t)(q - p) : strlen(p);
		if (l == n && !strncmp(p, name, n))
			return 1;
		p = q ? q + 1 : NULL;
	}
	return 0;
}

/* 1 when the pattern holds {name} for some name of the |-separated group. */
static int has_one(const char *pat, const char *group, size_t glen)
{
	for (const char *p = group; p < group + glen;) {
		const char *q = memchr(p, '|', (size_t)(group + glen - p));
		size_t l = q ? (size_t)(q - p) : (size_t)(group + glen - p);
		char ph[40];
		snprintf(ph, sizeof(ph), "{%.*s}", (int)l, p);
		if (strstr(pat, ph))
			return 1;
		p = q ? q + 1 : group + glen;
	}
	return 0;
}

static void braced(buf_t *b, const char *list, char sep)
{
	for (const char *p = list; *p;) {
		const char *q = strchr(p, sep);
		size_t l = q ? (size_t)(q - p) : strlen(p);
		buf_printf(b, "%s{%.*s}", b->len ? ", " : "", (int)l, p);
		p = q ? q + 1 : p + l;
	}
}

static int check_pattern(const lkey_t *k, const char *v, const char *where, int line, int col,
                         errs_t *e)
{
	for (const char *p = strchr(v, '{'); p; p = strchr(p + 1, '{')) {
		const char *q = strchr(p, '}');
		if (!q)
			return err_at(e, where, line, col, "'%s': '{' is not closed in '%s'", k->path, v);
		if (!in_list(k->allowed, p + 1, (size_t)(q - p - 1))) {
			buf_t b;
			buf_init(&b);
			braced(&b, k->allowed, ',');
			err_at(e, where, line, col, "'%s': unknown placeholder {%.*s} in '%s'%s%s%s",
			       k->path, (int)(q - p - 1), p + 1, v, b.len ? " (it may hold " : "",
			       b.len ? b.s : " (it holds no placeholders", ")");
			buf_done(&b);
			return -1;
		}
	}
	for (const char *g = k->required; g && *g;) {
		const char *q = strchr(g, ';');
		size_t l = q ? (size_t)(q - g) : strlen(g);
		if (!has_one(v, g, l)) {
			char grp[80];
			snprintf(grp, sizeof(grp), "%.*s", (int)l, g);
			buf_t b;
			buf_init(&b);
			braced(&b, grp, '|');
			err_at(e, where, line, col, "'%s' must hold %s%s, got '%s'", k->path,
			       strchr(grp, '|') ? "one of " : "", b.s, v);
			buf_done(&b);
			return -1;
		}
		g = q ? q + 1 : g + l;
	}
	return 0;
}

/* ---- keys ----------------------------------------------------------- */

static const lkey_t *key_find(const char *path)
{
	for (int i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].path, path))
			return &keys[i];
	return NULL;
}

static int unknown_key(const char *path, const char *where, int line, int col, errs_t *e)
{
	const char *best = NULL;
	int bd = 4;
	for (int i = 0; i < NKEYS; i++) {
		int d = suggest_distance(path, keys[i].path);
		if (d < bd) {
			bd = d;
			best = keys[i].path;
		}
	}
	if (best)
		return err_at(e, where, line, col, "unknown locale key '%s'; did you mean '%s'?", path,
		              best);
	return err_at(e, where, line, col, "unknown locale key '%s'", path);
}

/* items: the list's strings (from YAML or split from "a,b,c") */
static int set_list(locale_box_t *b, const lkey_t *k, const char **items, int n,
                    const char *where, int line, int col, errs_t *e)
{
	if (k->n < 0)
		return 0;
	if (n != k->n)
		return err_at(e, where, line, col, "'%s' expects %d items, got %d", k->path, k->n, n);
	const char **dst = (const char **)((char *)&b->l + k->off);
	for (int i = 0; i < n; i++) {
		if (!items[i][0])
			return err_at(e, where, line, col, "'%s': item %d is empty", k->path, i + 1);
		dst[i] = arena_strdup(b->a, items[i]);
	}
	return 0;
}

static int set_scalar(locale_box_t *b, const lkey_t *k, const char *v, const char *where,
                      int line, int col, errs_t *e)
{
	char *base = (char *)&b->l;
	long bad = utf8_invalid_at(v, strlen(v));
	if (bad >= 0)
		return err_at(e, where, line, col, "'%s': invalid UTF-8 at byte %ld of the value",
		              k->path, bad);
	switch (k->kind) {
	case K_PAT:
		if (check_pattern(k, v, where, line, col, e))
			return -1;
		/* fall through */
	case K_STR:
		*(const char **)(base + k->off) = arena_strdup(b->a, v);
		return 0;
	case K_BOOL:
		if (!strcmp(v, "true") || !strcmp(v, "false")) {
			*(int *)(base + k->off) = v[0] == 't';
			return 0;
		}
		return err_at(e, where, line, col, "'%s' expects true or false, got '%s'", k->path, v);
	case K_LIST: {
		/* "a,b,c" (a layout override) */
		char *t = arena_strdup(b->a, v);
		const char *items[16];
		int n = 0;
		for (char *p = t; n < 16;) {
			char *q = strchr(p, ',');
			if (q)
				*q = '\0';
			items[n++] = p;
			if (!q)
				break;
			p = q + 1;
		}
		return set_list(b, k, items, n, where, line, col, e);
	}
	}
	return -1;
}

static int set_node(locale_box_t *b, const char *path, const ynode_t *v, const char *file,
                    const ynode_t *at, errs_t *e)
{
	const lkey_t *k = key_find(path);
	if (!k)
		return unknown_key(path, file, at->line, at->col, e);
	b->seen[k - keys] = 1;
	if (k->kind == K_LIST && v->kind == YD_SEQ) {
		const char *items[16];
		if (v->n > 16)
			return err_at(e, file, v->line, v->col, "'%s' expects %d items, got %d", path,
			              k->n, v->n);
		for (int i = 0; i < v->n; i++) {
			if (v->kids[i]->kind != YD_SCALAR)
				return err_at(e, file, v->kids[i]->line, v->kids[i]->col,
				              "'%s' expects a list of strings", path);
			long bad = utf8_invalid_at(v->kids[i]->str, v->kids[i]->len);
			if (bad >= 0)
				return err_at(e, file, v->kids[i]->line, v->kids[i]->col,
				              "'%s': invalid UTF-8 at byte %ld", path, bad);
			items[i] = v->kids[i]->str;
		}
		return set_list(b, k, items, v->n, file, v->line, v->col, e);
	}
	if (v->kind != YD_SCALAR)
		return err_at(e, file, v->line, v->col, "'%s' expects %s, got %s", path,
		              k->kind == K_LIST ? "a list" : "a string", ydoc_kind_name(v->kind));
	return set_scalar(b, k, v->str, file, v->line, v->col, e);
}

/* snprintf(out, size, "%s%s%.60s", prefix, *prefix ? "." : "", key),
 * without its set-up (once per key of a locale file). */
static void key_path(char *out, size_t size, const char *prefix, const char *key)
{
	size_t n = 0;
	for (const char *p = prefix; *p && n + 1 < size; p++)
		out[n++] = *p;
	if (*prefix && n + 1 < size)
		out[n++] = '.';
	for (size_t i = 0; key[i] && i < 60 && n + 1 < size; i++)
		out[n++] = key[i];
	out[n] = '\0';
}

static int walk(locale_box_t *b, const ynode_t *m, const char *prefix, const char *file,
                errs_t *e)
{
	int rc = 0;
	for (int i = 0; i < m->n; i++) {
		const ynode_t *k = m->kids[2 * i], *v = m->kids[2 * i + 1];
		if (k->kind != YD_SCALAR) {
			rc = err_at(e, file, k->line, k->col, "locale keys must be plain names");
			continue;
		}
		char path[128];
		key_path(path, sizeof(path), prefix, k->str);
		if (v->kind == YD_MAP && !*prefix)
			rc |= walk(b, v, path, file, e);
		else
			rc |= set_node(b, path, v, file, k, e);
	}
	return rc;
}

/* ---- lookup --------------------------------------------------------- */

/* Codes are letters, digits, '-' and '_' ("zh-Hant", "pt_BR"): nothing
 * that could leave the locales directory. */
static int code_ok(const char *code)
{
	size_t n = strlen(code);
	if (n < 2 || n > 35)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)code[i]) && code[i] != '-' && code[i] != '_')
			return 0;
	return 1;
}

static int same_code_char(char a, char b)
{
	int x = a == '_' ? '-' : tolower((unsigned char)a);
	int y = b == '_' ? '-' : tolower((unsigned char)b);
	return x == y;
}

static int same_code(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (!same_code_char(*a, *b))
			return 0;
	return *a == *b;
}

/* A regular file (never waits on a FIFO: see file.h). */
static int file_exists(const char *path)
{
	int fd = file_open(path, FILE_MAX_TEXT, NULL, NULL);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* 1 when text[0..n) may hold a scalar that same_code() finds equal to
 * code: it holds code itself (case and - or _ aside), or a backslash (a
 * double-quoted scalar's escapes could spell it). */
static int may_hold(const char *text, size_t n, const char *code)
{
	size_t m = strlen(code);
	if (!m || memchr(text, '\\', n))
		return 1;
	/* each place the first byte is, in either of its two spellings */
	char c0 = code[0] == '_' ? '-' : (char)tolower((unsigned char)code[0]);
	char c1 = c0 == '-' ? '_' : (char)toupper((unsigned char)c0);
	for (int pass = 0; pass < 1 + (c1 != c0); pass++) {
		const char *t = text, *end = text + n;
		while (end - t >= (ptrdiff_t)m && (t = memchr(t, pass ? c1 : c0, (size_t)(end - t) - m + 1))) {
			size_t k = 1;
			while (k < m && same_code_char(t[k], code[k]))
				k++;
			if (k == m)
				return 1;
			t++;
		}
	}
	return 0;
}

/* Parse a locale file into a's memory; NULL (with errors) on failure.
 * With need, a file that cannot name the locale need (may_hold) is not
 * parsed: NULL, no error. */
static const ynode_t *parse_file(arena_t *a, const char *path, const char *need, errs_t *e)
{
	buf_t text;
	buf_init(&text);
	ynode_t *root = NULL;
	const char *why;
	if (file_read(&text, path, FILE_MAX_TEXT, &why)) {
		err_sys(e, path, "cannot read the locale: %s", why);
	} else if (need && !may_hold(text.s ? text.s : "", text.len, need)) {
		root = NULL;
	} else if (ydoc_parse(a, path, text.s ? text.s : "", text.len, &root, e) == 0 &&
	           root->kind != YD_MAP) {
		err_at(e, path, root->line, root->col, "a locale is a map of keys (see docs/locales.md)");
		root = NULL;
	}
	buf_done(&text);
	return root;
}

typedef int (*visit_fn)(const char *path, const char *name, void *ctx);

/* Call fn(path, code-or-alias) for every code and alias of every file in
 * dirs until it returns nonzero; with need, only of the files that may
 * name need (fn finds nothing in the others: reading a CJK CV's "zh"
 * parsed every locale before zh-Hans). */
static int scan(const char *const *dirs, const char *need, visit_fn fn, void *ctx)
{
	for (int i = 0; dirs && dirs[i]; i++) {
		char *names[256];
		int n = datadir_names(dirs[i], names, 256);
		int hit = 0;
		for (int j = 0; j < n && !hit; j++) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s.yaml", dirs[i], names[j]);
			arena_t *a = arena_new();
			errs_t e;
			errs_init(&e);
			const ynode_t *root = parse_file(a, path, need, &e);
			const ynode_t *c = root ? ydoc_get(root, "code") : NULL;
			const ynode_t *al = root ? ydoc_get(root, "aliases") : NULL;
			if (c && c->kind == YD_SCALAR)
				hit = fn(path, c->str, ctx);
			for (int k = 0; !hit && al && al->kind == YD_SEQ && k < al->n; k++)
				if (al->kids[k]->kind == YD_SCALAR)
					hit = fn(path, al->kids[k]->str, ctx);
			errs_done(&e);
			arena_free(a);
		}
		for (int j = 0; j < n; j++)
			free(names[j]);
		if (hit)
			return 1;
	}
	return 0;
}

typedef struct want {
	const char *code;
	buf_t *path;
} want_t;

static int match_alias(const char *path, const char *name, void *ctx)
{
	want_t *w = ctx;
	if (!same_code(name, w->code))
		return 0;
	buf_reset(w->path);
	buf_puts(w->path, path);
	return 1;
}

static int find_one(const char *code, const char *const *dirs, buf_t *path)
{
	for (int i = 0; dirs && dirs[i]; i++) {
		buf_reset(path);
		buf_printf(path, "%s/%s.yaml", dirs[i], code);
		if (file_exists(path->s))
			return 0;
	}
	want_t w = {code, path};
	return scan(dirs, code, match_alias, &w) ? 0 : -1;
}

/* code, then code without its region or script ("pt-BR" -> "pt"). */
static int find_locale(const char *code, const char *const *dirs, buf_t *path)
{
	if (!code_ok(code))
		return -1;
	if (find_one(code, dirs, path) == 0)
		return 0;
	char base[40];
	size_t n = strcspn(code, "-_");
	if (!code[n])
		return -1;
	snprintf(base, sizeof(base), "%.*s", (int)n, code);
	return find_one(base, dirs, path);
}

int locale_exists(const char *code, const char *const *dirs)
{
	buf_t p;
	buf_init(&p);
	int ok = find_locale(code, dirs, &p) == 0;
	buf_done(&p);
	return ok;
}

typedef struct near {
	const char *code;
	char best[40];
	int d;
} near_t;

static int nearest(const char *path, const char *name, void *ctx)
{
	(void)path;
	near_t *n = ctx;
	int d = suggest_distance(n->code, name);
	if (d < n->d && strlen(name) < sizeof(n->best)) {
		n->d = d;
		snprintf(n->best, sizeof(n->best), "%s", name);
	}
	return 0;
}

const char *locale_suggest(const char *code, const char *const *dirs)
{
	static near_t n;
	memset(&n, 0, sizeof(n));
	n.code = code;
	n.d = strlen(code) <= 3 ? 2 : 3;
	scan(dirs, NULL, nearest, &n);
	return n.best[0] ? n.best : NULL;
}

/* ---- loading -------------------------------------------------------- */

vlocale_t *locale_load(const char *code, const char *const *dirs, const char *where, int line,
                      int col, errs_t *e)
{
	buf_t path;
	buf_init(&path);
	if (find_locale(code, dirs, &path)) {
		const char *s = code_ok(code) ? locale_suggest(code, dirs) : NULL;
		if (s)
			err_at(e, where, line, col, "unknown language '%.40s'; did you mean '%s'?", code, s);
		else
			err_at(e, where, line, col, "unknown language '%.40s' (no file locales/%.40s.yaml; "
			       "docs/locales.md lists the languages)", code, code);
		buf_done(&path);
		return NULL;
	}
	locale_box_t *b = xcalloc(1, sizeof(*b));
	b->a = arena_new();
	const char *file = arena_strdup(b->a, path.s);
	buf_done(&path);
	b->l.file = file;
	deps_add(file);
	const ynode_t *root = parse_file(b->a, file, NULL, e);
	int rc = root ? walk(b, root, "", file, e) : -1;
	for (int i = 0; root && i < NKEYS; i++)
		if (!b->seen[i] && !keys[i].optional)
			rc = err_at(e, file, root->line, root->col,
			            "missing key '%s' in the locale (docs/locales.md lists them)",
			            keys[i].path);
	if (rc) {
		locale_free(&b->l);
		return NULL;
	}
	for (int i = 0; i < 12; i++)
		if (!b->l.months_of[i])
			b->l.months_of[i] = b->l.months[i];
	return &b->l;
}

int locale_set(vlocale_t *l, const char *key, const char *value, const char *where, int line,
               int col, errs_t *e)
{
	const lkey_t *k = key_find(key);
	if (!k || k->n < 0 || !strcmp(key, "code"))
		return unknown_key(key, where, line, col, e);
	return set_scalar((locale_box_t *)l, k, value, where, line, col, e);
}

vlocale_t *locale_dup(const vlocale_t *l)
{
	locale_box_t *c = xcalloc(1, sizeof(*c));
	*c = *(const locale_box_t *)l;   /* the strings stay in l's arena */
	c->a = arena_new();              /* locale_set copies into this one */
	return &c->l;
}

void locale_free(vlocale_t *l)
{
	if (!l)
		return;
	locale_box_t *b = (locale_box_t *)l;
	arena_free(b->a);
	free(b);
}

/* ---- use ------------------------------------------------------------ */

static void fill_v(buf_t *out, const char *pat, va_list ap)
{
	const char *names[16], *vals[16];
	int n = 0;
	for (const char *k; n < 16 && (k = va_arg(ap, const char *));) {
		names[n] = k;
		vals[n++] = va_arg(ap, const char *);
	}
	for (const char *p = pat; *p; p++) {
		if (*p == '{') {
			const char *q = strchr(p, '}');
			int i = 0;
			for (; q && i < n; i++)
				if (strlen(names[i]) == (size_t)(q - p - 1) &&
				    !strncmp(names[i], p + 1, (size_t)(q - p - 1)))
					break;
			if (q && i < n) {
				buf_puts(out, vals[i] ? vals[i] : "");
				p = q;
				continue;
			}
		}
		buf_putc(out, *p);
	}
}

void locale_fill(buf_t *out, const char *pattern, ...)
{
	va_list ap;
	va_start(ap, pattern);
	fill_v(out, pattern, ap);
	va_end(ap);
}

/* snprintf(out, size, two ? "%02d" : "%d", v), without its set-up (six
 * of them per date were 4,000 instructions). */
static void put_int(char *out, size_t size, int v, int two)
{
	char t[16];
	int n = 0;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do
		t[n++] = (char)('0' + u % 10);
	while (u /= 10);
	if (two && n < 2 - (v < 0))
		t[n++] = '0';
	if (v < 0)
		t[n++] = '-';
	size_t k = 0;
	while (n > 0 && k + 1 < size)
		out[k++] = t[--n];
	out[k] = '\0';
}

void locale_digits(const vlocale_t *l, const char *ascii, buf_t *out)
{
	if (!l->digits[0]) {
		buf_puts(out, ascii);
		return;
	}
	for (const char *p = ascii; *p; p++) {
		if (*p >= '0' && *p <= '9')
			buf_puts(out, l->digits[*p - '0']);
		else
			buf_putc(out, *p);
	}
}

void locale_int(const vlocale_t *l, long n, buf_t *out)
{
	char t[24];
	put_int(t, sizeof(t), (int)n, 0);
	locale_digits(l, t, out);
}

void locale_date(const vlocale_t *l, int precision, int y, int m, int d, buf_t *out)
{
	char year[16], yy[8], mn[8], mm[8], dn[8], dd[8];
	put_int(year, sizeof(year), y, 0);
	put_int(yy, sizeof(yy), ((y % 100) + 100) % 100, 1);
	put_int(mn, sizeof(mn), m, 0);
	put_int(mm, sizeof(mm), m, 1);
	put_int(dn, sizeof(dn), d, 0);
	put_int(dd, sizeof(dd), d, 1);
	int k = m >= 1 && m <= 12 ? m - 1 : 0;
	const char *pat = precision == LOCALE_DAY ? l->date_day
	                  : precision == LOCALE_MONTH ? l->date_month : l->date_year;
	if (l->digits[0]) {
		/* the fields in the locale's digits */
		char *f[6] = {year, yy, mn, mm, dn, dd};
		buf_t t;
		buf_init(&t);
		size_t off[6];
		for (int i = 0; i < 6; i++) {
			off[i] = t.len;
			locale_digits(l, f[i], &t);
			buf_putc(&t, '\0');
		}
		locale_fill(out, pat, "year", t.s + off[0], "yy", t.s + off[1], "month", l->months[k],
		            "mon", l->months_short[k], "month_of", l->months_of[k], "m", t.s + off[2],
		            "mm", t.s + off[3], "d", t.s + off[4], "dd", t.s + off[5], (const char *)NULL);
		buf_done(&t);
		return;
	}
	locale_fill(out, pat, "year", year, "yy", yy, "month", l->months[k], "mon",
	            l->months_short[k], "month_of", l->months_of[k], "m", mn, "mm", mm, "d", dn,
	            "dd", dd, (const char *)NULL);
}

/* ---- smart punctuation -------------------------------------------- */

static int is_alnum_cp(uint32_t c)
{
	return (c < 0x80 && isalnum((int)c)) || (c >= 0xC0 && c != 0xD7 && c != 0xF7 &&
	                                         !(c >= 0x2000 && c <= 0x2BFF) &&
	                                         !(c >= 0x3000 && c <= 0x303F) &&
	                                         !(c >= 0xFF00 && c <= 0xFF0F));
}

/* Where an opening quote goes: the start, after a space, an opening
 * bracket, a dash or another opening quote. */
static int opens_after(uint32_t p)
{
	return p == 0 || p == ' ' || p == '\t' || p == '\n' || p == 0xA0 || p == '(' ||
	       p == '[' || p == '{' || p == 0x2013 || p == 0x2014 || p == '/' || p == 0x201C ||
	       p == 0x2018 || p == 0x201E || p == 0xAB || p == 0x300C || p == '-';
}

/* A word (up to the next space) that must stay as written: its length,
 * or 0. One pass over the word (it is asked at every word start). */
static size_t verbatim_word(const char *s, size_t n, size_t i)
{
	size_t j = i;
	int at = 0, dot = 0, slash = 0, scheme = 0;
	for (; j < n && s[j] != ' ' && s[j] != '\t' && s[j] != '\n'; j++) {
		char ch = s[j];
		if (ch == '@')
			at = 1;
		else if (ch == '.')
			dot = 1;
		else if (ch == '/')
			slash = 1;
		else if (ch == ':' && j + 2 < n && s[j + 1] == '/' && s[j + 2] == '/')
			scheme = 1;   /* "://" */
	}
	size_t len = j - i;
	const char *w = s + i;
	int url = (at && dot) || (len > 3 && scheme) || (len > 4 && !strncmp(w, "www.", 4)) ||
	          (len > 4 && !strncmp(w, "doi:", 4)) || (len > 3 && !strncmp(w, "10.", 3) &&
	                                                  slash);
	return url ? len : 0;
}

/* What locale_smart's ASCII runs stop at (and NUL, as strchr did). */
static const unsigned char smart_stop[128] = {
	[0] = 1, ['\''] = 1, ['"'] = 1, ['.'] = 1, ['-'] = 1, ['`'] = 1,
};

static int is_digit_at(const char *s, size_t n, size_t i)
{
	return i < n && s[i] >= '0' && s[i] <= '9';
}

/* A hyphen at s[i] between two numbers of 1-4 digits that are not part of
 * a longer chain (ISBN 978-3-16, a phone number). */
static int number_range(const char *s, size_t n, size_t i)
{
	size_t a = i, b = i + 1;
	while (a > 0 && is_digit_at(s, n, a - 1))
		a--;
	while (is_digit_at(s, n, b))
		b++;
	if (a == i || b == i + 1 || i - a > 4 || b - i - 1 > 4)
		return 0;
	if ((a > 0 && (s[a - 1] == '-' || s[a - 1] == '.' || s[a - 1] == '/' ||
	               isalpha((unsigned char)s[a - 1]))) ||
	    (b < n && (s[b] == '-' || s[b] == '/' || isalpha((unsigned char)s[b]) ||
	               (s[b] == '.' && is_digit_at(s, n, b + 1)))))
		return 0;
	return 1;
}

void locale_smart(const vlocale_t *l, const char *s, size_t n, uint32_t *prev, buf_t *out)
{
	uint32_t p = prev ? *prev : 0;
	int code = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t v;
		if (!code && (p == 0 || p == ' ' || p == '\t' || p == '\n' || p == '(') &&
		    (v = verbatim_word(s, n, i)) > 0) {
			buf_add(out, s + i, v);
			i += v;
			p = (unsigned char)s[i - 1];
			continue;
		}
		if (c == '`')
			code = !code;
		if (c < 0x80 && (code || !strchr("'\".-", c))) {
			/* a run of ASCII with nothing to change, up to a word start
			   the verbatim check must see or the next backquote */
			size_t j = i + 1;
			p = c;
			while (j < n && (unsigned char)s[j] < 0x80 && !smart_stop[(unsigned char)s[j]] &&
			       (code || (p != ' ' && p != '\t' && p != '\n' && p != '(')))
				p = (unsigned char)s[j++];
			buf_add(out, s + i, j - i);
			i = j;
			continue;
		}
		if (code || c >= 0x80 || !strchr("'\".-", c)) {
			uint32_t cp;
			int len = utf8_decode(s + i, n - i, &cp);
			len = len > 0 ? len : 1;
			buf_add(out, s + i, (size_t)len);
			i += (size_t)len;
			p = cp;
			continue;
		}
		uint32_t q = 0;
		if (i + 1 < n)
			utf8_decode(s + i + 1, n - i - 1, &q);
		const char *put = NULL;
		size_t used = 1;
		if (c == '.' && i + 2 < n && s[i + 1] == '.' && s[i + 2] == '.') {
			put = "\u2026";
			used = 3;
		} else if (c == '-' && i + 2 < n && s[i + 1] == '-' && s[i + 2] == '-') {
			put = "\u2014";
			used = 3;
		} else if (c == '-' && i + 1 < n && s[i + 1] == '-') {
			put = "\u2013";
			used = 2;
		} else if (c == '-' && p == ' ' && q == ' ') {
			put = "\u2013";
		} else if (c == '-' && number_range(s, n, i)) {
			put = "\u2013";
		} else if (c == '\'') {
			/* before a digit: an elision ('26, arXiv '2508), never a quote */
			int year = is_digit_at(s, n, i + 1);
			if (is_alnum_cp(p) && is_alnum_cp(q))
				put = "\u2019";                       /* Master’s, don’t */
			else if (opens_after(p) && year)
				put = "\u2019";                       /* ’26 */
			else
				put = opens_after(p) ? l->quotes[2] : l->quotes[3];
		} else if (c == '"') {
			put = opens_after(p) ? l->quotes[0] : l->quotes[1];
		}
		if (put) {
			buf_puts(out, put);
			/* the last code point put */
			for (const char *t = put; *t;) {
				uint32_t x;
				int len = utf8_decode(t, strlen(t), &x);
				p = x;
				t += len > 0 ? len : 1;
			}
		} else {
			buf_putc(out, c);
			p = c;
		}
		i += used;
	}
	if (prev)
		*prev = p;
}

void locale_list(const char *const *dirs, FILE *out)
{
	for (int i = 0; dirs && dirs[i]; i++) {
		char *names[256];
		int n = datadir_names(dirs[i], names, 256);
		for (int j = 0; j < n; j++) {
			errs_t e;
			errs_init(&e);
			vlocale_t *l = code_ok(names[j]) ? locale_load(names[j], dirs, NULL, 0, 0, &e) : NULL;
			fprintf(out, "%-8s %s\n", names[j], l ? l->name : "(cannot be loaded)");
			locale_free(l);
			errs_done(&e);
			free(names[j]);
		}
	}
}
