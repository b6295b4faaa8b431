/* unicode: what the text engine needs from the Unicode Character Database,
 * taken from HarfBuzz's Unicode functions (the only Unicode data linked
 * in): NFC normalisation and general categories. See src/unicode.c. */
#ifndef VITA_UNICODE_H
#define VITA_UNICODE_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/* NFC-normalise valid UTF-8. Returns a malloc'd string, or NULL when s is
 * already in NFC (no allocation in the common case). */
char *uni_nfc(const char *s, size_t n, size_t *outlen);
/* The same by the full algorithm, without the quick check of the text
 * that spares it (NULL when s is its own NFC). For tests. */
char *uni_nfc_full(const char *s, size_t n, size_t *outlen);
/* The NFC quick check of one code point (unicode.c's qc_yes): 1 when cp
 * is NFC_QC=Yes and cannot combine with what is before it. For tests. */
int uni_nfc_qc_yes(uint32_t cp);
/* The canonical combining class of cp (0: a starter). */
unsigned uni_ccc(uint32_t cp);
/* General category L* (letters of any script). */
int uni_is_letter(uint32_t cp);
/* General category M* (combining marks: Mn, Mc, Me). */
int uni_is_mark(uint32_t cp);
/* A non-spacing mark (general category Mn: a virama, a vowel sign above
 * or below). */
int uni_is_nonspacing(uint32_t cp);
/* A mark that takes the bidi level of the character before it: general
 * category Mn or Me, which is Unicode's Bidi_Class NSM but for five
 * marks of left-to-right scripts (Kannada U+0CBF, U+0CC6, Zanabazar
 * Square U+11A07, U+11A08, Bhaiksuki U+11C3F: L). */
int uni_is_nsm(uint32_t cp);
/* The name of cp's script when it is one of the Indic and Southeast Asian
 * scripts vita's chains have no face for yet ("Gujarati", "Khmer": shaped
 * into clusters like Devanagari, Bengali, Tamil and Thai, whose faces the
 * chains list), else NULL. For messages. */
const char *uni_unshaped_script(uint32_t cp);
/* The letter an Arabic presentation form of one letter (U+FB50-FBFF,
 * U+FE70-FEFF: an initial, medial, final or isolated form) stands for; cp
 * itself for anything else (ligatures of two letters too). */
uint32_t uni_pres_letter(uint32_t cp);

/* Case mapping (unicode_case.c), from tables generated from the Unicode
 * Character Database (UnicodeData.txt, SpecialCasing.txt, PropList.txt)
 * by tests/tools/gen_case.py into src/unicode_casetab.h; test_case
 * checks every code point against the files. */
enum { UNI_LOWER, UNI_TITLE, UNI_UPPER };
/* The Unicode version of the tables: "15.0.0". */
const char *uni_case_version(void);
/* The simple (one to one) mapping of UnicodeData: cp when none. */
uint32_t uni_case_simple(uint32_t cp, int kind);
/* The full mapping without context or language (SpecialCasing's
 * unconditional entries, else the simple one): 1 to 3 code points into
 * out; returns their count. */
int uni_case_full(uint32_t cp, int kind, uint32_t out[3]);
/* 1 when cp changes in capitals (a small letter: a, ß, ﬁ, ά, ა). */
int uni_case_lower(uint32_t cp);
/* Append s[0..n) in capitals, as the language lang (a BCP 47 tag; NULL or
 * "" for none) writes them, in NFC: full mappings (ß -> SS, ﬁ -> FI,
 * և -> ԵՒ); Greek without accents or breathings (ά -> Α, ᾳ -> ΑΙ, τσάι ->
 * ΤΣΑΪ, the disjunctive ή alone keeps its tonos: Ή); Turkish and Azeri
 * i -> İ; Lithuanian drops the dot above of i̇; Georgian Mkhedruli becomes
 * Mtavruli only in Georgian (ka), other text keeps it as written. */
void uni_upper(const char *s, size_t n, const char *lang, buf_t *out);
/* 1 when s in capitals is s with only its ASCII letters changed ('a'-'z'
 * -> 'A'-'Z'; up to NFC): in a language but Turkish and Azeri, no other
 * code point that has a capital (CJK, Arabic, Indic text; digits). */
int uni_upper_ascii(const char *s, size_t n, const char *lang);
/* Append s with its first letter in title case (ǆ -> ǅ, ß -> Ss, tr:
 * i -> İ) and the rest as written, in NFC. */
void uni_title_first(const char *s, size_t n, const char *lang, buf_t *out);

#endif
