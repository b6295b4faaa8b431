/* datadir: the search path for layouts, font chains and locales (see
 * include/datadir.h for the order and why). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "datadir.h"

#ifndef VITA_DATADIR
#define VITA_DATADIR "/usr/local/share/vita"
#endif

static char exe_root[PATH_MAX / 2]; /* the binary's directory's parent */

void datadir_init(void)
{
	char p[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", p, sizeof(p) - 1);
	if (n <= 0)
		return;
	p[n] = '\0';
	for (int i = 0; i < 2; i++) {
		char *s = strrchr(p, '/');
		if (!s)
			return;
		*s = '\0';
	}
	if (strlen(p) < sizeof(exe_root))
		memcpy(exe_root, p, strlen(p) + 1);
}

const char *datadir_builtin(void)
{
	return VITA_DATADIR;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Append ROOT/SUB unless it is already there or does not fit. */
static void add(datadir_t *d, const char *root, const char *mid, const char *sub)
{
	if (!root || !*root || d->n >= DATADIR_MAX)
		return;
	char *s = d->store[d->n];
	int len = snprintf(s, PATH_MAX, "%s%s%s%s", root, mid, *sub ? "/" : "", sub);
	if (len <= 0 || len >= PATH_MAX)
		return;
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->dirs[i], s))
			return;
	d->dirs[d->n++] = s;
	d->dirs[d->n] = NULL;
}

/* $VAR, or $HOME/DEFAULT when VAR is unset or not absolute (XDG rule). */
static void add_xdg(datadir_t *d, const char *var, const char *home_default, const char *sub)
{
	const char *v = getenv(var);
	if (v && v[0] == '/') {
		add(d, v, "/vita", sub);
		return;
	}
	const char *home = getenv("HOME");
	if (home && home[0] == '/') {
		char root[PATH_MAX];
		if (snprintf(root, sizeof(root), "%s/%s", home, home_default) < (int)sizeof(root))
			add(d, root, "/vita", sub);
	}
}

void datadir_get(datadir_t *d, const char *sub, const char *profile_dir)
{
	d->n = 0;
	d->dirs[0] = NULL;
	add(d, profile_dir, "", sub);
	d->user = d->n;
	add_xdg(d, "XDG_CONFIG_HOME", ".config", sub);
	add_xdg(d, "XDG_DATA_HOME", ".local/share", sub);
	add(d, exe_root, "", sub);
	add(d, exe_root, "/share/vita", sub);
	add(d, VITA_DATADIR, "", sub);
}

int datadir_any(const datadir_t *d)
{
	for (int i = d->user; i < d->n; i++)
		if (is_dir(d->dirs[i]))
			return 1;
	return 0;
}

const char *datadir_find(const char *file)
{
	static char found[PATH_MAX];
	datadir_t d;
	datadir_get(&d, "", NULL);
	for (int i = 0; i < d.n; i++) {
		/* the source tree keeps it in docs/, an installed tree at the root */
		const char *mids[] = {"/", "/docs/"};
		for (int j = 0; j < 2; j++) {
			int len = snprintf(found, sizeof(found), "%s%s%s", d.dirs[i], mids[j], file);
			if (len > 0 && len < (int)sizeof(found) && access(found, R_OK) == 0)
				return found;
		}
	}
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int datadir_names(const char *dir, char **names, int max)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while (n < max && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l > 5 && !strcmp(de->d_name + l - 5, ".yaml")) {
			names[n] = strdup(de->d_name);
			if (names[n])
				names[n++][l - 5] = '\0';
		}
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	return n;
}
