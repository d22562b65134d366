/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* test_rootfs.c - `dslc doctor --root`'s reads resolve links as chroot(2)
 * would: held against the kernel's own resolution, openat2(2) with
 * RESOLVE_IN_ROOT ("as though a chroot(2) to dirfd"), on random trees of
 * relative, absolute and `..` links; then the bounds of a read. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chroot_open.h"
#include "compiler/doctor/rootfs.h"
#include "unit.h"

static const char *const names[] = {"a", "b", "c", "..", ".", "f"};

static void random_path(char *out, size_t cap, unsigned *seed, int depth)
{
	out[0] = '\0';
	if (rand_r(seed) % 4 == 0)
		snprintf(out, cap, "/");
	for (int i = 0; i < depth; i++) {
		size_t n = strlen(out);
		snprintf(out + n, cap - n, "%s%s", n && out[n - 1] != '/' ? "/" : "", names[rand_r(seed) % 6]);
	}
	/* a trailing slash: a directory or nothing (fuzz_rootfs's find: a
	 * file named "f/" was opened) */
	size_t n = strlen(out);
	if (n && out[n - 1] != '/' && rand_r(seed) % 6 == 0)
		snprintf(out + n, cap - n, "/");
}

/* A tree of directories a, b, c two deep, files f, and links of every kind. */
static void random_tree(const char *root, unsigned *seed)
{
	char p[1024], t[256];
	static const char *const dirs[] = {"a", "b", "a/b", "b/c", "a/b/c"};
	for (size_t i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		ck_assert(mkdir(p, 0755) == 0 || errno == EEXIST);
		snprintf(p, sizeof(p), "%s/%s/f", root, dirs[i]);
		FILE *f = fopen(p, "w");
		ck_assert_ptr_nonnull(f);
		fprintf(f, "%s\n", dirs[i]);
		fclose(f);
	}
	for (int k = 0; k < 6; k++) {
		random_path(t, sizeof(t), seed, 1 + rand_r(seed) % 4);
		snprintf(p, sizeof(p), "%s/%s/%c", root, dirs[rand_r(seed) % 5], "cxyz"[k % 4]);
		if (symlink(t[0] ? t : ".", p) != 0)
			ck_assert_int_eq(errno, EEXIST);
	}
}

START_TEST(links_resolve_as_chroot_would)
{
	char tmpl[] = "/tmp/dslc-rootfs-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	int probe = open(tmpl, O_RDONLY | O_DIRECTORY);
	int k = chroot_open(probe, ".");
	if (k < 0 && (errno == ENOSYS || errno == EPERM)) {
		/* a seccomp profile without openat2 (older container runtimes) */
		fprintf(stderr, "skip rootfs: openat2 is not available here (%s)\n", strerror(errno));
		close(probe);
		rmdir(tmpl);
		return;
	}
	close(k);
	close(probe);
	unsigned seed = 42;
	int compared = 0, opened = 0;
	for (int tree = 0; tree < 40; tree++) {
		char root[600];
		snprintf(root, sizeof(root), "%s/t%d", tmpl, tree);
		ck_assert_int_eq(mkdir(root, 0755), 0);
		random_tree(root, &seed);
		rootfs r;
		const char *why;
		ck_assert(rootfs_open(&r, root, &why));
		for (int i = 0; i < 200; i++) {
			char rel[256];
			random_path(rel, sizeof(rel), &seed, 1 + rand_r(&seed) % 5);
			char *q = rel[0] == '/' ? rel + 1 : rel; /* rootfs paths are relative to the root */
			if (!*q)
				continue;
			int a = rootfs_openat(&r, q, O_PATH);
			int ea = errno;
			int b = chroot_open(r.fd, q);
			int eb = errno;
			struct stat sa, sb;
			if (a >= 0 && b >= 0) {
				ck_assert(fstat(a, &sa) == 0 && fstat(b, &sb) == 0);
				ck_assert_msg(sa.st_ino == sb.st_ino, "%s/%s: another file than the kernel's", root, q);
				opened++;
			} else {
				/* rootfs never opens the last link it resolved to: a path
				 * ending in a dangling link is ENOENT for both */
				ck_assert_msg(a < 0 && b < 0, "%s/%s: rootfs %s, the kernel %s", root, q, a < 0 ? strerror(ea) : "opened",
					      b < 0 ? strerror(eb) : "opened");
			}
			if (a >= 0)
				close(a);
			if (b >= 0)
				close(b);
			compared++;
		}
		rootfs_close(&r);
	}
	ck_assert_int_gt(opened, 1000); /* the trees are not all dead ends */
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_gt(compared, 7000);
}
END_TEST

