/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_agent.c - daos_agent.yml: keys, fabric_ifaces against the
 * topology, the settings daos_agent refuses (yaml_rules.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/base/value.h"
#include "lint.h"
#include "yaml_rules.h"

/* NUMA node OS indexes a fabric_ifaces entry may name (POWER9 uses 255) */
enum { MODEL_MAX_NUMA_OS = 1024 };

/* The logical index of the NUMA node whose OS index is os, or -1. */
static int numa_by_os_index(const topology *t, int64_t os)
{
	for (int n = 0; n < t->nnuma; n++)
		if (t->numa[n].os_index == os)
			return n;
	return -1;
}

/* One fabric_ifaces entry. The agent hands a client the interfaces of the
 * client's own NUMA node, which it learns as an OS index
 * (src/control/lib/hardware/hwloc/provider.go, findNUMANodeWithCPUSet ->
 * osIndex), and takes iface and domain as written
 * (src/control/cmd/daos_agent/fabric.go NUMAFabricFromConfig): a wrong node
 * or name leaves those clients without a working interface. */
static void check_agent_iface(ylint *y, const ynode *entry, bool seen[MODEL_MAX_NUMA_OS])
{
	int64_t numa;
	src_loc nl = entry->loc;
	if (!yl_get_int(entry, "numa_node", &numa, &nl)) {
		if (!ydoc_pair(entry, "numa_node")) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, entry->loc, "a fabric_ifaces entry without numa_node");
			diag_help(y->dc, d, "add `numa_node: N`: the agent gives its devices to the clients of NUMA node N");
		}
		return;
	}
	int logical = -1;
	if (numa < 0 || numa >= MODEL_MAX_NUMA_OS) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, nl, "numa_node %lld is not a NUMA node number", (long long)numa);
		diag_help(y->dc, d, "write the node's number as Linux gives it (numactl -H)");
		return;
	}
	if (seen[numa]) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, nl, "numa_node %lld has two fabric_ifaces entries", (long long)numa);
		diag_help(y->dc, d, "list every device of NUMA node %lld under one entry", (long long)numa);
	}
	seen[numa] = true;
	if (y->topo) {
		logical = numa_by_os_index(y->topo, numa);
		if (logical < 0 || !y->topo->numa[logical].ncores) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, nl, "numa_node %lld: the node has no NUMA node %lld with CPUs",
					      (long long)numa, (long long)numa);
			const char *with = NULL;
			for (int n = 0; n < y->topo->nnuma; n++)
				if (y->topo->numa[n].ncores)
					with = with ? arena_printf(y->a, "%s, %d", with, y->topo->numa[n].os_index)
						    : arena_printf(y->a, "%d", y->topo->numa[n].os_index);
			diag_help(y->dc, d, "use a NUMA node with CPUs, numbered as Linux numbers them (numactl -H): %s",
				  with ? with : "none");
			logical = -1;
		}
	}
	const ynode *dv = ydoc_get(entry, "devices");
	if (!dv || dv->kind != Y_SEQ || !dv->n) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, entry->loc, "fabric_ifaces entry of numa_node %lld has no devices",
				      (long long)numa);
		diag_help(y->dc, d, "add `devices: [{iface: <ifname>, domain: <rdma device>}]`");
		return;
	}
	for (size_t j = 0; j < dv->n; j++) {
		const ynode *iface = ydoc_get(dv->items[j], "iface");
		if (!iface || iface->kind != Y_SCALAR || !*iface->text) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, dv->items[j]->loc, "a fabric_ifaces device without iface");
			diag_help(y->dc, d, "add `iface: <ifname>`, the interface the clients of this NUMA node use");
			continue;
		}
		if (logical < 0)
			continue;
		const topo_device *nic = topo_find_iface(y->topo, iface->text);
		if (!nic) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, iface->loc, "the topology has no interface '%s'", iface->text);
			diag_help(y->dc, d, "use an interface of NUMA node %lld", (long long)numa);
		} else if (nic->numa >= 0 && nic->numa != logical) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, iface->loc, "%s is on NUMA node %d, not %lld",
					      iface->text, y->topo->numa[nic->numa].os_index, (long long)numa);
			diag_help(y->dc, d, "list %s under `numa_node: %d`", iface->text, y->topo->numa[nic->numa].os_index);
		}
	}
}

void yl_lint_agent(ylint *y, const ynode *root)
{
	yl_check_keys(y, root, "AGENT");
	yl_check_keys(y, ydoc_get(root, "transport_config"), "TRANSPORT");
	const ynode *fi = ydoc_get(root, "fabric_ifaces");
	bool seen[MODEL_MAX_NUMA_OS] = {false};
	for (size_t i = 0; fi && fi->kind == Y_SEQ && i < fi->n; i++) {
		yl_check_keys(y, fi->items[i], "AGENT_IFACES");
		const ynode *dv = ydoc_get(fi->items[i], "devices");
		for (size_t j = 0; dv && dv->kind == Y_SEQ && j < dv->n; j++)
			yl_check_keys(y, dv->items[j], "AGENT_DEVICE");
		if (fi->items[i]->kind == Y_MAP)
			check_agent_iface(y, fi->items[i], seen);
	}
	const char *name = yl_get_str(root, "name");
	if (name && (!*name || strlen(name) > 15)) {
		diag *d = diag_report(y->dc, R_SYSTEM_NAME, ydoc_get(root, "name")->loc, "'%s' is not a valid DAOS system name (1-15 bytes)",
				      name);
		diag_help(y->dc, d, "use the server's name, at most 15 characters");
	}
	/* src/control/cmd/daos_agent/config.go LoadConfig */
	int64_t port = 0;
	bool has_port = yl_get_int(root, "telemetry_port", &port, NULL) && port > 0;
	const ypair *en = ydoc_pair(root, "telemetry_enabled"), *ret = ydoc_pair(root, "telemetry_retain");
	if (!has_port && ((en && yl_scalar_bool(en->value) && yl_is_true(en->value)) || ret)) {
		const ypair *k = ret ? ret : en;
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, k->key->loc, "%s requires telemetry_port: daos_agent refuses the file",
				      k->key->text);
		diag_help(y->dc, d, "add `telemetry_port: 9192`, or remove %s", k->key->text);
	}
	const ynode *aps = ydoc_get(root, "access_points");
	if (aps && aps->kind == Y_SEQ && !aps->n) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, aps->loc, "access_points is empty: the agent cannot reach the system");
		diag_help(y->dc, d, "list the servers' access points, as in daos_server.yml");
	}
}
