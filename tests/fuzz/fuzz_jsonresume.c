/* fuzz_jsonresume: libFuzzer target for the JSON Resume importer: the
 * whole loader (ydoc, dispatch by content, the importer, name marks),
 * seeded with that format's files (tests/import/). The first byte picks
 * --tags selected; the rest is the file. Run: make fuzz FUZZ_TARGETS=jsonresume. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"selected"};
	profile_opts_t o = {0};
	if (fuzz_flags(&data, &size) & 1) {
		o.tags = tags;
		o.ntags = 1;
	}
	fuzz_load("fuzz.json", data, size, &o);
	return 0;
}
