/* starter: the starter profile of `vita new`. The name is written as a
 * YAML double-quoted scalar with every character that YAML could read
 * differently escaped, so no name can add keys, authors or comments. */
#include <string.h>
#include "starter.h"
#include "utf8.h"

int starter_quote(buf_t *out, const char *name)
{
	size_t n = strlen(name);
	if (utf8_invalid_at(name, n) >= 0)
		return -1;
	buf_putc(out, '"');
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_decode(name + i, n - i, &cp);
		switch (cp) {
		case '"': buf_puts(out, "\\\""); break;
		case '\\': buf_puts(out, "\\\\"); break;
		case '\n': buf_puts(out, "\\n"); break;
		case '\t': buf_puts(out, "\\t"); break;
		case '\r': buf_puts(out, "\\r"); break;
		default:
			/* controls, DEL, C1, and what YAML 1.1 calls line breaks
			   (NEL, LS, PS) or a byte-order mark: escaped */
			if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
				buf_printf(out, "\\x%02X", (unsigned)cp);
			else if (cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
				buf_printf(out, "\\u%04X", (unsigned)cp);
			else
				buf_add(out, name + i, (size_t)l);
		}
		i += (size_t)l;
	}
	buf_putc(out, '"');
	return 0;
}

static const char body[] =
	"# name_native: \"山本 遥\"      # your name in its native script, if any\n"
	"headline: Ph.D. Student        # one line under the name\n"
	"affiliation: Your University\n"
	"location: City, Country\n"
	"contact:\n"
	"  email: you@example.org\n"
	"  website: example.org\n"
	"  # phone, orcid, github, scholar, linkedin, twitter work the same way\n"
	"summary: >\n"
	"  One paragraph about your research. Inline **bold**, *italic* and\n"
	"  [links](https://example.org) work in every text field.\n"
	"# layout: compact               # or academic (the default); `vita layouts` lists them\n"
	"sections:\n"
	"  - title: Education\n"
	"    type: education\n"
	"    entries:\n"
	"      - title: Ph.D. in Computer Science\n"
	"        org: Your University\n"
	"        start: 2022-09\n"
	"        end: present\n"
	"  - title: Publications\n"
	"    type: publications          # or `bibtex: papers.bib` instead of entries\n"
	"    entries:\n"
	"      - title: \"Your Paper Title\"\n"
	"        authors:\n"
	"          - %s\n"
	"          - A. Coauthor\n"
	"        venue: \"Conf '25\"\n"
	"        year: 2025\n"
	"  - title: Awards\n"
	"    type: awards\n"
	"    entries:\n"
	"      - title: A Scholarship\n"
	"        note: USD $10,000\n"
	"        date: 2024\n"
	"  - title: Interests\n"
	"    type: list\n"
	"    items: [Machine learning systems, Compilers]\n";

int starter_profile(buf_t *out, const char *name, const char *schema)
{
	if (strspn(name, " \t\n\r") == strlen(name))
		return -1;
	buf_t q;
	buf_init(&q);
	if (starter_quote(&q, name)) {
		buf_done(&q);
		return -1;
	}
	if (schema)
		buf_printf(out, "# yaml-language-server: $schema=%s\n", schema);
	buf_puts(out, "# A vita profile (docs/profile.md, `man vita`). Render it with:\n"
	              "#   vita render FILE        (FILE.pdf beside it)\n"
	              "vita: 1\n"
	              "name: ");
	buf_puts(out, q.s);
	buf_putc(out, '\n');
	buf_printf(out, body, q.s);
	buf_done(&q);
	return 0;
}
