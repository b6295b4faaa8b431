/* Unit tests for pdf: a hand-made page list written with installed fonts,
 * checked with the real tools (pdftotext, pdffonts, pdfinfo, qpdf, mutool),
 * reproducibility (cmp), stdout, failure paths, and speed. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "buf.h"
#include "file.h"
#include "image.h"
#include "pdf.h"
#include "sfnt.h"
#include "utf8.h"
#include "t.h"

#include "t_fonts.h"
#define SERIF t_font("serif", FONT_REGULAR, "en", 'A')
#define SERIF_B t_font("serif", FONT_BOLD, "en", 'A')
#define KAI cjk_file()

static char dir[256];
static char *file_in(const char *name);

/* The serif chain's Chinese face (Noto Serif CJK SC: CFF outlines in a
 * collection) cut by font_subset to the characters these tests draw with
 * it, as a file: the PDF writer embeds a face's program, never a whole
 * collection. "/nonexistent/font" when there is none. */
static const char *cjk_file(void)
{
	static const char chars[] = "\u6731\u5c55\u8fbe\u6559\u80b2\u8bba\u6587"
	                            "a-b\u2011c \u2012\u2013";
	static const char *const fdirs[] = {"fonts", NULL};
	static const char *path;
	if (path)
		return path;
	path = "/nonexistent/font";
	uint32_t cps[64];
	int n = 0;
	for (size_t i = 0; chars[i] && n < 64; n++)
		i += (size_t)utf8_next(chars + i, strlen(chars + i), &cps[n]);
	errs_t e;
	errs_init(&e);
	arena_t *a = arena_new();
	font_lib_t *lib = font_lib_new(fdirs, &e);
	font_chain_t *c = lib ? font_chain_get(lib, "serif", &e) : NULL;
	int face = c ? font_face_for(c, FONT_REGULAR, "zh", 0x6731) : -1;
	const unsigned char *data;
	size_t len;
	if (face >= 0 && font_subset(lib, face, cps, n, a, &data, &len, &e) == 0) {
		const char *p = file_in("cjk.otf");
		FILE *f = fopen(p, "wb");
		if (f && fwrite(data, 1, len, f) == len && fclose(f) == 0)
			path = strdup(p); /* file_in's buffers are reused */
	}
	errs_print(stderr, &e);
	font_lib_free(lib);
	arena_free(a);
	errs_done(&e);
	return path;
}

static char *run(const char *fmt, const char *arg)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), fmt, arg, arg);
	FILE *f = popen(cmd, "r");
	if (!f)
		return strdup("");
	size_t n = 0, cap = 4096;
	char *s = malloc(cap);
	size_t k;
	while ((k = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += k;
		if (cap - n < 2)
			s = realloc(s, cap *= 2);
	}
	s[n] = '\0';
	pclose(f);
	return s;
}

static int has(const char *cmd_fmt, const char *arg, const char *needle)
{
	char *s = run(cmd_fmt, arg);
	int ok = strstr(s, needle) != NULL;
	if (!ok)
		fprintf(stderr, "output of '%s' lacks \"%s\":\n%s\n", cmd_fmt, needle, s);
	free(s);
	return ok;
}

static char *file_in(const char *name)
{
	static char p[8][512];
	static int i;
	char *s = p[i++ % 8];
	snprintf(s, 512, "%s/%s", dir, name);
	return s;
}

static void text(page_t *p, int face, int synth, int32_t x, int32_t y, const char *s)
{
	page_run(p, &(page_run_t){.x = x, .y = y, .size = 11000, .face = face, .synth = synth,
	                          .color = 0x202020, .text = s, .len = (int)strlen(s)});
}

/* Point d's faces at the font files' bytes (read into d->arena; a path
 * that cannot be read gives a face without a program). */
static void set_faces(page_doc_t *d, const char *const *paths, int n)
{
	d->faces = arena_alloc(d->arena, sizeof(page_face_t) * (size_t)n);
	d->nfaces = n;
	for (int i = 0; i < n; i++) {
		buf_t b;
		buf_init(&b);
		d->faces[i].name = paths[i];
		const char *why;
		if (paths[i] && file_read(&b, paths[i], FILE_MAX_BINARY, &why) == 0 && b.len) {
			unsigned char *p = arena_alloc(d->arena, b.len);
			memcpy(p, b.s, b.len);
			d->faces[i].data = p;
			d->faces[i].len = b.len;
		}
		buf_done(&b);
	}
}

