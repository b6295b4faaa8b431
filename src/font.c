/* font: the font library object, face files, per-character face selection,
 * vertical metrics and `vita fonts` output. See include/font.h.
 *
 * Files:  font.c (this: lib, faces, selection), font_chain.c (chain YAML and
 * fontconfig), sfnt.c (sfnt sanity checks, no library), font_shape.c (HarfBuzz
 * shaping and its cache), font_subset.c (hb-subset).
 *
 * A face file is validated with our sfnt checks when a chain names it, and
 * loaded (FreeType check, metrics, HarfBuzz objects) only when a character
 * is first looked up in it; it gets its face id then. An error while
 * loading lazily (the only case is FreeType refusing a file that passed our
 * checks) is kept in lib->late and handed to the next call that takes an
 * errs_t (font_shape, font_subset); the face then covers nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include "arena.h"
#include "buf.h"
#include "file.h"
#include <hb-ot.h>
#include "font_int.h"
#include "deps.h"
#include "sfnt.h"

font_lib_t *font_lib_new(const char *const *search_dirs, errs_t *e)
{
	font_lib_t *lib = xcalloc(1, sizeof(*lib));
	FT_Library ft;
	if (FT_Init_FreeType(&ft) != 0) {
		free(lib);
		err_sys(e, "", "cannot initialise FreeType");
		return NULL;
	}
	lib->ft = ft;
	int n = 0;
	while (search_dirs && search_dirs[n])
		n++;
	lib->dirs = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++)
		lib->dirs[lib->ndirs++] = xstrdup(search_dirs[i]);
	errs_init(&lib->late);
	lib->buf = hb_buffer_create();
	return lib;
}

static void face_free(font_face_t *f)
{
	font_face_shape_free(f);
	hb_font_destroy(f->hbfont);
	hb_face_destroy(f->hbface);
	hb_blob_destroy(f->blob);
	free(f->milli);
	free(f->family);
	free(f->style);
	free(f->psname);
	free(f->path);
	free(f);
}

void font_lib_free(font_lib_t *lib)
{
	if (!lib)
		return;
	while (lib->chains) {
		font_chain_t *c = lib->chains;
		lib->chains = c->next;
		font_chain_free(c);
	}
	for (int i = 0; i < lib->nall; i++)
		face_free(lib->all[i]);
	free(lib->all);
	free(lib->used);
	for (int i = 0; i < lib->ndirs; i++)
		free(lib->dirs[i]);
	free(lib->dirs);
	font_cache_free(lib);
	hb_buffer_destroy(lib->buf);
	errs_done(&lib->late);
	FT_Done_FreeType((FT_Library)lib->ft);
	font_fc_free(lib);
	free(lib);
}

/* Record an exit-3 error about a font file, with where it was asked for. */
static void face_error(errs_t *e, const char *path, const char *why,
                       const char *ctx, int line, int col)
{
	int n = e->n;
	err_sys(e, path, "%s", why);
	if (e->n > n && ctx && *ctx) {
		if (line > 0)
			snprintf(e->v[n].context, sizeof(e->v[n].context),
			         "named in %s:%d:%d", ctx, line, col);
		else
			snprintf(e->v[n].context, sizeof(e->v[n].context), "named in %s", ctx);
	}
}

font_face_t *font_file_get(font_lib_t *lib, const char *path, int index,
                           const char *ctx, int line, int col, errs_t *e)
{
	for (int i = 0; i < lib->nall; i++) {
		font_face_t *f = lib->all[i];
		if (f->index == index && strcmp(f->path, path) == 0) {
			if (f->broken) {
				face_error(e, path, "font file unusable (see the first error about it)",
				           ctx, line, col);
				return NULL;
			}
			return f;
		}
	}
	char why[300];
	int bad = sfnt_check_file(path, index, why, sizeof(why));
	font_face_t *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->index = index;
	f->id = -1;
	f->broken = bad != 0;
	if (lib->nall == lib->capall) {
		lib->capall = lib->capall ? 2 * lib->capall : 16;
		lib->all = xrealloc(lib->all, (size_t)lib->capall * sizeof(*lib->all));
	}
	lib->all[lib->nall++] = f;
	if (bad) {
		face_error(e, path, why, ctx, line, col);
		return NULL;
	}
	return f;
}

