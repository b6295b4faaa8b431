/* fuzz_jsonresume: libFuzzer target for the JSON Resume importer: the
 * whole loader (ydoc, dispatch by content, the importer, name marks),
 * seeded with that format's files (tests/import/). The first byte picks
 * --tags selected; the rest is the file. Run: make fuzz FUZZ_TARGETS=jsonresume. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import("fuzz.json", data, size);
	return 0;
}
