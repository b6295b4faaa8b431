/* starter: the commented starter profile `vita new NAME` writes. */
#ifndef VITA_STARTER_H
#define VITA_STARTER_H
#include "buf.h"

/* NAME as one YAML double-quoted scalar, whatever it contains (quotes,
 * backslashes, '#', ': ', line breaks, leading '-' or spaces...). Returns
 * -1, writing nothing, if NAME is not valid UTF-8. */
int starter_quote(buf_t *out, const char *name);

/* The starter profile for NAME. SCHEMA, if not NULL, is the path or URL of
 * vita.schema.json for the yaml-language-server line. -1 if NAME is not
 * valid UTF-8 or holds nothing but spaces. */
int starter_profile(buf_t *out, const char *name, const char *schema);

#endif
