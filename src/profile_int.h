/* profile_int.h: what the src/profile*.c files share (the loader's
 * context, the typed getters, the photo, post-load checks, BibTeX).
 * Private to the profile loader; not part of the public interface. */
#ifndef VITA_PROFILE_INT_H
#define VITA_PROFILE_INT_H
#include "profile.h"
#include "ydoc.h"

#define PROFILE_MAX_STR (64 * 1024)      /* bytes in one string value */
#define PROFILE_MAX_FILE (16 * 1024 * 1024)
#define PROFILE_MAX_ITEMS 10000          /* sections, entries, details, ... */
#define PROFILE_MAX_TEXT (4 * 1024 * 1024) /* bytes of text in the model */

typedef struct pctx {
	arena_t *a;
	errs_t *e;
	const char *file;
	const profile_opts_t *o;
	model_t *m;
	const ynode_t *root;  /* the profile map */
	const char *lang;     /* translations to pick: --lang, else the profile's lang */
	int warned_lang;      /* 1 once a field without that translation was reported */
	const char *picked;   /* the key of the translation pv_translate last picked
	                         (NULL: the field was a plain string) */
	const char *item_lang; /* the `lang:` of the entry or publication being
	                          read (its texts' language), or NULL */
} pctx_t;

/* profile_val.c: typed getters; each reports a located error and returns
 * -1 (or NULL) on bad input. A NULL node means "absent". */
int pv_err(pctx_t *c, const ynode_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "missing required key" unless a misspelt key already explains it. */
int pv_misspelt(const ynode_t *map, const char *key);
int pv_missing(pctx_t *c, const ynode_t *map, const char *key);
/* map's key (`lang: de`): a language code (en, de, pt-BR ...) into *out,
 * NULL when absent. */
int pv_lang(pctx_t *c, const ynode_t *map, const char *key, const char **out);
const char *pv_suggest(const char *word, const char *const *known);
int pv_keys(pctx_t *c, const ynode_t *map, const char *const *known,
            const char *what);
int pv_is_map(pctx_t *c, const ynode_t *n, const char *what);
int pv_is_seq(pctx_t *c, const ynode_t *n, const char *what);
const ynode_t *pv_translate(pctx_t *c, const ynode_t *n, const char *key);
int pv_string(pctx_t *c, const ynode_t *n, const char *key, const char **out);
int pv_field(pctx_t *c, const ynode_t *map, const char *key, int required,
             const char **out);
int pv_text(pctx_t *c, const ynode_t *map, const char *key, int required,
            mtext_t *out);
int pv_text_node(pctx_t *c, const ynode_t *n, const char *key, mtext_t *out);
void pv_markup(arena_t *a, const char *s, mtext_t *out);
int pv_date(pctx_t *c, const ynode_t *map, const char *key, mdate_t *out);
int pv_date_str(const char *s, mdate_t *d, const char **why);
int pv_date_cmp(const mdate_t *a, const mdate_t *b);
int pv_int(pctx_t *c, const ynode_t *map, const char *key, long lo, long hi,
           int *out);
int pv_strings(pctx_t *c, const ynode_t *map, const char *key,
               const char ***out, int *n);
int pv_links(pctx_t *c, const ynode_t *map, const char *key, mlink_t **out,
             int *n);
int pv_enum(pctx_t *c, const ynode_t *map, const char *key,
            const char *const *names, int *out);
/* 1 when the item carrying `tags` is kept by opts (and tags are valid). */
int pv_keep(pctx_t *c, const ynode_t *map);

/* profile_common.c: what the native loader and the importers share.
 * The file named at node n (p relative to the profile's folder; with
 * --untrusted it must exist inside it) into *out; 0, or -1 and an error. */
int profile_file(pctx_t *c, const ynode_t *n, const char *p, const char *what,
                 const char **out);
/* Set the model's photo from node n (path p, relative to the profile);
 * a located error when it is missing or does not decode. */
int profile_photo(pctx_t *c, const ynode_t *n, const char *p);
/* The link a contact item gets (mailto:, tel:, https://...). */
const char *profile_contact_url(arena_t *a, const char *kind, const char *v);

/* profile_post.c, once the model is built. The link target to write for
 * u (http, https, mailto, tel; doi: and scheme-less web addresses
 * rewritten), or NULL. */
const char *pu_url(arena_t *a, const char *u);
/* Check every URL of c->m: a located warning, and no link, for the rest. */
void pu_model(pctx_t *c);
/* profile_names.c: mark every publication's authors (owner, trailing
 * equal-contribution and corresponding-author marks). */
void pnames_mark(pctx_t *c);
/* The size limits below, over the whole model: 0, or -1 and one error. */
int pm_limits(pctx_t *c);

/* profile_bib.c: load a BibTeX file into publications. */
int pbib_load(pctx_t *c, const ynode_t *where, const char *path,
              mpub_t **pubs, int *npubs);
/* The same from memory (path names the file in messages). */
int pbib_load_mem(pctx_t *c, const ynode_t *where, const char *path,
                  const char *data, size_t len, mpub_t **pubs, int *npubs);

/* the keys of a link map {label, url} (profile_val.c) */
extern const char *const pv_link_keys[];

#endif
