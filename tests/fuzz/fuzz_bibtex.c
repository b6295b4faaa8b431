/* fuzz_bibtex: libFuzzer target for the BibTeX reader (profile_bib.c and
 * the LaTeX decoder), from memory. The first byte picks options (--strict,
 * --tags selected), the rest is the .bib file. Every run uses a fresh arena
 * and error list and frees both. Run: make fuzz FUZZ_TARGETS=bibtex. */
#include <string.h>
#include "fuzz.h"
#include "profile_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"selected"};
	profile_opts_t o = {0};
	unsigned f = fuzz_flags(&data, &size);
	o.strict = f & 1;
	if (f & 2) {
		o.tags = tags;
		o.ntags = 1;
	}
	arena_t *a = arena_new();
	errs_t e;
	errs_init(&e);
	ynode_t where = {0};
	where.kind = YD_SCALAR;
	where.line = where.col = 1;
	pctx_t c = {0};
	c.a = a;
	c.e = &e;
	c.file = "fuzz.yaml";
	c.o = &o;
	c.m = arena_alloc(a, sizeof(model_t));
	mpub_t *pubs;
	int n;
	if (pbib_load_mem(&c, &where, "fuzz.bib", (const char *)data, size, &pubs, &n) == 0) {
		/* what the layout reads of each publication */
		size_t total = 0;
		for (int i = 0; i < n; i++) {
			for (int j = 0; j < pubs[i].title.n; j++)
				total += strlen(pubs[i].title.spans[j].text);
			for (int j = 0; j < pubs[i].nauthors; j++)
				total += strlen(pubs[i].authors[j]);
			for (int j = 0; j < pubs[i].nlinks; j++)
				total += strlen(pubs[i].links[j].url);
		}
		if (total == (size_t)-1)
			puts("");
	}
	errs_done(&e);
	arena_free(a);
	return 0;
}
