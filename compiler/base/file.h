/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* file.h - existing files read and compared never through a symbolic link
 * and never blocking on a FIFO: how the build judges a file of the old
 * tree, `dslc plan` reads it, and `lint --fix` checks what it wrote. */
#ifndef DSLC_FILE_H
#define DSLC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "arena.h"

/* 1 when name (under dirfd, AT_FDCWD for a path) is a regular file holding
 * exactly data, 0 when it holds other bytes, -1 when it is absent, not a
 * regular file or unreadable; *st is filled when the file could be opened. */
int file_same(int dirfd, const char *name, const char *data, size_t len, struct stat *st);

/* Opens the directory rel (components separated by '/') below root without
 * following a symbolic link at any step: -1 with errno set (ELOOP or
 * ENOTDIR for a link). The one way into an existing tree. */
int file_dir_at(int root, const char *rel);
/* Reads the regular file rel below root into the arena, NUL-terminated,
 * never through a symbolic link (in any component), never blocking on a
 * FIFO, and checking its size against max before allocating: NULL with
 * errno set (ELOOP, ENOTDIR, SRC_ENOTREG for a device or FIFO, EFBIG).
 * *mode (when mode is not NULL): the permission bits of the file read. */
char *file_read_at(arena *a, int root, const char *rel, size_t max, size_t *len, unsigned *mode);

/* The regular file at path (not a symbolic link: a rename over it would
 * replace the link) still holds exactly text, the bytes that were read; else
 * false with *why. verb names what the user should run on the file itself
 * ("run --fix"). */
bool file_unchanged(arena *a, const char *path, const char *text, size_t len, const char *verb, const char **why);
/* Writes text to path through a temporary beside it (path.dslc-<tag>-<pid>),
 * keeping the mode, then renames it over path: an interruption leaves the
 * old file or the new one. False with *why. */
bool file_replace(arena *a, const char *path, const char *text, size_t len, const char *tag, const char **why);
/* The same for a file that may not exist yet (created 0644 less the umask):
 * a reader sees no file, the old one or the new one, never a part. */
bool file_write_whole(arena *a, const char *path, const char *text, size_t len, const char *tag, const char **why);

#endif
