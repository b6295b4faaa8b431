/* Unit tests for deps (recording, Make quoting), ofile (hidden temporary,
 * NAME_MAX, commit and abort, the output-is-an-input check) and
 * page_doc_append (the lab book). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "deps.h"
#include "ofile.h"
#include "page.h"
#include "t.h"

static char dir[256];

static int count_entries(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

TEST(test_deps)
{
	deps_add("ignored.yaml");            /* not recording */
	EQ_INT(deps_count(), 0);
	deps_start();
	deps_add("cv.yaml");
	deps_add("my file#1.bib");
	deps_add("cv.yaml");                 /* once */
	deps_add("a$b:c.png");
	EQ_INT(deps_count(), 3);
	EQ_STR(deps_get(1), "my file#1.bib");
	buf_t b;
	buf_init(&b);
	deps_make_text(&b, "out dir/cv.pdf");
	EQ_STR(b.s, "out\\ dir/cv.pdf: \\\n cv.yaml \\\n my\\ file\\#1.bib \\\n a$$b\\:c.png\n"
	            "\ncv.yaml:\n\nmy\\ file\\#1.bib:\n\na$$b\\:c.png:\n");
	buf_done(&b);
	deps_start();                        /* a new render forgets the last */
	EQ_INT(deps_count(), 0);
	deps_stop();
}

TEST(test_ofile)
{
	errs_t e;
	errs_init(&e);
	char path[600];
	snprintf(path, sizeof(path), "%s/out.pdf", dir);
	ofile_t *o = ofile_open(path, "the PDF", &e);
	CHECK(o != NULL);
	EQ_INT(count_entries(), 1);          /* the temporary, hidden */
	DIR *d = opendir(dir);
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			CHECK(!strncmp(de->d_name, ".out.pdf.", 9) && strlen(de->d_name) == 15);
	closedir(d);
	CHECK(write(ofile_fd(o), "x", 1) == 1);
	EQ_INT(ofile_close(o, 1, &e), 0);
	struct stat st;
	CHECK(stat(path, &st) == 0 && st.st_size == 1);
	EQ_INT(count_entries(), 1);
	/* abort: the target stays as it was, the temporary goes */
	o = ofile_open(path, "the PDF", &e);
	CHECK(write(ofile_fd(o), "yy", 2) == 2);
	EQ_INT(ofile_close(o, 0, &e), 0);
	CHECK(stat(path, &st) == 0 && st.st_size == 1);
	EQ_INT(count_entries(), 1);
	/* a 255-byte name: the temporary's name is cut to fit */
	char lng[600];
	int n = snprintf(lng, sizeof(lng), "%s/", dir);
	memset(lng + n, 'n', 251);
	strcpy(lng + n + 251, ".pdf");
	o = ofile_open(lng, "the PDF", &e);
	CHECK(o != NULL);
	if (o)
		EQ_INT(ofile_close(o, 1, &e), 0);
	CHECK(stat(lng, &st) == 0);
	EQ_INT(count_entries(), 2);
	unlink(lng);
	/* the same file under another name is one of the inputs */
	char alias[600];
	snprintf(alias, sizeof(alias), "%s/./out.pdf", dir);
	const char *ins[2] = {"/nonexistent", alias};
	int which = -1;
	EQ_INT(ofile_is_one_of(path, ins, 2, 2, &which), 1);
	EQ_INT(which, 1);
	EQ_INT(ofile_is_one_of("-", ins, 2, 2, &which), 0);
	/* a kept input (from index fresh on) is the file first seen under its
	   name: another file given that name later is not it, the first one
	   under another name still is */
	char kept[600], alias2[600], repl[600];
	snprintf(kept, sizeof(kept), "%s/kept.yaml", dir);
	snprintf(alias2, sizeof(alias2), "%s/link.pdf", dir);
	snprintf(repl, sizeof(repl), "%s/repl.yaml", dir);
	FILE *kf = fopen(kept, "w");
	CHECK(kf && fputs("k", kf) >= 0 && fclose(kf) == 0);
	CHECK(link(kept, alias2) == 0);
	const char *kin[1] = {kept};
	EQ_INT(ofile_is_one_of(kept, kin, 1, 0, &which), 1);
	kf = fopen(repl, "w");
	CHECK(kf && fputs("r", kf) >= 0 && fclose(kf) == 0);
	CHECK(rename(repl, kept) == 0);
	EQ_INT(ofile_is_one_of(kept, kin, 1, 0, &which), 0);
	EQ_INT(ofile_is_one_of(alias2, kin, 1, 0, &which), 1);
	EQ_INT(ofile_is_one_of(kept, kin, 1, 1, &which), 1);   /* looked up now */
	unlink(kept);
	unlink(alias2);
	/* a missing directory: an exit-3 error naming the file */
	o = ofile_open("/nonexistent-dir/x.pdf", "the PDF", &e);
	CHECK(o == NULL);
	EQ_INT(errs_code(&e), 3);
	unlink(path);
	errs_done(&e);
}

TEST(test_append)
{
	page_doc_t *a = page_doc_new(1000, 2000), *b = page_doc_new(1000, 2000);
	page_t *p = page_add(b);
	page_run(p, &(page_run_t){.x = 1, .y = 2, .text = "hello", .len = 5, .face = 0});
	page_add(b);
	page_mark(b, "Education", 1, 300);
	EQ_INT(page_doc_append(a, b, "Ada"), 0);
	EQ_INT(page_doc_append(a, b, "Bob"), 0);
	EQ_INT(a->npages, 4);
	EQ_INT(a->nmarks, 4);
	EQ_STR(a->marks[2].title, "Bob");
	EQ_INT(a->marks[2].page, 2);
	EQ_INT(a->marks[2].level, 0);
	EQ_INT(a->marks[3].page, 3);
	EQ_INT(a->marks[3].level, 1);
	EQ_INT(a->pages[2].n, 1);
	CHECK(a->pages[2].items[0].u.run.text != b->pages[0].items[0].u.run.text); /* copied */
	page_doc_t *c = page_doc_new(1000, 3000);
	EQ_INT(page_doc_append(a, c, "Other size"), -1);
	page_doc_free(a);
	page_doc_free(b);
	page_doc_free(c);
}

int main(void)
{
	if (t_tmpdir(dir, sizeof(dir), "vita-test-output") != 0)
		return 1;
	RUN(test_deps);
	RUN(test_ofile);
	RUN(test_append);
	rmdir(dir);
	return t_report();
}
