/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kernel.c - the running kernel against what dslc wrote for it: every
 * parameter on /proc/cmdline, an IOMMU for the drives, the hugepages the
 * engines need, the sysctl values of etc/sysctl.d. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "cmdline.h"
#include "compiler/place/node_os.h"
#include "compiler/place/place.h"

static void check_cmdline(doctor_ctx *c, const kernel_plan *k, const char *text)
{
	cmdline_word *w = arena_alloc(c->ar, CMDLINE_MAX_WORDS * sizeof(*w));
	int n = cmdline_split(c->ar, text, w, CMDLINE_MAX_WORDS);
	const node_spec *s = c->nd->spec;
	const env_entry *pagesz = env_find(&k->params, "hugepagesz");
	for (size_t i = 0; i < k->params.n; i++) {
		const env_entry *e = &k->params.items[i];
		int j, ours;
		if (cmdline_holds(w, n, e->name, e->value, pagesz ? pagesz->value : NULL, &j, &ours))
			continue;
		src_loc at = doctor_loc_or(e->loc, doctor_loc_or(s->kernel.loc, doctor_node_loc(c)));
		diag *d = doctor_report(c, R_NODE_CMDLINE, at, "%s", cmdline_mismatch(c->ar, w, j, ours, e->name, e->value));
		diag_note_at(c->dc, d, SRC_LOC_NONE, "%s: %.*s", doctor_path(c, "proc/cmdline"), (int)strcspn(text, "\n"), text);
		if (j >= 0 && ours >= 0)
			diag_help(c->dc, d, "remove the other %s from the boot configuration (GRUB_CMDLINE_LINUX in "
					    "/etc/default/grub and its drop-ins, or the BLS entry's options), regenerate it and "
					    "reboot", e->name);
		else
			diag_help(c->dc, d, "regenerate the boot configuration from dslc's file (update-grub, grub2-mkconfig -o "
					    "/boot/grub2/grub.cfg, or usr/local/sbin/dslc-kernel-cmdline) and reboot");
	}
}

static void check_iommu(doctor_ctx *c, const kernel_plan *k)
{
	const env_entry *iommu = k ? env_find(&k->params, "iommu") : NULL;
	if (!node_has_nvme(c->p) || (iommu && strcmp(iommu->value, "off") == 0))
		return;
	const char *names[4];
	int err = 0;
	int n = doctor_list(c, "sys/class/iommu", names, 4, &err);
	if (n > 0)
		return;
	if (n < 0 && err == ENOENT && !doctor_exists(c, "sys/class")) {
		rootfs_file f = {.status = ROOTFS_ABSENT};
		doctor_unchecked(c, "the IOMMU", "sys/class", &f);
		return;
	}
	if (n < 0 && err != ENOENT) {
		rootfs_file f = {.status = ROOTFS_UNREADABLE, .err = err};
		doctor_unchecked(c, "the IOMMU", "sys/class/iommu", &f);
		return;
	}
	const node_spec *s = c->nd->spec;
	src_loc at = doctor_loc_or(s->kernel.iommu.loc, doctor_loc_or(iommu ? iommu->loc : SRC_LOC_NONE, doctor_node_loc(c)));
	diag *d = doctor_report(c, R_NODE_IOMMU, at, "the engines' NVMe drives need an IOMMU and /sys/class/iommu is empty");
	diag_help(c->dc, d, "switch VT-d (Intel) or the IOMMU (AMD) on in the BIOS");
}

/* daos_server's own test (sysfs/provider.go IsTHPEnabled): the file's words
 * include "[never]". It runs from 2.6.5 on (prepBdevStorage), for every
 * engine, unless allow_thp, which dslc does not write. */