static char *dup_or(const char *s, const char *dflt)
{
	return xstrdup(s && *s ? s : dflt);
}

/* FreeType must accept the file; take names and vertical metrics from it. */
static int face_load_ft(font_lib_t *lib, font_face_t *f)
{
	FT_Face ft;
	FT_Error fe = FT_New_Face((FT_Library)lib->ft, f->path, f->index, &ft);
	if (fe != 0) {
		char why[128];
		snprintf(why, sizeof(why), "corrupt font: FreeType cannot open it (error 0x%02x)", fe);
		face_error(&lib->late, f->path, why, "", 0, 0);
		return -1;
	}
	if (!FT_IS_SFNT(ft) || !FT_IS_SCALABLE(ft) || ft->units_per_EM == 0) {
		FT_Done_Face(ft);
		face_error(&lib->late, f->path, "not a TrueType-outline font", "", 0, 0);
		return -1;
	}
	f->upem = ft->units_per_EM;
	f->asc = ft->ascender;
	f->desc = ft->descender;
	TT_OS2 *os2 = FT_Get_Sfnt_Table(ft, FT_SFNT_OS2);
	if (os2 && os2->version >= 2 && os2->version != 0xffff) {
		f->cap = os2->sCapHeight;
		f->xh = os2->sxHeight;
	}
	if (f->asc <= 0 && os2) {
		f->asc = os2->sTypoAscender;
		f->desc = os2->sTypoDescender;
	}
	f->family = dup_or(ft->family_name, "");
	f->style = dup_or(ft->style_name, "");
	f->psname = dup_or(FT_Get_Postscript_Name(ft), "");
	FT_Done_Face(ft);
	return 0;
}

static int face_load_hb(font_lib_t *lib, font_face_t *f)
{
	f->blob = hb_blob_create_from_file_or_fail(f->path);
	if (!f->blob) {
		face_error(&lib->late, f->path, "cannot read font file", "", 0, 0);
		return -1;
	}
	f->hbface = hb_face_create(f->blob, (unsigned)f->index);
	f->hbfont = hb_font_create(f->hbface);
	hb_font_set_scale(f->hbfont, f->upem, f->upem);
	f->nglyphs = hb_face_get_glyph_count(f->hbface);
	if (f->nglyphs == 0) {
		face_error(&lib->late, f->path, "corrupt font: HarfBuzz finds no glyphs", "", 0, 0);
		return -1;
	}
	hb_blob_t *kern = hb_face_reference_table(f->hbface, HB_TAG('k', 'e', 'r', 'n'));
	f->kerns = hb_ot_layout_has_positioning(f->hbface) || hb_blob_get_length(kern) > 0;
	hb_blob_destroy(kern);
	f->milli = xmalloc(f->nglyphs * sizeof(int32_t));
	memset(f->milli, 0xff, f->nglyphs * sizeof(int32_t));
	if (f->cap <= 0 || f->xh <= 0) {
		hb_codepoint_t g;
		hb_glyph_extents_t ex;
		if (f->cap <= 0 && hb_font_get_nominal_glyph(f->hbfont, 'H', &g) &&
		    hb_font_get_glyph_extents(f->hbfont, g, &ex))
			f->cap = ex.y_bearing;
		if (f->xh <= 0 && hb_font_get_nominal_glyph(f->hbfont, 'x', &g) &&
		    hb_font_get_glyph_extents(f->hbfont, g, &ex))
			f->xh = ex.y_bearing;
		if (f->cap <= 0)
			f->cap = f->asc * 7 / 10;
	}
	return 0;
}

