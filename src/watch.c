/* watch: inotify on the directories of a set of files; see watch.h. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>
#include "arena.h"
#include "watch.h"

#define WATCH_MASK (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | \
                    IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

typedef struct wdir {
	int wd;                 /* -1 once the directory is gone */
	char *path;             /* "." for the working directory */
} wdir_t;

typedef struct wfile {
	int dir;                /* index into dirs */
	char *name, *path;      /* base name in dir; the path as given */
} wfile_t;

struct watch {
	int fd;
	wdir_t *dirs;
	int ndirs;
	wfile_t *files;
	int nfiles;
	const char *changed;
};

watch_t *watch_new(errs_t *e)
{
	int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (fd < 0) {
		err_sys(e, "", "cannot watch files (inotify): %s", strerror(errno));
		return NULL;
	}
	watch_t *w = xcalloc(1, sizeof(*w));
	w->fd = fd;
	return w;
}

void watch_free(watch_t *w)
{
	if (!w)
		return;
	close(w->fd);
	for (int i = 0; i < w->ndirs; i++)
		free(w->dirs[i].path);
	for (int i = 0; i < w->nfiles; i++) {
		free(w->files[i].name);
		free(w->files[i].path);
	}
	free(w->dirs);
	free(w->files);
	free(w);
}

static int dir_index(watch_t *w, const char *dir, errs_t *e)
{
	for (int i = 0; i < w->ndirs; i++)
		if (!strcmp(w->dirs[i].path, dir))
			return i;
	int wd = inotify_add_watch(w->fd, dir, WATCH_MASK | IN_ONLYDIR);
	if (wd < 0)
		return err_sys(e, dir, "cannot watch the directory: %s", strerror(errno));
	w->dirs = xrealloc(w->dirs, (size_t)(w->ndirs + 1) * sizeof(*w->dirs));
	w->dirs[w->ndirs] = (wdir_t){wd, xstrdup(dir)};
	return w->ndirs++;
}

int watch_files(watch_t *w, const char *const *paths, int n, errs_t *e)
{
	int rc = 0;
	for (int i = 0; i < n; i++) {
		const char *p = paths[i], *s = strrchr(p, '/');
		int known = 0;
		for (int k = 0; k < w->nfiles && !known; k++)
			known = !strcmp(w->files[k].path, p);
		if (known || !*p)
			continue;
		char *dir = s ? (s == p ? xstrdup("/") : strndup(p, (size_t)(s - p))) : xstrdup(".");
		int d = dir_index(w, dir, e);
		free(dir);
		if (d < 0) {
			rc = -1;
			continue;
		}
		w->files = xrealloc(w->files, (size_t)(w->nfiles + 1) * sizeof(*w->files));
		w->files[w->nfiles++] = (wfile_t){d, xstrdup(s ? s + 1 : p), xstrdup(p)};
	}
	return rc;
}

const char *watch_changed(const watch_t *w)
{
	return w->changed;
}

/* Read the pending events; 1 when one is about a watched file. */
static int drain(watch_t *w, int *alive)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	int hit = 0;
	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));
		if (n <= 0)
			return hit;
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			p += sizeof(*ev) + ev->len;
			for (int d = 0; d < w->ndirs; d++) {
				if (w->dirs[d].wd != ev->wd)
					continue;
				if (ev->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) {
					w->dirs[d].wd = -1;
					(*alive)--;
				}
				for (int f = 0; ev->len && f < w->nfiles; f++)
					if (w->files[f].dir == d && !strcmp(w->files[f].name, ev->name)) {
						if (!hit)
							w->changed = w->files[f].path;
						hit = 1;
					}
			}
		}
	}
}

int watch_wait(watch_t *w, int quiet_ms, errs_t *e)
{
	int alive = 0;
	for (int d = 0; d < w->ndirs; d++)
		alive += w->dirs[d].wd >= 0;
	int hit = 0;
	w->changed = NULL;
	for (;;) {
		if (alive <= 0)
			return err_sys(e, w->nfiles ? w->files[0].path : "",
			               "the directories of the watched files are gone");
		struct pollfd p = {w->fd, POLLIN, 0};
		int r = poll(&p, 1, hit ? quiet_ms : -1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return err_sys(e, "", "cannot watch files: %s", strerror(errno));
		if (r == 0)
			return 1; /* quiet after a change */
		hit |= drain(w, &alive);
	}
}
