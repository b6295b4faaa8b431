/* ofile: safe output files; see ofile.h.
 *
 * The signal handler may run at any point, so the temporaries it removes
 * live in a fixed table of static buffers: a slot's name is written
 * before the slot is marked live, and the mark is cleared only after the
 * name is renamed or removed (unlinking a name that was just renamed
 * fails harmlessly). unlink, signal and raise are async-signal-safe.
 *
 * A file that replaces a regular file is swapped with it (Linux's
 * renameat2 RENAME_EXCHANGE) and the old one, now under the temporary's
 * name, removed: the name still never points at a partial file, but ext4
 * does not write the new file out inside the call, as it does for a
 * rename over an existing file (auto_da_alloc: 7% of a batch's time that
 * re-renders into the same folder). Neither is a durability promise: no
 * file is fsynced, as before.
 */
#define _GNU_SOURCE   /* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "arena.h"
#include "ofile.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif
#define OFILE_SLOTS 8
#define OFILE_SUFFIX 7            /* ".XXXXXX" */
#define OFILE_STALE_SECS 2        /* an unlocked temporary older than this is stale */

struct ofile {
	char *path, *tmp;             /* tmp: NULL when written in place */
	const char *what;
	int fd, slot;
	int replaces;                 /* path was a regular file when opened */
};

static char slot_name[OFILE_SLOTS][PATH_MAX];
static volatile sig_atomic_t slot_live[OFILE_SLOTS];
static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

static void on_signal(int sig)
{
	for (int i = 0; i < OFILE_SLOTS; i++)
		if (slot_live[i])
			unlink(slot_name[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void ofile_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		struct sigaction old;
		/* keep an ignored signal ignored (nohup, a shell's background job) */
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

static int slot_take(const char *name)
{
	if (strlen(name) >= PATH_MAX)
		return -1;
	for (int i = 0; i < OFILE_SLOTS; i++)
		if (!slot_live[i]) {
			memcpy(slot_name[i], name, strlen(name) + 1);
			slot_live[i] = 1;
			return i;
		}
	return -1;
}

static void slot_drop(int i)
{
	if (i >= 0)
		slot_live[i] = 0;
}

/* dir ("" for the working directory) and base of path. */
static void split(const char *path, char **dir, const char **base)
{
	const char *s = strrchr(path, '/');
	size_t n = s ? (size_t)(s - path) + 1 : 0;
	*dir = xmalloc(n + 1);
	memcpy(*dir, path, n);
	(*dir)[n] = '\0';
	*base = s ? s + 1 : path;
}

/* The hidden temporary's prefix: ".BASE", BASE cut (at a UTF-8 character
 * boundary) so that prefix + ".XXXXXX" fits NAME_MAX. */
static size_t tmp_prefix_len(const char *base)
{
	size_t n = strlen(base), max = NAME_MAX - 1 - OFILE_SUFFIX;
	if (n <= max)
		return n;
	n = max;
	while (n > 0 && ((unsigned char)base[n] & 0xc0) == 0x80)
		n--;
	return n;
}

static int is_tmp_of(const char *name, const char *base, size_t blen)
{
	size_t n = strlen(name);
	return n == 1 + blen + OFILE_SUFFIX && name[0] == '.' && !strncmp(name + 1, base, blen) &&
	       name[1 + blen] == '.';
}

/* Remove dir/name if it is a temporary left by a killed process:
 * unlocked (its writer is gone) and not brand new. 1 when it is gone. */
static int remove_one(const char *dir, const char *name, time_t now)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof(p), "%s%s", dir, name) >= (int)sizeof(p))
		return 0;
	int fd = open(p, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return errno == ENOENT;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	int gone = 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && now - st.st_mtime >= OFILE_STALE_SECS &&
	    fcntl(fd, F_SETLK, &fl) == 0)
		gone = unlink(p) == 0;
	close(fd);
	return gone;
}

/* ofile_sweep_once: the directories read so far, and in each the names
 * that looked like some target's temporary (".NAME.XXXXXX") then. */
enum { SWEPT_MAX = 8 };
static struct swept {
	char *dir;
	char **names;
	int n;
} swept[SWEPT_MAX];
static int nswept, sweep_once;

void ofile_sweep_once(void)
{
	sweep_once = 1;
}

static struct swept *swept_get(const char *dir)
{
	for (int i = 0; i < nswept; i++)
		if (!strcmp(swept[i].dir, dir))
			return &swept[i];
	if (nswept == SWEPT_MAX)
		return NULL;
	DIR *d = opendir(*dir ? dir : ".");
	if (!d)
		return NULL;
	struct swept *s = &swept[nswept++];
	s->dir = xstrdup(dir);
	s->names = NULL;
	s->n = 0;
	int cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (de->d_name[0] != '.' || n < 1 + OFILE_SUFFIX || de->d_name[n - OFILE_SUFFIX] != '.')
			continue;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 8;
			s->names = xrealloc(s->names, sizeof(*s->names) * (size_t)cap);
		}
		s->names[s->n++] = xstrdup(de->d_name);
	}
	closedir(d);
	return s;
}

/* Remove temporaries of this target left by a killed process. */
static void remove_stale(const char *dir, const char *base, size_t blen)
{
	time_t now = time(NULL);
	struct swept *s = sweep_once ? swept_get(dir) : NULL;
	if (s) {
		for (int i = 0; i < s->n; i++)
			if (s->names[i] && is_tmp_of(s->names[i], base, blen) &&
			    remove_one(dir, s->names[i], now)) {
				free(s->names[i]);
				s->names[i] = NULL;
			}
		return;
	}
	DIR *d = opendir(*dir ? dir : ".");
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)))
		if (is_tmp_of(de->d_name, base, blen))
			remove_one(dir, de->d_name, now);
	closedir(d);
}