int font_face_use(font_lib_t *lib, font_face_t *f)
{
	if (f->id >= 0)
		return f->id;
	if (f->broken)
		return -1;
	if (face_load_ft(lib, f) != 0 || face_load_hb(lib, f) != 0) {
		f->broken = 1;
		return -1;
	}
	if (lib->nused == lib->capused) {
		lib->capused = lib->capused ? 2 * lib->capused : 16;
		lib->used = xrealloc(lib->used, (size_t)lib->capused * sizeof(*lib->used));
	}
	f->id = lib->nused;
	lib->used[lib->nused++] = f;
	f->info.path = f->path;
	f->info.index = f->index;
	f->info.family = f->family;
	f->info.style = f->style;
	f->info.psname = f->psname;
	f->info.units_per_em = f->upem;
	return f->id;
}

/* Nominal advance as libharu computes it: trunc(advance * 1000 / upem). */
int32_t font_face_milli(font_face_t *f, unsigned gid)
{
	if (gid >= f->nglyphs)
		return 0;
	if (f->milli[gid] < 0) {
		int64_t a = hb_font_get_glyph_h_advance(f->hbfont, gid);
		f->milli[gid] = (int32_t)(a * 1000 / f->upem);
	}
	return f->milli[gid];
}

int font_pass_late(font_lib_t *lib, errs_t *e)
{
	if (lib->late.n == 0)
		return 0;
	for (int i = 0; i < lib->late.n; i++) {
		int n = e->n;
		err_sys(e, lib->late.v[i].file, "%s", lib->late.v[i].msg);
		if (e->n > n)
			memcpy(e->v[n].context, lib->late.v[i].context, sizeof(e->v[n].context));
	}
	errs_clear(&lib->late);
	return -1;
}

int font_face_count(const font_lib_t *lib)
{
	return lib->nused;
}

const font_face_info_t *font_face_info(const font_lib_t *lib, int face)
{
	if (face < 0 || face >= lib->nused)
		return NULL;
	return &lib->used[face]->info;
}

int font_lang_index(const char *lang)
{
	if (!lang || !lang[0] || !lang[1] || (lang[2] && lang[2] != '-' && lang[2] != '_'))
		return FONT_LANG_NONE;
	if (lang[0] == 'z' && lang[1] == 'h')
		return FONT_LANG_ZH;
	if (lang[0] == 'j' && lang[1] == 'a')
		return FONT_LANG_JA;
	if (lang[0] == 'k' && lang[1] == 'o')
		return FONT_LANG_KO;
	return FONT_LANG_NONE;
}

/* The CJK language a character's script implies: Hangul -> ko, kana ->
 * ja, Han and CJK punctuation -> zh; FONT_LANG_NONE for everything else. */
static int script_lang(uint32_t cp)
{
	if (cp < 0x1100)
		return FONT_LANG_NONE;
	if ((cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xa960 && cp <= 0xa97f) ||
	    (cp >= 0xac00 && cp <= 0xd7ff) || (cp >= 0xffa0 && cp <= 0xffdc))
		return FONT_LANG_KO;
	if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) ||
	    (cp >= 0xff66 && cp <= 0xff9f))
		return FONT_LANG_JA;
	if ((cp >= 0x2e80 && cp <= 0x303f) || (cp >= 0x3190 && cp <= 0x319f) ||
	    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) ||
	    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
	    (cp >= 0xff00 && cp <= 0xffef))
		return FONT_LANG_ZH;
	return FONT_LANG_NONE;
}

int font_entry_has(font_chain_t *c, int k, int style, uint32_t cp)
{
	font_face_t *f = c->ent[k].face[style];
	hb_codepoint_t g;
	if (!f || font_face_use(c->lib, f) < 0)
		return 0;
	return hb_font_get_nominal_glyph(f->hbfont, cp, &g) && g != 0;
}

/* Chain entry that draws cp, or -1. Cached per (cp, language, style).
 * CJK characters try the entries in the CJK order of their language (the
 * text's, or the one their script implies: Hangul is Korean, kana is
 * Japanese, Han with no CJK language is Chinese). Other characters
 * (Latin, symbols, arrows) try the untagged entries first: a CJK font's
 * Latin letters and symbols are not the ones the chain means for them. */
