/* style: layouts/<name>.yaml -> style_t.
 *
 * One table (keys[]) names every layout key with its type and field; the
 * YAML loader flattens nested maps into dotted paths ("page.margin.top")
 * and feeds each value through style_set, exactly as `--set` does. Unknown
 * keys get a "did you mean". Call: style_load(name, dirs, e), then
 * style_set(...) for each override, style_free when done.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena.h"
#include "buf.h"
#include "datadir.h"
#include "file.h"
#include "style.h"
#include "suggest.h"
#include "utf8.h"
#include "ydoc.h"
#include "deps.h"

enum { T_LEN, T_PERMILLE, T_RATIO, T_INT, T_COLOR, T_STR, T_BOOL, T_ENUM, T_PAGE, T_WORD,
       T_FEATS, T_TRACK };

/* OpenType feature tags a layout may name (T_FEATS), as STYLE_FEAT_* bits. */
static const char *const feat_names[] = {"smcp", "c2sc", "onum", "lnum", "tnum", "pnum"};
#define NFEATS (sizeof(feat_names) / sizeof(feat_names[0]))
#define FIGURES "default|oldstyle|lining|tabular|oldstyle-tabular|lining-tabular"

/* Upper bounds of a T_LEN key (bounds[] below the key table), checked by
 * style_check once every override is in (so a bigger page may come after
 * a bigger indent): B_DOWN (the default) at most half the text height,
 * B_ACROSS at most half the text width, B_RULE at most 20 pt. page.* and
 * sizes.* have their own ranges (len_bounds). */
enum { B_DOWN, B_ACROSS, B_RULE, B_WIDTH };   /* B_WIDTH: at most the text width */

typedef struct key {
	const char *path;
	int type;
	size_t off;
	const char *choices;   /* T_ENUM: "a|b|c" -> 0, 1, 2; T_WORD: the locale key */
	const char *help;      /* what it means, for `vita layouts --keys` */
} key_t_;

