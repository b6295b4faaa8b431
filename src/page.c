/* page: the page list that layout fills and the PDF writer places.
 *
 *   page_doc_t *d = page_doc_new(595276, 841890);   (A4 in u)
 *   page_t *p = page_add(d);
 *   page_run(p, &(page_run_t){.x = .., .text = s, .len = n, ...});
 *   page_mark(d, "Publications", 0, y);
 *   page_dump(d, stdout);  pdf_write(d, "cv.pdf", &e);  page_doc_free(d);
 *
 * Everything (item arrays, copied strings) lives in d->arena, so freeing the
 * document is one arena_free. Arrays grow by doubling with arena_grow; the
 * abandoned blocks stay in the arena (at most as much again as the final
 * arrays). Every page keeps a back pointer to its document and its index,
 * so the adders work even through a page_t pointer that went stale when
 * d->pages was reallocated by a later page_add.
 */
#include <string.h>
#include "page.h"
#include "utf8.h"

page_doc_t *page_doc_new(int32_t w, int32_t h)
{
	arena_t *a = arena_new();
	page_doc_t *d = arena_alloc(a, sizeof(*d));
	d->arena = a;
	d->w = w;
	d->h = h;
	d->cur = -1;
	page_tag_open(d, "Document", NULL, NULL);
	page_tag_open(d, PAGE_ARTIFACT, NULL, NULL);
	d->cur = PAGE_TAG_DOCUMENT;
	return d;
}

void page_doc_free(page_doc_t *d)
{
	if (d)
		arena_free(d->arena); /* d itself lives in its arena */
}

/* Grow an arena array of n elements of size sz to room for n + 1. */
static void *grow(arena_t *a, void *v, int n, int *cap, size_t sz)
{
	if (n < *cap)
		return v;
	int ncap = *cap ? *cap * 2 : 16;
	v = arena_grow(a, v, (size_t)n * sz, (size_t)ncap * sz);
	*cap = ncap;
	return v;
}

page_t *page_add(page_doc_t *d)
{
	d->pages = grow(d->arena, d->pages, d->npages, &d->cappages, sizeof(page_t));
	page_t *p = &d->pages[d->npages];
	memset(p, 0, sizeof(*p));
	p->doc = d;
	p->index = d->npages++;
	return p;
}

/* The live page behind p (p may be a copy left behind by a page_add). */
static page_t *live(page_t *p)
{
	return &p->doc->pages[p->index];
}

