/* layout_header: the header at the top of the first page -- name (and
 * native name), headline, affiliation and location, the contact row, and
 * the photo beside them; then the summary paragraph.
 */
#include <string.h>
#include "image.h"
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
		nn.style = FONT_REGULAR;
		sp_str(L, &n, "  ", &nt);
		sp_at(L, &n, m->name_native, &nn, m->at_native);
	}
	v_flow(L, &n, dx, width, align, s->size_name, 0);
	if (m->headline) {
		spans_t h = {0};
		tstyle_t t = {L->head, FONT_REGULAR, s->size_headline, s->c_muted, 0};
		sp_at(L, &h, m->headline, &t, m->at_headline);
		v_flow(L, &h, dx, width, align, s->size_headline, 0);
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
	v_flow(L, &a, dx, width, align, s->size_body, 0);
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
	v_flow(L, &c, dx, width, align, s->size_small, 0);
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
		lay_paragraph(L, &m->summary);
	} else {
		v_gap(L, s->header_gap - s->section_before > 0 ? s->header_gap - s->section_before : 0);
	}
	return 0;
}
