/* locale: locales/<code>.yaml -> the fixed words and patterns of a CV in
 * one language.
 *
 * Everything a CV prints that does not come from the profile is here:
 * month names, date patterns, the range pattern, "present", the footer,
 * the PDF title, the badge prefix, the notes under a publication list,
 * quote characters, the direction of the page. docs/locales.md lists the
 * keys and the placeholders each pattern takes.
 *
 *   const vlocale_t *l = locale_load("zh", dirs, "--lang", 0, 0, e);
 *   locale_date(l, DATE_MONTH, 2021, 9, 0, &b)     -> "2021年9月"
 *   locale_fill(l->footer, "name", n, "page", "1", "pages", "2", NULL)
 *
 * A code is looked up as <dir>/<code>.yaml, then among the `aliases:` of
 * every locale file (zh -> zh-Hans, zh-TW -> zh-Hant), then without its
 * region (pt-BR -> pt). Every key is required; a pattern with an unknown
 * or missing placeholder is a located error. A layout may override any
 * string with `locale.KEY: value` (locale_set). The struct is public so
 * that layout (and an HTML writer) read the strings directly; all of them
 * are valid UTF-8 and never NULL once loaded.
 *
 * (The type is vlocale_t: POSIX owns locale_t. With -Iinclude this header
 * also hides the system <locale.h>; vita never calls setlocale.)
 */
#ifndef VITA_LOCALE_H
#define VITA_LOCALE_H
#include <stdint.h>
#include <stdio.h>
#include "buf.h"
#include "err.h"

/* what a date has: the same values as model.h's DATE_YEAR.. DATE_DAY */
enum { LOCALE_YEAR = 1, LOCALE_MONTH = 2, LOCALE_DAY = 3 };

typedef struct locale {
	const char *code;          /* the file's code: "zh-Hans", "de" */
	const char *name;          /* the language's own name: "简体中文" */
	const char *lang;          /* BCP 47 tag for text (PDF /Lang, shaping, hyphenation) */
	int rtl;                   /* 1: right-to-left; the page is mirrored */
	const char *months[12];    /* "September" */
	const char *months_short[12]; /* "Sep." */
	const char *months_of[12]; /* the form inside a full date ("сентября"); = months when absent */
	const char *date_year;     /* "{year}" */
	const char *date_month;    /* "{mon} {year}" */
	const char *date_day;      /* "{mon} {d}, {year}" */
	const char *range;         /* "{start} – {end}" */
	const char *present;       /* "present" */
	const char *updated;       /* "Updated {date}" ("" = no such line) */
	const char *footer;        /* "{name} — page {page} of {pages}" */
	const char *title;         /* PDF title: "Curriculum Vitae — {name}" */
	const char *badges;        /* "Artifact badges:" */
	const char *equal;         /* "* Equal contribution." */
	const char *corresponding; /* "† Corresponding author." */
	const char *et_al;         /* "et al." */
	const char *comma;         /* between two parts of one line: ", " (optional: NULL = ", ") */
	const char *editor;        /* one editor: "{names} (ed.)" (optional: NULL = editors) */
	const char *editors;       /* "{names} (eds.)" (optional: NULL = the names alone) */
	const char *phdthesis;     /* a doctoral thesis: "PhD thesis, {venue}" (optional) */
	const char *mastersthesis; /* "Master’s thesis, {venue}" (optional) */
	const char *techreport;    /* "Technical report, {venue}" (optional) */
	const char *published;     /* heading of published papers when grouped by type */
	const char *year;          /* after the authors: "({year})" */
	const char *year_status;   /* "({year}, {status})" */
	const char *scholar;       /* label of a Google Scholar contact */
	const char *photo_alt;     /* the photo's alternate text: "Photo of {name}" */
	const char *quotes[4];     /* “ ” ‘ ’: outer open/close, inner open/close */
	const char *number;        /* a numbered list's marker: "{n}." (optional: NULL = "{n}.") */
	const char *pub_number;    /* a publication's number: "[{n}]" (optional: NULL = "[{n}]") */
	const char *digits[10];    /* the digits numbers are written with (optional: NULL = 0-9) */
	const char *label_sep;     /* after a label that ends in ':' ("Artifact badges:"), before
	                              its value: " " (optional: NULL = " "); "" in Chinese and
	                              Japanese, whose full-width colon carries its own space */
	const char *file;          /* where it came from, for messages */
} vlocale_t;

