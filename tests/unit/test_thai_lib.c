/* test_thai_lib: thai.c's own word breaking over its compiled dictionary
 * gives the breaks libthai gives (th_brk_wc_find_breaks, what vita used
 * before), run for run, over a corpus of Thai text; skipped when
 * libthai.so.0 or its dictionary is not installed (libthai is loaded
 * here with dlopen: vita itself neither links nor loads it).
 *
 * The corpus, cut into runs of Thai text as inline.c cuts a paragraph
 * (thai_is):
 *  - every line with Thai text in the repository's locales, tests,
 *    profiles, docs and README (the generated th CV's text is in
 *    tests/tools/gen_scripts.py), and the files named on the command
 *    line;
 *  - sentences made of the dictionary's own words (drawn at random, and
 *    words that are prefixes of longer ones), with made-up syllables
 *    (unknown words, names) between them, Thai and Latin digits, mai
 *    yamok, paiyannoi, the baht sign, fongman and the end marks;
 *  - the words of the repository's text shuffled into new sentences;
 *  - CV-like lines: Thai names, places, institutions, dates (Thai and
 *    Buddhist-era years), with Latin words and digits around them;
 *  - random strings of Thai letters (no words at all: libthai's
 *    recovery from unknown text).
 * The dictionary is compiled twice: from the .tri in memory, and through
 * the cache file (thai_dict_default, a private $XDG_CACHE_HOME), and both
 * must give libthai's breaks, and so must thai_breaks (what inline.c
 * calls: the cached dictionary and the memo of runs), asked twice. */
#include <dirent.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include "buf.h"
#include "file.h"
#include "thai.h"
#include "utf8.h"
#include "t.h"

typedef struct th_brk_lib th_brk_lib;
static th_brk_lib *(*lib_new)(const char *);
static int (*lib_breaks)(th_brk_lib *, const wchar_t *, int *, size_t);
static th_brk_lib *lib;
static const thai_dict_t *mem_dict, *file_dict;

static uint64_t rnd_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

static long runs, letters, diffs, breaks_seen;

static void show(const char *who, const int *p, int k)
{
	fprintf(stderr, "  %s:", who);
	for (int i = 0; i < k; i++)
		fprintf(stderr, " %d", p[i]);
	fprintf(stderr, "\n");
}

static void put_utf8(const uint32_t *cp, int n)
{
	buf_t b;
	buf_init(&b);
	for (int i = 0; i < n; i++) {
		char u[4];
		int l = utf8_encode(cp[i], u);
		buf_add(&b, u, (size_t)l);
	}
	fprintf(stderr, "  run: %s\n", b.s ? b.s : "");
	buf_done(&b);
}

/* One run of Thai text: libthai's breaks inside it (as thai.c's filter
 * keeps them) against ours, from both dictionaries. */
static void check_run(const uint32_t *cp, int n)
{
	if (n < 2)
		return;
	wchar_t *w = malloc(((size_t)n + 1) * sizeof(*w));
	int *a = malloc((size_t)n * sizeof(int)), *b = malloc((size_t)n * sizeof(int));
	for (int i = 0; i < n; i++)
		w[i] = (wchar_t)cp[i];
	w[n] = 0;
	int ka = lib_breaks(lib, w, a, (size_t)n), ka2 = 0;
	for (int i = 0; i < ka; i++)
		if (a[i] > 0 && a[i] < n)
			a[ka2++] = a[i];
	/* the compiled dictionary, the cached one, and thai_breaks (its
	   memo of runs: twice, the second from the memo) */
	for (int pass = 0; pass < 4; pass++) {
		const thai_dict_t *d = pass ? file_dict : mem_dict;
		int kb = pass < 2 ? thai_dict_breaks(d, cp, n, b, n) : thai_breaks(cp, n, b, n), kb2 = 0;
		for (int i = 0; i < kb; i++)
			if (b[i] > 0 && b[i] < n)
				b[kb2++] = b[i];
		if (kb2 != ka2 || memcmp(a, b, (size_t)ka2 * sizeof(int))) {
			if (diffs++ < 20) {
				fprintf(stderr, "differs (%s):\n", (const char *const[]){"compiled dictionary",
				        "cached dictionary", "thai_breaks", "thai_breaks again"}[pass]);
				put_utf8(cp, n);
				show("libthai", a, ka2);
				show("vita", b, kb2);
			}
		}
	}
	runs++;
	letters += n;
	breaks_seen += ka2;
	free(w);
	free(a);
	free(b);
}

