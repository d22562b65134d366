/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* targets.h - artifacts: each a function from a node's plan to bytes.
 * A target never decides policy; placement did. */
#ifndef DSLC_TARGETS_H
#define DSLC_TARGETS_H

#include <stdbool.h>

#include "compiler/base/buf.h"
#include "compiler/model/model.h"
#include "compiler/place/place.h"

/* daos_agent's runtime_dir: its socket, which client processes (and client
 * pods, by a hostPath) reach. */
#define AGENT_RUNTIME_DIR "/var/run/daos_agent"
/* The host directories of the DAOS pods' hostPath volumes (pod_host.c makes
 * them, kubernetes.c mounts them) */
#define KUBE_SERVER_LOG_DIR "/var/log/daos/server"
#define KUBE_AGENT_LOG_DIR "/var/log/daos/agent"
#define KUBE_METADATA_DIR "/var/daos/config"
#define KUBE_AGENT_SOCKET_DIR "/run/daos_agent"
/* The DAOS drives' VFIO group devices, made again by dslc-vfio-bind: the
 * VFIO device plugin globs only these (pod_host.c, kubernetes.c) */
#define KUBE_VFIO_DEVDIR "/dev/dslc-vfio"
/* The DAOS pods' terminationGracePeriodSeconds (engines stop slowly), and
 * what a node's shutdown gives the other pods before them (kubelet.c) */
enum { KUBE_POD_GRACE_SECONDS = 120, KUBE_SHUTDOWN_OTHER_SECONDS = 30 };
/* of the grace, what the preStop hook leaves daos_server to exit after its
 * engines (kubernetes.c) */
enum { KUBE_PRESTOP_MARGIN_SECONDS = 10 };

/* What a target writes for one node: the bytes, and where (the table's path
 * unless the target chooses one, e.g. per OS family) with which mode. */
typedef struct target_file {
	buf *data;
	const char *path;
	int mode;
	int index; /* a target with several files per node is called with 0, 1, ... until it skips */
} target_file;

typedef enum target_result { TARGET_OK, TARGET_SKIP, TARGET_FAIL } target_result;

typedef target_result (*target_fn)(const model *m, const node *nd, target_file *out);
/* A target whose bytes depend on the node's spec only (no host name, no
 * address): it is not given the node, so the renderer may render it once
 * per spec and give every node of that spec the same bytes. */
typedef target_result (*spec_target_fn)(const model *m, const node_spec *s, target_file *out);

typedef struct target_info {
	const char *name; /* for the manifest and SPEC.md */
	const char *path; /* inside out/nodes/<host>/ */
	const char *doc;
	target_fn fn;           /* one of fn and spec_fn */
	spec_target_fn spec_fn;
} target_info;

extern const target_info target_table[];
extern const size_t target_count;

/* Artifacts of the whole cluster, under out/cluster/: called with index 0,
 * 1, ... until it skips, like a node target. */
typedef target_result (*cluster_target_fn)(const model *m, target_file *out);

typedef struct cluster_target_info {
	const char *name;
	const char *path;  /* inside out/cluster/ */
	const char *doc;
	int mode;          /* file mode, e.g. 0755 for scripts */
	cluster_target_fn fn;
} cluster_target_info;

extern const cluster_target_info cluster_target_table[];
extern const size_t cluster_target_count;

target_result target_pools_sh(const model *m, target_file *out);
target_result target_pools_json(const model *m, target_file *out);
target_result target_pool_acl(const model *m, target_file *out);
target_result target_kubernetes(const model *m, target_file *out);
target_result target_ansible(const model *m, target_file *out);

target_result target_daos_server(const model *m, const node_spec *s, target_file *out);
target_result target_daos_agent(const model *m, const node_spec *s, target_file *out);
target_result target_kernel(const model *m, const node *nd, target_file *out);
target_result target_kubelet(const model *m, const node *nd, target_file *out);
target_result target_bios(const model *m, const node *nd, target_file *out);
target_result target_networkd(const model *m, const node *nd, target_file *out);
target_result target_sysctl(const model *m, const node *nd, target_file *out);
target_result target_bios_apply(const model *m, const node *nd, target_file *out);
target_result target_containerd(const model *m, const node *nd, target_file *out);
target_result target_vfio(const model *m, const node *nd, target_file *out);
target_result target_pod_dirs(const model *m, const node *nd, target_file *out);
target_result target_dfuse(const model *m, const node *nd, target_file *out);
target_result target_mpiio(const model *m, const node *nd, target_file *out);
target_result target_intercept(const model *m, const node *nd, target_file *out);
target_result target_nccl(const model *m, const node_spec *s, target_file *out);
target_result target_nic_link(const model *m, const node_spec *s, target_file *out);
target_result target_lossless(const model *m, const node_spec *s, target_file *out);

