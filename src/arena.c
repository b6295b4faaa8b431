/* arena: bump allocation in chained blocks; see arena.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* GCC 12 with -fsanitize=undefined misreports vsnprintf(NULL, 0, fmt, ...)
 * as a "null format string". */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "arena.h"

#define ARENA_BLOCK (64 * 1024)

struct block {
	struct block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct block *head;
	size_t total;
};

static void oom(void)
{
	fputs("vita: error: out of memory\n", stderr);
	exit(3);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

arena_t *arena_new(void)
{
	return xcalloc(1, sizeof(arena_t));
}

void arena_free(arena_t *a)
{
	if (!a)
		return;
	struct block *b = a->head;
	while (b) {
		struct block *next = b->next;
		free(b);
		b = next;
	}
	free(a);
}

void *arena_alloc(arena_t *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		if (size == n && a->head) {
			/* a big block goes behind the current one, which keeps its room */
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	void *p = b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

void *arena_grow(arena_t *a, void *p, size_t old, size_t n)
{
	void *q = arena_alloc(a, n);
	if (p && old)
		memcpy(q, p, old < n ? old : n);
	return q;
}

char *arena_strndup(arena_t *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(arena_t *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena_t *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
