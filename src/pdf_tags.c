/* pdf_tags: the tagged PDF -- marked content in the page streams and the
 * structure tree (PDF 1.7, 14.7-14.8; PDF/UA-1).
 *
 *   pdf_tags_start(w);                       (before the first page)
 *   pdf_mc_text(w, item_tag, run_lang);      (before a run's Tj)
 *   pdf_mc_artifact(w);  pdf_mc_figure(w, tag);  pdf_mc_close(w);
 *   pdf_tag_annot(w, tag, annot);            (a link annotation)
 *   pdf_tags_finish(w);                      (after the last page)
 *
 * The page list says which structure element each item belongs to
 * (page.h). Drawing follows the page list: consecutive runs of one element
 * share one marked-content sequence "/Role <</MCID n>> BDC ... EMC";
 * rectangles and everything inside an artifact element are "/Artifact BMC
 * ... EMC". A sequence opened inside a text object is closed before its
 * ET (pdf.c's text_begin calls pdf_mc_close). A run whose language is not
 * its element's gets a Span child with /Lang.
 *
 * Each sequence and each annotation is recorded in drawing order; at the
 * end an element's kids (its sequences, its annotations as OBJR, its child
 * elements) are ordered by where their content first appears, elements
 * without content are left out, and the ParentTree maps every page's
 * MCIDs and every annotation's StructParent back to its element. Kids on
 * the element's own page (/Pg) are bare MCIDs; /Type is left out of
 * StructElems (it is optional) to keep the tree small.
 *
 * With w->plain every call here does nothing: an untagged PDF.
 */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "pdf_int.h"

enum { MC_NONE, MC_ARTIFACT, MC_TAGGED };
enum { KID_MC, KID_ANNOT, KID_ELEM };

typedef struct pdf_el {
	int parent;         /* element index, -1 for the document */
	const char *role, *lang, *alt;
	int artifact;
	int first;          /* first record in its subtree; -1: no content */
	int page;           /* /Pg: page of its first own record, -1 none */
	unsigned id;        /* its object number, 0: not in the tree */
} pdf_el_t;

typedef struct pdf_rec {
	int el, page, mcid; /* mcid -1: an annotation */
	unsigned annot;     /* its object number */
} pdf_rec_t;

struct pdf_tags {
	pdf_el_t *el;
	int nel, capel;
	pdf_rec_t *rec;
	int nrec, caprec;
	int mc, mc_el;      /* the open sequence and its element */
	int *nmcid;         /* per page: MCIDs given */
	int nannots;
	const char **memo;  /* el_lang of the page list's elements */
	unsigned char *memo_ok;
	int nmemo;
};

static int el_add(pdf_tags_t *t, int parent, const char *role, const char *lang,
                  const char *alt)
{
	if (t->nel == t->capel) {
		t->capel = t->capel ? 2 * t->capel : 64;
		t->el = xrealloc(t->el, sizeof(pdf_el_t) * (size_t)t->capel);
	}
	pdf_el_t *e = &t->el[t->nel];
	memset(e, 0, sizeof(*e));
	e->parent = parent;
	e->role = role;
	e->lang = lang;
	e->alt = alt;
	e->first = e->page = -1;
	return t->nel++;
}

static void rec_add(pdf_tags_t *t, int el, int page, int mcid, unsigned annot)
{
	if (t->nrec == t->caprec) {
		t->caprec = t->caprec ? 2 * t->caprec : 256;
		t->rec = xrealloc(t->rec, sizeof(pdf_rec_t) * (size_t)t->caprec);
	}
	t->rec[t->nrec++] = (pdf_rec_t){el, page, mcid, annot};
}

void pdf_tags_start(pw_t *w)
{
	if (w->plain)
		return;
	const page_doc_t *d = w->doc;
	pdf_tags_t *t = w->tg = xcalloc(1, sizeof(*t));
	t->nmcid = xcalloc((size_t)(d->npages > 0 ? d->npages : 1), sizeof(int));
	for (int i = 0; i < d->ntags; i++) {
		const page_tag_t *g = &d->tags[i];
		int k = el_add(t, i ? g->parent : -1, g->role, g->lang, g->alt);
		t->el[k].artifact = !strcmp(g->role, PAGE_ARTIFACT) ||
		                    (k > 0 && g->parent >= 0 && g->parent < k && t->el[g->parent].artifact);
	}
	if (!t->nel)
		el_add(t, -1, "Document", NULL, NULL);
	t->nmemo = t->nel;
	t->memo = xcalloc((size_t)t->nmemo, sizeof(const char *));
	t->memo_ok = xcalloc((size_t)t->nmemo, 1);
}

