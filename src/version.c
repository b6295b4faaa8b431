/* version: the strings `vita --version` prints, filled in by the Makefile
 * (only this file is rebuilt when the commit changes). */
#include "version.h"

#ifndef VITA_VERSION
#define VITA_VERSION "0.0.0"
#endif
#ifndef VITA_COMMIT
#define VITA_COMMIT "unknown"
#endif
#ifndef VITA_BUILT_WITH
#define VITA_BUILT_WITH ""
#endif

const char version_release[] = VITA_VERSION;
const char version_commit[] = VITA_COMMIT;
const char version_libs[] = VITA_BUILT_WITH;
