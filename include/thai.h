/* thai: word boundaries in Thai text, with libthai's dictionary (the only
 * libthai user; what Pango and LibreOffice use).
 *
 * Thai is written without spaces between words; UAX #14 leaves the
 * breaks to a dictionary (class SA), and libunibreak 1.1 has none (SA
 * becomes AL: no break inside a Thai run). inline.c asks for the words of
 * each run of Thai letters of a paragraph:
 *
 *   int pos[64];
 *   int k = thai_breaks(cp, n, pos, 64);   a break may go before cp[pos[i]]
 *
 * libthai is loaded, and its dictionary read (~31 M instructions), when a
 * paragraph first has Thai text, once per process (dl.h): other CVs never
 * pay for it.
 */
#ifndef VITA_THAI_H
#define VITA_THAI_H
#include <stdint.h>

/* 1 for a code point of the Thai block's letters, vowels, tone marks and
 * digits (U+0E01..U+0E5B). */
static inline int thai_is(uint32_t cp)
{
	return cp - 0xE01u <= 0xE5Bu - 0xE01u;
}

/* The word boundaries inside cp[0..n) (Thai text): up to max indices i,
 * 0 < i < n, ascending, where a line may break before cp[i]; returns how
 * many, 0 when libthai cannot be loaded (the run then stays whole). */
int thai_breaks(const uint32_t *cp, int n, int *pos, int max);

#endif