void pdf_tags_free(pw_t *w)
{
	pdf_tags_t *t = w->tg;
	if (!t)
		return;
	free(t->el);
	free(t->rec);
	free(t->nmcid);
	free(t->memo);
	free(t->memo_ok);
	free(t);
	w->tg = NULL;
	free(w->tg_kids);
}

void pdf_mc_close(pw_t *w)
{
	pdf_tags_t *t = w->tg;
	if (!t || t->mc == MC_NONE)
		return;
	pdf_put(w, "EMC\n", 4);
	t->mc = MC_NONE;
}

void pdf_mc_artifact(pw_t *w)
{
	pdf_tags_t *t = w->tg;
	if (!t || t->mc == MC_ARTIFACT)
		return;
	pdf_mc_close(w);
	pdf_put(w, "/Artifact BMC\n", 14);
	t->mc = MC_ARTIFACT;
}

/* The language in effect in element e; kept for the page list's elements
 * (every run asks), when the walk met only those: their parents and
 * languages never change. */
static const char *el_lang(const pw_t *w, int e)
{
	pdf_tags_t *t = w->tg;
	int e0 = e, pure = 1;
	if (e0 >= 0 && e0 < t->nmemo && t->memo_ok[e0])
		return t->memo[e0];
	const char *r = w->doc->lang;
	for (int k = 0; e >= 0 && e < t->nel && k < t->nel; e = t->el[e].parent, k++) {
		pure &= e < t->nmemo;
		if (t->el[e].lang) {
			r = t->el[e].lang;
			break;
		}
	}
	if (e >= t->nel)
		pure = 0;
	if (pure && e0 >= 0 && e0 < t->nmemo) {
		t->memo[e0] = r;
		t->memo_ok[e0] = 1;
	}
	return r;
}

/* Open a tagged sequence for element e (the caller closed the last one). */
static void mc_open(pw_t *w, int e)
{
	pdf_tags_t *t = w->tg;
	char buf[32];
	int mcid = t->nmcid[w->pageno]++;
	pdf_put(w, "/", 1);
	pdf_put(w, t->el[e].role, strlen(t->el[e].role));
	memcpy(buf, "<</MCID ", 8);
	int n = 8 + pdf_num(buf + 8, mcid, 0);
	memcpy(buf + n, ">>BDC\n", 6);
	pdf_put(w, buf, (size_t)n + 6);
	rec_add(t, e, w->pageno, mcid, 0);
	t->mc = MC_TAGGED;
	t->mc_el = e;
}

static int valid_tag(const pw_t *w, int tag)
{
	return tag >= 0 && tag < w->doc->ntags ? tag : 0;
}

void pdf_mc_text(pw_t *w, int tag, const char *lang)
{
	pdf_tags_t *t = w->tg;
	if (!t)
		return;
	tag = valid_tag(w, tag);
	if (t->el[tag].artifact) {
		pdf_mc_artifact(w);
		return;
	}
	if (lang && !strcmp(lang, el_lang(w, tag) ? el_lang(w, tag) : ""))
		lang = NULL;
	if (t->mc == MC_TAGGED) {
		const pdf_el_t *o = &t->el[t->mc_el];
		if (lang ? o->parent == tag && o->lang && !strcmp(o->lang, lang) &&
		               t->mc_el >= w->doc->ntags
		         : t->mc_el == tag)
			return;
	}
	pdf_mc_close(w);
	/* a span in another language: a Span child with /Lang */
	mc_open(w, lang ? el_add(t, tag, "Span", lang, NULL) : tag);
}

void pdf_mc_figure(pw_t *w, int tag)
{
	pdf_tags_t *t = w->tg;
	if (!t)
		return;
	tag = valid_tag(w, tag);
	pdf_mc_close(w);
	if (t->el[tag].artifact)
		pdf_mc_artifact(w);
	else
		mc_open(w, tag);
}

