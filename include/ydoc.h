/* ydoc: the only libyaml user. YAML text -> a tree with 1-based positions.
 *
 * Scalars are copied into the arena (libyaml's document is freed before
 * ydoc_parse returns). Refuses, with a located error: malformed YAML,
 * invalid UTF-8 (naming the byte offset), more than YDOC_MAX_DEPTH levels
 * of nesting, aliases (anchors are accepted but an alias expanding beyond
 * YDOC_MAX_ALIAS nodes in total is refused), more than one document,
 * duplicate keys in a mapping, more than YDOC_MAX_NODES nodes (about
 * 100 bytes each; a long CV has a few thousand), and a NUL character in a key or value
 * (an escaped "\0" or "\u0000": C strings would cut the text there).
 */
#ifndef VITA_YDOC_H
#define VITA_YDOC_H
#include <stddef.h>
#include "arena.h"
#include "err.h"

#define YDOC_MAX_DEPTH 64
#define YDOC_MAX_ALIAS 10000
#define YDOC_MAX_NODES 200000   /* keys, values and items: bounds the tree's memory */

enum { YD_NULL, YD_SCALAR, YD_SEQ, YD_MAP };

typedef struct ynode ynode_t;
struct ynode {
	int kind;             /* YD_* (an empty document or `~`/`null` is YD_NULL) */
	int line, col;        /* 1-based start of the node */
	const char *str;      /* YD_SCALAR: the value, NUL-terminated */
	size_t len;           /* YD_SCALAR: bytes */
	int plain;            /* YD_SCALAR: 1 when unquoted (so `12` may be an int) */
	int clean;            /* YD_SCALAR: 1 when known to be valid UTF-8 without NUL
	                         (ydoc_fast's reading: it takes only such text) */
	ynode_t **kids;       /* YD_SEQ: items; YD_MAP: key0, val0, key1, val1, ... */
	int n;                /* YD_SEQ: items; YD_MAP: pairs */
};

/* Parse data[0..len) named file. *root is YD_NULL for an empty document. */
int ydoc_parse(arena_t *a, const char *file, const char *data, size_t len,
               ynode_t **root, errs_t *e);

/* Map lookup by key (NULL when absent or m is not a map). */
ynode_t *ydoc_get(const ynode_t *m, const char *key);
/* Readable name of a node kind for messages: "a string", "a list", "a map". */
const char *ydoc_kind_name(int kind);
/* Sort keys (n scalar key nodes of one map, in place) and report each one
 * that repeats an earlier key as a located error in file; -1 if any did.
 * The YAML and the JSON readers both refuse duplicate keys this way. */
int ydoc_dup_keys(ynode_t **keys, int n, const char *file, errs_t *e);

#endif
