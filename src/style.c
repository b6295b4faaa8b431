/* style: layouts/<name>.yaml -> style_t.
 *
 * One table (keys[]) names every layout key with its type and field; the
 * YAML loader flattens nested maps into dotted paths ("page.margin.top")
 * and feeds each value through style_set, exactly as `--set` does. Unknown
 * keys get a "did you mean". Call: style_load(name, dirs, e), then
 * style_set(...) for each override, style_free when done.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena.h"
#include "buf.h"
#include "file.h"
#include "style.h"
#include "suggest.h"
#include "utf8.h"
#include "ydoc.h"
#include "deps.h"

enum { T_LEN, T_PERMILLE, T_COLOR, T_STR, T_BOOL, T_ENUM, T_PAGE, T_WORD };

/* Upper bounds of a T_LEN key (bounds[] below the key table), checked by
 * style_check once every override is in (so a bigger page may come after
 * a bigger indent): B_DOWN (the default) at most half the text height,
 * B_ACROSS at most half the text width, B_RULE at most 20 pt. page.* and
 * sizes.* have their own ranges (len_bounds). */
enum { B_DOWN, B_ACROSS, B_RULE };

typedef struct key {
	const char *path;
	int type;
	size_t off;
	const char *choices;   /* T_ENUM: "a|b|c" -> 0, 1, 2; T_WORD: the locale key */
} key_t_;

#define F(f) offsetof(style_t, f)
static const key_t_ keys[] = {
	{"page.size", T_PAGE, 0, "a4|letter"},
	{"page.width", T_LEN, F(page_w), NULL},
	{"page.height", T_LEN, F(page_h), NULL},
	{"page.margin.top", T_LEN, F(margin_top), NULL},
	{"page.margin.bottom", T_LEN, F(margin_bottom), NULL},
	{"page.margin.left", T_LEN, F(margin_left), NULL},
	{"page.margin.right", T_LEN, F(margin_right), NULL},
	{"fonts.body", T_STR, F(font_body), NULL},
	{"fonts.heading", T_STR, F(font_heading), NULL},
	{"lang", T_STR, F(lang), NULL},
	{"sizes.body", T_LEN, F(size_body), NULL},
	{"sizes.small", T_LEN, F(size_small), NULL},
	{"sizes.name", T_LEN, F(size_name), NULL},
	{"sizes.native", T_LEN, F(size_native), NULL},
	{"sizes.headline", T_LEN, F(size_headline), NULL},
	{"sizes.section", T_LEN, F(size_section), NULL},
	{"sizes.footer", T_LEN, F(size_footer), NULL},
	{"leading", T_PERMILLE, F(leading), NULL},
	{"leading_cjk", T_PERMILLE, F(leading_cjk), NULL},
	{"colors.text", T_COLOR, F(c_text), NULL},
	{"colors.muted", T_COLOR, F(c_muted), NULL},
	{"colors.accent", T_COLOR, F(c_accent), NULL},
	{"colors.link", T_COLOR, F(c_link), NULL},
	{"colors.rule", T_COLOR, F(c_rule), NULL},
	{"colors.highlight", T_COLOR, F(c_highlight), NULL},
	{"colors.badge", T_COLOR, F(c_badge), NULL},
	{"header.align", T_ENUM, F(header_align), "left|center"},
	{"header.gap", T_LEN, F(header_gap), NULL},
	{"header.separator", T_STR, F(contact_sep), NULL},
	{"section.uppercase", T_BOOL, F(section_upper), NULL},
	{"section.style", T_ENUM, F(section_style), "regular|bold|italic|bold-italic"},
	{"section.before", T_LEN, F(section_before), NULL},
	{"section.after", T_LEN, F(section_after), NULL},
	{"section.rule", T_LEN, F(section_rule), NULL},
	{"entry.gap", T_LEN, F(entry_gap), NULL},
	{"entry.date_gap", T_LEN, F(date_gap), NULL},
	{"entry.months", T_WORD, 0, "months_short"},
	{"entry.present", T_WORD, 0, "present"},
	{"entry.date_separator", T_WORD, 0, "range"},
	{"entry.bullet", T_STR, F(bullet), NULL},
	{"entry.bullet_indent", T_LEN, F(bullet_indent), NULL},
	{"publications.label", T_ENUM, F(pub_label), "venue|number"},
	{"publications.label_width", T_LEN, F(pub_label_width), NULL},
	{"publications.gap", T_LEN, F(pub_gap), NULL},
	{"publications.badge_prefix", T_WORD, 0, "badges"},
	{"news.date_width", T_LEN, F(news_date_width), NULL},
	{"text.align", T_ENUM, F(text_align), "left|center|right|justify"},
	{"text.hyphenate", T_BOOL, F(hyphenate), NULL},
	{"text.gap", T_LEN, F(para_gap), NULL},
	{"footer.show", T_BOOL, F(footer), NULL},
	{"footer.text", T_WORD, 0, "footer"},
	{"footer.updated", T_WORD, 0, "updated"},
};
#undef F
#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

