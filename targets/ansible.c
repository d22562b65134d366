/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* ansible.c - out/cluster/ansible/: the inventory of the cluster's nodes and
 * apply.yml, the playbook that installs each node's files from the built
 * tree and runs what a wave's classes need (targets/ansible_apply.yml,
 * compiled in). Every value of the inventory is tagged !unsafe: Ansible
 * templates any string that holds "{{", and an inventory value must stay
 * text (docs.ansible.com, "Unsafe or raw strings"). */
#include <ctype.h>
#include <string.h>

#include "compiler/base/arena.h"
#include "compiler/base/buf.h"
#include "compiler/base/safe.h"
#include "compiler/base/sha256.h"
#include "compiler/base/strmap.h"
#include "compiler/base/value.h"
#include "compiler/place/node_os.h"
#include "targets.h"
#include "yaml_out.h"

static const char apply_playbook[] =
#include "gen/targets/ansible_apply.inc"
	;

/* The management address without its prefix length (what ssh connects
 * to), in addr: an address is short, and 16,384 of them in the arena would
 * outlive the file. False when the node has none. */
static bool host_address(const node *nd, char *addr, size_t size)
{
	if (!nd->mgmt || !*nd->mgmt)
		return false;
	size_t len = strcspn(nd->mgmt, "/");
	if (len >= size)
		len = size - 1;
	memcpy(addr, nd->mgmt, len);
	addr[len] = '\0';
	return true;
}

/* all.hosts: a node's own variables, ansible_host; a node without one is
 * in the inventory through its groups */
static void host_vars(yaml_out *y, const node *nd)
{
	char addr[128];
	if (!host_address(nd, addr, sizeof(addr)))
		return;
	yo_name(y, nd->host);
	yo_map(y);
	yo_name(y, "ansible_host");
	yo_unsafe(y, addr);
	yo_map_end(y);
}

/* The nodes with a kernel file, grouped by what they boot with: one group
 * per distinct (grub command, parameters), its variables given once, not
 * once per host (16,384 nodes of one type are one group; with the host
 * ranges the inventory stays about 56 bytes a node). The name is "dslc_kernel_" and the first
 * 8 hex digits of the sha256 of both: the same plan keeps its name across
 * builds. */
typedef struct kernel_group {
	const char *name, *grub;
	const kernel_plan *k;
} kernel_group;

typedef struct kernel_groups {
	kernel_group *v;
	size_t n, cap;
	size_t *of_node; /* node index -> its group + 1 (0: no kernel file) */
} kernel_groups;

static const char *kernel_param(arena *a, const env_entry *e)
{
	return *e->value ? arena_printf(a, "%s=%s", e->name, e->value) : e->name;
}

static void kernel_groups_make(const model *m, arena *a, kernel_groups *g)
{
	memset(g, 0, sizeof(*g));
	g->of_node = arena_alloc(a, (m->nnodes + 1) * sizeof(*g->of_node));
	strmap by_key, names;
	strmap_init(&by_key, a);
	strmap_init(&names, a);
	for (size_t i = 0; i < m->nnodes; i++) {
		const node *nd = &m->nodes[i];
		const char *grub = node_grub_command(m, nd->spec);
		const kernel_plan *k = grub ? node_kernel_plan(m, nd->spec) : NULL;
		g->of_node[i] = 0;
		if (!k)
			continue;
		buf key;
		buf_init(&key);
		buf_printf(&key, "%s\n", grub);
		for (size_t p = 0; p < k->params.n; p++)
			buf_printf(&key, "%s\n", kernel_param(a, &k->params.items[p]));
		uintptr_t at = (uintptr_t)strmap_get(&by_key, key.data);
		if (!at) {
			char hex[65];
			sha256_hex(key.data, key.len, hex);
			const char *name = arena_printf(a, "dslc_kernel_%.8s", hex);
			if (strmap_get(&names, name))
				name = arena_printf(a, "dslc_kernel_%.8s_%zu", hex, g->n + 1);
			strmap_put(&names, name, (void *)name);
			kernel_group kg = {name, grub, k};
			ARENA_PUSH(a, g->v, g->n, g->cap, kg);
			at = g->n;
			strmap_put(&by_key, arena_strdup(a, key.data), (void *)at);
		}
		buf_free(&key);
		g->of_node[i] = at;
	}
}

