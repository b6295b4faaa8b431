/* err: located diagnostics.
 *
 * Every stage reports problems into an errs_t list: file, 1-based line and
 * column, message, optional context. Functions return 0 on success and -1
 * on failure; only main prints (err_print). Warnings are kept in the same
 * list with sev ERR_WARNING and never make a function fail by themselves.
 * `code` is the exit status a fatal error maps to: 1 invalid input,
 * 3 system resource (missing font, unwritable output).
 */
#ifndef VITA_ERR_H
#define VITA_ERR_H
#include <stdio.h>

enum { ERR_ERROR = 0, ERR_WARNING = 1 };
enum { ERR_INPUT = 1, ERR_USAGE = 2, ERR_SYSTEM = 3 };

typedef struct err {
	char file[512];     /* file the problem is in; "" when none */
	int line, col;      /* 1-based; 0 when unknown */
	int sev;            /* ERR_ERROR or ERR_WARNING */
	int code;           /* ERR_INPUT or ERR_SYSTEM */
	char msg[512];      /* what is wrong and what was expected */
	char context[256];  /* optional: "while reading section 3" */
} err_t;

typedef struct errs {
	err_t *v;           /* owned; grows */
	int n, cap;
	int nerrors;        /* entries with sev == ERR_ERROR */
	int max;            /* stop recording after this many (0 = 100) */
	int last;           /* 1 + the index the latest call recorded; 0: none */
} errs_t;

void errs_init(errs_t *e);
void errs_done(errs_t *e);
void errs_clear(errs_t *e);
/* Record an error (exit code ERR_INPUT); always returns -1. */
int err_at(errs_t *e, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Record an error with an explicit exit code (ERR_SYSTEM for resources). */
int err_at_code(errs_t *e, int code, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* err_at_code(e, ERR_SYSTEM, file, 0, 0, ...): a resource, not a place. */
int err_sys(errs_t *e, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record a warning; returns 0. */
int warn_at(errs_t *e, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Set the context ("while writing out.pdf") of what the latest err_* or
 * warn_at call recorded; nothing when it recorded none (past `max`). */
void err_context(errs_t *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Record from's entries after e's, as if they had been recorded in e. */
void errs_append(errs_t *e, const errs_t *from);
/* The exit code of the worst error (0 if none). */
int errs_code(const errs_t *e);
/* Print as "file:line:col: error: msg" (fields omitted when unknown). */
void err_print(FILE *f, const err_t *e);
void errs_print(FILE *f, const errs_t *e);

#endif
