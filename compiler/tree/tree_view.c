/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* tree_view.c - see tree_view.h. */
#include "tree_view.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "compiler/base/buf.h"
#include "tree_cache.h"
#include "tree_unit.h"

struct tree_view {
	int root;
	tree_cache cache;
	tree_units units;
	arena scratch; /* per tree_view_same */
};

tree_view *tree_view_open(const char *dir, const char *version, arena *ar)
{
	tree_view *v = arena_alloc(ar, sizeof(*v));
	v->root = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	tree_cache_init(&v->cache, ar);
	/* manifest.json as the cache recorded it: its spans hold each unit's entries */
	if (v->root < 0 || !tree_cache_load(&v->cache, arena_printf(ar, "%s.dslc-cache", dir), ar) ||
	    !tree_cache_describes(&v->cache, v->root) ||
	    tree_fp_at(v->root, "manifest.json", NULL) != v->cache.manifest_fp) {
		if (v->root >= 0)
			close(v->root);
		return NULL;
	}
	tree_units_init(&v->units, version, ar);
	arena_init(&v->scratch);
	return v;
}

void tree_view_close(tree_view *v)
{
	if (!v)
		return;
	close(v->root);
	arena_free(&v->scratch);
}

size_t tree_view_units(const tree_view *v)
{
	return v->cache.n;
}

const char *tree_view_unit(const tree_view *v, size_t i)
{
	return v->cache.order[i]->dir;
}

bool tree_view_has(const tree_view *v, const char *dir)
{
	return strmap_get(&v->cache.units, dir) != NULL;
}

bool tree_view_same(tree_view *v, const char *dir, const rendered *files, size_t n)
{
	arena_free(&v->scratch);
	arena_init(&v->scratch);
	uint8_t key[TREE_KEY_SIZE];
	tree_unit_key(&v->units, files, n, key);
	tree_entry *entries;
	size_t nentries;
	tree_unit_entries(&v->units, files, n, &v->scratch, &entries, &nentries);
	const cache_unit *cu = tree_unit_vouched(&v->cache, dir, key, nentries);
	uint64_t *fp = arena_alloc(&v->scratch, (nentries + 1) * sizeof(uint64_t));
	int64_t max_time = 0;
	return cu && tree_unit_same_stat(v->root, dir, cu, entries, nentries, fp, &max_time);
}

char *tree_view_entries(const tree_view *v, const char *dir, arena *ar, size_t *len)
{
	const cache_unit *cu = strmap_get(&v->cache.units, dir);
	if (!cu || !cu->span_len || cu->span_len > ((uint64_t)1 << 30)) {
		errno = ENOENT;
		return NULL;
	}
	int fd = openat(v->root, "manifest.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char *text = arena_alloc(ar, cu->span_len + 3);
	text[0] = '[';
	size_t got = pread_all(fd, text + 1, cu->span_len, cu->span_off);
	close(fd);
	if (got < cu->span_len) {
		errno = EIO;
		return NULL;
	}
	text[1 + got] = ']';
	*len = got + 2;
	return text;
}
