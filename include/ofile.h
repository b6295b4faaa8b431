/* ofile: writing an output file (PDF, HTML, JSON, depfile) safely.
 *
 *   ofile_t *o = ofile_open("out/cv.pdf", "the PDF", e);
 *   ... buf_write_fd(ofile_fd(o), p, n) ...
 *   if (ofile_close(o, ok, e)) ... (exit 3)
 *
 * A regular target is written to a hidden temporary ".NAME.XXXXXX" beside
 * it (site generators' watchers ignore dot files; a NAME near NAME_MAX is
 * shortened in the temporary name only) and renamed over NAME only when
 * complete, so an existing file is never left half written. The
 * temporary's mode comes from the umask; when it replaces a regular file
 * that file's permission bits are kept, never its set-id or sticky bits.
 * "-" is stdout; a device, FIFO or socket is written in place.
 *
 * Temporaries are removed on every exit path: on failure by ofile_close,
 * and on SIGINT, SIGTERM, SIGHUP and SIGPIPE by the handler that
 * ofile_catch_signals installs (the signal is then re-raised). A process
 * killed with SIGKILL leaves its temporary; each temporary is locked while
 * it is written, so the next ofile_open of the same target removes the
 * unlocked ones. Nothing is ever written to $TMPDIR.
 */
#ifndef VITA_OFILE_H
#define VITA_OFILE_H
#include "err.h"

typedef struct ofile ofile_t;

/* Install the signal handlers (once per process; main calls it). */
void ofile_catch_signals(void);
/* From now on read each directory for stale temporaries once, not at
 * every ofile_open (a batch worker writing thousands of files into one
 * directory read all of it for each): the names that look like a
 * temporary then are remembered, and each later target checks those. A
 * temporary that a killed process leaves later is removed by the next
 * run. */
void ofile_sweep_once(void);
/* Open path for writing; what ("the PDF") names it in messages. NULL with
 * an exit-3 error in e on failure. */
ofile_t *ofile_open(const char *path, const char *what, errs_t *e);
int ofile_fd(const ofile_t *o);
/* ok: rename into place; !ok: remove the temporary. Frees o. Returns 0,
 * or -1 with an error in e (only when ok and the file could not be
 * completed). */
int ofile_close(ofile_t *o, int ok, errs_t *e);
/* 1 when path names the same file (device and inode) as one of the
 * files in v[0..n) that exist, writing its index to *which. Files from
 * v[fresh] on are ones the caller read once and keeps (a batch worker's
 * fonts, layouts, locales, patterns): their identity is taken when first
 * asked about and remembered for the process, which is the file the
 * render was made from even if its name has since been given to another;
 * v[0..fresh) are looked up on every call (fresh >= n: all of them). */
int ofile_is_one_of(const char *path, const char *const *v, int n, int fresh, int *which);

#endif
