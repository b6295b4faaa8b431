/* pdf: the only libharu user. Places a page list into a PDF file.
 *
 *   if (pdf_write(doc, "cv.pdf", &e) < 0) ... (exit errs_code(&e), i.e. 3)
 *
 * How it works:
 * - The output is opened first (a temporary "PATH.XXXXXX" beside PATH, or
 *   stdout for "-", or PATH itself when it is a device or a FIFO: renaming
 *   over /dev/stdout would replace the device) so an unwritable target
 *   fails before any work.
 * - libharu's error handler records (error, detail) and longjmps back into
 *   pdf_write: setjmp lives only there, and every libharu call is made from
 *   this file's helpers, so no other module's frame is ever skipped. After a
 *   libharu error the document is in a sticky error state and its handles
 *   may be NULL, so nothing is called on it any more except HPDF_Free.
 * - Faces are loaded lazily (only those used), after a sanity check of the
 *   TrueType tables (upem, hmtx metrics vs glyphs, loca, cmap, name; CFF
 *   and .ttc are refused), and read through mmap with bounds checks.
 * - Each page is one text object as long as only runs follow each other;
 *   a run sets font/size, colour, render mode only when they change, and is
 *   placed with an absolute text matrix (italic = slanted matrix), so no
 *   error accumulates. Synthetic bold is fill+stroke at 3% of the size.
 * - Fonts are not libharu fonts: HPDF_GetFont costs a 65,536-code-point
 *   sweep per font and a 128 KiB CIDToGIDMap (over half our run time), so
 *   the Type0/CIDFontType2/descriptor/FontFile2/ToUnicode objects are
 *   built here with libharu's low-level object API from the code points
 *   drawn. CID = glyph id (Identity-H, /CIDToGIDMap /Identity, /W by
 *   GID); ToUnicode maps each CID to its code point (bfchar). A code point
 *   whose glyph another code point already uses (or that has no glyph) gets
 *   a copy of that glyph appended to the font program, so every CID maps
 *   back to exactly one code point and extraction stays exact. Text goes
 *   into the content stream as literal strings of 2-byte CIDs, (...) with
 *   \\ ( ) CR LF escaped. Two files with one PostScript name get distinct
 *   subset tags.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <hpdf.h>
#include "buf.h"
#include "arena.h"
#include "image.h"
#include "pdf.h"
#include "utf8.h"

#define PDF_CHUNK 65000          /* string bytes per Tj (PDF strings: < 65,536) */
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
	struct pfont **fonts;    /* per face id; NULL until used */
	struct pfont **all;      /* the distinct fonts, in order of first use */
	char (*tags)[8];         /* per font: its subset tag */
	int nfonts;
	uint16_t *cps;           /* 65,536: one font's code point per CID */
	uint8_t *keep;           /* per glyph of one font: embed it */
	uint16_t *stack;
	struct bbuf { unsigned char *p; size_t n, cap; } fb; /* font program */
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

/* ---- fonts: our own CIDFontType2 objects ----
 *
 * libharu 2.3.0's HPDF_GetFont looks up all 65,536 BMP code points per
 * font (linear cmap search) to build /W and a 131,072-byte CIDToGIDMap,
 * and re-serialises the font program: over half of our run time. So the
 * font objects are built here with libharu's low-level object API instead
 * (the same API as the ToUnicode fix), from the code points actually drawn:
 * Type0 (Identity-H, CID = GID) -> CIDFontType2 with /W by CID and
 * /CIDToGIDMap /Identity -> descriptor -> FontFile2. The font program keeps
 * libharu's table set and glyph numbering; glyf/loca keep only the glyphs
 * drawn (with composite components, recursively), so even a full, unsubset
 * font embeds small. A code point is given its CID when first drawn: its
 * glyph id, or, when that glyph already belongs to another code point (two
 * code points, one glyph; or no glyph: GID 0, never used as a CID), a new
 * glyph appended after the font's last one as a copy of it (glyf, loca,
 * maxp; hmtx then has a full metric per glyph). Text is written
 * as literal strings of 2-byte CIDs straight into the page's content
 * stream. */

enum { T_OS2, T_CMAP, T_CVT, T_FPGM, T_GLYF, T_HEAD, T_HHEA, T_HMTX, T_LOCA, T_MAXP,
       T_NAME, T_POST, T_PREP, T_N };
/* sorted, as an sfnt table directory must be */
static const char tt_tags[T_N][5] = {"OS/2", "cmap", "cvt ", "fpgm", "glyf", "head",
                                     "hhea", "hmtx", "loca", "maxp", "name", "post", "prep"};

typedef struct pfont {
	const char *file;
	unsigned char *p;           /* the file, mapped */
	size_t n;
	uint32_t off[T_N], len[T_N]; /* len 0: absent */
	unsigned upem, nglyphs, nmetrics, locfmt;
	const unsigned char *cmap;  /* the Unicode subtable used */
	uint32_t cmaplen;
	int cmapfmt;                /* 4 or 12 */
	char ps[64];                /* PostScript name */
	HPDF_Dict type0;
	uint8_t used[8192];         /* BMP code points drawn */
	uint16_t *cid;              /* 65,536: the CID of each code point drawn */
	uint8_t *owned;             /* per glyph: a code point has it as its CID */
	uint16_t *dup;              /* CID nglyphs + k draws a copy of glyph dup[k] */
	unsigned ndup;
} pfont_t;