/* The lengths of keys[] that are not B_DOWN. */
static const struct { const char *path; int bound; } bounds[] = {
	{"entry.date_gap", B_ACROSS},
	{"entry.bullet_indent", B_ACROSS},
	{"publications.label_width", B_ACROSS},
	{"news.date_width", B_ACROSS},
	{"section.rule", B_RULE},
};

static int key_bound(const key_t_ *k)
{
	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
		if (!strcmp(bounds[i].path, k->path))
			return bounds[i].bound;
	return B_DOWN;
}

typedef struct from {        /* where a layout or a value was named */
	const char *file;        /* NULL: the command line */
	int line, col;
} from_t;

#define STYLE_MAX_EXTENDS 16

typedef struct style_box {
	style_t s;             /* first: a style_t* is a style_box* */
	arena_t *a;
	int confined;          /* STYLE_CONFINED: names only, from dirs */
	const char *chain[STYLE_MAX_EXTENDS + 1];  /* files being loaded (extends) */
	int depth;
	from_t at[NKEYS];      /* where each key was last set (file NULL: never) */
} style_box_t;

static void style_defaults(style_t *s)
{
	s->page_w = 595276; s->page_h = 841890;
	s->margin_top = s->margin_bottom = 56693;
	s->margin_left = s->margin_right = 56693;
	s->font_body = s->font_heading = "serif";
	s->lang = "en";
	s->size_body = 10000; s->size_small = 8500; s->size_name = 22000;
	s->size_native = 0; s->size_headline = 11000; s->size_section = 11500;
	s->size_footer = 8000;
	s->leading = 1250;
	s->leading_cjk = 1600;   /* W3C clreq: 1.5 to 2 for body text */
	s->c_text = 0x1a1a1a; s->c_muted = 0x555555; s->c_accent = 0x1f4e79;
	s->c_link = 0x1f4e79; s->c_rule = 0x1f4e79; s->c_highlight = 0x8b1a1a;
	s->c_badge = 0x1f4e79;
	s->header_align = ST_CENTER;
	s->header_gap = 10000;
	s->contact_sep = "  \u00b7  ";
	s->section_upper = 0; s->section_style = 1; /* "bold": FONT_BOLD */
	s->section_before = 12000; s->section_after = 5000; s->section_rule = 500;
	s->entry_gap = 5000; s->date_gap = 12000;
	s->bullet = "\u2022"; s->bullet_indent = 11000;
	s->pub_label = 0; s->pub_label_width = 62000; s->pub_gap = 5000;
	s->news_date_width = 62000;
	s->text_align = ST_JUSTIFY; s->hyphenate = 1; s->para_gap = 4000;
	s->footer = 1;
}

static const key_t_ *key_find(const char *path, size_t n)
{
	for (int i = 0; i < NKEYS; i++)
		if (strlen(keys[i].path) == n && !strncmp(keys[i].path, path, n))
			return &keys[i];
	return NULL;
}

