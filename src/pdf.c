/* pdf: the only libharu user. Places a page list into a PDF file.
 *
 *   if (pdf_write(doc, "cv.pdf", &e) < 0) ... (exit errs_code(&e), i.e. 3)
 *
 * How it works:
 * - The output is opened first (through ofile: a hidden temporary beside
 *   PATH, stdout for "-", or PATH itself when it is a device or a FIFO) so
 *   an unwritable target fails before any work.
 * - libharu's error handler records (error, detail) and longjmps back into
 *   pdf_write: setjmp lives only there, and every libharu call is made from
 *   the pdf module's files (src/pdf*.c; state in pw_t, pdf_int.h),
 *   so no other module's frame is ever skipped. After a libharu error the
 *   document is in a sticky error state and its handles may be NULL, so
 *   nothing is called on it any more: its memory is dropped at once
 *   (hpool_reset; no HPDF_Free walk of every object).
 * - Content operators are written here, not by libharu's page calls (a
 *   third of our run time went into them): numbers exactly from the
 *   integer units. Each page is one text object as long as only runs
 *   follow each other; a run sets font/size, colour, render mode only when
 *   they change. Runs on one baseline in one state share a TJ array, the
 *   gap between them (kerning, justified spaces) a number in it computed
 *   from where the viewer's pen is by the /W widths, so each run starts
 *   where layout put it and no error accumulates; a new baseline is a Td
 *   (Tm when slanted: synthetic italic). Synthetic bold is fill+stroke at
 *   3% of the size.
 * - Fonts are our own objects built from the faces' programs in memory
 *   (pdf_font.c, on sfnt.c): text goes into the content stream as literal
 *   strings of the CIDs' codes, (...) with \\ ( ) CR LF escaped: one
 *   byte each in a compact font (pdf_font.c's CMap: every Latin subset),
 *   two (Identity-H) in a big one, which halves the text deflate reads.
 * - The whole PDF is built in libharu's memory stream, then copied to the
 *   temporary file, which is renamed over PATH only when complete. On any
 *   error the temporary file is removed and an existing PATH is untouched.
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
#include "buf.h"
#include "arena.h"
#include "image.h"
#include "ofile.h"
#include "pdf.h"
#include "pdf_int.h"
#include "unicode.h"
#include "utf8.h"
#include "version.h"

#define PDF_CHUNK 65000          /* string bytes per Tj (PDF strings: < 65,536) */

/* ---- resources ---- */

/* Pixels for u of printed length at IMAGE_DPI. */
static int px_at(int32_t u)
{
	int64_t px = ((int64_t)u * IMAGE_DPI + 72000 - 1) / 72000;
	return px < 1 ? 1 : px > IMAGE_MAX_PX ? IMAGE_MAX_PX : (int)px;
}

/* An opaque photo from a JPEG goes back in as a JPEG (DCTDecode) that we
 * encode from its pixels: a fraction of the Flate size, nothing of the
 * file but the pixels. The XObject is made as libharu makes its own. */
static HPDF_Image dct_image(pw_t *w, const image_t *px)
{
	unsigned char *jb;
	size_t jn;
	if (image_jpeg(px, 90, &jb, &jn))
		return NULL;
	HPDF_Dict d = HPDF_DictStream_New(w->pdf->mmgr, w->pdf->xref);
	if (!d) {
		free(jb);
		return NULL;
	}
	d->header.obj_class |= HPDF_OSUBCLASS_XOBJECT;
	d->filter = HPDF_STREAM_FILTER_DCT_DECODE;
	HPDF_STATUS rc = HPDF_Dict_AddName(d, "Type", "XObject");
	rc |= HPDF_Dict_AddName(d, "Subtype", "Image");
	rc |= HPDF_Dict_AddNumber(d, "Width", px->w);
	rc |= HPDF_Dict_AddNumber(d, "Height", px->h);
	rc |= HPDF_Dict_AddName(d, "ColorSpace", px->comps == 1 ? "DeviceGray" : "DeviceRGB");
	rc |= HPDF_Dict_AddNumber(d, "BitsPerComponent", 8);
	rc |= HPDF_Stream_Write(d->stream, jb, (HPDF_UINT)jn);
	free(jb);
	return rc == HPDF_OK ? (HPDF_Image)d : NULL;
}

