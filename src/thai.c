/* thai: Thai word boundaries by libthai's dictionary (see thai.h), loaded
 * when a paragraph first has Thai text (dl.h): libthai, and with it
 * libdatrie, is not linked, so a CV without Thai neither maps it nor reads
 * its 600 KB dictionary. */
#include <stdlib.h>
#include <wchar.h>
#include <thai/thbrk.h>
#include <thai/thwbrk.h>
#include "arena.h"
#include "dl.h"
#include "thai.h"

#define THAI_FUNCS(X) X(th_brk_new) X(th_brk_wc_find_breaks)
static struct {
	THAI_FUNCS(DL_FIELD)
} th;

/* The breaker with the default dictionary (/usr/share/libthai/thbrk.tri,
 * or $LIBTHAI_DICTDIR), made once; NULL when libthai or its dictionary
 * is missing (then Thai runs stay whole, as before). */
static ThBrk *breaker(void)
{
	static ThBrk *brk;
	static int tried;
	if (!tried) {
		char why[300];
		tried = 1;
		void *h = dl_open("libthai.so.0", why, sizeof(why));
#define X(f) DL_SYM(h, th, f, why)
		THAI_FUNCS(X)
#undef X
		brk = h ? th.th_brk_new(NULL) : NULL;
	}
	return brk;
}

int thai_breaks(const uint32_t *cp, int n, int *pos, int max)
{
	ThBrk *brk = n > 1 && max > 0 ? breaker() : NULL;
	if (!brk)
		return 0;
	thwchar_t stack[256], *w = n < 256 ? stack : xmalloc(((size_t)n + 1) * sizeof(*w));
	for (int i = 0; i < n; i++)
		w[i] = (thwchar_t)cp[i];
	w[n] = 0;
	int k = th.th_brk_wc_find_breaks(brk, w, pos, (size_t)max), out = 0;
	for (int i = 0; i < k; i++) /* only those inside the run */
		if (pos[i] > 0 && pos[i] < n)
			pos[out++] = pos[i];
	if (w != stack)
		free(w);
	return out;
}