static const char *key_suggest(const char *path)
{
	const char *best = NULL;
	int bd = 4;
	for (int i = 0; i < NKEYS; i++) {
		int d = suggest_distance(path, keys[i].path);
		const char *dot = strrchr(keys[i].path, '.');
		const char *pd = strrchr(path, '.');
		if (dot && pd && !strcmp(dot, pd) && d > 2)
			d = 3; /* same last component, other group */
		if (d < bd) {
			bd = d;
			best = keys[i].path;
		}
	}
	return best;
}

/* "10", "10.5", "10pt", "2mm", "1cm", "0.5in" -> u */
static int parse_len(const char *v, int32_t *out)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v)
		return -1;
	while (*end == ' ')
		end++;
	double k = 1000.0;
	if (!*end || !strcmp(end, "pt")) k = 1000.0;
	else if (!strcmp(end, "mm")) k = 72000.0 / 25.4;
	else if (!strcmp(end, "cm")) k = 720000.0 / 25.4;
	else if (!strcmp(end, "in")) k = 72000.0;
	else return -1;
	x *= k;
	if (!(x >= 0 && x < 1e9))
		return -1;
	*out = (int32_t)lround(x);
	return 0;
}

static int parse_color(const char *v, uint32_t *out)
{
	if (v[0] != '#' || strlen(v) != 7)
		return -1;
	for (int i = 1; i < 7; i++)
		if (!isxdigit((unsigned char)v[i]))
			return -1;
	*out = (uint32_t)strtoul(v + 1, NULL, 16);
	return 0;
}

static int parse_enum(const char *choices, const char *v)
{
	int idx = 0;
	size_t n = strlen(v);
	for (const char *p = choices; *p; idx++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && !strncmp(p, v, n))
			return idx;
		if (!bar)
			break;
		p = bar + 1;
	}
	return -1;
}

/* Bounds beyond "a length": a font size of 0 draws nothing and a page
 * beyond PDF's 14,400 pt cannot be written. */
static int len_bounds(const key_t_ *k, int32_t *lo, int32_t *hi, const char **what)
{
	if (!strncmp(k->path, "sizes.", 6)) {
		*lo = 1000, *hi = 200000, *what = "a font size from 1 to 200 (points)";
		return 1;
	}
	if (!strcmp(k->path, "page.width") || !strcmp(k->path, "page.height")) {
		*lo = 72000, *hi = 14400000, *what = "a page length from 72 to 14400 (points)";
		return 1;
	}
	return 0;
}

static int set_len(const key_t_ *k, int32_t *out, const char *v,
                   const char *where, int line, int col, errs_t *e)
{
	int32_t x, lo, hi;
	const char *what;
	if (parse_len(v, &x))
		return err_at(e, where, line, col,
		              "'%s' expects a length (10, 10.5pt, 2mm, 1cm, 0.5in), got '%s'",
		              k->path, v);
	if (!len_bounds(k, &lo, &hi, &what))
		lo = 0, hi = 14400000, what = "a length from 0 to 14400 (points)";
	if (x < lo || x > hi)
		return err_at(e, where, line, col, "'%s' expects %s, got '%s'", k->path, what, v);
	*out = x;
	return 0;
}

