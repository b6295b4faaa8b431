/* pdf: the only libharu user. Page list -> PDF bytes.
 *
 * Places what layout decided: every run at its position, in the font
 * program of doc->faces[run.face] (a hb-subset TrueType program), with
 * synthetic bold (fill+stroke) and italic (slant) when asked; rectangles,
 * borderless URI links, images, one outline entry per mark (UTF-8 titles),
 * Info (Title, Author, Subject, Keywords, Creator, dates from doc->epoch).
 * Never measures or wraps text. Errors from libharu are caught in its
 * handler and turned into one located error (exit 3); nothing is written
 * to `out` unless the whole document was built.
 */
#ifndef VITA_PDF_H
#define VITA_PDF_H
#include <stdio.h>
#include "err.h"
#include "page.h"

/* Write the document to path ("-" = stdout) through a temporary file beside
 * it, renamed into place only when complete. */
int pdf_write(const page_doc_t *doc, const char *path, errs_t *e);

#endif
