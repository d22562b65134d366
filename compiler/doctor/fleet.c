/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fleet.c - a fleet's snapshots. Each node is checked in an arena of its
 * own, freed when its findings are queued, so 16,384 nodes cost one node's
 * memory plus their findings; each distinct machine's export is parsed
 * (in hwloc's sandbox) once. */
#include "fleet.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compiler/base/strmap.h"
#include "compiler/base/value.h"
#include "compiler/tree/render.h"
#include "snapshot.h"

struct topo_cache {
	arena *ar;
	strmap by_hash; /* hex of the canonical text's hash -> cache_entry */
	size_t parsed;
};

typedef struct cache_entry {
	const char *xml; /* canonical text, compared on a hash hit */
	size_t len;
	const topology *topo;
	const char *why;
	struct cache_entry *next;
} cache_entry;

topo_cache *topo_cache_new(arena *a)
{
	topo_cache *tc = arena_alloc(a, sizeof(*tc));
	tc->ar = a;
	strmap_init(&tc->by_hash, a);
	return tc;
}

/* The value of every `name="NAME" value="..."` made alike: hex digits of
 * an address become 0 (its length stays), a host name becomes x's. */
static void canonical(char *xml, const char *name, char fill)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "name=\"%s\" value=\"", name);
	size_t n = strlen(pat);
	for (char *p = xml; (p = strstr(p, pat));) {
		p += n;
		for (; *p && *p != '"'; p++)
			if (fill == 'x' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
				*p = fill;
	}
}

/* 64-bit FNV-1a over 8-byte words: fast enough for a fleet's megabytes,
 * and a hit is confirmed byte for byte. */
static uint64_t text_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 1099511628211ULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h ^ len;
}

const topology *topo_cache_get(topo_cache *tc, char *xml, size_t len, const char **why)
{
	canonical(xml, "HostName", 'x');
	canonical(xml, "Address", '0');
	char key[24];
	snprintf(key, sizeof(key), "%016llx", (unsigned long long)text_hash(xml, len));
	cache_entry *first = strmap_get(&tc->by_hash, key);
	for (cache_entry *e = first; e; e = e->next)
		if (e->len == len && memcmp(e->xml, xml, len) == 0) {
			*why = e->why;
			return e->topo;
		}
	cache_entry *e = arena_alloc(tc->ar, sizeof(*e));
	e->xml = arena_strndup(tc->ar, xml, len);
	e->len = len;
	e->topo = topo_parse_xml(tc->ar, e->xml, len, &e->why);
	e->next = first;
	strmap_put(&tc->by_hash, arena_strdup(tc->ar, key), e);
	tc->parsed++;
	*why = e->why;
	return e->topo;
}

size_t topo_cache_parsed(const topo_cache *tc)
{
	return tc->parsed;
}

enum { MAX_EXPORT = 64 << 20 };

void topo_cache_machine(doctor_ctx *c, topo_cache *tc, const char **xml, size_t *len)
{
	const char *why = NULL, *from;
	char *text = NULL;
	*xml = NULL;
	*len = 0;
	if (c->root->live) {
		from = "hwloc's view of this machine";
		text = topo_export_live(c->ar, len, &why);
	} else {
		from = doctor_path(c, SNAPSHOT_TOPOLOGY);
		rootfs_file f = rootfs_read(c->ar, c->root, SNAPSHOT_TOPOLOGY, MAX_EXPORT, true);
		if (f.status == ROOTFS_ABSENT)
			return; /* doctor_check says it: give --topology */
		text = (char *)f.data; /* the read's own copy: the cache makes it canonical */
		*len = f.len;
		if (!text)
			why = rootfs_why(c->ar, &f);
	}
	if (text) {
		if (c->collecting) /* as read, before the cache changes it */
			*xml = arena_strndup(c->ar, text, *len);
		c->topo = topo_cache_get(tc, text, *len, &why);
	}
	if (!c->topo) {
		diag *d = doctor_report(c, R_NODE_UNCHECKED, doctor_node_loc(c), "the machine not checked: %s: %s", from, why);
		diag_help(c->dc, d, "give the node's export: --topology node.xml (lstopo --of xml > node.xml on the node)");
		if (c->strict)
			diag_set_severity(c->dc, d, SEV_ERROR);
		c->topo_unchecked = true;
	}
}

