/* pdf_font: the Type0 / CIDFontType2 (TrueType) or CIDFontType0 (CFF)
 * font objects, built with libharu's low-level object API from the faces'
 * font programs (sfnt.c reads and cuts them) and the code points drawn;
 * the CIDFont and its descriptor, which only our objects refer to, are
 * raw objects (pdf_ser: the bytes libharu's dictionaries gave, without
 * the /W array's hundreds of number objects).
 *
 *   pdf_font_t *f; pdf_font_get(w, run->face, &f);   (parsed on first use)
 *   unsigned cid = pdf_font_cid(f, cp);              (2 bytes in a Tj string)
 *   pdf_fonts_finish(w);  (after the last page: programs, /W, ToUnicode)
 *
 * Why not libharu fonts: HPDF_GetFont costs a 65,536-code-point sweep per
 * font and a 128 KiB CIDToGIDMap (over half of our run time), and 2.3.0
 * loads fonts only from files. So: Type0 (Identity-H or one-byte codes,
 * CID = GID) ->
 * CIDFontType2 with /W by CID and /CIDToGIDMap /Identity -> descriptor ->
 * FontFile2; for CFF outlines CIDFontType0 -> FontFile3 /CIDFontType0C, a
 * CID-keyed CFF that sfnt.c writes with the identity charset (CID = GID
 * there too). A code point is given its CID when first drawn: its glyph id,
 * or, when that glyph already belongs to another code point (two code
 * points, one glyph; or no glyph: GID 0, never used as a CID), a copy of
 * the glyph appended to the program (sfnt_copy), so every CID maps back to
 * exactly one code point and extraction stays exact. A glyph an OpenType
 * feature chose (a small capital: page_run.gids) is given a CID the same
 * way, owned by the code point it was drawn for: ToUnicode maps it back to
 * that code point, so small capitals extract as the lower-case letters
 * written. Two faces with one PostScript name get distinct subset tags.
 *
 * A compact font (at most 256 glyphs when loaded: pdf_int.h) has codes of
 * one byte: its Type0 font's encoding is the CMap Vita-OneByte-H embedded
 * once per document (<00>-<FF> are CIDs 0-255; its CIDSystemInfo is the
 * CIDFont's Adobe-Identity-0, as PDF/A-2 6.2.11.3.1 asks of a CMap that
 * is not Identity-H), and its ToUnicode maps those codes. A copy made
 * past CID 255 is drawn with a twin Type0 font: Identity-H, the same
 * CIDFont, a ToUnicode of two-byte codes (MuPDF reads a ToUnicode by
 * CID within the encoding's code space, so one CMap mixing one- and
 * two-byte codes would lose the text of CIDs 256 and up there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "image.h"
#include "pdf_int.h"
#include "unicode.h"
#include "utf8.h"

/* cps[] of a CID only clusters' glyphs have (U+0001 is never drawn) */
#define PF_CLUSTER 1

/* A subset tag (6 capitals) from the name and the code points drawn,
 * distinct from every earlier font's in this document. */
