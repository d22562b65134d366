/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* output_dir.c - the output directory: its lock, what may be replaced, the
 * stage beside it; output_build and output_read_lock. */
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
#include "compiler/base/progress.h"
#include "output_sync.h"

/* ---- the build ---------------------------------------------------------- */

static void open_cache(tree_sync *s)
{
	if (s->old_root < 0 || s->opts->strict || !tree_cache_load(&s->old, s->cache_path, s->ar))
		return;
	s->cache_ok = tree_cache_describes(&s->old, s->old_root);
}

/* manifest.json depends on the rendered units alone: decided, and in a
 * build written into the stage, while the tree thread still judges. */
static int early_manifest(tree_sync *s, bool *same, bool *written)
{
	*same = *written = false;
	if (output_pipeline_failed(&s->pl))
		return 0; /* pipeline_finish says why */
	uint8_t *key = s->fresh.manifest_key; /* the next cache's too */
	output_manifest_key(s, key);
	*same = output_manifest_same(s, key);
	if (*same || s->opts->check)
		return 0;
	int rc = output_stage_open(s);
	if (!rc)
		rc = output_write_manifest(s);
	*written = !rc;
	return rc;
}

static int sync_tree(tree_sync *s)
{
	open_cache(s);
	int rc = output_pipeline_start(s);
	progress pr;
	progress_begin(&pr, "building nodes", s->m->nnodes);
	for (size_t i = 0; i < s->m->nnodes && !rc; i++) {
		progress_step(&pr, i, NULL);
		rc = output_sync_unit(s, &s->m->nodes[i]);
	}
	progress_end(&pr);
	if (!rc)
		rc = output_sync_unit(s, NULL);
	bool manifest_ok = false, manifest_written = false;
	if (!rc)
		rc = early_manifest(s, &manifest_ok, &manifest_written);
	int tree_rc = output_pipeline_finish(&s->pl);
	if (!rc && !tree_rc)
		tree_rc = output_judge_deferred(s);
	for (size_t i = 0; i < PIPELINE_SLOTS; i++)
		output_scratch_reset(&s->pl.slots[i]);
	if (rc || (rc = tree_rc))
		return rc;
	output_judge_top(s);
	s->st->files++; /* manifest.json */
	if (s->opts->check) {
		if (!manifest_ok) {
			fprintf(stderr, "dslc: manifest.json: differs\n");
			s->st->stale++;
		}
		return s->st->stale ? 1 : 0;
	}
	if (manifest_ok && !s->changed) {
		s->st->unchanged++;
		if (!s->cache_ok || s->judged_by_content || s->manifest_by_content)
			output_save_cache(s, false);
		return 0;
	}
	if ((rc = output_stage_open(s)))
		return rc;
	if (manifest_written)
		s->st->written++;
	else if (manifest_ok && linkat(s->old_root, "manifest.json", s->stage_root, "manifest.json", 0) == 0)
		s->st->unchanged++; /* the same bytes keep their inode and mtime */
	else if ((rc = output_write_manifest(s)))
		return rc;
	else
		s->st->written++;
	if ((rc = output_commit(s)))
		return rc;
	output_save_cache(s, true);
	return 0;
}

/* Creates the missing parents of path (mkdir -p of its directory). */
static int make_parents(const char *path)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		int r = mkdir(p, 0755);
		*s = '/';
		if (r != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/* Splits dir into its parent ("." for a bare name, "/" for "/x") and its
 * last component, which is returned. */
static const char *split_dir(const char *dir, char *parent, size_t size)
{
	const char *slash = strrchr(dir, '/');
	if (!slash) {
		snprintf(parent, size, ".");
		return dir;
	}
	snprintf(parent, size, "%.*s", (int)(slash - dir) + (slash == dir), dir);
	return slash + 1;
}

/* Removes DIR.dslc-new-* and DIR.dslc-old-* left by a build that died:
 * under the lock no other build is staging. */
static void remove_stale_siblings(const char *dir)
{
	char parent[4096];
	const char *base = split_dir(dir, parent, sizeof(parent));
	DIR *d = opendir(parent);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		const char *n = e->d_name;
		if (!journal_sibling(base, ".dslc-new-", n) && !journal_sibling(base, ".dslc-old-", n))
			continue;
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", parent, n);
		output_walk_start(path, -1, false);
		output_remove_tree(path);
	}
	closedir(d);
}