/* A line of any text: its Thai runs. */
static void check_cps(const uint32_t *cp, int n)
{
	for (int i = 0; i < n;) {
		int j = i;
		while (j < n && thai_is(cp[j]))
			j++;
		if (j > i)
			check_run(cp + i, j - i);
		i = j + 1;
	}
}

/* The words of the real text, for shuffled sentences. */
static uint32_t *vocab;
static int nvocab, capvocab;
static int vstart[20000], vlen[20000], nv;

static void add_vocab(const uint32_t *cp, int n)
{
	if (nv >= 20000 || n > 40)
		return;
	if (nvocab + n > capvocab) {
		capvocab = (capvocab + n) * 2;
		vocab = realloc(vocab, (size_t)capvocab * sizeof(*vocab));
	}
	memcpy(vocab + nvocab, cp, (size_t)n * sizeof(*cp));
	vstart[nv] = nvocab;
	vlen[nv++] = n;
	nvocab += n;
}

static void check_utf8(const char *s, size_t len)
{
	uint32_t *cp = calloc(len + 1, sizeof(*cp));
	int n = 0;
	for (size_t i = 0; i < len;) {
		uint32_t c = 0;
		int l = utf8_decode(s + i, len - i, &c);
		if (l <= 0) {
			i++;
			continue;
		}
		cp[n++] = c;
		i += (size_t)l;
	}
	check_cps(cp, n);
	/* libthai's words of its Thai runs, for the shuffled sentences */
	for (int i = 0; i < n;) {
		int j = i;
		while (j < n && thai_is(cp[j]))
			j++;
		if (j - i >= 2) {
			wchar_t w[512];
			int pos[512], m = j - i < 511 ? j - i : 511, prev = 0;
			for (int k = 0; k < m; k++)
				w[k] = (wchar_t)cp[i + k];
			w[m] = 0;
			int k = lib_breaks(lib, w, pos, 512);
			for (int q = 0; q <= k; q++) {
				int e = q < k ? pos[q] : m;
				if (e > prev)
					add_vocab(cp + i + prev, e - prev);
				prev = e;
			}
		}
		i = j + 1;
	}
	free(cp);
}

static int has_thai(const char *s, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if ((unsigned char)s[i] == 0xE0 && ((unsigned char)s[i + 1] == 0xB8 || (unsigned char)s[i + 1] == 0xB9))
			return 1;
	return 0;
}

static void check_file(const char *path)
{
	buf_t b;
	buf_init(&b);
	if (file_read(&b, path, FILE_MAX_TEXT, NULL) == 0 && b.s && has_thai(b.s, b.len)) {
		for (char *l = b.s, *e; l < b.s + b.len; l = e + 1) {
			e = memchr(l, '\n', (size_t)(b.s + b.len - l));
			if (!e)
				e = b.s + b.len;
			if (has_thai(l, (size_t)(e - l)))
				check_utf8(l, (size_t)(e - l));
		}
	}
	buf_done(&b);
}

static void walk_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char p[1024];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk_dir(p);
		else if (S_ISREG(st.st_mode) && st.st_size < (4 << 20) && !strstr(p, ".png") &&
		         !strstr(p, ".pdf") && !strstr(p, ".ttf") && !strstr(p, ".otf"))
			check_file(p);
	}
	if (d)
		closedir(d);
}

/* The dictionary's words. */
static uint32_t *dw;
static int *dws, *dwl, ndw, capdw, capw, ndwc;
static void on_word(const uint32_t *w, int n, void *arg)
{
	(void)arg;
	if (ndw == capw) {
		capw = capw ? 2 * capw : 4096;
		dws = realloc(dws, (size_t)capw * sizeof(int));
		dwl = realloc(dwl, (size_t)capw * sizeof(int));
	}
	if (ndwc + n > capdw) {
		capdw = (capdw + n) * 2;
		dw = realloc(dw, (size_t)capdw * sizeof(*dw));
	}
	memcpy(dw + ndwc, w, (size_t)n * sizeof(*w));
	dws[ndw] = ndwc;
	dwl[ndw++] = n;
	ndwc += n;
}

