/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_rootfs.c - libFuzzer target: `dslc doctor --root` on a hostile root
 * (compiler/doctor/rootfs.c and every check that reads through it), and
 * `--collect` of what it read. An input is a root in sections:
 *
 *   --- F proc/cmdline        a file; the lines up to the next section
 *   --- L sys/class/net/x -> ../../../outside/f    a symbolic link (any target)
 *   --- D sys/class/net       a directory
 *   --- P proc/meminfo        a FIFO
 *   --- M etc 0000            a mode
 *
 * beside a folder `outside` (WORK/outside) whose every file says
 * OUTSIDE-MARKER (an input holding the marker is passed by: it would put
 * it inside the root). Beyond "no crash, no sanitizer report, no hang" it
 * aborts when
 * - rootfs resolves a path to another file than the kernel's own chroot
 *   resolution (openat2 RESOLVE_IN_ROOT), for every path and link target of
 *   the input and each file doctor reads;
 * - a finding or a byte doctor read holds the marker (a read outside the root);
 * - the snapshot written has an entry that is not a directory, a regular
 *   file of mode 0644 or a link, or `outside` changed (a write outside). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/doctor/checks.h"
#include "compiler/doctor/rootfs.h"
#include "compiler/doctor/snapshot.h"
#include "compiler/lint/compile.h"
#include "compiler/model/topology.h"
#include "tests/unit/chroot_open.h"

#define WORK "/tmp/dslc-fuzz-rootfs"
#define MARKER "OUTSIDE-MARKER"

static compilation comp;
static const node *nd;
static const topology *topo;
static arena keep;
static int have_openat2 = -1;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP || flag == FTW_D)
		chmod(path, 0755);
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void rm_tree(const char *dir)
{
	/* a mode 0000 directory of the input: made searchable on the way in */
	chmod(dir, 0755);
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_CHDIR);
}

/* A path the input may create: relative, parts of [A-Za-z0-9_.:-], no "."
 * or "..": the harness itself never writes outside the root. */
static bool path_ok(const char *s)
{
	if (!*s || *s == '/' || strlen(s) > 200)
		return false;
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, "/");
		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		for (size_t i = 0; i < n; i++) {
			char c = p[i];
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
			      c == ':' || c == '-'))
				return false;
		}
		p += n;
		if (*p)
			p++;
	}
	return true;
}

/* Whether the harness may make rel below root: no existing part of the
 * path is a link (an input's own link would lead the harness's writes out
 * of the root: that would be the harness's write, not dslc's). */
static bool no_link_on_path(const char *root, const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1;; s++) {
		char c = *s;
		if (c == '/' || c == '\0') {
			*s = '\0';
			struct stat st;
			bool link = lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
			*s = c;
			if (link)
				return false;
		}
		if (!c)
			return true;
	}
}

static void mkdirs(const char *root, const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
}

/* Paths to compare with the kernel's resolution: the input's own. */
enum { MAX_PATHS = 64 };
static char paths[MAX_PATHS][256];
static int npaths;

static void remember(const char *s)
{
	if (npaths < MAX_PATHS && strlen(s) < sizeof(paths[0]))
		snprintf(paths[npaths++], sizeof(paths[0]), "%s", s[0] == '/' ? s + 1 : s);
}

static void unpack(const char *text, size_t size, const char *root)
{
	const char *end = text + size;
	for (const char *p = text; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((eol ? eol : end) - p);
		const char *next = eol ? eol + 1 : end;
		if (n < 6 || memcmp(p, "--- ", 4) != 0 || p[5] != ' ') {
			p = next;
			continue;
		}
		char head[512];
		snprintf(head, sizeof(head), "%.*s", (int)(n - 6 < 511 ? n - 6 : 511), p + 6);
		char kind = p[4];
		const char *body = next, *stop = next;
		while (stop < end && !(stop[0] == '-' && end - stop >= 4 && memcmp(stop, "--- ", 4) == 0 &&
				       (stop == text || stop[-1] == '\n'))) {
			const char *e = memchr(stop, '\n', (size_t)(end - stop));
			stop = e ? e + 1 : end;
		}
		char full[PATH_MAX];
		if (kind == 'L') {
			char *arrow = strstr(head, " -> ");
			if (arrow) {
				*arrow = '\0';
				if (path_ok(head) && arrow[4] && no_link_on_path(root, head)) {
					mkdirs(root, head);
					snprintf(full, sizeof(full), "%s/%s", root, head);
					if (symlink(arrow + 4, full) == 0) {
						remember(head);
						remember(arrow + 4);
					}
				}
			}
		} else if (kind == 'M') {
			char *sp = strrchr(head, ' ');
			if (sp) {
				*sp = '\0';
				snprintf(full, sizeof(full), "%s/%s", root, head);
				if (path_ok(head) && no_link_on_path(root, head))
					fchmodat(AT_FDCWD, full, (mode_t)strtoul(sp + 1, NULL, 8) & 07777, 0);
			}
		} else if (path_ok(head) && no_link_on_path(root, head)) {
			mkdirs(root, head);
			snprintf(full, sizeof(full), "%s/%s", root, head);
			remember(head);
			if (kind == 'F') {
				int fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
				if (fd >= 0) {
					if (write(fd, body, (size_t)(stop - body)) < 0)
						abort();
					close(fd);
				}
			} else if (kind == 'D')
				mkdir(full, 0755);
			else if (kind == 'P')
				mkfifo(full, 0644);
		}
		p = kind == 'F' ? stop : next;
	}
}