static page_doc_t *make_doc(void)
{
	page_doc_t *d = page_doc_new(595276, 841890);
	d->lang = "en";
	d->title = "Curriculum Vitae — Zhanda Zhu";
	d->author = "Zhanda Zhu (朱展达)";
	d->subject = "CV";
	d->keywords = "systems, ML";
	d->creator = "vita test";
	d->epoch = 1704164645; /* 2024-01-02 03:04:05 UTC */
	const char *faces[] = {SERIF, KAI, SERIF_B};
	set_faces(d, faces, 3);
	page_t *p = page_add(d);
	text(p, 0, 0, 56693, 80000, "Zhanda Zhu");
	text(p, 1, 0, 120000, 80000, "朱展达");
	text(p, 0, 0, 56693, 100000, "Müller Ñandú café naïve Ærøskøbing");
	text(p, 0, 0, 56693, 120000, "Ελληνικά Русский язык");
	text(p, 0, 1, 56693, 140000, "SyntheticBold");
	text(p, 0, 2, 56693, 160000, "SyntheticItalic");
	text(p, 2, 0, 56693, 180000, "RealBold \"quoted\" (x) \\ back");
	page_rect(p, &(page_rect_t){56693, 190000, 481890, 500, 0x3366cc, 0, 0});
	page_rect(p, &(page_rect_t){56693, 200000, 50000, 20000, 0xcc0000, 800, 0});
	text(p, 0, 0, 60000, 214000, "Badge");
	page_link(p, &(page_link_t){56693, 230000, 100000, 12000, "https://example.org/ü?a=1 b"});
	text(p, 0, 0, 56693, 240000, "example.org");
	page_mark(d, "Education 教育", 0, 70000);
	p = page_add(d);
	text(p, 0, 0, 56693, 80000, "Publications on page two");
	page_mark(d, "Publications 论文", 1, 70000);
	return d;
}

