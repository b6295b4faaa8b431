/* image: PNG and JPEG photos decoded to pixels (see image.h).
 *
 * The only libpng and libjpeg user. Both decoders feed rows into one box
 * filter (box_t) that sums each output pixel's share of the source; only
 * the output's sums and one source row are ever in memory. For a large
 * reduction only every s-th row and column is summed (s = a quarter of
 * the reduction, so each output pixel still averages 16 or more samples),
 * but every row is decoded, so damage anywhere is found. Alpha is summed
 * premultiplied, so fully transparent pixels lend no colour.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>
#include "dl.h"
#include "file.h"
#include "image.h"

#define JPEG_MAX_MEM (256L << 20)   /* libjpeg's own buffers (progressive files) */

/* A reason that outlives the decoder: static storage, as image.h says. */
static const char *reason(const char *msg)
{
	static char text[256];
	snprintf(text, sizeof(text), "%s", msg);
	return text;
}

/* ---- the box filter ---- */

typedef struct box {
	int sw, sh, dw, dh, ch;  /* source and output sizes, channels in a row */
	int bps;                /* bytes a sample: 1, or 2 (16 bits, high byte first) */
	int alpha;              /* the last channel is alpha */
	int sy;                 /* rows summed: every sy-th */
	int *xmap;              /* source column -> output column, -1: not summed */
	uint32_t *colcnt, *rowcnt;
	uint32_t *acc;          /* dw * dh * ch sums */
	unsigned min_alpha;
} box_t;

/* The largest size that fits mw x mh with sw x sh's aspect, never larger. */
static void fit(int sw, int sh, int mw, int mh, int *dw, int *dh)
{
	*dw = sw;
	*dh = sh;
	if (sw <= mw && sh <= mh)
		return;
	if ((int64_t)sw * mh >= (int64_t)sh * mw) {
		*dw = mw;
		*dh = (int)(((int64_t)sh * mw + sw / 2) / sw);
	} else {
		*dh = mh;
		*dw = (int)(((int64_t)sw * mh + sh / 2) / sh);
	}
	if (*dw < 1)
		*dw = 1;
	if (*dh < 1)
		*dh = 1;
}

static int stride(int s, int d)
{
	int k = s / d / 4;
	return k > 1 ? k : 1;
}

static void box_init(box_t *b, int sw, int sh, int dw, int dh, int ch, int alpha)
{
	int sx = stride(sw, dw);
	b->sw = sw, b->sh = sh, b->dw = dw, b->dh = dh, b->ch = ch, b->alpha = alpha;
	b->bps = 1;
	b->sy = stride(sh, dh);
	b->min_alpha = 255;
	b->xmap = xmalloc((size_t)sw * sizeof(*b->xmap));
	b->colcnt = xcalloc((size_t)dw, sizeof(*b->colcnt));
	b->rowcnt = xcalloc((size_t)dh, sizeof(*b->rowcnt));
	b->acc = xcalloc((size_t)dw * (size_t)dh * (size_t)ch, sizeof(*b->acc));
	for (int x = 0; x < sw; x++) {
		b->xmap[x] = x % sx ? -1 : (int)((int64_t)x * dw / sw);
		if (b->xmap[x] >= 0)
			b->colcnt[b->xmap[x]]++;
	}
	for (int y = 0; y < sh; y += b->sy)
		b->rowcnt[(int64_t)y * dh / sh]++;
}

static void box_free(box_t *b)
{
	free(b->xmap);
	free(b->colcnt);
	free(b->rowcnt);
	free(b->acc);
	memset(b, 0, sizeof(*b));
}

/* n pixels of source row y, at columns x0, x0 + xinc, ... */
static void box_row(box_t *b, int y, const unsigned char *row, int x0, int xinc, int n)
{
	if (y % b->sy)
		return;
	int ch = b->ch, bps = b->bps;
	uint32_t *line = b->acc + (size_t)((int64_t)y * b->dh / b->sh) * (size_t)b->dw * (size_t)ch;
	for (int i = 0, x = x0; i < n; i++, x += xinc) {
		if (b->xmap[x] < 0)
			continue;
		const unsigned char *p = row + (size_t)i * (size_t)(ch * bps);
		uint32_t *q = line + (size_t)b->xmap[x] * (size_t)ch;
		if (b->alpha) {
			unsigned a = p[(ch - 1) * bps];
			for (int c = 0; c < ch - 1; c++)
				q[c] += p[c * bps] * a;
			q[ch - 1] += a;
			if (a < b->min_alpha)
				b->min_alpha = a;
		} else {
			for (int c = 0; c < ch; c++)
				q[c] += p[c * bps];
		}
	}
}

