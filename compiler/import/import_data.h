/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* import_data.h - what the importer reads from each daos_server.yml and
 * decides about it, shared by its stages (private to compiler/import/):
 * read.c (a file into an imp_node), shape.c (NUMA nodes, node types,
 * profiles, drives left out), write.c (the description's text), verify.c
 * (the description built again and compared with the files). */
#ifndef DSLC_IMPORT_DATA_H
#define DSLC_IMPORT_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/base/buf.h"
#include "compiler/base/diag.h"
#include "compiler/lang/yaml_doc.h"
#include "compiler/model/daos.h"
#include "compiler/model/topology.h"

enum { IMP_MAX_ENGINES = 16, IMP_MAX_TIERS = 3, IMP_MAX_DRIVES = 64, IMP_MAX_NUMA = 16 };

/* An NVMe tier as the file writes it. */
typedef struct imp_tier {
	const char *drives[IMP_MAX_DRIVES];
	int ndrives;
	const char *roles[3];
	int nroles;
} imp_tier;

typedef struct imp_engine {
	const ynode *map;
	int index, numa;
	int64_t targets, helpers, first_core, pinned, port;
	bool has_fc, has_pin, has_port;
	const char *iface, *log_mask, *log_file;
	const char *scm_class; /* "ram" or "dcpm" */
	int64_t scm_size;      /* GiB; -1: not given */
	const char *scm_mount, *scm_device;
	const char **env;
	size_t nenv;
	imp_tier tiers[IMP_MAX_TIERS];
	int ntiers;
	imp_tier files; /* class file: emulated NVMe (drives are the files' paths) */
	int64_t file_size; /* bdev_size, GiB */
} imp_engine;

/* A setting of the whole system as one line of the cluster block (NULL:
 * dslc's default serves), with the place in the file that set it. */
typedef struct imp_setting {
	const char *line;
	src_loc loc;
} imp_setting;

enum imp_cluster_key {
	IC_PROVIDER, IC_ACCESS_POINTS, IC_PORT, IC_TRANSPORT, IC_CONTROL_LOG_MASK, IC_CONTROL_LOG_FILE,
	IC_HELPER_LOG_FILE, IC_TELEMETRY_PORT, IC_CRT_TIMEOUT, IC_SYSTEM_RAM_RESERVED, IC_FABRIC, IC_CLIENT_ENV, IC__COUNT
};

typedef struct imp_node {
	const char *path, *host;
	uint32_t file;
	const ynode *root;
	const char *name; /* the system name */
	src_loc name_loc;
	imp_setting cluster[IC__COUNT];
	const char *gid_env; /* FI_VERBS_GID_IDX=N when client_env_vars gives it */
	imp_engine eng[IMP_MAX_ENGINES];
	int neng;
	int64_t nr_hugepages; /* -1: not given */
	src_loc hugepages_loc;
	int group;            /* its profile */
	const char *excluded[IMP_MAX_DRIVES];
	int nexcluded;
} imp_node;

/* A node type and profile: the nodes whose engines are the same. */
typedef struct imp_group {
	const char *name;
	int first; /* its first node */
	/* per NUMA node: the drives in hardware order (the union of the nodes'), the NIC, the PMem */
	int nnuma;
	const char *drives[IMP_MAX_NUMA][IMP_MAX_DRIVES * 2];
	int ndrives[IMP_MAX_NUMA];
	int cores_per_socket;
	int64_t hugepage_bytes; /* 0: dslc's derived count serves */
	int reserve_os;         /* with a topology: OS cores at each NUMA node's start, first_core left to dslc */
} imp_group;

typedef struct importer {
	arena *a;
	diag_ctx *dc;
	src_set *src;
	const daos_release *rel;
	const topology *topo;
	const char *topo_path;
	imp_node *nodes;
	size_t nnodes;
	imp_group *groups;
	size_t ngroups, groups_cap;
	const char *common_env[64]; /* on every engine of every node: the cluster's env */
	size_t ncommon_env;
	const char *log_mask; /* every engine's, or NULL */
	int64_t fabric_port;  /* engine 0's port on the first node */
	const char *usage;    /* a wrong --host */
} importer;

/* read.c */
bool import_read_node(importer *im, imp_node *n);
/* s as a quoted string of the description. */
const char *import_quoted(arena *a, const char *s);
/* Whether a key the reader does not take holds DAOS's default value. */
bool import_is_default(const char *section, const char *key, const ynode *v);
/* shape.c */
bool import_shape(importer *im);
/* write.c */
void import_write(const importer *im, buf *out);
/* verify.c */
bool import_verify(importer *im, const void *model, const char *name);

int64_t import_derived_hugepages(const importer *im, const imp_node *n);

#endif
