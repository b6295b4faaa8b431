/* layout_header: the header at the top of the first page -- name (and
 * native name), headline, affiliation and location, the contact row, and
 * the photo beside them; then the summary paragraph.
 */
#include <stdlib.h>
#include <string.h>
#include "image.h"
#include "utf8.h"
#include "layout_int.h"

static const char *contact_label(lay_t *L, const mcontact_t *c)
{
	buf_t b;
	buf_init(&b);
	locale_contact_label(L->loc, c, &b);
	const char *r = arena_strdup(L->a, b.s ? b.s : "");
	buf_done(&b);
	return r;
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

/* The icon (UTF-8) a layout's header.icon_map gives a contact kind
 * ("email=f0e0,phone=f095,..."; "link" for other links), or NULL. */
static const char *icon_for(lay_t *L, const char *kind)
{
	const char *p = L->s->icon_map;
	size_t n = strlen(kind);
	while (p && *p) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *eq = strchr(p, '=');
		if (!eq)
			break;
		if ((size_t)(eq - p) == n && !strncmp(p, kind, n)) {
			unsigned long cp = strtoul(eq + 1, NULL, 16);
			if (cp < 0x80 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
				return NULL;
			char b[4];
			int k = utf8_encode((uint32_t)cp, b);
			return arena_strndup(L->a, b, (size_t)k);
		}
		p = strchr(eq, ',');
	}
	return NULL;
}

/* Contact items (and the profile's links) as spans: a separator between
 * them, or (column) each alone for its own line. */
static void contact_item(lay_t *L, spans_t *c, const char *kind, const char *label,
                         const char *url, int line, int col)
{
	const style_t *s = L->s;
	tstyle_t ct = lay_ts(L, FONT_REGULAR, s->size_small, s->c_link);
	ct.flags = INLINE_NOBREAK | INLINE_NOHYPH; /* a contact item is never split */
	const char *icon = L->icons ? icon_for(L, kind) : NULL;
	/* drawn, never read: the text extracts as the contact alone */
	tstyle_t it = ct;
	it.chain = L->icons;
	it.color = s->c_accent;
	it.flags |= INLINE_ARTIFACT;
	if (icon && !L->rtl) {
		sp_add(L, c, icon, (int)strlen(icon), &it, NULL, 0, 0);
		sp_str(L, c, "\u00a0", &ct);
	}
	/* a right-to-left page has the icon where its item starts, on the
	   right: after the item, which is isolated (FSI .. PDI) so that its
	   text keeps its own direction (an e-mail address, an Arabic link)
	   and the icon (a strong left-to-right character) follows it; the
	   items follow each other as the text of the line does */
	if (icon && L->rtl)
		sp_str(L, c, "\u2068", &ct);
	sp_add(L, c, label, (int)strlen(label), &ct, url, line, col);
	if (icon && L->rtl) {
		sp_str(L, c, "\u2069\u00a0", &ct);
		sp_add(L, c, icon, (int)strlen(icon), &it, NULL, 0, 0);
	}
}

/* Contact i (the profile's links after its contacts) into c. */
static void contact_at(lay_t *L, spans_t *c, int i)
{
	const model_t *m = L->m;
	if (i < m->ncontacts) {
		const mcontact_t *ct = &m->contacts[i];
		contact_item(L, c, ct->kind, contact_label(L, ct), ct->url, ct->line, ct->col);
	} else {
		const mlink_t *lk = &m->links[i - m->ncontacts];
		contact_item(L, c, "link", lk->label, lk->url, lk->line, lk->col);
	}
}

/* Lines of greedy filling at most lim wide; brk[j] = 1 when item j
 * starts a line. */
static int row_fill(const int32_t *w, int n, int32_t sep, int32_t lim, unsigned char *brk)
{
	int lines = 1;
	int64_t x = 0;
	for (int j = 0; j < n; j++) {
		brk[j] = j == 0;
		if (j && x + sep + w[j] > lim) {
			brk[j] = 1;
			lines++;
			x = 0;
		} else if (j) {
			x += sep;
		}
		x += w[j];
	}
	return lines;
}

/* The contact row, wrapped between whole items: a separator never ends
 * or starts a line, and the lines are balanced (as CSS's text-wrap:
 * balance), the fewest a greedy fill needs, each as even as it can be. */
static void contact_row(lay_t *L, int n, int align, int32_t dx, int32_t width)
{
	const style_t *s = L->s;
	tstyle_t cs = lay_ts(L, FONT_REGULAR, s->size_small, s->c_muted);
	spans_t c = {0};
	size_t bytes = 0;
	for (int i = 0; i < n; i++) {
		if (c.n)
			sp_str(L, &c, s->contact_sep, &cs);
		contact_at(L, &c, i);
	}
	for (int i = 0; i < c.n; i++)
		bytes += (size_t)c.v[i].len;
	/* no glyph is wider than two em a byte: measured only when it may not fit */
	if ((int64_t)bytes * 2 * s->size_small <= width || n < 2) {
		v_flow(L, &c, dx, width, align, s->size_small, 0);
		return;
	}
	int32_t *w = arena_alloc(L->a, sizeof(*w) * (size_t)n);
	unsigned char *brk = arena_alloc(L->a, (size_t)n);
	int64_t total = 0;
	int32_t widest = 0;
	spans_t one = {0};
	sp_str(L, &one, s->contact_sep, &cs);
	int32_t sep = sp_width(L, &one);
	for (int i = 0; i < n; i++) {
		one.n = 0;
		contact_at(L, &one, i);
		w[i] = sp_width(L, &one);
		total += w[i] + (i ? sep : 0);
		if (w[i] > widest)
			widest = w[i];
	}
	if (total <= width) {
		v_flow(L, &c, dx, width, align, s->size_small, 0);
		return;
	}
	int lines = row_fill(w, n, sep, width, brk);
	/* the narrowest limit that needs no more lines */
	int32_t lo = (int32_t)(total / lines), hi = width;
	if (lo < widest)
		lo = widest;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (row_fill(w, n, sep, mid, brk) <= lines)
			hi = mid;
		else
			lo = mid + 1;
	}
	row_fill(w, n, sep, hi, brk);
	for (int i = 0; i < n;) {
		spans_t ln = {0};
		int j = i;
		do {
			if (j > i)
				sp_str(L, &ln, s->contact_sep, &cs);
			contact_at(L, &ln, j++);
		} while (j < n && !brk[j]);
		v_flow(L, &ln, dx, width, align, s->size_small, 0);
		i = j;
	}
}

