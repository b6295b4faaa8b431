/* profile_import.h: foreign CV formats read into the same model as a native
 * profile. Private to the profile loader (profile.c dispatches on content:
 * a root map with `basics` is JSON Resume, one with `cv` is RenderCV).
 *
 * Both importers fill c->m (already allocated, file and dir set) from the
 * parsed tree and report located errors into c->e; they return -1 when
 * any error was recorded. Keys the foreign schema allows but vita does not
 * use are ignored; a key close to a known one gets a did-you-mean warning.
 */
#ifndef VITA_PROFILE_IMPORT_H
#define VITA_PROFILE_IMPORT_H
#include "profile_int.h"

int pjr_load(pctx_t *c, const ynode_t *root);     /* profile_jsonresume.c */
int prcv_load(pctx_t *c, const ynode_t *root);    /* profile_rendercv.c */
/* profile_rendercv_design.c: RenderCV's design -> layout overrides; the words of
 * its locale (name: "locale" or "locale_catalog") -> locale overrides
 * when apply, else one "ignored" warning; prcv_set adds one override. */
int prcv_design(pctx_t *c, const ynode_t *root);
void prcv_words(pctx_t *c, const ynode_t *loc, const char *name, int apply);
void prcv_set(pctx_t *c, const char *key, const char *value, const ynode_t *n);
/* A RenderCV template's placeholders (NAME, MONTH_NAME, PAGE_NUMBER...) as
 * vita's {name}, {month}, {page}...; *bad when one is unknown. */
const char *prcv_pattern(arena_t *a, const char *v, int *bad);
/* profile_alfolio.c: al-folio's _data/cv.yml, a list of {title, type,
 * contents}; pal_is tells it by its shape. */
int pal_is(const ynode_t *root);
int pal_load(pctx_t *c, const ynode_t *root);

/* profile_import.c: helpers both importers share. Strings are strict
 * (a map or a list where a string belongs is an error: no translations);
 * an empty string counts as absent. `what` names the enclosing item in
 * messages ("a work item"). */
int pim_str(pctx_t *c, const ynode_t *map, const char *key, const char **out);
int pim_text(pctx_t *c, const ynode_t *map, const char *key, mtext_t *out);
int pim_date(pctx_t *c, const ynode_t *map, const char *key, mdate_t *out);
int pim_missing(pctx_t *c, const ynode_t *map, const char *key,
                const char *what);
/* 1 and *l set when map[key] is a list, 0 when absent, -1 (reported) when
 * it is something else. */
int pim_seq(pctx_t *c, const ynode_t *map, const char *key, const char *what,
            const ynode_t **l);
/* The strings of map[key] (a list of strings). */
int pim_strings(pctx_t *c, const ynode_t *map, const char *key,
                const char ***out, int *n);
/* Warn about keys outside known that look like misspellings of one. */
void pim_lenient(pctx_t *c, const ynode_t *map, const char *const *known,
                 const char *what);
/* The strings of map[key] as text items, after nlead leading texts
 * (absent ones, n == 0, are skipped). */
int pim_items(pctx_t *c, const ynode_t *map, const char *key,
              const mtext_t *lead, int nlead, mtext_t **out, int *n);
/* Markup text from a plain string with its * [ ] \ escaped. */
char *pim_escape(arena_t *a, const char *s);
void pim_plain(arena_t *a, const char *s, const ynode_t *at, mtext_t *out);
/* A link whose label is the URL itself. */
mlink_t *pim_link(pctx_t *c, const char *url, const ynode_t *at);
/* end not before start (both numeric dates). */
int pim_period(pctx_t *c, const mentry_t *en);
/* Room for max sections, then append them one by one. */
void pim_sections(pctx_t *c, int max);
msection_t *pim_section(pctx_t *c, const ynode_t *at, int type,
                        const char *title);
/* Contacts: set one by kind (the model keeps the spec's order). */
void pim_contact(pctx_t *c, const char *kind, const char *value,
                 const char *url, const ynode_t *at);
void pim_links_add(pctx_t *c, const char *label, const char *url,
                   const ynode_t *at);

#endif
