/* style: a layout file (layouts/<name>.yaml) -> the numbers layout uses.
 *
 * A layout is data: page size and margins, font chains and sizes, colours,
 * spacing, and the style of the header, section titles, entries,
 * publications, news, lists, text and footer. Every key is described once
 * in a table in style.c (path, type, field), so loading, `--set KEY=VALUE`
 * overrides, defaults and the "did you mean" for a misspelt key all come
 * from that one table. A layout may start with `extends: NAME` to take
 * another layout's values first.
 *
 * Lengths are written in points in YAML (10, 10.5, "2mm", "0.5in") and
 * stored in u (1/1000 pt). Colours are "#rrggbb".
 */
#ifndef VITA_STYLE_H
#define VITA_STYLE_H
#include <stdint.h>
#include <stdio.h>
#include "err.h"

enum { ST_LEFT, ST_CENTER, ST_RIGHT, ST_JUSTIFY };

typedef struct style_word {
	const char *key, *value;                /* a locale key ("present") and its text */
	const char *file;                       /* where it was set, for messages */
	int line, col;
} style_word_t;

typedef struct style {
	const char *name, *description;
	/* page */
	int32_t page_w, page_h;                 /* u */
	int32_t margin_top, margin_bottom, margin_left, margin_right;
	/* fonts: chain names */
	const char *font_body, *font_heading;
	const char *lang;                       /* default text language: "en" */
	/* sizes (u) and leading (permille of the size: baseline to baseline) */
	int32_t size_body, size_small, size_name, size_native, size_headline, size_section;
	int32_t leading;                        /* permille, e.g. 1250 */
	int32_t leading_cjk;                    /* permille, for paragraphs mostly in CJK */
	/* colours 0xRRGGBB */
	uint32_t c_text, c_muted, c_accent, c_link, c_rule, c_highlight, c_badge;
	/* header */
	int header_align;                       /* ST_LEFT / ST_CENTER */
	int32_t header_gap;                     /* u: space after the header */
	const char *contact_sep;                /* between contact items, e.g. "  ·  " */
	/* section titles */
	int section_upper;                      /* 1: set titles in capitals */
	int section_style;                      /* FONT_* style of the title */
	int32_t section_before, section_after;  /* u */
	int32_t section_rule;                   /* u: rule thickness under the title (0: none) */
	/* entries */
	int32_t entry_gap;                      /* u: between entries */
	int32_t date_gap;                       /* u: min gap between text and the date column */
	int32_t bullet_indent;                  /* u: hanging indent of details */
	const char *bullet;                     /* "•" */
	/* publications */
	int pub_label;                          /* 0: venue tag, 1: number */
	int32_t pub_label_width;                /* u: label column */
	int32_t pub_gap;                        /* u: between publications */
	/* news */
	int32_t news_date_width;                /* u */
	/* text */
	int text_align;                         /* ST_JUSTIFY / ST_LEFT */
	int hyphenate;                          /* 0/1 */
	int32_t para_gap;                       /* u */
	/* footer */
	int footer;                             /* 0/1 */
	int32_t size_footer;
	/* words: `locale.KEY: value` overrides of the locale's strings (and
	   the older keys entry.months, entry.present, entry.date_separator,
	   publications.badge_prefix, footer.text, footer.updated), in order;
	   main applies them with locale_set */
	style_word_t *words;
	int nwords;
	/* where the layout came from (for messages) */
	const char *file;
} style_t;

/* Load a layout by name (searched as <dir>/<name>.yaml in dirs, a
 * NULL-terminated list) or by path (contains '/' or ends in .yaml; taken
 * relative to the folder of `where`, the file that names it, or to the
 * working directory when where is NULL: the command line). where, line,
 * col also locate messages about the name. `extends: PATH` is relative to
 * the extending layout. STYLE_CONFINED (--untrusted): names only, never
 * paths, so every layout comes from dirs. A file most of whose top-level
 * keys are not layout keys is refused with one error that quotes none of
 * them. */
enum { STYLE_CONFINED = 1 };
style_t *style_open(const char *name_or_path, const char *where, int line, int col,
                    const char *const *dirs, unsigned flags, errs_t *e);
/* style_open from the command line, not confined. */
style_t *style_load(const char *name_or_path, const char *const *dirs, errs_t *e);
/* After the overrides: every length fits the page (a hanging indent or a
 * label column at most half the text width, a gap at most half the text
 * height, a rule at most 20 pt), each error located where the value was
 * set. 0 or -1. */
int style_check(const style_t *s, errs_t *e);
/* The same from memory: data[0..len) is the layout named file (its
 * `extends` is searched in dirs). */
style_t *style_load_mem(const char *file, const char *data, size_t len,
                        const char *const *dirs, errs_t *e);
/* Apply one "key=value" override (from --set or the profile's layout map);
 * where/line/col locate it for messages. */
int style_set(style_t *s, const char *kv, const char *where, int line, int col, errs_t *e);
void style_free(style_t *s);
/* `vita layouts`: name and description of every layout in dirs. */
void style_list(const char *const *dirs, FILE *out);

#endif