typedef struct {
	uint32_t c[2048];
	int n;
} line_t;

static void put(line_t *l, const uint32_t *c, int n)
{
	for (int i = 0; i < n && l->n < 2048; i++)
		l->c[l->n++] = c[i];
}

static void put_str(line_t *l, const char *s)
{
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t c;
		int k = utf8_decode(s + i, len - i, &c);
		if (k <= 0)
			break;
		put(l, &c, 1);
		i += (size_t)k;
	}
}

/* A made-up syllable: an optional leading vowel, one or two consonants,
 * a vowel, maybe a tone mark and a final consonant. */
static void syllable(line_t *l)
{
	static const uint32_t cons[] = {0xE01, 0xE02, 0xE04, 0xE07, 0xE08, 0xE0A, 0xE0B, 0xE14,
	                                0xE15, 0xE17, 0xE19, 0xE1A, 0xE1B, 0xE1E, 0xE1F, 0xE21,
	                                0xE22, 0xE23, 0xE25, 0xE27, 0xE2A, 0xE2B, 0xE2D, 0xE2E};
	static const uint32_t lead[] = {0xE40, 0xE41, 0xE42, 0xE43, 0xE44};
	static const uint32_t vow[] = {0xE30, 0xE31, 0xE32, 0xE33, 0xE34, 0xE35, 0xE36, 0xE37, 0xE38, 0xE39};
	uint32_t c;
	if (rnd(3) == 0) {
		c = lead[rnd(5)];
		put(l, &c, 1);
	}
	c = cons[rnd(24)];
	put(l, &c, 1);
	if (rnd(5) == 0) {
		c = rnd(2) ? 0xE23 : 0xE25;
		put(l, &c, 1);
	}
	if (rnd(4)) {
		c = vow[rnd(10)];
		put(l, &c, 1);
	}
	if (rnd(3) == 0) {
		c = 0xE48 + rnd(4);
		put(l, &c, 1);
	}
	if (rnd(2)) {
		c = cons[rnd(24)];
		put(l, &c, 1);
	}
	if (rnd(12) == 0) {
		c = 0xE4C;    /* thanthakhat */
		put(l, &c, 1);
	}
}

static void dict_word(line_t *l)
{
	int i = (int)rnd((unsigned)ndw);
	put(l, dw + dws[i], dwl[i]);
}

/* A word that is a prefix of the next word in letter order (a fork in
 * the search), or any word. */
static void prefix_word(line_t *l)
{
	for (int t = 0; t < 20; t++) {
		int i = (int)rnd((unsigned)(ndw - 1));
		if (dwl[i + 1] > dwl[i] && !memcmp(dw + dws[i], dw + dws[i + 1], (size_t)dwl[i] * 4)) {
			put(l, dw + dws[i], dwl[i]);
			return;
		}
	}
	dict_word(l);
}

static void extra(line_t *l)
{
	static const char *const x[] = {"๑๒๓", "2567", "๒๕๖๗", "ๆ", "ฯ", "฿", "๏", "๚", "๛", "ฯลฯ",
	                                " ", "-", "(", ")", "AI", "ML ", "ปี 2020", ", ", "๐.๕",
	                                "มหาวิทยาลัย", "ดร.", "ม.ค.", "พ.ศ. ๒๕๖๖", "C++", "ๆ ", "฿๑๐๐"};
	put_str(l, x[rnd(sizeof(x) / sizeof(*x))]);
}

static void sentences(int count)
{
	for (int s = 0; s < count; s++) {
		line_t l = {.n = 0};
		int words = 1 + (int)rnd(25), mode = (int)rnd(6);
		for (int w = 0; w < words; w++) {
			unsigned r = rnd(100);
			if (mode == 0 && nv) {   /* the repository's words shuffled */
				int i = (int)rnd((unsigned)nv);
				put(&l, vocab + vstart[i], vlen[i]);
			} else if (mode == 1) {   /* no words at all */
				syllable(&l);
			} else if (r < 55) {
				dict_word(&l);
			} else if (r < 70) {
				prefix_word(&l);
			} else if (r < 85) {
				syllable(&l);
			} else {
				extra(&l);
			}
			if (mode == 2 && rnd(4) == 0)
				put_str(&l, " ");
		}
		check_cps(l.c, l.n);
	}
}

