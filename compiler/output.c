#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "safety.h"
#include "tree_cache.h"
#include "tree_unit.h"

/* ---- units: a node's directory, or cluster/ -------------------------------- */

typedef struct unit {
	manifest_unit mu;  /* what the manifest lists */
	const char *dir;   /* nodes/<host> or cluster */
	uint8_t key[TREE_KEY_SIZE];
	bool same;         /* the old tree holds exactly these files and nothing else */
	bool relinked;     /* files were hard-linked: fingerprint after the old tree is gone */
	bool moved;        /* its directory was renamed into place: its ctime changed */
	cache_unit *cu;    /* its fingerprints for the next cache */
} unit;

/* A unit on its way: rendered by the main thread, then judged and written
 * by the tree thread. Its files' bytes and both trees' fds. */
typedef struct scratch {
	unit *u;
	buf data;
	rendered *files;
	size_t n, cap;
	tree_entry *entries;
	size_t nentries;
	const tree_layout *shape; /* the layout entries come from, NULL when built here */
	int *old_fd;          /* per directory entry of the old tree, -1 when absent */
	signed char *verdict; /* per file: 1 same, 0 differs, -1 missing */
	uint64_t *fp;         /* per entry */
	int64_t max_time;
	arena ar;             /* reset per unit */
} scratch;

/* A unit handed to the tree thread. With its scratch (bytes and all), or
 * light: the cache vouches for its key and its entries are a layout's, so
 * stat alone judges it and its bytes are not kept. A light unit that stat
 * finds changed is deferred: rendered again and judged by content after
 * the pipeline. */
typedef struct job {
	unit *u;
	scratch *sc;           /* NULL: light */
	const node *nd;        /* to render it again; NULL for cluster/ */
	const tree_layout *shape; /* light: its entries */
	const cache_unit *old; /* light: the cache's record */
	bool deferred;
} job;

/* Rendering and hashing (CPU) and judging and writing (system calls) of
 * the units overlap: the main thread renders unit i + 1 while the tree
 * thread stats or writes unit i. Units go through in order, so messages
 * and the tree are those of a sequential build (deferred units excepted:
 * they occur only in a build, never in --check). Light units hold no slot,
 * so the main thread runs ahead of the tree thread's stats and writes
 * manifest.json meanwhile. The tree thread never allocates from the
 * build's arena: what it fills in was allocated before the unit was
 * handed over. */
enum { PIPELINE_SLOTS = 4 };

typedef struct pipeline {
	scratch slots[PIPELINE_SLOTS];
	job *jobs;               /* one per unit, allocated before the thread starts */
	size_t queued, judged;   /* units handed over and units done */
	size_t taken, freed_slots; /* slots handed over and given back: slot = count % SLOTS */
	bool finished;           /* no more units */
	int rc;                  /* the tree thread's first failure */
	pthread_mutex_t lock;
	pthread_cond_t ready, freed;
	pthread_t thread;
	bool running;
} pipeline;

typedef struct tree_sync {
	const model *m;
	const char *dir, *cache_path, *journal_path;
	const output_opts *opts;
	output_stats *st;
	arena *ar;
	int old_root;   /* -1: there is no old tree */
	int stage_root; /* -1 until something must be written */
	bool stage_has_nodes; /* the stage's nodes/ exists (stage_nodes) */
	const char *stage;
	tree_cache old, fresh;
	bool cache_ok;  /* the old cache describes this tree's top level */
	bool changed;   /* the tree must be replaced */
	bool judged_by_content; /* the next cache differs from the old one (tree thread) */
	bool manifest_by_content; /* the same, found by the main thread */
	bool old_manifest_known; /* the old manifest.json is the one the cache describes */
	unit **units;
	size_t nunits, ucap;
	const char **stale_nodes; /* entries of the old nodes/ that no unit accounts for */
	size_t nstale, stale_cap;
	strmap unit_by_dir;
	render_memo *memo;
	scratch *cur;   /* the unit the main thread renders */
	tree_units shared;
	pipeline pl;
} tree_sync;

static int io_error(const char *what, const char *path)
{
	fprintf(stderr, "dslc: %s '%s': %s\n", what, path, strerror(errno));
	return 2;
}

