/* font_chain: fonts/<name>.yaml -> a chain of faces, resolved with
 * fontconfig (only for `family:` entries). Grammar of a chain file:
 *
 *   chain  := map { name: str, description: str, faces: [face, ...] }
 *   face   := map { family: str          # a fontconfig family, e.g. "Noto Serif"
 *                 | file: path           # or an explicit file (relative to
 *                                        # the chain file, then the search dirs)
 *                   index: int           # face index in a .ttc (default 0)
 *                   bold: path, italic: path, bold-italic: path   # with file:
 *                   lang: zh | zh-Hant | ja | ko | [zh, ...]   # preferred for these
 *                   package: str        # the Debian package providing it
 *                   italic-style: upright | synthetic
 *                   covers: "0900-097F 25CC"   # the only code points it draws
 *                   presentation: emoji }      # also any it has before U+FE0F
 *
 * Styles: each entry is resolved to 4 faces (regular, bold, italic, bold
 * italic). A family without a real bold uses its regular face with
 * FONT_SYNTH_BOLD; without a real italic, its upright face with
 * FONT_SYNTH_ITALIC -- except for lang-tagged (CJK) entries, whose italic
 * is the upright face with no slant: slanted Han/kana/Hangul is poor
 * typography, so this is a deliberate choice (override with
 * `italic-style: synthetic`). `vita fonts` shows which applies.
 *
 * Family lookup uses FcFontList (the fonts whose family name really is the
 * one asked for; FcFontMatch would always return *some* font) and picks the
 * closest width/weight/slant itself. A family that is not installed is
 * skipped: an English CV needs no CJK font. Only when a character of the
 * CV has no installed face and the chain names a missing family is that
 * an error (exit 3, located at the character; inline.c asks
 * font_chain_missing), which names the Debian package from `package:`.
 *
 * Lazily: the chain's first face (its Latin text, its metrics) and the
 * families in front of another chain are looked up when the chain loads;
 * every later `family:` face, a fallback, only when a character first falls
 * through to it (font_chain_resolve, from font_pick.c's font_entry_has), so
 * that a chain can list a face for every script Noto covers and a CV pays
 * only for the scripts it has. A fallback family that is not installed
 * says what it said when it was looked up at load, but only once a
 * character needs it: with a close installed name (a typo in the chain
 * file), "font family 'X' is not installed; did you mean 'Y'?" at its line
 * in the chain file (exit 3); otherwise the character's error naming the
 * family and its package (font_chain_missing). A font file that turns out
 * unusable then is a late error (lib->late), as for a face loaded lazily.
 * `vita fonts` looks up every face.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fontconfig/fontconfig.h>
#include "arena.h"
#include "buf.h"
#include "deps.h"
#include "dl.h"
#include "font_int.h"
#include "suggest.h"
#include "ydoc.h"

#define CHAIN_MAX_FACES 48

/* fontconfig, loaded when first asked (dl.h): a render whose families
 * are all in the font cache never calls it. */
#define FC_FUNCS(X) X(FcInitLoadConfigAndFonts) X(FcConfigDestroy) X(FcPatternCreate) \
	X(FcPatternDestroy) X(FcPatternAddString) X(FcPatternGetString) X(FcPatternGetInteger) \
	X(FcPatternGetBool) X(FcObjectSetBuild) X(FcObjectSetDestroy) X(FcFontList) \
	X(FcFontSetDestroy) X(FcConfigGetFontDirs) X(FcStrListNext) \
	X(FcStrListDone) X(FcConfigSubstitute) X(FcPatternGetWithBinding) X(FcConfigGetFonts) \
	X(FcStrCmpIgnoreCase)
static struct {
	FC_FUNCS(DL_FIELD)
} fcl;

static void fcx_free(font_lib_t *lib);

void font_fc_free(font_lib_t *lib)
{
	font_fccache_free(lib);
	fcx_free(lib);
	if (lib->fc)
		fcl.FcConfigDestroy((FcConfig *)lib->fc); /* set: lib->fc was made */
	lib->fc = NULL;
}

void font_chain_free(font_chain_t *c)
{
	if (!c)
		return;
	for (int k = 0; k < c->nent; k++) {
		free(c->ent[k].cov);
		free(c->ent[k].family);
		free(c->ent[k].package);
		free(c->ent[k].standin);
		for (int s = 0; s < FONT_NSTYLES; s++)
			free(c->ent[k].why[s]);
	}
	free(c->ent);
	free(c->absent);
	for (int l = 0; l < FONT_NLANG; l++) {
		free(c->order[0][l]);
		free(c->order[1][l]);
	}
	free(c->scratch.g); /* font_width's buffer (font_shape.c) */
	free(c->name);
	free(c->file);
	free(c->desc);
	free(c);
}

/* ---- fontconfig ---- */

static FcConfig *fc_config(font_lib_t *lib)
{
	static int loaded; /* 1, or -1 when the library cannot be loaded */
	if (!loaded) {
		char why[300];
		void *h = dl_open("libfontconfig.so.1", why, sizeof(why));
#define X(f) DL_SYM(h, fcl, f, why)
		FC_FUNCS(X)
#undef X
		loaded = h ? 1 : -1;
	}
	if (!lib->fc && loaded > 0) {
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		lib->fc_since = (long long)t.tv_sec;
		lib->fc = fcl.FcInitLoadConfigAndFonts();
	}
	return (FcConfig *)lib->fc;
}

static void fc_dirs(FcStrList *l, const char ***v, int *n)
{
	FcChar8 *s;
	while (l && (s = fcl.FcStrListNext(l))) {
		if ((*n & (*n - 1)) == 0)
			*v = xrealloc(*v, (size_t)(*n ? 2 * *n : 1) * sizeof(**v));
		(*v)[(*n)++] = (const char *)s;
	}
}

/* Before the miss cache stores what fontconfig said: the directories
 * whose change would change it (font_fccache.c). */
static void fc_stamp(font_lib_t *lib, FcConfig *fc)
{
	if (!font_fccache_need_stamp(lib))
		return;
	FcStrList *fl = fcl.FcConfigGetFontDirs(fc);
	const char **v = NULL;
	int n = 0;
	fc_dirs(fl, &v, &n);
	font_fccache_stamp(lib, v, n, lib->fc_since);
	free(v);
	if (fl)
		fcl.FcStrListDone(fl);
}

