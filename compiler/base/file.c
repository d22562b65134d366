/* file.c - see file.h. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int file_same(int dirfd, const char *name, const char *data, size_t len, struct stat *st)
{
	if (dirfd < 0 && dirfd != AT_FDCWD)
		return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -1;
	}
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
