/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lint_files.c - see lint_files.h. */
#include "lint_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/safe.h"
#include "compiler/base/source.h"
#include "compiler/base/value.h"
#include "compiler/lint/compile.h"
#include "compiler/lint/yaml_lint.h"

typedef lint_file dsl_file;

typedef struct path_list {
	const char **items;
	size_t n, cap;
} path_list;

static const char *real_of(arena *a, const char *path)
{
	char buf[PATH_MAX];
	return realpath(path, buf) ? arena_strdup(a, buf) : NULL;
}

/* What a compilation of path tells: its includes, and whether it describes
 * a cluster. A file with syntax errors is no fragment: it is linted as given. */
static dsl_file dsl_of(arena *a, const char *path, const char *real, const compilation *c)
{
	dsl_file f = {.path = path, .real = real};
	if (!f.real || !c->parsed)
		return f;
	f.fragment = c->m.ar && !c->m.release && !c->m.cluster.defined;
	f.includes = arena_alloc(a, (c->src.nfiles + 1) * sizeof(*f.includes));
	for (uint32_t id = 1; id < c->src.nfiles; id++) {
		const src_file *sf = src_get(&c->src, id);
		const char *r = sf ? real_of(a, sf->path) : NULL;
		if (r && strcmp(r, f.real) != 0)
			f.includes[f.nincludes++] = r;
	}
	return f;
}

/* A file found by the search: compiled here to learn what it includes. */
static dsl_file inspect(arena *a, const char *path)
{
	compilation c;
	memset(&c, 0, sizeof(c));
	compile_file(&c, path);
	dsl_file f = dsl_of(a, path, real_of(a, path), &c);
	compile_free(&c);
	return f;
}

static bool includes(const dsl_file *f, const char *real)
{
	for (size_t i = 0; i < f->nincludes; i++)
		if (strcmp(f->includes[i], real) == 0)
			return true;
	return false;
}

/* Every *.dsl under dir, depth-first, without following links; at most
 * LINT_SEARCH_MAX_DIRS directories opened in all (*dirs counts them). */
static void find_dsl(arena *a, const char *dir, int depth, path_list *out, size_t *dirs)
{
	if (*dirs >= LINT_SEARCH_MAX_DIRS)
		return;
	++*dirs;
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) && out->n < LINT_SEARCH_MAX_FILES && *dirs < LINT_SEARCH_MAX_DIRS) {
		if (e->d_name[0] == '.')
			continue;
		const char *p = strcmp(dir, ".") == 0 ? arena_strdup(a, e->d_name) : arena_printf(a, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < LINT_SEARCH_MAX_DEPTH)
			find_dsl(a, p, depth + 1, out, dirs);
		else if (S_ISREG(st.st_mode) && val_ends_with(p, ".dsl"))
			ARENA_PUSH(a, out->items, out->n, out->cap, p);
	}
	closedir(d);
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Where a fragment's descriptions live: its directory's parent (a
 * description includes "hardware.dsl" beside it, or "../hw/x.dsl" from a
 * sibling directory), "." for a fragment in or just below it; for an
 * absolute path only its own directory (not a walk from "/"). */
static const char *search_root(arena *a, const char *path)
{
	char *dir = arena_strdup(a, path);
	for (int up = 0; up < (path[0] == '/' ? 1 : 2); up++) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			return ".";
		*slash = '\0';
	}
	return *dir ? dir : "/";
}

/* Whether the file at path names word: read a piece at a time (one piece
 * in memory, not the file), up to its first NUL byte (no text file has one)
 * or SRC_MAX_FILE_BYTES, adding what it read to *budget. A FIFO, a device
 * or a link is not opened (src_open_regular). */
static bool names(const char *path, const char *word, unsigned long long *budget)
{
	struct stat st;
	int fd = src_open_regular(AT_FDCWD, path, true, &st);
	if (fd < 0)
		return false;
	size_t wl = strlen(word), keep = 0;
	char piece[65536 + 256];
	bool found = false;
	unsigned long long total = 0;
	for (;;) {
		ssize_t got = read(fd, piece + keep, sizeof(piece) - 256 - 1);
		if (got <= 0)
			break;
		total += (unsigned long long)got;
		*budget += (unsigned long long)got;
		size_t have = keep + (size_t)got;
		if (memchr(piece + keep, '\0', (size_t)got))
			break; /* not a text file */
		piece[have] = '\0';
		if (strstr(piece, word)) {
			found = true;
			break;
		}
		/* a name across two pieces: keep the tail */
		keep = wl > 1 && have >= wl - 1 ? wl - 1 : 0;
		memmove(piece, piece + have - keep, keep);
		if (total >= SRC_MAX_FILE_BYTES || *budget >= LINT_SEARCH_MAX_BYTES)
			break;
	}
	close(fd);
	return found;
}

/* The descriptions under the search root that include the fragment, in name
 * order (readdir's order is the file system's), and their realpaths. */
