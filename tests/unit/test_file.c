/* test_file: vita's cache files (file_cache_path, file_write_atomic),
 * shared by the hyphenation, Thai, font-family and deflate caches: the
 * path under $XDG_CACHE_HOME/vita or $HOME/.cache/vita, the switch that
 * turns a cache off, and a write that lands whole or not at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "t.h"
#include "buf.h"
#include "file.h"

static char dir[512];

TEST(cache_path)
{
	char out[600], want[700];
	setenv("XDG_CACHE_HOME", dir, 1);
	unsetenv("VITA_NO_X_CACHE");
	EQ_INT(file_cache_path("VITA_NO_X_CACHE", "a.hyc", out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/vita/a.hyc", dir);
	EQ_STR(out, want);
	/* a relative XDG_CACHE_HOME is ignored: $HOME/.cache */
	setenv("XDG_CACHE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	EQ_INT(file_cache_path(NULL, "b", out, sizeof(out)), 0);
	EQ_STR(out, "/home/u/.cache/vita/b");
	setenv("HOME", "", 1);
	EQ_INT(file_cache_path(NULL, "b", out, sizeof(out)), -1);
	setenv("XDG_CACHE_HOME", dir, 1);
	/* the switch: anything but "" and "0" turns it off */
	setenv("VITA_NO_X_CACHE", "1", 1);
	EQ_INT(file_cache_path("VITA_NO_X_CACHE", "a", out, sizeof(out)), -1);
	setenv("VITA_NO_X_CACHE", "0", 1);
	EQ_INT(file_cache_path("VITA_NO_X_CACHE", "a", out, sizeof(out)), 0);
	setenv("VITA_NO_X_CACHE", "", 1);
	EQ_INT(file_cache_path("VITA_NO_X_CACHE", "a", out, sizeof(out)), 0);
	/* too long for out */
	EQ_INT(file_cache_path(NULL, "a-long-name", out, 8), -1);
}

TEST(write_atomic)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/vita/sub/x.bin", dir);
	/* the directories are made; the parts land in order */
	EQ_INT(file_write_atomic(path, (const void *[]){"ab", "", "cde"}, (size_t[]){2, 0, 3}, 3), 0);
	buf_t b;
	buf_init(&b);
	EQ_INT(file_read(&b, path, 100, NULL), 0);
	EQ_STR(b.s, "abcde");
	buf_done(&b);
	/* a second write replaces it whole, and leaves no temporary file */
	EQ_INT(file_write_atomic(path, (const void *[]){"z"}, (size_t[]){1}, 1), 0);
	buf_init(&b);
	EQ_INT(file_read(&b, path, 100, NULL), 0);
	EQ_STR(b.s, "z");
	buf_done(&b);
	char tmp[800];
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	CHECK(access(tmp, F_OK) != 0);
	/* where it cannot be written (a file where a directory should be),
	   -1 and nothing else changes */
	char bad[800];
	snprintf(bad, sizeof(bad), "%s/y", path);
	EQ_INT(file_write_atomic(bad, (const void *[]){"q"}, (size_t[]){1}, 1), -1);
	buf_init(&b);
	EQ_INT(file_read(&b, path, 100, NULL), 0);
	EQ_STR(b.s, "z");
	buf_done(&b);
	unlink(path);
}

int main(void)
{
	if (t_tmpdir(dir, sizeof(dir), "vita-file") != 0)
		return 1;
	RUN(cache_path);
	RUN(write_atomic);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return t_report();
}
