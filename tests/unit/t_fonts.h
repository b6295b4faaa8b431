/* t_fonts.h: font files for unit tests, found the way vita finds them
 * (a chain from fonts/ or a family, through fontconfig), never written as
 * machine paths. t_font("serif", FONT_BOLD, "en", 'A') is the file of the
 * face the serif chain draws a bold A with; "/nonexistent/font" when
 * there is none (the test then fails on it, with the reason). */
#ifndef VITA_T_FONTS_H
#define VITA_T_FONTS_H
#include <stdint.h>
#include <stdio.h>
#include "font.h"

static const char *t_font(const char *chain, int style, const char *lang, uint32_t cp)
{
	static const char *const fdirs[] = {"fonts", NULL};
	static char buf[8][512];
	static int k;
	char *out = buf[k++ % 8];
	errs_t e;
	errs_init(&e);
	font_lib_t *lib = font_lib_new(fdirs, &e);
	font_chain_t *c = lib ? font_chain_get(lib, chain, &e) : NULL;
	int f = c ? font_face_for(c, style, lang, cp) : -1;
	const font_face_info_t *fi = f >= 0 ? font_face_info(lib, f) : NULL;
	snprintf(out, 512, "%s", fi ? fi->path : "/nonexistent/font");
	if (!fi)
		errs_print(stderr, &e);
	font_lib_free(lib);
	errs_done(&e);
	return out;
}

/* A file fontconfig matches for pattern (fc-match), for fonts no chain
 * may hold (a CFF font, which vita refuses): "/nonexistent/font" if none. */
__attribute__((unused)) static const char *t_fc_file(const char *pattern)
{
	static char out[512];
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "fc-match -f '%%{file}' '%s' 2>/dev/null", pattern);
	FILE *p = popen(cmd, "r");
	size_t n = p ? fread(out, 1, sizeof(out) - 1, p) : 0;
	if (p)
		pclose(p);
	out[n] = '\0';
	if (!n)
		snprintf(out, sizeof(out), "/nonexistent/font");
	return out;
}

#endif
