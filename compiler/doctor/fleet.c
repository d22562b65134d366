/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fleet.c - a fleet's snapshots. Each node is checked in an arena of its
 * own, freed when its findings are queued, so 16,384 nodes cost one node's
 * memory plus their findings; each distinct machine's export is parsed
 * (in hwloc's sandbox) once. */
#include "fleet.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/progress.h"
#include "compiler/base/strmap.h"
#include "compiler/base/value.h"
#include "compiler/tree/render.h"
#include "snapshot.h"

/* The parsed machines most recently needed, each in an arena of its own
 * so that one no node has needed for a while can be given back: a mixed
 * fleet's types, not one entry per node. */
enum { CACHE_KEEP = 16 };

typedef struct cache_entry {
	arena ar;
	uint64_t hash;
	const char *xml; /* canonical text, compared on a hash hit */
	size_t len;
	const topology *topo;
	const char *why;
	size_t used; /* the tick of its last use */
} cache_entry;

struct topo_cache {
	arena *ar;
	cache_entry *entry[CACHE_KEEP];
	int n;
	size_t tick;
	uint64_t *seen; /* the hash of every distinct machine met */
	size_t nseen, seen_cap;
};

topo_cache *topo_cache_new(arena *a)
{
	topo_cache *tc = arena_alloc(a, sizeof(*tc));
	*tc = (topo_cache){.ar = a};
	return tc;
}

void topo_cache_free(topo_cache *tc)
{
	for (int i = 0; i < tc->n; i++) {
		arena_free(&tc->entry[i]->ar);
		free(tc->entry[i]);
	}
	tc->n = 0;
}

/* The export with what differs from node to node of one machine type made
 * alike, in place (never longer): every hwloc info value but a NIC's
 * Address emptied (host name, OS release, DMI serials and UUIDs, drive
 * serial numbers and firmware revisions, InfiniBand GUIDs, hwloc's own
 * version: no check reads them), an Address's hex digits zeroed (its
 * length tells Ethernet from InfiniBand, which a check reads), the pages
 * counted per size (a runtime value) and each NUMA node's memory (the
 * firmware keeps a little more on one node than another: kept aside and
 * given back, see memory_of), and the names Linux gives in probe order that
 * no check reads: an NVMe namespace's block device (nvme%dn%d, its
 * controller's instance from an ida in probe order: drivers/nvme/host/core.c
 * nvme_init_ctrl, nvme_alloc_ns) has its digits zeroed, a SCSI disk's
 * (sd%s, drivers/scsi/sd.c sd_probe's ida) its letters made 'a' (a check
 * asks only whether a drive has a block device; PMem disks, named by their
 * region, and NICs, named by udev from their slot, are kept). Returns the
 * new length. */
static size_t canonical(char *xml, size_t len)
{
	static const char *const blank[] = {" value=\"", " count=\"", " local_memory=\"", " name=\"nvme", " name=\"sd"};
	char *out = xml;
	const char *in = xml, *end = xml + len;
	while (in < end) {
		const char *hit = NULL;
		size_t k = 0;
		for (size_t i = 0; i < sizeof(blank) / sizeof(*blank); i++) {
			const char *h = strstr(in, blank[i]);
			if (h && (!hit || h < hit))
				hit = h, k = i;
		}
		if (!hit)
			break;
		size_t n = (size_t)(hit - in) + strlen(blank[k]);
		memmove(out, in, n);
		out += n;
		in += n;
		const char *q = memchr(in, '"', (size_t)(end - in));
		if (!q)
			break;
		/* an Address keeps its length, digits zeroed */
		bool address = k == 0 && hit - xml >= 15 && memcmp(hit - 15, "name=\"Address\"", 15) == 0;
		if (address)
			for (; in < q; in++)
				*out++ = (*in >= '0' && *in <= '9') || (*in >= 'a' && *in <= 'f') || (*in >= 'A' && *in <= 'F') ? '0' : *in;
		else if (k == 3)
			for (; in < q; in++)
				*out++ = *in >= '0' && *in <= '9' ? '0' : *in;
		else if (k == 4)
			for (; in < q; in++)
				*out++ = *in >= 'a' && *in <= 'z' ? 'a' : *in;
		else if (k > 0)
			*out++ = '0'; /* a number hwloc reads */
		in = q;
	}
	size_t rest = (size_t)(end - in);
	memmove(out, in, rest);
	out[rest] = '\0';
	return (size_t)(out - xml) + rest;
}

/* Each NUMA node's local_memory in the export, by OS index, before
 * canonical() zeroes it: as many as Linux can have (x86's NODES_SHIFT of
 * 10: 1,024). */
enum { FLEET_MAX_NUMA = 1024 };
typedef struct numa_memory {
	int os_index[FLEET_MAX_NUMA];
	uint64_t bytes[FLEET_MAX_NUMA];
	int n;
} numa_memory;

static void memory_of(const char *xml, numa_memory *nm)
{
	nm->n = 0;
	for (const char *p = xml; (p = strstr(p, "type=\"NUMANode\"")) && nm->n < FLEET_MAX_NUMA; p++) {
		const char *close = strchr(p, '>');
		const char *os = strstr(p, " os_index=\""), *mem = strstr(p, " local_memory=\"");
		if (!close || !os || !mem || os > close || mem > close)
			continue;
		nm->os_index[nm->n] = atoi(os + 11);
		nm->bytes[nm->n] = strtoull(mem + 15, NULL, 10);
		nm->n++;
	}
}

/* The cached machine with this export's own memory per NUMA node: a copy
 * of the topology and its NUMA nodes in a (per-node arena); the rest is
 * shared. */
static const topology *with_memory(arena *a, const topology *t, const numa_memory *nm)
{
	topology *copy = arena_alloc(a, sizeof(*copy));
	*copy = *t;
	copy->numa = arena_alloc(a, (size_t)(t->nnuma + 1) * sizeof(*copy->numa));
	memcpy(copy->numa, t->numa, (size_t)t->nnuma * sizeof(*copy->numa));
	for (int n = 0; n < copy->nnuma; n++)
		for (int i = 0; i < nm->n; i++)
			if (nm->os_index[i] == copy->numa[n].os_index)
				copy->numa[n].memory = nm->bytes[i];
	return copy;
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

/* A distinct machine is counted once, however often it is parsed again
 * after it was given back. */
static void count_seen(topo_cache *tc, uint64_t h)
{
	for (size_t i = 0; i < tc->nseen; i++)
		if (tc->seen[i] == h)
			return;
	ARENA_PUSH(tc->ar, tc->seen, tc->nseen, tc->seen_cap, h);
}

/* The entry to fill: a free one, else the one least recently used, given back. */
static cache_entry *cache_slot(topo_cache *tc)
{
	if (tc->n < CACHE_KEEP) {
		cache_entry *e = calloc(1, sizeof(*e));
		if (!e)
			abort(); /* as arena_alloc does */
		return tc->entry[tc->n++] = e;
	}
	cache_entry *old = tc->entry[0];
	for (int i = 1; i < tc->n; i++)
		if (tc->entry[i]->used < old->used)
			old = tc->entry[i];
	arena_free(&old->ar);
	memset(old, 0, sizeof(*old));
	return old;
}

const topology *topo_cache_get(topo_cache *tc, arena *node, char *xml, size_t len, const char **why)
{
	numa_memory nm;
	memory_of(xml, &nm);
	len = canonical(xml, len);
	uint64_t h = text_hash(xml, len);
	cache_entry *e = NULL;
	for (int i = 0; i < tc->n && !e; i++)
		if (tc->entry[i]->hash == h && tc->entry[i]->len == len && memcmp(tc->entry[i]->xml, xml, len) == 0)
			e = tc->entry[i];
	if (!e) {
		e = cache_slot(tc);
		arena_init(&e->ar);
		e->hash = h;
		e->xml = arena_strndup(&e->ar, xml, len);
		e->len = len;
		e->topo = topo_parse_xml(&e->ar, e->xml, len, &e->why);
		if (e->why)
			e->why = arena_strdup(tc->ar, e->why); /* outlives the entry in a finding */
		count_seen(tc, h);
	}
	e->used = ++tc->tick;
	*why = e->why;
	return e->topo ? with_memory(node, e->topo, &nm) : NULL;
}

size_t topo_cache_parsed(const topo_cache *tc)
{
	return tc->nseen;
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
		c->topo = topo_cache_get(tc, c->ar, text, *len, &why);
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
	progress pr;
	progress_begin(&pr, "checking snapshots", only ? 1 : m->nnodes);
	for (size_t i = 0; i < m->nnodes; i++) {
		const node *nd = &m->nodes[i];
		if (only && only != nd)
			continue;
		progress_step(&pr, only ? 0 : i, NULL);
		if (check_snapshot(m, nd, dir, strict, dc, tc, memo) == 0) {
			checked++;
			continue;
		}
		if (!nmissing)
			first_missing = nd->loc;
		ARENA_PUSH(&keep, missing, nmissing, cap, nd->host);
	}
	progress_end(&pr);
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
	topo_cache_free(tc);
	arena_free(&keep);
	return 0;
}