/* Serialises builds into one directory: flock on DIR.dslc-lock beside it.
 * A second build waits and says so; --check and plan take a shared lock.
 * A reader (create false) never makes the lock file: -2 when there is
 * none, a tree no build here has written. -1 on an error (said). */
static int lock_tree(const char *dir, bool shared, bool create)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s.dslc-lock", dir);
	/* O_NONBLOCK: a FIFO planted where the lock belongs must not hang the
	 * build or plan on open; fstat then refuses anything but a file */
	int fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0 && !create && errno == ENOENT)
		return -2;
	if (fd < 0)
		return output_io_error("cannot open the lock", path), -1;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "dslc: the lock %s is not a regular file: remove it\n", path);
		close(fd);
		return -1;
	}
	int op = shared ? LOCK_SH : LOCK_EX;
	if (flock(fd, op | LOCK_NB) != 0) {
		fprintf(stderr, "dslc: another dslc is building %s; waiting for it (lock %s)\n", dir, path);
		if (flock(fd, op) != 0) {
			output_io_error("cannot lock", path);
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* The output directory as given, normalised (no trailing '/'), or NULL
 * with a message for what dslc refuses to replace by renaming. */
static const char *output_dir(const char *given, arena *ar)
{
	size_t len = strlen(given);
	while (len > 1 && given[len - 1] == '/')
		len--;
	const char *dir = arena_strndup(ar, given, len);
	char parent[4096];
	const char *base = split_dir(dir, parent, sizeof(parent));
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		fprintf(stderr, "dslc: -o %s: name the output directory itself (e.g. -o ../out): dslc replaces it by renaming\n", given);
		return NULL;
	}
	return dir;
}

typedef struct listed_check {
	int dirfd;
	arena *ar;
	const char *missing; /* why: an entry whose file is not there */
} listed_check;

/* Every file the manifest lists is in the tree. */
static bool listed_there(void *ctx, json_t *f)
{
	listed_check *lc = ctx;
	const char *path = json_string_value(json_object_get(f, "path"));
	struct stat fs;
	if (path && safe_rel_path(path) && fstatat(lc->dirfd, path, &fs, AT_SYMLINK_NOFOLLOW) == 0)
		return true;
	lc->missing = arena_printf(lc->ar, "has a manifest.json listing '%s', which is not there", path ? safe_echo(lc->ar, path) : "?");
	return false;
}

/* dslc replaces only its own trees: an empty directory, or one whose
 * manifest.json is dslc's (its format marker, or a generator "dslc ..." from
 * before the marker) and lists only files that are there. Never a home
 * directory given by mistake, nor a directory holding a stray manifest.
 * The tree the cache describes (root and manifest.json fingerprints as dslc
 * left them, a manifest.json that begins as dslc's) is dslc's without
 * reading its manifest whole; the cache alone never is (tree_cache.c
 * believes only a cache of this user's that nobody else could write). */
static bool replaceable(int dirfd, const char *cache_path, arena *ar, const char **why)
{
	DIR *d = fdopendir(dup(dirfd));
	bool empty = true;
	if (d) {
		rewinddir(d); /* the dup shares dirfd's offset: start from the top */
		for (struct dirent *e; (e = readdir(d));)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				empty = false;
		closedir(d);
	}
	if (empty)
		return true;
	arena scratch;
	arena_init(&scratch);
	tree_cache c;
	tree_cache_init(&c, &scratch);
	int64_t t = 0;
	bool known = tree_cache_load(&c, cache_path, &scratch) && tree_fp_at(dirfd, NULL, &t) == c.root_fp &&
		     tree_fp_at(dirfd, "manifest.json", &t) == c.manifest_fp && t < c.written_at &&
		     manifest_head_is_ours(dirfd);
	arena_free(&scratch);
	if (known)
		return true;
	int err;
	listed_check lc = {dirfd, ar, NULL};
	int read = manifest_each(dirfd, SIZE_MAX, listed_there, &lc, &err);
	*why = lc.missing ? lc.missing : err == EFBIG ? "has a manifest.json larger than its node count allows"
					  : err ? "has no manifest.json" : "has a manifest.json that dslc did not write";
	return read == 1;
}

/* Refuses what dslc must not replace; opens an existing tree (*dirfd, -1
 * when there is none). 0 or 2. */
static int check_dir(const char *dir, const char *cache_path, bool check_only, int *dirfd, arena *ar)
{
	struct stat sb, pb;
	*dirfd = -1;
	if (lstat(dir, &sb) != 0) {
		if (errno == ENOENT)
			return 0;
		return output_io_error("cannot access", dir);
	}
	if (S_ISLNK(sb.st_mode)) {
		char target[4096];
		ssize_t n = readlink(dir, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "dslc: '%s' is a symbolic link to '%s': dslc replaces its output tree by renaming, "
			"which would replace the link\nhelp: give the directory itself: -o %s\n", dir, target, target);
		return 2;
	}
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		return output_io_error("output is not a directory:", dir);
	}
	char parent[4096];
	split_dir(dir, parent, sizeof(parent));
	if (!check_only && stat(parent, &pb) == 0 && pb.st_dev != sb.st_dev) {
		fprintf(stderr, "dslc: '%s' is a mount point: dslc replaces its output tree by renaming, which a mount point "
			"cannot be\nhelp: build into a directory inside it, e.g. -o %s/out\n", dir, dir);
		return 2;
	}
	*dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*dirfd < 0)
		return output_io_error("cannot open", dir);
	const char *why = NULL;
	if (!check_only && !replaceable(*dirfd, cache_path, ar, &why)) {
		fprintf(stderr, "dslc: '%s' is not empty and %s: refusing to replace it\n"
			"help: give an empty or new directory; dslc owns its output tree\n", dir, why);
		close(*dirfd);
		*dirfd = -1;
		return 2;
	}
	return 0;
}