/* weight: 0 regular, 1 bold, 2 light */
static long fc_score(const font_cand_t *c, int bold, int italic)
{
	int want_w = bold == 1 ? FC_WEIGHT_BOLD : bold == 2 ? FC_WEIGHT_LIGHT : FC_WEIGHT_REGULAR;
	long s = 0;
	if (c->truetype == 2)
		s += 1000000000L;   /* Type 1 beside the OpenType faces (URW's): never */
	if ((c->slant > 0) != (italic != 0))
		s += 100000000L;
	if (!c->truetype)
		s += 10000000L;
	s += 10000L * labs((long)c->width - 100);
	s += 10L * labs((long)c->weight - want_w);
	if (c->slant == FC_SLANT_OBLIQUE)
		s += 1;
	return s;
}

static const font_cand_t *fc_best(const font_cand_t *v, int n, int bold, int italic)
{
	const font_cand_t *b = NULL;
	long bs = 0;
	for (int i = 0; i < n; i++) {
		long s = fc_score(&v[i], bold, italic);
		int better = !b || s < bs;
		if (b && s == bs) {
			int c = strcmp(v[i].file, b->file);
			better = c < 0 || (c == 0 && v[i].index < b->index);
		}
		if (better) {
			b = &v[i];
			bs = s;
		}
	}
	return b;
}

/* The style name fontconfig pairs with family (FC_FAMILY and FC_STYLE are
 * lists in step: "Noto Serif Myanmar" / "Condensed Bold", then "Noto Serif
 * Myanmar Condensed Bold" / "Regular"), or NULL. */
static const char *fc_style_of(FcPattern *p, const char *family)
{
	FcChar8 *fam, *st;
	for (int k = 0; fcl.FcPatternGetString(p, FC_FAMILY, k, &fam) == FcResultMatch; k++)
		if (fcl.FcStrCmpIgnoreCase(fam, (const FcChar8 *)family) == 0)
			return fcl.FcPatternGetString(p, FC_STYLE, k, &st) == FcResultMatch ? (const char *)st
			                                                                    : NULL;
	return NULL;
}

/* A face whose weight and width as fontconfig reads them contradict its
 * own style name (Debian 12's Noto Serif and Sans Myanmar: Bold, Light,
 * Condensed and Regular all say regular weight and normal width, so the
 * Bold file won the regular slot by its file name and ExtraBold the bold
 * one): the four plain style names mean what they say, a Condensed face
 * is narrower than normal, and a weight word in the name (Light, Medium,
 * SemiBold, ...) counts where fontconfig says regular. */
static void fc_style_fix(font_cand_t *c, const char *st)
{
	if (!st)
		return;
	int bold = !strcmp(st, "Bold") || !strcmp(st, "Bold Italic");
	if (bold || !strcmp(st, "Regular") || !strcmp(st, "Italic")) {
		c->weight = bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR;
		c->width = FC_WIDTH_NORMAL;
		return;
	}
	if (c->width == FC_WIDTH_NORMAL && strstr(st, "Condensed"))
		c->width = strstr(st, "SemiCondensed") ? FC_WIDTH_SEMICONDENSED
		         : strstr(st, "ExtraCondensed") ? FC_WIDTH_EXTRACONDENSED : FC_WIDTH_CONDENSED;
	/* a weight the name gives that fontconfig read as regular */
	static const struct {
		const char *w;
		int v;
	} ws[] = {{"ExtraLight", FC_WEIGHT_EXTRALIGHT}, {"Light", FC_WEIGHT_LIGHT},
	          {"Thin", FC_WEIGHT_THIN}, {"Medium", FC_WEIGHT_MEDIUM},
	          {"SemiBold", FC_WEIGHT_SEMIBOLD}, {"ExtraBold", FC_WEIGHT_EXTRABOLD},
	          {"Black", FC_WEIGHT_BLACK}, {"Bold", FC_WEIGHT_BOLD}};
	if (c->weight != FC_WEIGHT_REGULAR && c->weight != FC_WEIGHT_BOOK)
		return;
	for (size_t i = 0; i < sizeof(ws) / sizeof(ws[0]); i++)
		if (strstr(st, ws[i].w)) {
			c->weight = ws[i].v;
			return;
		}
}

static int fc_cands(FcPattern *const *fonts, int nfont, const char *family, font_cand_t *v,
                    int max)
{
	int n = 0;
	for (int i = 0; i < nfont && n < max; i++) {
		FcPattern *p = fonts[i];
		FcChar8 *file, *fmt;
		FcBool var = FcFalse;
		font_cand_t *c = &v[n];
		if (fcl.FcPatternGetString(p, FC_FILE, 0, &file) != FcResultMatch)
			continue;
		fcl.FcPatternGetBool(p, FC_VARIABLE, 0, &var);
		c->file = (char *)file;
		c->index = 0;
		c->weight = FC_WEIGHT_REGULAR;
		c->slant = FC_SLANT_ROMAN;
		c->width = FC_WIDTH_NORMAL;
		fcl.FcPatternGetInteger(p, FC_INDEX, 0, &c->index);
		if (c->index >> 16)
			continue; /* a named instance of a variable font: not a file face */
		fcl.FcPatternGetInteger(p, FC_WEIGHT, 0, &c->weight);
		fcl.FcPatternGetInteger(p, FC_SLANT, 0, &c->slant);
		fcl.FcPatternGetInteger(p, FC_WIDTH, 0, &c->width);
		fc_style_fix(c, fc_style_of(p, family));
		/* a variable font draws its default instance: a last resort;
		   one that is not an sfnt (Type 1, PCF) cannot be drawn at all */
		int known = fcl.FcPatternGetString(p, FC_FONTFORMAT, 0, &fmt) == FcResultMatch;
		c->truetype = known && strcmp((const char *)fmt, "TrueType") == 0 ? !var
		              : known && strcmp((const char *)fmt, "CFF") != 0 ? 2 : 0;
		n++;
	}
	return n;
}

typedef struct chain_ctx {
	font_lib_t *lib;
	font_chain_t *c;
	const char *file;       /* the chain file, for messages */
	char *dir;              /* its directory */
	errs_t *e;
	int lazy;               /* font_chain_resolve: a character needs the face */
} chain_ctx_t;

static font_face_t *ctx_face(chain_ctx_t *x, const char *path, int index, int line, int col)
{
	return font_file_get(x->lib, path, index, x->file, line, col, x->e);
}