static int set_value(style_box_t *b, const key_t_ *k, const char *v,
                     const char *where, int line, int col, errs_t *e)
{
	char *base = (char *)&b->s;
	long bad = utf8_invalid_at(v, strlen(v));
	if (bad >= 0)
		return err_at(e, where, line, col, "'%s': invalid UTF-8 at byte %ld of the value",
		              k->path, bad);
	switch (k->type) {
	case T_LEN:
		return set_len(k, (int32_t *)(base + k->off), v, where, line, col, e);
	case T_PERMILLE: {
		char *end;
		double x = strtod(v, &end);
		if (end == v || *end || !(x >= 0.5 && x <= 5))
			return err_at(e, where, line, col,
			              "'%s' expects a number from 0.5 to 5 such as 1.25, got '%s'",
			              k->path, v);
		*(int32_t *)(base + k->off) = (int32_t)lround(x * 1000);
		return 0;
	}
	case T_COLOR:
		if (parse_color(v, (uint32_t *)(base + k->off)))
			return err_at(e, where, line, col, "'%s' expects a colour \"#rrggbb\", got '%s'",
			              k->path, v);
		return 0;
	case T_STR:
		*(const char **)(base + k->off) = arena_strdup(b->a, v);
		return 0;
	case T_BOOL:
		if (!strcmp(v, "true") || !strcmp(v, "yes"))
			*(int *)(base + k->off) = 1;
		else if (!strcmp(v, "false") || !strcmp(v, "no"))
			*(int *)(base + k->off) = 0;
		else
			return err_at(e, where, line, col, "'%s' expects true or false, got '%s'",
			              k->path, v);
		return 0;
	case T_ENUM: {
		int x = parse_enum(k->choices, v);
		if (x < 0)
			return err_at(e, where, line, col, "'%s' expects one of %s, got '%s'",
			              k->path, k->choices, v);
		if (k->off == offsetof(style_t, text_align))
			x = (int[]){ST_LEFT, ST_CENTER, ST_RIGHT, ST_JUSTIFY}[x];
		if (k->off == offsetof(style_t, header_align))
			x = x ? ST_CENTER : ST_LEFT;
		*(int *)(base + k->off) = x;
		return 0;
	}
	case T_WORD: /* handled by set_path */
		return 0;
	case T_PAGE:
		if (!strcmp(v, "a4")) {
			b->s.page_w = 595276; b->s.page_h = 841890;
		} else if (!strcmp(v, "letter")) {
			b->s.page_w = 612000; b->s.page_h = 792000;
		} else {
			return err_at(e, where, line, col, "'page.size' expects a4 or letter, got '%s'", v);
		}
		return 0;
	}
	return -1;
}

/* A word for the locale: checked when main applies it (locale_set). */
static int add_word(style_box_t *b, const char *key, size_t klen, const char *v,
                    const char *where, int line, int col)
{
	style_t *s = &b->s;
	s->words = arena_grow(b->a, s->words, sizeof(*s->words) * (size_t)s->nwords,
	                      sizeof(*s->words) * (size_t)(s->nwords + 1));
	style_word_t *w = &s->words[s->nwords++];
	w->key = arena_strndup(b->a, key, klen);
	/* entry.date_separator is the part of the range pattern between dates */
	w->value = strcmp(w->key, "range") || strstr(v, "{start}") ? arena_strdup(b->a, v)
	           : arena_printf(b->a, "{start}%s{end}", v);
	w->file = where ? arena_strdup(b->a, where) : NULL;
	w->line = line;
	w->col = col;
	return 0;
}

static int set_path(style_box_t *b, const char *path, size_t plen, const char *v,
                    const char *where, int line, int col, errs_t *e)
{
	if (plen > 7 && !strncmp(path, "locale.", 7))
		return add_word(b, path + 7, plen - 7, v, where, line, col);
	const key_t_ *k = key_find(path, plen);
	if (k && k->type == T_WORD)
		return add_word(b, k->choices, strlen(k->choices), v, where, line, col);
	if (!k) {
		char tmp[256];
		snprintf(tmp, sizeof(tmp), "%.*s", (int)plen, path);
		const char *s = key_suggest(tmp);
		if (s)
			return err_at(e, where, line, col, "unknown layout key '%s'; did you mean '%s'?", tmp, s);
		return err_at(e, where, line, col, "unknown layout key '%s'", tmp);
	}
	if (set_value(b, k, v, where, line, col, e))
		return -1;
	b->at[k - keys] = (from_t){where ? arena_strdup(b->a, where) : "--set", line, col};
	return 0;
}

int style_set(style_t *s, const char *kv, const char *where, int line, int col, errs_t *e)
{
	const char *eq = strchr(kv, '=');
	if (!eq)
		return err_at(e, where, line, col, "expected KEY=VALUE, got '%s'", kv);
	return set_path((style_box_t *)s, kv, (size_t)(eq - kv), eq + 1, where, line, col, e);
}