/* Load the locale for code (see above). An unknown code is an error at
 * where:line:col, with a "did you mean" among the installed codes. The
 * result lives until locale_free. */
vlocale_t *locale_load(const char *code, const char *const *dirs, const char *where, int line,
                      int col, errs_t *e);
/* 1 when code names an installed locale (directly, by alias or by its
 * language without the region). */
int locale_exists(const char *code, const char *const *dirs);
/* The installed code or alias nearest to code, or NULL; static storage. */
const char *locale_suggest(const char *code, const char *const *dirs);
/* Override one string: key as in the locale file ("present", "months",
 * "quotes"; lists as comma-separated text). Checked like the file. */
int locale_set(vlocale_t *l, const char *key, const char *value, const char *where, int line,
               int col, errs_t *e);
/* A copy of l to apply overrides to (batch loads a locale once for many
 * CVs). It borrows l's strings: free it before l. */
vlocale_t *locale_dup(const vlocale_t *l);
void locale_free(vlocale_t *l);

/* Append a date of precision LOCALE_YEAR/MONTH/DAY in the locale's form. */
void locale_date(const vlocale_t *l, int precision, int y, int m, int d, buf_t *out);
/* Append n written with the locale's digits. */
void locale_int(const vlocale_t *l, long n, buf_t *out);
/* Append ascii with each of its ASCII digits in the locale's digits. */
void locale_digits(const vlocale_t *l, const char *ascii, buf_t *out);
/* Fill a pattern's {placeholders} from NULL-terminated name, value pairs;
 * an unknown placeholder is copied as written. Appends to out. */
void locale_fill(buf_t *out, const char *pattern, ...);
/* Typographic punctuation for text of this locale, appended to out:
 * ' inside a word or before digits -> ’ (Master’s, EuroSys ’26, arXiv ’2508),
 * "..." and '...' -> the locale's quotes (“ ” „ “ « » 「 」), ... -> …,
 * -- -> –, --- -> —, a spaced hyphen -> an en dash, and a hyphen between
 * two numbers of up to four digits (a range: 2019-2021, pp. 12-15) -> –.
 * Words that look like a URL, an e-mail address or a DOI, and text between
 * `backticks`, are copied as written. *prev is the code point before s
 * (0 at the start of a field) and is updated, so a field split into spans
 * (bold, links) is treated as one text. */
void locale_smart(const vlocale_t *l, const char *s, size_t n, uint32_t *prev, buf_t *out);
/* Apply locale_smart to every text field of a model, in place (strings
 * are replaced by copies in a): names, headline, affiliation, location,
 * summary, section titles, entries, publications (authors, equal and
 * highlight alike, so matching still works), news, lists and text.
 * Contacts, link targets and DOIs are left alone. A publication's genre
 * (phdthesis...) puts the locale's phrase around its venue. Called once between
 * loading and layout, so the PDF, HTML and JSON show the same words. */
struct model;
struct arena;
void locale_smart_model(const vlocale_t *l, struct model *m, struct arena *a);
/* The words a CV prints for parts of its model, the same in the PDF and in
 * HTML (locale_model.c): a date ("Sep. 2021", "present", free text); an
 * entry's date column (a range, an end or a single date; nothing when it
 * has none); a contact's label ("ORCID 0000-...", "github.com/NAME", the
 * locale's word for a Scholar profile). Each appends to b;
 * locale_entry_dates returns where, in what it appended, a range's end
 * date starts: 0 for one date (a range from a date to the same date is
 * that date), -1 for a range whose pattern does not end with {end}. */
struct mdate;
struct mentry;
struct mcontact;
void locale_date_text(const vlocale_t *l, const struct mdate *d, buf_t *b);
int locale_entry_dates(const vlocale_t *l, const struct mentry *en, buf_t *b);
void locale_contact_label(const vlocale_t *l, const struct mcontact *c, buf_t *b);
/* The date of the footer's "updated" line: the profile's `updated`, else
 * the month of epoch (seconds, UTC: SOURCE_DATE_EPOCH or now). */
void locale_updated(const vlocale_t *l, const struct mdate *updated, long long epoch, buf_t *b);
/* `vita locales`-style listing: code and name of every installed locale. */
void locale_list(const char *const *dirs, FILE *out);

#endif