#define F(f) offsetof(style_t, f)
/* FONT_* styles; light and light-italic are FONT_LIGHT (4) and FONT_LIGHT_ITALIC (6) */
#define STYLES "regular|bold|italic|bold-italic|light|light-italic"
static const key_t_ keys[] = {
	{"page.size", T_PAGE, 0, "a4|letter", "paper size (sets page.width and page.height)"},
	{"page.width", T_LEN, F(page_w), NULL, "page width"},
	{"page.height", T_LEN, F(page_h), NULL, "page height"},
	{"page.margin.top", T_LEN, F(margin_top), NULL, "top margin"},
	{"page.margin.bottom", T_LEN, F(margin_bottom), NULL, "bottom margin (the footer sits in it)"},
	{"page.margin.left", T_LEN, F(margin_left), NULL, "left margin"},
	{"page.margin.right", T_LEN, F(margin_right), NULL, "right margin"},
	{"fonts.body", T_STR, F(font_body), NULL, "font chain (fonts/NAME.yaml) or families for the text; \"Lato + serif\" puts families "
	 "in front of a chain (\"Lato + ...\": of the layout's), leaving out any not installed"},
	{"fonts.heading", T_STR, F(font_heading), NULL, "font chain for the name and section titles "
	 "(as fonts.body)"},
	{"fonts.icons", T_STR, F(font_icons), NULL,
	 "font chain for contact icons (header.icons), e.g. icons (fonts/icons.yaml: Font Awesome)"},
	{"lang", T_STR, F(lang), NULL, "default language of the text (hyphenation, CJK faces)"},
	{"sizes.body", T_LEN, F(size_body), NULL, "body text size"},
	{"sizes.small", T_LEN, F(size_small), NULL, "size of contacts, links, labels, badges"},
	{"sizes.name", T_LEN, F(size_name), NULL, "size of the name"},
	{"sizes.native", T_LEN, F(size_native), NULL, "size of the native name (0: as the name)"},
	{"sizes.headline", T_LEN, F(size_headline), NULL, "size of the headline under the name"},
	{"sizes.section", T_LEN, F(size_section), NULL, "size of section titles"},
	{"sizes.footer", T_LEN, F(size_footer), NULL, "size of the footer"},
	{"leading", T_PERMILLE, F(leading), NULL, "baseline to baseline, as a multiple of the size"},
	{"leading_cjk", T_PERMILLE, F(leading_cjk), NULL,
	 "the same for body text mostly in Chinese, Japanese or Korean (W3C clreq, jlreq: 1.5 to 2)"},
	{"leading_tall", T_PERMILLE, F(leading_tall), NULL,
	 "the same for any line mostly in Myanmar or Tibetan, body text or not (their stacks reach far above and below: a header tagline touched the line under it)"},
	{"colors.text", T_COLOR, F(c_text), NULL, "text"},
	{"colors.muted", T_COLOR, F(c_muted), NULL, "dates, locations, separators, secondary text"},
	{"colors.accent", T_COLOR, F(c_accent), NULL, "section titles and venue labels"},
	{"colors.link", T_COLOR, F(c_link), NULL, "links"},
	{"colors.rule", T_COLOR, F(c_rule), NULL, "section rules and bars"},
	{"colors.highlight", T_COLOR, F(c_highlight), NULL, "a publication's note (award, oral)"},
	{"colors.badge", T_COLOR, F(c_badge), NULL, "artifact badges and chips"},
	{"colors.name", T_COLOR, F(c_name), NULL, "the name"},
	{"colors.chip", T_COLOR, F(c_chip), NULL, "chip frames"},
	{"colors.headline", T_COLOR, F(c_headline), NULL, "the headline under the name"},
	{"header.align", T_ENUM, F(header_align), "left|center", "alignment of the header"},
	{"header.gap", T_LEN, F(header_gap), NULL, "space after the header"},
	{"header.separator", T_STR, F(contact_sep), NULL, "between contact items (spaces are kept)"},
	{"header.name_style", T_ENUM, F(name_style), STYLES, "weight and slant of the name"},
	{"header.name_features", T_FEATS, F(name_feats), NULL,
	 "OpenType features of the name (as section.features: smcp c2sc for small capitals)"},
	{"header.name_tracking", T_TRACK, F(name_track), NULL,
	 "letter-spacing of the name in 1/1000 em"},
	{"header.name_min_scale", T_RATIO, F(name_min_scale), NULL,
	 "a name wider than its line is set smaller, down to this part of sizes.name (and "
	 "sizes.native); wider still, it wraps between its words, said once"},
	{"header.headline_style", T_ENUM, F(headline_style), STYLES, "weight and slant of the headline"},
	{"header.icons", T_BOOL, F(icons), NULL,
	 "an icon before each contact (drawn from fonts.icons; text extraction reads the contact only)"},
	{"header.icon_map", T_STR, F(icon_map), NULL,
	 "contact kind = icon code point (hex) in fonts.icons; \"link\" for the profile's links"},
	{"header.contacts", T_ENUM, F(contacts_in_sidebar), "header|sidebar",
	 "contacts in the header row, or one per line at the top of the sidebar"},
	{"header.photo.place", T_ENUM, F(photo_in_sidebar), "header|sidebar",
	 "photo beside the header, or at the top of the sidebar"},
	{"header.photo.height", T_LEN, F(photo_h), NULL, "photo height"},
	{"header.photo.max_width", T_LEN, F(photo_max_w), NULL, "widest photo (a wider one is cropped at the sides, centred)"},
	{"header.photo.gap", T_LEN, F(photo_gap), NULL, "space between the photo and the header text"},
	{"header.photo.shape", T_ENUM, F(photo_shape), "square|rounded|circle", "photo outline, clipped: a circle is a square box of the height, cropped from the photo's centre; square and rounded keep the height"},
	{"section.uppercase", T_BOOL, F(section_upper), NULL, "titles in capitals, as the title's language writes them "
	 "(Unicode's full case mapping: HỌC VẤN, STRASSE; Greek without accents, ΕΚΠΑΙΔΕΥΣΗ; "
	 "Turkish and Azeri İ; Georgian in Mtavruli only in Georgian); a title is in the "
	 "language of its translation, else the profile's lang, whatever --lang says "
	 "(docs/locales.md)"},
	{"section.small_caps", T_BOOL, F(section_small_caps), NULL,
	 "lower-case letters of titles as small capitals: the font's (OpenType smcp), or "
	 "capitals at 80% where the face has none (said once)"},
	{"section.features", T_FEATS, F(section_feats), NULL,
	 "OpenType features of titles: any of smcp (small capitals), c2sc (capitals as small "
	 "capitals), onum, lnum, tnum, pnum, separated by spaces or commas"},
	{"section.figures", T_ENUM, F(section_figures), FIGURES,
	 "figures in titles: the font's default, oldstyle (onum), lining (lnum), tabular "
	 "(tnum: all one width), or both"},
	{"section.tracking", T_TRACK, F(section_track), NULL,
	 "letter-spacing of titles in 1/1000 em (capitals and small capitals want 50 to 80), "
	 "between the glyphs, not after the last"},
	{"section.style", T_ENUM, F(section_style), STYLES, "weight and slant of titles"},
	{"section.before", T_LEN, F(section_before), NULL, "space above a title"},
	{"section.after", T_LEN, F(section_after), NULL, "space below a title"},
	{"section.rule", T_LEN, F(section_rule), NULL, "thickness of the title's rule or bar (0: none)"},
	{"section.rule_style", T_ENUM, F(section_rule_style), "full|partial|bar|none",
	 "rule under the title across the column; after the title on its line; a bar in "
	 "the date column (entry.dates: left); none"},
	{"section.rule_offset", T_RATIO, F(section_rule_offset), NULL,
	 "rule below the baseline (full) or above it (partial, bar), times the title size"},
	{"entry.date_figures", T_ENUM, F(date_figures), FIGURES,
	 "figures of the date column (tabular: the years line up)"},
	{"entry.dates", T_ENUM, F(dates), "right|stacked|inline|left",
	 "dates flush right on the title line; dates and location stacked in a right column; "
	 "inline after the second line; in a left date column"},
	{"entry.stack", T_ENUM, F(stack_loc_first), "dates-first|location-first",
	 "order of the stacked right column (entry.dates: stacked)"},
	{"entry.date_width", T_LEN, F(date_width), NULL,
	 "width of the left date column (entry.dates: left); labels and news dates use it too"},
	{"entry.date_max", T_RATIO, F(date_max), NULL,
	 "widest right date column, as a part of the measure (longer dates wrap)"},
	{"entry.gap", T_LEN, F(entry_gap), NULL, "space between entries"},
	{"entry.award_gap", T_LEN, F(award_gap), NULL, "space between entries of an awards section"},
	{"entry.date_gap", T_LEN, F(date_gap), NULL, "least space between the text and the date column"},
	{"entry.months", T_WORD, 0, "months_short",
	 "twelve month names, comma-separated (by default the locale's)"},
	{"entry.present", T_WORD, 0, "present",
	 "the word for an open end date (by default the locale's)"},
	{"entry.date_separator", T_WORD, 0, "range",
	 "between start and end dates (by default the locale's range pattern)"},
	{"entry.location_separator", T_STR, F(location_sep), NULL,
	 "between the head line and the location (entry.dates: right or inline)"},
	{"entry.link_separator", T_STR, F(link_sep), NULL, "between links"},
	{"entry.bullet", T_STR, F(bullet), NULL, "sign before each detail"},
	{"entry.number", T_WORD, 0, "number",
	 "a numbered list's marker, {n} the number in the locale's digits: \"{n}.\", \"{n})\", "
	 "\"{n}．\" (by default the locale's)"},
	{"entry.bullet_indent", T_LEN, F(bullet_indent), NULL, "hanging indent of details"},
	{"entry.bullet_offset", T_LEN, F(bullet_offset), NULL, "left edge of the bullet sign"},
	{"entry.title_style", T_ENUM, F(title_style), STYLES, "weight and slant of an entry's first line"},
	{"entry.second_style", T_ENUM, F(second_style), STYLES,
	 "weight and slant of an entry's second line (the organisation or position)"},
	{"entry.award_style", T_ENUM, F(award_style), STYLES,
	 "weight and slant of an award's first line (regular keeps a list of awards from "
	 "becoming a wall of bold)"},
	{"keep.short_entry", T_INT, F(keep_short), NULL,
	 "an entry or publication of at most this many lines is never split across pages"},
	{"publications.label", T_ENUM, F(pub_label), "venue|number", "what the label column shows first"},
	{"publications.label_width", T_LEN, F(pub_label_width), NULL, "width of the label column"},
	{"publications.label_fit", T_BOOL, F(pub_label_fit), NULL,
	 "the label column grows to fit its longest label (up to a quarter of the measure; "
	 "longer labels wrap)"},
	{"publications.label_gap", T_LEN, F(pub_label_gap), NULL, "space between a label and the text"},
	{"publications.gap", T_LEN, F(pub_gap), NULL, "space between publications"},
	{"publications.title_style", T_ENUM, F(pub_title_style), STYLES, "weight and slant of titles"},
	{"publications.group_before", T_LEN, F(group_before), NULL, "space above a group heading"},
	{"publications.group_after", T_LEN, F(group_after), NULL, "space below a group heading"},
	{"publications.badge_prefix", T_WORD, 0, "badges",
	 "text before artifact badges (by default the locale's)"},
	{"publications.number", T_WORD, 0, "pub_number",
	 "a publication's number in the label column: \"[{n}]\", \"{n}.\" (by default the locale's)"},
	{"publications.badge.size", T_RATIO, F(badge_size), NULL, "badge text size, times sizes.small"},
	{"publications.badge.stroke", T_LEN, F(badge_stroke), NULL, "badge frame line width"},
	{"publications.badge.pad", T_LEN, F(badge_pad), NULL,
	 "space inside a badge frame above the capitals and below the baseline"},
	{"publications.badge.radius", T_LEN, F(badge_radius), NULL, "badge frame corners"},
	{"publications.separator", T_STR, F(extra_sep), NULL, "between links, badges and the note"},
	{"news.date_width", T_LEN, F(news_date_width), NULL, "width of the news date column"},
	{"news.gap", T_LEN, F(news_gap), NULL, "space between news items"},
	{"list.separator", T_STR, F(list_sep), NULL, "between the items of an inline list"},
	{"list.chips", T_BOOL, F(list_chips), NULL,
	 "inline list items as chips: small type in rounded frames (colors.chip)"},
	{"list.chip_separator", T_STR, F(chip_sep), NULL, "between chips"},
	{"list.chip_pad", T_LEN, F(chip_pad), NULL, "space inside a chip above and below"},
	{"list.chip_radius", T_LEN, F(chip_radius), NULL, "chip corners"},
	{"list.chip_leading", T_LEN, F(chip_leading), NULL, "extra space between lines of chips"},
	{"text.align", T_ENUM, F(text_align), "left|center|right|justify", "alignment of paragraphs and details"},
	{"text.figures", T_ENUM, F(text_figures), FIGURES,
	 "figures in the body text (entries, publications, paragraphs): oldstyle figures sit "
	 "in running text like lower-case letters"},
	{"text.features", T_FEATS, F(text_feats), NULL, "OpenType features of the body text"},
	{"text.hyphenate", T_BOOL, F(hyphenate), NULL, "hyphenate (when patterns are installed)"},
	{"text.hyphen_limit", T_INT, F(hyphen_limit), NULL,
	 "at most this many hyphenated lines in a row (0, or more than 8: any); two in a row "
	 "already "
	 "cost TeX's \\doublehyphendemerits"},
	{"text.gap", T_LEN, F(para_gap), NULL, "space between paragraphs"},
	{"text.loose_stretch", T_RATIO, F(loose_stretch), NULL,
	 "warn about a justified line whose spaces stretch past this ratio"},
	{"text.loose_shrink", T_RATIO, F(loose_shrink), NULL,
	 "warn about a justified line whose spaces shrink past this ratio"},
	{"sidebar.side", T_ENUM, F(sidebar), "none|left|right", "a sidebar column, and on which side"},
	{"sidebar.width", T_LEN, F(sidebar_width), NULL, "sidebar width"},
	{"sidebar.align", T_ENUM, F(sidebar_align), "left|center|right|justify",
	 "alignment of paragraphs and details in the sidebar (a narrow column sets ragged)"},
	{"sidebar.gap", T_LEN, F(sidebar_gap), NULL, "space between the sidebar and the main column"},
	{"sidebar.pages", T_ENUM, F(sidebar_first), "all|first|auto",
	 "the sidebar column on every page; on the first only (the main column then "
	 "widens from the first section that starts on page 2); or on the pages its sections "
	 "fill (auto: the main column widens from the first section that starts after them)"},
	{"sidebar.read", T_ENUM, F(sidebar_read_first), "after|before",
	 "reading order (structure tree, content order, screen readers): the sidebar after "
	 "the whole main column, or before it"},
	{"sidebar.sections", T_STR, F(sidebar_sections), NULL,
	 "comma-separated section types (list, text, news, awards, ...) or titles that go to "
	 "the sidebar, in their order in the profile"},
	{"fit.pages", T_INT, F(fit_pages), NULL,
	 "at most this many pages (0: any): leading, gaps and sizes shrink within the limits below"},
	{"fit.no_short_last", T_BOOL, F(fit_no_short), NULL,
	 "tighten to avoid a last page holding less than a fifth of a page"},
	{"fit.min_leading", T_RATIO, F(fit_min_leading), NULL, "fit never sets leading below this"},
	{"fit.min_scale", T_RATIO, F(fit_min_scale), NULL,
	 "fit never scales sizes and gaps below this part of their value"},
	{"footer.show", T_BOOL, F(footer), NULL, "a footer on every page"},
	{"footer.text", T_WORD, 0, "footer",
	 "right footer: {name} {page} {pages} {date} (by default the locale's)"},
	{"footer.updated", T_WORD, 0, "updated",
	 "left footer, \"\" for none (by default the locale's)"},
	{"footer.offset", T_LEN, F(footer_offset), NULL, "footer baseline below the bottom margin"},
};
#undef F
#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

