/* file: open and read regular files only, with a size limit (see file.h).
 *
 * The check is made on the open descriptor (fstat), not on the name, so a
 * file swapped for a FIFO between a stat and the open cannot slip past,
 * and O_NONBLOCK keeps the open of a FIFO without writer from blocking.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "file.h"
#include "buf.h"

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "not a regular file (a directory)";
	if (S_ISFIFO(m))
		return "not a regular file (a FIFO)";
	if (S_ISSOCK(m))
		return "not a regular file (a socket)";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "not a regular file (a device)";
	return "not a regular file";
}

static const char *too_large(size_t max)
{
	static char msg[64];
	if (max >= (1u << 20))
		snprintf(msg, sizeof(msg), "larger than %zu MB", max >> 20);
	else
		snprintf(msg, sizeof(msg), "larger than %zu bytes", max);
	return msg;
}

int file_open(const char *path, size_t max, size_t *size, const char **why)
{
	static const char *dummy;
	struct stat st;
	if (!why)
		why = &dummy;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		*why = strerror(err);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (max && (unsigned long long)st.st_size > max)) {
		close(fd);
		*why = S_ISREG(st.st_mode) ? too_large(max) : kind_of(st.st_mode);
		errno = S_ISDIR(st.st_mode) ? EISDIR : S_ISREG(st.st_mode) ? EFBIG : EINVAL;
		return -1;
	}
	/* O_NONBLOCK stays: it has no effect on a regular file (open(2)) */
	if (size)
		*size = (size_t)st.st_size;
	return fd;
}

FILE *file_fopen(const char *path, size_t max, const char **why)
{
	int fd = file_open(path, max, NULL, why);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int err = errno;
		close(fd);
		errno = err;
		if (why)
			*why = strerror(err);
	}
	return f;
}

size_t file_pread(int fd, void *p, size_t len, size_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t k = pread(fd, (char *)p + got, len - got, (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return got;
}

int file_read(buf_t *b, const char *path, size_t max, const char **why)
{
	static const char *dummy;
	size_t size;
	if (!why)
		why = &dummy;
	int fd = file_open(path, max, &size, why);
	if (fd < 0)
		return -1;
	/* straight into b, a byte more than fstat said at first: a short read
	   once that much is in is the end of a regular file, so a file is
	   read in one call (one that grew meanwhile is read on to its end) */
	size_t got = 0, want = size + 1;
	for (;;) {
		buf_grow(b, want);
		ssize_t n = read(fd, b->s + b->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			close(fd);
			errno = err;
			*why = strerror(err);
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (max && got > max) {   /* the file grew while we read it */
			close(fd);
			errno = EFBIG;
			*why = too_large(max);
			return -1;
		}
		b->len += (size_t)n;
		b->s[b->len] = '\0';
		if ((size_t)n < want && got >= size)
			break;
		want = 65536;
	}
	close(fd);
	buf_add(b, "", 0);   /* b->s is set even for an empty file */
	return 0;
}

int file_cache_path(const char *off, const char *name, char *out, size_t n)
{
	const char *no = off ? getenv(off) : NULL;
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int r;
	if (no && *no && strcmp(no, "0") != 0)
		return -1;
	if (xdg && xdg[0] == '/')
		r = snprintf(out, n, "%s/vita/%s", xdg, name);
	else if (home && home[0] == '/')
		r = snprintf(out, n, "%s/.cache/vita/%s", home, name);
	else
		return -1;
	return r > 0 && (size_t)r < n ? 0 : -1;
}

int file_write_atomic(const char *path, const void *const *part, const size_t *len, int np)
{
	char tmp[1024];
	int r = snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	if (r <= 0 || (size_t)r >= sizeof(tmp))
		return -1;
	for (char *c = tmp + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(tmp, 0755);
			*c = '/';
		}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int bad = 0;
	for (int i = 0; i < np && !bad; i++)
		bad = len[i] && buf_write_fd(fd, part[i], len[i]) != 0;
	bad |= close(fd) != 0;
	if (bad || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}
