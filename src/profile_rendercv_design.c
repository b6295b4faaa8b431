/* profile_rendercv_design: a RenderCV file's `design` and `locale` (every 2.x
 * version; `locale_catalog` and the flat design keys of 1.x) -> layout
 * overrides and locale words, as a native profile's `layout:` map sets
 * them (model.layout_set, located at each RenderCV key).
 *
 * The design is walked leaf by leaf; rc_map says what each dotted path
 * becomes (a path may set several vita keys). A leaf with no vita
 * counterpart is named in one located "ignored" warning per group
 * (design.entries, design.templates, ...); a value that cannot be
 * converted (a length in ex, a family list vita cannot read) is an
 * "ignored" warning of its own. docs/import.md lists the table.
 *
 * Lengths: in, cm, mm, pt as they are; em as a multiple of the body size
 * (the file's, else RenderCV's 10pt). RenderCV's line spacing is Typst's
 * leading, the gap between one line's baseline and the next line's cap
 * height: vita's leading (baseline to baseline) is that plus 0.7 em.
 * RenderCV's date placeholders become vita's: MONTH_NAME {month},
 * MONTH_ABBREVIATION {mon}, MONTH_IN_TWO_DIGITS {mm}, MONTH {m},
 * YEAR_IN_TWO_DIGITS {yy}, YEAR {year}, DAY_IN_TWO_DIGITS {dd}, DAY {d}.
 * A font family goes in front of the layout's chain ("Lato + ..."): a
 * family that is not installed is said by the layout, which keeps its own.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "buf.h"
#include "profile_import.h"

enum {
	V_LEN, V_SIZE, V_LEADING, V_COLOR, V_BOOL, V_NOT, V_STYLE, V_TALIGN, V_HALIGN,
	V_RULE, V_STR, V_SEP, V_FONT, V_PAGE, V_UPDATED, V_NOT_UPDATED, V_DATE,
	V_RANGE, V_TO, V_FOOTER, V_TOPNOTE, V_LIST, V_USED
};

typedef struct rc_map {
	const char *path, *key;
	int conv;
} rc_map_t;

/* design.PATH -> vita key */
static const rc_map_t rc_design_map[] = {
	{"theme", NULL, V_USED},
	/* page (1.x: page_size, margins.page.*, disable_*) */
	{"page.size", NULL, V_PAGE}, {"page_size", NULL, V_PAGE},
	{"page.top_margin", "page.margin.top", V_LEN},
	{"page.bottom_margin", "page.margin.bottom", V_LEN},
	{"page.left_margin", "page.margin.left", V_LEN},
	{"page.right_margin", "page.margin.right", V_LEN},
	{"margins.page.top", "page.margin.top", V_LEN},
	{"margins.page.bottom", "page.margin.bottom", V_LEN},
	{"margins.page.left", "page.margin.left", V_LEN},
	{"margins.page.right", "page.margin.right", V_LEN},
	{"page.show_footer", "footer.show", V_BOOL},
	{"page.show_page_numbering", "footer.show", V_BOOL},
	{"disable_page_numbering", "footer.show", V_NOT},
	{"page.show_top_note", "locale.updated", V_UPDATED},
	{"page.show_last_updated_date", "locale.updated", V_UPDATED},
	{"disable_last_updated_date", "locale.updated", V_NOT_UPDATED},
	/* colours (1.x: color) */
	{"colors.text", "colors.text", V_COLOR}, {"colors.body", "colors.text", V_COLOR},
	{"colors.name", "colors.name", V_COLOR},
	{"colors.headline", "colors.headline", V_COLOR},
	{"colors.section_titles", "colors.accent", V_COLOR},
	{"colors.section_titles", "colors.rule", V_COLOR},
	{"colors.links", "colors.link", V_COLOR},
	{"color", "colors.name", V_COLOR}, {"color", "colors.accent", V_COLOR},
	{"color", "colors.rule", V_COLOR}, {"color", "colors.link", V_COLOR},
	/* type: typography (2.4+), text (2.0-2.3), font and font_size (1.x) */
	{"typography.font_family", "fonts.body", V_FONT},
	{"typography.font_family", "fonts.heading", V_FONT},
	{"typography.font_family.body", "fonts.body", V_FONT},
	{"typography.font_family.name", "fonts.heading", V_FONT},
	{"typography.font_family.section_titles", "fonts.heading", V_FONT},
	{"text.font_family", "fonts.body", V_FONT},
	{"header.name_font_family", "fonts.heading", V_FONT},
	{"section_titles.font_family", "fonts.heading", V_FONT},
	{"font", "fonts.body", V_FONT}, {"font", "fonts.heading", V_FONT},
	{"typography.font_size.body", "sizes.body", V_SIZE},
	{"typography.font_size.name", "sizes.name", V_SIZE},
	{"typography.font_size.headline", "sizes.headline", V_SIZE},
	{"typography.font_size.section_titles", "sizes.section", V_SIZE},
	{"text.font_size", "sizes.body", V_SIZE}, {"font_size", "sizes.body", V_SIZE},
	{"header.name_font_size", "sizes.name", V_SIZE},
	{"section_titles.font_size", "sizes.section", V_SIZE},
	{"typography.line_spacing", "leading", V_LEADING},
	{"text.leading", "leading", V_LEADING},
	{"typography.alignment", "text.align", V_TALIGN},
	{"text.alignment", "text.align", V_TALIGN},
	{"typography.bold.name", "header.name_style", V_STYLE},
	{"header.name_bold", "header.name_style", V_STYLE},
	{"typography.bold.headline", "header.headline_style", V_STYLE},
	{"typography.bold.section_titles", "section.style", V_STYLE},
	{"section_titles.bold", "section.style", V_STYLE},
	{"typography.small_caps.section_titles", "section.small_caps", V_BOOL},
	{"section_titles.small_caps", "section.small_caps", V_BOOL},
	/* header */
	{"header.alignment", "header.align", V_HALIGN},
	{"header.separator_between_connections", "header.separator", V_SEP},
	{"header.connections.separator", "header.separator", V_SEP},
	{"header.use_icons_for_connections", "header.icons", V_BOOL},
	{"header.connections.show_icons", "header.icons", V_BOOL},
	{"header.vertical_space_between_connections_and_first_section", "header.gap", V_LEN},
	{"header.space_below_connections", "header.gap", V_LEN},
	/* section titles */
	{"section_titles.type", NULL, V_RULE},
	{"section_titles.line_thickness", "section.rule", V_LEN},
	{"section_titles.vertical_space_above", "section.before", V_LEN},
	{"section_titles.space_above", "section.before", V_LEN},
	{"section_titles.vertical_space_below", "section.after", V_LEN},
	{"section_titles.space_below", "section.after", V_LEN},
	/* entries */
	{"entries.vertical_space_between_entries", "entry.gap", V_LEN},
	{"sections.space_between_regular_entries", "entry.gap", V_LEN},
	{"highlights.bullet", "entry.bullet", V_STR},
	{"entries.highlights.bullet", "entry.bullet", V_STR},
	/* templates (2.4+) */
	{"templates.single_date", "locale.date.month", V_DATE},
	{"templates.date_range", "locale.range", V_RANGE},
	{"templates.footer", "locale.footer", V_FOOTER},
	{"templates.top_note", "locale.updated", V_TOPNOTE},
	{NULL, NULL, 0}};