/* The lengths of keys[] that are not B_DOWN. */
static const struct { const char *path; int bound; } bounds[] = {
	{"entry.date_gap", B_ACROSS},
	{"entry.bullet_indent", B_ACROSS},
	{"publications.label_width", B_ACROSS},
	{"news.date_width", B_ACROSS},
	{"section.rule", B_RULE},
	{"entry.date_width", B_ACROSS},
	{"entry.bullet_offset", B_ACROSS},
	{"publications.label_gap", B_ACROSS},
	{"header.photo.max_width", B_ACROSS},
	{"sidebar.gap", B_ACROSS},
	{"sidebar.width", B_WIDTH},
	{"publications.badge.stroke", B_RULE},
	{"publications.badge.pad", B_RULE},
	{"publications.badge.radius", B_RULE},
	{"list.chip_pad", B_RULE},
	{"list.chip_radius", B_RULE},
	{"list.chip_leading", B_RULE},
};

static int key_bound(const key_t_ *k)
{
	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
		if (!strcmp(bounds[i].path, k->path))
			return bounds[i].bound;
	return B_DOWN;
}

typedef struct from {        /* where a layout or a value was named */
	const char *file;        /* NULL: the command line */
	int line, col;
} from_t;

#define STYLE_MAX_EXTENDS 16

