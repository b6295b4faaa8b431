/* profile_names: is this author the CV's owner? And the marks after a name.
 *
 * Authors are written in many forms by the tools a CV's publications come
 * from: "Zhen Zhu", "Z. Zhu", "Z Zhu", "Zhu, Zhen", "ZHU Zhen", "Zhu Z",
 * "Zhén Zhū", "Zhen Q. Zhu", "朱 珍". profile_name_match compares two names
 * in any of these forms: letter case and the diacritics of Latin letters
 * are ignored, and the name is split into a family name and given names,
 * either way round (a comma says which is which). The family names must
 * be equal; the given names match when written in full the same way
 * (spaces and hyphens aside: "Zhan-Da" = "Zhanda"), or when each given name
 * of the author is the owner's in full or as its initial, in order, the
 * first one always present (middle names may be left out). "Yuhao Zhu" is
 * not "Zhen Zhu"; "Y. Zhu" is not either. Names in a script without
 * letter case (CJK) match when equal without their spaces.
 *
 * pnames_mark, run once the model is built, marks every publication's
 * authors: a trailing *, #, † or ‡ is taken off the name and becomes
 * AUTHOR_EQUAL (* and #) or AUTHOR_CORRESPONDING († and ‡); an author
 * matching one of the section's highlight names gets AUTHOR_OWNER.
 */
#include <stdlib.h>
#include <string.h>
#include "profile_int.h"
#include "utf8.h"

#define MAXTOK 12

/* U+00C0..U+024F without their diacritics ('?': no plain Latin base). */
static const char latin_base[] =
	"aaaaaaaceeeeiiiidnooooo?ouuuuytsaaaaaaaceeeeiiiidnooooo?ouuuuyty"
	"aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii??jjkkklllllll"
	"lllnnnnnn?nnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzz?"
	"????????????????????????????????oo?????????????uu???????????????"
	"?????????????aaiioouuuuuuuuuu?aaaa????ggkkoooo??j???gg??nnaa????"
	"aaaaeeeeiiiioooorrrruuuusstt??hh??????aaeeooooooooyy????????????"
	"????????????????";

typedef struct pname {
	char tok[MAXTOK][48];   /* folded tokens, in written order */
	int ntok;
	unsigned char lower[MAXTOK]; /* the token was written starting in lower case */
	int comma;              /* index of the first token after a comma, or -1 */
	int cased;              /* 1 when the name has letters with case (Latin...) */
} pname_t;

/* Fold one code point: lower case, no diacritics; 0 when it separates
 * tokens, -1 when it is dropped (combining marks). */
