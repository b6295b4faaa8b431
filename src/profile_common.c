/* profile_common: what the native loader (profile.c) and the importers
 * (profile_jsonresume.c, profile_rendercv.c, profile_import.c) share, so
 * that neither calls back into the other: the files a profile names
 * (relative to it; confined to its folder with --untrusted), the photo,
 * and the link a contact item gets.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "buf.h"
#include "deps.h"
#include "image.h"
#include "profile_int.h"

static char *path_join(arena_t *a, const char *dir, const char *p)
{
	if (p[0] == '/' || !strcmp(dir, "."))
		return arena_strdup(a, p);
	return arena_printf(a, "%s/%s", dir, p);
}

/* The file a profile names at node n (p relative to the profile's folder).
 * --untrusted: it must exist and lie inside that folder once every symlink
 * is resolved, and the resolved name is what is opened (so `../`, an
 * absolute path or a symlink cannot reach another file). */
int profile_file(pctx_t *c, const ynode_t *n, const char *p, const char *what,
                 const char **out)
{
	*out = path_join(c->a, c->m->dir, p);
	if (!c->o || !c->o->untrusted)
		return 0;
	char *dir = realpath(c->m->dir, NULL), *real = realpath(*out, NULL);
	size_t dl = dir ? strlen(dir) : 0;
	int inside = dir && real && !strncmp(real, dir, dl) &&
	             (real[dl] == '/' || (dl == 1 && dir[0] == '/'));
	int rc = 0;
	if (!real)
		rc = pv_err(c, n, "%s not found: '%.200s' (%s)", what, p, strerror(errno));
	else if (!inside)
		rc = pv_err(c, n, "%s '%.200s' is outside the profile's folder (with "
		            "--untrusted, every file a profile names must be inside it)",
		            what, p);
	else
		*out = arena_strdup(c->a, real);
	free(dir);
	free(real);
	return rc;
}

/* The photo at node n (path p, relative to the profile): it must exist and
 * decode, so that `vita check` already refuses a damaged PNG or JPEG; it is
 * decoded here once, and the pixels travel with the model. Used
 * by the native loader and both importers. */
int profile_photo(pctx_t *c, const ynode_t *n, const char *p)
{
	c->m->photo_line = n->line;
	c->m->photo_col = n->col;
	if (profile_file(c, n, p, "photo", &c->m->photo) < 0)
		return -1;
	if (access(c->m->photo, R_OK) != 0)
		return pv_err(c, n, "photo not found: '%s' (%s)", c->m->photo,
		              strerror(errno));
	image_t *im = arena_alloc(c->a, sizeof(*im));
	const char *why;
	deps_add(c->m->photo);
	if (image_load(c->a, c->m->photo, im, &why))
		return pv_err(c, n, "photo '%s' is not a readable PNG or JPEG file (%s)",
		              c->m->photo, why);
	c->m->photo_img = im;
	return 0;
}

/* "+1 (555) 0100 ext. 5" -> "tel:+15550100;ext=5" (RFC 3966); text with
 * no digits ("call me") gets no link. */
static const char *phone_url(arena_t *a, const char *v)
{
	buf_t b;
	int ndig = 0, ext = 0;
	buf_init(&b);
	buf_puts(&b, "tel:");
	for (const char *p = v; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			buf_putc(&b, *p);
			ndig++;
		} else if (*p == '+' && b.len == 4) {
			buf_putc(&b, *p);
		} else if (!ext && ndig && (*p == 'x' || *p == 'X' || *p == '#' ||
		           ((*p == 'e' || *p == 'E') && (p[1] == 'x' || p[1] == 'X')))) {
			buf_puts(&b, ";ext=");
			ext = 1;
		}
	}
	if (ext && b.s[b.len - 1] == '=')
		b.len -= 5;   /* "ext." with no number after it */
	b.s[b.len] = '\0';
	char *s = ndig ? arena_strdup(a, b.s) : NULL;
	buf_done(&b);
	return s;
}

const char *profile_contact_url(arena_t *a, const char *kind, const char *v)
{
	int url = strstr(v, "://") != NULL;
	const char *h = v[0] == '@' ? v + 1 : v;
	if (!strcmp(kind, "email"))
		return strncmp(v, "mailto:", 7) ? arena_printf(a, "mailto:%s", v) : v;
	if (!strcmp(kind, "phone"))
		return phone_url(a, v);
	if (url)
		return v;
	if (!strcmp(kind, "website"))
		return arena_printf(a, "https://%s", v);
	if (!strcmp(kind, "orcid"))
		return arena_printf(a, "https://orcid.org/%s", v);
	if (!strcmp(kind, "github"))
		return arena_printf(a, "https://github.com/%s", h);
	if (!strcmp(kind, "scholar"))
		return arena_printf(a, "https://scholar.google.com/citations?user=%s", v);
	if (!strcmp(kind, "linkedin"))
		return arena_printf(a, "https://www.linkedin.com/in/%s", h);
	return arena_printf(a, "https://twitter.com/%s", h);
}
