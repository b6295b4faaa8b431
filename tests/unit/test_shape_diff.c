/* test_shape_diff: the shaping fast path (font_ot.c) gives exactly the
 * records HarfBuzz gives.
 *
 * VITA_SHAPER=harfbuzz (read once per process) sends every word through
 * HarfBuzz. This program forks before its first font call: the child sets
 * the variable, the parent clears it, both make the same font API calls in
 * the same order, the child writes every record it gets into a pipe and
 * the parent compares each of its own with it, field by field (cp, off,
 * adv, face, synth, brk, gid; n, width, missing).
 *
 * The calls (font_shape for a word, font_shape_pieces for a line cut as
 * inline.c cuts it: a word and the spaces after it):
 *  - corpus: every line and every word of the repository's inputs
 *    (profiles/, examples/, tests/ data, locales/, layouts/, a generated
 *    long-250 CV and 100 batch CVs), in the chains the layouts use (serif,
 *    sans) in each style, with the feature masks the layouts ask for;
 *  - strings built to trip a shaper (kerning pairs, figures, fractions,
 *    marks, i/j before marks, ZWJ/ZWNJ, NBSP, soft hyphen, small caps,
 *    scripts) and random strings from each face's own cmap, in every face
 *    fontconfig lists that vita loads (one chain per family).
 * Sizes: a layout size (9.8 pt) and 1000 pt, where one font unit of
 * kerning or offset shows in the advances.
 *
 * Arguments (for a reproduction or a private font set):
 *   -t TEXT       only TEXT, in the serif and sans chains and in -f's
 *   -f FAMILY     only this family (repeatable) for the face part; with no
 *                 -t, no corpus either
 *   -q            no corpus (faces only)
 *   -v            print each comparison's description
 *   -F            full: every mask and language in every style (slow)
 *   -P            print the records (stdout) instead of comparing them
 *   -S            keep VITA_SHAPER as it is for the compared process
 *                 (VITA_SHAPER=stats: the fast path with counts)
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "font.h"
#include "t.h"
#include "unicode.h"
#include "utf8.h"

/* ---- strings ---- */

typedef struct strv {
	char **v;
	int n, cap;
	char **set;             /* open-addressing set of v's strings */
	int setcap;
} strv_t;

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static void strv_grow(strv_t *v)
{
	int ocap = v->setcap;
	char **old = v->set;
	v->setcap = ocap ? 2 * ocap : 1024;
	v->set = calloc((size_t)v->setcap, sizeof(*v->set));
	for (int i = 0; i < ocap; i++) {
		if (!old[i])
			continue;
		unsigned h = (unsigned)fnv(old[i], strlen(old[i])) & (unsigned)(v->setcap - 1);
		while (v->set[h])
			h = (h + 1) & (unsigned)(v->setcap - 1);
		v->set[h] = old[i];
	}
	free(old);
}