/* locale.PATH (locale_catalog.PATH before 2.0) -> vita's words */
static const rc_map_t rc_locale_map[] = {
	{"language", NULL, V_USED},
	{"present", "locale.present", V_STR},
	{"to", "locale.range", V_TO},
	{"abbreviations_for_months", "locale.months_short", V_LIST},
	{"month_abbreviations", "locale.months_short", V_LIST},
	{"full_names_of_months", "locale.months", V_LIST},
	{"month_names", "locale.months", V_LIST},
	{"date_template", "locale.date.month", V_DATE},
	{"date_style", "locale.date.month", V_DATE},
	{"page_numbering_template", "locale.footer", V_FOOTER},
	{"last_updated_date_template", "locale.updated", V_TOPNOTE},
	{"last_updated", NULL, V_USED},               /* read by the top note */
	{"phrases.degree_with_area", NULL, V_USED},   /* read by EducationEntry */
	{NULL, NULL, 0}};

/* design.page.size (1.x: page_size, "a4paper") -> page.size, or the
 * width and height of the sizes vita has no name for. */
static void rc_page(pctx_t *c, const ynode_t *at)
{
	static const struct { const char *rcv, *w, *h; } sizes[] = {
		{"a4", NULL, NULL}, {"us-letter", NULL, NULL}, {"a5", "148mm", "210mm"},
		{"us-executive", "7.25in", "10.5in"}, {"a3", "297mm", "420mm"},
		{"b5", "176mm", "250mm"}, {"us-legal", "8.5in", "14in"}};
	char size[32];
	snprintf(size, sizeof(size), "%s", at->kind == YD_SCALAR ? at->str : "");
	size_t n = strlen(size);
	if (n > 5 && !strcmp(size + n - 5, "paper"))
		size[n - 5] = '\0';     /* 1.x: a4paper, letterpaper */
	if (!strcmp(size, "letter"))
		snprintf(size, sizeof(size), "us-letter");
	size_t i = 0;
	while (i < sizeof(sizes) / sizeof(sizes[0]) && strcmp(sizes[i].rcv, size))
		i++;
	if (i == 0)
		prcv_set(c, "page.size", "a4", at);
	else if (i == 1)
		prcv_set(c, "page.size", "letter", at);
	else if (i < sizeof(sizes) / sizeof(sizes[0])) {
		prcv_set(c, "page.width", sizes[i].w, at);
		prcv_set(c, "page.height", sizes[i].h, at);
	} else
		warn_at(c->e, c->file, at->line, at->col, "ignored: page size '%.40s' "
		        "(vita knows a4, us-letter, a5, us-executive, a3, b5, us-legal)",
		        at->kind == YD_SCALAR ? at->str : "...");
}

