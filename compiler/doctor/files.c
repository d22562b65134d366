/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* files.c - the node's built tree against the node's files: present, the
 * same bytes, the same mode. A file that differs is named with its first
 * semantic difference (semdiff, as `dslc plan` names a change). */
#include <string.h>

#include "checks.h"
#include "compiler/plan/semdiff.h"

/* Files of a node's tree that are not installed on it: the Redfish body and
 * its script run from the admin host against the BMC. */
static bool installed(const rendered *r)
{
	return strncmp(r->path, "redfish/", 8) != 0;
}

typedef struct first_diff {
	const char *key, *built, *node;
	bool found;
} first_diff;

static void take_first(void *ctx, const char *key, const char *old, const char *new)
{
	first_diff *f = ctx;
	if (f->found)
		return;
	f->found = true;
	f->key = key;
	f->built = old;
	f->node = new;
}

static void report_differs(doctor_ctx *c, const rendered *r, const rootfs_file *f)
{
	first_diff d = {0};
	semdiff(c->ar, semdiff_kind_of(r->target), r->data, r->len, f->data, f->len, take_first, &d);
	diag *g;
	if (!d.found)
		g = doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s differs from the built file in comments or layout only",
				  r->path);
	else if (d.built && d.node)
		g = doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s was changed on the node: %s is %s there, %s built",
				  r->path, d.key, d.node, d.built);
	else if (d.node)
		g = doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s was changed on the node: %s (%s) was added there",
				  r->path, d.key, d.node);
	else
		g = doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s was changed on the node: %s (%s) was removed there",
				  r->path, d.key, d.built);
	diag_help(c->dc, g, "put the change in the description and build again, or install nodes/%s/%s over it",
		  c->nd->host, r->path);
}

void doctor_check_files(doctor_ctx *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		const rendered *r = &c->files[i];
		if (!installed(r))
			continue;
		rootfs_file f = doctor_read(c, r->path, DOCTOR_MAX_FILE);
		switch (f.status) {
		case ROOTFS_ABSENT: {
			diag *d = doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s is missing", r->path);
			diag_help(c->dc, d, "install nodes/%s/%s (mode %04o)", c->nd->host, r->path, (unsigned)r->mode);
			continue;
		}
		case ROOTFS_NOT_REGULAR:
			doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s is not a regular file", r->path);
			continue;
		case ROOTFS_TOO_LARGE:
			doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s is larger than 16 MiB, the built file has %zu bytes",
				      r->path, r->len);
			continue;
		case ROOTFS_UNREADABLE:
		case ROOTFS_BINARY:
			doctor_unchecked(c, arena_printf(c->ar, "/%s", r->path), r->path, &f);
			continue;
		case ROOTFS_OK:
			break;
		}
		if (f.len != r->len || memcmp(f.data, r->data, r->len) != 0)
			report_differs(c, r, &f);
		else if (!c->modes_unknown && (int)f.mode != r->mode) {
			diag *d = doctor_report(c, R_NODE_FILE, doctor_node_loc(c), "/%s has mode %04o, built %04o", r->path, f.mode,
						(unsigned)r->mode);
			diag_help(c->dc, d, "chmod %04o /%s", (unsigned)r->mode, r->path);
		}
	}
}