/* One node's snapshot: 0, or -1 when it has none. */
static int check_snapshot(const model *m, const node *nd, const char *dir, bool strict, diag_ctx *dc, topo_cache *tc,
			  render_memo *memo)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, nd->host);
	rootfs root;
	const char *why;
	if (!rootfs_open(&root, path, &why))
		return -1;
	arena scratch;
	arena_init(&scratch);
	doctor_ctx c = {.ar = &scratch, .m = m, .nd = nd, .p = nd->spec->plan, .dc = dc, .root = &root, .strict = strict};
	const char *xml;
	size_t len;
	snapshot_load_modes(&c);
	topo_cache_machine(&c, tc, &xml, &len);
	if (doctor_render(&c, memo))
		doctor_check(&c);
	arena_free(&scratch);
	rootfs_close(&root);
	return 0;
}

/* Snapshots of no node: a renamed host, or the wrong description. */
static void strays(const model *m, const char *dir, bool strict, diag_ctx *dc, src_loc at)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	const char *names[8];
	size_t n = 0, total = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || model_node(m, e->d_name))
			continue;
		if (n < 8)
			names[n++] = arena_strdup(dc->ar, e->d_name);
		total++;
	}
	closedir(d);
	if (!total)
		return;
	diag *f = diag_report(dc, R_NODE_UNCHECKED, at, "%zu snapshot%s under %s %s of no node of the description: %s%s",
			      total, total == 1 ? "" : "s", dir, total == 1 ? "is" : "are",
			      hostlist_compress(dc->ar, names, n), total > n ? ", ..." : "");
	if (strict)
		diag_set_severity(dc, f, SEV_ERROR);
}

int fleet_run(const model *m, const char *dir, const node *only, bool strict, diag_ctx *dc)
{
	DIR *top = opendir(dir);
	if (!top) {
		fprintf(stderr, "dslc: cannot read the snapshots '%s': %s\n", dir, strerror(errno));
		return 2;
	}
	closedir(top);
	arena keep;
	arena_init(&keep);
	topo_cache *tc = topo_cache_new(&keep);
	render_memo *memo = render_memo_new(&keep);
	const char **missing = NULL;
	size_t nmissing = 0, cap = 0, checked = 0;
	src_loc first_missing = SRC_LOC_NONE;
	for (size_t i = 0; i < m->nnodes; i++) {
		const node *nd = &m->nodes[i];
		if (only && only != nd)
			continue;
		if (check_snapshot(m, nd, dir, strict, dc, tc, memo) == 0) {
			checked++;
			continue;
		}
		if (!nmissing)
			first_missing = nd->loc;
		ARENA_PUSH(&keep, missing, nmissing, cap, nd->host);
	}
	src_loc at = m->nnodes ? m->nodes[0].loc : SRC_LOC_NONE;
	if (nmissing) {
		diag *d = diag_report(dc, R_NODE_UNCHECKED, first_missing, "%zu node%s %s no snapshot under %s: %s", nmissing,
				      nmissing == 1 ? "" : "s", nmissing == 1 ? "has" : "have", dir,
				      hostlist_compress(dc->ar, missing, nmissing));
		diag_help(dc, d, "collect them on the nodes: dslc doctor FILE --node HOST --collect %s/HOST", dir);
		if (strict)
			diag_set_severity(dc, d, SEV_ERROR);
	}
	if (!only)
		strays(m, dir, strict, dc, at);
	fprintf(stderr, "dslc: %zu node%s checked from %s, %zu distinct machine%s\n", checked, checked == 1 ? "" : "s",
		dir, topo_cache_parsed(tc), topo_cache_parsed(tc) == 1 ? "" : "s");
	arena_free(&keep);
	return 0;
}