static void check_thp(doctor_ctx *c, const kernel_plan *k)
{
	const model *m = c->m;
	if (!c->p->nengines || !node_thp_checked(m))
		return;
	const char *rel = "sys/kernel/mm/transparent_hugepage/enabled";
	rootfs_file f = doctor_read(c, rel, DOCTOR_MAX_SYS);
	if (f.status != ROOTFS_OK) {
		doctor_unchecked(c, "transparent hugepages", rel, &f);
		return;
	}
	const char *shown = "";
	int shown_len = 0;
	for (const char *w = f.data; *w; w += strcspn(w, " \n")) {
		w += strspn(w, " \n");
		int n = (int)strcspn(w, " \n");
		if (n == 7 && strncmp(w, "[never]", 7) == 0)
			return;
		if (n > 2 && w[0] == '[' && w[n - 1] == ']')
			shown = w + 1, shown_len = n - 2;
	}
	const env_entry *want = k ? env_find(&k->params, "transparent_hugepage") : NULL;
	const kernel_spec *ks = &c->nd->spec->kernel;
	src_loc at = want && want->loc.file ? want->loc : doctor_loc_or(ks->loc, doctor_node_loc(c));
	diag *d = doctor_report(c, R_NODE_THP, at,
				"transparent hugepages are %.*s (/%s): daos_server refuses to start unless it shows [never] (DAOS %s)",
				shown_len ? shown_len : 7, shown_len ? shown : "enabled", rel,
				node_thp_releases(m));
	if (want && strcmp(want->value, "never") == 0)
		diag_help(c->dc, d, "reboot with the command line dslc wrote, which has transparent_hugepage=never (node-cmdline "
				    "says whether it reached the kernel); until then, `echo never > /%s` before daos_server starts",
			  rel);
	else if (want)
		diag_help(c->dc, d, "remove `param transparent_hugepage=%s` (dslc then writes never), build and reboot with the "
				    "new command line", want->value);
	else /* no command line: the profile names no OS */
		diag_help(c->dc, d, "name the node's OS in its profile (`os rhel9`, ...) so that dslc writes the kernel command "
				    "line, with transparent_hugepage=never, and reboot with it; until then, `echo never > /%s` "
				    "before daos_server starts", rel);
}

/* "Name:   123 kB" of a meminfo text (the per-NUMA files prefix "Node N "). */
static bool meminfo_value(const char *text, const char *name, uint64_t *v)
{
	size_t n = strlen(name);
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = l;
		if (strncmp(p, "Node ", 5) == 0) { /* Node 0 MemFree: */
			p += 5;
			p += strspn(p, "0123456789");
			p += strspn(p, " ");
		}
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			char *end;
			unsigned long long x = strtoull(p + n + 1, &end, 10);
			while (*end == ' ')
				end++;
			*v = strncmp(end, "kB", 2) == 0 ? x * 1024 : x;
			return true;
		}
	}
	return false;
}

static src_loc hugepages_loc(const doctor_ctx *c, const env_entry *boot)
{
	const node_spec *s = c->nd->spec;
	if (s->hugepages.set)
		return s->hugepages.loc;
	if (boot && boot->loc.file)
		return boot->loc;
	if (boot && s->hw->hugepage_size.set) /* 1 GiB pages: reserved at boot because of it */
		return s->hw->hugepage_size.loc;
	for (int e = 0; e < c->p->nengines; e++)
		if (c->p->engines[e].spec && c->p->engines[e].spec->loc.file)
			return c->p->engines[e].spec->loc;
	return doctor_node_loc(c);
}

/* Pages of the plan's size the node has: /proc/meminfo for the default
 * size, /sys/kernel/mm/hugepages otherwise. */
static bool pages_have(doctor_ctx *c, const char *meminfo, uint64_t *have)
{
	uint64_t size = 0;
	if (meminfo && meminfo_value(meminfo, "Hugepagesize", &size) && size == c->p->hugepage_size)
		return meminfo_value(meminfo, "HugePages_Total", have);
	char *rel = arena_printf(c->ar, "sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages",
				 (unsigned long long)(c->p->hugepage_size / 1024));
	rootfs_file f = doctor_read(c, rel, DOCTOR_MAX_SYS);
	if (f.status != ROOTFS_OK) {
		doctor_unchecked(c, "the hugepages", rel, &f);
		return false;
	}
	*have = strtoull(f.data, NULL, 10);
	return true;
}

/* What the kernel can give a NUMA node's hugepage pool when daos_server
 * grows it: the node's free memory and what reclaim frees there, the file
 * LRU lists (clean page cache, the bulk of a long-running node's memory)
 * and reclaimable kernel memory, as MemAvailable counts them
 * (mm/show_mem.c si_mem_available; the node's own figures from
 * drivers/base/node.c node_read_meminfo), without the zones' low
 * watermarks (a fraction of a percent). A hugepage allocation reclaims to
 * get them (mm/hugetlb.c alloc_buddy_hugetlb_folio: __GFP_RETRY_MAYFAIL). */