typedef struct rcd {
	pctx_t *c;
	double body;            /* body size in pt, for em */
	const ynode_t *loc;     /* the locale map, for LAST_UPDATED */
	buf_t ign;              /* leaves of the current group with no vita key */
} rcd_t;

/* A layout override "key=value", located at n (as a native profile's). */
void prcv_set(pctx_t *c, const char *key, const char *value, const ynode_t *n)
{
	model_t *m = c->m;
	int k = m->nlayout_set;
	m->layout_set = arena_grow(c->a, (void *)m->layout_set, (size_t)k * sizeof(char *),
	                           (size_t)(k + 1) * sizeof(char *));
	m->layout_set_at = arena_grow(c->a, m->layout_set_at, (size_t)k * sizeof(mpos_t),
	                              (size_t)(k + 1) * sizeof(mpos_t));
	m->layout_set[k] = arena_printf(c->a, "%s=%s", key, value);
	m->layout_set_at[k].line = n->line;
	m->layout_set_at[k].col = n->col;
	m->nlayout_set++;
	if (!m->layout_line) {
		m->layout_line = n->line;
		m->layout_col = n->col;
	}
}

static const char *scalar(const ynode_t *map, const char *key)
{
	const ynode_t *n = ydoc_get(map, key);
	return n && n->kind == YD_SCALAR && n->len ? n->str : NULL;
}

/* "0.7in", "2cm", "10 mm", "12pt", "1.2em": vita's units; NULL otherwise */
static const char *rc_len(rcd_t *x, const char *v)
{
	char *end;
	double n = strtod(v, &end);
	if (end == v || n < 0)
		return NULL;
	while (*end == ' ')
		end++;
	if (!strcmp(end, "em"))
		return arena_printf(x->c->a, "%gpt", n * x->body);
	if (strcmp(end, "in") && strcmp(end, "cm") && strcmp(end, "mm") && strcmp(end, "pt"))
		return NULL;
	return arena_printf(x->c->a, "%g%s", n, end);
}