static int pw_image(pw_t *w, const page_image_t *im, HPDF_Image *out)
{
	for (int i = 0; i < w->nimgs; i++)
		if (!strcmp(w->imgs[i].path, im->path)) {
			*out = w->imgs[i].img;
			return 0;
		}
	/* The pixels decoded with the profile (no libharu image loader, no
	   metadata), scaled to what the page needs: a JPEG photo as a JPEG we
	   encode, any other as Flate pixels; alpha becomes an SMask. */
	if (!im->img)
		return pdf_fail(w, im->path, "cannot embed the image: not decoded");
	image_t px, crop = *im->img;
	if (im->cw > 0 && im->ch > 0)
		image_crop(w->doc->arena, im->img, im->cx, im->cy, im->cw, im->ch, &crop);
	image_scale(w->doc->arena, &crop, px_at(im->w), px_at(im->h), &px);
	w->what = "embed the image";
	w->subject = im->path;
	HPDF_Image img = !px.png && !px.alpha ? dct_image(w, &px) : NULL;
	if (!img)
		img = HPDF_LoadRawImageFromMem(w->pdf, px.px, (HPDF_UINT)px.w, (HPDF_UINT)px.h,
		                               px.comps == 1 ? HPDF_CS_DEVICE_GRAY : HPDF_CS_DEVICE_RGB, 8);
	if (img && px.alpha) {
		HPDF_Image mask = HPDF_LoadRawImageFromMem(w->pdf, px.alpha, (HPDF_UINT)px.w,
		                                           (HPDF_UINT)px.h, HPDF_CS_DEVICE_GRAY, 8);
		if (mask)
			HPDF_Image_AddSMask(img, mask);
	}
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

/* A length in u as points (exact: up to 3 decimals). */
static int put_u(char *o, int64_t u)
{
	return pdf_num(o, u, 3);
}

/* "r g b" of colour c, each channel to 4 decimals (8-bit exact); the
 * last few are kept (a CV has a handful of colours, set thousands of
 * times). */
static int put_rgb(char *o, uint32_t c)
{
	static struct {
		uint32_t c;
		int n;
		char s[40];
	} memo[8];
	static unsigned next;
	for (int i = 0; i < 8; i++)
		if (memo[i].n && memo[i].c == c) {
			memcpy(o, memo[i].s, (size_t)memo[i].n);
			return memo[i].n;
		}
	int k = 0;
	for (int sh = 16; sh >= 0; sh -= 8) {
		k += pdf_num(o + k, ((int64_t)(c >> sh & 255) * 20000 + 255) / 510, 4);
		o[k++] = ' ';
	}
	unsigned m = next++ % 8;
	memo[m].c = c;
	memo[m].n = k;
	memcpy(memo[m].s, o, (size_t)k);
	return k;
}

static void set_fill(pw_t *w, uint32_t c)
{
	if (w->fill == c)
		return;
	w->fill = c;
	char b[48];
	int k = put_rgb(b, c);
	memcpy(b + k, "rg\n", 3);
	pdf_put(w, b, (size_t)k + 3);
}

static void set_stroke(pw_t *w, uint32_t c, int32_t lw)
{
	char b[48];
	if (w->stroke != c) {
		w->stroke = c;
		int k = put_rgb(b, c);
		memcpy(b + k, "RG\n", 3);
		pdf_put(w, b, (size_t)k + 3);
	}
	if (w->lw != lw) {
		w->lw = lw;
		int k = put_u(b, lw);
		memcpy(b + k, " w\n", 3);
		pdf_put(w, b, (size_t)k + 3);
	}
}

static void text_begin(pw_t *w, int on)
{
	if (on != w->in_text)
		pdf_mc_close(w); /* marked content never straddles BT or ET */
	if (on && !w->in_text) {
		pdf_put(w, "BT\n", 3);
		w->lm = 0; /* the text matrix is the identity again */
	} else if (!on && w->in_text) {
		pdf_put(w, "ET\n", 3);
	}
	w->in_text = on;
}

/* Valid UTF-8, no NUL: what a text string can draw. */
static const char *run_problem(const page_run_t *r)
{
	if (r->size <= 0 || r->size > HPDF_MAX_FONTSIZE * 1000)
		return "font size out of range";
	if (utf8_invalid_at(r->text, (size_t)r->len) >= 0)
		return "invalid UTF-8";
	if (memchr(r->text, 0, (size_t)r->len))   /* valid UTF-8: a NUL is a 0 byte */
		return "a NUL byte";
	return NULL;
}

/* "/F1 10.5 Tf": size in u, printed exactly (up to 3 decimals); f's
 * type0, or its twin when w->wide. */
static void set_font(pw_t *w, pdf_font_t *f, int32_t size)
{
	int twin = w->wide && f->compact && !f->color, bank = f->color ? w->wide : 0;
	const char **lp = twin ? &f->localw : bank ? &f->blocal[bank] : &f->local;
	int *pp = twin ? &f->localw_page : bank ? &f->bpage[bank] : &f->local_page;
	const char *local = *pp == w->pageno + 1 ? *lp : NULL;
	if (!local) { /* once per page: it puts the font in the resources */
		local = HPDF_Page_GetLocalFontName(w->page, twin   ? pdf_font_twin(w, f)
		                                            : bank ? pdf_font_bank(w, f, bank)
		                                                   : f->type0);
		if (!local)
			pdf_ok(w, HPDF_FAILD_TO_ALLOC_MEM);
		*lp = local;
		*pp = w->pageno + 1;
	}
	char buf[160];
	size_t l = strlen(local);
	if (l > 120)
		l = 120; /* libharu's names are short ("F12") */
	buf[0] = '/';
	memcpy(buf + 1, local, l);
	int k = (int)l + 1;
	buf[k++] = ' ';
	k += put_u(buf + k, size);
	memcpy(buf + k, " Tf\n", 4);
	k += 4;
	pdf_put(w, buf, (size_t)k);
}

/* Append text[0..n) (valid UTF-8) to the open TJ array as strings
 * of the CIDs' codes (PDF_CHUNK bytes each at most): one byte in a
 * compact font, else two; escaping \\ ( ) CR and LF; gids as in
 * page_run_t. A compact font's CID past 255 closes the array and goes on
 * in its twin (Tf; the pen is where it was), and back. Returns how far
 * the viewer moves the pen, in 1e-9 pt: the glyphs' /W widths at size,
 * and track (Tc) after each. */
static int64_t show_text(pw_t *w, pdf_font_t *f, const char *s, size_t n, const uint16_t *gids,
                         int32_t size, int32_t track)
{
	/* the byte after a backslash for the bytes a string escapes, else 0 */
	static const unsigned char esc[256] = {['\\'] = '\\', ['('] = '(', [')'] = ')',
	                                       ['\r'] = 'r', ['\n'] = 'n'};
	char *o = w->tb;
	size_t cap = PDF_CHUNK - 8, k = 0, chunk = 0;
	int64_t adv = 0, sz = (int64_t)size * 1000, tr = (int64_t)track * 1000000;
	/* cur: which of f's fonts is set (pdf_font_which: always 1 in a
	   font that is not compact), drawing CIDs lo..lo + span - 1; CIDs
	   from two on take two bytes */
	int cur = f->compact ? w->wide : 1;
	unsigned lo, span, two = f->color ? ~0u : f->compact ? PDF_CODE1 : 0;
	pdf_font_range(f, cur, &lo, &span);
	o[k++] = '(';
	for (size_t i = 0, ci = 0; i < n; ci++) {
		uint32_t cp = (unsigned char)s[i];
		int l = 1;
		if (cp >= 0x80 && (l = utf8_decode(s + i, n - i, &cp)) <= 0)
			break;
		unsigned c;
		int64_t wd;
		if (gids && gids[ci]) {
			/* outside the BMP: a glyph read as the code point */
			c = cp > 0xFFFF ? pdf_font_cid_read(f, gids[ci], s + i, l)
			                : pdf_font_cid_glyph(f, cp, gids[ci]);
			if (!c)
				c = pdf_font_cid(f, cp);
			wd = sfnt_width(f->sf, c);
		} else if (cp <= 0xFFFF) {
			c = pdf_font_has(f, cp) ? f->cid[cp] : pdf_font_cid(f, cp);
			wd = f->cw[cp];
		} else {   /* outside the BMP: pdf_font_cid's side table */
			c = pdf_font_cid(f, cp);
			wd = sfnt_width(f->sf, c);
		}
		adv += wd * sz + tr;
		if (c - lo >= span) {
			/* a compact font's CID past 255 (or back): the other Type0
			   font of f, in a new TJ array */
			if (k > 1 || chunk) {
				o[k++] = ')';
				pdf_put_raw(w, o, k);
			}
			cur = w->wide = pdf_font_which(f, c);
			pdf_font_range(f, cur, &lo, &span);
			set_font(w, f, size); /* closes the array */
			pdf_put_raw(w, "[", 1);
			w->tj = 1;
			k = chunk = 0;
			o[k++] = '(';
		}
		if (k + 6 > cap) {
			pdf_put_raw(w, o, k);
			k = 0;
		}
		if (chunk + 2 > PDF_CHUNK) {
			o[k++] = ')';
			o[k++] = '(';
			chunk = 0;
		}
		unsigned char x;
		if (c >= two) { /* two bytes */
			x = (unsigned char)(c >> 8);
			if (esc[x]) {
				o[k++] = '\\';
				x = esc[x];
			}
			o[k++] = (char)x;
			chunk++;
		}
		x = (unsigned char)c;
		if (esc[x]) {
			o[k++] = '\\';
			x = esc[x];
		}
		o[k++] = (char)x;
		chunk++;
		i += (size_t)l;
	}
	o[k++] = ')';
	pdf_put_raw(w, o, k);
	return adv;
}

/* Move the viewer's pen in the open TJ array to x (1e-9 pt): a number,
 * the distance in 1/1000 em to one decimal (to 1/10,000 em: off by
 * 1/20,000 em at most, 0.0005 pt at 10 pt; the error is never
 * accumulated, the next gap is measured from where the pen really is).
 * Two numbers never follow each other (a run or a cluster that drew
 * nothing left one: "-5.1" "0.1" read as the malformed "-5.10.1"): a
 * number right after the last one replaces it by their sum. */
static void tj_gap(pw_t *w, int64_t x, int32_t size)
{
	int64_t gap = x - w->pen, q = (int64_t)size * 100;
	int64_t t = (gap >= 0 ? gap + q / 2 : gap - q / 2) / q * 100;
	if (!t)
		return;
	w->pen += t * size;
	buf_t *c = &w->content[w->pageno];
	int64_t v = -t;
	if (c->len == w->gap_end && w->gap_end > w->gap_at && w->gap_page == w->pageno) {
		v += w->gap;
		c->len = w->gap_at;
		c->s[c->len] = '\0';
	}
	w->gap_end = w->gap_at = c->len;
	w->gap_page = w->pageno;
	if (!v)
		return;
	char b[40];
	pdf_put_raw(w, b, (size_t)pdf_num(b, v, 3));
	w->gap = v;
	w->gap_end = c->len;
}

/* Put the pen at the run's start. On the baseline of the open TJ array
 * (same font, size, colour, slant and marked content: any change closed
 * it) that is a number in the array: the distance from where the viewer's
 * pen is (w->pen, 1e-9 pt, from the /W widths), in 1/1000 em to one
 * decimal (the error is never accumulated: the next gap is measured from
 * where the pen really is).
 * Otherwise a new array after Td (relative to the line matrix) or Tm. */
static void text_at(pw_t *w, const page_run_t *r, int slant)
{
	char b[96];
	int k = 0;
	int64_t x = (int64_t)r->x * 1000000;
	if (w->tj && r->y == w->ty && slant == w->lslant) {
		tj_gap(w, x, r->size);
		return;
	}
	int32_t y = w->doc->h - r->y;
	if (w->lm && slant == w->lslant && (!slant || y == w->ly)) {
		k += put_u(b + k, (int64_t)r->x - w->lx);
		b[k++] = ' ';
		k += put_u(b + k, (int64_t)y - w->ly);
		memcpy(b + k, " Td\n[", 5);
	} else {
		memcpy(b, slant ? "1 0 0.21256 1 " : "1 0 0 1 ", slant ? 14 : 8);
		k = slant ? 14 : 8;
		k += put_u(b + k, r->x);
		b[k++] = ' ';
		k += put_u(b + k, y);
		memcpy(b + k, " Tm\n[", 5);
	}
	pdf_put(w, b, (size_t)k + 5);
	w->lm = 1;
	w->lx = r->x;
	w->ly = y;
	w->lslant = slant;
	w->tj = 1;
	w->ty = r->y;
	w->pen = x;
}

/* f has no glyph for the space that a right-to-left word reads
 * (inline.c): it draws nothing (not .notdef). */
static int no_space(pdf_font_t *f)
{
	return !pdf_font_has(f, ' ') && !sfnt_gid(f->sf, ' ');
}

/* The glyphs of a right-to-left word after the first (the first put the
 * pen on its baseline in the open TJ array): each as text_at and
 * show_text would put it, a gap and a string, written in one buffer. A
 * glyph that would switch a compact font's twin goes to them. */
static void word_rest(pw_t *w, pdf_font_t *f, const page_run_t *r, page_word_t *g, int slant)
{
	static const unsigned char esc[256] = {['\\'] = '\\', ['('] = '(', [')'] = ')',
	                                       ['\r'] = 'r', ['\n'] = 'n'};
	char b[512];
	size_t k = 0;
	const int64_t sz = (int64_t)r->size * 1000, tr = (int64_t)r->track * 1000000,
	              q = (int64_t)r->size * 100;
	page_run_t one;
	while (page_word_next(g, &one)) {
		uint32_t cp = (unsigned char)one.text[0];
		if (cp >= 0x80 && utf8_decode(one.text, (size_t)one.len, &cp) <= 0)
			break;  /* as show_text: nothing more is drawn */
		if (cp == ' ' && no_space(f))
			continue;
		unsigned c = cp <= 0xFFFF && pdf_font_has(f, cp) ? f->cid[cp] : pdf_font_cid(f, cp);
		if (pdf_font_which(f, c) != (f->compact ? w->wide : 1)) {
			pdf_put_raw(w, b, k);
			k = 0;
			text_at(w, &one, slant);
			w->pen += show_text(w, f, one.text, (size_t)one.len, NULL, r->size, r->track);
			continue;
		}
		if (k + 64 > sizeof(b)) {
			pdf_put_raw(w, b, k);
			k = 0;
		}
		/* text_at on the open array's baseline; a space (a glyph of no
		   ink, there to be read: inline.c) where the pen is, which
		   saves a number */
		int64_t gap = cp == ' ' ? 0 : (int64_t)one.x * 1000000 - w->pen;
		int64_t t = (gap >= 0 ? gap + q / 2 : gap - q / 2) / q * 100;
		if (t) {
			k += (size_t)pdf_num(b + k, -t, 3);
			w->pen += t * r->size;
		}
		if (!t && k && b[k - 1] == ')')
			k--;    /* on the string before */
		else
			b[k++] = '(';
		if (pdf_font_two(f, c)) {
			unsigned char x = (unsigned char)(c >> 8);
			if (esc[x]) {
				b[k++] = '\\';
				x = esc[x];
			}
			b[k++] = (char)x;
		}
		unsigned char x = (unsigned char)c;
		if (esc[x]) {
			b[k++] = '\\';
			x = esc[x];
		}
		b[k++] = (char)x;
		b[k++] = ')';
		w->pen += (cp <= 0xFFFF ? f->cw[cp] : sfnt_width(f->sf, c)) * sz + tr;
	}
	pdf_put_raw(w, b, k);
}

/* Text rise y (u): closes the open TJ array, and opens another. */
static void set_rise(pw_t *w, int32_t y)
{
	char b[40];
	int open = w->tj, k = put_u(b, y);
	memcpy(b + k, " Ts\n", 4);
	pdf_put(w, b, (size_t)k + 4);
	w->rise = y;
	if (open) {
		pdf_put_raw(w, "[", 1);
		w->tj = 1;
	}
}

/* Put CID c (of f) at x (u, from the run's x) on the open TJ array: a
 * number from where the viewer's pen is (as text_at), then its code. */
static void put_cid(pw_t *w, pdf_font_t *f, const page_run_t *r, unsigned c, int64_t x)
{
	static const unsigned char esc[256] = {['\\'] = '\\', ['('] = '(', [')'] = ')',
	                                       ['\r'] = 'r', ['\n'] = 'n'};
	int two = pdf_font_two(f, c), which = pdf_font_which(f, c);
	if (f->compact && which != w->wide) {
		/* past CID 255 (or back): the other Type0 font of f (a colour
		   font: the Type 3 font of those 256) */
		w->wide = which;
		set_font(w, f, r->size); /* closes the array */
		pdf_put_raw(w, "[", 1);
		w->tj = 1;
	}
	tj_gap(w, ((int64_t)r->x + x) * 1000000, r->size);
	char b[40];
	int k = 0;
	b[k++] = '(';
	unsigned char byte[2] = {(unsigned char)(c >> 8), (unsigned char)c};
	for (int j = two ? 0 : 1; j < 2; j++) {
		if (esc[byte[j]]) {
			b[k++] = '\\';
			b[k++] = (char)esc[byte[j]];
		} else {
			b[k++] = (char)byte[j];
		}
	}
	b[k++] = ')';
	pdf_put_raw(w, b, (size_t)k);
	w->pen += (int64_t)sfnt_width(f->sf, c) * r->size * 1000;
}

/* A part of a cluster's text s[0..n) that one glyph reads: at most
 * PART_UNITS UTF-16 units (MuPDF 1.21 drops a ToUnicode entry of more
 * than 8 -- "ignoring one to many mapping" -- and poppler one of a few
 * hundred), whole code points; with first, also no further than its first
 * non-spacing mark after the start; with one, one code point (an emoji
 * sequence of a colour font: MuPDF 1.21 reads a ToUnicode entry of more
 * than one code point as UTF-16 units, each half of a surrogate pair a
 * U+FFFD; pdf.js 4 drops the part that is U+200D alone, the joiner of a
 * ZWJ sequence, and reads its emoji). Its length in bytes (at least one
 * code point). */
#define PART_UNITS 8
#define PART_SPAN 4     /* more parts: an ActualText span too (show_glyphs) */
/* where the empty glyphs stand: a two-hundredth of an em before the cluster's
   end, so that a reader ordering by place (pdftotext) puts them before a
   glyph that starts there ("ನೆ." not "ನ.ೆ") */
#define EMPTY_BACK(r) ((r)->size / 200)
static void actual_begin(pw_t *w, const char *s, int n);
static int text_part(const char *s, int n, int first, int one)
{
	int k = 0, units = 0;
	for (uint32_t cp; k < n;) {
		int l = utf8_decode(s + k, (size_t)(n - k), &cp);
		if (l <= 0)
			l = 1, cp = 0xFFFD;
		uint32_t u[2];
		int nu = utf16_units(cp, u);
		if (k > 0 && (one || units + nu > PART_UNITS || (first && uni_is_nonspacing(cp))))
			break;
		units += nu;
		k += l;
	}
	return k;
}

/* The clusters of a run of shaped text (page_run.glyphs), each where
 * layout put it. A cluster of one glyph on its pen is that glyph (the
 * code point's own CID when it is one code point's cmap glyph, else a
 * CID of its own reading as the cluster's text); any other cluster
 * (conjuncts and vowel signs around them, marks moved onto their base)
 * is one composite glyph made of its glyphs where they go, whose
 * ToUnicode is the cluster's text: every reader extracts the clusters
 * as written, in order. A face without glyf outlines (CFF) draws the
 * glyphs one by one, a mark's height as text rise, the first reading as
 * the cluster.
 * The cluster's glyph reads as its text up to its first non-spacing
 * mark, and empty glyphs of no width after it as the rest: pdf.js (5.x)
 * takes a glyph whose text has such a mark anywhere for a mark of no
 * width, and the gap after it for a space. Each glyph reads at most
 * PART_UNITS UTF-16 units (text_part): a long Sanskrit conjunct, or a
 * base with dozens of marks, reads through several empty glyphs, in
 * order, which pdftotext, MuPDF and pdf.js all join. Past PART_SPAN parts
 * (marks stacked by the hundred: Zalgo text) the cluster is also in an
 * ActualText span: the empty glyphs stand at one place, and poppler and
 * MuPDF drop a glyph that reads as the one before at the same place (fake
 * bold); pdf.js, which ignores ActualText, reads the glyphs. */
static void show_glyphs(pw_t *w, pdf_font_t *f, const page_run_t *r, int32_t gap)
{
	enum { MAXG = 32 };
	int at = 0;
	for (int i = 0; i < r->nglyphs;) {
		const page_glyph_t *g0 = &r->glyphs[i];
		int m = 1;
		while (i + m < r->nglyphs && r->glyphs[i + m].n == 0)
			m++;
		/* the last cluster's advance takes in the run's gap */
		int32_t adv = i + m == r->nglyphs ? g0->adv + gap : g0->adv;
		int n = g0->n <= r->len - at ? g0->n : r->len - at;
		const char *s = r->text + at;
		at += n;
		unsigned c = 0;
		int cff = sfnt_is_cff(f->sf);   /* no empty glyphs: ActualText reads it */
		int whole = n, span = 0, np = 0, plen[PART_SPAN]; /* the parts after the first */
		if (!cff && n > 0) {
			n = text_part(s, n, 1, f->color);
			int parts = 1;
			for (int k = n; k < whole && parts <= PART_SPAN; parts++)
				k += plen[np++] = text_part(s + k, whole - k, 0, f->color);
			/* a cluster of hundreds of marks: ActualText for the readers
			   that take glyphs at one place reading the same for fake
			   bold (poppler, MuPDF), the glyphs' text for pdf.js */
			if (parts > PART_SPAN && !r->actual) {
				int open = w->tj;
				actual_begin(w, s, whole);
				if (open) {
					pdf_put_raw(w, "[", 1);
					w->tj = 1;
				}
				span = 1;
			}
		}
		if (m == 1 && !g0->gid && n == 1 && *s == ' ') {
			c = pdf_font_has(f, ' ') || sfnt_gid(f->sf, ' ') ? pdf_font_cid(f, ' ') : 0;
		} else if (m == 1 && g0->x == g0->pen && g0->y == 0) {
			c = g0->gid ? pdf_font_cid_read(f, g0->gid, s, n) : 0;
			/* its advance as the font's (kerning, or a vowel sign's
			   advance the shaper changed, would put a gap in the TJ
			   array that a reader may take for a space) */
			int64_t d = (int64_t)sfnt_width(f->sf, c) * r->size / 1000 - adv;
			if (c && (d > r->size / 500 || d < -r->size / 500)) {
				uint16_t gid = g0->gid;
				int32_t zero = 0;
				unsigned cc = pdf_font_cid_cluster(f, s, n, &gid, &zero, &zero, 1, adv,
				                                   r->size);
				c = cc ? cc : c;
			}
		} else if (m <= MAXG) {
			uint16_t gid[MAXG];
			int32_t dx[MAXG], dy[MAXG];
			for (int j = 0; j < m; j++) {
				gid[j] = r->glyphs[i + j].gid;
				dx[j] = r->glyphs[i + j].x - g0->pen;
				dy[j] = r->glyphs[i + j].y;
			}
			c = pdf_font_cid_cluster(f, s, n, gid, dx, dy, m, adv, r->size);
		}
		int drawn = 0;
		if (c) {
			if (w->rise)
				set_rise(w, 0);
			put_cid(w, f, r, c, g0->pen);
			drawn = 1;
		} else {
			for (int j = 0; j < m; j++) {
				const page_glyph_t *g = &r->glyphs[i + j];
				unsigned gc = g->gid ? pdf_font_cid_read(f, g->gid, s, drawn ? 0 : n) : 0;
				if (!gc)
					continue;
				if (g->y != w->rise)
					set_rise(w, g->y);
				put_cid(w, f, r, gc, g->x);
				drawn = 1;
			}
		}
		/* the rest of its text, read by empty glyphs at its end */
		for (int k = n, q = 0; drawn && k < whole; q++) {
			int l = q < np ? plen[q] : text_part(s + k, whole - k, 0, f->color);
			unsigned e = pdf_font_cid_cluster(f, s + k, l, NULL, NULL, NULL, 0, 0, r->size);
			if (e)
				put_cid(w, f, r, e, (int64_t)g0->pen + (c ? adv : g0->adv) - EMPTY_BACK(r));
			k += l;
		}
		if (span) {
			int open = w->tj;
			pdf_put(w, "EMC\n", 4);
			if (open) {
				pdf_put_raw(w, "[", 1);
				w->tj = 1;
			}
		}
		i += m;
	}
}

/* Marked content whose /ActualText (UTF-16BE) is what extraction reads
 * instead of the glyphs up to the matching EMC. */
static void actual_begin(pw_t *w, const char *s, int n)
{
	static const char hex[] = "0123456789abcdef";
	char o[64];
	pdf_put(w, "/Span<</ActualText<feff", 23);
	for (int i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(s + i, (size_t)(n - i), &cp);
		if (l <= 0)
			break;
		i += l;
		int k = 0;
		uint32_t u[2];
		int nu = utf16_units(cp, u);
		for (int j = 0; j < nu; j++)
			for (int sh = 12; sh >= 0; sh -= 4)
				o[k++] = hex[u[j] >> sh & 15];
		pdf_put(w, o, (size_t)k);
	}
	pdf_put(w, ">>>BDC\n", 7);
}

/* Where the marks of a right-to-left cluster s[0..n) start (its first
 * non-spacing mark after its first code point, a right-to-left letter),
 * or 0. */
static int rtl_marks_at(const char *s, int n)
{
	uint32_t cp;
	int l = utf8_decode(s, (size_t)n, &cp);
	if (l <= 0 || !((cp >= 0x590 && cp <= 0x8FF) || (cp >= 0xFB1D && cp <= 0xFDFF) ||
	                (cp >= 0xFE70 && cp <= 0xFEFF) || (cp >= 0x10800 && cp <= 0x10FFF) ||
	                (cp >= 0x1E800 && cp <= 0x1EFFF)))
		return 0;
	for (int k = l; k < n; k += l) {
		l = utf8_decode(s + k, (size_t)(n - k), &cp);
		if (l <= 0)
			return 0;
		if (uni_is_nonspacing(cp))
			return k;
	}
	return 0;
}

/* The CID that show_text draws for code point cp, s[0..l), the ci-th of
 * its run (gids as in page_run_t). */
static unsigned text_cid(pdf_font_t *f, uint32_t cp, const char *s, int l, const uint16_t *gids,
                         int ci)
{
	unsigned c = 0;
	if (gids && gids[ci])
		c = cp > 0xFFFF ? pdf_font_cid_read(f, gids[ci], s, l) : pdf_font_cid_glyph(f, cp, gids[ci]);
	if (!c)
		c = cp <= 0xFFFF && pdf_font_has(f, cp) ? f->cid[cp] : pdf_font_cid(f, cp);
	return c;
}

/* A run of text as show_text draws it, but for white space that is no
 * space (page_run.gap): lead u before its first glyph, gap u after its
 * last, each taken into that glyph's advance (pdf_font_cid_wide: the
 * glyph drawn where it was, its advance widened; the one after the gap
 * starts where the gap does), so that no reader sees a gap there to read
 * as a space (pdftotext, MuPDF and pdf.js all do; the same gap as
 * character spacing, Tc, poppler and pdf.js take out of the glyph's width
 * again, MuPDF never counts it; an ActualText span MuPDF reads glyph by
 * glyph, and pdf.js not at all; /W widths alone MuPDF ignores for the
 * program's). 0 when it cannot (a CFF face), and the run is not drawn;
 * else 1, | 2 when the gap after it was taken in. */
static int show_gaps(pw_t *w, pdf_font_t *f, const page_run_t *r, int32_t lead, int32_t gap)
{
	const char *s = r->text;
	int n = r->len, al = 0, z = 0, zl = 0, ci = 0, zi = 0;
	uint32_t acp = 0, zcp = 0;
	for (int i = 0; i < n; ci++) {
		uint32_t cp;
		int l = utf8_decode(s + i, (size_t)(n - i), &cp);
		if (l <= 0)
			return 0;
		if (!i) {
			acp = cp;
			al = l;
		}
		z = i;
		zl = l;
		zcp = cp;
		zi = ci;
		i += l;
	}
	unsigned ca = 0, cz = 0;
	if (lead > 0) {
		/* one glyph: it takes in both */
		int32_t both = z == 0 && gap > 0 ? gap : 0;
		unsigned c = acp == ' ' ? 0 : text_cid(f, acp, s, al, r->gids, 0);
		int64_t wd = c ? (int64_t)sfnt_width(f->sf, c) * r->size / 1000 : 0;
		if (!c || !(ca = pdf_font_cid_wide(f, c, s, al, lead, (int32_t)wd + lead + both,
		                                   r->size))) {
			lead = 0;
		} else if (both) {
			put_cid(w, f, r, ca, -(int64_t)lead);
			return 3;
		}
	}
	if (gap > 0 && (lead <= 0 || z > 0)) {
		unsigned c = zcp == ' ' ? 0 : text_cid(f, zcp, s + z, zl, r->gids, zi);
		int64_t wd = c ? (int64_t)sfnt_width(f->sf, c) * r->size / 1000 : 0;
		if (!c || !(cz = pdf_font_cid_wide(f, c, s + z, zl, 0, (int32_t)wd + gap, r->size)))
			gap = 0;
	} else {
		gap = 0;
	}
	if (lead <= 0 && gap <= 0)
		return 0;
	int took = gap > 0 ? 3 : 1;
	int from = 0, to = gap > 0 ? z : n;
	if (lead > 0) {
		put_cid(w, f, r, ca, -(int64_t)lead);
		from = al;
	}
	if (to > from) {
		/* the glyphs between from the run's codes, as show_text */
		int skip = lead > 0;
		w->pen += show_text(w, f, s + from, (size_t)(to - from), r->gids ? r->gids + skip : NULL,
		                    r->size, r->track);
	}
	if (gap > 0)
		put_cid(w, f, r, cz, (w->pen + 500000) / 1000000 - r->x);
	return took;
}

/* The least white space that is no space (page_run.gap) that a glyph's
 * advance takes in: a fiftieth of an em. Less no reader takes for a space
 * (pdftotext read a Lao line's 0.02 em as one), and a justified Khmer
 * paragraph has a hundred of them: a glyph of its own each would take a
 * compact font past its 256 one-byte codes, and pdf.js reads a space at
 * the switch to its twin after a mark's empty glyph. */
#define GAP_MIN(r) ((r)->size / 50)

static int draw_run(pw_t *w, const page_run_t *r, int tag)
{
	if (!r->text || r->len <= 0)
		return 0;
	const char *bad = run_problem(r);
	if (bad) {
		warn_at(w->e, w->path, 0, 0, "page %d: skipped the text run at x=%d y=%d: %s",
		        w->pageno + 1, (int)r->x, (int)r->y, bad);
		return 0;
	}
	pdf_font_t *font = NULL;
	if (pdf_font_get(w, r->face, &font) < 0)
		return -1;
	int32_t owe = w->owe, owe_x = w->owe_x, owe_y = w->owe_y, gap = 0;
	w->owe = 0;
	if (r->len == 1 && *r->text == ' ' && !r->actual && no_space(font))
		return 0;
	w->what = "draw text";
	text_begin(w, 1);
	if (w->face != r->face || w->size != r->size) {
		w->face = r->face;
		w->size = r->size;
		w->wide = 0;
		set_font(w, font, r->size);
	}
	set_fill(w, r->color & 0xFFFFFF);
	int mode = r->synth & 1 ? 2 : 0; /* fill, then stroke: synthetic bold */
	if (mode)
		set_stroke(w, r->color & 0xFFFFFF, r->size * 3 / 100);
	if (w->mode != mode) {
		w->mode = mode;
		pdf_put(w, mode ? "2 Tr\n" : "0 Tr\n", 5);
	}
	if (w->rise && !r->glyphs)
		set_rise(w, 0);
	pdf_mc_text(w, tag, r->lang);
	/* clusters drawn glyph by glyph (a CFF face: no composites) read as
	   their text */
	const char *actual = r->actual;
	int actual_len = r->actual_len;
	if (!actual && r->glyphs && sfnt_is_cff(font->sf)) {
		actual = r->text;
		actual_len = r->len;
	}
	if (actual)
		actual_begin(w, actual, actual_len);
	if (w->tc != r->track) {
		/* tracking: Tc adds after every glyph (also after a run's last:
		   the pen in a TJ array counts it, and the next run's place in
		   it is measured from there) */
		char tc[40];
		w->tc = r->track;
		int k = pdf_num(tc, r->track, 3);
		memcpy(tc + k, " Tc\n", 4);
		pdf_put(w, tc, (size_t)k + 4);
	}
	if (r->adv) {
		/* a right-to-left word: each glyph where the layout put it, in
		   the text's order (page.h), as the runs it stands for */
		page_word_t g;
		page_run_t one;
		page_word_start(&g, r);
		int any;
		while ((any = page_word_next(&g, &one)) && one.len == 1 && *one.text == ' ' &&
		       no_space(font))
			;
		if (any) {
			text_at(w, &one, (r->synth & 2) != 0);
			w->pen += show_text(w, font, one.text, (size_t)one.len, NULL, r->size, r->track);
			word_rest(w, font, r, &g, (r->synth & 2) != 0);
		}
	} else {
		text_at(w, r, (r->synth & 2) != 0);
		int cut = r->glyphs || !actual || r->gids ? 0 : rtl_marks_at(r->text, r->len);
		/* white space that is no space, after the run and before it (the
		   run before left its gap: a CFF face) */
		int plain = !actual && !r->track;
		int g;
		gap = plain && r->gap >= GAP_MIN(r) ? r->gap : 0;
		int32_t lead = plain && owe > 0 && r->y == owe_y && r->x == owe_x &&
		               w->owe_page == w->pageno ? owe : 0;
		if (r->glyphs) {
			show_glyphs(w, font, r, sfnt_is_cff(font->sf) || font->color ? 0 : gap);
			if (!sfnt_is_cff(font->sf) && !font->color)
				gap = 0;
		} else if ((lead || gap) && (g = show_gaps(w, font, r, lead, gap)) > 0) {
			if (g & 2)
				gap = 0;
		} else if (cut) {
			/* a right-to-left letter and its marks: the marks in a
			   marked-content sequence of their own (inside the
			   ActualText span, which poppler reads), so that pdf.js,
			   which reverses the text it gathers between two glyphs
			   that move the pen leftwards, reads the letter, then its
			   marks ("مُ", not "ُم"); MuPDF reads the glyphs in order */
			w->pen += show_text(w, font, r->text, (size_t)cut, NULL, r->size, r->track);
			pdf_put(w, "/Span BMC\n[", 11);
			w->tj = 1;
			w->pen += show_text(w, font, r->text + cut, (size_t)(r->len - cut), NULL, r->size,
			                    r->track);
			pdf_put(w, "EMC\n", 4);
		} else {
			w->pen += show_text(w, font, r->text, (size_t)r->len, r->gids, r->size, r->track);
		}
	}
	if (actual)
		pdf_put(w, "EMC\n", 4);
	if (!r->adv && gap > 0) {
		w->owe = gap;
		w->owe_x = r->x + r->w + gap;
		w->owe_y = r->y;
		w->owe_page = w->pageno;
	}
	return 0;
}

/* Path operators: n points (u, PDF y up) then op. */
static void path_op(pw_t *w, const int32_t *v, int n, const char *op)
{
	char b[160];
	int k = 0;
	for (int i = 0; i < 2 * n; i++) {
		k += put_u(b + k, v[i]);
		b[k++] = ' ';
	}
	size_t l = strlen(op);
	memcpy(b + k, op, l);
	b[k + l] = '\n';
	pdf_put(w, b, (size_t)k + l + 1);
}

/* The path of a rectangle (top-left x, y; u) with corners of radius rad. */
static void rect_path(pw_t *w, int32_t x, int32_t y, int32_t wd, int32_t ht, int32_t rad)
{
	if (rad > wd / 2)
		rad = wd / 2;
	if (rad > ht / 2)
		rad = ht / 2;
	int32_t l = x, r = x + wd, t = w->doc->h - y, b = w->doc->h - (y + ht);
	if (rad <= 0) {
		path_op(w, (int32_t[]){l, b, wd, ht}, 2, "re");
		return;
	}
	/* four quarter circles as Bezier arcs (control points at 0.5523 r) */
	int32_t k = rad, c = (int32_t)(((int64_t)rad * 5523 + 5000) / 10000);
	path_op(w, (int32_t[]){l + k, b}, 1, "m");
	path_op(w, (int32_t[]){r - k, b}, 1, "l");
	path_op(w, (int32_t[]){r - k + c, b, r, b + k - c, r, b + k}, 3, "c");
	path_op(w, (int32_t[]){r, t - k}, 1, "l");
	path_op(w, (int32_t[]){r, t - k + c, r - k + c, t, r - k, t}, 3, "c");
	path_op(w, (int32_t[]){l + k, t}, 1, "l");
	path_op(w, (int32_t[]){l + k - c, t, l, t - k + c, l, t - k}, 3, "c");
	path_op(w, (int32_t[]){l, b + k}, 1, "l");
	path_op(w, (int32_t[]){l, b + k - c, l + k - c, b, l + k, b}, 3, "c");
	pdf_put(w, "h\n", 2);
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
	pdf_mc_artifact(w); /* rules and frames are decoration */
	uint32_t c = r->color & 0xFFFFFF;
	if (r->stroke > 0)
		set_stroke(w, c, r->stroke);
	else
		set_fill(w, c);
	rect_path(w, r->x, r->y, r->w, r->h, r->radius);
	pdf_put(w, r->stroke > 0 ? "S\n" : "f\n", 2);
}

/* PDF URIs are 7-bit: percent-encode bytes >= 0x80, controls and spaces. */
/* Into o (at least 3 * strlen(s) + 1 bytes). */
static char *uri_escape(const char *s, char *o)
{
	char *p = o;
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

static void draw_link(pw_t *w, const page_link_t *l, int tag)
{
	if (!l->url || !*l->url || l->w <= 0 || l->h <= 0)
		return;
	w->what = "add a link";
	if (strlen(l->url) > PDF_CHUNK / 3) {
		warn_at(w->e, w->path, 0, 0, "page %d: a link target of %zu bytes is too long; "
		        "the link is left out", w->pageno + 1, strlen(l->url));
		return;
	}
	/* the annotation as libharu's URI link with a border of 0 0 0 was,
	   written as a raw object (its dictionaries cost more than the rest) */
	unsigned a = pdf_num_new(w); /* no libharu object: pdf_save writes /Annots */
	pdf_annots_t *pa = &w->annots[w->pageno];
	if (!pa->arr) {
		pa->arr = pdf_array(w);
		pdf_ok(w, HPDF_Dict_Add(w->page, "Annots", pa->arr));
	}
	if (pa->n == pa->cap) {
		pa->cap = pa->cap ? 2 * pa->cap : 8;
		pa->ids = xrealloc(pa->ids, sizeof(unsigned) * (size_t)pa->cap);
	}
	pa->ids[pa->n++] = a;
	pdf_ser_t o;
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</Rect[");
	/* left bottom right top, exactly from the units (w, h > 0) */
	int32_t v[4] = {l->x, w->doc->h - (l->y + l->h), l->x + l->w, w->doc->h - l->y};
	for (int i = 0; i < 4; i++) {
		char t[24];
		pdf_ser_tok(&o, t, (size_t)put_u(t, v[i]), 1, 1);
	}
	pdf_ser_lit(&o, "]/Type/Annot/Subtype/Link/A<</Type/Action/S/URI/URI");
	const char *uri = uri_escape(l->url, w->tb);
	pdf_ser_string(&o, (const unsigned char *)uri, strlen(uri));
	pdf_ser_lit(&o, ">>/P");
	pdf_ser_ref(&o, pdf_obj_id(w->page));
	pdf_ser_lit(&o, "/Border[0 0 0]/F 4"); /* PDF/A: printable */
	pdf_tag_annot(w, tag, a, l->url, &o);
	pdf_ser_lit(&o, ">>");
	pdf_raw_end_num(w, &o, a);
	if (!w->plain) /* PDF/UA: annotations in structure order */
		pdf_ok(w, HPDF_Dict_AddName(w->page, "Tabs", "S"));
}

static int draw_image(pw_t *w, const page_image_t *im, int tag)
{
	if (!im->path || im->w <= 0 || im->h <= 0)
		return 0;
	HPDF_Image img = NULL;
	if (pw_image(w, im, &img) < 0)
		return -1;
	w->what = "draw an image";
	text_begin(w, 0);
	if (im->radius > 0) {
		/* the photo's shape: a clip around the image only */
		pdf_put(w, "q\n", 2);
		rect_path(w, im->x, im->y, im->w, im->h, im->radius);
		pdf_put(w, "W n\n", 4);
	}
	pdf_mc_figure(w, tag);
	const char *name = HPDF_Page_GetXObjectName(w->page, img);
	if (!name)
		pdf_ok(w, HPDF_FAILD_TO_ALLOC_MEM);
	char b[160];
	int k = 2;
	memcpy(b, "q\n", 2);
	int32_t v[] = {im->w, 0, 0, im->h, im->x, w->doc->h - (im->y + im->h)};
	for (int i = 0; i < 6; i++) {
		k += put_u(b + k, v[i]);
		b[k++] = ' ';
	}
	k += snprintf(b + k, sizeof(b) - (size_t)k, "cm\n/%s Do\nQ\n", name);
	pdf_put(w, b, (size_t)k);
	pdf_mc_close(w);
	if (im->radius > 0)
		pdf_put(w, "Q\n", 2);
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
	/* the /ProcSet libharu puts in the resources is obsolete (PDF 1.4+,
	   14.2: readers ignore it) and cost 41 bytes a page */
	HPDF_Dict res = HPDF_Dict_GetItem(w->page, "Resources", HPDF_OCLASS_DICT);
	if (res && HPDF_Dict_GetItem(res, "ProcSet", HPDF_OCLASS_ARRAY))
		pdf_ok(w, HPDF_Dict_RemoveElement(res, "ProcSet"));
	/* a new content stream starts in the default graphics state */
	w->in_text = 0;
	w->face = -1;
	w->size = 0;
	w->mode = 0;
	w->tj = w->lm = 0;
	w->fill = w->stroke = 0;
	w->lw = 1000;
	w->tc = 0;
	w->rise = 0;
	for (int j = 0; j < p->n; j++) {
		const page_item_t *it = &p->items[j];
		int rc = 0;
		switch (it->kind) {
		case PAGE_RUN: rc = draw_run(w, &it->u.run, it->tag); break;
		case PAGE_RECT: draw_rect(w, &it->u.rect); break;
		case PAGE_LINK: draw_link(w, &it->u.link, it->tag); break;
		case PAGE_IMAGE: rc = draw_image(w, &it->u.image, it->tag); break;
		default: break;
		}
		if (rc < 0)
			return -1;
	}
	text_begin(w, 0);
	pdf_mc_close(w);
	HPDF_PageAttr a = (HPDF_PageAttr)w->page->attr;
	pdf_hold(w, a->contents, w->content[i].s, w->content[i].len);
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

/* The text metadata shows for s: control characters become spaces (XML,
 * where the XMP copy lives, has none but tab and newline, and turns CR
 * into LF), cut at META_MAX bytes on a character boundary. Malloc'd. */
static char *meta_text(const char *s)
{
	size_t n = strlen(s);
	if (n > META_MAX) {
		n = META_MAX;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	char *o = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		o[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i];
	o[n] = '\0';
	return o;
}

/* An Info text string: a PDFDocEncoding literal when it can be, else
 * UTF-16BE (libharu's own drops characters beyond the BMP). */
static void info_put(pw_t *w, const char *key, const char *s)
{
	pdf_ok(w, HPDF_Dict_Add(w->pdf->info, key, pdf_text(w, s)));
}

static void set_info(pw_t *w)
{
	const page_doc_t *d = w->doc;
	static const struct {
		const char *key;
		size_t off;
		const char *name;
	} info[] = {
		{"Title", offsetof(page_doc_t, title), "the title"},
		{"Author", offsetof(page_doc_t, author), "the author"},
		{"Subject", offsetof(page_doc_t, subject), "the subject"},
		{"Keywords", offsetof(page_doc_t, keywords), "the keywords"},
		{"Creator", offsetof(page_doc_t, creator), "the creator"},
	};
	w->what = "set the document information";
	/* vita writes the file (its objects, streams and cross-reference
	   stream: pdf_save.c); libharu still builds some of the objects, so
	   both are named (libharu's own "Haru Free PDF Library 2.3.0" said
	   the whole file was its). pdf_meta.c copies it into the XMP. */
	char producer[96];
	snprintf(producer, sizeof(producer), "vita %s (libharu %s)", version_release,
	         HPDF_GetVersion());
	info_put(w, "Producer", producer);
	for (size_t i = 0; i < sizeof(info) / sizeof(info[0]); i++) {
		const char *v = *(const char *const *)((const char *)d + info[i].off);
		if (v && *v && utf8_ok(w, info[i].name, v))
			info_put(w, info[i].key, w->info[i] = meta_text(v));
	}
	/* a document needs a title (PDF/UA): the file's name, when it has none */
	const char *base = strrchr(w->path, '/') ? strrchr(w->path, '/') + 1 : w->path;
	if (!w->info[0] && !w->plain && strcmp(w->path, "-") && *base &&
	    utf8_invalid_at(base, strlen(base)) < 0)
		info_put(w, "Title", w->info[0] = meta_text(base));
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
	HPDF_Outline top = NULL; /* the last level-0 entry: the parent of level 1 */
	int n = 0;
	for (int i = 0; i < d->nmarks; i++) {
		const page_mark_t *m = &d->marks[i];
		if (m->page < 0 || m->page >= d->npages || !utf8_ok(w, "an outline title", m->title))
			continue;
		int32_t y = m->y < 0 ? 0 : m->y > d->h ? d->h : m->y;
		HPDF_Outline ol = HPDF_CreateOutline(w->pdf, m->level > 0 ? top : NULL, "", NULL);
		pdf_ok(w, HPDF_Dict_Add(ol, "Title", pdf_text(w, m->title)));
		if (m->level == 0)
			top = ol;
		HPDF_Outline_SetDestination(ol, mark_dest(w, w->pages[m->page], pdf_y(w, y)));
		n++;
	}
	if (n > 0)
		HPDF_SetPageMode(w->pdf, HPDF_PAGE_MODE_USE_OUTLINE);
}

/* libharu's memory for one document, taken in order from blocks that are
 * all let go at once when it is done: a CV's ~1,100 objects were each
 * malloc'd and freed (0.3 M instructions), and HPDF_Free walked them all
 * to free each (0.14 M on a 2-page CV, 0.6 M on a 250-publication one):
 * it is not called. libharu's alloc and free functions take no context and one
 * document is written at a time, so the pool is static; its first block
 * stays for the next document (a batch worker's). */
typedef struct hblock {
	struct hblock *next;
	size_t used, size;
	max_align_t data[];
} hblock_t;

enum { HPOOL_BLOCK = 64 * 1024 - 64 };
static hblock_t *hpool;   /* the block being filled, then the older ones */

static void *HPDF_STDCALL hpool_alloc(HPDF_UINT size)
{
	size_t n = ((size_t)size + 15) & ~(size_t)15;
	hblock_t *b = hpool;
	if (b && b->size - b->used >= n) {
		void *p = (char *)b->data + b->used;
		b->used += n;
		return p;
	}
	/* a large request gets a block of its own, behind the one being
	   filled, so that the room left in that one is not lost */
	size_t sz = n > HPOOL_BLOCK / 4 ? n : HPOOL_BLOCK;
	hblock_t *nb = xmalloc(sizeof(*nb) + sz);
	nb->size = sz;
	nb->used = n;
	if (b && sz != HPOOL_BLOCK) {
		nb->next = b->next;
		b->next = nb;
	} else {
		nb->next = b;
		hpool = nb;
	}
	return nb->data;
}

static void HPDF_STDCALL hpool_free(void *p)
{
	(void)p;   /* the whole pool goes in hpool_reset */
}

/* When the document is done (instead of HPDF_Free): every block but the
 * first one made. */
static void hpool_reset(void)
{
	hblock_t *keep = NULL;
	while (hpool) {
		hblock_t *b = hpool;
		hpool = b->next;
		if (!hpool && b->size == HPOOL_BLOCK)
			keep = b;
		else
			free(b);
	}
	if (keep) {
		keep->used = 0;
		keep->next = NULL;
	}
	hpool = keep;
}

/* Not inlined: the frame that holds setjmp keeps no locals of the build. */
static int pw_build(pw_t *w) __attribute__((noinline));
static int pw_build(pw_t *w)
{
	const page_doc_t *d = w->doc;
	if (d->w < HPDF_MIN_PAGE_SIZE * 1000 || d->w > HPDF_MAX_PAGE_SIZE * 1000 ||
	    d->h < HPDF_MIN_PAGE_SIZE * 1000 || d->h > HPDF_MAX_PAGE_SIZE * 1000)
		return pdf_fail(w, NULL, "cannot write the PDF: page size %dx%d u out of range",
		               (int)d->w, (int)d->h);
	w->what = "create the PDF";
	w->pdf = HPDF_NewEx(pdf_handler, hpool_alloc, hpool_free, 0, w);
	if (!w->pdf)
		return pdf_fail(w, NULL, "cannot create the PDF: out of memory");
	HPDF_SetCompressionMode(w->pdf, HPDF_COMP_ALL);
	w->pdf->pdf_version = HPDF_VER_17; /* pdf_save writes the header */
	set_info(w);
	pdf_tags_start(w);
	for (int i = 0; i < d->npages; i++)
		if (draw_page(w, i) < 0)
			return -1;
	add_marks(w);
	pdf_fonts_finish(w);
	pdf_tags_finish(w);
	pdf_meta_finish(w);
	return pdf_save(w);
}

/* ---- output file ---- */

static int open_output(pw_t *w)
{
	w->out = ofile_open(w->path, "the PDF", w->e);
	if (!w->out)
		return -1;
	w->fd = ofile_fd(w->out);
	return 0;
}

static int close_output(pw_t *w, int rc)
{
	if (ofile_close(w->out, rc == 0, w->e) < 0)
		rc = -1;
	return rc;
}

int pdf_write(const page_doc_t *doc, const char *path, errs_t *e)
{
	pdf_opts_t o = {0};
	return pdf_write_opts(doc, path, &o, e);
}

int pdf_write_opts(const page_doc_t *doc, const char *path, const pdf_opts_t *o, errs_t *e)
{
	pw_t *w = xcalloc(1, sizeof(*w));
	w->doc = doc;
	w->plain = o && o->plain;
	w->e = e;
	w->path = path;
	w->fd = -1;
	volatile int rc = -1;
	if (open_output(w) == 0) {
		w->fonts = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(pdf_font_t *));
		w->all = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(pdf_font_t *));
		w->tags = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(w->tags[0]));
		w->cps = xmalloc(65536 * sizeof(uint16_t));
		w->pages = xcalloc((size_t)(doc->npages > 0 ? doc->npages : 1), sizeof(HPDF_Page));
		w->content = xcalloc((size_t)(doc->npages > 0 ? doc->npages : 1), sizeof(buf_t));
		w->annots = xcalloc((size_t)(doc->npages > 0 ? doc->npages : 1), sizeof(pdf_annots_t));
		w->tb = xmalloc(PDF_CHUNK + 1);
		if (setjmp(w->jb) == 0) {
			rc = pw_build(w);
		} else {
			pdf_libharu_error(w);
			rc = -1;
		}
		/* the document, its objects and streams: the pool let go at once,
		   without HPDF_Free's walk of every object to free each (libharu
		   holds nothing else: no files, no memory of its own) */
		hpool_reset();
		w->pdf = NULL;
		pdf_deflate_done();
		rc = close_output(w, rc);
	}
	free(w->fonts);
	pdf_fonts_free(w);
	free(w->all);
	free(w->tags);
	free(w->cps);
	free(w->keep);
	free(w->pages);
	for (int i = 0; w->content && i < doc->npages; i++)
		buf_done(&w->content[i]);
	free(w->content);
	for (int i = 0; w->annots && i < doc->npages; i++)
		free(w->annots[i].ids);
	free(w->annots);
	for (int i = 0; i < w->nbufs; i++) {
		buf_done(w->bufs[i]);
		free(w->bufs[i]);
	}
	free(w->bufs);
	free(w->held);
	buf_done(&w->file);
	buf_done(&w->raw);
	free(w->imgs);
	free(w->tb);
	pdf_tags_free(w);
	for (int i = 0; i < 5; i++)
		free(w->info[i]);
	free(w->offsets);
	free(w->objs);
	free(w->types);
	buf_done(&w->sbuf[0]);
	buf_done(&w->sbuf[1]);
	free(w);
	return rc;
}
