/* suggest: the distance behind every "did you mean" (profile keys and
 * section types, layout keys). */
#ifndef VITA_SUGGEST_H
#define VITA_SUGGEST_H

/* Optimal string alignment distance between a and b: insertions,
 * deletions, substitutions and swaps of two neighbours each cost 1; ASCII
 * letters compare without case. 99 when either is longer than 64 bytes. */
int suggest_distance(const char *a, const char *b);

#endif
