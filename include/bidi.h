/* bidi: the only libfribidi user. Right-to-left text (Arabic, Hebrew,
 * Persian) inside a paragraph, by the Unicode bidi algorithm (UAX #9).
 *
 * inline.c calls, per paragraph (code points in logical order):
 *   if (bidi_levels(cp, n, rtl, lv) > 0 || rtl)  -- some text is RTL
 *       bidi_shape(cp, n, lv);    Arabic letters -> their joined
 *                                 presentation forms (U+FB50..U+FEFC;
 *                                 a lam-alef ligature leaves U+FEFF, not
 *                                 drawn, in the second place), mirrored
 *                                 brackets in RTL runs
 * and, per line, bidi_order(lv, n, base, order) for the visual order of
 * its runs (UAX #9 rule L2). Lines are broken and text is extracted
 * (PDF /ActualText) in logical order; only drawing is visual.
 */
#ifndef VITA_BIDI_H
#define VITA_BIDI_H
#include <stdint.h>

/* 1 when cp is a strong right-to-left character (or Arabic number), by
 * Unicode 15's Bidi_Class (libfribidi's tables, where they are older,
 * corrected: bidi.c's newer[]). */
int bidi_is_rtl(uint32_t cp);
/* Embedding levels of cp[0..n) into lv (even: LTR, odd: RTL). The
 * paragraph's base direction is LTR, or with rtl that of its first strong
 * character (RTL when it has none: UAX #9 P2, P3). Returns
 * the highest level (0: everything is left to right), -1 on failure. */
int bidi_levels(const uint32_t *cp, int n, int rtl, uint8_t *lv);
/* The same, always by libfribidi's algorithm (bidi_levels answers the
 * common paragraphs of a right-to-left page itself: plain right-to-left
 * text, left-to-right text without right-to-left characters, Arabic or
 * Hebrew with numbers, numbers alone; for tests). */
int bidi_levels_fribidi(const uint32_t *cp, int n, int rtl, uint8_t *lv);
/* Arabic joining and mirroring, in place (see above): vita's own joining
 * where every joining character is Arabic and right to left (the forms
 * and lam-alef ligatures libfribidi's), else libfribidi's. */
void bidi_shape(uint32_t *cp, int n, const uint8_t *lv);
/* The same, always by libfribidi's joining (for tests). */
void bidi_shape_fribidi(uint32_t *cp, int n, const uint8_t *lv);
/* The visual order of n items (runs of a line) with levels lv: order[k]
 * is the logical index of the k-th item from the left. */
void bidi_order(const uint8_t *lv, int n, int *order);

#endif
