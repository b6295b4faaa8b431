/* ydoc: the only libyaml user. YAML text -> ynode tree; see ydoc.h.
 *
 * Call ydoc_parse(arena, file, data, len, &root, errs). The input is checked
 * before libyaml sees it (NUL bytes, invalid UTF-8: both reported with the
 * byte offset and its line:col), then libyaml's event API drives an explicit
 * stack (no recursion, so deep input cannot overflow ours). Nesting deeper
 * than YDOC_MAX_DEPTH stops the parse at the first too-deep node, before
 * libyaml's own stacks grow (Debian's libyaml 0.2.5 has no
 * yaml_set_max_nest_level, so this limit is the only one).
 *
 * Aliases share the anchored node (no copy). Each alias adds the size of
 * its target to an expansion count, and an alias whose count passes
 * YDOC_MAX_ALIAS is refused, so a "billion laughs" file stops early and
 * consumers walking the tree do bounded work. An alias to a node that is
 * still open (a recursive alias) is refused, so the tree is acyclic.
 */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "dl.h"
#include "utf8.h"
#include "ydoc_int.h"

/* A node plus what the alias checks need; ynode is the first member. */
typedef struct ynodex {
	ynode_t n;
	size_t size;        /* nodes in the expanded subtree (saturating) */
	int height;         /* levels of collections in the subtree */
} ynodex_t;

typedef struct frame {
	ynodex_t *x;
	ynode_t **kids;     /* malloc'd while open, copied to the arena on close */
	int nkids, cap;
	char *anchor;       /* malloc'd; registered when the node closes */
} frame_t;

typedef struct anchor {
	struct anchor *next;
	const char *name;
	ynodex_t *x;
} anchor_t;

#define ANCHOR_BUCKETS 256

typedef struct yctx {
	arena_t *a;
	errs_t *e;
	const char *file;
	frame_t st[YDOC_MAX_DEPTH + 2];
	int depth;
	anchor_t *anchors[ANCHOR_BUCKETS];
	size_t expanded;
	ynodex_t *root;
	int ndocs;
	long nodes;
} yctx_t;

#define SIZE_CAP ((size_t)1 << 40)

static size_t size_add(size_t a, size_t b)
{
	return a + b > SIZE_CAP ? SIZE_CAP : a + b;
}

