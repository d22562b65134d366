/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* model.h - the cluster model: what the source says, resolved.
 *
 * Every setting carries the location of the statement that set it, so lint
 * findings point at the line the user has to change. A node_spec is the fold
 * of hardware -> profile chain -> nodes block -> node block; nodes without
 * their own override share one spec (and one placement plan). */
#ifndef DSLC_MODEL_H
#define DSLC_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "compiler/base/diag.h"
#include "compiler/base/strmap.h"
#include "compiler/lang/ast.h"
#include "daos.h"
#include "topology.h"

enum { MODEL_MAX_NUMA = 64, MODEL_MAX_NODES = 1048576 };

typedef struct opt_int {
	int64_t v;
	src_loc loc;
	bool set;
} opt_int;

typedef struct opt_str {
	const char *v;
	src_loc loc;
	bool set;
} opt_str;

typedef struct env_entry {
	const char *name, *value;
	src_loc loc;
} env_entry;

typedef struct env_list {
	env_entry *items;
	size_t n, cap;
	strmap *index; /* name -> position + 1, built once the list is long; NULL in a copy */
} env_list;

/* ---- hardware ----------------------------------------------------------- */

typedef struct nic_desc {
	const char *name;
	char pci[16];
	const char *role; /* "storage", "mgmt", ... */
	const char *rdma; /* RDMA device (mlx5_0), NULL when not described */
	const char *link; /* TOPO_LINK_* from the topology export, NULL when unknown */
	bool exported;    /* the export lists it: a NULL rdma means it has none */
	bool auto_found;  /* from `nic auto`: its role follows the cluster's fabric */
	bool fabric;      /* auto_found: RDMA-capable or an IB/OPA/Slingshot link */
	int numa;
	src_loc loc;
} nic_desc;

typedef struct nvme_desc {
	char pci[16];
	/* a drive named by its VMD backing address (7c0005:01:00.0): the VMD
	 * endpoint it sits behind (0000:7c:00.5), which is what vfio binds;
	 * "" for any other drive */
	char endpoint[16];
	int numa;
	src_loc loc;
} nvme_desc;

/* A PMem namespace's block device (`pmem pmem0` in a numa block, or from
 * the topology export). */
typedef struct pmem_desc {
	const char *name; /* pmem0 */
	int numa;
	src_loc loc; /* SRC_LOC_NONE when taken from the export */
} pmem_desc;

typedef struct hardware {
	const char *name;
	src_loc loc, name_loc;
	ast_block *body;
	opt_int sockets, cores_per_socket, threads_per_core, numa_per_socket;
	opt_int memory_per_numa, hugepage_size;
	opt_str cpu_numbering, topology_file;
	opt_int nic_auto, nvme_auto; /* import the export's devices */
	opt_int numa_memory[MODEL_MAX_NUMA];
	opt_int numa_gpus[MODEL_MAX_NUMA]; /* `gpus N` in a numa block */
	src_loc numa_loc[MODEL_MAX_NUMA];
	nic_desc *nics;
	size_t nnics, nics_cap;
	nvme_desc *nvmes;
	size_t nnvmes, nvmes_cap;
	pmem_desc *pmems;
	size_t npmems, pmems_cap;
	topology *topo; /* NULL when the description is incomplete or wrong */
	/* bmc redfish { ... } */
	bool bmc_set;
	src_loc bmc_loc;
	opt_str bmc_system, bmc_dialect, bmc_etag, bmc_apply_time, bmc_vendor;
} hardware;

/* The BMC's vendor preset decides what `dialect` and `etag` leave unsaid:
 * `vendor ami` (the converged HGX B200 talk's BMC) takes attributes grouped
 * as Group.Name only ("flat form returns 400") and an If-Match ETag from
 * the parent /Bios resource. */
static inline bool hw_bios_nested(const hardware *hw)
{
	return hw->bmc_dialect.set ? strcmp(hw->bmc_dialect.v, "nested") == 0
				   : hw->bmc_vendor.set && strcmp(hw->bmc_vendor.v, "ami") == 0;
}

static inline const char *hw_bmc_etag_source(const hardware *hw)
{
	return hw->bmc_etag.set ? hw->bmc_etag.v
		: hw->bmc_vendor.set && strcmp(hw->bmc_vendor.v, "ami") == 0 ? "bios" : "auto";
}

