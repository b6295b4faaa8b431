/* Unit tests for page: building the list, stale page pointers, the dump. */
#include <stdlib.h>
#include "page.h"
#include "t.h"

static char *dump(const page_doc_t *d)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	page_dump(d, f);
	fclose(f);
	return s;
}

TEST(test_dump)
{
	page_doc_t *d = page_doc_new(595276, 841890);
	d->title = "CV \"Zhu\"";
	d->author = "Zhanda Zhu (朱展达)";
	d->creator = "vita 1.0";
	static page_face_t faces[] = {{.data = (const unsigned char *)"x", .len = 1,
	                               .name = "/nonexistent/x/sub0.ttf"}};
	d->faces = faces;
	d->nfaces = 1;
	page_t *p = page_add(d);
	char text[] = "Zhanda Zhu 朱展达XXXX";
	page_run(p, &(page_run_t){.x = 56693, .y = 80000, .w = 120000, .size = 10500,
	                          .color = 0x1a2b3c, .text = text, .len = (int)strlen(text) - 4});
	text[0] = 'Q'; /* copied: the page list must not see this */
	page_rect(p, &(page_rect_t){1, 2, 3, 4, 0xff0000, 500, 0});
	page_link(p, &(page_link_t){5, 6, 7, 8, "https://a.b/\\q\"\n"});
	page_image(p, &(page_image_t){.x = 9, .y = 10, .w = 11, .h = 12, .path = "/home/me/photo.png",
	                              .png = 1});
	page_mark(d, "Publications", 0, 70000);
	char *s = dump(d);
	EQ_STR(s, "doc 595276x841890 pages=1 faces=1 marks=1\n"
	          "title \"CV \\\"Zhu\\\"\"\n"
	          "author \"Zhanda Zhu (朱展达)\"\n"
	          "page 1 595276x841890\n"
	          "run x=56693 y=80000 w=120000 size=10500 face=0 synth=0 color=#1A2B3C \"Zhanda Zhu 朱展达\"\n"
	          "rect x=1 y=2 w=3 h=4 color=#FF0000 stroke=500\n"
	          "link x=5 y=6 w=7 h=8 \"https://a.b/\\\\q\\\"\\x0A\"\n"
	          "image x=9 y=10 w=11 h=12 png \"photo.png\"\n"
	          "mark page=1 y=70000 \"Publications\"\n");
	free(s);
	page_doc_free(d);
}

/* A right-to-left word (page_run_t.adv): copied with its advances, and
 * read glyph by glyph (and dumped) as the runs it stands for, its first
 * letter rightmost. */
TEST(test_word)
{
	page_doc_t *d = page_doc_new(595276, 841890);
	page_t *p = page_add(d);
	char text[] = "\u05E9\u05DC\u05DD"; /* shalom: three letters, two bytes each */
	int32_t adv[] = {5000, 3000, 4000};
	page_run(p, &(page_run_t){.x = 100000, .y = 80000, .w = 12000, .size = 10000, .face = 1,
	                          .text = text, .len = 6, .adv = adv});
	adv[0] = 1;   /* copied */
	const page_run_t *r = &d->pages[0].items[0].u.run;
	CHECK(r->adv != adv && r->adv[0] == 5000 && r->adv[2] == 4000);
	page_word_t g;
	page_run_t one;
	int32_t want_x[] = {107000, 104000, 100000}, want_w[] = {5000, 3000, 4000};
	int n = 0;
	for (page_word_start(&g, r); page_word_next(&g, &one); n++) {
		CHECK(n < 3);
		if (n >= 3)
			break;
		EQ_INT(one.x, want_x[n]);
		EQ_INT(one.w, want_w[n]);
		EQ_INT(one.len, 2);
		CHECK(one.text == r->text + 2 * n && one.adv == NULL && one.face == 1);
	}
	EQ_INT(n, 3);
	char *s = dump(d);
	EQ_STR(s, "doc 595276x841890 pages=1 faces=0 marks=0\n"
	          "page 1 595276x841890\n"
	          "run x=107000 y=80000 w=5000 size=10000 face=1 synth=0 color=#000000 \"\u05E9\"\n"
	          "run x=104000 y=80000 w=3000 size=10000 face=1 synth=0 color=#000000 \"\u05DC\"\n"
	          "run x=100000 y=80000 w=4000 size=10000 face=1 synth=0 color=#000000 \"\u05DD\"\n");
	free(s);
	page_doc_free(d);
}

/* Many pages and items: arrays grow; a page pointer kept across page_add
 * (now stale) still adds to the right page. */
TEST(test_grow_and_stale)
{
	page_doc_t *d = page_doc_new(1000, 2000);
	page_t *first = page_add(d);
	for (int i = 1; i < 100; i++) {
		page_t *p = page_add(d);
		for (int j = 0; j < 50; j++)
			page_rect(p, &(page_rect_t){i, j, 1, 1, 0, 0, 0});
	}
	page_rect(first, &(page_rect_t){7, 7, 7, 7, 0, 0, 0});
	EQ_INT(d->npages, 100);
	EQ_INT(d->pages[0].n, 1);
	EQ_INT(d->pages[0].items[0].u.rect.x, 7);
	EQ_INT(d->pages[99].n, 50);
	EQ_INT(d->pages[99].items[49].u.rect.y, 49);
	EQ_INT(d->pages[42].index, 42);
	for (int i = 0; i < 300; i++)
		page_mark(d, "m", i % 100, i);
	EQ_INT(d->nmarks, 300);
	EQ_STR(d->marks[299].title, "m");
	EQ_INT(d->marks[299].y, 299);
	page_doc_free(d);
}

TEST(test_empty)
{
	page_doc_t *d = page_doc_new(10, 20);
	char *s = dump(d);
	EQ_STR(s, "doc 10x20 pages=0 faces=0 marks=0\n");
	free(s);
	page_t *p = page_add(d);
	page_run(p, &(page_run_t){.text = NULL, .len = 0});
	EQ_STR(d->pages[0].items[0].u.run.text, "");
	page_doc_free(d);
	page_doc_free(NULL);
}

int main(void)
{
	RUN(test_dump);
	RUN(test_word);
	RUN(test_grow_and_stale);
	RUN(test_empty);
	return t_report();
}