/* ---- fontconfig's faces by family ----
 *
 * FcFontList walks every face fontconfig has and copies those of the
 * family asked for: 2 M instructions a family with 2,000 faces installed,
 * 18 M for the 9 families of a render with no family cache (a CI run, a
 * read-only home). The index walks them once and finds a family's faces
 * as FcFontList does: the faces with a family name equal to it but for
 * case and blanks (FcOpListing with FcOpFlagIgnoreBlanks). ASCII names
 * compare folded here; a name with other bytes, whose case folding is
 * Unicode's, by fontconfig's FcStrCmpIgnoreCase with the blanks taken out
 * of both (a family asked for with such bytes goes to FcFontList). */
enum { FCX_BUCKETS = 4096 };

/* VITA_FC_LIST=1: FcFontList for everything, as before the index (so that
 * fonts_missing.sh can check that both give the same answers) */
static int fc_plain(void)
{
	static int v = -1;
	if (v < 0) {
		const char *s = getenv("VITA_FC_LIST");
		v = s && strcmp(s, "1") == 0;
	}
	return v;
}

typedef struct fcx_ent {
	uint64_t h;             /* of the folded name */
	const FcChar8 *name;
	FcPattern *font;
	int next;               /* in the bucket, -1 ends it */
} fcx_ent_t;

typedef struct fcx {
	int head[FCX_BUCKETS];
	fcx_ent_t *e;
	int n;
	char **wide;            /* names with non-ASCII bytes, blanks out */
	FcPattern **wfont;
	int nwide;
} fcx_t;

static void fcx_free(font_lib_t *lib)
{
	fcx_t *x = lib->fcx;
	if (!x)
		return;
	for (int i = 0; i < x->nwide; i++)
		free(x->wide[i]);
	free(x->wide);
	free(x->wfont);
	free(x->e);
	free(x);
	lib->fcx = NULL;
}

/* FNV-1a of s lower-cased without blanks; -1 in *ascii when s has other
 * bytes than ASCII. */
static uint64_t fcx_hash(const char *s, int *ascii)
{
	uint64_t h = 14695981039346656037ull;
	*ascii = 1;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == ' ')
			continue;
		if (c >= 0x80)
			*ascii = 0;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 'a' - 'A');
		h = (h ^ c) * 1099511628211ull;
	}
	return h;
}

/* ASCII a and b equal but for case and blanks */
static int fcx_same(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		unsigned char ca = (unsigned char)*a, cb = (unsigned char)*b;
		ca = ca >= 'A' && ca <= 'Z' ? (unsigned char)(ca + 'a' - 'A') : ca;
		cb = cb >= 'A' && cb <= 'Z' ? (unsigned char)(cb + 'a' - 'A') : cb;
		if (ca != cb)
			return 0;
		if (!ca)
			return 1;
		a++;
		b++;
	}
}

static char *unblank(const char *s)
{
	char *o = xmalloc(strlen(s) + 1), *q = o;
	for (; *s; s++)
		if (*s != ' ')
			*q++ = *s;
	*q = '\0';
	return o;
}

static fcx_t *fcx_get(font_lib_t *lib, FcConfig *fc)
{
	if (lib->fcx)
		return lib->fcx;
	fcx_t *x = xcalloc(1, sizeof(*x));
	int cap = 0, wcap = 0;
	for (int b = 0; b < FCX_BUCKETS; b++)
		x->head[b] = -1;
	static const FcSetName sets[2] = { FcSetSystem, FcSetApplication };
	for (int s = 0; s < 2; s++) {
		FcFontSet *fs = fcl.FcConfigGetFonts(fc, sets[s]);
		for (int i = 0; fs && i < fs->nfont; i++) {
			FcChar8 *f;
			for (int k = 0; fcl.FcPatternGetString(fs->fonts[i], FC_FAMILY, k, &f) ==
			                FcResultMatch; k++) {
				int ascii;
				uint64_t h = fcx_hash((const char *)f, &ascii);
				if (!ascii) {
					if (x->nwide == wcap) {
						wcap = wcap ? 2 * wcap : 64;
						x->wide = xrealloc(x->wide, (size_t)wcap * sizeof(*x->wide));
						x->wfont = xrealloc(x->wfont, (size_t)wcap * sizeof(*x->wfont));
					}
					x->wide[x->nwide] = unblank((const char *)f);
					x->wfont[x->nwide++] = fs->fonts[i];
					continue;
				}
				if (x->n == cap) {
					cap = cap ? 2 * cap : 1024;
					x->e = xrealloc(x->e, (size_t)cap * sizeof(*x->e));
				}
				fcx_ent_t *e = &x->e[x->n];
				e->h = h;
				e->name = f;
				e->font = fs->fonts[i];
				e->next = x->head[h % FCX_BUCKETS];
				x->head[h % FCX_BUCKETS] = x->n++;
			}
		}
	}
	lib->fcx = x;
	return x;
}

static int fcx_add(FcPattern **out, int n, int max, FcPattern *f)
{
	for (int i = 0; i < n; i++)
		if (out[i] == f)
			return n;   /* two of its names match */
	if (n < max)
		out[n++] = f;
	return n;
}

/* The faces of family into out (at most max, in no set order: fc_best
 * decides by score, then file and index); -1 when only FcFontList can
 * say (a name with non-ASCII bytes). */
static int fcx_find(font_lib_t *lib, FcConfig *fc, const char *family, FcPattern **out, int max)
{
	int ascii, n = 0;
	uint64_t h = fcx_hash(family, &ascii);
	if (!ascii)
		return -1;
	fcx_t *x = fcx_get(lib, fc);
	for (int i = x->head[h % FCX_BUCKETS]; i >= 0; i = x->e[i].next)
		if (x->e[i].h == h && fcx_same((const char *)x->e[i].name, family))
			n = fcx_add(out, n, max, x->e[i].font);
	if (x->nwide) {
		char *u = unblank(family);
		for (int i = 0; i < x->nwide; i++)
			if (fcl.FcStrCmpIgnoreCase((const FcChar8 *)x->wide[i], (const FcChar8 *)u) == 0)
				n = fcx_add(out, n, max, x->wfont[i]);
		free(u);
	}
	return n;
}

/* The candidates of family from the index (fc_cands of what FcFontList
 * would list); -1 when FcFontList must say: a non-ASCII name, as many
 * faces as fit (which of them FcFontList's order would decide), or a file
 * that is not there (a directory fontconfig remaps: FcFontList gives the
 * path as remapped). */