void pdf_tag_annot(pw_t *w, int tag, unsigned a, const char *url, pdf_ser_t *o)
{
	pdf_tags_t *t = w->tg;
	if (!t)
		return;
	tag = valid_tag(w, tag);
	/* PDF/UA: a description */
	const char *alt = t->el[tag].alt && *t->el[tag].alt ? t->el[tag].alt : url;
	pdf_ser_lit(o, "/Contents");
	pdf_ser_text(o, alt);
	if (t->el[tag].artifact)
		return;
	/* an annotation belongs to a Link element: one of its own if the page
	   list put it elsewhere */
	if (strcmp(t->el[tag].role, "Link"))
		tag = el_add(t, tag, "Link", NULL, alt);
	pdf_ser_lit(o, "/StructParent");
	pdf_ser_int(o, w->doc->npages + t->nannots++);
	rec_add(t, tag, w->pageno, -1, a);
}

/* ---- the tree ----
 *
 * Every object of the tree is a raw object (pdf_raw_new): the root, then
 * the elements in tree order; their values are written here. */

typedef struct kid {
	int parent, key, kind, idx;
} kid_t;

/* kids[0..n) ordered by (parent, key): a counting sort by key, then a
 * stable one by parent (keys are record indices, unique per parent). */
static void kids_sort(kid_t *kids, int n, int nkeys, int nparents)
{
	kid_t *tmp = xmalloc(sizeof(kid_t) * (size_t)(n > 0 ? n : 1));
	int m = (nkeys > nparents ? nkeys : nparents) + 1;
	int *count = xcalloc((size_t)m, sizeof(int));
	for (int i = 0; i < n; i++)
		count[kids[i].key + 1]++;
	for (int i = 1; i < m; i++)
		count[i] += count[i - 1];
	for (int i = 0; i < n; i++)
		tmp[count[kids[i].key]++] = kids[i];
	memset(count, 0, sizeof(int) * (size_t)m);
	for (int i = 0; i < n; i++)
		count[tmp[i].parent + 1]++;
	for (int i = 1; i < m; i++)
		count[i] += count[i - 1];
	for (int i = 0; i < n; i++)
		kids[count[tmp[i].parent]++] = tmp[i];
	free(count);
	free(tmp);
}

/* A reference to element i (which must be in the tree). */
static void el_ref(pw_t *w, pdf_ser_t *o, int i)
{
	unsigned id = w->tg->el[i].id;
	if (!id)
		pdf_ok(w, HPDF_INVALID_OBJECT);
	pdf_ser_ref(o, id);
}

/* The kid k of element e. */
static void kid_put(pw_t *w, pdf_ser_t *o, const kid_t *k, const pdf_el_t *e)
{
	pdf_tags_t *t = w->tg;
	if (k->kind == KID_ELEM) {
		el_ref(w, o, k->idx);
		return;
	}
	const pdf_rec_t *r = &t->rec[k->idx];
	if (k->kind == KID_MC && r->page == e->page) {
		pdf_ser_int(o, r->mcid);
		return;
	}
	if (k->kind == KID_MC)
		pdf_ser_lit(o, "<</Type/MCR");
	else
		pdf_ser_lit(o, "<</Type/OBJR");
	if (r->page != e->page) {
		pdf_ser_lit(o, "/Pg");
		pdf_ser_ref(o, pdf_obj_id(w->pages[r->page]));
	}
	if (k->kind == KID_MC) {
		pdf_ser_lit(o, "/MCID");
		pdf_ser_int(o, r->mcid);
	} else {
		pdf_ser_lit(o, "/Obj");
		pdf_ser_ref(o, r->annot);
	}
	pdf_ser_lit(o, ">>");
}

static void el_fill(pw_t *w, int i, const kid_t *kids, int n, unsigned root)
{
	pdf_tags_t *t = w->tg;
	pdf_el_t *e = &t->el[i];
	pdf_ser_t o;
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</S");
	pdf_ser_name(&o, e->role);
	pdf_ser_lit(&o, "/P");
	if (e->parent >= 0)
		el_ref(w, &o, e->parent);
	else
		pdf_ser_ref(&o, root);
	if (e->page >= 0) {
		pdf_ser_lit(&o, "/Pg");
		pdf_ser_ref(&o, pdf_obj_id(w->pages[e->page]));
	}
	if (e->lang) {
		pdf_ser_lit(&o, "/Lang");
		pdf_ser_text(&o, e->lang);
	}
	if (e->alt && !strcmp(e->role, "Figure")) {
		pdf_ser_lit(&o, "/Alt");
		pdf_ser_text(&o, e->alt);
	}
	if (n == 1) {
		pdf_ser_lit(&o, "/K");
		kid_put(w, &o, &kids[0], e);
	} else if (n > 1) {
		pdf_ser_lit(&o, "/K[");
		for (int k = 0; k < n; k++)
			kid_put(w, &o, &kids[k], e);
		pdf_ser_lit(&o, "]");
	}
	pdf_ser_lit(&o, ">>");
	pdf_raw_end_num(w, &o, e->id);
}