/* Add s[0..n) unless v has it already. */
static void strv_add(strv_t *v, const char *s, size_t n)
{
	if (2 * (v->n + 1) > v->setcap)
		strv_grow(v);
	unsigned m = (unsigned)(v->setcap - 1), h = (unsigned)fnv(s, n) & m;
	for (; v->set[h]; h = (h + 1) & m)
		if (strlen(v->set[h]) == n && !memcmp(v->set[h], s, n))
			return;
	char *c = malloc(n + 1);
	memcpy(c, s, n);
	c[n] = 0;
	v->set[h] = c;
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->v = realloc(v->v, (size_t)v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = c;
}

static void strv_free(strv_t *v)
{
	for (int i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	free(v->set);
	memset(v, 0, sizeof(*v));
}

/* ---- the corpus ---- */

static strv_t lines, words;
static long corpus_files, corpus_bytes;

#define LINE_MAX_BYTES 4000
#define WORD_MAX_BYTES 600

/* One line of input text: valid UTF-8 or nothing; control characters
 * become spaces; NFC (what vita shapes); the line and its words. */
static void corpus_line(const char *s, size_t n)
{
	if (utf8_invalid_at(s, n) >= 0)
		return;
	char *t = malloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		t[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i];
	size_t a = 0, b = k;
	while (a < b && t[a] == ' ')
		a++;
	while (b > a && t[b - 1] == ' ')
		b--;
	size_t len;
	char *nfc = uni_nfc(t + a, b - a, &len);
	const char *u = nfc ? nfc : t + a;
	if (!nfc)
		len = b - a;
	if (len > LINE_MAX_BYTES) {     /* at a code point boundary */
		len = LINE_MAX_BYTES;
		while (len && ((unsigned char)u[len] & 0xc0) == 0x80)
			len--;
	}
	if (len) {
		strv_add(&lines, u, len);
		for (size_t i = 0; i < len;) {
			while (i < len && u[i] == ' ')
				i++;
			size_t j = i;
			while (j < len && u[j] != ' ')
				j++;
			if (j > i && j - i <= WORD_MAX_BYTES)
				strv_add(&words, u + i, j - i);
			i = j;
		}
	}
	free(nfc);
	free(t);
}

static void corpus_text(const char *s, size_t n)
{
	if (memchr(s, 0, n))
		return;         /* binary */
	corpus_files++;
	corpus_bytes += (long)n;
	for (size_t i = 0; i < n;) {
		const char *e = memchr(s + i, '\n', n - i);
		size_t j = e ? (size_t)(e - s) : n;
		corpus_line(s + i, j - i);
		i = j + 1;
	}
}

static void corpus_file(const char *path)
{
	static const char *const skip[] = {".c", ".h", ".sh", ".py", ".png", ".jpg", ".jpeg",
	                                   ".pdf", ".gz", ".bz2", ".ttf", ".otf", ".icc", NULL};
	size_t pl = strlen(path);
	for (int i = 0; skip[i]; i++) {
		size_t l = strlen(skip[i]);
		if (pl >= l && !strcmp(path + pl - l, skip[i]))
			return;
	}
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	static char buf[4 << 20];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	corpus_text(buf, n);
}

/* Every file under path (no tests/unit, scripts, tools, golden: code and
 * outputs, not inputs; no node_modules). */
static void corpus_walk(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (S_ISREG(st.st_mode))
			corpus_file(path);
		return;
	}
	static const char *const no[] = {"tests/unit", "tests/scripts", "tests/tools", "tests/golden",
	                                 NULL};
	for (int i = 0; no[i]; i++)
		if (!strcmp(path, no[i]))
			return;
	if (strstr(path, "node_modules"))
		return;
	DIR *d = opendir(path);
	if (!d)
		return;
	strv_t names = {0};
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			strv_add(&names, de->d_name, strlen(de->d_name));
	closedir(d);
	/* sorted: both processes get the corpus from the parent anyway, but
	   the order of the calls is then the same on every machine */
	for (int i = 1; i < names.n; i++)
		for (int j = i; j > 0 && strcmp(names.v[j - 1], names.v[j]) > 0; j--) {
			char *x = names.v[j];
			names.v[j] = names.v[j - 1];
			names.v[j - 1] = x;
		}
	for (int i = 0; i < names.n; i++) {
		char sub[1024];
		snprintf(sub, sizeof(sub), "%s/%s", path, names.v[i]);
		corpus_walk(sub);
	}
	strv_free(&names);
}

/* The generated CVs: tests/tools/gen_long.py 250, gen_batch.py 100. */
static void corpus_generated(void)
{
	char dir[512], cmd[1200];
	FILE *p = popen("python3 tests/tools/gen_long.py 250", "r");
	if (p) {
		static char buf[4 << 20];
		size_t n = fread(buf, 1, sizeof(buf), p);
		CHECK(pclose(p) == 0 && n > 10000);
		corpus_text(buf, n);
	}
	if (t_tmpdir(dir, sizeof(dir), "shape-diff"))
		return;
	snprintf(cmd, sizeof(cmd), "python3 tests/tools/gen_batch.py 100 '%s' >/dev/null", dir);
	CHECK(system(cmd) == 0);
	corpus_walk(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* ---- the strings built to trip a shaper ---- */

static const char *const trip[] = {
	/* kerning pairs and their neighbours */
	"AV", "AVA", "VAV", "To", "Ty", "Te", "Tr", "Ta", "LT", "LV", "LY", "L'", "P.", "P,", "F.",
	"Y.", "V.", "W.", "r.", "y.", "y,", "f)", "(j", "'A'", "\"A\"", "A'", "‘A’", "“A”", "«A»",
	"‹A›", "„A“", "WAVE", "AWAY", "Yo", "Vo", "We", "Av", "AT", "TA", "AY", "YA", "Kv", "ky",
	"ov", "vo", "T.", "T,", "T-", "Tä", "Tö", "Vö", "Ťo", "Ŧo", "Ýo", "Ʌ", "AVAVAVAVAVAVAVAV",
	"Tomato", "Typography", "LTV", "\"To\"", "(V)", "[Y]", "{T}", "f\"", "f'", "f?", "f!",
	/* figures */
	"0123456789", "1111", "2024–2025", "(2019)", "[12]", "3.14", "1,000", "$100", "€5",
	"£7", "№1", "½", "¼¾", "1/2", "1⁄2", "12⁄34", "a⁄b", "⁄", "3⁄", "⁄4", "x²", "H₂O", "10⁻³",
	"0/0", "0Ø0", "ø", "1st", "2nd", "7:30", "1–2", "−1", "+1", "±2", "#1", "%", "50%",
	"1.2.3", "07.12.2025", "2025-12-01", "1‰", "٣", "१२३",
	/* punctuation and spaces */
	".,;:!?", "…", "—", "–", "-", "‐", "‑", "·", "•", "/", "\\", "()", "[]", "{}", "@", "&",
	"*", "†‡", "§¶", "©®™", "°", "′″", "a b", "a\xc2\xa0" "b", "A\xc2\xa0V", "a\xe2\x80\x89" "b",
	"a\xe2\x80\xafV", "Ab\xc2\xad" "cd", "\xc2\xad", "A\xc2\xadV", "a\xe2\x80\x8b" "b",
	"a\xe2\x81\xa0" "b", "\xef\xbb\xbf" "A", "A\xe2\x80\x8dV", "A\xe2\x80\x8cV", "f\xe2\x80\x8ci",
	"f\xe2\x80\x8di", "\xe2\x80\x8d", "\xe2\x80\x8c", "A\xe2\x80\x8eV", "A\xe2\x80\x8fV",
	"A\xe2\x80\xaaV\xe2\x80\xac", "A\tB", "A  V",
	/* marks: i and j before marks (ccmp dotless forms), stacks */
	"i\xcc\x81", "i\xcc\x88", "i\xcc\x87", "j\xcc\x81", "j\xcc\x8c", "i\xcc\xa3\xcc\x81",
	"ı\xcc\x87", "İ", "ı", "İstanbul", "Iı", "ıi", "Ağrı", "Eskişehir", "Şişli",
	"\xcc\x81", "A\xcc\x8a", "a\xcc\x8a\xcc\x81", "e\xcc\xa3\xcc\x82", "o\xcc\x9b\xcc\x83",
	"Nguyễn", "Việt", "Đặng", "Trường", "Hồ Chí Minh", "ệ", "ặ", "ở", "ữ",
	"e\xcc\x81\xcc\x81\xcc\x81", "x\xcc\x83\xcc\x84\xcc\x85", "q\xcc\xa7", "g\xcc\x8a",
	"a\xcd\xa3", "A\xcd\x8f" "B", "Q\xcc\x81", "n\xcc\x83", "ǹ", "ḿ", "Ṽ",
	"a\xef\xb8\x80", "\xe2\x9c\x93\xef\xb8\x8f", "\xe2\x9c\x93\xef\xb8\x8e",
	/* German, French, Nordic, Polish, Czech, Romanian */
	"Straße", "STRASSE", "Größe", "ẞ", "Äpfel", "Œuvre", "cœur", "Æsir", "æ", "Ångström",
	"Łódź", "Dvořák", "Țară", "Şi", "Ðð", "Þþ", "ŉ", "ĳ", "Ŀl", "ŀ",
	/* ligature candidates (liga, clig, dlig off) */
	"fi", "fl", "ff", "ffi", "ffl", "ft", "fb", "fk", "fj", "st", "ct", "Th", "ﬁ", "ﬂ", "ﬀ",
	"ſt", "ſ", "office", "Affix", "fjord",
	/* small caps material */
	"Hello World", "McDonald", "iPhone", "ÆŒæœß", "ǅ", "ǈ", "ǋ", "Ǳ", "ǆ", "ŉ", "ﬃ",
	/* Greek */
	"Ἀθῆναι", "ΆΈΉΊΌΎΏ", "σς", "Σίσυφος", "ά", "ΐ", "ΰ", "Ὦ", "ᾼ", "ᾳ", "ὓ", "Ἄ", "Τό",
	"ΑΥΤΟ", "ΠΑ", "Γ.", "Ἀ\xcc\x81", "α\xcc\x81", "ω\xcd\x85",
	/* Cyrillic */
	"Щёлково", "йод", "Ё", "ё", "Ї", "ї", "Україна", "ГА", "Тт", "ТА", "Г.", "б", "д", "и\xcc\x86",
	"е\xcc\x88", "и\xcc\x81", "Ѓ", "Ќ", "ђ", "ћ", "Ӂ", "Ӧ", "Ԓ",
	/* other scripts: HarfBuzz's business, but the fast path must know */
	"مرحبا", "محمد", "لا", "ﻻ", "سلام", "العربية", "فارسی", "שָׁלוֹם", "עברית", "שלום",
	"हिन्दी", "क्षत्रिय", "বাংলা", "தமிழ்", "ไทย", "ກາ", "ᄀ", "한국어", "한", "ㄱ", "中文",
	"日本語", "デー", "カ゚", "か\xe3\x82\x99", "こんにちは", "“中”", "‘中’", "中…", "Ａ", "１２",
	"ｶ", "〜", "。", "、", "「中」", "（中）", "中—", "αβγ中", "Ab中", "A中V", "ℵ", "∑", "∫", "√2",
	"→", "⇒", "←", "↔", "✓", "★", "☎", "✉", "♀", "♂", "⚥", "€", "₹", "₽", "฿", "₿",
	"\xef\x80\x80", "\xef\x83\xa0", "\xef\x82\x9b",
	/* Hangul (the fast path: precomposed syllables; HarfBuzz: conjoining
	   jamo, <LV,T> that composes, tone marks) */
	"대한민국", "서울대학교", "김철수", "안녕하세요", "연구원", "박사", "가나다라마바사", "힣",
	"한국어1", "(한)", "한.", "가\xe1\x86\xa8", "\xe1\x84\x80\xe1\x85\xa1", "한\xe3\x80\xae",
	"ㄱㄴㄷ", "한글Hangul", "１２한", "韓國語", "한中", "ｱ한",
	/* Hebrew without points (the fast path: shaped reversed), digits and
	   punctuation of the script alone (not reversed), with points */
	"ירושלים", "אוניברסיטה", "תל־אביב", "צה״ל", "ד׳", "״12", "׳1", "1׳", "כהן", "לוי",
	"אברהם", "מחקר", "AVשלום", "שלוםAV", "ש1", "שָׁ", "בּ",
	/* Arabic as bidi.c gives it (presentation forms, visual order; the
	   fast path), with hamza, digits, letters that join, a shadda */
	"ﻣﺮﺣﺒﺎ", "ﺑﺎﻟﻌﺎﻟﻢ", "ﺍﻟﻌﺮﺑﻴﺔ", "ﻭﺍﻟﺬﻛﺎء", "ﺑﻨﺎء", "ﺃﺣﻤﺪ", "ﻦﺴﺣ", "ﻰﻠﻴﻟ", "١٢٣", "ﺔﻌﻣﺎﺟ١",
	"(ﻦﺴﺣ)", "ﻻ", "ﺏﺏ", "ﻭﺃﺩﺭّﺱ", "ﻣﺮﺣﺒﺎبا", "ﷲ", "ﻙ،", "۱۲",
	/* Armenian, Georgian (the default shaper) */
	"Հայաստան", "Երևան", "ԱՎ", "Տա", "և", "ﬓ", "საქართველო", "თბილისი", "ᲡᲐ", "ა́",
	/* long (past the item cache's 256 bytes) */
	"AVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAV"
	"AVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAV"
	"AVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAVAV"
	"To.",
	"Pneumonoultramicroscopicsilicovolcanoconiosis-Pneumonoultramicroscopicsilicovolcano"
	"coniosis-Pneumonoultramicroscopicsilicovolcanoconiosis-Pneumonoultramicroscopicsilico"
	"volcanoconiosis-Pneumonoultramicroscopicsilicovolcanoconiosis-Pneumonoultramicroscopic"
	"silicovolcanoconiosis-Ty",
	NULL
};

/* Lines (several pieces) built to trip the batching of pieces. */
static const char *const trip_lines[] = {
	"AV To AV To AV To", "To To To To To", "T o", "AV. To, Ty; LT: P. 'A'", "A V A V",
	"Nguyễn Việt Đặng Trường", "office fi fl ffi", "i\xcc\x81 j\xcc\x81 i\xcc\x88",
	"1⁄2 3⁄4 1 ⁄ 2", "2019–2024 (12) [3]", "Hello World Straße", "Ἀθῆναι Щёлково AV",
	"مرحبا AV שלום To", "中文 AV 日本語 To", "AV\xc2\xa0To AV\xe2\x80\x8dTo", "A\xc2\xad V\xc2\xad",
	"A T A\xc2\xa0V", "abcdefghij klmnopqrstuvwxyz", "A# A@ A@1 1A&x", "x\xcc\x83x x\xcc\x81x xx",
	"Anna To", "a  b   c", "김철수 AV 한국어 To", "שלום עולם 123 To", "תל־אביב (2021) צה״ל", "AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV AV",
	NULL
};

/* ---- the records ---- */

static FILE *rec_out;           /* the HarfBuzz child: where it writes */
static FILE *rec_in;            /* the parent: where it reads the child's */
static long ncalls, nmismatch, nglyphs;
static int verbose, print_only;
static font_lib_t *cur_lib;
#define PRINT_MAX 40

typedef struct call {
	const char *chain;
	int style;
	unsigned feats;
	int32_t size;
	const char *lang;
	const char *what;       /* "shape" or "pieces" */
	const char *s;
	const uint32_t *cut;
	int ncut;
} call_t;

static void put32(FILE *f, int32_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

static int get32(FILE *f, int32_t *v)
{
	return fread(v, sizeof(*v), 1, f) == 1;
}

static void glyph_fields(const font_glyph_t *g, int32_t *v)
{
	v[0] = (int32_t)g->cp;
	v[1] = (int32_t)g->off;
	v[2] = g->adv;
	v[3] = g->face;
	v[4] = g->synth;
	v[5] = g->brk;
	v[6] = g->gid;
}

static const char *face_name(int face)
{
	static char buf[4][160];
	static int k;
	char *b = buf[k++ % 4];
	const font_face_info_t *fi = face >= 0 && cur_lib ? font_face_info(cur_lib, face) : NULL;
	snprintf(b, 160, "%d%s%s%s%s", face, fi ? " (" : "", fi ? fi->family : "",
	         fi ? " " : "", fi ? fi->style : "");
	if (fi)
		strcat(b, ")");
	return b;
}

static void print_text(const char *s, size_t n)
{
	fputc('"', stderr);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int l = utf8_next(s + i, n - i, &cp);
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0xad || (cp >= 0x200b && cp <= 0x200f) ||
		    (cp >= 0x202a && cp <= 0x202e) || cp == 0x2060 || cp == 0xfeff || cp == 0xa0 ||
		    (cp >= 0x300 && cp < 0x370) || (cp >= 0xfe00 && cp <= 0xfe0f))
			fprintf(stderr, "\\u%04X", (unsigned)cp);
		else if (cp == '"' || cp == '\\')
			fprintf(stderr, "\\%c", (char)cp);
		else
			fwrite(s + i, 1, (size_t)l, stderr);
		i += (size_t)l;
	}
	fputc('"', stderr);
}

static void print_call(const call_t *c, size_t n)
{
	fprintf(stderr, "  %s chain '%s' style %d feats 0x%x size %d lang %s text ", c->what, c->chain,
	        c->style, c->feats, (int)c->size, c->lang ? c->lang : "NULL");
	print_text(c->s, n);
	if (c->ncut > 1) {
		fprintf(stderr, " cut");
		for (int i = 0; i < c->ncut; i++)
			fprintf(stderr, " %u", (unsigned)c->cut[i]);
	}
	fputc('\n', stderr);
}

/* What call c asked: both processes must make the same calls in the
 * same order (a font API answer that differs between them, such as
 * font_features, makes them part: reported, then the comparison stops). */
static int32_t call_hash(const call_t *c)
{
	char buf[200];
	int l = snprintf(buf, sizeof(buf), "%s|%s|%d|%x|%d|%s|%d", c->what, c->chain, c->style,
	                 c->feats, (int)c->size, c->lang ? c->lang : "", c->ncut);
	uint64_t h = fnv(buf, (size_t)l) ^ fnv(c->s, strlen(c->s));
	return (int32_t)(h ^ (h >> 32));
}

/* Record (child) or compare (parent) the result of call c. */
static void record(const call_t *c, int rc, const font_shaped_t *sh)
{
	ncalls++;
	nglyphs += sh->n;
	int32_t head[4] = {rc, sh->n, sh->width, sh->missing}, hash = call_hash(c);
	if (print_only) {       /* -P: the records, no comparison */
		printf("%s style %d feats 0x%x size %d lang %s: rc %d n %d width %d missing %d\n", c->what,
		       c->style, c->feats, (int)c->size, c->lang ? c->lang : "NULL", rc, sh->n, sh->width,
		       sh->missing);
		for (int k = 0; k < sh->n; k++) {
			int32_t v[7];
			glyph_fields(&sh->g[k], v);
			printf("  U+%04X off %d adv %d face %d synth %d brk %d gid %d\n", (unsigned)v[0], v[1],
			       v[2], v[3], v[4], v[5], v[6]);
		}
		return;
	}
	if (rec_out) {
		put32(rec_out, hash);
		for (int i = 0; i < 4; i++)
			put32(rec_out, head[i]);
		for (int k = 0; k < sh->n; k++) {
			int32_t v[7];
			glyph_fields(&sh->g[k], v);
			fwrite(v, sizeof(v), 1, rec_out);
		}
		return;
	}
	size_t n = strlen(c->s);
	if (verbose)
		print_call(c, n);
	int32_t exp[4], ehash;
	if (!get32(rec_in, &ehash)) {
		fprintf(stderr, "the HarfBuzz process ended before call %ld\n", ncalls);
		exit(1);
	}
	if (ehash != hash) {
		fprintf(stderr, "DESYNC at call %ld: the HarfBuzz process made another call here than\n", ncalls);
		print_call(c, n);
		fprintf(stderr, "(a font API answer differs between them: see the mismatch before)\n");
		exit(1);
	}
	for (int i = 0; i < 4; i++)
		if (!get32(rec_in, &exp[i])) {
			fprintf(stderr, "the HarfBuzz process ended before call %ld\n", ncalls);
			exit(1);
		}
	int32_t (*eg)[7] = malloc(((size_t)exp[1] + 1) * sizeof(*eg));
	if (exp[1] < 0 || fread(eg, sizeof(*eg), (size_t)exp[1], rec_in) != (size_t)exp[1]) {
		fprintf(stderr, "the HarfBuzz process ended in call %ld\n", ncalls);
		exit(1);
	}
	int same = !memcmp(head, exp, sizeof(head));
	for (int k = 0; same && k < sh->n; k++) {
		int32_t v[7];
		glyph_fields(&sh->g[k], v);
		same = !memcmp(v, eg[k], sizeof(v));
	}
	if (!same && nmismatch++ < PRINT_MAX) {
		fprintf(stderr, "MISMATCH (expected: VITA_SHAPER=harfbuzz; got: the fast path)\n");
		print_call(c, n);
		fprintf(stderr, "  rc/n/width/missing: expected %d %d %d %d, got %d %d %d %d\n", exp[0],
		        exp[1], exp[2], exp[3], head[0], head[1], head[2], head[3]);
		int m = sh->n > exp[1] ? sh->n : exp[1];
		for (int k = 0; k < m; k++) {
			int32_t v[7] = {0}, *e = k < exp[1] ? eg[k] : NULL;
			if (k < sh->n)
				glyph_fields(&sh->g[k], v);
			int diff = !e || k >= sh->n || memcmp(v, e, sizeof(v));
			fprintf(stderr, "  %c [%d] ", diff ? '*' : ' ', k);
			if (e)
				fprintf(stderr, "U+%04X off %d adv %d face %s synth %d brk %d gid %d", (unsigned)e[0],
				        e[1], e[2], face_name(e[3]), e[4], e[5], e[6]);
			if (diff && k < sh->n)
				fprintf(stderr, "%s got U+%04X off %d adv %d face %s synth %d brk %d gid %d",
				        e ? " |" : "", (unsigned)v[0], v[1], v[2], face_name(v[3]), v[4], v[5],
				        v[6]);
			fputc('\n', stderr);
		}
	}
	free(eg);
}

static void call_shape(font_chain_t *ch, const char *chain, int style, unsigned feats,
                       int32_t size, const char *lang, const char *s, int width)
{
	font_shaped_t sh;
	errs_t e;
	font_shaped_init(&sh);
	errs_init(&e);
	size_t n = strlen(s);
	int rc = font_shape_feat(ch, style, size, lang, feats, s, n, &sh, &e);
	call_t c = {chain, style, feats, size, lang, "font_shape_feat", s, NULL, 1};
	record(&c, rc, &sh);
	/* font_width_feat must say the same width */
	if (!width) {
		font_shaped_done(&sh);
		errs_done(&e);
		return;
	}
	int32_t w = font_width_feat(ch, style, size, lang, feats, s, n);
	sh.n = 0;
	sh.width = w;
	sh.missing = 0;
	c.what = "font_width_feat";
	record(&c, 0, &sh);
	font_shaped_done(&sh);
	errs_done(&e);
}

/* s cut as inline.c cuts a span: a word and the spaces after it. */
static void call_pieces(font_chain_t *ch, const char *chain, int style, unsigned feats,
                        int32_t size, const char *lang, const char *s)
{
	size_t n = strlen(s);
	uint32_t *cut = malloc((n + 1) * sizeof(*cut));
	int ncut = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && s[j] != ' ')
			j++;
		while (j < n && s[j] == ' ')
			j++;
		cut[ncut++] = (uint32_t)j;
		i = j;
	}
	if (!ncut)
		cut[ncut++] = 0;
	font_shaped_t sh;
	errs_t e;
	font_shaped_init(&sh);
	errs_init(&e);
	int rc = font_shape_pieces(ch, style, size, lang, feats, s, cut, ncut, &sh, &e);
	call_t c = {chain, style, feats, size, lang, "font_shape_pieces", s, cut, ncut};
	record(&c, rc, &sh);
	font_shaped_done(&sh);
	errs_done(&e);
	free(cut);
}