static int16_t s16(const unsigned char *p)
{
	return (int16_t)be16(p);
}

/* The PostScript name (name ID 6), reduced to what a PDF name may hold. */
static int tt_psname(pfont_t *f)
{
	const unsigned char *t = f->p + f->off[T_NAME];
	uint32_t len = f->len[T_NAME];
	if (len < 6)
		return -1;
	unsigned count = be16(t + 2), soff = be16(t + 4);
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < count && 6 + 12 * (i + 1) <= len; i++) {
			const unsigned char *r = t + 6 + 12 * i;
			unsigned plat = be16(r), id = be16(r + 6), n = be16(r + 8), o = be16(r + 10);
			int wide = plat == 3 || plat == 0;
			if (id != 6 || (pass == 0 ? plat != 1 : !wide) || (uint32_t)soff + o + n > len)
				continue;
			const unsigned char *s = t + soff + o;
			size_t k = 0;
			for (unsigned j = wide; j < n && k < sizeof(f->ps) - 1; j += 1u + wide) {
				unsigned char c = s[j];
				if (c > 32 && c < 127 && !strchr("[](){}<>/%#", c) && (!wide || !s[j - 1]))
					f->ps[k++] = (char)c;
			}
			f->ps[k] = '\0';
			if (k > 0)
				return 0;
		}
	return -1;
}

/* Pick the best Unicode cmap subtable: (3,10) format 12, then format 4. */
static int tt_cmap(pfont_t *f)
{
	const unsigned char *t = f->p + f->off[T_CMAP];
	uint32_t len = f->len[T_CMAP];
	int best = 0;
	unsigned n = len >= 4 ? be16(t + 2) : 0;
	for (unsigned i = 0; i < n && 4 + 8 * (i + 1) <= len; i++) {
		const unsigned char *r = t + 4 + 8 * i;
		unsigned plat = be16(r), enc = be16(r + 2);
		uint32_t o = be32(r + 4);
		if (!(plat == 0 || (plat == 3 && (enc == 1 || enc == 10))) || o > len - 8)
			continue;
		unsigned fmt = be16(t + o);
		uint32_t sl = fmt == 12 ? be32(t + o + 4) : be16(t + o + 2);
		int score = fmt == 12 ? 3 : fmt == 4 ? 1 + (plat == 3) : 0;
		if (score <= best || sl > len - o || sl < (fmt == 12 ? 16u : 14u))
			continue;
		best = score;
		f->cmap = t + o;
		f->cmaplen = sl;
		f->cmapfmt = (int)fmt;
	}
	return best ? 0 : -1;
}

static unsigned tt_gid(const pfont_t *f, uint32_t cp)
{
	const unsigned char *c = f->cmap;
	unsigned g = 0;
	if (f->cmapfmt == 12) {
		uint32_t ng = be32(c + 12);
		for (uint32_t i = 0; i < ng && 16 + 12 * (uint64_t)(i + 1) <= f->cmaplen; i++) {
			const unsigned char *r = c + 16 + 12 * i;
			if (cp >= be32(r) && cp <= be32(r + 4)) {
				g = (unsigned)(be32(r + 8) + (cp - be32(r)));
				break;
			}
		}
	} else {
		unsigned segx2 = be16(c + 6);
		if (16 + 4 * (uint32_t)segx2 > f->cmaplen)
			return 0;
		for (unsigned i = 0; i < segx2; i += 2) {
			if (cp > be16(c + 14 + i))
				continue;
			unsigned start = be16(c + 16 + segx2 + i), delta = be16(c + 16 + 2 * segx2 + i);
			uint32_t ro_at = 16 + 3 * (uint32_t)segx2 + i, ro = be16(c + ro_at);
			if (cp < start)
				break;
			if (ro == 0) {
				g = (cp + delta) & 0xFFFF;
			} else {
				uint32_t at = ro_at + ro + 2 * (cp - start);
				unsigned v = at + 2 <= f->cmaplen ? be16(c + at) : 0;
				g = v ? (v + delta) & 0xFFFF : 0;
			}
			break;
		}
	}
	return g < f->nglyphs ? g : 0;
}

/* Width in 1/1000 em, truncated as libharu did (layout measures so). */
static int tt_width(const pfont_t *f, unsigned g)
{
	unsigned m = g < f->nmetrics ? g : f->nmetrics - 1;
	return (int)(be16(f->p + f->off[T_HMTX] + 4 * m) * 1000u / f->upem);
}

/* Glyph g's bytes in glyf; 0 and *len 0 when empty or out of bounds. */
static const unsigned char *tt_glyph(const pfont_t *f, unsigned g, uint32_t *len)
{
	const unsigned char *l = f->p + f->off[T_LOCA];
	uint32_t a, b;
	if (f->locfmt) {
		a = be32(l + 4 * g);
		b = be32(l + 4 * g + 4);
	} else {
		a = 2 * be16(l + 2 * g);
		b = 2 * be16(l + 2 * g + 2);
	}
	*len = 0;
	if (a >= b || b > f->len[T_GLYF])
		return NULL;
	*len = b - a;
	return f->p + f->off[T_GLYF] + a;
}