static void kernel_vars(yaml_out *y, arena *a, const kernel_group *kg)
{
	yo_name(y, "vars");
	yo_map(y);
	yo_name(y, "dslc_grub_update");
	yo_unsafe(y, kg->grub);
	yo_name(y, "dslc_kernel_params");
	yo_seq(y);
	for (size_t i = 0; i < kg->k->params.n; i++)
		yo_unsafe(y, kernel_param(a, &kg->k->params.items[i]));
	yo_seq_end(y);
	yo_map_end(y);
}

/* A group's hosts as Ansible's host ranges (the inventory's "www[01:50]":
 * ansible/plugins/inventory/__init__.py _expand_hostpattern, a begin with a
 * leading zero fixing the width), from the host list dslc compresses
 * ("gpu[001-006,008-014],cn01"): one key a run of numbers, not a host. */
static void host_ranges(yaml_out *y, arena *a, const char **hosts, size_t n)
{
	const char *list = hostlist_compress(a, hosts, n);
	buf key;
	buf_init(&key);
	for (const char *p = list; *p;) {
		const char *open = strpbrk(p, "[,"), *end;
		if (!open || *open == ',') { /* a name as it is */
			end = open ? open : p + strlen(p);
			buf_reset(&key);
			buf_add(&key, p, (size_t)(end - p));
			yo_name(y, key.data);
			yo_map(y);
			yo_map_end(y);
			p = *end ? end + 1 : end;
			continue;
		}
		const char *close = strchr(open, ']');
		for (const char *r = open + 1; r < close;) {
			size_t len = strcspn(r, ",]");
			const char *dash = memchr(r, '-', len);
			buf_reset(&key);
			buf_add(&key, p, (size_t)(open - p));
			if (dash)
				buf_printf(&key, "[%.*s:%.*s]", (int)(dash - r), r, (int)(len - (size_t)(dash - r) - 1), dash + 1);
			else
				buf_add(&key, r, len);
			yo_name(y, key.data);
			yo_map(y);
			yo_map_end(y);
			r += len + (r[len] == ',');
		}
		p = close[1] == ',' ? close + 2 : close + 1;
	}
	buf_free(&key);
}

/* A group of hosts, listed by name or range (their variables are under
 * all.hosts). */
typedef bool (*host_pred)(const model *m, const node *nd, const void *arg);

static void group(yaml_out *y, const model *m, const char *name, host_pred in, const void *arg, const kernel_group *vars)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		n += in(m, &m->nodes[i], arg);
	if (!n)
		return;
	/* the host list and its compression (about 40 bytes a host) live
	 * for this group only, not as long as the model */
	arena scratch;
	arena_init(&scratch);
	yo_name(y, name);
	yo_map(y);
	if (vars)
		kernel_vars(y, &scratch, vars);
	yo_name(y, "hosts");
	yo_map(y);
	const char **hosts = arena_alloc(&scratch, n * sizeof(*hosts));
	n = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		if (in(m, &m->nodes[i], arg))
			hosts[n++] = m->nodes[i].host;
	host_ranges(y, &scratch, hosts, n);
	yo_map_end(y);
	yo_map_end(y);
	arena_free(&scratch);
}

static bool is_server(const model *m, const node *nd, const void *arg)
{
	(void)m, (void)arg;
	return nd->spec->plan && nd->spec->plan->nengines > 0;
}

static bool is_client_only(const model *m, const node *nd, const void *arg)
{
	(void)m, (void)arg;
	return nd->spec->plan && nd->spec->plan->client;
}

static bool is_access_point(const model *m, const node *nd, const void *arg)
{
	(void)arg;
	for (size_t i = 0; i < m->cluster.naps; i++)
		if (strcmp(m->cluster.aps[i].host, nd->host) == 0)
			return true;
	return false;
}

