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
