/* html: the CV for a homepage -- a semantic HTML5 page or fragment, or the
 * loaded model as JSON for site generators.
 *
 *   html_opts_t ho = {.fragment = 0, .font_body = "\"Noto Serif\", serif", ...};
 *   html_write(m, s, loc, &ho, &b, e);   // then write b.s
 *   html_json(m, loc, &b);
 *
 * Reads the model, the layout (colours, fonts and sizes become CSS custom
 * properties --vita-*) and the locale (dates, ranges, "present", the
 * title, the badge and footnote words: the same strings as the PDF); never
 * the page list or the PDF. No JavaScript and no external requests: the
 * style is inline, the photo a data: URI; the only script element is
 * schema.org JSON-LD data (Person, and a ScholarlyArticle per
 * publication). Links keep only http, https, mailto and tel targets.
 */
#ifndef VITA_HTML_H
#define VITA_HTML_H
#include "buf.h"
#include "err.h"
#include "locale.h"
#include "model.h"
#include "style.h"

typedef struct html_opts {
	int fragment;              /* 1: the <article> with its <style> and data only */
	const char *font_body;     /* CSS font-family lists */
	const char *font_heading;
	const char *generator;     /* "vita 0.1.0" */
	long long epoch;           /* "now", for the updated line when the profile has none */
} html_opts_t;

/* Append the HTML to out. -1 with an error in e when the photo cannot be
 * read (exit 3). */
int html_write(const model_t *m, const style_t *s, const vlocale_t *loc, const html_opts_t *o,
               buf_t *out, errs_t *e);
/* Append the model as one JSON object (text fields as plain text and as
 * inline HTML; dates as written and as the locale prints them). */
void html_json(const model_t *m, const vlocale_t *loc, buf_t *out);

#endif