static void includers(arena *a, const dsl_file *frag, path_list *out, path_list *reals, FILE *notes)
{
	path_list tree = {0};
	const char *root = search_root(a, frag->path);
	/* a description lives in a repository: never a walk of the whole
	 * file system, or of the kernel's (a document at file:///x.dsl) */
	char real_root[PATH_MAX];
	const char *r = realpath(root, real_root) ? real_root : root;
	if (strcmp(r, "/") == 0 || safe_path_under(r, "/proc") || safe_path_under(r, "/sys") || safe_path_under(r, "/dev")) {
		fprintf(notes ? notes : stderr, "dslc: not looking for files that include %s under %s: name the description "
			"with the fragment to lint it there\n", frag->path, r);
		return;
	}
	size_t dirs = 0;
	find_dsl(a, root, 0, &tree, &dirs);
	if (dirs >= LINT_SEARCH_MAX_DIRS)
		fprintf(notes ? notes : stderr, "dslc: looked for files that include %s in the first %d directories under %s "
			"only: name the description with the fragment to lint it there\n", frag->path, LINT_SEARCH_MAX_DIRS, root);
	if (tree.n) /* qsort wants an array, even of none */
		qsort(tree.items, tree.n, sizeof(*tree.items), by_name);
	const char *base = strrchr(frag->path, '/') ? strrchr(frag->path, '/') + 1 : frag->path;
	unsigned long long budget = 0;
	for (size_t i = 0; i < tree.n; i++) {
		if (budget >= LINT_SEARCH_MAX_BYTES) {
			fprintf(notes ? notes : stderr, /* an incomplete search is said even with -q */
				"dslc: stopped looking for files that include %s after reading %llu MiB under %s: "
				       "%zu files not read; name the description with the fragment to lint it there\n",
				frag->path, budget >> 20, root, tree.n - i);
			break;
		}
		/* only a file that names it can include it: most are not compiled */
		if (!base[0] || !names(tree.items[i], base, &budget))
			continue;
		dsl_file c = inspect(a, tree.items[i]);
		if (c.real && !c.fragment && includes(&c, frag->real)) {
			ARENA_PUSH(a, out->items, out->n, out->cap, tree.items[i]);
			ARENA_PUSH(a, reals->items, reals->n, reals->cap, c.real);
		}
	}
}

size_t lint_files_includers(arena *a, const lint_file *frag, const char ***paths, FILE *notes)
{
	path_list inc = {0}, reals = {0};
	includers(a, frag, &inc, &reals, notes);
	*paths = inc.items;
	return inc.n;
}

/* Whether real (a realpath) is among the n of list. */
static bool among(const char *const *list, size_t n, const char *real)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] && strcmp(list[i], real) == 0)
			return true;
	return false;
}

lint_file lint_file_of(arena *a, const char *given, const compilation *comp)
{
	const char *real = strcmp(given, "-") != 0 ? real_of(a, given) : NULL;
	if (!real || yaml_lint_is_yaml(given))
		return (lint_file){.path = given, .real = real};
	lint_file f = dsl_of(a, given, real, comp);
	f.dsl = true;
	return f;
}

lint_choice lint_files_choose(arena *a, const lint_file *files, size_t n, FILE *notes)
{
	lint_choice ch = {.skip = arena_alloc(a, (n + 1) * sizeof(*ch.skip))};
	path_list extra_real = {0};
	size_t cap = 0;
	const char **real = arena_alloc(a, (n + 1) * sizeof(*real)); /* NULL: stdin, or unreadable */
	for (size_t i = 0; i < n; i++)
		real[i] = files[i].real;
	for (size_t i = 0; i < n; i++) {
		const char *const given_i = files[i].path;
		const dsl_file *f = files[i].dsl ? &files[i] : &(dsl_file){.path = given_i};
		/* given twice: linted once (an unreadable file says so once too) */
		for (size_t j = 0; j < i && !ch.skip[i] && strcmp(given_i, "-") != 0; j++)
			ch.skip[i] = !ch.skip[j] && (real[i] && real[j] ? strcmp(real[i], real[j]) == 0
							     : strcmp(given_i, files[j].path) == 0);
		if (ch.skip[i] || !f->real) /* stdin, YAML, or unreadable: lint says why */
			continue;
		/* deferred only to a file that is linted itself (or not decided yet,
		 * as it comes later): two files that include each other are not
		 * both deferred, each to the other, leaving neither linted
		 * (issue 41); a compilation reads every file its includes read, so
		 * a chain of deferrals ends in one that covers them all */
		size_t by = n;
		for (size_t j = 0; j < n && by == n; j++)
			if (j != i && files[j].dsl && !ch.skip[j] && includes(&files[j], f->real))
				by = j;
		if (by < n) {
			if (notes)
				fprintf(notes, "dslc: %s is included by %s: linted there\n", f->path, files[by].path);
			ch.skip[i] = true;
			continue;
		}
		if (!f->fragment)
			continue;
		path_list inc = {0}, inc_real = {0};
		includers(a, f, &inc, &inc_real, notes);
		if (!inc.n && notes)
			fprintf(notes, "dslc: %s has no cluster block and no description under %s includes it: linted alone\n",
				f->path, search_root(a, f->path));
		for (size_t k = 0; k < inc.n; k++) {
			if (notes)
				fprintf(notes, "dslc: %s is included by %s: linted there\n", f->path, inc.items[k]);
			if (among(real, n, inc_real.items[k]) || among(extra_real.items, extra_real.n, inc_real.items[k]))
				continue;
			ARENA_PUSH(a, ch.extra, ch.nextra, cap, inc.items[k]);
			ARENA_PUSH(a, extra_real.items, extra_real.n, extra_real.cap, inc_real.items[k]);
		}
		ch.skip[i] = inc.n > 0;
	}
	return ch;
}
