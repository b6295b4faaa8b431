/* ydoc_fast: the common YAML of CVs read without libyaml; see ydoc_int.h.
 *
 * libyaml costs about 180 instructions per byte (its reader, scanner,
 * parser and one malloc per token and event), half of what a fresh render
 * of a long CV spends before layout. Nearly every file vita reads uses a
 * small part of YAML: block mappings and sequences indented with spaces,
 * one-line plain and quoted scalars, one-line flow collections ([a, b],
 * {label: x, url: y}), literal and folded block scalars, comments. This
 * reads exactly that part, in one pass over the text, into the tree
 * ydoc_parse's libyaml reading gives (the same kinds, strings, styles and
 * 1-based line:column positions; the scalars point into one copy of the
 * text, terminated in place).
 *
 * Whatever is outside that part, or might be read differently, is not
 * guessed at: the whole text then goes to libyaml (ydoc_parse), and so
 * does every malformed file, so the error messages are libyaml's and
 * ydoc's as before. Outside: tabs, CR, control and non-printable
 * characters, a BOM, the Unicode line breaks; directives and document
 * markers; anchors, aliases and tags; '?' keys and quoted or flow keys;
 * scalars and flow collections over more than one line; "- - x";
 * block-scalar indentation digits; duplicate or null keys, more than 60
 * levels or YDOC_MAX_NODES nodes (libyaml's reading reports those).
 * tests/unit/test_ydoc.c and tests/fuzz/fuzz_ydoc.c compare both
 * readings. Recursion is bounded by the depth limit.
 */
#include <setjmp.h>
#include <stdlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string.h>
#include "utf8.h"
#include "ydoc_int.h"

enum { FAST_DEPTH = 60, KEY_MAX = 512 };

typedef struct fx {
	arena_t *a;
	const char *s, *end;   /* the text */
	char *buf;             /* its copy: scalars are cut out of it in place */
	const char *p;         /* the cursor, in s */
	const char *bol;       /* start of the cursor's line */
	const char *cbol, *cp; /* colof's last answer: cc is the column of cp */
	int cc;
	int line;              /* the cursor's line, 1-based */
	int col;               /* indentation of the current content line; -1 at the end */
	ynode_t **stk;         /* children of the open collections */
	int nstk, cap;
	long nodes;
	int depth;
	jmp_buf no;            /* not in the subset */
} fx_t;

static _Noreturn void no(fx_t *c)
{
	longjmp(c->no, 1);
}

/* Only LF, printable ASCII and printable non-ASCII (libyaml's rule, less
 * NEL, LS, PS and U+FEFF), in strict UTF-8. */
static int clean_text(const char *data, size_t len)
{
	const unsigned char *s = (const unsigned char *)data;
	size_t i = 0;
	while (i < len) {
#ifdef __SSE2__
		/* sixteen bytes at a time while all are printable ASCII or LF (as
		   signed bytes, non-ASCII ones are below 0x20 too) */
		const __m128i sp = _mm_set1_epi8(0x20), lf16 = _mm_set1_epi8('\n'),
		              del = _mm_set1_epi8(0x7f);
		while (len - i >= 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
			__m128i bad = _mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi8(v, lf16),
			                                            _mm_cmplt_epi8(v, sp)),
			                           _mm_cmpeq_epi8(v, del));
			if (_mm_movemask_epi8(bad))
				break;
			i += 16;
		}
#endif
		/* eight bytes at a time while all are printable ASCII or LF */
		const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u,
		               lows = 0x7f7f7f7f7f7f7f7fu;
		while (len - i >= 8) {
			uint64_t w, lf;
			memcpy(&w, s + i, 8);
			lf = w ^ (ones * '\n');
			lf = ~(((lf & lows) + lows) | lf) & highs;   /* 0x80 where LF, exactly */
			uint64_t x = w | (lf >> 2);                  /* LF taken as '*' */
			if (((x - ones * 0x20) | (x + ones) | w) & highs)
				break;   /* < 0x20, >= 0x7f, or a false alarm: byte by byte */
			i += 8;
		}
		if (i >= len)
			break;
		unsigned ch = s[i];
		if (ch < 0x80) {
			if ((ch < 0x20 && ch != '\n') || ch == 0x7f)
				return 0;
			i++;
			continue;
		}
		uint32_t cp;
		int k = utf8_decode(data + i, len - i, &cp);
		if (!k || cp < 0xa0 || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff ||
		    cp == 0xfffe || cp == 0xffff)
			return 0;
		i += (size_t)k;
	}
	return 1;
}

