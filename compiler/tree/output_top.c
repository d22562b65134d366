/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* output_top.c - the top level of the tree (stray entries, manifest.json),
 * the commit of a staged tree under the journal, and the cache after it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/base/file.h"
#include "compiler/base/safe.h"
#include "output_sync.h"

/* ---- the top level: removed nodes, stray entries, the manifest ---------- */

/* An old entry of the root or of nodes/ that no new unit or top-level
 * file accounts for: reported by --check; one of nodes/ leaves it when
 * nodes/ is reused (plan_moves). */
static void extra_entry(tree_sync *s, const char *rel)
{
	s->changed = true;
	s->st->stale += s->opts->check ? output_report_extra(s, rel) : 0;
	if (strncmp(rel, "nodes/", 6) == 0)
		ARENA_PUSH(s->ar, s->stale_nodes, s->nstale, s->stale_cap, rel);
}

/* Old entries of a directory (the root or nodes/) that no new unit or
 * top-level file accounts for. */
static void scan_extras(tree_sync *s, const char *rel)
{
	int fd = *rel ? file_dir_at(s->old_root, rel) : dup(s->old_root);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* a dup shares its file offset: replaceable() read the root to its end
	 * through another dup, and a stray top-level file was never seen */
	rewinddir(d);
	for (struct dirent *de; (de = readdir(d));) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		const char *path = *rel ? arena_printf(s->ar, "%s/%s", rel, n) : n;
		if (!*rel && (!strcmp(n, "manifest.json") || !strcmp(n, "nodes")))
			continue;
		if (!strmap_get(&s->unit_by_dir, path))
			extra_entry(s, path);
	}
	closedir(d);
}

void output_judge_top(tree_sync *s)
{
	if (s->old_root < 0)
		return;
	if (s->cache_ok) {
		/* the root and nodes/ kept their fingerprints: their entries are
		 * the cached units' (and manifest.json) */
		for (size_t i = 0; i < s->old.n; i++) {
			const char *dir = s->old.order[i]->dir;
			if (!strmap_get(&s->unit_by_dir, dir))
				extra_entry(s, dir);
		}
		return;
	}
	scan_extras(s, "");
	scan_extras(s, "nodes");
}

void output_manifest_key(tree_sync *s, uint8_t key[TREE_KEY_SIZE])
{
	buf b;
	buf_init(&b);
	buf_printf(&b, "%s%c%s%c%s%c%zu%c", s->opts->version, 0, s->m->release->name, 0, s->m->cluster.name, 0,
		   s->m->nnodes, 0);
	for (size_t i = 0; i < s->nunits; i++) {
		buf_add(&b, s->units[i]->key, TREE_KEY_SIZE);
		buf_add(&b, s->units[i]->mu.digest, RENDER_SHA_SIZE);
	}
	sha256_bytes(b.data, b.len, key);
	buf_free(&b);
}

static void manifest_info_of(const tree_sync *s, manifest_info *info)
{
	info->generator = s->opts->version;
	info->release = s->m->release->name;
	info->cluster = s->m->cluster.name;
	info->nnodes = s->m->nnodes;
}

typedef struct compare_sink {
	int fd;
	bool same;
	char chunk[65536];
} compare_sink;

