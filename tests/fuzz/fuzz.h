/* fuzz.h: what the libFuzzer targets share (each target is one program,
 * so these are static inline functions in a header): the loader run that the
 * profile and importer targets make, and the font library the layout
 * targets open once. */
#ifndef VITA_FUZZ_H
#define VITA_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "font.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The first byte of an input is its option bits; the rest the file. */
static inline unsigned fuzz_flags(const uint8_t **data, size_t *size)
{
	if (*size == 0)
		return 0;
	unsigned f = (*data)[0];
	(*data)++;
	(*size)--;
	return f;
}

/* Load data as the file name (a fresh arena and error list, both freed)
 * and dump the model it gives, so every field is read. */
static inline void fuzz_load(const char *name, const uint8_t *data, size_t size,
                             const profile_opts_t *o)
{
	arena_t *a = arena_new();
	errs_t e;
	model_t *m = NULL;
	errs_init(&e);
	if (profile_load_mem(a, name, (const char *)data, size, o, &m, &e) == 0) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			model_dump(m, f);
			fclose(f);
		}
	}
	errs_done(&e);
	arena_free(a);
}

/* An importer's target: the first byte's bit 0 selects --tags selected. */
static inline void fuzz_import(const char *name, const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"selected"};
	profile_opts_t o = {0};
	if (fuzz_flags(&data, &size) & 1) {
		o.tags = tags;
		o.ntags = 1;
	}
	fuzz_load(name, data, size, &o);
}

/* The bundled font chains (fonts/, through fontconfig, no family cache);
 * abort when they cannot be opened: the target would test nothing. */
static inline font_lib_t *fuzz_fonts(errs_t *e)
{
	static const char *const dirs[] = {"fonts", NULL};
	setenv("VITA_NO_FONT_CACHE", "1", 1);
	font_lib_t *lib = font_lib_new(dirs, e);
	if (!lib) {
		errs_print(stderr, e);
		abort();
	}
	return lib;
}

#endif
