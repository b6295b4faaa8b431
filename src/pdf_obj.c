/* pdf_obj: the pdf module's footing, which its other files call: libharu's
 * errors (the handler that longjmps back into pdf_write, status codes in
 * words, located errors about the output) and the objects they build
 * (dicts, streams, arrays; appending to a page's content stream). Every
 * helper longjmps on failure, so callers never test a result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "arena.h"
#include "pdf_int.h"
#include "utf8.h"

static const struct {
	HPDF_STATUS code;
	const char *text;
} pdf_errors[] = {
	{HPDF_FAILD_TO_ALLOC_MEM, "out of memory"},
	{HPDF_FILE_IO_ERROR, "file read or write error"},
	{HPDF_FILE_OPEN_ERROR, "cannot open the file"},
	{HPDF_FONT_EXISTS, "the font is already loaded"},
	{HPDF_INVALID_FONT_NAME, "the font has no usable name (corrupt or truncated font?)"},
	{HPDF_INVALID_IMAGE, "invalid image"},
	{HPDF_INVALID_JPEG_DATA, "invalid JPEG data"},
	{HPDF_UNSUPPORTED_JPEG_FORMAT, "unsupported JPEG format"},
	{HPDF_INVALID_PNG_IMAGE, "invalid PNG image"},
	{HPDF_LIBPNG_ERROR, "libpng could not read the PNG image"},
	{HPDF_TTF_CANNOT_EMBEDDING_FONT, "the font's licence forbids embedding"},
	{HPDF_TTF_INVALID_CMAP, "the font has no usable Unicode cmap"},
	{HPDF_TTF_INVALID_FOMAT, "not a TrueType font"},
	{HPDF_TTF_MISSING_TABLE, "a required TrueType table is missing"},
	{HPDF_UNSUPPORTED_FONT_TYPE, "unsupported font type"},
	{HPDF_INVALID_TTC_FILE, "invalid TrueType collection"},
	{HPDF_STRING_OUT_OF_RANGE, "string too long"},
	{HPDF_PAGE_INVALID_SIZE, "invalid page size"},
	{HPDF_PAGE_INVALID_FONT_SIZE, "invalid font size"},
	{HPDF_INVALID_PARAMETER, "invalid parameter"},
	{HPDF_REAL_OUT_OF_RANGE, "number out of range"},
	{HPDF_ZLIB_ERROR, "zlib compression failed"},
	{HPDF_INVALID_URI, "invalid URI"},
	{HPDF_INVALID_DATE_TIME, "invalid date"},
	{HPDF_INVALID_DOCUMENT, "invalid document (after an earlier error)"},
	{HPDF_PAGE_INVALID_GMODE, "operation not allowed here (internal error)"},
};

static const char *pdf_error_text(HPDF_STATUS code)
{
	for (size_t i = 0; i < sizeof(pdf_errors) / sizeof(pdf_errors[0]); i++)
		if (pdf_errors[i].code == code)
			return pdf_errors[i].text;
	return "libharu error";
}

void pdf_handler(HPDF_STATUS code, HPDF_STATUS detail, void *user)
{
	pw_t *w = user;
	w->code = code;
	w->detail = detail;
	longjmp(w->jb, 1);
}

/* Record an error about file (NULL: the output), with the output as context. */
int pdf_fail(pw_t *w, const char *file, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_sys(w->e, file ? file : w->path, "%s", msg);
	if (file)
		err_context(w->e, "while writing %s", w->path);
	return -1;
}

void pdf_libharu_error(pw_t *w)
{
	pdf_fail(w, w->subject, "cannot %s: %s (libharu error 0x%04X, detail %u)",
	        w->what ? w->what : "write the PDF", pdf_error_text(w->code),
	        (unsigned)w->code, (unsigned)w->detail);
}

/* Collect libharu status codes; any failure is out of memory here. */
void pdf_ok(pw_t *w, HPDF_STATUS rc)
{
	if (rc != HPDF_OK) {
		w->code = rc;
		w->detail = 0;
		longjmp(w->jb, 1);
	}
}

