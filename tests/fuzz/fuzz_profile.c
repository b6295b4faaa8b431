/* fuzz_profile: libFuzzer target for the profile loader (ydoc + profile).
 * The first byte picks options (--lang zh, --tags short), the rest is the
 * profile. Every run uses a fresh arena and error list and frees both.
 * Build and run: make fuzz FUZZ_SECS=120. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"short", "private"};
	profile_opts_t o = {0};
	if (size > 0) {
		if (data[0] & 1)
			o.lang = "zh";
		if (data[0] & 2) {
			o.tags = tags;
			o.ntags = 2;
		}
		data++;
		size--;
	}
	arena_t *a = arena_new();
	errs_t e;
	model_t *m = NULL;
	errs_init(&e);
	if (profile_load_mem(a, "fuzz.yaml", (const char *)data, size, &o, &m, &e) == 0) {
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