static int fcx_cands(font_lib_t *lib, FcConfig *fc, const char *family, font_cand_t *v, int max)
{
	FcPattern *found[256];
	int nf = fcx_find(lib, fc, family, found, 256);
	if (nf < 0 || nf >= 256 || nf >= max)
		return -1;
	int n = fc_cands(found, nf, family, v, max);
	for (int i = 0; i < n; i++)
		if (access(v[i].file, F_OK) != 0)
			return -1;
	return n;
}

/* The fonts fontconfig lists for family (NULL: fontconfig failed). */
static FcFontSet *fc_list(FcConfig *fc, const char *family, FcObjectSet *os)
{
	FcPattern *p = fcl.FcPatternCreate();
	fcl.FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)family);
	FcFontSet *fs = fcl.FcFontList(fc, p, os);
	fcl.FcPatternDestroy(p);
	return fs;
}

/* A family that is not installed: the installed family fontconfig's
 * configuration gives as its metric-compatible stand-in, into out (""
 * when none). Those are the aliases with binding="same" (fontconfig's
 * 30-metric-aliases.conf: Helvetica -> Nimbus Sans, Arial -> Liberation
 * Sans, ...): in the substituted pattern their families are bound as
 * strongly as the one asked for, where the generic fallbacks (sans-serif
 * -> DejaVu Sans, which any unknown name gets) are weak. The first one
 * with a face installed wins, as in fontconfig's own match. */
static void fc_standin(font_lib_t *lib, FcConfig *fc, const char *family, char *out, size_t size)
{
	out[0] = '\0';
	FcPattern *p = fcl.FcPatternCreate();
	fcl.FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)family);
	if (!fcl.FcConfigSubstitute(fc, p, FcMatchPattern)) {
		fcl.FcPatternDestroy(p);
		return;
	}
	FcObjectSet *os = fcl.FcObjectSetBuild(FC_FILE, (char *)0);
	FcValue v;
	FcValueBinding b;
	for (int k = 1; !out[0] && fcl.FcPatternGetWithBinding(p, FC_FAMILY, k, &v, &b) ==
	                                     FcResultMatch; k++) {
		if (b != FcValueBindingStrong || v.type != FcTypeString ||
		    strlen((const char *)v.u.s) >= size)
			continue;
		FcPattern *one;
		int n = fc_plain() ? -1 : fcx_find(lib, fc, (const char *)v.u.s, &one, 1);
		if (n < 0) {
			FcFontSet *fs = fc_list(fc, (const char *)v.u.s, os);
			n = fs ? fs->nfont : 0;
			if (fs)
				fcl.FcFontSetDestroy(fs);
		}
		if (n > 0)
			snprintf(out, size, "%s", (const char *)v.u.s);
	}
	fcl.FcObjectSetDestroy(os);
	fcl.FcPatternDestroy(p);
}

/* The faces of a family: from the cache, else from fontconfig. When there
 * are none and standin is not NULL: the family's metric-compatible
 * stand-in into it ("" when none), remembered with the miss. */
static int family_list(chain_ctx_t *x, const char *family, font_cand_t *v, int max,
                       FcFontSet **fsp, int *cached, char *standin, size_t size)
{
	font_cand_t *cv;
	char alias[256];
	int n = *cached ? font_fccache_lookup(x->lib, family, &cv) : 0;
	*cached = n > 0;
	if (standin)
		standin[0] = '\0';
	if (n > 0) {
		n = n < max ? n : max;
		memcpy(v, cv, (size_t)n * sizeof(*v));
		return n;
	}
	int known = font_fccache_absent(x->lib, family, alias, sizeof(alias));
	if (known) {   /* fontconfig said so, and no font directory changed since */
		if (known == 2 && standin)
			snprintf(standin, size, "%s", alias);
		return 0;
	}
	FcConfig *fc = fc_config(x->lib);
	if (!fc)
		return err_sys(x->e, x->file, "cannot initialise fontconfig");
	n = fc_plain() ? -1 : fcx_cands(x->lib, fc, family, v, max);
	int answered = n >= 0;
	if (n < 0) {
		FcObjectSet *os = fcl.FcObjectSetBuild(FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT, FC_WIDTH,
		                                   FC_FONTFORMAT, FC_VARIABLE, FC_FAMILY, FC_STYLE,
		                                   (char *)0);
		FcFontSet *fs = fc_list(fc, family, os);
		fcl.FcObjectSetDestroy(os);
		*fsp = fs;
		n = fs ? fc_cands(fs->fonts, fs->nfont, family, v, max) : 0;
		answered = fs != NULL;
	}
	font_fccache_store(x->lib, family, v, n);
	if (n == 0 && answered && standin) {
		fc_stamp(x->lib, fc);
		fc_standin(x->lib, fc, family, standin, size);
		font_fccache_store_absent(x->lib, family, standin[0] ? standin : NULL);
	}
	return n;
}

/* The rule of font_family_suggest, over the faces fontconfig holds
 * (FcConfigGetFonts: no list is built, 10 M instructions less than
 * FcFontList's): the least distance, if below 4 and within a third of the
 * family's length, and the family at it into near. The order of FcFontList's
 * answer (its hash table's) picks among names at the same distance: 1 when
 * another name ties, which only that order settles, else 0. */
static int near_scan(FcConfig *fc, const char *family, char *near, size_t size, int *best)
{
	static const FcSetName sets[2] = { FcSetSystem, FcSetApplication };
	int tie = 0;
	*best = 4;
	for (int s = 0; s < 2; s++) {
		FcFontSet *fs = fcl.FcConfigGetFonts(fc, sets[s]);
		const FcChar8 *last[4] = { NULL, NULL, NULL, NULL };
		for (int i = 0; fs && i < fs->nfont; i++) {
			FcChar8 *f;
			for (int k = 0; fcl.FcPatternGetString(fs->fonts[i], FC_FAMILY, k, &f) ==
			                FcResultMatch; k++) {
				if (k < 4 && last[k] && !strcmp((const char *)last[k], (const char *)f))
					continue;   /* the face before's family: same answer */
				if (k < 4)
					last[k] = f;
				/* at most best (ties count here) and within a third of f */
				int lim = (int)strlen((const char *)f) / 3;
				lim = lim < *best ? lim : *best;
				lim = lim < 3 ? lim : 3;
				int d = suggest_within(family, (const char *)f, lim);
				if (d > lim)
					continue;
				if (d < *best) {
					*best = d;
					tie = 0;
					snprintf(near, size, "%s", (const char *)f);
				} else if (strcmp(near, (const char *)f) != 0) {
					tie = 1;
				}
			}
		}
	}
	return tie;
}

