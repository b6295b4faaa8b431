/* model: the CV in memory.
 *
 * Built by profile.c from a profile (after --lang and --tags have been
 * applied: every translated field is already resolved, every item whose
 * tags were not selected is already gone). Everything lives in the arena
 * passed to the loader. Strings are valid UTF-8 (checked by the loader).
 * Positions (line, col) are 1-based, in the profile file, for messages.
 *
 * Rich text (fields the spec calls "text") is a list of spans after the
 * inline markup was parsed: **bold**, *italic*, [label](url), with
 * backslash escapes removed.
 */
#ifndef VITA_MODEL_H
#define VITA_MODEL_H
#include <stdio.h>

enum { SPAN_BOLD = 1, SPAN_ITALIC = 2 };

typedef struct mspan {
	const char *text;   /* UTF-8, markup removed */
	unsigned flags;     /* SPAN_BOLD | SPAN_ITALIC */
	const char *url;    /* link target, or NULL */
} mspan_t;

typedef struct mtext {
	mspan_t *spans;     /* n == 0: field absent */
	int n;
	int line, col;      /* where the field's value starts */
	const char *lang;   /* its language when known: the translation picked
	                     * ({en: .., de: ..}), else its item's `lang:`; NULL:
	                     * the CV's */
} mtext_t;

typedef struct mlink {
	const char *label;  /* plain text; the URL itself when not given */
	const char *url;
	int line, col;
} mlink_t;

enum { DATE_NONE = 0, DATE_YEAR, DATE_MONTH, DATE_DAY, DATE_PRESENT, DATE_TEXT };

typedef struct mdate {
	int kind;           /* DATE_* */
	int y, m, d;        /* for YEAR/MONTH/DAY */
	const char *text;   /* verbatim for DATE_TEXT (and the source text always) */
	int line, col;
} mdate_t;

typedef struct mentry {
	mtext_t title, org, note;
	const char *location;        /* NULL when absent */
	mdate_t date, start, end;    /* kind DATE_NONE when absent */
	mtext_t *details; int ndetails;
	mlink_t *links; int nlinks;
	const char *lang;            /* `lang:`, the language its texts are in
	                              * when not the CV's; NULL: the CV's */
	int line, col;
} mentry_t;

/* what the loader found out about one author of a publication */
enum { AUTHOR_OWNER = 1, AUTHOR_EQUAL = 2, AUTHOR_CORRESPONDING = 4 };

typedef struct mpub {
	mtext_t title;
	const char **authors; int nauthors;
	unsigned *aflags;            /* per author: AUTHOR_*; NULL when no authors */
	int etal;                    /* the list was cut short ("and others") */
	const char **editors; int neditors;
	const char *genre;           /* a thesis or report the venue does not name:
	                              * "phdthesis", "mastersthesis", "techreport" (the
	                              * locale's phrase goes before the venue) or NULL */
	const char **equal; int nequal;
	const char *venue;           /* short tag */
	mtext_t venue_full;
	int year;                    /* 0 when absent */
	const char *status;
	const char *doi;
	mlink_t *links; int nlinks;
	const char **badges; int nbadges;
	mtext_t note;                /* a distinction ("Best Paper"), set as one */
	mtext_t summary;             /* a description (the summary of JSON Resume,
	                              * RenderCV): plain text under the venue */
	const char *lang;            /* `lang:` (BibTeX langid, language), the
	                              * language of its title and texts when not
	                              * the CV's; NULL: the CV's */
	int line, col;
} mpub_t;

typedef struct mnews {
	mdate_t date;
	mtext_t text;
	int line, col;
} mnews_t;

/* The section types, one line each: X(ENUM, name, shape). The name is the
 * profile's `type:`; the shape is the member of msection_t that holds the
 * content (entries, pubs, news, items, text). Every stage expands this list
 * into its own table of per-shape functions (profile.c: keys and parser,
 * model.c: the walk that --dump=model, coverage and the document info
 * follow, layout_blocks.c: the layout, html.c: HTML and JSON; the unit test
 * test_profile.c: a smallest content), so a type whose shape lacks a
 * function in some stage does not compile. A new type of an existing shape
 * is one line here plus its keys' descriptions for `vita schema`
 * (section.NAME rows in profile_schema.c); a new shape is also one function
 * per stage and its member of msection_t. */
#define MODEL_SECTIONS(X) \
	X(SEC_ENTRIES, "entries", entries) \
	X(SEC_EDUCATION, "education", entries) \
	X(SEC_EXPERIENCE, "experience", entries) \
	X(SEC_AWARDS, "awards", entries) \
	X(SEC_PUBLICATIONS, "publications", pubs) \
	X(SEC_NEWS, "news", news) \
	X(SEC_LIST, "list", items) \
	X(SEC_TEXT, "text", text)

#define MODEL_SEC_ENUM(e, name, shape) e,
enum { MODEL_SECTIONS(MODEL_SEC_ENUM) SEC_NTYPES };
#undef MODEL_SEC_ENUM

/* The names in enum order, NULL-terminated (a key list for messages). */
extern const char *const model_section_names[SEC_NTYPES + 1];
/* The name of type t; "entries" for a type out of range. */
const char *model_section_name(int t);
enum { NUM_REVERSE = 0, NUM_FORWARD, NUM_NONE };       /* publications */
enum { GROUP_NONE = 0, GROUP_YEAR, GROUP_TYPE };
/* lists: inline, bullets; numbered 1, 2, ... or n, ..., 1 (style: numbered,
 * reversed; RenderCV's NumberedEntry, ReversedNumberedEntry) */
