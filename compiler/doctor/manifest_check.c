/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* manifest_check.c - `dslc doctor --manifest DIR --node HOST`: the node's
 * installed files against the sha256 and mode that the built tree's
 * manifest lists for it, and the running kernel's command line against the
 * parameters of the kernel file installed from that tree. No description
 * and no hwloc: the check a rollout's DSLC_VERIFY runs on each node right
 * after the install, of exactly the tree that was rolled out. */
#include "manifest_check.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks.h"
#include "cmdline.h"
#include "compiler/base/sha256.h"
#include "compiler/tree/manifest.h"
#include "rootfs.h"

typedef struct listed {
	const char *rel, *sha256, *target;
	unsigned mode;
} listed;

typedef struct node_listing {
	arena *a;
	const char *host, *prefix; /* "nodes/HOST/" */
	listed *v;
	size_t n, cap;
	const char *bad; /* an entry of HOST that no dslc manifest holds */
} node_listing;

static const char *entry_str(json_t *e, const char *key)
{
	return json_string_value(json_object_get(e, key));
}

/* A relative path of plain components, as dslc writes them (the manifest
 * schema's pattern): no empty, "." or ".." component. */
static bool plain_path(const char *p)
{
	if (!*p)
		return false;
	for (const char *c = p; *c;) {
		size_t n = strcspn(c, "/");
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c == '/')
			c++;
		if (!*c && c[-1] == '/')
			return false;
	}
	return true;
}

static bool hex64(const char *s)
{
	if (!s || strlen(s) != 64)
		return false;
	return strspn(s, "0123456789abcdef") == 64;
}

/* "0644" as dslc writes modes. */
static bool mode_of(const char *s, unsigned *mode)
{
	if (!s || strlen(s) != 4 || s[0] != '0' || strspn(s, "01234567") != 4)
		return false;
	*mode = (unsigned)strtoul(s, NULL, 8);
	return true;
}

static bool take_entry(void *ctx, json_t *e)
{
	node_listing *l = ctx;
	const char *node = entry_str(e, "node");
	if (!node || strcmp(node, l->host) != 0)
		return true;
	const char *path = entry_str(e, "path"), *sha = entry_str(e, "sha256"), *target = entry_str(e, "target");
	listed f = {0};
	size_t pl = strlen(l->prefix);
	if (!path || strncmp(path, l->prefix, pl) != 0 || !plain_path(path + pl) || !hex64(sha) || !target ||
	    !mode_of(entry_str(e, "mode"), &f.mode)) {
		l->bad = path && strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-") == strlen(path)
				 ? arena_strdup(l->a, path)
				 : "(an entry whose path is not printable)";
		return false;
	}
	f.rel = arena_strdup(l->a, path + pl);
	f.sha256 = arena_strdup(l->a, sha);
	f.target = arena_strdup(l->a, target);
	ARENA_PUSH(l->a, l->v, l->n, l->cap, f);
	return true;
}

/* HOST's entries of DIR/manifest.json; false (said) when it cannot be read,
 * is not dslc's, or lists nothing for HOST. */
static bool read_listing(const char *dir, node_listing *l)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = errno;
	int read = dirfd < 0 ? -1 : manifest_each(dirfd, (size_t)1 << 32, take_entry, l, &err);
	if (dirfd >= 0)
		close(dirfd);
	if (read < 0)
		fprintf(stderr, "dslc: cannot read the manifest '%s/manifest.json': %s\n", dir,
			err == EFBIG ? "larger than a manifest of its node count" : src_strerror(err));
	else if (read == 0 && l->bad)
		fprintf(stderr, "dslc: %s/manifest.json lists %s for %s, which dslc never writes (a path outside nodes/%s/, or "
				"no sha256, target or mode): it is not a manifest dslc wrote\n", dir, l->bad, l->host, l->host);
	else if (read == 0)
		fprintf(stderr, "dslc: %s/manifest.json is not a manifest dslc wrote\n", dir);
	else if (!l->n)
		fprintf(stderr, "dslc: %s/manifest.json lists no file for %s: give the node's name as the description "
				"writes it (nodes/HOST/ of the tree)\n", dir, l->host);
	return read == 1 && l->n;
}

typedef struct mcheck {
	arena *a;
	diag_ctx *dc;
	rootfs *root;
	const char *host, *root_name;
	bool strict;
} mcheck;

