/* font: the font library object (font_lib_new/free), loading chains by
 * name (font_chain_get: a chain file, or a list of families), vertical
 * metrics, and `vita fonts` output (describe, missing families). See
 * include/font.h.
 *
 * Files, each calling only those listed before it: font_face.c (face files:
 * checks, lazy loading, advances), font_fccache.c (fontconfig listings
 * cached across runs), font_chain.c (chain YAML and fontconfig; a chain's
 * fallback families looked up when a character first needs them),
 * font_pick.c (which entry draws a character), font_shape.c (HarfBuzz shaping
 * and its cache), font_subset.c (subsets, by sfnt_subset),
 * font.c (this). sfnt.c checks and cuts sfnt files with no library.
 */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "buf.h"
#include "file.h"
#include "font_int.h"
#include "utf8.h"
#include "deps.h"

font_lib_t *font_lib_new(const char *const *search_dirs, errs_t *e)
{
	(void)e;
	font_lib_t *lib = xcalloc(1, sizeof(*lib));
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
		font_face_free(lib->all[i]);
	free(lib->all);
	free(lib->used);
	for (int i = 0; i < lib->ndirs; i++)
		free(lib->dirs[i]);
	free(lib->dirs);
	font_cache_free(lib);
	hb_buffer_destroy(lib->buf);
	free(lib->expect);
	free(lib->expcp);
	font_cut_memo_free(lib);
	errs_done(&lib->late);
	font_fc_free(lib);
	free(lib);
}

static void expect_cp(font_lib_t *lib, uint32_t cp)
{
	if (cp >= 0x110000 || lib->expect[cp >> 3] >> (cp & 7) & 1)
		return;
	lib->expect[cp >> 3] |= (uint8_t)(1u << (cp & 7));
	if (lib->nexp == lib->capexp) {
		lib->capexp = lib->capexp ? 2 * lib->capexp : 256;
		lib->expcp = xrealloc(lib->expcp, (size_t)lib->capexp * sizeof(*lib->expcp));
	}
	lib->expcp[lib->nexp++] = cp;
}

void font_lib_expect(font_lib_t *lib, const char *s, size_t n)
{
	if (!lib->expect) {
		/* a fresh mapping: only the pages of the code points told */
		lib->expect = xcalloc(0x110000 / 8, 1);
		for (uint32_t c = 0x20; c < 0x7f; c++)  /* what layout adds itself */
			expect_cp(lib, c);
	}
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_next(s + i, n - i, &cp);
		expect_cp(lib, cp);
		i += (size_t)(l > 0 ? l : 1);
	}
}

void font_lib_text(font_lib_t *lib, font_text_fn *fn, void *ctx)
{
	lib->text_fn = fn;
	lib->text_ctx = ctx;
}

void font_lib_drop_faces(font_lib_t *lib)
{
	font_cut_memo_free(lib);    /* its source is a face's file */
	for (int i = 0; i < lib->nall; i++)
		font_face_unload(lib->all[i], 1);
}

