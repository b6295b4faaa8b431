/* fuzz_thai: libFuzzer target for thai.c's two readers: of libthai's
 * word list (a libdatrie trie file, thbrk.tri, compiled by our own
 * reader) and of the compiled form (the cache file, used in place
 * without a checksum: see thai.c). At start the installed
 * /usr/share/libthai/thbrk.tri (or $LIBTHAI_DICTDIR's) is read and
 * compiled; an input is byte 0 (bit 0: damage the compiled form, else
 * the .tri, which is then compiled again: slower; bit 1: patches may
 * reach the compiled form's header too, which mostly makes it rejected),
 * then patches of 4 bytes (a 24-bit offset into the file, a byte to put
 * there), then any bytes, read as Thai letters (byte b: U+0E01 + b % 91)
 * broken as one more run. Fixed Thai sentences and that run are broken
 * through the damaged dictionary: any crash, hang or out-of-bounds read
 * is a bug, and the breaks must stay ascending and inside the run (which
 * breaks is not checked: damaged words give other ones). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "file.h"
#include "thai.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static buf_t tri, comp;
static uint32_t text[8][256];
static int textn[8];

static void make_bases(void)
{
	static const char *const s[8] = {
		"สวัสดีครับ ผมชื่อสมชาย ใจดี เป็นนักวิจัยที่จุฬาลงกรณ์มหาวิทยาลัย",
		"ปริญญาเอกวิทยาการคอมพิวเตอร์กรุงเทพมหานครประเทศไทย",
		"การเรียนรู้ของเครื่องและการประมวลผลภาษาธรรมชาติ๒๕๖๗ๆฯ฿๑๐๐",
		"กขฃคฅฆงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรลวศษสหฬอฮ",
		"เเเเแแแโโโใใไไ่่่้้้๊๊๋๋็็์์ํํ๎๎ัััิิีีึึืืุุูู",
		"ฤๅษีฦๅฤทธิ์พระพุทธเจ้าเกียรตินิยมอันดับหนึ่ง",
		"วิจัยเรื่องการบีบอัดแบบจำลองและการเร่งการอนุมานบนหน่วยประมวลผลกราฟิก",
		"๏ ๚ะ ๛ กรุงเทพฯ ฯลฯ มากๆ",
	};
	const char *dir = getenv("LIBTHAI_DICTDIR");
	char path[512];
	snprintf(path, sizeof(path), "%s/thbrk.tri", dir ? dir : "/usr/share/libthai");
	buf_init(&tri);
	buf_init(&comp);
	if (file_read(&tri, path, 64u << 20, NULL) ||
	    thai_dict_compile((const unsigned char *)tri.s, tri.len, &comp)) {
		fprintf(stderr, "fuzz_thai: cannot read or compile %s\n", path);
		exit(2);
	}
	for (int k = 0; k < 8; k++) {
		size_t len = strlen(s[k]);
		for (size_t i = 0; i < len && textn[k] < 256;) {
			uint32_t c;
			int l = utf8_decode(s[k] + i, len - i, &c);
			if (l <= 0)
				break;
			text[k][textn[k]++] = c;
			i += (size_t)l;
		}
	}
}

static void check(const thai_dict_t *d, const uint32_t *cp, int n)
{
	int pos[1024];
	if (n > 1024)
		n = 1024;
	for (int i = 0; i < n;) {   /* its Thai runs, as inline.c cuts them */
		int j = i;
		while (j < n && thai_is(cp[j]))
			j++;
		int k = thai_dict_breaks(d, cp + i, j - i, pos, j - i);
		if (k < 0 || k > j - i)
			abort();
		for (int q = 0; q < k; q++)
			if (pos[q] < 1 || pos[q] >= j - i || (q && pos[q] <= pos[q - 1]))
				abort();
		i = j + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!tri.s)
		make_bases();
	if (size < 1)
		return 0;
	int of_comp = data[0] & 1, head = (data[0] & 2) != 0;
	const buf_t *src = of_comp ? &comp : &tri;
	size_t n = src->len, from = of_comp && !head ? 312 : 0, i = 1;   /* 312: the header */
	unsigned char *w = malloc(n);   /* exactly n: ASan sees any read past it */
	memcpy(w, src->s, n);
	for (; i + 4 <= size && n > from && i < 4 * 64; i += 4) {
		size_t at = ((size_t)data[i] << 16 | (size_t)data[i + 1] << 8 | data[i + 2]) % (n - from);
		w[from + at] = data[i + 3];
	}
	buf_t c2;
	buf_init(&c2);
	thai_dict_t *d = NULL;
	if (of_comp) {
		d = thai_dict_use(w, n);
	} else if (thai_dict_compile(w, n, &c2) == 0) {
		d = thai_dict_use(c2.s, c2.len);
		if (!d)
			abort();          /* what we compiled we must be able to use */
	}
	if (d) {
		uint32_t run[512];
		int rn = 0;
		for (size_t k = i; k < size && rn < 512; k++)
			run[rn++] = 0xE01 + data[k] % 91;
		for (int k = 0; k < 8; k++)
			check(d, text[k], textn[k]);
		check(d, run, rn);
		thai_dict_free(d);
	}
	buf_done(&c2);
	free(w);
	return 0;
}
