/* dl: libraries loaded when first called (see include/dl.h). */
#include <dlfcn.h>
#include <stdio.h>
#include "dl.h"

void *dl_open(const char *soname, char *why, size_t whysz)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		snprintf(why, whysz, "cannot load %s: %s", soname, dlerror());
	return h;
}

void *dl_sym(void *h, const char *name, char *why, size_t whysz)
{
	void *f = dlsym(h, name);
	if (!f)
		snprintf(why, whysz, "cannot load %s: %s", name, dlerror());
	return f;
}