/* ---- profiles and nodes -------------------------------------------------- */

/* One NVMe tier of an engine (`nvme tier [roles] ...`, or the one tier of
 * `nvme roles [...]`): its MD-on-SSD roles and which of the engine's drives
 * it takes: `drives N` (the next N in address order), explicit addresses,
 * or neither (every drive no other tier takes). */
enum { MODEL_MAX_TIERS = 4 }; /* one more than DAOS takes: the fourth is reported at its line */
/* DAOS's bdev roles (storage.BdevRoles: wal, meta, data), for the
 * keywords that read them and the rules that judge their tiers. */
extern const char *const model_bdev_roles[3];

typedef struct tier_spec {
	src_loc loc; /* the statement */
	const char *roles[4];
	int nroles;
	src_loc roles_loc;
	opt_int count;
	struct pci_ref *drives;
	size_t ndrives, drives_cap;
} tier_spec;

typedef struct engine_spec {
	bool present;
	bool per_numa; /* declared by `engine per numa`: only where a storage NIC is */
	bool explicit_numa; /* declared by `engine numa N` (too): always an engine or an error */
	src_loc loc; /* the `engine` statement that declared it */
	opt_int cores, targets, helpers, first_core, pinned_numa, scm_size, fabric_port;
	opt_str scm_class, log_mask, log_file, nic, scm_mount;
	opt_str scm_device; /* `scm pmem /dev/pmemN` */
	/* MD-on-SSD: no tier declared is one tier without roles */
	tier_spec tiers[MODEL_MAX_TIERS];
	int ntiers;
	bool tiers_split; /* declared by `nvme tier` (else `nvme roles`) */
	struct pci_ref *drives; /* explicit drive list; NULL = the NUMA node's drives */
	size_t ndrives, drives_cap;
	/* `nvme file PATH... size N`: NVMe emulated on files (class file) */
	const char **files;
	size_t nfiles;
	src_loc files_loc;
	opt_int file_size;
	env_list env;
} engine_spec;

typedef struct pci_ref {
	char pci[16];
	src_loc loc;
} pci_ref;

typedef struct storage_addr {
	const char *iface;
	const char *tmpl;
	src_loc loc;
} storage_addr;

typedef struct node_plan node_plan;

/* kernel { ... }: the kernel command line of the node's OS. */
typedef struct kernel_spec {
	bool set;
	src_loc loc;
	opt_str iommu;       /* pt (default with NVMe), on, off */
	opt_str irqaffinity; /* os: the OS cores' CPUs */
	opt_str isolate;     /* engines: isolcpus, nohz_full, rcu_nocbs of the engines' CPUs */
	env_list params;     /* param NAME[=VALUE], in order; value "" for bare flags */
} kernel_spec;

/* network { ... }: the node's storage NICs and management bond (networkd). */
typedef struct network_spec {
	bool set;
	src_loc loc;
	opt_int storage_mtu, mgmt_mtu;
	opt_str bond_mode, bond_over; /* over macvlan (right) or nics (refused) */
	/* link { ... }: ring sizes, interrupt coalescing and offloads of the
	 * storage NICs, a systemd .link file each (targets/networkd.c) */
	struct link_spec {
		bool set;
		src_loc loc;
		opt_int rx_ring, tx_ring, rx_usecs, tx_usecs;
		opt_str gro, lro, tso, gso;
	} link;
} network_spec;

/* Whether the network block makes the bond that carries a node's management
 * address (and gateway): `mgmt bond <mode> over macvlan`. Only then does the
 * address reach a file (targets/networkd.c; unused-value otherwise). */
static inline bool network_mgmt_bonded(const network_spec *n)
{
	return n->bond_mode.set && n->bond_over.set && strcmp(n->bond_over.v, "macvlan") == 0;
}

/* kubelet { ... }: the KubeletConfiguration drop-in of converged nodes. */
typedef struct kubelet_spec {
	bool set;
	src_loc loc;
	opt_str version, cpu_manager, topology, memory_manager, strict;
	opt_int system_reserved, kube_reserved, eviction_hard; /* bytes */
	opt_str reserved_cpus; /* an override, checked */
} kubelet_spec;

/* kubernetes { ... } in the cluster block: what the pods of every
 * `deploy kubernetes` profile share (SPEC.md, "Deployment models"). */
