/* pdf_int.h: what the src/pdf*.c files share (not a public interface; see
 * include/pdf.h). Only src/pdf*.c include this file, and only they may
 * include <hpdf.h>.
 *
 * Every libharu call is made from these files, with pdf_write's frame
 * holding the setjmp that libharu's error handler (and pdf_ok) longjmp
 * to: state that must survive the jump lives in pw_t, never in locals.
 */
#ifndef VITA_PDF_INT_H
#define VITA_PDF_INT_H
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <hpdf.h>
#include "buf.h"
#include "err.h"
#include "page.h"
#include "sfnt.h"

/* A feature's glyph drawn for a code point, and the CID it was given. */
typedef struct pdf_alt {
	uint16_t g, cp, cid;
} pdf_alt_t;

/* One embedded font: a face's program, the CIDs given to its code points
 * (pdf_font.c) and its Type0 dictionary. */
typedef struct pdf_font {
	const page_face_t *face;
	sfnt_t *sf;
	HPDF_Dict type0;
	uint8_t used[8192];         /* BMP code points drawn */
	uint16_t *cid;              /* 65,536: the CID of each code point drawn */
	int32_t *cw;                /* 65,536: its width (/W units), for show_text */
	uint8_t *owned;             /* per glyph: a code point has it as its CID */
	const char *local;          /* its resource name on page local_page - 1 */
	int local_page;
	pdf_alt_t *alts;            /* feature glyphs drawn (small caps, figures) */
	int nalts, capalts;
	int compact;                /* type0 has one-byte codes: CIDs 0-255 */
	int color;                  /* colour bitmaps (sfnt_is_bitmap): type0 is a
	                               Type 3 font of one-byte codes (the CIDs
	                               below PDF_CODE1), its glyphs images; bank[b]
	                               (b > 0, made on first use) that of CIDs
	                               256 b .. 256 b + 255 */
	HPDF_Dict *bank;            /* 256 of them; [0] unused (type0) */
	const char **blocal;        /* bank[b]'s resource name on page bpage[b] - 1 */
	int *bpage;
	HPDF_Dict type0w;           /* a compact font's Identity-H twin for the
	                               CIDs past 255 (copies), once needed */
	const char *localw;         /* its resource name on page localw_page - 1 */
	int localw_page;
	/* glyphs of shaped clusters (page_glyph_t) and what each CID of
	   them reads as: utf8[off..off+n) (n 0: nothing), by (glyph, text) */
	struct pdf_cgl *cgl;
	int ncgl, capcgl;
	int *cglh;                  /* open addressing: index + 1, capcglh a power of two */
	int capcglh;
	buf_t cgtext;
	/* the face's glyph ids to the subset's (pf_subset_gid), the last
	   looked up by id % 256: id << 16 | subset id (zero: 0 -> 0) */
	uint32_t sgid[256];
} pdf_font_t;

typedef struct pdf_cgl {
	uint16_t g, cid;
	uint32_t off, n;            /* cgtext[off..off+n): the text it reads as */
	uint32_t hash;
	size_t kn;                  /* cgtext[off..off+kn): its key (the text, then
	                               a composite's glyphs and offsets) */
} pdf_cgl_t;

/* A font of at most PDF_CODE1 glyphs (every Latin subset: a few dozen)
 * is compact: its Type0 font draws CID c < PDF_CODE1 with the one-byte
 * code c (the CMap pdf_font.c embeds), half the bytes of Identity-H's
 * two. A copy past that (two code points, one glyph) is drawn with its
 * Identity-H twin (type0w). */
#define PDF_CODE1 256

typedef struct pdf_img {
	const char *path;
	HPDF_Image img;
} pdf_img_t;

/* A page's link annotations: raw objects by number (pdf_num_new), which
 * pdf_save writes as the value of the page's /Annots, arr: an empty
 * libharu array that holds the key's place in the page dictionary. */
typedef struct pdf_annots {
	HPDF_Array arr;
	unsigned *ids;
	int n, cap;
} pdf_annots_t;

