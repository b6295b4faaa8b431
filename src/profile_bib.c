/* profile_bib: BibTeX files as Google Scholar, DBLP, NASA ADS, Zotero and
 * al-folio write them, for `bibtex: papers.bib` sections.
 *
 * The file: anything outside an @entry is ignored (Jekyll front matter,
 * prose), a % starts a comment outside values; @comment and @preamble
 * (with braces or parentheses) are skipped; @string macros and # joins,
 * the month macros; keys of any characters but spaces, commas and braces
 * (ADS: 2025A&A...699A.372N). A broken entry is reported as a located
 * warning and left out, the others still load; an entry without a title
 * too (--strict: both are errors). crossref fills an entry's missing
 * fields from the entry it names (that container is not listed itself).
 *
 * Each entry becomes a publication:
 *   title                         -> title (LaTeX -> text and markup)
 *   author ("and others")         -> authors, "Last, First" turned round
 *                                    (CJK names keep their order), etal
 *   editor                        -> editors
 *   journal | booktitle | school | institution | howpublished, then
 *   volume(number):pages, type and number (reports), series,
 *   organization, publisher, address  -> venue_full, ", "-joined
 *   @phdthesis, @mastersthesis, @techreport without `type` (or with
 *   biblatex's phdthesis, mathesis, techreport) -> genre, which the locale
 *   words around the venue (en: PhD thesis, {venue})
 *   year (four digits; other text -> status), month -> the order
 *   doi, url, eprint + archivePrefix/eprinttype/primaryClass, arxiv,
 *   al-folio's pdf, code, html, slides, poster, video, website, supp,
 *   blog                          -> links (web addresses only)
 *   abbr -> venue (the tag); note -> note; selected -> the tag "selected"
 *   langid (biblatex: english, ngerman, brazil ...) or language (English,
 *   Deutsch, eng, de-CH ...) -> lang, the language of its title, venue
 *   and note (their hyphenation, their /Lang); a name it does not know
 *   is dropped quietly, as the field was before
 * Fields no CV shows (file, urldate, timestamp, biburl, adsurl, issn,
 * isbn...) are dropped quietly; any other field not used is named once
 * per file in a located "ignored" warning. Publications are sorted newest
 * first (year, then month), then by entry type.
 *
 * Limits (as for YAML strings): a value, after macro expansion, of at
 * most PROFILE_MAX_STR bytes; at most BIB_MAX_FIELDS fields per entry and
 * BIB_MAX_MACROS macros, whose values total at most PROFILE_MAX_FILE
 * bytes. Past a limit: a located message, never a silent drop.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "buf.h"
#include "file.h"
#include "profile_bib.h"
#include "profile_int.h"
#include "utf8.h"
#include "deps.h"

#define BIB_MAX_FIELDS 256
#define BIB_MAX_MACROS 4096
#define BIB_MAX_IGNORED 16

typedef struct bfield {
	char name[32];
	char *val;          /* raw LaTeX, in the arena */
	size_t off;
} bfield_t;

typedef struct brec {
	char type[24];
	const char *key;
	bfield_t *f;
	int nf;
	size_t off;
	int used_as_crossref;
} brec_t;

typedef struct bib {
	pctx_t *c;
	const char *path, *s;
	size_t n, i;
	int line0, col0;     /* where the publications are said to come from */
	const char **mname, **mval;
	int mhash[1024];     /* macro chains by name hash: index + 1, 0 = none */
	int *mnext;
	int nmacro, capmacro;
	size_t macro_bytes;
	brec_t *rec;
	int nrec, caprec;
	int nseen;           /* entries met, usable or not */
	struct { char name[32]; size_t off; int count; } ign[BIB_MAX_IGNORED];
	int nign, ign_more;  /* past BIB_MAX_IGNORED names: counted, reported once */
	size_t ign_more_off;
	size_t pos_off;      /* position cache for messages */
	int pos_line, pos_col;
} bib_t;

/* ---- messages ---- */

static void bib_pos(bib_t *b, size_t off, int *line, int *col)
{
	if (off < b->pos_off) {
		b->pos_off = 0;
		b->pos_line = b->pos_col = 1;
	}
	for (size_t i = b->pos_off; i < off && i < b->n; i++) {
		if (b->s[i] == '\n') {
			b->pos_line++;
			b->pos_col = 1;
		} else if (((unsigned char)b->s[i] & 0xc0) != 0x80) {
			b->pos_col++;
		}
	}
	b->pos_off = off;
	*line = b->pos_line;
	*col = b->pos_col;
}

static int bib_msg(bib_t *b, int sev, size_t off, const char *fmt, va_list ap)
{
	char msg[400];
	int line, col;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	bib_pos(b, off, &line, &col);
	if (sev == ERR_ERROR)
		return err_at(b->c->e, b->path, line, col, "%s", msg);
	return warn_at(b->c->e, b->path, line, col, "%s", msg);
}