TEST(test_write_and_check)
{
	page_doc_t *d = make_doc();
	errs_t e;
	errs_init(&e);
	const char *out = file_in("a.pdf");
	EQ_INT(pdf_write(d, out, &e), 0);
	EQ_INT(e.n, 0);
	errs_print(stderr, &e);
	CHECK(has("pdftotext -layout %s - 2>/dev/null", out, "Zhanda Zhu"));
	CHECK(has("pdftotext %s - 2>/dev/null", out, "朱展达"));
	CHECK(has("pdftotext %s - 2>/dev/null", out, "Müller Ñandú café naïve Ærøskøbing"));
	CHECK(has("pdftotext %s - 2>/dev/null", out, "Ελληνικά Русский язык"));
	CHECK(has("pdftotext %s - 2>/dev/null", out, "SyntheticBold"));
	CHECK(has("pdftotext %s - 2>/dev/null", out, "SyntheticItalic"));
	CHECK(has("pdftotext %s - 2>/dev/null", out, "RealBold \"quoted\" (x) \\ back"));
	CHECK(has("pdftotext -f 2 -l 2 %s - 2>/dev/null", out, "Publications on page two"));
	CHECK(has("pdffonts %s", out, "NotoSerif-Regular"));
	/* the CJK face is CFF: a CIDFontType0 over a CID-keyed CFF */
	CHECK(has("pdffonts %s | grep -c 'NotoSerifCJKsc-Regular *CID Type 0C *Custom *yes yes yes'", out, "1"));
	CHECK(has("pdffonts %s | awk 'NR>2 && $0 !~ / yes +yes +yes / {bad=1} END {print bad ? \"BAD\" : \"ALLEMB\"}'",
	          out, "ALLEMB"));
	CHECK(has("qpdf --check %s 2>&1", out, "No syntax or stream encoding errors"));
	CHECK(has("pdfinfo %s", out, "Title:           Curriculum Vitae — Zhanda Zhu"));
	CHECK(has("pdfinfo %s", out, "Author:          Zhanda Zhu (朱展达)"));
	CHECK(has("pdfinfo %s", out, "Keywords:        systems, ML"));
	CHECK(has("pdfinfo %s", out, "Creator:         vita test"));
	CHECK(has("pdfinfo %s", out, "Pages:           2"));
	CHECK(has("pdfinfo %s", out, "Page size:       595.276 x 841.89 pts (A4)"));
	CHECK(has("TZ=UTC pdfinfo -isodates %s", out, "CreationDate:    2024-01-02T03:04:05"));
	CHECK(has("TZ=UTC pdfinfo -isodates %s", out, "ModDate:         2024-01-02T03:04:05"));
	CHECK(has("mutool show %s outline 2>&1", out, "Education 教育"));
	CHECK(has("mutool show %s outline 2>&1", out, "Publications 论文"));
	CHECK(has("qpdf --show-npages %s", out, "2"));
	/* link: borderless, URI percent-encoded */
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -a -e URI -e Border", out,
	          "https://example.org/%C3%BC?a=1%20b"));
	CHECK(has("qpdf --qdf --object-streams=disable %s - | tr -d '\\000' | tr -s '\\n ' '  '", out,
	          "/Border [ 0 0 0 ]"));
	/* outline destinations keep the reader's zoom */
	CHECK(has("qpdf --qdf --object-streams=disable %s - | tr -d '\\000' | tr -s '\\n ' '  '", out,
	          "/XYZ null 771.89"));
	/* Synthetic bold: fill+stroke; italic: slanted matrix */
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -a -e ' Tr' -e ' Tm'", out, "2 Tr"));
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -a -e ' Tr' -e ' Tm'", out,
	          "1 0 0.21256 1 56.693 681.89"));
	/* CID = GID: no CIDToGIDMap stream; ToUnicode maps each CID drawn to
	   its code point with bfchar, which every extractor reads (libharu's
	   own "begincidrange" map broke gs) */
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -a -e begincidrange -e '^/CMapName' | "
	          "grep -A1 Adobe-Identity-UCS | grep -c begincidrange", out, "0"));
	/* a subset's codes are one byte (the one CMap Vita-OneByte-H) */
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -ac '^/CMapName /Vita-OneByte-H def'", out, "1"));
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -a '> <6731>$'", out, "<6731>"));
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -a CIDToGIDMap | sort | uniq -c | "
	          "awk '{print $1, $3}'", out, "2 /Identity\n"));
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -a -c '/Subtype /CIDFontType0C'", out, "1"));
	/* text is literal strings, never hex */
	CHECK(has("qpdf --qdf --object-streams=disable --normalize-content=n %s - | grep -ac '> *[]]*T[Jj]'",
	          out, "0"));
	CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=txtwrite -sOutputFile=- %s", out, "朱展达"));
	CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=txtwrite -sOutputFile=- %s", out, "Ελληνικά Русский язык"));
	CHECK(has("mutool draw -q -F txt -o - %s 1 2>/dev/null", out, "Müller Ñandú café"));
	CHECK(has("pdftotext %s - 2>&1 | grep -c Warning", out, "0"));
	/* renders without complaint */
	CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=nullpage %s 2>&1; echo GS-DONE", out, "GS-DONE"));
	CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=nullpage %s 2>&1 | grep -ci error", out, "0"));
	/* reproducible: same list + epoch -> same bytes */
	const char *out2 = file_in("b.pdf");
	EQ_INT(pdf_write(d, out2, &e), 0);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", out, out2);
	EQ_INT(system(cmd), 0);
	d->epoch += 1;
	EQ_INT(pdf_write(d, out2, &e), 0);
	CHECK(system(cmd) != 0);
	/* permissions follow the umask, like any new file */
	struct stat st;
	CHECK(stat(out, &st) == 0 && (st.st_mode & 0777) == (0666 & ~(unsigned)umask(022)));
	page_doc_free(d);
	errs_done(&e);
}

TEST(test_stdout)
{
	page_doc_t *d = make_doc();
	errs_t e;
	errs_init(&e);
	const char *ref = file_in("ref.pdf"), *got = file_in("stdout.pdf");
	EQ_INT(pdf_write(d, ref, &e), 0);
	fflush(stdout);
	int saved = dup(1), fd = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	close(fd);
	int rc = pdf_write(d, "-", &e);
	dup2(saved, 1);
	close(saved);
	EQ_INT(rc, 0);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", ref, got);
	EQ_INT(system(cmd), 0);
	page_doc_free(d);
	errs_done(&e);
}

static int count_files(void)
{
	char *s = run("ls -A %s | wc -l", dir);
	int n = atoi(s);
	free(s);
	return n;
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "wb");
	fputs(s, f);
	fclose(f);
}

/* A failed write returns -1 with exit code 3, names the culprit, leaves the
 * existing target untouched and no temporary file behind. */
