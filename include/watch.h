/* watch: wait until one of a set of files changes (inotify).
 *
 *   watch_t *w = watch_new(e);
 *   watch_files(w, paths, n);            // after each render: its inputs
 *   while (watch_wait(w, 40, e) > 0) ... render again ...
 *   watch_free(w);
 *
 * The directories holding the files are watched, not the files: an
 * editor that saves by writing a new file and renaming it over the old
 * one (vim, emacs, most IDEs) replaces the inode a file watch would hold.
 * A file counts as changed when a name of the watched set in a watched
 * directory is written and closed, created, renamed to or from, deleted,
 * or has its attributes changed (touch).
 */
#ifndef VITA_WATCH_H
#define VITA_WATCH_H
#include "err.h"

typedef struct watch watch_t;

watch_t *watch_new(errs_t *e);
void watch_free(watch_t *w);
/* Add paths[0..n) to the watched set (files already in it stay). 0, or
 * -1 with an exit-3 error when a directory cannot be watched. */
int watch_files(watch_t *w, const char *const *paths, int n, errs_t *e);
/* Block until a watched file changes, then until no further change for
 * quiet_ms (an editor's save is several events). 1 on a change, -1 with
 * an error in e when watching fails or the directory of every watched
 * file is gone. */
int watch_wait(watch_t *w, int quiet_ms, errs_t *e);
/* The first changed file of the last watch_wait (for messages). */
const char *watch_changed(const watch_t *w);

#endif