static uint32_t fold(uint32_t cp, int *cased)
{
	if (cp == ' ' || cp == '.' || cp == '-' || cp == 0xA0 || cp == 0x2010 ||
	    cp == 0x2011 || cp == '\t' || cp == 0x3000 || cp == 0x30FB || cp == 0xB7)
		return 0;
	if (cp >= 0x300 && cp <= 0x36F)
		return (uint32_t)-1;
	if (cp < 0x80) {
		if ((cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z'))
			*cased = 1;
		return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
	}
	if (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7) {
		char b = latin_base[cp - 0xC0];
		*cased = 1;
		if (b != '?')
			return (uint32_t)b;
		return cp;
	}
	if (cp >= 0x391 && cp <= 0x3A9) {     /* Greek capitals */
		*cased = 1;
		return cp + 32;
	}
	if (cp >= 0x410 && cp <= 0x42F) {     /* Cyrillic capitals */
		*cased = 1;
		return cp + 32;
	}
	if ((cp >= 0x3B1 && cp <= 0x3C9) || (cp >= 0x430 && cp <= 0x44F))
		*cased = 1;
	return cp;
}

static void pname_parse(const char *s, pname_t *p)
{
	size_t n = strlen(s);
	int len = 0;
	p->ntok = 0;
	p->comma = -1;
	p->cased = 0;
	for (size_t i = 0; i <= n && p->ntok < MAXTOK;) {
		uint32_t cp = 0, f = 0;
		if (i == n) {
			i++;
		} else if ((unsigned char)s[i] < 0x80) {   /* fold's ASCII part, inline */
			cp = (unsigned char)s[i++];
			if (cp == ' ' || cp == '.' || cp == '-' || cp == '\t') {
				f = 0;
			} else if (cp >= 'A' && cp <= 'Z') {
				f = cp + 32;
				p->cased = 1;
			} else {
				f = cp;
				p->cased |= cp >= 'a' && cp <= 'z';
			}
		} else {
			i += (size_t)utf8_next(s + i, n - i, &cp);
			f = fold(cp, &p->cased);
		}
		int comma = cp == ',';
		if (f == (uint32_t)-1)
			continue;
		if (f == 0 || comma) {
			if (len) {
				p->tok[p->ntok][len] = '\0';
				p->ntok++;
				len = 0;
			}
			if (comma && p->comma < 0)
				p->comma = p->ntok;
			continue;
		}
		if (len == 0)
			p->lower[p->ntok] = cp >= 'a' && cp <= 'z';
		if (f < 0x80) {
			if (len + 1 < 48)
				p->tok[p->ntok][len++] = (char)f;
			continue;
		}
		char tmp[4];
		int m = utf8_encode(f, tmp);
		if (len + m < 48) {
			memcpy(p->tok[p->ntok] + len, tmp, (size_t)m);
			len += m;
		}
	}
	if (p->comma >= p->ntok)
		p->comma = -1;
}

/* Given names g[0..ng) of the author against o[0..no) of the owner. */
static int given_match(const char *const *g, int ng, const char *const *o, int no)
{
	char a[256] = "", b[256] = "";
	int initials = 0;
	if (ng == 0 || no == 0)
		return 0;
	for (int i = 0; i < ng; i++) {
		initials |= strlen(g[i]) == 1;
		if (strlen(a) + strlen(g[i]) < sizeof(a))
			strcat(a, g[i]);
	}
	for (int i = 0; i < no; i++)
		if (strlen(b) + strlen(o[i]) < sizeof(b))
			strcat(b, o[i]);
	if (!initials && !strcmp(a, b))
		return 1;
	/* in order; the first always; each in full or as its initial */
	int j = 0;
	for (int i = 0; i < ng; i++) {
		int ok = 0;
		if (j >= no && i > 0 && strlen(g[i]) == 1)
			continue;   /* a middle initial the owner does not write */
		while (j < no && !ok) {
			size_t gl = strlen(g[i]);
			ok = !strcmp(g[i], o[j]) || ((gl == 1 || strlen(o[j]) == 1) &&
			                                     g[i][0] == o[j][0]);
			if (!ok && i == 0)
				return 0;
			j++;
		}
		if (!ok)
			return 0;
	}
	return 1;
}

/* The family name is tokens [f0, f1); the given names are the others. */
static int split_match(const pname_t *a, int af0, int af1, const pname_t *o,
                       int of0, int of1)
{
	const char *ga[MAXTOK], *go[MAXTOK];
	int nga = 0, ngo = 0;
	if (af1 - af0 != of1 - of0)
		return 0;
	for (int i = 0; i < af1 - af0; i++)
		if (strcmp(a->tok[af0 + i], o->tok[of0 + i]))
			return 0;
	for (int i = 0; i < a->ntok; i++)
		if (i < af0 || i >= af1)
			ga[nga++] = a->tok[i];
	for (int i = 0; i < o->ntok; i++)
		if (i < of0 || i >= of1)
			go[ngo++] = o->tok[i];
	return given_match(ga, nga, go, ngo);
}

static int particle(const char *t)
{
	static const char *const v[] = {"van", "von", "der", "den", "de", "da",
		"di", "du", "del", "della", "la", "le", "ten", "ter", "zu", "dos",
		"das", "bin", "al", "el", "y", NULL};
	for (int i = 0; v[i]; i++)
		if (!strcmp(t, v[i]))
			return 1;
	return 0;
}

/* The ways a name may be split: with a comma, family first; without,
 * family last (or, "ZHU Zhen" and "Zhu Z", first). */
static int splits(const pname_t *p, int f0[3], int f1[3])
{
	if (p->comma > 0) {
		f0[0] = 0;
		f1[0] = p->comma;
		return 1;
	}
	if (p->ntok < 2)
		return 0;
	f0[0] = p->ntok - 1;
	f1[0] = p->ntok;
	while (f0[0] > 1 && p->lower[f0[0] - 1] && particle(p->tok[f0[0] - 1]))
		f0[0]--;            /* "Anna van der Berg": the family name is "van der Berg" */
	f0[1] = 0;
	f1[1] = 1;
	return 2;
}

/* p's tokens one after the other in x (those that fit, as strcat would
 * have it); the length. */
static size_t joined(const pname_t *p, char *x, size_t size)
{
	size_t n = 0;
	for (int i = 0; i < p->ntok; i++) {
		size_t l = strlen(p->tok[i]);
		if (n + l < size) {
			memcpy(x + n, p->tok[i], l);
			n += l;
		}
	}
	x[n] = '\0';
	return n;
}

/* profile_name_match on parsed names. */
static int pname_match(const pname_t *o, const pname_t *a)
{
	int of0[3], of1[3], af0[3], af1[3];
	if (!o->ntok || !a->ntok)
		return 0;
	if (!o->cased || !a->cased) {          /* CJK and other caseless scripts */
		char x[512], y[512];
		return joined(o, x, sizeof(x)) == joined(a, y, sizeof(y)) && !strcmp(x, y);
	}
	int no = splits(o, of0, of1), na = splits(a, af0, af1);
	/* the owner's own form is taken as written: family last, or after a comma */
	if (no > 1)
		no = 1;
	for (int i = 0; i < no; i++)
		for (int j = 0; j < na; j++)
			if (split_match(a, af0[j], af1[j], o, of0[i], of1[i]))
				return 1;
	return 0;
}

int profile_name_match(const char *owner, const char *author)
{
	pname_t o, a;
	pname_parse(owner, &o);
	pname_parse(author, &a);
	return pname_match(&o, &a);
}

/* Take trailing marks off s; returns the flags they stand for. */
static unsigned strip_marks(arena_t *ar, const char **s)
{
	size_t n = strlen(*s);
	unsigned fl = 0;
	for (;;) {
		if (n && ((*s)[n - 1] == '*' || (*s)[n - 1] == '#')) {
			fl |= AUTHOR_EQUAL;
			n--;
		} else if (n >= 3 && !memcmp(*s + n - 3, "\u2020", 3)) {
			fl |= AUTHOR_CORRESPONDING;
			n -= 3;
		} else if (n >= 3 && !memcmp(*s + n - 3, "\u2021", 3)) {
			fl |= AUTHOR_CORRESPONDING;
			n -= 3;
		} else if (n && (*s)[n - 1] == ' ' && fl) {
			n--;
		} else {
			break;
		}
	}
	if (fl && n)
		*s = arena_strndup(ar, *s, n);
	return n ? fl : 0;
}

/* A highlight name parsed once for all of a section's authors, with what
 * lets most authors be ruled out without parsing them (1,500 authors of
 * a 250-publication CV: 1.7 M instructions parsed and matched). For an
 * author written in ASCII only, whose tokens are then its own lower-cased
 * characters: a Latin owner's family name must be equal to one of them,
 * so it is a substring of the author, case aside (a caseless author
 * never matches an owner with case either); an owner without case whose
 * tokens are not ASCII (朱展达) can never equal an ASCII author's. */
typedef struct owner {
	pname_t n;
	const char *fam;   /* the family name's first token, when ASCII */
	int foreign;       /* no ASCII author can match */
} owner_t;

static int ascii_only(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

static void owner_parse(const char *s, owner_t *o)
{
	pname_parse(s, &o->n);
	o->fam = NULL;
	o->foreign = 0;
	int f0[3], f1[3];
	if (o->n.cased && o->n.ntok && splits(&o->n, f0, f1) > 0 && o->n.tok[f0[0]][0] &&
	    ascii_only(o->n.tok[f0[0]]))
		o->fam = o->n.tok[f0[0]];
	if (!o->n.cased)
		for (int i = 0; i < o->n.ntok && !o->foreign; i++)
			o->foreign = !ascii_only(o->n.tok[i]);
}

/* Does the ASCII text s hold t (lower case ASCII, not empty), case aside? */
static int has_folded(const char *s, const char *t)
{
	for (; *s; s++) {
		if ((*s | 0x20) != t[0])   /* (a quick look: 'A'-'Z' | 0x20 is 'a'-'z') */
			continue;
		int k = 0;
		while (t[k] && s[k] && (s[k] >= 'A' && s[k] <= 'Z' ? s[k] + 32 : s[k]) == t[k])
			k++;
		if (!t[k])
			return 1;
	}
	return 0;
}

/* Certainly not a match for o (pname_match would say 0)? ascii: whether
 * the author is in ASCII only, -1 until known. */
static int ruled_out(const owner_t *o, const char *author, int *ascii)
{
	if (!o->foreign && !o->fam)
		return 0;
	if (*ascii < 0)
		*ascii = ascii_only(author);
	if (!*ascii)
		return 0;
	return o->foreign || !has_folded(author, o->fam);
}

/* own: the section's highlight names, parsed once for all its authors. */
static void mark_pub(pctx_t *c, const msection_t *s, const owner_t *own, mpub_t *p)
{
	if (!p->nauthors)
		return;
	unsigned *fl = arena_alloc(c->a, (size_t)p->nauthors * sizeof(*fl));
	for (int i = 0; i < p->nauthors; i++) {
		fl[i] = strip_marks(c->a, &p->authors[i]);
		for (int j = 0; j < p->nequal; j++)
			if (!strcmp(p->equal[j], p->authors[i]))
				fl[i] |= AUTHOR_EQUAL;
		pname_t a;
		int parsed = 0, ascii = -1;
		for (int j = 0; j < s->nhighlight && !(fl[i] & AUTHOR_OWNER); j++) {
			if (!strcmp(s->highlight[j], p->authors[i])) {
				fl[i] |= AUTHOR_OWNER;
				break;
			}
			if (ruled_out(&own[j], p->authors[i], &ascii))
				continue;
			if (!parsed++)
				pname_parse(p->authors[i], &a);
			if (pname_match(&own[j].n, &a))
				fl[i] |= AUTHOR_OWNER;
		}
	}
	p->aflags = fl;
}

void pnames_mark(pctx_t *c)
{
	model_t *m = c->m;
	for (int i = 0; i < m->nsections; i++) {
		msection_t *s = &m->sections[i];
		if (s->type != SEC_PUBLICATIONS || !s->npubs)
			continue;
		owner_t *own = xmalloc((size_t)(s->nhighlight ? s->nhighlight : 1) * sizeof(*own));
		for (int j = 0; j < s->nhighlight; j++)
			owner_parse(s->highlight[j], &own[j]);
		for (int j = 0; j < s->npubs; j++)
			mark_pub(c, s, own, &s->pubs[j]);
		free(own);
	}
}