/* "rgb(0, 79, 144)" or "#004f90" -> "#004f90"; NULL otherwise */
static const char *rc_color(arena_t *a, const char *v)
{
	int r, g, b;
	if (v[0] == '#' && strlen(v) == 7)
		return v;
	if (sscanf(v, "rgb(%d ,%d ,%d )", &r, &g, &b) == 3 && r >= 0 && r < 256 &&
	    g >= 0 && g < 256 && b >= 0 && b < 256)
		return arena_printf(a, "#%02x%02x%02x", r, g, b);
	return NULL;
}

/* RenderCV's placeholders -> vita's {names}; longest names first. */
const char *prcv_pattern(arena_t *a, const char *v, int *bad)
{
	static const char *const ph[][2] = {
		{"FULL_MONTH_NAME", "{month}"}, {"MONTH_NAME", "{month}"},
		{"MONTH_ABBREVIATION", "{mon}"}, {"MONTH_IN_TWO_DIGITS", "{mm}"},
		{"YEAR_IN_TWO_DIGITS", "{yy}"}, {"DAY_IN_TWO_DIGITS", "{dd}"},
		{"PAGE_NUMBER", "{page}"}, {"TOTAL_PAGES", "{pages}"},
		{"CURRENT_DATE", "{date}"}, {"TODAY", "{date}"},
		{"START_DATE", "{start}"}, {"END_DATE", "{end}"},
		{"MONTH", "{m}"}, {"YEAR", "{year}"}, {"DAY", "{d}"}, {"NAME", "{name}"}};
	buf_t b;
	buf_init(&b);
	/* Markdown emphasis around the whole template: the footer is plain */
	size_t n = strlen(v);
	while (n && *v == '*' && v[n - 1] == '*' && n >= 2)
		v++, n -= 2;
	for (size_t i = 0; i < n;) {
		size_t k = 0, l = 0;
		for (; k < sizeof(ph) / sizeof(ph[0]); k++) {
			l = strlen(ph[k][0]);
			if (l <= n - i && !strncmp(v + i, ph[k][0], l))
				break;
		}
		if (k < sizeof(ph) / sizeof(ph[0])) {
			buf_puts(&b, ph[k][1]);
			i += l;
		} else if (v[i] == '-' && i + 1 < n && v[i + 1] == '-') {
			buf_puts(&b, "\u2013");   /* Typst's -- */
			i += 2;
		} else {
			if (v[i] == '{' || v[i] == '}' || (v[i] >= 'A' && v[i] <= 'Z' &&
			    i + 1 < n && v[i + 1] == '_'))
				*bad = 1;             /* an unknown PLACEHOLDER_ or a brace */
			buf_putc(&b, v[i++]);
		}
	}
	const char *r = arena_strdup(a, b.s ? b.s : "");
	buf_done(&b);
	return r;
}

static int has(const char *s, const char *const *any)
{
	for (int i = 0; any[i]; i++)
		if (strstr(s, any[i]))
			return 1;
	return 0;
}

static void ignored_value(rcd_t *x, const ynode_t *v, const char *path, const char *why)
{
	warn_at(x->c->e, x->c->file, v->line, v->col, "ignored: design value %s '%.60s' (%s)",
	        path, v->kind == YD_SCALAR ? v->str : "...", why);
}