/* 1-based column, in characters, of p on the cursor's line. */
static int colof(fx_t *c, const char *p)
{
	if (c->cbol != c->bol || p < c->cp) {   /* (a long line is counted once) */
		c->cbol = c->cp = c->bol;
		c->cc = 1;
	}
	const unsigned char *q = (const unsigned char *)c->cp, *e = (const unsigned char *)p;
	int n = (int)(e - q);   /* characters: bytes less the continuation bytes */
	for (; e - q >= 8; q += 8) {
		uint64_t w;
		memcpy(&w, q, 8);
		w &= ~(w << 1) & 0x8080808080808080u;   /* 10xxxxxx */
		n -= (int)(((w >> 7) * 0x0101010101010101u) >> 56);
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (q < e && e - (const unsigned char *)c->s >= 8) {
		/* the last 1-7 bytes: the word that ends at e, less its bytes
		   before q (the low ones) */
		uint64_t w;
		memcpy(&w, e - 8, 8);
		w >>= 8 * (8 - (e - q));
		w &= ~(w << 1) & 0x8080808080808080u;
		n -= (int)(((w >> 7) * 0x0101010101010101u) >> 56);
		q = e;
	}
#endif
	for (; q < e; q++)
		n -= (*q & 0xc0) == 0x80;
	c->cc += n;
	c->cp = p;
	return c->cc;
}

static int at(const fx_t *c, const char *p, char ch)
{
	return p < c->end && *p == ch;
}

/* End of text, space or line break: what must follow '-' or ':' as an
 * indicator. */
static int blankz(const fx_t *c, const char *p)
{
	return p >= c->end || *p == ' ' || *p == '\n';
}

static int is_dash(const fx_t *c, const char *p)
{
	return at(c, p, '-') && blankz(c, p + 1);
}

/* The characters a plain scalar's scan stops at: STOP_BLOCK on a block
 * line (space, ':', line break), STOP_FLOW in a flow collection (those and
 * ",[]{}"). Runs of other characters are skipped a table look-up each. */
enum { STOP_BLOCK = 1, STOP_FLOW = 2 };
static const unsigned char stops[256] = {
	['\n'] = STOP_BLOCK | STOP_FLOW, [' '] = STOP_BLOCK | STOP_FLOW,
	[':'] = STOP_BLOCK | STOP_FLOW, [','] = STOP_FLOW, ['['] = STOP_FLOW,
	[']'] = STOP_FLOW, ['{'] = STOP_FLOW, ['}'] = STOP_FLOW,
};

static const char *skip_plain(const char *q, const char *end, int stop)
{
	while (q < end && !(stops[(unsigned char)*q] & stop))
		q++;
	return q;
}

/* The first of dq, '\\' and LF from r (or end): eight bytes at a time
 * where none of them is among the eight. */
static const char *quoted_run(const char *r, const char *end, char dq)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
	const uint64_t a = ones * (unsigned char)dq, b = ones * '\\', n = ones * '\n';
	while (end - r >= 8) {
		uint64_t w, x, y, z;
		memcpy(&w, r, 8);
		x = w ^ a;
		y = w ^ b;
		z = w ^ n;
		if ((((x - ones) & ~x) | ((y - ones) & ~y) | ((z - ones) & ~z)) & highs)
			break;   /* one of them (or a false alarm past one): byte by byte */
		r += 8;
	}
	while (r < end && *r != dq && *r != '\\' && *r != '\n')
		r++;
	return r;
}

static ynode_t *mk(fx_t *c, int kind, int line, int col)
{
	if (++c->nodes > YDOC_MAX_NODES)
		no(c);
	ynode_t *n = arena_alloc(c->a, sizeof(*n));
	n->kind = kind;
	n->line = line;
	n->col = col;
	n->clean = 1;   /* clean_text passed, and escapes make valid UTF-8, never NUL */
	return n;
}

