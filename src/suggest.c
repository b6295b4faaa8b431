/* suggest: edit distance for "did you mean" (see suggest.h). Callers pick
 * their own threshold: profile_val.c (pv_suggest) for profile keys and
 * types, style.c (key_suggest) for layout keys. */
#include <ctype.h>
#include <string.h>
#include "suggest.h"

#define SUGGEST_MAX 64

int suggest_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
		return 99;
	int d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++) {
		for (int j = 1; j <= lb; j++) {
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

/* The same recurrence on a band of the table: a cell |i - j| off the
 * diagonal costs at least |i - j|, so with a limit max only the cells
 * within max of it can lie on a path of cost <= max; the others count as
 * max + 1 (every value is capped there, which keeps those within the limit
 * exact and those past it past it). Two rows in turn all past the limit
 * end it: every path crosses one of them (a swap steps over one row). */
int suggest_within(const char *a, const char *b, int max)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
		return 99;
	if (max < 0)
		max = 0;
	int big = max + 1;
	if (la - lb > max || lb - la > max)
		return big;
	int rows[3][SUGGEST_MAX + 2];
	int *p2 = rows[0], *p1 = rows[1], *cur = rows[2];
	for (int j = 0; j <= lb + 1; j++)
		p1[j] = j <= max ? j : big;
	int min1 = 0;
	for (int i = 1; i <= la; i++) {
		int lo = i - max > 1 ? i - max : 1, hi = i + max < lb ? i + max : lb;
		int ca = tolower((unsigned char)a[i - 1]);
		cur[lo - 1] = lo == 1 && i <= max ? i : big;
		int rmin = cur[lo - 1];
		for (int j = lo; j <= hi; j++) {
			int cost = ca != tolower((unsigned char)b[j - 1]);
			int v = p1[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (p1[j - 1] + cost < v)
				v = p1[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    p2[j - 2] + 1 < v)
				v = p2[j - 2] + 1;
			cur[j] = v < big ? v : big;
			if (cur[j] < rmin)
				rmin = cur[j];
		}
		if (hi < lb)
			cur[hi + 1] = big;
		if (rmin >= big && min1 >= big)
			return big;
		min1 = rmin;
		int *t = p2;
		p2 = p1;
		p1 = cur;
		cur = t;
	}
	return p1[lb];
}
