/* pdf: the only libharu user. Places a page list into a PDF file.
 *
 *   if (pdf_write(doc, "cv.pdf", &e) < 0) ... (exit errs_code(&e), i.e. 3)
 *
 * How it works:
 * - The output is opened first (a temporary "PATH.XXXXXX" beside PATH, or
 *   stdout for "-") so an unwritable target fails before any work.
 * - libharu's error handler records (error, detail) and longjmps back into
 *   pdf_write: setjmp lives only there, and every libharu call is made from
 *   this file's helpers, so no other module's frame is ever skipped. After a
 *   libharu error the document is in a sticky error state and its handles
 *   may be NULL, so nothing is called on it any more except HPDF_Free.
 * - Faces are loaded lazily (only those used), after our own sanity check
 *   of the TrueType tables libharu 2.3.0 would crash on (upem 0, more
 *   hmtx metrics than glyphs) or cannot read (CFF, .ttc).
 * - Each page is one text object as long as only runs follow each other;
 *   a run sets font/size, colour, render mode only when they change, and is
 *   placed with an absolute text matrix (italic = slanted matrix), so no
 *   error accumulates. Synthetic bold is fill+stroke at 3% of the size.
 * - The whole PDF is built in libharu's memory stream, then copied to the
 *   temporary file, which is renamed over PATH only when complete. On any
 *   error the temporary file is removed and an existing PATH is untouched.
 * - libharu's ToUnicode map is malformed ("begincidrange"); before saving,
 *   each font's map is rewritten as identity bfchar entries for the code
 *   points drawn (CIDs are code points under Identity-H + UTF-8).
 * - Two font files with one PostScript name are refused: libharu would
 *   silently draw the second in the first.
 * - Same page list and epoch give byte-identical output (libharu writes no
 *   /ID and we set both dates from doc->epoch).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <hpdf.h>
#include "arena.h"
#include "pdf.h"
#include "utf8.h"

#define PDF_CHUNK 65000          /* bytes per Tj (libharu's limit: 65,535) */
#define PDF_SLANT 0.21255656f    /* tan(12 degrees): synthetic italic */

typedef struct pdf_img {
	const char *path;
	HPDF_Image img;
} pdf_img_t;

/* Everything that must survive a longjmp lives here (heap, not locals). */
typedef struct pw {
	const page_doc_t *doc;
	errs_t *e;
	const char *path;        /* the target, "-" for stdout */
	HPDF_Doc pdf;
	jmp_buf jb;
	HPDF_STATUS code, detail;
	const char *what;        /* what we asked libharu to do, for messages */
	const char *subject;     /* the file that step is about (font, image) */
	int fd;                  /* output */
	char *tmp;               /* temporary file name, NULL for stdout */
	HPDF_Font *fonts;        /* per face id; NULL until used */
	const char **names;      /* per face id: its PostScript name, once loaded */
	uint8_t (*used)[8192];   /* per face id: bitmap of the BMP code points drawn */
	uint8_t scratch[8192];
	HPDF_Page *pages;
	pdf_img_t *imgs;
	int nimgs;
	char *tb;                /* text chunk buffer, PDF_CHUNK + 1 bytes */
	/* drawing state of the current page */
	HPDF_Page page;
	int pageno;              /* 0-based index of page */
	int in_text, face, mode;
	int32_t size, lw;
	uint32_t fill, stroke;
} pw_t;

/* ---- errors ---- */

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

static void pw_handler(HPDF_STATUS code, HPDF_STATUS detail, void *user)
{
	pw_t *w = user;
	w->code = code;
	w->detail = detail;
	longjmp(w->jb, 1);
}

