/* pdf: the only libharu user. Page list -> PDF bytes.
 *
 * Places what layout decided: every run at its position, in the font
 * program of doc->faces[run.face] (a TrueType or CFF subset), with
 * synthetic bold (fill+stroke) and italic (slant) when asked; rectangles,
 * borderless URI links, images, one outline entry per mark (UTF-8 titles),
 * Info (Title, Author, Subject, Keywords, Creator, dates from doc->epoch);
 * by default also the structure tree of doc->tags, XMP metadata, an sRGB
 * output intent, /Lang (pdf_tags.c, pdf_meta.c), in a PDF 1.7 file with an
 * object stream, an xref stream and an /ID from the content (pdf_save.c).
 * Never measures or wraps text. Errors from libharu are caught in its
 * handler and turned into one located error (exit 3); nothing is written
 * to `out` unless the whole document was built.
 */
#ifndef VITA_PDF_H
#define VITA_PDF_H
#include <stdio.h>
#include "err.h"
#include "page.h"

typedef struct pdf_opts {
	int plain;      /* 1: an untagged PDF (no structure tree, no PDF/A-2 or
	                   PDF/UA-1 declarations) */
} pdf_opts_t;

/* Write the document to path ("-" = stdout) through a temporary file beside
 * it, renamed into place only when complete: tagged, PDF/UA-1 and PDF/A-2
 * (level A) unless o->plain. pdf_write is pdf_write_opts with defaults. */
int pdf_write(const page_doc_t *doc, const char *path, errs_t *e);
int pdf_write_opts(const page_doc_t *doc, const char *path, const pdf_opts_t *o, errs_t *e);
/* The process writes one PDF (a fresh render): memory goes back as the
 * writing goes (of the deflate compressors, ~220 KB each, only level 1's
 * and one other at a time), not kept for a next document as a batch
 * worker keeps it. The same bytes. */
void pdf_one_document(void);

#endif
