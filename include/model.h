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
	const char **equal; int nequal;
	const char *venue;           /* short tag */
	mtext_t venue_full;
	int year;                    /* 0 when absent */
	const char *status;
	const char *doi;
	mlink_t *links; int nlinks;
	const char **badges; int nbadges;
	mtext_t note;
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
 * model.c: the walk, layout_blocks.c: the layout, html.c: HTML and JSON),
 * so a type whose shape lacks a function in some stage does not compile.
 * A new type of an existing shape is one line here; a new shape is one line
 * plus one function per stage (and the key descriptions in profile_schema.c). */
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
enum { LIST_INLINE = 0, LIST_BULLETS };

typedef struct msection {
	int type;                    /* SEC_* */
	const char *title;
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
	msection_t *sections; int nsections;
} model_t;

/* Stable text form for golden tests (`vita render --dump=model`). */
void model_dump(const model_t *m, FILE *out);

#endif
