/* profile_val: typed getters for the profile loader (see profile_int.h).
 *
 * Every getter takes a YAML node (or a map and a key), applies --lang to
 * translated fields ({en: .., zh: ..}), checks the type and reports a
 * located error naming the key and what was expected. Absent keys and
 * `~` are "absent", which is only an error when the key is required.
 * Also here: the "did you mean" suggester, dates, tags, and the inline
 * markup parser for text fields.
 *
 * Markup: **bold**, *italic*, [label](url), backslash escapes for * [ ] \.
 * An opener needs a matching closer later in the same text (and must not be
 * followed by a space, the closer not preceded by one); otherwise it is
 * literal text, so "5 * 3" and a lone "[" print as written. This is a
 * deliberate choice over an error: CV text is full of stray asterisks.
 * Work is linear in the text (closer scans are cached, link scans bounded).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "profile_int.h"
#include "suggest.h"
#include "utf8.h"

int pv_err(pctx_t *c, const ynode_t *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_at(c->e, c->file, n ? n->line : 0, n ? n->col : 0, "%s", msg);
}

const char *pv_suggest(const char *word, const char *const *known)
{
	const char *best = NULL;
	int bestd = 99, len = (int)strlen(word);
	int limit = len >= 5 ? 2 : 1;
	for (int i = 0; known[i] && len; i++)   /* the nearest, at distance 0 */
		if (!strcmp(word, known[i]))
			return known[i];
	for (int i = 0; known[i]; i++) {
		int d = suggest_distance(word, known[i]);
		if (d < bestd) {
			bestd = d;
			best = known[i];
		}
	}
	return bestd <= limit && bestd < len ? best : NULL;
}

static int pv_known(const char *s, const char *const *known)
{
	for (int i = 0; known[i]; i++)
		if (s[0] == known[i][0] && !strcmp(s, known[i]))   /* (most differ at once) */
			return 1;
	return 0;
}

/* Some other key of map is a misspelling of key: its "unknown key ...
 * did you mean" error already says what is missing. */
int pv_misspelt(const ynode_t *map, const char *key)
{
	/* every key of every map that has required keys: a key in here is
	 * never taken for a misspelling (it may be valid in this map) */
	static const char *const schema[] = {
		"vita", "name", "name_native", "headline", "affiliation", "location",
		"contact", "links", "photo", "photo_alt", "summary", "updated", "layout",
		"sections", "title", "type", "tags", "entries", "bibtex", "highlight",
		"numbering", "group_by", "items", "style", "text", "org", "date",
		"start", "end", "details", "note", "authors", "equal", "venue",
		"venue_full", "year", "status", "doi", "badges", "value", "label",
		"url", NULL};
	const char *one[] = {key, NULL};
	for (int i = 0; map && map->kind == YD_MAP && i < map->n; i++) {
		const ynode_t *k = map->kids[2 * i];
		if (k->kind == YD_SCALAR && !pv_known(k->str, schema) &&
		    pv_suggest(k->str, one))
			return 1;
	}
	return 0;
}

int pv_missing(pctx_t *c, const ynode_t *map, const char *key)
{
	if (pv_misspelt(map, key))
		return -1;   /* the unknown-key error is the report */
	return pv_err(c, map, "missing required key '%s'", key);
}


static void pv_join(char *out, size_t size, const char *const *known)
{
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; known[i] && n + 1 < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", known[i]);
}

int pv_keys(pctx_t *c, const ynode_t *map, const char *const *known,
            const char *what)
{
	int rc = 0;
	char list[400];
	if (!map || map->kind != YD_MAP)
		return 0;
	for (int i = 0; i < map->n; i++) {
		const ynode_t *k = map->kids[2 * i];
		if (k->kind != YD_SCALAR || pv_known(k->str, known))
			continue;
		const char *s = pv_suggest(k->str, known);
		if (s) {
			rc = pv_err(c, k, "unknown key '%.100s' in %s; did you mean '%s'?",
			            k->str, what, s);
		} else {
			pv_join(list, sizeof(list), known);
			rc = pv_err(c, k, "unknown key '%.100s' in %s (expected one of: %s)",
			            k->str, what, list);
		}
	}
	return rc;
}

