/* dl: a library most renders never call, loaded when first called.
 *
 * Every library the binary is linked with costs every process its mapped
 * pages and the dynamic linker's symbol lookups (Debian builds with
 * BIND_NOW), whether it is called or not. fontconfig is called on a font
 * cache miss only, libyaml when the fast reader declines a file, libjpeg
 * for a JPEG photo, libfribidi for right-to-left text, libhyphen when a
 * paragraph needs hyphenating: the one file that calls each keeps its
 * functions in a table, filled on first use:
 *
 *   #define FC_FUNCS(X) X(FcPatternCreate) X(FcFontList)
 *   static struct { FC_FUNCS(DL_FIELD) } fc;
 *   ...
 *   void *h = dl_open("libfontconfig.so.1", why, sizeof(why));
 *   #define X(f) DL_SYM(h, fc, f, why)
 *   FC_FUNCS(X)                  (h NULL, why says so, when one is missing)
 *   fc.FcPatternCreate()
 *
 * The fields have the functions' own types (the library's header is still
 * included). dl_open of an soname already loaded returns it again.
 */
#ifndef VITA_DL_H
#define VITA_DL_H
#include <stddef.h>

/* A table field for library function f, of f's type. */
#define DL_FIELD(f) __typeof__(f) *f;
/* Fill field f of table t from library handle h; h becomes NULL and the
 * array why says so when the library lacks it. */
#define DL_SYM(h, t, f, why) \
	if ((h) && !(*(void **)&(t).f = dl_sym((h), #f, (why), sizeof(why)))) \
		(h) = NULL;

/* The library soname (dlopen: its own symbols kept local), or NULL with
 * the loader's reason in why. */
void *dl_open(const char *soname, char *why, size_t whysz);
/* Function name of library h, or NULL with a reason in why. */
void *dl_sym(void *h, const char *name, char *why, size_t whysz);

#endif