static int compare_piece(void *ctx, const char *data, size_t len)
{
	compare_sink *c = ctx;
	while (c->same && len) {
		ssize_t n = read(c->fd, c->chunk, len < sizeof(c->chunk) ? len : sizeof(c->chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || memcmp(c->chunk, data, (size_t)n) != 0) {
			c->same = false;
			break;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

typedef struct manifest_files {
	int fd, old_fd;
	char *chunk; /* COPY_CHUNK bytes for copy_piece */
} manifest_files;

enum { COPY_CHUNK = 1 << 20 };

static int write_piece(void *ctx, const char *data, size_t len)
{
	return write_all(((manifest_files *)ctx)->fd, data, len);
}

/* manifest_copy: bytes of the old manifest.json, read and written in 1 MiB
 * pieces. Not copy_file_range: on tmpfs it copies page by page with a
 * plain memcpy, 2.5x slower than read and write (0.42 s against 0.17 s for
 * the 280 MB manifest of 65,536 nodes). A short old file is an error: the
 * cache that vouched for its spans was wrong, and nothing is swapped. */
static int copy_piece(void *ctx, uint64_t off, uint64_t len)
{
	manifest_files *mf = ctx;
	while (len) {
		ssize_t n = pread(mf->old_fd, mf->chunk, len < COPY_CHUNK ? len : COPY_CHUNK, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || write_all(mf->fd, mf->chunk, (size_t)n) != 0)
			return -1;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* The old manifest.json holds exactly the bytes this build would write. */
bool output_manifest_same(tree_sync *s, const uint8_t key[TREE_KEY_SIZE])
{
	if (s->old_root < 0)
		return false;
	/* the cache vouches for the old manifest's key (and its units' spans)
	 * while the file keeps its fingerprint: then the keys decide */
	int64_t t = 0; /* and has not changed since the cache was written (a
			* change within the file system's clock tick keeps the times) */
	s->old_manifest_known = s->cache_ok && tree_fp_at(s->old_root, "manifest.json", &t) == s->old.manifest_fp &&
				t < s->old.written_at;
	if (s->old_manifest_known) {
		bool same = memcmp(s->old.manifest_key, key, TREE_KEY_SIZE) == 0;
		for (size_t i = 0; i < s->nunits && same; i++) { /* the same text: the same spans */
			const cache_unit *old = strmap_get(&s->old.units, s->units[i]->dir);
			s->units[i]->mu.span = old ? (manifest_span){old->span_off, old->span_len} : (manifest_span){0, 0};
		}
		return same;
	}
	compare_sink *c = malloc(sizeof(*c));
	if (!c)
		return false;
	c->fd = openat(s->old_root, "manifest.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	c->same = c->fd >= 0 && fstat(c->fd, &st) == 0 && S_ISREG(st.st_mode);
	manifest_info info;
	manifest_info_of(s, &info);
	if (c->same)
		manifest_emit(&info, (manifest_unit *const *)s->units, s->nunits, s->ar, compare_piece, NULL, c);
	char end;
	bool same = c->same && read(c->fd, &end, 1) == 0;
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	s->manifest_by_content = true;
	return same;
}

/* Writes the new manifest.json; the entries of units whose key the old
 * cache recorded come from the old manifest, which the cache vouches for. */
int output_write_manifest(tree_sync *s)
{
	manifest_files mf = {-1, -1, NULL};
	if (s->old_manifest_known && (mf.chunk = malloc(COPY_CHUNK)))
		mf.old_fd = openat(s->old_root, "manifest.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	for (size_t i = 0; i < s->nunits && mf.old_fd >= 0; i++) {
		unit *u = s->units[i];
		const cache_unit *old = strmap_get(&s->old.units, u->dir);
		if (old && old->span_len && memcmp(old->key, u->key, TREE_KEY_SIZE) == 0)
			u->mu.reuse = (manifest_span){old->span_off, old->span_len};
	}
	mf.fd = openat(s->stage_root, "manifest.json", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int rc = mf.fd < 0 ? -1 : 0;
	if (!rc) {
		manifest_info info;
		manifest_info_of(s, &info);
		rc = manifest_emit(&info, (manifest_unit *const *)s->units, s->nunits, s->ar, write_piece,
				   mf.old_fd >= 0 ? copy_piece : NULL, &mf);
	}
	if (mf.old_fd >= 0)
		close(mf.old_fd);
	free(mf.chunk);
	if ((mf.fd >= 0 && close(mf.fd) != 0) || rc != 0)
		return output_io_error("cannot write", "manifest.json");
	return 0;
}

/* ---- the commit: the new tree from staged and unchanged directories ------ */

/* The moves that complete the stage, in journal.h's terms. An unchanged
 * cluster/ is moved into the stage. When any node is unchanged, nodes/ is
 * reused whole: each staged node directory goes into the old nodes/ (in
 * exchange for its old version, if any), nodes that are not generated any
 * more come out of it, and then the two nodes/ directories are exchanged.
 * Moves are O(changed nodes), not O(nodes). */
static int plan_moves(tree_sync *s, journal *j)
{
	bool reuse_nodes = false;
	for (size_t i = 0; i < s->nunits; i++) {
		unit *u = s->units[i];
		if (!u->mu.host && u->same) {
			u->moved = true;
			if (journal_add(j, JOURNAL_MOVE, u->dir, s->old_root) != 0)
				return output_io_error("cannot stat", u->dir);
		}
		reuse_nodes |= u->mu.host && u->same;
	}
	if (!reuse_nodes)
		return 0;
	if (output_stage_nodes(s) != 0)
		return 2;
	for (size_t i = 0; i < s->nunits; i++) {
		unit *u = s->units[i];
		if (!u->mu.host || u->same)
			continue;
		struct stat st;
		bool old = fstatat(s->old_root, u->dir, &st, AT_SYMLINK_NOFOLLOW) == 0;
		u->moved = true;
		if (journal_add(j, old ? JOURNAL_EXCHANGE : JOURNAL_PUT, u->dir, s->stage_root) != 0)
			return output_io_error("cannot stat", u->dir);
	}
	for (size_t i = 0; i < s->nstale; i++)
		if (journal_add(j, JOURNAL_MOVE, s->stale_nodes[i], s->old_root) != 0)
			return output_io_error("cannot stat", s->stale_nodes[i]);
	return journal_add(j, JOURNAL_EXCHANGE, "nodes", s->stage_root) == 0 ? 0 : output_io_error("cannot stat", "nodes");
}

/* Completes the stage under the journal and swaps it in. */
int output_commit(tree_sync *s)
{
	bool exists = s->old_root >= 0;
	struct stat st;
	if (fstat(s->stage_root, &st) != 0)
		return output_io_error("cannot stat", s->stage);
	const char *slash = strrchr(s->stage, '/');
	journal j;
	journal_init(&j, s->ar, s->journal_path, slash ? slash + 1 : s->stage, (uint64_t)st.st_ino);
	int rc = exists ? plan_moves(s, &j) : 0;
	if (rc)
		return rc;
	if (j.n && journal_write(&j) != 0)
		return output_io_error("cannot write", s->journal_path);
	const char *failed = NULL;
	if (journal_apply(&j, s->old_root, s->stage_root, &failed) != 0)
		rc = output_io_error("cannot move into the new tree:", failed);
	if (!rc && !exists && rename(s->stage, s->dir) != 0)
		rc = output_io_error("cannot move the new tree to", s->dir);
	if (!rc && exists && renameat2(AT_FDCWD, s->stage, AT_FDCWD, s->dir, RENAME_EXCHANGE) != 0)
		rc = output_io_error("cannot replace", s->dir); /* tmpfs, ext4, xfs and btrfs have RENAME_EXCHANGE */
	if (rc) {
		if (j.n)
			journal_recover(s->dir, s->journal_path);
		return rc;
	}
	journal_crash_point(j.n + 1);
	if (j.n)
		unlink(s->journal_path);
	if (exists) { /* the stage's name now holds the old tree: what is left of it */
		output_walk_start(s->stage, s->stage_root, false);
		output_remove_tree(s->stage);
		s->st->removed = output_walk_removed();
	}
	return 0;
}

/* ---- the cache after the build ------------------------------------------ */

/* Fingerprints of a unit as the new tree has it now. */
static void refingerprint(tree_sync *s, int root, unit *u)
{
	cache_unit *cu = u->cu;
	unsigned char *fp = (unsigned char *)cu->fp;
	int ufd = openat(root, u->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (ufd < 0)
		return;
	/* the same entry order as make_entries: rebuild it from the files */
	scratch *sc = &s->pl.slots[0]; /* the pipeline is done */
	output_scratch_reset(sc);
	for (size_t i = 0; i < u->mu.nfiles; i++) {
		rendered r = {0};
		r.path = u->mu.files[i].path;
		ARENA_PUSH(&sc->ar, sc->files, sc->n, sc->cap, r);
	}
	output_make_entries(&s->shared, sc); /* fp zeroed: an entry that cannot be stat'ed never matches */
	for (size_t i = 0; i < sc->nentries; i++) {
		struct stat st;
		if (tree_stat_rel(ufd, sc->entries[i].rel, &st) == 0)
			output_note_stat(sc, i, &st);
	}
	memcpy(fp, sc->fp, 8 * cu->nfp);
	cu->max_time = sc->max_time;
	close(ufd);
}

/* Moved units' own directories changed ctime with the rename; linked files
 * changed it twice (link, then the old name's removal). */
void output_save_cache(tree_sync *s, bool swapped)
{
	int root = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0)
		return;
	tree_cache *c = &s->fresh; /* written, never looked up: its order alone */
	c->top_time = 0;
	c->order = arena_alloc(s->ar, (s->nunits + 1) * sizeof(*c->order));
	c->n = 0;
	for (size_t i = 0; i < s->nunits; i++) {
		unit *u = s->units[i];
		if (swapped && (u->relinked || u->moved)) {
			if (u->relinked)
				refingerprint(s, root, u);
			else { /* only its directory's ctime changed */
				int64_t t = u->cu->max_time;
				uint64_t v = tree_fp_at(root, u->dir, &t);
				memcpy((unsigned char *)u->cu->fp, &v, 8);
				u->cu->max_time = t;
			}
		}
		u->cu->span_off = u->mu.span.off;
		u->cu->span_len = u->mu.span.len;
		c->order[c->n++] = u->cu;
	}
	c->root_fp = tree_fp_at(root, NULL, &c->top_time);
	c->nodes_fp = tree_fp_at(root, "nodes", &c->top_time);
	c->manifest_fp = tree_fp_at(root, "manifest.json", &c->top_time);
	close(root);
	int64_t newest = c->top_time;
	for (size_t i = 0; i < c->n; i++)
		newest = c->order[i]->max_time > newest ? c->order[i]->max_time : newest;
	if (tree_cache_save(c, s->cache_path) != 0)
		return; /* only a cache: a failure costs the next build a read */
	/* file times advance by clock ticks: until the cache is newer than
	 * everything it records, the next build would find those entries racy
	 * and read them. A tick is a few milliseconds. */
	struct stat st;
	for (int tries = 0; tries < 100 && stat(s->cache_path, &st) == 0 && tree_time(&st) <= newest; tries++) {
		nanosleep(&(struct timespec){0, 2000000}, NULL);
		utimensat(AT_FDCWD, s->cache_path, NULL, 0);
	}
}