static void expect_fail(page_doc_t *d, const char *target, const char *culprit,
                        const char *msg)
{
	errs_t e;
	errs_init(&e);
	int before = count_files();
	EQ_INT(pdf_write(d, target, &e), -1);
	EQ_INT(errs_code(&e), 3);
	EQ_INT(e.nerrors, 1);
	CHECK(e.n > 0 && strstr(e.v[0].file, culprit));
	CHECK(e.n > 0 && strstr(e.v[0].msg, msg));
	if (e.n > 0 && !strstr(e.v[0].msg, msg))
		fprintf(stderr, "message: %s: %s\n", e.v[0].file, e.v[0].msg);
	if (getenv("SHOW")) errs_print(stderr, &e);
	EQ_INT(count_files(), before);
	errs_done(&e);
}

TEST(test_failures)
{
	const char *target = file_in("keep.pdf");
	write_file(target, "old contents");
	page_doc_t *d = make_doc();
	const char *missing[] = {SERIF, "/nonexistent/font.ttf", SERIF_B};
	set_faces(d, missing, 3);
	expect_fail(d, target, target, "face id 1 has no font program");
	CHECK(has("cat %s", target, "old contents"));

	const char *junk = file_in("junk.ttf");
	write_file(junk, "this is not a font at all, just some text......");
	const char *bad[3] = {SERIF, NULL, SERIF_B};
	bad[1] = junk;
	set_faces(d, bad, 3);
	expect_fail(d, target, "junk.ttf", "not a TrueType font");

	/* a collection is never embedded whole: the font module cuts one face */
	const char *ttc[] = {SERIF, t_fc_file("Noto Serif CJK SC:style=Regular"), SERIF_B};
	if (access(ttc[1], R_OK) == 0) {
		set_faces(d, ttc, 3);
		expect_fail(d, target, "NotoSerifCJK", "collection");
	}
	/* a font libharu 2.3.0 would crash on: hhea.numberOfHMetrics > numGlyphs */
	char cmd[800];
	const char *crash = file_in("crash.ttf");
	snprintf(cmd, sizeof(cmd),
	         "python3 -c \"import struct,sys\n"
	         "b=bytearray(open('%s','rb').read())\n"
	         "n=struct.unpack('>H',b[4:6])[0]\n"
	         "for i in range(n):\n"
	         " t=b[12+16*i:28+16*i]\n"
	         " if t[:4]==b'hhea':\n"
	         "  o=struct.unpack('>I',t[8:12])[0]; b[o+34:o+36]=b'\\xff\\xff'\n"
	         "open('%s','wb').write(b)\"", SERIF, crash);
	if (system(cmd) == 0) {
		const char *cr[3] = {NULL, SERIF, SERIF_B};
		cr[0] = crash;
		set_faces(d, cr, 3);
		expect_fail(d, target, "crash.ttf", "numberOfHMetrics");
	}
	/* a font without a name table has no PostScript name to embed it by */
	const char *noname = file_in("noname.ttf");
	snprintf(cmd, sizeof(cmd),
	         "python3 -c \"b=bytearray(open('%s','rb').read())\n"
	         "i=b.find(b'name',12); b[i:i+4]=b'xame'\n"
	         "open('%s','wb').write(b)\"", SERIF, noname);
	if (system(cmd) == 0) {
		const char *nn[3] = {SERIF, NULL, SERIF_B};
		nn[1] = noname;
		set_faces(d, nn, 3);
		expect_fail(d, target, "noname.ttf", "cannot embed the font: corrupt font: no 'name' table");
	}
	/* two files with the same PostScript name: two fonts, distinct tags */
	const char *copy = file_in("copy.ttf");
	snprintf(cmd, sizeof(cmd), "cp %s %s", SERIF, copy);
	if (system(cmd) == 0) {
		const char *cp[3] = {SERIF, SERIF_B, NULL};
		cp[2] = copy;
		set_faces(d, cp, 3);
		text(&d->pages[1], 2, 0, 56693, 100000, "Copy");
		errs_t e2;
		errs_init(&e2);
		const char *two = file_in("two.pdf");
		EQ_INT(pdf_write(d, two, &e2), 0);
		CHECK(has("pdffonts %s | grep -c '+NotoSerif-Regular '", two, "2"));
		CHECK(has("pdffonts %s | awk 'NR>2 {print substr($1,1,6)}' | sort | uniq -d | wc -l", two, "0"));
		CHECK(has("pdftotext %s -", two, "Copy"));
		errs_done(&e2);
		d->pages[1].n--;
	}
	set_faces(d, (const char *[]){SERIF, KAI, SERIF_B}, 3);
	/* an image with no pixels (the profile loader decodes every photo) */
	page_image(&d->pages[1], &(page_image_t){.w = 10000, .h = 10000, .path = junk, .png = 1});
	expect_fail(d, target, "junk.ttf", "not decoded");
	CHECK(has("cat %s", target, "old contents"));
	d->pages[1].n--;
	/* unwritable targets */
	expect_fail(d, "/nonexistent-dir/cv.pdf", "/nonexistent-dir/cv.pdf", "No such file");
	expect_fail(d, dir, dir, "directory");
	CHECK(has("cat %s", target, "old contents"));
	/* and the same document does write */
	errs_t e;
	errs_init(&e);
	EQ_INT(pdf_write(d, target, &e), 0);
	CHECK(has("pdftotext %s -", target, "Zhanda"));
	errs_done(&e);
	page_doc_free(d);
}

