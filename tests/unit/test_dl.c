/* test_dl: the libraries loaded when first called (include/dl.h). The
 * loader's errors name what is missing; bidi_is_rtl, which loads
 * libfribidi only for a character of a right-to-left block, says of every
 * code point what libfribidi says (this test links libfribidi itself). */
#include <stdint.h>
#include <string.h>
#include <fribidi.h>
#include "t.h"
#include "bidi.h"
#include "dl.h"

TEST(errors)
{
	char why[300] = "";
	CHECK(dl_open("libvita-no-such-library.so.7", why, sizeof(why)) == NULL);
	CHECK(strstr(why, "cannot load libvita-no-such-library.so.7") != NULL);
	void *h = dl_open("libfribidi.so.0", why, sizeof(why));
	CHECK(h != NULL);
	if (h) {
		why[0] = 0;
		CHECK(dl_sym(h, "fribidi_no_such_function", why, sizeof(why)) == NULL);
		CHECK(strstr(why, "fribidi_no_such_function") != NULL);
		CHECK(dl_sym(h, "fribidi_get_bidi_type", why, sizeof(why)) != NULL);
	}
}

TEST(rtl_everywhere)
{
	int differ = 0;
	for (uint32_t c = 0; c <= 0x10ffff; c++) {
		FriBidiCharType t = fribidi_get_bidi_type(c);
		int rtl = t == FRIBIDI_TYPE_RTL || t == FRIBIDI_TYPE_AL || t == FRIBIDI_TYPE_AN;
		if (rtl != bidi_is_rtl(c) && differ++ < 5)
			fprintf(stderr, "  U+%04X: bidi_is_rtl %d, libfribidi %d\n", (unsigned)c,
			        bidi_is_rtl(c), rtl);
	}
	EQ_INT(differ, 0);
}

int main(void)
{
	RUN(errors);
	RUN(rtl_everywhere);
	return t_report();
}