/* Opens the directory rel (components separated by '/') below root without
 * following a symbolic link at any step. -1 with errno set (ELOOP or
 * ENOTDIR for a link). */
static int dir_at(int root, const char *rel)
{
	int fd = dup(root);
	char comp[256];
	for (const char *p = rel; fd >= 0 && *p;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 0 || n >= sizeof(comp)) {
			close(fd);
			errno = EINVAL;
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		errno = e;
		fd = next;
		p += n + (slash ? 1 : 0);
	}
	return fd;
}

/* 1 same, 0 differs, -1 absent or not a regular file; *st filled when the
 * file could be opened. */
static int same_file(int dirfd, const char *name, const char *data, size_t len, struct stat *st)
{
	if (dirfd < 0 && dirfd != AT_FDCWD)
		return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -1;
	}
	if ((size_t)st->st_size != len) {
		close(fd);
		return 0;
	}
	char chunk[65536];
	size_t off = 0;
	int same = 1;
	while (same && off < len) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			same = 0;
			break;
		}
		same = off + (size_t)n <= len && memcmp(chunk, data + off, (size_t)n) == 0;
		off += (size_t)n;
	}
	close(fd);
	return same && off == len;
}

int output_same_content(int dirfd, const char *name, const char *data, size_t len)
{
	struct stat st;
	return same_file(dirfd, name, data, len, &st);
}

/* ---- removing trees and counting what goes -------------------------------- */

/* nftw has no context argument: the walk in progress. */
static struct {
	size_t root_len;
	int new_root;  /* a file whose path the new tree has is replaced, not removed (-1: count none) */
	size_t removed;
	bool report;   /* --check: name each file */
	size_t stale;
} g_walk;

static void walk_start(const char *root, int new_root, bool report)
{
	g_walk.root_len = strlen(root);
	g_walk.new_root = new_root;
	g_walk.removed = g_walk.stale = 0;
	g_walk.report = report;
}

static void walk_file(const char *path)
{
	if (strlen(path) <= g_walk.root_len)
		return;
	const char *rel = path + g_walk.root_len + 1;
	if (g_walk.report) {
		fprintf(stderr, "dslc: %s: not generated any more\n", rel);
		g_walk.stale++;
		return;
	}
	struct stat st;
	if (g_walk.new_root >= 0 && (fstatat(g_walk.new_root, rel, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode)))
		g_walk.removed++;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	walk_file(path);
	return unlink(path);
}

static void remove_tree(const char *path)
{
	nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
}

static int report_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag != FTW_D && flag != FTW_DP && flag != FTW_DNR)
		walk_file(path);
	return 0;
}

/* --check: names every file below dir/rel (a directory or a file the new
 * tree does not have) as not generated any more; their count. */
static size_t report_extra(tree_sync *s, const char *rel)
{
	if (s->opts->check) {
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
		walk_start(s->dir, -1, true);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			nftw(path, report_entry, 32, FTW_PHYS);
		else
			walk_file(path);
		return g_walk.stale;
	}
	return 1;
}

/* ---- judging and writing a unit ---------------------------------------- */

/* The unit's entries (tree_unit.h) and its per-entry arrays. */
static void make_entries(tree_units *tu, scratch *sc)
{
	sc->shape = tree_unit_entries(tu, sc->files, sc->n, &sc->ar, &sc->entries, &sc->nentries);
	size_t n = sc->nentries;
	sc->old_fd = arena_alloc(&sc->ar, n * sizeof(int));
	sc->fp = arena_alloc(&sc->ar, n * sizeof(uint64_t));
	sc->verdict = arena_alloc(&sc->ar, sc->n + 1);
	for (size_t i = 0; i < n; i++)
		sc->old_fd[i] = -1;
	sc->max_time = 0;
}

static void close_fds(scratch *sc)
{
	for (size_t i = 0; i < sc->nentries; i++) {
		if (sc->old_fd[i] >= 0)
			close(sc->old_fd[i]);
		sc->old_fd[i] = -1;
	}
}

static void note_stat(scratch *sc, size_t i, const struct stat *st)
{
	sc->fp[i] = tree_fp(st);
	int64_t t = tree_time(st);
	if (t > sc->max_time)
		sc->max_time = t;
}