static int is_null(const char *v, size_t n)
{
	return n == 0 || (n == 1 && v[0] == '~') ||
	       (n == 4 && (!memcmp(v, "null", 4) || !memcmp(v, "Null", 4) ||
	                   !memcmp(v, "NULL", 4)));
}

/* The scalar whose text is buf[off..off+len), starting (its mark) at p. */
static ynode_t *scalar(fx_t *c, const char *p, size_t off, size_t len, int plain)
{
	ynode_t *n = mk(c, YD_SCALAR, c->line, colof(c, p));
	char *d = c->buf + off;
	d[len] = '\0';
	n->str = d;
	n->len = len;
	n->plain = plain;
	if (plain && is_null(d, len))
		n->kind = YD_NULL;
	return n;
}

/* libyaml's empty scalar (a key or '-' with no value) at line:col. */
static ynode_t *empty(fx_t *c, int line, int col)
{
	ynode_t *n = mk(c, YD_NULL, line, col);
	n->str = arena_strndup(c->a, "", 0);
	n->plain = 1;
	return n;
}

static void push(fx_t *c, ynode_t *n)
{
	if (c->nstk == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->stk = xrealloc(c->stk, (size_t)c->cap * sizeof(*c->stk));
	}
	c->stk[c->nstk++] = n;
}

static ynode_t *open_coll(fx_t *c, int kind, const char *p, int *base)
{
	if (++c->depth > FAST_DEPTH)
		no(c);
	*base = c->nstk;
	return mk(c, kind, c->line, colof(c, p));
}

static int key_cmp(const void *pa, const void *pb)
{
	return strcmp((*(ynode_t *const *)pa)->str, (*(ynode_t *const *)pb)->str);
}

/* Duplicate keys are libyaml's reading's to report. */
static void check_keys(fx_t *c, ynode_t *m)
{
	if (m->n <= 16) {
		for (int i = 1; i < m->n; i++)
			for (int j = 0; j < i; j++)
				if (m->kids[2 * i]->str[0] == m->kids[2 * j]->str[0] &&
				    !strcmp(m->kids[2 * i]->str, m->kids[2 * j]->str))
					no(c);
		return;
	}
	ynode_t **k = xmalloc((size_t)m->n * sizeof(*k));
	for (int i = 0; i < m->n; i++)
		k[i] = m->kids[2 * i];
	qsort(k, (size_t)m->n, sizeof(*k), key_cmp);
	int dup = 0;
	for (int i = 1; i < m->n && !dup; i++)
		dup = !strcmp(k[i]->str, k[i - 1]->str);
	free(k);
	if (dup)
		no(c);
}

static ynode_t *close_coll(fx_t *c, ynode_t *n, int base)
{
	int nk = c->nstk - base;
	n->kids = arena_alloc(c->a, (size_t)nk * sizeof(*n->kids));
	if (nk)
		memcpy(n->kids, c->stk + base, (size_t)nk * sizeof(*n->kids));
	n->n = n->kind == YD_MAP ? nk / 2 : nk;
	c->nstk = base;
	c->depth--;
	if (n->kind == YD_MAP)
		check_keys(c, n);
	return n;
}

static void newline(fx_t *c, const char *p)
{
	c->p = p + 1;
	c->bol = c->p;
	c->line++;
}

/* From the start of a line: past blank and comment lines to the first
 * character of the next content line, its indentation in c->col (-1 at
 * the end of the text). */
static void next_line(fx_t *c)
{
	for (;;) {
		const char *q = c->p;
		while (q < c->end && *q == ' ')
			q++;
		if (q >= c->end) {
			c->p = c->end;
			c->col = -1;
			return;
		}
		if (*q == '#')
			while (q < c->end && *q != '\n')
				q++;
		if (q >= c->end) {
			c->p = c->end;
			c->col = -1;
			return;
		}
		if (*q == '\n') {
			newline(c, q);
			continue;
		}
		c->col = (int)(q - c->p);
		c->p = q;
		if (c->col == 0 && (*q == '%' || (c->end - q >= 3 && (!memcmp(q, "---", 3) ||
		                                                    !memcmp(q, "...", 3)))))
			no(c);   /* a directive or a document marker */
		return;
	}
}

