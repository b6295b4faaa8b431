/* utf8: decoding, validation and NFC normalisation of UTF-8. */
#ifndef VITA_UTF8_H
#define VITA_UTF8_H
#include <stddef.h>
#include <stdint.h>

/* Decode one code point at s[0..n); returns its length in bytes (1..4) and
 * stores it in *cp, or returns 0 if the bytes are not valid UTF-8
 * (overlong, surrogate, > U+10FFFF, truncated, stray continuation). */
int utf8_decode_multi(const char *s, size_t n, uint32_t *cp);
/* ASCII, two-byte sequences (Latin, Greek, Cyrillic, Hebrew, Arabic)
 * and three-byte ones (Indic, Thai, CJK) inline, four-byte ones and
 * errors in utf8_decode_multi. */
static inline int utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	if (n && u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (n >= 2 && u[0] >= 0xc2 && u[0] <= 0xdf && (u[1] & 0xc0) == 0x80) {
		*cp = ((uint32_t)(u[0] & 0x1f) << 6) | (u[1] & 0x3f);
		return 2;
	}
	if (n >= 3 && (u[0] & 0xf0) == 0xe0 && (u[1] & 0xc0) == 0x80 && (u[2] & 0xc0) == 0x80) {
		uint32_t v = ((uint32_t)(u[0] & 0x0f) << 12) | ((uint32_t)(u[1] & 0x3f) << 6) |
		             (u[2] & 0x3f);
		if (v >= 0x800 && (v < 0xd800 || v > 0xdfff)) {
			*cp = v;
			return 3;
		}
	}
	return utf8_decode_multi(s, n, cp);
}
/* Like utf8_decode, but never fails on n > 0: a byte that does not start
 * valid UTF-8 reads as U+FFFD of length 1. */
static inline int utf8_next(const char *s, size_t n, uint32_t *cp)
{
	int l = utf8_decode(s, n, cp);
	if (l == 0) {
		*cp = 0xfffd;
		l = 1;
	}
	return l;
}
/* cp as UTF-16 code units in u[0..2) (a surrogate pair above U+FFFF);
 * returns how many (1 or 2). */
static inline int utf16_units(uint32_t cp, uint32_t u[2])
{
	if (cp <= 0xFFFF) {
		u[0] = cp;
		return 1;
	}
	u[0] = 0xD800 + ((cp - 0x10000) >> 10);
	u[1] = 0xDC00 + ((cp - 0x10000) & 0x3FF);
	return 2;
}
/* Encode cp into out (4 bytes room); returns the length. */
int utf8_encode(uint32_t cp, char *out);
/* Offset of the first invalid byte, or -1 when all of s[0..n) is valid. */
long utf8_invalid_at(const char *s, size_t n);
/* NFC and general categories need Unicode data: they live in unicode.h,
 * which takes them from HarfBuzz, the only library here that carries it. */

#endif