/* Record an error about file (NULL: the output), with the output as context. */
static int pw_fail(pw_t *w, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int pw_fail(pw_t *w, const char *file, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errs_t *e = w->e;
	int n = e->n;
	err_sys(e, file ? file : w->path, "%s", msg);
	if (file && e->n > n)
		snprintf(e->v[n].context, sizeof(e->v[n].context), "while writing %s", w->path);
	return -1;
}

static void pw_libharu_error(pw_t *w)
{
	pw_fail(w, w->subject, "cannot %s: %s (libharu error 0x%04X, detail %u)",
	        w->what ? w->what : "write the PDF", pdf_error_text(w->code),
	        (unsigned)w->code, (unsigned)w->detail);
}

/* ---- font sanity check (libharu 2.3.0 crashes on some broken fonts) ---- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* Read len bytes of the table tag into out; -1 when absent or truncated. */
static int ttf_table(FILE *f, const unsigned char *dir, int ntables, long fsize,
                     const char *tag, unsigned char *out, size_t len)
{
	for (int i = 0; i < ntables; i++) {
		const unsigned char *t = dir + 16 * i;
		if (memcmp(t, tag, 4))
			continue;
		uint32_t off = be32(t + 8), tlen = be32(t + 12);
		if (tlen < len || (long)off + (long)tlen > fsize)
			return -1;
		if (!out)
			return 0;
		if (fseek(f, (long)off, SEEK_SET) || fread(out, 1, len, f) != len)
			return -1;
		return 0;
	}
	return -1;
}

static const char *ttf_check_tables(FILE *f, long fsize)
{
	unsigned char h[12], dir[16 * 64], head[54], hhea[36], maxp[6];
	if (fread(h, 1, 12, f) != 12)
		return "too short for a TrueType font";
	if (!memcmp(h, "ttcf", 4))
		return "a font collection (.ttc): give a single TrueType font";
	if (!memcmp(h, "OTTO", 4))
		return "an OpenType/CFF font: libharu 2.3 embeds only glyf TrueType fonts";
	if (be32(h) != 0x00010000 && memcmp(h, "true", 4))
		return "not a TrueType font";
	int n = (int)be16(h + 4);
	if (n < 1 || n > 64 || fread(dir, 16, (size_t)n, f) != (size_t)n)
		return "corrupt TrueType table directory";
	static const char *const need[] = {"cmap", "glyf", "loca", "hmtx"};
	for (int i = 0; i < 4; i++)
		if (ttf_table(f, dir, n, fsize, need[i], NULL, 0))
			return "a required TrueType table (cmap, glyf, loca, hmtx) is missing";
	if (ttf_table(f, dir, n, fsize, "head", head, sizeof(head)) ||
	    ttf_table(f, dir, n, fsize, "hhea", hhea, sizeof(hhea)) ||
	    ttf_table(f, dir, n, fsize, "maxp", maxp, sizeof(maxp)))
		return "the head, hhea or maxp table is missing or truncated";
	unsigned upem = be16(head + 18), nmetrics = be16(hhea + 34), nglyphs = be16(maxp + 4);
	if (upem < 16 || upem > 16384)
		return "invalid unitsPerEm in the head table";
	if (nglyphs == 0 || nmetrics == 0 || nmetrics > nglyphs)
		return "hhea.numberOfHMetrics does not fit maxp.numGlyphs";
	return NULL;
}

static int pw_check_font(pw_t *w, const char *file)
{
	FILE *f = fopen(file, "rb");
	if (!f)
		return pw_fail(w, file, "cannot open the font: %s", strerror(errno));
	struct stat st;
	const char *bad = fstat(fileno(f), &st) ? "cannot stat the font"
	                                         : ttf_check_tables(f, (long)st.st_size);
	fclose(f);
	if (bad)
		return pw_fail(w, file, "cannot embed the font: %s", bad);
	return 0;
}

/* ---- resources ---- */

static int pw_font(pw_t *w, int face, HPDF_Font *out)
{
	const page_doc_t *d = w->doc;
	const char *file = face >= 0 && face < d->nfaces && d->face_files ? d->face_files[face] : NULL;
	if (!file) {
		char id[24];
		snprintf(id, sizeof(id), "%d", face);
		return pw_fail(w, NULL, "internal error: face id %s has no font file", id);
	}
	if (w->fonts[face]) {
		*out = w->fonts[face];
		return 0;
	}
	for (int i = 0; i < d->nfaces; i++) /* the same file under two ids */
		if (i != face && w->fonts[i] && d->face_files[i] && !strcmp(d->face_files[i], file)) {
			*out = w->fonts[face] = w->fonts[i];
			return 0;
		}
	if (pw_check_font(w, file) < 0)
		return -1;
	w->what = "load the font";
	w->subject = file;
	const char *name = HPDF_LoadTTFontFromFile(w->pdf, file, HPDF_TRUE);
	w->subject = NULL;
	/* libharu silently reuses a loaded font with the same PostScript name */
	for (int i = 0; i < d->nfaces; i++)
		if (w->names[i] && !strcmp(w->names[i], name))
			return pw_fail(w, file, "cannot embed the font: its PostScript name %s is "
			               "also that of %s (libharu would draw it in that font)",
			               name, d->face_files[i]);
	w->names[face] = name;
	*out = w->fonts[face] = HPDF_GetFont(w->pdf, name, "UTF-8");
	return 0;
}

static int pw_image(pw_t *w, const page_image_t *im, HPDF_Image *out)
{
	for (int i = 0; i < w->nimgs; i++)
		if (!strcmp(w->imgs[i].path, im->path)) {
			*out = w->imgs[i].img;
			return 0;
		}
	FILE *f = fopen(im->path, "rb");
	if (!f)
		return pw_fail(w, im->path, "cannot open the image: %s", strerror(errno));
	fclose(f);
	w->what = im->png ? "load the PNG image" : "load the JPEG image";
	w->subject = im->path;
	HPDF_Image img = im->png ? HPDF_LoadPngImageFromFile(w->pdf, im->path)
	                         : HPDF_LoadJpegImageFromFile(w->pdf, im->path);
	w->subject = NULL;
	w->imgs = xrealloc(w->imgs, (size_t)(w->nimgs + 1) * sizeof(w->imgs[0]));
	w->imgs[w->nimgs++] = (pdf_img_t){im->path, img};
	*out = img;
	return 0;
}

/* ---- drawing ---- */

static HPDF_REAL pt(int32_t u)
{
	return (HPDF_REAL)(u / 1000.0);
}

static HPDF_REAL pdf_y(const pw_t *w, int32_t y)
{
	return pt(w->doc->h - y);
}

static void set_fill(pw_t *w, uint32_t c)
{
	if (w->fill == c)
		return;
	w->fill = c;
	HPDF_Page_SetRGBFill(w->page, (HPDF_REAL)((c >> 16 & 255) / 255.0),
	                     (HPDF_REAL)((c >> 8 & 255) / 255.0), (HPDF_REAL)((c & 255) / 255.0));
}

static void set_stroke(pw_t *w, uint32_t c, int32_t lw)
{
	if (w->stroke != c) {
		w->stroke = c;
		HPDF_Page_SetRGBStroke(w->page, (HPDF_REAL)((c >> 16 & 255) / 255.0),
		                       (HPDF_REAL)((c >> 8 & 255) / 255.0),
		                       (HPDF_REAL)((c & 255) / 255.0));
	}
	if (w->lw != lw) {
		w->lw = lw;
		HPDF_Page_SetLineWidth(w->page, pt(lw));
	}
}

static void text_begin(pw_t *w, int on)
{
	if (on && !w->in_text)
		HPDF_Page_BeginText(w->page);
	else if (!on && w->in_text)
		HPDF_Page_EndText(w->page);
	w->in_text = on;
}

/* Valid UTF-8, no NUL, BMP only: what libharu can draw without mangling. */
static const char *run_problem(const page_run_t *r)
{
	if (r->size <= 0 || r->size > HPDF_MAX_FONTSIZE * 1000)
		return "font size out of range";
	if (utf8_invalid_at(r->text, (size_t)r->len) >= 0)
		return "invalid UTF-8";
	size_t i = 0, n = (size_t)r->len;
	while (i < n) {
		uint32_t cp;
		int k = utf8_decode(r->text + i, n - i, &cp);
		if (k <= 0 || cp == 0)
			return "a NUL byte";
		if (cp > 0xFFFF)
			return "a character outside the BMP";
		i += (size_t)k;
	}
	return NULL;
}

/* Note the code points s (valid UTF-8, BMP) uses, for ToUnicode. */
static void mark_used(uint8_t used[8192], const char *s, size_t n)
{
	uint32_t cp;
	for (size_t i = 0; i < n;) {
		int k = utf8_decode(s + i, n - i, &cp);
		if (k <= 0 || cp > 0xFFFF)
			break;
		used[cp >> 3] |= (uint8_t)(1u << (cp & 7));
		i += (size_t)k;
	}
}

/* Show text[0..n) in Tj chunks that end on character boundaries. */
static void show_text(pw_t *w, const char *s, size_t n)
{
	while (n > 0) {
		size_t k = n <= PDF_CHUNK ? n : PDF_CHUNK;
		while (k < n && ((unsigned char)s[k] & 0xC0) == 0x80)
			k--;
		memcpy(w->tb, s, k);
		w->tb[k] = '\0';
		HPDF_Page_ShowText(w->page, w->tb);
		s += k;
		n -= k;
	}
}

static int draw_run(pw_t *w, const page_run_t *r)
{
	if (!r->text || r->len <= 0)
		return 0;
	const char *bad = run_problem(r);
	if (bad) {
		warn_at(w->e, w->path, 0, 0, "page %d: skipped the text run at x=%d y=%d: %s",
		        w->pageno + 1, (int)r->x, (int)r->y, bad);
		return 0;
	}
	HPDF_Font font = NULL;
	if (pw_font(w, r->face, &font) < 0)
		return -1;
	w->what = "draw text";
	text_begin(w, 1);
	if (w->face != r->face || w->size != r->size) {
		w->face = r->face;
		w->size = r->size;
		HPDF_Page_SetFontAndSize(w->page, font, pt(r->size));
	}
	set_fill(w, r->color & 0xFFFFFF);
	int mode = r->synth & 1 ? HPDF_FILL_THEN_STROKE : HPDF_FILL;
	if (mode == HPDF_FILL_THEN_STROKE)
		set_stroke(w, r->color & 0xFFFFFF, r->size * 3 / 100);
	if (w->mode != mode) {
		w->mode = mode;
		HPDF_Page_SetTextRenderingMode(w->page, (HPDF_TextRenderingMode)mode);
	}
	mark_used(w->used[r->face], r->text, (size_t)r->len);
	HPDF_REAL c = r->synth & 2 ? PDF_SLANT : 0;
	HPDF_Page_SetTextMatrix(w->page, 1, 0, c, 1, pt(r->x), pdf_y(w, r->y));
	show_text(w, r->text, (size_t)r->len);
	return 0;
}

static void draw_rect(pw_t *w, const page_rect_t *r)
{
	if (r->stroke <= 0 && (r->w <= 0 || r->h <= 0))
		return;
	if (r->stroke > HPDF_MAX_LINEWIDTH * 1000) {
		warn_at(w->e, w->path, 0, 0, "page %d: skipped the rectangle at x=%d y=%d: "
		        "line width over %d pt", w->pageno + 1, (int)r->x, (int)r->y,
		        HPDF_MAX_LINEWIDTH);
		return;
	}
	w->what = "draw a rectangle";
	text_begin(w, 0);
	uint32_t c = r->color & 0xFFFFFF;
	if (r->stroke > 0)
		set_stroke(w, c, r->stroke);
	else
		set_fill(w, c);
	HPDF_Page_Rectangle(w->page, pt(r->x), pdf_y(w, r->y + r->h), pt(r->w), pt(r->h));
	if (r->stroke > 0)
		HPDF_Page_Stroke(w->page);
	else
		HPDF_Page_Fill(w->page);
}

/* PDF URIs are 7-bit: percent-encode bytes >= 0x80, controls and spaces. */
static char *uri_escape(const char *s)
{
	size_t n = strlen(s);
	char *o = xmalloc(3 * n + 1), *p = o;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c <= 0x20 || c >= 0x7f)
			p += sprintf(p, "%%%02X", c);
		else
			*p++ = (char)c;
	}
	*p = '\0';
	return o;
}

