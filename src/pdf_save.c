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
 * /ID is a 128-bit hash of every byte before the cross-reference stream, so it
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
	return h && (h->obj_class & HPDF_OCLASS_ANY) == HPDF_OCLASS_DICT && ((HPDF_Dict)obj)->stream;
}

static void put(buf_t *b, const char *str)
{
	buf_puts(b, str);
}

static void put_uint(buf_t *b, uint64_t v)
{
	char t[24];
	buf_add(b, t, (size_t)pdf_num(t, (int64_t)v, 0));
}

/* libharu writes obj (as a value) into scratch stream 2; appended to b. */
static void libharu_write(pw_t *w, void *obj, buf_t *b)
{
	HPDF_Stream st = w->scratch[2];
	HPDF_MemStream_FreeData(st);
	pdf_ok(w, HPDF_Obj_WriteValue(obj, st, NULL));
	HPDF_UINT nb = HPDF_MemStream_GetBufCount(st);
	for (HPDF_UINT i = 0; i < nb; i++) {
		HPDF_UINT len = 0;
		HPDF_BYTE *p = HPDF_MemStream_GetBufPtr(st, i, &len);
		if (p && len)
			buf_add(b, (const char *)p, len);
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
static const unsigned char *deflate_bytes(pw_t *w, const void *in, size_t n, int level,
                                          size_t *zn)
{
	const unsigned char *z = NULL;
	*zn = pdf_deflate(in ? in : "", in ? n : 0, level, &z);
	if (!*zn)
		pdf_fail(w, NULL, "cannot compress a stream");
	return z;
}

static const unsigned char *deflated(pw_t *w, HPDF_Stream src, size_t *zn)
{
	size_t n;
	const unsigned char *in = gather(src, &n);
	return deflate_bytes(w, in, n, PDF_Z_BEST, zn);
}

/* ---- libharu's objects, serialized here ----
 *
 * HPDF_Obj_WriteValue costs about 9,000 instructions per object (a
 * stream call per token, a pretty-printed layout): a 250-publication CV
 * has 2,000 objects. This writes the same values compactly into a buf_t:
 * a space only between two tokens that need one ("/Type/Page/Count 3").
 * Anything it does not know (a string with an encoder, a dictionary with
 * write hooks or a stream) goes through libharu's writer. */


/* libharu's writer for what ser_value does not know. */
static void ser_libharu(pdf_ser_t *o, void *obj)
{
	if (o->reg)
		buf_add(o->b, " ", 1);
	libharu_write(o->w, obj, o->b);
	o->reg = 1; /* a space after it, to be safe */
}

static void ser_value(pdf_ser_t *o, void *obj);

/* A page's /Annots (pdf_annots_t) when arr is one: its references. */
static int annots_put(pdf_ser_t *o, void *arr)
{
	pw_t *w = o->w;
	for (int p = 0; w->annots && p < w->doc->npages; p++) {
		const pdf_annots_t *pa = &w->annots[p];
		if (pa->arr != arr)
			continue;
		pdf_ser_tok(o, "[", 1, 0, 0);
		for (int i = 0; i < pa->n; i++)
			pdf_ser_ref(o, pa->ids[i]);
		pdf_ser_tok(o, "]", 1, 0, 0);
		return 1;
	}
	return 0;
}

/* obj inside a container: a reference when it is (a proxy of) an
 * indirect object, else its value. */
static void ser_item(pdf_ser_t *o, void *obj)
{
	HPDF_Obj_Header *h = obj;
	if ((h->obj_class & HPDF_OCLASS_ANY) == HPDF_OCLASS_PROXY)
		h = ((HPDF_Proxy)obj)->obj;
	if (h->obj_id & HPDF_OTYPE_INDIRECT && !h->gen_no) {
		pdf_ser_ref(o, h->obj_id & 0x00FFFFFF);
	} else if (h->obj_id & HPDF_OTYPE_INDIRECT) {
		pdf_ser_int(o, h->obj_id & 0x00FFFFFF);
		pdf_ser_int(o, h->gen_no);
		pdf_ser_tok(o, "R", 1, 1, 1);
	} else {
		ser_value(o, h);
	}
}

static void ser_value(pdf_ser_t *o, void *obj)
{
	HPDF_Obj_Header *h = obj;
	switch (h->obj_class & HPDF_OCLASS_ANY) {
	case HPDF_OCLASS_NULL: pdf_ser_tok(o, "null", 4, 1, 1); return;
	case HPDF_OCLASS_BOOLEAN:
		if (((HPDF_Boolean)obj)->value)
			pdf_ser_tok(o, "true", 4, 1, 1);
		else
			pdf_ser_tok(o, "false", 5, 1, 1);
		return;
	case HPDF_OCLASS_NUMBER: pdf_ser_int(o, ((HPDF_Number)obj)->value); return;
	case HPDF_OCLASS_REAL: pdf_ser_real(o, ((HPDF_Real)obj)->value); return;
	case HPDF_OCLASS_NAME: pdf_ser_name(o, ((HPDF_Name)obj)->value); return;
	case HPDF_OCLASS_STRING: {
		HPDF_String str = obj;
		if (str->encoder)
			ser_libharu(o, obj);
		else
			pdf_ser_string(o, str->value, str->len);
		return;
	}
	case HPDF_OCLASS_BINARY:
		pdf_ser_binary(o, ((HPDF_Binary)obj)->value, ((HPDF_Binary)obj)->len);
		return;
	case HPDF_OCLASS_ARRAY: {
		HPDF_List l = ((HPDF_Array)obj)->list;
		if (!l->count && annots_put(o, obj))
			return;
		pdf_ser_tok(o, "[", 1, 0, 0);
		for (HPDF_UINT i = 0; i < l->count; i++)
			ser_item(o, l->obj[i]);
		pdf_ser_tok(o, "]", 1, 0, 0);
		return;
	}
	case HPDF_OCLASS_DICT: {
		HPDF_Dict d = obj;
		if (d->stream || d->write_fn || d->after_write_fn) {
			ser_libharu(o, obj);
			return;
		}
		if (d->before_write_fn)
			pdf_ok(o->w, d->before_write_fn(d));
		pdf_ser_tok(o, "<<", 2, 0, 0);
		for (HPDF_UINT i = 0; i < d->list->count; i++) {
			HPDF_DictElement e = d->list->obj[i];
			HPDF_Obj_Header *v = e->value;
			if (!v)
				pdf_ok(o->w, HPDF_INVALID_OBJECT);
			if (v->obj_id & HPDF_OTYPE_HIDDEN)
				continue;
			pdf_ser_name(o, e->key);
			ser_item(o, v);
		}
		pdf_ser_tok(o, ">>", 2, 0, 0);
		return;
	}
	default: ser_libharu(o, obj); return;
	}
}

/* The value of object obj (held as h, or NULL) appended to b. */
static void ser_object(pw_t *w, buf_t *b, void *obj, const pdf_held_t *h)
{
	pdf_ser_t o = {w, b, 0};
	if (h && h->raw) {
		buf_add(b, w->raw.s + h->off, h->n);
		return;
	}
	if (!obj) /* a number of pdf_num_new that was never written */
		pdf_ok(w, HPDF_INVALID_OBJECT);
	ser_value(&o, obj);
}

/* "N 0 obj <<dict /Filter /FlateDecode /Length L>> stream ... endstream
 * endobj" with data deflated. */
static void flate_object(pw_t *w, buf_t *out, unsigned num, const char *dict,
                         const void *data, size_t n, int level)
{
	size_t zn;
	const unsigned char *z = deflate_bytes(w, data, n, level, &zn);
	put_uint(out, num);
	buf_add(out, " 0 obj\n<<", 9);
	put(out, dict);
	buf_add(out, "/Filter/FlateDecode/Length ", 27);
	put_uint(out, zn);
	buf_add(out, ">>\nstream\r\n", 11);
	buf_add(out, (const char *)z, zn);
	buf_add(out, "\nendstream\nendobj\n", 18);
}

/* A raw stream (pdf_raw_stream): "N 0 obj <<entries /Filter/FlateDecode
 * /Length L>> stream ... endstream endobj", the data deflated (or as it
 * is, without /Filter). */
static void raw_stream(pw_t *w, buf_t *out, unsigned num, const pdf_held_t *h)
{
	const unsigned char *z = h->p ? h->p : (const unsigned char *)"";
	size_t zn = h->p ? h->n : 0;
	if (h->flate == PDF_Z_DONE) {
		/* as it is */
	} else if (h->flate && h->konst) {
		if (!(zn = pdf_deflate_const(z, zn, &z)))
			pdf_fail(w, NULL, "cannot compress a stream");
	} else if (h->flate) {
		z = deflate_bytes(w, z, zn, h->flate, &zn);
	}
	put_uint(out, num);
	buf_add(out, " 0 obj\n<<", 9);
	buf_add(out, w->raw.s + h->off, h->dn);
	if (h->flate)
		buf_add(out, "/Filter/FlateDecode", 19);
	buf_add(out, "/Length ", 8);
	put_uint(out, zn);
	buf_add(out, ">>\nstream\r\n", 11);
	buf_add(out, (const char *)z, zn);
	buf_add(out, "\nendstream\nendobj\n", 18);
}

/* A FlateDecode stream dictionary (the same /Filter array and indirect
 * /Length libharu writes; our serializer), with the data deflated by
 * pdf_deflate instead of zlib: the data pdf_hold gave, else the dict's
 * libharu stream.
 * 0 when it did; -1 for a stream libharu must write (other filters,
 * parameters, write hooks). */
static int flate_stream(pw_t *w, buf_t *out, HPDF_Dict d)
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
	const pdf_held_t *h = pdf_held(w, d);
	const unsigned char *z;
	if (h && h->konst) {
		z = NULL;
		if (!(zn = pdf_deflate_const(h->p ? h->p : "", h->p ? h->n : 0, &z)))
			pdf_fail(w, NULL, "cannot compress a stream");
	} else {
		z = h ? deflate_bytes(w, h->p, h->n, w->zcontent, &zn) : deflated(w, d->stream, &zn);
	}
	HPDF_Stream data = d->stream;
	d->stream = NULL;   /* the dictionary alone */
	ser_object(w, out, d, h);
	d->stream = data;
	buf_add(out, "\nstream\r\n", 9);
	buf_add(out, (const char *)z, zn);
	HPDF_Number_SetValue(length, (HPDF_INT32)zn);
	buf_add(out, "\nendstream", 10);
	return 0;
}

/* The /ID: a 128-bit hash of the bytes (two multiply-rotate lanes over
 * 8-byte words, then mixed with the length). MD5 cost ten times as much
 * and an identifier needs no cryptographic strength. */
typedef struct id_hash {
	uint64_t h[2];
	unsigned char tail[8];
	unsigned ntail;
	uint64_t len;
} id_hash_t;

static uint64_t id_rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static void id_word(id_hash_t *s, uint64_t v)
{
	s->h[0] = id_rotl((s->h[0] ^ v) * 0x87C37B91114253D5u, 31);
	s->h[1] = id_rotl((s->h[1] + v) * 0x4CF5AD432745937Fu, 29) ^ s->h[0];
}

static uint64_t id_le64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static void id_update(id_hash_t *s, const unsigned char *p, size_t n)
{
	s->len += n;
	while (n && s->ntail) {
		s->tail[s->ntail++] = *p++;
		n--;
		if (s->ntail == 8) {
			id_word(s, id_le64(s->tail));
			s->ntail = 0;
		}
	}
	for (; n >= 8; p += 8, n -= 8)
		id_word(s, id_le64(p));
	while (n--)
		s->tail[s->ntail++] = *p++;
}

static uint64_t id_mix(uint64_t x)
{
	x = (x ^ x >> 33) * 0xFF51AFD7ED558CCDu;
	x = (x ^ x >> 33) * 0xC4CEB9FE1A85EC53u;
	return x ^ x >> 33;
}

static void id_final(id_hash_t *s, unsigned char out[16])
{
	memset(s->tail + s->ntail, 0, 8 - s->ntail);
	id_word(s, id_le64(s->tail) ^ (uint64_t)s->ntail << 59);
	uint64_t a = id_mix(s->h[0] ^ s->len), b = id_mix(s->h[1] + a);
	a = id_mix(a + b);
	for (int i = 0; i < 8; i++) {
		out[i] = (unsigned char)(a >> 8 * i);
		out[8 + i] = (unsigned char)(b >> 8 * i);
	}
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

static const char hexdig[] = "0123456789abcdef";

enum { SAVE_ROOM = 96 * 1024 };

int pdf_save(pw_t *w)
{
	w->what = "save the PDF";
	HPDF_Doc pdf = w->pdf;
	HPDF_Xref x = pdf->xref;
	w->scratch[2] = pdf_obj(w, HPDF_MemStream_New(pdf->mmgr, 4096)); /* libharu_write */
	buf_t *out = &w->file;
	buf_reset(out);
	/* objects 1..n-1 (libharu's and pdf_num_new's), then ours */
	unsigned n = x->start_offset + x->entries->count;
	unsigned objstm = n, xrefno = n + 1;
	/* per object: 1 = at offset off[i]; 2 = index off[i] in the object stream */
	uint64_t *off = w->offsets = xrealloc(w->offsets, sizeof(uint64_t) * (n + 2));
	unsigned char *type = w->types = xrealloc(w->types, n + 2);
	memset(type, 0, n + 2);
	void **objs = w->objs = xrealloc(w->objs, sizeof(void *) * n);
	memset(objs, 0, sizeof(void *) * n);
	for (unsigned i = 1; i < x->entries->count; i++) {
		void *obj = HPDF_Xref_GetEntry(x, i)->obj;
		objs[obj_num(obj)] = obj;
	}

	size_t all = 0; /* the page contents' bytes: their level (pdf_int.h) */
	for (int p = 0; w->content && p < w->doc->npages; p++)
		all += w->content[p].len;
	w->zcontent = all > PDF_Z_LAZY_CONTENT ? PDF_Z_LAZY : PDF_Z_CONTENT;
	/* room for a 2-page CV's file (25 to 62 KB) at once: grown by doubling
	   from 64 bytes, the copies of its last few steps were 48 K
	   instructions (callgrind counts glibc's rep movsb above 8 KB at one
	   a byte) */
	buf_grow(out, SAVE_ROOM + all / 2);
	put(out, "%PDF-1.7\n%\xb7\xbe\xad\xaa\n");
	for (unsigned i = 1; i < n; i++) {
		void *obj = objs[i];
		const pdf_held_t *h = pdf_held_num(w, i);
		if (!is_stream(obj) && !(h && h->stream))
			continue;
		type[i] = 1;
		off[i] = out->len;
		if (h && h->stream) {
			raw_stream(w, out, i, h);
			continue;
		}
		put_uint(out, i);
		buf_add(out, " 0 obj\n", 7);
		if (flate_stream(w, out, obj) < 0)
			libharu_write(w, obj, out);
		buf_add(out, "\nendobj\n", 8);
	}
	/* the others, after the streams: their /Length numbers are known now */
	buf_t *head = &w->sbuf[0], *body = &w->sbuf[1];
	buf_reset(head);
	buf_reset(body);
	unsigned count = 0;
	for (unsigned i = 1; i < n; i++) {
		void *obj = objs[i];
		const pdf_held_t *h = pdf_held_num(w, i);
		if (is_stream(obj) || (h && (h->stream || h->free)))
			continue;
		if (count)
			buf_add(head, " ", 1);
		put_uint(head, i);
		buf_add(head, " ", 1);
		put_uint(head, body->len);
		ser_object(w, body, obj, h);
		buf_add(body, "\n", 1);
		type[i] = 2;
		off[i] = count++;
	}
	buf_add(head, "\n", 1);
	unsigned first = (unsigned)head->len;
	buf_add(head, body->s ? body->s : "", body->len);
	char dict[96];
	snprintf(dict, sizeof(dict), "/Type/ObjStm/N %u/First %u", count, first);
	type[objstm] = 1;
	off[objstm] = out->len;
	flate_object(w, out, objstm, dict, head->s, head->len, PDF_Z_OBJSTM);

	/* the cross-reference stream */
	uint64_t at = out->len;
	type[xrefno] = 1;
	off[xrefno] = at;
	id_hash_t ih = {{0x9E3779B97F4A7C15u, 0xC2B2AE3D27D4EB4Fu}, {0}, 0, 0};
	id_update(&ih, (const unsigned char *)out->s, out->len);
	HPDF_BYTE id[16];
	id_final(&ih, id);
	unsigned w2 = width_of(at > n + 1 ? at : n + 1), w3 = 2, cols = 1 + w2 + w3;
	buf_t *xs = &w->sbuf[0];
	buf_reset(xs);
	/* rows through the PNG "Up" predictor: each byte minus the one above,
	   so the runs of type-2 entries and close offsets deflate to little */
	/* free entries (type 0): object 0 and the numbers kept free, each
	   linked to the next free one, the last back to 0 (7.5.4) */
	unsigned next_free = 0;
	for (unsigned i = n + 1; i > 0; i--)
		if (!type[i]) {
			off[i] = next_free;
			next_free = i;
		}
	off[0] = next_free;
	unsigned char prev[16] = {0};
	for (unsigned i = 0; i < n + 2; i++) {
		unsigned char rec[16], row[17];
		rec[0] = type[i];
		put_field(rec + 1, type[i] == 2 ? objstm : off[i], w2);
		put_field(rec + 1 + w2, type[i] == 2 ? off[i] : type[i] == 1 ? 0 : i ? 1 : 65535, w3);
		row[0] = 2;
		for (unsigned k = 0; k < cols; k++)
			row[1 + k] = (unsigned char)(rec[k] - prev[k]);
		memcpy(prev, rec, cols);
		buf_add(xs, (const char *)row, 1 + cols);
	}
	char xd[256], hex[33];
	for (int i = 0; i < 16; i++) {
		hex[2 * i] = hexdig[id[i] >> 4];
		hex[2 * i + 1] = hexdig[id[i] & 15];
	}
	hex[32] = '\0';
	int k = snprintf(xd, sizeof(xd), "/Type/XRef/Size %u/W[1 %u %u]/DecodeParms<</Predictor 12"
	                 "/Columns %u>>/Root %u 0 R", n + 2, w2, w3, cols, obj_num(pdf->catalog));
	if (pdf->info)
		k += snprintf(xd + k, sizeof(xd) - (size_t)k, "/Info %u 0 R", obj_num(pdf->info));
	snprintf(xd + k, sizeof(xd) - (size_t)k, "/ID[<%s><%s>]", hex, hex);
	flate_object(w, out, xrefno, xd, xs->s, xs->len, PDF_Z_XREF);
	buf_add(out, "startxref\n", 10);
	put_uint(out, at);
	buf_add(out, "\n%%EOF\n", 7);
	if (buf_write_fd(w->fd, out->s, out->len) < 0)
		return pdf_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
	return 0;
}