/* font_features of chain ch in style st, as a record (width: the mask)
 * before the calls that depend on it. */
static void record_features(font_chain_t *ch, const char *chain, int st)
{
	static const unsigned all = FONT_FEAT_SMCP | FONT_FEAT_C2SC | FONT_FEAT_ONUM |
	                            FONT_FEAT_LNUM | FONT_FEAT_TNUM | FONT_FEAT_PNUM;
	font_shaped_t sh;
	font_shaped_init(&sh);
	sh.width = (int32_t)font_features(ch, st, all);
	call_t c = {chain, st, all, 0, NULL, "font_features", "", NULL, 1};
	record(&c, 0, &sh);
}

static int families_listed;     /* the families are fontconfig's (no -f) */

/* Whether to shape with mask m: when the face has some of it; with -f
 * (a few fonts, maybe broken ones) always, so the calls do not depend on
 * font_features, whose answers are compared (record_features). */
static int has_feats(font_chain_t *ch, int st, unsigned m)
{
	return !families_listed || font_features(ch, st, m) != 0;
}

/* ---- the workload (the same in both processes) ---- */

#define BIG 1000000     /* 1000 pt: a font unit shows */
#define BODY 9800

static const unsigned fig_masks[] = {
	FONT_FEAT_ONUM, FONT_FEAT_LNUM | FONT_FEAT_TNUM, FONT_FEAT_ONUM | FONT_FEAT_TNUM,
	FONT_FEAT_TNUM, FONT_FEAT_LNUM, FONT_FEAT_PNUM | FONT_FEAT_ONUM,
};
#define NFIG (sizeof(fig_masks) / sizeof(fig_masks[0]))

