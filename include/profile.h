/* profile: a profile file (profile.md, version 1) -> model.
 *
 * Reports every error it finds (not only the first) into errs, each with
 * file, line and column; misspelt keys and section types get a "did you
 * mean". Returns 0 and sets *out, or -1 when any error was found.
 */
#ifndef VITA_PROFILE_H
#define VITA_PROFILE_H
#include <stddef.h>
#include "arena.h"
#include "err.h"
#include "model.h"

typedef struct profile_opts {
	const char *lang;            /* --lang: pick this translation; NULL = first */
	const char *const *tags;     /* --tags: NULL = keep everything */
	int ntags;
	int untrusted;               /* --untrusted: every file the profile names
	                                must lie inside its folder (symlinks
	                                resolved); layout fonts are names only */
	int strict;                  /* --strict: an unusable BibTeX entry is an error */
} profile_opts_t;

int profile_load(arena_t *a, const char *path, const profile_opts_t *o,
                 model_t **out, errs_t *e);
/* Same, from memory (path is used for messages and relative paths). */
int profile_load_mem(arena_t *a, const char *path, const char *data, size_t len,
                     const profile_opts_t *o, model_t **out, errs_t *e);

/* Every key the loader accepts, per kind of map, and the values of its
 * enumerations, straight from the loader's own tables. `vita schema`
 * builds the JSON Schema (docs/vita.schema.json) from these, so the schema
 * cannot name a key the loader refuses nor miss one it accepts. */
typedef struct profile_keyset {
	const char *object;             /* "profile", "section.publications", "entry", ... */
	const char *const *keys;        /* NULL-terminated */
} profile_keyset_t;
const profile_keyset_t *profile_keysets(void); /* ends with {NULL, NULL} */

/* The JSON Schema of the profile format into out; -1 (with an error in e)
 * when a key of profile_keysets() has no type in profile_schema.c. */
struct buf;
int profile_schema(struct buf *out, errs_t *e);
/* 1 when author is the person named owner, written in another common
 * form ("Zhu, Z.", "Z Zhu", "ZHU Zhen", without diacritics); see
 * profile_names.c. */
int profile_name_match(const char *owner, const char *author);

#endif
