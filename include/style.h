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
/* where an entry's dates (and location) go */
enum { DATES_RIGHT, DATES_STACKED, DATES_INLINE, DATES_LEFT };
/* the line that marks a section title */
enum { RULE_FULL, RULE_PARTIAL, RULE_BAR, RULE_NONE };
enum { SIDE_NONE, SIDE_LEFT, SIDE_RIGHT };
enum { SHAPE_SQUARE, SHAPE_ROUNDED, SHAPE_CIRCLE };
/* OpenType features, in the order of font.h's FONT_FEAT_* bits */
enum { STYLE_FEAT_SMCP = 1, STYLE_FEAT_C2SC = 2, STYLE_FEAT_ONUM = 4, STYLE_FEAT_LNUM = 8,
       STYLE_FEAT_TNUM = 16, STYLE_FEAT_PNUM = 32 };
enum { STYLE_FIG_DEFAULT, STYLE_FIG_OLDSTYLE, STYLE_FIG_LINING, STYLE_FIG_TABULAR,
       STYLE_FIG_OLDSTYLE_TABULAR, STYLE_FIG_LINING_TABULAR };

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
	const char *font_body, *font_heading, *font_icons;
	const char *lang;                       /* default text language: "en" */
	/* sizes (u) and leading (permille of the size: baseline to baseline) */
	int32_t size_body, size_small, size_name, size_native, size_headline, size_section;
	int32_t leading;                        /* permille, e.g. 1250 */
	int32_t leading_cjk;                    /* permille, for paragraphs mostly in CJK */
	int32_t leading_tall;                   /* permille, for text mostly in Myanmar, Tibetan */
	/* colours 0xRRGGBB */
	uint32_t c_text, c_muted, c_accent, c_link, c_rule, c_highlight, c_badge, c_name;
	/* header */
	int header_align;                       /* ST_LEFT / ST_CENTER */
	int32_t header_gap;                     /* u: space after the header */
	const char *contact_sep;                /* between contact items, e.g. "  ·  " */
	int name_style;                         /* FONT_* of the name */
	int headline_style;                     /* FONT_* of the headline */
	uint32_t c_headline;
	int icons;                              /* 1: an icon before each contact */
	const char *icon_map;                   /* "email=f0e0,phone=f095,..." */
	int32_t photo_h, photo_max_w, photo_gap;/* u */
	int photo_shape;                        /* SHAPE_* */
	int photo_in_sidebar;                   /* 1: the photo heads the sidebar */
	int contacts_in_sidebar;                /* 1: the contacts go to the sidebar */
	/* section titles */
	int section_upper;                      /* 1: set titles in capitals */
	int section_small_caps;                 /* 1: lower-case letters as small capitals */
	/* OpenType features by role: STYLE_FEAT_* bits (the same as font.h's
	   FONT_FEAT_*), figures (STYLE_FIG_*), tracking in 1/1000 em */
	unsigned section_feats, name_feats, text_feats;
	int section_figures, text_figures, date_figures;
	int32_t section_track, name_track;
	int32_t name_min_scale;                 /* permille: the name shrinks to fit its line, not below */
	int section_style;                      /* FONT_* style of the title */
	int32_t section_before, section_after;  /* u */
	int32_t section_rule;                   /* u: rule thickness (0: none) */
	int section_rule_style;                 /* RULE_* */
	int32_t section_rule_offset;            /* permille of the title size below the baseline */
	/* entries */
	int dates;                              /* DATES_* */
	int stack_loc_first;                    /* 1: stacked column: location, then dates */
	int32_t date_width;                     /* u: the left date column (dates: left) */
	int32_t date_max;                       /* permille of the measure a right date column may take */
	int32_t entry_gap, award_gap;           /* u: between entries, between awards */
	int32_t date_gap;                       /* u: min gap between text and the date column */
	const char *location_sep;               /* between the head and the location */
	const char *link_sep;                   /* between links */
	int32_t bullet_indent;                  /* u: hanging indent of details */
	int32_t bullet_offset;                  /* u: left edge of the bullet sign */
	const char *bullet;                     /* "•" */
	int title_style;                        /* FONT_* of an entry's first line */
	int second_style;                       /* FONT_* of its second line */
	int award_style;                        /* FONT_* of an award's first line */
	int keep_short;                         /* an entry of at most this many lines is never split */
	/* publications */
	int pub_label;                          /* 0: venue tag, 1: number */
	int32_t pub_label_width;                /* u: label column */
	int pub_label_fit;                      /* 1: the column grows to its longest label */
	int32_t pub_label_gap;                  /* u: space between a label and the text */
	int32_t pub_gap;                        /* u: between publications */
	int pub_title_style;                    /* FONT_* of a publication's title */
	int32_t group_before, group_after;      /* u: around a group heading */
	int32_t badge_size;                     /* permille of sizes.small */
	int32_t badge_stroke;                   /* u */
	int32_t badge_pad;                      /* u: space inside the frame above and below */
	int32_t badge_radius;                   /* u */
	const char *extra_sep;                  /* between links, badges and the note */
	/* news */
	int32_t news_date_width;                /* u */
	int32_t news_gap;                       /* u */
	/* lists */
	const char *list_sep;                   /* between inline items */
	int list_chips;                         /* 1: inline items in rounded frames */
	const char *chip_sep;                   /* between chips */
	int32_t chip_pad, chip_radius, chip_leading; /* u */
	uint32_t c_chip;
	/* text */
	int text_align;                         /* ST_JUSTIFY / ST_LEFT */
	int hyphenate;                          /* 0/1 */
	int hyphen_limit;                       /* most hyphenated lines in a row (0: any) */
	int32_t para_gap;                       /* u */
	int32_t loose_stretch, loose_shrink;    /* permille: warn past these ratios */
	/* sidebar */
	int sidebar;                            /* SIDE_* */
	int32_t sidebar_width, sidebar_gap;     /* u */
	int sidebar_align;                      /* ST_*: paragraphs and details in the sidebar */
	int sidebar_first;                      /* 0: every page; 1: the first only; 2: auto,
	                                           the pages the sidebar's sections fill */
	int sidebar_read_first;                 /* 1: the sidebar is read before the main column */
	const char *sidebar_sections;           /* "type:list,Skills,..." */
	/* fit */
	int fit_pages;                          /* 0: no target */
	int fit_no_short;                       /* 1: avoid a nearly empty last page */
	int32_t fit_min_leading;                /* permille */
	int32_t fit_min_scale;                  /* permille: sizes and gaps */
	/* footer */
	int footer;                             /* 0/1 */
	int32_t size_footer;
	/* words: `locale.KEY: value` overrides of the locale's strings (and
	   the older keys entry.months, entry.present, entry.date_separator,
	   publications.badge_prefix, footer.text, footer.updated), in order;
	   main applies them with locale_set */
	style_word_t *words;
	int nwords;
	int32_t footer_offset;                  /* u: footer baseline below the bottom margin */
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
/* A copy of s to apply overrides to (batch parses a layout once for many
 * CVs). It borrows s's strings: free it before s. */
style_t *style_dup(const style_t *s);
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
/* `vita layouts --keys`: every key with its type, default and meaning, as
 * Markdown (docs/layouts.md is this text below its marker). */
void style_keys(FILE *out);
/* Where key `path` got its value (a layout file or an override), for
 * messages; -1 (and the layout's file, line 0) when it has its default. */
int style_key_at(const style_t *s, const char *path, const char **file, int *line, int *col);

#endif