typedef struct pdf_tags pdf_tags_t; /* pdf_tags.c */
typedef struct pw pw_t;

/* A value being written (pdf_save.c's serializer, pdf_ser_*). */
typedef struct pdf_ser {
	pw_t *w;
	buf_t *b;
	int reg;                /* the last byte written is a regular character */
} pdf_ser_t;

/* Stream data the pdf module holds itself (pdf_hold), by object number:
 * pdf_save deflates it from there instead of from a libharu stream. */
typedef struct pdf_held {
	const void *p;
	size_t n;
	int set;
	int raw;         /* the object's whole value is w->raw.s[off..off+n) */
	int konst;       /* the same data in every PDF (pdf_deflate_const) */
	int stream;      /* a raw stream: its dictionary's entries are
	                    w->raw.s[off..off+dn), its data p[0..n) */
	int flate;       /* ... deflated at this level (0: written as it is,
	                    PDF_Z_DONE: deflated already) */
	int free;        /* a number kept free (where libharu had the stream's
	                    /Length: the others keep their numbers) */
	size_t dn;
	size_t off;
} pdf_held_t;

struct pw {
	const page_doc_t *doc;
	errs_t *e;
	const char *path;        /* the target, "-" for stdout */
	HPDF_Doc pdf;
	jmp_buf jb;
	HPDF_STATUS code, detail;
	const char *what;        /* what we asked libharu to do, for messages */
	const char *subject;     /* the file that step is about (font, image) */
	struct ofile *out;       /* the output (ofile.h) */
	int fd;                  /* its descriptor */
	pdf_font_t **fonts;      /* per face id; NULL until used */
	pdf_font_t **all;        /* the distinct fonts, in order of first use */
	char (*tags)[8];         /* per font: its subset tag */
	int nfonts;
	uint16_t *cps;           /* 65,536: one font's code point per CID */
	uint8_t *keep;           /* per glyph of one font: embed it */
	HPDF_Page *pages;
	pdf_img_t *imgs;
	int nimgs;
	char *tb;                /* text chunk buffer, PDF_CHUNK + 1 bytes */
	/* drawing state of the current page */
	HPDF_Page page;
	int pageno;              /* 0-based index of page */
	int in_text, face, mode;
	int wide;                /* the font set (Tf) is face's type0w */
	int tj;                  /* a TJ array is open (pdf_put closes it) */
	int32_t ty;              /* its baseline (u, from the top) */
	int64_t pen;             /* where the viewer's pen is in it, 1e-9 pt */
	size_t gap_at, gap_end;  /* the content's last TJ number, [at, end) ... */
	int64_t gap;             /* ... its value (pdf_num's, 3 decimals) ... */
	int gap_page;            /* ... and its page */
	int lm, lslant;          /* the line matrix is set (Tm/Td), slanted */
	int32_t lx, ly;          /* its origin (u, PDF y up) */
	int32_t size, lw;
	int32_t tc;              /* character spacing (Tc), u */
	int32_t rise;            /* text rise (Ts), u: a cluster's mark */
	int32_t owe, owe_x, owe_y; /* u: the last run's gap (page_run.gap) that its
	                            glyphs did not take in (a CFF face), where
	                            the run after it starts, its baseline, page */
	int owe_page;
	uint32_t fill, stroke;
	int plain;               /* untagged: no structure, no PDF/A or UA claims */
	int zcontent;            /* pdf_save: the page contents' deflate level */
	char *info[5];           /* Title, Author, Subject, Keywords, Creator as
	                            written to Info (and the XMP), or NULL */
	pdf_tags_t *tg;          /* the structure being built; NULL when plain */
	void *tg_kids;           /* pdf_tags_finish's (freed with pw) */
	HPDF_Stream scratch[3];  /* pdf_save's buffers (libharu memory) */
	buf_t sbuf[2];           /* pdf_save's object stream (freed with pw) */
	buf_t file;              /* pdf_save: the whole file */
	buf_t *content;          /* per page: its content stream */
	pdf_held_t *held;        /* per object number (pdf_hold) */
	unsigned nheld;
	buf_t raw;               /* the values of raw objects (pdf_raw_begin) */
	size_t raw_start;        /* where the one being written starts */
	void *cmap;              /* the compact fonts' CMap stream, once made */
	buf_t **bufs;            /* buffers held for the document (pdf_buf) */
	int nbufs;
	pdf_annots_t *annots;    /* per page: its link annotations */
	uint64_t *offsets;       /* pdf_save: per object */
	void **objs;             /* pdf_save: libharu's object of each number
	                            (NULL: a number of pdf_num_new) */
	unsigned char *types;
};

