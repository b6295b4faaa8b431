/* test_dl: the libraries loaded when first called (include/dl.h). The
 * loader's errors name what is missing; bidi_is_rtl, which loads
 * libfribidi only for a character of a right-to-left block, says of every
 * code point what Unicode says (this test links libfribidi itself). */
#include <stdint.h>
#include <stdio.h>
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

/* Unicode's Bidi_Class of every assigned code point (the values of
 * extracted/DerivedBidiClass.txt; "" for the unassigned ones) into cls
 * ("R", "AL", "NSM"...); the number of lines read, 0 when unreadable. */
static int read_classes(char (*cls)[4])
{
	FILE *f = fopen("/usr/share/unicode/extracted/DerivedBidiClass.txt", "r");
	if (!f)
		return 0;
	char line[512], c[16];
	int lines = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned a, b;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%x..%x ; %15s", &a, &b, c) != 3) {
			if (sscanf(line, "%x ; %15s", &a, c) != 2)
				continue;
			b = a;
		}
		for (unsigned k = a; k <= b && k <= 0x10ffff; k++)
			snprintf(cls[k], sizeof(cls[k]), "%.3s", c);
		lines++;
	}
	fclose(f);
	return lines;
}

/* bidi_is_rtl says of every assigned code point what Unicode says (R, AL,
 * AN; the unicode-data package's Unicode 15), not only what libfribidi 1.0's
 * Unicode 10 tables say; and the levels treat a mark as a mark (NSM: its
 * letter's level) and a letter as a letter where the two differ (bidi.c's
 * newer[]: the marks of NKo, Arabic Extended, Hanifi Rohingya, Yezidi,
 * Sogdian, Old Uyghur were strong R, the Siyaq numbers L). */
TEST(rtl_everywhere)
{
	static char cls[0x110000][4];
	CHECK(read_classes(cls) > 1000);
	int differ = 0, marks = 0, fribidi_differs = 0;
	for (uint32_t c = 0; c <= 0x10ffff; c++) {
		if (!cls[c][0])
			continue;   /* unassigned: libfribidi's default */
		int rtl = !strcmp(cls[c], "R") || !strcmp(cls[c], "AL") || !strcmp(cls[c], "AN");
		FriBidiCharType t = fribidi_get_bidi_type(c);
		fribidi_differs += rtl != (t == FRIBIDI_TYPE_RTL || t == FRIBIDI_TYPE_AL ||
		                           t == FRIBIDI_TYPE_AN);
		if (rtl != bidi_is_rtl(c) && differ++ < 5)
			fprintf(stderr, "  U+%04X: bidi_is_rtl %d, Bidi_Class %s\n", (unsigned)c,
			        bidi_is_rtl(c), cls[c]);
		/* a mark after a left-to-right letter in a left-to-right
		   paragraph: level 0, as the letter */
		if (!strcmp(cls[c], "NSM")) {
			uint32_t cp[2] = {'a', c};
			uint8_t lv[2] = {9, 9};
			bidi_levels(cp, 2, 0, lv);
			if (lv[1] != 0 && marks++ < 5)
				fprintf(stderr, "  U+%04X (NSM) after 'a': level %d\n", (unsigned)c, lv[1]);
		}
	}
	EQ_INT(differ, 0);
	EQ_INT(marks, 0);
	if (fribidi_differs)
		fprintf(stderr, "  (libfribidi %s differs at %d code points)\n", fribidi_unicode_version,
		        fribidi_differs);
}

int main(void)
{
	RUN(errors);
	RUN(rtl_everywhere);
	return t_report();
}