/* The layout in DIRS whose name is closest to NAME (a typo), into NEAR. */
static int layout_suggest(const char *name, const char *const *dirs, char *near, size_t size)
{
	int best = 3;
	if (strchr(name, '/'))
		return 0;
	for (int i = 0; dirs && dirs[i]; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);
			if (l <= 5 || l - 5 >= size || strcmp(de->d_name + l - 5, ".yaml"))
				continue;
			char base[256];
			snprintf(base, sizeof(base), "%.*s", (int)(l - 5), de->d_name);
			int dist = suggest_distance(name, base);
			if (dist < best && dist <= (int)strlen(base) / 2) {
				best = dist;
				snprintf(near, size, "%s", base);
			}
		}
		closedir(d);
	}
	return best < 3;
}

static int load_into(style_box_t *b, const char *name, const char *const *dirs,
                     const from_t *from, errs_t *e);

static int walk(style_box_t *b, const ynode_t *m, buf_t *path, const char *file, errs_t *e)
{
	int rc = 0;
	for (int i = 0; i < m->n; i++) {
		const ynode_t *k = m->kids[2 * i], *v = m->kids[2 * i + 1];
		size_t keep = path->len;
		if (k->kind != YD_SCALAR) {
			rc = err_at(e, file, k->line, k->col, "layout keys must be plain names");
			continue;
		}
		if (path->len)
			buf_putc(path, '.');
		buf_puts(path, k->str);
		if (v->kind == YD_MAP) {
			if (walk(b, v, path, file, e))
				rc = -1;
		} else if (v->kind == YD_SCALAR) {
			if (set_path(b, path->s, path->len, v->str, file, v->line, v->col, e))
				rc = -1;
		} else {
			rc = err_at(e, file, v->line, v->col, "'%s' expects a value, got %s",
			            path->s, ydoc_kind_name(v->kind));
		}
		path->len = keep;
		path->s[keep] = '\0';
	}
	return rc;
}

static int is_path(const char *name)
{
	size_t n = strlen(name);
	return strchr(name, '/') || (n >= 5 && !strcmp(name + n - 5, ".yaml"));
}

/* A path is taken relative to the folder of the file that names it (the
 * profile, or the layout that extends it; base), or to the working
 * directory when it comes from the command line. A name is looked up as
 * <dir>/<name>.yaml in dirs; only regular files count. */
static int find_file(const char *name, const char *base, const char *const *dirs, buf_t *out)
{
	if (is_path(name)) {
		const char *sl = base ? strrchr(base, '/') : NULL;
		if (name[0] != '/' && sl)
			buf_printf(out, "%.*s/", (int)(sl - base), base);
		buf_puts(out, name);
		return 0;
	}
	for (int i = 0; dirs && dirs[i]; i++) {
		buf_reset(out);
		buf_printf(out, "%s/%s.yaml", dirs[i], name);
		int fd = file_open(out->s, FILE_MAX_TEXT, NULL, NULL);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
	}
	return -1;
}

/* A file most of whose top-level keys are not layout keys is some other
 * file (a .env, /etc/passwd read as YAML): one error, quoting nothing of
 * it. A real layout with a typo or two still gets a message per key. */
static int looks_like_layout(const ynode_t *root)
{
	int known = 0;
	for (int i = 0; i < root->n; i++) {
		const ynode_t *k = root->kids[2 * i];
		if (k->kind != YD_SCALAR)
			continue;
		int ok = !strcmp(k->str, "extends") || !strcmp(k->str, "name") ||
		         !strcmp(k->str, "description");
		size_t n = strlen(k->str);
		for (int j = 0; !ok && j < NKEYS; j++)
			ok = !strncmp(keys[j].path, k->str, n) &&
			     (keys[j].path[n] == '.' || keys[j].path[n] == '\0');
		known += ok;
	}
	return root->n == 0 || known * 2 >= root->n;
}

