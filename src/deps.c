/* deps: the input files a render read; see deps.h. */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "deps.h"

static struct {
	int on;
	char **v;
	int n, cap;
} rec;
static unsigned gen = 1;   /* the recording's number: see deps_gen */

void deps_stop(void)
{
	for (int i = 0; i < rec.n; i++)
		free(rec.v[i]);
	free(rec.v);
	memset(&rec, 0, sizeof(rec));
	gen = gen + 1 ? gen + 1 : 1;
}

unsigned deps_gen(void)
{
	return gen;
}

void deps_start(void)
{
	deps_stop();
	rec.on = 1;
}

void deps_add(const char *path)
{
	if (!rec.on || !path || !*path)
		return;
	for (int i = 0; i < rec.n; i++)
		if (!strcmp(rec.v[i], path))
			return;
	if (rec.n == rec.cap) {
		rec.cap = rec.cap ? rec.cap * 2 : 16;
		rec.v = xrealloc(rec.v, (size_t)rec.cap * sizeof(*rec.v));
	}
	rec.v[rec.n++] = xstrdup(path);
}

int deps_count(void)
{
	return rec.n;
}

const char *deps_get(int i)
{
	return i >= 0 && i < rec.n ? rec.v[i] : NULL;
}

/* make's quoting: '\' before space, tab, '#' and ':', "$$" for '$'. */
static void put_name(buf_t *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '$')
			buf_putc(b, '$');
		else if (*s == ' ' || *s == '\t' || *s == '#' || *s == ':')
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
}

void deps_make_text(buf_t *b, const char *target)
{
	put_name(b, target);
	buf_putc(b, ':');
	for (int i = 0; i < rec.n; i++) {
		buf_puts(b, " \\\n ");
		put_name(b, rec.v[i]);
	}
	buf_putc(b, '\n');
	for (int i = 0; i < rec.n; i++) {
		buf_putc(b, '\n');
		put_name(b, rec.v[i]);
		buf_puts(b, ":\n");
	}
}
