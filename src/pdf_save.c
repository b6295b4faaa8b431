/* pdf_save: the file itself, written here instead of by HPDF_SaveToStream,
 * which knows only PDF 1.3-style output (every object at top level, a
 * classic xref table, a trailer without /ID unless PDF/A-1 mode makes one
 * from the clock).
 *
 *   pdf_save(w);   after every object exists; writes w->fd
 *
 * Layout of the file (PDF 1.7, 7.5.7-7.5.8):
 *   %PDF-1.7 and a binary comment line;
 *   every stream object of libharu's xref, in object order, written by
 *   libharu (HPDF_Obj_WriteValue: its filters, its /Length objects);
 *   one object stream (FlateDecode) holding every other object -- the
 *   many small dictionaries of fonts, pages, outline and structure tree;
 *   a cross-reference stream (FlateDecode) with /Root, /Info and /ID.
 * /ID is the MD5 of every byte before the cross-reference stream, so it
 * follows the content and the same page list gives the same file.
 * Streams never go into the object stream, and the object stream's own
 * /Length is direct, as 7.5.7 requires.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "arena.h"
#include "buf.h"
#include "pdf_int.h"

static int is_stream(void *obj)
{
	HPDF_Obj_Header *h = obj;
	return (h->obj_class & HPDF_OCLASS_ANY) == HPDF_OCLASS_DICT && ((HPDF_Dict)obj)->stream;
}

static void put(pw_t *w, HPDF_Stream s, const char *str)
{
	pdf_ok(w, HPDF_Stream_WriteStr(s, str));
}

/* Append the bytes of memory stream src to dst. */
static void append(pw_t *w, HPDF_Stream dst, HPDF_Stream src)
{
	HPDF_UINT n = HPDF_MemStream_GetBufCount(src);
	for (HPDF_UINT i = 0; i < n; i++) {
		HPDF_UINT len = 0;
		HPDF_BYTE *p = HPDF_MemStream_GetBufPtr(src, i, &len);
		if (p && len)
			pdf_ok(w, HPDF_Stream_Write(dst, p, len));
	}
}

/* The bytes of memory stream src in one piece (valid until the next call). */
static const unsigned char *gather(HPDF_Stream src, size_t *n)
{
	static unsigned char *all;
	static size_t cap;
	HPDF_UINT nb = HPDF_MemStream_GetBufCount(src), len = 0;
	size_t size = HPDF_Stream_Size(src);
	*n = size;
	if (nb == 1)
		return HPDF_MemStream_GetBufPtr(src, 0, &len);
	if (size + 1 > cap) {
		cap = size + 1;
		all = xrealloc(all, cap);
	}
	size_t at = 0;
	for (HPDF_UINT i = 0; i < nb && at < size; i++) {
		HPDF_BYTE *p = HPDF_MemStream_GetBufPtr(src, i, &len);
		if (len > size - at)
			len = (HPDF_UINT)(size - at);
		if (p && len)
			memcpy(all + at, p, len);
		at += len;
	}
	*n = at;
	return all;
}

/* src deflated (libdeflate, pdf_deflate.c) */
static const unsigned char *deflated(pw_t *w, HPDF_Stream src, size_t *zn)
{
	size_t n;
	const unsigned char *in = gather(src, &n), *z = NULL;
	*zn = pdf_deflate(in ? in : (const unsigned char *)"", in ? n : 0, &z);
	if (!*zn)
		pdf_fail(w, NULL, "cannot compress a stream");
	return z;
}

/* "N 0 obj <<dict /Filter /FlateDecode /Length L>> stream ... endstream
 * endobj" with data deflated from memory stream src. */
static void flate_object(pw_t *w, HPDF_Stream out, unsigned num, const char *dict,
                         HPDF_Stream src)
{
	size_t zn;
	const unsigned char *z = deflated(w, src, &zn);
	char buf[64];
	snprintf(buf, sizeof(buf), "%u 0 obj\n<<", num);
	put(w, out, buf);
	put(w, out, dict);
	snprintf(buf, sizeof(buf), "/Filter/FlateDecode/Length %u>>\nstream\r\n", (unsigned)zn);
	put(w, out, buf);
	pdf_ok(w, HPDF_Stream_Write(out, z, (HPDF_UINT)zn));
	put(w, out, "\nendstream\nendobj\n");
}

