/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* file.c - see file.h. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "safe.h"
#include "source.h"

int file_same(int dirfd, const char *name, const char *data, size_t len, struct stat *st)
{
	if (dirfd < 0 && dirfd != AT_FDCWD)
		return -1;
	int fd = src_open_regular(dirfd, name, true, st);
	if (fd < 0)
		return -1;
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

/* Opens the directory rel (components separated by '/') below root without
 * following a symbolic link at any step. -1 with errno set (ELOOP or
 * ENOTDIR for a link). */
int file_dir_at(int root, const char *rel)
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

char *file_read_at(arena *a, int root, const char *rel, size_t max, size_t *len, unsigned *mode)
{
	const char *slash = strrchr(rel, '/');
	char dir[4096];
	int parent = root;
	if (slash) {
		size_t n = (size_t)(slash - rel);
		if (n >= sizeof(dir)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		memcpy(dir, rel, n);
		dir[n] = '\0';
		parent = file_dir_at(root, dir);
		if (parent < 0)
			return NULL;
	}
	struct stat st;
	int fd = src_open_regular(parent, slash ? slash + 1 : rel, true, &st);
	int e = errno;
	if (parent != root)
		close(parent);
	if (fd < 0) {
		errno = e;
		return NULL;
	}
	e = (uint64_t)st.st_size > max ? EFBIG : 0;
	if (e) {
		close(fd);
		errno = e;
		return NULL;
	}
	char *data = arena_alloc(a, (size_t)st.st_size + 1);
	size_t n = pread_all(fd, data, (size_t)st.st_size, 0);
	e = errno;
	close(fd);
	if (n != (size_t)st.st_size) {
		errno = n < (size_t)st.st_size && !e ? EIO : e;
		return NULL;
	}
	data[n] = '\0';
	*len = n;
	if (mode)
		*mode = st.st_mode & 07777;
	return data;
}

bool file_unchanged(arena *a, const char *path, const char *text, size_t len, const char *verb, const char **why)
{
	struct stat st, lst;
	int same = file_same(AT_FDCWD, path, text, len, &st);
	if (same == 1)
		return true;
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		*why = arena_printf(a, "it is a symbolic link (to '%s'): %s on the file itself", safe_echo(a, target), verb);
	} else {
		*why = same < 0 ? "not a regular file, or not readable" : "it changed since it was read";
	}
	return false;
}

static bool replace(arena *a, const char *path, const char *text, size_t len, const char *tag, bool create,
		    const char **why)
{
	struct stat st;
	mode_t mode = 0644;
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	else if (!create || errno != ENOENT) {
		*why = strerror(errno);
		return false;
	}
	char *tmp = arena_printf(a, "%s.dslc-%s-%ld", path, tag, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0) {
		*why = strerror(errno);
		return false;
	}
	bool ok = write_all(fd, text, len) == 0 && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		*why = strerror(errno);
		unlink(tmp);
		return false;
	}
	return true;
}

bool file_replace(arena *a, const char *path, const char *text, size_t len, const char *tag, const char **why)
{
	return replace(a, path, text, len, tag, false, why);
}

bool file_write_whole(arena *a, const char *path, const char *text, size_t len, const char *tag, const char **why)
{
	return replace(a, path, text, len, tag, true, why);
}