static int has_digit(const char *s)
{
	return strpbrk(s, "0123456789") != NULL;
}

/* The language(s) s is shaped in: en, and for text with CJK code points
 * (or the quotes that take a CJK face beside them) each CJK language. */
static int text_langs(const char *s, const char **out)
{
	int n = 0;
	out[n++] = "en";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0xe2) {
			out[n++] = "zh";
			out[n++] = "zh-Hant";
			out[n++] = "ja";
			out[n++] = "ko";
			out[n++] = NULL;
			break;
		}
	return n;
}

/* Every call for s in chain ch: styles (light ones where real), masks
 * the face has, the languages, both sizes for words. With all (or -F),
 * every mask in every style and language; else the regular style with
 * every mask and language (the feature and face-picking code does not
 * depend on the style) and one other style in turn, plain (under the
 * sanitizers the whole set takes too long for make test). */
static int full;

static void calls_for(font_chain_t *ch, const char *chain, const char *s0, int pieces, int all)
{
	static const int styles[] = {FONT_REGULAR, FONT_BOLD, FONT_ITALIC, FONT_BOLD_ITALIC,
	                             FONT_LIGHT, FONT_LIGHT_ITALIC};
	size_t nfclen;
	char *nfc = uni_nfc(s0, strlen(s0), &nfclen);
	const char *s = nfc ? nfc : s0;
	const char *langs[8];
	int nl = text_langs(s, langs);
	all |= full;
	/* without all: the regular style and one other in turn */
	static unsigned turn;
	int other = 1 + (int)(turn++ % 5);
	for (int si = 0; si < 6; si++) {
		int st = styles[si];
		if (st & FONT_LIGHT && !font_style_real(ch, st))
			continue;
		if (!all && si && si != other)
			continue;
		unsigned masks[3 + NFIG];
		int nm = 0;
		masks[nm++] = 0;
		record_features(ch, chain, st);
		if ((all || !si) && has_feats(ch, st, FONT_FEAT_SMCP))
			masks[nm++] = FONT_FEAT_SMCP;
		if ((all || !si) && has_feats(ch, st, FONT_FEAT_C2SC))
			masks[nm++] = FONT_FEAT_SMCP | FONT_FEAT_C2SC;
		if ((all || !si) && has_digit(s))
			for (unsigned k = 0; k < NFIG; k++)
				if (has_feats(ch, st, fig_masks[k]))
					masks[nm++] = fig_masks[k];
		for (int mi = 0; mi < nm; mi++)
			for (int li = 0; li < nl; li++) {
				/* the other languages only pick faces: the plain mask */
				if (li && (mi || (si && !all)))
					continue;
				if (pieces) {
					call_pieces(ch, chain, st, masks[mi], BODY, langs[li], s);
				} else {
					call_shape(ch, chain, st, masks[mi], BIG, langs[li], s, !mi && !li);
					if (!mi && !li && (all || !si))
						call_shape(ch, chain, st, 0, BODY, langs[li], s, 0);
				}
			}
	}
	free(nfc);
}

