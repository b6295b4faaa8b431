/* sfnt_file: a font file read by pieces (see include/sfnt.h): a private
 * anonymous mapping of the file's size whose 4 KiB blocks are read with
 * pread when first asked for. The lowest of the sfnt files: it calls none
 * of them (sfnt.c, sfnt_cff.c and sfnt_glyf.c ask it for bytes). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "arena.h"
#include "file.h"
#include "sfnt_int.h"

#define TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

sfnt_file_t *sfnt_file_open(const char *path, char *why, size_t whysz)
{
	size_t size = 0;
	const char *whyf;
	int fd = file_open(path, FILE_MAX_BINARY, &size, &whyf);
	if (fd < 0) {
		snprintf(why, whysz, "cannot open font file: %s", whyf);
		return NULL;
	}
	sfnt_file_t *f = xcalloc(1, sizeof(*f));
	f->refs = 1;
	f->fd = fd;
	f->n = size;
	f->p = (unsigned char *)"";
	if (size) {
		/* not malloc: a 26 MB block may come from the heap, and be
		   cleared (touched) whole */
		void *m = mmap(NULL, size, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (m == MAP_FAILED) {
			snprintf(why, whysz, "cannot read font file: %s", strerror(errno));
			close(fd);
			free(f);
			return NULL;
		}
		f->p = m;
		f->have = xcalloc((size + SFNT_BLOCK - 1) / SFNT_BLOCK / 8 + 1, 1);
	}
	return f;
}

const unsigned char *sfnt_file_bytes(const sfnt_file_t *f, size_t *n)
{
	*n = f->n;
	return f->p;
}

static int block_have(const sfnt_file_t *f, size_t b)
{
	return f->have[b / 8] >> (b % 8) & 1;
}

/* Blocks [b, e] from the file (a short read leaves zeros: the file
 * changed since it was checked). */
static void block_read(sfnt_file_t *f, size_t b, size_t e)
{
	size_t at = b * SFNT_BLOCK, end = (e + 1) * SFNT_BLOCK < f->n ? (e + 1) * SFNT_BLOCK : f->n;
	file_pread(f->fd, f->p + at, end - at, at);
	for (size_t i = b; i <= e; i++)
		f->have[i / 8] |= (uint8_t)(1u << (i % 8));
}

void sfnt_file_need(sfnt_file_t *f, const unsigned char *p, size_t len)
{
	if (!f || !len || (uintptr_t)p < (uintptr_t)f->p)
		return;
	size_t off = (size_t)((uintptr_t)p - (uintptr_t)f->p);
	if (off >= f->n)
		return;
	if (len > f->n - off)
		len = f->n - off;
	size_t b = off / SFNT_BLOCK, e = (off + len - 1) / SFNT_BLOCK;
	while (b <= e) {
		if (block_have(f, b)) {
			b++;
			continue;
		}
		size_t k = b; /* one read for a run of blocks not read yet */
		while (k < e && !block_have(f, k + 1))
			k++;
		block_read(f, b, k);
		b = k + 1;
	}
}

void sfnt_file_copy(sfnt_file_t *f, const unsigned char *p, size_t len, unsigned char *dst)
{
	size_t off = (size_t)((uintptr_t)p - (uintptr_t)f->p), n = 0;
	if (off < f->n) {
		n = len < f->n - off ? len : f->n - off;
		int have = 1;
		for (size_t b = off / SFNT_BLOCK; n && b <= (off + n - 1) / SFNT_BLOCK; b++)
			have &= block_have(f, b);
		if (have)
			memcpy(dst, p, n);
		else
			n = file_pread(f->fd, dst, n, off);
	}
	memset(dst + n, 0, len - n);
}

/* The table directory of face index in f (read), or 0 with *ok 0. */
uint32_t sfnt_file_dir(sfnt_file_t *f, int index, int *ok)
{
	const unsigned char *p = f->p;
	uint32_t dir = 0;
	*ok = 0;
	sfnt_file_need(f, p, 12);
	if (f->n < 12)
		return 0;
	if (be32(p) == TAG('t', 't', 'c', 'f')) {
		if (index < 0 || 16 + 4 * (uint64_t)index > f->n)
			return 0;
		sfnt_file_need(f, p + 12 + 4 * (size_t)index, 4);
		dir = be32(p + 12 + 4 * (size_t)index);
	}
	if ((uint64_t)dir + 12 > f->n)
		return 0;
	sfnt_file_need(f, p + dir, 12);
	sfnt_file_need(f, p + dir + 12, 16 * (size_t)be16(p + dir + 4));
	*ok = (uint64_t)dir + 12 + 16 * (uint64_t)be16(p + dir + 4) <= f->n;
	return dir;
}

void sfnt_file_face(sfnt_file_t *f, int index)
{
	int ok;
	uint32_t dir = sfnt_file_dir(f, index, &ok);
	if (!ok)
		return;
	unsigned nt = be16(f->p + dir + 4);
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *r = f->p + dir + 12 + 16 * (size_t)i;
		uint32_t tag = be32(r), o = be32(r + 8), l = be32(r + 12);
		if (tag == TAG('p', 'o', 's', 't'))
			l = l < 32 ? l : 32;
		else if (tag != TAG('h', 'e', 'a', 'd') && tag != TAG('h', 'h', 'e', 'a') &&
		         tag != TAG('m', 'a', 'x', 'p') && tag != TAG('O', 'S', '/', '2') &&
		         tag != TAG('n', 'a', 'm', 'e'))
			continue;
		sfnt_file_need(f, f->p + o, l);
	}
}

const unsigned char *sfnt_file_table(sfnt_file_t *f, int index, uint32_t tag, size_t *len)
{
	const unsigned char *t = sfnt_file_find(f, index, tag, len);
	if (t)
		sfnt_file_need(f, t, *len);
	return t;
}

const unsigned char *sfnt_file_find(sfnt_file_t *f, int index, uint32_t tag, size_t *len)
{
	int ok;
	uint32_t dir = sfnt_file_dir(f, index, &ok);
	*len = 0;
	if (!ok)
		return NULL;
	unsigned nt = be16(f->p + dir + 4);
	for (unsigned i = 0; i < nt; i++) {
		const unsigned char *r = f->p + dir + 12 + 16 * (size_t)i;
		uint32_t o = be32(r + 8), l = be32(r + 12);
		if (be32(r) != tag)
			continue;
		if (o >= f->n || l == 0)
			return NULL;
		*len = l < f->n - o ? l : f->n - o;
		return f->p + o;
	}
	return NULL;
}

sfnt_file_t *sfnt_file_ref(sfnt_file_t *f)
{
	f->refs++;
	return f;
}

void sfnt_file_drop(sfnt_file_t *f)
{
	if (!f || !f->n)
		return;
	madvise(f->p, f->n, MADV_DONTNEED);   /* private anonymous: zero again */
	memset(f->have, 0, (f->n + SFNT_BLOCK - 1) / SFNT_BLOCK / 8 + 1);
}

void sfnt_file_close(sfnt_file_t *f)
{
	if (!f || --f->refs > 0)
		return;
	if (f->n)
		munmap(f->p, f->n);
	close(f->fd);
	free(f->have);
	free(f);
}
