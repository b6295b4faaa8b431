/* profile_bib: a small BibTeX reader for `bibtex: papers.bib` sections.
 *
 * pbib_load(ctx, node, path, &pubs, &n) reads the file and maps each entry:
 * author -> authors (split on "and" at brace level 0, "Last, First" turned
 * into "First Last"), title, booktitle/journal -> venue_full, year, doi,
 * url -> a "Paper" link, note. Values may be {braced}, "quoted", numbers,
 * @string macros (and the month names), joined with #. LaTeX is decoded to
 * UTF-8: accents (\'e, \"{o}, \c{c}, \v s ...), \ss \o \ae \l ..., escaped
 * specials (\& \%), -- and ---, ~; braces and unknown command names are
 * dropped, their arguments kept. Errors are located in the .bib file.
 * Positions of the resulting publications are those of the `bibtex:` key.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "buf.h"
#include "file.h"
#include "profile_int.h"
#include "utf8.h"
#include "deps.h"

typedef struct bib {
	pctx_t *c;
	const char *path, *s;
	size_t n, i;
	int line0, col0;     /* where the publications are said to come from */
	const char *mname[64], *mval[64];
	int nmacro;
} bib_t;

static int bib_err(bib_t *b, size_t off, const char *fmt, const char *arg)
{
	int line = 1, col = 1;
	for (size_t i = 0; i < off && i < b->n; i++) {
		if (b->s[i] == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)b->s[i] & 0xc0) != 0x80) {
			col++;
		}
	}
	return err_at(b->c->e, b->path, line, col, fmt, arg);
}

/* ---- LaTeX to UTF-8 ---- */

static const struct accent {
	char acc;
	const char *bases;
	const uint16_t *cps;
	uint16_t combining;
} accents[] = {
	{'\'', "aeiouyAEIOUYcnszCNSZlrLR", (const uint16_t[]){0xE1, 0xE9, 0xED, 0xF3, 0xFA, 0xFD, 0xC1, 0xC9, 0xCD, 0xD3, 0xDA, 0xDD, 0x107, 0x144, 0x15B, 0x17A, 0x106, 0x143, 0x15A, 0x179, 0x13A, 0x155, 0x139, 0x154}, 0x301},
	{'`', "aeiouAEIOU", (const uint16_t[]){0xE0, 0xE8, 0xEC, 0xF2, 0xF9, 0xC0, 0xC8, 0xCC, 0xD2, 0xD9}, 0x300},
	{'^', "aeiouAEIOU", (const uint16_t[]){0xE2, 0xEA, 0xEE, 0xF4, 0xFB, 0xC2, 0xCA, 0xCE, 0xD4, 0xDB}, 0x302},
	{'"', "aeiouyAEIOU", (const uint16_t[]){0xE4, 0xEB, 0xEF, 0xF6, 0xFC, 0xFF, 0xC4, 0xCB, 0xCF, 0xD6, 0xDC}, 0x308},
	{'~', "anoANO", (const uint16_t[]){0xE3, 0xF1, 0xF5, 0xC3, 0xD1, 0xD5}, 0x303},
	{'c', "csCStT", (const uint16_t[]){0xE7, 0x15F, 0xC7, 0x15E, 0x163, 0x162}, 0x327},
	{'v', "cszrenCSZRENdt", (const uint16_t[]){0x10D, 0x161, 0x17E, 0x159, 0x11B, 0x148, 0x10C, 0x160, 0x17D, 0x158, 0x11A, 0x147, 0x10F, 0x165}, 0x30C},
	{'u', "gaGA", (const uint16_t[]){0x11F, 0x103, 0x11E, 0x102}, 0x306},
	{'r', "auAU", (const uint16_t[]){0xE5, 0x16F, 0xC5, 0x16E}, 0x30A},
	{'.', "zZIe", (const uint16_t[]){0x17C, 0x17B, 0x130, 0x117}, 0x307},
	{'=', "aeiouAEIOU", (const uint16_t[]){0x101, 0x113, 0x12B, 0x14D, 0x16B, 0x100, 0x112, 0x12A, 0x14C, 0x16A}, 0x304},
	{'H', "ouOU", (const uint16_t[]){0x151, 0x171, 0x150, 0x170}, 0x30B},
	{'k', "aeAE", (const uint16_t[]){0x105, 0x119, 0x104, 0x118}, 0x328},
	{'d', "", (const uint16_t[]){0}, 0x323},
	{'b', "", (const uint16_t[]){0}, 0x331},
};

