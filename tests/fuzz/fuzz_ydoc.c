/* fuzz_ydoc: the two YAML readers against each other. Whatever text
 * ydoc_fast reads (ydoc_fast.c), libyaml's reading (ydoc_libyaml) must
 * read too, into the same tree: kinds, strings, styles, line:column. A
 * difference aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "ydoc_int.h"
#include "../unit/ydoc_same.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	arena_t *a = arena_new();
	errs_t e;
	errs_init(&e);
	ynode_t *fast, *lib;
	if (ydoc_fast(a, (const char *)data, size, &fast) == 0) {
		char why[512];
		if (ydoc_libyaml(a, "fuzz.yaml", (const char *)data, size, &lib, &e) != 0 ||
		    !ydoc_same(fast, lib, why, sizeof(why))) {
			fprintf(stderr, "ydoc_fast and libyaml differ: %s\n",
			        e.n ? e.v[0].msg : why);
			abort();
		}
	}
	errs_done(&e);
	arena_free(a);
	return 0;
}
