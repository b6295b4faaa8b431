/* json: JSON text (RFC 8259) -> the node tree ydoc gives, with 1-based
 * positions, so that a .json file is read as JSON and every message about
 * it says JSON. Strings decode every escape, surrogate pairs included
 * ("\ud83d\ude80" -> U+1F680); a lone surrogate, \u0000, a raw control
 * character, a trailing comma, a comment or text after the value is a
 * located error. Numbers, true and false are plain scalars (as YAML reads
 * them), null is YD_NULL. Nesting is limited to YDOC_MAX_DEPTH levels; a
 * key may appear once per object.
 */
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "json.h"
#include "utf8.h"

typedef struct jp {
	arena_t *a;
	errs_t *e;
	const char *file, *s;
	size_t n, i;
	int line, col;        /* of s[i] */
	int depth;
} jp_t;

static void adv(jp_t *p)
{
	if (p->s[p->i] == '\n') {
		p->line++;
		p->col = 1;
	} else if (((unsigned char)p->s[p->i] & 0xc0) != 0x80) {
		p->col++;
	}
	p->i++;
}

static int jerr(jp_t *p, const char *fmt, const char *arg)
{
	return err_at(p->e, p->file, p->line, p->col, fmt, arg);
}

static void ws(jp_t *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
	                       p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		adv(p);
}

static const char *what(jp_t *p)
{
	static char buf[16];
	if (p->i >= p->n)
		return "the end of the file";
	unsigned char ch = (unsigned char)p->s[p->i];
	if (ch < 0x20 || ch >= 0x7f)
		snprintf(buf, sizeof(buf), "byte 0x%02x", ch);
	else
		snprintf(buf, sizeof(buf), "'%c'", ch);
	return buf;
}

static ynode_t *node(jp_t *p, int kind, int line, int col)
{
	ynode_t *x = arena_alloc(p->a, sizeof(*x));
	x->kind = kind;
	x->line = line;
	x->col = col;
	return x;
}

static int hex4(jp_t *p, unsigned *out)
{
	unsigned v = 0;
	for (int k = 0; k < 4; k++) {
		char c = p->i + (size_t)k < p->n ? p->s[p->i + (size_t)k] : 0;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return jerr(p, "malformed JSON: \\u must be followed by four hex "
			            "digits%s", "");
		v = v * 16 + (unsigned)d;
	}
	for (int k = 0; k < 4; k++)
		adv(p);
	*out = v;
	return 0;
}

