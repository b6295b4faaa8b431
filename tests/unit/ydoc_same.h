/* ydoc_same.h: are two ynode trees the same (kinds, positions, strings,
 * styles)? For test_ydoc and fuzz_ydoc, which compare ydoc_fast's
 * reading with libyaml's. */
#ifndef VITA_YDOC_SAME_H
#define VITA_YDOC_SAME_H
#include <stdio.h>
#include <string.h>
#include "ydoc.h"

/* 1 when a and b are the same tree; else 0 and the first difference in
 * why ("/2/0: ..."; the path gives child indexes). */
static inline int ydoc_same_at(const ynode_t *a, const ynode_t *b, char *path, size_t pl, char *why,
                        size_t wl)
{
	int scalar = a->kind == YD_SCALAR || a->kind == YD_NULL;
	if (a->kind != b->kind || a->line != b->line || a->col != b->col || a->n != b->n ||
	    (scalar && (a->plain != b->plain || a->len != b->len || !a->str != !b->str ||
	                (a->str && memcmp(a->str, b->str, a->len))))) {
		snprintf(why, wl, "%s: kind %d at %d:%d, %d kids, plain %d, '%.40s' (%zu) vs "
		         "kind %d at %d:%d, %d kids, plain %d, '%.40s' (%zu)", *path ? path : "/",
		         a->kind, a->line, a->col, a->n, a->plain, a->str ? a->str : "(null)", a->len,
		         b->kind, b->line, b->col, b->n, b->plain, b->str ? b->str : "(null)", b->len);
		return 0;
	}
	int nk = a->kind == YD_MAP ? 2 * a->n : a->kind == YD_SEQ ? a->n : 0;
	size_t l = strlen(path);
	for (int i = 0; i < nk; i++) {
		snprintf(path + l, pl - l, "/%d", i);
		if (!ydoc_same_at(a->kids[i], b->kids[i], path, pl, why, wl))
			return 0;
	}
	path[l] = '\0';
	return 1;
}

static inline int ydoc_same(const ynode_t *a, const ynode_t *b, char *why, size_t wl)
{
	char path[1024] = "";
	return ydoc_same_at(a, b, path, sizeof(path), why, wl);
}

#endif