static void draw_link(pw_t *w, const page_link_t *l)
{
	if (!l->url || !*l->url || l->w <= 0 || l->h <= 0)
		return;
	w->what = "add a link";
	HPDF_Rect rc = {pt(l->x), pdf_y(w, l->y + l->h), pt(l->x + l->w), pdf_y(w, l->y)};
	char *uri = uri_escape(l->url);
	HPDF_Annotation a = HPDF_Page_CreateURILinkAnnot(w->page, rc, uri);
	free(uri);
	HPDF_LinkAnnot_SetBorderStyle(a, 0, 0, 0);
}

static int draw_image(pw_t *w, const page_image_t *im)
{
	if (!im->path || im->w <= 0 || im->h <= 0)
		return 0;
	HPDF_Image img = NULL;
	if (pw_image(w, im, &img) < 0)
		return -1;
	w->what = "draw an image";
	text_begin(w, 0);
	HPDF_Page_DrawImage(w->page, img, pt(im->x), pdf_y(w, im->y + im->h), pt(im->w),
	                    pt(im->h));
	return 0;
}

static int draw_page(pw_t *w, int i)
{
	const page_t *p = &w->doc->pages[i];
	w->what = "add a page";
	w->pageno = i;
	w->page = w->pages[i] = HPDF_AddPage(w->pdf);
	HPDF_Page_SetWidth(w->page, pt(w->doc->w));
	HPDF_Page_SetHeight(w->page, pt(w->doc->h));
	/* a new content stream starts in the default graphics state */
	w->in_text = 0;
	w->face = -1;
	w->size = 0;
	w->mode = HPDF_FILL;
	w->fill = w->stroke = 0;
	w->lw = 1000;
	for (int j = 0; j < p->n; j++) {
		const page_item_t *it = &p->items[j];
		int rc = 0;
		switch (it->kind) {
		case PAGE_RUN: rc = draw_run(w, &it->u.run); break;
		case PAGE_RECT: draw_rect(w, &it->u.rect); break;
		case PAGE_LINK: draw_link(w, &it->u.link); break;
		case PAGE_IMAGE: rc = draw_image(w, &it->u.image); break;
		default: break;
		}
		if (rc < 0)
			return -1;
	}
	text_begin(w, 0);
	return 0;
}