static bool node_available(const char *text, uint64_t *avail)
{
	uint64_t free_b, active = 0, inactive = 0, reclaim = 0;
	if (!meminfo_value(text, "MemFree", &free_b))
		return false;
	meminfo_value(text, "Active(file)", &active);
	meminfo_value(text, "Inactive(file)", &inactive);
	if (!meminfo_value(text, "KReclaimable", &reclaim))
		meminfo_value(text, "SReclaimable", &reclaim);
	*avail = free_b + active + inactive + reclaim;
	return true;
}

/* "engine 0 needs", "engines 0 and 1 need"; with no engine on the node,
 * where the pages are asked for (all of them on node 0 when the engines
 * are placed by first_core: DAOS server_utils.go). */
static const char *who_needs(arena *a, const node_plan *p, int n)
{
	const char *list = NULL;
	int count = 0;
	for (int e = 0; e < p->nengines; e++)
		if (p->engines[e].numa == n) {
			list = list ? arena_printf(a, "%s and %d", list, p->engines[e].index)
				    : arena_printf(a, "%d", p->engines[e].index);
			count++;
		}
	if (count)
		return arena_printf(a, "engine%s %s need%s", count > 1 ? "s" : "", list, count > 1 ? "" : "s");
	return "daos_server takes the engines' hugepages from NUMA node 0 (engines placed by first_core) and needs";
}

/* daos_server grows the pool of each NUMA node that gets pages at start
 * (every NUMA node the model gives pages, not only the engines': with
 * first_core placement they all come from node 0): the node must have the
 * memory for what it lacks. */
static void check_daos_hugepages(doctor_ctx *c)
{
	const node_plan *p = c->p;
	if (c->numa_changed)
		return; /* said once, at the hardware block */
	for (int n = 0; n < p->topo->nnuma; n++) {
		uint64_t want = place_hugepages_on(p, n) / p->hugepage_size;
		if (!want)
			continue;
		/* sysfs names NUMA nodes by os index: the machine's, else the node type's */
		int m = doctor_machine_numa(c, n);
		int os_index = m >= 0 ? c->topo->numa[m].os_index : p->topo->numa[n].os_index;
		char *rel = arena_printf(c->ar, "sys/devices/system/node/node%d/meminfo", os_index);
		rootfs_file f = doctor_read(c, rel, DOCTOR_MAX_SYS);
		const char *text = f.status == ROOTFS_OK ? f.data : NULL;
		uint64_t have = 0, avail = 0;
		if (!text || !meminfo_value(text, "HugePages_Total", &have) || !node_available(text, &avail)) {
			doctor_unchecked(c, arena_printf(c->ar, "the hugepages of NUMA node %d", n), rel, &f);
			continue;
		}
		if (have >= want || (want - have) * p->hugepage_size <= avail)
			continue;
		diag *d = doctor_report(c, R_NODE_HUGEPAGES, hugepages_loc(c, NULL),
					"%s %llu hugepages on NUMA node %d: it has %llu, and %s the kernel can free (free, page "
					"cache, reclaimable) for the other %llu (%s)",
					who_needs(c->ar, p, n), (unsigned long long)want, n, (unsigned long long)have,
					doctor_size(c->ar, avail), (unsigned long long)(want - have),
					doctor_size(c->ar, (want - have) * p->hugepage_size));
		diag_help(c->dc, d, "start daos_server before what holds NUMA node %d's memory, or reserve the pages at "
				    "boot (hugepages=%llu)", n, (unsigned long long)(p->nr_hugepages));
	}
}

