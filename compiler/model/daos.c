/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "daos.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const daos_release daos_releases[DAOS__NRELEASES] = {
#define RELEASE(e, name, ctx, ram, abt, mr) [e] = {e, name, ctx, ram, abt, mr},
#include "schemas/daos_releases.def"
#undef RELEASE
};

const daos_key_info daos_keys[DAOS__NKEYS] = {
#define STR KT_STR
#define INT KT_INT
#define BOOL KT_BOOL
#define LIST KT_LIST
#define MAP KT_MAP
#define LIST_MAP KT_LIST_MAP
#define DAOS_KEY(e, sec, type, n26, n28) [e] = {#sec, type, {n26, n28}},
#include "schemas/daos_keys.def"
#undef DAOS_KEY
#undef STR
#undef INT
#undef BOOL
#undef LIST
#undef MAP
#undef LIST_MAP
};

const char *const daos_debug_streams[] = {
	"ALL", "MD", "PL", "MGMT", "EPC", "DF", "REBUILD", "SEC", "CSUM", "GROUP_DEFAULT", "GROUP_METADATA_ONLY",
	"GROUP_METADATA", "ANY", "TRACE", "MEM", "NET", "IO", "TEST", NULL};
const char *const daos_log_subsystems[] = {
	"ALL", "DAOS", "ARRAY", "KV", "COMMON", "TREE", "VOS", "CLIENT", "SERVER", "RDB", "RSVC", "POOL", "CONTAINER",
	"OBJECT", "PLACEMENT", "REBUILD", "MGMT", "BIO", "TESTS", "DFS", "DUNS", "DRPC", "SECURITY", "DTX", "DFUSE",
	"IL", "CSUM", "STACK", "MISC", "MEM", "SWIM", "FI", "TELEM", "CRT", "RPC", "BULK", "CORPC", "GRP", "LM", "HG",
	"EXTERNAL", "ST", "IV", "CTL", NULL};
const char *const daos_control_log_levels[] = {"TRACE", "DEBUG", "INFO", "NOTICE", "ERROR", NULL};

int daos_name_known(const char *const *list, const char *name, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncasecmp(*list, name, n) == 0)
			return 1;
	return 0;
}

const char *daos_names_unknown(const char *const *list, const char *value, size_t *n)
{
	for (const char *p = value;;) {
		*n = strcspn(p, ",");
		if (!daos_name_known(list, p, *n))
			return p;
		if (!p[*n])
			return NULL;
		p += *n + 1;
	}
}

uint64_t daos_engine_reserve(int64_t targets)
{
	uint64_t t = targets < 0 ? 0 : targets > 65536 ? 65536 : (uint64_t)targets; /* no overflow below */
	return t * 128 * 1024 * 1024 > (1ULL << 30) ? t * 128 * 1024 * 1024 : 1ULL << 30;
}

int64_t daos_hugepage_targets(int64_t targets, bool has_meta)
{
	return targets + (has_meta || targets == 1);
}

uint64_t daos_ramdisk_max(uint64_t total, uint64_t hugepages, uint64_t reserved, int64_t engines, int64_t targets0)
{
	if (engines <= 0)
		return 0;
	uint64_t used = 0, r = daos_engine_reserve(targets0);
	if (__builtin_add_overflow(hugepages, reserved, &used) || __builtin_mul_overflow(r, (uint64_t)engines, &r) ||
	    __builtin_add_overflow(used, r, &used) || used >= total)
		return 0;
	return (total - used) / (uint64_t)engines;
}

void daos_ramdisk_formula(char *out, size_t size, uint64_t total, uint64_t hugepages, uint64_t reserved, int64_t engines,
			  int64_t targets0)
{
	const uint64_t gib = 1ULL << 30, mib = 1ULL << 20;
	snprintf(out, size, "(%llu GiB - %llu GiB hugepages - %llu GiB system_ram_reserved - %lld x %llu MiB engine reserve) / %lld engines",
		 (unsigned long long)(total / gib), (unsigned long long)(hugepages / gib), (unsigned long long)(reserved / gib),
		 (long long)engines, (unsigned long long)(daos_engine_reserve(targets0) / mib), (long long)engines);
}

const daos_release *daos_release_find(const char *name)
{
	for (int i = 0; i < DAOS__NRELEASES; i++)
		if (strcmp(daos_releases[i].name, name) == 0)
			return &daos_releases[i];
	return NULL;
}

const char *daos_key_name(const daos_release *rel, daos_key key)
{
	return daos_keys[key].name[rel->id];
}

const char *daos_release_list(void)
{
	static char list[128];
	if (!list[0])
		for (int i = 0; i < DAOS__NRELEASES; i++) {
			if (i)
				strcat(list, ", ");
			strcat(list, daos_releases[i].name);
		}
	return list;
}