static void contacts(lay_t *L, int align, int32_t dx, int32_t width, int column)
{
	const model_t *m = L->m;
	const style_t *s = L->s;
	spans_t c = {0};
	int n = m->ncontacts + m->nlinks;
	if (!column) {
		contact_row(L, n, align, dx, width);
		return;
	}
	for (int i = 0; i < n; i++) {
		c.n = 0;
		contact_at(L, &c, i);
		int t = lay_tag(L, "P");
		int first = v_flow(L, &c, dx, width, INLINE_LEFT, s->size_small, 0);
		lay_untag(L, t);
		if (first >= 0)
			L->r->v[L->r->nv - 1].nobreak = 1;
	}
}

/* The photo's box and the part of it drawn there: a circle is a square
 * box of the height (at most maxw wide); a square or rounded photo is as
 * high as the layout says, as wide as its proportions make it up to maxw.
 * Whatever does not fit the box's proportions is cropped away, centred
 * (cover), never squashed or shrunk. */
static void photo_box(const style_t *s, const image_t *img, int32_t maxw, page_image_t *photo)
{
	int pw = img->src_w, ph = img->src_h;
	photo->h = s->photo_h;
	if (s->photo_shape == SHAPE_CIRCLE) {
		photo->w = photo->h = photo->h < maxw ? photo->h : maxw;
	} else {
		photo->w = (int32_t)((int64_t)photo->h * pw / ph);
		if (photo->w > maxw)
			photo->w = maxw;
	}
	int32_t small = photo->w < photo->h ? photo->w : photo->h;
	photo->radius = s->photo_shape == SHAPE_CIRCLE ? small / 2
	                : s->photo_shape == SHAPE_ROUNDED ? small / 8 : 0;
	/* the crop, in the decoded pixels */
	int iw = img->w, ih = img->h, cw = iw, ch = ih;
	if ((int64_t)iw * photo->h > (int64_t)ih * photo->w)
		cw = (int)(((int64_t)ih * photo->w + photo->h / 2) / photo->h);
	else
		ch = (int)(((int64_t)iw * photo->h + photo->w / 2) / photo->w);
	cw = cw < 1 ? 1 : cw;
	ch = ch < 1 ? 1 : ch;
	if (cw < iw || ch < ih) {
		photo->cx = (iw - cw) / 2;
		photo->cy = (ih - ch) / 2;
		photo->cw = cw;
		photo->ch = ch;
	}
}

