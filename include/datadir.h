/* datadir: where vita finds its data (layouts/, fonts/, locales/ and
 * vita.schema.json). The search path, first match wins:
 *
 *   1. the profile's own directory (when there is a profile)
 *   2. $XDG_CONFIG_HOME/vita            (default ~/.config/vita)
 *   3. $XDG_DATA_HOME/vita              (default ~/.local/share/vita)
 *   4. the source tree of a binary in its build directory (build/vita -> .)
 *   5. PREFIX/share/vita beside the binary (bin/vita -> ../share/vita), so
 *      an installed tree can be moved
 *   6. the directory compiled in (DATADIR, from PREFIX at build time)
 *
 * A directory that appears twice is kept once. */
#ifndef VITA_DATADIR_H
#define VITA_DATADIR_H
#include <limits.h>

#define DATADIR_MAX 8

typedef struct datadir {
	const char *dirs[DATADIR_MAX + 1]; /* NULL-terminated, e.g. for style_load */
	int n;
	int user;                          /* dirs[0..user) are the profile's own */
	char store[DATADIR_MAX][PATH_MAX];
} datadir_t;

/* Remember where the running binary is (once, before datadir_get). */
void datadir_init(void);
/* The search path for SUB ("layouts", "fonts", "locales", or "" for the
 * data roots themselves); PROFILE_DIR may be NULL. */
void datadir_get(datadir_t *d, const char *sub, const char *profile_dir);
/* 1 if any directory of the path (other than the profile's) exists. */
int datadir_any(const datadir_t *d);
/* The first existing FILE in the data roots, or NULL (static storage). */
const char *datadir_find(const char *file);
/* The data files in dir (`vita layouts`, `vita locales`): the names of its
 * NAME.yaml files without ".yaml", sorted, at most max; each one malloc'ed
 * (free it). Returns how many; 0 when dir cannot be read. */
int datadir_names(const char *dir, char **names, int max);
/* The directory compiled in. */
const char *datadir_builtin(void);

#endif
