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

/* ---- vita's caches (compiled hyphenation patterns, Thai words, the font
 * families, constant deflate streams) ---- */

/* The path of the cache file name: $XDG_CACHE_HOME/vita/name, else
 * $HOME/.cache/vita/name (only absolute bases), into out[0..n). -1 when
 * the environment variable off (e.g. "VITA_NO_HYPH_CACHE") is set to
 * anything but "" or "0", when there is no base, or when it does not fit. */
int file_cache_path(const char *off, const char *name, char *out, size_t n);
/* Write the np parts (part[i], len[i] bytes) to path atomically: into
 * path.PID.tmp (the directories above it made, 0755), renamed over path;
 * on any error the temporary file is removed and path is unchanged.
 * 0 or -1. */
int file_write_atomic(const char *path, const void *const *part, const size_t *len, int np);

#endif
