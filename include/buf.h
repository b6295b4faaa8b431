/* buf: growable byte strings (always NUL-terminated). */
#ifndef VITA_BUF_H
#define VITA_BUF_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct buf {
	char *s;        /* owned; NUL-terminated; NULL until first append */
	size_t len, cap;
} buf_t;

void buf_init(buf_t *b);
void buf_done(buf_t *b);
void buf_reset(buf_t *b);
/* Make room for n more bytes (and the NUL). */
void buf_grow(buf_t *b, size_t n);
/* A 64-bit hash of n bytes at p, seeded with h: 8 bytes a multiply, the
 * tail a byte each (the keys of inline.c's and font_shape.c's caches). */
static inline uint64_t buf_hash(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDull;
		h ^= h >> 32;
	}
	for (; n; p++, n--)
		h = (h ^ *p) * 0x100000001B3ull;
	return h ^ h >> 29;
}
/* Appending is inline: most calls add a few bytes to a buffer with room. */
static inline void buf_add(buf_t *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		buf_grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}
static inline void buf_putc(buf_t *b, int c)
{
	if (b->len + 2 > b->cap)
		buf_grow(b, 1);
	b->s[b->len++] = (char)c;
	b->s[b->len] = '\0';
}
void buf_puts(buf_t *b, const char *s);
void buf_printf(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Write all of p[0..n) to fd, retrying short writes and EINTR; -1 with
 * errno set on failure. */
int buf_write_fd(int fd, const void *p, size_t n);

#endif