/* The chain's first face in style, loaded; NULL if it cannot be. */
static font_face_t *first_face(font_chain_t *c, int style)
{
	for (int k = 0; k < c->nent; k++) {
		font_face_t *f = c->ent[k].face[font_style_ok(style)];
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
	font_chain_resolve_all(c);   /* which families are missing */
	int sl = font_script_lang(cp), li = font_lang_index(lang);
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
		/* an emoji face is optional: without it emoji are drawn from
		   the faces after it (monochrome), or missing as without it */
		if (!en->missing || en->emoji || (tagged ? !en->langs : en->langs != 0))
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

/* The comma-separated families of s[0..len) as chain YAML face entries
 * ("  - family: ..."), trimmed; a name YAML would misread is left out.
 * Returns how many were written. */
static int put_families(buf_t *data, const char *s, size_t len)
{
	char *list = xmalloc(len + 1);
	memcpy(list, s, len);
	list[len] = '\0';
	int n = 0;
	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		while (*t == ' ')
			t++;
		size_t l = strlen(t);
		while (l && t[l - 1] == ' ')
			t[--l] = '\0';
		if (l && !strpbrk(t, "\"\n\\:#[]{}/"))
			buf_printf(data, "  - family: \"%s\"\n", t), n++;
	}
	free(list);
	return n;
}

/* A layout may name families instead of a chain file: "Noto Sans" or
 * "Noto Serif, DejaVu Serif". The chain is those families in that order,
 * then vita's fallbacks, so that a CJK name or a word in another script
 * still finds a face: Noto's sans faces after a family list naming a sans,
 * else its serif ones, in fonts/serif.yaml's order (a region face per CJK
 * language; Arabic, Hebrew, Armenian, Georgian and the math letters
 * before DejaVu Sans; the symbols past the BMP it lacks and Ethiopic,
 * which DejaVu does not cover, after it). Written as chain YAML and
 * parsed like a chain file; *nfam is the number of families named (looked
 * up at once; the fallbacks when a character needs them). */
static int family_chain(const char *name, buf_t *file, buf_t *data, int *nfam)
{
	/* serif family, sans family, lang, package, covers */
	static const char *fallback[][5] = {
		{"Noto Serif CJK SC", "Noto Sans CJK SC", "zh", "fonts-noto-cjk", NULL},
		{"Noto Serif CJK TC", "Noto Sans CJK TC", "zh-Hant", "fonts-noto-cjk", NULL},
		{"Noto Serif CJK JP", "Noto Sans CJK JP", "ja", "fonts-noto-cjk", NULL},
		{"Noto Serif CJK KR", "Noto Sans CJK KR", "ko", "fonts-noto-cjk", NULL},
		{"Noto Naskh Arabic", "Noto Sans Arabic", NULL, "fonts-noto-core", NULL},
		{"Noto Serif Hebrew", "Noto Sans Hebrew", NULL, "fonts-noto-core", NULL},
		{"Noto Serif Armenian", "Noto Sans Armenian", NULL, "fonts-noto-core", NULL},
		{"Noto Serif Georgian", "Noto Sans Georgian", NULL, "fonts-noto-core", NULL},
		{"Noto Sans Math", "Noto Sans Math", NULL, "fonts-noto-core", "1D400-1D7FF"},
		{"DejaVu Sans", "DejaVu Sans", NULL, "fonts-dejavu-core", NULL},
		{"Noto Sans Symbols2", "Noto Sans Symbols2", NULL, "fonts-noto-core", "1F000-1FBFF"},
		{"Noto Serif Ethiopic", "Noto Sans Ethiopic", NULL, "fonts-noto-core", NULL}};
	int sans = strstr(name, "Sans") != NULL;
	if (!name[0] || strchr(name, '/') || strpbrk(name, "\"\n\\:#[]{}"))
		return -1;
	buf_reset(file);
	buf_printf(file, "font families '%s'", name);
	buf_reset(data);
	buf_printf(data, "name: \"%s\"\nfaces:\n", name);
	int n = *nfam = put_families(data, name, strlen(name));
	for (size_t i = 0; i < sizeof(fallback) / sizeof(fallback[0]); i++) {
		const char *fam = fallback[i][sans];
		if (strstr(name, fam))
			continue;
		buf_printf(data, "  - family: \"%s\"\n    package: %s\n", fam, fallback[i][3]);
		if (fallback[i][2])
			buf_printf(data, "    lang: [%s]\n", fallback[i][2]);
		if (fallback[i][4])
			buf_printf(data, "    covers: \"%s\"\n", fallback[i][4]);
	}
	return n ? 0 : -1;
}

/* The files a render using chain c reads: the chain file and every font
 * file it names (all are opened when the chain is loaded). Recorded on
 * every get, as the library (and its chains) may serve many renders. */
static void chain_deps(font_chain_t *c)
{
	if (c->deps_gen == deps_gen())
		return;   /* already recorded in this render (a layout gets it often) */
	c->deps_gen = deps_gen();
	if (c->tail)
		chain_deps(c->tail);
	if (c->from_file)
		deps_add(c->file);
	for (int k = 0; k < c->nent; k++)
		for (int s = 0; s < FONT_NSTYLES; s++)
			if (c->ent[k].face[s])
				deps_add(c->ent[k].face[s]->path);
}

/* "Lato, Inter + serif": the families before " + " in front of the chain
 * (or family list) after it. A front family that is not installed is left
 * out (font_chain_absent names it), so the chain's own face takes its
 * place; the chain keeps its CJK, Arabic and symbol faces. */
static font_chain_t *front_chain(font_lib_t *lib, const char *name, const char *plus, errs_t *e)
{
	font_chain_t *tail = font_chain_get(lib, plus + 3, e);
	if (!tail)
		return NULL;
	buf_t file, data;
	buf_init(&file);
	buf_init(&data);
	buf_printf(&file, "font families '%.*s'", (int)(plus - name), name);
	buf_printf(&data, "faces:\n");
	int n = put_families(&data, name, (size_t)(plus - name));
	font_chain_t *c = xcalloc(1, sizeof(*c));
	c->lib = lib;
	c->front = 1;
	int r = -1;
	if (!n)
		err_at(e, "", 0, 0, "unknown font chain '%s' (expected font families before ' + ')", name);
	else
		r = font_chain_parse(lib, c, file.s, data.s, data.len, e);
	if (r == 0)
		r = font_chain_join(c, tail, e);
	buf_done(&file);
	buf_done(&data);
	if (r != 0) {
		font_chain_free(c);
		return NULL;
	}
	free(c->name);
	c->name = xstrdup(name);
	c->next = lib->chains;
	lib->chains = c;
	chain_deps(c);
	return c;
}

const char *font_chain_absent(const font_chain_t *c)
{
	return c ? c->absent : NULL;
}

int font_chain_standin(const font_chain_t *c, int i, const char **family, const char **standin)
{
	for (int k = 0; c && k < c->nent; k++)
		if (c->ent[k].standin && i-- == 0) {
			*family = c->ent[k].family;
			*standin = c->ent[k].standin;
			return 1;
		}
	return 0;
}

static font_chain_t *chain_get(font_lib_t *lib, const char *name, errs_t *e);

/* What the chain's families taught the font cache is written at once
 * (font_fccache_flush): a watch ends by a signal, with no font_lib_free. */
font_chain_t *font_chain_get(font_lib_t *lib, const char *name, errs_t *e)
{
	font_chain_t *c = chain_get(lib, name, e);
	font_fccache_flush(lib);
	return c;
}

static font_chain_t *chain_get(font_lib_t *lib, const char *name, errs_t *e)
{
	for (font_chain_t *c = lib->chains; c; c = c->next)
		if (strcmp(c->name, name) == 0 || (c->file && strcmp(c->file, name) == 0)) {
			chain_deps(c);
			return c;
		}
	const char *plus = strstr(name, " + ");
	if (plus)
		return front_chain(lib, name, plus, e);
	buf_t file, data;
	buf_init(&file);
	buf_init(&data);
	int nfam = 1;
	int from_file = chain_read(lib, name, &file, &data) == 0;
	if (from_file)
		deps_add(file.s);
	if (!from_file && family_chain(name, &file, &data, &nfam) != 0) {
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
	c->neager = nfam;
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

static const char *style_names[FONT_NSTYLES] = { "regular", "bold", "italic", "bold-italic",
                                                 "light", "", "light-italic" };

void font_chain_describe(font_chain_t *c, FILE *out)
{
	fprintf(out, "  # %s%s%s\n", c->file ? c->file : "", c->desc ? ": " : "",
	        c->desc ? c->desc : "");
	if (c->absent)
		fprintf(out, "  %s not installed: left out\n", c->absent);
	font_chain_resolve_all(c);
	for (int k = 0; k < c->nent; k++) {
		font_entry_t *en = &c->ent[k];
		char langs[32] = "";
		static const char *ln[FONT_NLANG] = { "", "zh", "ja", "ko", "zh-Hant" };
		for (int l = 1; l < FONT_NLANG; l++)
			if (en->langs & (1u << l))
				snprintf(langs + strlen(langs), sizeof(langs) - strlen(langs), "%s%s",
				         langs[0] ? "," : " lang=", ln[l]);
		if (en->missing) {
			fprintf(out, "  %-20s not installed%s%s%s\n", en->family, langs,
			        en->package ? "; Debian package " : "", en->package ? en->package : "");
			continue;
		}
		if (en->standin)
			fprintf(out, "  %-20s not installed: its metric-compatible stand-in %s\n",
			        en->family, en->standin);
		for (int s = 0; s < FONT_NSTYLES; s++) {
			font_face_t *f = en->face[s];
			if (!*style_names[s])
				continue;
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