static bool is_of_type(const model *m, const node *nd, const void *arg)
{
	(void)m;
	return nd->spec->hw == arg;
}

/* in_kernel_group's argument: the groups, and which one (its index + 1) */
typedef struct kernel_member {
	const kernel_groups *g;
	size_t which; /* group + 1 */
} kernel_member;

static bool in_kernel_group(const model *m, const node *nd, const void *arg)
{
	const kernel_member *km = arg;
	return km->g->of_node[(size_t)(nd - m->nodes)] == km->which;
}

/* An Ansible group name ([A-Za-z0-9_], not starting with a digit) for a
 * hardware type: "dslc_type_" and its name with other bytes as '_'; a second
 * type that comes out the same gets its position appended. */
static const char *type_group(const model *m, size_t h, strmap *seen)
{
	buf b;
	buf_init(&b);
	buf_puts(&b, "dslc_type_");
	for (const char *c = m->hws[h]->name; *c; c++)
		buf_add(&b, isalnum((unsigned char)*c) ? c : "_", 1);
	if (strmap_get(seen, b.data))
		buf_printf(&b, "_%zu", h + 1);
	const char *name = arena_strdup(m->ar, b.data);
	buf_free(&b);
	strmap_put(seen, name, (void *)name);
	return name;
}

static bool inventory(const model *m, buf *out)
{
	if (safe_line(m->cluster.name))
		return false; /* it is echoed in a comment */
	for (size_t i = 0; i < m->nnodes; i++)
		if (safe_name(m->nodes[i].host))
			return false; /* an inventory host name is a file name in host_vars/ */
	buf_printf(out, "# Generated by dslc: the nodes of cluster %s for apply.yml beside it (SPEC.md, \"Ansible\").\n"
			"# Groups: dslc_servers (engines), dslc_client_only, dslc_access_points, dslc_type_<hardware>,\n"
			"# dslc_kernel_<digest> (the nodes that boot with the same parameters, and those as its vars).\n",
		   m->cluster.name);
	yaml_out y;
	if (!yo_begin(&y, out, m->release))
		return false;
	yo_map(&y);
	yo_name(&y, "all");
	yo_map(&y);
	yo_name(&y, "vars");
	yo_map(&y);
	yo_name(&y, "dslc_cluster");
	yo_unsafe(&y, m->cluster.name);
	yo_map_end(&y);
	yo_name(&y, "hosts");
	yo_map(&y);
	for (size_t i = 0; i < m->nnodes; i++)
		host_vars(&y, &m->nodes[i]);
	yo_map_end(&y);
	yo_name(&y, "children");
	yo_map(&y);
	group(&y, m, "dslc_servers", is_server, NULL, NULL);
	group(&y, m, "dslc_client_only", is_client_only, NULL, NULL);
	group(&y, m, "dslc_access_points", is_access_point, NULL, NULL);
	strmap seen;
	strmap_init(&seen, m->ar);
	for (size_t h = 0; h < m->nhws; h++)
		group(&y, m, type_group(m, h, &seen), is_of_type, m->hws[h], NULL);
	arena scratch;
	arena_init(&scratch);
	kernel_groups kg;
	kernel_groups_make(m, &scratch, &kg);
	for (size_t i = 0; i < kg.n; i++) {
		kernel_member km = {&kg, i + 1};
		group(&y, m, kg.v[i].name, in_kernel_group, &km, &kg.v[i]);
	}
	arena_free(&scratch);
	yo_map_end(&y);
	yo_map_end(&y);
	yo_map_end(&y);
	return yo_end(&y);
}

target_result target_ansible(const model *m, target_file *tf)
{
	if (tf->index == 0) {
		tf->path = "ansible/inventory.yml";
		return inventory(m, tf->data) ? TARGET_OK : TARGET_FAIL;
	}
	if (tf->index == 1) {
		tf->path = "ansible/apply.yml";
		buf_puts(tf->data, apply_playbook);
		return TARGET_OK;
	}
	return TARGET_SKIP;
}
