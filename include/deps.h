/* deps: the input files one render read, for --deps, watch, batch
 * --changed and the output-is-an-input check.
 *
 * Each stage records a file at the place it reads it (the profile, BibTeX
 * files and photo in profile, layouts and their `extends` chain in style,
 * chain files and the font files a chain names in font, hyphenation
 * patterns in hyph); main starts a recording before a render and reads it
 * after. One recorder per process: a render is single-threaded and batch
 * workers are processes. Paths are kept as the stage opened them (relative
 * to the working directory or absolute), in order of first use, once.
 *
 *   deps_start();  ... render ...  for (i < deps_count()) deps_get(i);
 */
#ifndef VITA_DEPS_H
#define VITA_DEPS_H
#include "buf.h"

/* Start a new recording (forgets the previous one). */
void deps_start(void);
/* Record path (copied); ignored when no recording was started. */
void deps_add(const char *path);
int deps_count(void);
const char *deps_get(int i);
/* Append "target: dep dep ...\n" plus an empty rule per dependency (as
 * gcc -MP does, so a deleted input does not break make), with spaces,
 * '#', '$' and ':' escaped for make (ninja reads the same). */
void deps_make_text(buf_t *b, const char *target);
/* Nonzero, and changed by every deps_start and deps_stop: a caller that
 * records the same files on every use (a font chain) records them once
 * per value. */
unsigned deps_gen(void);
/* Forget the recording and free it. */
void deps_stop(void);

#endif
