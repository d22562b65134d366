/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* daos_agent.c - etc/daos/daos_agent.yml. The agent keeps the key
 * access_points in every release (src/control/cmd/daos_agent/config.go). */
#include <string.h>

#include "targets.h"
#include "yaml_out.h"

/* Whether NIC i of the node's fabric NICs was listed before (two engines
 * may share one NIC). */
static bool listed_before(const node_plan *p, int i)
{
	for (int j = 0; j < i; j++)
		if (place_fabric_nic(p, j) == place_fabric_nic(p, i))
			return true;
	return false;
}

/* fabric_ifaces pins each NUMA node's clients to its local NICs. Each NIC is
 * listed under its own NUMA node, by OS index: the agent matches a client's
 * NUMA node that way (hwloc/provider.go findNUMANodeWithCPUSet), and an
 * engine's NIC may be remote (`# dslc: allow nic-not-local`). Written only
 * when every NIC's domain is known (place_fabric_domains_known); else the
 * agent scans the fabric itself. */
static void fabric_ifaces(yaml_out *y, const node_plan *p)
{
	int n = place_fabric_nic_count(p);
	if (!n || !place_fabric_domains_known(p))
		return;
	yo_key(y, K_AGENT_FABRIC_IFACES);
	yo_seq(y);
	for (int k = 0; k < p->topo->nnuma; k++) {
		bool open = false;
		for (int i = 0; i < n; i++) {
			const nic_desc *nic = place_fabric_nic(p, i);
			if (nic->numa != k || listed_before(p, i))
				continue;
			if (!open) {
				yo_map(y);
				yo_kint(y, K_AGENT_NUMA_NODE, p->topo->numa[k].os_index);
				yo_key(y, K_AGENT_DEVICES);
				yo_seq(y);
				open = true;
			}
			yo_map(y);
			yo_kstr(y, K_AGENT_IFACE, nic->name);
			yo_kstr(y, K_AGENT_DOMAIN, nic->rdma);
			yo_map_end(y);
		}
		if (open) {
			yo_seq_end(y);
			yo_map_end(y);
		}
	}
	yo_seq_end(y);
}

target_result target_daos_agent(const model *m, const node_spec *s, target_file *tf)
{
	if (tf->index || spec_in_pods(s))
		return TARGET_SKIP;
	return daos_agent_yaml(m, s, tf->data) ? TARGET_OK : TARGET_FAIL;
}

bool daos_agent_yaml(const model *m, const node_spec *s, buf *out)
{
	const cluster_spec *c = &m->cluster;
	yaml_out y;
	if (!yo_begin(&y, out, m->release))
		return false;
	yo_map(&y);
	yo_kstr(&y, K_AGENT_NAME, c->name);
	yo_key(&y, K_AGENT_ACCESS_POINTS);
	yo_seq(&y);
	for (size_t i = 0; i < c->naps; i++)
		yo_str(&y, daos_access_point(m, i));
	yo_seq_end(&y);
	yo_kint(&y, K_AGENT_PORT, c->port.set ? c->port.v : 10001);
	transport_out(&y, m, false);
	yo_kstr(&y, K_AGENT_RUNTIME_DIR, AGENT_RUNTIME_DIR);
	yo_kstr(&y, K_AGENT_LOG_FILE, "/var/log/daos/daos_agent.log");
	yo_kstr(&y, K_AGENT_CONTROL_LOG_MASK, c->control_log_mask.set ? c->control_log_mask.v : "INFO");
	/* a restarted agent pod must not evict every local pool handle (its
	 * default, utils/config/daos_agent.yml); procmon, with hostPID, still
	 * cleans up after crashed clients */
	if (spec_in_pods(s))
		yo_kbool(&y, K_AGENT_DISABLE_AUTO_EVICT, true);
	fabric_ifaces(&y, s->plan);
	yo_map_end(&y);
	return yo_end(&y);
}

