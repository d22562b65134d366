/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rootfs.c - reading below a root as chroot(2) would. Every component is
 * opened from its parent's fd (O_PATH | O_NOFOLLOW: no device's open runs,
 * no link is followed by the kernel), so a directory swapped for a link
 * while doctor reads takes nothing outside the root: the walk holds the fds
 * of the directories it passed, a link's target is spliced in front of the
 * rest and walked the same way (an absolute one from the root's fd), and
 * `..` drops the last fd held, never the root's. The file is opened for
 * reading from the fd of its directory, only once it is known to be a
 * regular file (src_open_regular). */
#include "rootfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/source.h"

/* 40: Linux's MAXSYMLINKS; a path below the root at most ROOTFS_DEPTH
 * directories deep (sysfs's deepest PCI paths are about 20) */
enum { ROOTFS_MAX_LINKS = 40, ROOTFS_PATH = 4096, ROOTFS_DEPTH = 128 };

bool rootfs_open(rootfs *r, const char *dir, const char **why)
{
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

/* The directories a walk holds: fd[0] is the root's (not ours to close). */
typedef struct walk {
	int fd[ROOTFS_DEPTH];
	int depth;
} walk;

static void walk_pop(walk *w)
{
	if (w->depth > 0)
		close(w->fd[w->depth--]);
}

static void walk_end(walk *w)
{
	while (w->depth > 0)
		walk_pop(w);
}

/* The last link's target (readlinkat of an O_PATH fd of the link itself,
 * with an empty name: what the walk checked is what is read). */
static int link_target(int fd, char out[ROOTFS_PATH])
{
	ssize_t t = readlinkat(fd, "", out, ROOTFS_PATH - 1);
	if (t < 0)
		return errno;
	out[t] = '\0';
	return 0;
}

/* rel walked from the root: *dir is an fd (O_PATH) of the directory that
 * holds what rel names and name its entry there ("." when rel names a
 * directory reached by `..` or a link to one). The last component is
 * itself followed when it is a link and follow_last. 0, or an errno. */
static int walk_to(const rootfs *r, const char *rel, bool follow_last, int *dir, char name[NAME_MAX + 1])
{
	char rest[ROOTFS_PATH];
	if (snprintf(rest, sizeof(rest), "%s", rel) >= (int)sizeof(rest))
		return ENAMETOOLONG;
	walk w = {.fd = {r->fd}, .depth = 0};
	int links = 0, e = 0;
	snprintf(name, NAME_MAX + 1, ".");
	for (char *p = rest; *p;) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (!n)
			break;
		bool last = !p[n + strspn(p + n, "/")];
		/* "file/" names a directory or nothing: the kernel follows a last
		 * link there and refuses what is not a directory (ENOTDIR) */
		bool must_dir = last && p[n] == '/';
		snprintf(name, NAME_MAX + 1, ".");
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			walk_pop(&w);
			p += n;
			continue;
		}
		if (n > NAME_MAX) {
			e = ENAMETOOLONG;
			break;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		int fd = openat(w.fd[w.depth], name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0) {
			e = errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st.st_mode) && (!last || follow_last || must_dir)) {
			char target[ROOTFS_PATH], next[ROOTFS_PATH];
			e = ++links > ROOTFS_MAX_LINKS ? ELOOP : link_target(fd, target);
			close(fd);
			if (e)
				break;
			/* the rest keeps its own slashes: a last link adds none */
			if (snprintf(next, sizeof(next), "%s%s", target, p + n) >= (int)sizeof(next)) {
				e = ENAMETOOLONG;
				break;
			}
			if (target[0] == '/') /* from the root again */
				walk_end(&w);
			memcpy(rest, next, strlen(next) + 1);
			p = rest;
			snprintf(name, NAME_MAX + 1, ".");
			continue;
		}
		if (last) {
			e = must_dir && !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
			close(fd);
			break;
		}
		if (!S_ISDIR(st.st_mode) || w.depth + 1 >= ROOTFS_DEPTH) {
			e = S_ISDIR(st.st_mode) ? ENAMETOOLONG : ENOTDIR;
			close(fd);
			break;
		}
		w.fd[++w.depth] = fd;
		p += n;
	}
	if (e) {
		walk_end(&w);
		return e;
	}
	/* the directory that holds name is ours; the rest are closed */
	int top = w.depth ? w.fd[w.depth] : fcntl(r->fd, F_DUPFD_CLOEXEC, 0);
	if (w.depth)
		w.depth--;
	walk_end(&w);
	if (top < 0)
		return errno;
	*dir = top;
	return 0;
}

/* rel's file opened as flags ask (see rootfs.h); -1 with errno, and
 * *walk_err the walk's own failure (0 when the walk reached the entry). */
static int open_in(rootfs *r, const char *rel, int flags, int *walk_err)
{
	int dir;
	char name[NAME_MAX + 1];
	*walk_err = walk_to(r, rel, true, &dir, name);
	if (*walk_err) {
		errno = *walk_err;
		return -1;
	}
	int fd;
	if (flags & O_PATH)
		fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	else if (flags & O_DIRECTORY) /* refused before any open when it is not one */
		fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	else {
		struct stat st;
		fd = src_open_regular(dir, name, true, &st);
	}
	int e = errno;
	close(dir);
	errno = e;
	return fd;
}

int rootfs_openat(rootfs *r, const char *rel, int flags)
{
	int walk_err;
	return open_in(r, rel, flags, &walk_err);
}

/* A failed open's status: the walk's errors are absence or unreadable (a
 * link loop too); the last step's, a type that is not a regular file (a
 * link there was swapped in after the walk followed the one before). */
static rootfs_status status_of(int err, int walk_err)
{
	if (err == ENOENT || err == ENOTDIR)
		return ROOTFS_ABSENT;
	if (!walk_err && (err == EISDIR || err == SRC_ENOTREG || err == ELOOP))
		return ROOTFS_NOT_REGULAR;
	return ROOTFS_UNREADABLE;
}

rootfs_file rootfs_read(arena *a, rootfs *r, const char *rel, size_t max, bool text)
{
	rootfs_file f = {0};
	int walk_err;
	int fd = open_in(r, rel, O_RDONLY, &walk_err);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		f.err = errno;
		f.status = status_of(f.err, walk_err);
		if (fd >= 0)
			close(fd);
		return f;
	}
	f.mode = st.st_mode & 07777;
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
	int dir;
	char name[NAME_MAX + 1], target[ROOTFS_PATH];
	int e = walk_to(r, rel, false, &dir, name);
	if (e) {
		errno = e;
		return NULL;
	}
	ssize_t t = readlinkat(dir, name, target, sizeof(target) - 1);
	e = errno;
	close(dir);
	if (t < 0) {
		errno = e;
		return NULL;
	}
	target[t] = '\0';
	while (t > 1 && target[t - 1] == '/')
		target[--t] = '\0';
	const char *slash = strrchr(target, '/');
	const char *last = slash ? slash + 1 : target;
	if (!*last) { /* a link to "/" names nothing: as if it were none */
		errno = EINVAL;
		return NULL;
	}
	return arena_strdup(a, last);
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
