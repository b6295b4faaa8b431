/* profile_schema: the JSON Schema of the profile format (`vita schema`,
 * docs/vita.schema.json, for yaml-language-server and other editors).
 *
 * The keys come from the loader's own tables (profile_keysets()); this
 * file only adds what the tables do not say: each key's type, whether it
 * is required, and one line of help. A key the loader accepts that has no
 * type here, or a type here for a key the loader does not accept, is an
 * error, so `vita schema` (and the test that compares its output with
 * docs/vita.schema.json) fails as soon as the two drift apart.
 *
 * YAML scalars are typed loosely on purpose: vita reads `year: 2024`,
 * `date: 2024` and `title: 1984` as text, so "string" accepts numbers too.
 */
#include <string.h>
#include "buf.h"
#include "profile.h"

typedef struct key_type {
	const char *object, *key;
	const char *type; /* a definition name, "array:DEF", "enum:KEYSET", "int", "version" */
	int required;
	const char *help;
} key_type_t;

/* "section" holds the keys every section type has. */
static const key_type_t types[] = {
	{"profile", "vita", "version", 0, "format version; 1 when absent"},
	{"profile", "name", "string", 1, "the person's name as it is printed first"},
	{"profile", "name_native", "string", 0, "the name in its native script, printed beside name"},
	{"profile", "headline", "string", 0, "one line under the name: position, field"},
	{"profile", "affiliation", "string", 0, "institution line"},
	{"profile", "location", "string", 0, "city, country"},
	{"profile", "contact", "contact", 0, "contact items, rendered as links"},
	{"profile", "links", "array:link", 0, "extra header links"},
	{"profile", "photo", "path", 0, "PNG or JPEG, relative to the profile"},
	{"profile", "photo_alt", "string", 0, "what the photo shows, for screen readers (default: the locale's \"Photo of NAME\")"},
	{"profile", "summary", "text", 0, "a paragraph under the header"},
	{"profile", "updated", "date", 0, "the 'last updated' date (default: SOURCE_DATE_EPOCH or today)"},
	{"profile", "layout", "layout", 0, "a layout name or file, or {name: ..., KEY: value} overrides"},
	{"profile", "sections", "array:section", 1, "the body of the CV, in order"},
	{"profile", "lang", "lang", 0, "the language translations are picked in, and the locale (vita locales)"},
	{"contact", "email", "contact item", 0, "mailto: link"},
	{"contact", "phone", "contact item", 0, "tel: link"},
	{"contact", "website", "contact item", 0, "https:// link"},
	{"contact", "orcid", "contact item", 0, "ORCID iD"},
	{"contact", "github", "contact item", 0, "GitHub user name"},
	{"contact", "scholar", "contact item", 0, "Google Scholar user id"},
	{"contact", "linkedin", "contact item", 0, "LinkedIn user name"},
	{"contact", "twitter", "contact item", 0, "Twitter/X user name"},
	{"contact item", "value", "string", 1, "the address, number or user name"},
	{"contact item", "tags", "tags", 0, "kept only with --tags naming one of these"},
	{"link", "label", "string", 0, "the text shown (default: the URL)"},
	{"link", "url", "string", 1, "the target"},
	{"section", "title", "string", 1, "the section heading"},
	{"section", "type", "enum:section types", 1, "what the section holds"},
	{"section", "tags", "tags", 0, "kept only with --tags naming one of these"},
	{"section.entries", "entries", "array:entry", 1, "one block per entry"},
	{"section.education", "entries", "array:entry", 1, "one block per degree"},
	{"section.experience", "entries", "array:entry", 1, "one block per position"},
	{"section.awards", "entries", "array:entry", 1, "one block per award"},
	{"section.publications", "entries", "array:publication", 0, "the publications, in order"},
	{"section.publications", "bibtex", "path", 0, "a BibTeX file (relative to the profile) read as entries"},
	{"section.publications", "highlight", "array:string", 0, "author names printed bold (default: name, its translations, name_native)"},
	{"section.publications", "numbering", "enum:numbering", 0, "default reverse"},
	{"section.publications", "group_by", "enum:group_by", 0, "headings by year or by status; default none"},
	{"section.news", "entries", "array:news", 1, "dated one-liners"},
	{"section.list", "items", "array:item", 1, "the items"},
	{"section.list", "style", "enum:list style", 0, "a comma-separated line (inline, default), bullets, or numbered (1, 2, 3) or reversed (3, 2, 1) items"},
	{"section.text", "text", "text", 1, "a paragraph"},
	{"entry", "title", "text", 1, "degree, job title, award name"},
	{"entry", "org", "text", 0, "institution, company, awarding body"},
	{"entry", "location", "string", 0, "city, country"},
	{"entry", "date", "date", 0, "a single date"},
	{"entry", "start", "date", 0, "start of a period"},
	{"entry", "end", "date", 0, "end of a period (present for an ongoing one)"},
	{"entry", "details", "array:item", 0, "bullet points"},
	{"entry", "note", "text", 0, "a short line after the title (amount, rank, advisor)"},
	{"entry", "links", "array:link", 0, "links after the entry"},
	{"entry", "lang", "lang", 0, "the language its texts are in when not the CV's (their hyphenation, their language in the PDF)"},
	{"entry", "tags", "tags", 0, "kept only with --tags naming one of these"},
	{"publication", "title", "text", 1, "the title"},
	{"publication", "authors", "array:string", 0, "the authors, in order"},
	{"publication", "equal", "array:string", 0, "authors with equal contribution (each among authors), marked *"},
	{"publication", "venue", "string", 0, "short venue tag, e.g. EuroSys '26"},
	{"publication", "venue_full", "text", 0, "the full venue name"},
	{"publication", "year", "year", 0, "the year"},
	{"publication", "status", "string", 0, "e.g. to appear, preprint"},
	{"publication", "doi", "string", 0, "printed as a link to https://doi.org/..."},
	{"publication", "links", "array:link", 0, "e.g. Paper, Code, Slides"},
	{"publication", "badges", "array:string", 0, "e.g. artifact badges Available, Functional, Reproduced"},
	{"publication", "note", "text", 0, "e.g. Best Paper Award"},
	{"publication", "summary", "text", 0, "a sentence or two on what the paper does, under its venue"},
	{"publication", "lang", "lang", 0, "the language of its title and texts when not the CV's, e.g. en in a German CV (their hyphenation, their language in the PDF)"},
	{"publication", "tags", "tags", 0, "kept only with --tags naming one of these"},
	{"news", "date", "date", 1, "when"},
	{"news", "text", "text", 1, "what"},
	{"news", "tags", "tags", 0, "kept only with --tags naming one of these"},
	{"item", "value", "text", 1, "the item"},
	{"item", "tags", "tags", 0, "kept only with --tags naming one of these"},
};