int pv_is_map(pctx_t *c, const ynode_t *n, const char *what)
{
	if (n->kind == YD_MAP)
		return 1;
	pv_err(c, n, "expected %s (a map of keys), got %s", what,
	       ydoc_kind_name(n->kind));
	return 0;
}

int pv_is_seq(pctx_t *c, const ynode_t *n, const char *what)
{
	if (n->kind == YD_SEQ)
		return 1;
	pv_err(c, n, "expected a list of %s, got %s", what, ydoc_kind_name(n->kind));
	return 0;
}

/* en, zh, zh-Hans, pt_BR ... */
static int pv_lang_code(const char *s)
{
	int i = 0;
	while (islower((unsigned char)s[i]))
		i++;
	if (i < 2 || i > 3)
		return 0;
	while (s[i] == '-' || s[i] == '_') {
		int j = ++i;
		while (isalnum((unsigned char)s[i]))
			i++;
		if (i - j < 2 || i - j > 8)
			return 0;
	}
	return s[i] == '\0';
}

/* The ISO 639-1 codes: a two-letter translation key must be one of them
 * (three-letter ISO 639-2/3 codes are taken as written). */
static const char iso639_1[] =
	"aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs "
	"cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha "
	"he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn "
	"ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb "
	"nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd "
	"se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw "
	"ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu";

static int iso_known(const char *code)
{
	size_t n = strcspn(code, "-_");
	if (n != 2)
		return 1;
	for (size_t i = 0; i + 1 < sizeof(iso639_1); i += 3)   /* "aa ab ... zu" */
		if (iso639_1[i] == code[0] && iso639_1[i + 1] == code[1])
			return 1;
	return 0;
}

int pv_lang(pctx_t *c, const ynode_t *map, const char *key, const char **out)
{
	const ynode_t *n = ydoc_get(map, key);
	*out = NULL;
	if (!n)
		return 0;
	if (n->kind != YD_SCALAR || !pv_lang_code(n->str))
		return pv_err(c, n, "'%s' expects a language code such as en, de or pt-BR", key);
	if (!iso_known(n->str))
		return pv_err(c, n, "unknown language '%.2s' in '%s' (an ISO 639 code such as "
		              "en, zh, ja, de)", n->str, key);
	*out = n->str;
	return 0;
}

/* "zh" matches "zh-Hans" and "zh_CN" (and the other way round): the same
 * language, one of them without the script or region. */
static int lang_match(const char *a, const char *b)
{
	size_t la = strcspn(a, "-_"), lb = strcspn(b, "-_");
	if (la != lb || strncmp(a, b, la))
		return 0;
	return !a[la] || !b[lb] || !strcmp(a + la + 1, b + lb + 1);
}

const ynode_t *pv_translate(pctx_t *c, const ynode_t *n, const char *key)
{
	if (!n || n->kind != YD_MAP)
		return n;
	if (n->n == 0) {
		pv_err(c, n, "'%s' is an empty map; expected a string or "
		       "translations like {en: ..., zh: ...}", key);
		return NULL;
	}
	const ynode_t *pick = NULL;
	for (int i = 0; i < n->n; i++) {
		const ynode_t *k = n->kids[2 * i];
		if (k->kind != YD_SCALAR || !pv_lang_code(k->str)) {
			pv_err(c, k, "expected a string for '%s' (or translations like "
			       "{en: ..., zh: ...}), got a map with key '%.100s'", key,
			       k->kind == YD_SCALAR ? k->str : "?");
			return NULL;
		}
		if (!iso_known(k->str)) {
			pv_err(c, k, "unknown language '%.2s' in the translations of '%s' (an ISO 639 "
			       "code such as en, zh, ja, de)", k->str, key);
			return NULL;
		}
		if (c->lang && !pick && lang_match(k->str, c->lang))
			pick = n->kids[2 * i + 1];
	}
	for (int i = 0; c->lang && i < n->n; i++)   /* an exact match wins */
		if (!strcmp(n->kids[2 * i]->str, c->lang))
			pick = n->kids[2 * i + 1];
	c->picked = NULL;
	for (int i = 0; i < n->n; i++)
		if (n->kids[2 * i + 1] == (pick ? pick : n->kids[1]))
			c->picked = n->kids[2 * i]->str;
	if (!pick && c->lang && !c->warned_lang) {
		c->warned_lang = 1;
		warn_at(c->e, c->file, n->line, n->col,
		        "'%s' has no '%s' translation; using '%s', the first one (said once: "
		        "other fields without one fall back the same way)", key, c->lang,
		        n->kids[0]->str);
	}
	return pick ? pick : n->kids[1];
}