/* The averages into out (pixels in a); alpha only when some pixel is not
 * opaque. */
static void box_done(box_t *b, arena_t *a, image_t *out)
{
	int comps = b->ch - b->alpha;
	size_t n = (size_t)b->dw * (size_t)b->dh;
	out->w = b->dw;
	out->h = b->dh;
	out->comps = comps;
	out->px = arena_alloc(a, n * (size_t)comps);
	out->alpha = b->alpha && b->min_alpha < 255 ? arena_alloc(a, n) : NULL;
	for (int oy = 0; oy < b->dh; oy++)
		for (int ox = 0; ox < b->dw; ox++) {
			size_t i = (size_t)oy * (size_t)b->dw + (size_t)ox;
			const uint32_t *q = b->acc + i * (size_t)b->ch;
			uint32_t cnt = b->colcnt[ox] * b->rowcnt[oy];
			unsigned char *o = out->px + i * (size_t)comps;
			if (!cnt)
				cnt = 1;
			if (!b->alpha) {
				for (int c = 0; c < comps; c++)
					o[c] = (unsigned char)((q[c] + cnt / 2) / cnt);
				continue;
			}
			uint32_t as = q[comps];
			for (int c = 0; c < comps; c++)
				o[c] = as ? (unsigned char)((q[c] + as / 2) / as) : 255;
			if (out->alpha)
				out->alpha[i] = (unsigned char)((as + cnt / 2) / cnt);
		}
}

void image_scale(arena_t *a, const image_t *im, int w, int h, image_t *out)
{
	int dw, dh;
	fit(im->w, im->h, w > 0 ? w : 1, h > 0 ? h : 1, &dw, &dh);
	if (dw >= im->w || dh >= im->h) {
		*out = *im;
		return;
	}
	box_t b;
	int ch = im->comps + (im->alpha != NULL);
	box_init(&b, im->w, im->h, dw, dh, ch, im->alpha != NULL);
	unsigned char *row = xmalloc((size_t)im->w * (size_t)ch);
	for (int y = 0; y < im->h; y++) {
		const unsigned char *p = im->px + (size_t)y * (size_t)im->w * (size_t)im->comps;
		for (int x = 0; x < im->w; x++) {
			memcpy(row + (size_t)x * (size_t)ch, p + (size_t)x * (size_t)im->comps,
			       (size_t)im->comps);
			if (im->alpha)
				row[(size_t)x * (size_t)ch + (size_t)im->comps] =
					im->alpha[(size_t)y * (size_t)im->w + (size_t)x];
		}
		box_row(&b, y, row, 0, 1, im->w);
	}
	free(row);
	*out = *im;
	box_done(&b, a, out);
	box_free(&b);
}

void image_crop(arena_t *a, const image_t *im, int x, int y, int w, int h, image_t *out)
{
	*out = *im;
	x = x < 0 ? 0 : x > im->w - 1 ? im->w - 1 : x;
	y = y < 0 ? 0 : y > im->h - 1 ? im->h - 1 : y;
	w = w < 1 ? 1 : w > im->w - x ? im->w - x : w;
	h = h < 1 ? 1 : h > im->h - y ? im->h - y : h;
	if (w == im->w && h == im->h)
		return;
	size_t c = (size_t)im->comps;
	out->w = w;
	out->h = h;
	out->px = arena_alloc(a, (size_t)w * (size_t)h * c);
	for (int r = 0; r < h; r++)
		memcpy(out->px + (size_t)r * (size_t)w * c,
		       im->px + ((size_t)(y + r) * (size_t)im->w + (size_t)x) * c, (size_t)w * c);
	if (im->alpha) {
		out->alpha = arena_alloc(a, (size_t)w * (size_t)h);
		for (int r = 0; r < h; r++)
			memcpy(out->alpha + (size_t)r * (size_t)w,
			       im->alpha + (size_t)(y + r) * (size_t)im->w + (size_t)x, (size_t)w);
	}
}

/* ---- PNG ---- */

typedef struct pngjob {     /* on the heap: survives png_longjmp intact */
	const char *why;
	char msg[160];
	unsigned char *row;
	box_t box;
	int direct;             /* png_direct made the image: no box */
	int data;               /* image_png_data's: zlib's checksum checked too */
	const unsigned char *raw;  /* and its bytes, raw[0..nraw) */
	size_t nraw;
	image_inflate_fn *inflate; /* its decompressor, or NULL (libpng's rows) */
} pngjob_t;