static int chain_pick(font_chain_t *c, int style, int li, uint32_t cp)
{
	if (cp > 0xffff)
		return -1; /* libharu 2.3 silently drops non-BMP characters */
	int sl = script_lang(cp), set = sl != FONT_LANG_NONE;
	if (sl == FONT_LANG_KO || sl == FONT_LANG_JA || (sl == FONT_LANG_ZH && li == FONT_LANG_NONE))
		li = sl;
	uint32_t key = (cp << 4 | (uint32_t)li << 2 | (uint32_t)style) + 1;
	uint32_t h = (key * 2654435761u) >> 20;
	if (c->ckey[h] == key)
		return c->cval[h];
	int r = -1;
	const int *o = c->order[set][li];
	for (int i = 0; i < c->nent && r < 0; i++)
		if (font_entry_has(c, o[i], style, cp))
			r = o[i];
	c->ckey[h] = key;
	c->cval[h] = (int16_t)r;
	return r;
}

static int style_ok(int style)
{
	return style >= 0 && style <= 3 ? style : 0;
}

int font_chain_entry_for(font_chain_t *c, int style, int li, uint32_t cp)
{
	return chain_pick(c, style_ok(style), li, cp);
}

int font_face_for(font_chain_t *c, int style, const char *lang, uint32_t cp)
{
	style = style_ok(style);
	int k = chain_pick(c, style, font_lang_index(lang), cp);
	return k < 0 ? -1 : c->ent[k].face[style]->id;
}

int font_face_synth(font_chain_t *c, int style, int face)
{
	style = style_ok(style);
	for (int k = 0; k < c->nent; k++)
		if (c->ent[k].face[style] && c->ent[k].face[style]->id == face)
			return c->ent[k].synth[style];
	return 0;
}

/* The chain's first face in style, loaded; NULL if it cannot be. */
static font_face_t *first_face(font_chain_t *c, int style)
{
	for (int k = 0; k < c->nent; k++) {
		font_face_t *f = c->ent[k].face[style_ok(style)];
		if (f && font_face_use(c->lib, f) >= 0)
			return f;
	}
	return NULL;
}

static int32_t scale(int64_t funits, int32_t size, int upem)
{
	int64_t v = funits * size;
	return (int32_t)(v >= 0 ? (v + upem / 2) / upem : -((-v + upem / 2) / upem));
}

void font_metrics(font_chain_t *c, int style, int32_t size, int32_t *asc, int32_t *desc)
{
	font_face_t *f = first_face(c, style);
	*asc = f ? scale(f->asc, size, f->upem) : size * 8 / 10;
	*desc = f ? scale(f->desc, size, f->upem) : -size * 2 / 10;
}

int32_t font_cap_height(font_chain_t *c, int style, int32_t size)
{
	font_face_t *f = first_face(c, style);
	return f ? scale(f->cap, size, f->upem) : size * 7 / 10;
}

int32_t font_x_height(font_chain_t *c, int style, int32_t size)
{
	font_face_t *f = first_face(c, style);
	return f && f->xh > 0 ? scale(f->xh, size, f->upem) : size / 2;
}

const char *font_chain_name(const font_chain_t *c)
{
	return c->name;
}

int font_chain_families(const font_chain_t *c, const char **out, int max)
{
	int n = 0;
	for (int k = 0; k < c->nent && n < max; k++)
		if (c->ent[k].family)
			out[n++] = c->ent[k].family;
	return n;
}