/* A FlateDecode stream dictionary written as libharu's HPDF_Dict_Write
 * writes it (the same /Filter array, the indirect /Length, the same
 * separators), with the data deflated by pdf_deflate instead of zlib.
 * 0 when it did; -1 for a stream libharu must write (other filters,
 * parameters, write hooks). */
static int flate_stream(pw_t *w, HPDF_Stream out, HPDF_Dict d)
{
	if (d->filter != HPDF_STREAM_FILTER_FLATE_DECODE || d->filterParams ||
	    d->before_write_fn || d->write_fn || d->after_write_fn)
		return -1;
	HPDF_Number length = HPDF_Dict_GetItem(d, "Length", HPDF_OCLASS_NUMBER);
	if (!length || !(length->header.obj_id & HPDF_OTYPE_INDIRECT))
		return -1;
	HPDF_Array f = HPDF_Dict_GetItem(d, "Filter", HPDF_OCLASS_ARRAY);
	if (!f) {
		f = pdf_array(w);
		pdf_ok(w, HPDF_Dict_Add(d, "Filter", f));
	}
	HPDF_Array_Clear(f);
	pdf_ok(w, HPDF_Array_AddName(f, "FlateDecode"));
	size_t zn;
	const unsigned char *z = deflated(w, d->stream, &zn);
	HPDF_Stream data = d->stream;
	d->stream = NULL;   /* the dictionary alone */
	HPDF_STATUS st = HPDF_Dict_Write(d, out, NULL);
	d->stream = data;
	pdf_ok(w, st);
	put(w, out, "\nstream\r\n");
	pdf_ok(w, HPDF_Stream_Write(out, z, (HPDF_UINT)zn));
	HPDF_Number_SetValue(length, (HPDF_INT32)zn);
	put(w, out, "\nendstream");
	return 0;
}

static unsigned width_of(uint64_t v)
{
	unsigned n = 1;
	while (v >>= 8)
		n++;
	return n;
}

static void put_field(unsigned char *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> 8 * (n - 1 - i));
}

static unsigned obj_num(void *obj)
{
	return obj ? ((HPDF_Obj_Header *)obj)->obj_id & 0x00FFFFFF : 0;
}