int pv_string(pctx_t *c, const ynode_t *n, const char *key, const char **out)
{
	*out = NULL;
	c->picked = NULL;
	if (n && n->kind == YD_MAP) {
		n = pv_translate(c, n, key);
		if (!n)
			return -1;
	}
	if (!n || n->kind == YD_NULL)
		return 0;
	if (n->kind != YD_SCALAR)
		return pv_err(c, n, "expected a string for '%s', got %s", key,
		              ydoc_kind_name(n->kind));
	if (n->len > PROFILE_MAX_STR)
		return pv_err(c, n, "'%s' is too long (%zu bytes; at most %d)", key,
		              n->len, PROFILE_MAX_STR);
	if (!n->clean) {   /* (ydoc_fast's scalars are known to be both) */
		if (strlen(n->str) != n->len)
			return pv_err(c, n, "'%s' contains a NUL character", key);
		long bad = utf8_invalid_at(n->str, n->len);
		if (bad >= 0)
			return pv_err(c, n, "'%s' is not valid UTF-8 (at byte %ld of the value)",
			              key, bad);
	}
	*out = n->str;
	return 0;
}

/* Only white space (ASCII, no-break space, ideographic space)? */
static int pv_blank(const char *s)
{
	while (*s) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		else if (!strncmp(s, "\u00a0", 2) || !strncmp(s, "\u3000", 3))
			s += !strncmp(s, "\u00a0", 2) ? 2 : 3;
		else
			return 0;
	}
	return 1;
}

int pv_field(pctx_t *c, const ynode_t *map, const char *key, int required,
             const char **out)
{
	const ynode_t *n = ydoc_get(map, key);
	*out = NULL;
	if (pv_string(c, n, key, out) < 0)
		return -1;
	if (required && !n)
		return pv_missing(c, map, key);
	if (required && (!*out || !**out))
		return pv_err(c, n, "'%s' is empty", key);
	if (required && pv_blank(*out))
		return pv_err(c, n, "'%s' is blank (only spaces)", key);
	return 0;
}

int pv_text_node(pctx_t *c, const ynode_t *n, const char *key, mtext_t *out)
{
	const char *s;
	memset(out, 0, sizeof(*out));
	if (pv_string(c, n, key, &s) < 0)
		return -1;
	if (s)
		pv_markup(c->a, s, out);
	out->lang = c->picked ? c->picked : c->item_lang;
	if (n) {
		out->line = n->line;
		out->col = n->col;
	}
	return 0;
}

int pv_text(pctx_t *c, const ynode_t *map, const char *key, int required,
            mtext_t *out)
{
	const ynode_t *n = ydoc_get(map, key);
	if (pv_text_node(c, n, key, out) < 0)
		return -1;
	if (required && !n)
		return pv_missing(c, map, key);
	if (required && out->n == 0)
		return pv_err(c, n, "'%s' is empty", key);
	int blank = 1;
	for (int i = 0; blank && i < out->n; i++)
		blank = pv_blank(out->spans[i].text);
	if (required && blank)
		return pv_err(c, n, "'%s' is blank (only spaces)", key);
	return 0;
}

/* ---- dates ---- */

static int pv_digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return 0;
		*v = *v * 10 + (s[i] - '0');
	}
	return 1;
}

