/* pdf_meta: what makes the file declare PDF/A-2 (level A) and PDF/UA-1,
 * beside the Info dictionary pdf.c fills: the XMP metadata stream, the
 * sRGB output intent, /Lang, /ViewerPreferences /DisplayDocTitle.
 *
 *   pdf_meta_finish(w);   after set_info and the pages (needs the Info)
 *
 * The XMP repeats the Info entries pdf.c wrote (w->info: Title = dc:title,
 * Author = dc:creator, Subject = dc:description, Keywords = pdf:Keywords,
 * Creator = xmp:CreatorTool, Producer = pdf:Producer, the dates from
 * doc->epoch = xmp:CreateDate/ModifyDate), escaped for XML, and carries
 * pdfaid (part 2, conformance A), pdfuaid (part 1, with the extension
 * schema PDF/A requires for it) and dc:language. It is written
 * uncompressed, as archival tools expect.
 *
 * The ICC profile is not ours to ship: it is read at run time from a
 * Debian package (libgs-common's srgb.icc, else icc-profiles-free's or
 * colord-data's sRGB.icc), or from $VITA_ICC_PROFILE. Without one the PDF
 * is still tagged and PDF/UA, but makes no PDF/A claim (a warning says so).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "buf.h"
#include "deps.h"
#include "file.h"
#include "pdf_int.h"
#include "utf8.h"

static const char *const icc_paths[] = {
	"/usr/share/color/icc/ghostscript/srgb.icc",  /* libgs-common */
	"/usr/share/color/icc/sRGB.icc",              /* icc-profiles-free */
	"/usr/share/color/icc/colord/sRGB.icc",       /* colord-data */
};

/* s is as pdf.c wrote it to Info (valid UTF-8, no control characters);
 * the runs between the characters XML escapes are copied whole. */
static void xml_text(buf_t *b, const char *s)
{
	for (;;) {
		size_t n = strcspn(s, "&<>\"");
		buf_add(b, s, n);
		s += n;
		switch (*s) {
		case '&': buf_add(b, "&amp;", 5); break;
		case '<': buf_add(b, "&lt;", 4); break;
		case '>': buf_add(b, "&gt;", 4); break;
		case '"': buf_add(b, "&quot;", 6); break;
		default: return;
		}
		s++;
	}
}

/* A property with a structured value (an rdf:Alt, Seq or Bag of one). */
static void xmp_prop(buf_t *b, const char *name, const char *v, const char *wrap)
{
	if (!v)
		return;
	buf_putc(b, '<');
	buf_puts(b, name);
	buf_add(b, "><rdf:", 6);
	buf_puts(b, wrap);
	buf_add(b, "><rdf:li", 8);
	if (!strcmp(wrap, "Alt"))
		buf_puts(b, " xml:lang=\"x-default\"");
	buf_putc(b, '>');
	xml_text(b, v);
	buf_add(b, "</rdf:li></rdf:", 15);
	buf_puts(b, wrap);
	buf_add(b, "></", 3);
	buf_puts(b, name);
	buf_add(b, ">\n", 2);
}

/* A simple property, written as an attribute of rdf:Description (XMP's
 * shorthand, ISO 16684-1 7.9.2.3: the same value in fewer bytes). */
static void xmp_attr(buf_t *b, const char *name, const char *v)
{
	if (!v)
		return;
	buf_putc(b, ' ');
	buf_puts(b, name);
	buf_add(b, "=\"", 2);
	xml_text(b, v);
	buf_putc(b, '"');
}

/* n >= 0 in exactly k decimal digits at o */
static void put_digits(char *o, int n, int k)
{
	while (k--) {
		o[k] = (char)('0' + n % 10);
		n /= 10;
	}
}

static void xmp_build(pw_t *w, buf_t *b, int pdfa)
{
	const page_doc_t *d = w->doc;
	buf_puts(b, "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
	            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
	            "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
	            "<rdf:Description rdf:about=\"\""
	            " xmlns:dc=\"http://purl.org/dc/elements/1.1/\""
	            " xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\""
	            " xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\""
	            " xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\""
	            " xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\"");
	if (pdfa)
		buf_puts(b, " pdfaid:part=\"2\" pdfaid:conformance=\"A\"");
	buf_puts(b, " pdfuaid:part=\"1\" dc:format=\"application/pdf\"");
	xmp_attr(b, "pdf:Keywords", w->info[3]);
	xmp_attr(b, "pdf:Producer", HPDF_GetInfoAttr(w->pdf, HPDF_INFO_PRODUCER));
	xmp_attr(b, "xmp:CreatorTool", w->info[4]);
	struct tm tm;
	time_t t = (time_t)d->epoch;
	if (gmtime_r(&t, &tm) && tm.tm_year + 1900 >= 1 && tm.tm_year + 1900 <= 9999) {
		char date[] = "YYYY-MM-DDThh:mm:ssZ"; /* the year is 1 to 9999 */
		put_digits(date, tm.tm_year + 1900, 4);
		put_digits(date + 5, tm.tm_mon + 1, 2);
		put_digits(date + 8, tm.tm_mday, 2);
		put_digits(date + 11, tm.tm_hour, 2);
		put_digits(date + 14, tm.tm_min, 2);
		put_digits(date + 17, tm.tm_sec, 2);
		xmp_attr(b, "xmp:CreateDate", date);
		xmp_attr(b, "xmp:ModifyDate", date);
		xmp_attr(b, "xmp:MetadataDate", date);
	}
	buf_puts(b, ">\n");
	xmp_prop(b, "dc:title", w->info[0], "Alt");
	xmp_prop(b, "dc:creator", w->info[1], "Seq");
	xmp_prop(b, "dc:description", w->info[2], "Alt");
	xmp_prop(b, "dc:language", d->lang, "Bag");
	buf_puts(b, "</rdf:Description>\n");
	if (pdfa) /* pdfuaid is not among PDF/A's predefined schemas */
		buf_puts(b, "<rdf:Description rdf:about=\"\""
		            " xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\""
		            " xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\""
		            " xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">\n"
		            "<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType=\"Resource\">"
		            "<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>"
		            "<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>"
		            "<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>"
		            "<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType=\"Resource\">"
		            "<pdfaProperty:name>part</pdfaProperty:name>"
		            "<pdfaProperty:valueType>Integer</pdfaProperty:valueType>"
		            "<pdfaProperty:category>internal</pdfaProperty:category>"
		            "<pdfaProperty:description>Part of ISO 14289 followed</pdfaProperty:description>"
		            "</rdf:li></rdf:Seq></pdfaSchema:property>"
		            "</rdf:li></rdf:Bag></pdfaExtension:schemas>\n"
		            "</rdf:Description>\n");
	buf_puts(b, "</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"r\"?>");
}