static const struct { const char *name, *utf8; } specials[] = {
	{"ss", "ß"}, {"o", "ø"}, {"O", "Ø"}, {"ae", "æ"}, {"AE", "Æ"},
	{"oe", "œ"}, {"OE", "Œ"}, {"aa", "å"}, {"AA", "Å"}, {"l", "ł"},
	{"L", "Ł"}, {"i", "ı"}, {"j", "ȷ"}, {"LaTeX", "LaTeX"}, {"TeX", "TeX"},
	{"textendash", "–"}, {"textemdash", "—"}, {"textquoteright", "’"},
	{"dag", "†"}, {"S", "§"}, {"copyright", "©"},
};

static void put_cp(buf_t *o, uint32_t cp)
{
	char tmp[4];
	buf_add(o, tmp, (size_t)utf8_encode(cp, tmp));
}

static const struct accent *accent_find(int ch)
{
	for (size_t i = 0; i < sizeof(accents) / sizeof(accents[0]); i++)
		if (accents[i].acc == ch)
			return &accents[i];
	return NULL;
}

/* The argument of an accent at s[*i]: x, {x}, \i, {\i}. */
static void accent_apply(const struct accent *ac, const char *s, size_t n,
                         size_t *i, buf_t *o)
{
	size_t j = *i;
	int brace = 0;
	while (j < n && s[j] == ' ')
		j++;
	if (j < n && s[j] == '{') {
		brace = 1;
		j++;
	}
	int base = 0;
	if (j + 1 < n && s[j] == '\\' && (s[j + 1] == 'i' || s[j + 1] == 'j')) {
		base = s[j + 1];
		j += 2;
	} else if (j < n && isalpha((unsigned char)s[j])) {
		base = s[j++];
	}
	if (brace && j < n && s[j] == '}')
		j++;
	*i = j;
	if (!base)
		return;
	const char *p = strchr(ac->bases, base);
	if (p && base) {
		put_cp(o, ac->cps[p - ac->bases]);
	} else {
		buf_putc(o, base);
		put_cp(o, ac->combining);
	}
}

static void latex_command(const char *s, size_t n, size_t *i, buf_t *o)
{
	size_t j = *i;          /* just after the backslash */
	if (j >= n)
		return;
	const struct accent *ac = NULL;
	if (!isalpha((unsigned char)s[j])) {
		ac = accent_find(s[j]);
		*i = j + 1;
		if (ac)
			accent_apply(ac, s, n, i, o);
		else
			buf_putc(o, s[j] == '\\' ? ' ' : s[j]);
		return;
	}
	size_t k = j;
	while (k < n && isalpha((unsigned char)s[k]))
		k++;
	size_t len = k - j;
	if (len == 1 && (ac = accent_find(s[j])) &&
	    (k < n && (s[k] == '{' || s[k] == ' '))) {
		*i = k;
		accent_apply(ac, s, n, i, o);
		return;
	}
	*i = k;
	for (size_t t = 0; t < sizeof(specials) / sizeof(specials[0]); t++)
		if (strlen(specials[t].name) == len && !memcmp(specials[t].name, s + j, len)) {
			buf_puts(o, specials[t].utf8);
			if (k < n && s[k] == ' ')
				*i = k + 1;
			return;
		}
	while (*i < n && s[*i] == ' ')   /* unknown: drop the name, keep args */
		(*i)++;
}

static char *latex_decode(arena_t *a, const char *s, size_t n)
{
	buf_t o;
	buf_init(&o);
	for (size_t i = 0; i < n;) {
		char ch = s[i];
		if (ch == '\\') {
			i++;
			latex_command(s, n, &i, &o);
		} else if (ch == '{' || ch == '}' || ch == '$') {
			i++;
		} else if (ch == '-' && i + 2 < n && s[i + 1] == '-' && s[i + 2] == '-') {
			buf_puts(&o, "—");
			i += 3;
		} else if (ch == '-' && i + 1 < n && s[i + 1] == '-') {
			buf_puts(&o, "–");
			i += 2;
		} else if (isspace((unsigned char)ch) || ch == '~') {
			if (o.len && o.s[o.len - 1] != ' ')
				buf_putc(&o, ' ');
			i++;
		} else {
			buf_putc(&o, ch);
			i++;
		}
	}
	while (o.len && o.s[o.len - 1] == ' ')
		o.len--;
	char *r = arena_strndup(a, o.s ? o.s : "", o.len);
	buf_done(&o);
	return r;
}