static void check_hugepages(doctor_ctx *c, const kernel_plan *k)
{
	if (!c->p->nr_hugepages || !c->p->hugepage_size)
		return;
	const env_entry *boot = k ? env_find(&k->params, "hugepages") : NULL;
	if (!boot && c->p->client)
		return;
	if (!boot) {
		check_daos_hugepages(c);
		return;
	}
	rootfs_file f = doctor_read(c, "proc/meminfo", DOCTOR_MAX_PROC);
	if (f.status != ROOTFS_OK) {
		doctor_unchecked(c, "the hugepages", "proc/meminfo", &f);
		return;
	}
	uint64_t have = 0, want = strtoull(boot->value, NULL, 10);
	if (!pages_have(c, f.data, &have) || have >= want)
		return;
	diag *d = doctor_report(c, R_NODE_HUGEPAGES, hugepages_loc(c, boot),
				"%llu hugepages of %s are reserved, the kernel command line dslc wrote asks for %llu",
				(unsigned long long)have, doctor_size(c->ar, c->p->hugepage_size), (unsigned long long)want);
	diag_help(c->dc, d, "reboot with hugepages=%llu on the command line; fewer reserved means the memory was "
			    "fragmented or short at boot", (unsigned long long)want);
}

/* A sysctl.d key as a path under proc/sys (sysctl.d(5): '.' separates,
 * '/' stands for a '.' in a name). */
static char *sysctl_rel(arena *a, const char *key, size_t n)
{
	char *rel = arena_printf(a, "proc/sys/%.*s", (int)n, key);
	for (char *p = rel + 9; *p; p++)
		*p = *p == '.' ? '/' : *p == '/' ? '.' : *p;
	return rel;
}

static bool same_words(const char *a, const char *b, size_t blen)
{
	const char *bend = b + blen;
	for (;;) {
		while (isspace((unsigned char)*a))
			a++;
		while (b < bend && isspace((unsigned char)*b))
			b++;
		if (!*a || b == bend)
			return !*a && b == bend;
		while (*a && !isspace((unsigned char)*a) && b < bend && *a == *b)
			a++, b++;
		if ((*a && !isspace((unsigned char)*a)) || (b < bend && !isspace((unsigned char)*b)))
			return false;
	}
}

static void check_sysctl_file(doctor_ctx *c, const rendered *r)
{
	const node_spec *s = c->nd->spec;
	src_loc at = s->nstorage ? s->storage[0].loc : doctor_node_loc(c);
	for (const char *l = r->data; l < r->data + r->len;) {
		const char *nl = memchr(l, '\n', (size_t)(r->data + r->len - l));
		const char *end = nl ? nl : r->data + r->len;
		const char *eq = memchr(l, '=', (size_t)(end - l));
		if (*l != '#' && *l != ';' && eq) {
			const char *ke = eq;
			while (ke > l && ke[-1] == ' ')
				ke--;
			const char *v = eq + 1;
			while (v < end && *v == ' ')
				v++;
			char *rel = sysctl_rel(c->ar, l, (size_t)(ke - l));
			rootfs_file f = doctor_read(c, rel, DOCTOR_MAX_SYS);
			if (f.status != ROOTFS_OK)
				doctor_unchecked(c, arena_printf(c->ar, "sysctl %.*s", (int)(ke - l), l), rel, &f);
			else if (!same_words(f.data, v, (size_t)(end - v))) {
				size_t fl = strcspn(f.data, "\n");
				diag *d = doctor_report(c, R_NODE_SYSCTL, at, "%.*s is %.*s on the node, %s wrote %.*s", (int)(ke - l), l,
							(int)fl, f.data, r->path, (int)(end - v), v);
				diag_help(c->dc, d, "apply it: /lib/systemd/systemd-sysctl /%s (and look for a later file in "
						    "/etc/sysctl.d that sets it)", r->path);
			}
		}
		l = nl ? nl + 1 : end;
	}
}

void doctor_check_kernel(doctor_ctx *c)
{
	const kernel_plan *k = node_kernel_plan(c->m, c->nd->spec);
	if (k) {
		rootfs_file f = doctor_read(c, "proc/cmdline", DOCTOR_MAX_PROC);
		if (f.status == ROOTFS_OK)
			check_cmdline(c, k, f.data);
		else
			doctor_unchecked(c, "the kernel command line", "proc/cmdline", &f);
	}
	check_iommu(c, k);
	check_thp(c, k);
	check_hugepages(c, k);
	for (size_t i = 0; i < c->nfiles; i++)
		if (strncmp(c->files[i].path, "etc/sysctl.d/", 13) == 0)
			check_sysctl_file(c, &c->files[i]);
}
