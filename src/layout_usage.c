/* layout_usage: what layout tells the font module once a CV is laid out
 * or before it is: the subsets to embed (layout_subset, called between
 * layout_render and pdf_write) and the characters no face can draw
 * (layout_coverage, for `vita fonts PROFILE`, warnings and --strict).
 */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "font.h"
#include "layout.h"
#include "utf8.h"

/* A set of 16-bit values (BMP code points, glyph ids): a bit each, and a
 * bit per 64-bit word that has any, so that listing a CV's few hundred
 * values ascending skips the empty words (a batch worker's library holds
 * every face its CVs used: sweeping 8 KB per face per CV added up). Only
 * the summary is cleared when a set is made; a word is cleared when its
 * first value comes (no word without its summary bit is ever read), so a
 * set does not clear 8 KB for a CV's few hundred values either. */
typedef struct bits16 {
	uint64_t sum[16];
	uint64_t w[1024];
	uint32_t *big;    /* code points past the BMP (a CV has few), once each */
	int nbig, capbig;
} bits16_t;

static bits16_t *bits_new(bits16_t **bp)
{
	if (!*bp) {
		*bp = xmalloc(sizeof(bits16_t));
		memset((*bp)->sum, 0, sizeof((*bp)->sum));
		(*bp)->big = NULL;
		(*bp)->nbig = (*bp)->capbig = 0;
	}
	return *bp;
}

static void bits_free(bits16_t *b)
{
	if (b)
		free(b->big);
	free(b);
}

/* A code point past the BMP into b's list (not sorted until bits_list). */
static void bits_set_big(bits16_t *b, uint32_t v)
{
	for (int i = 0; i < b->nbig; i++)
		if (b->big[i] == v)
			return;
	if (b->nbig == b->capbig) {
		b->capbig = b->capbig ? 2 * b->capbig : 8;
		b->big = xrealloc(b->big, sizeof(uint32_t) * (size_t)b->capbig);
	}
	b->big[b->nbig++] = v;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void bits_set(bits16_t *b, uint32_t v)
{
	uint64_t *sum = &b->sum[v >> 12], bit = (uint64_t)1 << (v >> 6 & 63);
	if (!(*sum & bit)) {
		*sum |= bit;
		b->w[v >> 6] = 0;
	}
	b->w[v >> 6] |= (uint64_t)1 << (v & 63);
}

static int bits_count(const bits16_t *b)
{
	int n = b ? b->nbig : 0;
	for (int s = 0; b && s < 16; s++)
		for (uint64_t sw = b->sum[s]; sw; sw &= sw - 1)
			n += __builtin_popcountll(b->w[s * 64 + __builtin_ctzll(sw)]);
	return n;
}

/* The values ascending into out (bits_count of them; out32 when any is
 * past the BMP). */
static void bits_list(bits16_t *b, uint32_t *out32, uint16_t *out16)
{
	int n = 0;
	for (int s = 0; s < 16; s++)
		for (uint64_t sw = b->sum[s]; sw; sw &= sw - 1) {
			uint32_t wi = (uint32_t)s * 64 + (uint32_t)__builtin_ctzll(sw);
			for (uint64_t w = b->w[wi]; w; w &= w - 1) {
				uint32_t v = wi * 64 + (uint32_t)__builtin_ctzll(w);
				if (out32)
					out32[n++] = v;
				else
					out16[n++] = (uint16_t)v;
			}
		}
	if (b->nbig && out32) {
		qsort(b->big, (size_t)b->nbig, sizeof(uint32_t), cmp_u32);
		memcpy(out32 + n, b->big, sizeof(uint32_t) * (size_t)b->nbig);
	}
}

/* A run's code points (and feature glyph ids) into its face's sets; its
 * ASCII (most of a CV) only into the face's byte table `ascii`, one store
 * a byte, which joins the set once all runs are in (ascii_fold). */
static void run_used(const page_run_t *r, bits16_t **used, bits16_t **galt, uint8_t *ascii)
{
	bits16_t *u = bits_new(used);
	const unsigned char *t = (const unsigned char *)r->text;
	for (int k = 0; k < r->nglyphs; k++)   /* shaped clusters: their glyphs */
		if (r->glyphs[k].gid)
			bits_set(bits_new(galt), r->glyphs[k].gid);
	if (!r->gids) {
		for (int k = 0; k < r->len;) {
			if (t[k] < 0x80) {   /* no decoding */
				ascii[t[k++]] = 1;
				continue;
			}
			uint32_t cp;
			int l = utf8_decode(r->text + k, (size_t)(r->len - k), &cp);
			if (!l)
				break;
			if (cp < 0x10000)
				bits_set(u, cp);
			else
				bits_set_big(u, cp);
			k += l;
		}
		return;
	}
	for (int k = 0, j = 0; k < r->len; j++) {
		uint32_t cp;
		int l = utf8_decode(r->text + k, (size_t)(r->len - k), &cp);
		if (!l)
			break;
		if (cp < 0x10000)
			bits_set(u, cp);
		else
			bits_set_big(u, cp);
		if (r->gids[j])
			bits_set(bits_new(galt), r->gids[j]);
		k += l;
	}
}

static void ascii_fold(bits16_t *u, const uint8_t *ascii)
{
	for (uint32_t c = 0; c < 0x80; c++)
		if (ascii[c])
			bits_set(u, c);
}

int layout_subset(page_doc_t *d, font_lib_t *lib, errs_t *e)
{
	int nf = font_face_count(lib);
	d->nfaces = nf;
	d->faces = arena_alloc(d->arena, sizeof(page_face_t) * (size_t)(nf ? nf : 1));
	if (!nf)
		return 0;
	/* per face drawn: its code points, and its feature glyph ids */
	bits16_t **used = xcalloc((size_t)nf * 2, sizeof(*used)), **galt = used + nf;
	uint8_t *ascii = xcalloc((size_t)nf, 0x80);
	for (int p = 0; p < d->npages; p++)
		for (int i = 0; i < d->pages[p].n; i++) {
			const page_item_t *it = &d->pages[p].items[i];
			int f = it->u.run.face;
			if (it->kind == PAGE_RUN && f >= 0 && f < nf)
				run_used(&it->u.run, &used[f], &galt[f], ascii + (size_t)f * 0x80);
		}
	for (int f = 0; f < nf; f++)
		if (used[f])
			ascii_fold(used[f], ascii + (size_t)f * 0x80);
	free(ascii);
	int rc = 0;
	for (int f = 0; f < nf && !rc; f++) {
		if (!used[f])
			continue;   /* not drawn */
		int n = bits_count(used[f]), ng = bits_count(galt[f]);
		uint32_t *cps = xmalloc(sizeof(uint32_t) * (size_t)(n ? n : 1));
		if (n)
			bits_list(used[f], cps, NULL);
		page_face_t *pf = &d->faces[f];
		uint16_t *from = ng ? arena_alloc(d->arena, sizeof(uint16_t) * (size_t)ng) : NULL;
		uint16_t *to = ng ? arena_alloc(d->arena, sizeof(uint16_t) * (size_t)ng) : NULL;
		if (ng)
			bits_list(galt[f], NULL, from);
		if (font_subset_glyphs(lib, f, cps, n, from, ng, to, d->arena, &pf->data, &pf->len, e))
			rc = -1;
		if (ng) {
			pf->alt_from = from;
			pf->alt_to = to;
			pf->nalt = ng;
		}
		else
			pf->name = arena_strdup(d->arena, font_face_info(lib, f)->path);
		free(cps);
	}
	for (int f = 0; f < nf * 2; f++)
		bits_free(used[f]);
	free(used);
	return rc;
}

/* Coverage: every code point of every text the layout may draw. */
typedef struct cov {
	const model_t *m;
	const char *lang;
	errs_t *e;
	font_chain_t *chains[2];
	int strict, count;
	uint32_t seen[64];
	int nseen;
} cov_t;

static void cov_str(cov_t *c, const char *s, int line, int col, const char *what)
{
	if (!s)
		return;
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(s + i, n - i, &cp);
		if (!l)
			return;
		i += (size_t)l;
		if (cp < 0x80 && cp >= 0x20)
			continue;
		if (cp == '\n' || cp == '\t' || cp == 0xad || (cp >= 0x200b && cp <= 0x200d))
			continue;
		int ok = 1;
		for (int k = 0; k < 2 && ok; k++)
			if (font_face_for(c->chains[k], FONT_REGULAR, c->lang, cp) < 0)
				ok = 0;
		if (ok)
			continue;
		int dup = 0;
		for (int k = 0; k < c->nseen; k++)
			dup |= c->seen[k] == cp;
		if (dup)
			continue;
		if (c->nseen < 64)
			c->seen[c->nseen++] = cp;
		c->count++;
		char u[5] = {0};
		utf8_encode(cp, u);
		const char *why = "has no font in the layout's chains";
		char miss[300];
		int nm = font_chain_missing(c->chains[0], cp, c->lang, miss, sizeof(miss));
		if (!nm)
			nm = font_chain_missing(c->chains[1], cp, c->lang, miss, sizeof(miss));
		if (nm > 0)
			err_at_code(c->e, ERR_SYSTEM, c->m->file, line, col,
			            "U+%04X '%s' in %s needs a font that is not installed: the layout "
			            "names %s", cp, u, what, miss);
		else if (nm < 0)
			continue;   /* those families were named for an earlier character */
		else if (c->strict)
			err_at(c->e, c->m->file, line, col, "U+%04X '%s' in %s %s", cp, u, what, why);
		else
			warn_at(c->e, c->m->file, line, col, "U+%04X '%s' in %s %s; it will not be drawn",
			        cp, u, what, why);
	}
}