static void png_fail(png_structp p, png_const_charp msg)
{
	pngjob_t *j = png_get_error_ptr(p);
	/* libpng's stdio reader says "Read Error" at the end of the file */
	snprintf(j->msg, sizeof(j->msg), "%s",
	         strcmp(msg, "Read Error") ? msg : "the file ends too early");
	j->why = j->msg;
	png_longjmp(p, 1);
}

static void png_quiet(png_structp p, png_const_charp msg)
{
	(void)p;
	(void)msg;
}

/* An image kept at its size (a colour font's emoji, a small logo), not
 * interlaced: its rows straight into out, the pixels box_row and box_done
 * would give (each the average of itself: a colour under alpha 0 is 255,
 * the alpha dropped when every pixel is opaque), without their sums and
 * divisions (8.5 M instructions for four flags). */
static void png_direct(png_structp p, pngjob_t *j, arena_t *a, image_t *out, int w, int h,
                       int ch, int bps)
{
	int alpha = ch == 2 || ch == 4, comps = ch - alpha;
	size_t n = (size_t)w * (size_t)h;
	unsigned char *px = arena_alloc(a, n * (size_t)comps), *al = alpha ? arena_alloc(a, n) : NULL;
	unsigned min_alpha = 255;
	unsigned char *o = px, *oa = al;
	for (int y = 0; y < h; y++) {
		png_read_row(p, j->row, NULL);
		const unsigned char *q = j->row;
		if (!alpha) {
			for (int x = 0; x < w; x++, q += ch * bps)
				for (int c = 0; c < comps; c++)
					*o++ = q[c * bps];
			continue;
		}
		if (ch == 4 && bps == 1) { /* RGBA, and a palette with tRNS: most emoji */
			for (int x = 0; x < w; x++, q += 4, o += 3) {
				unsigned v = q[3];
				o[0] = v ? q[0] : 255;
				o[1] = v ? q[1] : 255;
				o[2] = v ? q[2] : 255;
				*oa++ = (unsigned char)v;
				min_alpha = v < min_alpha ? v : min_alpha;
			}
			continue;
		}
		for (int x = 0; x < w; x++, q += ch * bps) {
			unsigned v = q[(ch - 1) * bps];
			for (int c = 0; c < comps; c++)
				*o++ = v ? q[c * bps] : 255;
			*oa++ = (unsigned char)v;
			min_alpha = v < min_alpha ? v : min_alpha;
		}
	}
	png_read_end(p, NULL);
	out->w = out->src_w = w;
	out->h = out->src_h = h;
	out->comps = comps;
	out->px = px;
	out->alpha = alpha && min_alpha < 255 ? al : NULL;
	j->direct = 1;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The IDAT data of image_png_data's palette PNG raw[0..n) (its zlib
 * stream of PNG-filtered rows), the chunks' data in their order, into
 * out (image.h): the IDAT chunks one after another, and after them no
 * PLTE, tRNS or IDAT (what libpng reads after the image data, or warns
 * of); else an error. */
static void png_idat(png_structp p, arena_t *a, const unsigned char *raw, size_t n, image_t *out)
{
	size_t at = 8, nidat = 0, first = 0;
	int state = 0;   /* 0 before the IDATs, 1 in them, 2 after them */
	while (at + 12 <= n) {
		uint32_t len = be32(raw + at);
		const unsigned char *t = raw + at + 4;
		if (len > n - at - 12)
			png_error(p, "a chunk past the end of the data");
		int idat = !memcmp(t, "IDAT", 4);
		if (!memcmp(t, "IEND", 4))
			break;
		if (!idat && state == 1)
			state = 2;
		if (idat && state == 2)
			png_error(p, "image data after other chunks");
		if (state == 2 && (!memcmp(t, "PLTE", 4) || !memcmp(t, "tRNS", 4)))
			png_error(p, "a palette chunk after the image data");
		if (idat) {
			first = state ? first : at;
			state = 1;
			nidat += len;
		}
		at += 12 + (size_t)len;
	}
	if (!nidat)
		png_error(p, "no image data");
	unsigned char *idat = arena_alloc(a, nidat);
	size_t k = 0;
	for (at = first; k < nidat; at += 12 + (size_t)be32(raw + at)) {
		uint32_t len = be32(raw + at);
		memcpy(idat + k, raw + at + 8, len);
		k += len;
	}
	out->idat = idat;
	out->nidat = nidat;
}