/* Definitions that are not maps of the loader (written as they are). */
static const char *const fixed_defs[][2] = {
	{"scalar", "{\"type\": [\"string\", \"number\", \"boolean\"]}"},
	{"translations",
	 "{\"description\": \"the same field in several languages; --lang or lang: picks one, "
	 "else the first\", \"type\": \"object\", \"minProperties\": 1, "
	 "\"additionalProperties\": {\"$ref\": \"#/definitions/scalar\"}}"},
	{"string",
	 "{\"anyOf\": [{\"$ref\": \"#/definitions/scalar\"}, "
	 "{\"$ref\": \"#/definitions/translations\"}]}"},
	{"text",
	 "{\"description\": \"text with inline markup: **bold**, *italic*, [label](url)\", "
	 "\"anyOf\": [{\"$ref\": \"#/definitions/scalar\"}, "
	 "{\"$ref\": \"#/definitions/translations\"}]}"},
	{"path", "{\"type\": \"string\", \"minLength\": 1}"},
	{"lang", "{\"type\": \"string\", \"pattern\": \"^[A-Za-z]{2,3}([-_][A-Za-z0-9]+)*$\"}"},
	{"year", "{\"anyOf\": [{\"type\": \"integer\"}, {\"type\": \"string\", \"pattern\": \"^[0-9]{4}$\"}]}"},
	{"date",
	 "{\"description\": \"YYYY, YYYY-MM, YYYY-MM-DD or present; other text is printed as "
	 "written\", \"type\": [\"string\", \"integer\"]}"},
	{"tags",
	 "{\"anyOf\": [{\"type\": \"string\"}, "
	 "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}]}"},
	{"layout",
	 "{\"anyOf\": [{\"type\": \"string\", \"description\": \"a layout name (vita layouts) or "
	 "file\"}, {\"type\": \"object\", \"description\": \"name: plus overrides of layout "
	 "keys (docs/layouts.md)\", \"properties\": {\"name\": {\"type\": \"string\"}}}]}"},
};

