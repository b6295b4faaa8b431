/* thai: word boundaries in Thai text, by libthai's dictionary and
 * libthai's rules, without libthai (see thai.c).
 *
 * Thai is written without spaces between words; UAX #14 leaves the
 * breaks to a dictionary (class SA), and libunibreak 1.1 has none (SA
 * becomes AL: no break inside a Thai run). inline.c asks for the words of
 * each run of Thai letters of a paragraph:
 *
 *   int pos[64];
 *   int k = thai_breaks(cp, n, pos, 64);   a break may go before cp[pos[i]]
 *
 * The dictionary is libthai's word list (/usr/share/libthai/thbrk.tri, or
 * $LIBTHAI_DICTDIR/thbrk.tri, a libdatrie trie), compiled once per version
 * of that file into a flat trie cached in $XDG_CACHE_HOME/vita (else
 * ~/.cache/vita) and mapped in place when a paragraph first has Thai
 * text, once per process; the breaks are libthai's (th_brk_find_breaks)
 * over the same words.
 */
#ifndef VITA_THAI_H
#define VITA_THAI_H
#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/* 1 for a code point of the Thai block's letters, vowels, tone marks and
 * digits (U+0E01..U+0E5B). */
static inline int thai_is(uint32_t cp)
{
	return cp - 0xE01u <= 0xE5Bu - 0xE01u;
}

/* The word boundaries inside cp[0..n) (Thai text, thai_is): up to max
 * indices i, 0 < i < n, ascending, where a line may break before cp[i];
 * returns how many, 0 when no dictionary can be had (the run then stays
 * whole). */
int thai_breaks(const uint32_t *cp, int n, int *pos, int max);

/* ---- the parts, for tests and fuzzing ---- */
typedef struct thai_dict thai_dict_t;
/* Compile the bytes of a libdatrie trie file (thbrk.tri) into the flat
 * form, appended to out (empty); 0, or -1 when the bytes are not a trie
 * file vita can read. */
int thai_dict_compile(const unsigned char *tri, size_t n, buf_t *out);
/* A dictionary over the compiled form p[0..n) (not copied: p must
 * outlive it), or NULL when its header does not describe p. No content
 * of p can make the breaking read outside it or loop. */
thai_dict_t *thai_dict_use(const void *p, size_t n);
void thai_dict_free(thai_dict_t *d);
/* Words in the dictionary, and trie nodes (for tests). */
uint32_t thai_dict_words(const thai_dict_t *d);
uint32_t thai_dict_nodes(const thai_dict_t *d);
/* Call f for each word of d (up to 64 letters), in letter order. */
void thai_dict_each(const thai_dict_t *d, void (*f)(const uint32_t *w, int n, void *arg), void *arg);
/* thai_breaks over dictionary d. A code point outside U+0E01..U+0E5B is
 * taken as libthai takes a character TIS-620 cannot encode (no break on
 * either side of it but before a Thai letter after it); inline.c never
 * passes one. */
int thai_dict_breaks(const thai_dict_t *d, const uint32_t *cp, int n, int *pos, int max);
/* The process's dictionary as thai_breaks loads it (NULL when none). */
const thai_dict_t *thai_dict_default(void);

#endif