static font_lib_t *lib_new(void)
{
	static const char *const fdirs[] = {"fonts", NULL};
	errs_t e;
	errs_init(&e);
	font_lib_t *lib = font_lib_new(fdirs, &e);
	if (!lib)
		errs_print(stderr, &e);
	errs_done(&e);
	cur_lib = lib;
	return lib;
}

static font_chain_t *chain_get(font_lib_t *lib, const char *name)
{
	errs_t e;
	errs_init(&e);
	font_chain_t *c = font_chain_get(lib, name, &e);
	errs_done(&e);
	return c;
}

static const char *const main_chains[] = {"serif", "sans", NULL};

/* The corpus: the lines (pieces) in one library, the words (alone) in a
 * fresh one, so neither finds the other's items in the cache. */
static void work_corpus(void)
{
	font_lib_t *lib = lib_new();
	for (int c = 0; main_chains[c]; c++) {
		font_chain_t *ch = chain_get(lib, main_chains[c]);
		for (int i = 0; ch && i < lines.n; i++)
			calls_for(ch, main_chains[c], lines.v[i], 1, 0);
	}
	font_lib_free(lib);
	lib = lib_new();
	for (int c = 0; main_chains[c]; c++) {
		font_chain_t *ch = chain_get(lib, main_chains[c]);
		for (int i = 0; ch && i < words.n; i++)
			calls_for(ch, main_chains[c], words.v[i], 0, 0);
	}
	errs_t e;
	errs_init(&e);
	font_chain_t *icons = font_chain_get(lib, "icons", &e);
	errs_done(&e);
	for (int i = 0; icons && trip[i]; i++)
		call_shape(icons, "icons", FONT_REGULAR, 0, BIG, "en", trip[i], 1);
	font_lib_free(lib);
}