/* The name, and the native name beside it, at size (sizes.native scaled
 * as the name is) into n: kept on one line (keep), or free to wrap
 * between its words. */
static void name_spans(lay_t *L, spans_t *n, int32_t size, int keep)
{
	const style_t *s = L->s;
	const model_t *m = L->m;
	tstyle_t nt = {L->head, s->name_style, size, s->c_name,
	               INLINE_NOHYPH | (keep ? INLINE_NOBREAK : 0u), 0, s->name_feats,
	               (int32_t)((int64_t)size * s->name_track / 1000)};
	nt.feats &= ~lay_feats_missing(L, &nt, nt.feats, "header.name_features");
	sp_at(L, n, m->name, &nt, m->at_name);
	if (m->name_native) {
		tstyle_t nn = nt;
		int32_t ns = s->size_native ? s->size_native : s->size_name;
		nn.size = (int32_t)((int64_t)ns * size / s->size_name);
		/* the same weight as the name (issue 9): bold, from the CJK face's
		   bold when it has one */
		sp_str(L, n, "  ", &nt);
		inline_span_t *f = sp_add(L, n, m->name_native, (int)strlen(m->name_native), &nn,
		                        NULL, m->at_native.line, m->at_native.col);
		if (f) {
			f->lang = script_lang(m->name_native);
			if (f->lang && !strcmp(f->lang, "zh") && L->cjk)
				f->lang = L->cjk;   /* kanji in a Japanese CV */
		}
	}
}