int font_chain_missing(font_chain_t *c, uint32_t cp, const char *lang, char *out, size_t outsz)
{
	int n = 0, old = 0;
	size_t len = 0;
	if (outsz)
		out[0] = '\0';
	int sl = script_lang(cp), li = font_lang_index(lang);
	if (sl == FONT_LANG_KO || sl == FONT_LANG_JA || (sl == FONT_LANG_ZH && li == FONT_LANG_NONE))
		li = sl;
	/* CJK: the missing families tagged with its language, else any tagged
	   one, else the untagged ones; other characters: the untagged ones */
	int tagged_for = 0, tagged = 0;
	for (int k = 0; sl != FONT_LANG_NONE && k < c->nent; k++) {
		tagged_for |= c->ent[k].missing && (c->ent[k].langs & (1u << li));
		tagged |= c->ent[k].missing && c->ent[k].langs;
	}
	for (int k = 0; k < c->nent; k++) {
		font_entry_t *en = &c->ent[k];
		if (!en->missing || (tagged ? !en->langs : en->langs != 0))
			continue;
		if (tagged_for && !(en->langs & (1u << li)))
			continue;
		if (en->reported) {
			old++;
			continue;
		}
		en->reported = 1;
		if (len < outsz) {
			int w = snprintf(out + len, outsz - len, "%s'%s'", n ? ", " : "", en->family);
			len += w > 0 ? (size_t)w : 0;
			if (en->package && len < outsz) {
				w = snprintf(out + len, outsz - len, " (Debian package %s)", en->package);
				len += w > 0 ? (size_t)w : 0;
			}
		}
		n++;
	}
	return n ? n : old ? -1 : 0;
}

/* Read <dir>/<name>.yaml from the first search dir that has it. */
static int chain_read(font_lib_t *lib, const char *name, buf_t *file, buf_t *data)
{
	size_t nl = strlen(name);
	if (strchr(name, '/') || (nl > 5 && strcmp(name + nl - 5, ".yaml") == 0)) {
		buf_reset(file);
		buf_puts(file, name);
		return file_read(data, name, FILE_MAX_TEXT, NULL);
	}
	for (int i = 0; i < lib->ndirs; i++) {
		buf_reset(file);
		buf_printf(file, "%s/%s.yaml", lib->dirs[i], name);
		buf_reset(data);
		if (file_read(data, file->s, FILE_MAX_TEXT, NULL) == 0)
			return 0;
	}
	return -1;
}

/* A layout may name families instead of a chain file: "Noto Sans" or
 * "Noto Serif, DejaVu Serif". The chain is those families in that order,
 * then vita's CJK and symbol fallbacks, so that a CJK name still finds a
 * face. Written as chain YAML and parsed like a chain file. */
static int family_chain(const char *name, buf_t *file, buf_t *data)
{
	static const char *fallback[][3] = {
		{"LXGW WenKai", "zh", "fonts-lxgw-wenkai"}, {"IPAMincho", "ja", "fonts-ipafont-mincho"},
		{"NanumMyeongjo", "ko", "fonts-nanum"}, {"DejaVu Sans", NULL, "fonts-dejavu-core"}};
	if (!name[0] || strchr(name, '/') || strpbrk(name, "\"\n\\:#[]{}"))
		return -1;
	buf_reset(file);
	buf_printf(file, "font families '%s'", name);
	buf_reset(data);
	buf_printf(data, "name: \"%s\"\nfaces:\n", name);
	char *list = xstrdup(name);
	int n = 0;
	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		while (*t == ' ')
			t++;
		size_t l = strlen(t);
		while (l && t[l - 1] == ' ')
			t[--l] = '\0';
		if (l)
			buf_printf(data, "  - family: \"%s\"\n", t), n++;
	}
	for (size_t i = 0; i < sizeof(fallback) / sizeof(fallback[0]); i++) {
		if (strstr(name, fallback[i][0]))
			continue;
		buf_printf(data, "  - family: \"%s\"\n    package: %s\n", fallback[i][0], fallback[i][2]);
		if (fallback[i][1])
			buf_printf(data, "    lang: [%s]\n", fallback[i][1]);
	}
	free(list);
	return n ? 0 : -1;
}

/* The files a render using chain c reads: the chain file and every font
 * file it names (all are opened when the chain is loaded). Recorded on
 * every get, as the library (and its chains) may serve many renders. */
static void chain_deps(const font_chain_t *c)
{
	if (c->from_file)
		deps_add(c->file);
	for (int k = 0; k < c->nent; k++)
		for (int s = 0; s < 4; s++)
			if (c->ent[k].face[s])
				deps_add(c->ent[k].face[s]->path);
}