/* Apply a parsed layout (its `extends` first) to b. */
static int load_tree(style_box_t *b, const char *file, const ynode_t *root,
                     const char *const *dirs, errs_t *e)
{
	buf_t kp;
	int rc = 0;
	if (root->kind != YD_MAP)
		return err_at(e, file, root->line, root->col, "a layout is a map of keys");
	if (!looks_like_layout(root))
		return err_at(e, file, root->line, root->col,
		              "this is not a vita layout: most of its %d top-level keys "
		              "are not layout keys (not listed, so that no other kind of "
		              "file is shown in messages)", root->n);
	buf_init(&kp);
	const ynode_t *ext = ydoc_get(root, "extends");
	from_t here = {file, ext ? ext->line : 0, ext ? ext->col : 0};
	if (ext && ext->kind == YD_SCALAR && load_into(b, ext->str, dirs, &here, e))
		rc = -1;
	b->s.file = file;
	for (int i = 0; i < root->n; i++) {
		const ynode_t *k = root->kids[2 * i], *v = root->kids[2 * i + 1];
		if (k->kind == YD_SCALAR && v->kind == YD_SCALAR) {
			if (!strcmp(k->str, "name")) {
				b->s.name = v->str;
				continue;
			}
			if (!strcmp(k->str, "description")) {
				b->s.description = v->str;
				continue;
			}
			if (!strcmp(k->str, "extends"))
				continue;
		}
		ynode_t one = *root;
		one.kids = (ynode_t **)&root->kids[2 * i];
		one.n = 1;
		if (walk(b, &one, &kp, file, e))
			rc = -1;
	}
	buf_done(&kp);
	return rc;
}

static int load_text(style_box_t *b, const char *file, const char *data, size_t len,
                     const char *const *dirs, errs_t *e)
{
	ynode_t *root;
	file = arena_strdup(b->a, file);
	if (ydoc_parse(b->a, file, data, len, &root, e))
		return -1;
	return load_tree(b, file, root, dirs, e);
}

static int load_into(style_box_t *b, const char *name, const char *const *dirs,
                     const from_t *from, errs_t *e)
{
	buf_t path, text;
	buf_init(&path);
	buf_init(&text);
	int rc = -1;
	const char *why;
	if (b->confined && is_path(name)) {
		err_at(e, from->file, from->line, from->col, "'%.100s' is a path: with "
		       "--untrusted a layout is named, and comes from vita's layouts "
		       "(see `vita layouts`)", name);
		goto done;
	}
	if (find_file(name, from->file, dirs, &path)) {
		char near[256];
		if (layout_suggest(name, dirs, near, sizeof(near)))
			err_at(e, from->file, from->line, from->col,
			       "no layout named '%.100s'; did you mean '%s'? (see `vita layouts`)",
			       name, near);
		else
			err_at(e, from->file, from->line, from->col,
			       "no layout named '%.100s' (see `vita layouts`)", name);
		goto done;
	}
	char *real = realpath(path.s, NULL);
	for (int i = 0; real && i < b->depth; i++)
		if (!strcmp(b->chain[i], real)) {
			int n = b->depth - i - 1;
			if (n)
				err_at(e, from->file ? from->file : name, from->line, from->col,
				       "layouts extend each other in a loop: '%s' extends itself "
				       "through %d other layout%s", path.s, n, n == 1 ? "" : "s");
			else
				err_at(e, from->file ? from->file : name, from->line, from->col,
				       "layouts extend each other in a loop: '%s' extends itself",
				       path.s);
			free(real);
			goto done;
		}
	if (b->depth >= STYLE_MAX_EXTENDS) {
		err_at(e, from->file ? from->file : name, from->line, from->col,
		       "layouts extend each other more than %d deep", STYLE_MAX_EXTENDS);
		free(real);
		goto done;
	}
	b->chain[b->depth++] = arena_strdup(b->a, real ? real : path.s);
	free(real);
	if (file_read(&text, path.s, FILE_MAX_TEXT, &why)) {
		err_at(e, path.s, 0, 0, "cannot read layout: %s", why);
	} else {
		deps_add(path.s);
		rc = load_text(b, path.s, text.s, text.len, dirs, e);
	}
	b->depth--;
done:
	buf_done(&path);
	buf_done(&text);
	return rc;
}

static style_box_t *box_new(void)
{
	style_box_t *b = xcalloc(1, sizeof(*b));
	b->a = arena_new();
	style_defaults(&b->s);
	return b;
}