typedef struct kube_spec {
	bool set;
	src_loc loc;
	opt_str ns, image, client_image, update;
	opt_str rdma_plugin_image, vfio_plugin_image; /* dslc's device plugins (kube_plugins.c) */
	opt_int uid, gid, agent_uid, agent_gid; /* run_as, agent_run_as */
	opt_str rdma_resource, nvme_resource;
	opt_int rdma_numa; /* the plugin reports NUMA topology (`numa` after the name) */
	opt_int rdma_shared; /* one RDMA resource for every NIC, run by the cluster already (`shared`) */
	opt_int client_gpus, client_cpus, client_hugepages, client_memory, client_ipc_lock; /* the client template's asks */
	opt_str client_gpu_class; /* the GPUs claimed through DRA from this DeviceClass, not nvidia.com/gpu */
	opt_str *client_ns;  /* client_namespace: namespaces of the client pods */
	size_t nclient_ns, client_ns_cap;
	opt_int memory_overhead, server_memory, surge;
} kube_spec;

typedef struct node_spec {
	const char *origin; /* "profile converged", "node gpu007", for messages */
	hardware *hw;
	opt_str os;
	opt_str containerd; /* `containerd 1.7`: the release line the nodes run (compiler/place/containerd.h) */
	opt_str deploy; /* systemd (default) or kubernetes */
	opt_int os_cores;
	opt_str os_at; /* "start" (default) or "end" of each NUMA node */
	opt_int hugepages; /* bytes per node; unset = DAOS's minimum */
	/* NULL until a block declares an engine there. Shared with the spec it
	 * was copied from until a block changes it (copy on write, eng_own):
	 * 100,000 node blocks must not cost 64 engine copies each. */
	engine_spec *eng[MODEL_MAX_NUMA];
	uint64_t eng_own; /* bit n: eng[n] belongs to this spec */
	pci_ref *excluded;
	size_t nexcluded, excluded_cap;
	env_list env;
	kernel_spec kernel;
	kubelet_spec kubelet;
	network_spec network;
	/* `nccl on|off`: etc/nccl.conf keeps NCCL off the storage NICs; unset:
	 * on when the hardware names compute NICs */
	opt_str nccl;
	env_list bios; /* BIOS attributes in order: name (maybe Group.Name) and value;
	                  a value quoted in the source starts with a '"' and stays a string */
	src_loc bios_loc;
	/* per-node addresses (templates) */
	opt_str mgmt, gateway, bmc;
	/* the Kubernetes node's name, a template of {host}, {i} and {n}
	 * (default: the host name in lower case, as the kubelet registers it) */
	opt_str k8s_node_name;
	storage_addr *storage;
	size_t nstorage, storage_cap;
	node_plan *plan; /* computed once per spec by placement */
	bool registered, used;
	bool tainted; /* an error while resolving it: not placed, so no cascade */
} node_spec;

typedef struct profile_def {
	const char *name;
	src_loc loc, name_loc;
	const char *parent;
	src_loc parent_loc;
	ast_block *body;
	node_spec *spec;
	int state; /* 0 new, 1 resolving, 2 done */
} profile_def;

typedef struct node {
	const char *host;
	src_loc loc; /* the host list word that defined it */
	int64_t index, number; /* {i} and {n} */
	node_spec *spec;
	const char *mgmt, *gateway, *bmc;
	const char **storage; /* evaluated, parallel to spec->storage */
	const char *k8s_name; /* its Kubernetes node's name (never NULL once resolved) */
} node;

typedef struct ap_entry {
	const char *host;
	src_loc loc;
} ap_entry;

typedef struct cluster_spec {
	bool defined;
	const char *name;
	src_loc loc, name_loc;
	opt_str provider, log_mask, control_log_mask, transport, control_log_file, helper_log_file;
	opt_int crt_timeout_ms, swim_suspect_ms, port, system_ram_reserved, telemetry_port;
	opt_int fabric_port, disable_srx;
	opt_str fabric_kind;
	opt_int gid_index;
	/* fabric roce { lossless { priority P dscp D ecn on|off } }: PFC on P,
	 * RDMA traffic marked D and mapped to P, ECN (DCQCN) on P, on every
	 * fabric NIC of every node (targets/lossless.c) */
	struct lossless_spec {
		bool set;
		src_loc loc;
		opt_int priority, dscp;
		opt_str ecn;
	} lossless;
	ap_entry *aps;
	size_t naps, aps_cap;
	src_loc aps_loc;
	bool aps_set;
	env_list env;
	env_list client_env; /* client_env_vars: the agent hands them to clients */
	kube_spec kube;
	bool tainted;
} cluster_spec;