int pdf_save(pw_t *w)
{
	w->what = "save the PDF";
	HPDF_Doc pdf = w->pdf;
	HPDF_Xref x = pdf->xref;
	for (int i = 0; i < 3; i++)
		w->scratch[i] = pdf_obj(w, HPDF_MemStream_New(pdf->mmgr, 32768));
	/* pdf->stream is freed with the document, even after a jump */
	if (!pdf->stream)
		pdf->stream = pdf_obj(w, HPDF_MemStream_New(pdf->mmgr, 65536));
	HPDF_Stream out = pdf->stream, body = w->scratch[0], head = w->scratch[1];
	HPDF_MemStream_FreeData(out);
	unsigned n = x->entries->count; /* objects 1..n-1, then ours */
	unsigned objstm = n, xrefno = n + 1;
	/* per object: 1 = at offset off[i]; 2 = index off[i] in the object stream */
	uint64_t *off = w->offsets = xrealloc(w->offsets, sizeof(uint64_t) * (n + 2));
	unsigned char *type = w->types = xrealloc(w->types, n + 2);
	memset(type, 0, n + 2);

	put(w, out, "%PDF-1.7\n%\xb7\xbe\xad\xaa\n");
	for (unsigned i = 1; i < n; i++) {
		HPDF_XrefEntry e = HPDF_Xref_GetEntry(x, i);
		if (!is_stream(e->obj))
			continue;
		char buf[32];
		type[i] = 1;
		off[i] = HPDF_Stream_Size(out);
		snprintf(buf, sizeof(buf), "%u 0 obj\n", i);
		put(w, out, buf);
		if (flate_stream(w, out, e->obj) < 0)
			pdf_ok(w, HPDF_Obj_WriteValue(e->obj, out, NULL));
		put(w, out, "\nendobj\n");
	}
	/* the others, after the streams: their /Length numbers are known now */
	unsigned count = 0;
	for (unsigned i = 1; i < n; i++) {
		HPDF_XrefEntry e = HPDF_Xref_GetEntry(x, i);
		if (is_stream(e->obj))
			continue;
		char buf[32];
		snprintf(buf, sizeof(buf), "%s%u %u", count ? " " : "", i,
		         (unsigned)HPDF_Stream_Size(body));
		put(w, head, buf);
		pdf_ok(w, HPDF_Obj_WriteValue(e->obj, body, NULL));
		put(w, body, "\n");
		type[i] = 2;
		off[i] = count++;
	}
	put(w, head, "\n");
	unsigned first = (unsigned)HPDF_Stream_Size(head);
	append(w, head, body);
	char dict[96];
	snprintf(dict, sizeof(dict), "/Type/ObjStm/N %u/First %u", count, first);
	type[objstm] = 1;
	off[objstm] = HPDF_Stream_Size(out);
	flate_object(w, out, objstm, dict, head);

	/* the cross-reference stream */
	uint64_t at = HPDF_Stream_Size(out);
	type[xrefno] = 1;
	off[xrefno] = at;
	HPDF_MD5_CTX md5;
	HPDF_MD5Init(&md5);
	HPDF_UINT nb = HPDF_MemStream_GetBufCount(out);
	for (HPDF_UINT i = 0; i < nb; i++) {
		HPDF_UINT len = 0;
		HPDF_BYTE *p = HPDF_MemStream_GetBufPtr(out, i, &len);
		if (p && len)
			HPDF_MD5Update(&md5, p, len);
	}
	HPDF_BYTE id[16];
	HPDF_MD5Final(id, &md5);
	unsigned w2 = width_of(at > n + 1 ? at : n + 1), w3 = 2, cols = 1 + w2 + w3;
	HPDF_Stream xs = w->scratch[0];
	HPDF_MemStream_FreeData(xs);
	/* rows through the PNG "Up" predictor: each byte minus the one above,
	   so the runs of type-2 entries and close offsets deflate to little */
	unsigned char prev[16] = {0};
	for (unsigned i = 0; i < n + 2; i++) {
		unsigned char rec[16], row[17];
		rec[0] = type[i];
		put_field(rec + 1, type[i] == 2 ? objstm : type[i] == 1 ? off[i] : 0, w2);
		put_field(rec + 1 + w2, type[i] == 2 ? off[i] : type[i] == 1 ? 0 : 65535, w3);
		row[0] = 2;
		for (unsigned k = 0; k < cols; k++)
			row[1 + k] = (unsigned char)(rec[k] - prev[k]);
		memcpy(prev, rec, cols);
		pdf_ok(w, HPDF_Stream_Write(xs, row, 1 + cols));
	}
	char xd[256], hex[33];
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	int k = snprintf(xd, sizeof(xd), "/Type/XRef/Size %u/W[1 %u %u]/DecodeParms<</Predictor 12"
	                 "/Columns %u>>/Root %u 0 R", n + 2, w2, w3, cols, obj_num(pdf->catalog));
	if (pdf->info)
		k += snprintf(xd + k, sizeof(xd) - (size_t)k, "/Info %u 0 R", obj_num(pdf->info));
	snprintf(xd + k, sizeof(xd) - (size_t)k, "/ID[<%s><%s>]", hex, hex);
	flate_object(w, out, xrefno, xd, xs);
	char tail[48];
	snprintf(tail, sizeof(tail), "startxref\n%llu\n%%%%EOF\n", (unsigned long long)at);
	put(w, out, tail);

	nb = HPDF_MemStream_GetBufCount(out);
	for (HPDF_UINT i = 0; i < nb; i++) {
		HPDF_UINT len = 0;
		HPDF_BYTE *p = HPDF_MemStream_GetBufPtr(out, i, &len);
		if (p && len && buf_write_fd(w->fd, p, len) < 0)
			return pdf_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
	}
	return 0;
}
