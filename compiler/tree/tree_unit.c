/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* tree_unit.c - see tree_unit.h. */
#include "tree_unit.h"

#include <fcntl.h>
#include <nettle/sha2.h>
#include <string.h>
#include <unistd.h>

#include "manifest.h"

void tree_units_init(tree_units *tu, const char *version, arena *ar)
{
	memset(tu, 0, sizeof(*tu));
	tu->version = version;
	tu->ar = ar;
}

/* ---- entries ------------------------------------------------------------ */

typedef struct entry_list {
	tree_entry *v;
	size_t n, cap;
	arena *ar;
} entry_list;

static int entry_of_dir(const entry_list *l, const char *rel, size_t len)
{
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].file < 0 && strlen(l->v[i].rel) == len && strncmp(l->v[i].rel, rel, len) == 0)
			return (int)i;
	return -1;
}

static void add_entry(entry_list *l, const char *rel, size_t len, int parent, int file)
{
	tree_entry e = {arena_strndup(l->ar, rel, len), NULL, parent, file};
	const char *slash = strrchr(e.rel, '/');
	e.base = slash ? slash + 1 : e.rel;
	ARENA_PUSH(l->ar, l->v, l->n, l->cap, e);
}

/* The entries from the files' paths (deterministic: the cache's
 * fingerprints are stored in this order). */
static entry_list build_entries(const rendered *files, size_t n, arena *ar)
{
	entry_list l = {NULL, 0, 0, ar};
	add_entry(&l, "", 0, -1, -1);
	for (size_t f = 0; f < n; f++) {
		const char *path = files[f].path;
		int parent = 0;
		for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
			int d = entry_of_dir(&l, path, (size_t)(slash - path));
			if (d < 0) {
				add_entry(&l, path, (size_t)(slash - path), parent, -1);
				d = (int)l.n - 1;
			}
			parent = d;
		}
		add_entry(&l, path, strlen(path), parent, (int)f);
	}
	return l;
}

static bool layout_fits(const tree_layout *l, const rendered *files, size_t n)
{
	if (l->npaths != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (l->paths[i] != files[i].path && strcmp(l->paths[i], files[i].path) != 0)
			return false;
	return true;
}

/* Keeps entries just built as a layout (in the shared arena). */
static const tree_layout *layout_keep(tree_units *tu, const rendered *files, size_t n, const entry_list *built)
{
	tree_layout *l = &tu->layouts[tu->nlayouts++];
	l->npaths = n;
	l->paths = arena_alloc(tu->ar, n * sizeof(*l->paths));
	for (size_t i = 0; i < n; i++)
		l->paths[i] = arena_strdup(tu->ar, files[i].path);
	l->nentries = built->n;
	l->entries = arena_alloc(tu->ar, built->n * sizeof(tree_entry));
	for (size_t i = 0; i < built->n; i++) {
		tree_entry e = built->v[i];
		e.rel = arena_strdup(tu->ar, e.rel);
		e.base = e.rel + (built->v[i].base - built->v[i].rel);
		l->entries[i] = e;
	}
	return l;
}

const tree_layout *tree_unit_entries(tree_units *tu, const rendered *files, size_t n, arena *scratch,
				     tree_entry **entries, size_t *nentries)
{
	const tree_layout *l = NULL;
	for (size_t k = 0; k < tu->nlayouts && !l; k++)
		if (layout_fits(&tu->layouts[k], files, n))
			l = &tu->layouts[k];
	if (!l) {
		entry_list built = build_entries(files, n, scratch);
		if (tu->nlayouts == TREE_LAYOUT_MEMO) {
			*entries = built.v;
			*nentries = built.n;
			return NULL;
		}
		l = layout_keep(tu, files, n, &built);
	}
	*entries = l->entries;
	*nentries = l->nentries;
	return l;
}

/* ---- key and digest ----------------------------------------------------- */

/* manifest_on_change, remembered per target (the table's static names). */
static const char *on_change_of(tree_units *tu, const char *target)
{
	size_t i = 0;
	for (; i < tu->nclasses && tu->class_target[i] != target; i++)
		;
	if (i < tu->nclasses)
		return tu->class_id[i];
	const char *id = manifest_on_change(target);
	if (tu->nclasses < TREE_CLASS_MEMO) {
		tu->class_target[tu->nclasses] = target;
		tu->class_id[tu->nclasses++] = id;
	}
	return id;
}

/* Hashed as it goes (no text is built: this runs for every node). */
void tree_unit_key(tree_units *tu, const rendered *files, size_t n, uint8_t key[TREE_KEY_SIZE])
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	sha256_update(&ctx, strlen(tu->version) + 1, (const uint8_t *)tu->version);
	for (size_t i = 0; i < n; i++) {
		const rendered *f = &files[i];
		const char *class = on_change_of(tu, f->target);
		uint8_t mode[4] = {(uint8_t)(f->mode >> 24), (uint8_t)(f->mode >> 16), (uint8_t)(f->mode >> 8), (uint8_t)f->mode};
		sha256_update(&ctx, strlen(f->path) + 1, (const uint8_t *)f->path);
		sha256_update(&ctx, strlen(f->target) + 1, (const uint8_t *)f->target);
		sha256_update(&ctx, strlen(class) + 1, (const uint8_t *)class);
		sha256_update(&ctx, sizeof(mode), mode);
		sha256_update(&ctx, RENDER_SHA_SIZE, f->sha);
	}
	sha256_digest(&ctx, TREE_KEY_SIZE, key);
}

void tree_node_digest(const rendered *files, size_t n, uint8_t digest[RENDER_SHA_SIZE])
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	for (size_t i = 0; i < n; i++) {
		char hex[66];
		sha256_to_hex(files[i].sha, hex + 1);
		hex[0] = ' ';
		hex[65] = '\n';
		sha256_update(&ctx, strlen(files[i].path), (const uint8_t *)files[i].path);
		sha256_update(&ctx, sizeof(hex), (const uint8_t *)hex);
	}
	sha256_digest(&ctx, RENDER_SHA_SIZE, digest);
}

/* ---- the cache's word --------------------------------------------------- */

const cache_unit *tree_unit_vouched(const tree_cache *c, const char *dir, const uint8_t key[TREE_KEY_SIZE],
				    size_t nentries)
{
	const cache_unit *cu = strmap_get(&c->units, dir);
	if (!cu || memcmp(cu->key, key, TREE_KEY_SIZE) != 0 || cu->nfp != nentries || cu->max_time >= c->written_at)
		return NULL;
	return cu;
}

bool tree_unit_same_stat(int root, const char *dir, const cache_unit *cu, const tree_entry *entries, size_t n,
			 uint64_t *fp, int64_t *max_time)
{
	int ufd = openat(root, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (ufd < 0)
		return false;
	bool same = true;
	for (size_t i = 0; i < n && same; i++) {
		struct stat st;
		same = tree_stat_rel(ufd, entries[i].rel, &st) == 0 && (fp[i] = tree_fp(&st)) == cache_fp_at(cu, (uint32_t)i);
		if (same && tree_time(&st) > *max_time)
			*max_time = tree_time(&st);
	}
	close(ufd);
	return same;
}
