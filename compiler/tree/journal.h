/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* journal.h - the renames that assemble a new output tree from the old
 * one's unchanged directories, written to DIR.dslc-journal (and fsync'ed)
 * before the first of them happens, so that a build that fails or dies
 * before its swap can be undone.
 *
 * Three moves, each of one directory named rel (below DIR and below the
 * stage alike) and each recorded with the inode it moves forward:
 *   move rel ino      DIR/rel -> STAGE/rel          (ino: DIR/rel's)
 *   put rel ino       STAGE/rel -> DIR/rel          (ino: STAGE/rel's)
 *   exchange rel ino  STAGE/rel <-> DIR/rel         (ino: STAGE/rel's)
 * A move happened when its inode is where it goes: undoing one checks that
 * and renames back (RENAME_NOREPLACE, or an exchange), newest first.
 * Nothing is undone once DIR is the stage (the journal's stage inode):
 * the tree swap happened and the new tree is whole. */
#ifndef DSLC_JOURNAL_H
#define DSLC_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/base/arena.h"

typedef enum journal_kind { JOURNAL_MOVE, JOURNAL_PUT, JOURNAL_EXCHANGE } journal_kind;

typedef struct journal_op {
	journal_kind kind;
	const char *rel; /* "cluster", "nodes" or "nodes/<name>" */
	uint64_t ino;
} journal_op;

typedef struct journal {
	arena *ar;
	const char *path;  /* DIR.dslc-journal */
	const char *stage; /* the stage's name, beside DIR */
	uint64_t stage_ino;
	journal_op *ops;
	size_t n, cap;
} journal;

void journal_init(journal *j, arena *ar, const char *path, const char *stage, uint64_t stage_ino);
/* Adds a move of rel; its inode is read from from_fd (the side it leaves).
 * 0, or -1 with errno when rel cannot be stat'ed there. */
int journal_add(journal *j, journal_kind kind, const char *rel, int from_fd);

/* Writes and fsyncs the journal. 0, or -1 with errno. */
int journal_write(const journal *j);
/* Does the moves in order. 0, or -1 with errno and *failed the rel that
 * could not be moved (the caller reports it and undoes). */
int journal_apply(const journal *j, int dir_fd, int stage_fd, const char **failed);

/* The test seam: DSLC_TEST_CRASH_AFTER=step kills the build here. Steps
 * are 0 before the first move, i after the ith, n + 1 after the swap. */
void journal_crash_point(size_t step);

/* Undoes what the journal at path records for the tree dir, if its swap
 * did not happen, and removes the journal. */
void journal_recover(const char *dir, const char *path);

/* name is <base><suffix><digits>: a stage (".dslc-new-") or old tree of a
 * build of base. */
bool journal_sibling(const char *base, const char *suffix, const char *name);

#endif