/* A file-level error. */
static int bib_err(bib_t *b, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bib_err(bib_t *b, size_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bib_msg(b, ERR_ERROR, off, fmt, ap);
	va_end(ap);
	return -1;
}

/* What makes one entry unusable: a warning (the entry is left out), an
 * error with --strict. Always -1. */
static int bib_bad(bib_t *b, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bib_bad(bib_t *b, size_t off, const char *fmt, ...)
{
	va_list ap;
	int strict = b->c->o && b->c->o->strict;
	va_start(ap, fmt);
	bib_msg(b, strict ? ERR_ERROR : ERR_WARNING, off, fmt, ap);
	va_end(ap);
	return -1;
}

static void bib_warn(bib_t *b, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void bib_warn(bib_t *b, size_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bib_msg(b, ERR_WARNING, off, fmt, ap);
	va_end(ap);
}

/* ---- the file ---- */

/* Spaces and % comments (between the parts of an entry). */
static void bib_ws(bib_t *b)
{
	while (b->i < b->n) {
		char ch = b->s[b->i];
		if (ch == '%') {
			while (b->i < b->n && b->s[b->i] != '\n')
				b->i++;
		} else if (isspace((unsigned char)ch)) {
			b->i++;
		} else {
			break;
		}
	}
}

static size_t bib_ident(bib_t *b)
{
	size_t st = b->i;
	while (b->i < b->n && (isalnum((unsigned char)b->s[b->i]) ||
	                       ((unsigned char)b->s[b->i] >= 0x80) ||
	                       strchr("_-:./+'&!?*<>[]|;`^", b->s[b->i])))
		b->i++;
	return b->i - st;
}

/* Append s[0..n) to o unless the value would pass the string limit. */
static int bib_add(bib_t *b, buf_t *o, const char *s, size_t n, size_t at)
{
	if (o->len + n > PROFILE_MAX_STR)
		return bib_bad(b, at, "a value longer than %d bytes (after @string "
		               "expansion); the entry is left out", PROFILE_MAX_STR);
	buf_add(o, s, n);
	return 0;
}

/* Balanced {...} or "..." starting at b->i; appends the inside to o. */
static int bib_delimited(bib_t *b, buf_t *o)
{
	size_t st = b->i;
	char open = b->s[b->i++];
	int depth = 0;
	size_t run = b->i;
	while (b->i < b->n) {
		char ch = b->s[b->i];
		if (ch == '\\' && b->i + 1 < b->n) {
			b->i += 2;
			continue;
		}
		if (ch == '{') {
			depth++;
		} else if (ch == '}') {
			if (depth == 0 && open == '{')
				break;
			if (depth-- == 0)
				return bib_bad(b, b->i, "unbalanced '}' in a value; the entry "
				               "is left out");
		} else if (ch == '"' && open == '"' && depth == 0) {
			break;
		} else if (ch == '@' && depth == 0 && b->i > 0 && b->s[b->i - 1] == '\n') {
			break;   /* a new entry: this value was not closed */
		}
		b->i++;
	}
	if (b->i >= b->n || b->s[b->i] == '@')
		return bib_bad(b, st, "unterminated value (missing closing %s); the "
		               "entry is left out", open == '{' ? "'}'" : "'\"'");
	int rc = bib_add(b, o, b->s + run, b->i - run, st);
	b->i++;
	return rc;
}

static const char *const months[] = {"jan", "feb", "mar", "apr", "may",
	"jun", "jul", "aug", "sep", "oct", "nov", "dec"};

/* case-insensitive, as BibTeX compares macro names */
static unsigned bib_hash(const char *s, size_t len)
{
	unsigned h = 5381;
	for (size_t i = 0; i < len; i++)
		h = h * 33 + (unsigned)tolower((unsigned char)s[i]);
	return h % 1024;
}

static const char *bib_macro(bib_t *b, const char *name, size_t len)
{
	/* newest first: a redefinition wins */
	for (int i = b->mhash[bib_hash(name, len)] - 1; i >= 0; i = b->mnext[i] - 1)
		if (strlen(b->mname[i]) == len && !strncasecmp(b->mname[i], name, len))
			return b->mval[i];
	for (int i = 0; i < 12; i++)
		if (len == 3 && !strncasecmp(months[i], name, 3))
			return months[i];
	return NULL;
}

/* value ('#' value)* into o (raw LaTeX). */
static int bib_value(bib_t *b, buf_t *o)
{
	for (;;) {
		bib_ws(b);
		if (b->i >= b->n)
			return bib_bad(b, b->i, "unexpected end of file in a value");
		char ch = b->s[b->i];
		if (ch == '{' || ch == '"') {
			if (bib_delimited(b, o) < 0)
				return -1;
		} else if (isalnum((unsigned char)ch) || ch == '_') {
			size_t st = b->i, len = bib_ident(b);
			if (isdigit((unsigned char)ch)) {
				for (size_t k = 0; k < len; k++)
					if (!isdigit((unsigned char)b->s[st + k]))
						return bib_bad(b, st, "'%.*s' is not a number (a value "
						               "with letters goes in braces); the entry is "
						               "left out", (int)(len > 40 ? 40 : len), b->s + st);
				if (bib_add(b, o, b->s + st, len, st) < 0)
					return -1;
			} else {
				const char *v = bib_macro(b, b->s + st, len);
				if (!v)
					return bib_bad(b, st, "unknown @string macro '%.*s'; the "
					               "entry is left out", (int)(len > 60 ? 60 : len),
					               b->s + st);
				if (bib_add(b, o, v, strlen(v), st) < 0)
					return -1;
			}
		} else {
			return bib_bad(b, b->i, "expected a value ({...}, \"...\", a number "
			               "or a macro); the entry is left out");
		}
		bib_ws(b);
		if (b->i < b->n && b->s[b->i] == '#') {
			b->i++;
			continue;
		}
		return 0;
	}
}

static int bib_has(const bfield_t *f, int nf, const char *name)
{
	for (int i = 0; i < nf; i++)
		if (!strcmp(f[i].name, name))
			return 1;
	return 0;
}

/* name = value, ... up to the closing delimiter. */
static int bib_fields(bib_t *b, char close, bfield_t **f, int *nf, int max)
{
	int cap = 0, over = 0;
	for (;;) {
		bib_ws(b);
		if (b->i < b->n && b->s[b->i] == close) {
			b->i++;
			return 0;
		}
		size_t st = b->i, len = bib_ident(b);
		if (!len)
			return bib_bad(b, st, "expected a field name or '%c'; the entry is "
			               "left out", close);
		bib_ws(b);
		if (b->i >= b->n || b->s[b->i] != '=')
			return bib_bad(b, b->i, "expected '=' after the field name '%.*s'; "
			               "the entry is left out", (int)(len > 40 ? 40 : len),
			               b->s + st);
		b->i++;
		buf_t v;
		buf_init(&v);
		int rc = bib_value(b, &v);
		char name[32];
		snprintf(name, sizeof(name), "%.*s", (int)len, b->s + st);
		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if (rc == 0 && *nf >= max) {
			if (!over++)
				bib_warn(b, st, "more than %d fields in one entry: field '%s' "
				         "and the ones after it are ignored", max, name);
		} else if (rc == 0 && bib_has(*f, *nf, name)) {
			bib_warn(b, st, "field '%s' appears twice in the entry; the second "
			         "one is ignored", name);
		} else if (rc == 0) {
			if (*nf == cap) {
				int nc = cap ? cap * 2 : 16;
				*f = arena_grow(b->c->a, *f, (size_t)cap * sizeof(**f),
				                (size_t)nc * sizeof(**f));
				cap = nc;
			}
			bfield_t *x = &(*f)[(*nf)++];
			memcpy(x->name, name, sizeof(name));
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
			return bib_bad(b, b->i, "expected ',' or '%c' after a field value; "
			               "the entry is left out", close);
	}
}

static int bib_string_def(bib_t *b, char close)
{
	bfield_t *f = NULL;
	int nf = 0;
	size_t at = b->i;
	if (bib_fields(b, close, &f, &nf, 1) < 0)
		return -1;
	if (!nf)
		return 0;
	size_t len = strlen(f[0].val);
	if (b->nmacro >= BIB_MAX_MACROS)
		return bib_bad(b, at, "more than %d @string macros; '%s' is ignored",
		               BIB_MAX_MACROS, f[0].name);
	if (b->macro_bytes + len > PROFILE_MAX_FILE)
		return bib_bad(b, at, "the @string macros hold more than %d bytes; "
		               "'%s' is ignored", PROFILE_MAX_FILE, f[0].name);
	if (b->nmacro == b->capmacro) {
		int nc = b->capmacro ? b->capmacro * 2 : 16;
		b->mname = arena_grow(b->c->a, b->mname, (size_t)b->capmacro * sizeof(char *),
		                      (size_t)nc * sizeof(char *));
		b->mval = arena_grow(b->c->a, b->mval, (size_t)b->capmacro * sizeof(char *),
		                     (size_t)nc * sizeof(char *));
		b->mnext = arena_grow(b->c->a, b->mnext, (size_t)b->capmacro * sizeof(int),
		                      (size_t)nc * sizeof(int));
		b->capmacro = nc;
	}
	b->macro_bytes += len;
	unsigned h = bib_hash(f[0].name, strlen(f[0].name));
	b->mname[b->nmacro] = arena_strdup(b->c->a, f[0].name);
	b->mval[b->nmacro] = f[0].val;
	b->mnext[b->nmacro] = b->mhash[h];
	b->mhash[h] = ++b->nmacro;
	return 0;
}

/* Skip a balanced (...) or {...} (for @comment and @preamble). */
static int bib_skip_group(bib_t *b, char open, char close)
{
	size_t st = b->i;
	int depth = 0;
	for (; b->i < b->n; b->i++) {
		if (b->s[b->i] == open)
			depth++;
		else if (b->s[b->i] == close && --depth == 0) {
			b->i++;
			return 0;
		}
	}
	return bib_bad(b, st, "unterminated @comment or @preamble");
}

/* One @type{key, fields} (b->i just after '@'). */
static int bib_entry(bib_t *b)
{
	size_t at = b->i - 1;
	bib_ws(b);
	size_t ts = b->i, len = bib_ident(b);
	char type[24];
	snprintf(type, sizeof(type), "%.*s", (int)len, b->s + ts);
	for (char *p = type; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	bib_ws(b);
	if (!len || b->i >= b->n || (b->s[b->i] != '{' && b->s[b->i] != '('))
		return len ? bib_bad(b, b->i, "expected '{' after '@%s'", type) : 0;
	char open = b->s[b->i], close = open == '{' ? '}' : ')';
	if (!strcmp(type, "comment") || !strcmp(type, "preamble"))
		return bib_skip_group(b, open, close);
	b->i++;
	if (!strcmp(type, "string"))
		return bib_string_def(b, close);
	b->nseen++;
	bib_ws(b);
	size_t ks = b->i;
	while (b->i < b->n && !isspace((unsigned char)b->s[b->i]) && b->s[b->i] != ',' &&
	       b->s[b->i] != close && b->s[b->i] != '{' && b->s[b->i] != '}')
		b->i++;
	if (b->i == ks)
		return bib_bad(b, b->i, "expected a citation key after '@%s%c'; the "
		               "entry is left out", type, open);
	const char *key = arena_strndup(b->c->a, b->s + ks, b->i - ks);
	bib_ws(b);
	if (b->i < b->n && b->s[b->i] == ',')
		b->i++;
	bfield_t *f = NULL;
	int nf = 0;
	if (bib_fields(b, close, &f, &nf, BIB_MAX_FIELDS) < 0)
		return -1;
	if (b->nrec == b->caprec) {
		int nc = b->caprec ? b->caprec * 2 : 16;
		b->rec = arena_grow(b->c->a, b->rec, (size_t)b->caprec * sizeof(*b->rec),
		                    (size_t)nc * sizeof(*b->rec));
		b->caprec = nc;
	}
	brec_t *r = &b->rec[b->nrec++];
	memset(r, 0, sizeof(*r));
	memcpy(r->type, type, sizeof(type));
	r->key = key;
	r->f = f;
	r->nf = nf;
	r->off = at;
	return 0;
}

/* The next '@' that starts a line (after spaces), from off. */
static size_t bib_next_entry(const bib_t *b, size_t off)
{
	for (size_t i = off; i < b->n; i++) {
		if (b->s[i] != '@')
			continue;
		size_t j = i;
		while (j > 0 && (b->s[j - 1] == ' ' || b->s[j - 1] == '\t'))
			j--;
		if (j == 0 || b->s[j - 1] == '\n')
			return i;
	}
	return b->n;
}

static void bib_scan(bib_t *b)
{
	while (b->i < b->n) {
		char ch = b->s[b->i];
		if (ch == '%') {
			while (b->i < b->n && b->s[b->i] != '\n')
				b->i++;
		} else if (ch == '@') {
			size_t st = b->i++;
			if (bib_entry(b) < 0)
				b->i = bib_next_entry(b, st + 1);
		} else {
			b->i++;
		}
	}
}

/* ---- entries -> publications ---- */

static const bfield_t *fld(const brec_t *r, const char *name)
{
	for (int i = 0; i < r->nf; i++)
		if (!strcmp(r->f[i].name, name) && r->f[i].val[0])
			return &r->f[i];
	return NULL;
}

static int rec_cmp(const void *x, const void *y)
{
	const brec_t *const *a = x, *const *b = y;
	return strcasecmp((*a)->key, (*b)->key);
}

/* The entry of a key: binary search in idx (the records sorted by key). */
static brec_t *bib_find(brec_t **idx, int n, const char *key)
{
	int lo = 0, hi = n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2, r = strcasecmp(idx[mid]->key, key);
		if (!r)
			return idx[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* crossref: the missing fields come from the entry named (its title as
 * the booktitle); that entry is a container and is not listed. */
static void bib_crossrefs(bib_t *b)
{
	brec_t **idx = arena_alloc(b->c->a, (size_t)(b->nrec ? b->nrec : 1) * sizeof(*idx));
	for (int i = 0; i < b->nrec; i++)
		idx[i] = &b->rec[i];
	qsort(idx, (size_t)b->nrec, sizeof(*idx), rec_cmp);
	for (int i = 0; i < b->nrec; i++) {
		brec_t *r = &b->rec[i];
		const bfield_t *x = fld(r, "crossref");
		if (!x)
			continue;
		brec_t *p = bib_find(idx, b->nrec, x->val);
		if (!p || p == r) {
			bib_warn(b, x->off, "crossref '%.60s' names no entry of this file; "
			         "ignored", x->val);
			continue;
		}
		p->used_as_crossref = 1;
		int cap = r->nf + p->nf + 1;
		bfield_t *f = arena_alloc(b->c->a, (size_t)cap * sizeof(*f));
		memcpy(f, r->f, (size_t)r->nf * sizeof(*f));
		int nf = r->nf;
		for (int j = 0; j < p->nf; j++) {
			bfield_t g = p->f[j];
			if (!strcmp(g.name, "title"))
				memcpy(g.name, "booktitle", sizeof("booktitle"));
			else if (!strcmp(g.name, "crossref") || !strcmp(g.name, "abbr"))
				continue;
			if (!bib_has(f, nf, g.name)) {
				g.off = x->off;
				f[nf++] = g;
			}
		}
		r->f = f;
		r->nf = nf;
	}
}

/* Fields a CV never shows: dropped without a word. */
static const char *const quiet[] = {
	"file", "urldate", "timestamp", "biburl", "bibsource", "adsurl", "adsnote",
	"issn", "isbn", "eid", "numpages", "shorttitle", "bibtex_show", "preview",
	"altmetric", "dimensions", "google_scholar_id",
	"copyright", "pmid", "pmcid", "owner", "creationdate", "modificationdate",
	"lccn", "key", "crossref", "archiveprefix", "eprinttype", "primaryclass",
	"eprintclass", "month", "mendeley-tags", "citedby", "article-number",
	"researcherid-numbers", "orcid-numbers", "unique-id", "da", "ids",
	"added-at", "interhash", "intrahash", "bdsk-url-1", "bdsk-url-2",
	"date-added", "date-modified", "school_abbr", "inspire", "ss_id",
	"annotation_show", "award_name", "hidden", NULL};

static int in_list(const char *name, const char *const *v)
{
	for (int i = 0; v[i]; i++)
		if (!strcmp(v[i], name))
			return 1;
	return 0;
}

static void bib_ignored(bib_t *b, const bfield_t *x)
{
	if (in_list(x->name, quiet))
		return;
	for (int i = 0; i < b->nign; i++)
		if (!strcmp(b->ign[i].name, x->name)) {
			b->ign[i].count++;
			return;
		}
	if (b->nign < BIB_MAX_IGNORED) {
		memcpy(b->ign[b->nign].name, x->name, sizeof(x->name));
		b->ign[b->nign].off = x->off;
		b->ign[b->nign++].count = 1;
	} else if (!b->ign_more++) {
		b->ign_more_off = x->off;
	}
}

static const char *tex(bib_t *b, const bfield_t *x, int markup)
{
	return pbib_latex(b->c->a, x->val, strlen(x->val), markup);
}

/* Split on "and" at brace level 0. */
static int bib_names(bib_t *b, const char *raw, const char ***out, int *etal)
{
	size_t n = strlen(raw), st = 0;
	int depth = 0, cap = 8, cnt = 0;
	const char **v = arena_alloc(b->c->a, (size_t)cap * sizeof(*v));
	for (size_t i = 0; i <= n; i++) {
		int brk = i == n;
		size_t skip = 0;
		if (i < n && raw[i] == '{')
			depth++;
		else if (i < n && raw[i] == '}')
			depth--;
		else if (i < n && !depth && isspace((unsigned char)raw[i]) && i + 4 < n &&
		         !strncasecmp(raw + i + 1, "and", 3) && isspace((unsigned char)raw[i + 4])) {
			brk = 1;
			skip = 5;
		}
		if (!brk)
			continue;
		const char *name = pbib_latex(b->c->a, raw + st, i - st, 0);
		if (!strcasecmp(name, "others") || !strcasecmp(name, "et al.")) {
			*etal = 1;
		} else if (*name) {
			if (cnt == cap) {
				v = arena_grow(b->c->a, v, (size_t)cap * sizeof(*v),
				               (size_t)cap * 2 * sizeof(*v));
				cap *= 2;
			}
			v[cnt++] = name;
		}
		st = i + skip;
		if (skip)
			i += skip - 1;
	}
	*out = v;
	return cnt;
}

/* Does s hold a CJK (or other caseless-script) letter? */
static int caseless(const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		i += (size_t)utf8_next(s + i, n - i, &cp);
		if ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x9FFF) ||
		    (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
		    (cp >= 0x20000 && cp <= 0x3FFFF))
			return 1;
	}
	return 0;
}

/* "Last, First" -> "First Last"; "Last, Jr, First" -> "First Last Jr";
 * a CJK "山田, 太郎" -> "山田太郎" (family name first, as it is written). */
static const char *bib_name(arena_t *a, const char *s)
{
	const char *c1 = strchr(s, ',');
	if (!c1)
		return s;
	/* "Zhu, Zhen*": the mark stays at the end of the name turned round */
	size_t n = strlen(s), m = n;
	while (m && (s[m - 1] == '*' || s[m - 1] == '#' || s[m - 1] == ' ' ||
	             (m >= 3 && (!memcmp(s + m - 3, "\u2020", 3) || !memcmp(s + m - 3, "\u2021", 3)))))
		m -= s[m - 1] == '*' || s[m - 1] == '#' || s[m - 1] == ' ' ? 1 : 3;
	if (m < n && m > (size_t)(c1 - s) + 1)
		return arena_printf(a, "%s%s", bib_name(a, arena_strndup(a, s, m)), s + m);
	const char *c2 = strchr(c1 + 1, ',');
	const char *first = (c2 ? c2 : c1) + 1;
	while (*first == ' ')
		first++;
	int last_len = (int)(c1 - s);
	while (last_len && s[last_len - 1] == ' ')
		last_len--;
	if (!*first)
		return arena_strndup(a, s, (size_t)last_len);
	if (caseless(s) && !c2)
		return arena_printf(a, "%.*s%s", last_len, s, first);
	if (c2) {
		const char *jr = c1 + 1;
		while (*jr == ' ')
			jr++;
		return arena_printf(a, "%s %.*s %.*s", first, last_len, s,
		                    (int)(c2 - jr), jr);
	}
	return arena_printf(a, "%s %.*s", first, last_len, s);
}

static void join(buf_t *v, const char *s)
{
	if (!s || !*s)
		return;
	if (v->len)
		buf_puts(v, ", ");
	buf_puts(v, s);
}

/* The genre the locale words: @phdthesis, @mastersthesis, @techreport
 * without a `type`, or a `type` that is biblatex's key for it (phdthesis,
 * mathesis, techreport); NULL when the entry says it in its own words. */
static const char *bib_genre(bib_t *b, const brec_t *r)
{
	static const char *const keys[][2] = {
		{"phdthesis", "phdthesis"}, {"mastersthesis", "mastersthesis"},
		{"mathesis", "mastersthesis"}, {"techreport", "techreport"}};
	const bfield_t *ty = fld(r, "type");
	const char *t = ty ? tex(b, ty, 0) : r->type;
	int thesis = !strcmp(r->type, "phdthesis") || !strcmp(r->type, "mastersthesis") ||
	             !strcmp(r->type, "thesis");
	int report = !strcmp(r->type, "techreport") || !strcmp(r->type, "report");
	if (!thesis && !report)
		return NULL;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcasecmp(t, keys[i][0]) && (report == !strcmp(keys[i][1], "techreport")))
			return keys[i][1];
	return NULL;
}

/* volume(number):pages, the parts there are */
static void bib_volume(bib_t *b, const brec_t *r, buf_t *v)
{
	const bfield_t *vol = fld(r, "volume"), *num = fld(r, "number");
	const bfield_t *iss = fld(r, "issue"), *pg = fld(r, "pages");
	int report = !strcmp(r->type, "techreport") || !strcmp(r->type, "report");
	buf_t t;
	buf_init(&t);
	if (report) {
		const bfield_t *ty = fld(r, "type");
		if (ty && !bib_genre(b, r))   /* "techreport": the locale words it */
			buf_puts(&t, tex(b, ty, 1));
		if (num)
			buf_printf(&t, "%s%s", t.len ? " " : "", tex(b, num, 1));
		num = NULL;
	} else if (vol) {
		buf_puts(&t, tex(b, vol, 1));
	}
	if (!num)
		num = iss;
	if (num && !report)
		buf_printf(&t, vol ? "(%s)" : "%s", tex(b, num, 1));
	if (pg) {
		/* BibTeX writes a page range 12-34 or 12--34: an en dash */
		const char *g = tex(b, pg, 1);
		const char *d = strchr(g, '-');
		if (d && d > g && isdigit((unsigned char)d[-1]) && isdigit((unsigned char)d[1]))
			g = arena_printf(b->c->a, "%.*s–%s", (int)(d - g), g, d + 1);
		buf_printf(&t, "%s%s", t.len && !report ? ":" : t.len ? ", " : "", g);
	}
	join(v, t.s);
	buf_done(&t);
}

static const char *const venue_keys[] = {
	"journal", "journaltitle", "booktitle", "school", "institution",
	"howpublished", NULL};

static void bib_venue(bib_t *b, const brec_t *r, mpub_t *p)
{
	buf_t v;
	buf_init(&v);
	for (int i = 0; venue_keys[i]; i++) {
		const bfield_t *x = fld(r, venue_keys[i]);
		if (x) {
			const char *t = tex(b, x, 1);
			size_t n = strlen(t);
			while (n && (t[n - 1] == ',' || t[n - 1] == ' '))   /* "Phys. Rev.," */
				n--;
			join(&v, arena_strndup(b->c->a, t, n));
		}
		/* biblatex: the event after the proceedings, "(EuroSys '24)" */
		const bfield_t *ev = !strcmp(venue_keys[i], "booktitle") ? fld(r, "eventtitle") : NULL;
		if (ev && *tex(b, ev, 1))
			buf_printf(&v, "%s(%s)", v.len ? " " : "", tex(b, ev, 1));
	}
	p->genre = bib_genre(b, r);
	if (!strcmp(r->type, "phdthesis") || !strcmp(r->type, "mastersthesis") ||
	    !strcmp(r->type, "thesis")) {
		const bfield_t *ty = fld(r, "type");
		if (ty && !p->genre)
			join(&v, tex(b, ty, 1));
	}
	bib_volume(b, r, &v);
	static const char *const after[] = {"series", "organization",
		"publisher", "address", "location", NULL};
	for (int i = 0; after[i]; i++) {
		const bfield_t *x = fld(r, after[i]);
		if (!x)
			continue;
		const char *t = tex(b, x, 1);
		size_t n = strlen(t);
		while (n && (t[n - 1] == ',' || t[n - 1] == ' '))
			n--;
		join(&v, arena_strndup(b->c->a, t, n));
	}
	if (v.len) {
		pv_markup(b->c->a, v.s, &p->venue_full);
		p->venue_full.line = p->line;
		p->venue_full.col = p->col;
	}
	buf_done(&v);
}

static void link_add(bib_t *b, mpub_t *p, const char *label, const char *url)
{
	for (int i = 0; i < p->nlinks; i++)
		if (!strcmp(p->links[i].url, url))
			return;
	mlink_t *l = arena_alloc(b->c->a, (size_t)(p->nlinks + 1) * sizeof(*l));
	if (p->nlinks)
		memcpy(l, p->links, (size_t)p->nlinks * sizeof(*l));
	l[p->nlinks].label = label;
	l[p->nlinks].url = url;
	l[p->nlinks].line = p->line;
	l[p->nlinks].col = p->col;
	p->links = l;
	p->nlinks++;
}

/* A URL or an identifier as written: braces dropped, \_ \% \& \# \~
 * unescaped, nothing else touched (a ~ or -- in a URL is what it says). */
static const char *raw_url(arena_t *a, const char *s)
{
	buf_t b;
	buf_init(&b);
	for (; *s; s++) {
		if (*s == '{' || *s == '}' || isspace((unsigned char)*s))
			continue;
		if (*s == '\\' && s[1] && strchr("_%&#~$", s[1]))
			s++;
		buf_putc(&b, *s);
	}
	const char *r = arena_strdup(a, b.s ? b.s : "");
	buf_done(&b);
	return r;
}

static int is_web(const char *u)
{
	return !strncasecmp(u, "https://", 8) || !strncasecmp(u, "http://", 7);
}

/* al-folio's link fields and the label its buttons carry. */
static const char *const link_fields[][2] = {
	{"url", "Paper"}, {"pdf", "PDF"}, {"code", "Code"}, {"html", "HTML"},
	{"slides", "Slides"}, {"poster", "Poster"}, {"video", "Video"},
	{"website", "Website"}, {"supp", "Supp"}, {"blog", "Blog"},
};

static const char *doi_of(arena_t *a, const char *d)
{
	static const char *const pre[] = {"https://doi.org/", "http://doi.org/",
		"https://dx.doi.org/", "http://dx.doi.org/", "doi:", NULL};
	for (int i = 0; pre[i]; i++)
		if (!strncasecmp(d, pre[i], strlen(pre[i])))
			return arena_strdup(a, d + strlen(pre[i]));
	return d;
}

static void bib_links(bib_t *b, const brec_t *r, mpub_t *p, int *used)
{
	arena_t *a = b->c->a;
	const bfield_t *x;
	const char *doi_url = NULL;
	if ((x = fld(r, "doi"))) {
		p->doi = doi_of(a, raw_url(a, x->val));
		doi_url = arena_printf(a, "https://doi.org/%s", p->doi);
		used[x - r->f] = 1;
	}
	const bfield_t *ep = fld(r, "eprint"), *ax = fld(r, "arxiv");
	const bfield_t *pre = fld(r, "archiveprefix");
	if (!pre)
		pre = fld(r, "eprinttype");
	const char *id = NULL;
	if (ep && (!pre || !strcasecmp(pre->val, "arxiv"))) {
		id = raw_url(a, ep->val);
		used[ep - r->f] = 1;
	}
	if (ax) {
		id = raw_url(a, ax->val);
		used[ax - r->f] = 1;
	}
	if (id) {
		const bfield_t *cl = fld(r, "primaryclass");
		if (!cl)
			cl = fld(r, "eprintclass");   /* biblatex */
		if (!strncasecmp(id, "arxiv:", 6))
			id += 6;
		const char *lab = cl ? arena_printf(a, "arXiv:%s [%s]", id, cl->val)
		                     : arena_printf(a, "arXiv:%s", id);
		link_add(b, p, lab, arena_printf(a, "https://arxiv.org/abs/%s", id));
	}
	for (size_t i = 0; i < sizeof(link_fields) / sizeof(link_fields[0]); i++) {
		if (!(x = fld(r, link_fields[i][0])))
			continue;
		const char *u = raw_url(a, x->val);
		if (!strcmp(x->name, "url") && doi_url &&
		    (!strcasecmp(u, doi_url) || strstr(u, p->doi)))
			used[x - r->f] = 1;    /* the DOI link says it already */
		else if (is_web(u)) {
			link_add(b, p, link_fields[i][1], u);
			used[x - r->f] = 1;
		} else {
			bib_warn(b, x->off, "ignored: field '%s' = '%.80s' is not a web "
			         "address (http:// or https://)", x->name, u);
			used[x - r->f] = 1;
		}
	}
}

static int month_of(const char *s)
{
	if (isdigit((unsigned char)s[0]))
		return atoi(s) >= 1 && atoi(s) <= 12 ? atoi(s) : 0;
	for (int i = 0; i < 12; i++)
		if (!strncasecmp(s, months[i], 3))
			return i + 1;
	return 0;
}

/* 4-digit year somewhere in the text ("2024", "2024a", "{2024}"), else 0. */
static int year_of(const char *s)
{
	for (const char *p = s; *p; p++)
		if (isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) &&
		    isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
		    !isdigit((unsigned char)p[4]) && (p == s || !isdigit((unsigned char)p[-1])) &&
		    p[0] != '0')
			return atoi(p) % 10000;
	return 0;
}

typedef struct bpub {
	mpub_t p;
	int month, rank, order;
	int selected;
} bpub_t;

static const char *const type_rank[] = {
	"article", "inproceedings", "conference", "incollection", "inbook", "book",
	"phdthesis", "mastersthesis", "thesis", "techreport", "report", "patent",
	"unpublished", "misc", "online", NULL};

/* biblatex's langid (babel and polyglossia names), and the names and
 * ISO 639-2 codes BibTeX exports put in `language`, as language codes. */
static const char *const lang_names[][2] = {
	{"english", "en"}, {"american", "en-US"}, {"usenglish", "en-US"}, {"british", "en-GB"},
	{"ukenglish", "en-GB"}, {"canadian", "en-CA"}, {"australian", "en-AU"},
	{"newzealand", "en-NZ"}, {"german", "de"}, {"ngerman", "de"}, {"deutsch", "de"},
	{"austrian", "de-AT"}, {"naustrian", "de-AT"}, {"swissgerman", "de-CH"},
	{"nswissgerman", "de-CH"}, {"french", "fr"}, {"francais", "fr"}, {"spanish", "es"},
	{"italian", "it"}, {"portuguese", "pt"}, {"portuges", "pt"}, {"brazil", "pt-BR"},
	{"brazilian", "pt-BR"}, {"dutch", "nl"}, {"russian", "ru"}, {"greek", "el"},
	{"polish", "pl"}, {"czech", "cs"}, {"slovak", "sk"}, {"slovene", "sl"},
	{"slovenian", "sl"}, {"croatian", "hr"}, {"serbian", "sr"}, {"bulgarian", "bg"},
	{"ukrainian", "uk"}, {"swedish", "sv"}, {"danish", "da"}, {"norwegian", "nb"},
	{"norsk", "nb"}, {"nynorsk", "nn"}, {"finnish", "fi"}, {"icelandic", "is"},
	{"estonian", "et"}, {"latvian", "lv"}, {"lithuanian", "lt"}, {"hungarian", "hu"},
	{"magyar", "hu"}, {"romanian", "ro"}, {"turkish", "tr"}, {"catalan", "ca"},
	{"basque", "eu"}, {"galician", "gl"}, {"irish", "ga"}, {"welsh", "cy"},
	{"latin", "la"}, {"chinese", "zh"}, {"japanese", "ja"}, {"korean", "ko"},
	{"vietnamese", "vi"}, {"thai", "th"}, {"indonesian", "id"}, {"bahasa", "id"},
	{"malay", "ms"}, {"hindi", "hi"}, {"arabic", "ar"}, {"hebrew", "he"},
	{"persian", "fa"}, {"farsi", "fa"}, {"eng", "en"}, {"deu", "de"}, {"ger", "de"},
	{"fra", "fr"}, {"fre", "fr"}, {"spa", "es"}, {"ita", "it"}, {"por", "pt"},
	{"nld", "nl"}, {"dut", "nl"}, {"rus", "ru"}, {"pol", "pl"}, {"ell", "el"},
	{"gre", "el"}, {"zho", "zh"}, {"chi", "zh"}, {"jpn", "ja"}, {"kor", "ko"},
};

/* The language code of a langid or language field's value ("English",
 * "ngerman", "de-CH"), or NULL. */
static const char *bib_lang(arena_t *a, const char *v)
{
	char w[24];
	size_t n = 0;
	while (*v == ' ' || *v == '{')
		v++;
	for (; v[n] && n + 1 < sizeof(w) && (isalnum((unsigned char)v[n]) || v[n] == '-' ||
	                                     v[n] == '_'); n++)
		w[n] = (char)tolower((unsigned char)v[n]);
	w[n] = 0;
	for (size_t i = 0; i < sizeof(lang_names) / sizeof(lang_names[0]); i++)
		if (!strcmp(w, lang_names[i][0]))
			return lang_names[i][1];
	/* a code as written: two letters, with a region or script */
	if (n >= 2 && isalpha((unsigned char)w[0]) && isalpha((unsigned char)w[1]) &&
	    (n == 2 || w[2] == '-' || w[2] == '_')) {
		char *c = arena_strndup(a, v, n);
		c[0] = w[0];
		c[1] = w[1];
		return c;
	}
	return NULL;
}

static int bib_to_pub(bib_t *b, const brec_t *r, bpub_t *bp)
{
	arena_t *a = b->c->a;
	mpub_t *p = &bp->p;
	const bfield_t *x;
	int used[BIB_MAX_FIELDS + 1] = {0};
	memset(bp, 0, sizeof(*bp));
	p->line = b->line0;
	p->col = b->col0;
	if (!(x = fld(r, "title")))
		return bib_bad(b, r->off, "entry '%.60s' has no title; it is left out",
		               r->key);
	pv_markup(a, tex(b, x, 1), &p->title);
	p->title.line = p->line;
	p->title.col = p->col;
	if (!p->title.n)
		return bib_bad(b, x->off, "entry '%.60s' has an empty title; it is left "
		               "out", r->key);
	if ((x = fld(r, "author"))) {
		p->nauthors = bib_names(b, x->val, &p->authors, &p->etal);
		for (int i = 0; i < p->nauthors; i++)
			p->authors[i] = bib_name(a, p->authors[i]);
	}
	if ((x = fld(r, "editor"))) {
		int etal = 0;
		p->neditors = bib_names(b, x->val, &p->editors, &etal);
		for (int i = 0; i < p->neditors; i++)
			p->editors[i] = bib_name(a, p->editors[i]);
	}
	bib_venue(b, r, p);
	if ((x = fld(r, "note"))) {
		pv_markup(a, tex(b, x, 1), &p->note);
		p->note.line = p->line;
		p->note.col = p->col;
	}
	if ((x = fld(r, "year")) || (x = fld(r, "date"))) {
		const char *y = tex(b, x, 0);
		p->year = year_of(y);
		if (!p->year && *y)
			p->status = y;     /* "in press", "submitted" */
		if (!strcmp(x->name, "date") && strlen(y) >= 7)
			bp->month = month_of(y + 5);
	}
	if ((x = fld(r, "month")))
		bp->month = month_of(x->val);
	if ((x = fld(r, "abbr")))
		p->venue = tex(b, x, 0);
	if ((x = fld(r, "selected")))
		bp->selected = !strcasecmp(x->val, "true") || !strcasecmp(x->val, "yes");
	if ((x = fld(r, "langid")) || (x = fld(r, "language"))) {
		p->lang = bib_lang(a, x->val);
		p->title.lang = p->venue_full.lang = p->note.lang = p->lang;
	}
	bib_links(b, r, p, used);
	int rk = 0;
	while (type_rank[rk] && strcmp(type_rank[rk], r->type))
		rk++;
	bp->rank = rk;
	/* what was used; everything else is reported once per file */
	static const char *const taken[] = {
		"title", "author", "editor", "journal", "journaltitle", "booktitle",
		"school", "institution", "howpublished", "volume", "number", "issue",
		"pages", "series", "organization", "publisher", "address",
		"location", "note", "year", "date", "abbr", "selected", "eventtitle", "langid",
		"language", NULL};
	for (int i = 0; i < r->nf; i++) {
		const bfield_t *f = &r->f[i];
		if (used[i] || in_list(f->name, taken) || !f->val[0])
			continue;
		if (!strcmp(f->name, "type") && (!strcmp(r->type, "techreport") ||
		    !strcmp(r->type, "report") || strstr(r->type, "thesis")))
			continue;
		bib_ignored(b, f);
	}
	return 0;
}

static int bpub_cmp(const void *x, const void *y)
{
	const bpub_t *a = x, *b = y;
	if (a->p.year != b->p.year)
		return a->p.year > b->p.year ? -1 : 1;
	if (a->month != b->month)
		return a->month > b->month ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->order - b->order;
}

/* --tags: an entry marked `selected` carries the tag "selected"; with
 * --tags selected, the entries not marked are left out. */
static int bib_keep(const bib_t *b, const bpub_t *bp)
{
	const profile_opts_t *o = b->c->o;
	if (!o || !o->tags)
		return 1;
	for (int i = 0; i < o->ntags; i++)
		if (!strcmp(o->tags[i], "selected"))
			return bp->selected;
	return 1;
}

int pbib_load(pctx_t *c, const ynode_t *where, const char *path,
              mpub_t **pubs, int *npubs)
{
	buf_t f;
	int rc = 0;
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
	rc = pbib_load_mem(c, where, path, f.s ? f.s : "", f.len, pubs, npubs);
	buf_done(&f);
	return rc;
}

int pbib_load_mem(pctx_t *c, const ynode_t *where, const char *path,
                  const char *data, size_t len, mpub_t **pubs, int *npubs)
{
	bib_t b;
	*pubs = NULL;
	*npubs = 0;
	memset(&b, 0, sizeof(b));
	b.c = c;
	b.path = arena_strdup(c->a, path);
	b.s = data;
	b.n = len;
	b.line0 = where->line;
	b.col0 = where->col;
	b.pos_line = b.pos_col = 1;
	int errs0 = c->e->nerrors;
	long bad = utf8_invalid_at(b.s, b.n);
	if (bad >= 0 || memchr(b.s, '\0', b.n)) {
		size_t off = bad >= 0 ? (size_t)bad : (size_t)((const char *)memchr(b.s, '\0', b.n) - b.s);
		bib_err(&b, off, "invalid UTF-8 or a NUL byte in the BibTeX file");
		return -1;
	}
	bib_scan(&b);
	bib_crossrefs(&b);
	bpub_t *v = arena_alloc(c->a, (size_t)(b.nrec ? b.nrec : 1) * sizeof(*v));
	int nv = 0;
	for (int i = 0; i < b.nrec; i++) {
		if (b.rec[i].used_as_crossref)
			continue;
		if (bib_to_pub(&b, &b.rec[i], &v[nv]) == 0) {
			v[nv].order = nv;
			nv += bib_keep(&b, &v[nv]);
		}
	}
	for (int i = 0; i < b.nign; i++)
		bib_warn(&b, b.ign[i].off, "ignored: BibTeX field '%s' (vita does not "
		         "print it; %d %s)", b.ign[i].name, b.ign[i].count,
		         b.ign[i].count == 1 ? "entry" : "entries");
	if (b.ign_more)
		bib_warn(&b, b.ign_more_off, "ignored: %d more BibTeX fields of other "
		         "names (the first is here)", b.ign_more);
	if (!b.nseen)
		warn_at(c->e, c->file, where->line, where->col, "the BibTeX file '%s' has "
		        "no entries", path);
	qsort(v, (size_t)nv, sizeof(*v), bpub_cmp);
	*pubs = arena_alloc(c->a, (size_t)(nv ? nv : 1) * sizeof(**pubs));
	for (int i = 0; i < nv; i++)
		(*pubs)[i] = v[i].p;
	*npubs = nv;
	return c->e->nerrors > errs0 ? -1 : 0;
}
