/* suggest: the distance behind every "did you mean" (profile keys and
 * section types, layout keys). */
#ifndef VITA_SUGGEST_H
#define VITA_SUGGEST_H

/* Optimal string alignment distance between a and b: insertions,
 * deletions, substitutions and swaps of two neighbours each cost 1; ASCII
 * letters compare without case. 99 when either is longer than 64 bytes. */
int suggest_distance(const char *a, const char *b);
/* The same when it is at most max (>= 0); else some number above max,
 * found sooner: for a search that only wants the close ones. */
int suggest_within(const char *a, const char *b, int max);

#endif
