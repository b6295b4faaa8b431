/* layout_header: the header at the top of the first page -- name (and
 * native name), headline, affiliation and location, the contact row, and
 * the photo beside them; then the summary paragraph.
 */
#include <string.h>
#include "image.h"
#include "utf8.h"
#include "layout_int.h"

static const char *contact_label(lay_t *L, const mcontact_t *c)
{
	const char *v = c->value;
	if (!strncmp(v, "https://", 8))
		v += 8;
	else if (!strncmp(v, "http://", 7))
		v += 7;
	if (!strcmp(c->kind, "orcid"))
		return arena_printf(L->a, "ORCID %s", v);
	if (!strcmp(c->kind, "github") && !strchr(v, '/'))
		return arena_printf(L->a, "github.com/%s", v);
	if (!strcmp(c->kind, "scholar") && !strchr(v, '/'))
		return L->loc->scholar;
	if (!strcmp(c->kind, "linkedin") && !strchr(v, '/'))
		return arena_printf(L->a, "linkedin.com/in/%s", v);
	if (!strcmp(c->kind, "twitter") && v[0] != '@' && !strchr(v, '/'))
		return arena_printf(L->a, "@%s", v);
	return v;
}

/* The language of a name in its native script, from its letters: it is
 * tagged as such in the PDF (a screen reader switches voice). */
static const char *script_lang(const char *s)
{
	static const struct {
		uint32_t lo, hi;
		const char *lang;
	} scripts[] = {
		{0x3040, 0x30FF, "ja"}, /* kana first: a Japanese name has kanji too */
		{0xAC00, 0xD7AF, "ko"}, {0x1100, 0x11FF, "ko"},
		{0x4E00, 0x9FFF, "zh"}, {0x3400, 0x4DBF, "zh"},
		{0x0600, 0x06FF, "ar"}, {0x0590, 0x05FF, "he"}, {0x0400, 0x04FF, "ru"},
		{0x0370, 0x03FF, "el"}, {0x0900, 0x097F, "hi"}, {0x0E00, 0x0E7F, "th"},
	};
	for (size_t k = 0; k < sizeof(scripts) / sizeof(scripts[0]); k++)
		for (size_t i = 0, n = strlen(s); i < n;) {
			uint32_t cp;
			int l = utf8_decode(s + i, n - i, &cp);
			if (l <= 0)
				break;
			if (cp >= scripts[k].lo && cp <= scripts[k].hi)
				return scripts[k].lang;
			i += (size_t)l;
		}
	return NULL;
}

/* The photo's alternate text: the profile's photo_alt, else the locale's
 * "Photo of {name}" (an empty photo_alt is no description). */
static const char *photo_alt(lay_t *L)
{
	const char *a = L->m->photo_alt;
	while (a && (*a == ' ' || *a == '\t' || *a == '\n'))
		a++;
	if (a && *a)
		return L->m->photo_alt;
	buf_t b;
	buf_init(&b);
	locale_fill(&b, L->loc->photo_alt, "name", L->m->name, (const char *)NULL);
	const char *r = arena_strdup(L->a, b.s ? b.s : L->m->name);
	buf_done(&b);
	return r;
}