/* ---- document ---- */

static int utf8_ok(pw_t *w, const char *what, const char *s)
{
	if (s && utf8_invalid_at(s, strlen(s)) < 0)
		return 1;
	if (s)
		warn_at(w->e, w->path, 0, 0, "%s is not valid UTF-8; left out of the PDF", what);
	return 0;
}

static void set_info(pw_t *w)
{
	const page_doc_t *d = w->doc;
	static const struct {
		HPDF_InfoType type;
		size_t off;
		const char *name;
	} info[] = {
		{HPDF_INFO_TITLE, offsetof(page_doc_t, title), "the title"},
		{HPDF_INFO_AUTHOR, offsetof(page_doc_t, author), "the author"},
		{HPDF_INFO_SUBJECT, offsetof(page_doc_t, subject), "the subject"},
		{HPDF_INFO_KEYWORDS, offsetof(page_doc_t, keywords), "the keywords"},
		{HPDF_INFO_CREATOR, offsetof(page_doc_t, creator), "the creator"},
	};
	w->what = "set the document information";
	for (size_t i = 0; i < sizeof(info) / sizeof(info[0]); i++) {
		const char *v = *(const char *const *)((const char *)d + info[i].off);
		if (v && *v && utf8_ok(w, info[i].name, v))
			HPDF_SetInfoAttr(w->pdf, info[i].type, v);
	}
	struct tm tm;
	time_t t = (time_t)d->epoch;
	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 < 1 || tm.tm_year + 1900 > 9999)
		return;
	HPDF_Date date = {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	                  tm.tm_min, tm.tm_sec, 'Z', 0, 0};
	HPDF_SetInfoDateAttr(w->pdf, HPDF_INFO_CREATION_DATE, date);
	HPDF_SetInfoDateAttr(w->pdf, HPDF_INFO_MOD_DATE, date);
}

