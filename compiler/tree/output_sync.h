/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* output_sync.h - the build's state, shared by the three files of the
 * output tree writer (private to compiler/tree/): output_units.c judges and writes
 * units through the pipeline, output_top.c handles the top level (stray
 * entries, manifest.json), the commit and the cache after it, output_dir.c
 * the output directory itself (locks, checks) and output_build. */
#ifndef DSLC_OUTPUT_SYNC_H
#define DSLC_OUTPUT_SYNC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "journal.h"
#include "output.h"
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

/* Shared by the three files; each is described where it is defined. */
int output_io_error(const char *what, const char *path);
int output_judge_deferred(tree_sync *s);
void output_judge_top(tree_sync *s);
void output_make_entries(tree_units *tu, scratch *sc);
void output_manifest_key(tree_sync *s, uint8_t key[TREE_KEY_SIZE]);
bool output_manifest_same(tree_sync *s, const uint8_t key[TREE_KEY_SIZE]);
void output_note_stat(scratch *sc, size_t i, const struct stat *st);
bool output_pipeline_failed(pipeline *pl);
int output_pipeline_finish(pipeline *pl);
int output_pipeline_start(tree_sync *s);
void output_remove_tree(const char *path);
size_t output_report_extra(tree_sync *s, const char *rel);
void output_save_cache(tree_sync *s, bool swapped);
void output_scratch_reset(scratch *sc);
int output_stage_nodes(tree_sync *s);
int output_stage_open(tree_sync *s);
int output_sync_unit(tree_sync *s, const node *nd);
void output_walk_start(const char *root, int new_root, bool report);
int output_write_manifest(tree_sync *s);
int output_commit(tree_sync *s);
/* Files removed by the last remove_tree (walk_start counts them). */
size_t output_walk_removed(void);

#endif
