/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* report.c - how every check reports: the node's host before each
 * message, the node's line when a check has no better one, sizes as
 * operators write them, and the one finding for a part that could not be
 * read. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "snapshot.h"

diag *doctor_report(doctor_ctx *c, rule_id rule, src_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(c->ar, fmt, ap);
	va_end(ap);
	return diag_report(c->dc, rule, loc, "%s: %s", c->nd->host, msg);
}

void doctor_unchecked(doctor_ctx *c, const char *what, const char *rel, const rootfs_file *f)
{
	diag *d = doctor_report(c, R_NODE_UNCHECKED, doctor_node_loc(c), "%s not checked: %s is %s", what,
				doctor_path(c, rel), rootfs_why(c->ar, f));
	if (strcmp(rel, SNAPSHOT_TOPOLOGY) == 0)
		diag_help(c->dc, d, "give the node's export: --topology node.xml (`lstopo --of xml` on the node)");
	else
		diag_help(c->dc, d, "run the check on the node, or collect there and check here: dslc doctor FILE --node %s "
				    "--collect DIR, then --root DIR", c->nd->host);
	if (c->strict)
		diag_set_severity(c->dc, d, SEV_ERROR);
}

src_loc doctor_node_loc(const doctor_ctx *c)
{
	return c->nd->loc;
}

src_loc doctor_loc_or(src_loc a, src_loc b)
{
	return a.file ? a : b;
}

const char *doctor_size(arena *a, uint64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	return u && v != (double)(uint64_t)v ? arena_printf(a, "%.1f %s", v, units[u]) : arena_printf(a, "%.0f %s", v, units[u]);
}