/* ---- the file ---- */

static void bib_ws(bib_t *b)
{
	while (b->i < b->n && isspace((unsigned char)b->s[b->i]))
		b->i++;
}

static size_t bib_ident(bib_t *b)
{
	size_t st = b->i;
	while (b->i < b->n && (isalnum((unsigned char)b->s[b->i]) ||
	                       strchr("_-:./+'", b->s[b->i])))
		b->i++;
	return b->i - st;
}

/* Balanced {...} or "..." starting at b->i; appends the inside to o. */
static int bib_delimited(bib_t *b, buf_t *o)
{
	size_t st = b->i;
	char open = b->s[b->i++];
	int depth = 0;
	while (b->i < b->n) {
		char ch = b->s[b->i];
		if (ch == '\\' && b->i + 1 < b->n) {
			buf_add(o, b->s + b->i, 2);
			b->i += 2;
			continue;
		}
		if (ch == '{') {
			depth++;
		} else if (ch == '}') {
			if (depth == 0 && open == '{') {
				b->i++;
				return 0;
			}
			if (depth-- == 0)
				return bib_err(b, b->i, "unbalanced '}' in a value%s", "");
		} else if (ch == '"' && open == '"' && depth == 0) {
			b->i++;
			return 0;
		}
		buf_putc(o, ch);
		b->i++;
	}
	return bib_err(b, st, "unterminated value (missing closing %s)",
	               open == '{' ? "'}'" : "'\"'");
}

static const char *bib_macro(bib_t *b, const char *name)
{
	static const char *const months[] = {"jan", "feb", "mar", "apr", "may",
		"jun", "jul", "aug", "sep", "oct", "nov", "dec"};
	for (int i = 0; i < b->nmacro; i++)
		if (!strcasecmp(b->mname[i], name))
			return b->mval[i];
	for (int i = 0; i < 12; i++)
		if (!strcasecmp(months[i], name))
			return months[i];
	return NULL;
}

/* value ('#' value)* into o (raw LaTeX). */
static int bib_value(bib_t *b, buf_t *o)
{
	for (;;) {
		bib_ws(b);
		if (b->i >= b->n)
			return bib_err(b, b->i, "unexpected end of file in a value%s", "");
		char ch = b->s[b->i];
		if (ch == '{' || ch == '"') {
			if (bib_delimited(b, o) < 0)
				return -1;
		} else if (isalnum((unsigned char)ch)) {
			size_t st = b->i, len = bib_ident(b);
			char name[64];
			snprintf(name, sizeof(name), "%.*s", (int)len, b->s + st);
			if (isdigit((unsigned char)ch)) {
				buf_add(o, b->s + st, len);
			} else {
				const char *v = bib_macro(b, name);
				if (!v)
					return bib_err(b, st, "unknown @string macro '%s'", name);
				buf_puts(o, v);
			}
		} else {
			return bib_err(b, b->i, "expected a value ({...}, \"...\", a number "
			               "or a macro)%s", "");
		}
		bib_ws(b);
		if (b->i < b->n && b->s[b->i] == '#') {
			b->i++;
			continue;
		}
		return 0;
	}
}

typedef struct bfield {
	char name[32];
	char *val;          /* raw, in the arena */
	size_t off;
} bfield_t;