const target_info target_table[] = {
	{"daos_server", "etc/daos/daos_server.yml",
	 "DAOS server configuration: engines with cores, NIC, port, drives, SCM and hugepages as placed.",
	 NULL, target_daos_server},
	{"daos_agent", "etc/daos/daos_agent.yml",
	 "DAOS agent configuration: system name, access points, transport, and fabric_ifaces: each fabric NIC under its own NUMA node with its domain (RDMA, cxi or hfi1 device), when every domain is known.",
	 NULL, target_daos_agent},
	{"kernel", "etc/default/grub.d/60-dslc.cfg",
	 "Kernel command line: a grub.d drop-in on Debian, Ubuntu and Azure Linux 3; on RHEL, Rocky and Alma the script usr/local/sbin/dslc-kernel-cmdline runs grubby on every BLS entry and keeps /etc/default/grub in step; on SLES it edits /etc/default/grub and regenerates grub.cfg. Both scripts refuse a GRUB_CMDLINE_LINUX they cannot rewrite exactly.",
	 target_kernel, NULL},
	{"kubelet", "etc/kubernetes/kubelet.conf.d/50-dslc.conf",
	 "KubeletConfiguration drop-in: static CPU manager with every OS and engine CPU in reservedSystemCPUs, strict-cpu-reservation, topology manager, static memory manager with reservedMemory per NUMA node.",
	 target_kubelet, NULL},
	{"networkd", "etc/systemd/network/",
	 "systemd-networkd units: 10-<nic>.network per storage NIC (own address, MTU, source routing when NICs share a subnet), 20-mv<k>.netdev/.network macvlans, 30-bond0.netdev/.network management bond.",
	 target_networkd, NULL},
	{"nic_link", "etc/systemd/network/10-dslc-<nic>.link",
	 "With a `link` block: per fabric NIC a systemd .link file matched by its PCI path (Path=pci-<address>) that keeps its name and sets ring sizes (RxBufferSize=, TxBufferSize=), interrupt coalescing (RxCoalesceSec=, TxCoalesceSec=) and offloads (GenericReceiveOffload=, LargeReceiveOffload=, TCPSegmentationOffload=, GenericSegmentationOffload=), applied by udev when the NIC appears.",
	 NULL, target_nic_link},
	{"lossless", "usr/local/sbin/dslc-lossless-roce",
	 "With `fabric roce { lossless { ... } }`, on every node with fabric NICs: the script that sets PFC on the RDMA priority only, maps the RDMA DSCP to it and trusts DSCP (iproute2 dcb), switches ECN/DCQCN on for it where the driver offers it, and sets RDMA-CM's default RoCE ToS on the NIC's RDMA device (configfs); per fabric NIC a unit etc/systemd/system/dslc-lossless-roce-<nic>.service, bound to the NIC's device (run again whenever it appears) and ordered before daos_server, daos_agent and the kubelet; etc/systemd/system-preset/50-dslc-lossless-roce.preset enabling them.",
	 NULL, target_lossless},
	{"sysctl", "etc/sysctl.d/60-dslc-storage-arp.conf",
	 "When storage NICs share a subnet: per NIC arp_ignore=1, arp_announce=2 and rp_filter=2 (loose), so each NIC answers ARP for its own address only and replies that return on the other NIC are kept.",
	 target_sysctl, NULL},
	{"bios", "redfish/bios-settings.json",
	 "The Redfish PATCH body of the BIOS settings: flat {\"Attributes\": {...}} as in DMTF's Bios schema, or grouped for `dialect nested`; optional @Redfish.SettingsApplyTime.",
	 target_bios, NULL},
	{"containerd", "etc/systemd/system/containerd.service.d/",
	 "With `deploy kubernetes`: containerd's LimitMEMLOCK=infinity (a systemd drop-in) and device_ownership_from_security_context in its CRI plugin, by release line: on 2.x etc/containerd/conf.d/50-dslc.toml (no version key); on 1.x and 2.x usr/local/sbin/dslc-containerd-cri with its unit (before containerd) and preset, which edits config.toml's CRI section (1.x) or makes config.toml import conf.d (2.x), checked by the node's containerd.",
	 target_containerd, NULL},
	{"vfio", "usr/local/sbin/dslc-vfio-bind",
	 "With `deploy kubernetes`: binds the engines' drives to vfio-pci at boot (refusing a drive the host uses: a namespace or partition mounted, held by LVM, md or device-mapper, or swapped on; and shared IOMMU groups), with its unit etc/systemd/system/dslc-vfio-bind.service (before containerd and the kubelet), etc/modules-load.d/dslc-vfio.conf and a preset that enables it.",
	 target_vfio, NULL},
	{"pod_dirs", "etc/tmpfiles.d/dslc-daos-pods.conf",
	 "With `deploy kubernetes`: the host directories of the pods' hostPath volumes with their daemon's owner (systemd-tmpfiles at boot): /var/log/daos/server and /var/daos/config for daos_server's user, /var/log/daos/agent and /run/daos_agent for daos_agent's.",
	 target_pod_dirs, NULL},
	{"dfuse", "etc/systemd/system/dfuse-<path>.service",
	 "Per dfuse mount of the node: a Type=forking service (named dfuse- + systemd-escape -p of the path) that runs dfuse as the mount's user after daos_agent.service; etc/tmpfiles.d/dslc-dfuse.conf makes the mount points, etc/systemd/system-preset/50-dslc-dfuse.preset enables the services; etc/fuse.conf (user_allow_other) with a multi-user mount.",
	 target_dfuse, NULL},
	{"intercept", "usr/local/bin/with-pil4dfs",
	 "When a mount of the node asks for an interception library: the per-job wrapper usr/local/bin/with-pil4dfs (or with-ioil) that runs one program with LD_PRELOAD=libpil4dfs.so added once before what is there; with `intercept <lib> global`, etc/profile.d/dslc-daos-intercept.sh does that for login shells instead.",
	 target_intercept, NULL},
	{"mpiio", "usr/local/bin/with-daos-io",
	 "When a mount of the node has `mpiio` or `hdf5_vol`: etc/daos/romio-hints (ROMIO's hints, one `key value` per line) and the per-job wrapper usr/local/bin/with-daos-io that runs one program with ROMIO_HINTS naming it, HDF5_VOL_CONNECTOR=daos and the connector's directory first in HDF5_PLUGIN_PATH.",
	 target_mpiio, NULL},
	{"nccl", "etc/nccl.conf",
	 "NCCL_IB_HCA for GPU nodes: the compute NICs' RDMA devices (=mlx5_2,...) when the hardware names them, else every device but the storage NICs' (^=mlx5_0,mlx5_1).",
	 NULL, target_nccl},
	{"bios_apply", "redfish/apply.sh",
	 "Sends the PATCH: reads the settings URI and the ETag (Bios resource, settings resource or *), PATCHes with If-Match, fails clearly on 412 and 428; credentials from the environment only.",
	 target_bios_apply, NULL},
};
const size_t target_count = sizeof(target_table) / sizeof(target_table[0]);
