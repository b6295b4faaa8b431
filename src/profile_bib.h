/* profile_bib.h: what profile_bib.c and profile_bib_tex.c share. */
#ifndef VITA_PROFILE_BIB_H
#define VITA_PROFILE_BIB_H
#include <stddef.h>
#include "arena.h"

/* s[0..n), LaTeX as BibTeX values hold it, as UTF-8 in the arena: plain
 * text, or vita markup (**bold**, *italic*, [label](url), with * [ ] \
 * escaped) when markup is 1. */
char *pbib_latex(arena_t *a, const char *s, size_t n, int markup);

#endif
