/* test_sfnt_file: a font file read by pieces (sfnt_file_*) gives the
 * file's bytes where asked, and what sfnt_hb_* read from it (a face's
 * glyph per code point, advance per glyph) is what HarfBuzz's own font
 * functions give on the whole mapped file (and a glyf face's ink boxes),
 * for every installed face the
 * fast path takes (a sample of code points and glyphs; every BMP code
 * point and glyph of the faces vita's chains name). Also: a subset cut
 * from a file read by pieces is the one cut from the whole file. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hb.h>
#include "t.h"
#include "sfnt.h"

typedef struct walk_st {
	int files, faces, fast, bad;
	long compared, inked;
} walk_st_t;

static walk_st_t walk;

/* The faces whose every BMP code point and glyph is compared. */
static int full_face(const char *path)
{
	static const char *const names[] = {"NotoSerif-Regular.ttf", "NotoSerif-Bold.ttf",
	                                    "NotoSerif-Italic.ttf", "NotoSans-Regular.ttf",
	                                    "NotoSerifCJK-Regular.ttc", "DejaVuSans.ttf"};
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(b, names[i]))
			return 1;
	return 0;
}

/* Face idx of path by pieces against HarfBuzz on the mapped file; the
 * number of differences (each printed, the first few). */
static int face_same(const char *path, const unsigned char *p, size_t n, int idx)
{
	char why[300];
	sfnt_file_t *f = sfnt_file_open(path, why, sizeof(why));
	if (!f)
		return 1;
	sfnt_hb_t *h = calloc(1, sizeof(*h));
	int bad = 0;
	if (sfnt_hb_cmap(f, idx, h) == 0) {
		walk.fast++;
		hb_blob_t *blob = hb_blob_create((const char *)p, (unsigned)n, HB_MEMORY_MODE_READONLY,
		                                 NULL, NULL);
		hb_face_t *face = hb_face_create(blob, (unsigned)idx);
		hb_font_t *font = hb_font_create(face);
		unsigned upem = hb_face_get_upem(face);
		hb_font_set_scale(font, (int)upem, (int)upem);
		int all = full_face(path);
		uint32_t step = all ? 1 : 127, top = all ? 0x10000 : 0x30000;
		for (uint32_t cp = 0; cp < top && bad < 5; cp += step) {
			hb_codepoint_t g = 0;
			if (!hb_font_get_nominal_glyph(font, cp, &g))
				g = 0;
			unsigned ours = sfnt_hb_glyph(h, cp);
			walk.compared++;
			if (ours != g) {
				fprintf(stderr, "  %s %d: U+%04X glyph %u, HarfBuzz %u\n", path, idx,
				        (unsigned)cp, ours, (unsigned)g);
				bad++;
			}
		}
		for (unsigned g = 0; g < h->nglyphs && bad < 5; g += all ? 1 : 61) {
			hb_position_t a = hb_font_get_glyph_h_advance(font, g);
			walk.compared++;
			if ((hb_position_t)sfnt_hb_advance(h, g) != a) {
				fprintf(stderr, "  %s %d: glyph %u advance %u, HarfBuzz %d\n", path, idx, g,
				        sfnt_hb_advance(h, g), a);
				bad++;
			}
		}
		for (unsigned g = 0; g < h->nglyphs + 2 && bad < 5; g += all ? 1 : 61) {
			hb_glyph_extents_t he;
			int32_t e[4];
			int r = sfnt_hb_extents(h, g, e);
			if (r < 0)
				break; /* not a glyf face read so: HarfBuzz answers */
			int hr = hb_font_get_glyph_extents(font, g, &he);
			walk.compared++;
			walk.inked++;
			if (r != hr || (hr && (e[0] != he.x_bearing || e[1] != he.y_bearing ||
			                       e[2] != he.width || e[3] != he.height))) {
				fprintf(stderr, "  %s %d: glyph %u box %d %d,%d %dx%d, HarfBuzz %d %d,%d %dx%d\n",
				        path, idx, g, r, e[0], e[1], e[2], e[3], hr, he.x_bearing,
				        he.y_bearing, he.width, he.height);
				bad++;
			}
		}
		hb_font_destroy(font);
		hb_face_destroy(face);
		hb_blob_destroy(blob);
	}
	free(h);
	sfnt_file_close(f);
	return bad;
}

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *w)
{
	(void)w;
	size_t l = strlen(path);
	if (type != FTW_F || l < 4 || (strcasecmp(path + l - 4, ".ttf") && strcasecmp(path + l - 4, ".otf") &&
	                               strcasecmp(path + l - 4, ".ttc")))
		return 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || st->st_size < 12) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	size_t n = (size_t)st->st_size;
	const unsigned char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	walk.files++;
	int nfaces = memcmp(p, "ttcf", 4) ? 1 : (int)((unsigned)p[10] << 8 | p[11]);
	for (int i = 0; i < nfaces && i < 64; i++) {
		char why[256];
		if (sfnt_check(p, n, i, why, sizeof(why)) != 0)
			continue; /* vita refuses it before loading */
		walk.faces++;
		walk.bad += face_same(path, p, n, i);
	}
	munmap((void *)p, n);
	return 0;
}