/* After a node, mid-line: spaces, a comment, then the line's end. */
static void eol(fx_t *c)
{
	const char *q = c->p;
	while (q < c->end && *q == ' ')
		q++;
	if (q < c->end && *q == '#')
		while (q < c->end && *q != '\n')
			q++;
	if (q < c->end && *q != '\n')
		no(c);
	if (q < c->end)
		newline(c, q);
	else
		c->p = q;
	next_line(c);
}

static void skip_spaces(fx_t *c)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
}

/* Nothing more on this line but a comment. */
static int line_done(const fx_t *c)
{
	return c->p >= c->end || *c->p == '\n' || *c->p == '#';
}

/* May a plain scalar start at p? libyaml's rule, less '?' and ':' (and,
 * in flow, '-') followed by a character. */
static int plain_start(const fx_t *c, const char *p, int flow)
{
	if (p >= c->end)
		return 0;
	if (*p == '-')
		return !flow && !blankz(c, p + 1);
	return !strchr(" \n?:,[]{}#&*!|>'\"%@`", *p);
}

/* A plain scalar in block context from c->p, on this line: its end
 * (trailing spaces trimmed) in *last; returns where it stopped: at ':'
 * (a key), the line's end, or the space before a comment. */
static const char *plain_block(fx_t *c, const char **last)
{
	const char *q = c->p, *l = q;
	while (q < c->end && *q != '\n') {
		const char *r = skip_plain(q, c->end, STOP_BLOCK);
		if (r > q) {
			l = q = r;
			continue;
		}
		if (*q == ' ') {
			if (at(c, q + 1, '#'))
				break;
			q++;
			continue;
		}
		if (*q == ':' && blankz(c, q + 1))
			break;
		l = ++q;
	}
	*last = l;
	return q;
}

/* Is the content at c->p a block mapping's key (a plain scalar and ':')? */
static int is_key(fx_t *c)
{
	if (!plain_start(c, c->p, 0))
		return 0;
	const char *l;
	return at(c, plain_block(c, &l), ':');
}

/* A block mapping key at c->p, pushed; c->p after its ':'. */
static void key(fx_t *c)
{
	const char *k0 = c->p, *l;
	if (!plain_start(c, k0, 0))
		no(c);
	const char *stop = plain_block(c, &l);
	if (!at(c, stop, ':') || l - k0 > KEY_MAX)
		no(c);
	ynode_t *k = scalar(c, k0, (size_t)(k0 - c->s), (size_t)(l - k0), 1);
	if (k->kind == YD_NULL)
		no(c);
	push(c, k);
	c->p = stop + 1;
}

