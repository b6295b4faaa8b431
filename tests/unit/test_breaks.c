/* test_breaks: inline_breaks (vita's UAX #14 pass) gives libunibreak 1.1's
 * answers byte for byte: on every class boundary of its data, on every
 * triple of class representatives, on random text (invalid UTF-8
 * included) in several languages; and flags and U+FFFF as inline.h says.
 * The oracle is set_linebreaks_utf8 with what inline.c used to do around
 * it (U+FFFF read as U+FFFD, flags as ideographs, then paired), and the
 * one rule vita adds (a space before ។ ៕ ၊ ။ does not break). */
#include <linebreak.h>
#include <linebreakdef.h>
#include <stdint.h>
#include "inline.h"
#include "t.h"

static const char *langs[] = {NULL, "en", "de", "fr", "zh", "ja", "ko", "ru", "es"};

static int is_ri_at(const char *s, size_t len, size_t i)
{
	const unsigned char *u = (const unsigned char *)s + i;
	return i + 3 < len && u[0] == 0xF0 && u[1] == 0x9F && u[2] == 0x87 &&
	       u[3] >= 0xA6 && u[3] <= 0xBF;
}

static void oracle(const char *s, size_t len, const char *lang, char *brks)
{
	char tmp[512];
	int any = 0;
	if (len > sizeof(tmp))
		abort();
	memcpy(tmp, s, len);
	for (size_t i = 0; i < len; i++) {
		if (i + 2 < len && !memcmp(s + i, "\xEF\xBF\xBF", 3)) {
			tmp[i + 2] = (char)0xBD;
			any = 1;
		} else if (is_ri_at(s, len, i)) {
			memcpy(tmp + i, "\xF0\xA0\x80\x80", 4);
			any = 1;
		}
	}
	set_linebreaks_utf8((const utf8_t *)tmp, len, lang, brks);
	/* vita's one deliberate change to UAX #14 (inline.c, sa_marks_keep):
	 * a space before Khmer U+17D4 U+17D5 or Myanmar U+104A U+104B does
	 * not break, so the mark never starts a line. */
	for (size_t i = 1; i + 2 < len; i++) {
		const unsigned char *u = (const unsigned char *)s + i;
		int mark = u[0] == 0xE1 && ((u[1] == 0x9F && (u[2] == 0x94 || u[2] == 0x95)) ||
		                            (u[1] == 0x81 && (u[2] == 0x8A || u[2] == 0x8B)));
		if (mark && s[i - 1] == ' ' && brks[i - 1] == LINEBREAK_ALLOWBREAK)
			brks[i - 1] = LINEBREAK_NOBREAK;
	}
	for (size_t i = 0; any && i < len; i++) {
		if (!is_ri_at(s, len, i))
			continue;
		if (is_ri_at(s, len, i + 4))
			brks[i + 3] = LINEBREAK_NOBREAK;
		i += is_ri_at(s, len, i + 4) ? 7 : 3;
	}
}

static int nbad;

static void same(const char *s, size_t len, const char *lang)
{
	char a[512], b[512];
	memset(a, 9, sizeof(a));
	memset(b, 9, sizeof(b));
	oracle(s, len, lang, a);
	inline_breaks(s, len, lang, b);
	if (memcmp(a, b, len)) {
		t_fail += nbad < 1000;
		if (nbad++ < 10) {
			fprintf(stderr, "breaks differ (lang %s):", lang ? lang : "-");
			for (size_t i = 0; i < len; i++)
				fprintf(stderr, " %02X:%d/%d", (unsigned char)s[i], a[i], b[i]);
			fprintf(stderr, "\n");
		}
	}
}

