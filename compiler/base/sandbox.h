/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* sandbox.h - a function run in a child process, for code dslc does not
 * own that a crafted input can crash or hang: hwloc's XML import
 * dereferences NULL on an object without its complete_cpuset and asserts on
 * others (issue 28). The child's crash or timeout is a verdict on the
 * input, never dslc's own crash. */
#ifndef DSLC_SANDBOX_H
#define DSLC_SANDBOX_H

#include <stddef.h>

typedef enum sandbox_result {
	SANDBOX_OK,       /* fn returned 0 */
	SANDBOX_REFUSED,  /* fn returned nonzero */
	SANDBOX_CRASHED,  /* fn died by a signal (*sig says which) */
	SANDBOX_TIMEOUT,  /* fn ran longer than its seconds */
	SANDBOX_TOO_BIG,  /* fn's resident memory grew past its bytes */
	SANDBOX_UNAVAILABLE /* no child could be made (fork failed) */
} sandbox_result;

/* Runs fn(ctx) in a forked child with the default action restored for the
 * fatal signals (no sanitizer or fuzzer handler reports the child's crash
 * as the parent's), its output discarded, at most seconds of time and, when
 * memory is not 0, at most that many bytes of resident memory more than it
 * inherited (SANDBOX_TOO_BIG; its address space is capped at four times
 * that, so getting there is bounded too). Call it before any thread is started: the child only returns
 * through _exit. */
sandbox_result sandbox_run(int (*fn)(void *ctx), void *ctx, unsigned seconds, size_t memory, int *sig);

#endif
