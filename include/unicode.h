/* unicode: what the text engine needs from the Unicode Character Database,
 * taken from HarfBuzz's Unicode functions (the only Unicode data linked
 * in): NFC normalisation and general categories. See src/unicode.c. */
#ifndef VITA_UNICODE_H
#define VITA_UNICODE_H

#include <stddef.h>
#include <stdint.h>

/* NFC-normalise valid UTF-8. Returns a malloc'd string, or NULL when s is
 * already in NFC (no allocation in the common case). */
char *uni_nfc(const char *s, size_t n, size_t *outlen);
/* The NFC quick check of one code point (unicode.c's qc_yes): 1 when cp
 * is NFC_QC=Yes and cannot combine with what is before it. For tests. */
int uni_nfc_qc_yes(uint32_t cp);
/* General category L* (letters of any script). */
int uni_is_letter(uint32_t cp);
/* General category M* (combining marks: Mn, Mc, Me). */
int uni_is_mark(uint32_t cp);
/* The name of cp's script when it is one vita cannot draw yet ("Devanagari",
 * "Thai": the Indic and Southeast Asian scripts, whose shaping makes
 * conjuncts, reorders vowel signs and stacks marks, which one glyph per
 * code point cannot show), else NULL. For messages. */
const char *uni_unshaped_script(uint32_t cp);
/* The letter an Arabic presentation form of one letter (U+FB50-FBFF,
 * U+FE70-FEFF: an initial, medial, final or isolated form) stands for; cp
 * itself for anything else (ligatures of two letters too). */
uint32_t uni_pres_letter(uint32_t cp);

#endif