/* One leaf onto its vita key; 0 when used. */
static int rc_conv(rcd_t *x, const rc_map_t *r, const char *path, const ynode_t *v)
{
	pctx_t *c = x->c;
	arena_t *a = c->a;
	const char *s = v->kind == YD_SCALAR ? v->str : NULL, *o = NULL;
	static const char *const year[] = {"{year}", "{yy}", NULL};
	static const char *const month[] = {"{month}", "{mon}", "{m}", "{mm}", NULL};
	int bad = 0;
	if (r->conv == V_USED)
		return 0;
	if (r->conv == V_LIST) {
		if (v->kind != YD_SEQ || v->n != 12) {
			ignored_value(x, v, path, "expected a list of 12 names");
			return 0;
		}
		buf_t b;
		buf_init(&b);
		for (int i = 0; i < 12; i++) {
			const ynode_t *k = v->kids[i];
			if (k->kind != YD_SCALAR || !k->len || strchr(k->str, ',')) {
				buf_done(&b);
				ignored_value(x, k, path, "a month name must be text without a comma");
				return 0;
			}
			buf_printf(&b, "%s%s", i ? "," : "", k->str);
		}
		prcv_set(c, r->key, b.s, v);
		buf_done(&b);
		return 0;
	}
	if (!s)
		return -1;
	switch (r->conv) {
	case V_LEN:
		if (!(o = rc_len(x, s)))
			ignored_value(x, v, path, "vita reads lengths in in, cm, mm, pt and em");
		break;
	case V_SIZE:
		if (!(o = rc_len(x, s)))
			ignored_value(x, v, path, "vita reads sizes in pt, mm and em");
		break;
	case V_LEADING: {
		char *end;
		double n = strtod(s, &end);
		if (end != s && !strcmp(end, "em") && n >= 0 && n < 3)
			o = arena_printf(a, "%g", n + 0.7);
		else if (end != s && !strcmp(end, "pt") && n >= 0 && n < 30)
			o = arena_printf(a, "%g", n / x->body + 0.7);
		else
			ignored_value(x, v, path, "vita reads a line spacing in em or pt");
		break;
	}
	case V_COLOR:
		if (!(o = rc_color(a, s)))
			ignored_value(x, v, path, "vita reads rgb(r, g, b) and #rrggbb");
		break;
	case V_BOOL: case V_NOT:
		if (!strcmp(s, "true") || !strcmp(s, "false"))
			o = (s[0] == 't') == (r->conv == V_BOOL) ? "true" : "false";
		break;
	case V_UPDATED: case V_NOT_UPDATED:
		/* off: no "updated" line; on: the locale's */
		if ((!strcmp(s, "false") && r->conv == V_UPDATED) ||
		    (!strcmp(s, "true") && r->conv == V_NOT_UPDATED))
			o = "";
		else
			return 0;
		break;
	case V_STYLE:
		if (!strcmp(s, "true") || !strcmp(s, "false"))
			o = s[0] == 't' ? "bold" : "regular";
		break;
	case V_TALIGN:
		if (!strncmp(s, "justified", 9)) {
			o = "justify";
			if (!strcmp(s, "justified-with-no-hyphenation"))
				prcv_set(c, "text.hyphenate", "false", v);
		} else if (!strcmp(s, "left")) {
			o = "left";
		}
		break;
	case V_HALIGN:
		if (!strcmp(s, "center") || !strcmp(s, "left"))
			o = s;
		else
			ignored_value(x, v, path, "vita's header is left or center");
		break;
	case V_RULE: {
		/* with-partial-line, with_full_line, without_line, moderncv, ... */
		static const char *const types[][2] = {
			{"with_partial_line", "partial"}, {"with_full_line", "full"},
			{"without_line", "none"}, {"moderncv", "bar"},
			{"centered_with_partial_line", NULL}, {"centered_without_line", NULL}};
		char t[64];
		snprintf(t, sizeof(t), "%s", s);
		for (char *p = t; *p; p++)
			if (*p == '-')
				*p = '_';
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(t, types[i][0])) {
				if (types[i][1])
					prcv_set(c, "section.rule_style", types[i][1], v);
				else
					ignored_value(x, v, path, "vita's section titles are not centred");
				return 0;
			}
		ignored_value(x, v, path, "vita knows with-partial-line, with-full-line, "
		              "without-line and moderncv");
		return 0;
	}
	case V_STR:
		o = s;
		break;
	case V_SEP:
		/* RenderCV puts space between connections; vita keeps spaces */
		o = strcmp(s, "") ? arena_printf(a, "  %s  ", s) : "    ";
		break;
	case V_FONT:
		if (strpbrk(s, ",+\"\\/:#[]{}\n"))
			ignored_value(x, v, path, "a font family name");
		else
			o = arena_printf(a, "%s + ...", s);
		break;
	case V_PAGE:
		rc_page(c, v);
		return 0;
	case V_DATE: {
		const char *p = prcv_pattern(a, s, &bad);
		if (bad || !has(p, year) || !has(p, month))
			ignored_value(x, v, path, "vita's date pattern needs a year and a month");
		else
			o = p;
		break;
	}
	case V_RANGE: {
		const char *p = prcv_pattern(a, s, &bad);
		if (bad || !strstr(p, "{start}") || !strstr(p, "{end}"))
			ignored_value(x, v, path, "a date range has START_DATE and END_DATE");
		else
			o = p;
		break;
	}
	case V_TO:
		o = arena_printf(a, "{start} %s {end}", s);
		break;
	case V_FOOTER: {
		static const char *const ok[] = {"{name}", "{page}", "{pages}", "{date}", NULL};
		const char *p = prcv_pattern(a, s, &bad);
		for (const char *q = strchr(p, '{'); q && !bad; q = strchr(q + 1, '{')) {
			int known = 0;
			for (int i = 0; ok[i]; i++)
				known |= !strncmp(q, ok[i], strlen(ok[i]));
			bad = !known;
		}
		if (bad)
			ignored_value(x, v, path, "vita's footer has NAME, PAGE_NUMBER, "
			              "TOTAL_PAGES and the date");
		else
			o = p;
		break;
	}
	case V_TOPNOTE: {
		/* "*LAST_UPDATED CURRENT_DATE*": LAST_UPDATED is the locale's */
		const char *lu = scalar(x->loc, "last_updated");
		const char *t = s;
		if (strstr(s, "LAST_UPDATED")) {
			if (!lu)
				return 0;   /* RenderCV's own words: vita's locale has them */
			buf_t b;
			buf_init(&b);
			for (const char *q = s; *q;) {
				const char *h = strstr(q, "LAST_UPDATED");
				if (!h) {
					buf_puts(&b, q);
					break;
				}
				buf_add(&b, q, (size_t)(h - q));
				buf_puts(&b, lu);
				q = h + 12;
			}
			t = arena_strdup(a, b.s);
			buf_done(&b);
		}
		const char *p = prcv_pattern(a, t, &bad);
		const char *q = strchr(p, '{');
		if (bad || (q && strncmp(q, "{date}", 6)) || (q && strchr(q + 1, '{')))
			ignored_value(x, v, path, "vita's \"updated\" line has the date alone");
		else
			o = p;
		break;
	}
	}
	if (o)
		prcv_set(c, r->key, o, v);
	return 0;
}