static const profile_keyset_t *keyset(const char *object)
{
	for (const profile_keyset_t *k = profile_keysets(); k->object; k++)
		if (!strcmp(k->object, object))
			return k;
	return NULL;
}

static const key_type_t *type_of(const char *object, const char *key)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(types[i].object, object) && !strcmp(types[i].key, key))
			return &types[i];
	return NULL;
}

static int has_key(const char *const *keys, const char *key)
{
	for (int i = 0; keys[i]; i++)
		if (!strcmp(keys[i], key))
			return 1;
	return 0;
}

static void json_str(buf_t *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
	buf_putc(b, '"');
}

static void enum_values(buf_t *b, const char *set)
{
	const profile_keyset_t *k = keyset(set);
	buf_puts(b, "{\"enum\": [");
	for (int i = 0; k && k->keys[i]; i++) {
		buf_puts(b, i ? ", " : "");
		json_str(b, k->keys[i]);
	}
	buf_puts(b, "]");
}

/* One property: its type and help. */
static void property(buf_t *b, const key_type_t *t)
{
	const char *ty = t->type;
	if (!strncmp(ty, "enum:", 5)) {
		enum_values(b, ty + 5);
	} else if (!strncmp(ty, "array:", 6)) {
		buf_puts(b, "{\"type\": \"array\", \"items\": {\"$ref\": \"#/definitions/");
		buf_puts(b, ty + 6);
		buf_puts(b, "\"}");
	} else if (!strcmp(ty, "version")) {
		buf_puts(b, "{\"type\": \"integer\", \"enum\": [1]");
	} else {
		/* draft-07 ignores keys beside a $ref: the help goes outside it */
		buf_puts(b, "{\"allOf\": [{\"$ref\": \"#/definitions/");
		for (const char *c = ty; *c; c++)
			buf_putc(b, *c == ' ' ? '_' : *c);
		buf_puts(b, "\"}]");
	}
	buf_puts(b, ", \"description\": ");
	json_str(b, t->help);
	buf_puts(b, "}");
}

/* A map: properties from the loader's keys (typed from OBJECT, else from
 * FALLBACK), required ones, nothing else allowed. */
static int map_schema(buf_t *b, const char *object, const char *fallback, const char *indent,
                      errs_t *e)
{
	const profile_keyset_t *k = keyset(object);
	if (!k)
		return err_at(e, "", 0, 0, "schema: the loader has no key table '%s'", object);
	int rc = 0;
	buf_printf(b, "{\n%s  \"type\": \"object\",\n%s  \"additionalProperties\": false,\n",
	           indent, indent);
	buf_printf(b, "%s  \"properties\": {", indent);
	for (int i = 0; k->keys[i]; i++) {
		const key_type_t *t = type_of(object, k->keys[i]);
		if (!t && fallback)
			t = type_of(fallback, k->keys[i]);
		if (!t) {
			rc = err_at(e, "", 0, 0, "schema: key '%s' of %s has no type in "
			            "src/profile_schema.c", k->keys[i], object);
			continue;
		}
		buf_printf(b, "%s\n%s    ", i ? "," : "", indent);
		json_str(b, k->keys[i]);
		buf_puts(b, ": ");
		property(b, t);
	}
	buf_printf(b, "\n%s  },\n%s  \"required\": [", indent, indent);
	int n = 0;
	for (int i = 0; k->keys[i]; i++) {
		const key_type_t *t = type_of(object, k->keys[i]);
		if (!t && fallback)
			t = type_of(fallback, k->keys[i]);
		if (t && t->required) {
			buf_puts(b, n++ ? ", " : "");
			json_str(b, k->keys[i]);
		}
	}
	buf_puts(b, "]");
	if (!strcmp(object, "section.publications")) /* entries, bibtex or both */
		buf_printf(b, ",\n%s  \"anyOf\": [{\"required\": [\"entries\"]}, "
		           "{\"required\": [\"bibtex\"]}]", indent);
	buf_printf(b, "\n%s}", indent);
	return rc;
}

