/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* source.h - source files and the one location type.
 *
 * A location is a file id and a byte range; it flows from the lexer into every
 * AST node, every model field and every diagnostic. Lines and columns are
 * computed only when a location is printed (as jq does). */
#ifndef DSLC_SOURCE_H
#define DSLC_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>

#include "arena.h"

typedef struct src_loc {
	uint32_t file;  /* 0 = no location (built-in default) */
	uint32_t start; /* byte offset of the first byte */
	uint32_t end;   /* byte offset one past the last byte */
} src_loc;

#define SRC_LOC_NONE ((src_loc){0, 0, 0})

typedef struct src_file {
	const char *path;  /* as given or as resolved from include */
	const char *text;  /* NUL-terminated contents */
	size_t len;
	uint32_t *line_starts; /* built on first use */
	uint32_t nlines;
	src_loc included_from; /* where an include statement pulled it in */
} src_file;

/* Texts that stand in for files on disk: an editor's unsaved buffers
 * (`dslc lsp`). find returns the text of path (NUL-terminated, len bytes)
 * or NULL to read the disk. */
typedef struct src_overlay {
	const char *(*find)(void *ctx, const char *path, size_t *len);
	void *ctx;
} src_overlay;

typedef struct src_set {
	arena *ar;
	src_file *files; /* index 0 unused */
	uint32_t nfiles, cap;
	const src_overlay *overlay; /* NULL: every source from disk */
} src_set;

enum { SRC_MAX_FILE_BYTES = 16 * 1024 * 1024 };

/* A set whose loads consult the process's overlay (src_overlay_install). */
void src_set_init(src_set *s, arena *ar);
/* The overlay every source set made after this call consults (NULL: none).
 * Process-wide, as the editor's buffers are: `dslc lsp` installs it once,
 * and every compilation it runs (includes, the includer search's
 * candidates, hand-written YAML) then reads the buffers. */
void src_overlay_install(const src_overlay *o);
/* Adds a file whose text is in memory; the set keeps its own copy, so the
 * caller may free text at once. Returns its id. */
uint32_t src_add(src_set *s, const char *path, const char *text, size_t len);
/* Reads a whole file into the arena, NUL-terminated: a regular file in one
 * allocation of its size, standard input (/dev/stdin, dslc's "-") growing as
 * it is read; any other path that is not a regular file is refused at once
 * (SRC_ENOTREG), whatever regular_only says. NULL with errno set
 * (EISDIR, EFBIG above max bytes, EIO, or fopen's own). Every file dslc
 * reads comes through here: sources, hand-written YAML, topology exports. */
char *src_read_file(arena *a, const char *path, size_t max, bool regular_only, size_t *len);
/* The one way dslc opens a file it reads (a description, an include, a
 * topology export, a settings file, a daos_server.yml, a built tree's
 * file): path (under dirfd, AT_FDCWD for the working directory) opened for
 * reading only once it is known to be a regular file, no device or FIFO
 * ever opened on the way; nofollow: a link is refused too (ELOOP). The fd,
 * or -1 with errno (EISDIR, SRC_ENOTREG, ELOOP, or open's); *st is the
 * file's. */
int src_open_regular(int dirfd, const char *path, bool nofollow, struct stat *st);
/* errno when regular_only refused a FIFO, device or socket: what a file
 * named inside a description (include, topology) must not be. */
#define SRC_ENOTREG ENOTSUP
/* strerror, with dslc's own words for EFBIG, EILSEQ and SRC_ENOTREG. */
const char *src_strerror(int err);
/* Reads a text file (the overlay's text when it has one for path);
 * returns its id, or 0 with errno set (EFBIG over the bound, EILSEQ for a
 * NUL byte). */
uint32_t src_load(src_set *s, const char *path, bool regular_only);
/* The same, the file known by another name in diagnostics ("/dev/stdin"
 * as "<stdin>"). */
uint32_t src_load_as(src_set *s, const char *path, const char *name, bool regular_only);
const src_file *src_get(const src_set *s, uint32_t id);
/* Appends copies of from's files to to, an empty set: the same ids. */
void src_copy_files(src_set *to, const src_set *from);

typedef struct src_pos {
	uint32_t line, col; /* 1-based; col counts bytes */
} src_pos;

src_pos src_position(src_set *s, uint32_t file, uint32_t offset);
/* The text of the line holding offset, without its newline. */
const char *src_line_text(src_set *s, uint32_t file, uint32_t line, size_t *len);
src_loc src_loc_join(src_loc a, src_loc b);
bool src_loc_valid(src_loc l);

#endif