static void cov_text(cov_t *c, const mtext_t *t, const char *what)
{
	for (int i = 0; i < t->n; i++)
		cov_str(c, t->spans[i].text, t->line, t->col, what);
}

/* Every text of the model a reader sees (model_walk: those with a role). */
static int cov_visit(const mvisit_t *v, void *ctx)
{
	cov_t *c = ctx;
	if (!v->role)
		return 0;
	switch (v->kind) {
	case MV_STR:
		cov_str(c, v->u.str, v->line, v->col, v->role);
		break;
	case MV_TEXT:
		cov_text(c, v->u.text, v->role);
		break;
	case MV_STRS:
		for (int i = 0; i < v->n; i++)
			cov_str(c, v->u.strs[i], v->line, v->col, v->role);
		break;
	case MV_LINK:
		cov_str(c, v->u.link->label, v->line, v->col, v->role);
		break;
	case MV_CONTACT:
		cov_str(c, v->u.contact->value, v->line, v->col, v->role);
		break;
	}
	return 0;
}

int layout_coverage(const model_t *m, const style_t *s, font_lib_t *lib, int strict, errs_t *e)
{
	cov_t c;
	memset(&c, 0, sizeof(c));
	c.m = m;
	c.lang = m->lang ? m->lang : s->lang;
	c.e = e;
	c.strict = strict;
	if (!(c.chains[0] = font_chain_get(lib, s->font_body, e)) ||
	    !(c.chains[1] = font_chain_get(lib, s->font_heading, e)))
		return -1;
	model_walk(m, cov_visit, &c);
	return c.count;
}
