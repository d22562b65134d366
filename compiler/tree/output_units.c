/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* output_units.c - see output.h: units rendered, judged and written through the
 * pipeline (output_sync.h). */
#include "output.h"

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

int output_io_error(const char *what, const char *path)
{
	fprintf(stderr, "dslc: %s '%s': %s\n", what, path, strerror(errno));
	return 2;
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

size_t output_walk_removed(void)
{
	return g_walk.removed;
}

void output_walk_start(const char *root, int new_root, bool report)
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

void output_remove_tree(const char *path)
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
size_t output_report_extra(tree_sync *s, const char *rel)
{
	if (s->opts->check) {
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
		output_walk_start(s->dir, -1, true);
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
void output_make_entries(tree_units *tu, scratch *sc)
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

void output_note_stat(scratch *sc, size_t i, const struct stat *st)
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
			extra += output_report_extra(s, arena_printf(&sc->ar, "%s%s%s/%s", sc->u->dir, *rel ? "/" : "", rel, de->d_name));
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
				sc->old_fd[i] = s->old_root < 0 ? -1 : file_dir_at(s->old_root, u->dir);
			else if (parent >= 0)
				sc->old_fd[i] = openat(parent, e->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sc->old_fd[i] >= 0 && fstat(sc->old_fd[i], &st) == 0)
				output_note_stat(sc, i, &st);
			continue;
		}
		const rendered *f = &sc->files[e->file];
		int v = parent < 0 ? -1 : file_same(parent, e->base, f->data, f->len, &st);
		/* the mode is part of the file: a script chmod'ed by hand is stale */
		bool mode_differs = v == 1 && (st.st_mode & 07777) != (f->mode & 07777);
		if (mode_differs)
			v = 0;
		sc->verdict[e->file] = (signed char)v;
		if (v == 1) {
			output_note_stat(sc, i, &st);
			continue;
		}
		same = false;
		if (s->opts->check) {
			if (mode_differs)
				fprintf(stderr, "dslc: %s: mode %04o, not %04o\n", unit_file_rel(sc, e),
					(unsigned)(st.st_mode & 07777), (unsigned)(f->mode & 07777));
			else
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
int output_stage_open(tree_sync *s)
{
	int rc = 0;
	pthread_mutex_lock(&s->pl.lock);
	if (s->stage_root < 0) {
		output_walk_start(s->stage, -1, false);
		output_remove_tree(s->stage);
		if (mkdir(s->stage, 0755) != 0 ||
		    (s->stage_root = open(s->stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			rc = output_io_error("cannot create", s->stage);
	}
	pthread_mutex_unlock(&s->pl.lock);
	return rc;
}

/* The stage's nodes/, made once: by the tree thread for the first node it
 * writes, or by the commit (after the pipeline) when nodes/ is reused. */
int output_stage_nodes(tree_sync *s)
{
	if (s->stage_has_nodes)
		return 0;
	if (mkdirat(s->stage_root, "nodes", 0755) != 0 && errno != EEXIST)
		return output_io_error("cannot create the directory", "nodes");
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
	if (output_stage_open(s) != 0)
		return 2;
	if (u->mu.host && output_stage_nodes(s) != 0)
		return 2;
	int ufd = -1;
	if (mkdirat(s->stage_root, u->dir, 0755) != 0 ||
	    (ufd = openat(s->stage_root, u->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return output_io_error("cannot create the directory", u->dir);
	int rc = 0;
	for (size_t i = 1; i < sc->nentries && !rc; i++) {
		const tree_entry *e = &sc->entries[i];
		if (e->file < 0) {
			if (mkdirat(ufd, e->rel, 0755) != 0)
				rc = output_io_error("cannot create the directory", unit_file_rel(sc, e));
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
		/* the manifest's mode exactly, whatever the umask took away */
		if (fd < 0 || fchmod(fd, f->mode & 07777) != 0 || write_all(fd, f->data, f->len) != 0 || fstat(fd, &st) != 0) {
			int err = errno;
			if (fd >= 0)
				close(fd);
			errno = err;
			rc = output_io_error("cannot write", unit_file_rel(sc, e));
			break;
		}
		output_note_stat(sc, i, &st);
		if (close(fd) != 0)
			rc = output_io_error("cannot write", unit_file_rel(sc, e));
		s->st->written++;
	}
	/* directories last: each file created changed its directory's times */
	for (size_t i = 0; i < sc->nentries && !rc; i++) {
		struct stat st;
		if (sc->entries[i].file < 0 && tree_stat_rel(ufd, sc->entries[i].rel, &st) == 0)
			output_note_stat(sc, i, &st);
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
	output_make_entries(&s->shared, sc);
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
		return output_io_error("cannot write", f->rel);
	}
	rendered r = *f;
	size_t off = sc->data.len;
	buf_add(&sc->data, f->data, f->len);
	r.data = (const char *)(uintptr_t)off; /* an offset until the unit is complete: data may move */
	ARENA_PUSH(&sc->ar, sc->files, sc->n, sc->cap, r);
	return 0;
}

void output_scratch_reset(scratch *sc)
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

int output_pipeline_start(tree_sync *s)
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

bool output_pipeline_failed(pipeline *pl)
{
	pthread_mutex_lock(&pl->lock);
	bool failed = pl->rc != 0;
	pthread_mutex_unlock(&pl->lock);
	return failed;
}

/* Waits for the tree thread to finish the units handed over; its rc. */
int output_pipeline_finish(pipeline *pl)
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
	output_scratch_reset(sc);
	s->cur = sc;
	/* rel goes with the unit's scratch: the manifest keeps path and dir */
	int rc = nd ? render_node(s->m, nd, &sc->ar, s->memo, take_file, s) : render_cluster(s->m, &sc->ar, take_file, s);
	for (size_t i = 0; !rc && i < sc->n; i++)
		sc->files[i].data = sc->data.data + (uintptr_t)sc->files[i].data;
	return rc;
}

int output_sync_unit(tree_sync *s, const node *nd)
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
int output_judge_deferred(tree_sync *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->pl.queued && !rc; i++) {
		job *j = &s->pl.jobs[i];
		if (!j->deferred)
			continue;
		scratch *sc = &s->pl.slots[0];
		if (!(rc = render_unit(s, sc, j->nd))) {
			sc->u = j->u;
			output_make_entries(&s->shared, sc);
			rc = unit_judge(s, sc);
		}
	}
	return rc;
}