static const char *unit_file_rel(scratch *sc, const tree_entry *e)
{
	return arena_printf(&sc->ar, "%s/%s", sc->u->dir, e->rel);
}

/* The cache's word: the old unit has the rendered key and every entry the
 * recorded fingerprint. */
static bool same_by_cache(tree_sync *s, scratch *sc)
{
	const cache_unit *cu = s->cache_ok ? tree_unit_vouched(&s->old, sc->u->dir, sc->u->key, sc->nentries) : NULL;
	return cu && tree_unit_same_stat(s->old_root, sc->u->dir, cu, sc->entries, sc->nentries, sc->fp, &sc->max_time);
}

/* Entries of an old directory that the unit does not have. */
static size_t unit_extras(tree_sync *s, scratch *sc, size_t d)
{
	int fd = dup(sc->old_fd[d]);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	size_t extra = 0;
	for (struct dirent *de; (de = readdir(dir));) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		bool known = false;
		for (size_t i = 1; i < sc->nentries && !known; i++)
			known = sc->entries[i].parent == (int)d && strcmp(sc->entries[i].base, de->d_name) == 0;
		if (!known) {
			const char *rel = sc->entries[d].rel;
			extra += report_extra(s, arena_printf(&sc->ar, "%s%s%s/%s", sc->u->dir, *rel ? "/" : "", rel, de->d_name));
		}
	}
	closedir(dir);
	return extra;
}

/* Reads the old unit: per file same, differs or missing (reported in
 * --check), and entries that are not generated. True when it holds exactly
 * the rendered files. */
static bool same_by_content(tree_sync *s, scratch *sc)
{
	const unit *u = sc->u;
	bool same = true;
	sc->max_time = 0;
	for (size_t i = 0; i < sc->nentries; i++) {
		const tree_entry *e = &sc->entries[i];
		int parent = e->parent < 0 ? -1 : sc->old_fd[e->parent];
		struct stat st;
		if (e->file < 0) {
			if (e->parent < 0)
				sc->old_fd[i] = s->old_root < 0 ? -1 : dir_at(s->old_root, u->dir);
			else if (parent >= 0)
				sc->old_fd[i] = openat(parent, e->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sc->old_fd[i] >= 0 && fstat(sc->old_fd[i], &st) == 0)
				note_stat(sc, i, &st);
			continue;
		}
		const rendered *f = &sc->files[e->file];
		int v = parent < 0 ? -1 : same_file(parent, e->base, f->data, f->len, &st);
		sc->verdict[e->file] = (signed char)v;
		if (v == 1) {
			note_stat(sc, i, &st);
			continue;
		}
		same = false;
		if (s->opts->check) {
			fprintf(stderr, "dslc: %s: %s\n", unit_file_rel(sc, e), v == 0 ? "differs" : "missing");
			s->st->stale++;
		}
	}
	for (size_t i = 0; i < sc->nentries; i++) {
		if (sc->entries[i].file < 0 && sc->old_fd[i] >= 0) {
			size_t extra = unit_extras(s, sc, i);
			if (extra) {
				same = false;
				s->st->stale += s->opts->check ? extra : 0;
			}
		}
	}
	return same;
}

/* The stage, made once by whichever thread needs it first: the tree
 * thread for a changed unit, the main thread for manifest.json. */