/* 1-based line and column (in characters) of byte offset off. */
static void ydoc_locate(const char *s, size_t off, int *line, int *col)
{
	int l = 1, c = 1;
	for (size_t i = 0; i < off; i++) {
		if (s[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)s[i] & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static int ydoc_precheck(const char *file, const char *data, size_t len, errs_t *e)
{
	int line, col;
	const char *nul = memchr(data, '\0', len);
	long bad = utf8_invalid_at(data, nul ? (size_t)(nul - data) : len);
	if (bad >= 0) {
		ydoc_locate(data, (size_t)bad, &line, &col);
		return err_at(e, file, line, col,
		              "invalid UTF-8 at byte offset %ld (byte 0x%02x); "
		              "profiles must be UTF-8 text", bad,
		              (unsigned char)data[bad]);
	}
	if (nul) {
		ydoc_locate(data, (size_t)(nul - data), &line, &col);
		return err_at(e, file, line, col,
		              "NUL byte at byte offset %ld: this looks like a binary "
		              "file, not a YAML profile", (long)(nul - data));
	}
	return 0;
}

static unsigned anchor_hash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % ANCHOR_BUCKETS;
}

static void anchor_set(yctx_t *c, const char *name, ynodex_t *x)
{
	anchor_t *an = arena_alloc(c->a, sizeof(*an));
	unsigned h = anchor_hash(name);
	an->name = arena_strdup(c->a, name);
	an->x = x;
	an->next = c->anchors[h];
	c->anchors[h] = an;   /* a redefined anchor shadows the old one */
}

static ynodex_t *anchor_get(yctx_t *c, const char *name)
{
	for (anchor_t *an = c->anchors[anchor_hash(name)]; an; an = an->next)
		if (!strcmp(an->name, name))
			return an->x;
	return NULL;
}

static int anchor_open(yctx_t *c, const char *name)
{
	for (int i = 0; i < c->depth; i++)
		if (c->st[i].anchor && !strcmp(c->st[i].anchor, name))
			return 1;
	return 0;
}

static ynodex_t *node_new(yctx_t *c, int kind, yaml_mark_t m)
{
	ynodex_t *x = arena_alloc(c->a, sizeof(*x));
	x->n.kind = kind;
	x->n.line = (int)m.line + 1;
	x->n.col = (int)m.column + 1;
	x->size = 1;
	return x;
}

static void frame_push_kid(frame_t *f, ynodex_t *k)
{
	if (f->nkids == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		f->kids = xrealloc(f->kids, (size_t)f->cap * sizeof(*f->kids));
	}
	f->kids[f->nkids++] = &k->n;
	f->x->size = size_add(f->x->size, k->size);
	if (k->height + 1 > f->x->height)
		f->x->height = k->height + 1;
}

/* Attach a finished node to its parent (or make it the root). */
static void node_done(yctx_t *c, ynodex_t *x, const char *anchor)
{
	if (anchor)
		anchor_set(c, anchor, x);
	if (c->depth > 0)
		frame_push_kid(&c->st[c->depth - 1], x);
	else
		c->root = x;
}

static int is_null_scalar(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t n = ev->data.scalar.length;
	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	return n == 0 || (n == 1 && v[0] == '~') ||
	       (n == 4 && (!memcmp(v, "null", 4) || !memcmp(v, "Null", 4) ||
	                   !memcmp(v, "NULL", 4)));
}

/* Count one more node; the one past YDOC_MAX_NODES is an error. */
static int node_count(yctx_t *c, const yaml_event_t *ev)
{
	if (++c->nodes <= YDOC_MAX_NODES)
		return 0;
	return err_at(c->e, c->file, (int)ev->start_mark.line + 1,
	              (int)ev->start_mark.column + 1,
	              "more than %d values in one file: this is too large for a CV",
	              YDOC_MAX_NODES);
}

static int on_scalar(yctx_t *c, const yaml_event_t *ev)
{
	if (node_count(c, ev))
		return -1;
	const char *v = (const char *)ev->data.scalar.value;
	if (memchr(v, '\0', ev->data.scalar.length))   /* "\0" or "\u0000" */
		return err_at(c->e, c->file, (int)ev->start_mark.line + 1,
		              (int)ev->start_mark.column + 1,
		              "a NUL character (\\0) in a string; keys and values "
		              "are text");
	int null = is_null_scalar(ev);
	ynodex_t *x = node_new(c, null ? YD_NULL : YD_SCALAR, ev->start_mark);
	x->n.str = arena_strndup(c->a, (const char *)ev->data.scalar.value,
	                         ev->data.scalar.length);
	x->n.len = ev->data.scalar.length;
	x->n.plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	node_done(c, x, (const char *)ev->data.scalar.anchor);
	return 0;
}

static int on_alias(yctx_t *c, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
	ynodex_t *x = anchor_get(c, name);
	if (!x && anchor_open(c, name))
		return err_at(c->e, c->file, line, col,
		              "alias '*%s' refers to a node that contains it "
		              "(recursive aliases are not supported)", name);
	if (!x)
		return err_at(c->e, c->file, line, col,
		              "alias '*%s' refers to an undefined anchor", name);
	c->expanded = size_add(c->expanded, x->size);
	if (c->expanded > YDOC_MAX_ALIAS)
		return err_at(c->e, c->file, line, col,
		              "alias '*%s' expands the document beyond %d nodes "
		              "(too many or too large aliases)", name, YDOC_MAX_ALIAS);
	if (c->depth + x->height > YDOC_MAX_DEPTH)
		return err_at(c->e, c->file, line, col,
		              "alias '*%s' nests deeper than %d levels", name,
		              YDOC_MAX_DEPTH);
	node_done(c, x, NULL);
	return 0;
}

static int on_start(yctx_t *c, const yaml_event_t *ev, int kind)
{
	const yaml_char_t *anchor = kind == YD_SEQ ? ev->data.sequence_start.anchor
	                                            : ev->data.mapping_start.anchor;
	if (c->depth >= YDOC_MAX_DEPTH)
		return err_at(c->e, c->file, (int)ev->start_mark.line + 1,
		              (int)ev->start_mark.column + 1,
		              "nesting deeper than %d levels", YDOC_MAX_DEPTH);
	if (node_count(c, ev))
		return -1;
	frame_t *f = &c->st[c->depth++];
	memset(f, 0, sizeof(*f));
	f->x = node_new(c, kind, ev->start_mark);
	f->anchor = anchor ? xstrdup((const char *)anchor) : NULL;
	return 0;
}

static int key_cmp(const void *pa, const void *pb)
{
	const ynode_t *a = *(ynode_t *const *)pa, *b = *(ynode_t *const *)pb;
	int r = strcmp(a->str, b->str);
	if (r)
		return r;
	return a->line != b->line ? (a->line > b->line) - (a->line < b->line)
	                          : (a->col > b->col) - (a->col < b->col);
}

int ydoc_dup_keys(ynode_t **keys, int n, const char *file, errs_t *e)
{
	int rc = 0;
	qsort(keys, (size_t)n, sizeof(*keys), key_cmp);
	for (int i = 1; i < n; i++)
		if (!strcmp(keys[i]->str, keys[i - 1]->str))
			rc = err_at(e, file, keys[i]->line, keys[i]->col,
			            "duplicate key '%s' (first at line %d)",
			            keys[i]->str, keys[i - 1]->line);
	return rc;
}

/* Keys must be scalars and unique; sorting keeps this O(n log n). */
static int map_check_keys(yctx_t *c, ynode_t *m)
{
	int rc = 0, nk = 0;
	ynode_t **keys = xmalloc((size_t)(m->n ? m->n : 1) * sizeof(*keys));
	for (int i = 0; i < m->n; i++) {
		ynode_t *k = m->kids[2 * i];
		if (k->kind == YD_SCALAR)
			keys[nk++] = k;
		else if (k->kind == YD_NULL)
			rc = err_at(c->e, c->file, k->line, k->col,
			            "empty or null mapping key");
		else
			rc = err_at(c->e, c->file, k->line, k->col,
			            "a mapping key must be a plain value, not %s",
			            ydoc_kind_name(k->kind));
	}
	if (ydoc_dup_keys(keys, nk, c->file, c->e))
		rc = -1;
	free(keys);
	return rc;
}

static int on_end(yctx_t *c)
{
	frame_t *f = &c->st[--c->depth];
	ynode_t *n = &f->x->n;
	n->kids = arena_alloc(c->a, (size_t)f->nkids * sizeof(*n->kids));
	if (f->nkids)
		memcpy(n->kids, f->kids, (size_t)f->nkids * sizeof(*n->kids));
	n->n = n->kind == YD_MAP ? f->nkids / 2 : f->nkids;
	free(f->kids);
	f->kids = NULL;
	int rc = n->kind == YD_MAP ? map_check_keys(c, n) : 0;
	node_done(c, f->x, f->anchor);
	free(f->anchor);
	f->anchor = NULL;
	return rc;
}

static int on_event(yctx_t *c, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++c->ndocs > 1)
			return err_at(c->e, c->file, (int)ev->start_mark.line + 1,
			              (int)ev->start_mark.column + 1,
			              "a second YAML document ('---'): a profile is "
			              "one document");
		return 0;
	case YAML_SCALAR_EVENT:
		return on_scalar(c, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(c, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_start(c, ev, YD_SEQ);
	case YAML_MAPPING_START_EVENT:
		return on_start(c, ev, YD_MAP);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_end(c);
	default:
		return 0;
	}
}

/* libyaml, loaded when ydoc_fast first declines a file (dl.h): most
 * runs read every file with it. */
#define YAML_FUNCS(X) X(yaml_parser_initialize) X(yaml_parser_set_input_string) \
	X(yaml_parser_set_encoding) X(yaml_parser_parse) X(yaml_event_delete) \
	X(yaml_parser_delete)
static struct {
	YAML_FUNCS(DL_FIELD)
} yl;

/* 0, or -1 with an error naming file (the library cannot be loaded). */
static int yaml_lib(const char *file, errs_t *e)
{
	static int loaded; /* 1, or -1 when it cannot be loaded */
	static char why[300];
	if (!loaded) {
		void *h = dl_open("libyaml-0.so.2", why, sizeof(why));
#define X(f) DL_SYM(h, yl, f, why)
		YAML_FUNCS(X)
#undef X
		loaded = h ? 1 : -1;
	}
	return loaded > 0 ? 0 : err_sys(e, file, "%s", why);
}

static int yaml_fail(yctx_t *c, const yaml_parser_t *p)
{
	const yaml_mark_t *m = &p->problem_mark;
	const char *prob = p->problem ? p->problem : "cannot parse";
	if (p->context)
		return err_at(c->e, c->file, (int)m->line + 1, (int)m->column + 1,
		              "malformed YAML: %s (%s at line %d)", prob, p->context,
		              (int)p->context_mark.line + 1);
	return err_at(c->e, c->file, (int)m->line + 1, (int)m->column + 1,
	              "malformed YAML: %s", prob);
}

static void ydoc_cleanup(yctx_t *c)
{
	for (int i = 0; i < c->depth; i++) {
		free(c->st[i].kids);
		free(c->st[i].anchor);
	}
	c->depth = 0;
}

int ydoc_parse(arena_t *a, const char *file, const char *data, size_t len,
               ynode_t **root, errs_t *e)
{
	if (ydoc_fast(a, data, len, root) == 0)
		return 0;
	return ydoc_libyaml(a, file, data, len, root, e);
}

int ydoc_libyaml(arena_t *a, const char *file, const char *data, size_t len,
                 ynode_t **root, errs_t *e)
{
	static const yaml_mark_t start = {0, 0, 0};
	yctx_t *c = xcalloc(1, sizeof(*c));
	yaml_parser_t p;
	int rc = 0, done = 0;

	c->a = a;
	*root = &node_new(c, YD_NULL, start)->n;
	c->e = e;
	c->file = file;
	if (ydoc_precheck(file, data, len, e) < 0 || yaml_lib(file, e) < 0) {
		free(c);
		return -1;
	}
	if (!yl.yaml_parser_initialize(&p)) {
		free(c);
		return err_at(e, file, 0, 0, "cannot initialise the YAML parser");
	}
	yl.yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	yl.yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	while (!done && rc == 0) {
		yaml_event_t ev;
		if (!yl.yaml_parser_parse(&p, &ev)) {
			rc = yaml_fail(c, &p);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		rc = on_event(c, &ev);
		yl.yaml_event_delete(&ev);
	}
	yl.yaml_parser_delete(&p);
	ydoc_cleanup(c);
	if (rc == 0 && c->root)
		*root = &c->root->n;
	free(c);
	return rc;
}

ynode_t *ydoc_get(const ynode_t *m, const char *key)
{
	if (!m || m->kind != YD_MAP)
		return NULL;
	for (int i = 0; i < m->n; i++) {
		ynode_t *k = m->kids[2 * i];
		if (k->kind == YD_SCALAR && k->str[0] == key[0] && !strcmp(k->str, key))
			return m->kids[2 * i + 1];
	}
	return NULL;
}

const char *ydoc_kind_name(int kind)
{
	switch (kind) {
	case YD_NULL: return "nothing";
	case YD_SCALAR: return "a string";
	case YD_SEQ: return "a list";
	case YD_MAP: return "a map";
	}
	return "something else";
}