static int open_tmp(ofile_t *o)
{
	char *dir;
	const char *base;
	split(o->path, &dir, &base);
	size_t blen = tmp_prefix_len(base);
	remove_stale(dir, base, blen);
	size_t dn = strlen(dir);
	o->tmp = xmalloc(dn + 1 + blen + OFILE_SUFFIX + 1);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid() << 40 ^
	             (uint64_t)(uintptr_t)o;
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	o->fd = -1;
	errno = EEXIST;
	for (int tries = 0; tries < 100 && errno == EEXIST; tries++) {
		char *p = o->tmp;
		p += sprintf(p, "%s.", dir);
		memcpy(p, base, blen);
		p += blen;
		*p++ = '.';
		for (int i = 0; i < 6; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			*p++ = abc[(x >> 33) % 62];
		}
		*p = '\0';
		o->slot = slot_take(o->tmp);
		/* 0666 & ~umask, like any new file; O_EXCL: never another's file */
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (o->fd < 0) {
			int err = errno;
			slot_drop(o->slot);
			errno = err;
		}
		if (o->fd >= 0)
			break;
	}
	free(dir);
	if (o->fd < 0)
		return -1;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	(void)fcntl(o->fd, F_SETLK, &fl);
	/* replacing a regular file (not through a symlink): keep its
	   permission bits, never set-id or sticky ones */
	struct stat st;
	if (!lstat(o->path, &st) && S_ISREG(st.st_mode)) {
		(void)fchmod(o->fd, st.st_mode & 0777);
		o->replaces = 1;
	}
	return 0;
}

ofile_t *ofile_open(const char *path, const char *what, errs_t *e)
{
	ofile_t *o = xcalloc(1, sizeof(*o));
	o->path = xstrdup(path);
	o->what = what;
	o->slot = -1;
	struct stat st;
	int rc;
	if (!strcmp(path, "-")) {
		o->fd = STDOUT_FILENO;
		rc = 0;
	} else if (!stat(path, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) ||
	                                S_ISSOCK(st.st_mode))) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		rc = o->fd < 0 ? -1 : 0;
	} else {
		rc = open_tmp(o);
	}
	if (rc < 0) {
		err_sys(e, path, "cannot write %s: %s", what, strerror(errno));
		free(o->tmp);
		free(o->path);
		free(o);
		return NULL;
	}
	return o;
}

int ofile_fd(const ofile_t *o)
{
	return o->fd;
}

/* tmp into path's place: swapped with the regular file it replaces, else
 * renamed. 0, or -1 with errno. */
static int put_in_place(const ofile_t *o)
{
#ifdef RENAME_EXCHANGE
	/* (no name: ENOENT, and rename below; a symlink now: it is removed,
	   as rename would replace it) */
	if (o->replaces && renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_EXCHANGE) == 0) {
		if (unlink(o->tmp) == 0)
			return 0;
		/* what now has the temporary's name is no longer a file (the
		   name became a directory since it was opened): swap back, and
		   rename below fails as it would have */
		if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_EXCHANGE) < 0)
			return -1;
	}
#endif
	return rename(o->tmp, o->path);
}

int ofile_close(ofile_t *o, int ok, errs_t *e)
{
	int rc = 0, err = 0;
	if (o->fd != STDOUT_FILENO && close(o->fd) < 0)
		err = errno;
	else if (o->fd == STDOUT_FILENO && ok && fsync(o->fd) < 0 && errno != EINVAL &&
	         errno != EROFS && errno != ENOTSUP)
		err = errno; /* a full or failing device reports late */
	if (o->tmp) {
		if (ok && !err && put_in_place(o) < 0)
			err = errno;
		if (!ok || err)
			unlink(o->tmp);
		slot_drop(o->slot);
	}
	if (ok && err)
		rc = err_sys(e, o->path, "cannot write %s: %s", o->what, strerror(err));
	free(o->tmp);
	free(o->path);
	free(o);
	return rc;
}

/* ofile_is_one_of's identities of kept files, by name (a small open
 * hash table; when full, names are looked up every time). */
enum { IDS_MAX = 256 };
static struct ident {
	char *path;
	dev_t dev;
	ino_t ino;
} ids[IDS_MAX];
static int nids;

static unsigned ids_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The identity of kept file p: remembered, else looked up (and
 * remembered). 0, or -1 when it does not exist. */
static int kept_id(const char *p, struct stat *st)
{
	unsigned h = ids_hash(p) % IDS_MAX;
	for (int n = 0; n < IDS_MAX && ids[h].path; n++, h = (h + 1) % IDS_MAX)
		if (!strcmp(ids[h].path, p)) {
			st->st_dev = ids[h].dev;
			st->st_ino = ids[h].ino;
			return 0;
		}
	if (stat(p, st))
		return -1;
	if (nids < IDS_MAX / 2 && !ids[h].path) {
		ids[h] = (struct ident){xstrdup(p), st->st_dev, st->st_ino};
		nids++;
	}
	return 0;
}

int ofile_is_one_of(const char *path, const char *const *v, int n, int fresh, int *which)
{
	struct stat a, b;
	if (!strcmp(path, "-") || stat(path, &a) || !S_ISREG(a.st_mode))
		return 0;
	for (int i = 0; i < n; i++)
		if (v[i] && !(i < fresh ? stat(v[i], &b) : kept_id(v[i], &b)) &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			if (which)
				*which = i;
			return 1;
		}
	return 0;
}