/* The installed family closest to FAMILY (a typo), into NEAR. */
int font_family_suggest(font_lib_t *lib, const char *family, char *near, size_t size)
{
	int known = font_fccache_near(lib, family, near, size);
	if (known >= 0)
		return known;
	FcConfig *fc = fc_config(lib);
	if (!fc)
		return 0;
	int best;
	if (!fc_plain() && !near_scan(fc, family, near, size, &best)) {
		fc_stamp(lib, fc);
		font_fccache_store_near(lib, family, best < 4 ? near : NULL);
		return best < 4;
	}
	FcPattern *p = fcl.FcPatternCreate();
	FcObjectSet *os = fcl.FcObjectSetBuild(FC_FAMILY, (char *)0);
	FcFontSet *fs = fcl.FcFontList(fc, p, os);
	fcl.FcObjectSetDestroy(os);
	fcl.FcPatternDestroy(p);
	best = 4;
	for (int i = 0; fs && i < fs->nfont; i++) {
		FcChar8 *f;
		for (int k = 0; fcl.FcPatternGetString(fs->fonts[i], FC_FAMILY, k, &f) == FcResultMatch; k++) {
			/* only a distance below best and within a third of f counts */
			int lim = (int)strlen((const char *)f) / 3;
			lim = lim < best - 1 ? lim : best - 1;
			int d = suggest_within(family, (const char *)f, lim);
			if (d <= lim) {
				best = d;
				snprintf(near, size, "%s", (const char *)f);
			}
		}
	}
	if (fs) {
		fc_stamp(lib, fc);
		font_fccache_store_near(lib, family, best < 4 ? near : NULL);
		fcl.FcFontSetDestroy(fs);
	}
	return best < 4;
}

/* The styles of a family (entry en, named at line:col of the chain file):
 * none where it has no face of its own (synthesise fills them in). A family that
 * is not installed but has a metric-compatible stand-in (fc_standin) gets
 * the stand-in's faces and en->standin (layout_render says so). */
static int resolve_family(chain_ctx_t *x, font_entry_t *en, int line, int col)
{
	FcFontSet *fs = NULL;
	font_cand_t v[256];
	char standin[256];
	int cached = 1;
	const char *fam = en->family;
	int n = family_list(x, fam, v, 256, &fs, &cached, standin, sizeof(standin));
	int rc = 0;
	free(en->standin);
	en->standin = NULL;
	if (n == 0 && standin[0]) {
		if (fs)
			fcl.FcFontSetDestroy(fs);
		fs = NULL;
		cached = 1;
		n = family_list(x, standin, v, 256, &fs, &cached, NULL, 0);
		if (n > 0) {
			en->standin = xstrdup(standin);
			fam = en->standin;
		}
	}
	if (n < 0) {
		rc = -1;
		goto out;
	}
	if (n == 0) {
		char near[256];
		if (x->c->front)
			en->missing = 1; /* left out by font_chain_join */
		else if (font_family_suggest(x->lib, en->family, near, sizeof(near))) {
			rc = err_at_code(x->e, ERR_SYSTEM, x->file, line, col,
			                 "font family '%s' is not installed; did you mean '%s'?",
			                 en->family, near);
			/* lazily: said once (late), not again by font_chain_missing */
			en->missing = en->reported = x->lazy;
		} else
			en->missing = 1; /* an error only if the CV needs it */
		goto out;
	}
	const font_cand_t *r = fc_best(v, n, 0, 0), *b = fc_best(v, n, 1, 0);
	const font_cand_t *i = fc_best(v, n, 0, 1), *bi = fc_best(v, n, 1, 1);
	int realb = b->weight >= FC_WEIGHT_DEMIBOLD && b->slant == 0;
	int reali = i->slant > 0 && i->weight < FC_WEIGHT_DEMIBOLD;
	int realbi = bi->slant > 0 && bi->weight >= FC_WEIGHT_DEMIBOLD;
	const font_cand_t *l = fc_best(v, n, 2, 0), *li = fc_best(v, n, 2, 1);
	int reall = l->weight <= FC_WEIGHT_LIGHT && l->weight > FC_WEIGHT_EXTRALIGHT && l->slant == 0;
	int realli = li->weight <= FC_WEIGHT_LIGHT && li->weight > FC_WEIGHT_EXTRALIGHT &&
	             li->slant > 0;
	if (cached && (!font_fccache_valid(r, fam) ||
	               (realb && !font_fccache_valid(b, fam)) ||
	               (reali && !font_fccache_valid(i, fam)) ||
	               (realbi && !font_fccache_valid(bi, fam)) ||
	               (reall && !font_fccache_valid(l, fam)) ||
	               (realli && !font_fccache_valid(li, fam)))) {
		font_fccache_forget(x->lib, fam);   /* ask fontconfig */
		return resolve_family(x, en, line, col);
	}
	en->face[FONT_REGULAR] = ctx_face(x, r->file, r->index, line, col);
	en->face[FONT_BOLD] = realb ? ctx_face(x, b->file, b->index, line, col) : NULL;
	en->face[FONT_ITALIC] = reali ? ctx_face(x, i->file, i->index, line, col) : NULL;
	en->face[FONT_BOLD_ITALIC] = realbi ? ctx_face(x, bi->file, bi->index, line, col) : NULL;
	en->face[FONT_S_LIGHT] = reall ? ctx_face(x, l->file, l->index, line, col) : NULL;
	en->face[FONT_S_LIGHT_ITALIC] = realli ? ctx_face(x, li->file, li->index, line, col) : NULL;
	if (!en->face[FONT_REGULAR] || (realb && !en->face[FONT_BOLD]) ||
	    (reali && !en->face[FONT_ITALIC]) || (realbi && !en->face[FONT_BOLD_ITALIC]) ||
	    (reall && !en->face[FONT_S_LIGHT]) || (realli && !en->face[FONT_S_LIGHT_ITALIC]))
		rc = -1;
out:
	if (fs)
		fcl.FcFontSetDestroy(fs);
	return rc;
}