/* CV-like lines: names, places, institutions, dates. */
static void cv_lines(int count)
{
	static const char *const first[] = {"สมชาย", "สมหญิง", "ณัฐพล", "กนกวรรณ", "ธนากร", "พิมพ์ชนก",
	                                    "วรวุฒิ", "ศิริพร", "จิรายุ", "ปวีณา", "อนุชา", "ชลธิชา"};
	static const char *const last[] = {"ใจดี", "ศรีสุข", "วงศ์สวัสดิ์", "ทองคำ", "บุญมา", "แก้วประเสริฐ",
	                                   "รัตนพันธ์", "สุวรรณภูมิ", "พรหมมา", "จันทร์เพ็ญ"};
	static const char *const place[] = {"กรุงเทพมหานคร", "เชียงใหม่", "ขอนแก่น", "ภูเก็ต", "นครราชสีมา",
	                                    "หาดใหญ่", "สงขลา", "อุบลราชธานี", "ประเทศไทย", "ญี่ปุ่น"};
	static const char *const inst[] = {"จุฬาลงกรณ์มหาวิทยาลัย", "มหาวิทยาลัยมหิดล", "มหาวิทยาลัยเกษตรศาสตร์",
	                                   "สถาบันเทคโนโลยีพระจอมเกล้าเจ้าคุณทหารลาดกระบัง",
	                                   "ศูนย์เทคโนโลยีอิเล็กทรอนิกส์และคอมพิวเตอร์แห่งชาติ",
	                                   "บริษัท ปตท. จำกัด (มหาชน)", "ธนาคารแห่งประเทศไทย"};
	static const char *const role[] = {"นักวิจัย", "อาจารย์ประจำภาควิชาวิศวกรรมคอมพิวเตอร์",
	                                   "วิศวกรซอฟต์แวร์อาวุโส", "ผู้ช่วยศาสตราจารย์", "นักศึกษาปริญญาเอก",
	                                   "หัวหน้าฝ่ายวิเคราะห์ข้อมูล", "ที่ปรึกษาด้านการเรียนรู้ของเครื่อง"};
	static const char *const month[] = {"มกราคม", "กุมภาพันธ์", "มีนาคม", "เมษายน", "พฤษภาคม", "มิถุนายน",
	                                    "กรกฎาคม", "สิงหาคม", "กันยายน", "ตุลาคม", "พฤศจิกายน", "ธันวาคม"};
	for (int i = 0; i < count; i++) {
		line_t l = {.n = 0};
		char tmp[64];
		switch (rnd(5)) {
		case 0:
			put_str(&l, rnd(2) ? "นาย" : rnd(2) ? "นางสาว" : "ดร.");
			put_str(&l, first[rnd(12)]);
			put_str(&l, rnd(2) ? " " : "");
			put_str(&l, last[rnd(10)]);
			break;
		case 1:
			put_str(&l, role[rnd(7)]);
			put_str(&l, rnd(2) ? " " : "");
			put_str(&l, inst[rnd(7)]);
			put_str(&l, rnd(2) ? " " : "");
			put_str(&l, place[rnd(10)]);
			break;
		case 2:
			snprintf(tmp, sizeof(tmp), "%u ", 1 + rnd(28));
			put_str(&l, tmp);
			put_str(&l, month[rnd(12)]);
			snprintf(tmp, sizeof(tmp), rnd(2) ? " %u" : "%u", 2540 + rnd(30));
			put_str(&l, tmp);
			put_str(&l, rnd(2) ? " ถึงปัจจุบัน" : "–");
			put_str(&l, month[rnd(12)]);
			break;
		case 3:
			put_str(&l, "ได้รับรางวัล");
			put_str(&l, rnd(2) ? "Best Paper" : "ผลงานวิจัยดีเด่น");
			put_str(&l, "จากการประชุมวิชาการ");
			put_str(&l, rnd(2) ? "ACL" : "นานาชาติ");
			put_str(&l, "ครั้งที่");
			snprintf(tmp, sizeof(tmp), "%u", 1 + rnd(40));
			put_str(&l, tmp);
			put_str(&l, "ณ");
			put_str(&l, place[rnd(10)]);
			break;
		default:
			put_str(&l, first[rnd(12)]);
			put_str(&l, last[rnd(10)]);
			put_str(&l, role[rnd(7)]);
			put_str(&l, inst[rnd(7)]);
			for (int k = 0; k < 3; k++)
				syllable(&l);
			put_str(&l, place[rnd(10)]);
			break;
		}
		check_cps(l.c, l.n);
	}
}