/* ---- faces: random strings from each face's cmap ---- */

static uint32_t rng = 20261201;

static uint32_t rnd(uint32_t k)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % k;
}

static const uint32_t scan[][2] = {
	{0x20, 0x7e}, {0xa0, 0x36f}, {0x370, 0x3ff}, {0x400, 0x52f}, {0x1e00, 0x1fff},
	{0x2000, 0x20cf}, {0x2100, 0x218f}, {0xfb00, 0xfb06},
};

/* Beyond them: the BMP's other scripts, symbols, kana, a sample of Han and
 * Hangul syllables, presentation forms. */
static const uint32_t native[][2] = {
	{0x530, 0x1dff}, {0x2190, 0x2dff}, {0x2e80, 0x33ff}, {0x4e00, 0x4e7f}, {0xa000, 0xabff},
	{0xac00, 0xac7f}, {0xf900, 0xf9ff}, {0xfb07, 0xfffd},
};

/* The code points of Latin, Greek and Cyrillic (and punctuation) that
 * face `face` draws in chain ch, style st: those font_face_for gives it. */
static int face_cmap(font_chain_t *ch, int st, int face, uint32_t *cps, int max)
{
	int n = 0;
	for (size_t r = 0; r < sizeof(scan) / sizeof(scan[0]); r++)
		for (uint32_t cp = scan[r][0]; cp <= scan[r][1] && n < max; cp++)
			if (font_face_for(ch, st, NULL, cp) == face)
				cps[n++] = cp;
	return n;
}