void pdf_tags_finish(pw_t *w)
{
	pdf_tags_t *t = w->tg;
	if (!t)
		return;
	w->what = "write the structure tree";
	/* which elements have content, and where it first appears */
	for (int i = 0; i < t->nrec; i++) {
		int e = t->rec[i].el;
		if (t->el[e].page < 0)
			t->el[e].page = t->rec[i].page;
		for (int k = 0; e >= 0 && t->el[e].first < 0 && k <= t->nel; e = t->el[e].parent, k++)
			t->el[e].first = i;
	}
	t->el[0].first = 0;
	kid_t *kids = xmalloc(sizeof(kid_t) * (size_t)(t->nrec + t->nel + 1));
	int nk = 0;
	for (int i = 0; i < t->nrec; i++)
		kids[nk++] = (kid_t){t->rec[i].el, i, t->rec[i].mcid >= 0 ? KID_MC : KID_ANNOT, i};
	for (int i = 1; i < t->nel; i++)
		if (t->el[i].first >= 0 && !t->el[i].artifact && t->el[i].parent >= 0)
			kids[nk++] = (kid_t){t->el[i].parent, t->el[i].first, KID_ELEM, i};
	kids_sort(kids, nk, t->nrec, t->nel);
	w->tg_kids = kids; /* freed with w, even after a jump */

	/* the elements are indirect objects in tree order (a reader walks it so) */
	void *root = pdf_raw_new(w);
	unsigned rootid = pdf_obj_id(root);
	for (int i = 0; i < t->nel; i++)
		if (t->el[i].first >= 0 && !t->el[i].artifact)
			t->el[i].id = pdf_num_new(w); /* only raw objects refer to them */
	for (int i = 0, k = 0; i < t->nel; i++) {
		while (k < nk && kids[k].parent < i)
			k++;
		int k0 = k;
		while (k < nk && kids[k].parent == i)
			k++;
		if (t->el[i].id)
			el_fill(w, i, kids + k0, k - k0, rootid);
	}

	int np = w->doc->npages;
	pdf_ser_t o;
	pdf_raw_begin(w, &o);
	pdf_ser_lit(&o, "<</Type/StructTreeRoot/K");
	el_ref(w, &o, 0);
	pdf_ser_lit(&o, "/ParentTree<</Nums[");
	/* records are in drawing order, so a page's MCIDs come 0, 1, 2, ... */
	for (int p = 0, i = 0; p < np; p++) {
		pdf_ser_int(&o, p);
		pdf_ser_lit(&o, "[");
		for (; i < t->nrec && t->rec[i].page <= p; i++)
			if (t->rec[i].mcid >= 0 && t->rec[i].page == p)
				el_ref(w, &o, t->rec[i].el);
		pdf_ser_lit(&o, "]");
		pdf_ok(w, HPDF_Dict_AddNumber(w->pages[p], "StructParents", p));
	}
	for (int i = 0, key = np; i < t->nrec; i++) {
		const pdf_rec_t *r = &t->rec[i];
		if (r->mcid >= 0)
			continue;
		pdf_ser_int(&o, key++);
		el_ref(w, &o, r->el);
	}
	pdf_ser_lit(&o, "]>>/ParentTreeNextKey");
	pdf_ser_int(&o, np + t->nannots);
	pdf_ser_lit(&o, ">>");
	pdf_raw_end(w, &o, root);

	HPDF_Dict cat = w->pdf->catalog;
	pdf_ok(w, HPDF_Dict_Add(cat, "StructTreeRoot", root));
	HPDF_Dict mi = pdf_obj(w, HPDF_Dict_New(w->pdf->mmgr));
	pdf_ok(w, HPDF_Dict_AddBoolean(mi, "Marked", HPDF_TRUE));
	pdf_ok(w, HPDF_Dict_Add(cat, "MarkInfo", mi));
}