static const char *tt_parse(pfont_t *f)
{
	const unsigned char *p = f->p;
	if (f->n < 12)
		return "too short for a TrueType font";
	unsigned nt = be16(p + 4);
	if (12 + 16 * (size_t)nt > f->n)
		return "corrupt TrueType table directory";
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *d = p + 12 + 16 * i;
		for (int k = 0; k < T_N; k++) {
			if (memcmp(d, tt_tags[k], 4))
				continue;
			uint32_t o = be32(d + 8), l = be32(d + 12);
			if (o > f->n || l > f->n - o)
				return "a TrueType table lies outside the file";
			f->off[k] = o;
			f->len[k] = l;
		}
	}
	if (f->len[T_HEAD] < 54 || f->len[T_HHEA] < 36 || f->len[T_MAXP] < 6 || !f->len[T_GLYF])
		return "a required TrueType table (head, hhea, maxp, glyf) is missing";
	if (!f->len[T_CMAP] || tt_cmap(f))
		return "the font has no usable Unicode cmap";
	if (!f->len[T_NAME] || tt_psname(f))
		return "the font has no PostScript name (name ID 6)";
	f->upem = be16(p + f->off[T_HEAD] + 18);
	f->locfmt = be16(p + f->off[T_HEAD] + 50) != 0;
	f->nglyphs = be16(p + f->off[T_MAXP] + 4);
	f->nmetrics = be16(p + f->off[T_HHEA] + 34);
	if (f->upem < 16 || f->upem > 16384)
		return "invalid unitsPerEm in the head table";
	if (!f->nglyphs || !f->nmetrics || f->nmetrics > f->nglyphs ||
	    f->len[T_HMTX] < 4 * f->nmetrics)
		return "hhea.numberOfHMetrics does not fit maxp.numGlyphs or hmtx";
	if (f->len[T_LOCA] < (f->nglyphs + 1) * (f->locfmt ? 4u : 2u))
		return "the loca table is too short";
	if (f->len[T_OS2] >= 10 && be16(p + f->off[T_OS2] + 8) & (0x0002 | 0x0100 | 0x0200))
		return "the font's licence forbids embedding or subsetting";
	return NULL;
}

/* A growing byte buffer kept in pw_t, so a longjmp cannot leak it. */
typedef struct bbuf bbuf_t;

