/* hyph: hyphenation points from the installed patterns, as libhyphen
 * gives them (compiled once per .dic and cached; see hyph.c).
 *
 * Never hyphenates words with capitals, digits, or anything but letters
 * (names, acronyms, URLs, e-mail addresses, DOIs are spans the caller marks
 * as not to be hyphenated). Keeps at least 2 letters before and 3 after a
 * break.
 */
#ifndef VITA_HYPH_H
#define VITA_HYPH_H
#include <stddef.h>
#include "err.h"

typedef struct hyph hyph_t;

/* Open the patterns for lang ("en", "en-US", ...); looks in
 * /usr/share/hyphen (hyph_en_US.dic). Returns NULL with an error when no
 * patterns exist for lang. Cheap: the file is only found here; its
 * patterns are loaded by the first hyph_word that needs them and kept
 * until hyph_close (keep one hyph_t to pay once for many documents). */
hyph_t *hyph_open(const char *lang, errs_t *e);
void hyph_close(hyph_t *h);
/* 1 when the patterns have been parsed (for tests and profiling). */
int hyph_loaded(const hyph_t *h);
/* Byte offsets inside w[0..n) (one word, UTF-8) before which a hyphen may
 * be inserted, ascending; returns how many (at most max). */
int hyph_word(hyph_t *h, const char *w, size_t n, int *offs, int max);

/* A process's dictionaries, each opened and parsed at most once however
 * many documents use it (batch workers keep one set across CVs; the
 * breaks are the same as from a fresh hyph_open). hyph_set_get returns
 * the set's handle for lang (do not close it), recording the .dic as an
 * input of the current render; NULL when no patterns exist. */
typedef struct hyph_set hyph_set_t;
hyph_set_t *hyph_set_new(void);
hyph_t *hyph_set_get(hyph_set_t *set, const char *lang);
void hyph_set_free(hyph_set_t *set);

#endif