static int is_mark_cp(uint32_t cp)
{
	return uni_is_mark(cp);
}

/* A random string of 1..maxlen code points of cps (marks only after a
 * base), NFC, into out. */
static void random_string(const uint32_t *cps, int n, int maxlen, int space, char *out)
{
	char buf[256];
	size_t k = 0;
	int len = 1 + (int)rnd((uint32_t)maxlen);
	for (int i = 0; i < len; i++) {
		uint32_t cp = cps[rnd((uint32_t)n)];
		if (is_mark_cp(cp) && !i)
			continue;
		if (space && i && !rnd(5))
			cp = ' ';
		k += (size_t)utf8_encode(cp, buf + k);
	}
	size_t m;
	char *nfc = uni_nfc(buf, k, &m);
	if (nfc) {
		memcpy(out, nfc, m);
		free(nfc);
	} else {
		memcpy(out, buf, k);
		m = k;
	}
	out[m] = 0;
}

/* Words around the lengths where a shaper may change its ways (256
 * code points, 256 bytes): kerning pairs of one and two bytes, the last
 * one or a mark at the end. */
static void long_words(font_chain_t *ch, const char *chain)
{
	static const char *const unit[] = {"AV", "To", "ΑΥ", "ГА", "Vo"};
	static const int lens[] = {127, 128, 129, 255, 256, 257, 300};
	char s[1400];
	/* a few given families: the Latin pair only (they are Noto Serif) */
	size_t nu = families_listed ? sizeof(unit) / sizeof(unit[0]) : 1;
	for (size_t u = 0; u < nu; u++)
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
			for (int end = 0; end < 3; end++) {
				size_t k = 0, ul = strlen(unit[u]) / 2;     /* bytes per code point */
				for (int i = 0; i < lens[l]; i++) {
					memcpy(s + k, unit[u] + (i % 2) * ul, ul);
					k += ul;
				}
				if (end == 1)
					k += (size_t)utf8_encode(0x303, s + k);
				else if (end == 2)
					s[k++] = '.';
				s[k] = 0;
				call_shape(ch, chain, FONT_REGULAR, 0, BIG, "en", s, 1);
				call_pieces(ch, chain, FONT_REGULAR, 0, BODY, "en", s);
			}
}

#define NRANDOM 24

/* Random and built strings in chain ch (the family's face first). */
static void work_face(font_chain_t *ch, const char *chain, const char *family, int all)
{
	static const int styles[] = {FONT_REGULAR, FONT_BOLD, FONT_ITALIC, FONT_BOLD_ITALIC,
	                             FONT_LIGHT};
	static uint32_t cps[4096], sel[4096];
	for (int si = 0; si < 5; si++) {
		int st = styles[si];
		if (st == FONT_LIGHT && !font_style_real(ch, st))
			continue;
		/* the face: the one the family's first covered code point gets */
		int face = -1;
		for (size_t r = 0; r < sizeof(scan) / sizeof(scan[0]) && face < 0; r++)
			for (uint32_t cp = scan[r][0]; cp <= scan[r][1] && face < 0; cp++) {
				int f = font_face_for(ch, st, NULL, cp);
				const font_face_info_t *fi = f >= 0 ? font_face_info(cur_lib, f) : NULL;
				if (fi && !strcasecmp(fi->family, family))
					face = f;
			}
		int n = face >= 0 ? face_cmap(ch, st, face, cps, 4096) : 0;
		for (int i = 0; all && !si && trip[i]; i++)
			calls_for(ch, chain, trip[i], 0, 1);
		for (int i = 0; all && !si && trip_lines[i]; i++)
			calls_for(ch, chain, trip_lines[i], 1, 1);
		if (!si && (all || !families_listed))
			long_words(ch, chain);
		if (!all && (!si || full)) {    /* the built strings in each family's regular face */
			record_features(ch, chain, st);
			for (int i = 0; trip[i]; i++) {
				call_shape(ch, chain, st, 0, BIG, "en", trip[i], 0);
				if (has_feats(ch, st, FONT_FEAT_SMCP))
					call_shape(ch, chain, st, FONT_FEAT_SMCP | FONT_FEAT_C2SC, BIG, "en",
					           trip[i], 0);
			}
		}
		if (!n)
			continue;
		/* letters and punctuation (kerning), digits (figures), all */
		int nl = 0, nd = 0;
		for (int i = 0; i < n; i++)
			if (cps[i] >= 0x41 && !(cps[i] >= 0x5b && cps[i] <= 0x60) && cps[i] <= 0x7a)
				sel[nl++] = cps[i];
		const char *punct = ".,;:'\"()-";
		for (int i = 0; punct[i] && nl; i++)
			if (font_face_for(ch, st, NULL, (uint32_t)punct[i]) == face)
				sel[nl++] = (uint32_t)punct[i];
		char s[1100];
		for (int r = 0; r < NRANDOM && nl; r++) {
			random_string(sel, nl, 3, 0, s);
			calls_for(ch, chain, s, 0, 0);
		}
		for (int i = 0; i < n; i++)
			if ((cps[i] >= '0' && cps[i] <= '9') || cps[i] == '.' || cps[i] == ',' ||
			    cps[i] == 0x2044 || cps[i] == '/')
				sel[nd++] = cps[i];
		for (int r = 0; r < NRANDOM / 4 && nd; r++) {
			random_string(sel, nd, 6, 0, s);
			calls_for(ch, chain, s, 0, 1);
		}
		for (int r = 0; r < NRANDOM; r++) {
			random_string(cps, n, 10, 0, s);
			calls_for(ch, chain, s, 0, 0);
		}
		for (int r = 0; r < NRANDOM / 4; r++) {
			random_string(cps, n, 40, 1, s);
			calls_for(ch, chain, s, 1, 0);
		}
		/* the face's other scripts (its regular style): whatever
		   HarfBuzz's shaper for them does, the fast path must give */
		if (si)
			continue;
		n = 0;
		for (size_t r = 0; r < sizeof(native) / sizeof(native[0]); r++)
			for (uint32_t cp = native[r][0]; cp <= native[r][1] && n < 4096; cp++)
				if (font_face_for(ch, st, NULL, cp) == face)
					cps[n++] = cp;
		for (int r = 0; r < NRANDOM && n; r++) {
			random_string(cps, n, 8, 0, s);
			calls_for(ch, chain, s, 0, 0);
		}
		for (int r = 0; r < NRANDOM / 4 && n; r++) {
			random_string(cps, n, 30, 1, s);
			calls_for(ch, chain, s, 1, 0);
		}
	}
}