TEST(test_corpus)
{
	/* the repository's text */
	static const char *const dirs[] = {"locales", "tests", "profiles", "docs", "examples"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		walk_dir(dirs[i]);
	check_file("README.md");
	long real_runs = runs;
	CHECK(real_runs > 50);      /* th.yaml, thai.yaml, gen_scripts.py at least */
	sentences(20000);
	cv_lines(5000);
	fprintf(stderr, "thai: %ld runs (%ld from the repository), %ld letters, %ld breaks, "
	        "%d dictionary words, %ld differ\n", runs, real_runs, letters, breaks_seen, ndw, diffs);
	EQ_INT(diffs, 0);
}

TEST(test_dictionary)
{
	/* every word alone is one word; two words side by side break
	   between them where libthai does (check_run compares) */
	CHECK(ndw > 20000);
	for (int i = 0; i < ndw; i += 7)
		check_run(dw + dws[i], dwl[i]);
	EQ_INT(thai_dict_words(mem_dict), ndw);
	EQ_INT(thai_dict_words(file_dict), ndw);
	EQ_INT(diffs, 0);
}

int main(int argc, char **argv)
{
	void *h = dlopen("libthai.so.0", RTLD_NOW | RTLD_LOCAL);
	if (h) {
		*(void **)&lib_new = dlsym(h, "th_brk_new");
		*(void **)&lib_breaks = dlsym(h, "th_brk_wc_find_breaks");
	}
	lib = lib_new && lib_breaks ? lib_new(NULL) : NULL;
	if (!lib) {
		fprintf(stderr, "test_thai_lib: skipped (no libthai.so.0 or no dictionary)\n");
		return t_report();
	}
	/* the dictionary libthai reads, compiled in memory */
	const char *dir = getenv("LIBTHAI_DICTDIR");
	char tri[512];
	snprintf(tri, sizeof(tri), "%s/thbrk.tri", dir ? dir : "/usr/share/libthai");
	buf_t raw, comp;
	buf_init(&raw);
	buf_init(&comp);
	CHECK(file_read(&raw, tri, 64u << 20, NULL) == 0);
	CHECK(thai_dict_compile((const unsigned char *)raw.s, raw.len, &comp) == 0);
	mem_dict = thai_dict_use(comp.s, comp.len);   /* comp kept: mem_dict's nodes */
	buf_done(&raw);
	/* and through the cache file, in a private cache directory */
	char cache[512], thc[600];
	if (t_tmpdir(cache, sizeof(cache), "test_thai_lib"))
		return 1;
	setenv("XDG_CACHE_HOME", cache, 1);
	unsetenv("VITA_NO_THAI_CACHE");
	file_dict = thai_dict_default();
	snprintf(thc, sizeof(thc), "%s/vita/thbrk.tri.thc", cache);
	struct stat st;
	CHECK(dir || stat(thc, &st) == 0);   /* (another list's file has a hash in its name) */
	unlink(thc);
	snprintf(thc, sizeof(thc), "%s/vita", cache);
	rmdir(thc);
	rmdir(cache);
	if (!mem_dict || !file_dict) {
		fprintf(stderr, "test_thai_lib: no dictionary compiled\n");
		return 1;
	}
	thai_dict_each(mem_dict, on_word, NULL);
	for (int i = 1; i < argc; i++)
		check_file(argv[i]);
	RUN(test_dictionary);
	RUN(test_corpus);
	return t_report();
}
