/* json: JSON text -> the node tree of ydoc.h (kinds, positions, plain
 * scalars for numbers and true/false, YD_NULL for null), so a .json
 * profile goes through the same loader as YAML while its messages speak
 * of JSON. See src/json.c for what is refused. */
#ifndef VITA_JSON_H
#define VITA_JSON_H
#include <stddef.h>
#include "arena.h"
#include "err.h"
#include "ydoc.h"

/* Parse data[0..len) named file; an empty document gives YD_NULL. */
int json_parse(arena_t *a, const char *file, const char *data, size_t len,
               ynode_t **root, errs_t *e);

#endif