int lay_header(lay_t *L, page_image_t *photo)
{
	const model_t *m = L->m;
	const style_t *s = L->s;
	int align = s->header_align == ST_LEFT ? FLOW_LEFT : FLOW_CENTER;
	int32_t width = L->width, dx = 0;
	memset(photo, 0, sizeof(*photo));
	if (m->photo && m->photo_img) {   /* decoded when the profile was loaded */
		int pw = m->photo_img->src_w, ph = m->photo_img->src_h;
		photo->h = 78000;
		photo->w = (int32_t)((int64_t)photo->h * pw / ph);
		if (photo->w > 100000) {
			photo->w = 100000;
			photo->h = (int32_t)((int64_t)photo->w * ph / pw);
		}
		photo->x = L->rtl ? L->x0 : L->x0 + L->width - photo->w;
		photo->y = s->margin_top;
		photo->path = m->photo;
		photo->png = m->photo_img->png;
		photo->img = m->photo_img;
		width -= photo->w + 14000;
		if (align == FLOW_CENTER) {
			dx = photo->w + 14000; /* keep the text centred on the page */
			width -= photo->w + 14000;
		}
	}
	int start = L->nv;
	spans_t n = {0};
	tstyle_t nt = {L->head, FONT_BOLD, s->size_name, s->c_text, FLOW_NOHYPH | FLOW_NOBREAK};
	sp_at(L, &n, m->name, &nt, m->at_name);
	if (m->name_native) {
		tstyle_t nn = nt;
		nn.size = s->size_native ? s->size_native : s->size_name;
		/* the same weight as the name (issue 9): bold, from the CJK face's
		   bold when it has one */
		sp_str(L, &n, "  ", &nt);
		flow_span_t *f = sp_add(L, &n, m->name_native, (int)strlen(m->name_native), &nn,
		                        NULL, m->at_native.line, m->at_native.col);
		if (f) {
			f->lang = script_lang(m->name_native);
			if (f->lang && !strcmp(f->lang, "zh") && L->cjk)
				f->lang = L->cjk;   /* kanji in a Japanese CV */
		}
	}
	int tag = lay_tag(L, "H1");
	v_flow(L, &n, dx, width, align, s->size_name, 0);
	lay_untag(L, tag);
	if (m->headline) {
		spans_t h = {0};
		tstyle_t t = {L->head, FONT_REGULAR, s->size_headline, s->c_muted, 0};
		sp_at(L, &h, m->headline, &t, m->at_headline);
		tag = lay_tag(L, "P");
		v_flow(L, &h, dx, width, align, s->size_headline, 0);
		lay_untag(L, tag);
	}
	spans_t a = {0};
	tstyle_t at = lay_ts(L, FONT_REGULAR, s->size_body, s->c_text);
	tstyle_t sep = lay_ts(L, FONT_REGULAR, s->size_body, s->c_muted);
	if (m->affiliation)
		sp_at(L, &a, m->affiliation, &at, m->at_affiliation);
	if (m->location) {
		if (a.n)
			sp_str(L, &a, s->contact_sep, &sep);
		sp_at(L, &a, m->location, &at, m->at_location);
	}
	tag = lay_tag(L, "P");
	v_flow(L, &a, dx, width, align, s->size_body, 0);
	lay_untag(L, tag);
	spans_t c = {0};
	tstyle_t ct = lay_ts(L, FONT_REGULAR, s->size_small, s->c_link);
	ct.flags = FLOW_NOBREAK | FLOW_NOHYPH; /* a contact item is never split */
	tstyle_t cs = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);
	for (int i = 0; i < m->ncontacts; i++) {
		if (c.n)
			sp_str(L, &c, s->contact_sep, &cs);
		const char *label = contact_label(L, &m->contacts[i]);
		sp_add(L, &c, label, (int)strlen(label), &ct, m->contacts[i].url,
		       m->contacts[i].line, m->contacts[i].col);
	}
	for (int i = 0; i < m->nlinks; i++) {
		if (c.n)
			sp_str(L, &c, s->contact_sep, &cs);
		sp_add(L, &c, m->links[i].label, (int)strlen(m->links[i].label), &ct, m->links[i].url,
		       m->links[i].line, m->links[i].col);
	}
	tag = lay_tag(L, "P");
	v_flow(L, &c, dx, width, align, s->size_small, 0);
	lay_untag(L, tag);
	/* the photo is read after the lines beside it */
	L->photo_at = L->nv - 1;
	if (m->photo) {
		L->photo_tag = page_tag_open(L->d, "Figure", NULL, photo_alt(L));
		page_tag_close(L->d, L->photo_tag);
	}
	/* the photo's height counts as part of the header */
	int32_t hh = 0;
	for (int i = start; i < L->nv; i++)
		hh += L->v[i].h;
	if (photo->h > hh)
		v_new(L, V_GAP, photo->h - hh)->nobreak = 1;
	for (int i = start; i < L->nv; i++)
		L->v[i].nobreak = 1;
	if (m->summary.n) {
		v_gap(L, s->header_gap);
		L->v[L->nv - 1].nobreak = 0;
		tag = lay_tag(L, "P");
		lay_paragraph(L, &m->summary);
		lay_untag(L, tag);
	} else {
		v_gap(L, s->header_gap - s->section_before > 0 ? s->header_gap - s->section_before : 0);
	}
	return 0;
}