/* Fill in the styles that have no face of their own. */
static void synthesise(font_entry_t *en)
{
	int up = en->upright_italic;
	if (!en->face[FONT_BOLD]) {
		en->face[FONT_BOLD] = en->face[FONT_REGULAR];
		en->synth[FONT_BOLD] = FONT_SYNTH_BOLD;
	}
	if (!en->face[FONT_ITALIC]) {
		en->face[FONT_ITALIC] = en->face[FONT_REGULAR];
		en->synth[FONT_ITALIC] = up ? 0 : FONT_SYNTH_ITALIC;
		if (up)
			en->why[FONT_ITALIC] = xstrdup("no italic: upright by design");
	}
	if (!en->face[FONT_BOLD_ITALIC]) {
		if (en->face[FONT_ITALIC] != en->face[FONT_REGULAR]) {
			en->face[FONT_BOLD_ITALIC] = en->face[FONT_ITALIC];
			en->synth[FONT_BOLD_ITALIC] = FONT_SYNTH_BOLD;
		} else {
			en->face[FONT_BOLD_ITALIC] = en->face[FONT_BOLD];
			en->synth[FONT_BOLD_ITALIC] = en->synth[FONT_BOLD] | (up ? 0 : FONT_SYNTH_ITALIC);
			if (up)
				en->why[FONT_BOLD_ITALIC] = xstrdup("no italic: upright by design");
		}
	}
	/* no light face: the regular (or italic) one stands in; layout says so */
	if (!en->face[FONT_S_LIGHT]) {
		en->face[FONT_S_LIGHT] = en->face[FONT_REGULAR];
		en->synth[FONT_S_LIGHT] = en->synth[FONT_REGULAR];
		en->why[FONT_S_LIGHT] = xstrdup("no light face: regular");
	}
	if (!en->face[FONT_S_LIGHT_ITALIC]) {
		int from = en->face[FONT_S_LIGHT] != en->face[FONT_REGULAR] &&
		           en->face[FONT_ITALIC] == en->face[FONT_REGULAR] ? FONT_S_LIGHT : FONT_ITALIC;
		en->face[FONT_S_LIGHT_ITALIC] = en->face[from];
		en->synth[FONT_S_LIGHT_ITALIC] = en->synth[FONT_ITALIC];
		en->why[FONT_S_LIGHT_ITALIC] = xstrdup(from == FONT_S_LIGHT ? "no light italic face: light"
		                                                            : "no light italic face: italic");
	}
}

/* ---- YAML ---- */

static int want_scalar(chain_ctx_t *x, const ynode_t *v, const char *key)
{
	if (v->kind == YD_SCALAR && v->len > 0)
		return 0;
	return err_at(x->e, x->file, v->line, v->col, "'%s' must be a non-empty string, not %s",
	              key, ydoc_kind_name(v->kind));
}

/* A file named in the chain: absolute, beside the chain file, or in a
 * search dir. Returns a malloc'd path (the first candidate if none exists,
 * so the error names it). */
static char *find_file(chain_ctx_t *x, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	buf_t b;
	buf_init(&b);
	buf_printf(&b, "%s/%s", x->dir, name);
	if (access(b.s, R_OK) == 0)
		return b.s;
	for (int i = 0; i < x->lib->ndirs; i++) {
		buf_t d;
		buf_init(&d);
		buf_printf(&d, "%s/%s", x->lib->dirs[i], name);
		if (access(d.s, R_OK) == 0) {
			buf_done(&b);
			return d.s;
		}
		buf_done(&d);
	}
	return b.s;
}

static font_face_t *file_face(chain_ctx_t *x, const ynode_t *v, int index)
{
	if (want_scalar(x, v, "file") != 0)
		return NULL;
	char *path = find_file(x, v->str);
	font_face_t *f = ctx_face(x, path, index, v->line, v->col);
	free(path);
	return f;
}

static int parse_lang_one(chain_ctx_t *x, font_entry_t *en, const ynode_t *v)
{
	static const char *const ok[] = {"zh", "zh-Hans", "zh-Hant", "ja", "ko"};
	static const int ok_li[] = {FONT_LANG_ZH, FONT_LANG_ZH, FONT_LANG_ZH_HANT, FONT_LANG_JA,
	                            FONT_LANG_KO};
	int li = FONT_LANG_NONE;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]) && v->kind == YD_SCALAR; i++)
		if (!strcmp(v->str, ok[i]))
			li = ok_li[i];
	if (li == FONT_LANG_NONE)
		return err_at(x->e, x->file, v->line, v->col,
		              "lang must be zh (or zh-Hans), zh-Hant, ja or ko "
		              "(the CJK languages a face is preferred for)");
	en->langs |= 1u << li;
	return 0;
}

static int parse_lang(chain_ctx_t *x, font_entry_t *en, const ynode_t *v)
{
	if (v->kind != YD_SEQ)
		return parse_lang_one(x, en, v);
	int rc = 0;
	for (int i = 0; i < v->n; i++)
		rc |= parse_lang_one(x, en, v->kids[i]);
	return rc;
}

static int parse_index(chain_ctx_t *x, const ynode_t *v, int *index)
{
	char *end;
	long n = v->kind == YD_SCALAR ? strtol(v->str, &end, 10) : -1;
	if (v->kind != YD_SCALAR || *end || n < 0 || n > 1000 || v->len == 0)
		return err_at(x->e, x->file, v->line, v->col,
		              "index must be a face number in a font collection (0, 1, ...)");
	*index = (int)n;
	return 0;
}

static const char *face_keys[] = {
	"family", "file", "index", "bold", "italic", "bold-italic", "lang", "italic-style",
	"package", "covers", "presentation", NULL
};

static int face_key(const char *k)
{
	for (int i = 0; face_keys[i]; i++)
		if (strcmp(k, face_keys[i]) == 0)
			return i;
	return -1;
}

/* The hexadecimal number at s (at most 8 digits: more reads as out of
 * range), *e after it (s: none); strtoul's work for the emoji face's 85
 * ranges at a tenth of its cost. */
static unsigned long hex_at(const char *s, const char **e)
{
	unsigned long v = 0;
	int n = 0;
	for (;; s++, n++) {
		unsigned d = (unsigned char)*s - '0', x = ((unsigned char)*s | 0x20) - 'a';
		if (d < 10)
			v = v * 16 + d;
		else if (x < 6)
			v = v * 16 + 10 + x;
		else
			break;
		if (n == 8)
			v = 0x7FFFFFFF;
	}
	*e = s;
	return v;
}

/* Check keys and simple values of a face map. */
/* covers: "0900-097F 200C-200D 25CC": hexadecimal code points and
 * ranges, at most FONT_NCOV. */