static void rc_walk(rcd_t *x, const rc_map_t *t, const ynode_t *n, const char *pre, int depth);

/* One key k: v of a map at path prefix pre, against table t. */
static void rc_leaf(rcd_t *x, const rc_map_t *t, const ynode_t *k, const ynode_t *v,
                    const char *pre, int depth)
{
	if (k->kind != YD_SCALAR || v->kind == YD_NULL)
		return;
	const char *path = pre[0] ? arena_printf(x->c->a, "%s.%s", pre, k->str) : k->str;
	int hit = 0, used = 0;
	for (const rc_map_t *r = t; r->path; r++)
		if (!strcmp(r->path, path)) {
			hit = 1;
			used |= rc_conv(x, r, path, v) == 0;
		}
	if (hit && !used && v->kind != YD_MAP)   /* a map: its keys (font_family.body) */
		ignored_value(x, v, path, "expected a value, not a list");
	if (hit && (used || v->kind != YD_MAP))
		return;
	if (v->kind == YD_MAP) {
		rc_walk(x, t, v, path, depth + 1);
	} else if ((v->kind != YD_SEQ || v->n) && (v->kind != YD_SCALAR || v->len)) {
		const char *leaf = strchr(path, '.');
		leaf = leaf ? leaf + 1 : path;
		size_t n = strlen(leaf);
		/* entry templates: named by entry type */
		if (!strncmp(path, "entry_types.", 12) || !strncmp(path, "templates.", 10))
			n = strcspn(leaf, ".");
		const char *w = arena_strndup(x->c->a, leaf, n);
		int dup = 0;
		for (const char *q = x->ign.s; q && (q = strstr(q, w)); q += n)
			dup |= (q == x->ign.s || q[-1] == ' ') && (q[n] == ',' || !q[n]);
		if (!dup)
			buf_printf(&x->ign, "%s%s", x->ign.len ? ", " : "", w);
	}
}

