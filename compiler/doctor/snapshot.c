/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* snapshot.c - a node's reads written back as a root. Paths come from the
 * checks (fixed names and the build's safe file names); the bytes from the
 * node. Everything is created fresh under a new directory (O_EXCL, no
 * link followed), so a hostile node's values cannot steer a write. */
#include "snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/source.h"

/* mkdir -p of rel's directories below fd (rel's last component excluded
 * unless whole). */
static bool make_dirs(int fd, const char *rel, bool whole)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s", rel);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdirat(fd, path, 0755) != 0 && errno != EEXIST)
			return false;
		*p = '/';
	}
	return !whole || mkdirat(fd, path, 0755) == 0 || errno == EEXIST;
}

static bool write_file(int dir, const char *rel, const char *data, size_t len, unsigned mode)
{
	if (!make_dirs(dir, rel, false))
		return false;
	int fd = openat(dir, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST; /* read twice: the same bytes */
	size_t off = 0;
	while (off < len) {
		ssize_t k = write(fd, data + off, len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			close(fd);
			return false;
		}
		off += (size_t)k;
	}
	bool ok = fchmod(fd, mode ? mode : 0644) == 0;
	return close(fd) == 0 && ok;
}

static bool write_seen(int dir, const seen *s)
{
	switch (s->kind) {
	case SEEN_FILE:
		return write_file(dir, s->rel, s->data, s->len, s->mode);
	case SEEN_LINK:
		return make_dirs(dir, s->rel, false) && (symlinkat(s->data, dir, s->rel) == 0 || errno == EEXIST);
	case SEEN_DIR:
		if (!make_dirs(dir, s->rel, true))
			return false;
		for (int i = 0; i < s->nnames; i++) {
			char rel[4096];
			snprintf(rel, sizeof(rel), "%s/%s", s->rel, s->names[i]);
			if (!make_dirs(dir, rel, true))
				return false;
		}
		return true;
	case SEEN_EXISTS: {
		struct stat st;
		return fstatat(dir, s->rel, &st, AT_SYMLINK_NOFOLLOW) == 0 || make_dirs(dir, s->rel, true);
	}
	}
	return false;
}

/* rm -r of a directory this process made (a failed snapshot). */
static void remove_tree(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		DIR *d = fdopendir(fd);
		for (struct dirent *e; d && (e = readdir(d));)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && unlinkat(fd, e->d_name, 0) != 0)
				remove_tree(fd, e->d_name);
		if (d)
			closedir(d);
		else
			close(fd);
	}
	unlinkat(parent, name, AT_REMOVEDIR);
}

bool snapshot_write(const doctor_ctx *c, const char *dir, const char *xml, size_t xml_len, const char **why)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.dslc-tmp-%ld", dir, (long)getpid()) >= (int)sizeof(tmp)) {
		*why = "the path is too long";
		return false;
	}
	struct stat st;
	if (lstat(dir, &st) == 0 && (!S_ISDIR(st.st_mode) || rmdir(dir) != 0)) {
		*why = "it exists and is not an empty directory (a snapshot is written whole, never over another)";
		return false;
	}
	if (mkdir(tmp, 0755) != 0) {
		*why = src_strerror(errno);
		return false;
	}
	int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	bool ok = fd >= 0;
	for (size_t i = 0; ok && i < c->nseen; i++)
		ok = write_seen(fd, &c->seen[i]);
	if (ok && xml)
		ok = write_file(fd, SNAPSHOT_TOPOLOGY, xml, xml_len, 0644);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (ok && rename(tmp, dir) != 0) {
		e = errno;
		ok = false;
	}
	if (!ok) {
		remove_tree(AT_FDCWD, tmp);
		*why = src_strerror(e);
	}
	return ok;
}