static int pv_mdays(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

/* "-D" or "-DD" at *p: the number of digits (advancing *p past them), or
 * 0 when *p does not start such a part. */
static int date_part(const char **p, int *out)
{
	const char *q = *p;
	int l = 0;
	if (*q != '-')
		return 0;
	while (isdigit((unsigned char)q[1 + l]))
		l++;
	if (l < 1 || l > 2)
		return 0;
	pv_digits(q + 1, l, out);
	*p = q + 1 + l;
	return l;
}

int pv_date_str(const char *s, mdate_t *d, const char **why)
{
	size_t n = strlen(s);
	int y = 0, m = 0, dd = 0;
	const char *p;
	d->text = s;
	*why = NULL;
	if (!strcmp(s, "present") || !strcmp(s, "Present")) {
		d->kind = DATE_PRESENT;
		return 0;
	}
	d->kind = DATE_TEXT;
	if (n < 4 || !pv_digits(s, 4, &y))
		return 0;
	if (n == 4) {
		d->kind = DATE_YEAR;
		d->y = y;
		return 0;
	}
	/* YYYY-M[M][-D[D]]: anything else is free text */
	p = s + 4;
	int ld = 0;
	if (!date_part(&p, &m))
		return 0;
	if (*p == '-' && !(ld = date_part(&p, &dd)))
		return 0;
	if (*p)
		return 0;
	if (m < 1 || m > 12) {
		*why = "the month must be 01 to 12";
		return -1;
	}
	if (ld && (dd < 1 || dd > pv_mdays(y, m))) {
		*why = "no such day in that month";
		return -1;
	}
	d->kind = ld ? DATE_DAY : DATE_MONTH;
	d->y = y;
	d->m = m;
	d->d = dd;
	return 0;
}

int pv_date(pctx_t *c, const ynode_t *map, const char *key, mdate_t *out)
{
	const ynode_t *n = ydoc_get(map, key);
	const char *s, *why;
	memset(out, 0, sizeof(*out));
	if (pv_string(c, n, key, &s) < 0)
		return -1;
	if (!s)
		return 0;
	out->line = n->line;
	out->col = n->col;
	if (pv_date_str(s, out, &why) < 0) {
		out->kind = DATE_NONE;
		return pv_err(c, n, "invalid date '%.60s' for '%s': %s (expected "
		              "YYYY, YYYY-MM, YYYY-MM-DD or present)", s, key, why);
	}
	return 0;
}

int pv_date_cmp(const mdate_t *a, const mdate_t *b)
{
	if (a->y != b->y)
		return a->y < b->y ? -1 : 1;
	if (a->kind == DATE_YEAR || b->kind == DATE_YEAR)
		return 0;
	if (a->m != b->m)
		return a->m < b->m ? -1 : 1;
	if (a->kind == DATE_MONTH || b->kind == DATE_MONTH)
		return 0;
	return a->d < b->d ? -1 : a->d > b->d;
}

/* ---- numbers, lists, links, enums, tags ---- */

int pv_int(pctx_t *c, const ynode_t *map, const char *key, long lo, long hi,
           int *out)
{
	const ynode_t *n = ydoc_get(map, key);
	if (!n || n->kind == YD_NULL)
		return 0;
	const char *s = n->kind == YD_SCALAR ? n->str : "";
	char *end;
	long v = strtol(s, &end, 10);
	if (n->kind != YD_SCALAR || !*s || *end || !isdigit((unsigned char)s[0]) ||
	    n->len > 9)
		return n->kind == YD_SCALAR
		       ? pv_err(c, n, "expected an integer for '%s', got '%.60s'", key, s)
		       : pv_err(c, n, "expected an integer for '%s', got %s", key,
		                ydoc_kind_name(n->kind));
	if (v < lo || v > hi)
		return pv_err(c, n, "'%s' must be between %ld and %ld, got %ld", key,
		              lo, hi, v);
	*out = (int)v;
	return 0;
}

int pv_strings(pctx_t *c, const ynode_t *map, const char *key,
               const char ***out, int *n)
{
	const ynode_t *l = ydoc_get(map, key);
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (!l || l->kind == YD_NULL)
		return 0;
	if (l->kind != YD_SEQ)
		return pv_err(c, l, "expected a list of strings for '%s', got %s", key,
		              ydoc_kind_name(l->kind));
	*out = arena_alloc(c->a, (size_t)l->n * sizeof(**out));
	for (int i = 0; i < l->n; i++) {
		const char *s;
		if (pv_string(c, l->kids[i], key, &s) < 0)
			rc = -1;
		else if (!s || !*s)
			rc = pv_err(c, l->kids[i], "empty item in '%s'", key);
		else
			(*out)[(*n)++] = s;
	}
	return rc;
}

const char *const pv_link_keys[] = {"label", "url", NULL};

static int pv_link(pctx_t *c, const ynode_t *it, const char *key, mlink_t *lk)
{
	const char *const *keys = pv_link_keys;
	memset(lk, 0, sizeof(*lk));
	lk->line = it->line;
	lk->col = it->col;
	if (it->kind == YD_MAP) {
		int rc = pv_keys(c, it, keys, "a link");
		if (pv_field(c, it, "url", 1, &lk->url) < 0 ||
		    pv_field(c, it, "label", 0, &lk->label) < 0 || rc < 0)
			return -1;
		if (!lk->label || !*lk->label)
			lk->label = lk->url;
		return 0;
	}
	if (pv_string(c, it, key, &lk->url) < 0)
		return -1;
	if (!lk->url || !*lk->url)
		return pv_err(c, it, "empty link in '%s'", key);
	lk->label = lk->url;
	return 0;
}

int pv_links(pctx_t *c, const ynode_t *map, const char *key, mlink_t **out,
             int *n)
{
	const ynode_t *l = ydoc_get(map, key);
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (!l || l->kind == YD_NULL)
		return 0;
	if (l->kind != YD_SEQ)
		return pv_err(c, l, "expected a list of links for '%s' ({label: ..., "
		              "url: ...} or a URL), got %s", key, ydoc_kind_name(l->kind));
	*out = arena_alloc(c->a, (size_t)l->n * sizeof(**out));
	for (int i = 0; i < l->n; i++) {
		if (pv_link(c, l->kids[i], key, &(*out)[*n]) < 0)
			rc = -1;
		else
			(*n)++;
	}
	return rc;
}

int pv_enum(pctx_t *c, const ynode_t *map, const char *key,
            const char *const *names, int *out)
{
	const ynode_t *n = ydoc_get(map, key);
	const char *s;
	char list[200];
	if (pv_string(c, n, key, &s) < 0 || !s)
		return n && n->kind != YD_NULL ? -1 : 0;
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	const char *sug = pv_suggest(s, names);
	if (sug)
		return pv_err(c, n, "unknown %s '%.60s'; did you mean '%s'?", key, s, sug);
	pv_join(list, sizeof(list), names);
	return pv_err(c, n, "unknown %s '%.60s' (expected one of: %s)", key, s, list);
}

int pv_keep(pctx_t *c, const ynode_t *map)
{
	const ynode_t *t = ydoc_get(map, "tags");
	const char **tags, *one;
	int n = 0;
	if (!t || t->kind == YD_NULL)
		return 1;
	if (t->kind == YD_SCALAR) {
		one = t->str;
		tags = &one;
		n = 1;
	} else if (pv_strings(c, map, "tags", &tags, &n) < 0) {
		return 1;
	}
	if (!c->o || !c->o->tags)
		return 1;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < c->o->ntags; j++)
			if (!strcmp(tags[i], c->o->tags[j]))
				return 1;
	return 0;
}