static int parse_covers(chain_ctx_t *x, font_entry_t *en, const ynode_t *v)
{
	const char *s = v->str;
	en->ncov = 0;
	free(en->cov);
	en->cov = xmalloc(sizeof(*en->cov) * FONT_NCOV);
	while (*s) {
		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		const char *e;
		unsigned long a = hex_at(s, &e), b = a;
		if (e == s)
			goto bad;
		s = e;
		if (*s == '-') {
			b = hex_at(s + 1, &e);
			if (e == s + 1)
				goto bad;
			s = e;
		}
		if (a > b || b > 0x10FFFF || en->ncov == FONT_NCOV || (*s && *s != ' ' && *s != ','))
			goto bad;
		en->cov[en->ncov][0] = (uint32_t)a;
		en->cov[en->ncov][1] = (uint32_t)b;
		en->ncov++;
	}
	if (en->ncov)
		return 0;
bad:
	return err_at(x->e, x->file, v->line, v->col,
	              "covers must be hexadecimal code points or ranges (\"0900-097F 25CC\"), "
	              "at most %d", FONT_NCOV);
}

static int face_check(chain_ctx_t *x, font_entry_t *en, const ynode_t *m)
{
	int rc = 0;
	for (int i = 0; i < m->n; i++) {
		const ynode_t *k = m->kids[2 * i], *v = m->kids[2 * i + 1];
		int id = k->kind == YD_SCALAR ? face_key(k->str) : -1;
		if (id < 0) {
			rc = err_at(x->e, x->file, k->line, k->col,
			            "unknown key '%s' in a face (expected family, file, index, bold, "
			            "italic, bold-italic, lang, italic-style, package, covers or presentation)",
			            k->kind == YD_SCALAR ? k->str : "?");
		} else if (id == 6) {
			rc |= parse_lang(x, en, v);
		} else if (id == 7) {
			if (v->kind == YD_SCALAR && strcmp(v->str, "upright") == 0)
				en->upright_italic = 1;
			else if (v->kind == YD_SCALAR && strcmp(v->str, "synthetic") == 0)
				en->upright_italic = 0;
			else
				rc = err_at(x->e, x->file, v->line, v->col,
				            "italic-style must be upright or synthetic");
		} else if (id != 2 && want_scalar(x, v, face_keys[id]) != 0) {
			rc = -1;
		} else if (id == 9) {
			rc |= parse_covers(x, en, v);
		} else if (id == 10) {
			if (strcmp(v->str, "emoji") == 0)
				en->emoji = 1;
			else
				rc = err_at(x->e, x->file, v->line, v->col, "presentation must be emoji");
		} else if (id == 8) {
			free(en->package);
			en->package = xstrdup(v->str);
		}
	}
	return rc;
}

static char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return xstrdup(s ? s + 1 : p);
}

static int parse_face(chain_ctx_t *x, font_entry_t *en, const ynode_t *m)
{
	if (m->kind != YD_MAP)
		return err_at(x->e, x->file, m->line, m->col,
		              "a face must be a map with family: or file:, not %s", ydoc_kind_name(m->kind));
	const ynode_t *fam = ydoc_get(m, "family"), *file = ydoc_get(m, "file");
	const ynode_t *idx = ydoc_get(m, "index");
	const ynode_t *at = m->n > 0 ? m->kids[0] : m;
	if (!fam && !file)
		return err_at(x->e, x->file, at->line, at->col, "a face needs family: (or file:)");
	int upright_default = -1;
	if (ydoc_get(m, "italic-style"))
		upright_default = 0;
	if (face_check(x, en, m) != 0)
		return -1;
	if (upright_default < 0)
		en->upright_italic = en->langs != 0;
	int index = 0;
	if (idx && parse_index(x, idx, &index) != 0)
		return -1;
	if (!file) {
		en->family = xstrdup(fam->str);
		for (int s = 1; s < 4; s++)
			if (ydoc_get(m, face_keys[2 + s]))
				return err_at(x->e, x->file, at->line, at->col,
				              "'%s' names a file: use it together with file:", face_keys[2 + s]);
		if (en - x->c->ent >= (x->c->neager > 1 ? x->c->neager : 1) && !x->c->front) {
			/* a fallback: looked up when a character needs it */
			en->pending = 1;
			en->where = x->c->file;
			en->line = fam->line;
			en->col = fam->col;
			return 0;
		}
		if (resolve_family(x, en, fam->line, fam->col) != 0)
			return -1;
		if (en->missing && (en != &x->c->ent[0] || x->c->front))
			return 0;
		if (en->missing) {
			/* every CV sets Latin text (digits at least) in the first face */
			return err_at_code(x->e, ERR_SYSTEM, x->file, fam->line, fam->col,
			                   "font family '%s' is not installed%s%s%s (it is the chain's first "
			                   "face, for Latin text; fc-list : family lists the installed ones)",
			                   en->family, en->package ? " (Debian package " : "",
			                   en->package ? en->package : "", en->package ? ")" : "");
		}
	} else {
		en->family = fam ? xstrdup(fam->str) : base_name(file->str);
		int rc = 0;
		if (!(en->face[FONT_REGULAR] = file_face(x, file, index)))
			rc = -1;
		for (int s = 1; s < 4; s++) {
			const ynode_t *v = ydoc_get(m, face_keys[2 + s]);
			if (v && !(en->face[s] = file_face(x, v, index)))
				rc = -1;
		}
		if (rc)
			return -1;
	}
	synthesise(en);
	return 0;
}

void font_chain_resolve(font_chain_t *c, int k)
{
	font_entry_t *en = &c->ent[k];
	if (!en->pending)
		return;
	en->pending = 0;
	chain_ctx_t x = { c->lib, c, en->where, NULL, &c->lib->late, 1 };
	int rc = resolve_family(&x, en, en->line, en->col);
	font_fccache_flush(c->lib);   /* what it found, kept at once (font.c) */
	if (rc != 0) {
		for (int s = 0; s < FONT_NSTYLES; s++)
			en->face[s] = NULL;   /* draws nothing; the error is late */
		return;
	}
	if (en->missing)
		return;
	synthesise(en);
	for (int s = 0; s < FONT_NSTYLES; s++)   /* a file this render reads */
		if (en->face[s])
			deps_add(en->face[s]->path);
}

void font_chain_resolve_all(font_chain_t *c)
{
	for (int k = 0; k < c->nent; k++)
		font_chain_resolve(c, k);
}

/* Per language, the order entries are tried in. For CJK characters
 * (order[1]): untagged entries keep their place; the places of tagged
 * entries go first to those tagged with the language, then to the other
 * tagged ones, each in chain order. For other characters (order[0]): the
 * untagged entries first, then the tagged ones as above. */