int lay_header(lay_t *L, page_image_t *photo)
{
	const model_t *m = L->m;
	const style_t *s = L->s;
	int sidebar = s->sidebar != SIDE_NONE;
	region_t *side = &L->reg[R_SIDE];
	L->r = &L->reg[sidebar ? R_HEAD : R_MAIN];
	if (sidebar) {
		/* beside a sidebar, each column is one element of the structure, so
		   the tree reads one column whole, then the other (sidebar.read) */
		for (int k = R_MAIN; k <= R_SIDE; k++) {
			L->reg[k].tag = lay_tag(L, "Div");
			lay_untag(L, L->reg[k].tag);
		}
	}
	if (s->icons && !(L->icons = font_chain_get(L->lib, s->font_icons, L->e)))
		return -1;
	int align = s->header_align == ST_LEFT ? INLINE_LEFT : INLINE_CENTER;
	int32_t width = L->r->width, dx = 0;
	memset(photo, 0, sizeof(*photo));
	L->photo_side = sidebar && s->photo_in_sidebar;
	if (m->photo && m->photo_img) {   /* decoded when the profile was loaded */
		int32_t maxw = L->photo_side && s->photo_max_w > side->width ? side->width
		               : s->photo_max_w;
		photo_box(s, m->photo_img, maxw, photo);
		photo->path = m->photo;
		photo->png = m->photo_img->png;
		photo->img = m->photo_img;
		if (L->photo_side) {
			/* at the top of the sidebar, centred in it */
			photo->x = side->x0 + (side->width - photo->w) / 2;
			if (L->rtl)
				photo->x = s->page_w - photo->x - photo->w;
			L->photo_top = 0;
			L->r = side;
			v_new(L, V_GAP, photo->h + s->photo_gap)->nobreak = 1;
			L->r = &L->reg[R_HEAD];
		} else {
			photo->x = L->rtl ? L->r->x0 : L->r->x0 + L->r->width - photo->w;
			photo->y = s->margin_top;
			width -= photo->w + s->photo_gap;
			if (align == INLINE_CENTER) {
				dx = photo->w + s->photo_gap; /* keep the text centred on the page */
				width -= photo->w + s->photo_gap;
			}
		}
	}
	int start = L->r->nv;
	spans_t n = {0};
	int32_t size = s->size_name;
	name_spans(L, &n, size, 1);
	/* the name and the native name may go to two lines: the wider of
	   them must fit (measured only when it may not: no glyph is wider
	   than two em a byte of its UTF-8) */
	int32_t w = 0;
	for (int i = 0; i < n.n; i += 2) {
		spans_t one = {&n.v[i], 1, 1};
		int64_t bound = (int64_t)n.v[i].len * (2 * n.v[i].size + (n.v[i].track > 0 ? n.v[i].track : 0));
		int32_t wi = bound > width ? sp_width(L, &one) : 0;
		if (wi > w)
			w = wi;
	}
	if (w > width) {
		/* wider than its line: smaller, down to header.name_min_scale,
		   on one line, as a display line is fitted (TeX's \resizebox,
		   InDesign's fit); wider still, at that size between its words */
		int32_t min = (int32_t)((int64_t)s->size_name * s->name_min_scale / 1000);
		int32_t fit = (int32_t)((int64_t)s->size_name * width / w);
		int one = fit >= min;
		size = one ? fit : min;
		n.n = 0;
		name_spans(L, &n, size, one);
		if (!one)
			warn_at(L->e, m->file, m->at_name.line, m->at_name.col,
			        "the name is wider than the page's measure even at %d%% of sizes.name "
			        "(header.name_min_scale): it wraps between its words",
			        (int)(s->name_min_scale / 10));
	}
	int tag = lay_tag(L, "H1");
	v_flow(L, &n, dx, width, align, size, 0);
	lay_untag(L, tag);
	if (m->headline) {
		spans_t h = {0};
		tstyle_t t = {L->head, s->headline_style, s->size_headline, s->c_headline, 0, 0, 0, 0};
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
	if (sidebar && s->contacts_in_sidebar) {
		region_t *keep = L->r;
		lay_into(L, side);
		int n0 = side->nv;
		contacts(L, INLINE_LEFT, 0, side->width, 1);
		if (side->nv > n0) /* no contacts: nothing to keep the titles from */
			v_gap(L, s->section_before);
		lay_into(L, keep);
	} else {
		tag = lay_tag(L, "P");
		contacts(L, align, dx, width, 0);
		lay_untag(L, tag);
	}
	/* the photo is read after the lines beside it, or first in the sidebar */
	L->photo_at = L->photo_side ? -1 : L->r->nv - 1;
	if (m->photo) {
		region_t *keep = L->r;
		if (L->photo_side)
			lay_into(L, side);
		L->photo_tag = page_tag_open(L->d, "Figure", NULL, photo_alt(L));
		page_tag_close(L->d, L->photo_tag);
		lay_into(L, keep);
	}
	/* the photo's height counts as part of the header */
	int32_t hh = 0;
	for (int i = start; i < L->r->nv; i++)
		hh += L->r->v[i].h;
	if (!L->photo_side && photo->h > hh)
		v_new(L, V_GAP, photo->h - hh)->nobreak = 1;
	for (int i = start; i < L->r->nv; i++)
		L->r->v[i].nobreak = 1;
	if (sidebar) {
		/* the header ends above both columns; the summary opens the main one */
		v_gap(L, s->header_gap);
		lay_into(L, &L->reg[R_MAIN]);
		if (m->summary.n) {
			tag = lay_tag(L, "P");
			lay_paragraph(L, &m->summary);
			lay_untag(L, tag);
		}
		return 0;
	}
	if (m->summary.n) {
		v_gap(L, s->header_gap);
		L->r->v[L->r->nv - 1].nobreak = 0;
		tag = lay_tag(L, "P");
		lay_paragraph(L, &m->summary);
		lay_untag(L, tag);
	} else {
		v_gap(L, s->header_gap - s->section_before > 0 ? s->header_gap - s->section_before : 0);
	}
	return 0;
}