void *pdf_obj(pw_t *w, void *obj)
{
	if (!obj)
		pdf_ok(w, HPDF_FAILD_TO_ALLOC_MEM);
	return obj;
}

HPDF_Dict pdf_stream(pw_t *w, const void *data, size_t n)
{
	HPDF_Dict d = pdf_obj(w, HPDF_DictStream_New(w->pdf->mmgr, w->pdf->xref));
	d->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
	if (n)
		pdf_ok(w, HPDF_Stream_Write(d->stream, data, (HPDF_UINT)n));
	return d;
}

/* The held entry of object number id (zeroed when new). */
static pdf_held_t *held_at(pw_t *w, unsigned id)
{
	if (id >= w->nheld) {
		unsigned cap = w->nheld ? w->nheld : 64;
		while (cap <= id)
			cap *= 2;
		w->held = xrealloc(w->held, cap * sizeof(pdf_held_t));
		xfill(w->held + w->nheld, 0, (cap - w->nheld) * sizeof(pdf_held_t));
		w->nheld = cap;
	}
	return &w->held[id];
}

void pdf_hold(pw_t *w, HPDF_Dict d, const void *p, size_t n)
{
	*held_at(w, d->header.obj_id & 0x00FFFFFF) = (pdf_held_t){p, n, 1, 0, 0, 0, 0, 0, 0, 0};
}

unsigned pdf_obj_id(const void *obj)
{
	return obj ? ((const HPDF_Obj_Header *)obj)->obj_id & 0x00FFFFFF : 0;
}

void *pdf_raw_new(pw_t *w)
{
	void *obj = pdf_obj(w, HPDF_Null_New(w->pdf->mmgr));
	pdf_ok(w, HPDF_Xref_Add(w->pdf->xref, obj));
	return obj;
}

/* The number libharu would give its next object, taken: its xref adds
 * start_offset to the count of its entries (HPDF_Xref_Add), so moving
 * start_offset on makes it skip the number, and pdf_save finds the object
 * in w->held instead. The numbers, so the bytes, are those a libharu null
 * per object gave (pdf_raw_new), without its two allocations and its
 * xref entry to make and free (about 600 instructions each). */
unsigned pdf_num_new(pw_t *w)
{
	HPDF_Xref x = w->pdf->xref;
	unsigned id = x->start_offset + x->entries->count;
	if (id >= HPDF_LIMIT_MAX_XREF_ELEMENT)
		pdf_ok(w, HPDF_XREF_COUNT_ERR);
	x->start_offset++;
	return id;
}

void pdf_raw_begin(pw_t *w, pdf_ser_t *o)
{
	*o = (pdf_ser_t){w, &w->raw, 0};
	w->raw_start = w->raw.len;
}

void pdf_raw_end_num(pw_t *w, pdf_ser_t *o, unsigned id)
{
	(void)o;
	size_t start = w->raw_start;
	pdf_held_t *h = held_at(w, id);
	*h = (pdf_held_t){NULL, w->raw.len - start, 1, 0, 0, 0, 0, 0, 0, 0};
	h->raw = 1;
	h->off = start;
}

void pdf_raw_end(pw_t *w, pdf_ser_t *o, void *obj)
{
	pdf_raw_end_num(w, o, pdf_obj_id(obj));
}

const pdf_held_t *pdf_held(const pw_t *w, void *obj)
{
	return pdf_held_num(w, ((HPDF_Obj_Header *)obj)->obj_id & 0x00FFFFFF);
}

const pdf_held_t *pdf_held_num(const pw_t *w, unsigned id)
{
	return id < w->nheld && w->held[id].set ? &w->held[id] : NULL;
}

void *pdf_raw_stream(pw_t *w, const void *p, size_t n, const char *dict, int flate)
{
	void *obj = pdf_raw_new(w);
	size_t off = w->raw.len, dn = strlen(dict);
	buf_add(&w->raw, dict, dn);
	pdf_hold(w, obj, p, n);
	pdf_held_t *h = &w->held[pdf_obj_id(obj)];
	h->stream = 1;
	h->flate = flate;
	h->off = off;
	h->dn = dn;
	/* the number libharu's /Length object took stays free, so every later
	   object keeps the number it had (deflate is not indifferent to that) */
	h = held_at(w, pdf_num_new(w));
	h->set = 1;
	h->free = 1;
	return obj;
}