typedef struct style_box {
	style_t s;             /* first: a style_t* is a style_box* */
	arena_t *a;
	int confined;          /* STYLE_CONFINED: names only, from dirs */
	const char *chain[STYLE_MAX_EXTENDS + 1];  /* files being loaded (extends) */
	int depth;
	from_t at[NKEYS];      /* where each key was last set (file NULL: never) */
} style_box_t;

static void style_defaults(style_t *s)
{
	s->page_w = 595276; s->page_h = 841890;
	s->margin_top = s->margin_bottom = 56693;
	s->margin_left = s->margin_right = 56693;
	s->font_body = s->font_heading = "serif";
	s->lang = "en";
	s->size_body = 10000; s->size_small = 8500; s->size_name = 22000;
	s->size_native = 0; s->size_headline = 11000; s->size_section = 11500;
	s->size_footer = 8000;
	s->leading = 1250;
	s->leading_cjk = 1600;   /* W3C clreq: 1.5 to 2 for body text */
	s->leading_tall = 1800;  /* Noto Serif Myanmar's own: 2.5 em */
	s->c_text = 0x1a1a1a; s->c_muted = 0x555555; s->c_accent = 0x1f4e79;
	s->c_link = 0x1f4e79; s->c_rule = 0x1f4e79; s->c_highlight = 0x8b1a1a;
	s->c_badge = 0x1f4e79; s->c_name = 0x1a1a1a;
	s->name_style = 1; /* bold */
	s->c_headline = 0x555555; s->font_icons = "icons";
	s->icon_map = "email=f0e0,phone=f095,website=f0ac,orcid=f2c3,github=f09b,scholar=f19d,"
	              "linkedin=f0e1,twitter=f099,link=f0c1";
	s->photo_h = 78000; s->photo_max_w = 100000; s->photo_gap = 14000;
	s->section_rule_style = RULE_FULL; s->section_rule_offset = 300;
	s->dates = DATES_RIGHT; s->date_width = 70000; s->date_max = 333;
	s->award_gap = 2500; s->location_sep = "  "; s->link_sep = " / ";
	s->bullet_offset = 2750; s->title_style = 1; s->keep_short = 7;
	s->second_style = 2; s->award_style = 1; s->pub_title_style = 1;
	s->chip_sep = " "; s->chip_pad = 1500; s->chip_radius = 3000; s->chip_leading = 2000;
	s->c_chip = 0x8c96a0;
	s->pub_label_gap = 4000; s->group_before = 7500; s->group_after = 2500;
	s->badge_size = 880; s->badge_stroke = 400; s->badge_pad = 1000; s->extra_sep = " \u00b7 ";
	s->news_gap = 1667; s->list_sep = "  \u00b7  ";
	s->loose_stretch = 2000; s->loose_shrink = 1000;
	s->sidebar_width = 160000; s->sidebar_gap = 18000; s->sidebar_sections = "";
	s->fit_min_leading = 1150; s->fit_min_scale = 900;
	s->name_min_scale = 800;
	s->footer_offset = 28346;
	s->header_align = ST_CENTER;
	s->header_gap = 10000;
	s->contact_sep = "  \u00b7  ";
	s->section_upper = 0; s->section_style = 1; /* "bold": FONT_BOLD */
	s->section_before = 12000; s->section_after = 5000; s->section_rule = 500;
	s->entry_gap = 5000; s->date_gap = 12000;
	s->bullet = "\u2022"; s->bullet_indent = 11000;
	s->pub_label = 0; s->pub_label_width = 62000; s->pub_gap = 5000;
	s->news_date_width = 62000;
	s->text_align = ST_JUSTIFY; s->hyphenate = 1; s->hyphen_limit = 2; s->para_gap = 4000;
	s->footer = 1;
}

/* keys[] by a hash of their paths (open addressing, index + 1; filled in
 * keys[] order, so a path listed twice finds its first entry, as a scan
 * would): a layout sets a hundred keys or more, each a scan of keys[]. */
#define KEY_SLOTS 1024
static int16_t key_slot[KEY_SLOTS];
static int key_slots_made;

static unsigned key_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return (h ^ h >> 15) & (KEY_SLOTS - 1);
}

static const key_t_ *key_find(const char *path, size_t n)
{
	for (int i = 0; !key_slots_made && i < NKEYS; i++) {
		unsigned h = key_hash(keys[i].path, strlen(keys[i].path));
		while (key_slot[h])
			h = (h + 1) & (KEY_SLOTS - 1);
		key_slot[h] = (int16_t)(i + 1);
	}
	key_slots_made = 1;
	for (unsigned h = key_hash(path, n); key_slot[h]; h = (h + 1) & (KEY_SLOTS - 1)) {
		const key_t_ *k = &keys[key_slot[h] - 1];
		if (!strncmp(k->path, path, n) && k->path[n] == '\0')
			return k;
	}
	return NULL;
}

static const char *key_suggest(const char *path)
{
	const char *best = NULL;
	int bd = 4;
	for (int i = 0; i < NKEYS; i++) {
		int d = suggest_distance(path, keys[i].path);
		const char *dot = strrchr(keys[i].path, '.');
		const char *pd = strrchr(path, '.');
		if (dot && pd && !strcmp(dot, pd) && d > 2)
			d = 3; /* same last component, other group */
		if (d < bd) {
			bd = d;
			best = keys[i].path;
		}
	}
	return best;
}

/* "10", "10.5", "10pt", "2mm", "1cm", "0.5in" -> u */
static int parse_len(const char *v, int32_t *out)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v)
		return -1;
	while (*end == ' ')
		end++;
	double k = 1000.0;
	if (!*end || !strcmp(end, "pt")) k = 1000.0;
	else if (!strcmp(end, "mm")) k = 72000.0 / 25.4;
	else if (!strcmp(end, "cm")) k = 720000.0 / 25.4;
	else if (!strcmp(end, "in")) k = 72000.0;
	else return -1;
	x *= k;
	if (!(x >= 0 && x < 1e9))
		return -1;
	*out = (int32_t)lround(x);
	return 0;
}

static int parse_color(const char *v, uint32_t *out)
{
	if (v[0] != '#' || strlen(v) != 7)
		return -1;
	for (int i = 1; i < 7; i++)
		if (!isxdigit((unsigned char)v[i]))
			return -1;
	*out = (uint32_t)strtoul(v + 1, NULL, 16);
	return 0;
}

