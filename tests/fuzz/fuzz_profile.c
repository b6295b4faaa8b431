/* fuzz_profile: libFuzzer target for the profile loader (ydoc + profile).
 * The first byte picks options (--lang zh, --tags short), the rest is the
 * profile. Every run uses a fresh arena and error list and frees both.
 * Build and run: make fuzz FUZZ_SECS=120. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"short", "private"};
	profile_opts_t o = {0};
	unsigned f = fuzz_flags(&data, &size);
	if (f & 1)
		o.lang = "zh";
	if (f & 2) {
		o.tags = tags;
		o.ntags = 2;
	}
	fuzz_load("fuzz.yaml", data, size, &o);
	return 0;
}