/* ---- inline markup ---- */

typedef struct mk {
	arena_t *a;
	buf_t b;            /* text of the span being built */
	unsigned flags;     /* its flags and url */
	const char *url;
	mspan_t *v;
	int n, cap;
} mk_t;

#define MK_MAX_LABEL 300
#define MK_MAX_URL 2000

static void mk_flush(mk_t *k)
{
	if (!k->b.len)
		return;
	mspan_t *last = k->n ? &k->v[k->n - 1] : NULL;
	if (last && last->flags == k->flags && last->url == k->url) {
		last->text = arena_printf(k->a, "%s%s", last->text, k->b.s);
	} else {
		if (k->n == k->cap) {
			int cap = k->cap ? k->cap * 2 : 4;
			k->v = arena_grow(k->a, k->v, (size_t)k->cap * sizeof(*k->v),
			                  (size_t)cap * sizeof(*k->v));
			k->cap = cap;
		}
		k->v[k->n].text = arena_strndup(k->a, k->b.s, k->b.len);
		k->v[k->n].flags = k->flags;
		k->v[k->n].url = k->url;
		k->n++;
	}
	buf_reset(&k->b);
}

static void mk_add(mk_t *k, const char *s, size_t n, unsigned flags, const char *url)
{
	if (flags != k->flags || url != k->url) {
		mk_flush(k);
		k->flags = flags;
		k->url = url;
	}
	buf_add(&k->b, s, n);
}