static diag *say(mcheck *m, rule_id rule, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static diag *say(mcheck *m, rule_id rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(m->a, fmt, ap);
	va_end(ap);
	return diag_report(m->dc, rule, SRC_LOC_NONE, "%s: %s", m->host, msg);
}

static void unchecked(mcheck *m, const char *what, const char *rel, const rootfs_file *f)
{
	diag *d = say(m, R_NODE_UNCHECKED, "%s not checked: %s%s is %s", what, m->root_name, rel, rootfs_why(m->a, f));
	diag_help(m->dc, d, "run the check on the node as root, or give --root the node's root file system");
	if (m->strict)
		diag_set_severity(m->dc, d, SEV_ERROR);
}

/* The parameters a kernel file of dslc's sets: the grub.d drop-in's
 * GRUB_CMDLINE_LINUX="${GRUB_CMDLINE_LINUX:-} ..." or the script's
 * PARAMS='...' (targets/kernel.c); NULL when the file has neither. */
static const char *kernel_params(arena *a, const char *data)
{
	static const struct {
		const char *head;
		char close;
	} forms[] = {{"GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX:-} ", '"'}, {"PARAMS='", '\''}};
	for (const char *l = data; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++) {
			size_t hl = strlen(forms[i].head);
			if (strncmp(l, forms[i].head, hl) != 0)
				continue;
			const char *v = l + hl, *end = strchr(v, forms[i].close);
			if (end)
				return arena_printf(a, "%.*s", (int)(end - v), v);
		}
	return NULL;
}

static void check_kernel(mcheck *m, const listed *f, const char *data)
{
	const char *params = kernel_params(m->a, data);
	if (!params) {
		diag *d = say(m, R_NODE_UNCHECKED, "the kernel command line not checked: /%s sets no parameters this dslc reads",
			      f->rel);
		diag_help(m->dc, d, "check the node with the description: dslc doctor FILE --node %s", m->host);
		if (m->strict)
			diag_set_severity(m->dc, d, SEV_ERROR);
		return;
	}
	cmdline_word *want = arena_alloc(m->a, CMDLINE_MAX_WORDS * sizeof(*want));
	int nw = cmdline_split(m->a, params, want, CMDLINE_MAX_WORDS);
	rootfs_file pc = rootfs_read(m->a, m->root, "proc/cmdline", DOCTOR_MAX_PROC, true);
	if (pc.status != ROOTFS_OK) {
		unchecked(m, "the kernel command line", "proc/cmdline", &pc);
		return;
	}
	cmdline_word *w = arena_alloc(m->a, CMDLINE_MAX_WORDS * sizeof(*w));
	int n = cmdline_split(m->a, pc.data, w, CMDLINE_MAX_WORDS);
	const char *pagesz = NULL;
	for (int i = 0; i < nw && !pagesz; i++)
		if (strcmp(want[i].name, "hugepagesz") == 0)
			pagesz = want[i].value;
	for (int i = 0; i < nw; i++) {
		const char *value = want[i].value ? want[i].value : "";
		int j, ours;
		if (cmdline_holds(w, n, want[i].name, value, pagesz, &j, &ours))
			continue;
		diag *d = say(m, R_NODE_CMDLINE, "%s (planned in /%s)", cmdline_mismatch(m->a, w, j, ours, want[i].name, value),
			      f->rel);
		diag_note_at(m->dc, d, SRC_LOC_NONE, "%sproc/cmdline: %.*s", m->root_name, (int)strcspn(pc.data, "\n"), pc.data);
		if (j >= 0 && ours >= 0)
			diag_help(m->dc, d, "remove the other %s= from the boot configuration (GRUB_CMDLINE_LINUX in "
					    "/etc/default/grub and its drop-ins, or the BLS entry's options), regenerate it and reboot",
				  want[i].name);
		else
			diag_help(m->dc, d, "regenerate the boot configuration from dslc's file (update-grub, grub2-mkconfig -o "
					    "/boot/grub2/grub.cfg, or /usr/local/sbin/dslc-kernel-cmdline) and reboot");
	}
}

/* Files of a node's tree that are not installed on it: the Redfish body and
 * its script run from the admin host against the BMC (as files.c). */
static bool installed(const listed *f)
{
	return strncmp(f->rel, "redfish/", 8) != 0;
}

static void check_file(mcheck *m, const listed *f)
{
	rootfs_file r = rootfs_read(m->a, m->root, f->rel, DOCTOR_MAX_FILE, false);
	diag *d;
	switch (r.status) {
	case ROOTFS_ABSENT:
		d = say(m, R_NODE_FILE, "/%s is missing", f->rel);
		diag_help(m->dc, d, "install nodes/%s/%s (mode %04o)", m->host, f->rel, f->mode);
		return;
	case ROOTFS_NOT_REGULAR:
		d = say(m, R_NODE_FILE, "/%s is not a regular file", f->rel);
		diag_help(m->dc, d, "install nodes/%s/%s (mode %04o) in its place", m->host, f->rel, f->mode);
		return;
	case ROOTFS_TOO_LARGE:
		d = say(m, R_NODE_FILE, "/%s is larger than 16 MiB, not the built file", f->rel);
		diag_help(m->dc, d, "install nodes/%s/%s (mode %04o) over it", m->host, f->rel, f->mode);
		return;
	case ROOTFS_UNREADABLE:
	case ROOTFS_BINARY:
		unchecked(m, arena_printf(m->a, "/%s", f->rel), f->rel, &r);
		return;
	case ROOTFS_OK:
		break;
	}
	char sha[65];
	sha256_hex(r.data, r.len, sha);
	if (strcmp(sha, f->sha256) != 0) {
		d = say(m, R_NODE_FILE, "/%s is not the built file: sha256 %.16s..., built %.16s...", f->rel, sha, f->sha256);
		diag_help(m->dc, d, "install nodes/%s/%s (mode %04o) over it, or see what differs with dslc doctor FILE --node %s",
			  m->host, f->rel, f->mode, m->host);
		return;
	}
	if (r.mode != f->mode) {
		d = say(m, R_NODE_FILE, "/%s has mode %04o, built %04o", f->rel, r.mode, f->mode);
		diag_help(m->dc, d, "chmod %04o /%s", f->mode, f->rel);
	}
	if (strcmp(f->target, "kernel") == 0)
		check_kernel(m, f, r.data);
}

int doctor_manifest_run(const doctor_opts *o, const char *version)
{
	arena ar;
	arena_init(&ar);
	node_listing l = {.a = &ar, .host = o->node, .prefix = arena_printf(&ar, "nodes/%s/", o->node)};
	rootfs root;
	const char *why;
	int rc = 2;
	if (!read_listing(o->manifest, &l)) {
		arena_free(&ar);
		return 2;
	}
	if (!rootfs_open(&root, o->root ? o->root : "/", &why)) {
		fprintf(stderr, "dslc: cannot open the root '%s': %s\n", o->root, why);
		arena_free(&ar);
		return 2;
	}
	src_set src;
	src_set_init(&src, &ar);
	diag_ctx dc;
	diag_init(&dc, &ar, &src);
	const char *rn = o->root && strcmp(o->root, "/") ? o->root : "";
	mcheck m = {&ar, &dc, &root, o->node, arena_printf(&ar, "%s%s", rn, *rn && rn[strlen(rn) - 1] == '/' ? "" : "/"),
		    o->strict};
	size_t checked = 0;
	for (size_t i = 0; i < l.n; i++)
		if (installed(&l.v[i])) {
			check_file(&m, &l.v[i]);
			checked++;
		}
	for (int i = 0; i < R__COUNT; i++)
		if (o->disabled[i])
			diag_drop_rule(&dc, &rule_table[i]);
	diag_sort(&dc);
	if (report_print(&dc, o->format, stdout, o->max_findings, version) == 0) {
		rc = diag_count(&dc, SEV_ERROR) ? 1 : 0;
		if (o->format == REPORT_TEXT) {
			fflush(stdout);
			unsigned e = diag_count(&dc, SEV_ERROR), n = diag_count(&dc, SEV_NOTE);
			fprintf(stderr, "dslc: %s: %zu file%s of %s/manifest.json checked, %u drift%s, %u note%s\n", o->node, checked,
				checked == 1 ? "" : "s", o->manifest, e, e == 1 ? "" : "s", n, n == 1 ? "" : "s");
		}
	}
	rootfs_close(&root);
	arena_free(&ar);
	return rc;
}
