/* fuzz_render: libFuzzer target for the whole pipeline on small inputs:
 * profile -> model -> layout (academic, or compact when the first byte is
 * odd) -> page list -> subsets (in memory) -> PDF, written into a private
 * temporary directory and removed. Fonts come from the bundled chains through
 * fontconfig; the font library is opened once. Photos and BibTeX files
 * the input names are resolved against the working directory (run it
 * from the project's top directory). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "layout.h"
#include "locale.h"
#include "page.h"
#include "pdf.h"
#include "profile.h"
#include "style.h"
#include "fuzz.h"

static font_lib_t *lib;
static char dir[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	errs_t e;
	errs_init(&e);
	lib = fuzz_fonts(&e);
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/vita-fuzz.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		abort();
	}
	errs_done(&e);
	return 0;
}

/* The locale as main picks it: the profile's lang, else the layout's. */
static vlocale_t *locale_for(const model_t *m, const style_t *s, errs_t *e)
{
	static const char *const dirs[] = {"locales", NULL};
	vlocale_t *l = locale_load(m->lang ? m->lang : s->lang ? s->lang : "en", dirs,
	                           m->file, 1, 1, e);
	for (int i = 0; l && i < s->nwords; i++)
		if (locale_set(l, s->words[i].key, s->words[i].value, s->words[i].file,
		               s->words[i].line, s->words[i].col, e)) {
			locale_free(l);
			return NULL;
		}
	return l;
}

static void render(model_t *m, const style_t *s, arena_t *a, errs_t *e)
{
	vlocale_t *loc = locale_for(m, s, e);
	if (!loc)
		return;
	locale_smart_model(loc, m, a);
	layout_opts_t lo = {1700000000, 0, loc, NULL};
	page_doc_t *doc = layout_render(m, s, lib, &lo, e);
	if (doc && !e->nerrors && layout_subset(doc, lib, e) == 0) {
		char out[96];
		snprintf(out, sizeof(out), "%s/cv.pdf", dir);
		pdf_write(doc, out, e);
		unlink(out);
	}
	page_doc_free(doc);
	locale_free(loc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ldirs[] = {"layouts", NULL};
	if (size < 1 || size > 8192)
		return 0;
	arena_t *a = arena_new();
	errs_t e;
	errs_init(&e);
	model_t *m = NULL;
	profile_opts_t o = {0};
	if (profile_load_mem(a, "fuzz.yaml", (const char *)data + 1, size - 1, &o, &m, &e) == 0) {
		style_t *s = style_load(data[0] & 1 ? "compact" : "academic", ldirs, &e);
		for (int i = 0; s && i < m->nlayout_set; i++)
			style_set(s, m->layout_set[i], m->file, 1, 1, &e);
		if (s && !e.nerrors && style_check(s, &e) == 0)
			render(m, s, a, &e);
		style_free(s);
	}
	errs_done(&e);
	arena_free(a);
	return 0;
}