style_t *style_load_mem(const char *file, const char *data, size_t len,
                        const char *const *dirs, errs_t *e)
{
	style_box_t *b = box_new();
	if (load_text(b, file, data, len, dirs, e)) {
		style_free(&b->s);
		return NULL;
	}
	if (!b->s.name)
		b->s.name = arena_strdup(b->a, file);
	return &b->s;
}

style_t *style_open(const char *name, const char *where, int line, int col,
                    const char *const *dirs, unsigned flags, errs_t *e)
{
	style_box_t *b = box_new();
	from_t top = {where, line, col};
	b->confined = (flags & STYLE_CONFINED) != 0;
	if (load_into(b, name, dirs, &top, e)) {
		style_free(&b->s);
		return NULL;
	}
	if (!b->s.name)
		b->s.name = arena_strdup(b->a, name);
	return &b->s;
}

style_t *style_load(const char *name, const char *const *dirs, errs_t *e)
{
	return style_open(name, NULL, 0, 0, dirs, 0, e);
}

static int check_len(const style_box_t *b, const key_t_ *k, int32_t across, int32_t down,
                     errs_t *e)
{
	int32_t v = *(const int32_t *)((const char *)&b->s + k->off);
	int bd = key_bound(k);
	int32_t max = bd == B_RULE ? 20000 : bd == B_ACROSS ? across / 2 : down / 2;
	const char *what = bd == B_RULE ? "20 pt (a rule's thickness)"
	                   : bd == B_ACROSS ? "half the text width" : "half the text height";
	if (v <= max)
		return 0;
	const from_t *at = &b->at[k - keys];
	return err_at(e, at->file ? at->file : b->s.file, at->line, at->col,
	              "'%s' is %.1f pt; it can be at most %s, %.1f pt on this page, or text "
	              "would run off the page", k->path, v / 1000.0, what, max / 1000.0);
}

int style_check(const style_t *s, errs_t *e)
{
	const style_box_t *b = (const style_box_t *)s;
	int32_t across = s->page_w - s->margin_left - s->margin_right;
	int32_t down = s->page_h - s->margin_top - s->margin_bottom;
	int rc = 0;
	if (across <= 0 || down <= 0)
		return 0;   /* layout_render reports the margins */
	for (int i = 0; i < NKEYS; i++)
		if (keys[i].type == T_LEN && strncmp(keys[i].path, "page.", 5) &&
		    strncmp(keys[i].path, "sizes.", 6) && check_len(b, &keys[i], across, down, e))
			rc = -1;
	return rc;
}

void style_free(style_t *s)
{
	if (!s)
		return;
	style_box_t *b = (style_box_t *)s;
	arena_free(b->a);
	free(b);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every layout in every directory, with its file; one that an earlier
 * directory's layout of the same name hides is marked so. */
void style_list(const char *const *dirs, FILE *out)
{
	for (int i = 0; dirs && dirs[i]; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		char *names[256];
		int n = 0;
		struct dirent *de;
		while ((de = readdir(d)) && n < 256) {
			size_t l = strlen(de->d_name);
			if (l > 5 && !strcmp(de->d_name + l - 5, ".yaml"))
				names[n++] = xstrdup(de->d_name);
		}
		closedir(d);
		qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
		for (int j = 0; j < n; j++) {
			const char *hidden = NULL;
			for (int k = 0; k < i && !hidden; k++) {
				char p[4096];
				snprintf(p, sizeof(p), "%s/%s", dirs[k], names[j]);
				if (access(p, R_OK) == 0)
					hidden = dirs[k];
			}
			char base[256];
			snprintf(base, sizeof(base), "%.*s", (int)strlen(names[j]) - 5, names[j]);
			fprintf(out, "%-12s ", base);
			if (hidden) {
				fprintf(out, "(hidden by the one in %s)\n", hidden);
			} else {
				errs_t e;
				errs_init(&e);
				style_t *s = style_load(base, dirs, &e);
				fprintf(out, "%s\n", s && s->description ? s->description
				                                          : "(cannot be loaded)");
				style_free(s);
				errs_done(&e);
			}
			fprintf(out, "%12s %s/%s\n", "", dirs[i], names[j]);
			free(names[j]);
		}
	}
}
