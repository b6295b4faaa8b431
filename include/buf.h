/* buf: growable byte strings (always NUL-terminated). */
#ifndef VITA_BUF_H
#define VITA_BUF_H
#include <stddef.h>

typedef struct buf {
	char *s;        /* owned; NUL-terminated; NULL until first append */
	size_t len, cap;
} buf_t;

void buf_init(buf_t *b);
void buf_done(buf_t *b);
void buf_reset(buf_t *b);
void buf_add(buf_t *b, const char *s, size_t n);
void buf_puts(buf_t *b, const char *s);
void buf_putc(buf_t *b, int c);
void buf_printf(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Write all of p[0..n) to fd, retrying short writes and EINTR; -1 with
 * errno set on failure. */
int buf_write_fd(int fd, const void *p, size_t n);

#endif