static int stage_open(tree_sync *s)
{
	int rc = 0;
	pthread_mutex_lock(&s->pl.lock);
	if (s->stage_root < 0) {
		walk_start(s->stage, -1, false);
		remove_tree(s->stage);
		if (mkdir(s->stage, 0755) != 0 ||
		    (s->stage_root = open(s->stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			rc = io_error("cannot create", s->stage);
	}
	pthread_mutex_unlock(&s->pl.lock);
	return rc;
}

/* The stage's nodes/, made once: by the tree thread for the first node it
 * writes, or by the commit (after the pipeline) when nodes/ is reused. */
static int stage_nodes(tree_sync *s)
{
	if (s->stage_has_nodes)
		return 0;
	if (mkdirat(s->stage_root, "nodes", 0755) != 0 && errno != EEXIST)
		return io_error("cannot create the directory", "nodes");
	s->stage_has_nodes = true;
	return 0;
}

/* Writes the unit into the staged tree: a file whose bytes the old tree
 * has is hard-linked, so it keeps its inode and mtime. Paths below the
 * unit's directory are resolved from its fd: the stage is dslc's own, made
 * under the lock, so no directory of it is opened on its own (20 system
 * calls per node fewer than an fd per directory). */
static int write_unit(tree_sync *s, scratch *sc)
{
	unit *u = sc->u;
	if (stage_open(s) != 0)
		return 2;
	if (u->mu.host && stage_nodes(s) != 0)
		return 2;
	int ufd = -1;
	if (mkdirat(s->stage_root, u->dir, 0755) != 0 ||
	    (ufd = openat(s->stage_root, u->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return io_error("cannot create the directory", u->dir);
	int rc = 0;
	for (size_t i = 1; i < sc->nentries && !rc; i++) {
		const tree_entry *e = &sc->entries[i];
		if (e->file < 0) {
			if (mkdirat(ufd, e->rel, 0755) != 0)
				rc = io_error("cannot create the directory", unit_file_rel(sc, e));
			continue;
		}
		const rendered *f = &sc->files[e->file];
		int old_parent = sc->old_fd[e->parent];
		if (sc->verdict[e->file] == 1 && old_parent >= 0 && linkat(old_parent, e->base, ufd, e->rel, 0) == 0) {
			u->relinked = true;
			s->st->unchanged++;
			continue;
		}
		int fd = openat(ufd, e->rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, f->mode);
		struct stat st;
		if (fd < 0 || write_all(fd, f->data, f->len) != 0 || fstat(fd, &st) != 0) {
			int err = errno;
			if (fd >= 0)
				close(fd);
			errno = err;
			rc = io_error("cannot write", unit_file_rel(sc, e));
			break;
		}
		note_stat(sc, i, &st);
		if (close(fd) != 0)
			rc = io_error("cannot write", unit_file_rel(sc, e));
		s->st->written++;
	}
	/* directories last: each file created changed its directory's times */
	for (size_t i = 0; i < sc->nentries && !rc; i++) {
		struct stat st;
		if (sc->entries[i].file < 0 && tree_stat_rel(ufd, sc->entries[i].rel, &st) == 0)
			note_stat(sc, i, &st);
	}
	close(ufd);
	return rc;
}

/* A unit's files are all rendered (main thread): its records for the
 * manifest and the next cache, allocated before the tree thread fills
 * them in. False when it has no files. */
static bool unit_begin(tree_sync *s, scratch *sc, const char *host, const char *dir)
{
	sc->u = NULL;
	if (!sc->n)
		return false;
	unit *u = sc->u = arena_alloc(s->ar, sizeof(*u));
	u->dir = u->mu.dir = dir;
	u->mu.host = host;
	u->mu.nfiles = sc->n;
	u->mu.files = arena_alloc(s->ar, sc->n * sizeof(manifest_file));
	for (size_t i = 0; i < sc->n; i++) {
		const rendered *f = &sc->files[i];
		manifest_file *mf = &u->mu.files[i];
		mf->path = f->path;
		mf->target = f->target;
		memcpy(mf->sha, f->sha, RENDER_SHA_SIZE);
		mf->size = (uint32_t)f->len;
		mf->mode = (uint16_t)f->mode;
	}
	tree_unit_key(&s->shared, sc->files, sc->n, u->key);
	if (host)
		tree_node_digest(sc->files, sc->n, u->mu.digest);
	ARENA_PUSH(s->ar, s->units, s->nunits, s->ucap, u);
	strmap_put(&s->unit_by_dir, u->dir, u);
	s->st->files += sc->n;
	make_entries(&s->shared, sc);
	cache_unit *cu = u->cu = arena_alloc(s->ar, sizeof(*cu));
	cu->dir = u->dir;
	memcpy(cu->key, u->key, TREE_KEY_SIZE);
	cu->nfp = (uint32_t)sc->nentries;
	cu->fp = arena_alloc(s->ar, 8 * sc->nentries);
	return true;
}

/* Judges a unit against the old tree and stages it when it differs (tree
 * thread); its fingerprints go to its cache record. */
static int unit_judge(tree_sync *s, scratch *sc)
{
	unit *u = sc->u;
	int rc = 0;
	if (!s->opts->strict && same_by_cache(s, sc)) {
		u->same = true;
	} else {
		s->judged_by_content = true;
		u->same = s->old_root >= 0 && same_by_content(s, sc);
	}
	if (u->same)
		s->st->unchanged += sc->n;
	else if (!s->opts->check) {
		s->changed = true;
		rc = write_unit(s, sc);
	}
	memcpy((unsigned char *)u->cu->fp, sc->fp, 8 * sc->nentries);
	u->cu->max_time = sc->max_time;
	close_fds(sc);
	return rc;
}

/* render_fn: files come unit by unit; a new unit closes the previous. */
static int take_file(void *ctx, const rendered *f)
{
	tree_sync *s = ctx;
	scratch *sc = s->cur;
	/* paths come from validated names only; this is the last line of
	 * defence against one that would leave the tree */
	if (!safe_rel_path(f->rel)) {
		fprintf(stderr, "dslc: refusing to write '%s': not a safe relative path\n", safe_echo(s->ar, f->rel));
		return 2;
	}
	if (f->len > UINT32_MAX) {
		errno = EFBIG;
		return io_error("cannot write", f->rel);
	}
	rendered r = *f;
	size_t off = sc->data.len;
	buf_add(&sc->data, f->data, f->len);
	r.data = (const char *)(uintptr_t)off; /* an offset until the unit is complete: data may move */
	ARENA_PUSH(&sc->ar, sc->files, sc->n, sc->cap, r);
	return 0;
}

static void scratch_reset(scratch *sc)
{
	arena_free(&sc->ar);
	arena_init(&sc->ar);
	buf_reset(&sc->data);
	sc->files = NULL;
	sc->n = sc->cap = 0;
	sc->nentries = 0;
}

/* ---- the pipeline: the main thread renders, the tree thread judges ------ */

/* Judges a light unit by stat (tree thread): unchanged, or deferred. */
static void light_judge(tree_sync *s, job *j)
{
	unit *u = j->u;
	int64_t max_time = 0;
	if (tree_unit_same_stat(s->old_root, u->dir, j->old, j->shape->entries, j->shape->nentries, (uint64_t *)u->cu->fp, &max_time)) {
		u->same = true;
		u->cu->max_time = max_time;
		s->st->unchanged += u->mu.nfiles;
	} else {
		j->deferred = true;
	}
}

static void *tree_thread(void *arg)
{
	tree_sync *s = arg;
	pipeline *pl = &s->pl;
	pthread_mutex_lock(&pl->lock);
	for (;;) {
		while (pl->judged == pl->queued && !pl->finished)
			pthread_cond_wait(&pl->ready, &pl->lock);
		if (pl->judged == pl->queued)
			break;
		job *j = &pl->jobs[pl->judged];
		bool skip = pl->rc != 0;
		pthread_mutex_unlock(&pl->lock);
		int rc = 0;
		if (!skip && j->sc)
			rc = unit_judge(s, j->sc);
		else if (!skip)
			light_judge(s, j);
		pthread_mutex_lock(&pl->lock);
		if (rc && !pl->rc)
			pl->rc = rc;
		pl->judged++;
		if (j->sc) {
			pl->freed_slots++;
			pthread_cond_signal(&pl->freed);
		}
	}
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

static int pipeline_start(tree_sync *s)
{
	pipeline *pl = &s->pl;
	pl->jobs = arena_alloc(s->ar, (s->m->nnodes + 1) * sizeof(job));
	if (pthread_create(&pl->thread, NULL, tree_thread, s) != 0) {
		fprintf(stderr, "dslc: cannot start a thread\n");
		return 2;
	}
	pl->running = true;
	return 0;
}

/* A free slot for the next unit; NULL once the tree thread failed. */
static scratch *pipeline_slot(pipeline *pl)
{
	pthread_mutex_lock(&pl->lock);
	while (pl->taken - pl->freed_slots == PIPELINE_SLOTS && !pl->rc)
		pthread_cond_wait(&pl->freed, &pl->lock);
	scratch *sc = pl->rc ? NULL : &pl->slots[pl->taken % PIPELINE_SLOTS];
	pthread_mutex_unlock(&pl->lock);
	return sc;
}

/* Queues the unit; its slot goes with it unless it is light. */
static void pipeline_hand_over(pipeline *pl, const job *j)
{
	pthread_mutex_lock(&pl->lock);
	pl->jobs[pl->queued++] = *j;
	pl->taken += j->sc != NULL;
	pthread_cond_signal(&pl->ready);
	pthread_mutex_unlock(&pl->lock);
}

static bool pipeline_failed(pipeline *pl)
{
	pthread_mutex_lock(&pl->lock);
	bool failed = pl->rc != 0;
	pthread_mutex_unlock(&pl->lock);
	return failed;
}

/* Waits for the tree thread to finish the units handed over; its rc. */
static int pipeline_finish(pipeline *pl)
{
	if (!pl->running)
		return 0;
	pthread_mutex_lock(&pl->lock);
	pl->finished = true;
	pthread_cond_signal(&pl->ready);
	pthread_mutex_unlock(&pl->lock);
	pthread_join(pl->thread, NULL);
	pl->running = false;
	return pl->rc;
}

/* Renders a node's files, or cluster/'s for NULL, into sc. */
static int render_unit(tree_sync *s, scratch *sc, const node *nd)
{
	scratch_reset(sc);
	s->cur = sc;
	/* rel goes with the unit's scratch: the manifest keeps path and dir */
	int rc = nd ? render_node(s->m, nd, &sc->ar, s->memo, take_file, s) : render_cluster(s->m, &sc->ar, take_file, s);
	for (size_t i = 0; !rc && i < sc->n; i++)
		sc->files[i].data = sc->data.data + (uintptr_t)sc->files[i].data;
	return rc;
}

static int sync_unit(tree_sync *s, const node *nd)
{
	scratch *sc = pipeline_slot(&s->pl);
	if (!sc)
		return 0; /* the tree thread failed: pipeline_finish says how */
	int rc = render_unit(s, sc, nd);
	if (rc || !unit_begin(s, sc, nd ? nd->host : NULL, nd ? arena_printf(s->ar, "nodes/%s", nd->host) : "cluster"))
		return rc;
	job j = {sc->u, sc, nd, NULL, NULL, false};
	/* light: only in a build (--check names differences in order) */
	if (!s->opts->check && s->cache_ok && sc->shape && (j.old = tree_unit_vouched(&s->old, sc->u->dir, sc->u->key, sc->nentries))) {
		j.sc = NULL;
		j.shape = sc->shape;
	}
	pipeline_hand_over(&s->pl, &j);
	return 0;
}

/* Light units that stat found changed, rendered again and judged by
 * content (after the pipeline: rare, a file touched by hand). */
static int judge_deferred(tree_sync *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->pl.queued && !rc; i++) {
		job *j = &s->pl.jobs[i];
		if (!j->deferred)
			continue;
		scratch *sc = &s->pl.slots[0];
		if (!(rc = render_unit(s, sc, j->nd))) {
			sc->u = j->u;
			make_entries(&s->shared, sc);
			rc = unit_judge(s, sc);
		}
	}
	return rc;
}

/* ---- the top level: removed nodes, stray entries, the manifest ---------- */

/* An old entry of the root or of nodes/ that no new unit or top-level
 * file accounts for: reported by --check; one of nodes/ leaves it when
 * nodes/ is reused (plan_moves). */
static void extra_entry(tree_sync *s, const char *rel)
{
	s->changed = true;
	s->st->stale += s->opts->check ? report_extra(s, rel) : 0;
	if (strncmp(rel, "nodes/", 6) == 0)
		ARENA_PUSH(s->ar, s->stale_nodes, s->nstale, s->stale_cap, rel);
}

/* Old entries of a directory (the root or nodes/) that no new unit or
 * top-level file accounts for. */
static void scan_extras(tree_sync *s, const char *rel)
{
	int fd = *rel ? dir_at(s->old_root, rel) : dup(s->old_root);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
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

static void judge_top(tree_sync *s)
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

static void manifest_key(tree_sync *s, uint8_t key[TREE_KEY_SIZE])
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
static bool manifest_same(tree_sync *s, const uint8_t key[TREE_KEY_SIZE])
{
	if (s->old_root < 0)
		return false;
	/* the cache vouches for the old manifest's key (and its units' spans)
	 * while the file keeps its fingerprint: then the keys decide */
	s->old_manifest_known = s->cache_ok && tree_fp_at(s->old_root, "manifest.json", NULL) == s->old.manifest_fp;
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
static int write_manifest(tree_sync *s)
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
		return io_error("cannot write", "manifest.json");
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
				return io_error("cannot stat", u->dir);
		}
		reuse_nodes |= u->mu.host && u->same;
	}
	if (!reuse_nodes)
		return 0;
	if (stage_nodes(s) != 0)
		return 2;
	for (size_t i = 0; i < s->nunits; i++) {
		unit *u = s->units[i];
		if (!u->mu.host || u->same)
			continue;
		struct stat st;
		bool old = fstatat(s->old_root, u->dir, &st, AT_SYMLINK_NOFOLLOW) == 0;
		u->moved = true;
		if (journal_add(j, old ? JOURNAL_EXCHANGE : JOURNAL_PUT, u->dir, s->stage_root) != 0)
			return io_error("cannot stat", u->dir);
	}
	for (size_t i = 0; i < s->nstale; i++)
		if (journal_add(j, JOURNAL_MOVE, s->stale_nodes[i], s->old_root) != 0)
			return io_error("cannot stat", s->stale_nodes[i]);
	return journal_add(j, JOURNAL_EXCHANGE, "nodes", s->stage_root) == 0 ? 0 : io_error("cannot stat", "nodes");
}

/* Completes the stage under the journal and swaps it in. */
static int commit(tree_sync *s)
{
	bool exists = s->old_root >= 0;
	struct stat st;
	if (fstat(s->stage_root, &st) != 0)
		return io_error("cannot stat", s->stage);
	const char *slash = strrchr(s->stage, '/');
	journal j;
	journal_init(&j, s->ar, s->journal_path, slash ? slash + 1 : s->stage, (uint64_t)st.st_ino);
	int rc = exists ? plan_moves(s, &j) : 0;
	if (rc)
		return rc;
	if (j.n && journal_write(&j) != 0)
		return io_error("cannot write", s->journal_path);
	const char *failed = NULL;
	if (journal_apply(&j, s->old_root, s->stage_root, &failed) != 0)
		rc = io_error("cannot move into the new tree:", failed);
	if (!rc && !exists && rename(s->stage, s->dir) != 0)
		rc = io_error("cannot move the new tree to", s->dir);
	if (!rc && exists && renameat2(AT_FDCWD, s->stage, AT_FDCWD, s->dir, RENAME_EXCHANGE) != 0)
		rc = io_error("cannot replace", s->dir); /* tmpfs, ext4, xfs and btrfs have RENAME_EXCHANGE */
	if (rc) {
		if (j.n)
			journal_recover(s->dir, s->journal_path);
		return rc;
	}
	journal_crash_point(j.n + 1);
	if (j.n)
		unlink(s->journal_path);
	if (exists) { /* the stage's name now holds the old tree: what is left of it */
		walk_start(s->stage, s->stage_root, false);
		remove_tree(s->stage);
		s->st->removed = g_walk.removed;
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
	scratch_reset(sc);
	for (size_t i = 0; i < u->mu.nfiles; i++) {
		rendered r = {0};
		r.path = u->mu.files[i].path;
		ARENA_PUSH(&sc->ar, sc->files, sc->n, sc->cap, r);
	}
	make_entries(&s->shared, sc); /* fp zeroed: an entry that cannot be stat'ed never matches */
	for (size_t i = 0; i < sc->nentries; i++) {
		struct stat st;
		if (tree_stat_rel(ufd, sc->entries[i].rel, &st) == 0)
			note_stat(sc, i, &st);
	}
	memcpy(fp, sc->fp, 8 * cu->nfp);
	cu->max_time = sc->max_time;
	close(ufd);
}

/* Moved units' own directories changed ctime with the rename; linked files
 * changed it twice (link, then the old name's removal). */
static void save_cache(tree_sync *s, bool swapped)
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
	if (pipeline_failed(&s->pl))
		return 0; /* pipeline_finish says why */
	uint8_t *key = s->fresh.manifest_key; /* the next cache's too */
	manifest_key(s, key);
	*same = manifest_same(s, key);
	if (*same || s->opts->check)
		return 0;
	int rc = stage_open(s);
	if (!rc)
		rc = write_manifest(s);
	*written = !rc;
	return rc;
}

static int sync_tree(tree_sync *s)
{
	open_cache(s);
	int rc = pipeline_start(s);
	for (size_t i = 0; i < s->m->nnodes && !rc; i++)
		rc = sync_unit(s, &s->m->nodes[i]);
	if (!rc)
		rc = sync_unit(s, NULL);
	bool manifest_ok = false, manifest_written = false;
	if (!rc)
		rc = early_manifest(s, &manifest_ok, &manifest_written);
	int tree_rc = pipeline_finish(&s->pl);
	if (!rc && !tree_rc)
		tree_rc = judge_deferred(s);
	for (size_t i = 0; i < PIPELINE_SLOTS; i++)
		scratch_reset(&s->pl.slots[i]);
	if (rc || (rc = tree_rc))
		return rc;
	judge_top(s);
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
			save_cache(s, false);
		return 0;
	}
	if ((rc = stage_open(s)))
		return rc;
	if (manifest_written)
		s->st->written++;
	else if (manifest_ok && linkat(s->old_root, "manifest.json", s->stage_root, "manifest.json", 0) == 0)
		s->st->unchanged++; /* the same bytes keep their inode and mtime */
	else if ((rc = write_manifest(s)))
		return rc;
	else
		s->st->written++;
	if ((rc = commit(s)))
		return rc;
	save_cache(s, true);
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
		walk_start(path, -1, false);
		remove_tree(path);
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
	int fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && !create && errno == ENOENT)
		return -2;
	if (fd < 0)
		return io_error("cannot open the lock", path), -1;
	int op = shared ? LOCK_SH : LOCK_EX;
	if (flock(fd, op | LOCK_NB) != 0) {
		fprintf(stderr, "dslc: another dslc is building %s; waiting for it (lock %s)\n", dir, path);
		if (flock(fd, op) != 0) {
			io_error("cannot lock", path);
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

/* dslc replaces only its own trees: an empty directory, or one whose
 * manifest.json is dslc's (its format marker, or a generator "dslc ..." from
 * before the marker) and lists only files that are there. Never a home
 * directory given by mistake, nor a directory holding a stray manifest.
 * The tree the cache describes (root and manifest.json fingerprints as dslc
 * left them) is dslc's without reading its manifest. */
static bool replaceable(int dirfd, const char *cache_path, arena *ar, const char **why)
{
	DIR *d = fdopendir(dup(dirfd));
	bool empty = true;
	if (d) {
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
		     tree_fp_at(dirfd, "manifest.json", &t) == c.manifest_fp && t < c.written_at;
	arena_free(&scratch);
	if (known)
		return true;
	int err;
	json_t *root = manifest_read(dirfd, SIZE_MAX, &err);
	*why = err ? "has no manifest.json" : "has a manifest.json that dslc did not write";
	bool ours = root != NULL;
	size_t i;
	json_t *f;
	json_array_foreach(ours ? json_object_get(root, "files") : NULL, i, f) {
		const char *path = json_string_value(json_object_get(f, "path"));
		struct stat fs;
		if (!path || !safe_rel_path(path) || fstatat(dirfd, path, &fs, AT_SYMLINK_NOFOLLOW) != 0) {
			*why = arena_printf(ar, "has a manifest.json listing '%s', which is not there", path ? safe_echo(ar, path) : "?");
			ours = false;
			break;
		}
	}
	json_decref(root);
	return ours;
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
		return io_error("cannot access", dir);
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
		return io_error("output is not a directory:", dir);
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
		return io_error("cannot open", dir);
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
	s.memo = render_memo_new(&ar);
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
		rc = io_error("cannot create the parent directories of", dir);
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
		walk_start(s.stage, -1, false);
		remove_tree(s.stage);
	}
out:
	if (s.old_root >= 0)
		close(s.old_root);
	if (s.stage_root >= 0)
		close(s.stage_root);
	if (lock >= 0)
		close(lock);
	pipeline_finish(&s.pl);
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
