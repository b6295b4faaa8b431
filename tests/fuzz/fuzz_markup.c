/* fuzz_markup: libFuzzer target for the inline markup parser (**bold**,
 * *italic*, [label](url), escapes). The input is one text value (made
 * valid UTF-8 by the YAML checks in real use, so invalid input is
 * skipped here). Checks that the spans' text never grows past the input. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "profile_int.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memchr(data, 0, size) || utf8_invalid_at((const char *)data, size) >= 0)
		return 0;
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	arena_t *a = arena_new();
	mtext_t t;
	pv_markup(a, s, &t);
	size_t total = 0;
	for (int i = 0; i < t.n; i++) {
		assert(t.spans[i].text);
		total += strlen(t.spans[i].text);
	}
	assert(total <= size);
	arena_free(a);
	free(s);
	return 0;
}
