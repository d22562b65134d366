/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* chroot_open.h - the oracle doctor's root reader is held against, in the
 * unit test (test_rootfs.c) and the fuzz target (fuzz_rootfs.c): the
 * kernel's own resolution "as though a chroot(2) to dirfd", openat2 with
 * RESOLVE_IN_ROOT, O_PATH (nothing is opened). It fails with EAGAIN when a
 * rename or mount anywhere on the machine races its ".." resolution, and
 * the caller is to retry (openat2(2), ERRORS; fs/namei.c
 * follow_dotdot_rcu's read_seqretry of rename_lock and mount_lock): another
 * test renaming files meanwhile made the unit test fail now and then (CI of
 * stop 61). -1 with errno (ENOSYS or EPERM: no openat2 here). */
#ifndef DSLC_TESTS_CHROOT_OPEN_H
#define DSLC_TESTS_CHROOT_OPEN_H

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int chroot_open(int rootfd, const char *rel)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS};
	int fd = -1;
	for (int tries = 0; tries < 1000; tries++) {
		fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	return fd;
}

#endif