/* The profile read last, kept for the next PDF of this process (a batch
 * worker writes hundreds) while its file stays the same (device, inode,
 * size, times, as stat saw them before it was read): one stat per PDF
 * instead of an open, two reads and a close. */
static struct {
	char *path;
	struct stat st;
	buf_t b;
} icc_kept;

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* file_read of the profile at path into icc, through icc_kept. */
static int icc_read(buf_t *icc, const char *path, const char **why)
{
	struct stat st;
	int known = stat(path, &st) == 0;
	if (known && icc_kept.path && !strcmp(icc_kept.path, path) && same_file(&st, &icc_kept.st)) {
		buf_add(icc, icc_kept.b.s, icc_kept.b.len);
		return 0;
	}
	if (file_read(icc, path, FILE_MAX_BINARY, why))
		return -1;
	if (known) {
		free(icc_kept.path);
		icc_kept.path = xstrdup(path);
		icc_kept.st = st;
		buf_reset(&icc_kept.b);
		buf_add(&icc_kept.b, icc->s, icc->len);
	}
	return 0;
}

/* The sRGB output intent; 0 without a profile. */
static int output_intent(pw_t *w)
{
	buf_t *icc = pdf_buf(w); /* freed with w, even after a jump */
	const char *env = getenv("VITA_ICC_PROFILE"), *why;
	int ok = 0;
	const char *used = NULL;
	if (env && *env) {
		ok = icc_read(icc, used = env, &why) == 0 && icc->len > 128;
	} else {
		for (size_t i = 0; !ok && i < sizeof(icc_paths) / sizeof(icc_paths[0]); i++) {
			buf_reset(icc);
			used = icc_paths[i];
			ok = icc_read(icc, used, &why) == 0 && icc->len > 128;
		}
	}
	if (ok)
		deps_add(used); /* an input of the render, like the fonts */
	/* an ICC profile: 'acsp' at 36, an RGB data colour space at 16 */
	ok = ok && !memcmp(icc->s + 36, "acsp", 4) && !memcmp(icc->s + 16, "RGB ", 4);
	if (!ok) {
		warn_at(w->e, w->path, 0, 0, "no sRGB ICC profile found (install libgs-common, or set "
		        "VITA_ICC_PROFILE): the PDF is tagged but does not claim PDF/A-2");
		return 0;
	}
	void *prof = pdf_raw_stream(w, icc->s, icc->len, "/N 3", PDF_Z_BEST);
	w->held[pdf_obj_id(prof)].konst = 1; /* deflated once, kept in the cache */
	HPDF_Dict oi = pdf_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pdf_ok(w, HPDF_Dict_AddName(oi, "Type", "OutputIntent"));
	pdf_ok(w, HPDF_Dict_AddName(oi, "S", "GTS_PDFA1"));
	pdf_ok(w, HPDF_Dict_Add(oi, "OutputConditionIdentifier",
	                        pdf_obj(w, HPDF_String_New(w->pdf->mmgr, "sRGB IEC61966-2.1", NULL))));
	pdf_ok(w, HPDF_Dict_Add(oi, "DestOutputProfile", prof));
	HPDF_Array a = pdf_array(w);
	pdf_ok(w, HPDF_Array_Add(a, oi));
	pdf_ok(w, HPDF_Dict_Add(w->pdf->catalog, "OutputIntents", a));
	return 1;
}

void pdf_meta_finish(pw_t *w)
{
	if (w->plain)
		return;
	w->what = "write the metadata";
	HPDF_Dict cat = w->pdf->catalog;
	int pdfa = output_intent(w);
	buf_t *x = pdf_buf(w);
	xmp_build(w, x, pdfa);
	void *m = pdf_raw_stream(w, x->s, x->len, "/Type/Metadata/Subtype/XML", PDF_Z_META);
	pdf_ok(w, HPDF_Dict_Add(cat, "Metadata", m));
	if (w->doc->lang && utf8_invalid_at(w->doc->lang, strlen(w->doc->lang)) < 0)
		pdf_ok(w, HPDF_Dict_Add(cat, "Lang",
		                        pdf_obj(w, HPDF_String_New(w->pdf->mmgr, w->doc->lang, NULL))));
	HPDF_Dict vp = pdf_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pdf_ok(w, HPDF_Dict_AddBoolean(vp, "DisplayDocTitle", HPDF_TRUE));
	pdf_ok(w, HPDF_Dict_Add(cat, "ViewerPreferences", vp));
}