/* Every typed key must be one the loader accepts. */
static int check_stale(errs_t *e)
{
	int rc = 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		const key_type_t *t = &types[i];
		if (!strcmp(t->object, "section")) {
			const profile_keyset_t *st = keyset("section types");
			int found = 0;
			for (int j = 0; st && st->keys[j] && !found; j++) {
				char name[64];
				snprintf(name, sizeof(name), "section.%s", st->keys[j]);
				const profile_keyset_t *k = keyset(name);
				found = k && has_key(k->keys, t->key);
			}
			if (!found)
				rc = err_at(e, "", 0, 0, "schema: no section type has key '%s'", t->key);
			continue;
		}
		const profile_keyset_t *k = keyset(t->object);
		if (!k || !has_key(k->keys, t->key))
			rc = err_at(e, "", 0, 0, "schema: the loader does not accept '%s' in %s",
			            t->key, t->object);
	}
	return rc;
}

static const char *const maps[] = {"contact", "contact item", "link", "entry", "publication",
                                   "news", NULL};

int profile_schema(buf_t *b, errs_t *e)
{
	int rc = check_stale(e);
	buf_puts(b, "{\n"
	            "  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n"
	            "  \"title\": \"vita profile, version 1\",\n"
	            "  \"description\": \"A CV for vita (docs/profile.md). Generated by `vita "
	            "schema` from the loader's key tables.\",\n");
	/* the top level: the profile map, written inline */
	buf_t top;
	buf_init(&top);
	if (map_schema(&top, "profile", NULL, "", e))
		rc = -1;
	buf_add(b, top.s + 2, top.len - 4); /* its body, without the braces */
	buf_done(&top);
	buf_puts(b, ",\n  \"definitions\": {\n");
	for (size_t i = 0; i < sizeof(fixed_defs) / sizeof(fixed_defs[0]); i++)
		buf_printf(b, "    \"%s\": %s,\n", fixed_defs[i][0], fixed_defs[i][1]);
	/* items and contact items: a bare value, or {value, tags} */
	buf_puts(b, "    \"item\": {\"anyOf\": [{\"$ref\": \"#/definitions/text\"}, "
	            "{\"$ref\": \"#/definitions/item_map\"}]},\n");
	buf_puts(b, "    \"item_map\": ");
	rc |= map_schema(b, "item", NULL, "    ", e);
	buf_puts(b, ",\n");
	for (int i = 0; maps[i]; i++) {
		char name[64];
		snprintf(name, sizeof(name), "%s", maps[i]);
		for (char *c = name; *c; c++)
			if (*c == ' ')
				*c = '_';
		if (!strcmp(maps[i], "contact item")) {
			buf_puts(b, "    \"contact_item\": {\"anyOf\": [{\"$ref\": "
			            "\"#/definitions/string\"}, {\"$ref\": "
			            "\"#/definitions/contact_item_map\"}]},\n");
			strcat(name, "_map");
		}
		if (!strcmp(maps[i], "link")) {
			buf_puts(b, "    \"link\": {\"anyOf\": [{\"type\": \"string\", \"description\": "
			            "\"a URL, shown as itself\"}, {\"$ref\": \"#/definitions/link_map\"}]},\n");
			strcat(name, "_map");
		}
		buf_printf(b, "    \"%s\": ", name);
		rc |= map_schema(b, maps[i], NULL, "    ", e);
		buf_puts(b, ",\n");
	}
	/* a section: title and type, then the keys of its type */
	const profile_keyset_t *st = keyset("section types");
	buf_puts(b, "    \"section\": {\n      \"type\": \"object\",\n"
	            "      \"required\": [\"title\", \"type\"],\n"
	            "      \"properties\": {\"type\": ");
	enum_values(b, "section types");
	buf_puts(b, "}},\n      \"allOf\": [");
	for (int i = 0; st && st->keys[i]; i++) {
		buf_printf(b, "%s\n        {\"if\": {\"properties\": {\"type\": {\"const\": ", i ? "," : "");
		json_str(b, st->keys[i]);
		buf_printf(b, "}}}, \"then\": {\"$ref\": \"#/definitions/section.%s\"}}", st->keys[i]);
	}
	buf_puts(b, "\n      ]\n    }");
	for (int i = 0; st && st->keys[i]; i++) {
		char name[64];
		snprintf(name, sizeof(name), "section.%s", st->keys[i]);
		buf_printf(b, ",\n    \"%s\": ", name);
		rc |= map_schema(b, name, "section", "    ", e);
	}
	buf_puts(b, "\n  }\n}\n");
	return rc ? -1 : 0;
}