enum { LIST_INLINE = 0, LIST_BULLETS, LIST_NUMBERED, LIST_REVERSED };

typedef struct msection {
	int type;                    /* SEC_* */
	const char *title;
	const char *title_lang;      /* the title's language when it was picked from
	                              * translations ({en: .., tr: ..}: the key);
	                              * NULL: the profile's text_lang */
	/* SEC_ENTRIES, _EDUCATION, _EXPERIENCE, _AWARDS */
	mentry_t *entries; int nentries;
	/* SEC_PUBLICATIONS */
	mpub_t *pubs; int npubs;
	const char **highlight; int nhighlight; /* never empty: when the profile has
	                             * none, the loader fills in the name (as chosen
	                             * by --lang), its other translations, name_native */
	int numbering;               /* NUM_* */
	int group_by;                /* GROUP_* */
	/* SEC_NEWS */
	mnews_t *news; int nnews;
	/* SEC_LIST */
	mtext_t *items; int nitems;
	int list_style;              /* LIST_* */
	/* SEC_TEXT */
	mtext_t text;
	int line, col;
} msection_t;

typedef struct mcontact {
	const char *kind;            /* email, phone, website, orcid, github, scholar, linkedin, twitter */
	const char *value;           /* as written */
	const char *url;             /* mailto:, tel:, https://... derived from value */
	int line, col;
} mcontact_t;

typedef struct mpos {
	int line, col;      /* 1-based; 0 when the field is absent */
} mpos_t;

typedef struct model {
	const char *file;            /* profile path, for messages */
	const char *dir;             /* directory of the profile ("." if none) */
	int version;
	const char *name;
	const char *name_native;     /* NULL when absent */
	const char *headline, *affiliation, *location;
	/* where those plain strings are, for messages about their text */
	mpos_t at_name, at_native, at_headline, at_affiliation, at_location;
	mcontact_t *contacts; int ncontacts; /* in the order of the spec's table */
	mlink_t *links; int nlinks;
	const char *photo;           /* resolved relative to dir; NULL when absent */
	const struct image *photo_img; /* its pixels, decoded once (image.h) */
	const char *photo_alt;       /* the photo's description (tagged PDF), or NULL */
	int photo_line, photo_col;
	mtext_t summary;
	mdate_t updated;             /* DATE_NONE when absent */
	const char *layout;          /* layout name or file; NULL = default */
	const char **layout_set;     /* "key=value" overrides from the layout map */
	mpos_t *layout_set_at;       /* where each override's value is (NULL: at layout_line) */
	int nlayout_set;
	int layout_line, layout_col;
	const char *lang;            /* language chosen with --lang, else the profile's
	                              * `lang`, else NULL (the layout's lang applies) */
	mpos_t at_lang;              /* where the profile's lang is (0: from --lang or absent) */
	const char *text_lang;       /* the language the profile's plain strings are
	                              * written in: its own `lang` (or RenderCV's
	                              * locale), whatever --lang says; NULL: unsaid
	                              * (the layout's lang) */
	msection_t *sections; int nsections;
} model_t;

/* The model walker: every field of a model, in the order of its dump, each
 * with its name and what a reader sees it as. It serves `--dump=model`,
 * font coverage (layout_usage.c) and the PDF's document info (layout.c).
 * Absent fields are not visited (an empty text, a DATE_NONE date, a NULL
 * string, an empty list, a year of 0). */
enum {
	MV_NODE,     /* a node begins: key "model", "section" (u.str: its type),
	              * "entry", "publication", "news"; the fields that follow,
	              * one level deeper, are its own */
	MV_STR,      /* u.str */
	MV_TEXT,     /* u.text */
	MV_STRS,     /* u.strs[0..n) */
	MV_DATE,     /* u.date */
	MV_LINK,     /* u.link */
	MV_CONTACT,  /* u.contact */
	MV_INT,      /* u.num */
	MV_WORD,     /* u.str: a keyword ("reverse", "yes") */
	MV_MARKS     /* the author marks of u.pub */
};

typedef struct mvisit {
	int kind;                    /* MV_* */
	const char *key;             /* the field's name in the dump */
	const char *role;            /* what a reader sees it as, for messages ("an
	                              * entry title"); NULL when it is never set as
	                              * text of its own (file, dates, keywords...) */
	int depth;                   /* 0: the model node and each section node; 1:
	                              * their fields, entries...; 2: an entry's fields */
	int line, col;               /* where it is in the profile (0: unknown) */
	int at;                      /* MV_STR: the dump shows line:col */
	const msection_t *sec;       /* the section it is in, or NULL */
	int n;                       /* MV_STRS */
	union {
		const char *str;
		const char *const *strs;
		const mtext_t *text;
		const mdate_t *date;
		const mlink_t *link;
		const mcontact_t *contact;
		const mpub_t *pub;
		long num;
	} u;
} mvisit_t;

/* Calls fn on every field; fn returns nonzero to stop the walk. Returns 0
 * when every field was visited, 1 when fn stopped it. */
typedef int model_visit_fn(const mvisit_t *v, void *ctx);
int model_walk(const model_t *m, model_visit_fn *fn, void *ctx);

/* Stable text form for golden tests (`vita render --dump=model`). */
void model_dump(const model_t *m, FILE *out);

#endif