static int parse_enum(const char *choices, const char *v)
{
	int idx = 0;
	size_t n = strlen(v);
	for (const char *p = choices; *p; idx++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && !strncmp(p, v, n))
			return idx;
		if (!bar)
			break;
		p = bar + 1;
	}
	return -1;
}

/* Bounds beyond "a length": a font size of 0 draws nothing and a page
 * beyond PDF's 14,400 pt cannot be written. */
static int len_bounds(const key_t_ *k, int32_t *lo, int32_t *hi, const char **what)
{
	if (!strncmp(k->path, "sizes.", 6)) {
		*lo = 1000, *hi = 200000, *what = "a font size from 1 to 200 (points)";
		return 1;
	}
	if (!strcmp(k->path, "page.width") || !strcmp(k->path, "page.height")) {
		*lo = 72000, *hi = 14400000, *what = "a page length from 72 to 14400 (points)";
		return 1;
	}
	return 0;
}

static int set_len(const key_t_ *k, int32_t *out, const char *v,
                   const char *where, int line, int col, errs_t *e)
{
	int32_t x, lo, hi;
	const char *what;
	if (parse_len(v, &x))
		return err_at(e, where, line, col,
		              "'%s' expects a length (10, 10.5pt, 2mm, 1cm, 0.5in), got '%s'",
		              k->path, v);
	if (!len_bounds(k, &lo, &hi, &what))
		lo = 0, hi = 14400000, what = "a length from 0 to 14400 (points)";
	if (x < lo || x > hi)
		return err_at(e, where, line, col, "'%s' expects %s, got '%s'", k->path, what, v);
	*out = x;
	return 0;
}

static int set_value(style_box_t *b, const key_t_ *k, const char *v,
                     const char *where, int line, int col, errs_t *e)
{
	char *base = (char *)&b->s;
	long bad = utf8_invalid_at(v, strlen(v));
	if (bad >= 0)
		return err_at(e, where, line, col, "'%s': invalid UTF-8 at byte %ld of the value",
		              k->path, bad);
	switch (k->type) {
	case T_LEN:
		return set_len(k, (int32_t *)(base + k->off), v, where, line, col, e);
	case T_PERMILLE: {
		char *end;
		double x = strtod(v, &end);
		if (end == v || *end || !(x >= 0.5 && x <= 5))
			return err_at(e, where, line, col,
			              "'%s' expects a number from 0.5 to 5 such as 1.25, got '%s'",
			              k->path, v);
		*(int32_t *)(base + k->off) = (int32_t)lround(x * 1000);
		return 0;
	}
	case T_RATIO: {
		char *end;
		double x = strtod(v, &end);
		if (end == v || *end || !(x >= 0 && x <= 10))
			return err_at(e, where, line, col,
			              "'%s' expects a number from 0 to 10 such as 0.3, got '%s'", k->path, v);
		*(int32_t *)(base + k->off) = (int32_t)lround(x * 1000);
		return 0;
	}
	case T_INT: {
		char *end;
		long x = strtol(v, &end, 10);
		if (end == v || *end || x < 0 || x > 1000)
			return err_at(e, where, line, col,
			              "'%s' expects a whole number from 0 to 1000, got '%s'", k->path, v);
		*(int *)(base + k->off) = (int)x;
		return 0;
	}
	case T_COLOR:
		if (parse_color(v, (uint32_t *)(base + k->off)))
			return err_at(e, where, line, col, "'%s' expects a colour \"#rrggbb\", got '%s'",
			              k->path, v);
		return 0;
	case T_STR:
		*(const char **)(base + k->off) = arena_strdup(b->a, v);
		return 0;
	case T_BOOL:
		if (!strcmp(v, "true") || !strcmp(v, "yes"))
			*(int *)(base + k->off) = 1;
		else if (!strcmp(v, "false") || !strcmp(v, "no"))
			*(int *)(base + k->off) = 0;
		else
			return err_at(e, where, line, col, "'%s' expects true or false, got '%s'",
			              k->path, v);
		return 0;
	case T_ENUM: {
		int x = parse_enum(k->choices, v);
		if (x < 0)
			return err_at(e, where, line, col, "'%s' expects one of %s, got '%s'",
			              k->path, k->choices, v);
		if (k->off == offsetof(style_t, text_align) || k->off == offsetof(style_t, sidebar_align))
			x = (int[]){ST_LEFT, ST_CENTER, ST_RIGHT, ST_JUSTIFY}[x];
		if (k->off == offsetof(style_t, header_align))
			x = x ? ST_CENTER : ST_LEFT;
		if (!strcmp(k->choices, STYLES) && x == 5)
			x = 6; /* light-italic: FONT_LIGHT | FONT_ITALIC */
		*(int *)(base + k->off) = x;
		return 0;
	}
	case T_WORD: /* handled by set_path */
		return 0;
	case T_FEATS: {
		unsigned m = 0;
		for (const char *p = v; *p;) {
			while (*p == ' ' || *p == ',' || *p == '[' || *p == ']')
				p++;
			size_t n = strcspn(p, " ,[]");
			if (!n)
				break;
			size_t i = 0;
			while (i < NFEATS && !(strlen(feat_names[i]) == n && !strncmp(feat_names[i], p, n)))
				i++;
			if (i == NFEATS)
				return err_at(e, where, line, col,
				              "'%s': unknown OpenType feature '%.*s' (expected any of smcp, "
				              "c2sc, onum, lnum, tnum, pnum)", k->path, (int)n, p);
			m |= 1u << i;
			p += n;
		}
		*(unsigned *)(base + k->off) = m;
		return 0;
	}
	case T_TRACK: {
		char *end;
		long x = strtol(v, &end, 10);
		/* text extraction (poppler, MuPDF) reads a gap of 1/10 em between two
		   letters as a space */
		if (end == v || *end || x < -50 || x > 90)
			return err_at(e, where, line, col,
			              "'%s' expects a whole number of 1/1000 em from -50 to 90 (wider "
			              "letter-spacing reads as spaces in extracted text), got '%s'",
			              k->path, v);
		*(int32_t *)(base + k->off) = (int32_t)x;
		return 0;
	}
	case T_PAGE:
		if (!strcmp(v, "a4")) {
			b->s.page_w = 595276; b->s.page_h = 841890;
		} else if (!strcmp(v, "letter")) {
			b->s.page_w = 612000; b->s.page_h = 792000;
		} else {
			return err_at(e, where, line, col, "'page.size' expects a4 or letter, got '%s'", v);
		}
		return 0;
	}
	return -1;
}