/* A destination [page /XYZ null top null]: jump to the section and keep
 * the reader's zoom. libharu rejects zoom 0, so the array is rebuilt. */
static HPDF_Destination mark_dest(pw_t *w, HPDF_Page page, HPDF_REAL top)
{
	HPDF_Destination dst = HPDF_Page_CreateDestination(page);
	HPDF_Destination_SetXYZ(dst, 0, top, 1);
	HPDF_Array_Clear(dst);
	HPDF_Array_Add(dst, page);
	HPDF_Array_AddName(dst, "XYZ");
	HPDF_Array_Add(dst, HPDF_Null_New(w->pdf->mmgr));
	HPDF_Array_AddReal(dst, top);
	HPDF_Array_Add(dst, HPDF_Null_New(w->pdf->mmgr));
	return dst;
}

static void add_marks(pw_t *w)
{
	const page_doc_t *d = w->doc;
	w->what = "add the outline";
	HPDF_Encoder enc = HPDF_GetEncoder(w->pdf, "UTF-8");
	int n = 0;
	for (int i = 0; i < d->nmarks; i++) {
		const page_mark_t *m = &d->marks[i];
		if (m->page < 0 || m->page >= d->npages || !utf8_ok(w, "an outline title", m->title))
			continue;
		int32_t y = m->y < 0 ? 0 : m->y > d->h ? d->h : m->y;
		HPDF_Outline ol = HPDF_CreateOutline(w->pdf, NULL, m->title, enc);
		HPDF_Outline_SetDestination(ol, mark_dest(w, w->pages[m->page], pdf_y(w, y)));
		n++;
	}
	if (n > 0)
		HPDF_SetPageMode(w->pdf, HPDF_PAGE_MODE_USE_OUTLINE);
}