/* PNG's filters undone in place on h rows of 1 + rb bytes (the filter
 * type, then the row), a byte a pixel or less (bits <= 8). */
static void png_unfilter(png_structp p, unsigned char *b, size_t rb, int h)
{
	const unsigned char *up = NULL;
	for (int y = 0; y < h; y++, b += rb + 1) {
		unsigned char *r = b + 1;
		switch (b[0]) {
		case 0:
			break;
		case 1:
			for (size_t i = 1; i < rb; i++)
				r[i] = (unsigned char)(r[i] + r[i - 1]);
			break;
		case 2:
			for (size_t i = 0; up && i < rb; i++)
				r[i] = (unsigned char)(r[i] + up[i]);
			break;
		case 3:
			for (size_t i = 0; i < rb; i++)
				r[i] = (unsigned char)(r[i] + (((i ? r[i - 1] : 0) + (up ? up[i] : 0)) >> 1));
			break;
		case 4:
			for (size_t i = 0; i < rb; i++) {
				int a = i ? r[i - 1] : 0, c = i && up ? up[i - 1] : 0, u = up ? up[i] : 0;
				int pa = abs(u - c), pb = abs(a - c), pc = abs(a + u - 2 * c);
				r[i] = (unsigned char)(r[i] + (pa <= pb && pa <= pc ? a : pb <= pc ? u : c));
			}
			break;
		default:
			png_error(p, "bad filter type");
		}
		up = r;
	}
}

/* image_png_data's palette PNG kept at its size, not interlaced (nearly
 * every glyph of a colour font): its indices, one byte each (packed
 * depths unpacked), the alpha tRNS gives them (255 past its entries) and
 * the palette padded to 1 << depth entries with black, an entry tRNS
 * makes fully clear white: the colours and alpha libpng's expansion
 * gives (png_direct's pixels), from the PLTE and tRNS libpng read, for
 * the PDF to take with the file's own compressed rows (png_idat). A
 * third of png_direct's instructions (libpng's expansion to RGBA and
 * the loop over it were 0.7 M an emoji). */
static void png_index(png_structp p, png_infop info, pngjob_t *j, arena_t *a, image_t *out,
                      int w, int h)
{
	png_colorp plte = NULL;
	int nplte = 0, ntrns = 0, bits = png_get_bit_depth(p, info);
	png_bytep trns = NULL;
	if (!png_get_PLTE(p, info, &plte, &nplte) || bits < 1 || bits > 8)
		png_error(p, "unexpected pixel format");
	if (png_get_valid(p, info, PNG_INFO_tRNS))
		png_get_tRNS(p, info, &trns, &ntrns, NULL);
	unsigned char of[256];
	memset(of, 255, sizeof(of));
	for (int i = 0; trns && i < ntrns && i < 256; i++)
		of[i] = trns[i];
	unsigned np = 1u << bits;
	unsigned char *pal = arena_alloc(a, 3 * (size_t)np); /* zero: black */
	for (unsigned i = 0; i < np; i++) {
		if (!of[i])
			memset(pal + 3 * i, 255, 3);   /* a colour under alpha 0 is 255 (box_done's) */
		else if ((int)i < nplte)
			pal[3 * i] = plte[i].red, pal[3 * i + 1] = plte[i].green, pal[3 * i + 2] = plte[i].blue;
	}
	size_t n = (size_t)w * (size_t)h;
	unsigned char *ix = arena_alloc(a, n), *al = ntrns > 0 ? arena_alloc(a, n) : NULL;
	size_t rb = ((size_t)w * (size_t)bits + 7) / 8, need = (rb + 1) * (size_t)h;
	png_idat(p, a, j->raw, j->nraw, out);
	/* a stream whose header asks for a window under 32 KiB may reach
	   farther back than it (zlib refuses that; libdeflate does not look):
	   libpng's rows then */
	unsigned cinfo = out->nidat ? out->idat[0] >> 4 : 7;
	if (j->inflate && (cinfo >= 7 || need <= 256u << cinfo)) {
		/* the IDAT inflated whole (libpng inflates it a row at a time,
		   where zlib's fast loop never runs: 0.4 M instructions an
		   emoji), its filters undone here; the data is one whole zlib
		   stream, its checksum right, of exactly the rows' bytes */
		unsigned char *buf = arena_alloc(a, need);
		if (j->inflate(out->idat, out->nidat, buf, need) != (long)need)
			png_error(p, "damaged image data");
		png_unfilter(p, buf, rb, h);
		unsigned mask = (1u << bits) - 1, most = 0;
		for (int y = 0; y < h; y++) {
			const unsigned char *r = buf + (size_t)y * (rb + 1) + 1;
			unsigned char *o = ix + (size_t)y * (size_t)w;
			if (bits == 8) {
				memcpy(o, r, (size_t)w);
				continue;
			}
			for (int x = 0; x < w; x++) {
				unsigned bit = (unsigned)x * (unsigned)bits;
				o[x] = (unsigned char)(r[bit / 8] >> (8 - bits - bit % 8) & mask);
				most = o[x] > most ? o[x] : most;
			}
		}
		/* libpng's own test (below 8 bits, an index past the palette's
		   count): refused as it refuses it */
		if (bits < 8 && (int)most > nplte)
			png_error(p, "Read palette index exceeding num_palette");
	} else {
		if (bits < 8)
			png_set_packing(p);
		png_read_update_info(p, info);
		if (png_get_rowbytes(p, info) != (size_t)w)
			png_error(p, "unexpected pixel format");
		for (int y = 0; y < h; y++)
			png_read_row(p, ix + (size_t)y * (size_t)w, NULL);
		png_read_end(p, info);   /* (with info: the chunks after the image data checked too) */
	}
	unsigned all = 255;   /* the alphas and-ed: 255 when every pixel is opaque */
	for (size_t i = 0; al && i < n; i++)
		all &= al[i] = of[ix[i]];
	out->w = out->src_w = w;
	out->h = out->src_h = h;
	out->comps = 3;
	out->px = NULL;
	out->idx = ix;
	out->pal = pal;
	out->bits = bits;
	out->alpha = all < 255 ? al : NULL;
	j->direct = 1;
}

