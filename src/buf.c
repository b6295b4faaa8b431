/* buf: growable byte strings; see buf.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* GCC 12 with -fsanitize=undefined misreports vsnprintf(NULL, 0, fmt, ...)
 * as a "null format string". */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "arena.h"
#include "buf.h"

void buf_init(buf_t *b)
{
	memset(b, 0, sizeof(*b));
}

void buf_done(buf_t *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

void buf_reset(buf_t *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void buf_grow(buf_t *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void buf_puts(buf_t *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_printf(buf_t *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

int buf_write_fd(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t k = write(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}