/* A string at p->i (the opening quote) into *out. */
static int string(jp_t *p, char **out, size_t *len)
{
	buf_t b;
	buf_init(&b);
	adv(p);
	for (;;) {
		if (p->i >= p->n) {
			buf_done(&b);
			return jerr(p, "malformed JSON: unterminated string%s", "");
		}
		unsigned char ch = (unsigned char)p->s[p->i];
		if (ch == '"') {
			adv(p);
			break;
		}
		if (ch < 0x20) {
			buf_done(&b);
			return jerr(p, "malformed JSON: a control character (%s) in a string "
			            "must be written as an escape", what(p));
		}
		if (ch != '\\') {
			buf_putc(&b, (char)ch);
			adv(p);
			continue;
		}
		int line = p->line, col = p->col;
		adv(p);
		char esc = p->i < p->n ? p->s[p->i] : 0;
		const char *simple = strchr("\"\\/bfnrt", esc);
		if (esc && simple) {
			static const char to[] = "\"\\/\b\f\n\r\t";
			buf_putc(&b, to[simple - "\"\\/bfnrt"]);
			adv(p);
			continue;
		}
		if (esc != 'u') {
			buf_done(&b);
			return jerr(p, "malformed JSON: unknown escape \\%s in a string",
			            esc ? (char[]){esc, 0} : "");
		}
		adv(p);
		unsigned cp, lo;
		if (hex4(p, &cp) < 0) {
			buf_done(&b);
			return -1;
		}
		if (cp >= 0xD800 && cp <= 0xDBFF) {
			if (p->i + 1 < p->n && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
				adv(p);
				adv(p);
				if (hex4(p, &lo) < 0) {
					buf_done(&b);
					return -1;
				}
				if (lo < 0xDC00 || lo > 0xDFFF) {
					buf_done(&b);
					return err_at(p->e, p->file, line, col, "invalid JSON string: "
					              "\\u%04x (a high surrogate) is followed by \\u%04x, "
					              "not by a low surrogate \\udc00-\\udfff", cp, lo);
				}
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else {
				buf_done(&b);
				return err_at(p->e, p->file, line, col, "invalid JSON string: lone "
				              "surrogate \\u%04x (a high surrogate needs a low one, "
				              "\\udc00-\\udfff, right after it)", cp);
			}
		} else if (cp >= 0xDC00 && cp <= 0xDFFF) {
			buf_done(&b);
			return err_at(p->e, p->file, line, col, "invalid JSON string: lone "
			              "surrogate \\u%04x (a low surrogate without a high one "
			              "before it)", cp);
		} else if (cp == 0) {
			buf_done(&b);
			return err_at(p->e, p->file, line, col, "invalid JSON string: \\u0000 "
			              "(a NUL character) is not allowed in a profile%s", "");
		}
		char tmp[4];
		buf_add(&b, tmp, (size_t)utf8_encode(cp, tmp));
	}
	*out = arena_strndup(p->a, b.s ? b.s : "", b.len);
	*len = b.len;
	buf_done(&b);
	return 0;
}

static int value(jp_t *p, ynode_t **out);

static int unique_keys(jp_t *p, ynode_t *m)
{
	ynode_t **k = xmalloc((size_t)(m->n ? m->n : 1) * sizeof(*k));
	for (int i = 0; i < m->n; i++)
		k[i] = m->kids[2 * i];
	int rc = ydoc_dup_keys(k, m->n, p->file, p->e);
	free(k);
	return rc;
}

/* [ ... ] or { ... } at p->i. */
static int container(jp_t *p, ynode_t *x, char close)
{
	int cap = 0, per = close == '}' ? 2 : 1;
	adv(p);
	ws(p);
	if (p->i < p->n && p->s[p->i] == close) {
		adv(p);
		return 0;
	}
	for (;;) {
		ynode_t *k = NULL, *v;
		ws(p);
		if (close == '}') {
			if (p->i >= p->n || p->s[p->i] != '"')
				return jerr(p, "malformed JSON: expected a key in double quotes, "
				            "got %s", what(p));
			k = node(p, YD_SCALAR, p->line, p->col);
			if (string(p, (char **)&k->str, &k->len) < 0)
				return -1;
			ws(p);
			if (p->i >= p->n || p->s[p->i] != ':')
				return jerr(p, "malformed JSON: expected ':' after the key, got %s",
				            what(p));
			adv(p);
		}
		if (value(p, &v) < 0)
			return -1;
		if ((x->n + 1) * per > cap) {
			int nc = cap ? cap * 2 : 8 * per;
			x->kids = arena_grow(p->a, x->kids, (size_t)cap * sizeof(*x->kids),
			                     (size_t)nc * sizeof(*x->kids));
			cap = nc;
		}
		if (k)
			x->kids[2 * x->n] = k;
		x->kids[per * x->n + per - 1] = v;
		x->n++;
		ws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			adv(p);
			ws(p);
			if (p->i < p->n && p->s[p->i] == close)
				return jerr(p, "malformed JSON: a trailing comma before %s", what(p));
			continue;
		}
		if (p->i < p->n && p->s[p->i] == close) {
			adv(p);
			return close == '}' ? unique_keys(p, x) : 0;
		}
		return close == '}'
		       ? jerr(p, "malformed JSON: expected ',' or '}' after an object member, "
		              "got %s", what(p))
		       : jerr(p, "malformed JSON: expected ',' or ']' after an array item, "
		              "got %s", what(p));
	}
}