/* name = value, ... up to the closing delimiter. */
static int bib_fields(bib_t *b, char close, bfield_t *f, int *nf, int max)
{
	for (;;) {
		bib_ws(b);
		if (b->i < b->n && b->s[b->i] == close) {
			b->i++;
			return 0;
		}
		size_t st = b->i, len = bib_ident(b);
		if (!len)
			return bib_err(b, st, "expected a field name or '%s'",
			               close == '}' ? "}" : ")");
		bib_ws(b);
		if (b->i >= b->n || b->s[b->i] != '=')
			return bib_err(b, b->i, "expected '=' after the field name%s", "");
		b->i++;
		buf_t v;
		buf_init(&v);
		int rc = bib_value(b, &v);
		if (rc == 0 && *nf < max) {
			bfield_t *x = &f[(*nf)++];
			snprintf(x->name, sizeof(x->name), "%.*s", (int)len, b->s + st);
			for (char *p = x->name; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			x->val = arena_strndup(b->c->a, v.s ? v.s : "", v.len);
			x->off = st;
		}
		buf_done(&v);
		if (rc < 0)
			return -1;
		bib_ws(b);
		if (b->i < b->n && b->s[b->i] == ',')
			b->i++;
		else if (b->i >= b->n || b->s[b->i] != close)
			return bib_err(b, b->i, "expected ',' or '%s' after a field value",
			               close == '}' ? "}" : ")");
	}
}

static const bfield_t *bib_field(const bfield_t *f, int nf, const char *name)
{
	for (int i = 0; i < nf; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

/* "Last, First" -> "First Last"; "Last, Jr, First" -> "First Last Jr". */
static const char *bib_name(arena_t *a, const char *s)
{
	const char *c1 = strchr(s, ',');
	if (!c1)
		return s;
	const char *c2 = strchr(c1 + 1, ',');
	const char *first = (c2 ? c2 : c1) + 1;
	while (*first == ' ')
		first++;
	if (c2) {
		const char *jr = c1 + 1;
		while (*jr == ' ')
			jr++;
		return arena_printf(a, "%s %.*s %.*s", first, (int)(c1 - s), s,
		                    (int)(c2 - jr), jr);
	}
	return arena_printf(a, "%s %.*s", first, (int)(c1 - s), s);
}

static void bib_authors(bib_t *b, const char *raw, mpub_t *p)
{
	size_t n = strlen(raw), st = 0;
	int depth = 0, cap = 8;
	p->authors = arena_alloc(b->c->a, (size_t)cap * sizeof(*p->authors));
	for (size_t i = 0; i <= n; i++) {
		int brk = i == n;
		if (raw[i] == '{')
			depth++;
		else if (raw[i] == '}')
			depth--;
		else if (!depth && isspace((unsigned char)raw[i]) && i + 4 < n &&
		         !strncasecmp(raw + i + 1, "and", 3) && isspace((unsigned char)raw[i + 4]))
			brk = 1;
		if (!brk)
			continue;
		const char *name = latex_decode(b->c->a, raw + st, i - st);
		if (*name) {
			if (p->nauthors == cap) {
				p->authors = arena_grow(b->c->a, p->authors,
				                        (size_t)cap * sizeof(*p->authors),
				                        (size_t)cap * 2 * sizeof(*p->authors));
				cap *= 2;
			}
			p->authors[p->nauthors++] = bib_name(b->c->a, name);
		}
		st = i + 5;
		i += 4;
	}
}

static void bib_plain(arena_t *a, const char *s, mtext_t *t, int line, int col)
{
	t->spans = arena_alloc(a, sizeof(*t->spans));
	t->spans[0].text = s;
	t->n = 1;
	t->line = line;
	t->col = col;
}

static int bib_to_pub(bib_t *b, size_t at, const bfield_t *f, int nf, mpub_t *p)
{
	arena_t *a = b->c->a;
	const bfield_t *x;
	memset(p, 0, sizeof(*p));
	p->line = b->line0;
	p->col = b->col0;
	if (!(x = bib_field(f, nf, "title")))
		return bib_err(b, at, "entry has no title%s", "");
	bib_plain(a, latex_decode(a, x->val, strlen(x->val)), &p->title, p->line, p->col);
	if ((x = bib_field(f, nf, "author")))
		bib_authors(b, x->val, p);
	if ((x = bib_field(f, nf, "booktitle")) || (x = bib_field(f, nf, "journal")))
		bib_plain(a, latex_decode(a, x->val, strlen(x->val)), &p->venue_full,
		          p->line, p->col);
	if ((x = bib_field(f, nf, "note")))
		bib_plain(a, latex_decode(a, x->val, strlen(x->val)), &p->note, p->line, p->col);
	if ((x = bib_field(f, nf, "year"))) {
		const char *y = x->val;
		if (strlen(y) != 4 || !isdigit((unsigned char)y[0]) || !isdigit((unsigned char)y[1]) ||
		    !isdigit((unsigned char)y[2]) || !isdigit((unsigned char)y[3]) || y[0] == '0')
			return bib_err(b, x->off, "year '%.20s' is not a four-digit year", y);
		p->year = (y[0] - '0') * 1000 + (y[1] - '0') * 100 + (y[2] - '0') * 10 + y[3] - '0';
	}
	if ((x = bib_field(f, nf, "doi")))
		p->doi = latex_decode(a, x->val, strlen(x->val));
	if ((x = bib_field(f, nf, "url"))) {
		p->links = arena_alloc(a, sizeof(*p->links));
		p->links[0].label = "Paper";
		p->links[0].url = arena_strdup(a, x->val);
		p->links[0].line = p->line;
		p->links[0].col = p->col;
		p->nlinks = 1;
	}
	return 0;
}

static int bib_string_def(bib_t *b, char close)
{
	bfield_t f[1];
	int nf = 0;
	if (bib_fields(b, close, f, &nf, 1) < 0)
		return -1;
	if (nf && b->nmacro < 64) {
		b->mname[b->nmacro] = arena_strdup(b->c->a, f[0].name);
		b->mval[b->nmacro++] = f[0].val;
	}
	return 0;
}

/* One @type{key, fields} (b->i just after '@'). */
static int bib_entry(bib_t *b, mpub_t **v, int *nv, int *cap)
{
	size_t at = b->i - 1, len = bib_ident(b);
	char type[32];
	snprintf(type, sizeof(type), "%.*s", (int)len, b->s + at + 1);
	bib_ws(b);
	if (b->i >= b->n || (b->s[b->i] != '{' && b->s[b->i] != '('))
		return bib_err(b, b->i, "expected '{' after '@%s'", type);
	char close = b->s[b->i] == '{' ? '}' : ')';
	if (!strcasecmp(type, "comment") || !strcasecmp(type, "preamble")) {
		buf_t skip;
		buf_init(&skip);
		int rc = close == '}' ? bib_delimited(b, &skip) : 0;
		buf_done(&skip);
		return rc;
	}
	b->i++;
	if (!strcasecmp(type, "string"))
		return bib_string_def(b, close);
	bib_ws(b);
	if (!bib_ident(b))
		return bib_err(b, b->i, "expected a citation key after '@%s{'", type);
	bib_ws(b);
	if (b->i < b->n && b->s[b->i] == ',')
		b->i++;
	bfield_t f[48];
	int nf = 0;
	if (bib_fields(b, close, f, &nf, 48) < 0)
		return -1;
	if (*nv == *cap) {
		int nc = *cap ? *cap * 2 : 16;
		*v = arena_grow(b->c->a, *v, (size_t)*cap * sizeof(**v), (size_t)nc * sizeof(**v));
		*cap = nc;
	}
	if (bib_to_pub(b, at, f, nf, &(*v)[*nv]) < 0)
		return -1;
	(*nv)++;
	return 0;
}

int pbib_load(pctx_t *c, const ynode_t *where, const char *path,
              mpub_t **pubs, int *npubs)
{
	buf_t f;
	bib_t b;
	int rc = 0, cap = 0;
	*pubs = NULL;
	*npubs = 0;
	buf_init(&f);
	const char *why;
	if (file_read(&f, path, PROFILE_MAX_FILE, &why) < 0) {
		rc = pv_err(c, where, "cannot read the BibTeX file '%s': %s", path, why);
		buf_done(&f);
		return rc;
	}
	deps_add(path);
	memset(&b, 0, sizeof(b));
	b.c = c;
	b.path = arena_strdup(c->a, path);
	b.s = f.s ? f.s : "";
	b.n = f.len;
	b.line0 = where->line;
	b.col0 = where->col;
	long bad = utf8_invalid_at(b.s, b.n);
	if (bad >= 0 || memchr(b.s, '\0', b.n)) {
		size_t off = bad >= 0 ? (size_t)bad : (size_t)((const char *)memchr(b.s, '\0', b.n) - b.s);
		rc = bib_err(&b, off, "%s", "invalid UTF-8 or a NUL byte in the BibTeX file");
	}
	while (rc == 0 && b.i < b.n) {
		const char *at = memchr(b.s + b.i, '@', b.n - b.i);
		if (!at)
			break;
		b.i = (size_t)(at - b.s) + 1;
		rc = bib_entry(&b, pubs, npubs, &cap);
	}
	buf_done(&f);
	return rc;
}