/* Runs libharu would mangle are skipped with a warning, not drawn. */
TEST(test_bad_text)
{
	page_doc_t *d = page_doc_new(595276, 841890);
	d->lang = "en";
	const char *faces[] = {SERIF};
	set_faces(d, faces, 1);
	page_t *p = page_add(d);
	text(p, 0, 0, 1000, 20000, "good");
	text(p, 0, 0, 1000, 40000, "bad \xff\xfe utf8");
	text(p, 0, 0, 1000, 60000, "astral \xf0\xa0\xae\xb7");
	page_run(p, &(page_run_t){.x = 1000, .y = 70000, .size = 0, .text = "zero", .len = 4});
	page_rect(p, &(page_rect_t){0, 0, 10, 10, 0, 200000, 0});
	/* a long run over libharu's 65,535-byte string limit */
	size_t n = 70000;
	char *big = malloc(n + 1);
	for (size_t i = 0; i < n; i += 2)
		memcpy(big + i, "é", 2);
	big[n] = '\0';
	text(p, 0, 0, 1000, 80000, big);
	free(big);
	errs_t e;
	errs_init(&e);
	const char *out = file_in("bad.pdf");
	EQ_INT(pdf_write(d, out, &e), 0);
	EQ_INT(e.nerrors, 0);
	EQ_INT(e.n, 3);   /* a character past the BMP is drawn (a copy of .notdef here) */
	for (int i = 0; i < e.n; i++)
		CHECK(!strstr(e.v[i].msg, "y=60000"));
	CHECK(has("pdftotext %s -", out, "good"));
	CHECK(has("pdftotext %s -", out, "astral \xf0\xa0\xae\xb7"));
	/* the long run is drawn whole, in two strings of one TJ (off the
	   page, so count the code points in the content stream, not with
	   pdftotext) */
	/* é is glyph 171 (0x00AB) of Noto Serif: count its low bytes */
	CHECK(has("qpdf --qdf --object-streams=disable --normalize-content=n %s - | grep -a TJ | "
	          "tr -cd '\\253' | wc -c", out, "35000"));
	/* good, astral, the long run */
	CHECK(has("qpdf --qdf --object-streams=disable --normalize-content=n %s - | grep -ac TJ", out, "3"));
	CHECK(has("qpdf --qdf --object-streams=disable --normalize-content=n %s - | grep -a TJ | "
	          "grep -aoF ')(' | wc -l", out, "1"));
	CHECK(has("qpdf --check %s 2>&1", out, "No syntax or stream encoding errors"));
	errs_done(&e);
	page_doc_free(d);
}

/* Every extractor reads glyph ids that need escaping in a literal string,
 * a glyph two code points share, and code points the font lacks. */
