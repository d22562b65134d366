/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* daos.h - DAOS releases and their configuration keys (tables in schemas/). */
#ifndef DSLC_DAOS_H
#define DSLC_DAOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum daos_release_id {
#define RELEASE(e, name, ctx, ram, abt, mr) e,
#include "schemas/daos_releases.def"
#undef RELEASE
	DAOS__NRELEASES
} daos_release_id;

typedef struct daos_release {
	daos_release_id id;
	const char *name;
	int ctx_cap;
	int system_ram_reserved_gib;
	int abt_stack_md_min; /* 0: no MD-on-SSD minimum */
	bool mem_ratio;       /* dmg pool create --mem-ratio */
} daos_release;

typedef enum daos_key {
#define DAOS_KEY(e, sec, type, n26, n28) e,
#include "schemas/daos_keys.def"
#undef DAOS_KEY
	DAOS__NKEYS
} daos_key;

/* The YAML shape a key's value must have. */
typedef enum daos_key_type { KT_STR, KT_INT, KT_BOOL, KT_LIST, KT_MAP, KT_LIST_MAP } daos_key_type;

typedef struct daos_key_info {
	const char *section; /* SERVER, ENGINE, TIER, TRANSPORT, CONTROL_METADATA, AGENT, ... */
	daos_key_type type;
	const char *name[DAOS__NRELEASES];
} daos_key_info;

extern const daos_release daos_releases[DAOS__NRELEASES];
extern const daos_key_info daos_keys[DAOS__NKEYS];

/* Names DAOS accepts, compared without case: DD_MASK debug streams and
 * DD_SUBSYS subsystems (src/control/server/engine/utils.go, the same in 2.6
 * and 2.8), control_log_mask levels (src/control/logging/level.go). */
extern const char *const daos_debug_streams[];
extern const char *const daos_log_subsystems[];
extern const char *const daos_control_log_levels[];
/* Whether name (n bytes) is in the NULL-terminated list, ignoring case. */
int daos_name_known(const char *const *list, const char *name, size_t n);
/* The first name of a comma-separated value (DD_MASK=io,mgmt) that the list
 * lacks, empty names included: its start, and its length in *n; NULL when
 * every name is known. */
const char *daos_names_unknown(const char *const *list, const char *value, size_t *n);

/* DAOS's per-engine memory reserve beside RAM SCM: max(targets x 128 MiB,
 * 1 GiB), and the largest RAM SCM per engine (CalcRamdiskSize,
 * src/control/server/storage/scm.go): (total - hugepages - reserved -
 * engines x reserve) / engines, in bytes, 0 when nothing is left. */
uint64_t daos_engine_reserve(int64_t targets);
/* The GiB of hugepages DAOS's minimum gives an engine with drives
 * (CalcMinHugepages, SetNrHugepages): one per target, +1 for the extra sys
 * xstream of a meta role, +1 for a 1-target engine (2.6.2+). */
int64_t daos_hugepage_targets(int64_t targets, bool has_meta);
uint64_t daos_ramdisk_max(uint64_t total, uint64_t hugepages, uint64_t reserved, int64_t engines, int64_t targets0);
/* That computation written out for a note, in GiB and MiB, into out. */
void daos_ramdisk_formula(char *out, size_t size, uint64_t total, uint64_t hugepages, uint64_t reserved, int64_t engines,
			  int64_t targets0);

const daos_release *daos_release_find(const char *name);
/* The key's name in that release, or NULL when the release has no such key. */
const char *daos_key_name(const daos_release *rel, daos_key key);
/* "2.6, 2.8", for messages. */
const char *daos_release_list(void);

#endif