/* Every key of map n (path prefix pre) against table t. */
static void rc_walk(rcd_t *x, const rc_map_t *t, const ynode_t *n, const char *pre, int depth)
{
	for (int i = 0; n && n->kind == YD_MAP && i < n->n && depth < 8; i++)
		rc_leaf(x, t, n->kids[2 * i], n->kids[2 * i + 1], pre, depth);
}

/* The body size in pt, for em lengths: the file's, else RenderCV's 10pt. */
static double rc_body(const ynode_t *d)
{
	const char *s = scalar(ydoc_get(ydoc_get(d, "typography"), "font_size"), "body");
	if (!s)
		s = scalar(ydoc_get(d, "text"), "font_size");
	if (!s)
		s = scalar(d, "font_size");
	char *end;
	double n = s ? strtod(s, &end) : 0;
	return s && end != s && !strcmp(end, "pt") && n > 1 && n < 100 ? n : 10;
}

static void rc_group_done(rcd_t *x, const ynode_t *at, const char *what, const char *why)
{
	if (x->ign.len)
		warn_at(x->c->e, x->c->file, at->line, at->col, "ignored: %s: %s (%s)", what,
		        x->ign.s, why);
	buf_reset(&x->ign);
}

int prcv_design(pctx_t *c, const ynode_t *root)
{
	const ynode_t *d = ydoc_get(root, "design");
	rcd_t x = {c, rc_body(d), ydoc_get(root, "locale"), {0}};
	buf_init(&x.ign);
	const char *theme = scalar(d, "theme");
	if (theme && (!strcmp(theme, "sb2nov") || !strcmp(theme, "engineeringresumes") ||
	              !strcmp(theme, "engineeringclassic")))
		c->m->layout = "compact";   /* the dense one-column themes */
	/* group by group, so that each warning is located at its group */
	for (int i = 0; d && d->kind == YD_MAP && i < d->n; i++) {
		const ynode_t *k = d->kids[2 * i], *v = d->kids[2 * i + 1];
		if (k->kind != YD_SCALAR)
			continue;
		rc_leaf(&x, rc_design_map, k, v, "", 0);
		if (v->kind == YD_MAP)
			rc_group_done(&x, k, arena_printf(c->a, "design.%s", k->str),
			              !strcmp(k->str, "entry_types") ? "RenderCV's entry templates; "
			              "vita's layout arranges entries" : !strcmp(k->str, "templates")
			              ? "RenderCV's time spans and entry templates; vita prints no time "
			              "spans and its layout arranges entries"
			              : "RenderCV's own spacing and options; vita's layout sets them");
		else
			rc_group_done(&x, k, "design", "vita's layout sets it");
	}
	buf_done(&x.ign);
	return 0;
}

/* locale (2.x) or locale_catalog (1.x): the words onto vita's locale,
 * unless --lang chose another language. */
void prcv_words(pctx_t *c, const ynode_t *loc, const char *name, int apply)
{
	rcd_t x = {c, 10, loc, {0}};
	if (!loc || loc->kind != YD_MAP || !loc->n)
		return;
	if (!apply) {
		if (loc->n > (ydoc_get(loc, "language") != NULL))
			warn_at(c->e, c->file, loc->line, loc->col, "ignored: RenderCV's words in "
			        "'%s' (--lang chose vita's locale)", name);
		return;
	}
	buf_init(&x.ign);
	rc_walk(&x, rc_locale_map, loc, "", 0);
	rc_group_done(&x, loc, name, "RenderCV's time spans and phone formats; vita "
	              "prints neither");
	buf_done(&x.ign);
}
