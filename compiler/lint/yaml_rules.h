/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_rules.h - the YAML linter's state and the checks its files share
 * (compiler/lint/; compiler/import/ reads values with its scalar helpers, so
 * that a value means to the importer what it means to the linter):
 * yaml_lint.c reads the file and checks the server's top level;
 * yaml_engines.c each engine's values, environment, cores and fabric
 * against the topology; yaml_storage.c the storage tiers, drives and
 * memory; yaml_agent.c daos_agent.yml; below them all, yaml_read.c reads
 * a value as DAOS does and yaml_keys.c checks keys and types. Facts:
 * ../shared/facts/daos-config.md sections 1-2 (keys and DAOS's validation)
 * and 2.12 (what DAOS misses). */
#ifndef DSLC_YAML_RULES_H
#define DSLC_YAML_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/base/diag.h"
#include "compiler/base/strmap.h"
#include "compiler/lang/yaml_doc.h"
#include "compiler/model/daos.h"
#include "compiler/model/fabric.h"
#include "compiler/model/topology.h"

typedef struct ylint {
	arena *a;
	diag_ctx *dc;
	const daos_release *rel;
	const topology *topo;
	strmap keys; /* "section\x1fname" (a key's name in any release) -> daos_key_info * */
	bool ucx; /* the provider is ucx+...: ABT_THREAD_STACKSIZE >= 32768 */
	int64_t mem_gib; /* the node's RAM, 0 unknown */
	uint64_t hugepage_size; /* bytes: --hugepage-size, the topology's, else 2 MiB */
	fabric_need fabric; /* what the provider needs of a fabric_iface */
} ylint;

enum { YAML_INT_MAX = 2147483647, YAML_MAX_ENGINES = 64 };

/* ---- server ------------------------------------------------------------------- */

typedef struct yengine {
	const ynode *map;
	int idx;
	int64_t targets, helpers, first_core, pinned, port;
	bool has_fc, has_pin, has_port;
	bool fc_refused; /* first_core has its own finding with the value to write */
	/* DAOS fills an engine's absent or empty fabric_iface, and its absent or
	 * zero fabric_iface_port, from the top-level keys (FabricConfig.Update,
	 * src/control/server/engine/config.go): iface and port are what the
	 * engine gets, the pairs where that is written */
	const char *iface;
	const ypair *iface_pair, *own_iface_pair; /* own: the engine's key, even an empty one */
	const ypair *port_pair;
	bool iface_inherited, port_inherited;
	int numa; /* with a topology: the engine's NUMA node, -1 unknown */
	int ctx;
	bool scm_ram, md_on_ssd, has_bdevs, has_meta;
	const char *scm_class;
	int64_t scm_size; /* GiB, 0 when not given */
	src_loc scm_size_loc;
} yengine;

/* Shared by the linter's files; each is described where it is defined. */
void yl_check_drive_owners(ylint *y, const ynode *root, const yengine *es, size_t n);
void yl_check_engines(ylint *y, const ynode *root, const ynode *engines);
void yl_check_env(ylint *y, const yengine *engine, const ynode *list);
void yl_check_keys(ylint *y, const ynode *map, const char *section);
void yl_check_ramdisk(ylint *y, const ynode *root, const yengine *es, size_t n);
void yl_check_storage(ylint *y, const yengine *e, bool has_cm_path);
bool yl_get_int(const ynode *map, const char *key, int64_t *out, src_loc *loc);
const char *yl_get_str(const ynode *map, const char *key);
bool yl_is_null(const ynode *v);
bool yl_is_true(const ynode *v);
src_loc yl_key_loc(const ynode *map, const char *key);
const ypair *yl_fabric_pair(const ynode *root, const ynode *engine, const char *key);
void yl_lint_agent(ylint *y, const ynode *root);
bool yl_scalar_bool(const ynode *v);
bool yl_scalar_int(const ynode *v, int64_t *out);
void yl_scan_storage(yengine *e);
void yl_value_error(ylint *y, src_loc loc, const char *help, const char *msg);

#endif