/* libharu 2.3.0 writes ToUnicode as "begincidrange" over all codes
 * (poppler warns; stricter extractors may fail). CIDs are code points here
 * (Identity-H over UTF-8), so the right ToUnicode maps each code drawn to
 * itself: bfchar entries, 100 per block. The stream is rewritten in place. */
static void put_bfchars(HPDF_Stream st, const uint16_t *cps, int n)
{
	char line[32];
	snprintf(line, sizeof(line), "%d beginbfchar\n", n);
	HPDF_Stream_WriteStr(st, line);
	for (int i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "<%04X> <%04X>\n", cps[i], cps[i]);
		HPDF_Stream_WriteStr(st, line);
	}
	HPDF_Stream_WriteStr(st, "endbfchar\n");
}

static void fix_tounicode(HPDF_Font font, const uint8_t used[8192])
{
	HPDF_Dict cmap = HPDF_Dict_GetItem(font, "ToUnicode", HPDF_OCLASS_DICT);
	if (!cmap || !cmap->stream || cmap->stream->type != HPDF_STREAM_MEMORY)
		return;
	HPDF_Stream st = cmap->stream;
	HPDF_MemStream_FreeData(st);
	HPDF_Stream_WriteStr(st, "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
	                         "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) "
	                         "/Supplement 0 >> def\n/CMapName /Adobe-Identity-UCS def\n"
	                         "/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\n"
	                         "endcodespacerange\n");
	uint16_t cps[100];
	int n = 0;
	for (uint32_t cp = 1; cp <= 0xFFFF; cp++) {
		if (!(used[cp >> 3] >> (cp & 7) & 1) || (cp >= 0xD800 && cp <= 0xDFFF))
			continue;
		cps[n++] = (uint16_t)cp;
		if (n == 100) {
			put_bfchars(st, cps, n);
			n = 0;
		}
	}
	if (n > 0)
		put_bfchars(st, cps, n);
	HPDF_Stream_WriteStr(st, "endcmap\nCMapName currentdict /CMap defineresource pop\n"
	                         "end\nend\n");
}

static void fix_fonts(pw_t *w)
{
	w->what = "write the fonts' ToUnicode maps";
	uint8_t *used = w->scratch; /* in w: a longjmp must not leak it */
	for (int i = 0; i < w->doc->nfaces; i++) {
		if (!w->fonts[i])
			continue;
		memset(used, 0, 8192);
		int first = 1;
		for (int j = 0; j < w->doc->nfaces; j++) /* faces sharing one font */
			if (w->fonts[j] == w->fonts[i]) {
				first &= j >= i;
				for (int k = 0; k < 8192; k++)
					used[k] |= w->used[j][k];
			}
		if (first)
			fix_tounicode(w->fonts[i], used);
	}
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Copy libharu's memory stream to the output (exact sizes: reading past
 * its end raises HPDF_STREAM_EOF through the handler). */