static unsigned char *bb_grow(bbuf_t *b, size_t k)
{
	if (b->n + k > b->cap) {
		while (b->n + k > b->cap)
			b->cap = b->cap ? 2 * b->cap : 65536;
		b->p = xrealloc(b->p, b->cap);
	}
	unsigned char *o = b->p + b->n;
	b->n += k;
	return o;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static uint32_t tt_sum(const unsigned char *p, size_t n)
{
	uint32_t s = 0;
	for (size_t i = 0; i < n; i += 4)
		s += be32(p + i); /* tables are zero-padded to 4 bytes */
	return s;
}

/* Mark the glyphs composite glyph g uses, recursively (a work list). */
static void tt_closure(const pfont_t *f, uint8_t *keep, uint16_t *stack)
{
	int sp = 0;
	for (unsigned g = 0; g < f->nglyphs; g++)
		if (keep[g])
			stack[sp++] = (uint16_t)g;
	while (sp > 0) {
		uint32_t len;
		const unsigned char *d = tt_glyph(f, stack[--sp], &len);
		if (len < 10 || s16(d) >= 0)
			continue;
		uint32_t at = 10;
		unsigned flags;
		do {
			if (at + 4 > len)
				break;
			flags = be16(d + at);
			unsigned c = be16(d + at + 2);
			at += 4 + (flags & 1 ? 4 : 2) + (flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
			if (c < f->nglyphs && !keep[c]) {
				keep[c] = 1;
				stack[sp++] = (uint16_t)c;
			}
		} while (flags & 0x20);
	}
}

/* Glyph g of the program: glyph g of the font when kept, or the glyph an
 * appended copy (g >= nglyphs) copies; NULL and *len 0 when empty. */
static const unsigned char *tt_out_glyph(const pfont_t *f, const uint8_t *keep, unsigned g,
                                         uint32_t *len)
{
	*len = 0;
	if (g >= f->nglyphs)
		return tt_glyph(f, f->dup[g - f->nglyphs], len);
	return keep[g] ? tt_glyph(f, g, len) : NULL;
}

/* hmtx with a full metric for every glyph, the copies' taken from the
 * glyphs they copy (text extractors measure gaps with the font's own
 * advances, so a copy must keep its glyph's). */
static void tt_hmtx(const pfont_t *f, bbuf_t *b)
{
	const unsigned char *h = f->p + f->off[T_HMTX];
	uint32_t len = f->len[T_HMTX];
	unsigned total = f->nglyphs + f->ndup;
	for (unsigned i = 0; i < total; i++) {
		unsigned g = i < f->nglyphs ? i : f->dup[i - f->nglyphs];
		unsigned m = g < f->nmetrics ? g : f->nmetrics - 1;
		uint32_t at = g < f->nmetrics ? 4 * g + 2 : 4 * f->nmetrics + 2 * (g - f->nmetrics);
		unsigned char *o = bb_grow(b, 4);
		memcpy(o, h + 4 * m, 2); /* tt_parse checked 4 * nmetrics <= len */
		o[2] = at + 2 <= len ? h[at] : 0;
		o[3] = at + 2 <= len ? h[at + 1] : 0;
	}
}

/* Table k of the program into b. */
static void tt_table(const pfont_t *f, int k, const uint8_t *keep, bbuf_t *b)
{
	unsigned total = f->nglyphs + f->ndup;
	size_t at = b->n;
	uint32_t len;
	if (k == T_GLYF) {
		for (unsigned g = 0; g < total; g++) {
			const unsigned char *d = tt_out_glyph(f, keep, g, &len);
			if (d) {
				memcpy(bb_grow(b, len), d, len);
				memset(bb_grow(b, (4 - len % 4) % 4), 0, (4 - len % 4) % 4);
			}
		}
	} else if (k == T_LOCA) {
		/* glyf comes first in tag order, so its layout is known */
		uint32_t o = 0;
		unsigned char *l = bb_grow(b, 4 * ((size_t)total + 1));
		for (unsigned g = 0; g < total; g++) {
			put32(l + 4 * g, o);
			if (tt_out_glyph(f, keep, g, &len))
				o += (len + 3) & ~3u;
		}
		put32(l + 4 * total, o);
	} else if (k == T_HMTX && f->ndup) {
		tt_hmtx(f, b);
	} else if (k == T_POST && f->ndup && f->len[k] >= 32) {
		/* glyph names count the glyphs: keep none (format 3) */
		memcpy(bb_grow(b, 32), f->p + f->off[k], 32);
		put32(b->p + at, 0x00030000);
	} else {
		memcpy(bb_grow(b, f->len[k]), f->p + f->off[k], f->len[k]);
		if (k == T_HEAD) {
			put32(b->p + at + 8, 0);     /* checkSumAdjustment */
			put16(b->p + at + 50, 1);    /* indexToLocFormat: long */
		} else if (k == T_MAXP) {
			put16(b->p + at + 4, total); /* numGlyphs */
		} else if (k == T_HHEA && f->ndup) {
			put16(b->p + at + 34, total); /* numberOfHMetrics */
		}
	}
}

/* The font program: libharu's table set, glyf/loca cut to the kept glyphs
 * (long loca) plus the copies, checksums and head.checkSumAdjustment
 * recomputed. */
static void tt_program(const pfont_t *f, const uint8_t *keep, bbuf_t *b)
{
	int nt = 0;
	for (int k = 0; k < T_N; k++)
		nt += f->len[k] > 0 || k == T_LOCA;
	unsigned es = 0;
	while ((2u << es) <= (unsigned)nt)
		es++;
	b->n = 0;
	unsigned char *h = bb_grow(b, 12 + 16 * (size_t)nt);
	put32(h, 0x00010000);
	put16(h + 4, (unsigned)nt);
	put16(h + 6, 16u << es);
	put16(h + 8, es);
	put16(h + 10, 16u * (unsigned)nt - (16u << es));
	size_t dir = 12, head_at = 0;
	for (int k = 0; k < T_N; k++) {
		if (!f->len[k] && k != T_LOCA)
			continue;
		size_t at = b->n;
		if (k == T_HEAD)
			head_at = at;
		tt_table(f, k, keep, b);
		size_t len = b->n - at;
		memset(bb_grow(b, (4 - len % 4) % 4), 0, (4 - len % 4) % 4);
		unsigned char *e = b->p + dir;
		memcpy(e, tt_tags[k], 4);
		put32(e + 4, tt_sum(b->p + at, len + 3 - (len + 3) % 4));
		put32(e + 8, (uint32_t)at);
		put32(e + 12, (uint32_t)len);
		dir += 16;
	}
	put32(b->p + head_at + 8, 0xB1B0AFBAu - tt_sum(b->p, b->n));
}

/* Collect libharu status codes; any failure is out of memory here. */
static void pw_ok(pw_t *w, HPDF_STATUS rc)
{
	if (rc != HPDF_OK) {
		w->code = rc;
		w->detail = 0;
		longjmp(w->jb, 1);
	}
}

static void *pw_obj(pw_t *w, void *obj)
{
	if (!obj)
		pw_ok(w, HPDF_FAILD_TO_ALLOC_MEM);
	return obj;
}

static HPDF_Dict pw_stream(pw_t *w, const void *data, size_t n)
{
	HPDF_Dict d = pw_obj(w, HPDF_DictStream_New(w->pdf->mmgr, w->pdf->xref));
	d->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
	if (n)
		pw_ok(w, HPDF_Stream_Write(d->stream, data, (HPDF_UINT)n));
	return d;
}

static int pw_load(pw_t *w, pfont_t *f)
{
	int fd = open(f->file, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || st.st_size <= 0 || (uintmax_t)st.st_size > SIZE_MAX) {
		if (fd >= 0)
			close(fd);
		return pw_fail(w, f->file, "cannot open the font: %s", strerror(errno));
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		return pw_fail(w, f->file, "cannot read the font: %s", strerror(errno));
	}
	f->p = p;
	f->n = (size_t)st.st_size;
	const char *bad = tt_parse(f);
	if (bad) {
		return pw_fail(w, f->file, "cannot embed the font: %s", bad);
	}
	f->cid = xmalloc(65536 * sizeof(uint16_t));
	f->owned = xcalloc(f->nglyphs, 1);
	f->owned[0] = 1; /* CID 0 (.notdef) stands for no code point */
	HPDF_Dict t = f->type0 = pw_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pw_ok(w, HPDF_Xref_Add(w->pdf->xref, t));
	pw_ok(w, HPDF_Dict_AddName(t, "Type", "Font"));
	pw_ok(w, HPDF_Dict_AddName(t, "Subtype", "Type0"));
	pw_ok(w, HPDF_Dict_AddName(t, "Encoding", "Identity-H"));
	return 0;
}

/* A subset tag (6 capitals) from the name and the code points drawn,
 * distinct from every earlier font's in this document. */
static void pf_tag(pw_t *w, const pfont_t *f, char tag[8])
{
	uint64_t h = 1469598103934665603u;
	for (const char *s = f->ps; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	for (int i = 0; i < 8192; i++)
		h = (h ^ f->used[i]) * 1099511628211u;
	for (;;) {
		uint64_t x = h;
		for (int i = 0; i < 6; i++, x /= 26)
			tag[i] = (char)('A' + x % 26);
		tag[6] = '+';
		tag[7] = '\0';
		int clash = 0;
		for (int i = 0; i < w->nfonts && w->all[i] != f; i++)
			clash |= !memcmp(w->tags[i], tag, 6);
		if (!clash)
			break;
		h = h * 6364136223846793005u + 1442695040888963407u;
	}
}

static HPDF_Array pw_array(pw_t *w)
{
	return pw_obj(w, HPDF_Array_New(w->pdf->mmgr));
}

/* The glyph CID c draws. */
static unsigned pf_glyph(const pfont_t *f, unsigned c)
{
	return c < f->nglyphs ? c : f->dup[c - f->nglyphs];
}

/* /W: [c [w w ...] ...] for the CIDs drawn (cps[c] != 0) whose width is
 * not /DW. */
static HPDF_Array pf_widths(pw_t *w, const pfont_t *f, const uint16_t *cps, unsigned n, int dw)
{
	HPDF_Array a = pw_array(w), run = NULL;
	for (unsigned c = 1; c < n; c++) {
		int wd = cps[c] ? tt_width(f, pf_glyph(f, c)) : dw;
		if (wd == dw) {
			run = NULL;
			continue;
		}
		if (!run) {
			pw_ok(w, HPDF_Array_AddNumber(a, (HPDF_INT32)c));
			run = pw_array(w);
			pw_ok(w, HPDF_Array_Add(a, run));
		}
		pw_ok(w, HPDF_Array_AddNumber(run, wd));
	}
	return a;
}

/* ToUnicode: each CID drawn to its code point (bfchar, 100 per block;
 * libharu 2.3's own map used the invalid "begincidrange"). */
static HPDF_Dict pf_tounicode(pw_t *w, const uint16_t *cps, unsigned n)
{
	HPDF_Dict d = pw_stream(w, NULL, 0);
	HPDF_Stream st = d->stream;
	pw_ok(w, HPDF_Stream_WriteStr(st, "/CIDInit /ProcSet findresource begin\n12 dict begin\n"
	                                  "begincmap\n/CIDSystemInfo << /Registry (Adobe) "
	                                  "/Ordering (UCS) /Supplement 0 >> def\n/CMapName "
	                                  "/Adobe-Identity-UCS def\n/CMapType 2 def\n1 "
	                                  "begincodespacerange\n<0000> <FFFF>\n"
	                                  "endcodespacerange\n"));
	char line[40];
	unsigned c = 1;
	for (;;) {
		unsigned k = 0, end = c;
		while (end < n && k < 100)
			k += cps[end++] != 0;
		if (k == 0)
			break;
		snprintf(line, sizeof(line), "%u beginbfchar\n", k);
		pw_ok(w, HPDF_Stream_WriteStr(st, line));
		for (; c < end; c++)
			if (cps[c]) {
				snprintf(line, sizeof(line), "<%04X> <%04X>\n", c, cps[c]);
				pw_ok(w, HPDF_Stream_WriteStr(st, line));
			}
		pw_ok(w, HPDF_Stream_WriteStr(st, "endbfchar\n"));
	}
	pw_ok(w, HPDF_Stream_WriteStr(st, "endcmap\nCMapName currentdict /CMap defineresource pop\n"
	                                  "end\nend\n"));
	return d;
}

static int em(const pfont_t *f, int v)
{
	return (int)((long)v * 1000 / (long)f->upem);
}

static HPDF_Dict pf_descriptor(pw_t *w, const pfont_t *f, const char *name)
{
	const unsigned char *head = f->p + f->off[T_HEAD], *hhea = f->p + f->off[T_HHEA];
	const unsigned char *os2 = f->len[T_OS2] >= 78 ? f->p + f->off[T_OS2] : NULL;
	const unsigned char *post = f->len[T_POST] >= 16 ? f->p + f->off[T_POST] : NULL;
	int ascent = em(f, s16(hhea + 4)), descent = em(f, s16(hhea + 6));
	int cap = os2 && f->len[T_OS2] >= 90 && be16(os2) >= 2 ? em(f, s16(os2 + 88)) : ascent;
	double italic = post ? (double)(int32_t)be32(post + 4) / 65536.0 : 0;
	unsigned weight = os2 ? be16(os2 + 4) : 400;
	double k = weight > 50 ? (weight - 50) / 900.0 : 0;
	int flags = 4 | (post && be32(post + 12) ? 1 : 0) |
	            (italic != 0 || (be16(head + 44) & 2) ? 64 : 0);
	HPDF_Dict d = pw_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pw_ok(w, HPDF_Xref_Add(w->pdf->xref, d));
	pw_ok(w, HPDF_Dict_AddName(d, "Type", "FontDescriptor"));
	pw_ok(w, HPDF_Dict_AddName(d, "FontName", name));
	pw_ok(w, HPDF_Dict_AddNumber(d, "Flags", flags));
	HPDF_Array bb = pw_array(w);
	for (int i = 0; i < 4; i++)
		pw_ok(w, HPDF_Array_AddNumber(bb, em(f, s16(head + 36 + 2 * i))));
	pw_ok(w, HPDF_Dict_Add(d, "FontBBox", bb));
	pw_ok(w, HPDF_Dict_AddReal(d, "ItalicAngle", (HPDF_REAL)italic));
	pw_ok(w, HPDF_Dict_AddNumber(d, "Ascent", ascent));
	pw_ok(w, HPDF_Dict_AddNumber(d, "Descent", descent));
	pw_ok(w, HPDF_Dict_AddNumber(d, "CapHeight", cap));
	pw_ok(w, HPDF_Dict_AddNumber(d, "StemV", (int)(10 + 220 * k * k)));
	return d;
}

/* Complete one font's objects from the code points drawn with it. */
static void pf_finish(pw_t *w, pfont_t *f, int idx)
{
	/* cps[c]: the code point CID c stands for (0: none) */
	uint16_t *cps = w->cps;
	unsigned n = f->nglyphs + f->ndup;
	memset(cps, 0, n * sizeof(uint16_t));
	for (uint32_t cp = 1; cp <= 0xFFFF; cp++)
		if (f->used[cp >> 3] >> (cp & 7) & 1 && !cps[f->cid[cp]])
			cps[f->cid[cp]] = (uint16_t)cp;
	uint8_t *keep = w->keep = xrealloc(w->keep, f->nglyphs);
	memset(keep, 0, f->nglyphs);
	keep[0] = 1;
	for (unsigned c = 1; c < n; c++)
		if (cps[c])
			keep[pf_glyph(f, c)] = 1;
	w->stack = xrealloc(w->stack, sizeof(uint16_t) * f->nglyphs);
	tt_closure(f, keep, w->stack);
	tt_program(f, keep, &w->fb);

	char name[80];
	pf_tag(w, f, w->tags[idx]);
	snprintf(name, sizeof(name), "%s%s", w->tags[idx], f->ps);
	HPDF_Dict ff = pw_stream(w, w->fb.p, w->fb.n);
	pw_ok(w, HPDF_Dict_AddNumber(ff, "Length1", (HPDF_INT32)w->fb.n));
	HPDF_Dict desc = pf_descriptor(w, f, name);
	pw_ok(w, HPDF_Dict_Add(desc, "FontFile2", ff));

	HPDF_Dict cid = pw_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pw_ok(w, HPDF_Xref_Add(w->pdf->xref, cid));
	pw_ok(w, HPDF_Dict_AddName(cid, "Type", "Font"));
	pw_ok(w, HPDF_Dict_AddName(cid, "Subtype", "CIDFontType2"));
	pw_ok(w, HPDF_Dict_AddName(cid, "BaseFont", name));
	HPDF_Dict si = pw_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pw_ok(w, HPDF_Dict_Add(si, "Registry", pw_obj(w, HPDF_String_New(w->pdf->mmgr, "Adobe", NULL))));
	pw_ok(w, HPDF_Dict_Add(si, "Ordering", pw_obj(w, HPDF_String_New(w->pdf->mmgr, "Identity", NULL))));
	pw_ok(w, HPDF_Dict_AddNumber(si, "Supplement", 0));
	pw_ok(w, HPDF_Dict_Add(cid, "CIDSystemInfo", si));
	pw_ok(w, HPDF_Dict_Add(cid, "FontDescriptor", desc));
	int dw = tt_width(f, 0);
	pw_ok(w, HPDF_Dict_AddNumber(cid, "DW", dw));
	pw_ok(w, HPDF_Dict_Add(cid, "W", pf_widths(w, f, cps, n, dw)));
	pw_ok(w, HPDF_Dict_AddName(cid, "CIDToGIDMap", "Identity"));

	HPDF_Dict t = f->type0;
	pw_ok(w, HPDF_Dict_AddName(t, "BaseFont", name));
	HPDF_Array desc_fonts = pw_array(w);
	pw_ok(w, HPDF_Array_Add(desc_fonts, cid));
	pw_ok(w, HPDF_Dict_Add(t, "DescendantFonts", desc_fonts));
	pw_ok(w, HPDF_Dict_Add(t, "ToUnicode", pf_tounicode(w, cps, n)));
}

/* ---- resources ---- */

static int pw_font(pw_t *w, int face, pfont_t **out)
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
	for (int i = 0; i < w->nfonts; i++) /* the same file under two ids */
		if (!strcmp(w->all[i]->file, file)) {
			*out = w->fonts[face] = w->all[i];
			return 0;
		}
	if (pw_check_font(w, file) < 0)
		return -1;
	w->what = "load the font";
	pfont_t *f = xcalloc(1, sizeof(*f));
	f->file = file;
	w->all[w->nfonts++] = f; /* owned by w from here on */
	if (pw_load(w, f) < 0)
		return -1;
	*out = w->fonts[face] = f;
	return 0;
}

static int pw_image(pw_t *w, const page_image_t *im, HPDF_Image *out)
{
	for (int i = 0; i < w->nimgs; i++)
		if (!strcmp(w->imgs[i].path, im->path)) {
			*out = w->imgs[i].img;
			return 0;
		}
	/* libharu lets libpng abort() on a damaged PNG: decode it first */
	image_info_t ii;
	const char *why = "not a PNG file";
	if (image_probe(im->path, &ii, &why) || ii.png != im->png)
		return pw_fail(w, im->path, "cannot embed the image: %s", why);
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

/* Append to the page's content stream (libharu's operators write there
 * too; text goes straight in, as CIDs, since our fonts are not libharu
 * fonts). */
static void page_put(pw_t *w, const char *s, size_t n)
{
	HPDF_PageAttr a = (HPDF_PageAttr)w->page->attr;
	pw_ok(w, HPDF_Stream_Write(a->stream, (const HPDF_BYTE *)s, (HPDF_UINT)n));
}

/* "/F1 10.5 Tf": size in u, printed exactly (up to 3 decimals). */
static void set_font(pw_t *w, pfont_t *f, int32_t size)
{
	const char *local = HPDF_Page_GetLocalFontName(w->page, f->type0);
	if (!local)
		pw_ok(w, HPDF_FAILD_TO_ALLOC_MEM);
	char buf[160];
	int k = snprintf(buf, sizeof(buf), "/%s %d", local, (int)(size / 1000));
	if (size % 1000) {
		k += snprintf(buf + k, sizeof(buf) - (size_t)k, ".%03d", (int)(size % 1000));
		while (buf[k - 1] == '0')
			k--;
	}
	k += snprintf(buf + k, sizeof(buf) - (size_t)k, " Tf\n");
	page_put(w, buf, (size_t)k);
}

/* The CID of code point cp (BMP, not 0) in f, given when first drawn:
 * its glyph, or a new copy of it when another code point has that glyph
 * (only a font of 65,535 glyphs has to share it). */
static unsigned pf_cid(pfont_t *f, uint32_t cp)
{
	if (f->used[cp >> 3] >> (cp & 7) & 1)
		return f->cid[cp];
	unsigned g = tt_gid(f, cp), c = g;
	if (!f->owned[g]) {
		f->owned[g] = 1;
	} else if (f->nglyphs + f->ndup < 65535) {
		if (f->ndup % 64 == 0)
			f->dup = xrealloc(f->dup, (f->ndup + 64) * sizeof(uint16_t));
		f->dup[f->ndup] = (uint16_t)g;
		c = f->nglyphs + f->ndup++;
	}
	f->used[cp >> 3] |= (uint8_t)(1u << (cp & 7));
	f->cid[cp] = (uint16_t)c;
	return c;
}

/* Show text[0..n) (valid UTF-8, BMP) as (2-byte CIDs) Tj, one string per
 * PDF_CHUNK bytes of CIDs, escaping \\ ( ) CR and LF. */
static void show_text(pw_t *w, pfont_t *f, const char *s, size_t n)
{
	char *o = w->tb;
	size_t cap = PDF_CHUNK - 8, k = 0, chunk = 0;
	o[k++] = '(';
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(s + i, n - i, &cp);
		if (l <= 0 || cp > 0xFFFF)
			break;
		unsigned c = pf_cid(f, cp);
		if (chunk + 2 > PDF_CHUNK) {
			memcpy(o + k, ") Tj\n", 5);
			page_put(w, o, k + 5);
			k = 0;
			o[k++] = '(';
			chunk = 0;
		}
		if (k + 4 > cap) {
			page_put(w, o, k);
			k = 0;
		}
		unsigned char b[2] = {(unsigned char)(c >> 8), (unsigned char)c};
		for (int j = 0; j < 2; j++) {
			unsigned char x = b[j];
			if (x == '\\' || x == '(' || x == ')' || x == '\r' || x == '\n') {
				o[k++] = '\\';
				x = x == '\r' ? 'r' : x == '\n' ? 'n' : x;
			}
			o[k++] = (char)x;
		}
		chunk += 2;
		i += (size_t)l;
	}
	memcpy(o + k, ") Tj\n", 5);
	page_put(w, o, k + 5);
}

/* Marked content whose /ActualText (UTF-16BE) is what extraction reads
 * instead of the glyphs up to the matching EMC. */
static void actual_begin(pw_t *w, const char *s, int n)
{
	static const char hex[] = "0123456789abcdef";
	char o[64];
	page_put(w, "/Span<</ActualText<feff", 23);
	for (int i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(s + i, (size_t)(n - i), &cp);
		if (l <= 0)
			break;
		i += l;
		int k = 0;
		uint32_t u[2] = {cp, 0};
		int nu = 1;
		if (cp > 0xFFFF) {
			u[0] = 0xD800 + ((cp - 0x10000) >> 10);
			u[1] = 0xDC00 + ((cp - 0x10000) & 0x3FF);
			nu = 2;
		}
		for (int j = 0; j < nu; j++)
			for (int sh = 12; sh >= 0; sh -= 4)
				o[k++] = hex[u[j] >> sh & 15];
		page_put(w, o, (size_t)k);
	}
	page_put(w, ">>>BDC\n", 7);
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
	pfont_t *font = NULL;
	if (pw_font(w, r->face, &font) < 0)
		return -1;
	w->what = "draw text";
	text_begin(w, 1);
	if (w->face != r->face || w->size != r->size) {
		w->face = r->face;
		w->size = r->size;
		set_font(w, font, r->size);
	}
	set_fill(w, r->color & 0xFFFFFF);
	int mode = r->synth & 1 ? HPDF_FILL_THEN_STROKE : HPDF_FILL;
	if (mode == HPDF_FILL_THEN_STROKE)
		set_stroke(w, r->color & 0xFFFFFF, r->size * 3 / 100);
	if (w->mode != mode) {
		w->mode = mode;
		HPDF_Page_SetTextRenderingMode(w->page, (HPDF_TextRenderingMode)mode);
	}
	HPDF_REAL c = r->synth & 2 ? PDF_SLANT : 0;
	HPDF_Page_SetTextMatrix(w->page, 1, 0, c, 1, pt(r->x), pdf_y(w, r->y));
	if (r->actual)
		actual_begin(w, r->actual, r->actual_len);
	show_text(w, font, r->text, (size_t)r->len);
	if (r->actual)
		page_put(w, "EMC\n", 4);
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

static void draw_link(pw_t *w, const page_link_t *l)
{
	if (!l->url || !*l->url || l->w <= 0 || l->h <= 0)
		return;
	w->what = "add a link";
	HPDF_Rect rc = {pt(l->x), pdf_y(w, l->y + l->h), pt(l->x + l->w), pdf_y(w, l->y)};
	if (strlen(l->url) > PDF_CHUNK / 3) {
		warn_at(w->e, w->path, 0, 0, "page %d: a link target of %zu bytes is too long; "
		        "the link is left out", w->pageno + 1, strlen(l->url));
		return;
	}
	HPDF_Annotation a = HPDF_Page_CreateURILinkAnnot(w->page, rc, uri_escape(l->url, w->tb));
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

/* libharu refuses strings of 65,535 bytes or more (and counts them again
 * as UTF-16): metadata and outline titles longer than META_MAX bytes are
 * cut at a character boundary into tmp (w->tb: no heap memory to lose
 * when libharu's error handler jumps out). */
#define META_MAX 16000
static const char *meta_clip(const char *s, char tmp[META_MAX + 1])
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
			HPDF_SetInfoAttr(w->pdf, info[i].type, meta_clip(v, w->tb));
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
		HPDF_Outline ol = HPDF_CreateOutline(w->pdf, NULL, meta_clip(m->title, w->tb), enc);
		HPDF_Outline_SetDestination(ol, mark_dest(w, w->pages[m->page], pdf_y(w, y)));
		n++;
	}
	if (n > 0)
		HPDF_SetPageMode(w->pdf, HPDF_PAGE_MODE_USE_OUTLINE);
}

static void fix_fonts(pw_t *w)
{
	w->what = "write the fonts";
	for (int i = 0; i < w->nfonts; i++)
		pf_finish(w, w->all[i], i);
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
		if (buf_write_fd(w->fd, buf, k) < 0)
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
	struct stat st;
	if (!stat(w->path, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) ||
	                            S_ISSOCK(st.st_mode))) {
		w->fd = open(w->path, O_WRONLY | O_CLOEXEC);
		if (w->fd < 0)
			return pw_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
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
	/* replacing a file: keep its permissions */
	if (!stat(w->path, &st) && S_ISREG(st.st_mode))
		(void)fchmod(w->fd, st.st_mode & 07777);
	return 0;
}

static int close_output(pw_t *w, int rc)
{
	if (!w->tmp) {
		if (w->fd != STDOUT_FILENO && close(w->fd) < 0 && rc == 0)
			rc = pw_fail(w, NULL, "cannot write the PDF: %s", strerror(errno));
		return rc;
	}
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
		w->all = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(pfont_t *));
		w->tags = xcalloc((size_t)(doc->nfaces > 0 ? doc->nfaces : 1), sizeof(w->tags[0]));
		w->cps = xmalloc(65536 * sizeof(uint16_t));
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
	for (int i = 0; i < w->nfonts; i++) {
		if (w->all[i]->p)
			munmap(w->all[i]->p, w->all[i]->n);
		free(w->all[i]->cid);
		free(w->all[i]->owned);
		free(w->all[i]->dup);
		free(w->all[i]);
	}
	free(w->all);
	free(w->tags);
	free(w->cps);
	free(w->keep);
	free(w->stack);
	free(w->fb.p);
	free(w->pages);
	free(w->imgs);
	free(w->tb);
	free(w);
	return rc;
}