static int mk_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* The closer for a `*` (k = 1) or `**` (k = 2) opener, searching [p, e). */
static const char *mk_closer(const char *p, const char *e, int k)
{
	const char *start = p;
	while (p < e) {
		if (*p == '\\' && p + 1 < e) {
			p += 2;
			continue;
		}
		if (*p != '*') {
			p++;
			continue;
		}
		const char *r = p;
		while (r < e && *r == '*')
			r++;
		int run = (int)(r - p);
		int ok = p > start && !mk_space((unsigned char)p[-1]);
		if (ok && k == 2 && run >= 2)
			return r - 2;
		if (ok && k == 1 && (run == 1 || run >= 3))
			return r - 1;
		p = r;
	}
	return NULL;
}

static int mk_escapable(int ch)
{
	return ch == '*' || ch == '[' || ch == ']' || ch == '\\';
}

/* [label](url) starting at p; sets label end, url and the end of it all. */
static int mk_link(const char *p, const char *e, const char **lend,
                   const char **ub, const char **ue)
{
	const char *q = p + 1;
	while (q < e && q - p < MK_MAX_LABEL && *q != ']' && *q != '[') {
		q += *q == '\\' && q + 1 < e ? 2 : 1;
	}
	if (q >= e || *q != ']' || q + 1 >= e || q[1] != '(')
		return 0;
	*lend = q;
	const char *u = q + 2;
	int depth = 0;
	for (const char *r = u; r < e && r - u < MK_MAX_URL; r++) {
		if (mk_space((unsigned char)*r))
			return 0;
		if (*r == '(')
			depth++;
		else if (*r == ')' && depth-- == 0) {
			if (r == u)
				return 0;
			*ub = u;
			*ue = r;
			return 1;
		}
	}
	return 0;
}

static void mk_parse(mk_t *k, const char *p, const char *e, unsigned flags,
                     const char *url)
{
	int nobold = 0, noital = 0;
	while (p < e) {
		const char *c, *lend, *ub, *ue;
		if (*p == '\\' && p + 1 < e && mk_escapable((unsigned char)p[1])) {
			mk_add(k, p + 1, 1, flags, url);
			p += 2;
		} else if (p[0] == '*' && p + 1 < e && p[1] == '*' && !(flags & SPAN_BOLD) &&
		           !nobold && p + 2 < e && !mk_space((unsigned char)p[2])) {
			if ((c = mk_closer(p + 2, e, 2))) {
				mk_parse(k, p + 2, c, flags | SPAN_BOLD, url);
				p = c + 2;
			} else {
				nobold = 1;
				mk_add(k, p, 2, flags, url);
				p += 2;
			}
		} else if (p[0] == '*' && !(flags & SPAN_ITALIC) && !noital &&
		           p + 1 < e && !mk_space((unsigned char)p[1]) && p[1] != '*') {
			if ((c = mk_closer(p + 1, e, 1))) {
				mk_parse(k, p + 1, c, flags | SPAN_ITALIC, url);
				p = c + 1;
			} else {
				noital = 1;
				mk_add(k, p, 1, flags, url);
				p++;
			}
		} else if (*p == '[' && !url && mk_link(p, e, &lend, &ub, &ue)) {
			const char *u = arena_strndup(k->a, ub, (size_t)(ue - ub));
			if (lend == p + 1)
				mk_add(k, u, strlen(u), flags, u);
			else
				mk_parse(k, p + 1, lend, flags, u);
			p = ue + 1;
		} else {
			/* up to the next character that may start markup, at once */
			const char *q = p + 1;
			while (q < e && *q != '\\' && *q != '*' && *q != '[')
				q++;
			mk_add(k, p, (size_t)(q - p), flags, url);
			p = q;
		}
	}
}

void pv_markup(arena_t *a, const char *s, mtext_t *out)
{
	mk_t k;
	memset(&k, 0, sizeof(k));
	k.a = a;
	buf_init(&k.b);
	size_t n = strlen(s);
	while (n && mk_space((unsigned char)s[n - 1]))   /* YAML | leaves a newline */
		n--;
	if (n && !memchr(s, '\\', n) && !memchr(s, '*', n) && !memchr(s, '[', n)) {
		/* no markup (most fields): the one span mk_parse would make */
		k.v = arena_alloc(a, 4 * sizeof(*k.v));
		k.v[0].text = arena_strndup(a, s, n);
		out->spans = k.v;
		out->n = 1;
		return;
	}
	mk_parse(&k, s, s + n, 0, NULL);
	mk_flush(&k);
	buf_done(&k.b);
	out->spans = k.v;
	out->n = k.n;
}