static int copy_out(pw_t *w)
{
	w->what = "save the PDF";
	HPDF_SaveToStream(w->pdf);
	HPDF_UINT32 left = HPDF_GetStreamSize(w->pdf);
	HPDF_ResetStream(w->pdf);
	unsigned char *buf = (unsigned char *)w->tb;
	while (left > 0) {
		HPDF_UINT32 k = left < PDF_CHUNK ? left : PDF_CHUNK;
		HPDF_ReadFromStream(w->pdf, buf, &k);
		if (k == 0)
			break;
		if (write_all(w->fd, buf, k) < 0)
			return pw_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
		left -= k;
	}
	return 0;
}

/* Not inlined: the frame that holds setjmp keeps no locals of the build. */
static int pw_build(pw_t *w) __attribute__((noinline));
static int pw_build(pw_t *w)
{
	const page_doc_t *d = w->doc;
	if (d->w < HPDF_MIN_PAGE_SIZE * 1000 || d->w > HPDF_MAX_PAGE_SIZE * 1000 ||
	    d->h < HPDF_MIN_PAGE_SIZE * 1000 || d->h > HPDF_MAX_PAGE_SIZE * 1000)
		return pw_fail(w, NULL, "cannot write the PDF: page size %dx%d u out of range",
		               (int)d->w, (int)d->h);
	w->what = "create the PDF";
	w->pdf = HPDF_New(pw_handler, w);
	if (!w->pdf)
		return pw_fail(w, NULL, "cannot create the PDF: out of memory");
	HPDF_SetCompressionMode(w->pdf, HPDF_COMP_ALL);
	HPDF_UseUTFEncodings(w->pdf);
	HPDF_SetCurrentEncoder(w->pdf, "UTF-8");
	set_info(w);
	for (int i = 0; i < d->npages; i++)
		if (draw_page(w, i) < 0)
			return -1;
	add_marks(w);
	fix_fonts(w);
	return copy_out(w);
}

/* ---- output file ---- */

static int open_output(pw_t *w)
{
	if (!strcmp(w->path, "-")) {
		w->fd = STDOUT_FILENO;
		return 0;
	}
	size_t n = strlen(w->path);
	w->tmp = xmalloc(n + 8);
	memcpy(w->tmp, w->path, n);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid() << 40 ^
	             (uint64_t)(uintptr_t)w;
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	for (int tries = 0; tries < 100; tries++) {
		char *p = w->tmp + n;
		*p++ = '.';
		for (int i = 0; i < 6; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			*p++ = abc[(x >> 33) % 62];
		}
		*p = '\0';
		/* 0666 & ~umask, like any new file; O_EXCL: never another's file */
		w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (w->fd >= 0 || errno != EEXIST)
			break;
	}
	if (w->fd < 0) {
		free(w->tmp);
		w->tmp = NULL;
		return pw_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
	}
	struct stat st; /* replacing a file: keep its permissions */
	if (!stat(w->path, &st) && S_ISREG(st.st_mode))
		(void)fchmod(w->fd, st.st_mode & 07777);
	return 0;
}

static int close_output(pw_t *w, int rc)
{
	if (!w->tmp)
		return rc;
	if (close(w->fd) < 0 && rc == 0)
		rc = pw_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
	if (rc == 0 && rename(w->tmp, w->path) < 0)
		rc = pw_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
	if (rc < 0)
		unlink(w->tmp);
	free(w->tmp);
	return rc;
}

int pdf_write(const page_doc_t *doc, const char *path, errs_t *e)
{
	pw_t *w = xcalloc(1, sizeof(*w));
	w->doc = doc;
	w->e = e;
	w->path = path;
	w->fd = -1;
	volatile int rc = -1;
	if (open_output(w) == 0) {
		w->fonts = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(HPDF_Font));
		w->names = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(char *));
		w->used = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(w->used[0]));
		w->pages = xcalloc((size_t)(doc->npages > 0 ? doc->npages : 1), sizeof(HPDF_Page));
		w->tb = xmalloc(PDF_CHUNK + 1);
		if (setjmp(w->jb) == 0) {
			rc = pw_build(w);
		} else {
			pw_libharu_error(w);
			rc = -1;
		}
		if (w->pdf)
			HPDF_Free(w->pdf);
		rc = close_output(w, rc);
	}
	free(w->fonts);
	free(w->names);
	free(w->used);
	free(w->pages);
	free(w->imgs);
	free(w->tb);
	free(w);
	return rc;
}