/* Every row of every pass (Adam7 is read pass by pass, each pixel summed
 * where it belongs), after libpng's expansion: palette -> RGB, gray below
 * 8 bits -> 8, tRNS -> alpha (but for image_png_data's palette PNG kept
 * at its size: png_index). 16-bit samples are read by their high byte
 * here, which costs nothing for the rows the filter skips. */
static void png_rows(png_structp p, png_infop info, pngjob_t *j, arena_t *a, image_t *out)
{
	png_set_user_limits(p, IMAGE_MAX_SIDE, IMAGE_MAX_SIDE);
	png_set_keep_unknown_chunks(p, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
	/* metadata never reaches the PDF, so it is skipped unread: a text
	   chunk whose length claims 1.6 GB made libpng allocate that much
	   for a 195-byte file (found by fuzz_image). The cap bounds what any
	   other chunk may ask for. */
	static const png_byte skip[] = "tEXt\0zTXt\0iTXt\0eXIf\0iCCP\0sPLT\0tIME\0";
	png_set_keep_unknown_chunks(p, PNG_HANDLE_CHUNK_NEVER, skip, (int)(sizeof(skip) / 5));
	png_set_chunk_malloc_max(p, 1 << 20);
	/* the chunks' CRCs are checked already (a critical chunk's refuses
	   it); zlib's checksum over the inflated data would double the time
	   of a large photo */
	if (!j->data) /* (image_png_data's may go to the PDF as it is: png_idat) */
		png_set_option(p, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
	/* and then what libpng only warns of (an ancillary chunk's bad CRC, a
	   tRNS out of place or longer than the palette, compressed data past
	   the image's) refuses it: the PDF would take those bytes */
	if (j->data)
		png_set_benign_errors(p, 0);
	png_read_info(p, info);
	int sw = (int)png_get_image_width(p, info), sh = (int)png_get_image_height(p, info);
	int adam7 = png_get_interlace_type(p, info) == PNG_INTERLACE_ADAM7, dw, dh;
	fit(sw, sh, IMAGE_MAX_PX, IMAGE_MAX_PX, &dw, &dh);
	if (j->data && png_get_color_type(p, info) == PNG_COLOR_TYPE_PALETTE && !adam7 &&
	    dw == sw && dh == sh) {
		png_index(p, info, j, a, out, sw, sh);
		return;
	}
	png_set_expand(p);
	png_read_update_info(p, info);
	int ch = png_get_channels(p, info), depth = png_get_bit_depth(p, info);
	if (ch < 1 || ch > 4 || (depth != 8 && depth != 16))
		png_error(p, "unexpected pixel format");
	j->row = xmalloc(png_get_rowbytes(p, info));
	if (dw == sw && dh == sh && !adam7) {
		png_direct(p, j, a, out, sw, sh, ch, depth / 8);
		return;
	}
	box_init(&j->box, sw, sh, dw, dh, ch, ch == 2 || ch == 4);
	j->box.bps = depth / 8;
	for (int pass = 0; pass < (adam7 ? 7 : 1); pass++) {
		int cols = adam7 ? (int)PNG_PASS_COLS(sw, pass) : sw;
		int rows = adam7 ? (int)PNG_PASS_ROWS(sh, pass) : sh;
		if (!cols || !rows)
			continue;   /* libpng skips an empty pass too */
		int x0 = adam7 ? (int)PNG_PASS_START_COL(pass) : 0;
		int xinc = adam7 ? (int)PNG_PASS_COL_OFFSET(pass) : 1;
		for (int r = 0; r < rows; r++) {
			png_read_row(p, j->row, NULL);
			int y = adam7 ? (int)PNG_ROW_FROM_PASS_ROW(r, pass) : r;
			box_row(&j->box, y, j->row, x0, xinc, cols);
		}
	}
	png_read_end(p, NULL);
	out->src_w = sw;
	out->src_h = sh;
}

static int png_load(FILE *f, arena_t *a, image_t *out, const char **why, int data,
                    const unsigned char *raw, size_t nraw, image_inflate_fn *inflate)
{
	pngjob_t *j = xcalloc(1, sizeof(*j));
	j->data = data;
	j->raw = raw;
	j->nraw = nraw;
	j->inflate = inflate;
	png_structp p = png_create_read_struct(PNG_LIBPNG_VER_STRING, j, png_fail, png_quiet);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	int rc = -1;
	j->why = "out of memory";
	if (!info)
		goto done;
	if (setjmp(png_jmpbuf(p)))
		goto done;
	png_init_io(p, f);
	png_rows(p, info, j, a, out);
	if (!j->direct)
		box_done(&j->box, a, out);
	rc = 0;
done:
	if (rc)
		*why = reason(j->why);
	png_destroy_read_struct(p ? &p : NULL, info ? &info : NULL, NULL);
	box_free(&j->box);
	free(j->row);
	free(j);
	return rc;
}

/* ---- JPEG ---- */

/* libjpeg, loaded when a JPEG is first read or written (dl.h): most CVs
 * have no photo, or a PNG one. */
#define JPEG_FUNCS(X) X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_stdio_src) \
	X(jpeg_read_header) X(jpeg_start_decompress) X(jpeg_read_scanlines) \
	X(jpeg_finish_decompress) X(jpeg_destroy_decompress) X(jpeg_CreateCompress) \
	X(jpeg_mem_dest) X(jpeg_set_defaults) X(jpeg_set_quality) X(jpeg_start_compress) \
	X(jpeg_write_scanlines) X(jpeg_finish_compress) X(jpeg_destroy_compress)
static struct {
	JPEG_FUNCS(DL_FIELD)
} jl;

/* 0, or -1 with the reason in *why. */
static int jpeg_lib(const char **why)
{
	static int loaded; /* 1, or -1 when it cannot be loaded */
	static char msg[300];
	if (!loaded) {
		void *h = dl_open("libjpeg.so.62", msg, sizeof(msg));
#define X(f) DL_SYM(h, jl, f, msg)
		JPEG_FUNCS(X)
#undef X
		loaded = h ? 1 : -1;
	}
	if (loaded < 0)
		*why = msg;
	return loaded > 0 ? 0 : -1;
}

typedef struct jpgjob {     /* on the heap: survives the longjmp intact */
	struct jpeg_decompress_struct ci;
	struct jpeg_error_mgr err;
	jmp_buf jb;
	int created;
	char msg[JMSG_LENGTH_MAX];
	unsigned char *row, *rgb;
	box_t box;
} jpgjob_t;

static void jpg_fail(j_common_ptr c)
{
	jpgjob_t *j = (jpgjob_t *)c->client_data;
	switch (c->err->msg_code) {
	case JWRN_JPEG_EOF:
		snprintf(j->msg, sizeof(j->msg), "the file ends too early");
		break;
	case JERR_NO_BACKING_STORE:
		snprintf(j->msg, sizeof(j->msg), "a progressive JPEG too large to decode in %ld MB",
		         JPEG_MAX_MEM >> 20);
		break;
	default:
		c->err->format_message(c, j->msg);
	}
	longjmp(j->jb, 1);
}

/* libjpeg goes on after damaged data with a warning (and grey blocks):
 * that is an error here. Warnings about metadata or a harmless oddity
 * are not. */
static void jpg_message(j_common_ptr c, int level)
{
	if (level >= 0)
		return;     /* trace messages */
	switch (c->err->msg_code) {
	case JWRN_EXTRANEOUS_DATA: case JWRN_JFIF_MAJOR: case JWRN_ADOBE_XFORM:
	case JWRN_BOGUS_ICC: case JWRN_BOGUS_PROGRESSION:
		c->err->num_warnings++;
		return;
	default:
		jpg_fail(c);
	}
}

/* CMYK (inverted by Adobe's writers, which mark it with APP14) -> RGB. */
static void cmyk_rgb(const unsigned char *in, unsigned char *out, int n, int adobe)
{
	for (int i = 0; i < n; i++, in += 4, out += 3) {
		unsigned k = adobe ? in[3] : 255u - in[3];
		for (int c = 0; c < 3; c++) {
			unsigned v = adobe ? in[c] : 255u - in[c];
			out[c] = (unsigned char)((v * k + 127) / 255);
		}
	}
}

static int jpg_color(jpgjob_t *j, const char **why)
{
	struct jpeg_decompress_struct *ci = &j->ci;
	switch (ci->jpeg_color_space) {
	case JCS_GRAYSCALE:
		ci->out_color_space = JCS_GRAYSCALE;
		return 1;
	case JCS_YCbCr: case JCS_RGB:
		ci->out_color_space = JCS_RGB;
		return 3;
	case JCS_CMYK: case JCS_YCCK:
		ci->out_color_space = JCS_CMYK;
		return 3;
	default:
		snprintf(j->msg, sizeof(j->msg), "a JPEG with %d colour components is not supported",
		         ci->num_components);
		*why = reason(j->msg);
		return -1;
	}
}

/* The whole file, scaled by libjpeg (1/2, 1/4, 1/8 in the DCT) to no
 * less than the output, then box-filtered. */
static int jpg_rows(jpgjob_t *j, arena_t *a, image_t *out, const char **why)
{
	struct jpeg_decompress_struct *ci = &j->ci;
	jl.jpeg_read_header(ci, TRUE);
	int sw = (int)ci->image_width, sh = (int)ci->image_height, dw, dh;
	if (sw < 1 || sh < 1 || sw > IMAGE_MAX_SIDE || sh > IMAGE_MAX_SIDE) {
		*why = "image size out of range";
		return -1;
	}
	int ch = jpg_color(j, why);
	if (ch < 0)
		return -1;
	fit(sw, sh, IMAGE_MAX_PX, IMAGE_MAX_PX, &dw, &dh);
	int d = 8;
	while (d > 1 && ((sw + d - 1) / d < dw || (sh + d - 1) / d < dh))
		d /= 2;
	ci->scale_num = 1;
	ci->scale_denom = (unsigned)d;
	jl.jpeg_start_decompress(ci);
	int ow = (int)ci->output_width, oh = (int)ci->output_height;
	if (dw > ow || dh > oh)
		fit(ow, oh, dw, dh, &dw, &dh);
	j->row = xmalloc((size_t)ow * (size_t)ci->output_components);
	j->rgb = xmalloc((size_t)ow * 3);
	box_init(&j->box, ow, oh, dw, dh, ch, 0);
	while (ci->output_scanline < ci->output_height) {
		int y = (int)ci->output_scanline;
		JSAMPROW r = j->row;
		if (jl.jpeg_read_scanlines(ci, &r, 1) != 1) {
			*why = "the file ends too early";
			return -1;
		}
		if (ci->out_color_space == JCS_CMYK)
			cmyk_rgb(j->row, j->rgb, ow, ci->saw_Adobe_marker);
		box_row(&j->box, y, ci->out_color_space == JCS_CMYK ? j->rgb : j->row, 0, 1, ow);
	}
	jl.jpeg_finish_decompress(ci);
	box_done(&j->box, a, out);
	out->src_w = sw;
	out->src_h = sh;
	return 0;
}

static int jpg_load(FILE *f, arena_t *a, image_t *out, const char **why)
{
	if (jpeg_lib(why))
		return -1;
	jpgjob_t *j = xcalloc(1, sizeof(*j));
	int rc = -1;
	j->ci.err = jl.jpeg_std_error(&j->err);
	j->err.error_exit = jpg_fail;
	j->err.emit_message = jpg_message;
	j->ci.client_data = j;
	if (setjmp(j->jb)) {
		*why = reason(j->msg);
		goto done;
	}
	jl.jpeg_CreateDecompress(&j->ci, JPEG_LIB_VERSION, sizeof(j->ci));
	j->created = 1;
	j->ci.mem->max_memory_to_use = JPEG_MAX_MEM;
	jl.jpeg_stdio_src(&j->ci, f);
	rc = jpg_rows(j, a, out, why);
done:
	if (j->created)
		jl.jpeg_destroy_decompress(&j->ci);
	box_free(&j->box);
	free(j->row);
	free(j->rgb);
	free(j);
	return rc;
}

typedef struct jpgout {     /* on the heap: survives the longjmp intact */
	struct jpeg_compress_struct ci;
	struct jpeg_error_mgr err;
	jmp_buf jb;
	int created;
	unsigned char *buf;
	unsigned long n;
} jpgout_t;

static void jpg_out_fail(j_common_ptr c)
{
	longjmp(((jpgout_t *)c->client_data)->jb, 1);
}

int image_jpeg(const image_t *im, int quality, unsigned char **out, size_t *n)
{
	const char *why;
	*out = NULL;
	*n = 0;
	if (jpeg_lib(&why))
		return -1;
	jpgout_t *j = xcalloc(1, sizeof(*j));
	int rc = -1;
	j->ci.err = jl.jpeg_std_error(&j->err);
	j->err.error_exit = jpg_out_fail;
	j->ci.client_data = j;
	if (setjmp(j->jb))
		goto done;
	jl.jpeg_CreateCompress(&j->ci, JPEG_LIB_VERSION, sizeof(j->ci));
	j->created = 1;
	jl.jpeg_mem_dest(&j->ci, &j->buf, &j->n);
	j->ci.image_width = (JDIMENSION)im->w;
	j->ci.image_height = (JDIMENSION)im->h;
	j->ci.input_components = im->comps;
	j->ci.in_color_space = im->comps == 1 ? JCS_GRAYSCALE : JCS_RGB;
	jl.jpeg_set_defaults(&j->ci);
	jl.jpeg_set_quality(&j->ci, quality, TRUE);
	j->ci.write_JFIF_header = FALSE;
	j->ci.write_Adobe_marker = FALSE;
	jl.jpeg_start_compress(&j->ci, TRUE);
	while (j->ci.next_scanline < j->ci.image_height) {
		JSAMPROW r = im->px + (size_t)j->ci.next_scanline * (size_t)im->w * (size_t)im->comps;
		jl.jpeg_write_scanlines(&j->ci, &r, 1);
	}
	jl.jpeg_finish_compress(&j->ci);
	*out = j->buf;
	*n = j->n;
	j->buf = NULL;
	rc = 0;
done:
	if (j->created)
		jl.jpeg_destroy_compress(&j->ci);
	free(j->buf);
	free(j);
	return rc;
}

int image_load(arena_t *a, const char *path, image_t *out, const char **why)
{
	static const char *dummy;
	if (!why)
		why = &dummy;
	memset(out, 0, sizeof(*out));
	FILE *f = file_fopen(path, FILE_MAX_BINARY, why);
	if (!f)
		return -1;
	unsigned char b[8];
	size_t n = fread(b, 1, sizeof(b), f);
	int rc = -1;
	*why = "neither PNG nor JPEG data";
	rewind(f);
	if (n == 8 && !png_sig_cmp(b, 0, 8)) {
		out->png = 1;
		rc = png_load(f, a, out, why, 0, NULL, 0, NULL);
	} else if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff) {
		rc = jpg_load(f, a, out, why);
	}
	fclose(f);
	if (rc)
		memset(out, 0, sizeof(*out));
	return rc;
}

int image_png_data(arena_t *a, const unsigned char *p, size_t n, image_inflate_fn *inflate,
                   image_t *out, const char **why)
{
	static const char *dummy;
	if (!why)
		why = &dummy;
	memset(out, 0, sizeof(*out));
	*why = "not PNG data";
	if (n < 8 || png_sig_cmp(p, 0, 8))
		return -1;
	/* the same reader as a file's (a colour font's glyph is a few KB) */
	FILE *f = fmemopen((void *)(uintptr_t)p, n, "rb");
	if (!f) {
		*why = "out of memory";
		return -1;
	}
	out->png = 1;
	int rc = png_load(f, a, out, why, 1, p, n, inflate);
	fclose(f);
	if (rc)
		memset(out, 0, sizeof(*out));
	return rc;
}