font_chain_t *font_chain_get(font_lib_t *lib, const char *name, errs_t *e)
{
	for (font_chain_t *c = lib->chains; c; c = c->next)
		if (strcmp(c->name, name) == 0 || (c->file && strcmp(c->file, name) == 0)) {
			chain_deps(c);
			return c;
		}
	buf_t file, data;
	buf_init(&file);
	buf_init(&data);
	int from_file = chain_read(lib, name, &file, &data) == 0;
	if (from_file)
		deps_add(file.s);
	if (!from_file && family_chain(name, &file, &data) != 0) {
		buf_t dirs;
		buf_init(&dirs);
		for (int i = 0; i < lib->ndirs; i++)
			buf_printf(&dirs, "%s%s", i ? ", " : "", lib->dirs[i]);
		err_at(e, "", 0, 0, "unknown font chain '%s' (no %s.yaml in %s)", name, name,
		       dirs.s ? dirs.s : "");
		buf_done(&dirs);
		buf_done(&file);
		buf_done(&data);
		return NULL;
	}
	font_chain_t *c = xcalloc(1, sizeof(*c));
	c->lib = lib;
	c->from_file = from_file;
	int n0 = e->n, ne0 = e->nerrors;
	int r = font_chain_parse(lib, c, file.s, data.s ? data.s : "", data.len, e);
	if (r != 0 && !strncmp(file.s, "font families '", 15)) {
		/* neither a chain file nor installed families: say so, once */
		e->n = n0;
		e->nerrors = ne0;
		char near[256];
		if (!strchr(name, ',') && font_family_suggest(lib, name, near, sizeof(near)))
			err_at(e, "", 0, 0, "unknown font chain '%s' (no %s.yaml in the font "
			       "directories, and not an installed font family); did you mean '%s'?",
			       name, name, near);
		else
			err_at(e, "", 0, 0, "unknown font chain '%s' (no %s.yaml in the font "
			       "directories, and not a list of installed font families)", name, name);
	}
	buf_done(&file);
	buf_done(&data);
	if (r != 0) {
		font_chain_free(c);
		return NULL;
	}
	if (!c->name)
		c->name = xstrdup(name);
	c->next = lib->chains;
	lib->chains = c;
	chain_deps(c);
	return c;
}

static const char *style_names[4] = { "regular", "bold", "italic", "bold-italic" };

void font_chain_describe(font_chain_t *c, FILE *out)
{
	fprintf(out, "  # %s%s%s\n", c->file ? c->file : "", c->desc ? ": " : "",
	        c->desc ? c->desc : "");
	for (int k = 0; k < c->nent; k++) {
		font_entry_t *en = &c->ent[k];
		char langs[32] = "";
		static const char *ln[FONT_NLANG] = { "", "zh", "ja", "ko" };
		for (int l = 1; l < FONT_NLANG; l++)
			if (en->langs & (1u << l))
				snprintf(langs + strlen(langs), sizeof(langs) - strlen(langs), "%s%s",
				         langs[0] ? "," : " lang=", ln[l]);
		if (en->missing) {
			fprintf(out, "  %-20s not installed%s%s%s\n", en->family, langs,
			        en->package ? "; Debian package " : "", en->package ? en->package : "");
			continue;
		}
		for (int s = 0; s < 4; s++) {
			font_face_t *f = en->face[s];
			fprintf(out, "  %-20s %-12s %s", en->family, style_names[s], f ? f->path : "-");
			if (f && f->index)
				fprintf(out, " index=%d", f->index);
			fprintf(out, "%s", langs);
			if (en->synth[s] & FONT_SYNTH_BOLD)
				fprintf(out, " synthetic-bold");
			if (en->synth[s] & FONT_SYNTH_ITALIC)
				fprintf(out, " synthetic-italic");
			if (en->why[s])
				fprintf(out, " (%s)", en->why[s]);
			fputc('\n', out);
		}
	}
}