/* ---- pools and containers (artifacts come with their own issue) ---------- */

typedef struct pool_plan {
	const char *label;
	const char *size; /* as dmg takes it: 90%, 120TiB */
	int svc_rf;
	const char *user, *group;
	const char *mem_ratio; /* --mem-ratio as dmg takes it (50%), NULL: none */
	const char *acl_file;  /* acl/<label>.acl under cluster/, NULL: no ACL */
} pool_plan;

typedef struct container_plan {
	const char *label;
	const char *type; /* POSIX, HDF5, ... */
	int rd_fac;
	const char *rd_lvl; /* node or rank */
	int domains;        /* fault domains at rd_lvl */
	char oclass[24], file_oclass[24], dir_oclass[24]; /* "" when not set */
	uint64_t chunk, ec_cell; /* 0 when not set */
	const char *cksum;
	bool srv_cksum;
	const char *derivation; /* why: the goals and the fault domains */
	const char *acl_file;   /* "acl/<pool>/<container>.acl" when it has an ACL */
	struct dir_plan { const char *path; char oclass[24]; uint64_t chunk; } *dirs; /* checked, in order */
	size_t ndirs;
} container_plan;

typedef struct pool_spec {
	pool_plan *plan;
	size_t index; /* position in model.pools */
	struct container_spec **members; /* its containers, in definition order */
	size_t nmembers, members_cap;
	const char *name;
	src_loc loc, name_loc;
	opt_int size_bytes, size_pct, svc_rf;
	bool size_refused; /* `size` was given but refused: no "has no size" besides */
	opt_str owner, group;
	opt_int mem_ratio; /* hundredths of a percent: 5000 = 50% */
	struct acl_entry { const char *ace; src_loc loc; } *acl; /* ACE strings, in order */
	size_t nacl, acl_cap;
} pool_spec;

typedef struct container_spec {
	container_plan *plan;
	struct pool_spec *in_pool;
	const char *name;
	src_loc loc, name_loc;
	const char *pool;
	src_loc pool_loc;
	opt_str type, tolerate_level, files, directories, cksum, oclass, dir_oclass, file_oclass;
	opt_str rd_lvl, label;
	opt_int tolerate, chunk, ec_cell, rd_fac, srv_cksum;
	struct acl_entry *acl; /* `acl "A::OWNER@:rwdtTaAo"`, in order */
	size_t nacl, acl_cap;
	env_list attrs; /* `attr "name=value"`: daos container set-attr */
	/* `directory <path> [oclass <class>] [chunk <size>]`: a directory made at
	 * creation with its own defaults for what is created in it */
	struct dir_spec { const char *path; src_loc loc, path_loc; opt_str oclass; opt_int chunk; } *dirs;
	size_t ndirs, dirs_cap;
} container_spec;

/* mount <path> { container C in P ... }: a dfuse mount, a systemd service on
 * the nodes it names (SPEC.md, "Clients"). */
typedef struct mount_spec {
	const char *path;
	src_loc loc, path_loc;
	const char *container, *pool; /* `container C in P` */
	src_loc container_loc, pool_loc;
	bool container_set;
	ast_value *on, *on_end; /* host lists of `on`, first and last value; NULL: every node */
	src_loc on_loc;
	bool on_set;
	uint8_t *at;        /* per node index: 1 where mounted (after resolution; NULL: every node) */
	struct container_spec *cont; /* resolved (pools.c), NULL when unknown */
	opt_int multi_user, read_only, threads, eq_count;
	opt_str user, caching, intercept;
	opt_int intercept_global; /* `intercept <lib> global`: login shells, not a wrapper */
	env_list env;             /* the dfuse service's Environment= */
	/* `mpiio { ... }`: ROMIO hints for the jobs of these nodes (the file
	 * ROMIO_HINTS names); `hdf5_vol "<dir>"`: HDF5's DAOS VOL connector from
	 * that plugin directory. Both per job, through usr/local/bin/with-daos-io. */
	struct mpiio_spec {
		opt_str cb_read, cb_write, ds_read, ds_write, obj_class, cb_config_list;
		opt_int cb_buffer_size, cb_nodes, chunk_size, striping_unit;
		src_loc loc;
		bool set;
	} mpiio;
	opt_str hdf5_vol;
} mount_spec;

