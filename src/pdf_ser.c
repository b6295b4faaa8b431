/* pdf_ser: PDF values written as text, the way pdf_save writes
 * libharu's objects: compactly, a space only between two tokens that need
 * one ("/Type/Page/Count 3"). pdf_save serializes libharu's objects with
 * these; raw objects (pdf_raw_new: link annotations, the structure tree)
 * are written with them directly.
 *
 *   pdf_ser_t o; pdf_raw_begin(w, &o);
 *   pdf_ser_lit(&o, "<</S"); pdf_ser_name(&o, role); pdf_ser_lit(&o, ">>");
 *   pdf_raw_end(w, &o, obj);
 */
#include <string.h>
#include "pdf_int.h"

/* buf_add without the call when the buffer has room (most tokens) */
static void put(buf_t *b, const char *t, size_t n)
{
	pdf_ser_put(b, t, n);
}

static int is_regular(unsigned char c)
{
	return pdf_ser_regular(c);
}

/* A literal run of tokens ("/Type/Annot", "]/F 4"): spaced by its first
 * and last characters. */
void pdf_ser_litn(pdf_ser_t *o, const char *s, size_t n)
{
	if (!n)
		return;
	pdf_ser_tok(o, s, n, is_regular((unsigned char)s[0]), is_regular((unsigned char)s[n - 1]));
}

/* A real as libharu keeps it (a float), to 5 decimals (the MediaBox's
 * 841.89001: its shortest form 841.89 moves pdftoppm's anti-aliasing of
 * an edge pixel here and there). */
void pdf_ser_real(pdf_ser_t *o, float r)
{
	char t[48];
	double v = r * 100000.0;
	int k = pdf_num(t, (long long)(v < 0 ? v - 0.5 : v + 0.5), 5);
	pdf_ser_tok(o, t, (size_t)k, 1, 1);
}

/* the delimiters a name escapes, "#()<>[]{}/%", as a bit set */
static const uint32_t name_delim[8] = {0, 1u << ('#' - 32) | 1u << ('(' - 32) |
	1u << (')' - 32) | 1u << ('<' - 32) | 1u << ('>' - 32) | 1u << ('/' - 32) | 1u << ('%' - 32),
	1u << ('[' - 64) | 1u << (']' - 64), 1u << ('{' - 96) | 1u << ('}' - 96), 0, 0, 0, 0};

void pdf_ser_name(pdf_ser_t *o, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char t[3 * HPDF_LIMIT_MAX_NAME_LEN + 2];
	size_t k = 0;
	t[k++] = '/';
	for (; *s && k + 3 < sizeof(t); s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x21 || c > 0x7e || (name_delim[c >> 5] >> (c & 31) & 1)) {
			t[k++] = '#';
			t[k++] = hex[c >> 4];
			t[k++] = hex[c & 15];
		} else {
			t[k++] = (char)c;
		}
	}
	pdf_ser_tok(o, t, k, 0, 1);
}

/* A literal string: \ ( ) escaped, other bytes outside printable ASCII
 * in octal. */
void pdf_ser_string(pdf_ser_t *o, const unsigned char *v, size_t n)
{
	char t[64];
	size_t k = 0;
	pdf_ser_tok(o, "(", 1, 0, 0);
	for (size_t i = 0; i < n; i++) {
		unsigned c = v[i];
		if (k + 5 > sizeof(t)) { /* an escape, and room for the ')' */
			put(o->b, t, k);
			k = 0;
		}
		if (c == '(' || c == ')' || c == '\\') {
			t[k++] = '\\';
			t[k++] = (char)c;
		} else if (c < 0x20 || c >= 0x7f) {
			t[k++] = '\\';
			t[k++] = (char)('0' + (c >> 6));
			t[k++] = (char)('0' + (c >> 3 & 7));
			t[k++] = (char)('0' + (c & 7));
		} else {
			t[k++] = (char)c;
		}
	}
	t[k++] = ')';
	put(o->b, t, k);
}

void pdf_ser_binary(pdf_ser_t *o, const unsigned char *v, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char t[66];
	size_t k = 0;
	pdf_ser_tok(o, "<", 1, 0, 0);
	for (size_t i = 0; i < n; i++) {
		if (k + 3 > sizeof(t)) { /* two digits, and room for the '>' */
			put(o->b, t, k);
			k = 0;
		}
		t[k++] = hex[v[i] >> 4];
		t[k++] = hex[v[i] & 15];
	}
	t[k++] = '>';
	put(o->b, t, k);
}

void pdf_ser_text(pdf_ser_t *o, const char *s)
{
	pw_t *w = o->w;
	s = pdf_meta_clip(s, w->tb + 33000);
	size_t k = pdf_docenc(s, w->tb);
	if (k != (size_t)-1) {
		pdf_ser_string(o, (const unsigned char *)w->tb, k);
		return;
	}
	k = pdf_utf16_bytes(w, s);
	pdf_ser_binary(o, (const unsigned char *)w->tb, k);
}
