/* bench_text: the text stages alone, for `make bench` (moved out of the
 * unit tests, which never time anything): HarfBuzz shaping of 3000 CV
 * words through the "serif" chain, and inline+para on a ~1.4 kB justified
 * paragraph. Prints milliseconds, best of 5 runs; asserts nothing. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "inline.h"

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static const char *words[] = {
	"Efficient", "systems", "for", "machine", "learning,", "University", "of", "Toronto",
	"AVAST", "Wave", "朱展达", "Müller", "2024", "(NeurIPS)", "—", "PhD", "student", "with",
	"Gennady", "Pekhimenko.", "Tensor", "compilers", "GPU", "kernels", "Ying", "Sheng",
};

static const char *para =
	"I am a second year Ph.D. student at the University of Toronto, supervised "
	"by Prof. Gennady Pekhimenko. My research interests lie in the broad area of "
	"systems for machine learning, especially in efficient large-scale model "
	"pre-training, post-training, and serving. I have been fortunate to work at "
	"NVIDIA, CentML, Microsoft Research Asia, and the Vector Institute, "
	"contributing to projects in large-scale machine learning systems and "
	"compilers. Before that I studied computer science and mathematics, with a "
	"thesis on the scheduling of heterogeneous accelerators and on reconfigurable "
	"distributed systems, which received the department's award for research.";

static double shape_ms(font_chain_t *c, errs_t *e)
{
	int nw = (int)(sizeof(words) / sizeof(words[0]));
	font_shaped_t s;
	font_shaped_init(&s);
	double t0 = now_ms();
	for (int i = 0; i < 3000; i++) {
		const char *w = words[(i * 7) % nw];
		s.n = 0;
		s.width = 0;
		font_shape(c, i % 5 == 0 ? FONT_BOLD : FONT_REGULAR, 9800, "en", w, strlen(w), &s, e);
	}
	double ms = now_ms() - t0;
	font_shaped_done(&s);
	return ms;
}

static double inline_ms(font_chain_t *c, hyph_t *hy, errs_t *e)
{
	inline_span_t s[3];
	memset(s, 0, sizeof(s));
	const char *t[3] = {para, " Zhanda Zhu, ", para};
	for (int i = 0; i < 3; i++) {
		s[i].text = t[i];
		s[i].len = (int)strlen(t[i]);
		s[i].chain = c;
		s[i].style = i == 1 ? FONT_BOLD : i == 2 ? FONT_ITALIC : FONT_REGULAR;
		s[i].size = 10000;
	}
	inline_opts_t o;
	memset(&o, 0, sizeof(o));
	o.width = 400000;
	o.align = INLINE_JUSTIFY;
	o.lang = "en";
	o.hyph = hy;
	o.file = "bench.yaml";
	arena_t *a = arena_new();
	inline_result_t r;
	double t0 = now_ms();
	for (int i = 0; i < 10; i++)
		inline_set(a, s, 3, &o, &r, e);
	double ms = (now_ms() - t0) / 10;
	arena_free(a);
	return ms;
}

int main(void)
{
	static const char *const dirs[] = {"fonts", NULL};
	errs_t e;
	errs_init(&e);
	font_lib_t *lib = font_lib_new(dirs, &e);
	font_chain_t *c = lib ? font_chain_get(lib, "serif", &e) : NULL;
	hyph_t *hy = hyph_open("en", &e);
	if (!c) {
		errs_print(stderr, &e);
		return 1;
	}
	double sh = 1e9, fl = 1e9;
	for (int k = 0; k < 5; k++) {
		double a = shape_ms(c, &e), b = inline_ms(c, hy, &e);
		sh = a < sh ? a : sh;
		fl = b < fl ? b : fl;
	}
	printf("shaping: 3000 words in %.2f ms; inline+para: %.3f ms per 1.4 kB paragraph "
	       "(best of 5)\n", sh, fl);
	hyph_close(hy);
	font_lib_free(lib);
	errs_done(&e);
	return 0;
}