TEST(hb_funcs)
{
	memset(&walk, 0, sizeof(walk));
	nftw("/usr/share/fonts", walk_one, 16, FTW_PHYS);
	fprintf(stderr, "  hb_funcs: %d files, %d faces, %d read by pieces, %ld lookups (%ld ink "
	        "boxes), %d differences\n", walk.files, walk.faces, walk.fast, walk.compared,
	        walk.inked, walk.bad);
	CHECK(walk.inked > 0);
	CHECK(walk.fast > 0);
	EQ_INT(walk.bad, 0);
}

/* The bytes asked for are the file's, the others zero, and nothing but
 * whole blocks around what was asked is read. */
TEST(pieces)
{
	char dir[256], path[300], why[300];
	if (t_tmpdir(dir, sizeof(dir), "sfnt-file") != 0) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof(path), "%s/f.bin", dir);
	enum { N = 5 * 4096 + 100 };
	unsigned char *d = malloc(N);
	for (int i = 0; i < N; i++)
		d[i] = (unsigned char)(i * 7 + 1);
	FILE *o = fopen(path, "wb");
	CHECK(o && fwrite(d, 1, N, o) == N);
	if (o)
		fclose(o);
	sfnt_file_t *f = sfnt_file_open(path, why, sizeof(why));
	CHECK(f != NULL);
	if (f) {
		size_t n;
		const unsigned char *p = sfnt_file_bytes(f, &n);
		EQ_INT(n, N);
		sfnt_file_need(f, p + 4096 + 10, 5000); /* blocks 1 and 2 */
		sfnt_file_need(f, p + N - 3, 50);         /* past the end: cut */
		CHECK(!memcmp(p + 4096, d + 4096, 2 * 4096));
		CHECK(!memcmp(p + 5 * 4096, d + 5 * 4096, 100));
		int zero = 1;
		for (int i = 0; i < 4096; i++)
			zero &= p[i] == 0 && p[3 * 4096 + i] == 0;
		CHECK(zero);
		sfnt_file_need(f, p - 1, 10);             /* outside: nothing */
		sfnt_file_need(f, p + N, 10);
		CHECK(p[0] == 0);
		/* shared (sfnt_file_ref): open until the last close; dropped:
		   zero until asked for again, then the file's bytes */
		CHECK(sfnt_file_ref(f) == f);
		sfnt_file_close(f);
		CHECK(!memcmp(p + 4096, d + 4096, 2 * 4096));
		sfnt_file_drop(f);
		CHECK(p[4096] == 0 && p[2 * 4096 + 7] == 0 && p[5 * 4096] == 0);
		sfnt_file_need(f, p + 2 * 4096 + 7, 1);
		CHECK(!memcmp(p + 2 * 4096, d + 2 * 4096, 4096));
		CHECK(p[4096] == 0);
		sfnt_file_close(f);
	}
	CHECK(sfnt_file_open("/nonexistent/font.ttf", why, sizeof(why)) == NULL);
	CHECK(strstr(why, "cannot open font file") != NULL);
	unlink(path);
	rmdir(dir);
	free(d);
}

/* A subset of the CJK collection and of Noto Serif cut from the file read
 * by pieces is byte for byte the one cut from the mapped file. */
TEST(subset_same)
{
	static const char *const files[] = {"/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
	                                    "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"};
	static const uint32_t cps[] = {0x41, 0x61, 0xe9, 0x4e2d, 0x5f20, 0x6587, 0x7af9, 0x9f99};
	for (int k = 0; k < 2; k++) {
		char why[300];
		int fd = open(files[k], O_RDONLY);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0) {
			fprintf(stderr, "  subset_same: %s not installed: skipped\n", files[k]);
			if (fd >= 0)
				close(fd);
			continue;
		}
		size_t n = (size_t)st.st_size;
		const unsigned char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		sfnt_file_t *f = sfnt_file_open(files[k], why, sizeof(why));
		CHECK(p != MAP_FAILED && f != NULL);
		if (p == MAP_FAILED || !f)
			continue;
		unsigned char *a = NULL, *b = NULL;
		size_t an = 0, bn = 0;
		uint16_t gids[1] = {3}, na[1], nb[1];
		int idx = k == 0 ? 1 : 0;
		CHECK(sfnt_subset(p, n, idx, cps, 8, gids, 1, na, &a, &an, why, sizeof(why)) == 0);
		CHECK(sfnt_subset_file(f, idx, cps, 8, gids, 1, nb, &b, &bn, why, sizeof(why)) == 0);
		CHECK(an > 0 && an == bn && !memcmp(a, b, an) && na[0] == nb[0]);
		free(a);
		free(b);
		sfnt_file_close(f);
		munmap((void *)p, n);
	}
}

int main(void)
{
	RUN(pieces);
	RUN(subset_same);
	RUN(hb_funcs);
	return t_report();
}
