/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* floor.c - the write floor of `make bench`: creates the directories and
 * files a dslc tree has (paths and sizes read from stdin, one "path size"
 * per line, grouped by directory as dslc writes them) with one
 * open/write/close per file and one mkdir per new directory. Nothing is
 * rendered, hashed, compared or staged: no generator can write the same
 * tree with fewer system calls. usage: floor OUTDIR < list */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char zeros[1 << 20];

/* mkdir -p of the directory part of path, skipping what the previous file
 * already created (files come grouped by directory). */
static int make_dirs(char *path, char *last, size_t last_size)
{
	char *slash = strrchr(path, '/');
	if (!slash)
		return 0;
	*slash = 0;
	int rc = 0;
	if (strcmp(path, last) != 0) {
		for (char *p = path + 1; *p && !rc; p++)
			if (*p == '/') {
				*p = 0;
				rc = mkdir(path, 0755) != 0 && errno != EEXIST;
				*p = '/';
			}
		if (!rc)
			rc = mkdir(path, 0755) != 0 && errno != EEXIST;
		snprintf(last, last_size, "%s", path);
	}
	*slash = '/';
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2 || mkdir(argv[1], 0755) != 0) {
		fprintf(stderr, "usage: floor NEWDIR < list\n");
		return 2;
	}
	if (chdir(argv[1]) != 0)
		return 2;
	char line[4096], last[4096] = "";
	while (fgets(line, sizeof(line), stdin)) {
		char *sp = strrchr(line, ' ');
		if (!sp)
			return 2;
		*sp = 0;
		size_t size = strtoul(sp + 1, NULL, 10);
		if (make_dirs(line, last, sizeof(last)))
			return 1;
		int fd = open(line, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return 1;
		/* a file over 1 MiB (the Ansible inventory of 16,384 nodes is
		 * 5 MB) in writes of at most 1 MiB */
		for (size_t left = size; left;) {
			size_t n = left < sizeof(zeros) ? left : sizeof(zeros);
			if (write(fd, zeros, n) != (ssize_t)n)
				return 1;
			left -= n;
		}
		if (close(fd) != 0)
			return 1;
	}
	return 0;
}
