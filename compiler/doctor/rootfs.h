/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rootfs.h - a node's files read below a root directory as the node itself
 * would read them: `/` on the node, a mounted image or a collected snapshot
 * off it. A symbolic link resolves with the root as `/` and `..` stops at
 * the root (what chroot(2) gives), so no link leads out of it, even one
 * swapped in while doctor reads; every read is bounded, and only regular
 * files are opened for reading. */
#ifndef DSLC_ROOTFS_H
#define DSLC_ROOTFS_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/base/arena.h"

typedef struct rootfs {
	int fd;           /* the root directory */
	const char *path; /* as given, for messages */
	bool live;        /* "/": the machine dslc runs on */
} rootfs;

typedef enum rootfs_status {
	ROOTFS_OK,
	ROOTFS_ABSENT,      /* no such file (or a component is not a directory) */
	ROOTFS_UNREADABLE,  /* permission, too many links, an I/O error: err says */
	ROOTFS_NOT_REGULAR, /* a FIFO, a device, a socket or a directory */
	ROOTFS_TOO_LARGE,   /* more than the caller's bound */
	ROOTFS_BINARY       /* a NUL byte where text was wanted */
} rootfs_status;

typedef struct rootfs_file {
	rootfs_status status;
	int err;          /* errno of ROOTFS_UNREADABLE */
	const char *data; /* NUL-terminated, ROOTFS_OK only */
	size_t len;
	unsigned mode;    /* permission bits */
} rootfs_file;

/* False with *why when dir is not a directory that can be opened. */
bool rootfs_open(rootfs *r, const char *dir, const char **why);
void rootfs_close(rootfs *r);
/* An fd of rel (relative to the root, '/'-separated), links resolved
 * inside the root: flags O_PATH (any type, nothing opened), O_DIRECTORY (a
 * directory), else O_RDONLY of a regular file only (EISDIR, SRC_ENOTREG: no
 * device or FIFO is ever opened). -1 with errno. */
int rootfs_openat(rootfs *r, const char *rel, int flags);
/* The regular file rel: at most max bytes; text: refuse NUL bytes. */
rootfs_file rootfs_read(arena *a, rootfs *r, const char *rel, size_t max, bool text);
/* The last component of the target of the link rel (a sysfs `driver` link:
 * "nvme"), without following it; NULL with errno (EINVAL: not a link, or
 * one to "/", which names nothing). */
const char *rootfs_link_name(arena *a, rootfs *r, const char *rel);
/* The entries of directory rel (no . or ..), at most max; -1 with errno. */
int rootfs_list(arena *a, rootfs *r, const char *rel, const char **names, int max);
/* What a status means, for a note: "absent", "unreadable (Permission denied)". */
const char *rootfs_why(arena *a, const rootfs_file *f);

#endif