static page_item_t *new_item(page_t *p, int kind)
{
	p = live(p);
	arena_t *a = p->doc->arena;
	p->items = grow(a, p->items, p->n, &p->cap, sizeof(page_item_t));
	page_item_t *it = &p->items[p->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->tag = p->doc->cur;
	return it;
}

static const char *copy(page_t *p, const char *s)
{
	return s ? arena_strdup(p->doc->arena, s) : NULL;
}

void page_run(page_t *p, const page_run_t *r)
{
	page_item_t *it = new_item(p, PAGE_RUN);
	it->u.run = *r;
	int len = r->len > 0 && r->text ? r->len : 0;
	it->u.run.text = arena_strndup(p->doc->arena, r->text ? r->text : "", (size_t)len);
	it->u.run.len = len;
	if (r->actual)
		it->u.run.actual = arena_strndup(p->doc->arena, r->actual,
		                                 (size_t)(r->actual_len > 0 ? r->actual_len : 0));
	it->u.run.lang = copy(p, r->lang);
	if (r->gids) {
		int n = 0;
		for (int k = 0; k < len;) {
			uint32_t cp;
			int l = utf8_decode(r->text + k, (size_t)(len - k), &cp);
			k += l > 0 ? l : 1;
			n++;
		}
		uint16_t *g = arena_alloc(p->doc->arena, sizeof(uint16_t) * (size_t)(n ? n : 1));
		memcpy(g, r->gids, sizeof(uint16_t) * (size_t)n);
		it->u.run.gids = g;
	}
	if (r->adv) {
		size_t n = 0;   /* code points: the bytes that start one */
		for (int k = 0; k < len; k++)
			n += ((unsigned char)r->text[k] & 0xC0) != 0x80;
		int32_t *a = arena_alloc(p->doc->arena, sizeof(int32_t) * (n ? n : 1));
		memcpy(a, r->adv, sizeof(int32_t) * n);
		it->u.run.adv = a;
	}
	if (r->glyphs && r->nglyphs > 0) {
		size_t gb = sizeof(page_glyph_t) * (size_t)r->nglyphs;
		page_glyph_t *g = arena_alloc(p->doc->arena, gb);
		memcpy(g, r->glyphs, gb);
		it->u.run.glyphs = g;
	} else {
		it->u.run.glyphs = NULL;
		it->u.run.nglyphs = 0;
	}
}

void page_word_start(page_word_t *g, const page_run_t *r)
{
	g->r = r;
	g->at = g->k = 0;
	g->x = r->x + r->w;
}

int page_word_next(page_word_t *g, page_run_t *out)
{
	const page_run_t *r = g->r;
	if (g->at >= r->len)
		return 0;
	int l = 1;
	while (g->at + l < r->len && ((unsigned char)r->text[g->at + l] & 0xC0) == 0x80)
		l++;
	*out = *r;
	out->adv = NULL;
	out->text = r->text + g->at;
	out->len = l;
	out->w = r->adv[g->k++];
	out->x = g->x -= out->w;
	g->at += l;
	return 1;
}

void page_rect(page_t *p, const page_rect_t *r)
{
	new_item(p, PAGE_RECT)->u.rect = *r;
}

void page_link(page_t *p, const page_link_t *l)
{
	page_item_t *it = new_item(p, PAGE_LINK);
	it->u.link = *l;
	it->u.link.url = copy(p, l->url);
}

void page_image(page_t *p, const page_image_t *im)
{
	page_item_t *it = new_item(p, PAGE_IMAGE);
	it->u.image = *im;
	it->u.image.path = copy(p, im->path);
}

void page_mark(page_doc_t *d, const char *title, int page, int32_t y)
{
	d->marks = grow(d->arena, d->marks, d->nmarks, &d->capmarks, sizeof(page_mark_t));
	page_mark_t *m = &d->marks[d->nmarks++];
	m->title = arena_strdup(d->arena, title ? title : "");
	m->page = page;
	m->y = y;
	m->level = 0;
}

void page_item(page_t *p, const page_item_t *it)
{
	page_doc_t *d = p->doc;
	int cur = d->cur;
	d->cur = it->tag >= 0 && it->tag < d->ntags ? it->tag : PAGE_TAG_DOCUMENT;
	switch (it->kind) {
	case PAGE_RUN: page_run(p, &it->u.run); break;
	case PAGE_RECT: page_rect(p, &it->u.rect); break;
	case PAGE_LINK: page_link(p, &it->u.link); break;
	case PAGE_IMAGE: page_image(p, &it->u.image); break;
	default: break;
	}
	d->cur = cur;
}

/* ---- structure ---- */

int page_tag_open(page_doc_t *d, const char *role, const char *lang, const char *alt)
{
	d->tags = grow(d->arena, d->tags, d->ntags, &d->captags, sizeof(page_tag_t));
	page_tag_t *t = &d->tags[d->ntags];
	t->role = arena_strdup(d->arena, role ? role : "Span");
	t->parent = d->cur;
	t->lang = lang && *lang ? arena_strdup(d->arena, lang) : NULL;
	t->alt = alt ? arena_strdup(d->arena, alt) : NULL;
	return d->cur = d->ntags++;
}

void page_tag_close(page_doc_t *d, int id)
{
	if (id > 0 && id < d->ntags)
		d->cur = d->tags[id].parent;
}

int page_tag_is_artifact(const page_doc_t *d, int id)
{
	for (int k = 0; id >= 0 && id < d->ntags && k < d->ntags; id = d->tags[id].parent, k++)
		if (!strcmp(d->tags[id].role, PAGE_ARTIFACT))
			return 1;
	return 0;
}

/* ---- dump ---- */

static void dump_str(FILE *out, const char *s, size_t n)
{
	putc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02X", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

static void dump_cstr(FILE *out, const char *s)
{
	dump_str(out, s ? s : "", s ? strlen(s) : 0);
}

static const char *base_name(const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;
	return b ? b + 1 : path ? path : "";
}

static void dump_item(FILE *out, const page_item_t *it)
{
	if (it->kind == PAGE_RUN && it->u.run.adv) {
		/* a right-to-left word: the runs it stands for */
		page_word_t g;
		page_item_t one = *it;
		for (page_word_start(&g, &it->u.run); page_word_next(&g, &one.u.run);)
			dump_item(out, &one);
		return;
	}
	switch (it->kind) {
	case PAGE_RUN: {
		const page_run_t *r = &it->u.run;
		fprintf(out, "run x=%d y=%d w=%d size=%d face=%d synth=%d color=#%06X ",
		        (int)r->x, (int)r->y, (int)r->w, (int)r->size, r->face, r->synth,
		        (unsigned)(r->color & 0xFFFFFF));
		dump_str(out, r->text ? r->text : "", r->text && r->len > 0 ? (size_t)r->len : 0);
		if (r->track)
			fprintf(out, " track=%d", (int)r->track);
		if (r->gids) {   /* how many glyphs a feature replaced (ids differ by font version) */
			int n = 0, alt = 0;
			for (int k = 0; r->text && k < r->len;) {
				uint32_t cp;
				int l = utf8_decode(r->text + k, (size_t)(r->len - k), &cp);
				k += l > 0 ? l : 1;
				alt += r->gids[n++] != 0;
			}
			fprintf(out, " alt=%d", alt);
		}
		if (r->glyphs) {   /* shaped clusters: each glyph's place, not its id */
			fprintf(out, " glyphs=%d [", r->nglyphs);
			for (int k = 0; k < r->nglyphs; k++)
				fprintf(out, "%s%d,%d:%d", k ? " " : "", (int)r->glyphs[k].x,
				        (int)r->glyphs[k].y, (int)r->glyphs[k].n);
			fputc(']', out);
		}
		if (r->actual) {
			fputs(" actual=", out);
			dump_str(out, r->actual, r->actual_len > 0 ? (size_t)r->actual_len : 0);
		}
		break;
	}
	case PAGE_RECT: {
		const page_rect_t *r = &it->u.rect;
		fprintf(out, "rect x=%d y=%d w=%d h=%d color=#%06X stroke=%d", (int)r->x,
		        (int)r->y, (int)r->w, (int)r->h, (unsigned)(r->color & 0xFFFFFF),
		        (int)r->stroke);
		if (r->radius)
			fprintf(out, " radius=%d", (int)r->radius);
		break;
	}
	case PAGE_LINK: {
		const page_link_t *l = &it->u.link;
		fprintf(out, "link x=%d y=%d w=%d h=%d ", (int)l->x, (int)l->y, (int)l->w,
		        (int)l->h);
		dump_cstr(out, l->url);
		break;
	}
	case PAGE_IMAGE: {
		const page_image_t *im = &it->u.image;
		fprintf(out, "image x=%d y=%d w=%d h=%d %s ", (int)im->x, (int)im->y,
		        (int)im->w, (int)im->h, im->png ? "png" : "jpeg");
		dump_cstr(out, base_name(im->path));
		if (im->radius)
			fprintf(out, " radius=%d", (int)im->radius);
		if (im->cw)
			fprintf(out, " crop=%d,%d,%d,%d", im->cx, im->cy, im->cw, im->ch);
		break;
	}
	default:
		fprintf(out, "unknown kind=%d", it->kind);
	}
	if (it->kind == PAGE_RUN && it->u.run.lang)
		fprintf(out, " lang=%s", it->u.run.lang);
	if (it->tag != PAGE_TAG_DOCUMENT)
		fprintf(out, " @%d", it->tag);
	putc('\n', out);
}

static void dump_info(FILE *out, const char *key, const char *v)
{
	if (!v)
		return;
	fprintf(out, "%s ", key);
	dump_cstr(out, v);
	putc('\n', out);
}

void page_dump(const page_doc_t *d, FILE *out)
{
	fprintf(out, "doc %dx%d pages=%d faces=%d marks=%d\n", (int)d->w, (int)d->h,
	        d->npages, d->nfaces, d->nmarks);
	dump_info(out, "title", d->title);
	dump_info(out, "author", d->author);
	dump_info(out, "subject", d->subject);
	dump_info(out, "keywords", d->keywords);
	for (int i = 0; i < d->npages; i++) {
		const page_t *p = &d->pages[i];
		fprintf(out, "page %d %dx%d\n", i + 1, (int)d->w, (int)d->h);
		for (int j = 0; j < p->n; j++)
			dump_item(out, &p->items[j]);
	}
	for (int i = 0; i < d->nmarks; i++) {
		const page_mark_t *m = &d->marks[i];
		fprintf(out, "mark page=%d y=%d ", m->page + 1, (int)m->y);
		dump_cstr(out, m->title);
		putc('\n', out);
	}
	if (d->lang)
		fprintf(out, "lang %s\n", d->lang);
	for (int i = 2; i < d->ntags; i++) {
		const page_tag_t *t = &d->tags[i];
		fprintf(out, "tag %d %s in=%d", i, t->role, t->parent);
		if (t->lang)
			fprintf(out, " lang=%s", t->lang);
		if (t->alt) {
			fputs(" alt=", out);
			dump_cstr(out, t->alt);
		}
		putc('\n', out);
	}
}

int page_doc_append(page_doc_t *dst, const page_doc_t *src, const char *title)
{
	if (src->w != dst->w || src->h != dst->h)
		return -1;
	int first = dst->npages;
	if (src->npages > 0)
		page_mark(dst, title, first, 0);
	if (!dst->lang && src->lang) /* a book is in its first CV's language */
		dst->lang = arena_strdup(dst->arena, src->lang);
	/* src's structure under dst's document: its document becomes a Part
	   (in its language), its artifacts stay artifacts */
	int *map = arena_alloc(dst->arena, sizeof(int) * (size_t)(src->ntags > 0 ? src->ntags : 1));
	int cur = dst->cur;
	for (int i = 0; i < src->ntags; i++) {
		const page_tag_t *t = &src->tags[i];
		if (i == PAGE_TAG_ARTIFACT) {
			map[i] = PAGE_TAG_ARTIFACT;
			continue;
		}
		dst->cur = i == 0 ? PAGE_TAG_DOCUMENT : map[t->parent >= 0 && t->parent < i ? t->parent : 0];
		map[i] = page_tag_open(dst, i == 0 ? "Part" : t->role, i == 0 ? src->lang : t->lang,
		                       t->alt);
	}
	dst->cur = cur;
	for (int i = 0; i < src->npages; i++) {
		page_t *p = page_add(dst);
		const page_t *q = &src->pages[i];
		for (int k = 0; k < q->n; k++) {
			page_item_t it = q->items[k];
			it.tag = it.tag >= 0 && it.tag < src->ntags ? map[it.tag] : PAGE_TAG_DOCUMENT;
			page_item(p, &it);
		}
	}
	for (int i = 0; i < src->nmarks; i++) {
		const page_mark_t *m = &src->marks[i];
		page_mark(dst, m->title, first + m->page, m->y);
		dst->marks[dst->nmarks - 1].level = m->level + 1;
	}
	return 0;
}
