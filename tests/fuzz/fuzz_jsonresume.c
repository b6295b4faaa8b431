/* fuzz_jsonresume: libFuzzer target for the JSON Resume importer: the
 * whole loader (ydoc, dispatch by content, the importer, name marks),
 * seeded with that format's files (tests/import/). The first byte picks
 * --tags selected; the rest is the file. Run: make fuzz FUZZ_TARGETS=jsonresume. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"selected"};
	profile_opts_t o = {NULL, NULL, 0, 0, 0};
	if (size > 0) {
		if (data[0] & 1) {
			o.tags = tags;
			o.ntags = 1;
		}
		data++;
		size--;
	}
	arena_t *a = arena_new();
	errs_t e;
	model_t *m = NULL;
	errs_init(&e);
	if (profile_load_mem(a, "fuzz.json", (const char *)data, size, &o, &m, &e) == 0) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			model_dump(m, f);
			fclose(f);
		}
	}
	errs_done(&e);
	arena_free(a);
	return 0;
}