/* The mount is on node i (an index of model.nodes). */
static inline bool mount_on(const mount_spec *mt, size_t i)
{
	return !mt->at || mt->at[i];
}

typedef struct model {
	arena *ar;
	diag_ctx *dc;
	const daos_release *release;
	bool release_given; /* a daos line exists, valid or not */
	int release_patch;  /* `daos 2.6.3` -> 3; -1 when not given */
	src_loc release_loc;
	cluster_spec cluster;
	hardware **hws;
	size_t nhws, hws_cap;
	profile_def **profiles;
	size_t nprofiles, profiles_cap;
	node *nodes;
	size_t nnodes, nodes_cap;
	strmap node_index; /* canonical host (lower case, no trailing dot) -> node index + 1 */
	strmap name_index; /* hardware and profile names -> hardware * / profile_def * */
	strmap pool_index; /* pool name -> pool_spec * */
	strmap container_index; /* "pool\x1fname" -> container_spec * */
	strmap failed_kws; /* "<target>:<keyword>" of statements read wrong: given, value unknown */
	bool nodes_incomplete; /* a nodes statement failed: node lookups may miss */
	node_spec **specs; /* distinct specs, in first-use order */
	size_t nspecs, specs_cap;
	pool_spec **pools;
	size_t npools, pools_cap;
	container_spec **containers;
	size_t ncontainers, containers_cap;
	mount_spec **mounts;
	size_t nmounts, mounts_cap;
	struct kube_layout *kube_layout; /* the DaemonSet groups, made on first use (targets/kubernetes.c) */
} model;

/* transport insecure: allow_insecure, no certificates. */
static inline bool cluster_insecure(const cluster_spec *c)
{
	return c->transport.set && strcmp(c->transport.v, "insecure") == 0;
}

/* The spec's daos_server runs in a pod (deploy kubernetes). */
static inline bool spec_in_pods(const node_spec *s)
{
	return s->deploy.set && s->deploy.v[0] == 'k';
}

/* The node's name in Kubernetes (k8s_node_name, else its host in lower case). */
static inline const char *node_k8s_name(const node *nd)
{
	return nd->k8s_name ? nd->k8s_name : nd->host;
}

/* Where that name comes from: its k8s_node_name, else the host list word. */
static inline src_loc node_k8s_name_loc(const node *nd)
{
	return nd->spec && nd->spec->k8s_node_name.set ? nd->spec->k8s_node_name.loc : nd->loc;
}

/* Resolves the AST into the model. Findings go to dc. */
void model_resolve(model *m, arena *ar, diag_ctx *dc, ast_block *root);
node *model_node(const model *m, const char *host);
/* Whether keyword kw of target (a block's struct) was given but could not be
 * read: a rule that would report it missing stays quiet, its error is out. */
bool model_kw_failed(const model *m, const void *target, const char *kw);
/* "Did you mean" among the node names (the first 1,024) and the pool names
 * (the first 256); NULL when nothing is close. */
const char *model_suggest_node(const model *m, const char *host);
/* The same, only when no other host is as near (a fix may apply it). */
const char *model_suggest_node_unique(const model *m, const char *host);
const char *model_suggest_pool(const model *m, const char *name);
/* Reports a reference to a pool that is not defined, at loc. */
void model_unknown_pool(model *m, const char *name, src_loc loc);
hardware *model_hardware(const model *m, const char *name);
void env_set(arena *a, env_list *l, const char *name, const char *value, src_loc loc);
/* The entry of that name, or NULL (through the index once the list is long). */
const env_entry *env_find(const env_list *l, const char *name);
/* The engine on NUMA node n, writable: this spec's own copy. */
engine_spec *spec_engine(arena *a, node_spec *s, int n);
/* The engine on NUMA node n when one is declared, else NULL. */
static inline const engine_spec *spec_engine_at(const node_spec *s, int n)
{
	return s->eng[n] && s->eng[n]->present ? s->eng[n] : NULL;
}

#endif
