/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Not 1: a sanitizer that kept its own handler exits 1 after its report,
 * which must read as a crash, not as the input's refusal. */
enum { EXIT_REFUSED = 3, EXIT_TOO_BIG = 4 };

static const int FATAL[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGALRM, SIGTRAP};

/* A fatal signal ends the child with that signal's status, whoever had
 * installed a handler before (ASan, libFuzzer, UBSan): the parent reads a
 * crash of the input, and no crash report or fuzzer artifact is made. */
static void die_quietly(int sig)
{
	_exit(128 + sig);
}

/* The address space the child may add to what it inherited: a limit
 * relative to its size at the fork holds under ASan too, whose shadow
 * mapping makes any absolute limit meaningless. */
static void limit_memory(size_t extra)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;
	if (!f)
		return;
	if (fscanf(f, "%lu", &pages) == 1) {
		rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + extra;
		struct rlimit rl = {cap, cap};
		setrlimit(RLIMIT_AS, &rl);
	}
	fclose(f);
}

/* The sanitizers' runtime calls this at its own fatal errors (an allocation
 * past the cap is one under ASan); libFuzzer installs its crash report
 * there. Weak: absent from plain builds. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void child(int (*fn)(void *), void *ctx, unsigned seconds, size_t memory)
{
	if (__sanitizer_set_death_callback) /* the child's death is a verdict, not the fuzzer's crash */
		__sanitizer_set_death_callback(NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = die_quietly;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(FATAL) / sizeof(FATAL[0]); i++)
		sigaction(FATAL[i], &sa, NULL);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0) { /* the library's complaints are not dslc's diagnostics */
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	/* a library may shrug off a failed allocation (hwloc's bitmaps do), so
	 * the limit alone proves nothing: the peak growth of resident memory
	 * decides, and the limit (4 times it) bounds what getting there costs */
	struct rusage before, after;
	getrusage(RUSAGE_SELF, &before);
	if (memory)
		limit_memory(4 * memory);
	alarm(seconds);
	int rc = fn(ctx);
	getrusage(RUSAGE_SELF, &after);
	if (memory && (size_t)(after.ru_maxrss - before.ru_maxrss) * 1024 > memory)
		_exit(EXIT_TOO_BIG);
	_exit(rc ? EXIT_REFUSED : 0);
}

sandbox_result sandbox_run(int (*fn)(void *ctx), void *ctx, unsigned seconds, size_t memory, int *sig)
{
	*sig = 0;
	pid_t pid = fork();
	if (pid < 0)
		return SANDBOX_UNAVAILABLE;
	if (pid == 0)
		child(fn, ctx, seconds, memory);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return SANDBOX_UNAVAILABLE;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (code == 0 || code == EXIT_REFUSED)
		return code ? SANDBOX_REFUSED : SANDBOX_OK;
	if (code == EXIT_TOO_BIG)
		return SANDBOX_TOO_BIG;
	*sig = code > 128 ? code - 128 : 0;
	return *sig == SIGALRM ? SANDBOX_TIMEOUT : SANDBOX_CRASHED;
}
