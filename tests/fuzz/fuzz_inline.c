/* fuzz_inline: libFuzzer target for inline + para on arbitrary text with the
 * bundled "serif" chain (fonts/serif.yaml through fontconfig) and the
 * English patterns. The first two bytes pick the measure, the alignment,
 * the style and the flags; the rest is split into up to 4 spans at each
 * 0x01 byte. Invalid UTF-8 is skipped (the loaders refuse it). Checks that
 * every line's runs lie inside the measure unless the line is overfull. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "inline.h"
#include "utf8.h"

static font_lib_t *lib;
static font_chain_t *serif;
static hyph_t *hy;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	errs_t e;
	errs_init(&e);
	lib = fuzz_fonts(&e);
	serif = font_chain_get(lib, "serif", &e);
	hy = hyph_open("en", &e);
	if (!serif) {
		errs_print(stderr, &e);
		abort();
	}
	errs_done(&e);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > 4096)
		return 0;
	const char *text = (const char *)data + 2;
	size_t n = size - 2;
	if (memchr(text, 0, n) || utf8_invalid_at(text, n) >= 0)
		return 0;
	static const char *const langs[] = {"en", "zh", "ja", "ko"};
	inline_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = 20000 + (int32_t)(data[0] & 0x3f) * 8000;
	o.align = (data[0] >> 6) & 3;
	o.indent = data[1] & 0x80 ? 11000 : 0;
	o.lang = langs[(data[1] >> 5) & 3];
	o.hyph = data[1] & 0x10 ? hy : NULL;
	o.file = "fuzz.yaml";
	inline_span_t sp[4];
	int ns = 0;
	const char *p = text, *end = text + n;
	while (ns < 4 && p <= end) {
		const char *q = ns < 3 ? memchr(p, 1, (size_t)(end - p)) : NULL;
		if (!q)
			q = end;
		memset(&sp[ns], 0, sizeof(sp[ns]));
		sp[ns].text = p;
		sp[ns].len = (int)(q - p);
		sp[ns].chain = serif;
		sp[ns].style = (data[1] + ns) & 3;
		sp[ns].size = 10000;
		sp[ns].flags = (unsigned)(data[1] >> ns) & 7;
		sp[ns].url = sp[ns].flags & INLINE_URL ? "https://example.org" : NULL;
		sp[ns].line = 1;
		sp[ns].col = 1;
		ns++;
		p = q + 1;
	}
	arena_t *a = arena_new();
	errs_t e;
	errs_init(&e);
	e.max = 5;
	inline_result_t r;
	if (inline_set(a, sp, ns, &o, &r, &e) == 0)
		for (int i = 0; i < r.nlines; i++) {
			const inline_line_t *l = &r.lines[i];
			for (int k = 0; k < l->nruns; k++)
				assert(l->runs[k].len > 0);
			assert(l->overfull || l->width <= o.width + 2 ||
			       (i > 0 && l->width <= o.width + 2 - o.indent));
		}
	errs_done(&e);
	arena_free(a);
	return 0;
}