/* A word for the locale: checked when main applies it (locale_set). */
static int add_word(style_box_t *b, const char *key, size_t klen, const char *v,
                    const char *where, int line, int col)
{
	style_t *s = &b->s;
	s->words = arena_grow(b->a, s->words, sizeof(*s->words) * (size_t)s->nwords,
	                      sizeof(*s->words) * (size_t)(s->nwords + 1));
	style_word_t *w = &s->words[s->nwords++];
	w->key = arena_strndup(b->a, key, klen);
	/* entry.date_separator is the part of the range pattern between dates */
	w->value = strcmp(w->key, "range") || strstr(v, "{start}") ? arena_strdup(b->a, v)
	           : arena_printf(b->a, "{start}%s{end}", v);
	w->file = where ? arena_strdup(b->a, where) : NULL;
	w->line = line;
	w->col = col;
	return 0;
}

static int set_path(style_box_t *b, const char *path, size_t plen, const char *v,
                    const char *where, int line, int col, errs_t *e)
{
	if (plen > 7 && !strncmp(path, "locale.", 7))
		return add_word(b, path + 7, plen - 7, v, where, line, col);
	const key_t_ *k = key_find(path, plen);
	if (k && k->type == T_WORD)
		return add_word(b, k->choices, strlen(k->choices), v, where, line, col);
	if (!k) {
		char tmp[256];
		snprintf(tmp, sizeof(tmp), "%.*s", (int)plen, path);
		const char *s = key_suggest(tmp);
		if (s)
			return err_at(e, where, line, col, "unknown layout key '%s'; did you mean '%s'?", tmp, s);
		return err_at(e, where, line, col, "unknown layout key '%s'", tmp);
	}
	/* "Lato + ...": families in front of the chain the layout has */
	size_t vl = strlen(v);
	if (k->off == offsetof(style_t, font_body) || k->off == offsetof(style_t, font_heading)) {
		if (vl > 6 && !strcmp(v + vl - 6, " + ...")) {
			const char *cur = *(const char **)((char *)&b->s + k->off);
			v = arena_printf(b->a, "%.*s + %s", (int)(vl - 6), v, cur ? cur : "serif");
		}
	}
	if (set_value(b, k, v, where, line, col, e))
		return -1;
	b->at[k - keys] = (from_t){where ? arena_strdup(b->a, where) : "--set", line, col};
	return 0;
}

int style_set(style_t *s, const char *kv, const char *where, int line, int col, errs_t *e)
{
	const char *eq = strchr(kv, '=');
	if (!eq)
		return err_at(e, where, line, col, "expected KEY=VALUE, got '%s'", kv);
	return set_path((style_box_t *)s, kv, (size_t)(eq - kv), eq + 1, where, line, col, e);
}

/* The layout in DIRS whose name is closest to NAME (a typo), into NEAR. */
static int layout_suggest(const char *name, const char *const *dirs, char *near, size_t size)
{
	int best = 3;
	if (strchr(name, '/'))
		return 0;
	for (int i = 0; dirs && dirs[i]; i++) {
		char *names[256];
		int n = datadir_names(dirs[i], names, 256);
		for (int j = 0; j < n; j++) {
			const char *base = names[j];
			int dist = strlen(base) < size ? suggest_distance(name, base) : best;
			if (dist < best && dist <= (int)strlen(base) / 2) {
				best = dist;
				snprintf(near, size, "%s", base);
			}
			free(names[j]);
		}
	}
	return best < 3;
}

static int load_into(style_box_t *b, const char *name, const char *const *dirs,
                     const from_t *from, errs_t *e);

static int walk(style_box_t *b, const ynode_t *m, buf_t *path, const char *file, errs_t *e)
{
	int rc = 0;
	for (int i = 0; i < m->n; i++) {
		const ynode_t *k = m->kids[2 * i], *v = m->kids[2 * i + 1];
		size_t keep = path->len;
		if (k->kind != YD_SCALAR) {
			rc = err_at(e, file, k->line, k->col, "layout keys must be plain names");
			continue;
		}
		if (path->len)
			buf_putc(path, '.');
		buf_puts(path, k->str);
		if (v->kind == YD_MAP) {
			if (walk(b, v, path, file, e))
				rc = -1;
		} else if (v->kind == YD_SCALAR) {
			if (set_path(b, path->s, path->len, v->str, file, v->line, v->col, e))
				rc = -1;
		} else {
			rc = err_at(e, file, v->line, v->col, "'%s' expects a value, got %s",
			            path->s, ydoc_kind_name(v->kind));
		}
		path->len = keep;
		path->s[keep] = '\0';
	}
	return rc;
}

static int is_path(const char *name)
{
	size_t n = strlen(name);
	return strchr(name, '/') || (n >= 5 && !strcmp(name + n - 5, ".yaml"));
}

/* A path is taken relative to the folder of the file that names it (the
 * profile, or the layout that extends it; base), or to the working
 * directory when it comes from the command line. A name is looked up as
 * <dir>/<name>.yaml in dirs; only regular files count. */
static int find_file(const char *name, const char *base, const char *const *dirs, buf_t *out)
{
	if (is_path(name)) {
		const char *sl = base ? strrchr(base, '/') : NULL;
		if (name[0] != '/' && sl)
			buf_printf(out, "%.*s/", (int)(sl - base), base);
		buf_puts(out, name);
		return 0;
	}
	for (int i = 0; dirs && dirs[i]; i++) {
		buf_reset(out);
		buf_printf(out, "%s/%s.yaml", dirs[i], name);
		int fd = file_open(out->s, FILE_MAX_TEXT, NULL, NULL);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
	}
	return -1;
}

/* A file most of whose top-level keys are not layout keys is some other
 * file (a .env, /etc/passwd read as YAML): one error, quoting nothing of
 * it. A real layout with a typo or two still gets a message per key. */
static int looks_like_layout(const ynode_t *root)
{
	int known = 0;
	for (int i = 0; i < root->n; i++) {
		const ynode_t *k = root->kids[2 * i];
		if (k->kind != YD_SCALAR)
			continue;
		int ok = !strcmp(k->str, "extends") || !strcmp(k->str, "name") ||
		         !strcmp(k->str, "description");
		size_t n = strlen(k->str);
		for (int j = 0; !ok && j < NKEYS; j++)
			ok = !strncmp(keys[j].path, k->str, n) &&
			     (keys[j].path[n] == '.' || keys[j].path[n] == '\0');
		known += ok;
	}
	return root->n == 0 || known * 2 >= root->n;
}

