/* fuzz_fastot: libFuzzer target for font_ot.c, the fast path of shaping
 * that reads GDEF, GSUB and GPOS itself. The fonts are installed ones:
 * the serif chain's Latin face (Noto Serif) and the sans chain's (if it
 * is another file). An input is byte 0 (which font, which feature set),
 * byte 1 (which words), then patches of 4 bytes: a table (GDEF, GSUB,
 * GPOS, by the low 2 bits of the first byte), a 16-bit offset into it, a
 * byte to put there; the font is read from the patched bytes. Every word
 * must go through without a crash and, whenever the fast path takes it,
 * give what HarfBuzz gives on the same bytes (else abort) -- unless
 * HarfBuzz's sanitizer dropped a whole table for damage the fast path
 * never reads (hb_sees_tables). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hb-ot.h>
#include "arena.h"
#include "font.h"
#include "font_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char *base[2];
static size_t baselen[2];
static int nbase;

static void make_bases(void)
{
	static const char *const fdirs[] = { "fonts", NULL };
	static const char *const chains[] = { "serif", "sans" };
	errs_t e;
	errs_init(&e);
	font_lib_t *lib = font_lib_new(fdirs, &e);
	for (int i = 0; lib && i < 2; i++) {
		font_chain_t *c = font_chain_get(lib, chains[i], &e);
		int face = c ? font_face_for(c, FONT_REGULAR, "en", 'a') : -1;
		const font_face_info_t *fi = face >= 0 ? font_face_info(lib, face) : NULL;
		FILE *fp = fi && fi->index == 0 ? fopen(fi->path, "rb") : NULL;
		if (!fp)
			continue;
		fseek(fp, 0, SEEK_END);
		long n = ftell(fp);
		fseek(fp, 0, SEEK_SET);
		base[nbase] = xmalloc((size_t)n);
		if (n > 0 && fread(base[nbase], 1, (size_t)n, fp) == (size_t)n)
			baselen[nbase++] = (size_t)n;
		fclose(fp);
	}
	if (!nbase) {
		errs_print(stderr, &e);
		fprintf(stderr, "fuzz_fastot: the serif chain's faces are not installed\n");
		exit(2);
	}
	font_lib_free(lib);
	errs_done(&e);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Offset and length of table tag in the single-face font w[0..n). */
static int find_table(const unsigned char *w, size_t n, const char *tag, uint32_t *off,
                      uint32_t *len)
{
	if (n < 12)
		return 0;
	unsigned nt = (unsigned)w[4] << 8 | w[5];
	for (unsigned i = 0; i < nt && 12 + 16 * (size_t)i + 16 <= n; i++) {
		const unsigned char *r = w + 12 + 16 * i;
		if (!memcmp(r, tag, 4)) {
			*off = be32(r + 8);
			*len = be32(r + 12);
			return *off < n && *len <= n - *off;
		}
	}
	return 0;
}

