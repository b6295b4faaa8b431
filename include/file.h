/* file: the one way vita opens a file it reads.
 *
 * Every input (profile, layout, BibTeX, font chain, font cache, photo,
 * locale) is opened through file_open or file_read: only a regular file is
 * read, never a FIFO, socket, device or directory (a FIFO would block the
 * process forever), and never more than `max` bytes. The open itself does
 * not block (O_NONBLOCK, which a regular file's reads ignore).
 * On failure *why says what is wrong in words fit for a message ("not a
 * regular file (a FIFO)", "larger than 16 MB", strerror(errno)); it points
 * to static storage or strerror's buffer and stays valid until the next
 * call. errno is set as well.
 */
#ifndef VITA_FILE_H
#define VITA_FILE_H
#include <stddef.h>
#include <stdio.h>
#include "buf.h"

#define FILE_MAX_TEXT (16u << 20)     /* profiles, layouts, BibTeX, chains */
#define FILE_MAX_BINARY (512u << 20)  /* fonts, photos */

/* A read-only descriptor (O_CLOEXEC) of a regular file of at most max
 * bytes, or -1. *size (may be NULL) is its size. */
int file_open(const char *path, size_t max, size_t *size, const char **why);
/* The same as a stdio stream ("rb"), or NULL. */
FILE *file_fopen(const char *path, size_t max, const char **why);
/* Append the whole file to b (NUL-terminated); 0 or -1. */
int file_read(buf_t *b, const char *path, size_t max, const char **why);
/* Read len bytes at offset off into p, through short reads and EINTR;
 * the bytes read, fewer at the end of the file or on an error (the
 * caller's buffer keeps what it held there). */
size_t file_pread(int fd, void *p, size_t len, size_t off);

#endif
