/* layout_text: styled spans and dates, the pieces every block is built
 * from. A span carries its text, face chain, style, size, colour, link
 * and source position (for warnings); dates follow the layout's month
 * names, separator and "present" word.
 */
#include <string.h>
#include "layout_int.h"

inline_span_t *sp_add(lay_t *L, spans_t *s, const char *text, int len, const tstyle_t *t,
                           const char *url, int line, int col)
{
	if (!text || len <= 0)
		return NULL;
	if (s->n == s->cap) {
		/* most lists are a few spans (a title, a date): start small, the
		   arena zeroes what it hands out */
		int cap = s->cap ? s->cap * 2 : 4;
		s->v = arena_grow(L->a, s->v, sizeof(inline_span_t) * (size_t)s->cap,
		                  sizeof(inline_span_t) * (size_t)cap);
		s->cap = cap;
	}
	inline_span_t *f = &s->v[s->n++];
	memset(f, 0, sizeof(*f));
	f->text = text;
	f->len = len;
	f->chain = t->chain;
	f->style = t->style;
	f->size = t->size;
	f->color = url ? L->s->c_link : t->color;
	f->url = url;
	f->flags = t->flags;
	f->frame = t->frame;
	f->feats = t->feats;
	f->track = t->track;
	f->line = line;
	f->col = col;
	return f;
}

void sp_str(lay_t *L, spans_t *s, const char *text, const tstyle_t *t)
{
	if (text)
		sp_add(L, s, text, (int)strlen(text), t, NULL, 0, 0);
}

/* A plain string from the profile, located for warnings about its text. */
void sp_at(lay_t *L, spans_t *s, const char *text, const tstyle_t *t, mpos_t at)
{
	if (text)
		sp_add(L, s, text, (int)strlen(text), t, NULL, at.line, at.col);
}

/* Rich text: markup flags add to the base style. */
/* A text of the profile. One in another language than the CV's (its
 * item's `lang:`, a translation it fell back to) says so on its spans:
 * its hyphenation patterns, its /Lang in the tagged PDF. */
void sp_text(lay_t *L, spans_t *s, const mtext_t *x, const tstyle_t *t)
{
	const char *lang = x->lang && (!L->lang || strcmp(x->lang, L->lang)) ? x->lang : NULL;
	for (int i = 0; i < x->n; i++) {
		const mspan_t *sp = &x->spans[i];
		tstyle_t u = *t;
		if (sp->flags & SPAN_BOLD)
			u.style |= FONT_BOLD;
		if (sp->flags & SPAN_ITALIC)
			u.style ^= FONT_ITALIC;
		inline_span_t *f = sp_add(L, s, sp->text, (int)strlen(sp->text), &u, sp->url,
		                          x->line, x->col);
		if (f && lang)
			f->lang = lang;
	}
}

tstyle_t lay_ts(lay_t *L, int style, int32_t size, uint32_t color)
{
	tstyle_t t = {L->body, style, size, color, 0, 0, 0, 0};
	t.feats = lay_figures(L->s->text_feats, L->s->text_figures);
	if (t.feats)
		t.feats &= ~lay_feats_missing(L, &t, t.feats,
		                              L->s->text_figures ? "text.figures" : "text.features");
	return t;
}

unsigned lay_figures(unsigned feats, int figures)
{
	static const unsigned fig[] = {
		0, STYLE_FEAT_ONUM, STYLE_FEAT_LNUM, STYLE_FEAT_TNUM,
		STYLE_FEAT_ONUM | STYLE_FEAT_TNUM, STYLE_FEAT_LNUM | STYLE_FEAT_TNUM,
	};
	const unsigned all = STYLE_FEAT_ONUM | STYLE_FEAT_LNUM | STYLE_FEAT_TNUM | STYLE_FEAT_PNUM;
	if (figures <= STYLE_FIG_DEFAULT || figures > STYLE_FIG_LINING_TABULAR)
		return feats;
	return (feats & ~all) | fig[figures];
}

unsigned lay_feats_missing(lay_t *L, const tstyle_t *t, unsigned feats, const char *where)
{
	static const char *const names[] = {"smcp", "c2sc", "onum", "lnum", "tnum", "pnum"};
	static const char *const keys[] = {"section.small_caps", "section.features",
	                                   "section.figures", "header.name_features",
	                                   "text.features", "text.figures", "entry.date_figures"};
	if (!feats || !t->chain)
		return 0;
	unsigned miss = feats & ~font_features(t->chain, t->style, feats);
	if (!miss)      /* the common case (every lay_ts): no key to look up */
		return 0;
	unsigned k = 0;
	while (k < sizeof(keys) / sizeof(keys[0]) && strcmp(keys[k], where))
		k++;
	if (L->feats_said & 1u << k)
		return miss;
	L->feats_said |= 1u << k;
	char list[64] = "";
	for (unsigned i = 0; i < 6; i++)
		if (miss & 1u << i)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			         *list ? ", " : "", names[i]);
	const font_face_info_t *fi = font_face_info(L->lib, font_face_for(t->chain, t->style,
	                                                                  NULL, 'a'));
	const char *file;
	int line, col;
	style_key_at(L->orig, where, &file, &line, &col);
	warn_at(L->e, file, line, col, "%s: the face '%s %s' has no OpenType %s; %s", where,
	        fi ? fi->family : font_chain_name(t->chain), fi ? fi->style : "", list,
	        miss & STYLE_FEAT_SMCP && !strcmp(where, "section.small_caps")
	                ? "small capitals are drawn as capitals at 80%"
	                : "the font's default glyphs are drawn");
	return miss;
}
int32_t sp_width(lay_t *L, const spans_t *s)
{
	return s->n ? inline_width_memo(L->memo, s->v, s->n, L->lang) : 0;
}
/* ---- dates ---------------------------------------------------------- */

static int date_fixed(const mdate_t *d)
{
	return d->kind != DATE_TEXT;
}

/* The text of an entry's date column (NULL when it has none), and where
 * it may break: *split is where a range's end date starts (a line breaks
 * after the separator, never inside "Sep. 2022"); 0 for a single date,
 * which never breaks; -1 for free text, which breaks as text does. */
const char *lay_entry_dates(lay_t *L, const mentry_t *en, int *split)
{
	buf_t b;
	buf_init(&b);
	int at = locale_entry_dates(L->loc, en, &b);
	const char *r = b.len ? arena_strdup(L->a, b.s) : NULL;
	buf_done(&b);
	const mdate_t *one = en->start.kind ? &en->start : en->end.kind ? &en->end : &en->date;
	int fixed = at > 0 ? date_fixed(&en->start) && date_fixed(&en->end)
	            : at == 0 && date_fixed(one);
	*split = fixed ? at : -1;
	return r;
}

/* An entry's dates into s, in t, kept whole as lay_entry_dates says. */
void sp_dates(lay_t *L, spans_t *s, const char *dates, int split, const tstyle_t *t,
              const mentry_t *en)
{
	if (!dates)
		return;
	int len = (int)strlen(dates);
	if (split < 0) {
		sp_add(L, s, dates, len, t, NULL, en->line, en->col);
		return;
	}
	tstyle_t nb = *t;
	nb.flags |= INLINE_NOBREAK;
	if (split > 0)
		sp_add(L, s, dates, split, &nb, NULL, en->line, en->col);
	sp_add(L, s, dates + split, len - split, &nb, NULL, en->line, en->col);
}
