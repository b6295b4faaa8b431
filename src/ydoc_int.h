/* ydoc_int.h: the ydoc module's own (ydoc.c, ydoc_fast.c). */
#ifndef VITA_YDOC_INT_H
#define VITA_YDOC_INT_H
#include "ydoc.h"

/* The YAML most CVs, layouts, locales and font chains are written in,
 * read without libyaml (ydoc_fast.c says which). 0 with *root set: the
 * very tree libyaml's reading would give; 1: the text is not in that
 * subset (or is not valid YAML), nothing is reported, and ydoc_parse
 * asks libyaml, whose messages stay the only ones. */
int ydoc_fast(arena_t *a, const char *data, size_t len, ynode_t **root);

/* ydoc_parse through libyaml only (for the tests that compare the two). */
int ydoc_libyaml(arena_t *a, const char *file, const char *data, size_t len,
                 ynode_t **root, errs_t *e);

#endif