static int number(jp_t *p, ynode_t *x)
{
	size_t st = p->i;
	if (p->s[p->i] == '-')
		adv(p);
	if (p->i < p->n && p->s[p->i] == '0') {
		adv(p);
	} else if (p->i < p->n && p->s[p->i] >= '1' && p->s[p->i] <= '9') {
		while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
			adv(p);
	} else {
		return jerr(p, "malformed JSON: expected a digit, got %s", what(p));
	}
	if (p->i < p->n && p->s[p->i] == '.') {
		adv(p);
		if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
			return jerr(p, "malformed JSON: expected a digit after '.', got %s", what(p));
		while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
			adv(p);
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		adv(p);
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			adv(p);
		if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
			return jerr(p, "malformed JSON: expected a digit in the exponent, got %s",
			            what(p));
		while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
			adv(p);
	}
	x->str = arena_strndup(p->a, p->s + st, p->i - st);
	x->len = p->i - st;
	x->plain = 1;
	return 0;
}

static int word(jp_t *p, const char *w)
{
	size_t n = strlen(w);
	if (p->n - p->i < n || memcmp(p->s + p->i, w, n))
		return 0;
	for (size_t k = 0; k < n; k++)
		adv(p);
	return 1;
}

static int value(jp_t *p, ynode_t **out)
{
	ws(p);
	if (p->i >= p->n)
		return jerr(p, "malformed JSON: expected a value, got %s", what(p));
	char ch = p->s[p->i];
	ynode_t *x = node(p, YD_SCALAR, p->line, p->col);
	*out = x;
	if (ch == '{' || ch == '[') {
		if (++p->depth > YDOC_MAX_DEPTH)
			return jerr(p, "JSON nested deeper than %s levels", "64");
		x->kind = ch == '{' ? YD_MAP : YD_SEQ;
		int rc = container(p, x, ch == '{' ? '}' : ']');
		p->depth--;
		return rc;
	}
	if (ch == '"')
		return string(p, (char **)&x->str, &x->len);
	if (ch == '-' || (ch >= '0' && ch <= '9'))
		return number(p, x);
	if (word(p, "true") || word(p, "false")) {
		size_t n = p->s[p->i - 1] == 'e' && p->s[p->i - 2] == 'u' ? 4 : 5;
		x->str = arena_strndup(p->a, p->s + p->i - n, n);
		x->len = n;
		x->plain = 1;
		return 0;
	}
	if (word(p, "null")) {
		x->kind = YD_NULL;
		x->str = "";
		return 0;
	}
	if (ch == '/')
		return jerr(p, "malformed JSON: comments are not allowed in JSON%s", "");
	if (ch == '\'')
		return jerr(p, "malformed JSON: strings are written in double quotes%s", "");
	return jerr(p, "malformed JSON: expected a value (an object, an array, a "
	            "string, a number, true, false or null), got %s", what(p));
}

int json_parse(arena_t *a, const char *file, const char *data, size_t len,
               ynode_t **root, errs_t *e)
{
	jp_t p = {a, e, file, data, len, 0, 1, 1, 0};
	*root = NULL;
	long bad = utf8_invalid_at(data, len);
	if (bad >= 0) {
		while (p.i < (size_t)bad)
			adv(&p);
		return err_at(e, file, p.line, p.col, "invalid UTF-8 at byte offset %ld "
		              "(byte 0x%02x); JSON files must be UTF-8 text", bad,
		              (unsigned char)data[bad]);
	}
	if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
		p.i = 3;          /* a byte order mark, as Windows editors write it */
	ws(&p);
	if (p.i >= p.n) {
		*root = node(&p, YD_NULL, 1, 1);
		return 0;
	}
	ynode_t *v;
	if (value(&p, &v) < 0)
		return -1;
	ws(&p);
	if (p.i < p.n)
		return jerr(&p, "malformed JSON: text after the end of the document (%s)",
		            what(&p));
	*root = v;
	return 0;
}