TEST(test_glyph_ids)
{
	page_doc_t *d = page_doc_new(595276, 841890);
	d->lang = "en";
	const char *faces[] = {SERIF, KAI};
	set_faces(d, faces, 2);
	page_t *p = page_add(d);
	/* Noto Serif: ' * E F y are glyphs 10 13 40 41 92 (LF CR ( ) \);
	   U+2010 is glyph 0x0A59 */
	static const char *const lines[] = {
		"it's *EFy\u2010x Eye(F)", /* escapes */
		"x\u6731y\u5c55z\u6731", /* no glyph: each its own copy of .notdef */
		"a-b\u2011c \u2012\u2013 -\u2011",  /* Noto Serif CJK: one glyph each pair */
	};
	text(p, 0, 0, 56693, 80000, lines[0]);
	text(p, 0, 0, 56693, 100000, lines[1]);
	text(p, 1, 0, 56693, 120000, lines[2]);
	errs_t e;
	errs_init(&e);
	const char *out = file_in("gid.pdf");
	EQ_INT(pdf_write(d, out, &e), 0);
	EQ_INT(e.n, 0);
	for (int i = 0; i < 3; i++) {
		CHECK(has("pdftotext %s - 2>&1", out, lines[i]));
		CHECK(has("mutool draw -q -F txt -o - %s 1 2>&1", out, lines[i]));
		CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=txtwrite -sOutputFile=- %s 2>&1", out, lines[i]));
	}
	CHECK(has("pdftotext %s - 2>&1 | grep -c -i -e warning -e error", out, "0"));
	CHECK(has("qpdf --check %s 2>&1", out, "No syntax or stream encoding errors"));
	CHECK(has("pdffonts %s | awk 'NR>2 && $0 !~ / yes +yes +yes / {bad=1} END {print bad ? \"BAD\" : \"ALLEMB\"}'",
	          out, "ALLEMB"));
	CHECK(has("pdftoppm -r 20 %s 2>&1 >/dev/null | wc -c", out, "0"));
	CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=nullpage %s 2>&1 | grep -ci error", out, "0"));
	/* the bytes were escaped: \n \r \( \) \\ */
	static const char *const esc[] = {"\\n", "\\r", "\\(", "\\)", "\\\\"};
	for (int i = 0; i < 5; i++) {
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "qpdf --qdf --object-streams=disable --normalize-content=n "
		         "%%s - | grep -a TJ | head -1 | grep -caF '%s'", esc[i]);
		CHECK(has(cmd, out, "1"));
	}
	errs_done(&e);
	page_doc_free(d);
}

/* A compact font (a subset of at most 256 glyphs: one-byte codes through
 * the embedded Vita-OneByte-H CMap) whose copies run past CID 255 draws
 * those with its Identity-H twin; every extractor reads both. */