static const char *const words[] = {
	"AVAST", "Toy", "office", "Wavy", "fijord", "Zhang", "Ångström", "naïve", "Łódź",
	"ĳssel", "ǅemal", "2024–2026", "T.Y.", "“Yes,”", "α-βγ", "Жук", "Fyodor", "V.", "LaTeX",
	"(Tokyo)", "x²", "№7", "L’Avenir", "WA", "ffi", "0/1", "Pr.", "K-12", "AT&T", "Vũ",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static const hb_tag_t tags[6] = {
	HB_TAG('s', 'm', 'c', 'p'), HB_TAG('c', '2', 's', 'c'), HB_TAG('o', 'n', 'u', 'm'),
	HB_TAG('l', 'n', 'u', 'm'), HB_TAG('t', 'n', 'u', 'm'), HB_TAG('p', 'n', 'u', 'm'),
};

/* 1 when HarfBuzz's sanitizer kept the tables whole: as many lookups as
 * their bytes list, GDEF's glyph classes if it has them. When a damaged
 * part (one the fast path never reads) makes it drop a table, HarfBuzz
 * shapes without it and the fast path with it: not compared. */
static int hb_sees_tables(font_face_t *f, const unsigned char *w, size_t n)
{
	static const char *const tabs[2] = { "GSUB", "GPOS" };
	static const hb_tag_t tags[2] = { HB_OT_TAG_GSUB, HB_OT_TAG_GPOS };
	uint32_t off, len;
	for (int t = 0; t < 2; t++) {
		unsigned raw = 0;
		if (find_table(w, n, tabs[t], &off, &len) && len >= 10) {
			unsigned ll = (unsigned)w[off + 8] << 8 | w[off + 9];
			if (ll && ll + 2 <= len)
				raw = (unsigned)w[off + ll] << 8 | w[off + ll + 1];
		}
		if (hb_ot_layout_table_get_lookup_count(f->hbface, tags[t]) != raw)
			return 0;
	}
	int classes = find_table(w, n, "GDEF", &off, &len) && len >= 6 && (w[off + 4] | w[off + 5]);
	return hb_ot_layout_has_glyph_classes(f->hbface) == classes;
}

static void one(font_face_t *f, hb_buffer_t *b, const char *s, unsigned mask, int compare)
{
	uint32_t cp[32], g[32];
	int32_t dx[32], xo[32], yo[32];
	int n = 0;
	hb_buffer_clear_contents(b);
	hb_buffer_add_utf8(b, s, -1, 0, -1);
	unsigned m;
	hb_glyph_info_t *in = hb_buffer_get_glyph_infos(b, &m);
	for (unsigned i = 0; i < m && n < 32; i++)
		cp[n++] = in[i].codepoint;
	hb_script_t sc = HB_SCRIPT_INVALID;
	for (int i = 0; i < n && sc == HB_SCRIPT_INVALID; i++) {
		hb_script_t x = hb_unicode_script(hb_unicode_funcs_get_default(), cp[i]);
		if (x != HB_SCRIPT_COMMON && x != HB_SCRIPT_INHERITED && x != HB_SCRIPT_UNKNOWN)
			sc = x;
	}
	for (int i = 0; i < n; i++) {
		hb_codepoint_t gid = 0;
		hb_font_get_nominal_glyph(f->hbfont, cp[i], &gid);
		g[i] = gid;
	}
	hb_tag_t user[6];
	int nuser = 0;
	for (int i = 0; i < 6; i++)
		if (mask & 1u << i)
			user[nuser++] = tags[i];
	if (!font_ot_shape(f, sc, mask, user, nuser, cp, g, n, dx, xo, yo) || !compare)
		return;
	hb_feature_t feats[11] = {
		{ HB_TAG('k', 'e', 'r', 'n'), 1, 0, (unsigned)-1 },
		{ HB_TAG('l', 'i', 'g', 'a'), 0, 0, (unsigned)-1 },
		{ HB_TAG('c', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
		{ HB_TAG('d', 'l', 'i', 'g'), 0, 0, (unsigned)-1 },
		{ HB_TAG('c', 'a', 'l', 't'), 0, 0, (unsigned)-1 },
	};
	unsigned nf = 5;
	for (int i = 0; i < nuser; i++)
		feats[nf++] = (hb_feature_t){ user[i], 1, 0, (unsigned)-1 };
	hb_buffer_clear_contents(b);
	hb_buffer_add_codepoints(b, cp, n, 0, n);
	hb_buffer_set_direction(b, HB_DIRECTION_LTR);
	if (sc != HB_SCRIPT_INVALID)
		hb_buffer_set_script(b, sc);
	hb_buffer_set_language(b, hb_language_from_string("und", 3));
	hb_buffer_guess_segment_properties(b);
	hb_shape(f->hbfont, b, feats, nf);
	in = hb_buffer_get_glyph_infos(b, &m);
	hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(b, NULL);
	int bad = (int)m != n;
	for (int i = 0; !bad && i < n; i++)
		bad = in[i].cluster != (unsigned)i || in[i].codepoint != g[i] ||
		      pos[i].x_advance != hb_font_get_glyph_h_advance(f->hbfont, g[i]) + dx[i] ||
		      pos[i].x_offset != xo[i] || pos[i].y_offset != yo[i];
	if (bad) {
		fprintf(stderr, "fuzz_fastot: \"%s\" (mask %u): the fast path differs from HarfBuzz\n",
		        s, mask);
		for (unsigned i = 0; i < m; i++)
			fprintf(stderr, "  HarfBuzz: glyph %u cluster %u adv %d off %d,%d\n", in[i].codepoint,
			        in[i].cluster, pos[i].x_advance, pos[i].x_offset, pos[i].y_offset);
		for (int i = 0; i < n; i++)
			fprintf(stderr, "  fast:     glyph %u adv %d off %d,%d\n", g[i],
			        hb_font_get_glyph_h_advance(f->hbfont, g[i]) + dx[i], xo[i], yo[i]);
		abort();
	}
}

/* The face reads its tables from the patched bytes as writable blobs:
 * HarfBuzz's sanitizer then repairs them in place (it sets bad offsets
 * to 0), and the fast path, opened again after it, reads the bytes
 * HarfBuzz shapes with. */
typedef struct fbytes {
	unsigned char *w;
	size_t n;
} fbytes_t;

static hb_blob_t *ref_table(hb_face_t *face, hb_tag_t tag, void *data)
{
	(void)face;
	fbytes_t *fb = data;
	char t[5] = { (char)(tag >> 24), (char)(tag >> 16), (char)(tag >> 8), (char)tag, 0 };
	uint32_t off, len;
	if (!find_table(fb->w, fb->n, t, &off, &len))
		return NULL;
	return hb_blob_create((const char *)fb->w + off, len, HB_MEMORY_MODE_WRITABLE, NULL, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!nbase)
		make_bases();
	if (size < 2)
		return 0;
	int k = data[0] % nbase;
	unsigned mask = (data[0] >> 1) & 63;
	size_t n = baselen[k];
	unsigned char *w = xmalloc(n);
	memcpy(w, base[k], n);
	static const char *const tabs[4] = { "GDEF", "GSUB", "GPOS", "GPOS" };
	for (size_t i = 2; i + 4 <= size; i += 4) {
		uint32_t off, len;
		if (find_table(w, n, tabs[data[i] & 3], &off, &len) && len)
			w[off + ((size_t)data[i + 1] << 8 | data[i + 2]) % len] = data[i + 3];
	}
	fbytes_t fb = { w, n };
	font_face_t f;
	memset(&f, 0, sizeof(f));
	f.path = "fuzz";
	f.hbface = hb_face_create_for_tables(ref_table, &fb, NULL);
	f.hbfont = hb_font_create(f.hbface);
	f.upem = (int)hb_face_get_upem(f.hbface);
	hb_font_set_scale(f.hbfont, f.upem, f.upem);
	f.nglyphs = hb_face_get_glyph_count(f.hbface);
	hb_buffer_t *b = hb_buffer_create();
	/* first the fast path alone (it must not lean on HarfBuzz having
	   loaded the tables), then compared */
	for (unsigned i = 0; f.nglyphs && i < 8; i++)
		one(&f, b, words[(data[1] + i * 7) % NWORDS], mask, 0);
	int compare = hb_sees_tables(&f, w, n);
	font_ot_free(f.ot);     /* again, on the bytes as HarfBuzz repaired them */
	f.ot = NULL;
	for (unsigned i = 0; f.nglyphs && i < 8; i++)
		one(&f, b, words[(data[1] + i * 7) % NWORDS], mask, compare);
	hb_buffer_destroy(b);
	font_ot_free(f.ot);
	hb_font_destroy(f.hbfont);
	hb_face_destroy(f.hbface);
	free(w);
	return 0;
}