static strv_t families;         /* -f, else fontconfig's */
static int nfaces_done, nfaces_skipped;

static void work_faces(int builtin_chains)
{
	font_lib_t *lib = lib_new();
	for (int c = 0; builtin_chains && main_chains[c]; c++) {
		font_chain_t *ch = chain_get(lib, main_chains[c]);
		const char *fam[1];
		if (ch && font_chain_families(ch, fam, 1) == 1)
			work_face(ch, main_chains[c], fam[0], 1);
	}
	for (int i = 0; i < families.n; i++) {
		/* a library per few families: the face table stays small */
		if (i % 16 == 15) {
			font_lib_free(lib);
			lib = lib_new();
		}
		font_chain_t *ch = chain_get(lib, families.v[i]);
		if (!ch) {
			if (verbose && !rec_out)
				fprintf(stderr, "not loaded: %s\n", families.v[i]);
			nfaces_skipped++;
			continue;
		}
		nfaces_done++;
		work_face(ch, families.v[i], families.v[i], 0);
	}
	font_lib_free(lib);
}

/* The families fontconfig lists (one line each), sorted. */
static void list_families(void)
{
	FILE *p = popen("fc-list -f '%{family[0]}\\n' | sort -u", "r");
	char line[512];
	while (p && fgets(line, sizeof(line), p)) {
		size_t n = strcspn(line, "\n");
		if (n && !strchr(line, ','))
			strv_add(&families, line, n);
	}
	if (p)
		pclose(p);
}

static const char *only_text;
static int keep_env;

static void work(int corpus, int faces, int builtin)
{
	if (only_text) {
		font_lib_t *lib = lib_new();
		for (int c = 0; builtin && main_chains[c]; c++) {
			font_chain_t *ch = chain_get(lib, main_chains[c]);
			if (ch) {
				calls_for(ch, main_chains[c], only_text, 0, 1);
				calls_for(ch, main_chains[c], only_text, 1, 1);
			}
		}
		for (int i = 0; i < families.n; i++) {
			font_chain_t *ch = chain_get(lib, families.v[i]);
			if (ch) {
				calls_for(ch, families.v[i], only_text, 0, 1);
				calls_for(ch, families.v[i], only_text, 1, 1);
			}
		}
		font_lib_free(lib);
		return;
	}
	if (corpus)
		work_corpus();
	long c0 = ncalls;
	if (faces)
		work_faces(builtin);
	if (!rec_out)
		fprintf(stderr, "corpus %ld calls, faces %ld calls\n", c0, ncalls - c0);
}

int main(int argc, char **argv)
{
	int corpus = 1, opt;
	while ((opt = getopt(argc, argv, "t:f:qvFPS")) != -1) {
		if (opt == 't')
			only_text = optarg;
		else if (opt == 'f') {
			strv_add(&families, optarg, strlen(optarg));
			corpus = 0;
		} else if (opt == 'q')
			corpus = 0;
		else if (opt == 'v')
			verbose = 1;
		else if (opt == 'F')
			full = 1;
		else if (opt == 'P')
			print_only = 1;
		else if (opt == 'S')
			keep_env = 1;
		else {
			fprintf(stderr, "usage: test_shape_diff [-t TEXT] [-f FAMILY]... [-q] [-v] [-F] [-P] [-S]\n");
			return 2;
		}
	}
	int builtin = !families.n;
	if (!families.n && !only_text) {
		list_families();
		families_listed = 1;
	}
	if (print_only) {
		work(0, 1, builtin);
		return 0;
	}
	if (corpus && !only_text) {
		static const char *const roots[] = {"profiles", "examples", "tests", "locales",
		                                    "layouts", NULL};
		for (int i = 0; roots[i]; i++)
			corpus_walk(roots[i]);
		corpus_generated();
		CHECK(words.n > 1000);
	}
	/* no font call before the fork: the variable is read once */
	if (!keep_env)
		unsetenv("VITA_SHAPER");
	fflush(NULL);
	int fd[2];
	if (pipe(fd)) {
		perror("pipe");
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		close(fd[0]);
		setenv("VITA_SHAPER", "harfbuzz", 1);
		rec_out = fdopen(fd[1], "wb");
		work(corpus, 1, builtin);
		fclose(rec_out);
		_exit(0);
	}
	close(fd[1]);
	rec_in = fdopen(fd[0], "rb");
	work(corpus, 1, builtin);
	int32_t extra;
	CHECK(!get32(rec_in, &extra));  /* the child made no more calls */
	fclose(rec_in);
	int status;
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	fprintf(stderr,
	        "%ld files (%ld bytes): %d lines, %d words; %d families (%d not loaded); "
	        "%ld calls, %ld glyphs compared; %ld mismatches\n",
	        corpus_files, corpus_bytes, lines.n, words.n, nfaces_done, nfaces_skipped, ncalls,
	        nglyphs, nmismatch);
	if (nmismatch)
		t_fail++;
	t_run++;
	strv_free(&lines);
	strv_free(&words);
	strv_free(&families);
	return t_report();
}
