/* pdf_obj: the pdf module's footing, which its other files call: libharu's
 * errors (the handler that longjmps back into pdf_write, status codes in
 * words, located errors about the output) and the objects they build
 * (dicts, streams, arrays; appending to a page's content stream). Every
 * helper longjmps on failure, so callers never test a result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include "pdf_int.h"

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

HPDF_Array pdf_array(pw_t *w)
{
	return pdf_obj(w, HPDF_Array_New(w->pdf->mmgr));
}

/* Append to the page's content stream (libharu's operators write there
 * too; text goes straight in, as CIDs, since our fonts are not libharu
 * fonts). */
void pdf_put(pw_t *w, const char *s, size_t n)
{
	HPDF_PageAttr a = (HPDF_PageAttr)w->page->attr;
	pdf_ok(w, HPDF_Stream_Write(a->stream, (const HPDF_BYTE *)s, (HPDF_UINT)n));
}