static void pf_tag(pw_t *w, const pdf_font_t *f, char tag[8])
{
	uint64_t h = 1469598103934665603u;
	for (const char *s = sfnt_psname(f->sf); *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	for (int i = 0; i < 8192; i += 8) {
		uint64_t v;
		memcpy(&v, f->used + i, 8);
		if (v) /* the set is tiny: skip 64 code points at a time */
			h = ((h ^ v) * 1099511628211u ^ (uint64_t)i) * 1099511628211u;
	}
	for (int i = 0; i < f->nalts; i++)
		h = (h ^ ((uint64_t)f->alts[i].g << 16 | f->alts[i].cp)) * 1099511628211u;
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

/* /W: [c [w w ...] ...] for the CIDs drawn (cps[c] != 0) whose width is
 * not /DW, as libharu's arrays of numbers were written. */
static void pf_widths(pdf_ser_t *o, const pdf_font_t *f, const uint16_t *cps, unsigned n, int dw)
{
	int run = 0;
	pdf_ser_tok(o, "[", 1, 0, 0);
	for (unsigned c = 1; c < n; c++) {
		int wd = cps[c] ? sfnt_width(f->sf, c) : dw;
		if (wd == dw) {
			if (run)
				pdf_ser_tok(o, "]", 1, 0, 0);
			run = 0;
			continue;
		}
		if (!run) {
			pdf_ser_int(o, c);
			pdf_ser_tok(o, "[", 1, 0, 0);
			run = 1;
		}
		pdf_ser_int(o, wd);
	}
	if (run)
		pdf_ser_tok(o, "]", 1, 0, 0);
	pdf_ser_tok(o, "]", 1, 0, 0);
}

/* "<CCCC> <UUUU>\n" (14 bytes) */
static void bfchar(char *o, unsigned cid, unsigned cp)
{
	static const char hex[] = "0123456789ABCDEF";
	o[0] = '<';
	o[5] = '>';
	o[6] = ' ';
	o[7] = '<';
	o[12] = '>';
	o[13] = '\n';
	for (int i = 0; i < 4; i++) {
		o[1 + i] = hex[cid >> (12 - 4 * i) & 15];
		o[8 + i] = hex[cp >> (12 - 4 * i) & 15];
	}
}

/* "k beginbfchar" (or bfrange), the k entries in blk[0..bn), the end. */
static void pf_cmap_block(buf_t *st, const char *kw, char *blk, size_t bn, unsigned k)
{
	char line[40];
	int l = pdf_num(line, k, 0);
	buf_add(st, line, (size_t)l);
	buf_add(st, " begin", 6);
	buf_puts(st, kw);
	buf_add(st, "\n", 1);
	buf_add(st, blk, bn);
	buf_add(st, "end", 3);
	buf_puts(st, kw);
	buf_add(st, "\n", 1);
}

/* "<XX>" over "<XXXX>": the one-byte code of a compact font's CID (its
 * first two hex digits, 00, dropped). */
static void bf_short(char *o, size_t *bn, size_t at)
{
	memmove(o + at + 1, o + at + 3, *bn - (at + 3));
	*bn -= 2;
}

/* The CIDs of clusters' glyphs (pdf_font_cid_read) to their text: bfchar,
 * a destination of several code points (a conjunct), or none (<>: a
 * cluster's other glyphs read as nothing; its first reads as it all). */
static void pf_cluster_cmap(buf_t *st, const pdf_font_t *f, unsigned n, int onebyte,
                            unsigned base)
{
	static const char hex[] = "0123456789ABCDEF";
	int k = 0;
	buf_t blk = {0};
	for (int i = 0; i < f->ncgl; i++) {
		const pdf_cgl_t *e = &f->cgl[i];
		if (!e->cid || e->cid >= n || e->cid < base || (onebyte && e->cid >= base + PDF_CODE1))
			continue;
		unsigned code = e->cid - base;
		char o[16];
		int l = 0;
		o[l++] = '<';
		for (int d = onebyte ? 4 : 12; d >= 0; d -= 4)
			o[l++] = hex[code >> d & 15];
		o[l++] = '>';
		o[l++] = ' ';
		o[l++] = '<';
		buf_add(&blk, o, (size_t)l);
		const char *s = f->cgtext.s + e->off;
		for (uint32_t j = 0; j < e->n;) {
			uint32_t cp;
			int cl = utf8_decode(s + j, e->n - j, &cp);
			if (cl <= 0)
				break;
			j += (uint32_t)cl;
			uint32_t u[2];
			int nu = utf16_units(cp, u);
			for (int q = 0; q < nu; q++) {
				for (int d = 12; d >= 0; d -= 4)
					o[d / 4 ^ 3] = hex[u[q] >> d & 15];
				buf_add(&blk, o, 4);
			}
		}
		buf_add(&blk, ">\n", 2);
		if (++k == 100) {
			pf_cmap_block(st, "bfchar", blk.s, blk.len, (unsigned)k);
			buf_reset(&blk);
			k = 0;
		}
	}
	if (k)
		pf_cmap_block(st, "bfchar", blk.s, blk.len, (unsigned)k);
	buf_done(&blk);
}

/* ToUnicode: each CID drawn to its code point (bfchar, 100 per block;
 * an Arabic presentation form of one letter to that letter, so joined
 * text extracts as the letters written, with no /ActualText;
 * libharu 2.3's own map used the invalid "begincidrange"); onebyte: the
 * codes of a compact font (CIDs 0-255 only), or of a colour font's Type 3
 * font of CIDs base..base + 255 (pf_type3). */
static void *pf_tounicode(pw_t *w, const pdf_font_t *f, const uint16_t *cps, unsigned n,
                          int onebyte, unsigned base)
{
	buf_t *st = pdf_buf(w);
	buf_puts(st, "/CIDInit /ProcSet findresource begin\n12 dict begin\n"
	                                  "begincmap\n/CIDSystemInfo << /Registry (Adobe) "
	                                  "/Ordering (UCS) /Supplement 0 >> def\n/CMapName "
	                                  "/Adobe-Identity-UCS def\n/CMapType 2 def\n1 "
	                                  "begincodespacerange\n");
	buf_puts(st, onebyte ? "<00> <FF>\nendcodespacerange\n"
	                     : "<0000> <FFFF>\nendcodespacerange\n");
	unsigned nall = n;
	cps += base;
	n -= base;
	if (onebyte && n > PDF_CODE1)
		n = PDF_CODE1;
	/* runs of consecutive CIDs drawing consecutive code points (a-z in
	   most fonts) as bfrange, the rest as bfchar: a range may not cross a
	   256 boundary of its CIDs or of the code points' last byte */
	char blk[100 * 21 + 16];
	for (int pass = 0; pass < 2; pass++) {
		const char *kw = pass ? "bfchar" : "bfrange";
		unsigned c = base ? 0 : 1, k = 0;
		size_t bn = 0;
		while (c < n) {
			if (!cps[c] || cps[c] == PF_CLUSTER) {
				c++;
				continue;
			}
			unsigned e = c + 1;
			/* Ghostscript (10.0) reads a range's destination as one byte:
			   ranges only of Latin-1 code points */
			while (e < n && cps[c] < 0x100 && cps[e] == cps[c] + (e - c) && (e & 0xFF) &&
			       (cps[e] & 0xFF))
				e++;
			if ((e - c > 1) == !pass) {
				size_t at = bn;
				if (pass) {
					/* an Arabic letter's joined form (bidi.c drew the
					   presentation form) reads as the letter */
					bfchar(blk + bn, c, uni_pres_letter(cps[c]));
					bn += 14;
					if (onebyte)
						bf_short(blk, &bn, at);
				} else {
					/* "<first> <last> <code point>\n", 21 bytes */
					bfchar(blk + bn, c, e - 1);
					blk[bn + 13] = ' ';
					bfchar(blk + bn + 14, cps[c], 0); /* its tail is overwritten */
					blk[bn + 20] = '\n';
					bn += 21;
					if (onebyte) {
						bf_short(blk, &bn, at);
						bf_short(blk, &bn, at + 5);
					}
				}
				k++;
			}
			c = e;
			if (k == 100) {
				pf_cmap_block(st, kw, blk, bn, k);
				k = 0;
				bn = 0;
			}
		}
		if (k)
			pf_cmap_block(st, kw, blk, bn, k);
	}
	pf_cluster_cmap(st, f, nall, onebyte, base);
	buf_puts(st, "endcmap\nCMapName currentdict /CMap defineresource pop\n"
	             "end\nend\n");
	return pdf_raw_stream(w, st->s, st->len, "", PDF_Z_CMAP);
}

/* The compact fonts' encoding: one-byte codes, each its CID (one stream
 * per document, the same in every one), deflated here once and for all:
 * libdeflate at level 1 (PDF_Z_CMAP) made these bytes of
 *
 *   /CIDInit /ProcSet findresource begin
 *   12 dict begin
 *   begincmap
 *   /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def
 *   /CMapName /Vita-OneByte-H def
 *   /CMapType 1 def
 *   1 begincodespacerange
 *   <00> <FF>
 *   endcodespacerange
 *   1 begincidrange
 *   <00> <FF> 0
 *   endcidrange
 *   endcmap
 *   CMapName currentdict /CMap defineresource pop
 *   end
 *   end
 *
 * (each line ending in a newline), which deflating for every PDF cost 54 K
 * instructions, a fixed cost of libdeflate's however short the input.
 * tests/scripts/pdfua.sh reads it back from a PDF. */
static void *pf_onebyte_cmap(pw_t *w)
{
	static const unsigned char cmap_z[] = {
		0x78, 0x01, 0x5D, 0x50, 0xC1, 0x6A, 0xC3, 0x30, 0x0C, 0xBD, 0xE7, 0x2B,
		0x74, 0x6C, 0x0F, 0xC5, 0xC9, 0xCE, 0x21, 0xB0, 0xA5, 0x94, 0xF9, 0xB0,
		0x75, 0x2C, 0x63, 0x77, 0xD7, 0x7E, 0x09, 0x86, 0x45, 0x36, 0x8E, 0x72,
		0xF0, 0xDF, 0x8F, 0x78, 0x6B, 0x0B, 0x3D, 0x48, 0x48, 0x7A, 0xEF, 0xC1,
		0xD3, 0x53, 0xBD, 0x3E, 0x6A, 0xF6, 0x42, 0xEA, 0x23, 0x05, 0x3B, 0x40,
		0x68, 0xF4, 0xEC, 0x12, 0x96, 0xB0, 0x26, 0x0B, 0xBA, 0x60, 0xF2, 0x5C,
		0x35, 0x4F, 0xE4, 0xBC, 0x95, 0xFF, 0xAD, 0x74, 0x3B, 0x9B, 0x58, 0xA9,
		0x5E, 0x1F, 0x87, 0xBC, 0x08, 0x66, 0xCD, 0x63, 0xA0, 0xB6, 0x25, 0xF5,
		0x89, 0xC9, 0x2F, 0x92, 0x32, 0xED, 0x9E, 0x5D, 0xB8, 0x60, 0x4F, 0xEA,
		0x9C, 0x1C, 0x92, 0xE7, 0x89, 0x76, 0xDA, 0x81, 0xC5, 0x4B, 0xDE, 0x93,
		0x1A, 0xD6, 0x18, 0x7F, 0x30, 0x83, 0x85, 0x6A, 0xEA, 0x3A, 0x72, 0x18,
		0x2B, 0xD5, 0xBF, 0x99, 0xF8, 0x6E, 0x66, 0x90, 0xFA, 0xF6, 0x62, 0x0E,
		0x67, 0xC6, 0x4B, 0x16, 0x1C, 0x5E, 0xEF, 0xE8, 0x57, 0x8E, 0xA0, 0xA6,
		0xEC, 0xCD, 0x9F, 0x1B, 0x1B, 0x1C, 0x96, 0x68, 0x2C, 0x92, 0xE1, 0x09,
		0x55, 0x5B, 0xD7, 0x1D, 0xB5, 0xA7, 0x53, 0x57, 0x81, 0xDD, 0x03, 0x76,
		0x55, 0x78, 0xF7, 0xC0, 0xA5, 0xBA, 0xB0, 0xAF, 0xF7, 0x6D, 0xDE, 0xBE,
		0xBB, 0xD9, 0xB1, 0x6B, 0x4A, 0x60, 0x29, 0x11, 0x14, 0x1B, 0x9B, 0x01,
		0xCF, 0xB8, 0xA5, 0x14, 0x43, 0xDC, 0x54, 0xA5, 0x7E, 0x01, 0x4A, 0x62,
		0x70, 0xD4
	};
	if (!w->cmap)
		w->cmap = pdf_raw_stream(w, cmap_z, sizeof(cmap_z),
		                         "/Type/CMap/CMapName/Vita-OneByte-H/CIDSystemInfo"
		                         "<</Registry(Adobe)/Ordering(Identity)/Supplement 0>>",
		                         PDF_Z_DONE);
	return w->cmap;
}

static HPDF_Dict pf_type0(pw_t *w, int onebyte)
{
	HPDF_Dict t = pdf_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pdf_ok(w, HPDF_Xref_Add(w->pdf->xref, t));
	pdf_ok(w, HPDF_Dict_AddName(t, "Type", "Font"));
	pdf_ok(w, HPDF_Dict_AddName(t, "Subtype", "Type0"));
	if (onebyte)
		pdf_ok(w, HPDF_Dict_Add(t, "Encoding", pf_onebyte_cmap(w)));
	else
		pdf_ok(w, HPDF_Dict_AddName(t, "Encoding", "Identity-H"));
	return t;
}

HPDF_Dict pdf_font_bank(pw_t *w, pdf_font_t *f, int b)
{
	if (b == 0)
		return f->type0;
	if (!f->bank[b]) {
		f->bank[b] = pdf_obj(w, HPDF_Dict_New(w->pdf->mmgr));
		pdf_ok(w, HPDF_Xref_Add(w->pdf->xref, f->bank[b]));
		pdf_ok(w, HPDF_Dict_AddName(f->bank[b], "Type", "Font"));
	}
	return f->bank[b];
}

HPDF_Dict pdf_font_twin(pw_t *w, pdf_font_t *f)
{
	if (!f->type0w)
		f->type0w = pf_type0(w, 0);
	return f->type0w;
}

/* Type0 font t of CIDFont cid: its name, descendant and ToUnicode. */
static void pf_type0_finish(pw_t *w, const pdf_font_t *f, HPDF_Dict t, void *cid,
                            const char *name, const uint16_t *cps, unsigned n, int onebyte)
{
	pdf_ok(w, HPDF_Dict_AddName(t, "BaseFont", name));
	HPDF_Array desc_fonts = pdf_array(w);
	pdf_ok(w, HPDF_Array_Add(desc_fonts, cid));
	pdf_ok(w, HPDF_Dict_Add(t, "DescendantFonts", desc_fonts));
	pdf_ok(w, HPDF_Dict_Add(t, "ToUnicode", pf_tounicode(w, f, cps, n, onebyte, 0)));
}

/* The font descriptor of f, font program ff: a raw object (only the
 * CIDFont refers to it), the bytes its libharu dictionary gave; its
 * number. */
static unsigned pf_descriptor(pw_t *w, const pdf_font_t *f, const char *name, void *ff)
{
	sfnt_metrics_t m;
	sfnt_get_metrics(f->sf, &m);
	double k = m.weight > 50 ? (m.weight - 50) / 900.0 : 0;
	int flags = 4 | (m.fixed ? 1 : 0) | (m.slanted ? 64 : 0);
	unsigned d = pdf_num_new(w);
	pdf_ser_t o;
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</Type/FontDescriptor/FontName");
	pdf_ser_name(&o, name);
	pdf_ser_lit(&o, "/Flags");
	pdf_ser_int(&o, flags);
	pdf_ser_lit(&o, "/FontBBox[");
	for (int i = 0; i < 4; i++)
		pdf_ser_int(&o, m.bbox[i]);
	pdf_ser_lit(&o, "]/ItalicAngle");
	pdf_ser_real(&o, (float)m.italic);
	pdf_ser_lit(&o, "/Ascent");
	pdf_ser_int(&o, m.ascent);
	pdf_ser_lit(&o, "/Descent");
	pdf_ser_int(&o, m.descent);
	pdf_ser_lit(&o, "/CapHeight");
	pdf_ser_int(&o, m.cap);
	pdf_ser_lit(&o, "/StemV");
	pdf_ser_int(&o, (int)(10 + 220 * k * k));
	if (sfnt_is_cff(f->sf))
		pdf_ser_lit(&o, "/FontFile3");
	else
		pdf_ser_lit(&o, "/FontFile2");
	pdf_ser_ref(&o, pdf_obj_id(ff));
	pdf_ser_lit(&o, ">>");
	pdf_raw_end_num(w, &o, d);
	return d;
}

/* v / 1000 (a length in 1/1000 em, to 3 decimals) as a token of o */
static int pf_milli(char *o, int64_t v)
{
	return pdf_num(o, v, 3);
}

/* Raw stream data deflated now (as pdf_save would: the same level, the
 * same bytes), kept in the document's arena (the decoded image is freed
 * at once). NULL when the compressor fails. */
static void *pf_deflated_stream(pw_t *w, const void *p, size_t n, const char *dict, int level)
{
	const unsigned char *z;
	size_t zn = pdf_deflate(p, n, level, &z);
	if (!zn)
		return NULL;
	unsigned char *c = arena_alloc(w->doc->arena, zn);
	memcpy(c, z, zn);
	return pdf_raw_stream(w, c, zn, dict, PDF_Z_DONE);
}

/* The image XObject (an /SMask for its alpha) of the bitmap of glyph g,
 * made once per document for each glyph drawn; NULL when it has none.
 * Its pixels are decoded into an arena of their own and deflated at once:
 * kept decoded until the PDF was saved, 300 emoji took 23 MB. A palette
 * PNG (nearly every glyph of Noto Color Emoji) keeps its own deflated
 * rows, as an /Indexed image with the PNG predictor: its colours are not
 * deflated again (2.2 M instructions an emoji), the file is smaller (four
 * flags 54,730 -> 49,854 bytes, 440 emoji 1.61 -> 1.39 MB) and the
 * pages are the same pixels (poppler, MuPDF); only its alpha is decoded,
 * its rows inflated whole by pdf_inflate (image.h). */
static void *pf_glyph_image(pw_t *w, const sfnt_bitmap_t *b)
{
	image_t im;
	const char *why;
	if (!b->len)
		return NULL;
	arena_t *a = arena_new();
	if (image_png_data(a, b->png, b->len, pdf_inflate, &im, &why) || im.w <= 0 || im.h <= 0) {
		arena_free(a);
		return NULL;
	}
	char d[200];
	void *mask = NULL, *img = NULL;
	if (im.alpha) {
		snprintf(d, sizeof(d), "/Type/XObject/Subtype/Image/Width %d/Height %d"
		         "/ColorSpace/DeviceGray/BitsPerComponent 8", im.w, im.h);
		/* pdf_zfast: 0.6 M instructions less an emoji than libdeflate's
		   level 6, 0.8% more bytes (four flags: 438; 440 emoji: 11 KB) */
		mask = pf_deflated_stream(w, im.alpha, (size_t)im.w * (size_t)im.h, d,
		                          im.idat ? PDF_Z_FAST : PDF_Z_BEST);
	}
	if (im.idat && (!im.alpha || mask)) {
		/* a palette PNG: its own deflated rows and palette, as they are
		   (image.h): no deflate here, and its file's smaller size */
		unsigned np = 1u << im.bits;
		unsigned char *pal = arena_alloc(w->doc->arena, 3 * (size_t)np);
		memcpy(pal, im.pal, 3 * (size_t)np);
		void *lut = pdf_raw_stream(w, pal, 3 * (size_t)np, "", PDF_Z_FAST);
		char x[300];
		int k = snprintf(x, sizeof(x), "/Type/XObject/Subtype/Image/Width %d/Height %d"
		                 "/ColorSpace[/Indexed/DeviceRGB %u %u 0 R]/BitsPerComponent %d"
		                 "/DecodeParms<</Predictor 15/Colors 1/BitsPerComponent %d/Columns %d>>",
		                 im.w, im.h, np - 1, pdf_obj_id(lut), im.bits, im.bits, im.w);
		if (mask)
			snprintf(x + k, sizeof(x) - (size_t)k, "/SMask %u 0 R", pdf_obj_id(mask));
		unsigned char *c = arena_alloc(w->doc->arena, im.nidat);
		memcpy(c, im.idat, im.nidat);
		img = pdf_raw_stream(w, c, im.nidat, x, PDF_Z_DONE);
		arena_free(a);
		return img;
	}
	int k = snprintf(d, sizeof(d), "/Type/XObject/Subtype/Image/Width %d/Height %d"
	                 "/ColorSpace/%s/BitsPerComponent 8", im.w, im.h,
	                 im.comps == 1 ? "DeviceGray" : "DeviceRGB");
	if (mask)
		snprintf(d + k, sizeof(d) - (size_t)k, "/SMask %u 0 R", pdf_obj_id(mask));
	if (!im.alpha || mask)
		img = pf_deflated_stream(w, im.px, (size_t)im.w * (size_t)im.h * (size_t)im.comps, d,
		                         PDF_Z_BEST);
	arena_free(a);
	if (!img)
		pdf_fail(w, NULL, "cannot compress a stream");
	return img;
}

/* A colour font (Noto Color Emoji) as a Type 3 font: one-byte codes (its
 * CIDs below PDF_CODE1), each a glyph procedure that paints the glyph's
 * PNG, decoded into an image XObject with an /SMask for its alpha, placed
 * where the font's strike puts it (its bearings in pixels of the strike's
 * pixels per em) at the advance layout measured (hmtx, as any font's).
 * The glyph space is 1/1000 em. An empty glyph (the rest of a cluster's
 * text) paints nothing. Type 3 glyphs are text: ToUnicode and tagging as
 * for any font. */
static void pf_type3(pw_t *w, pdf_font_t *f, int idx, const uint16_t *cps, unsigned n,
                     unsigned base, HPDF_Dict d, void **img)
{
	/* the CIDs base..last - 1: its codes c - base */
	unsigned last = n < base + PDF_CODE1 ? n : base + PDF_CODE1;
	unsigned first = 0, top = 0;
	for (unsigned c = base ? base : 1; c < last; c++)
		if (cps[c]) {
			first = first ? first : c;
			top = c;
		}
	if (!first)
		first = top = base ? base : 1;
	/* poppler's text extraction (TextOutputDev) guesses a Type 3 font's
	   glyph space from the width of its glyph named 'm' (taken for 0.6 em),
	   else of any glyph (for 0.5 em): an emoji's 1.25 em made its text
	   2.5 times its size, and put it on a line of its own. An empty
	   glyph /m of 0.6 em, never drawn, says the glyph space is the em's. */
	unsigned mc = top + 1 - base < PDF_CODE1 ? top + 1 - base : 0;
	pdf_ser_t o;
	char t[200];
	int bbox[4] = {0, 0, 0, 0};
	/* the glyph procedures */
	void **proc = xcalloc(last + 1 - base, sizeof(void *));   /* by c - base */
	for (unsigned c = first; c <= top; c++) {
		if (!cps[c])
			continue;
		buf_t *st = pdf_buf(w);
		int k = pdf_num(t, sfnt_width(f->sf, c), 0);
		buf_add(st, t, (size_t)k);
		buf_puts(st, " 0 d0\n");
		unsigned g = sfnt_source(f->sf, c);
		sfnt_bitmap_t b;
		if (g && g < sfnt_nglyphs(f->sf) && sfnt_bitmap(f->sf, g, &b) == 0 && b.len &&
		    b.ppem > 0) {
			if (!img[g])
				img[g] = pf_glyph_image(w, &b);
			if (img[g]) {
				int64_t sw = (int64_t)b.w * 1000000 / b.ppem, sh = (int64_t)b.h * 1000000 / b.ppem;
				int64_t sx = (int64_t)b.bx * 1000000 / b.ppem;
				int64_t sy = (int64_t)(b.by - b.h) * 1000000 / b.ppem;
				int e[4] = {(int)(sx / 1000), (int)(sy / 1000), (int)((sx + sw) / 1000),
				            (int)((sy + sh) / 1000)};
				for (int j = 0; j < 4; j++)
					if (j < 2 ? e[j] < bbox[j] : e[j] > bbox[j])
						bbox[j] = e[j];
				/* q sw 0 0 sh sx sy cm: the image's square onto its box */
				const int64_t cm[6] = {sw, 0, 0, sh, sx, sy};
				buf_puts(st, "q");
				for (int j = 0; j < 6; j++) {
					buf_puts(st, " ");
					k = pf_milli(t, cm[j]);
					buf_add(st, t, (size_t)k);
				}
				k = snprintf(t, sizeof(t), " cm /I%u Do Q\n", g);
				buf_add(st, t, (size_t)k);
			}
		}
		proc[c - base] = pdf_raw_stream(w, st->s, st->len, "", PDF_Z_CONTENT);
	}
	void *procs = pdf_raw_new(w);
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<<");
	for (unsigned c = first; c <= top; c++)
		if (proc[c - base]) {
			snprintf(t, sizeof(t), "g%u", c);
			pdf_ser_name(&o, t);
			pdf_ser_ref(&o, pdf_obj_id(proc[c - base]));
		}
	void *mproc = NULL;
	if (mc) {
		mproc = pdf_raw_stream(w, "600 0 d0\n", 9, "", 0);
		pdf_ser_lit(&o, "/m");
		pdf_ser_ref(&o, pdf_obj_id(mproc));
	}
	pdf_ser_lit(&o, ">>");
	pdf_raw_end(w, &o, procs);
	void *enc = pdf_raw_new(w);
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</Type/Encoding/Differences[");
	for (unsigned c = first; c <= top; c++)
		if (proc[c - base]) {
			if (c == first || !proc[c - 1 - base])
				pdf_ser_int(&o, c - base);
			snprintf(t, sizeof(t), "g%u", c);
			pdf_ser_name(&o, t);
		}
	if (mc) {
		pdf_ser_int(&o, mc);
		pdf_ser_lit(&o, "/m");
	}
	pdf_ser_lit(&o, "]>>");
	pdf_raw_end(w, &o, enc);
	void *wid = pdf_raw_new(w);
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "[");
	for (unsigned c = first; c <= top; c++)
		pdf_ser_int(&o, proc[c - base] ? sfnt_width(f->sf, c) : 0);
	if (mc)
		pdf_ser_int(&o, 600);
	pdf_ser_lit(&o, "]");
	pdf_raw_end(w, &o, wid);
	void *res = pdf_raw_new(w);
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</XObject<<");
	for (unsigned g = 0; g < sfnt_nglyphs(f->sf); g++)
		if (img[g]) {
			snprintf(t, sizeof(t), "I%u", g);
			pdf_ser_name(&o, t);
			pdf_ser_ref(&o, pdf_obj_id(img[g]));
		}
	pdf_ser_lit(&o, ">>>>");
	pdf_raw_end(w, &o, res);
	/* a Type 3 font of a tagged PDF has a descriptor (ISO 32000-1 9.8.1) */
	char name[80];
	if (!base)
		pf_tag(w, f, w->tags[idx]);
	snprintf(name, sizeof(name), "%s%s", w->tags[idx], sfnt_psname(f->sf));
	void *desc = pdf_raw_new(w);
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</Type/FontDescriptor/FontName");
	pdf_ser_name(&o, name);
	/* no Ascent, Descent or FontBBox (not asked of a Type 3 font's): poppler
	   takes them for text space, and a glyph for three ems tall */
	pdf_ser_lit(&o, "/Flags 4/ItalicAngle 0>>");
	pdf_raw_end(w, &o, desc);

	pdf_ok(w, HPDF_Dict_AddName(d, "Subtype", "Type3"));
	pdf_ok(w, HPDF_Dict_AddName(d, "Name", name));
	HPDF_Array bb = pdf_array(w), fm = pdf_array(w);
	for (int i = 0; i < 4; i++)
		pdf_ok(w, HPDF_Array_AddNumber(bb, bbox[i]));
	pdf_ok(w, HPDF_Dict_Add(d, "FontBBox", bb));
	static const float mat[6] = {0.001f, 0, 0, 0.001f, 0, 0};
	for (int i = 0; i < 6; i++)
		pdf_ok(w, HPDF_Array_AddReal(fm, mat[i]));
	pdf_ok(w, HPDF_Dict_Add(d, "FontMatrix", fm));
	pdf_ok(w, HPDF_Dict_Add(d, "CharProcs", procs));
	pdf_ok(w, HPDF_Dict_Add(d, "Encoding", enc));
	pdf_ok(w, HPDF_Dict_AddNumber(d, "FirstChar", (HPDF_INT32)(first - base)));
	pdf_ok(w, HPDF_Dict_AddNumber(d, "LastChar", (HPDF_INT32)(mc ? mc : top - base)));
	pdf_ok(w, HPDF_Dict_Add(d, "Widths", wid));
	pdf_ok(w, HPDF_Dict_Add(d, "FontDescriptor", desc));
	pdf_ok(w, HPDF_Dict_Add(d, "Resources", res));
	pdf_ok(w, HPDF_Dict_Add(d, "ToUnicode", pf_tounicode(w, f, cps, last, 1, base)));
	free(proc);
}

/* Complete one font's objects from the code points drawn with it. */
static void pf_finish(pw_t *w, pdf_font_t *f, int idx)
{
	/* cps[c]: the code point CID c stands for (0: none) */
	uint16_t *cps = w->cps;
	unsigned n = sfnt_nglyphs(f->sf);
	memset(cps, 0, n * sizeof(uint16_t));
	for (uint32_t byte = 0; byte < 8192; byte++) {
		uint64_t v;
		if (!(byte & 7) && (memcpy(&v, f->used + byte, 8), !v)) {
			byte += 7;  /* the set is tiny: skip 64 code points at a time */
			continue;
		}
		if (!f->used[byte])
			continue;
		for (uint32_t cp = byte << 3; cp < (byte + 1) << 3; cp++)
			if (cp && f->used[cp >> 3] >> (cp & 7) & 1 && !cps[f->cid[cp]])
				cps[f->cid[cp]] = (uint16_t)cp;
	}
	for (int i = 0; i < f->nalts; i++)
		if (!cps[f->alts[i].cid])
			cps[f->alts[i].cid] = f->alts[i].cp;
	for (int i = 0; i < f->ncgl; i++)   /* drawn; ToUnicode: pf_tounicode */
		if (f->cgl[i].cid && !cps[f->cgl[i].cid])
			cps[f->cgl[i].cid] = PF_CLUSTER;
	if (f->color) {   /* a Type 3 font per 256 CIDs drawn (pdf_font_bank) */
		void **img = xcalloc(sfnt_nglyphs(f->sf) + 1, sizeof(void *));
		for (unsigned b = 0; b * PDF_CODE1 < n; b++)
			if (b == 0 || f->bank[b])
				pf_type3(w, f, idx, cps, n, b * PDF_CODE1, b ? f->bank[b] : f->type0, img);
		free(img);
		return;
	}
	uint8_t *keep = w->keep = xrealloc(w->keep, n);
	for (unsigned c = 0; c < n; c++)
		keep[c] = c == 0 || cps[c];
	const unsigned char *prog;
	size_t plen;
	sfnt_program(f->sf, keep, &prog, &plen);

	char name[80];
	pf_tag(w, f, w->tags[idx]);
	snprintf(name, sizeof(name), "%s%s", w->tags[idx], sfnt_psname(f->sf));
	int cff = sfnt_is_cff(f->sf);
	char fd[40] = "/Subtype/CIDFontType0C";
	if (!cff) {
		memcpy(fd, "/Length1 ", 9);
		fd[9 + pdf_num(fd + 9, (int64_t)plen, 0)] = '\0';
	}
	void *ff = pdf_raw_stream(w, prog, plen, fd, PDF_Z_FONT); /* f->sf owns prog */
	unsigned desc = pf_descriptor(w, f, name, ff);

	/* the CIDFont as a raw object, the bytes its libharu dictionary gave:
	   /W's hundreds of numbers cost more as libharu objects than the
	   rest of the font's dictionaries */
	void *cid = pdf_raw_new(w);
	pdf_ser_t o;
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</Type/Font/Subtype");
	pdf_ser_name(&o, cff ? "CIDFontType0" : "CIDFontType2");
	pdf_ser_lit(&o, "/BaseFont");
	pdf_ser_name(&o, name);
	pdf_ser_lit(&o, "/CIDSystemInfo<</Registry(Adobe)/Ordering(Identity)/Supplement 0>>"
	                "/FontDescriptor");
	pdf_ser_ref(&o, desc);
	int dw = sfnt_width(f->sf, 0);
	pdf_ser_lit(&o, "/DW");
	pdf_ser_int(&o, dw);
	pdf_ser_lit(&o, "/W");
	pf_widths(&o, f, cps, n, dw);
	if (!cff) /* a CFF's charset maps CIDs to glyphs (the identity here) */
		pdf_ser_lit(&o, "/CIDToGIDMap/Identity");
	pdf_ser_lit(&o, ">>");
	pdf_raw_end(w, &o, cid);

	pf_type0_finish(w, f, f->type0, cid, name, cps, n, f->compact);
	if (f->type0w)
		pf_type0_finish(w, f, f->type0w, cid, name, cps, n, 0);
}

void pdf_fonts_finish(pw_t *w)
{
	w->what = "write the fonts";
	for (int i = 0; i < w->nfonts; i++)
		pf_finish(w, w->all[i], i);
}

static int pf_load(pw_t *w, pdf_font_t *f)
{
	char why[300];
	f->sf = sfnt_open(f->face->data, f->face->len, why, sizeof(why));
	if (!f->sf)
		return pdf_fail(w, f->face->name, "cannot embed the font: %s", why);
	f->cid = xmalloc(65536 * sizeof(uint16_t));
	f->cw = xmalloc(65536 * sizeof(int32_t));
	f->owned = xcalloc(sfnt_nglyphs(f->sf), 1);
	f->owned[0] = 1; /* CID 0 (.notdef) stands for no code point */
	f->compact = sfnt_nglyphs(f->sf) <= PDF_CODE1;
	f->color = sfnt_is_bitmap(f->sf);
	if (f->color) {   /* Type 3 fonts (pf_type3): one-byte codes */
		f->compact = 1;
		f->bank = xcalloc(256, sizeof(*f->bank));
		f->blocal = xcalloc(256, sizeof(*f->blocal));
		f->bpage = xcalloc(256, sizeof(*f->bpage));
		f->type0 = pdf_obj(w, HPDF_Dict_New(w->pdf->mmgr));
		pdf_ok(w, HPDF_Xref_Add(w->pdf->xref, f->type0));
		pdf_ok(w, HPDF_Dict_AddName(f->type0, "Type", "Font"));
		return 0;
	}
	f->type0 = pf_type0(w, f->compact);
	return 0;
}

int pdf_font_get(pw_t *w, int face, pdf_font_t **out)
{
	const page_doc_t *d = w->doc;
	const page_face_t *pf = face >= 0 && face < d->nfaces && d->faces ? &d->faces[face] : NULL;
	if (!pf || !pf->data || !pf->len) {
		char id[24];
		snprintf(id, sizeof(id), "%d", face);
		return pdf_fail(w, NULL, "internal error: face id %s has no font program", id);
	}
	if (w->fonts[face]) {
		*out = w->fonts[face];
		return 0;
	}
	for (int i = 0; i < w->nfonts; i++) /* the same program under two ids */
		if (w->all[i]->face->data == pf->data) {
			*out = w->fonts[face] = w->all[i];
			return 0;
		}
	w->what = "load the font";
	pdf_font_t *f = xcalloc(1, sizeof(*f));
	f->face = pf;
	w->all[w->nfonts++] = f; /* owned by w from here on */
	if (pf_load(w, f) < 0)
		return -1;
	*out = w->fonts[face] = f;
	return 0;
}

static pdf_cgl_t *cgl_get(pdf_font_t *f, unsigned g, const char *k, size_t kn, int n,
                          int *fresh);

/* The CID that draws glyph g: g itself the first time, then a copy of
 * it (a code point, cluster or alternate of its own that reads apart). */
static unsigned cid_own(pdf_font_t *f, unsigned g)
{
	if (!f->owned[g]) {
		f->owned[g] = 1;
		return g;
	}
	return sfnt_copy(f->sf, g);
}

/* The CID of glyph g reading as s[0..n), from the clusters' table. */
static unsigned cgl_cid(pdf_font_t *f, unsigned g, const char *s, int n)
{
	int fresh;
	pdf_cgl_t *e = cgl_get(f, g, s, (size_t)n, n, &fresh);
	if (fresh)
		e->cid = (uint16_t)cid_own(f, g);
	return e->cid;
}

/* The CID of code point cp (not 0) in f, given when first drawn: its
 * glyph, or a new copy of it when another code point has that glyph
 * (only a font of 65,535 glyphs has to share it). One outside the BMP
 * (a CJK Extension B name, a math letter: few in any CV) is kept out of
 * the 65,536-entry tables, in the clusters' table by (glyph, its text),
 * whose ToUnicode entries are UTF-16 (a surrogate pair). */
unsigned pdf_font_cid(pdf_font_t *f, uint32_t cp)
{
	if (cp > 0xFFFF) {
		char u[4];
		int n = utf8_encode(cp, u);
		return cgl_cid(f, sfnt_gid(f->sf, cp), u, n);
	}
	if (f->used[cp >> 3] >> (cp & 7) & 1)
		return f->cid[cp];
	/* a colour font's space (after an emoji, the word's end) is its
	   advance of an emoji; an empty glyph of a quarter em, near the gap
	   layout put there, keeps the readers' pens (MuPDF took the pen
	   going back to the next word for a new line) */
	unsigned c = f->color && cp == ' '
	             ? sfnt_compose(f->sf, 0, NULL, NULL, NULL, (int32_t)(sfnt_upem(f->sf) / 4))
	             : cid_own(f, sfnt_gid(f->sf, cp));
	f->used[cp >> 3] |= (uint8_t)(1u << (cp & 7));
	f->cid[cp] = (uint16_t)c;
	f->cw[cp] = sfnt_width(f->sf, c);
	return c;
}

/* The subset's id of the face's glyph gid (page_face.alt_from -> alt_to),
 * or 0; a cluster's glyphs are looked up again and again (f->sgid). */
static inline unsigned pf_subset_gid(pdf_font_t *f, unsigned gid)
{
	uint32_t *c = &f->sgid[gid & 255];
	if (*c >> 16 == gid)
		return *c & 0xFFFF;
	const page_face_t *pf = f->face;
	int lo = 0, hi = pf->nalt - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (pf->alt_from[mid] == gid) {
			if (pf->alt_to[mid] >= sfnt_nglyphs(f->sf))
				return 0;
			*c = (uint32_t)gid << 16 | pf->alt_to[mid];
			return pf->alt_to[mid];
		}
		if (pf->alt_from[mid] < gid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	*c = (uint32_t)gid << 16;
	return 0;
}

/* The key's hash, eight bytes at a time (a key is its text and 10 bytes
 * per glyph: 40 to 100 bytes, hashed for every cluster drawn). Only where
 * an entry sits in the table depends on it. */
static uint32_t cgl_hash(unsigned g, const char *s, int n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ g ^ (uint64_t)(unsigned)n << 32;
	int i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	uint64_t t = 0;
	memcpy(&t, s + i, (size_t)(n - i));
	h = (h ^ t) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	uint32_t r = (uint32_t)h;
	return r ? r : 1;
}

static void cgl_grow(pdf_font_t *f)
{
	free(f->cglh);
	f->capcglh = f->capcglh ? 2 * f->capcglh : 256;
	f->cglh = xcalloc((size_t)f->capcglh, sizeof(int));
	unsigned m = (unsigned)f->capcglh - 1;
	for (int i = 0; i < f->ncgl; i++) {
		unsigned h = f->cgl[i].hash & m;
		while (f->cglh[h])
			h = (h + 1) & m;
		f->cglh[h] = i + 1;
	}
}

/* The entry of key k[0..kn) (the text read, n bytes, then what draws
 * it), or a new one whose CID the caller sets (*fresh). */
static pdf_cgl_t *cgl_get(pdf_font_t *f, unsigned g, const char *k, size_t kn, int n,
                          int *fresh)
{
	if (2 * (f->ncgl + 1) > f->capcglh)
		cgl_grow(f);
	uint32_t hash = cgl_hash(g, k, (int)kn);
	unsigned m = (unsigned)f->capcglh - 1, h = hash & m;
	for (; f->cglh[h]; h = (h + 1) & m) {
		pdf_cgl_t *e = &f->cgl[f->cglh[h] - 1];
		if (e->hash == hash && e->g == g && e->kn == kn &&
		    !memcmp(f->cgtext.s + e->off, k, kn)) {
			*fresh = 0;
			return e;
		}
	}
	if (f->ncgl == f->capcgl) {
		f->capcgl = f->capcgl ? 2 * f->capcgl : 64;
		f->cgl = xrealloc(f->cgl, sizeof(pdf_cgl_t) * (size_t)f->capcgl);
	}
	pdf_cgl_t *e = &f->cgl[f->ncgl];
	*e = (pdf_cgl_t){(uint16_t)g, 0, (uint32_t)f->cgtext.len, (uint32_t)n, hash, kn};
	buf_add(&f->cgtext, k, kn);
	f->cglh[h] = ++f->ncgl;
	*fresh = 1;
	return e;
}

unsigned pdf_font_cid_read(pdf_font_t *f, unsigned gid, const char *s, int n)
{
	unsigned g = pf_subset_gid(f, gid);
	if (!g)
		return 0;
	uint32_t cp;
	int l = n > 0 ? utf8_decode(s, (size_t)n, &cp) : 0;
	if (l != n || l <= 0 || cp > 0xFFFF)
		return cgl_cid(f, g, s, n);
	/* cp's cmap glyph: that of the CID it has (g itself, or a copy of it:
	   pdf_font_cid), without the cmap's search once it is drawn */
	unsigned cg = pdf_font_has(f, cp) ? sfnt_source(f->sf, f->cid[cp]) : sfnt_gid(f->sf, cp);
	if (cg == g)
		return pdf_font_cid(f, cp);   /* one glyph for one code point */
	return cgl_cid(f, g, s, n);
}

/* u at size to font units */
static int32_t pf_funits(int64_t v, int32_t size, unsigned upem)
{
	int64_t x = v * (int64_t)upem;
	return (int32_t)(x >= 0 ? (x + size / 2) / size : -((-x + size / 2) / size));
}

unsigned pdf_font_cid_cluster(pdf_font_t *f, const char *s, int n, const uint16_t *gids,
                              const int32_t *dx, const int32_t *dy, int m, int32_t adv,
                              int32_t size)
{
	enum { MAXG = 32 };
	/* (a colour font's glyphs are images: no composite of them; show_glyphs
	   draws them one by one) */
	if (m < 0 || m > MAXG || size <= 0 || sfnt_is_cff(f->sf) || (f->color && m > 0))
		return 0;
	unsigned upem = sfnt_upem(f->sf), g[MAXG];
	int32_t x[MAXG], y[MAXG], a = pf_funits(adv, size, upem);
	char key[1024];
	size_t kn = (size_t)n;
	if (kn + (size_t)m * 10 + 4 > sizeof(key))
		return 0;
	memcpy(key, s, kn);
	for (int i = 0; i < m; i++) {
		g[i] = pf_subset_gid(f, gids[i]);
		if (!g[i])
			return 0;
		x[i] = pf_funits(dx[i], size, upem);
		y[i] = pf_funits(dy[i], size, upem);
		uint16_t gg = (uint16_t)g[i];
		memcpy(key + kn, &gg, 2);
		memcpy(key + kn + 2, &x[i], 4);
		memcpy(key + kn + 6, &y[i], 4);
		kn += 10;
	}
	memcpy(key + kn, &a, 4);
	kn += 4;
	int fresh;
	pdf_cgl_t *e = cgl_get(f, 0, key, kn, n, &fresh);
	if (fresh)
		e->cid = (uint16_t)sfnt_compose(f->sf, m, g, x, y, a);
	return e->cid;
}

unsigned pdf_font_cid_wide(pdf_font_t *f, unsigned c, const char *s, int n, int32_t dx,
                           int32_t adv, int32_t size)
{
	if (!c || size <= 0 || n < 0 || (size_t)n + 14 > 1024 || sfnt_is_cff(f->sf) || f->color)
		return 0;
	unsigned upem = sfnt_upem(f->sf), g = sfnt_source(f->sf, c);
	int32_t x = pf_funits(dx, size, upem), y = 0, a = pf_funits(adv, size, upem);
	/* the key of pdf_font_cid_cluster's composite of one glyph */
	char key[1024];
	size_t kn = (size_t)n;
	uint16_t gg = (uint16_t)g;
	memcpy(key, s, kn);
	memcpy(key + kn, &gg, 2);
	memcpy(key + kn + 2, &x, 4);
	memcpy(key + kn + 6, &y, 4);
	memcpy(key + kn + 10, &a, 4);
	kn += 14;
	int fresh;
	pdf_cgl_t *e = cgl_get(f, 0, key, kn, n, &fresh);
	if (fresh)
		e->cid = (uint16_t)sfnt_compose(f->sf, 1, &g, &x, &y, a);
	return e->cid;
}

/* gid is the face's glyph id; the program is a subset, which numbers its
 * glyphs anew (page_face.alt_from -> alt_to). */
unsigned pdf_font_cid_glyph(pdf_font_t *f, uint32_t cp, unsigned gid)
{
	unsigned g = pf_subset_gid(f, gid);
	if (!g)
		return pdf_font_cid(f, cp);     /* not in the subset: the cmap glyph */
	for (int i = 0; i < f->nalts; i++)
		if (f->alts[i].g == g && f->alts[i].cp == cp)
			return f->alts[i].cid;
	unsigned c = cid_own(f, g);
	if (f->nalts == f->capalts) {
		f->capalts = f->capalts ? 2 * f->capalts : 32;
		f->alts = xrealloc(f->alts, sizeof(pdf_alt_t) * (size_t)f->capalts);
	}
	f->alts[f->nalts++] = (pdf_alt_t){(uint16_t)g, (uint16_t)cp, (uint16_t)c};
	return c;
}

void pdf_fonts_free(pw_t *w)
{
	for (int i = 0; i < w->nfonts; i++) {
		free(w->all[i]->alts);
		free(w->all[i]->cgl);
		free(w->all[i]->cglh);
		buf_done(&w->all[i]->cgtext);
		sfnt_free(w->all[i]->sf);
		free(w->all[i]->cid);
		free(w->all[i]->cw);
		free(w->all[i]->owned);
		free(w->all[i]->bank);
		free(w->all[i]->blocal);
		free(w->all[i]->bpage);
		free(w->all[i]);
	}
}