int output_build(const model *m, const char *given, const output_opts *opts, output_stats *st)
{
	memset(st, 0, sizeof(*st));
	arena ar;
	arena_init(&ar);
	tree_sync s;
	memset(&s, 0, sizeof(s));
	s.m = m;
	s.opts = opts;
	s.st = st;
	s.ar = &ar;
	s.old_root = s.stage_root = -1;
	tree_cache_init(&s.old, &ar);
	tree_cache_init(&s.fresh, &ar);
	strmap_init(&s.unit_by_dir, &ar);
	s.memo = opts->memo ? opts->memo : render_memo_new(&ar);
	tree_units_init(&s.shared, opts->version, &ar);
	for (size_t i = 0; i < PIPELINE_SLOTS; i++) {
		buf_init(&s.pl.slots[i].data);
		arena_init(&s.pl.slots[i].ar);
	}
	pthread_mutex_init(&s.pl.lock, NULL);
	pthread_cond_init(&s.pl.ready, NULL);
	pthread_cond_init(&s.pl.freed, NULL);
	int rc = 2, lock = -1;
	const char *dir = s.dir = output_dir(given, &ar);
	if (!dir)
		goto out;
	s.cache_path = arena_printf(&ar, "%s.dslc-cache", dir);
	s.stage = arena_printf(&ar, "%s.dslc-new-%ld", dir, (long)getpid());
	s.journal_path = arena_printf(&ar, "%s.dslc-journal", dir);
	if (!opts->check && make_parents(dir) != 0) {
		rc = output_io_error("cannot create the parent directories of", dir);
		goto out;
	}
	if (opts->check && access(dir, F_OK) != 0) {
		fprintf(stderr, "dslc: %s does not exist\n", dir);
		st->stale = 1;
		rc = 1;
		goto out;
	}
	if ((lock = lock_tree(dir, opts->check, true)) < 0)
		goto out;
	if (!opts->check) {
		journal_recover(dir, s.journal_path);
		remove_stale_siblings(dir);
	}
	if ((rc = check_dir(dir, s.cache_path, opts->check, &s.old_root, &ar)) != 0)
		goto out;
	rc = sync_tree(&s);
	if (rc && s.stage_root >= 0) {
		close(s.stage_root);
		s.stage_root = -1;
		output_walk_start(s.stage, -1, false);
		output_remove_tree(s.stage);
	}
out:
	if (s.old_root >= 0)
		close(s.old_root);
	if (s.stage_root >= 0)
		close(s.stage_root);
	if (lock >= 0)
		close(lock);
	output_pipeline_finish(&s.pl);
	for (size_t i = 0; i < PIPELINE_SLOTS; i++) {
		buf_free(&s.pl.slots[i].data);
		arena_free(&s.pl.slots[i].ar);
	}
	pthread_mutex_destroy(&s.pl.lock);
	pthread_cond_destroy(&s.pl.ready);
	pthread_cond_destroy(&s.pl.freed);
	arena_free(&ar);
	return rc;
}

int output_read_lock(const char *dir)
{
	return lock_tree(dir, true, false);
}