TEST(test_compact_twin)
{
	static const char *const fdirs[] = {"fonts", NULL};
	uint32_t cps[600];
	int n = 0;
	for (uint32_t c = 0x21; c < 0x450 && n < 600; c++)
		if ((c < 0x7f || c > 0xa0) && (c < 0x180 || (c >= 0x391 && c < 0x3ca) || c >= 0x410))
			cps[n++] = c;
	errs_t e;
	errs_init(&e);
	arena_t *a = arena_new();
	font_lib_t *lib = font_lib_new(fdirs, &e);
	font_chain_t *c = lib ? font_chain_get(lib, "serif", &e) : NULL;
	int face = c ? font_face_for(c, FONT_REGULAR, "en", 'A') : -1;
	CHECK(face >= 0);
	/* the most code points whose subset has at most 256 glyphs */
	const unsigned char *data = NULL;
	size_t len = 0;
	int lo = 1, hi = n, k = 0, ng = 0;
	while (face >= 0 && lo <= hi) {
		int mid = (lo + hi) / 2;
		const unsigned char *p;
		size_t pn;
		char why[200];
		sfnt_t *sf = font_subset(lib, face, cps, mid, a, &p, &pn, &e) == 0 ?
		             sfnt_open(p, pn, why, sizeof(why)) : NULL;
		unsigned g = sf ? sfnt_nglyphs(sf) : 100000;
		sfnt_free(sf);
		if (g <= 256) {
			k = mid, ng = (int)g, data = p, len = pn;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	CHECK(ng > 240 && ng <= 256);
	page_doc_t *d = page_doc_new(595276, 841890);
	d->lang = "en";
	d->faces = arena_alloc(d->arena, sizeof(page_face_t));
	d->nfaces = 1;
	d->faces[0].name = "subset";
	d->faces[0].data = data;
	d->faces[0].len = len;
	page_t *p = page_add(d);
	/* the subset's characters, 40 a line, then 20 it lacks: each a copy
	   of .notdef, CIDs ng to ng + 19 */
	char line[400], all[4000];
	size_t an = 0;
	for (int i = 0; i < k; i += 40) {
		size_t ln = 0;
		for (int j = i; j < k && j < i + 40; j++)
			ln += (size_t)utf8_encode(cps[j], line + ln);
		line[ln] = '\0';
		memcpy(all + an, line, ln + 1);
		an += ln;
		text(p, 0, 0, 20000, 30000 + i / 40 * 14000, line);
	}
	const char *cjk = "\u6731\u5c55\u8fbe\u6559\u80b2\u8bba\u6587\u4e00\u4e8c\u4e09"
	                  "\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341\u767e\u5343\u4e07";
	text(p, 0, 0, 20000, 800000, cjk);
	const char *out = file_in("twin.pdf");
	EQ_INT(pdf_write(d, out, &e), 0);
	EQ_INT(e.nerrors, 0);
	CHECK(has("pdftotext %s - 2>&1", out, cjk));
	CHECK(has("mutool draw -q -F txt -o - %s 1 2>&1", out, cjk));
	CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=txtwrite -sOutputFile=- %s 2>&1", out, cjk));
	CHECK(has("pdftotext -raw %s - 2>&1 | tr -d '\\n '", out, "!\"#$%&'()*+,-./0123"));
	CHECK(has("mutool draw -q -F txt -o - %s 1 2>&1 | grep -c -i -e cmap -e error", out, "0"));
	CHECK(has("pdftotext %s - 2>&1 | grep -c -i -e warning -e error", out, "0"));
	/* one font program, two Type0 fonts: the compact one and its twin */
	CHECK(has("pdffonts %s | grep -c 'NotoSerif-Regular *CID TrueType *Custom *yes yes yes'", out, "1"));
	CHECK(has("pdffonts %s | grep -c 'NotoSerif-Regular *CID TrueType *Identity-H *yes yes yes'", out, "1"));
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -ac '/FontFile2'", out, "1"));
	CHECK(has("qpdf --check %s 2>&1", out, "No syntax or stream encoding errors"));
	CHECK(has("pdftoppm -r 20 %s 2>&1 >/dev/null | wc -c", out, "0"));
	CHECK(has("gs -q -dNOPAUSE -dBATCH -sDEVICE=nullpage %s 2>&1 | grep -ci error", out, "0"));
	page_doc_free(d);
	font_lib_free(lib);
	arena_free(a);
	errs_done(&e);
}

/* An image, cached per path, and an empty document. */
TEST(test_image_and_empty)
{
	const char *src = file_in("a.pdf"), *png = file_in("img");
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "pdftoppm -png -r 10 -singlefile %s %s", src, png);
	EQ_INT(system(cmd), 0);
	page_doc_t *d = page_doc_new(200000, 100000);
	d->lang = "en";
	page_t *p = page_add(d);
	const char *path = file_in("img.png");
	image_t im;
	const char *why = NULL;
	EQ_INT(image_load(d->arena, path, &im, &why), 0);
	page_image(p, &(page_image_t){.x = 10000, .y = 10000, .w = 50000, .h = 70000, .path = path,
	                              .png = 1, .img = &im});
	page_image(p, &(page_image_t){.x = 70000, .y = 10000, .w = 50000, .h = 70000, .path = path,
	                              .png = 1, .img = &im});
	errs_t e;
	errs_init(&e);
	const char *out = file_in("img.pdf");
	EQ_INT(pdf_write(d, out, &e), 0);
	CHECK(has("pdfimages -list %s", out, "image"));
	CHECK(has("pdfimages -list %s | tail -n +3 | wc -l", out, "2"));
	CHECK(has("qpdf --qdf --object-streams=disable %s - | grep -ac '/Subtype /Image'", out, "1"));
	page_doc_free(d);
	d = page_doc_new(595276, 841890);
	d->lang = "en";
	/* no pages: libharu still writes a valid file (but mutool, poppler and
	   gs warn about a page-less PDF, so it is not named *.pdf for
	   test_readers; vita's layout always makes a page) */
	out = file_in("empty.pdf-nopages");
	EQ_INT(pdf_write(d, out, &e), 0);
	CHECK(has("qpdf --check %s 2>&1", out, "No syntax or stream encoding errors"));
	EQ_INT(e.nerrors, 0);
	page_doc_free(d);
	d = page_doc_new(1000, 841890); /* 1 pt wide: libharu's minimum is 3 */
	d->lang = "en";
	page_add(d);
	EQ_INT(pdf_write(d, out, &e), -1);
	EQ_INT(errs_code(&e), 3);
	page_doc_free(d);
	errs_done(&e);
}

/* Two Latin pages (60 lines, 2 faces, 10 links): a few ms with the full
 * Noto Serif files (subset fonts are smaller still). */
TEST(test_speed)
{
	page_doc_t *d = page_doc_new(595276, 841890);
	d->lang = "en";
	const char *faces[] = {SERIF, SERIF_B};
	set_faces(d, faces, 2);
	for (int pg = 0; pg < 2; pg++) {
		page_t *p = page_add(d);
		for (int i = 0; i < 30; i++) {
			text(p, i % 5 == 0, 0, 56693, 60000 + i * 24000,
			     "Designed and built a distributed training system for large models, ");
			if (i % 3 == 0)
				page_link(p, &(page_link_t){56693, 50000 + i * 24000, 100000, 12000, "https://x.org"});
		}
	}
	errs_t e;
	errs_init(&e);
	const char *out = file_in("speed.pdf");
	EQ_INT(pdf_write(d, out, &e), 0);   /* timed by make bench, not here */
	errs_done(&e);
	page_doc_free(d);
}

/* Every PDF written above is read without a warning by qpdf, mutool,
 * Ghostscript, pdftotext, pikepdf and pdf.js (tests/tools/pdf_check.sh). */
TEST(test_readers)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "sh tests/tools/pdf_check.sh %s/*.pdf", dir);
	EQ_INT(system(cmd), 0);
}