/* 'single' or "double" on one line at c->p; c->p after it. */
static ynode_t *quoted(fx_t *c)
{
	const char *p0 = c->p, *q = p0 + 1;
	char dq = *p0;
	size_t off = (size_t)(q - c->s);
	char *w = c->buf + off;
	for (;;) {
		const char *r = quoted_run(q, c->end, dq);   /* nothing to undo: copied at once */
		memcpy(w, q, (size_t)(r - q));
		w += r - q;
		q = r;
		if (q >= c->end || *q == '\n')
			no(c);
		char ch = *q;
		if (dq == '\'' && ch == '\'') {
			if (!at(c, q + 1, '\''))
				break;
			*w++ = '\'';
			q += 2;
			continue;
		}
		if (dq == '"' && ch == '"')
			break;
		if (dq == '"' && ch == '\\') {
			if (q + 1 >= c->end)
				no(c);
			int hex = 0;
			char e = q[1];
			switch (e) {
			case 'a': *w++ = '\a'; break;
			case 'b': *w++ = '\b'; break;
			case 't': *w++ = '\t'; break;
			case 'n': *w++ = '\n'; break;
			case 'v': *w++ = '\v'; break;
			case 'f': *w++ = '\f'; break;
			case 'r': *w++ = '\r'; break;
			case 'e': *w++ = '\x1b'; break;
			case ' ': case '"': case '/': case '\\': *w++ = e; break;
			case 'N': *w++ = '\xc2'; *w++ = '\x85'; break;
			case '_': *w++ = '\xc2'; *w++ = '\xa0'; break;
			case 'x': hex = 2; break;
			case 'u': hex = 4; break;
			case 'U': hex = 8; break;
			default: no(c);   /* \0, \L, \P, a line break, unknown */
			}
			q += 2;
			if (hex) {
				uint32_t v = 0;
				for (int i = 0; i < hex; i++, q++) {
					if (q >= c->end)
						no(c);
					char h = *q;
					int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
					      : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
					if (d < 0)
						no(c);
					v = (v << 4) | (uint32_t)d;
				}
				if (v == 0 || (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
					no(c);
				w += utf8_encode(v, w);
			}
			continue;
		}
		*w++ = ch;
		q++;
	}
	c->p = q + 1;
	return scalar(c, p0, off, (size_t)(w - (c->buf + off)), 0);
}

static ynode_t *flow(fx_t *c);

/* A flow collection's item or value at c->p. */
static ynode_t *flow_item(fx_t *c, int as_key)
{
	const char *p0 = c->p;
	if (p0 >= c->end)
		no(c);
	if (*p0 == '[' || *p0 == '{') {
		if (as_key)
			no(c);
		return flow(c);
	}
	if (*p0 == '\'' || *p0 == '"') {
		if (as_key)
			no(c);
		return quoted(c);
	}
	if (!plain_start(c, p0, 1))
		no(c);
	const char *q = p0, *l = p0;
	for (;;) {
		const char *r = skip_plain(q, c->end, STOP_FLOW);
		if (r > q)
			l = q = r;
		if (q >= c->end || *q == '\n')
			no(c);
		char ch = *q;
		if (ch == ' ') {
			if (at(c, q + 1, '#'))
				no(c);
			q++;
			continue;
		}
		if (ch == ',' || ch == '[' || ch == ']' || ch == '{' || ch == '}')
			break;
		if (ch == ':') {
			if (blankz(c, q + 1))
				break;
			if (strchr(",?[]{}", q[1]))
				no(c);
		}
		l = ++q;
	}
	if (at(c, q, ':') != as_key || (as_key && l - p0 > KEY_MAX))
		no(c);   /* a key where an item must be, or the other way round */
	ynode_t *n = scalar(c, p0, (size_t)(p0 - c->s), (size_t)(l - p0), 1);
	if (as_key && n->kind == YD_NULL)
		no(c);
	c->p = q;
	return n;
}

/* [a, b] or {k: v, ...} on one line at c->p; c->p after it. */
static ynode_t *flow(fx_t *c)
{
	int map = *c->p == '{', base;
	char close = map ? '}' : ']';
	ynode_t *n = open_coll(c, map ? YD_MAP : YD_SEQ, c->p, &base);
	c->p++;
	skip_spaces(c);
	if (at(c, c->p, close)) {
		c->p++;
		return close_coll(c, n, base);
	}
	for (;;) {
		if (map) {
			push(c, flow_item(c, 1));
			c->p++;   /* the ':' */
			if (!at(c, c->p, ' '))
				no(c);
			skip_spaces(c);
			if (c->p >= c->end || strchr(",}]\n#", *c->p))
				no(c);   /* no value */
		}
		push(c, flow_item(c, 0));
		skip_spaces(c);
		if (at(c, c->p, ',')) {
			c->p++;
			skip_spaces(c);
			if (c->p >= c->end || *c->p == ',' || *c->p == close)
				no(c);   /* an empty entry or a trailing comma */
			continue;
		}
		if (!at(c, c->p, close))
			no(c);
		c->p++;
		return close_coll(c, n, base);
	}
}

/* | or > at c->p, the enclosing block collection at column indent
 * (0-based; -1 for none): libyaml's scan_block_scalar for automatic
 * indentation, written into buf over the scalar's own lines (the output
 * is never longer than them). Leaves the cursor at the next content
 * line. */
static ynode_t *block_scalar(fx_t *c, int indent)
{
	const char *p0 = c->p, *q = p0 + 1;
	int literal = *p0 == '|', chomp = 0;
	int line0 = c->line, col0 = colof(c, p0);
	if (at(c, q, '+') || at(c, q, '-'))
		chomp = *q++ == '+' ? 1 : -1;
	while (q < c->end && *q == ' ')
		q++;
	if (q < c->end && *q == '#')
		while (q < c->end && *q != '\n')
			q++;
	if (q >= c->end || *q != '\n')
		no(c);   /* an indentation digit, text after the indicator, the end */
	q++;
	c->line++;
	size_t off = (size_t)(q - c->s);
	char *w = c->buf + off;
	/* the leading empty lines, then the first line with text */
	int breaks = 0, maxn = 0, n;
	for (;;) {
		n = 0;
		while (q + n < c->end && q[n] == ' ')
			n++;
		if (n > maxn)
			maxn = n;
		if (q + n < c->end && q[n] == '\n') {
			breaks++;
			q += n + 1;
			c->line++;
			continue;
		}
		break;
	}
	int ind = maxn;
	if (ind < indent + 1)
		ind = indent + 1;
	if (ind < 1)
		ind = 1;
	if (q + n >= c->end || n != ind)
		no(c);   /* an empty block scalar */
	int lbreak = 0, lblank = 0;
	const char *bol = q;
	q += n;
	while (q < c->end) {
		/* at column ind of a line with text */
		int tblank = *q == ' ';
		if (!literal && lbreak && !lblank && !tblank) {
			if (!breaks)
				*w++ = ' ';
		} else if (lbreak) {
			*w++ = '\n';
		}
		lbreak = 0;
		memset(w, '\n', (size_t)breaks);
		w += breaks;
		breaks = 0;
		lblank = tblank;
		const char *e = memchr(q, '\n', (size_t)(c->end - q));
		if (!e)
			e = c->end;
		memcpy(w, q, (size_t)(e - q));
		w += e - q;
		q = e;
		if (q < c->end) {
			lbreak = 1;
			q++;
			c->line++;
		}
		/* the indentation and the empty lines that follow */
		for (;;) {
			bol = q;
			n = 0;
			while (n < ind && q + n < c->end && q[n] == ' ')
				n++;
			if (q + n < c->end && q[n] == '\n') {
				breaks++;
				q += n + 1;
				c->line++;
				continue;
			}
			break;
		}
		if (n < ind || q + n >= c->end)
			break;
		q += n;
	}
	if (chomp != -1 && lbreak)
		*w++ = '\n';
	if (chomp == 1) {
		memset(w, '\n', (size_t)breaks);
		w += breaks;
	}
	size_t len = (size_t)(w - (c->buf + off));
	ynode_t *s = mk(c, YD_SCALAR, line0, col0);
	c->buf[off + len] = '\0';
	s->str = c->buf + off;
	s->len = len;
	c->p = bol;
	c->bol = bol;
	next_line(c);
	return s;
}

/* A plain scalar value at c->p, and its continuation lines (those
 * indented deeper than the enclosing collection at column indent, up to a
 * comment line): libyaml's scan_plain_scalar, folded into buf over its
 * own text. c->p ends where it stopped (a line's end or a comment). */
static ynode_t *plain_value(fx_t *c, int indent)
{
	const char *p0 = c->p, *l;
	int line0 = c->line, col0 = colof(c, p0);
	if (!plain_start(c, p0, 0))
		no(c);
	const char *q = plain_block(c, &l);
	if (at(c, q, ':'))
		no(c);   /* a mapping where a value must be */
	size_t off = (size_t)(p0 - c->s);
	char *w = c->buf + off + (l - p0);
	while (at(c, q, '\n')) {
		const char *r = q, *lbol;
		int nb = 0;
		do {   /* r at a line break: past it and the blank lines after */
			nb++;
			lbol = ++r;
			while (r < c->end && *r == ' ')
				r++;
		} while (at(c, r, '\n'));
		int col = (int)(r - lbol);
		if (r >= c->end || col <= indent || *r == '#')
			break;
		if (col == 0 && c->end - r >= 3 && (!memcmp(r, "---", 3) || !memcmp(r, "...", 3)))
			no(c);
		c->line += nb;
		c->bol = lbol;
		if (nb == 1) {
			*w++ = ' ';
		} else {
			memset(w, '\n', (size_t)(nb - 1));
			w += nb - 1;
		}
		c->p = r;
		q = plain_block(c, &l);
		if (at(c, q, ':'))
			no(c);   /* a key after a scalar over lines */
		memmove(w, c->buf + (r - c->s), (size_t)(l - r));
		w += l - r;
	}
	size_t len = (size_t)(w - (c->buf + off));
	ynode_t *n = mk(c, YD_SCALAR, line0, col0);
	c->buf[off + len] = '\0';
	n->str = c->buf + off;
	n->len = len;
	n->plain = 1;
	if (is_null(n->str, len))
		n->kind = YD_NULL;
	c->p = q;
	return n;
}

/* A value that starts on this line at c->p (not a mapping), inside a
 * block collection at column indent; the cursor ends at the next content
 * line. */
static ynode_t *inline_value(fx_t *c, int indent)
{
	ynode_t *v;
	char ch = *c->p;
	if (ch == '|' || ch == '>')
		return block_scalar(c, indent);
	if (ch == '[' || ch == '{') {
		v = flow(c);
	} else if (ch == '\'' || ch == '"') {
		v = quoted(c);
	} else {
		v = plain_value(c, indent);
	}
	eol(c);
	return v;
}

static ynode_t *block_map(fx_t *c, int col);
static ynode_t *block_seq(fx_t *c, int col, int indentless);

/* The node below a key or '-' with nothing after it on its line, the
 * collection at column indent; an empty scalar at line:col if none. */
static ynode_t *below(fx_t *c, int indent, int indentless_ok, int line, int col)
{
	if (c->col > indent) {
		if (is_dash(c, c->p))
			return block_seq(c, c->col, 0);
		if (is_key(c))
			return block_map(c, c->col);
		return inline_value(c, indent);
	}
	if (indentless_ok && c->col == indent && is_dash(c, c->p))
		return block_seq(c, indent, 1);
	return empty(c, line, col);
}

/* A block mapping whose keys are at column col; c->p at the first. */
static ynode_t *block_map(fx_t *c, int col)
{
	int base;
	ynode_t *m = open_coll(c, YD_MAP, c->p, &base);
	for (;;) {
		key(c);
		int line = c->line, vcol = colof(c, c->p);
		skip_spaces(c);
		if (line_done(c)) {
			eol(c);
			push(c, below(c, col, 1, line, vcol));
		} else {
			push(c, inline_value(c, col));
		}
		if (c->col != col) {
			if (c->col > col)
				no(c);
			break;
		}
		if (is_dash(c, c->p))
			no(c);
	}
	return close_coll(c, m, base);
}

/* A block sequence whose '-' are at column col; c->p at the first.
 * indentless: at its mapping's column (key:\n- a), which ends it at the
 * next key. */
static ynode_t *block_seq(fx_t *c, int col, int indentless)
{
	int base;
	ynode_t *s = open_coll(c, YD_SEQ, c->p, &base);
	for (;;) {
		c->p++;
		int line = c->line, vcol = colof(c, c->p);
		skip_spaces(c);
		if (line_done(c)) {
			eol(c);
			push(c, below(c, col, 0, line, vcol));
		} else if (is_dash(c, c->p)) {
			no(c);   /* - - x */
		} else if (is_key(c)) {
			c->col = (int)(c->p - c->bol);   /* "- " and spaces: ASCII */
			push(c, block_map(c, c->col));
		} else {
			push(c, inline_value(c, col));
		}
		if (c->col != col) {
			if (c->col > col)
				no(c);
			break;
		}
		if (!is_dash(c, c->p)) {
			if (indentless)
				break;
			no(c);
		}
	}
	return close_coll(c, s, base);
}

static ynode_t *document(fx_t *c)
{
	next_line(c);
	if (c->col < 0) {
		ynode_t *n = mk(c, YD_NULL, 1, 1);   /* ydoc_parse's empty document */
		return n;
	}
	ynode_t *r;
	if (is_dash(c, c->p))
		r = block_seq(c, c->col, 0);
	else if (is_key(c))
		r = block_map(c, c->col);
	else
		r = inline_value(c, -1);
	if (c->col != -1)
		no(c);
	return r;
}

int ydoc_fast(arena_t *a, const char *data, size_t len, ynode_t **root)
{
	if (!clean_text(data, len))
		return 1;
	fx_t *c = xcalloc(1, sizeof(*c));
	c->a = a;
	c->s = data;
	c->end = data + len;
	c->buf = arena_alloc(a, len + 1);
	memcpy(c->buf, data, len);
	c->p = c->bol = data;
	c->line = 1;
	int rc = 1;
	if (!setjmp(c->no)) {
		*root = document(c);
		rc = 0;
	}
	free(c->stk);
	free(c);
	return rc;
}
