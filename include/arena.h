/* arena: bump allocation for the model and for layout, plus xmalloc.
 *
 * Everything allocated from an arena lives until arena_free. Allocation
 * failure is fatal (prints and exits 3): there is no NULL to check.
 */
#ifndef VITA_ARENA_H
#define VITA_ARENA_H
#include <stddef.h>

typedef struct arena arena_t;

arena_t *arena_new(void);
void arena_free(arena_t *a);
void *arena_alloc(arena_t *a, size_t n);          /* zeroed, 16-aligned */
void *arena_grow(arena_t *a, void *p, size_t old, size_t n); /* copy into a larger block */
char *arena_strdup(arena_t *a, const char *s);
char *arena_strndup(arena_t *a, const char *s, size_t n);
char *arena_printf(arena_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* p (from xmalloc/xrealloc, not NULL) freed with the arena from now on;
 * returns p (its bytes are not zeroed or moved) */
void *arena_keep(arena_t *a, void *p);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
/* memset(p, c, n) in pieces of less than 2 KB (arena.c says why) */
void xfill(void *p, int c, size_t n);
char *xstrdup(const char *s);

#endif