/* Apply a parsed layout (its `extends` first) to b. */
static int load_tree(style_box_t *b, const char *file, const ynode_t *root,
                     const char *const *dirs, errs_t *e)
{
	buf_t kp;
	int rc = 0;
	if (root->kind != YD_MAP)
		return err_at(e, file, root->line, root->col, "a layout is a map of keys");
	if (!looks_like_layout(root))
		return err_at(e, file, root->line, root->col,
		              "this is not a vita layout: most of its %d top-level keys "
		              "are not layout keys (not listed, so that no other kind of "
		              "file is shown in messages)", root->n);
	buf_init(&kp);
	const ynode_t *ext = ydoc_get(root, "extends");
	from_t here = {file, ext ? ext->line : 0, ext ? ext->col : 0};
	if (ext && ext->kind == YD_SCALAR && load_into(b, ext->str, dirs, &here, e))
		rc = -1;
	b->s.file = file;
	for (int i = 0; i < root->n; i++) {
		const ynode_t *k = root->kids[2 * i], *v = root->kids[2 * i + 1];
		if (k->kind == YD_SCALAR && v->kind == YD_SCALAR) {
			if (!strcmp(k->str, "name")) {
				b->s.name = v->str;
				continue;
			}
			if (!strcmp(k->str, "description")) {
				b->s.description = v->str;
				continue;
			}
			if (!strcmp(k->str, "extends"))
				continue;
		}
		ynode_t one = *root;
		one.kids = (ynode_t **)&root->kids[2 * i];
		one.n = 1;
		if (walk(b, &one, &kp, file, e))
			rc = -1;
	}
	buf_done(&kp);
	return rc;
}

static int load_text(style_box_t *b, const char *file, const char *data, size_t len,
                     const char *const *dirs, errs_t *e)
{
	ynode_t *root;
	file = arena_strdup(b->a, file);
	if (ydoc_parse(b->a, file, data, len, &root, e))
		return -1;
	return load_tree(b, file, root, dirs, e);
}

static int load_into(style_box_t *b, const char *name, const char *const *dirs,
                     const from_t *from, errs_t *e)
{
	buf_t path, text;
	buf_init(&path);
	buf_init(&text);
	int rc = -1;
	const char *why;
	if (b->confined && is_path(name)) {
		err_at(e, from->file, from->line, from->col, "'%.100s' is a path: with "
		       "--untrusted a layout is named, and comes from vita's layouts "
		       "(see `vita layouts`)", name);
		goto done;
	}
	if (find_file(name, from->file, dirs, &path)) {
		char near[256];
		if (layout_suggest(name, dirs, near, sizeof(near)))
			err_at(e, from->file, from->line, from->col,
			       "no layout named '%.100s'; did you mean '%s'? (see `vita layouts`)",
			       name, near);
		else
			err_at(e, from->file, from->line, from->col,
			       "no layout named '%.100s' (see `vita layouts`)", name);
		goto done;
	}
	char *real = realpath(path.s, NULL);
	for (int i = 0; real && i < b->depth; i++)
		if (!strcmp(b->chain[i], real)) {
			int n = b->depth - i - 1;
			if (n)
				err_at(e, from->file ? from->file : name, from->line, from->col,
				       "layouts extend each other in a loop: '%s' extends itself "
				       "through %d other layout%s", path.s, n, n == 1 ? "" : "s");
			else
				err_at(e, from->file ? from->file : name, from->line, from->col,
				       "layouts extend each other in a loop: '%s' extends itself",
				       path.s);
			free(real);
			goto done;
		}
	if (b->depth >= STYLE_MAX_EXTENDS) {
		err_at(e, from->file ? from->file : name, from->line, from->col,
		       "layouts extend each other more than %d deep", STYLE_MAX_EXTENDS);
		free(real);
		goto done;
	}
	b->chain[b->depth++] = arena_strdup(b->a, real ? real : path.s);
	free(real);
	if (file_read(&text, path.s, FILE_MAX_TEXT, &why)) {
		err_at(e, path.s, 0, 0, "cannot read layout: %s", why);
	} else {
		deps_add(path.s);
		rc = load_text(b, path.s, text.s, text.len, dirs, e);
	}
	b->depth--;
done:
	buf_done(&path);
	buf_done(&text);
	return rc;
}

static style_box_t *box_new(void)
{
	style_box_t *b = xcalloc(1, sizeof(*b));
	b->a = arena_new();
	style_defaults(&b->s);
	return b;
}

style_t *style_load_mem(const char *file, const char *data, size_t len,
                        const char *const *dirs, errs_t *e)
{
	style_box_t *b = box_new();
	if (load_text(b, file, data, len, dirs, e)) {
		style_free(&b->s);
		return NULL;
	}
	if (!b->s.name)
		b->s.name = arena_strdup(b->a, file);
	return &b->s;
}

style_t *style_open(const char *name, const char *where, int line, int col,
                    const char *const *dirs, unsigned flags, errs_t *e)
{
	style_box_t *b = box_new();
	from_t top = {where, line, col};
	b->confined = (flags & STYLE_CONFINED) != 0;
	if (load_into(b, name, dirs, &top, e)) {
		style_free(&b->s);
		return NULL;
	}
	if (!b->s.name)
		b->s.name = arena_strdup(b->a, name);
	return &b->s;
}

style_t *style_dup(const style_t *s)
{
	const style_box_t *b = (const style_box_t *)s;
	style_box_t *c = box_new();
	arena_t *a = c->a;
	*c = *b;   /* the strings and words stay in b's arena; style_set copies */
	c->a = a;
	return &c->s;
}

style_t *style_load(const char *name, const char *const *dirs, errs_t *e)
{
	return style_open(name, NULL, 0, 0, dirs, 0, e);
}

static int check_len(const style_box_t *b, const key_t_ *k, int32_t across, int32_t down,
                     errs_t *e)
{
	int32_t v = *(const int32_t *)((const char *)&b->s + k->off);
	int bd = key_bound(k);
	int32_t max = bd == B_RULE ? 20000 : bd == B_ACROSS ? across / 2
	              : bd == B_WIDTH ? across : down / 2;
	const char *what = bd == B_RULE ? "20 pt (a rule's thickness)"
	                   : bd == B_ACROSS ? "half the text width"
	                   : bd == B_WIDTH ? "the text width" : "half the text height";
	if (v <= max)
		return 0;
	const from_t *at = &b->at[k - keys];
	return err_at(e, at->file ? at->file : b->s.file, at->line, at->col,
	              "'%s' is %.1f pt; it can be at most %s, %.1f pt on this page, or text "
	              "would run off the page", k->path, v / 1000.0, what, max / 1000.0);
}

