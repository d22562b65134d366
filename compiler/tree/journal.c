/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/safe.h"
#include "compiler/base/source.h"

static const char *const kind_names[] = {"move", "put", "exchange"};

void journal_init(journal *j, arena *ar, const char *path, const char *stage, uint64_t stage_ino)
{
	memset(j, 0, sizeof(*j));
	j->ar = ar;
	j->path = path;
	j->stage = stage;
	j->stage_ino = stage_ino;
}

static uint64_t ino_at(int fd, const char *rel)
{
	struct stat st;
	return fstatat(fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 ? (uint64_t)st.st_ino : 0;
}

int journal_add(journal *j, journal_kind kind, const char *rel, int from_fd)
{
	journal_op op = {kind, rel, ino_at(from_fd, rel)};
	if (!op.ino)
		return -1;
	ARENA_PUSH(j->ar, j->ops, j->n, j->cap, op);
	return 0;
}

int journal_write(const journal *j)
{
	unlink(j->path);
	int fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	fprintf(f, "dslc-journal 2\nstage %s\nino %llu\n", j->stage, (unsigned long long)j->stage_ino);
	for (size_t i = 0; i < j->n; i++)
		fprintf(f, "%s %s %llu\n", kind_names[j->ops[i].kind], j->ops[i].rel, (unsigned long long)j->ops[i].ino);
	/* the moves must not reach the disk before the journal does */
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		int e = errno;
		fclose(f);
		errno = e;
		return -1;
	}
	return fclose(f) == 0 ? 0 : -1;
}

/* A test seam: DSLC_TEST_CRASH_AFTER=N kills the build with SIGKILL after
 * its Nth step, as a power cut or an OOM kill would (tests/tree_tests.sh).
 * Only in the test build (build/dslc-test-hooks, -DDSLC_TEST_HOOKS): the
 * dslc that is installed ignores the variable. */
void journal_crash_point(size_t step)
{
#ifdef DSLC_TEST_HOOKS
	const char *v = getenv("DSLC_TEST_CRASH_AFTER");
	if (v && *v && strtoul(v, NULL, 10) == step)
		kill(getpid(), SIGKILL);
#else
	(void)step;
#endif
}

int journal_apply(const journal *j, int dir_fd, int stage_fd, const char **failed)
{
	journal_crash_point(0);
	for (size_t i = 0; i < j->n; i++) {
		const journal_op *op = &j->ops[i];
		int r;
		if (op->kind == JOURNAL_MOVE)
			r = renameat(dir_fd, op->rel, stage_fd, op->rel);
		else if (op->kind == JOURNAL_PUT)
			r = renameat2(stage_fd, op->rel, dir_fd, op->rel, RENAME_NOREPLACE);
		else
			r = renameat2(stage_fd, op->rel, dir_fd, op->rel, RENAME_EXCHANGE);
		if (r != 0) {
			*failed = op->rel;
			return -1;
		}
		journal_crash_point(i + 1);
	}
	return 0;
}

bool journal_sibling(const char *base, const char *suffix, const char *name)
{
	size_t bl = strlen(base), sl = strlen(suffix);
	if (strncmp(name, base, bl) != 0 || strncmp(name + bl, suffix, sl) != 0)
		return false;
	const char *pid = name + bl + sl;
	return *pid && strspn(pid, "0123456789") == strlen(pid);
}

/* The names a journal may move: never a path out of the tree. */
static bool rel_ok(const char *rel)
{
	return safe_rel_path(rel) && (strcmp(rel, "cluster") == 0 || strcmp(rel, "nodes") == 0 ||
				      (strncmp(rel, "nodes/", 6) == 0 && rel[6] && !strchr(rel + 6, '/')));
}

/* Puts one move back when it happened (its inode is where it went). */
static void undo(int dir_fd, int stage_fd, const journal_op *op)
{
	if (op->kind == JOURNAL_MOVE) {
		/* version 1 journals recorded no inode: NOREPLACE alone decides */
		if (!op->ino || ino_at(stage_fd, op->rel) == op->ino)
			renameat2(stage_fd, op->rel, dir_fd, op->rel, RENAME_NOREPLACE);
	} else if (ino_at(dir_fd, op->rel) == op->ino) {
		if (op->kind == JOURNAL_PUT)
			renameat2(dir_fd, op->rel, stage_fd, op->rel, RENAME_NOREPLACE);
		else
			renameat2(stage_fd, op->rel, dir_fd, op->rel, RENAME_EXCHANGE);
	}
}

/* Reads the moves after the header; the kinds and names it accepts only. */
static size_t read_ops(FILE *f, int version, arena *ar, journal_op **ops)
{
	size_t n = 0, cap = 0;
	char line[4200], kind[16], rel[4096];
	while (fgets(line, sizeof(line), f)) {
		unsigned long long ino = 0;
		int got = sscanf(line, "%15s %4095s %llu", kind, rel, &ino);
		journal_op op = {JOURNAL_MOVE, NULL, ino};
		bool known = false;
		for (int k = 0; k < 3 && !known; k++)
			if (strcmp(kind, kind_names[k]) == 0) {
				op.kind = (journal_kind)k;
				known = true;
			}
		if (!known || got < (version == 1 ? 2 : 3) || !rel_ok(rel) || (version == 1 && op.kind != JOURNAL_MOVE))
			continue;
		op.rel = arena_strdup(ar, rel);
		ARENA_PUSH(ar, *ops, n, cap, op);
	}
	return n;
}

void journal_recover(const char *dir, const char *path)
{
	/* never through a link, never waiting on a FIFO: only a file dslc wrote */
	struct stat fst;
	int fd = src_open_regular(AT_FDCWD, path, true, &fst);
	if (fd < 0 && (errno == SRC_ENOTREG || errno == ELOOP || errno == EISDIR))
		fprintf(stderr, "dslc: %s is not a journal dslc wrote (not a regular file): ignored\n", path);
	FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	arena ar;
	arena_init(&ar);
	char parent[4096], stage[4096] = "", line[64];
	const char *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : dir;
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - dir) + (slash == dir) : 1, slash ? dir : ".");
	unsigned long long ino = 0;
	int version = 0;
	bool ok = fgets(line, sizeof(line), f) && sscanf(line, "dslc-journal %d\n", &version) == 1 &&
		  (version == 1 || version == 2) && fscanf(f, "stage %4095s\nino %llu\n", stage, &ino) == 2 &&
		  journal_sibling(base, ".dslc-new-", stage);
	journal_op *ops = NULL;
	size_t n = ok ? read_ops(f, version, &ar, &ops) : 0;
	fclose(f);
	struct stat st;
	bool swapped = stat(dir, &st) == 0 && st.st_ino == ino;
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int stage_fd = parent_fd >= 0 ? openat(parent_fd, stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (ok && !swapped && dir_fd >= 0 && stage_fd >= 0)
		for (size_t i = n; i-- > 0;)
			undo(dir_fd, stage_fd, &ops[i]);
	if (dir_fd >= 0)
		close(dir_fd);
	if (parent_fd >= 0)
		close(parent_fd);
	if (stage_fd >= 0)
		close(stage_fd);
	arena_free(&ar);
	unlink(path);
}