static void chain_orders(font_chain_t *c)
{
	for (int l = 0; l < FONT_NLANG; l++) {
		int tagged[CHAIN_MAX_FACES], nt = 0;
		for (int k = 0; k < c->nent; k++)
			if (c->ent[k].langs && (c->ent[k].langs & (1u << l)))
				tagged[nt++] = k;
		/* Traditional Chinese falls back on the Simplified faces first */
		unsigned near = l == FONT_LANG_ZH_HANT ? 1u << FONT_LANG_ZH : 0;
		for (int k = 0; k < c->nent; k++)
			if (c->ent[k].langs & near && !(c->ent[k].langs & (1u << l)))
				tagged[nt++] = k;
		for (int k = 0; k < c->nent; k++)
			if (c->ent[k].langs && !(c->ent[k].langs & ((1u << l) | near)))
				tagged[nt++] = k;
		int *cjk = xmalloc((size_t)(c->nent ? c->nent : 1) * sizeof(int));
		int *other = xmalloc((size_t)(c->nent ? c->nent : 1) * sizeof(int));
		int t = 0, no = 0;
		for (int k = 0; k < c->nent; k++) {
			cjk[k] = c->ent[k].langs ? tagged[t++] : k;
			if (!c->ent[k].langs)
				other[no++] = k;
		}
		for (int i = 0; i < nt; i++)
			other[no++] = tagged[i];
		c->order[1][l] = cjk;
		c->order[0][l] = other;
	}
}

static int parse_faces(chain_ctx_t *x, const ynode_t *v, const ynode_t *root)
{
	font_chain_t *c = x->c;
	if (!v)
		return err_at(x->e, x->file, root->line, root->col,
		              "a font chain needs faces: a list of family: entries");
	if (v->kind != YD_SEQ || v->n == 0)
		return err_at(x->e, x->file, v->line, v->col, "faces must be a non-empty list");
	if (v->n > CHAIN_MAX_FACES)
		return err_at(x->e, x->file, v->line, v->col, "at most %d faces in a chain", CHAIN_MAX_FACES);
	c->ent = xcalloc((size_t)v->n, sizeof(*c->ent));
	int rc = 0;
	for (int i = 0; i < v->n; i++) {
		c->nent = i + 1;
		rc |= parse_face(x, &c->ent[i], v->kids[i]);
	}
	return rc;
}

static int parse_root(chain_ctx_t *x, const ynode_t *root)
{
	font_chain_t *c = x->c;
	if (root->kind != YD_MAP)
		return err_at(x->e, x->file, root->line ? root->line : 1, root->col ? root->col : 1,
		              "a font chain must be a map with name, description and faces");
	int rc = 0;
	for (int i = 0; i < root->n; i++) {
		const ynode_t *k = root->kids[2 * i], *v = root->kids[2 * i + 1];
		const char *ks = k->kind == YD_SCALAR ? k->str : "?";
		if (strcmp(ks, "name") == 0 || strcmp(ks, "description") == 0) {
			if (want_scalar(x, v, ks) != 0)
				rc = -1;
			else if (ks[0] == 'n')
				c->name = xstrdup(v->str);
			else
				c->desc = xstrdup(v->str);
		} else if (strcmp(ks, "faces") != 0) {
			rc = err_at(x->e, x->file, k->line, k->col,
			            "unknown key '%s' in a font chain (expected name, description, faces)", ks);
		}
	}
	if (rc)
		return -1;
	return parse_faces(x, ydoc_get(root, "faces"), root);
}

static char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int font_chain_join(font_chain_t *c, font_chain_t *tail, errs_t *e)
{
	buf_t ab;
	buf_init(&ab);
	int n = 0;
	for (int k = 0; k < c->nent; k++) {
		font_entry_t *en = &c->ent[k];
		if (!en->missing) {
			c->ent[n++] = *en;
			continue;
		}
		char near[256];
		buf_printf(&ab, "%s'%s'", ab.len ? ", " : "", en->family);
		if (font_family_suggest(c->lib, en->family, near, sizeof(near)))
			buf_printf(&ab, " (did you mean '%s'?)", near);
		free(en->family);
		free(en->package);
		free(en->cov);
		for (int s = 0; s < FONT_NSTYLES; s++)
			free(en->why[s]);
	}
	c->nent = n;
	c->absent = ab.len ? xstrdup(ab.s) : NULL;
	buf_done(&ab);
	if (c->nent + tail->nent > CHAIN_MAX_FACES) {
		return err_at(e, "", 0, 0, "font chain '%s': at most %d faces in a chain",
		              c->name ? c->name : "", CHAIN_MAX_FACES);
	}
	c->ent = xrealloc(c->ent, (size_t)(c->nent + tail->nent) * sizeof(*c->ent));
	for (int k = 0; k < tail->nent; k++) {
		font_entry_t *d = &c->ent[c->nent++], *t = &tail->ent[k];
		*d = *t;
		if (t->ncov) {
			d->cov = xmalloc(sizeof(*d->cov) * (size_t)t->ncov);
			memcpy(d->cov, t->cov, sizeof(*d->cov) * (size_t)t->ncov);
		}
		d->family = xstrdup_or_null(t->family);
		d->package = xstrdup_or_null(t->package);
		d->standin = xstrdup_or_null(t->standin);
		for (int s = 0; s < FONT_NSTYLES; s++)
			d->why[s] = xstrdup_or_null(t->why[s]);
		d->reported = 0;
	}
	c->tail = tail;
	for (int l = 0; l < FONT_NLANG; l++) {
		free(c->order[0][l]);
		free(c->order[1][l]);
	}
	chain_orders(c);
	return 0;
}

int font_chain_parse(font_lib_t *lib, font_chain_t *c, const char *file,
                     const char *data, size_t len, errs_t *e)
{
	arena_t *a = arena_new();
	chain_ctx_t x = { lib, c, file, NULL, e, 0 };
	const char *sl = strrchr(file, '/');
	x.dir = sl ? arena_strndup(a, file, (size_t)(sl - file)) : ".";
	c->file = xstrdup(file);
	ynode_t *root = NULL;
	int rc = ydoc_parse(a, file, data, len, &root, e);
	if (rc == 0)
		rc = parse_root(&x, root);
	if (rc == 0)
		chain_orders(c);
	arena_free(a);
	return rc;
}
