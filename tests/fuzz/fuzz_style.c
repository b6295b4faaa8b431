/* fuzz_style: libFuzzer target for the layout loader (ydoc + style).
 * The input is a layout file; `extends` finds the bundled layouts in
 * layouts/. Lines after a "\n%%\n" separator are applied as --set
 * overrides, so the key mechanism and its bounds are fuzzed too. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "style.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dirs[] = {"layouts", NULL};
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	char *sets = NULL;
	for (size_t i = 0; i + 4 <= size; i++)
		if (!memcmp(s + i, "\n%%\n", 4)) {
			s[i] = '\0';
			sets = s + i + 4;
			break;
		}
	size_t len = sets ? strlen(s) : size;
	errs_t e;
	errs_init(&e);
	style_t *st = style_load_mem("fuzz.yaml", s, len, dirs, &e);
	for (char *kv = sets ? strtok(sets, "\n") : NULL; st && kv; kv = strtok(NULL, "\n"))
		style_set(st, kv, "--set", 0, 0, &e);
	style_free(st);
	errs_done(&e);
	free(s);
	return 0;
}