/* pdf_num (src/pdf_obj.c, declared in src/pdf_int.h): v / 10^d as the
 * shortest exact decimal, against snprintf. */
int pdf_num(char *o, int64_t v, int d);

static void ref_num(char *o, int64_t v, int d)
{
	uint64_t p = 1, a = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	for (int i = 0; i < d; i++)
		p *= 10;
	int k = sprintf(o, "%s%llu", v < 0 ? "-" : "", (unsigned long long)(a / p));
	if (d && a % p) {
		k += sprintf(o + k, ".%0*llu", d, (unsigned long long)(a % p));
		while (o[k - 1] == '0')
			o[--k] = '\0';
	}
	if (!strcmp(o, "-0"))
		strcpy(o, "0");
}

TEST(test_num)
{
	static const int64_t vals[] = {0, 1, -1, 5, -5, 9, 10, 11, 99, 100, 101, 999, 1000, 1001,
	                               -999, -1000, -1001, 12345, -12345, 100000, 123456789,
	                               -123456789, 841890, 595276, 4294967295LL, 4294967296LL,
	                               -4294967296LL, 9999999999LL, 1000000000000LL,
	                               INT64_MAX, INT64_MIN + 1, INT64_MIN, 500, -500, 50, 20000};
	char got[64], want[64];
	for (int d = 0; d <= 5; d++)
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
			int n = pdf_num(got, vals[i], d);
			got[n] = '\0';
			ref_num(want, vals[i], d);
			EQ_STR(got, want);
			EQ_INT(n, (long long)strlen(want));
		}
	/* the same as printf's fixed point for exact decimals */
	for (int64_t v = -20000; v <= 20000; v += 7) {
		int n = pdf_num(got, v, 3);
		got[n] = '\0';
		int k = snprintf(want, sizeof(want), "%.3f", (double)v / 1000.0);
		while (strchr(want, '.') && (want[k - 1] == '0' || want[k - 1] == '.'))
			want[--k] = '\0';
		if (!strcmp(want, "-0"))
			strcpy(want, "0");
		EQ_STR(got, want);
	}
	int n = pdf_num(got, -5, 3);
	got[n] = '\0';
	EQ_STR(got, "-0.005");
	n = pdf_num(got, 841890010, 6);
	got[n] = '\0';
	EQ_STR(got, "841.89001");
	n = pdf_num(got, 0, 5);
	got[n] = '\0';
	EQ_STR(got, "0");
}

int main(void)
{
	if (t_tmpdir(dir, sizeof(dir), "vita-pdf") != 0)
		return 1;
	RUN(test_num);
	RUN(test_write_and_check);
	RUN(test_stdout);
	RUN(test_failures);
	RUN(test_bad_text);
	RUN(test_glyph_ids);
	RUN(test_compact_twin);
	RUN(test_image_and_empty);
	RUN(test_speed);
	RUN(test_readers);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir); if (getenv("KEEP")) return t_report();
	if (!t_fail && system(cmd) != 0)
		return 1;
	return t_report();
}
