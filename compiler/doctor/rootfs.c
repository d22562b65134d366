/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rootfs.c - reading below a root as chroot(2) would. Components are
 * resolved one at a time from the root's fd: a link's target replaces the
 * rest of the path (an absolute one starts again at the root), `..` pops a
 * resolved component and never the root itself. The last step opens with
 * O_NOFOLLOW, so what is read is what was resolved. */
#include "rootfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/source.h"

enum { ROOTFS_MAX_LINKS = 40, ROOTFS_PATH = 4096 }; /* 40: Linux's MAXSYMLINKS */

bool rootfs_open(rootfs *r, const char *dir, const char **why)
{
	r->ndirs = r->next_dir = 0;
	r->path = dir;
	r->live = strcmp(dir, "/") == 0;
	r->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0)
		*why = src_strerror(errno);
	return r->fd >= 0;
}

void rootfs_close(rootfs *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

/* Appends component c (len n) to the resolved path out (length *olen). */
static bool push(char *out, size_t *olen, const char *c, size_t n)
{
	if (*olen + n + 2 > ROOTFS_PATH)
		return false;
	if (*olen)
		out[(*olen)++] = '/';
	memcpy(out + *olen, c, n);
	*olen += n;
	out[*olen] = '\0';
	return true;
}

static void pop(char *out, size_t *olen)
{
	char *slash = strrchr(out, '/');
	*olen = slash ? (size_t)(slash - out) : 0;
	out[*olen] = '\0';
}

/* rel resolved into out, a path below the root without links (but its last
 * component, when follow_last is false) and without `..`. */
static int resolve(const rootfs *r, const char *rel, bool follow_last, char out[ROOTFS_PATH])
{
	char rest[ROOTFS_PATH];
	if (snprintf(rest, sizeof(rest), "%s", rel) >= (int)sizeof(rest))
		return ENAMETOOLONG;
	size_t olen = 0;
	out[0] = '\0';
	int links = 0;
	char *p = rest;
	while (*p) {
		while (*p == '/')
			p++;
		char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (!n)
			break;
		bool last = !end || !end[strspn(end, "/")];
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			pop(out, &olen);
			p += n;
			continue;
		}
		size_t before = olen;
		if (!push(out, &olen, p, n))
			return ENAMETOOLONG;
		struct stat st;
		if (fstatat(r->fd, out, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return errno;
		if (!S_ISLNK(st.st_mode) || (last && !follow_last)) {
			p += n;
			continue;
		}
		if (++links > ROOTFS_MAX_LINKS)
			return ELOOP;
		char target[ROOTFS_PATH];
		ssize_t t = readlinkat(r->fd, out, target, sizeof(target) - 1);
		if (t < 0)
			return errno;
		target[t] = '\0';
		olen = before;
		out[olen] = '\0';
		if (target[0] == '/') { /* from the root again */
			olen = 0;
			out[0] = '\0';
		}
		char next[ROOTFS_PATH];
		if (snprintf(next, sizeof(next), "%s/%s", target, p + n) >= (int)sizeof(next))
			return ENAMETOOLONG;
		memcpy(rest, next, strlen(next) + 1);
		p = rest;
	}
	return 0;
}

/* The directory part of rel resolved, through the cache: NULL when it
 * cannot be (the full walk then says why). */
static const char *resolved_dir(rootfs *r, const char *rel, size_t n, char out[ROOTFS_PATH])
{
	if (n >= ROOTFS_CACHE_PATH)
		return NULL;
	for (int i = 0; i < r->ndirs; i++)
		if (strlen(r->dirs[i].rel) == n && memcmp(r->dirs[i].rel, rel, n) == 0)
			return r->dirs[i].resolved;
	char dir[ROOTFS_CACHE_PATH];
	memcpy(dir, rel, n);
	dir[n] = '\0';
	if (resolve(r, dir, true, out) != 0 || strlen(out) >= ROOTFS_CACHE_PATH)
		return NULL;
	int k = r->next_dir;
	r->next_dir = (k + 1) % ROOTFS_CACHE;
	if (r->ndirs < ROOTFS_CACHE)
		r->ndirs++;
	memcpy(r->dirs[k].rel, dir, n + 1);
	memcpy(r->dirs[k].resolved, out, strlen(out) + 1);
	return r->dirs[k].resolved;
}

int rootfs_openat(rootfs *r, const char *rel, int flags)
{
	char path[ROOTFS_PATH];
	/* the directory through the cache, its last component opened without
	 * following a link: one call; a link there (ELOOP, or ENXIO... never
	 * for O_PATH) takes the full walk */
	const char *slash = strrchr(rel, '/');
	const char *dir = slash ? resolved_dir(r, rel, (size_t)(slash - rel), path) : NULL;
	if (dir && slash[1] && strcmp(slash + 1, "..") && strcmp(slash + 1, ".")) {
		char full[ROOTFS_PATH];
		if (snprintf(full, sizeof(full), "%s%s%s", dir, *dir ? "/" : "", slash + 1) < (int)sizeof(full)) {
			int fd = openat(r->fd, full, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
			if (fd >= 0 || (errno != ELOOP && errno != ENOTDIR))
				return fd;
		}
	}
	int e = resolve(r, rel, true, path);
	if (e) {
		errno = e;
		return -1;
	}
	return openat(r->fd, path[0] ? path : ".", flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

static rootfs_status status_of(int err)
{
	return err == ENOENT || err == ENOTDIR ? ROOTFS_ABSENT : ROOTFS_UNREADABLE;
}

rootfs_file rootfs_read(arena *a, rootfs *r, const char *rel, size_t max, bool text)
{
	rootfs_file f = {0};
	int fd = rootfs_openat(r, rel, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		f.err = errno;
		f.status = status_of(f.err);
		if (fd >= 0)
			close(fd);
		return f;
	}
	f.mode = st.st_mode & 07777;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		f.status = ROOTFS_NOT_REGULAR;
		return f;
	}
	/* /proc and /sys files say 0 or 4096 bytes whatever they hold: read
	 * until the end, one byte past the bound at most */
	size_t cap = 4096, n = 0;
	char *data = arena_alloc(a, cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap > max)
				break;
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			data = arena_grow(a, data, cap + 1, ncap + 1);
			cap = ncap;
		}
		ssize_t k = read(fd, data + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			f.err = errno;
			f.status = ROOTFS_UNREADABLE;
			close(fd);
			return f;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	if (n > max) {
		f.status = ROOTFS_TOO_LARGE;
		return f;
	}
	data[n] = '\0';
	if (text && memchr(data, '\0', n)) {
		f.status = ROOTFS_BINARY;
		return f;
	}
	f.data = data;
	f.len = n;
	return f;
}

const char *rootfs_link_name(arena *a, rootfs *r, const char *rel)
{
	char path[ROOTFS_PATH], target[ROOTFS_PATH];
	int e = resolve(r, rel, false, path);
	if (e) {
		errno = e;
		return NULL;
	}
	ssize_t t = readlinkat(r->fd, path, target, sizeof(target) - 1);
	if (t < 0)
		return NULL;
	target[t] = '\0';
	while (t > 1 && target[t - 1] == '/')
		target[--t] = '\0';
	const char *slash = strrchr(target, '/');
	return arena_strdup(a, slash ? slash + 1 : target);
}

int rootfs_list(arena *a, rootfs *r, const char *rel, const char **names, int max)
{
	int fd = rootfs_openat(r, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) && n < max;)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = arena_strdup(a, e->d_name);
	closedir(d);
	return n;
}

const char *rootfs_why(arena *a, const rootfs_file *f)
{
	switch (f->status) {
	case ROOTFS_OK:
		return "read";
	case ROOTFS_ABSENT:
		return "absent";
	case ROOTFS_UNREADABLE:
		return arena_printf(a, "unreadable (%s)", src_strerror(f->err));
	case ROOTFS_NOT_REGULAR:
		return "not a regular file (a FIFO, a device or a directory)";
	case ROOTFS_TOO_LARGE:
		return "larger than any such file can be";
	case ROOTFS_BINARY:
		return "binary (a NUL byte)";
	}
	return "?";
}