/* A directory swapped with a link out of the root while doctor reads
 * (renameat2 RENAME_EXCHANGE in a child, as fast as it can): every read
 * is the root's own file or absent (the link resolves inside the root, to
 * nothing), never the file outside (issue 53: a walk that checked path
 * strings and let the kernel follow them quoted it in 25-30 of 150 runs). */
START_TEST(a_swapped_directory_never_leads_out)
{
	char base[] = "/tmp/dslc-rootfs-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(base));
	char p[256], q[256];
	snprintf(p, sizeof(p), "%s/outside", base);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/outside/f", base);
	FILE *f = fopen(p, "w");
	fputs("outside", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/root", base);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/root/d", base);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/root/d/f", base);
	f = fopen(p, "w");
	fputs("inside", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/root/d-link", base);
	snprintf(q, sizeof(q), "%s/outside", base);
	ck_assert_int_eq(symlink(q, p), 0); /* absolute: the host's path */
	snprintf(p, sizeof(p), "%s/root/d", base);
	snprintf(q, sizeof(q), "%s/root/d-link", base);
	pid_t child = fork();
	ck_assert(child >= 0);
	if (child == 0) {
		for (;;)
			if (syscall(SYS_renameat2, AT_FDCWD, p, AT_FDCWD, q, RENAME_EXCHANGE) != 0)
				_exit(1);
	}
	snprintf(p, sizeof(p), "%s/root", base);
	rootfs r;
	const char *why;
	ck_assert(rootfs_open(&r, p, &why));
	arena a;
	arena_init(&a);
	int inside = 0, absent = 0, outside = 0;
	for (int i = 0; i < 20000; i++) {
		rootfs_file got = rootfs_read(&a, &r, "d/f", 64, true);
		if (got.status == ROOTFS_OK && strcmp(got.data, "inside") == 0)
			inside++;
		else if (got.status == ROOTFS_OK)
			outside++;
		else
			absent += got.status == ROOTFS_ABSENT;
		if (i % 1000 == 999)
			arena_free(&a), arena_init(&a);
	}
	kill(child, SIGKILL);
	int status;
	waitpid(child, &status, 0);
	arena_free(&a);
	rootfs_close(&r);
	snprintf(p, sizeof(p), "rm -rf %s", base);
	ck_assert_int_eq(system(p), 0);
	ck_assert_msg(WIFSIGNALED(status), "the child's rename failed: the race was not run");
	ck_assert_msg(outside == 0, "%d of 20000 reads quoted the file outside the root (%d inside, %d absent)", outside,
		      inside, absent);
	/* both states were seen: the race ran */
	ck_assert_int_gt(inside, 0);
	ck_assert_int_gt(absent, 0);
}
END_TEST

START_TEST(reads_are_bounded)
{
	char root[] = "/tmp/dslc-rootfs-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char p[128];
	snprintf(p, sizeof(p), "%s/big", root);
	int fd = open(p, O_WRONLY | O_CREAT, 0644);
	ck_assert(fd >= 0 && ftruncate(fd, (off_t)1 << 33) == 0); /* 8 GiB, sparse */
	close(fd);
	snprintf(p, sizeof(p), "%s/fifo", root);
	ck_assert_int_eq(mkfifo(p, 0644), 0);
	snprintf(p, sizeof(p), "%s/nul", root);
	FILE *f = fopen(p, "w");
	fwrite("a\0b", 1, 3, f);
	fclose(f);
	rootfs r;
	const char *why;
	ck_assert(rootfs_open(&r, root, &why));
	arena a;
	arena_init(&a);
	ck_assert_int_eq(rootfs_read(&a, &r, "big", 1 << 20, false).status, ROOTFS_TOO_LARGE);
	ck_assert_int_eq(rootfs_read(&a, &r, "fifo", 1 << 20, false).status, ROOTFS_NOT_REGULAR);
	ck_assert_int_eq(rootfs_read(&a, &r, "nul", 1 << 20, true).status, ROOTFS_BINARY);
	rootfs_file ok = rootfs_read(&a, &r, "nul", 3, false);
	ck_assert(ok.status == ROOTFS_OK && ok.len == 3);
	ck_assert_int_eq(rootfs_read(&a, &r, "nul", 2, false).status, ROOTFS_TOO_LARGE);
	ck_assert_int_eq(rootfs_read(&a, &r, "none/x", 10, false).status, ROOTFS_ABSENT);
	arena_free(&a);
	rootfs_close(&r);
	snprintf(p, sizeof(p), "rm -rf %s", root);
	ck_assert_int_eq(system(p), 0);
}
END_TEST

Suite *suite_rootfs(void)
{
	Suite *s = suite_create("rootfs");
	TCase *tc = tcase_create("rootfs");
	tcase_add_test(tc, links_resolve_as_chroot_would);
	tcase_add_test(tc, a_swapped_directory_never_leads_out);
	tcase_add_test(tc, reads_are_bounded);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
