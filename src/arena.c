/* arena: bump allocation in chained blocks; see arena.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"

#define ARENA_BLOCK (64 * 1024)

struct block {
	struct block *next;
	size_t size, used, zeroed; /* data[0, zeroed) was cleared */
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct block *head;
	void **kept;            /* arena_keep's */
	int nkept, capkept;
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

/* Zero [from, to) in pieces below 2 KB by glibc's memset, whose vector
 * loop stores 128 bytes in about five instructions. Above 2 KB it turns
 * to rep stosb, and GCC expands a memset of bounded size inline as rep
 * stosq: callgrind counts those at one instruction per byte or per 8
 * bytes. Called through a volatile pointer so that GCC cannot expand it. */
#define CLEAR_PIECE 2016
static void *(*volatile clear)(void *, int, size_t) = memset;

static void fill(unsigned char *from, int c, unsigned char *to)
{
	while (from < to) {
		size_t k = (size_t)(to - from);
		if (k > CLEAR_PIECE)
			k = CLEAR_PIECE;
		clear(from, c, k);
		from += k;
	}
}

static void zero(unsigned char *from, unsigned char *to)
{
	fill(from, 0, to);
}

/* Above 2 KB glibc's calloc clears with rep stosb, which callgrind counts
 * at one instruction a byte (fill, above): such arrays are cleared in
 * pieces, as the arena's blocks are. From XCALLOC_MMAP bytes (glibc's
 * default mmap threshold) calloc's pages usually come from mmap, already
 * zero, and calloc does not clear them; where a batch worker raised the
 * threshold (main.c) calloc clears them itself, as it did before. */
#define XCALLOC_MMAP (128 * 1024)

void *xcalloc(size_t n, size_t m)
{
	n = n ? n : 1;
	m = m ? m : 1;
	if (n > (size_t)-1 / m)
		oom();
	size_t size = n * m;
	void *p;
	if (size <= CLEAR_PIECE || size >= XCALLOC_MMAP) {
		p = calloc(n, m);
		if (!p)
			oom();
		return p;
	}
	p = xmalloc(size);
	zero(p, (unsigned char *)p + size);
	return p;
}

void xfill(void *p, int c, size_t n)
{
	fill(p, c, (unsigned char *)p + n);
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
	for (int i = 0; i < a->nkept; i++)
		free(a->kept[i]);
	free(a->kept);
	free(a);
}

/* Bump allocation never hands out a byte twice, so a block is zeroed once,
 * ahead of its use up to b->zeroed, in 4 KB steps: one memset per step
 * instead of one per allocation (that was 2.6 M instructions of 38,000
 * small memsets on a 250-publication CV). take_more is the rare part: a
 * new block, or the next step to clear; take's own part is a few
 * instructions with nothing to save. */
static __attribute__((noinline)) void *take_more(arena_t *a, size_t n)
{
	struct block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = b->zeroed = 0;
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
	if (b->used > b->zeroed) {
		size_t z = (b->used + 4095) & ~(size_t)4095;
		if (z > b->size)
			z = b->size;
		zero(b->data + b->zeroed, b->data + z);
		b->zeroed = z;
	}
	return p;
}

static inline void *take(arena_t *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct block *b = a->head;
	if (!b || b->zeroed - b->used < n)   /* (zeroed <= size) */
		return take_more(a, n);
	void *p = b->data + b->used;
	b->used += n;
	return p;
}

void *arena_alloc(arena_t *a, size_t n)
{
	return take(a, n);
}

/* A big block of its own that holds exactly p's old bytes: the link that
 * points at it, for realloc; NULL. Big blocks sit right behind the head,
 * so the walk is short; it gives up after a few. */
static struct block **own_block(arena_t *a, void *p, size_t old)
{
	struct block **l = &a->head;
	for (int i = 0; *l && i < 8; i++, l = &(*l)->next)
		if ((*l)->data == (unsigned char *)p && (*l)->used == old && (*l)->size == old)
			return l;
	return NULL;
}

/* Like realloc: the array grows in place when it is the head block's last
 * allocation, its big block is realloc'd (mremap, no copy), else it is
 * copied. The new tail is zero either way. */
void *arena_grow(arena_t *a, void *p, size_t old, size_t n)
{
	if (!p || !old)
		return take(a, n);
	if (n <= old)
		return p;
	size_t o16 = (old + 15) & ~(size_t)15, n16 = (n + 15) & ~(size_t)15;
	struct block *b = a->head;
	if (b && (unsigned char *)p + o16 == b->data + b->used && n16 - o16 <= b->size - b->used) {
		memset((unsigned char *)p + old, 0, o16 - old);
		take(a, n16 - o16);
		return p;
	}
	struct block **l = n16 > ARENA_BLOCK / 4 ? own_block(a, p, o16) : NULL;
	if (l) {
		b = xrealloc(*l, sizeof(*b) + n16);
		b->size = b->used = b->zeroed = n16;
		*l = b;
		zero(b->data + old, b->data + n16);
		return b->data;
	}
	void *q = take(a, n);
	memcpy(q, p, old);
	return q;
}

void *arena_keep(arena_t *a, void *p)
{
	if (a->nkept == a->capkept) {
		a->capkept = a->capkept ? 2 * a->capkept : 8;
		a->kept = xrealloc(a->kept, sizeof(*a->kept) * (size_t)a->capkept);
	}
	a->kept[a->nkept++] = p;
	return p;
}

char *arena_strndup(arena_t *a, const char *s, size_t n)
{
	char *p = take(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(arena_t *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

/* One vsnprintf into a stack buffer, copied, when the text fits (most
 * do); else a second one into the arena. */
char *arena_printf(arena_t *a, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	char *p = arena_alloc(a, (size_t)n + 1);
	if (n >= 0 && (size_t)n < sizeof(tmp)) {
		memcpy(p, tmp, (size_t)n + 1);
		return p;
	}
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
