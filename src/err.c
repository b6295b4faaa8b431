/* err: located diagnostics; see err.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "err.h"

void errs_init(errs_t *e)
{
	memset(e, 0, sizeof(*e));
}

void errs_done(errs_t *e)
{
	free(e->v);
	memset(e, 0, sizeof(*e));
}

void errs_clear(errs_t *e)
{
	e->n = 0;
	e->nerrors = 0;
	e->last = 0;
}

static int errs_vadd(errs_t *e, const char *file, int line, int col, int sev,
                     int code, const char *fmt, va_list ap)
{
	int max = e->max ? e->max : 100;
	if (sev == ERR_ERROR)
		e->nerrors++;
	e->last = 0;
	if (e->n >= max)
		return sev == ERR_ERROR ? -1 : 0;
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 8;
		e->v = xrealloc(e->v, e->cap * sizeof(e->v[0]));
	}
	err_t *x = &e->v[e->n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->file, sizeof(x->file), "%s", file ? file : "");
	x->line = line;
	x->col = col;
	x->sev = sev;
	x->code = code;
	vsnprintf(x->msg, sizeof(x->msg), fmt, ap);
	e->last = e->n;
	return sev == ERR_ERROR ? -1 : 0;
}

int err_at(errs_t *e, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = errs_vadd(e, file, line, col, ERR_ERROR, ERR_INPUT, fmt, ap);
	va_end(ap);
	return r;
}

int err_at_code(errs_t *e, int code, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = errs_vadd(e, file, line, col, ERR_ERROR, code, fmt, ap);
	va_end(ap);
	return r;
}

int err_sys(errs_t *e, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = errs_vadd(e, file, 0, 0, ERR_ERROR, ERR_SYSTEM, fmt, ap);
	va_end(ap);
	return r;
}

int warn_at(errs_t *e, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = errs_vadd(e, file, line, col, ERR_WARNING, 0, fmt, ap);
	va_end(ap);
	return r;
}

void err_context(errs_t *e, const char *fmt, ...)
{
	if (!e->last)
		return;
	err_t *x = &e->v[e->last - 1];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->context, sizeof(x->context), fmt, ap);
	va_end(ap);
}

int errs_code(const errs_t *e)
{
	int code = 0;
	for (int i = 0; i < e->n; i++)
		if (e->v[i].sev == ERR_ERROR && e->v[i].code > code)
			code = e->v[i].code;
	if (!code && e->nerrors)
		code = ERR_INPUT;
	return code;
}

/* Messages quote user text: print control characters (C0, DEL, C1) as
 * \xHH / \u00HH so a profile cannot move the terminal's cursor. */
static void put_clean(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02X", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(f, "\\u%04X", *++p);
		else
			putc(*p, f);
	}
}

void err_print(FILE *f, const err_t *x)
{
	if (x->file[0]) {
		fputs(x->file, f);
		if (x->line > 0) {
			fprintf(f, ":%d", x->line);
			if (x->col > 0)
				fprintf(f, ":%d", x->col);
		}
		fputs(": ", f);
	} else {
		fputs("vita: ", f);
	}
	fputs(x->sev == ERR_WARNING ? "warning: " : "error: ", f);
	put_clean(f, x->msg);
	if (x->context[0]) {
		fputs(" (", f);
		put_clean(f, x->context);
		fputc(')', f);
	}
	fputc('\n', f);
}

/* The same text drawn twice (the name in the header and in the footer)
 * gives the same warning twice: print each distinct message once. */
static int err_same(const err_t *a, const err_t *b)
{
	return a->sev == b->sev && a->line == b->line && a->col == b->col &&
	       !strcmp(a->file, b->file) && !strcmp(a->msg, b->msg);
}

void errs_print(FILE *f, const errs_t *e)
{
	for (int i = 0; i < e->n; i++) {
		int seen = 0;
		for (int k = 0; k < i && !seen; k++)
			seen = err_same(&e->v[k], &e->v[i]);
		if (!seen)
			err_print(f, &e->v[i]);
	}
}

void errs_append(errs_t *e, const errs_t *from)
{
	int max = e->max ? e->max : 100;
	e->nerrors += from->nerrors;
	e->last = 0;   /* no err_context for a copied entry */
	for (int i = 0; i < from->n && e->n < max; i++) {
		if (e->n == e->cap) {
			e->cap = e->cap ? e->cap * 2 : 8;
			e->v = xrealloc(e->v, e->cap * sizeof(e->v[0]));
		}
		e->v[e->n++] = from->v[i];
	}
}
