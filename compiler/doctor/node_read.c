/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* node_read.c - how every check reads the node: through the root
 * (rootfs.c: the live /, a --root copy or a snapshot), each file, link,
 * listing and existence recorded for --collect, a snapshot's recorded modes
 * given back as the node's. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "checks.h"
#include "compiler/base/strmap.h"

static void record(doctor_ctx *c, seen s)
{
	if (!c->collecting)
		return;
	s.rel = arena_strdup(c->ar, s.rel);
	ARENA_PUSH(c->ar, c->seen, c->nseen, c->seen_cap, s);
}

rootfs_file doctor_read(doctor_ctx *c, const char *rel, size_t max)
{
	rootfs_file f = rootfs_read(c->ar, c->root, rel, max, false);
	void *recorded = c->modes ? strmap_get(c->modes, rel) : NULL;
	if (f.status == ROOTFS_OK && recorded) /* a snapshot's copy: the node's mode is the recorded one */
		f.mode = (unsigned)((uintptr_t)recorded - 1);
	if (f.status == ROOTFS_OK)
		record(c, (seen){SEEN_FILE, rel, f.data, f.len, f.mode, NULL, 0});
	/* proc and sys files are text; a NUL in one is not a value to compare */
	if (f.status == ROOTFS_OK && (strncmp(rel, "proc/", 5) == 0 || strncmp(rel, "sys/", 4) == 0) &&
	    memchr(f.data, '\0', f.len)) {
		f.status = ROOTFS_BINARY;
		f.data = NULL;
	}
	return f;
}

const char *doctor_link(doctor_ctx *c, const char *rel, int *err)
{
	errno = 0;
	const char *name = rootfs_link_name(c->ar, c->root, rel);
	*err = name ? 0 : errno;
	if (name)
		record(c, (seen){SEEN_LINK, rel, name, strlen(name), 0, NULL, 0});
	return name;
}

int doctor_list(doctor_ctx *c, const char *rel, const char **names, int max, int *err)
{
	int n = rootfs_list(c->ar, c->root, rel, names, max);
	*err = n < 0 ? errno : 0;
	if (n >= 0) {
		const char **copy = arena_alloc(c->ar, (size_t)(n + 1) * sizeof(*copy));
		memcpy(copy, names, (size_t)n * sizeof(*copy));
		record(c, (seen){SEEN_DIR, rel, NULL, 0, 0, copy, n});
	}
	return n;
}

bool doctor_exists(doctor_ctx *c, const char *rel)
{
	/* an adjacency link (lower_NIC) may point where the root has nothing:
	 * the link itself is what exists */
	int fd = rootfs_openat(c->root, rel, O_RDONLY | O_PATH);
	bool ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	else
		ok = rootfs_link_name(c->ar, c->root, rel) != NULL;
	if (ok)
		record(c, (seen){SEEN_EXISTS, rel, NULL, 0, 0, NULL, 0});
	return ok;
}

const char *doctor_path(const doctor_ctx *c, const char *rel)
{
	const char *root = c->root->live ? "" : c->root->path;
	size_t n = strlen(root);
	return arena_printf(c->ar, "%s%s%s", root, n && root[n - 1] == '/' ? "" : "/", rel);
}