int style_check(const style_t *s, errs_t *e)
{
	const style_box_t *b = (const style_box_t *)s;
	int32_t across = s->page_w - s->margin_left - s->margin_right;
	int32_t down = s->page_h - s->margin_top - s->margin_bottom;
	int rc = 0;
	if (across <= 0 || down <= 0)
		return 0;   /* layout_render reports the margins */
	for (int i = 0; i < NKEYS; i++)
		if (keys[i].type == T_LEN && strncmp(keys[i].path, "page.", 5) &&
		    strncmp(keys[i].path, "sizes.", 6) && check_len(b, &keys[i], across, down, e))
			rc = -1;
	return rc;
}

void style_free(style_t *s)
{
	if (!s)
		return;
	style_box_t *b = (style_box_t *)s;
	arena_free(b->a);
	free(b);
}

/* Every layout in every directory, with its file; one that an earlier
 * directory's layout of the same name hides is marked so. */
void style_list(const char *const *dirs, FILE *out)
{
	for (int i = 0; dirs && dirs[i]; i++) {
		char *names[256];
		int n = datadir_names(dirs[i], names, 256);
		for (int j = 0; j < n; j++) {
			const char *hidden = NULL;
			for (int k = 0; k < i && !hidden; k++) {
				char p[4096];
				snprintf(p, sizeof(p), "%s/%s.yaml", dirs[k], names[j]);
				if (access(p, R_OK) == 0)
					hidden = dirs[k];
			}
			fprintf(out, "%-12s ", names[j]);
			if (hidden) {
				fprintf(out, "(hidden by the one in %s)\n", hidden);
			} else {
				errs_t e;
				errs_init(&e);
				style_t *s = style_load(names[j], dirs, &e);
				fprintf(out, "%s\n", s && s->description ? s->description
				                                          : "(cannot be loaded)");
				style_free(s);
				errs_done(&e);
			}
			fprintf(out, "%12s %s/%s.yaml\n", "", dirs[i], names[j]);
			free(names[j]);
		}
	}
}

static const char *type_name(const key_t_ *k)
{
	switch (k->type) {
	case T_LEN: return "length";
	case T_PERMILLE: case T_RATIO: return "number";
	case T_INT: return "count";
	case T_COLOR: return "colour";
	case T_STR: return "text";
	case T_BOOL: return "true/false";
	case T_WORD: return "text";
	case T_FEATS: return "features";
	case T_TRACK: return "1/1000 em";
	default: return "one of";
	}
}

/* A key's value in s, as it would be written in a layout. */
static void key_value(const key_t_ *k, const style_t *s, buf_t *b)
{
	const char *base = (const char *)s;
	switch (k->type) {
	case T_LEN: {
		int32_t v = *(const int32_t *)(base + k->off);
		buf_printf(b, "%g", v / 1000.0);
		break;
	}
	case T_PERMILLE: case T_RATIO:
		buf_printf(b, "%g", *(const int32_t *)(base + k->off) / 1000.0);
		break;
	case T_INT:
		buf_printf(b, "%d", *(const int *)(base + k->off));
		break;
	case T_COLOR:
		buf_printf(b, "\"#%06x\"", *(const uint32_t *)(base + k->off));
		break;
	case T_STR: {
		const char *v = *(const char *const *)(base + k->off);
		buf_putc(b, '"');
		for (const char *p = v ? v : ""; *p; p++)
			if (*p == '"' || *p == '\\')
				buf_printf(b, "\\%c", *p);
			else
				buf_putc(b, *p);
		buf_putc(b, '"');
		break;
	}
	case T_BOOL:
		buf_puts(b, *(const int *)(base + k->off) ? "true" : "false");
		break;
	case T_ENUM: {
		int v = *(const int *)(base + k->off);
		if (k->off == offsetof(style_t, text_align) || k->off == offsetof(style_t, sidebar_align))
			v = v == ST_LEFT ? 0 : v == ST_CENTER ? 1 : v == ST_RIGHT ? 2 : 3;
		if (k->off == offsetof(style_t, header_align))
			v = v == ST_CENTER;
		if (!strcmp(k->choices, STYLES) && v == 6)
			v = 5;
		const char *p = k->choices;
		for (int i = 0; i < v && strchr(p, '|'); i++)
			p = strchr(p, '|') + 1;
		const char *bar = strchr(p, '|');
		buf_add(b, p, bar ? (size_t)(bar - p) : strlen(p));
		break;
	}
	case T_PAGE:
		buf_puts(b, s->page_w == 612000 ? "letter" : "a4");
		break;
	case T_FEATS: {
		unsigned m = *(const unsigned *)(base + k->off);
		buf_putc(b, '"');
		for (size_t i = 0, n = 0; i < NFEATS; i++)
			if (m & 1u << i)
				buf_printf(b, "%s%s", n++ ? " " : "", feat_names[i]);
		buf_putc(b, '"');
		break;
	}
	case T_TRACK:
		buf_printf(b, "%d", (int)*(const int32_t *)(base + k->off));
		break;
	case T_WORD:
		buf_printf(b, "locale: %s", k->choices);
		break;
	}
}

void style_keys(FILE *out)
{
	style_t d;
	memset(&d, 0, sizeof(d));
	style_defaults(&d);
	buf_t b;
	buf_init(&b);
	fputs("| key | type | default | meaning |\n|---|---|---|---|\n", out);
	for (int i = 0; i < NKEYS; i++) {
		const key_t_ *k = &keys[i];
		buf_reset(&b);
		key_value(k, &d, &b);
		fprintf(out, "| `%s` | %s", k->path, type_name(k));
		if (k->choices) {
			fputs(" ", out);
			for (const char *p = k->choices; *p; p++)
				fputs(*p == '|' ? ", " : (char[]){*p, 0}, out);
		}
		/* a | in a value or meaning would end the table cell */
		fputs(" | `", out);
		for (const char *p = b.s ? b.s : ""; *p; p++)
			fputs(*p == '|' ? "\\|" : (char[]){*p, 0}, out);
		fprintf(out, "` | %s |\n", k->help);
	}
	buf_done(&b);
}

int style_key_at(const style_t *s, const char *path, const char **file, int *line, int *col)
{
	const style_box_t *b = (const style_box_t *)s;
	const key_t_ *k = key_find(path, strlen(path));
	*file = s->file;
	*line = *col = 0;
	if (!k || !b->at[k - keys].file)
		return -1;
	*file = b->at[k - keys].file;
	*line = b->at[k - keys].line;
	*col = b->at[k - keys].col;
	return 0;
}