static void compare_with_kernel(rootfs *r, const char *rel)
{
	if (!*rel || !have_openat2)
		return;
	int a = rootfs_openat(r, rel, O_PATH);
	int ea = errno;
	int b = chroot_open(r->fd, rel);
	int eb = errno;
	if (b < 0 && (eb == ENOSYS || eb == EPERM)) {
		have_openat2 = 0;
		if (a >= 0)
			close(a);
		return;
	}
	struct stat sa, sb;
	bool same = a >= 0 && b >= 0 ? fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
				      : a < 0 && b < 0;
	/* a name longer than rootfs's path bound: rootfs refuses what the kernel may take */
	if (!same && a < 0 && ea == ENAMETOOLONG)
		same = true;
	if (!same) {
		fprintf(stderr, "%s: rootfs %s, the kernel %s\n", rel, a < 0 ? strerror(ea) : "opened",
			b < 0 ? strerror(eb) : "opened");
		abort();
	}
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
}

static int check_written(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_SL)
		return 0;
	if (flag == FTW_D ? (sb->st_mode & 07777) != 0755 : !S_ISREG(sb->st_mode) || (sb->st_mode & 07777) != 0644) {
		fprintf(stderr, "the snapshot has %s with mode %o\n", path, (unsigned)sb->st_mode);
		abort();
	}
	return 0;
}

static int check_outside(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_F) {
		char buf[64] = {0};
		int fd = open(path, O_RDONLY | O_NOFOLLOW);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n != (ssize_t)strlen(MARKER) || strcmp(buf, MARKER) != 0 || (sb->st_mode & 07777) != 0644) {
			fprintf(stderr, "%s was changed\n", path);
			abort();
		}
	} else if (flag != FTW_D) {
		fprintf(stderr, "%s was made outside the root\n", path);
		abort();
	}
	return 0;
}

static void init(void)
{
	arena_init(&keep);
	if (!compile_file(&comp, "examples/hgx-b200/cluster.dsl") || !(nd = model_node(&comp.m, "gpu005"))) {
		fprintf(stderr, "fuzz_rootfs: run from the repository (examples/hgx-b200)\n");
		abort();
	}
	const char *why;
	topo = topo_load_xml(&keep, "examples/hgx-b200/hgx-b200.xml", true, &why);
	if (!topo)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!nd)
		init();
	/* the marker says "read from outside"; an input that writes it inside
	 * the root (libFuzzer learns it from the comparisons below) says nothing */
	if (memmem(data, size, MARKER, strlen(MARKER)))
		return 0;
	rm_tree(WORK);
	mkdir(WORK, 0755);
	static const char *const outside[] = {"outside/f", "outside/proc/cmdline", "outside/proc/meminfo",
					      "outside/etc/daos/daos_server.yml", "outside/sys/class/net/ens1f0np0/mtu"};
	for (size_t i = 0; i < sizeof(outside) / sizeof(*outside); i++) {
		mkdirs(WORK, outside[i]);
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", WORK, outside[i]);
		FILE *f = fopen(p, "w");
		fputs(MARKER, f);
		fclose(f);
	}
	mkdir(WORK "/root", 0755);
	npaths = 0;
	unpack((const char *)data, size, WORK "/root");

	rootfs root;
	const char *why;
	if (!rootfs_open(&root, WORK "/root", &why))
		abort();
	arena a;
	arena_init(&a);
	diag_ctx dc;
	diag_init(&dc, &a, &comp.src);
	doctor_ctx c = {.ar = &a, .m = &comp.m, .nd = nd, .p = nd->spec->plan, .dc = &dc, .root = &root, .topo = topo,
			.collecting = true};
	snapshot_load_modes(&c);
	if (doctor_render(&c, render_memo_new(&a)))
		doctor_check(&c);
	for (size_t i = 0; i < dc.n; i++)
		if (strstr(dc.items[i]->msg, MARKER)) {
			fprintf(stderr, "a finding quotes a file outside the root: %s\n", dc.items[i]->msg);
			abort();
		}
	for (size_t i = 0; i < c.nseen; i++) {
		if (c.seen[i].data && memmem(c.seen[i].data, c.seen[i].len, MARKER, strlen(MARKER))) {
			fprintf(stderr, "%s was read from outside the root\n", c.seen[i].rel);
			abort();
		}
		remember(c.seen[i].rel);
	}
	for (int i = 0; i < npaths; i++)
		compare_with_kernel(&root, paths[i]);
	/* a snapshot may fail (a name too long): it never writes elsewhere */
	(void)snapshot_write(&c, WORK "/snap", NULL, 0, &why);
	nftw(WORK "/snap", check_written, 16, FTW_PHYS);
	nftw(WORK "/outside", check_outside, 16, FTW_PHYS);
	arena_free(&a);
	rootfs_close(&root);
	return 0;
}