/* pdf_obj.c: errors and libharu objects (each longjmps on failure). */
void pdf_handler(HPDF_STATUS code, HPDF_STATUS detail, void *user);
/* Record the libharu error the handler caught (w->code, w->detail). */
void pdf_libharu_error(pw_t *w);
int pdf_fail(pw_t *w, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void pdf_ok(pw_t *w, HPDF_STATUS rc);
void *pdf_obj(pw_t *w, void *obj);
HPDF_Dict pdf_stream(pw_t *w, const void *data, size_t n);
/* A raw stream object (a libharu null in the xref, as pdf_raw_new) with
 * data p[0..n), not copied: it must stay valid until pdf_save; dict holds
 * its dictionary's entries but /Length and /Filter ("/N 3"); flate: the
 * deflate level (/Filter/FlateDecode, PDF_Z_*), 0: written as it is,
 * PDF_Z_DONE: p is a zlib stream already (/Filter/FlateDecode).
 * pdf_save writes it. */
void *pdf_raw_stream(pw_t *w, const void *p, size_t n, const char *dict, int flate);
/* Stream dictionary d's data is p[0..n), held by the caller until the
 * document is saved; d's own libharu stream stays empty. */
void pdf_hold(pw_t *w, HPDF_Dict d, const void *p, size_t n);
const pdf_held_t *pdf_held(const pw_t *w, void *obj);
/* An empty buffer that lives as long as the document (for pdf_hold). */
buf_t *pdf_buf(pw_t *w);
HPDF_Array pdf_array(pw_t *w);
/* s in PDFDocEncoding into out, or (size_t)-1 (pdf_obj.c). */
size_t pdf_docenc(const char *s, char *out);
/* A text string object for UTF-8 s: a literal in PDFDocEncoding when it
 * can be, else UTF-16BE. */
void *pdf_text(pw_t *w, const char *s);
/* metadata and outline titles are cut to this many bytes of UTF-8 */
#define META_MAX 16000
/* s cut to META_MAX bytes at a character boundary (into tmp when cut). */
const char *pdf_meta_clip(const char *s, char tmp[META_MAX + 1]);
/* s (UTF-8, at most META_MAX bytes) as UTF-16BE with a BOM into w->tb;
 * its length. */
size_t pdf_utf16_bytes(pw_t *w, const char *s);
/* s (UTF-8, at most META_MAX bytes) as a UTF-16BE string object (BOM). */
void *pdf_utf16(pw_t *w, const char *s);

/* pdf_obj.c: append to the current page's content stream. */
void pdf_put(pw_t *w, const char *s, size_t n);
/* The same without closing an open TJ array (pdf.c's text). */
void pdf_put_raw(pw_t *w, const char *s, size_t n);
/* v / 10^d in decimal into o, at most d decimals, trailing zeros dropped
 * (no printf: content streams are mostly numbers); its length. */
int pdf_num(char *o, int64_t v, int d);

/* pdf_tags.c: marked content and the structure tree (nothing when plain). */
void pdf_tags_start(pw_t *w);
void pdf_mc_text(pw_t *w, int tag, const char *lang);
void pdf_mc_artifact(pw_t *w);
void pdf_mc_figure(pw_t *w, int tag);
void pdf_mc_close(pw_t *w);
/* The tagged part of link annotation a (the number of a raw object)
 * being written to o: /Contents, /StructParent; its place in the
 * structure tree. */
void pdf_tag_annot(pw_t *w, int tag, unsigned a, const char *url, pdf_ser_t *o);
void pdf_tags_finish(pw_t *w);
void pdf_tags_free(pw_t *w);

/* pdf_meta.c: XMP, output intent, /Lang, viewer preferences. */
void pdf_meta_finish(pw_t *w);

/* pdf_save.c: the file, with an object stream and an xref stream. */
int pdf_save(pw_t *w);

/* pdf_ser.c: values written as pdf_save writes libharu's objects (a
 * space only between two tokens that need one), for raw objects: the
 * many small dictionaries (structure elements, link annotations) written
 * directly instead of built as libharu objects. */
/* (The small ones inline: the structure tree of a long CV writes tens of
 * thousands of tokens, a call and a memcpy call each cost more than the
 * bytes.) */
static inline void pdf_ser_put(buf_t *b, const char *t, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		buf_add(b, t, n);
		return;
	}
	memcpy(b->s + b->len, t, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void pdf_ser_tok(pdf_ser_t *o, const char *t, size_t n, int starts_reg,
                               int ends_reg)
{
	if (o->reg && starts_reg)
		pdf_ser_put(o->b, " ", 1);
	pdf_ser_put(o->b, t, n);
	o->reg = ends_reg;
}

/* c is a regular character: not white space, not a delimiter */
static inline int pdf_ser_regular(unsigned char c)
{
	return c > ' ' && c != '(' && c != ')' && c != '<' && c != '>' && c != '[' && c != ']' &&
	       c != '{' && c != '}' && c != '/' && c != '%';
}

/* v >= 0 in decimal ending at e, with tail[0..nt) after it; its start */
static inline char *pdf_ser_digits(char *e, unsigned long long v)
{
	do {
		*--e = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return e;
}

static inline void pdf_ser_int(pdf_ser_t *o, long long v)
{
	char t[24], *e = t + sizeof(t);
	char *b = pdf_ser_digits(e, v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v);
	if (v < 0)
		*--b = '-';
	pdf_ser_tok(o, b, (size_t)(e - b), 1, 1);
}

static inline void pdf_ser_ref(pdf_ser_t *o, unsigned id)   /* "N 0 R" */
{
	char t[24], *e = t + sizeof(t) - 4;
	memcpy(e, " 0 R", 4);
	char *b = pdf_ser_digits(e, id);
	pdf_ser_tok(o, b, (size_t)(e + 4 - b), 1, 1);
}
void pdf_ser_real(pdf_ser_t *o, float r);             /* as a libharu real */
void pdf_ser_name(pdf_ser_t *o, const char *s);
void pdf_ser_string(pdf_ser_t *o, const unsigned char *v, size_t n);
void pdf_ser_binary(pdf_ser_t *o, const unsigned char *v, size_t n);
/* tokens: pdf_ser_lit(o, "/Type/Annot"), a string literal (spaced by its
 * first and last characters, known when compiled) */
void pdf_ser_litn(pdf_ser_t *o, const char *s, size_t n);
#define pdf_ser_lit(o, lit) \
	pdf_ser_tok((o), "" lit, sizeof(lit) - 1, pdf_ser_regular((lit)[0]), \
	            pdf_ser_regular((lit)[sizeof(lit) - 2]))

/* pdf_obj.c: a raw object: an indirect object (a libharu null in the
 * xref, which other objects refer to as usual) whose value is the text
 * written between pdf_raw_begin and pdf_raw_end. */
void *pdf_raw_new(pw_t *w);
unsigned pdf_obj_id(const void *obj);
void pdf_raw_begin(pw_t *w, pdf_ser_t *o);
void pdf_raw_end(pw_t *w, pdf_ser_t *o, void *obj);
/* A number for an object that only the pdf module's raw objects refer to
 * (no libharu object: a libharu dictionary cannot hold it); its value
 * is written between pdf_raw_begin and pdf_raw_end_num. */
unsigned pdf_num_new(pw_t *w);
void pdf_raw_end_num(pw_t *w, pdf_ser_t *o, unsigned id);
const pdf_held_t *pdf_held_num(const pw_t *w, unsigned id);
/* pdf_ser.c: s as pdf_text's object would be written (a literal or
 * UTF-16BE hex). */
void pdf_ser_text(pdf_ser_t *o, const char *s);

/* pdf_font.c: fonts built from the faces' programs. */
int pdf_font_get(pw_t *w, int face, pdf_font_t **out);
unsigned pdf_font_cid(pdf_font_t *f, uint32_t cp);
/* Whether code point cp has its CID in f already (then f->cid[cp] and
 * f->cw[cp] hold it and its width). */
static inline int pdf_font_has(const pdf_font_t *f, uint32_t cp)
{
	return f->used[cp >> 3] >> (cp & 7) & 1;
}
/* The CID of code point cp drawn with the face's glyph gid (a feature's:
 * page_run.gids), which extraction reads as cp. */
unsigned pdf_font_cid_glyph(pdf_font_t *f, uint32_t cp, unsigned gid);
/* The CID of the face's glyph gid drawn for a cluster, reading as
 * s[0..n) (UTF-8, BMP; n 0: as nothing): cp's own CID when s is one code
 * point cp whose cmap glyph gid is, else one of its own (ToUnicode maps
 * it to s). 0 when the subset lacks the glyph. */
unsigned pdf_font_cid_read(pdf_font_t *f, unsigned gid, const char *s, int n);
/* The CID of a cluster drawn as one composite glyph of the face's glyphs
 * gids[0..m) moved by (dx, dy) u from its pen, advancing adv u at size
 * (TrueType), reading as s[0..n); 0 when it cannot be made. m 0, adv 0:
 * an empty glyph that reads as s[0..n). */
unsigned pdf_font_cid_cluster(pdf_font_t *f, const char *s, int n, const uint16_t *gids,
                              const int32_t *dx, const int32_t *dy, int m, int32_t adv,
                              int32_t size);
/* The CID of CID c's glyph moved right by dx u, advancing adv u at size
 * (TrueType: a composite of it), reading as s[0..n): a glyph whose
 * advance takes in white space layout put beside it that is no space
 * (page_run.gap). 0 when it cannot be made (CFF, a colour font). */
unsigned pdf_font_cid_wide(pdf_font_t *f, unsigned c, const char *s, int n, int32_t dx,
                           int32_t adv, int32_t size);
/* A compact font's Identity-H twin, made on first use. */
HPDF_Dict pdf_font_twin(pw_t *w, pdf_font_t *f);
/* A colour font's Type 3 font of CIDs 256 b .. 256 b + 255 (b 0: type0),
 * made on first use. */
HPDF_Dict pdf_font_bank(pw_t *w, pdf_font_t *f, int b);
/* Which of f's fonts draws CID c: a compact font's type0 (0) or its twin
 * (1, two-byte codes), a colour font's bank c >> 8; 1 for any other. */
static inline int pdf_font_which(const pdf_font_t *f, unsigned c)
{
	return f->color ? (int)(c >> 8) : f->compact ? c >= PDF_CODE1 : 1;
}
/* The CIDs font which of f draws: lo..lo + span - 1. */
static inline void pdf_font_range(const pdf_font_t *f, int which, unsigned *lo, unsigned *span)
{
	*lo = f->color ? (unsigned)which * PDF_CODE1 : f->compact && which ? PDF_CODE1 : 0;
	*span = f->color ? PDF_CODE1 : f->compact && !which ? PDF_CODE1 : ~0u - *lo;
}
/* Whether CID c takes two bytes in f's font that draws it. */
static inline int pdf_font_two(const pdf_font_t *f, unsigned c)
{
	return !f->color && (!f->compact || c >= PDF_CODE1);
}
void pdf_fonts_finish(pw_t *w);
void pdf_fonts_free(pw_t *w);

/* Deflate levels (libdeflate) by kind of stream. Level 1 costs about half
 * the instructions of level 6; level 6 is kept where it saves bytes that
 * count. Measured per stream of zhanda-zhu and long-250 (bytes out,
 * instructions): TrueType subsets 7.0 KB 4,769/352 K at 1, 4,657/631 K at
 * 6 (2-3% larger); ToUnicode 0.6 KB 317/64 K vs 316/92 K; a CFF 0.9 KB
 * 832/102 K vs 830/137 K; the xref stream (rows through the Up
 * predictor) is smaller at level 1: long-250's 15 KB 632/260 K vs
 * 656/519 K; content and object streams lose 5-25% at level 1. */
#define PDF_Z_FAST 1              /* pdf_zfast.c's greedy parse (not libdeflate's level 1) */
#define PDF_Z_LAZY 13             /* pdf_zfast.c's lazy parse (pdf_zlazy), about libdeflate's level 5's size */
#define PDF_Z_BEST 6
#define PDF_Z_FONT PDF_Z_FAST     /* font programs (TrueType, CFF) */
#define PDF_Z_CMAP PDF_Z_FAST     /* ToUnicode maps */
/* Page contents and a small object stream: the greedy parse, 8% larger
 * than the lazy one (zhanda-zhu's 25.6 KB of both: 8,626 B against 8,016)
 * in 36% fewer instructions (0.85 M against 1.33 M); the XMP, deflated
 * too (PDF/A-2 allows it, PDF/A-1 did not), more than pays for the bytes
 * (2,121 B -> ~940). A document of more than PDF_Z_LAZY_CONTENT bytes of
 * page contents (some 6 pages and more) has them at PDF_Z_LAZY: there the
 * bytes add up (long-250's 28 pages: +7.1 KB, +6.7%, at PDF_Z_FAST). */
#define PDF_Z_CONTENT PDF_Z_FAST
#define PDF_Z_LAZY_CONTENT 65536
#define PDF_Z_OBJSTM 14           /* the object stream: PDF_Z_FAST up to PDF_Z_LAZY_BLOCK bytes, else libdeflate's level 5: its blocks follow the data (long-250's 233 KB: 35.6 KB, pdf_zlazy's 32 KiB blocks 37.6 KB) */
#define PDF_Z_META PDF_Z_FAST     /* the XMP metadata */
#define PDF_Z_LAZY_BLOCK 32768    /* pdf_zlazy's block: one for a stream of up to this */
#define PDF_Z_XREF PDF_Z_FAST     /* the cross-reference stream */
#define PDF_Z_DONE (-1)           /* a raw stream's data is deflated already */

/* pdf_deflate.c: zlib-format deflate at level (PDF_Z_FAST, PDF_Z_LAZY:
 * pdf_zfast.c; else libdeflate's, 2-12); *out
 * stays valid until the next call; returns its length, 0 on failure. */
size_t pdf_deflate(const void *in, size_t n, int level, const unsigned char **out);
/* The same for an input that is the same in every PDF (the ICC profile):
 * its output is also kept between processes (a file in the cache). */
size_t pdf_deflate_const(const void *in, size_t n, const unsigned char **out);
/* A document is written: from the next one on, inputs are kept in the
 * memo (a batch's next CVs find the streams of the earlier ones there;
 * a process that writes one PDF would only copy them). */
void pdf_deflate_done(void);
/* libdeflate's zlib inflate of in[0..n) into out[0..cap): the bytes
 * written, or -1 unless in is one whole zlib stream (checksum right,
 * nothing after it) of at most cap bytes (image.h: image_inflate_fn, for
 * a colour font's glyph). */
long pdf_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap);

/* pdf_zfast.c: raw deflate (RFC 1951) of in[0..n) into out[0..cap),
 * cap >= pdf_zfast_bound(n); returns its length, 0 when it cannot.
 * pdf_deflate's PDF_Z_FAST (pdf_zfast.c says why and how). */
size_t pdf_zfast(const void *in, size_t n, unsigned char *out, size_t cap);
/* The same with lazy matching on hash chains (PDF_Z_LAZY). */
size_t pdf_zlazy(const void *in, size_t n, unsigned char *out, size_t cap);
size_t pdf_zfast_bound(size_t n);

#endif