/* The service of a dfuse mount: "dfuse-" + systemd-escape -p PATH +
 * ".service", appended to b. */
void dfuse_unit_name(buf *b, const char *path);

/* The DAOS configs of a spec (nodes share them; no host name inside). */
bool daos_server_yaml(const model *m, const node_spec *s, buf *out);
bool daos_agent_yaml(const model *m, const node_spec *s, buf *out);

/* Shared by both DAOS configs. */
const char *daos_access_point(const model *m, size_t i);

/* kube_ops.c: what runs around DAOS in pods. The rollout script's and
 * node-maintenance.sh's kubectl permissions, one row per resource and scope:
 * rollout-rbac.yaml's Role and ClusterRole and the scripts' `kubectl auth
 * can-i` preflight read it. */
typedef enum kube_scope {
	KS_NS,     /* in the DAOS namespace: the Role */
	KS_ALL,    /* in every namespace, or cluster-scoped: the ClusterRole */
	KS_NS_OBJ, /* the DAOS namespace's Namespace object only (resourceNames) */
} kube_scope;
typedef struct kube_permission {
	const char *group;       /* "" for the core group */
	const char *resource;
	const char *subresource; /* NULL: none */
	const char *verbs;       /* blank separated */
	kube_scope scope;
} kube_permission;
extern const kube_permission kube_rollout_permissions[];
extern const size_t kube_rollout_permission_count;
/* "VERB RESOURCE[.GROUP][/NAME] SUBRESOURCE|- NAMESPACE|all" lines, one per
 * verb; ns: the DAOS namespace (NAME for KS_NS_OBJ). */
void kube_can_i_lines(const char *ns, buf *out);
/* The Secrets the DAOS pods copy their certificates from, and the keys
 * each must hold (kubernetes.c mounts them; the scripts check them). */
typedef struct kube_secret {
	const char *name;
	const char *keys[4]; /* NULL-terminated when shorter */
	bool server;
} kube_secret;
extern const kube_secret kube_cert_secrets[2];
/* "NAME KEY KEY...\n" per Secret, nothing with `transport insecure`. */
void kube_secret_lines(const model *m, buf *out);
/* kube_plugins.c: device-plugins.yaml, dslc's own device plugins (their
 * ConfigMaps and DaemonSets in the DAOS namespace) and their images. */
bool kube_plugins_yaml(const model *m, buf *out);
const char *kube_plugin_account(void);
/* kube_client.c: the client templates, one per client group (the nodes'
 * RDMA resources and NCCL_IB_HCA: "2nic", "shared", "2nic-nccl-1a2b3c4d";
 * kubernetes.c's layout holds the first plan of each), and
 * client-namespaces.yaml. */
const char *kube_client_group(const model *m, const node_plan *p);
/* The RDMA resources of a node's pods, as limits (one per fabric NIC, or
 * the shared one once). */
struct yaml_out;
void kube_rdma_limits(struct yaml_out *y, const model *m, const node_plan *p);
/* The template of p's group: its path and bytes into tf. */
bool kube_client_yaml(const model *m, const node_plan *p, target_file *tf);
/* client-namespaces.yaml: each client namespace's Pod Security labels and,
 * with client_gpu_class, the ResourceClaimTemplate of each client group
 * (groups: a node plan of each). */
bool kube_client_namespaces(const model *m, const node_plan *const *groups, size_t ngroups, buf *out);
/* The device plugins' DaemonSets (the DAOS namespace) whose configuration
 * device-plugins.yaml holds, blank separated: they read it only at start. */
const char *kube_plugin_daemonsets(const model *m);
bool kube_pdb_yaml(const model *m, buf *out);
bool kube_rbac_yaml(const model *m, buf *out);
void kube_maintenance_script(const model *m, buf *out);
bool kube_has_server_pods(const model *m);

#endif