static size_t enc(uint32_t c, char *o)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xC0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xE0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3F));
		o[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3F));
	o[2] = (char)(0x80 | (c >> 6 & 0x3F));
	o[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

static void same_cps(const uint32_t *c, int n, const char *lang)
{
	char s[512];
	size_t len = 0;
	for (int i = 0; i < n; i++)
		len += enc(c[i], s + len);
	same(s, len, lang);
}

/* One code point of each class in libunibreak's data (and the language
 * tables' code points), for contexts. */
static uint32_t reps[64];
static int nreps;

static void find_reps(void)
{
	int seen[64] = {0};
	for (int i = 0; lb_prop_default[i].prop != LBP_Undefined; i++) {
		int p = lb_prop_default[i].prop;
		if (p < 64 && !seen[p] && !(lb_prop_default[i].start >= 0x1F1E6 &&
		                            lb_prop_default[i].start <= 0x1F1FF)) {
			seen[p] = 1;
			reps[nreps++] = lb_prop_default[i].start;
		}
	}
	reps[nreps++] = 0x201C;   /* English/German/Chinese opening or closing */
	reps[nreps++] = 0xAB;
	reps[nreps++] = 0x1F1E6;  /* a regional indicator */
	reps[nreps++] = 0xFFFF;
}

TEST(reps_cover_classes)
{
	find_reps();
	CHECK(nreps >= 35);
}

TEST(triples)
{
	for (size_t l = 0; l < sizeof(langs) / sizeof(*langs); l++)
		for (int i = 0; i < nreps; i++)
			for (int j = 0; j < nreps; j++)
				for (int k = 0; k < nreps; k += (l ? 3 : 1)) {
					uint32_t c[3] = {reps[i], reps[j], reps[k]};
					same_cps(c, 3, langs[l]);
				}
	EQ_INT(nbad, 0);
}

/* Every range of the data, at both ends and just outside, beside every
 * representative, with and without a space. */
TEST(boundaries)
{
	for (int i = 0; lb_prop_default[i].prop != LBP_Undefined; i++) {
		uint32_t e[4] = {lb_prop_default[i].start - 1, lb_prop_default[i].start,
		                 lb_prop_default[i].end, lb_prop_default[i].end + 1};
		for (int q = 0; q < 4; q++) {
			uint32_t c = e[q];
			if (c > 0x10FFFF)
				continue;
			for (int r = 0; r < nreps; r++) {
				uint32_t a[2] = {reps[r], c}, b[2] = {c, reps[r]};
				uint32_t as[3] = {reps[r], ' ', c}, bs[3] = {c, ' ', reps[r]};
				same_cps(a, 2, "en");
				same_cps(b, 2, "en");
				same_cps(as, 3, "en");
				same_cps(bs, 3, "en");
			}
		}
	}
	for (int m = 0; lb_prop_lang_map[m].lang; m++)
		for (const struct LineBreakProperties *p = lb_prop_lang_map[m].lbp; p->prop; p++)
			for (int r = 0; r < nreps; r++) {
				uint32_t a[3] = {reps[r], p->start, reps[r]};
				uint32_t b[4] = {p->start, ' ', reps[r], p->end};
				same_cps(a, 3, lb_prop_lang_map[m].lang);
				same_cps(b, 4, lb_prop_lang_map[m].lang);
			}
	EQ_INT(nbad, 0);
}

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* Random text: representatives, spaces and newlines, ASCII, any BMP
 * character, and bytes that are no UTF-8 (but no stray F0..F4, which
 * can spell a regional indicator that libunibreak asserts on). */
TEST(random_text)
{
	static const unsigned char stray[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC3, 0xE2, 0xED, 0xF5, 0xFF};
	for (int t = 0; t < 40000; t++) {
		char s[256];
		size_t len = 0;
		int n = (int)(rnd() % 24);
		for (int i = 0; i < n; i++) {
			uint32_t k = rnd() % 10;
			if (k < 4)
				len += enc(reps[rnd() % (uint32_t)nreps], s + len);
			else if (k < 6)
				s[len++] = " \n\r\t"[rnd() % 4];
			else if (k < 8)
				s[len++] = (char)(0x20 + rnd() % 0x5F);
			else if (k < 9)
				len += enc(rnd() % 0x10000, s + len);
			else
				s[len++] = (char)stray[rnd() % sizeof(stray)];
		}
		same(s, len, langs[rnd() % (sizeof(langs) / sizeof(*langs))]);
	}
	EQ_INT(nbad, 0);
}

TEST(flags_pair)
{
	/* DE FR: no break inside a flag, one between the two */
	const char *s = "\xF0\x9F\x87\xA9\xF0\x9F\x87\xAA\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7";
	char b[16];
	inline_breaks(s, 16, "en", b);
	EQ_INT(b[3], LINEBREAK_NOBREAK);
	EQ_INT(b[7], LINEBREAK_ALLOWBREAK);
	EQ_INT(b[11], LINEBREAK_NOBREAK);
	EQ_INT(b[15], LINEBREAK_MUSTBREAK);
	EQ_INT(b[0], LINEBREAK_INSIDEACHAR);
}

TEST(ffff_is_not_the_end)
{
	char a[16], b[16];
	inline_breaks("\xE4\xB8\x80\xEF\xBF\xBF\xE4\xB8\x80", 9, "zh", a);
	set_linebreaks_utf8((const utf8_t *)"\xE4\xB8\x80\xEF\xBF\xBD\xE4\xB8\x80", 9, "zh", b);
	CHECK(!memcmp(a, b, 9));
	EQ_INT(a[8], LINEBREAK_MUSTBREAK);
}

TEST(values_match_libunibreak)
{
	char b[4];
	inline_breaks("a b", 3, "en", b);
	EQ_INT(b[0], LINEBREAK_NOBREAK);
	EQ_INT(b[1], LINEBREAK_ALLOWBREAK);
	EQ_INT(b[2], LINEBREAK_MUSTBREAK);
}

int main(void)
{
	init_linebreak();
	RUN(reps_cover_classes);
	RUN(triples);
	RUN(boundaries);
	RUN(random_text);
	RUN(flags_pair);
	RUN(ffff_is_not_the_end);
	RUN(values_match_libunibreak);
	return t_report();
}
