/* utf8: strict UTF-8 decoding; see utf8.h. */
#include <string.h>
#include "utf8.h"

int utf8_decode_multi(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	if (n == 0)
		return 0;
	unsigned c = s[0];
	uint32_t v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		if (n < 2 || (s[1] & 0xc0) != 0x80)
			return 0;
		*cp = ((uint32_t)(c & 0x1f) << 6) | (s[1] & 0x3f);
		return 2;
	}
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		v = ((uint32_t)(c & 0x0f) << 12) | ((uint32_t)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
		if (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))
			return 0;   /* overlong, surrogate */
		*cp = v;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		v = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s[1] & 0x3f) << 12) |
		    ((uint32_t)(s[2] & 0x3f) << 6) | (s[3] & 0x3f);
		if (v < 0x10000 || v > 0x10ffff)
			return 0;
		*cp = v;
		return 4;
	}
	return 0;
}

int utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | (cp >> 6));
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | (cp >> 12));
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | (cp >> 18));
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

long utf8_invalid_at(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint64_t w;
		if (i + 8 <= n && (memcpy(&w, s + i, 8), !(w & 0x8080808080808080ull))) {
			i += 8;   /* eight ASCII bytes */
			continue;
		}
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		uint32_t cp;
		int k = utf8_decode(s + i, n - i, &cp);
		if (!k)
			return (long)i;
		i += (size_t)k;
	}
	return -1;
}

