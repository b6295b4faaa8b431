/* version: what this binary is — the release, the git commit it was built
 * from and the libraries it was compiled against (the Makefile sets them). */
#ifndef VITA_VERSION_H
#define VITA_VERSION_H

extern const char version_release[]; /* "0.1.0" */
extern const char version_commit[];  /* "1a2b3c4d5e6f", or "unknown" */
extern const char version_libs[];    /* "yaml-0.1 0.2.5;freetype2 24.3.18;..." */

#endif