buf_t *pdf_buf(pw_t *w)
{
	w->bufs = xrealloc(w->bufs, sizeof(buf_t *) * (size_t)(w->nbufs + 1));
	buf_t *b = w->bufs[w->nbufs++] = xmalloc(sizeof(buf_t));
	buf_init(b);
	return b;
}

HPDF_Array pdf_array(pw_t *w)
{
	return pdf_obj(w, HPDF_Array_New(w->pdf->mmgr));
}

/* Append to the page's content stream: our buffer (w->content), held
 * for the page's /Contents when the page is done; libharu's own stream for
 * it stays empty (no libharu page operator is used). */
void pdf_put_raw(pw_t *w, const char *s, size_t n)
{
	buf_t *b = &w->content[w->pageno];
	if (b->len + n + 1 > b->cap) {
		buf_add(b, s, n);
		return;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* Anything else written to the page ends pdf.c's open TJ array first, so
 * a state change, marked content or ET never lands inside one. */
void pdf_put(pw_t *w, const char *s, size_t n)
{
	if (w->tj) {
		w->tj = 0;
		pdf_put_raw(w, "]TJ\n", 4);
	}
	pdf_put_raw(w, s, n);
}

/* libharu refuses strings of 65,535 bytes or more (and counts them again
 * as UTF-16): metadata and outline titles longer than META_MAX bytes are
 * cut at a character boundary into tmp (w->tb: no heap memory to lose
 * when libharu's error handler jumps out). */
const char *pdf_meta_clip(const char *s, char tmp[META_MAX + 1])
{
	size_t n = strlen(s);
	if (n <= META_MAX)
		return s;
	n = META_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return tmp;
}

/* s (UTF-8, at most META_MAX bytes) as a UTF-16BE string with its byte
 * order mark, built in w->tb: META_MAX bytes take at most 32,002. */
size_t pdf_utf16_bytes(pw_t *w, const char *s)
{
	unsigned char *o = (unsigned char *)w->tb;
	size_t k = 0, n = strlen(s);
	o[k++] = 0xFE;
	o[k++] = 0xFF;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(s + i, n - i, &cp);
		if (l <= 0)
			break;
		i += (size_t)l;
		uint32_t u[2];
		int nu = utf16_units(cp, u);
		for (int j = 0; j < nu; j++) {
			o[k++] = (unsigned char)(u[j] >> 8);
			o[k++] = (unsigned char)u[j];
		}
	}
	return k;
}

void *pdf_utf16(pw_t *w, const char *s)
{
	size_t k = pdf_utf16_bytes(w, s);
	return pdf_obj(w, HPDF_Binary_New(w->pdf->mmgr, (HPDF_BYTE *)w->tb, (HPDF_UINT)k));
}

/* A text string (Info, outline titles, /Alt, /Contents): a literal in
 * PDFDocEncoding when every character has a code there (a quarter of the
 * size of UTF-16BE hex), else UTF-16BE (ours: libharu's UTF-8 encoder costs 1.4 M instructions
 * to set up and drops characters beyond the BMP). Over META_MAX bytes,
 * cut at a character boundary. */
void *pdf_text(pw_t *w, const char *s)
{
	/* the cut copy lies beyond the 32,002 bytes pdf_utf16 writes */
	s = pdf_meta_clip(s, w->tb + 33000);
	if (pdf_docenc(s, w->tb) != (size_t)-1)
		return pdf_obj(w, HPDF_String_New(w->pdf->mmgr, w->tb, NULL));
	return pdf_utf16(w, s);
}

/* PDFDocEncoding (PDF 1.7, Annex D) of the characters beyond ASCII that
 * CV metadata has: Latin-1 (but U+00A0 and U+00AD) and typographic
 * punctuation; 0 for the rest. */
static unsigned char docenc_char(uint32_t cp)
{
	static const struct {
		uint16_t cp;
		unsigned char b;
	} extra[] = {
		{0x2022, 0x80}, {0x2020, 0x81}, {0x2021, 0x82}, {0x2026, 0x83}, {0x2014, 0x84},
		{0x2013, 0x85}, {0x2039, 0x88}, {0x203A, 0x89}, {0x2212, 0x8A}, {0x2030, 0x8B},
		{0x201E, 0x8C}, {0x201C, 0x8D}, {0x201D, 0x8E}, {0x2018, 0x8F}, {0x2019, 0x90},
		{0x201A, 0x91}, {0x2122, 0x92}, {0x0141, 0x95}, {0x0152, 0x96}, {0x0160, 0x97},
		{0x0178, 0x98}, {0x017D, 0x99}, {0x0131, 0x9A}, {0x0142, 0x9B}, {0x0153, 0x9C},
		{0x0161, 0x9D}, {0x017E, 0x9E}, {0x20AC, 0xA0},
	};
	if (cp >= 0x20 && cp < 0x7F)
		return (unsigned char)cp;
	if (cp >= 0xA1 && cp <= 0xFF && cp != 0xAD)
		return (unsigned char)cp;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		if (extra[i].cp == cp)
			return extra[i].b;
	return 0;
}

/* s (valid UTF-8) in PDFDocEncoding into out (strlen(s) + 1 bytes at
 * most, NUL-terminated): its length, or (size_t)-1 when a character has
 * no PDFDocEncoding code (then UTF-16BE is written). The same text in
 * fewer bytes than UTF-16BE's four hex digits a character. */
size_t pdf_docenc(const char *s, char *out)
{
	size_t k = 0, n = strlen(s);
	for (size_t i = 0; i < n;) {
		uint32_t cp = (unsigned char)s[i];
		int l = 1;
		if (cp >= 0x80 && (l = utf8_decode(s + i, n - i, &cp)) <= 0)
			return (size_t)-1;
		unsigned char b = docenc_char(cp);
		if (!b)
			return (size_t)-1;
		out[k++] = (char)b;
		i += (size_t)l;
	}
	out[k] = '\0';
	return k;
}

/* v / 10^d with up to d decimals, trailing zeros dropped (pdf_int.h):
 * what printf("%.*f") then stripping zeros gives for an exact decimal,
 * without printf (content streams and objects are mostly numbers). Digits
 * are written backwards from the end of t, two at a time. */
static const char digits2[] = "00010203040506070809101112131415161718192021222324"
                              "25262728293031323334353637383940414243444546474849"
                              "50515253545556575859606162636465666768697071727374"
                              "75767778798081828384858687888990919293949596979899";

static char *put_digits(char *e, uint64_t a)
{
	while (a >= 100) {
		unsigned r = (unsigned)(a % 100);
		a /= 100;
		e -= 2;
		memcpy(e, digits2 + 2 * r, 2);
	}
	if (a >= 10) {
		e -= 2;
		memcpy(e, digits2 + 2 * a, 2);
	} else {
		*--e = (char)('0' + a);
	}
	return e;
}

int pdf_num(char *o, int64_t v, int d)
{
	static const uint64_t pow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
	                                 100000000, 1000000000};
	char t[48], *e = t + sizeof(t), *b;
	uint64_t a = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (d > 9)
		d = 9;
	if (d > 0) {
		uint64_t p = pow10[d], f = a % p;
		a /= p;
		if (f) {
			while (f % 10 == 0) { /* trailing zeros dropped */
				f /= 10;
				d--;
			}
			b = put_digits(e, f);
			while (e - b < d) /* leading zeros kept */
				*--b = '0';
			*--b = '.';
			e = b;
		}
	}
	b = put_digits(e, a);
	int k = 0;
	if (v < 0 && (t + sizeof(t) - b > 1 || *b != '0'))
		o[k++] = '-';
	size_t n = (size_t)(t + sizeof(t) - b);
	memcpy(o + k, b, n);
	return k + (int)n;
}
